"""Records the shape-ops family's test table under PyTorch 2.6, for tests/python/shape_ops.py to replay
through ctorch: flip, roll, repeat, tile, triu, fliplr, flipud, diagonal, broadcast_to, ravel, squeeze (all dims, a dim list, in place), expand_as,
view_as, reshape_as, swapaxes/swapdims, movedim/moveaxis, chunk, unbind.

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/shape_ops.py tests/golden/torch-2.6/shape_ops.json

Each case is a Python expression over `torch` and `X(shape, dtype)` (an arange of that shape in that
dtype; a non-contiguous input is written with .t()/.transpose), evaluated as written by the recorder
and by the replay:
  value cases   the result's values, dtype, shape, strides, contiguity and whether it shares self's
                storage (a view), for every dtype ctorch has
  grad cases    float32 and float64: the input's gradient for a fixed cotangent and the grad_fn's name
  log cases     the operators a dispatch mode sees (the composite ones show their decomposition)
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [{"id", "expr" | "grad" | "log", "result" | "error"}]}."""
import json
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

DT = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = torch.arange(n, dtype=torch.float64).reshape(shape)
    if dtype == torch.bool:
        return (t.long() % 3 == 1).reshape(shape)
    return t.to(dtype)


VALUE = [
    ("flip", "torch.flip(X([2, 3, 4], D), [0, 2])"),
    ("flip_neg", "X([2, 3], D).flip(-1)"),
    ("flip_t", "torch.flip(X([3, 4], D).t(), [0])"),
    ("flip_none", "torch.flip(X([3], D), [])"),
    ("flip_0d", "torch.flip(X([], D), [])"),
    ("roll", "torch.roll(X([2, 5], D), 2, 1)"),
    ("roll_flat", "torch.roll(X([2, 3], D), 4)"),
    ("roll_multi", "torch.roll(X([3, 4], D), (1, -3), (0, 1))"),
    ("roll_t", "torch.roll(X([3, 4], D).t(), -1, 0)"),
    ("roll_big", "X([4], D).roll(9)"),
    ("repeat", "X([2, 3], D).repeat(2, 2)"),
    ("repeat_lead", "X([3], D).repeat(2, 1, 2)"),
    ("repeat_t", "X([2, 3], D).t().repeat(1, 3)"),
    ("repeat_zero", "X([2, 3], D).repeat(0, 1)"),
    ("tile", "torch.tile(X([2, 3], D), (2,))"),
    ("tile_lead", "X([2], D).tile((3, 2))"),
    ("triu", "torch.triu(X([3, 4], D))"),
    ("triu_k", "X([2, 3, 3], D).triu(1)"),
    ("triu_neg", "X([4, 3], D).t().triu(-1)"),
    ("squeeze", "X([1, 3, 1, 2], D).squeeze()"),
    ("squeeze_dims", "X([1, 3, 1, 2], D).squeeze((0, 1, 2))"),
    ("squeeze_dims_neg", "torch.squeeze(X([1, 3, 1], D), [-1])"),
    ("squeeze_0d", "X([], D).squeeze()"),
    ("squeeze_0d_dims", "X([], D).squeeze([0])"),
    ("squeeze_", "X([1, 3, 1], D).squeeze_()"),
    ("squeeze_dims_", "X([1, 3, 1], D).squeeze_((0,))"),
    ("expand_as", "X([3, 1], D).expand_as(X([2, 3, 4]))"),
    ("view_as", "X([2, 6], D).view_as(X([3, 4]))"),
    ("reshape_as", "X([3, 4], D).t().reshape_as(X([2, 6]))"),
    ("swapaxes", "torch.swapaxes(X([2, 3, 4], D), 0, 2)"),
    ("swapdims", "X([2, 3], D).swapdims(-1, 0)"),
    ("movedim", "torch.movedim(X([2, 3, 4], D), 0, -1)"),
    ("movedim_list", "X([2, 3, 4, 5], D).movedim((0, 3), (2, 0))"),
    ("moveaxis", "torch.moveaxis(X([2, 3, 4], D), 2, 0)"),
    ("fliplr", "torch.fliplr(X([2, 3, 2], D))"),
    ("flipud", "X([3, 2], D).flipud()"),
    ("diagonal", "torch.diagonal(X([3, 4], D))"),
    ("diagonal_off", "X([3, 4], D).diagonal(1)"),
    ("diagonal_neg", "X([2, 3, 4], D).diagonal(-1, 2, 1)"),
    ("diagonal_empty", "X([3, 4], D).diagonal(5)"),
    ("broadcast_to", "torch.broadcast_to(X([3, 1], D), (2, 3, 4))"),
    ("ravel", "X([2, 3], D).ravel()"),
    ("ravel_t", "torch.ravel(X([2, 3], D).t())"),
    ("chunk", "X([2, 7], D).chunk(3, 1)"),
    ("chunk_exact", "torch.chunk(X([6, 2], D), 3)"),
    ("chunk_more", "X([2], D).chunk(5)"),
    ("chunk_empty", "X([0], D).chunk(2)"),
    ("unbind", "torch.unbind(X([2, 3], D), 1)"),
    ("unbind_t", "X([3, 4], D).t().unbind()"),
]
ERRORS = [
    ("flip_dup", "torch.flip(X([2, 3]), [0, 0])"),
    ("flip_dup_neg", "torch.flip(X([2, 3]), [1, -1])"),
    ("flip_range", "torch.flip(X([2, 3]), [2])"),
    ("roll_align", "torch.roll(X([2, 3]), (1, 2), (0,))"),
    ("roll_nodims", "torch.roll(X([2, 3]), (1, 2))"),
    ("roll_range", "torch.roll(X([2, 3]), 1, 3)"),
    ("repeat_few", "X([2, 3]).repeat(2)"),
    ("repeat_neg", "X([2, 3]).repeat(-1, 2)"),
    ("triu_1d", "torch.triu(X([3]))"),
    ("squeeze_range", "X([1, 3]).squeeze(2)"),
    ("squeeze_dims_range", "X([1, 3]).squeeze((0, 5))"),
    ("squeeze_dims_dup", "X([1, 3]).squeeze((0, 0))"),
    ("expand_as_bad", "X([3, 2]).expand_as(X([2, 3]))"),
    ("view_as_bad", "X([3, 4]).t().view_as(X([12]))"),
    ("movedim_len", "torch.movedim(X([2, 3]), (0, 1), (0,))"),
    ("movedim_dup", "torch.movedim(X([2, 3]), (0, 0), (0, 1))"),
    ("swapaxes_range", "torch.swapaxes(X([2, 3]), 0, 2)"),
    ("roll_empty", "torch.roll(X([2, 3]), [])"),
    ("roll_0d", "torch.roll(X([]), 1, 0)"),
    ("fliplr_1d", "torch.fliplr(X([3]))"),
    ("flipud_0d", "torch.flipud(X([]))"),
    ("diagonal_same", "torch.diagonal(X([2, 3]), 0, 1, 1)"),
    ("diagonal_range", "torch.diagonal(X([2, 3]), 0, 0, 2)"),
    ("broadcast_to_bad", "torch.broadcast_to(X([3, 2]), (2, 3))"),
    ("chunk_0d", "X([]).chunk(2)"),
    ("chunk_zero", "X([2, 3]).chunk(0)"),
    ("chunk_range", "X([2, 3]).chunk(2, 5)"),
    ("unbind_0d", "X([]).unbind()"),
    ("unbind_range", "torch.unbind(X([2, 3]), -3)"),
]
GRAD = [
    ("flip", "torch.flip(x, [0, 1])", [2, 3]),
    ("roll", "torch.roll(x, (1, -1), (0, 1))", [2, 3]),
    ("roll_flat", "torch.roll(x, 2)", [2, 3]),
    ("repeat", "x.repeat(2, 1, 3)", [2, 3]),
    ("tile", "x.tile((2,))", [2, 3]),
    ("triu", "x.triu(-1)", [3, 3]),
    ("squeeze", "x.squeeze()", [1, 3, 1]),
    ("squeeze_dims", "x.squeeze((0, 2))", [1, 3, 1]),
    ("expand_as", "x.expand_as(torch.zeros(2, 3, 4))", [3, 1]),
    ("movedim", "x.movedim(0, 1)", [2, 3]),
    ("swapaxes", "x.swapaxes(0, 1)", [2, 3]),
    ("diagonal", "x.diagonal(1)", [3, 4]),
    ("diagonal_3d", "x.diagonal(0, 0, 2)", [2, 3, 2]),
    ("chunk", "x.chunk(3, 1)[2]", [2, 7]),
    ("unbind", "x.unbind(1)[1]", [2, 3]),
]
LOGS = [  # a and b are made before the mode starts
    ("tile", "torch.tile(a, (2,))", [2, 3], [1]),
    ("flip", "torch.flip(a, [0])", [2, 3], [1]),
    ("roll", "torch.roll(a, 1)", [2, 3], [1]),
    ("repeat", "a.repeat(2, 1)", [2, 3], [1]),
    ("squeeze", "a.squeeze()", [1, 3], [1]),
    ("squeeze_dims", "a.squeeze((0,))", [1, 3], [1]),
    ("expand_as", "a.expand_as(b)", [3, 1], [2, 3, 4]),
    ("view_as", "a.view_as(b)", [2, 6], [3, 4]),
    ("reshape_as", "a.reshape_as(b)", [3, 4], [2, 6]),
    ("swapaxes", "torch.swapaxes(a, 0, 1)", [2, 3], [1]),
    ("swapdims", "torch.swapdims(a, 0, 1)", [2, 3], [1]),
    ("movedim", "torch.movedim(a, 0, -1)", [2, 3, 4], [1]),
    ("moveaxis", "torch.moveaxis(a, (0, 1), (2, 0))", [2, 3, 4], [1]),
    ("triu", "torch.triu(a)", [2, 3], [1]),
    ("fliplr", "torch.fliplr(a)", [2, 3], [1]),
    ("flipud", "torch.flipud(a)", [2, 3], [1]),
    ("diagonal", "torch.diagonal(a)", [2, 3], [1]),
    ("broadcast_to", "a.broadcast_to((2, 3))", [3], [1]),
    ("ravel", "a.ravel()", [2, 3], [1]),
    ("ravel_t", "a.t().ravel()", [2, 3], [1]),
    ("chunk", "a.chunk(2)", [5, 2], [1]),
    ("chunk_empty", "torch.chunk(a, 2)", [0], [1]),
    ("unbind", "torch.unbind(a)", [2, 3], [1]),
]


def describe(r, base):
    if isinstance(r, (tuple, list)):
        return [describe(x, base) for x in r]
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                strides=list(r.stride()), contiguous=r.is_contiguous(),
                view=bool(base is not None and r.numel() > 0 and storage_ptr(r) == storage_ptr(base)))


def storage_ptr(t):
    """where t's storage starts: the same for tensors that share one"""
    return t.data_ptr() - t.storage_offset() * t.element_size()


def run_value(expr, env):
    # the base tensor: evaluate the first X(...) of the expression apart to know self's storage
    base = {}

    def Xr(shape, dtype=torch.float32):
        t = X(shape, dtype)
        if "t" not in base:
            base["t"] = t
        return t

    r = eval(expr, dict(env, X=Xr))
    return describe(r, base.get("t"))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


cases = []
env = dict(torch=torch)
for cid, expr in VALUE:
    for dt in DT:
        e = expr.replace("D)", f"torch.{dt})")
        c = dict(id=f"{cid}/{dt}", expr=e)
        try:
            c["result"] = run_value(e, env)
        except Exception as ex:  # noqa: BLE001 - recorded as it is
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
for cid, expr in ERRORS:
    c = dict(id=f"error/{cid}", expr=expr)
    try:
        eval(expr, dict(env, X=X))
        c["result"] = "no error"
    except Exception as ex:  # noqa: BLE001
        c["error"] = [type(ex).__name__, str(ex)]
    cases.append(c)
for cid, expr, shape in GRAD:
    for dt in ["float32", "float64"]:
        x = X(shape, getattr(torch, dt)).requires_grad_()
        y = eval(expr, dict(env, x=x))
        g = (torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0)
        y.backward(g)
        cases.append(dict(id=f"grad/{cid}/{dt}", grad=expr, shape=shape, dtype=dt,
                          result=dict(grad_fn=type(y.grad_fn).__name__, grad=x.grad.tolist())))
for cid, expr, sa, sb in LOGS:
    a, b = X(sa), X(sb)
    with Log() as m:
        eval(expr, dict(env, a=a, b=b))
    cases.append(dict(id=f"log/{cid}", log=expr, a=sa, b=sb, result=m.ops))

with open(sys.argv[1], "w") as f:
    json.dump(dict(torch=torch.__version__, cases=cases), f, indent=0)
print(len(cases), "cases")
