"""Records PyTorch 2.6's unary math family (exp, log*, trig and hyperbolic, sigmoid, logit, erf*,
sqrt, rsqrt, reciprocal, abs, neg, sign, sgn, signbit, the rounding ops, frac, nan_to_num, the
isnan family, deg2rad/rad2deg, lgamma/digamma, and the aliases absolute, negative, arcsin, ...,
fix) for tests/python/unary_ops.py, which replays every
case under ctorch.

Usage (under real PyTorch 2.6, with the reference tool):
    torchref unary_ops.py unary_ops.json

Output, a JSON object:
  "torch": the version;
  "values": {"float": [...], "int": [...], "uint": [...], "bool": [...]}, the elements of every
      input (float ones built with torch.tensor(values, dtype=D), so float16/bfloat16 round them);
  "cases": a list of {"op", "kwargs", "form", "dtype", "layout", "out_dtype" (form "out" only),
      then "result": {"dtype", "sizes", "strides", "values", "is_input" (in-place), "is_out"
      (out=)} or "error": {"type", "message"}};
  "grads": a list of {"op", "kwargs", "dtype", "layout", "grad_fn", "grad", "cotangent"} or an
      "error", for float32 and float64 inputs;
  "logs": {"op|kwargs": [aten overloads]} what a TorchDispatchMode sees for a float32 forward and
      backward ("op_|kwargs": the in-place form on x.mul(1));
  "autograd_errors": a list of {"op", "form" ("out" with an input that requires grad, "inplace"
      on a leaf that requires grad, "overlap" torch.op(v[1:], out=v[:-1]) and "same"
      torch.op(v, out=v) on a float32 v), "error"} or "result" (the values of "same").
Forms: "function" torch.op(x, **kwargs), "method" x.op(**kwargs), "inplace" x.op_(**kwargs) on
the view itself, "out" torch.op(x, **kwargs, out=torch.empty(0, dtype=out_dtype)). Layouts:
"contig" the values as a 1-d tensor; "t" torch.stack([v, v.flip(0)]).t(), a non-contiguous
[n, 2] view; "expand" v[:4].expand(3, 4), a view whose dimension 0 has stride 0. Element
values are float(x) of the stored element; NaN and infinities are the strings "nan", "inf", "-inf"."""
import json
import math
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

FLOAT_VALUES = [0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5, 3.7, -3.7,
                10.0, -10.0, 88.5, -100.0, 1e-8, 12345.678, math.inf, -math.inf, math.nan]
INT_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 100, -100]
UINT_VALUES = [0, 1, 2, 3, 7, 100, 200, 255]
BOOL_VALUES = [False, True, True, False]

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]

# (name, kwargs variants)
OPS = [(n, [{}]) for n in ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
                           "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "erf",
                           "erfc", "erfinv", "sqrt", "rsqrt", "reciprocal", "lgamma", "digamma", "deg2rad",
                           "rad2deg", "abs", "neg", "sign", "sgn", "signbit", "floor", "ceil", "trunc", "frac",
                           "isnan", "isinf", "isfinite", "isposinf", "isneginf",
                           "absolute", "negative", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
                           "fix"]]
OPS += [("logit", [{}, {"eps": 0.25}]), ("round", [{}, {"decimals": 2}, {"decimals": -1}]),
        ("nan_to_num", [{}, {"nan": 0.5, "posinf": 10.0, "neginf": -10.0}])]

COTANGENT = [1.0, -0.5, 2.0, 0.25, -3.0, 0.75]


def enc(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, int):
        return x
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def values_for(dtype):
    if dtype == "bool":
        return BOOL_VALUES
    if dtype == "uint8":
        return UINT_VALUES
    if dtype.startswith("int"):
        return INT_VALUES
    return FLOAT_VALUES


def make(dtype, layout):
    v = torch.tensor(values_for(dtype), dtype=getattr(torch, dtype))
    if layout == "contig":
        return v
    if layout == "t":
        return torch.stack([v, v.flip(0)]).t()
    return v[:4].expand(3, 4)


def describe(t):
    flat = t.detach().reshape(-1).tolist()
    return {"dtype": str(t.dtype).replace("torch.", ""), "sizes": list(t.shape), "strides": list(t.stride()),
            "values": [enc(x) for x in flat]}


def err(e):
    return {"type": type(e).__name__, "message": str(e)}


def result_dtype(name, kwargs, dtype):
    try:
        return getattr(torch, name)(make(dtype, "contig"), **kwargs).dtype
    except Exception:
        return None


def cases():
    out = []
    for name, variants in OPS:
        fn = getattr(torch, name)
        has_method = hasattr(torch.Tensor, name)
        has_inplace = hasattr(torch.Tensor, name + "_")
        for kwargs in variants:
            for dtype in DTYPES:
                base = {"op": name, "kwargs": kwargs, "dtype": dtype}
                for layout in ["contig", "t", "expand"]:
                    c = dict(base, form="function", layout=layout)
                    try:
                        c["result"] = describe(fn(make(dtype, layout), **kwargs))
                    except Exception as e:
                        c["error"] = err(e)
                    out.append(c)
                if has_method:
                    c = dict(base, form="method", layout="contig")
                    try:
                        c["result"] = describe(getattr(make(dtype, "contig"), name)(**kwargs))
                    except Exception as e:
                        c["error"] = err(e)
                    out.append(c)
                if has_inplace:
                    for layout in ["contig", "t", "expand"]:
                        c = dict(base, form="inplace", layout=layout)
                        x = make(dtype, layout)
                        try:
                            r = getattr(x, name + "_")(**kwargs)
                            c["result"] = dict(describe(r), is_input=r is x)
                        except Exception as e:
                            c["error"] = err(e)
                        out.append(c)
                rd = result_dtype(name, kwargs, dtype)
                outs = []
                if rd is not None:
                    outs.append(rd)
                    outs.append(torch.int64 if rd.is_floating_point else (torch.float64 if rd != torch.bool else torch.float32))
                    if rd == torch.float32:
                        outs.append(torch.float64)
                for od in outs:
                    for layout in ["contig", "t"]:
                        c = dict(base, form="out", layout=layout, out_dtype=str(od).replace("torch.", ""))
                        o = torch.empty(0, dtype=od)
                        try:
                            r = fn(make(dtype, layout), **kwargs, out=o)
                            c["result"] = dict(describe(r), is_out=r is o)
                        except Exception as e:
                            c["error"] = err(e)
                        out.append(c)
    return out


def grads():
    out = []
    for name, variants in OPS:
        fn = getattr(torch, name)
        for kwargs in variants:
            for dtype in ["float32", "float64"]:
                for layout in ["contig", "t"]:
                    c = {"op": name, "kwargs": kwargs, "dtype": dtype, "layout": layout}
                    x = make(dtype, layout).detach().requires_grad_()
                    try:
                        y = fn(x, **kwargs)
                        n = y.numel()
                        cot = [COTANGENT[i % len(COTANGENT)] for i in range(n)]
                        c["cotangent"] = cot
                        c["grad_fn"] = type(y.grad_fn).__name__ if y.grad_fn is not None else None
                        y.backward(torch.tensor(cot, dtype=y.dtype).reshape(y.shape))
                        c["grad"] = describe(x.grad)
                    except Exception as e:
                        c["error"] = err(e)
                    out.append(c)
    return out


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        return func(*args, **(kwargs or {}))


def logs():
    out = {}
    for name, variants in OPS:
        fn = getattr(torch, name)
        for kwargs in variants:
            x = torch.tensor([0.25, -0.5, 2.0, 3.0]).requires_grad_()
            log = Log()
            try:
                with log:
                    y = fn(x, **kwargs)
                    if y.requires_grad:
                        y.backward(torch.ones_like(y))
            except Exception as e:
                log.seen.append(f"error {type(e).__name__}: {e}")
            out[name + "|" + json.dumps(kwargs, sort_keys=True)] = log.seen
            if not hasattr(torch.Tensor, name + "_"):
                continue
            log = Log()  # the in-place form on a non-leaf: y = x.mul(1); y.op_()
            try:
                with log:
                    y = x.mul(1)
                    getattr(y, name + "_")(**kwargs)
                    if y.requires_grad:
                        y.backward(torch.ones_like(y))
            except Exception as e:
                log.seen.append(f"error {type(e).__name__}: {e}")
            out[name + "_|" + json.dumps(kwargs, sort_keys=True)] = log.seen
    return out


def autograd_errors():
    out = []
    for name, variants in OPS:
        fn = getattr(torch, name)
        x = torch.tensor([0.25, 0.5]).requires_grad_()
        c = {"op": name, "form": "out"}
        try:
            fn(x, **variants[0], out=torch.empty(0, dtype=fn(x.detach(), **variants[0]).dtype))
            c["result"] = True
        except Exception as e:
            c["error"] = err(e)
        out.append(c)
        for form in ["overlap", "same"]:
            c = {"op": name, "form": form}
            v = torch.tensor([0.25, 0.5, 2.0, 3.0])
            try:
                r = fn(v[1:], **variants[0], out=v[:-1]) if form == "overlap" else fn(v, **variants[0], out=v)
                c["result"] = describe(r)
            except Exception as e:
                c["error"] = err(e)
            out.append(c)
        if hasattr(torch.Tensor, name + "_"):
            c = {"op": name, "form": "inplace"}
            try:
                getattr(x, name + "_")(**variants[0])
                c["result"] = True
            except Exception as e:
                c["error"] = err(e)
            out.append(c)
    return out


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: unary_ops.py OUT.json")
    rec = {"torch": torch.__version__,
           "values": {"float": [enc(x) for x in FLOAT_VALUES], "int": INT_VALUES, "uint": UINT_VALUES,
                      "bool": BOOL_VALUES},
           "cases": cases(), "grads": grads(), "logs": logs(),
           "autograd_errors": autograd_errors()}
    # one case per line, so that a change of one case is one line of the diff
    def dump(v):
        return json.dumps(v, separators=(",", ":"), sort_keys=True)

    with open(argv[1], "w") as f:
        f.write("{\n")
        keys = sorted(rec)
        for i, k in enumerate(keys):
            v = rec[k]
            if isinstance(v, list):
                f.write(dump(k) + ":[\n" + ",\n".join(dump(x) for x in v) + "\n]")
            elif isinstance(v, dict) and k == "logs":
                f.write(dump(k) + ":{\n" + ",\n".join(dump(a) + ":" + dump(v[a]) for a in sorted(v)) + "\n}")
            else:
                f.write(dump(k) + ":" + dump(v))
            f.write(",\n" if i + 1 < len(keys) else "\n")
        f.write("}\n")


if __name__ == "__main__":
    main(sys.argv)
