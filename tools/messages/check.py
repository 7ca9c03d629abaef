#!/usr/bin/env python3
"""Every error message in ctorch's sources is either PyTorch's, and then a test compares it with
PyTorch 2.6's recording of the same mistake, or ctorch's own, and then tools/messages/own.txt
lists it (with why it is ctorch's). A new message that is neither fails this check, so it cannot
go untested by accident; a line of own.txt that no longer matches a message fails too.

    tools/messages/check.py ROOT [--list]

What counts as a message: the format of every ct_error_set(KIND, "..." "...", ...) call in
ROOT/src (.c, .h and .def files): its adjacent string literals up to the first token that is not
one (a format continued by a macro such as DBL_FMT is its part before the macro). The same format
in several places is one message. A format that is only "%s" passes on a message built elsewhere
(the boxed call's type errors, whose parts test_boxed_checks compares) and is not counted.

What counts as compared with PyTorch: the message, its conversions (%d, %s, ...) read as "any
text", matches a string of a recording of PyTorch 2.6 in ROOT/tests/golden/torch-2.6 that a test
reads (the file's name appears in a test's source, tests/*.c or tests/python/*.py, or in
CMakeLists.txt): a JSON file's strings, a text file's lines, or its whole text for a message of
several lines. Of two messages only the part tests/test_mistakes.c compares is matched (PARTS
below).

--list prints every message with its file and what covers it."""
import json
import warnings
import os
import re
import sys

SPEC = re.compile(r"%(?:[-+ #0]*)(?:\d+|\*)?(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcspn%]")
TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|[A-Za-z_][A-Za-z_0-9]*|\S', re.S)


def c_unescape(s):
    warnings.simplefilter("ignore", DeprecationWarning)  # a test may write "\\/"
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


def messages(root):
    """{format as written in C (escapes kept): [(path, line), ...]}"""
    found = {}
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if not name.endswith((".c", ".h", ".def")):
                continue
            path = os.path.join(dirpath, name)
            text = open(path, encoding="utf-8").read()
            toks = [(m.group(0), m.start()) for m in TOKENS.finditer(text) if not m.group(0).startswith(("//", "/*"))]
            for i, (tok, pos) in enumerate(toks):
                if tok != "ct_error_set" or i + 1 >= len(toks) or toks[i + 1][0] != "(":
                    continue
                j, depth = i + 2, 0  # skip the kind argument
                while j < len(toks) and not (toks[j][0] == "," and depth == 0):
                    depth += toks[j][0] in "([" and 1 or toks[j][0] in ")]" and -1 or 0
                    j += 1
                j += 1
                parts = []
                while j < len(toks) and toks[j][0].startswith('"'):
                    parts.append(toks[j][0][1:-1])
                    j += 1
                fmt = "".join(parts)
                if not parts or fmt == "%s":
                    continue
                found.setdefault(fmt, []).append((os.path.relpath(path, root), text.count("\n", 0, pos) + 1))
    return found


# Where test_mistakes.c compares only the first part of a message (its normalisations): the
# list of backends after "Could not run ..." is the build's, and after "Multiple dispatch failed
# ..." a C handler is described, not a Python object.
PARTS = (("Could not run '", " is only available for these backends: ["),
         ("Multiple dispatch failed for '", "NotImplemented:"))


def pattern(fmt):
    text = c_unescape(fmt)
    for start, end in PARTS:
        if text.startswith(start) and end in text:
            text = text[:text.index(end) + len(end)]
    out, pos = [], 0
    for m in SPEC.finditer(text):
        out.append(re.escape(text[pos:m.start()]))
        out.append("%" if m.group(0) == "%%" else ".*?")
        pos = m.end()
    out.append(re.escape(text[pos:]))
    literal = max(SPEC.split(text), key=len)
    return re.compile("".join(out), re.S), literal


def strings_of(value, out):
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append(k)
            strings_of(v, out)
    elif isinstance(value, list):
        for v in value:
            strings_of(v, out)


def recorded_strings(root):
    """the strings of the recordings some test reads, with each one's file"""
    readers = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
    for d in ("tests", os.path.join("tests", "python")):
        for name in sorted(os.listdir(os.path.join(root, d))):
            if name.endswith((".c", ".py")):
                readers += open(os.path.join(root, d, name), encoding="utf-8").read()
    out = []
    golden = os.path.join(root, "tests", "golden", "torch-2.6")
    for dirpath, _, files in os.walk(golden):
        for name in sorted(files):
            if name not in readers:
                continue
            text = open(os.path.join(dirpath, name), encoding="utf-8", errors="replace").read()
            strs = []
            try:
                strings_of(json.loads(text), strs)
            except ValueError:
                for line in text.splitlines():
                    try:
                        strings_of(json.loads(line), strs)
                    except ValueError:
                        strs.append(line)
                strs.append(text)
            out.extend((name, s) for s in strs)
    return out


def test_literals(root):
    """the string literals of tests/*.c (adjacent ones joined): where ctorch's own messages are
    exercised"""
    out = []
    for name in sorted(os.listdir(os.path.join(root, "tests"))):
        if not name.endswith(".c"):
            continue
        text = open(os.path.join(root, "tests", name), encoding="utf-8").read()
        cur = None
        for m in TOKENS.finditer(text):
            tok = m.group(0)
            if tok.startswith(("//", "/*")):
                continue
            if tok.startswith('"'):
                cur = (cur or "") + tok[1:-1]
            elif cur is not None:
                out.append((name, c_unescape(cur)))
                cur = None
    return out


def own_list(path):
    """{format: section} from own.txt: "[section]" lines, then one format per line as written
    in C; "#" lines are comments"""
    own, section = {}, ""
    for line in open(path, encoding="utf-8").read().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        own[line] = section
    return own


def first_match(regex, literal, strings):
    return next((where for where, s in strings if literal in s and regex.search(s)), None)


def main():
    root = sys.argv[1]
    show = "--list" in sys.argv[2:]
    found = messages(root)
    recorded = recorded_strings(root)
    literals = test_literals(root)
    own = own_list(os.path.join(root, "tools", "messages", "own.txt"))
    n_recorded = n_own = n_own_tested = 0
    bad = []
    for fmt, where in sorted(found.items(), key=lambda kv: kv[1][0]):
        regex, literal = pattern(fmt)
        rec = first_match(regex, literal, recorded)
        tested = first_match(regex, literal, literals)
        if rec:
            n_recorded += 1
            status = "PyTorch's, compared with " + rec
        elif fmt in own:
            n_own += 1
            n_own_tested += tested is not None
            status = "ctorch's own (%s)%s" % (own[fmt], ", in " + tested if tested else ", in no test")
        else:
            bad.append((fmt, where))
            status = "NEITHER compared with PyTorch nor listed as ctorch's own"
        if show:
            print("%s:%d  %s\n    %s" % (where[0][0], where[0][1], fmt, status))
    stale = [fmt for fmt in own if fmt not in found]
    print("%d messages in src/ (%d calls): %d compared with PyTorch 2.6's recordings, %d listed as ctorch's own "
          "(%d of them exercised by a test), %d neither" %
          (len(found), sum(len(w) for w in found.values()), n_recorded, n_own, n_own_tested, len(bad)))
    for fmt, where in bad:
        print("NOT COVERED %s:%d: \"%s\" - record PyTorch's message for the same mistake and replay it in a test "
              "(tests/golden/record/mistakes.py, tests/test_mistakes.c), or list it in tools/messages/own.txt"
              % (where[0][0], where[0][1], fmt))
    for fmt in stale:
        print("STALE tools/messages/own.txt: \"%s\" is no message of src/ any more" % fmt)
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
