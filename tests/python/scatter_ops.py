"""Replays the scatter / nonzero / padding family's test table (tests/golden/record/scatter_ops.py,
recorded under PyTorch 2.6) through ctorch: each case's expression evaluated as the recorder
evaluated it; its result's values, dtype, shape, strides, contiguity and whether it is a view of the
input (the first X(...) of the expression), or its error (exception type and message); for the
gradient cases the grad_fn's name and the input's gradient for the recorded cotangent; for the log
cases the operators a dispatch mode sees (blog: the forward and its backward). Values are compared
exactly (a NaN equals a NaN): the scatter loop combines elements in PyTorch's order.

Usage: ctorch python tests/python/scatter_ops.py tests/golden/torch-2.6/scatter_ops.json [-v]"""
import json
import math
import sys
import warnings

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

warnings.simplefilter("ignore")


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = torch.arange(n, dtype=torch.float64).reshape(shape)
    if dtype == torch.bool:
        return (t.long() % 3 == 1).reshape(shape)
    return t.to(dtype)


def I(data):
    return torch.tensor(data, dtype=torch.int64)


ENV = dict(torch=torch, F=F, I=I)


def describe(r, base):
    if isinstance(r, (tuple, list)):
        return [describe(x, base) for x in r]
    if isinstance(r, int):  # the sym_* size queries
        return r
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                strides=list(r.stride()), contiguous=r.is_contiguous(),
                view=bool(base is not None and r.numel() > 0 and storage_ptr(r) == storage_ptr(base)))


def storage_ptr(t):
    """where t's storage starts: the same for tensors that share one"""
    return t.data_ptr() - t.storage_offset() * t.element_size()


def same(a, b):
    """equal, a NaN matching a NaN"""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b) or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                              and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def run_value(expr):
    base = {}

    def Xr(shape, dtype=torch.float32):
        t = X(shape, dtype)
        base.setdefault("t", t)
        return t

    r = eval(expr, dict(ENV, X=Xr))
    return describe(r, base.get("t"))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def cotangent(y):
    return torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0


def run_grad(c):
    x = X(c["shape"], getattr(torch, c["dtype"])).requires_grad_()
    y = eval(c["grad"], dict(ENV, x=x, X=X))
    y.backward(cotangent(y))
    return dict(grad_fn=type(y.grad_fn).__name__, grad=x.grad.tolist())


def run_log(c):
    a, b = X(c["a"]), X(c["b"])
    with Log() as m:
        eval(c["log"], dict(ENV, a=a, b=b, X=X))
    return m.ops


def run_blog(c):
    x = X(c["shape"]).requires_grad_()
    with Log() as m:
        y = eval(c["blog"], dict(ENV, x=x, X=X))
    g = cotangent(y)
    with Log() as m2:
        y.backward(g)
    return m.ops + ["--"] + m2.ops


# What ctorch does not do yet, each failing as it says: a case listed here that passes is a failure
# (the list only shrinks)
CIRCULAR = "_pad_circular copies the input into slices of a new tensor: its gradient needs CopySlices"
KNOWN = {f"{k}/{dt}": CIRCULAR for k in ("grad/pad_circular", "grad/pad_circular_2d") for dt in ("float32", "float64")}
KNOWN["blog/pad_circular"] = CIRCULAR

rec = json.load(open(sys.argv[1]))
verbose = "-v" in sys.argv
kinds = ("value", "error", "grad", "log", "blog")
counts, passed, failures, known = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0), [], 0
for c in rec["cases"]:
    kind = "grad" if "grad" in c else "log" if "log" in c else "blog" if "blog" in c else \
        "error" if c["id"].startswith("error/") else "value"
    counts[kind] += 1
    try:
        have = run_grad(c) if kind == "grad" else run_log(c) if kind == "log" else run_blog(c) if kind == "blog" else \
            run_value(c["expr"]) if kind == "value" else (eval(c["expr"], dict(ENV, X=X)), "no error")[1]
        err = None
    except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
        have, err = None, [type(e).__name__, str(e)]
    if "error" in c:
        problem = None if err == c["error"] else f"PyTorch raised {c['error']}, ctorch " + \
            (f"raised {err}" if err else f"returned {have}")
    elif err:
        problem = f"PyTorch returned; ctorch raised {err}"
    else:
        problem = None if same(have, c["result"]) else f"PyTorch {c['result']}, ctorch {have}"
    if c["id"] in KNOWN:
        if problem:
            known += 1
        else:
            failures.append(f"{c['id']}: passes, but is listed as a known difference ({KNOWN[c['id']]})")
        continue
    if problem:
        failures.append(f"{c['id']}: {problem}" + (f"\n      {c.get('expr', c.get('grad', c.get('log', c.get('blog'))))}"
                                                  if verbose else ""))
    else:
        passed[kind] += 1
print(f"scatter ops: {sum(counts.values())} cases, {sum(passed.values())} pass ({passed['value']}/{counts['value']} "
      f"values, {passed['error']}/{counts['error']} errors, {passed['grad']}/{counts['grad']} gradients, "
      f"{passed['log']}/{counts['log']} mode logs, {passed['blog']}/{counts['blog']} backward logs; {known} known differences)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
