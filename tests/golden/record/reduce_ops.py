"""Records the reduction family's cases (tests/python/reduce_cases.py) under PyTorch 2.6, for the
python_reduce_ops test (tests/python/reduce_ops.py replays every case under ctorch and compares).

Usage (under real PyTorch 2.6, with the reference tool, from the repository's root so that
tests/python is inside the folder it runs in):
    torchref tests/golden/record/reduce_ops.py tests/golden/torch-2.6/reduce_ops.json

Output: a JSON object with "torch" (the version) and "cases": a list, one per case and dtype, of
{"id": "NAME:DTYPE", "expr", "input", "dtype", "grad" (whether the gradient is asked for), then
"out" (the result: a tensor's dtype, shape and flat values, or a tuple's type and items) or
"error" ({"type", "message"}), and for floating float32/float64 cases with grad, "grad" (x.grad)
or "grad_error"}, and "oplogs": the operators a dispatch mode sees for each of
reduce_cases.OPLOG_CASES. NaN and infinities are the strings "nan", "inf", "-inf". One thread, so the
float sums are the serial ones."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import torch  # noqa: E402

import reduce_cases  # noqa: E402


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: reduce_ops.py OUT.json")
    torch.set_num_threads(1)
    cases = []
    for name, expr, inp, grad in reduce_cases.CASES:
        for dtype in reduce_cases.case_dtypes(name, inp):
            rec = {"id": f"{name}:{dtype}", "expr": expr, "input": inp, "dtype": dtype, "want_grad": grad}
            rec.update(reduce_cases.run_case(torch, name, expr, inp, dtype, grad))
            cases.append(rec)
    oplogs = [{"expr": e, "ops": reduce_cases.run_oplog(torch, e)} for e in reduce_cases.OPLOG_CASES]
    with open(argv[1], "w") as f:
        f.write('{"torch": %s, "oplogs": %s, "cases": [\n' % (json.dumps(torch.__version__), json.dumps(oplogs)))
        f.write(",\n".join(json.dumps(c, sort_keys=True) for c in cases))
        f.write("\n]}\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main(sys.argv)
