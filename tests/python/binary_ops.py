"""Replays the binary family's test table (tests/golden/record/binary_ops.py, recorded under PyTorch
2.6) through ctorch: each case's expression evaluated as the recorder evaluated it, its result
(values, dtype, shape; `is self` for the in-place and out= forms) or its error (exception type and
message), for the gradient cases the grad_fn's name and each input's gradient, and for the log cases
the operators a dispatch mode and the functions a function mode see.

Values: integral and bool results exactly; floating ones with NaN where PyTorch has NaN, the same
infinities and signed zeros, and otherwise within a relative tolerance of the dtype (float32 1e-6,
float64 1e-12, float16 1e-3, bfloat16 8e-3: PyTorch's vectorised kernels (SLEEF) and the C library
differ in the last bits of pow, atan2, hypot, logaddexp). A case whose backward needs an operator
ctorch lacks ("needs": log, exp, isnan) runs with the formula's stand-in for it and is counted. Of a 0 and a -0, minimum/maximum/fmin/fmax
return either in PyTorch depending on whether the element falls in a vector lane or the loop's
scalar tail (its float64 and float32 kernels differ there), so the sign of a zero they return is
not compared. KNOWN lists the cases ctorch does not match while an operator of another family is
missing, with why: reported, not failed (once the operator is there, they are compared).

Usage: ctorch python tests/python/binary_ops.py tests/golden/torch-2.6/binary_ops.json [-v]"""
import json
import math
import operator
import sys

import torch

RTOL = {"torch.float32": 1e-6, "torch.float64": 1e-12, "torch.float16": 1e-3, "torch.bfloat16": 8e-3}
nan, inf = math.nan, math.inf
ENV = {"torch": torch, "T": torch.tensor, "nan": nan, "inf": inf, "operator": operator}


def run_log(expr):
    """the operators a dispatch mode sees and the functions a function mode sees, evaluating expr"""
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode
    seen = {"dispatch": [], "function": []}

    class D(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen["dispatch"].append(str(func))
            return func(*args, **(kwargs or {}))

    class F(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen["function"].append(getattr(func, "__name__", str(func)))
            return func(*args, **(kwargs or {}))

    with D():
        eval(expr, dict(ENV))
    with F():
        eval(expr, dict(ENV))
    return seen


def enc(v):
    if isinstance(v, torch.Tensor):
        return {"dtype": str(v.dtype), "shape": list(v.shape), "values": v.detach().reshape(-1).tolist()}
    if isinstance(v, tuple):
        return {"tuple": [enc(x) for x in v]}
    if v is None or isinstance(v, (bool, int, float)):
        return {"py": v, "kind": type(v).__name__}
    return {"other": type(v).__name__}


KNOWN = {  # case: (the operator whose absence explains it, why)
    "log/torch.isclose(X,X)": ("aten::abs", "abs is the unary family's: until ctorch has it, isclose's stand-in for it "
                                           "(maximum(x, -x)) shows aten.neg and aten.maximum to a dispatch mode"),
}
ZERO_SIGN_FREE = ("minimum/", "maximum/", "fmin/", "fmax/")


def close(want, have, rtol, zero_sign=True):
    if rtol == 0:
        return want == have
    w, h = float(want), float(have)
    if math.isnan(w) or math.isnan(h):
        return math.isnan(w) and math.isnan(h)
    if math.isinf(w) or math.isinf(h) or w == 0 or h == 0:
        return w == h and (not zero_sign or math.copysign(1, w) == math.copysign(1, h))
    return abs(w - h) <= rtol * abs(w)


def diff(want, have, path="result", zero_sign=True):
    """the first difference between two encodings, or None"""
    if want is None or have is None:
        return None if want is have else f"{path}: PyTorch {want}, ctorch {have}"
    if "tuple" in want:
        if "tuple" not in have or len(have["tuple"]) != len(want["tuple"]):
            return f"{path}: PyTorch a tuple of {len(want['tuple'])}, ctorch {have}"
        for i, (w, h) in enumerate(zip(want["tuple"], have["tuple"])):
            d = diff(w, h, f"{path}[{i}]", zero_sign)
            if d:
                return d
        return None
    if "dtype" in want:
        if "dtype" not in have:
            return f"{path}: PyTorch a tensor, ctorch {have}"
        if (want["dtype"], want["shape"]) != (have["dtype"], have["shape"]):
            return f"{path}: PyTorch {want['dtype']} {want['shape']}, ctorch {have['dtype']} {have['shape']}"
        rtol = RTOL.get(want["dtype"], 0)
        for i, (w, h) in enumerate(zip(want["values"], have["values"])):
            if not close(w, h, rtol, zero_sign):
                return f"{path}: element {i}: PyTorch {w!r}, ctorch {h!r} ({want['dtype']})"
        return None
    return None if want == have else f"{path}: PyTorch {want}, ctorch {have}"


def run_grad(g):
    a, b = eval(g["a"], dict(ENV)).requires_grad_(), eval(g["b"], dict(ENV)).requires_grad_()
    out = eval(g["fn"], dict(ENV))(a, b)
    cot = torch.tensor([0.5, -1.0, 2.0, 0.25] * (out.numel() // 4 + 1), dtype=out.dtype)[:out.numel()].reshape(out.shape)
    out.backward(cot)
    return {"out": enc(out), "grad_fn": type(out.grad_fn).__name__ if out.grad_fn is not None else None,
            "grads": [enc(a.grad) if a.grad is not None else None, enc(b.grad) if b.grad is not None else None]}


def grad_diff(want, have):
    if want["grad_fn"] != have["grad_fn"]:
        return f"grad_fn: PyTorch {want['grad_fn']}, ctorch {have['grad_fn']}"
    return diff(want["out"], have["out"], "out") or diff(want["grads"][0], have["grads"][0], "grad a") or \
        diff(want["grads"][1], have["grads"][1], "grad b")


rec = json.load(open(sys.argv[1]))
verbose = "-v" in sys.argv
have_ops = set(torch._C._op_names())
counts = {"value": 0, "error": 0, "grad": 0, "log": 0}
passed = {"value": 0, "error": 0, "grad": 0, "log": 0}
skipped, known, failures = [], [], []
for c in rec["cases"]:
    kind = "grad" if "grad" in c else "error" if "error" in c else "log" if "log" in c else "value"
    missing = [n for n in c.get("needs", []) if n not in have_ops]
    if missing:
        skipped.append(f"{c['id']}: {', '.join(missing)}")
    counts[kind] += 1
    try:
        if "log" in c:
            have = run_log(c["log"])
        else:
            have = run_grad(c["grad"]) if "grad" in c else enc(eval(c["expr"], dict(ENV)))
        err = None
    except Exception as e:  # noqa: BLE001 - an exception is an answer to compare
        have, err = None, {"type": type(e).__name__, "message": str(e)}
    if "error" in c:
        problem = None if err == c["error"] else \
            f"PyTorch raised {c['error']['type']}: {c['error']['message']!r}; ctorch " + \
            (f"raised {err['type']}: {err['message']!r}" if err else f"returned {have}")
    elif err:
        problem = f"PyTorch returned; ctorch raised {err['type']}: {err['message']!r}"
    else:
        problem = (None if have == c["result"] else f"PyTorch {c['result']}, ctorch {have}") if "log" in c else \
            grad_diff(c["result"], have) if "grad" in c else \
            diff(c["result"], have, zero_sign=not c["id"].startswith(ZERO_SIGN_FREE))
    if problem and c["id"] in KNOWN and KNOWN[c["id"]][0] not in have_ops:
        known.append(f"{c['id']}: {KNOWN[c['id']][1]}")
        continue
    if problem:
        failures.append(f"{c['id']}: {problem}" + (f"\n      {c.get('expr', c.get('grad'))}" if verbose else ""))
    else:
        passed[kind] += 1
total = sum(counts.values())
print(f"binary ops: {total} cases, {sum(passed.values())} pass ({passed['value']}/{counts['value']} values, "
      f"{passed['error']}/{counts['error']} errors, {passed['grad']}/{counts['grad']} gradients, "
      f"{passed['log']}/{counts['log']} mode logs), "
      f"{len(skipped)} of them with a stand-in for an operator of another family, {len(known)} known differences")
for s in skipped:
    print("STAND-IN:", s)
for k in known:
    print("KNOWN:", k)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
