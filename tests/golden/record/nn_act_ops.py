"""Records PyTorch 2.6's neural-network activations (softplus, silu, mish, hardtanh, relu6,
leaky_relu, elu, selu, celu, hardsigmoid, hardswish, logsigmoid, threshold, softshrink,
hardshrink, tanhshrink, relu) and losses (mse_loss, l1_loss, smooth_l1_loss, huber_loss,
binary_cross_entropy, kl_div) as torch.nn.functional calls them, for tests/python/nn_act_ops.py, which
replays every case under ctorch.

Usage (under real PyTorch 2.6, with the reference tool):
    torchref nn_act_ops.py nn_act_ops.json

Output, a JSON object:
  "torch": the version;
  "values": the elements of every activation input (torch.tensor(values, dtype=D), so
      float16/bfloat16 round them), chosen to hit every kink (0, the thresholds, beta*x above
      softplus's threshold);
  "cases": a list of {"fn", "kwargs", "dtype", "inplace", then "result": {"dtype", "sizes",
      "values"} or "error": {"type", "message"}} for F.fn(x, **kwargs) (inplace: with
      inplace=True on a copy, "is_input" saying whether the input came back);
  "grads": a list of {"fn", "kwargs", "dtype", "grad_fn", "grad"} for float32 and float64, the
      gradient of (F.fn(x, **kwargs) * cotangent).sum() with the cotangent [1, -0.5, 2, ...];
  "losses": a list of {"fn", "kwargs", "dtype", "result" or "error", "grad_fn", "grad"} for
      F.fn(input, target, **kwargs), with the gradient of the input for a cotangent of ones;
  "logs": {"fn|kwargs": [aten overloads]}, what a TorchDispatchMode sees for a float32 forward
      and backward;
  "errors": a list of {"code", "error"}: the mistakes of ERRORS (Python expressions over x, a
      float32 [0.5, -1.0] that requires grad, and t = [0.0, 1.0]) with their exception, or
      "error": null and the list an expression gives ("value").
Element values are float(x); NaN and infinities are the strings "nan", "inf", "-inf"."""
import json
import math
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

VALUES = [0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 3.5, -3.5, 6.0, 7.0, -7.0,
          10.0, 15.0, 25.0, -25.0, 0.1, -0.1]
DTYPES = ["float32", "float64", "float16", "bfloat16", "int64"]
COT = [1.0, -0.5, 2.0, 0.25, -3.0, 0.75]

ACTS = [
    ("softplus", [{}, {"beta": 2.0, "threshold": 5.0}, {"beta": 0.5}]),
    ("silu", [{}]), ("mish", [{}]),
    ("hardtanh", [{}, {"min_val": -2.0, "max_val": 3.0}]), ("relu6", [{}]),
    ("leaky_relu", [{}, {"negative_slope": 0.2}]),
    ("elu", [{}, {"alpha": 0.5}]), ("selu", [{}]), ("celu", [{}, {"alpha": 2.0}]),
    ("hardsigmoid", [{}]), ("hardswish", [{}]), ("logsigmoid", [{}]),
    ("threshold", [{"threshold": 0.5, "value": -1.0}, {"threshold": -2.0, "value": 20.0}]),
    ("softshrink", [{}, {"lambd": 1.0}]), ("hardshrink", [{}, {"lambd": 1.0}]), ("tanhshrink", [{}]),
    ("relu", [{}]),
]
INPLACE = {"hardtanh", "relu6", "leaky_relu", "elu", "selu", "celu", "hardsigmoid", "hardswish", "threshold", "relu",
           "silu", "mish"}

LOSS_IN = [0.2, 0.9, -1.5, 3.0, 0.5, 0.05]
LOSS_TG = [0.0, 1.0, 0.5, 2.5, -0.5, 0.05]
BCE_IN = [0.2, 0.9, 0.5, 0.999, 0.01, 0.7]
BCE_TG = [0.0, 1.0, 0.5, 1.0, 0.0, 0.3]
LOSSES = [
    ("mse_loss", LOSS_IN, LOSS_TG, [{}, {"reduction": "sum"}, {"reduction": "none"}]),
    ("l1_loss", LOSS_IN, LOSS_TG, [{}, {"reduction": "sum"}, {"reduction": "none"}]),
    ("smooth_l1_loss", LOSS_IN, LOSS_TG, [{}, {"reduction": "none"}, {"beta": 0.5}, {"beta": 0.0, "reduction": "sum"}]),
    ("huber_loss", LOSS_IN, LOSS_TG, [{}, {"reduction": "none"}, {"delta": 0.5, "reduction": "sum"}]),
    ("binary_cross_entropy", BCE_IN, BCE_TG, [{}, {"reduction": "none"}, {"reduction": "sum"}]),
    ("kl_div", BCE_IN, BCE_TG, [{"reduction": "batchmean"}, {"reduction": "sum", "log_target": True},
                                {"reduction": "none"}]),
]

ERRORS = [
    "F.celu(x, alpha=0.0)",
    "F.softshrink(x, -0.5)",
    "F.leaky_relu(x.mul(1), -0.1, inplace=True).sum().backward()",
    "F.smooth_l1_loss(x, t, beta=-1.0)",
    "F.huber_loss(x, t, delta=0.0)",
    "F.huber_loss(x, t, delta=-1.0)",
    "F.binary_cross_entropy(torch.tensor([0.5, 0.2]), t.clone().requires_grad_()).backward()",
    "F.binary_cross_entropy(torch.tensor([0.5, 0.2]), t.requires_grad_(), reduction='sum').backward() or t.grad.tolist()",
    "F.binary_cross_entropy(torch.tensor([0.5, 1.2]), t)",
]


def enc(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def vals(t):
    return [enc(float(v)) for v in t.detach().double().reshape(-1).tolist()]


def err(e):
    return {"type": type(e).__name__, "message": str(e).split("\n")[0]}


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def main():
    out = {"torch": torch.__version__, "values": VALUES, "cases": [], "grads": [], "losses": [], "logs": {}}
    for fn, kws in ACTS:
        f = getattr(F, fn)
        for kw in kws:
            for dt in DTYPES:
                d = getattr(torch, dt)
                src = [int(v) for v in VALUES] if dt == "int64" else VALUES
                for inplace in ([False, True] if fn in INPLACE else [False]):
                    x = torch.tensor(src, dtype=d)
                    c = {"fn": fn, "kwargs": kw, "dtype": dt, "inplace": inplace}
                    try:
                        r = f(x, inplace=True, **kw) if inplace else f(x, **kw)
                        c["result"] = {"dtype": str(r.dtype).replace("torch.", ""), "sizes": list(r.shape),
                                       "values": vals(r)}
                        if inplace:
                            c["result"]["is_input"] = r is x
                    except Exception as e:  # noqa: BLE001
                        c["error"] = err(e)
                    out["cases"].append(c)
            for dt in ["float32", "float64"]:
                x = torch.tensor(VALUES, dtype=getattr(torch, dt), requires_grad=True)
                cot = torch.tensor((COT * 4)[:len(VALUES)], dtype=x.dtype)
                y = f(x, **kw)
                (y * cot).sum().backward()
                out["grads"].append({"fn": fn, "kwargs": kw, "dtype": dt, "grad_fn": type(y.grad_fn).__name__,
                                     "grad": vals(x.grad)})
            x = torch.tensor(VALUES[:6], requires_grad=True)
            with Log() as m:
                y = f(x, **kw)
                y.sum().backward()
            out["logs"][fn + "|" + json.dumps(kw, sort_keys=True)] = m.ops
    for fn, xi, ti, kws in LOSSES:
        f = getattr(F, fn)
        for kw in kws:
            for dt in ["float32", "float64", "float16", "bfloat16", "int64"]:
                d = getattr(torch, dt)
                c = {"fn": fn, "kwargs": kw, "dtype": dt}
                try:
                    x = torch.tensor(xi, dtype=d, requires_grad=d.is_floating_point)
                    t = torch.tensor(ti, dtype=d)
                    r = f(x, t, **kw)
                    c["result"] = {"dtype": str(r.dtype).replace("torch.", ""), "sizes": list(r.shape), "values": vals(r)}
                    if dt in ("float32", "float64"):
                        c["grad_fn"] = type(r.grad_fn).__name__
                        r.backward(torch.ones_like(r))
                        c["grad"] = vals(x.grad)
                except Exception as e:  # noqa: BLE001
                    c["error"] = err(e)
                out["losses"].append(c)
            x = torch.tensor(xi, requires_grad=True)
            t = torch.tensor(ti)
            with Log() as m:
                f(x, t, **kw).sum().backward()
            out["logs"][fn + "|" + json.dumps(kw, sort_keys=True)] = m.ops
    # BCE's range check and a bad reduction
    for fn, xi, kw in [("binary_cross_entropy", [0.5, 1.5], {}), ("mse_loss", [0.5, 1.5], {"reduction": "bad"}),
                       ("binary_cross_entropy", [0.5, -0.5], {"reduction": "none"})]:
        c = {"fn": fn, "kwargs": kw, "dtype": "float32", "bad": True}
        try:
            F.__dict__[fn](torch.tensor(xi), torch.tensor([0.0, 1.0]), **kw)
            c["result"] = None
        except Exception as e:  # noqa: BLE001
            c["error"] = err(e)
        out["losses"].append(c)
    out["errors"] = []
    for code in ERRORS:
        x = torch.tensor([0.5, -1.0], requires_grad=True)
        t = torch.tensor([0.0, 1.0])
        try:
            env = {"F": F, "torch": torch, "x": x, "t": t}
            v = eval(code, env)
            out["errors"].append({"code": code, "error": None, "value": v if isinstance(v, list) else None})
        except Exception as e:  # noqa: BLE001
            out["errors"].append({"code": code, "error": err(e)})
    with open(sys.argv[1], "w") as fh:
        json.dump(out, fh, indent=None, separators=(",", ":"))


if __name__ == "__main__":
    main()
