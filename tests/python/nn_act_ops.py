"""Replays PyTorch 2.6's recording of the activations and pointwise losses
(tests/golden/record/nn_act_ops.py) through ctorch: F.fn on every dtype, in place or not, the
result's dtype, shape and values (within OpInfo's default tolerances per dtype, NaN and the
infinities exactly) or the exception's type and message; the gradients of float32 and float64
inputs with the backward node's name; the losses with their gradients; and the aten overloads a
TorchDispatchMode sees during a float32 forward and backward. Prints the counts and every
failure; exits 1 if any case fails.

Usage: ctorch python tests/python/nn_act_ops.py RECORDING.json"""
import json
import math
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

TOL = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
       "int64": (0, 0)}
COT = [1.0, -0.5, 2.0, 0.25, -3.0, 0.75]

# (kind, fn, kwargs as JSON, dtype) -> why ctorch differs (counted, printed, not failed)
KNOWN = {
    ("grads", "hardswish", "{}", "float64"): "PyTorch's vectorised float64 hardswish_backward takes x = 3 as past the "
                                            "kink (grad), its float32 loop as before it (grad * 1.5); ctorch does the latter",
}


def dec(v):
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, v) if isinstance(v, str) else v


def close(a, b, dtype):
    b = dec(b)
    if math.isnan(b):
        return math.isnan(a)
    if math.isinf(b) or math.isinf(a):
        return a == b
    rtol, atol = TOL[dtype]
    return abs(a - b) <= atol + rtol * abs(b)


def same_values(got, want, dtype):
    vals = [float(v) for v in got.detach().reshape(-1).tolist()]
    if len(vals) != len(want):
        return f"{len(vals)} elements, expected {len(want)}"
    bad = [i for i, (a, b) in enumerate(zip(vals, want)) if not close(a, b, dtype)]
    if bad:
        i = bad[0]
        return f"{len(bad)} values differ, first at [{i}]: {vals[i]!r} vs {dec(want[i])!r}"
    return None


def err_of(e):
    return {"type": type(e).__name__, "message": str(e).split("\n")[0]}


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def check_call(label, thunk, want, dtype, failures, extra=None):
    """want: the recorded {"result": ...} or {"error": ...}; thunk computes the result."""
    try:
        r = thunk()
    except Exception as e:  # noqa: BLE001
        if "error" in want:
            if err_of(e) != want["error"]:
                failures.append(f"{label}: error {err_of(e)}, expected {want['error']}")
        else:
            failures.append(f"{label}: raised {type(e).__name__}: {e}")
        return None
    if "error" in want:
        failures.append(f"{label}: returned, expected {want['error']}")
        return None
    w = want["result"]
    if w is None:
        return r
    if str(r.dtype).replace("torch.", "") != w["dtype"] or list(r.shape) != w["sizes"]:
        failures.append(f"{label}: {r.dtype} {list(r.shape)}, expected {w['dtype']} {w['sizes']}")
        return r
    why = same_values(r, w["values"], dtype)
    if why:
        failures.append(f"{label}: {why}")
    if extra:
        extra(r)
    return r


def main():
    rec = json.load(open(sys.argv[1]))
    values = rec["values"]
    failures = []
    counts = {"cases": 0, "grads": 0, "losses": 0, "logs": 0, "errors": 0}
    for c in rec["cases"]:
        counts["cases"] += 1
        fn, kw, dt, inplace = c["fn"], c["kwargs"], c["dtype"], c["inplace"]
        label = f"cases {fn} {json.dumps(kw)} {dt}{' inplace' if inplace else ''}"
        src = [int(v) for v in values] if dt == "int64" else values
        x = torch.tensor(src, dtype=getattr(torch, dt))
        f = getattr(F, fn)

        def is_input(r, x=x, c=c, label=label):
            if (r is x) != c["result"]["is_input"]:
                failures.append(f"{label}: is_input {r is x}, expected {c['result']['is_input']}")

        check_call(label, (lambda: f(x, inplace=True, **kw)) if inplace else (lambda: f(x, **kw)), c, dt, failures,
                   is_input if inplace else None)
    for g in rec["grads"]:
        counts["grads"] += 1
        fn, kw, dt = g["fn"], g["kwargs"], g["dtype"]
        label = f"grads {fn} {json.dumps(kw)} {dt}"
        try:
            x = torch.tensor(values, dtype=getattr(torch, dt), requires_grad=True)
            cot = torch.tensor((COT * 4)[:len(values)], dtype=x.dtype)
            y = getattr(F, fn)(x, **kw)
            name = type(y.grad_fn).__name__
            (y * cot).sum().backward()
        except Exception as e:  # noqa: BLE001
            failures.append(f"{label}: raised {type(e).__name__}: {e}")
            continue
        if name != g["grad_fn"]:
            failures.append(f"{label}: grad_fn {name}, expected {g['grad_fn']}")
        why = same_values(x.grad, g["grad"], dt)
        if why:
            failures.append(f"{label}: grad {why}")
    for c in rec["losses"]:
        counts["losses"] += 1
        fn, kw, dt = c["fn"], c["kwargs"], c["dtype"]
        label = f"losses {fn} {json.dumps(kw)} {dt}"
        f = getattr(F, fn)
        if c.get("bad"):
            xi = [0.5, 1.5] if fn == "binary_cross_entropy" and "reduction" not in kw else \
                [0.5, -0.5] if fn == "binary_cross_entropy" else [0.5, 1.5]
            check_call(label, lambda: f(torch.tensor(xi), torch.tensor([0.0, 1.0]), **kw), c, dt, failures)
            continue
        from_rec = {"mse_loss": "LOSS", "l1_loss": "LOSS", "smooth_l1_loss": "LOSS", "huber_loss": "LOSS",
                    "binary_cross_entropy": "BCE", "kl_div": "BCE"}[fn]
        xi, ti = (([0.2, 0.9, -1.5, 3.0, 0.5, 0.05], [0.0, 1.0, 0.5, 2.5, -0.5, 0.05]) if from_rec == "LOSS" else
                  ([0.2, 0.9, 0.5, 0.999, 0.01, 0.7], [0.0, 1.0, 0.5, 1.0, 0.0, 0.3]))
        d = getattr(torch, dt)
        holder = {}

        def run(f=f, xi=xi, ti=ti, d=d, kw=kw, holder=holder):
            x = torch.tensor(xi, dtype=d, requires_grad=d.is_floating_point)
            holder["x"] = x
            return f(x, torch.tensor(ti, dtype=d), **kw)

        r = check_call(label, run, c, dt, failures)
        if r is not None and "grad" in c:
            if type(r.grad_fn).__name__ != c["grad_fn"]:
                failures.append(f"{label}: grad_fn {type(r.grad_fn).__name__}, expected {c['grad_fn']}")
            try:
                r.backward(torch.ones_like(r))
                why = same_values(holder["x"].grad, c["grad"], dt)
                if why:
                    failures.append(f"{label}: grad {why}")
            except Exception as e:  # noqa: BLE001
                failures.append(f"{label}: backward raised {type(e).__name__}: {e}")
    for key, want in rec["logs"].items():
        counts["logs"] += 1
        fn, kw = key.split("|", 1)
        kw = json.loads(kw)
        try:
            if fn in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "kl_div"):
                xi, ti = (([0.2, 0.9, 0.5, 0.999, 0.01, 0.7], [0.0, 1.0, 0.5, 1.0, 0.0, 0.3])
                          if fn in ("binary_cross_entropy", "kl_div") else
                          ([0.2, 0.9, -1.5, 3.0, 0.5, 0.05], [0.0, 1.0, 0.5, 2.5, -0.5, 0.05]))
                args = (torch.tensor(xi, requires_grad=True), torch.tensor(ti))
            else:
                args = (torch.tensor(values[:6], requires_grad=True),)
            with Log() as m:
                getattr(F, fn)(*args, **kw).sum().backward()
        except Exception as e:  # noqa: BLE001
            failures.append(f"logs {key}: raised {type(e).__name__}: {e}")
            continue
        if m.ops != want:
            failures.append(f"logs {key}: {m.ops}, expected {want}")
    for e in rec["errors"]:
        counts["errors"] += 1
        x = torch.tensor([0.5, -1.0], requires_grad=True)
        t = torch.tensor([0.0, 1.0])
        try:
            v = eval(e["code"], {"F": F, "torch": torch, "x": x, "t": t})
            got = {"error": None, "value": v if isinstance(v, list) else None}
        except Exception as ex:  # noqa: BLE001
            got = {"error": err_of(ex)}
        if got["error"] != e["error"]:
            failures.append(f"errors {e['code']}: {got['error']}, expected {e['error']}")
        elif e["error"] is None and e["value"] is not None and \
                not all(close(a, b, "float32") for a, b in zip(got["value"], e["value"])):
            failures.append(f"errors {e['code']}: {got['value']}, expected {e['value']}")
    known = []
    for f in list(failures):
        for (k, fn, kw, dt), why in KNOWN.items():
            if f.startswith(f"{k} {fn} {kw} {dt}:"):
                failures.remove(f)
                known.append(f"{f}  [known: {why}]")
    total = sum(counts.values())
    print(f"nn_act_ops: {total - len(failures)}/{total} checks pass "
          f"({counts['cases']} cases, {counts['grads']} gradients, {counts['losses']} losses, {counts['logs']} logs, {counts['errors']} errors)")
    for f in known:
        print(f)
    for f in failures[:300]:
        print(f)
    sys.exit(1 if failures else 0)


main()
