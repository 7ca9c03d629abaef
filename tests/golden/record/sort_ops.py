"""Records the sorting and selection family's cases and the range factories' cases
(tests/python/sort_cases.py) under PyTorch 2.6, for the python_sort_ops test (tests/python/sort_ops.py
replays every case under ctorch and compares).

Usage (under real PyTorch 2.6, with the reference tool, from the repository's root so that
tests/python is inside the folder it runs in):
    torchref tests/golden/record/sort_ops.py tests/golden/torch-2.6/sort_ops.json

Output: a JSON object with "torch" (the version) and "cases": a list, one per case and dtype, of
{"id": "NAME:DTYPE", "expr", "input", "dtype", "want_grad", then "out" (a tensor's dtype, shape and
flat values, a tuple's type and items: torch.return_types.sort, ...) or "error" ({"type",
"message"}), and for float32/float64 cases with grad, "grad" (x.grad for a recorded cotangent) or
"grad_error"}, as tests/python/reduce_cases.py writes them. Floats are written as Python's repr of
the double they convert to, so float32 and float64 values are recorded bit for bit. One thread."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import torch  # noqa: E402

import reduce_cases  # noqa: E402
import sort_cases  # noqa: E402


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: sort_ops.py OUT.json")
    torch.set_num_threads(1)
    cases = []
    for name, expr, inp, grad, dtypes in sort_cases.CASES:
        for dtype in dtypes:
            rec = {"id": f"{name}:{dtype}", "expr": expr, "input": inp, "dtype": dtype, "want_grad": grad}
            rec.update(reduce_cases.run_case(torch, name, expr, inp, dtype, grad))
            cases.append(rec)
    with open(argv[1], "w") as f:
        f.write('{"torch": %s, "cases": [\n' % json.dumps(torch.__version__))
        f.write(",\n".join(json.dumps(c, sort_keys=True) for c in cases))
        f.write("\n]}\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main(sys.argv)
