"""Replays the shape-ops family's test table (tests/golden/record/shape_ops.py, recorded under PyTorch
2.6) through ctorch: each case's expression evaluated as the recorder evaluated it; its result's
values, dtype, shape, strides, contiguity and whether it is a view of the input (the first X(...)
of the expression), or its error (exception type and message); for the gradient cases the grad_fn's
name and the input's gradient for the recorded cotangent; for the log cases the operators a
dispatch mode sees. The ops copy or view elements, so every value is compared exactly.

Usage: ctorch python tests/python/shape_ops.py tests/golden/torch-2.6/shape_ops.json [-v]"""
import json
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = torch.arange(n, dtype=torch.float64).reshape(shape)
    if dtype == torch.bool:
        return (t.long() % 3 == 1).reshape(shape)
    return t.to(dtype)


def describe(r, base):
    if isinstance(r, (tuple, list)):
        return [describe(x, base) for x in r]
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                strides=list(r.stride()), contiguous=r.is_contiguous(),
                view=bool(base is not None and r.numel() > 0 and storage_ptr(r) == storage_ptr(base)))


def storage_ptr(t):
    """where t's storage starts: the same for tensors that share one"""
    return t.data_ptr() - t.storage_offset() * t.element_size()


def run_value(expr):
    base = {}

    def Xr(shape, dtype=torch.float32):
        t = X(shape, dtype)
        base.setdefault("t", t)
        return t

    r = eval(expr, {"torch": torch, "X": Xr})
    return describe(r, base.get("t"))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def run_grad(c):
    x = X(c["shape"], getattr(torch, c["dtype"])).requires_grad_()
    y = eval(c["grad"], {"torch": torch, "x": x})
    g = torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0
    y.backward(g)
    return dict(grad_fn=type(y.grad_fn).__name__, grad=x.grad.tolist())


def run_log(c):
    a, b = X(c["a"]), X(c["b"])
    with Log() as m:
        eval(c["log"], {"torch": torch, "a": a, "b": b})
    return m.ops


rec = json.load(open(sys.argv[1]))
verbose = "-v" in sys.argv
kinds = ("value", "error", "grad", "log")
counts, passed, failures = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0), []
for c in rec["cases"]:
    kind = "grad" if "grad" in c else "log" if "log" in c else "error" if c["id"].startswith("error/") else "value"
    counts[kind] += 1
    try:
        have = run_grad(c) if kind == "grad" else run_log(c) if kind == "log" else \
            run_value(c["expr"]) if kind == "value" else (eval(c["expr"], {"torch": torch, "X": X}), "no error")[1]
        err = None
    except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
        have, err = None, [type(e).__name__, str(e)]
    if "error" in c:
        problem = None if err == c["error"] else f"PyTorch raised {c['error']}, ctorch " + \
            (f"raised {err}" if err else f"returned {have}")
    elif err:
        problem = f"PyTorch returned; ctorch raised {err}"
    else:
        problem = None if have == c["result"] else f"PyTorch {c['result']}, ctorch {have}"
    if problem:
        failures.append(f"{c['id']}: {problem}" + (f"\n      {c.get('expr', c.get('grad', c.get('log')))}"
                                                  if verbose else ""))
    else:
        passed[kind] += 1
print(f"shape ops: {sum(counts.values())} cases, {sum(passed.values())} pass ({passed['value']}/{counts['value']} "
      f"values, {passed['error']}/{counts['error']} errors, {passed['grad']}/{counts['grad']} gradients, "
      f"{passed['log']}/{counts['log']} mode logs)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
