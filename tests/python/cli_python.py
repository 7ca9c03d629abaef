"""`ctorch python` names its code the ways python3 does, and behaves as python3 in each.

    cli_python.py CTORCH PYTHON3

For SCRIPT.py, -c CODE, -m MODULE, - (stdin), no argument with stdin not a terminal and on a
(pseudo-)terminal, and -i after -c and after a script (commands piped into stdin), runs the same code under `CTORCH python` and
under PYTHON3 (the interpreter ctorch was built for, the reference for what python3 does) and
compares what each prints: sys.argv, sys.path[0], __name__ and __file__, stdout and stderr (the
prompts of the interactive session included), exit status, tracebacks. Under ctorch the code also
checks that `torch` is ctorch. A missing script is one line on stderr and exit status 2, in
python3's form with the program's name. Exits non-zero on any difference.
"""
import os
import subprocess
import sys
import tempfile

ctorch, python3 = sys.argv[1], sys.argv[2]
failures = 0
checks = 0

# what the code reports of itself: printed the same by both, the torch check only under ctorch
PROBE = """import json, sys
g = globals()
print(json.dumps({"argv": sys.argv, "path0": sys.path[0], "name": __name__, "file": g.get("__file__")}))
if sys.argv[-1] == "under-ctorch":
    import torch
    assert torch.__name__ == "ctorch" and torch.ones(2).tolist() == [1.0, 1.0], torch
"""


def run(cmd, stdin="", cwd=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, detail=""):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print(f"FAIL: {what}\n{detail}", file=sys.stderr)


def same(what, args, stdin="", cwd=None):
    """Runs args under both and compares."""
    got = run([ctorch, "python"] + args, stdin, cwd)
    want = run([python3] + args, stdin, cwd)
    for label, g, w in (("exit status", got[0], want[0]), ("stdout", got[1], want[1]), ("stderr", got[2], want[2])):
        check(g == w, f"{what}: {label} differs from python3's", f"  ctorch python: {g!r}\n  python3:       {w!r}")
    return got


with tempfile.TemporaryDirectory() as tmp:
    tmp = os.path.realpath(tmp)
    probe = os.path.join(tmp, "probe.py")
    with open(probe, "w") as f:
        f.write(PROBE)
    sub = os.path.join(tmp, "sub")
    os.mkdir(sub)
    modes = 0

    # each way of naming the code, compared without the torch check, then run with it
    cases = [
        ("SCRIPT.py", ["probe.py", "a", "b"], "", tmp),
        ("SCRIPT.py from another folder", [probe, "a"], "", sub),
        ("-c CODE", ["-c", PROBE, "a", "b"], "", tmp),
        ("-m MODULE", ["-m", "probe", "a", "b"], "", tmp),
        ("- (stdin)", ["-", "a", "b"], PROBE, tmp),
        ("no argument, stdin not a terminal", [], PROBE, tmp),
    ]
    for what, args, stdin, cwd in cases:
        same(what, args, stdin, cwd)
        if args:
            r = run([ctorch, "python"] + args + ["under-ctorch"], stdin, cwd)
        else:  # no argument to add: the script itself checks
            r = run([ctorch, "python"], stdin.replace('sys.argv[-1] == "under-ctorch"', "True"), cwd)
        check(r[0] == 0 and r[2] == "", f"{what}: torch is not ctorch", f"  exit {r[0]}\n{r[2]}")
        modes += 1

    # the interactive session after -c and after a script: the prompts on stderr, the names
    # the code defined, torch as ctorch
    same("-i -c", ["-i", "-c", "x = 2"], "print(x)\nprint(x + 1)\n", tmp)
    same("-i SCRIPT.py", ["-i", "probe.py", "z"], "print(g['__name__'], json.dumps(sys.argv))\n", tmp)
    same("-i with no code", ["-i"], "import sys\nprint(sys.argv)\n", tmp)
    r = run([ctorch, "python", "-i", "-c", "import torch"], "print(torch.ones(2))\nprint(torch.__name__)\n", tmp)
    check(r[0] == 0 and r[1] == "tensor([1., 1.])\nctorch\n", "-i -c 'import torch': the session's output",
          f"  exit {r[0]}\n  stdout {r[1]!r}\n  stderr {r[2]!r}")
    # an error in the code: the same traceback, then the session (-i) or exit status 1
    same("-c raising", ["-c", "1 / 0"], "", tmp)
    same("-i -c raising", ["-i", "-c", "1 / 0"], "print('after')\n", tmp)
    same("-c SystemExit", ["-c", "raise SystemExit(4)"], "", tmp)
    modes += 3

    # a missing script: python3's line with the program's name, exit status 2
    r = run([ctorch, "python", "nosuch.py", "x"], "", tmp)
    w = run([python3, "nosuch.py", "x"], "", tmp)
    want = "ctorch python: " + w[2].split(": ", 1)[1]
    check(r[0] == 2 and w[0] == 2, "a missing script: exit status", f"  ctorch python {r[0]}, python3 {w[0]}")
    check(r[2] == want and r[2].count("\n") == 1 and r[1] == "", "a missing script: stderr",
          f"  got:  {r[2]!r}\n  want: {want!r}")
    check(f"'{tmp}/nosuch.py'" in r[2], "a missing script: the path is not absolute", r[2])
    # -i after a missing script goes on to the session, as python3 -i does
    r = run([ctorch, "python", "-i", "nosuch.py"], "print(1)\n", tmp)
    w = run([python3, "-i", "nosuch.py"], "print(1)\n", tmp)
    check((r[0], r[1]) == (w[0], w[1]) and r[2] == "ctorch python: " + w[2].split(": ", 1)[1],
          "-i with a missing script", f"  ctorch python: {r!r}\n  python3:       {w!r}")

    # no argument on a terminal: the interactive session with python3's banner (a pseudo-terminal)
    import pty
    import select

    def on_terminal(cmd):
        leader, follower = pty.openpty()
        p = subprocess.Popen(cmd, stdin=follower, stdout=follower, stderr=follower, cwd=tmp, close_fds=True)
        os.close(follower)
        os.write(leader, b"import sys; print(6 * 7, sys.argv, repr(sys.path[0]))\nraise SystemExit(3)\n")
        out = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 120)
            if not ready:
                p.kill()
                break
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the session ended
                break
            if not chunk:
                break
            out += chunk
        os.close(leader)
        return p.wait(), out.decode(errors="replace").replace("\r\n", "\n")

    got, want = on_terminal([ctorch, "python"]), on_terminal([python3])
    check(got[0] == want[0] == 3, "no argument on a terminal: exit status", f"  ctorch python {got[0]}, python3 {want[0]}")
    for part in ('Type "help", "copyright", "credits" or "license" for more information.', ">>> ", "42 [''] ''"):
        check(part in got[1] and part in want[1], f"no argument on a terminal: {part!r}",
              f"  ctorch python: {got[1]!r}\n  python3:       {want[1]!r}")
    check(got[1].split("\n", 1)[0] == want[1].split("\n", 1)[0], "no argument on a terminal: the banner's first line",
          f"  ctorch python: {got[1]!r}\n  python3:       {want[1]!r}")
    modes += 1

print(f"cli_python: {modes} ways of running code compared with python3, {checks} checks, {failures} failures")
sys.exit(1 if failures else 0)
