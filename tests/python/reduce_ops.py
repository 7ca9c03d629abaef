"""Replays the reduction family's cases (tests/python/reduce_cases.py) under ctorch and compares each
with PyTorch 2.6's recording (tests/golden/torch-2.6/reduce_ops.json, written by
tests/golden/record/reduce_ops.py).

Usage: ctorch python tests/python/reduce_ops.py tests/golden/torch-2.6/reduce_ops.json

Compared, per case and dtype: an error's exception type and message exactly; a result's structure
(a tensor, or a tuple of the same type: torch.return_types.max, ...), dtypes, shapes and values:
integers and bools exactly, floats within the dtype's tolerance (reduce_cases.TOLS, NaN matching
NaN), except mean and sum in float32 and float64, which must be PyTorch's bits; and x.grad (or the
error backward raised) within the same tolerances; and the operator log a dispatch mode sees for
each of reduce_cases.OPLOG_CASES, exactly. Prints the counts and every difference; exits
1 on any."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import reduce_cases  # noqa: E402

EXACT_OPS = ("mean", "mean_v", "mean_e", "sum")


def _f(v):
    if isinstance(v, str):
        return float(v)
    return float(v)


def same_values(want, got, dtype, exact):
    if len(want) != len(got):
        return f"{len(got)} values, want {len(want)}"
    rtol, atol = reduce_cases.TOLS.get(dtype, (0.0, 0.0))
    for k, (w, g) in enumerate(zip(want, got)):
        if isinstance(w, bool) or isinstance(g, bool) or (isinstance(w, int) and isinstance(g, int)):
            if w != g:
                return f"value {k}: {g!r}, want {w!r}"
            continue
        wf, gf = _f(w), _f(g)
        if math.isnan(wf) or math.isnan(gf):
            if not (math.isnan(wf) and math.isnan(gf)):
                return f"value {k}: {g!r}, want {w!r}"
            continue
        if exact or math.isinf(wf) or math.isinf(gf):
            if wf != gf:
                return f"value {k}: {g!r}, want {w!r} (exactly)"
            continue
        if abs(wf - gf) > atol + rtol * abs(wf):
            return f"value {k}: {g!r}, want {w!r}"
    return None


def compare(want, got, exact):
    if "tuple" in want or "tuple" in got:
        if want.get("tuple") != got.get("tuple"):
            return f"returned {got.get('tuple', 'a tensor')}, want {want.get('tuple', 'a tensor')}"
        if len(want["items"]) != len(got["items"]):
            return "tuple length"
        for i, (w, g) in enumerate(zip(want["items"], got["items"])):
            d = compare(w, g, exact)
            if d:
                return f"item {i}: {d}"
        return None
    if "other" in want or "other" in got:
        return None if want == got else f"{got}, want {want}"
    if want["dtype"] != got["dtype"]:
        return f"dtype {got['dtype']}, want {want['dtype']}"
    if want["shape"] != got["shape"]:
        return f"shape {got['shape']}, want {want['shape']}"
    return same_values(want["values"], got["values"], want["dtype"], exact and want["dtype"] in ("float32", "float64"))


def compare_error(want, got):
    if want["type"] != got["type"] or want["message"] != got["message"]:
        return f"{got['type']}: {got['message']!r}, want {want['type']}: {want['message']!r}"
    return None


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: reduce_ops.py reduce_ops.json")
    torch.set_num_threads(1)
    with open(argv[1]) as f:
        table = json.load(f)
    recorded = table["cases"]
    counts = {"values": 0, "errors": 0, "grads": 0}
    fails = []
    for rec in recorded:
        name = rec["id"].split(":")[0]
        got = reduce_cases.run_case(torch, name, rec["expr"], rec["input"], rec["dtype"], rec["want_grad"])
        op = name.split(".")[0]
        diff = None
        if "error" in rec:
            diff = compare_error(rec["error"], got["error"]) if "error" in got else f"returned, want {rec['error']['type']}: {rec['error']['message']!r}"
            kind = "errors"
        else:
            kind = "values"
            if "error" in got:
                diff = f"raised {got['error']['type']}: {got['error']['message']!r}"
            else:
                diff = compare(rec["out"], got["out"], op in EXACT_OPS)
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
                diff = compare(rec["grad"], got["grad"], False)
                diff = diff and "grad: " + diff
            if diff is None:
                counts["grads"] += 1
        if diff is None:
            counts[kind] += 1
        else:
            fails.append(f"{rec['id']} [{rec['expr']} on {rec['input']}]: {diff}")
    logs_same = 0
    for rec in table["oplogs"]:
        got = reduce_cases.run_oplog(torch, rec["expr"])
        if got == rec["ops"]:
            logs_same += 1
        else:
            fails.append(f"op log of {rec['expr']}: {got}, want {rec['ops']}")
    for line in fails:
        print("FAIL", line)
    total = len(recorded)
    print(f"reduce_ops: {counts['values'] + counts['errors']}/{total} cases pass ({counts['values']} results, "
          f"{counts['errors']} errors, {counts['grads']} gradients); {logs_same}/{len(table['oplogs'])} op logs the same")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
