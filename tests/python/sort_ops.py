"""Replays the sorting and selection family's cases and the range factories' cases
(tests/python/sort_cases.py) under ctorch and compares each with PyTorch 2.6's recording
(tests/golden/torch-2.6/sort_ops.json, written by tests/golden/record/sort_ops.py).

Usage: ctorch python tests/python/sort_ops.py tests/golden/torch-2.6/sort_ops.json

Compared, per case and dtype: an error's exception type and message exactly; a result's structure
(a tensor, or a named tuple of the same type: torch.return_types.sort, ...), dtypes, shapes and
values, float32 and float64 values bit for bit (the selected elements themselves, and the range
factories' arithmetic), indices exactly (PyTorch's order of equal keys); and x.grad within the
reductions' tolerances. Prints the counts and every difference; exits 1 on any."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import reduce_cases  # noqa: E402
import reduce_ops  # noqa: E402
import sort_cases  # noqa: E402,F401  (adds its inputs to reduce_cases')


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: sort_ops.py sort_ops.json")
    torch.set_num_threads(1)
    with open(argv[1]) as f:
        table = json.load(f)
    recorded = table["cases"]
    counts = {"values": 0, "errors": 0, "grads": 0}
    fails = []
    # linspace's values are recorded from PyTorch's vectorised kernel (AVX2/AVX512, where start +
    # step * i is one fused multiply-add); at ctorch's baseline level linspace computes them
    # unfused, as PyTorch's baseline kernel is compiled, which the recording does not cover
    vectorised = torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")
    not_comparable = 0
    for rec in recorded:
        name = rec["id"].split(":")[0]
        if name.split(".")[0] == "linspace" and "error" not in rec and not vectorised:
            not_comparable += 1
            continue
        got = reduce_cases.run_case(torch, name, rec["expr"], rec["input"], rec["dtype"], rec["want_grad"])
        if "error" in rec:
            diff = reduce_ops.compare_error(rec["error"], got["error"]) if "error" in got else \
                f"returned, want {rec['error']['type']}: {rec['error']['message']!r}"
            kind = "errors"
        else:
            kind = "values"
            if "error" in got:
                diff = f"raised {got['error']['type']}: {got['error']['message']!r}"
            else:
                diff = reduce_ops.compare(rec["out"], got["out"], True)
        if diff is None and ("grad" in rec or "grad_error" in rec):
            if "grad_error" in rec:
                if "grad_error" not in got:
                    diff = "backward: no error, want " + rec["grad_error"]["message"]
            elif "grad_error" in got:
                diff = f"backward raised {got['grad_error']['type']}: {got['grad_error']['message']!r}"
            elif rec["grad"] is None or got.get("grad") is None:
                if rec["grad"] != got.get("grad"):
                    diff = f"grad {got.get('grad')}, want {rec['grad']}"
            else:
                diff = reduce_ops.compare(rec["grad"], got["grad"], False)
                diff = diff and "grad: " + diff
            if diff is None:
                counts["grads"] += 1
        if diff is None:
            counts[kind] += 1
        else:
            fails.append(f"{rec['id']} [{rec['expr']} on {rec['input']}]: {diff}")
    for line in fails:
        print("FAIL", line)
    print(f"sort_ops: {counts['values'] + counts['errors']}/{len(recorded)} cases pass ({counts['values']} results, "
          f"{counts['errors']} errors, {counts['grads']} gradients)" +
          (f"; {not_comparable} linspace results not compared at the CPU level "
           f"{torch.backends.cpu.get_cpu_capability()}" if not_comparable else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
