"""Replays PyTorch 2.6's recording of the unary math family (tests/golden/record/unary_ops.py)
through ctorch: every call form (function, method, in-place, out=) on every dtype and layout, the
result's dtype, shape, strides and values (within OpInfo's default tolerances per dtype, NaN and
the infinities exactly) or the exception's type and message; the gradients of float32 and
float64 inputs with the backward node's name; and the aten overloads a TorchDispatchMode sees
during a float32 forward and backward. A case whose dtype ctorch lacks is counted as skipped,
not failed; so is a log that names an operator ctorch does not have yet (another family's), and
the differences listed in KNOWN, each with its reason.

Usage: ctorch python tests/python/unary_ops.py RECORDING.json"""
import json
import math
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

# (kind, op, kwargs as JSON, dtype, layout or form; None: any) -> why ctorch differs
KNOWN = {
    ("grads", "sgn", "{}", None, None): "PyTorch's sgn backward gives an _efficientzerotensor, whose tolist() fails; ctorch gives zeros",
    ("grads", "digamma", "{}", None, None): "digamma's backward calls polygamma, which ctorch lacks",
    ("logs", "digamma", "{}", None, None): "digamma's backward calls polygamma, which ctorch lacks",
    ("logs", "sgn", "{}", None, None): "PyTorch's sgn backward gives an _efficientzerotensor; ctorch gives zeros",
    ("grads", "logit", "{}", "float64", "contig"): "PyTorch's vectorised float64 logit_backward divides by -0 at x = -0, "
                                                    "its other loops (and ctorch) by +0",
    ("cases", "isnan", "{}", None, "out"): "ctorch's bindings answer an out= no overload takes with NotImplementedInCtorch, "
                                           "not the parser's TypeError",
    ("cases", "isinf", "{}", None, "out"): "ctorch's bindings answer an out= no overload takes with NotImplementedInCtorch, "
                                           "not the parser's TypeError",
    ("cases", "isfinite", "{}", None, "out"): "ctorch's bindings answer an out= no overload takes with NotImplementedInCtorch, "
                                              "not the parser's TypeError",
}


def known(kind, op, kw, dtype, where):
    for (k, o, w, d, l), why in KNOWN.items():
        if k == kind and o == op and w == kw and d in (None, dtype) and l in (None, where):
            return why
    return None

TOL = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5)}


def dec(x):
    if x == "nan":
        return math.nan
    if x == "inf":
        return math.inf
    if x == "-inf":
        return -math.inf
    return x


rec = json.load(open(sys.argv[1]))
VALUES = {k: [dec(x) for x in v] for k, v in rec["values"].items()}
have_ops = set(torch._C._op_names())


def values_for(dtype):
    if dtype == "bool":
        return VALUES["bool"]
    if dtype == "uint8":
        return VALUES["uint"]
    if dtype.startswith("int"):
        return VALUES["int"]
    return VALUES["float"]


class Missing(Exception):
    pass


def dtype_of(name):
    d = getattr(torch, name, None)
    if d is None:
        raise Missing(f"dtype {name}")
    return d


def make(dtype, layout):
    vals = values_for(dtype)
    try:
        if layout == "contig":
            return torch.tensor(vals, dtype=dtype_of(dtype))
        if layout == "t":
            return torch.tensor([vals, vals[::-1]], dtype=dtype_of(dtype)).t()
        return torch.tensor(vals, dtype=dtype_of(dtype))[:4].expand(3, 4)
    except torch._C.NotImplementedInCtorch as e:
        raise Missing(f"dtype {dtype}: {e}")


def close(a, b, dtype):
    if isinstance(b, bool) or isinstance(a, bool) or dtype not in TOL:
        return a == b
    if math.isnan(b):
        return math.isnan(a)
    if math.isinf(b) or math.isinf(a):
        return a == b
    rtol, atol = TOL[dtype]
    return abs(a - b) <= atol + rtol * abs(b)


def compare(got, want, op, computed=None):
    """a reason string, or None when got (a tensor) matches the recorded description; computed:
    the dtype the op computed in when it differs from the result's (out= of another dtype)"""
    d = str(got.dtype).replace("torch.", "")
    if d != want["dtype"]:
        return f"dtype {d}, PyTorch {want['dtype']}"
    if list(got.shape) != want["sizes"]:
        return f"sizes {list(got.shape)}, PyTorch {want['sizes']}"
    if list(got.stride()) != want["strides"]:
        return f"strides {list(got.stride())}, PyTorch {want['strides']}"
    vals = got.detach().reshape(-1).tolist()
    for i, (a, b) in enumerate(zip(vals, [dec(x) for x in want["values"]])):
        if not close(a, b, computed or d):
            return f"element {i}: {a!r}, PyTorch {b!r}"
    return None


def run_case(c):
    name, kwargs, dtype, layout, form = c["op"], c["kwargs"], c["dtype"], c["layout"], c["form"]
    fn = getattr(torch, name, None)
    if fn is None:
        raise Missing(f"torch.{name}")
    x = make(dtype, layout)
    o = None
    if form == "function":
        return fn(x, **kwargs), x, o
    if form == "method":
        return getattr(x, name)(**kwargs), x, o
    if form == "inplace":
        return getattr(x, name + "_")(**kwargs), x, o
    o = torch.empty(0, dtype=dtype_of(c["out_dtype"]))
    return fn(x, **kwargs, out=o), x, o


def check(c, got_fn):
    """'pass', 'skip: why' or 'FAIL: why'"""
    try:
        r = got_fn()
    except Missing as e:
        return f"skip: {e}"
    except Exception as e:
        if isinstance(e, torch._C.NotImplementedInCtorch) and "error" not in c:
            return f"FAIL: NotImplementedInCtorch: {e}"
        if "error" not in c:
            return f"FAIL: raised {type(e).__name__}: {e}"
        want = c["error"]
        if type(e).__name__ != want["type"] or str(e) != want["message"]:
            return f"FAIL: raised {type(e).__name__}: {e!s}; PyTorch {want['type']}: {want['message']}"
        return "pass"
    if "error" in c:
        return f"FAIL: returned; PyTorch raised {c['error']['type']}: {c['error']['message']}"
    return r


counts = {}
failures = []


def tally(kind, status, label):
    n = counts.setdefault(kind, {"pass": 0, "skip": 0, "fail": 0})
    if status == "pass":
        n["pass"] += 1
    elif status.startswith("skip"):
        n["skip"] += 1
    else:
        n["fail"] += 1
        failures.append(f"{kind} {label}: {status}")


for c in rec["cases"]:
    label = f"{c['form']} {c['op']}{json.dumps(c['kwargs']) if c['kwargs'] else ''} {c['dtype']} {c['layout']}" + (
        f" out={c['out_dtype']}" if c["form"] == "out" else "")
    why = known("cases", c["op"], json.dumps(c["kwargs"], sort_keys=True), c["dtype"], c["form"])
    if why:
        tally("cases", "skip: " + why, label)
        continue
    st = check(c, lambda: run_case(c))
    if isinstance(st, tuple):
        r, x, o = st
        computed = None
        if c["form"] == "out" and c["out_dtype"] in TOL:  # computed in the input's (float) dtype, then cast
            computed = c["dtype"] if c["dtype"] in TOL else "float32"
        st = compare(r, c["result"], c["op"], computed)
        if st is None and c["form"] == "inplace" and (r is x) != c["result"]["is_input"]:
            st = "the result is not self"
        if st is None and c["form"] == "out" and (r is o) != c["result"]["is_out"]:
            st = "the result is not out"
        st = "pass" if st is None else "FAIL: " + st
    tally("cases", st, label)


def grad_case(g):
    x = make(g["dtype"], g["layout"]).detach().requires_grad_()
    fn = getattr(torch, g["op"], None)
    if fn is None:
        raise Missing(f"torch.{g['op']}")
    y = fn(x, **g["kwargs"])
    name = type(y.grad_fn).__name__ if y.grad_fn is not None else None
    if name != g.get("grad_fn", name):
        raise AssertionError(f"grad_fn {name}, PyTorch {g['grad_fn']}")
    cot = g.get("cotangent") or [1.0] * y.numel()
    y.backward(torch.tensor(cot, dtype=y.dtype).reshape(y.shape))
    return x.grad, None, None


for g in rec["grads"]:
    kw = json.dumps(g["kwargs"], sort_keys=True)
    label = f"{g['op']}{kw if g['kwargs'] else ''} {g['dtype']} {g['layout']}"
    why = known("grads", g["op"], kw, g["dtype"], g["layout"])
    if why:
        tally("grads", "skip: " + why, label)
        continue
    st = check(g, lambda: grad_case(g))
    if isinstance(st, tuple):
        st = compare(st[0], g["grad"], g["op"])
        st = "pass" if st is None else "FAIL: " + st
    tally("grads", st, label)


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        return func(*args, **(kwargs or {}))


def aten_name(s):
    _, base, overload = s.split(".", 2)
    return f"aten::{base}" + ("" if overload == "default" else f".{overload}")


for key, want in rec["logs"].items():
    name, kw = key.split("|", 1)
    inplace = name.endswith("_")
    name = name.rstrip("_") if inplace else name
    why = known("logs", name, kw, None, None) or (None if hasattr(torch, name) else f"torch.{name} is not in ctorch")
    if why:
        tally("logs", "skip: " + why, key)
        continue
    absent = sorted({aten_name(s) for s in want if not s.startswith("error")} - have_ops)
    if absent:
        tally("logs", "skip: ctorch lacks " + ", ".join(absent), key)
        continue
    x = torch.tensor([0.25, -0.5, 2.0, 3.0]).requires_grad_()
    if inplace:  # the recording ran the functional form on the same x first: x.grad exists (add_ into it)
        try:
            y = getattr(torch, name)(x, **json.loads(kw))
            if y.requires_grad:
                y.backward(torch.ones_like(y))
        except Exception:
            pass
    log = Log()
    try:
        with log:
            if inplace:
                y = x.mul(1)
                getattr(y, name + "_")(**json.loads(kw))
            else:
                y = getattr(torch, name)(x, **json.loads(kw))
            if y.requires_grad:
                y.backward(torch.ones_like(y))
    except Exception as e:
        log.seen.append(f"error {type(e).__name__}: {e}")
    tally("logs", "pass" if log.seen == want else f"FAIL: {log.seen}, PyTorch {want}", key)

for a in rec["autograd_errors"]:  # and the overlap cases
    label = f"{a['form']} {a['op']}"
    fn = getattr(torch, a["op"], None)
    why = known("cases", a["op"], "{}", None, "inplace" if a["form"] == "inplace" else "out")
    if fn is None or why:
        tally("out_inplace_checks", "skip: " + (why or f"torch.{a['op']}"), label)
        continue
    kw = next(c["kwargs"] for c in rec["cases"] if c["op"] == a["op"])  # the op's first form, as recorded

    def attempt():
        x = torch.tensor([0.25, 0.5]).requires_grad_()
        v = torch.tensor([0.25, 0.5, 2.0, 3.0])
        if a["form"] == "out":
            fn(x, **kw, out=torch.empty(0, dtype=fn(x.detach(), **kw).dtype))
        elif a["form"] == "overlap":
            return fn(v[1:], **kw, out=v[:-1]), None, None
        elif a["form"] == "same":
            return fn(v, **kw, out=v), None, None
        else:
            getattr(x, a["op"] + "_")(**kw)
        return None, None, None

    st = check(a, attempt)
    if isinstance(st, tuple):
        st = compare(st[0], a["result"], a["op"]) if isinstance(a.get("result"), dict) else None
        st = "pass" if st is None else "FAIL: " + st
    tally("out_inplace_checks", st, label)

summary = ", ".join(f"{k} {v['pass']}/{v['pass'] + v['fail']} pass ({v['skip']} skipped)" for k, v in counts.items())
print(f"unary_ops: {summary}")
for f in failures[:400]:
    print(f)
if len(failures) > 400:
    print(f"... and {len(failures) - 400} more failures")
sys.exit(1 if failures else 0)
