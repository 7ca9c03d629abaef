"""Records what PyTorch 2.6 does with each misuse case of tests/python/misuse_cases.py, for the
python_misuse test (tests/python/misuse.py replays every case under ctorch and compares).

Usage (under real PyTorch 2.6, with the reference tool, from the repository's root so that
tests/python is inside the folder it runs in):
    torchref tests/golden/record/python_misuse.py tests/golden/torch-2.6/python_misuse.json

Each case runs alone in a child forked from this process, which has imported torch and run
nothing else (tests/python/misuse_harness.py). Output: a JSON object with "torch" (the version),
"python" (the interpreter's version: messages Python itself writes may differ between versions)
and "cases": {case id: {"code": hash of the case's code, "type": exception class name or null,
"first_line": first line of str(exception) or null, "result": the description of `out` or null,
"state": grad mode, inference mode, mode-stack lengths and TLS key sets after the case}}.
A case that crashes or hangs under PyTorch is not written: the recording stops and names it."""
import json
import os
import platform
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import torch  # noqa: E402

import misuse_cases  # noqa: E402
import misuse_harness  # noqa: E402


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: python_misuse.py OUT.json")
    cases, bad = {}, []
    for cid, code in misuse_cases.CASES:
        report, crash, output = misuse_harness.run_in_child(cid, code, torch, timeout=120)
        if crash:
            bad.append(f"{cid}: {crash}\n{output[-2000:]}")
            continue
        cases[cid] = dict(code=misuse_harness.code_hash(code), **report)
    if bad:
        for b in bad:
            print(b, file=sys.stderr)
        raise SystemExit(f"{len(bad)} cases crashed or hung under PyTorch: nothing written")
    with open(argv[1], "w") as f:  # one case a line
        f.write(f'{{"torch": {json.dumps(torch.__version__)}, "python": {json.dumps(platform.python_version())}, '
                '"cases": {\n')
        f.write(",\n".join(f"{json.dumps(cid)}: {json.dumps(c)}" for cid, c in cases.items()))
        f.write("\n}}\n")
    raised = sum(1 for c in cases.values() if c["type"])
    print(f"{len(cases)} cases recorded: {raised} raised, {len(cases) - raised} returned")


if __name__ == "__main__":
    main(sys.argv)
