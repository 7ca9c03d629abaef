"""The sorting and selection family's cases and the range factories' cases, shared by the recorder
(tests/golden/record/sort_ops.py, under PyTorch 2.6) and the replay (tests/python/sort_ops.py, under
ctorch). It imports no torch. The inputs, their building and a case's run are the reduction family's
(tests/python/reduce_cases.py), with two inputs of its own: "L", a row of 40 values with many ties
and NaNs, "U", non-negative values with ties (for uint8 too), and "W", two rows of 150 with ties and NaNs.

A case is (name, expression, input, grad, dtypes): as in reduce_cases, with the dtypes it runs in.
"""
import math

import reduce_cases

reduce_cases.INPUTS["L"] = ((2, 20), lambda i: math.nan if i % 13 == 5 else float((i * 7) % 5) - 2.0)
reduce_cases.INPUTS["U"] = ((3, 5), lambda i: float((i * 5) % 4))
# long rows with many ties: topk's partial-sort path (k * 64 <= n), the introsort's partitions
reduce_cases.INPUTS["W"] = ((2, 150), lambda i: math.nan if i % 61 == 7 else float((i * 7) % 11) - 5.0)

INTS = ("int64", "int32", "int16", "int8")
ALL = reduce_cases.FLOATING + INTS + ("bool",)
FLOATING = reduce_cases.FLOATING


def _ops():
    ops = []

    def add(op, exprs, inputs, grad=True, dtypes=ALL):
        for k, e in enumerate(exprs):
            for inp in inputs:
                base = inp.split("/")[0]
                dts = dtypes
                if base in ("N", "M", "L"):
                    dts = tuple(d for d in dtypes if d in FLOATING)
                if base == "U" and dtypes is ALL:
                    dts = dtypes + ("uint8",)
                ops.append((f"{op}.{k}", e, inp, grad, dts))

    add("sort", ["torch.sort(x)", "torch.sort(x, 0)", "x.sort(1, descending=True)", "torch.sort(x, stable=True, dim=0)",
                 "torch.sort(x, dim=-1, descending=True, stable=True)", "torch.sort(x, stable=False)",
                 "torch.sort(x, 5)"], ("A", "T", "M", "V", "S", "E", "L", "U", "A/t"))
    add("argsort", ["torch.argsort(x)", "torch.argsort(x, dim=0, descending=True)", "x.argsort(stable=True)",
                    "torch.argsort(x, stable=True, dim=1, descending=True)"], ("A", "T", "M", "L", "U"), grad=False)
    add("long", ["torch.sort(x)", "x.sort(descending=True)", "torch.topk(x, 2)", "torch.topk(x, 2, largest=False)",
                 "torch.topk(x, 100)", "torch.kthvalue(x, 70)", "torch.median(x, 1)", "torch.nanmedian(x, 1)",
                 "torch.cummax(x, 1)"], ("W",), dtypes=FLOATING + ("int64", "int16"))
    add("msort", ["torch.msort(x)", "x.msort()"], ("A", "T", "M", "V"))
    add("topk", ["torch.topk(x, 2)", "x.topk(3, dim=0)", "torch.topk(x, 2, largest=False)",
                 "torch.topk(x, 1, 0, True, True)", "torch.topk(x, 0)", "torch.topk(x, 30)",
                 "torch.topk(x, 2, 5)", "torch.topk(x, 4, sorted=False).values.sort().values"],
        ("A", "T", "M", "V", "S", "L", "U", "A/t"))
    add("kthvalue", ["torch.kthvalue(x, 2)", "x.kthvalue(1, 0)", "torch.kthvalue(x, 2, 0, True)", "torch.kthvalue(x, 30)",
                     "torch.kthvalue(x, 0)"], ("A", "T", "M", "V", "S", "L", "U"))
    add("median", ["torch.median(x)", "x.median(1)", "torch.median(x, 0, keepdim=True)", "x.median(-1)"],
        ("A", "T", "M", "N", "V", "S", "E", "L", "U"))
    add("nanmedian", ["torch.nanmedian(x)", "x.nanmedian(1)", "torch.nanmedian(x, 0, keepdim=True)"],
        ("A", "T", "M", "N", "V", "L"))
    add("mode", ["torch.mode(x)", "x.mode(0)", "torch.mode(x, 1, keepdim=True)", "torch.mode(x, 3)"],
        ("A", "T", "M", "V", "S", "E", "L", "U", "W"))
    add("cummax", ["torch.cummax(x, 1)", "x.cummax(0)", "torch.cummax(x, -1)"], ("A", "T", "M", "N", "V", "S", "L", "U", "E"))
    add("cummin", ["torch.cummin(x, 1)", "x.cummin(0)"], ("A", "T", "M", "N", "V", "L", "U"))
    # the range factories: bits of float32 and float64 values, dtypes, messages
    add("linspace", ["torch.linspace(0, 1, 7)", "torch.linspace(-3.7, 11.3, 100)", "torch.linspace(0, 1, 1)",
                     "torch.linspace(0, 1, 0)", "torch.linspace(0, 1, -1)", "torch.linspace(0, 10, 5, dtype=torch.int64)",
                     "torch.linspace(1.5, -2.25, 33, dtype=torch.float64)", "torch.linspace(0.1, 0.9, 1000)",
                     "torch.linspace(2, 10, steps=5)", "torch.linspace(0, 1, 5, dtype=torch.float16)",
                     "torch.linspace(-1, 1, 17, dtype=torch.bfloat16)", "torch.linspace(3, -7, 13, dtype=torch.int32)",
                     "torch.linspace(1e-3, 1e3, 4097, dtype=torch.float64)", "torch.linspace(0.3, 0.7, 31)",
                     "torch.linspace(0, 1, 5, requires_grad=True)", "torch.linspace(True, False, 3)",
                     "torch.linspace(torch.tensor(0.5), torch.tensor(2.0), 5)", "torch.linspace(torch.tensor([0.5]), 2.0, 5)",
                     "torch.linspace(0.0, torch.tensor([1., 2.]), 3)", "torch.linspace(torch.tensor([1.]), torch.tensor([2.]), 3)",
                     "torch.linspace(torch.tensor(1), 3, 3)", "torch.linspace(-1, torch.tensor(1.0, dtype=torch.float64), 9)"],
        ("S",), grad=False, dtypes=("float32",))
    add("logspace", ["torch.logspace(0, 2, 5)", "torch.logspace(-1, 1, 9, base=2)",
                     "torch.logspace(0, 3, 4, dtype=torch.float64)", "torch.logspace(0, 1, -2)",
                     "torch.logspace(-2.5, 2.5, 41)", "torch.logspace(0, 4, 5, dtype=torch.int64)",
                     "torch.logspace(torch.tensor(0.), torch.tensor(2.), 3, base=2)", "torch.logspace(torch.tensor([0.]), 2, 3)",
                     "torch.logspace(0, torch.tensor([[2.]]), 3)", "torch.logspace(torch.tensor([0.]), torch.tensor(1.), 3)"],
        ("S",), grad=False, dtypes=("float32",))
    add("eye", ["torch.eye(3)", "torch.eye(2, 4)", "torch.eye(3, dtype=torch.int64)", "torch.eye(0)", "torch.eye(-1)",
                "torch.eye(2, -1)", "torch.eye(4, 2, dtype=torch.bool)", "torch.eye(2, requires_grad=True)"],
        ("S",), grad=False, dtypes=("float32",))
    add("new", ["x.new_zeros(2, 3)", "x.new_ones((2,))", "x.new_full((2, 2), 7)", "list(x.new_empty((2, 3)).shape)",
                "x.new_empty(2).dtype", "x.new_zeros(2, dtype=torch.int64)", "x.new_full((3,), 2.5)",
                "x.new_ones(2, 2, dtype=torch.float64)", "x.new_zeros([])", "x.new_full((2,), True)",
                "x.new_ones(-1)"], ("S",), grad=False, dtypes=("float32", "float64", "int64", "bool"))
    return ops


CASES = _ops()
