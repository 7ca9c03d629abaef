"""Replays the composites family's test table (tests/golden/record/composite_ops.py, recorded under
PyTorch 2.6) through ctorch: each case's expression evaluated as the recorder evaluated it; its
result's values (integers exactly, floating point within a tolerance: float32 1e-5 relative, float64
1e-10, as the products and sums may round in another order), dtype and shape, or its error
(exception type and message); for the gradient cases the grad_fn's name and every input's
gradient for the recorded cotangent; for the log cases the operators a dispatch mode sees
(forward, and backward for the "bwd/" ones); for the warning cases the warnings given.

Usage: ctorch python tests/python/composite_ops.py tests/golden/torch-2.6/composite_ops.json [-v] [-k SUBSTRING]"""
import json
import math
import sys
import warnings

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=torch.float64).reshape(shape).to(dtype)


def V(shape, seed=0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    vals = [round(math.sin(1.3 * i + seed) * 2.0, 6) for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


def P(shape, seed=0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    vals = [round(0.5 + 0.4 * math.sin(0.7 * i + seed), 6) for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


def S(shape, seed=0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    vals = [1.0 if math.sin(2.1 * i + seed) >= 0 else -1.0 for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


MAKERS = dict(X=X, V=V, P=P, S=S)
ENV = dict(torch=torch, F=F, X=X, V=V, P=P, S=S)


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape))


def close(a, b, rtol, atol):
    """a and b (nested lists of numbers, or None) equal, floats within the tolerance"""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= atol + rtol * abs(b)
    return a == b


def same(have, want):
    if isinstance(want, list):
        return isinstance(have, list) and len(have) == len(want) and all(same(h, w) for h, w in zip(have, want))
    if isinstance(want, dict) and "values" in want:
        if not isinstance(have, dict) or have["dtype"] != want["dtype"] or have["shape"] != want["shape"]:
            return False
        rtol, atol = (1e-10, 1e-12) if want["dtype"] == "float64" else (1e-5, 1e-6)
        return close(have["values"], want["values"], rtol, atol)
    return have == want


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def run_grad(c):
    xs = [MAKERS[m](s, seed, torch.float64).requires_grad_() for m, s, seed in c["inputs"]]
    y = eval(c["grad"], dict(ENV, **{f"x{i}": x for i, x in enumerate(xs)}))
    g = torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0
    y.backward(g)
    return dict(grad_fn=type(y.grad_fn).__name__, grads=[None if x.grad is None else x.grad.tolist() for x in xs])


def same_grad(have, want):
    return have["grad_fn"] == want["grad_fn"] and close(have["grads"], want["grads"], 1e-9, 1e-11)


def run_log(c):
    bwd = c["id"].startswith("log/bwd/")
    ins = [P(s, i) for i, s in enumerate(c["shapes"])]
    if bwd:
        ins = [t.requires_grad_() for t in ins]
    with Log() as m:
        y = eval(c["log"], dict(ENV, **dict(zip("abc", ins))))
        if bwd:
            y.sum().backward()
    return m.ops


def run_warn(c):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        eval(c["warn"], dict(ENV))
    return [[x.category.__name__, str(x.message)] for x in w]


rec = json.load(open(sys.argv[1]))
verbose = "-v" in sys.argv
only = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else None
kinds = ("value", "error", "grad", "log", "warn")
counts, passed, failures = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0), []
cases = [c for c in rec["cases"] if only is None or only in c["id"]]
# the warning cases first, as recorded: meshgrid's warning is given once a process
cases = [c for c in cases if "warn" in c] + [c for c in cases if "warn" not in c]
for c in cases:
    kind = "warn" if "warn" in c else "grad" if "grad" in c else "log" if "log" in c else \
        "error" if c["id"].startswith("error/") else "value"
    counts[kind] += 1
    if kind != "warn":
        warnings.simplefilter("ignore")
    try:
        if kind == "warn":
            have = run_warn(c)
        elif kind == "grad":
            have = run_grad(c)
        elif kind == "log":
            have = run_log(c)
        elif kind == "value":
            have = describe(eval(c["expr"], dict(ENV)))
        else:
            eval(c["expr"], dict(ENV))
            have = "no error"
        err = None
    except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
        have, err = None, [type(e).__name__, str(e)]
    if "error" in c:
        problem = None if err == c["error"] else f"PyTorch raised {c['error']}, ctorch " + \
            (f"raised {err}" if err else f"returned {have}")
    elif err:
        problem = f"PyTorch returned; ctorch raised {err}"
    else:
        ok = same_grad(have, c["result"]) if kind == "grad" else same(have, c["result"])
        problem = None if ok else f"PyTorch {c['result']}, ctorch {have}"
    if problem:
        failures.append(f"{c['id']}: {problem}" + (f"\n      {c.get('expr', c.get('grad', c.get('log', c.get('warn'))))}"
                                                  if verbose else ""))
    else:
        passed[kind] += 1
print(f"composite ops: {sum(counts.values())} cases, {sum(passed.values())} pass ({passed['value']}/{counts['value']} "
      f"values, {passed['error']}/{counts['error']} errors, {passed['grad']}/{counts['grad']} gradients, "
      f"{passed['log']}/{counts['log']} mode logs, {passed['warn']}/{counts['warn']} warnings)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
