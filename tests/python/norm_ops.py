"""Replays the normalization and dropout family's test table (tests/golden/record/norm_ops.py,
recorded under PyTorch 2.6) through ctorch: each case's expression evaluated as the recorder
evaluated it. float32 results are compared bit for bit with what PyTorch computed at the same CPU
capability (the recording's own, or its result_AVX2 / result_DEFAULT); other dtypes within a
tolerance (float64 1e-12 relative; float16 and bfloat16 a few of their ulps: their kernels keep
float in another order). Seeded cases draw from the CPU generator as PyTorch's does; errors
compare type and message, mode logs the operators a dispatch mode sees, modules their outputs,
running statistics, num_batches_tracked and repr.

Usage: ctorch python tests/python/norm_ops.py tests/golden/torch-2.6/norm_ops.json [-v]"""
import json
import math
import struct
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

TOL = {"float64": (1e-12, 1e-12), "float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 2e-2)}
# float32 cases compared within OpInfo's float32 tolerance instead of bit for bit: pdist with a p
# whose powers PyTorch takes with SLEEF's powf (ctorch computes them in double)
APPROX_F32 = ("pdist_p15/", "grad/pdist_p3/", "grad/pdist_p15/")
F32_TOL = (1.3e-6, 1e-5)


def X(shape, dtype=torch.float32, k=0):
    n = 1
    for s in shape:
        n *= s
    t = ((torch.arange(n, dtype=torch.float64) * 7919 + 31 * k) % 97) / 16.0 - 3.0
    return t.reshape(shape).to(dtype)


def P(c, dtype=torch.float32, k=1):
    return (((torch.arange(c, dtype=torch.float64) * 13 + k) % 7) / 4.0 + 0.5).to(dtype)


def bits(t):
    if t.dtype == torch.float32:
        return [struct.unpack("<I", struct.pack("<f", v))[0] for v in t.reshape(-1).tolist()]
    return None


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    if not isinstance(r, torch.Tensor):
        return repr(r)
    r = r.detach()
    return dict(dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                values=r.double().reshape(-1).tolist() if r.is_floating_point() else r.reshape(-1).tolist(),
                bits=bits(r))


def close(a, b, approx=False):
    """have a, want b: float32 by bits (within F32_TOL when approx), other floating types within TOL,
    the rest exactly"""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, approx) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict) and "values" in b:
        if a["dtype"] != b["dtype"] or a["shape"] != b["shape"]:
            return False
        if b["bits"] is not None and not approx:
            return a["bits"] == b["bits"]
        if b["dtype"] not in TOL and not (approx and b["dtype"] == "float32"):
            return a["values"] == b["values"]
        rtol, atol = TOL[b["dtype"]] if b["dtype"] in TOL else F32_TOL
        return len(a["values"]) == len(b["values"]) and all(
            (math.isnan(x) and math.isnan(y)) or x == y or abs(x - y) <= atol + rtol * abs(y)
            for x, y in zip(a["values"], b["values"]))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], approx) for k in b)
    return a == b


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def env_for(dt):
    return dict(torch=torch, F=F, X=X, P=P, D=dt, rm=torch.zeros(3, dtype=dt), rv=torch.ones(3, dtype=dt),
                rm2=X([2], dt, 4), rv2=P(2, dt, 5))


def run(c):
    if "grad" in c:
        d = getattr(torch, c["dtype"])
        nc = c["nc"]
        x = X(c["shape"], d).requires_grad_()
        w = P(nc, d).requires_grad_() if nc else None
        b = X([nc], d, 3).requires_grad_() if nc else None
        y = eval(c["grad"], dict(env_for(d), x=x, w=w, b=b))
        y.backward(X(list(y.shape), d, 5))
        return dict(grad_fn=type(y.grad_fn).__name__, grads=[describe(t.grad) for t in (x, w, b) if t is not None])
    if "log" in c:
        torch.manual_seed(0)
        bw = "bw" in c["id"]
        a = X(c["shape"]).requires_grad_(bw)
        w, b = P(3).requires_grad_(bw), X([3], k=1).requires_grad_(bw)
        env = dict(env_for(torch.float32), a=a, w=w, b=b, bn=torch.nn.BatchNorm1d(3),
                   bn_cma=torch.nn.BatchNorm1d(3, momentum=None), gn=torch.nn.GroupNorm(3, 3))
        with Log() as m:
            exec(c["log"], env)
        return m.ops
    if "random" in c:
        torch.manual_seed(7)
        return describe(eval(c["random"], env_for(getattr(torch, c["dtype"]))))
    if "module" in c:
        env = env_for(torch.float32)
        exec(c["module"], env)
        return [describe(eval(n, env)) for n in c["names"].split()]
    if "repr" in c:
        return repr(eval(c["repr"], env_for(torch.float32)))
    env = env_for(getattr(torch, c["dtype"]))
    r = eval(c["expr"], env)
    if c["id"].startswith("error/"):
        return "no error"
    return [describe(r)] + [describe(env[n]) for n in c["after"].split()]


rec = json.load(open(sys.argv[1]))
verbose = "-v" in sys.argv
level = {"NO AVX": "DEFAULT"}.get(torch.backends.cpu.get_cpu_capability(), torch.backends.cpu.get_cpu_capability())
kinds = ("value", "random", "error", "grad", "log", "module", "repr")
counts, passed, failures = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0), []
for c in rec["cases"]:
    kind = next(k for k in ("grad", "log", "random", "module", "repr") if k in c) if any(
        k in c for k in ("grad", "log", "random", "module", "repr")) else "error" if c["id"].startswith("error/") else "value"
    counts[kind] += 1
    want = c.get("result_" + level, c.get("result")) if level != rec["capability"] else c.get("result")
    if torch.get_num_threads() == 1:  # what PyTorch computed on one thread, where that differs
        want = c.get(("result_t1" if level == rec["capability"] else "result_" + level + "_t1"), want)
    try:
        have, err = run(c), None
    except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
        have, err = None, [type(e).__name__, str(e)]
    if "error" in c:
        problem = None if err == c["error"] else f"PyTorch raised {c['error']}, ctorch " + \
            (f"raised {err}" if err else f"returned {have}")
    elif err:
        problem = f"PyTorch returned; ctorch raised {err}"
    else:
        approx = bool(APPROX_F32) and c["id"].startswith(APPROX_F32) and c.get("dtype") == "float32"
        problem = None if close(have, want, approx) else f"PyTorch {want}, ctorch {have}"
    if problem:
        failures.append(f"{c['id']}: {problem if verbose else problem[:300]}")
    else:
        passed[kind] += 1
print(f"norm ops ({level}): {sum(counts.values())} cases, {sum(passed.values())} pass (" +
      ", ".join(f"{passed[k]}/{counts[k]} {k}" for k in kinds) + ")")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
