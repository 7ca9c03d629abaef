"""Replays the convolution and pooling family's test table (tests/golden/record/conv_pool_ops.py,
recorded under PyTorch 2.6) through ctorch: each case's expression evaluated as the recorder
evaluated it; its result's values, dtype and shape, or its error (exception type and message); for
the gradient cases the grad_fn's name and every input's gradient for the recorded cotangent; for
the log cases the operators a dispatch mode sees. Shapes, dtypes, indices, integer results and the
pooling of values are compared exactly; the floating values of sums (convolutions, averages, their
gradients) within a tolerance of the dtype, as the two libraries add in different orders.

Usage: ctorch python tests/python/conv_pool_ops.py tests/golden/torch-2.6/conv_pool_ops.json [-v]"""
import json
import math
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

TOL = {"float32": 1e-5, "float64": 1e-12, "float16": 2e-3, "bfloat16": 1.6e-2}


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = (torch.arange(n, dtype=torch.float64) * 5 % 7 - 3).reshape(shape)
    if dtype == torch.bool:
        return t > 0
    if dtype == torch.uint8:
        return (t + 3).to(dtype)
    if dtype.is_floating_point:
        return (t * 0.5).to(dtype)
    return t.to(dtype)


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    if isinstance(r, str):
        return r
    return dict(values=r.detach().tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def close(a, b, tol):
    """a and b (nested lists of numbers) equal, floats within tol relative to the largest magnitude"""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
    return a == b


def scale(v):
    if isinstance(v, list):
        return max([scale(x) for x in v], default=0.0)
    return abs(v) if not (isinstance(v, float) and math.isnan(v)) else 0.0


def same(have, want, tol):
    if isinstance(want, list):
        return isinstance(have, list) and len(have) == len(want) and all(same(h, w, tol) for h, w in zip(have, want))
    if isinstance(want, dict) and "values" in want:
        t = TOL.get(want["dtype"], 0.0) if tol is None else tol
        # a sum's error grows with the largest magnitude in the result: compare against it
        t *= max(1.0, scale(want["values"]))
        return have["dtype"] == want["dtype"] and have["shape"] == want["shape"] and close(have["values"], want["values"], t)
    return have == want


def run_value(expr):
    return describe(eval(expr, {"torch": torch, "F": F, "X": X}))


def run_grad(c):
    dt = getattr(torch, c["dtype"])
    env = {"torch": torch, "F": F}
    ins = []
    for name, shape in zip("xwb", c["shapes"]):
        t = None
        if shape is not None:
            t = (X(shape, torch.float64) * 0.3 + torch.arange(X(shape).numel(), dtype=torch.float64).reshape(shape) * 0.01).to(dt)
            t.requires_grad_()
            ins.append(t)
        env[name] = t
    y = eval(c["grad"], env)
    g = (torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) % 5) * 0.5 - 1.0
    y.backward(g)
    return dict(grad_fn=type(y.grad_fn).__name__, grads=[t.grad.tolist() for t in ins])


def run_log(c):
    a, b = X(c["a"]), X(c["b"])
    a.requires_grad_(c["requires_grad"])
    with Log() as m:
        eval(c["log"], {"torch": torch, "F": F, "X": X, "a": a, "b": b})
    return m.ops


def main():
    rec = json.load(open(sys.argv[1]))
    verbose = "-v" in sys.argv
    kinds = ("value", "error", "grad", "log")
    counts, passed, failures = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0), []
    for c in rec["cases"]:
        kind = "grad" if "grad" in c else "log" if "log" in c else "error" if c["id"].startswith("error/") else "value"
        counts[kind] += 1
        try:
            have = run_grad(c) if kind == "grad" else run_log(c) if kind == "log" else \
                run_value(c["expr"]) if kind == "value" else (eval(c["expr"], {"torch": torch, "F": F, "X": X}), "no error")[1]
            err = None
        except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
            have, err = None, [type(e).__name__, str(e)]
        if "error" in c:
            problem = None if err == c["error"] else f"PyTorch raised {c['error']}, ctorch " + \
                (f"raised {err}" if err else f"returned {have}")
        elif err:
            problem = f"PyTorch returned; ctorch raised {err}"
        elif kind == "grad":
            want = c["result"]
            ok = have["grad_fn"] == want["grad_fn"] and close(have["grads"], want["grads"],
                                                              TOL[c["dtype"]] * max(1.0, scale(want["grads"])))
            problem = None if ok else f"PyTorch {want}, ctorch {have}"
        else:
            problem = None if same(have, c["result"], None) else f"PyTorch {c['result']}, ctorch {have}"
        if problem:
            failures.append(f"{c['id']}: {problem}" + (f"\n      {c.get('expr', c.get('grad', c.get('log')))}"
                                                      if verbose else ""))
        else:
            passed[kind] += 1
    print(f"conv/pool ops: {sum(counts.values())} cases, {sum(passed.values())} pass ({passed['value']}/{counts['value']} "
          f"values, {passed['error']}/{counts['error']} errors, {passed['grad']}/{counts['grad']} gradients, "
          f"{passed['log']}/{counts['log']} mode logs)")
    for f in failures:
        print("FAIL:", f[:600])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
