"""The reduction family's cases, shared by the recorder (tests/golden/record/reduce_ops.py, under
PyTorch 2.6) and the replay (tests/python/reduce_ops.py, under ctorch). It imports no torch.

A case is (name, expression, input, grad): the expression is evaluated with `torch` and `x` (the
input tensor) in scope; input names one of INPUTS below in one dtype ("A:float32") and, after a
"/", a view of it ("A:float32/t": x.transpose(0, 2)); grad says whether the gradient of x is
recorded (for floating inputs; the recorder writes what PyTorch does, an error included).

INPUTS: name -> (shape, flat values as a function of the element's number i), built as
torch.tensor(values, dtype=float64).to(dtype).reshape(shape). Values are multiples of 1/4 with
small magnitudes, exactly representable in every floating dtype; ints and bools convert them.
"""
import math

DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "bool")
FLOATING = ("float32", "float64", "float16", "bfloat16")


def _vals(n, f):
    return [f(i) for i in range(n)]


INPUTS = {
    # a general [3, 4, 5] tensor with mixed signs (and zeros for the bools and prod)
    "A": ((3, 4, 5), lambda i: ((i * 37) % 23 - 11) / 4),
    # values near 1 for products (no overflow, no zeros)
    "P": ((3, 4), lambda i: ((i * 7) % 5 + 2) / 4),
    # ties along each dimension for the index-returning ops
    "T": ((2, 4), lambda i: [1, 3, 3, 2, 5, 5, 1, 5][i]),
    # NaNs (floating only: the ints and bools see the cast of nan)
    "N": ((2, 3), lambda i: [1.0, math.nan, 3.0, math.nan, 2.0, 0.0][i]),
    # longer rows with NaNs and ties (the float32 kernels work 8 elements at a time)
    "M": ((3, 12), lambda i: [0.5, 2.0, -1.0, 2.0, 0.25, -3.0, 1.0, 2.0, -0.5, 1.5, 0.0, -2.0,
                              1.0, 1.0, math.nan, 3.0, 3.0, -1.0, 0.0, 2.5, math.nan, 1.0, -4.0, 0.75,
                              -0.0, 0.0, -1.5, 1.25, -2.5, 0.5, 1.75, -0.25, 2.25, -1.25, 0.0, -0.0][i]),
    # zeros among the values, for prod's and cumprod's derivatives
    "Z": ((2, 3), lambda i: [2.0, 0.0, 3.0, 0.0, 0.0, 1.5][i]),
    # a vector and a scalar
    "V": ((6,), lambda i: [0.5, -1.25, 2.0, 0.0, 3.5, -0.75][i]),
    "S": ((), lambda i: 2.5),
    # empty tensors: a zero-sized dimension kept or reduced
    "E": ((0, 3), lambda i: 0.0),
    "F": ((2, 0), lambda i: 0.0),
}


def input_values(name):
    shape, f = INPUTS[name]
    n = 1
    for s in shape:
        n *= s
    return list(shape), _vals(n, f)


def _ops():
    """(name, expression, input names, grad) per op, each over several dims and options."""
    ops = []

    def add(op, exprs, inputs=("A",), grad=True, views=True):
        for k, e in enumerate(exprs):
            for inp in inputs:
                ops.append((f"{op}.{k}.{inp}", e, inp, grad))
                if views and inp == "A" and k < 2:
                    ops.append((f"{op}.{k}.{inp}/t", e, inp + "/t", grad))

    add("sum", ["x.sum()", "x.sum(1)", "x.sum((0, 2))", "x.sum(-1, keepdim=True)"])
    add("mean", ["torch.mean(x)", "x.mean(1)", "x.mean(-1)", "x.mean((0, 2))", "x.mean(1, keepdim=True)",
                 "x.mean([])", "torch.mean(x, dtype=torch.float64)", "x.mean(dim=(-1, 0), keepdim=True)"])
    add("mean_e", ["x.mean()", "x.mean(0)", "x.mean(1)"], inputs=("E", "F"), views=False)
    add("mean_v", ["x.mean()", "x.mean(0)", "x.mean(-1, keepdim=True)"], inputs=("V", "S"), views=False)
    add("var", ["torch.var(x)", "x.var(0)", "x.var(-1, unbiased=False)", "x.var((0, 2), keepdim=True)",
                "torch.var(x, 1, correction=0)", "x.var(dim=2, correction=2)", "x.var(correction=0)",
                "torch.var(x, None, unbiased=False)", "x.var(dim=[])"])
    add("std", ["torch.std(x)", "x.std(0)", "x.std(-1, unbiased=False)", "x.std((0, 2), keepdim=True)",
                "torch.std(x, 1, correction=0)", "x.std(dim=2, correction=2)", "x.std(correction=0)"])
    add("var_v", ["x.var()", "x.std(0)", "x.var(correction=0)"], inputs=("V", "S"), views=False)
    add("var_e", ["x.var()", "x.var(0)", "x.std(1)"], inputs=("E", "F"), grad=False, views=False)
    add("var_mean", ["torch.var_mean(x)", "torch.var_mean(x, 1)", "torch.var_mean(x, (0, 2), correction=0)",
                     "torch.var_mean(x, -1, keepdim=True)", "torch.var_mean(x, unbiased=False)",
                     "torch.var_mean(x, 0, False)"])
    add("std_mean", ["torch.std_mean(x)", "torch.std_mean(x, 1)", "torch.std_mean(x, (0, 2), correction=0)",
                     "torch.std_mean(x, -1, keepdim=True)"])
    add("prod", ["torch.prod(x)", "x.prod(1)", "x.prod(-1, keepdim=True)", "x.prod(0, dtype=torch.float64)",
                 "torch.prod(x, dtype=torch.float32)"], inputs=("P",))
    add("prod_z", ["x.prod()", "x.prod(1)", "x.prod(0)"], inputs=("Z", "S", "E"), views=False)
    add("amax", ["x.amax()", "x.amax(1)", "x.amax((0, 2))", "x.amax(-1, keepdim=True)", "torch.amax(x, [])"])
    add("amin", ["x.amin()", "x.amin(1)", "x.amin((0, 2))", "x.amin(-1, keepdim=True)"])
    add("amax_t", ["x.amax(1)", "x.amin(0)", "x.amax()"], inputs=("T", "N", "E", "S"), views=False)
    add("aminmax", ["torch.aminmax(x)", "torch.aminmax(x, dim=1)", "torch.aminmax(x, dim=-1, keepdim=True)"],
        grad=False)
    add("aminmax_t", ["torch.aminmax(x)", "x.aminmax(dim=0)"], inputs=("N", "E"), grad=False, views=False)
    add("any", ["torch.any(x)", "x.any(1)", "x.any((0, 2))", "x.any(-1, keepdim=True)", "x.any(())"],
        grad=False)
    add("all", ["torch.all(x)", "x.all(1)", "x.all((0, 2))", "x.all(-1, keepdim=True)", "x.all(dim=None)"],
        grad=False)
    add("anyall_e", ["x.any()", "x.all()", "x.any(0)", "x.all(1)"], inputs=("E", "N", "S"), grad=False,
        views=False)
    add("argmax", ["x.argmax()", "x.argmax(1)", "torch.argmax(x, -1, keepdim=True)", "x.argmax(dim=0)"],
        inputs=("A", "T", "N"), grad=False)
    add("argmin", ["x.argmin()", "x.argmin(1)", "torch.argmin(x, -1, keepdim=True)", "x.argmin(dim=0)"],
        inputs=("A", "T", "N"), grad=False)
    add("arg_e", ["x.argmax()", "x.argmin(1)", "x.argmax(0)", "x.argmin()", "x.argmin(0)"], inputs=("E", "S"),
        grad=False, views=False)
    add("long", ["x.amax(1)", "x.amin(-1)", "x.argmax(1)", "x.argmin(1)", "x.max(1)", "x.min(0)", "x.amax(0)",
                 "x.argmax(0)", "x.logsumexp(1)", "x.logsumexp(0)", "x.prod(1)", "x.prod(0)", "x.cumsum(1)",
                 "x.cumsum(0)", "x.cumprod(1)", "x.amax()", "x.argmax()"], inputs=("M",), views=False)
    # the named tuples as Python shows them
    add("repr", ["repr(torch.max(x, 1))", "repr(x.min(0, keepdim=True))", "repr(torch.aminmax(x, dim=1))",
                 "type(torch.max(x, 1)).__name__", "torch.max(x, 1).indices.tolist()", "repr(torch.var_mean(x, 1))"],
        inputs=("T",), grad=False, views=False)
    add("max", ["x.max()", "torch.max(x, 1)", "x.max(-1, keepdim=True)", "x.max(dim=0)"],
        inputs=("A", "T", "N"))
    add("min", ["x.min()", "torch.min(x, 1)", "x.min(-1, keepdim=True)", "x.min(dim=0)"],
        inputs=("A", "T", "N"))
    add("max_e", ["x.max()", "x.max(0)", "x.min(1)", "x.max(0, True)"], inputs=("E", "S"), grad=False, views=False)
    add("cumsum", ["x.cumsum(0)", "x.cumsum(-1)", "torch.cumsum(x, 1, dtype=torch.float64)",
                   "x.clone().cumsum_(1)"])
    add("cumprod", ["x.cumprod(0)", "x.cumprod(-1)", "torch.cumprod(x, 1, dtype=torch.float64)"],
        inputs=("P", "Z"))
    add("cum_e", ["x.cumsum(0)", "x.cumprod(1)", "x.cumsum(-1)"], inputs=("E", "S"), views=False)
    add("logsumexp", ["torch.logsumexp(x, 1)", "x.logsumexp((0, 2))", "x.logsumexp(-1, keepdim=True)",
                      "x.logsumexp(0)"])
    add("logsumexp_t", ["x.logsumexp(1)", "x.logsumexp(0)"], inputs=("N", "S"), views=False)
    add("logcumsumexp", ["x.logcumsumexp(1)", "torch.logcumsumexp(x, -1)"], views=False)
    add("nansum", ["torch.nansum(x)", "x.nansum(1)", "x.nansum((0, -1), keepdim=True)", "x.nansum(0, dtype=torch.float64)"])
    add("nansum_t", ["x.nansum()", "x.nansum(1)", "x.nansum(0)"], inputs=("N", "M", "E"), views=False)
    add("count_nonzero", ["torch.count_nonzero(x)", "x.count_nonzero(1)", "torch.count_nonzero(x, (0, 2))",
                          "x.count_nonzero(dim=-1)"], grad=False)
    # errors: dims out of range, repeated, reductions of zero-sized dimensions
    add("errors", ["x.mean(5)", "x.mean((0, 0))", "x.var((1, -2))", "x.amax(3)", "x.max(4)", "x.argmin(-4)",
                   "x.cumsum(3)", "x.prod(3)", "x.any(7)", "x.logsumexp(3)", "x.count_nonzero((1, 1))",
                   "x.sum((2, -1))", "x.amax((0, 0))"], grad=False, views=False)
    return ops


CASES = _ops()


def case_dtypes(name, inp):
    """The dtypes a case runs in: every dtype; the NaN input only in the floating ones."""
    base = inp.split("/")[0]
    if base in ("N", "M"):
        return FLOATING
    return DTYPES


# tolerances per dtype (OpInfo's defaults for reductions): (rtol, atol)
TOLS = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-5),
        "bfloat16": (1.6e-2, 1e-5)}


def _num(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def describe(torch, r):
    """A result as JSON: a tensor's dtype, shape and flat values, a tuple's type and items."""
    if isinstance(r, tuple):
        t = type(r)
        name = t.__name__ if t is tuple else f"{t.__module__}.{t.__name__}"
        return {"tuple": name, "items": [describe(torch, v) for v in r]}
    if isinstance(r, torch.Tensor):
        d = r.detach()
        return {"dtype": str(d.dtype).replace("torch.", ""), "shape": list(d.shape),
                "values": [_num(v) for v in d.reshape(-1).tolist()]}
    return {"other": repr(r)}


def make_input(torch, inp, dtype):
    base, _, view = inp.partition("/")
    shape, vals = input_values(base)
    x = torch.tensor(vals, dtype=torch.float64).to(getattr(torch, dtype)).reshape(shape)
    if view == "t":
        x = x.transpose(0, 2)
    return x


def run_case(torch, name, expr, inp, dtype, grad):
    """Runs one case; returns its record (without the case's identity)."""
    rec = {}
    x = make_input(torch, inp, dtype)
    want_grad = grad and dtype in ("float32", "float64")
    if want_grad:
        x = x.detach().requires_grad_(True)
    try:
        r = eval(expr, {"torch": torch, "x": x})
    except Exception as e:  # the error is the case's result
        rec["error"] = {"type": type(e).__name__, "message": str(e)}
        return rec
    rec["out"] = describe(torch, r)
    if want_grad:
        outs = list(r) if isinstance(r, tuple) else [r]
        outs = [o for o in outs if o.dtype.is_floating_point and o.requires_grad]
        try:
            loss = None
            for o in outs:
                n = o.numel()
                cot = torch.tensor([((j % 3) + 1) / 2 for j in range(n)], dtype=o.dtype).reshape(o.shape)
                term = (o * cot).sum()
                loss = term if loss is None else loss + term
            if loss is not None:
                loss.backward()
                rec["grad"] = describe(torch, x.grad) if x.grad is not None else None
        except Exception as e:
            rec["grad_error"] = {"type": type(e).__name__, "message": str(e)}
    return rec


# expressions whose operator log under a dispatch mode (forward and backward) is compared: what the
# composite forms decompose to and what the formulas call, in PyTorch's order. Not among them, as
# they differ: std's backward (PyTorch's eq.Scalar, which ctorch lacks: eq.Tensor against zeros),
# prod and cumsum (under a mode PyTorch takes the paths with flip, which ctorch lacks)
OPLOG_CASES = [
    "x.mean()", "x.mean(1)", "torch.var(x, 0, False)", "x.std(1, keepdim=True)", "torch.std_mean(x, 1)",
    "torch.var_mean(x, unbiased=False)", "torch.count_nonzero(x)", "x.logcumsumexp(1)", "x.max(1)",
    "x.var().backward()", "x.var(1).sum().backward()", "x.mean(1).sum().backward()",
    "x.mean().backward()", "x.amax(1).sum().backward()", "x.amin().backward()",
    "torch.var_mean(x, 1)[1].sum().backward()",
]


def run_oplog(torch, expr):
    """The operators a dispatch mode sees while expr runs on a fixed [3, 4] float32 input."""
    from torch.utils._python_dispatch import TorchDispatchMode

    ops = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            ops.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.tensor([((i * 7) % 5 + 1) / 4 for i in range(12)]).reshape(3, 4).requires_grad_(True)
    with Log():
        eval(expr, {"torch": torch, "x": x})
    return ops
