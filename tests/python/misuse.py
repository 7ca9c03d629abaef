"""The misuse suite: every case of tests/python/misuse_cases.py run under ctorch and compared with
what PyTorch 2.6 did with it (the recording tests/golden/record/python_misuse.py makes).

  ctorch python tests/python/misuse.py RECORDING.json [-k PATTERN] [--list-failures-json FILE]
                                                      [--timeout SECONDS]

Each case runs alone in a child forked from this process (which imports torch and runs no case
code itself), under a timeout (30 s by default); tests/python/misuse_harness.py says how. Each
case falls in one class, the first that applies:
  crash            the child died by a signal, exited non-zero, left no report or hung
                   (what it wrote is shown: a sanitizer's report, the Python stack)
  silent success   PyTorch raised, ctorch returned
  state leak       grad mode, inference mode, a mode stack's length or a TLS key set after the
                   case is not what it was under PyTorch
  missing, raised  PyTorch raised, ctorch raised NotImplementedInCtorch: the call uses a part of
                   PyTorch ctorch lacks, so ctorch cannot check it the way PyTorch does and says
                   what is missing instead (allowed, counted and listed on its own: it is not an
                   answer to the mistake, and it is never one of PyTorch's own exception types)
  type mismatch    both raised ctorch's and PyTorch's own errors, of different class names
  message mismatch both raised the same class, the first lines of their messages differ
                   (object addresses aside)
  missing feature  PyTorch returned, ctorch raised NotImplementedInCtorch (allowed, listed)
  wrong result     both returned, the descriptions of `out` differ
  other failure    PyTorch returned, ctorch raised something else
  match            none of these
A case changed since the recording, or not in it, is "unrecorded" (record again).

The run fails (exit 1) unless there are no crashes, silent successes, state leaks, type
mismatches, wrong results, other failures and unrecorded cases, and the first lines are the same
in at least 90% of the cases where both raised. -k PATTERN runs the cases whose id matches the
regular expression PATTERN (re.search); --list-failures-json FILE writes every non-matching case
as JSON."""
import argparse
import json
import os
import platform
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import misuse_cases  # noqa: E402
import misuse_harness  # noqa: E402

MISSING = "NotImplementedInCtorch"
CLASSES = [  # (key, how the summary counts it), in the order the checks apply and the summary reads
    ("match", "match"),
    ("crash", "crashes"),
    ("silent", "silent successes"),
    ("state", "state leaks"),
    ("missing_raised", "missing where PyTorch raised"),
    ("type", "type mismatches"),
    ("message", "message mismatches"),
    ("missing", "missing features"),
    ("wrong", "wrong results"),
    ("other", "other"),
]
HEADINGS = {"crash": "crashes", "silent": "silent successes (PyTorch raised, ctorch returned)",
            "state": "state leaks (the state after the case differs)",
            "missing_raised": "missing where PyTorch raised (NotImplementedInCtorch where PyTorch raised an error)",
            "type": "type mismatches",
            "message": "message mismatches (same class, first line differs)",
            "missing": "missing features (NotImplementedInCtorch where PyTorch returned)",
            "wrong": "wrong results", "other": "other failures (PyTorch returned, ctorch raised)",
            "unrecorded": "unrecorded (the case changed since the recording, or is not in it)"}
MIN_SAME_FIRST_LINE = 0.90


def outcome_text(report, limit=400):
    if report["type"] is not None:
        text = f"raised {report['type']}: {report['first_line']}"
    else:
        text = f"returned {report['result']}"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def state_diff(want, got):
    return [f"{k}: PyTorch {want.get(k)!r}, ctorch {got.get(k)!r}" for k in want if want.get(k) != got.get(k)] + \
           [f"{k}: not recorded, ctorch {got[k]!r}" for k in got if k not in want]


def classify(want, got, crash):
    """The class of one case from PyTorch's recorded report and ctorch's (None when it crashed)."""
    if crash:
        return "crash"
    if want["type"] is not None and got["type"] is None:
        return "silent"
    if state_diff(want["state"], got["state"]):
        return "state"
    if want["type"] is not None:
        if got["type"] == MISSING:
            return "missing_raised"
        if got["type"] != want["type"]:
            return "type"
        return "match" if got["first_line"] == want["first_line"] else "message"
    if got["type"] is not None:
        return "missing" if got["type"] == MISSING else "other"
    return "match" if got["result"] == want["result"] else "wrong"


def precheck(torch):
    """The functions the post-state reads, and the exception class missing features raise, must be
    in this torch._C: a case's state would otherwise be unreadable, not merely different."""
    missing = [n for n in misuse_harness.STATE_FUNCTIONS + [MISSING] if not hasattr(torch._C, n)]
    return [f"torch._C.{n} does not exist" for n in missing]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("recording")
    ap.add_argument("-k", dest="pattern", help="run only the cases whose id matches this regular expression")
    ap.add_argument("--list-failures-json", dest="failures_json", help="write the non-matching cases to this file")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a case may take (default 30)")
    args = ap.parse_args(argv[1:])

    import torch
    problems = precheck(torch)
    if problems:
        for p in problems:
            print(f"misuse python: runner pre-check failed: {p}")
        return 2

    with open(args.recording) as f:
        recording = json.load(f)
    recorded = recording["cases"]
    cases = misuse_cases.CASES
    if args.pattern:
        cases = [(cid, code) for cid, code in cases if re.search(args.pattern, cid)]
        if not cases:
            print(f"misuse python: no case id matches {args.pattern!r}")
            return 2
    print(f"misuse python: {len(cases)} cases; recorded with PyTorch {recording.get('torch')} under Python "
          f"{recording.get('python')}, run with ctorch {torch.__version__} under Python {platform.python_version()}")

    start = time.monotonic()
    results = []
    for cid, code in cases:
        want = recorded.get(cid)
        if want is None or want.get("code") != misuse_harness.code_hash(code):
            results.append({"id": cid, "class": "unrecorded", "pytorch": None, "ctorch": None,
                            "why": "not in the recording" if want is None else "changed since the recording"})
            continue
        got, crash, output = misuse_harness.run_in_child(cid, code, torch, args.timeout)
        cls = classify(want, got, crash)
        entry = {"id": cid, "class": cls, "pytorch": outcome_text(want, 10 ** 6),
                 "ctorch": crash if crash else outcome_text(got, 10 ** 6)}
        if not crash:
            entry["state"] = state_diff(want["state"], got["state"])
            # ctorch's own error against PyTorch's: a NotImplementedInCtorch is no answer to compare
            entry["both_raised"] = want["type"] is not None and got["type"] is not None and got["type"] != MISSING
            entry["same_first_line"] = entry["both_raised"] and got["first_line"] == want["first_line"]
        else:
            entry["output_tail"] = crash_excerpt(output)
        results.append(entry)
    elapsed = time.monotonic() - start

    counts = {key: 0 for key, _ in CLASSES}
    counts["unrecorded"] = 0
    for r in results:
        counts[r["class"]] += 1
    both = sum(1 for r in results if r.get("both_raised"))
    same = sum(1 for r in results if r.get("same_first_line"))
    share = same / both if both else 1.0

    failing = [r for r in results if r["class"] != "match"]
    order = [key for key, _ in CLASSES if key != "match"] + ["unrecorded"]
    for key in order:
        group = [r for r in failing if r["class"] == key]
        if not group:
            continue
        print(f"\n== {HEADINGS[key]}: {len(group)}")
        for r in group:
            if key == "unrecorded":
                print(f"  {r['id']}: {r['why']}")
                continue
            print(f"  {r['id']}")
            print(f"    PyTorch: {_short(r['pytorch'])}")
            print(f"    ctorch:  {_short(r['ctorch'])}")
            for line in r.get("state", []):
                print(f"    state    {line}")
            if r.get("output_tail"):
                print("    output:")
                for line in r["output_tail"].splitlines():
                    print(f"      | {line}")

    parts = [f"{counts[key]} {label}" for key, label in CLASSES]
    parts[[key for key, _ in CLASSES].index("message")] += f" (first line same in {100.0 * share:.1f}% of {both} both-raise cases)"
    summary = f"misuse python: {len(results)} cases: " + ", ".join(parts)
    if counts["unrecorded"]:
        summary += f", {counts['unrecorded']} unrecorded"
    print(f"\n{summary}  [{elapsed:.1f} s]")

    if args.failures_json:
        with open(args.failures_json, "w") as f:
            json.dump({"summary": summary, "counts": counts, "first_line_same": [same, both], "failures": failing}, f,
                      indent=1)
            f.write("\n")

    hard = [key for key in ("crash", "silent", "state", "type", "wrong", "other", "unrecorded") if counts[key]]
    ok = not hard and share >= MIN_SAME_FIRST_LINE
    if not ok:
        why = [f"{counts[k]} {dict(CLASSES).get(k, k)}" for k in hard]
        if share < MIN_SAME_FIRST_LINE:
            why.append(f"first lines the same in {100.0 * share:.1f}% < {100 * MIN_SAME_FIRST_LINE:.0f}% of the "
                       "both-raise cases")
        print("misuse python: FAIL: " + "; ".join(why))
    return 0 if ok else 1


INTERPRETER_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ .*\(\S*python3[\d.]*\+0x[0-9a-f]+\)$")
REPORT_START = re.compile(r"==\d+==ERROR|runtime error:|Fatal Python error|Traceback \(most recent call last\)")


def crash_excerpt(output, head=25, tail=15):
    """What a crashed child wrote, cut short: a sanitizer's report (or the first traceback) from its
    first line on, and the last lines (the Python stack faulthandler prints)."""
    lines = []
    for ln in output.rstrip().splitlines():  # the interpreter's own frames (no symbols) as one line each run
        if INTERPRETER_FRAME.search(ln):
            if not lines or lines[-1] != "    (interpreter frames)":
                lines.append("    (interpreter frames)")
        else:
            lines.append(ln)
    start = next((i for i, ln in enumerate(lines) if REPORT_START.search(ln)), max(0, len(lines) - head - tail))
    lines = lines[start:]
    if len(lines) <= head + tail:
        return "\n".join(lines)
    return "\n".join(lines[:head] + [f"... ({len(lines) - head - tail} lines)"] + lines[-tail:])


def _short(text, limit=400):
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


if __name__ == "__main__":
    sys.exit(main(sys.argv))
