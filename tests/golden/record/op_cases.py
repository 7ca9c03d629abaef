"""Records operator calls made through PyTorch 2.6's operator overloads (torch.ops.aten.X.overload)
and their results or errors, for tests/test_op_cases.c to replay through ctorch's boxed dispatcher.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/op_cases.py torch-2.6/op_cases.json

The output is a JSON list, one case per line:
  {"name": str, "op": "aten::add.Tensor", "args": [ARG, ...], "tol": "exact" | "close" | "loose",
   then "out": [RESULT] or "error": {"type": "RuntimeError", "message": str},
   and optionally "skip_reason": str (ctorch does not implement this yet; reported, not failed)
   and "error_first_line": true (ctorch matches only the message's first line).}

args are positional in schema order (keyword-only ones included, in their schema position);
trailing arguments may be left out and take their schema defaults. ARG is one of
  {"tensor": {"dtype": D, "sizes": [...], "values": [...], "view": V}}
      values: the flat row-major values of the BASE tensor, which is built contiguous and
      then viewed:
        view null      the base is the tensor (sizes as given)
        view "t"       the base has the sizes reversed; the tensor is the base with all its
                       dimensions reversed (base.permute(n-1, ..., 0): for 2-D, base.t()),
                       a non-contiguous view of sizes "sizes"
        view "expand0" the base has sizes[1:]; the tensor is base.expand(sizes), a view
                       whose dimension 0 has stride 0
  {"int": n} {"float": x} {"bool": b} {"ints": [...]} {"none": true}
  {"scalar_int": n} {"scalar_float": x}       a Scalar argument
  {"dtype": D}                                a ScalarType argument
  {"memory_format": "contiguous" | "preserve"}
  {"tensors": [TENSOR, ...]}                   a Tensor[] argument (each a {"tensor": ...} as above)
  {"bools": [...]}                            a bool[N] argument
  {"string": s}                               a str argument
  {"generator": seed}                         torch.Generator().manual_seed(seed)
RESULT is {"tensor": {"dtype", "sizes", "strides", "storage_offset", "values"}}, a Tensor[] result
{"tensors": [RESULT, ...]}, or a Scalar result {"scalar": x}, with the values
in logical row-major order (null for empty()'s uninitialised memory), plus "is_arg": i when
the result is the very tensor passed as argument i (in-place ops, contiguous() of a
contiguous tensor) and "views_arg": i when it shares argument i's storage.

Element values: floats are float(x) of the stored element, so float32/float16/bfloat16 values
are exactly what the tensor holds; NaN and infinities are the strings "nan", "inf", "-inf".
Integers beyond 2**53 (which a JSON reader may hold as a double) are decimal strings.
"""
import json
import math
import sys

import torch

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "bool": torch.bool,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
MEMORY_FORMATS = {"contiguous": torch.contiguous_format, "preserve": torch.preserve_format}
FLOATING = ("float32", "float64", "float16", "bfloat16")
BIG = 2 ** 53


def enc(v):
    """One element or scalar value as JSON."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v if -BIG <= v <= BIG else str(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def dec(v):
    if isinstance(v, str):
        return float(v) if v in ("nan", "inf", "-inf") else int(v)
    return v


# ---- building arguments ----------------------------------------------------------------------


def T(values, sizes, dtype="float32", view=None):
    """A tensor argument; values fill the base (see the module docstring)."""
    if view is None:
        base_sizes = list(sizes)
    elif view == "t":
        base_sizes = list(reversed(sizes))
    elif view == "expand0":
        base_sizes = list(sizes[1:])
    else:
        raise ValueError(view)
    n = math.prod(base_sizes)
    values = [dec(v) for v in values]
    assert len(values) == n, (values, sizes, view)
    # round to the dtype once here, so the file holds the exact stored elements
    base = torch.tensor(values, dtype=DTYPES[dtype]).reshape(base_sizes)
    stored = base.reshape(-1).tolist()
    return {"tensor": {"dtype": dtype, "sizes": list(sizes), "values": [enc(v) for v in stored], "view": view}}


def build_tensor(spec):
    s = spec["tensor"]
    view = s["view"]
    sizes = s["sizes"]
    base_sizes = list(sizes) if view is None else list(reversed(sizes)) if view == "t" else list(sizes[1:])
    base = torch.tensor([dec(v) for v in s["values"]], dtype=DTYPES[s["dtype"]]).reshape(base_sizes)
    if view == "t":
        return base.permute(*reversed(range(base.dim())))
    if view == "expand0":
        return base.expand(sizes)
    return base


def build(arg):
    (kind, v), = arg.items()
    if kind == "tensor":
        return build_tensor(arg)
    if kind in ("int", "scalar_int"):
        return dec(v)
    if kind in ("float", "scalar_float"):
        return float(dec(v))
    if kind == "bool":
        return bool(v)
    if kind == "ints":
        return [dec(x) for x in v]
    if kind == "none":
        return None
    if kind == "dtype":
        return DTYPES[v]
    if kind == "memory_format":
        return MEMORY_FORMATS[v]
    if kind == "tensors":
        return [build_tensor(t) for t in v]
    if kind == "bools":
        return [bool(x) for x in v]
    if kind == "string":
        return v
    if kind == "generator":
        return torch.Generator().manual_seed(v)
    raise ValueError(kind)


def I(n):
    return {"int": enc(n)}


def F(x):
    return {"float": enc(x)}


def B(b):
    return {"bool": bool(b)}


def L(*xs):
    return {"ints": [enc(x) for x in xs]}


def SI(n):
    return {"scalar_int": enc(n)}


def SF(x):
    return {"scalar_float": enc(x)}


def DT(name):
    return {"dtype": name}


def MF(name):
    return {"memory_format": name}


NONE = {"none": True}


def TL(*tensors):
    return {"tensors": list(tensors)}


def BL(*bools):
    return {"bools": [bool(b) for b in bools]}


def S(text):
    return {"string": text}


def G(seed):
    return {"generator": seed}


# ---- value generators (exact binary fractions unless said otherwise) ------------------------


def seq(sizes, start=1, step=1, dtype="float32", view=None):
    """start, start+step, ... filling the base."""
    base = list(sizes) if view is None else list(reversed(sizes)) if view == "t" else list(sizes[1:])
    n = math.prod(base)
    vals = [start + i * step for i in range(n)]
    if dtype == "bool":
        vals = [bool(int(v) % 2) for v in vals]
    elif dtype == "int64":
        vals = [int(v) for v in vals]
    return T(vals, sizes, dtype, view)


def mix(sizes, seed=0, dtype="float32", view=None):
    """Signed quarter-steps in [-1.5, 1.5], scrambled."""
    base = list(sizes) if view is None else list(reversed(sizes)) if view == "t" else list(sizes[1:])
    n = math.prod(base)
    vals = [((i * 7 + seed * 3) % 13 - 6) / 4 for i in range(n)]
    if dtype == "int64":
        vals = [int(v * 4) for v in vals]
    return T(vals, sizes, dtype, view)


def frac(sizes, seed=0, dtype="float32", view=None):
    """Values with full mantissas (0.1, 1/3, ...), where rounding order shows."""
    base = list(sizes) if view is None else list(reversed(sizes)) if view == "t" else list(sizes[1:])
    n = math.prod(base)
    vals = [((i + 1) * 0.1 + seed) / (3 + (i % 4)) for i in range(n)]
    return T(vals, sizes, dtype, view)


# ---- running -----------------------------------------------------------------------------------

cases = []


def resolve(qualified):
    ns, name = qualified.split("::")
    base, _, overload = name.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), base), overload or "default")


def result_of(out, targs):
    d = {
        "dtype": DTYPE_NAMES[out.dtype],
        "sizes": list(out.shape),
        "strides": list(out.stride()),
        "storage_offset": out.storage_offset(),
        "values": [enc(v) for v in out.contiguous().reshape(-1).tolist()],
    }
    r = {"tensor": d}
    for i, a in enumerate(targs):
        if isinstance(a, torch.Tensor) and out is a:
            r["is_arg"] = i
            break
    ptr = out.untyped_storage().data_ptr()
    if ptr != 0:
        for i, a in enumerate(targs):
            if isinstance(a, torch.Tensor) and a.untyped_storage().data_ptr() == ptr:
                r["views_arg"] = i
                break
    return r


def case(name, op, args, tol="exact", skip_reason=None, uninitialized=False, error_first_line=False):
    assert not any(c["name"] == name for c in cases), name
    overload = resolve(op)
    schema = overload._schema
    targs = [build(a) for a in args]
    pos, kw = [], {}
    for a, v in zip(schema.arguments, targs):
        if a.kwarg_only:
            kw[a.name] = v
        else:
            pos.append(v)
    c = {"name": name, "op": op, "args": args, "tol": tol}
    try:
        out = overload(*pos, **kw)
        if len(schema.returns) == 1 and str(schema.returns[0].type) == "List[Tensor]":
            res = [{"tensors": [result_of(o, targs) for o in out]}]
        elif not isinstance(out, (torch.Tensor, tuple, list)) and out is not None:
            res = [{"scalar": enc(out)}]
        else:
            outs = [] if out is None else list(out) if isinstance(out, (tuple, list)) else [out]
            res = [result_of(o, targs) for o in outs]
        if uninitialized:
            for r in res:
                r["tensor"]["values"] = None
        c["out"] = res
    except Exception as e:  # the message is what is recorded
        c["error"] = {"type": type(e).__name__, "message": str(e)}
        if error_first_line:
            c["error_first_line"] = True
    if skip_reason:
        c["skip_reason"] = skip_reason
    cases.append(c)


EXACT, CLOSE = "exact", "close"
# ctorch computes layer norm's statistics in double and rounds once; PyTorch's float kernel uses
# a vectorised float Welford, which is off by about 1e-6 relative when eps weighs on a small
# variance: such cases are compared with rtol 1e-5.
LOOSE = "loose"
NAN, INF = float("nan"), float("inf")

# ======================================================================================
# factories
# ======================================================================================
case("empty_2x3", "aten::empty.memory_format", [L(2, 3)], uninitialized=True)
case("empty_f64", "aten::empty.memory_format", [L(2, 3), DT("float64")], uninitialized=True)
case("empty_int64_zero_rows", "aten::empty.memory_format", [L(0, 4), DT("int64")], uninitialized=True)
case("empty_0dim_bool", "aten::empty.memory_format", [L(), DT("bool")], uninitialized=True)
case("empty_3d_bf16", "aten::empty.memory_format", [L(2, 1, 3), DT("bfloat16")], uninitialized=True)
case("empty_contiguous_format", "aten::empty.memory_format", [L(3, 2), NONE, NONE, NONE, NONE, MF("contiguous")],
     uninitialized=True)
case("empty_preserve_format_error", "aten::empty.memory_format", [L(3, 2), NONE, NONE, NONE, NONE, MF("preserve")])
case("empty_negative_size_error", "aten::empty.memory_format", [L(2, -1)])
case("empty_strided_col_major", "aten::empty_strided", [L(2, 3), L(1, 2)], uninitialized=True)
case("empty_strided_gap", "aten::empty_strided", [L(2, 3), L(4, 1), DT("int64")], uninitialized=True)
case("empty_strided_zero_stride", "aten::empty_strided", [L(3, 2), L(0, 1), DT("float16")], uninitialized=True)
case("empty_strided_length_mismatch", "aten::empty_strided", [L(2, 3), L(1)])
case("empty_strided_negative_size_first", "aten::empty_strided", [L(2, -3), L(1)])
case("empty_strided_negative_stride", "aten::empty_strided", [L(2, 3), L(-1, 1)])
case("empty_strided_negative_stride_size_one", "aten::empty_strided", [L(1, 3), L(-1, 1)], uninitialized=True)
case("zeros_2x3", "aten::zeros", [L(2, 3)])
case("zeros_int64", "aten::zeros", [L(3), DT("int64")])
case("zeros_0dim_bool", "aten::zeros", [L(), DT("bool")])
case("zeros_bf16", "aten::zeros", [L(2, 2), DT("bfloat16")])
case("zeros_empty", "aten::zeros", [L(0, 3)])
case("ones_3", "aten::ones", [L(3)])
case("ones_f16", "aten::ones", [L(2, 2), DT("float16")])
case("ones_int64", "aten::ones", [L(2, 1), DT("int64")])
case("ones_bool", "aten::ones", [L(3), DT("bool")])
case("full_int_fill", "aten::full", [L(2, 2), SI(7)])
case("full_float_fill", "aten::full", [L(2, 2), SF(2.5)])
case("full_bool_fill", "aten::full", [L(3), B(True)])
case("full_bool_fill_false", "aten::full", [L(2), B(False)])
case("full_int_fill_f64", "aten::full", [L(2), SI(3), DT("float64")])
case("full_float_fill_int64", "aten::full", [L(2), SF(-2.75), DT("int64")])
case("full_int_fill_bool", "aten::full", [L(2), SI(-1), DT("bool")])
case("full_big_int", "aten::full", [L(2), SI(2 ** 62 + 1)])
case("full_nan", "aten::full", [L(2), SF(NAN)])
case("full_inexact_float32", "aten::full", [L(2), SF(0.1)])
case("full_inexact_f16", "aten::full", [L(2), SF(0.1), DT("float16")])
case("full_overflow_f16_error", "aten::full", [L(2), SF(1e10), DT("float16")])
case("full_overflow_f16_int_error", "aten::full", [L(2), SI(70000), DT("float16")])
case("full_overflow_f32_error", "aten::full", [L(2), SF(1e300)])
case("full_inf_f16", "aten::full", [L(2), SF(-INF), DT("float16")])
case("full_big_int_f32", "aten::full", [L(2), SI(2 ** 63 - 1), DT("float32")])
case("full_0dim", "aten::full", [L(), SF(-1.5)])
case("scalar_tensor_int", "aten::scalar_tensor", [SI(3)])
case("scalar_tensor_float_f64", "aten::scalar_tensor", [SF(2.5), DT("float64")])
case("scalar_tensor_bool", "aten::scalar_tensor", [B(True)])
case("scalar_tensor_int64", "aten::scalar_tensor", [SI(-4), DT("int64")])

for fn in ("zeros_like", "ones_like", "empty_like"):
    un = fn == "empty_like"
    op = "aten::" + fn
    case(fn + "_plain", op, [seq([2, 3])], uninitialized=un)
    case(fn + "_t_preserve_default", op, [seq([2, 3], view="t")], uninitialized=un)
    case(fn + "_t_preserve", op, [seq([2, 3], view="t"), NONE, NONE, NONE, NONE, MF("preserve")], uninitialized=un)
    case(fn + "_t_contiguous", op, [seq([2, 3], view="t"), NONE, NONE, NONE, NONE, MF("contiguous")], uninitialized=un)
    case(fn + "_3d_reversed", op, [seq([2, 3, 4], view="t")], uninitialized=un)
    case(fn + "_expanded", op, [seq([3, 2], view="expand0")], uninitialized=un)
    case(fn + "_dtype_int64", op, [seq([2, 3], view="t"), DT("int64")], uninitialized=un)
    case(fn + "_dtype_bool", op, [seq([2, 2]), DT("bool")], uninitialized=un)
case("full_like_int_fill", "aten::full_like", [seq([2, 3]), SI(4)])
case("full_like_float_fill_int_tensor", "aten::full_like", [seq([3], dtype="int64"), SF(2.9)])
case("full_like_t_preserve", "aten::full_like", [seq([2, 3], view="t"), SF(-0.5)])
case("full_like_t_contiguous", "aten::full_like", [seq([2, 3], view="t"), SF(-0.5), NONE, NONE, NONE, NONE, MF("contiguous")])
case("full_like_dtype_f64", "aten::full_like", [seq([2]), SF(0.1), DT("float64")])
case("full_like_bool_fill", "aten::full_like", [seq([2, 2]), B(True), DT("bool")])
case("full_like_expanded", "aten::full_like", [seq([2, 3], view="expand0"), SI(1)])

# ======================================================================================
# fill_, zero_, copy_, clone, contiguous, and the identity-like ops
# ======================================================================================
case("fill_float_with_int", "aten::fill_.Scalar", [seq([2, 3]), SI(3)])
case("fill_int_with_float", "aten::fill_.Scalar", [seq([3], dtype="int64"), SF(2.7)])
case("fill_int_with_neg_float", "aten::fill_.Scalar", [seq([3], dtype="int64"), SF(-2.7)])
case("fill_bool_with_int", "aten::fill_.Scalar", [seq([3], dtype="bool"), SI(2)])
case("fill_transposed", "aten::fill_.Scalar", [seq([2, 3], view="t"), SF(1.25)])
case("fill_0dim", "aten::fill_.Scalar", [T([1.0], []), SF(-3.5)])
case("fill_big_int", "aten::fill_.Scalar", [seq([2], dtype="int64"), SI(-(2 ** 62) - 3)])
case("fill_f16_inexact", "aten::fill_.Scalar", [seq([2], dtype="float16"), SF(0.1)])
case("fill_bf16_overflow_error", "aten::fill_.Scalar", [seq([2], dtype="bfloat16"), SF(1e300)])
case("fill_expanded_error", "aten::fill_.Scalar", [seq([3, 2], view="expand0"), SI(1)])
case("fill_int64_nan_error", "aten::fill_.Scalar", [seq([2], dtype="int64"), SF(NAN)])
case("fill_int64_inf_error", "aten::fill_.Scalar", [seq([2], dtype="int64"), SF(INF)])
case("fill_int64_big_float_error", "aten::fill_.Scalar", [seq([2], dtype="int64"), SF(1e19)])
case("fill_f64_huge", "aten::fill_.Scalar", [seq([2], dtype="float64"), SF(1e300)])
case("fill_bool_nan", "aten::fill_.Scalar", [seq([2], dtype="bool"), SF(NAN)])
case("zero_float", "aten::zero_", [mix([2, 3])])
case("zero_transposed", "aten::zero_", [mix([2, 3], view="t")])
case("zero_int64", "aten::zero_", [seq([4], dtype="int64")])
case("zero_bool", "aten::zero_", [T([True, False, True], [3], "bool")])

case("copy_same_shape", "aten::copy_", [seq([2, 3]), mix([2, 3])])
case("copy_broadcast_row", "aten::copy_", [seq([2, 3]), mix([3])])
case("copy_broadcast_0dim", "aten::copy_", [seq([2, 2]), T([4.5], [])])
case("copy_float_to_int64", "aten::copy_", [seq([4], dtype="int64"), T([2.7, -2.7, 0.5, -0.0], [4])])
case("copy_int64_to_float32", "aten::copy_", [seq([3]), T([3, -7, 2 ** 40 + 1], [3], "int64")])
case("copy_float_to_bool", "aten::copy_", [seq([4], dtype="bool"), T([0.5, 0.0, -2.0, NAN], [4])])
case("copy_bool_to_float", "aten::copy_", [seq([3]), T([True, False, True], [3], "bool")])
case("copy_f64_to_f16", "aten::copy_", [seq([3], dtype="float16"), T([0.1, 65504.0, 1e-8], [3], "float64")])
case("copy_f32_to_bf16", "aten::copy_", [seq([3], dtype="bfloat16"), frac([3])])
case("copy_into_transposed", "aten::copy_", [seq([2, 3], view="t"), mix([2, 3])])
case("copy_from_transposed", "aten::copy_", [seq([2, 3]), mix([2, 3], view="t")])
case("copy_shape_mismatch_error", "aten::copy_", [seq([2, 3]), seq([4])])
case("copy_cannot_broadcast_dst_error", "aten::copy_", [seq([3]), seq([2, 3])])
case("copy_into_expanded_error", "aten::copy_", [seq([3, 2], view="expand0"), seq([3, 2])])

case("clone_plain", "aten::clone", [mix([2, 3])])
case("clone_t_preserve_default", "aten::clone", [mix([2, 3], view="t")])
case("clone_t_preserve", "aten::clone", [mix([2, 3], view="t"), MF("preserve")])
case("clone_t_contiguous", "aten::clone", [mix([2, 3], view="t"), MF("contiguous")])
case("clone_3d_reversed", "aten::clone", [seq([2, 3, 2], view="t")])
case("clone_expanded", "aten::clone", [seq([3, 2], view="expand0")])
case("clone_int64", "aten::clone", [T([2 ** 60 + 1, -5], [2], "int64")])
case("clone_bool_0dim", "aten::clone", [T([True], [], "bool")])
case("contiguous_already", "aten::contiguous", [mix([2, 3])])
case("contiguous_transposed", "aten::contiguous", [mix([2, 3], view="t")])
case("contiguous_expanded", "aten::contiguous", [seq([2, 2], view="expand0")])
case("contiguous_explicit_format", "aten::contiguous", [mix([2, 3], view="t"), MF("contiguous")])
case("contiguous_preserve_error", "aten::contiguous", [mix([2, 3], view="t"), MF("preserve")])
case("resolve_conj", "aten::resolve_conj", [mix([2, 2])])
case("resolve_neg_transposed", "aten::resolve_neg", [mix([2, 3], view="t")])
case("detach_transposed", "aten::detach", [mix([2, 3], view="t")])
case("alias_plain", "aten::alias", [seq([3], dtype="int64")])
case("lift_fresh", "aten::lift_fresh", [seq([2])])

# ======================================================================================
# views
# ======================================================================================
case("as_strided_basic", "aten::as_strided", [seq([6]), L(2, 2), L(1, 2)])
case("as_strided_offset", "aten::as_strided", [seq([6]), L(2, 2), L(2, 1), I(1)])
case("as_strided_overlapping", "aten::as_strided", [seq([4]), L(3, 2), L(1, 1)])
case("as_strided_zero_stride", "aten::as_strided", [seq([4]), L(2, 3), L(0, 1), I(1)])
case("as_strided_out_of_bounds", "aten::as_strided", [seq([4]), L(2, 3), L(3, 1)])
case("as_strided_offset_out_of_bounds", "aten::as_strided", [seq([4]), L(2, 2), L(2, 1), I(1)])
case("as_strided_negative_stride", "aten::as_strided", [seq([4]), L(2), L(-1)])
case("as_strided_negative_offset", "aten::as_strided", [seq([4]), L(2), L(1), I(-1)])
case("as_strided_length_mismatch", "aten::as_strided", [seq([4]), L(2, 2), L(1)])
case("as_strided_of_transposed", "aten::as_strided", [seq([2, 3], view="t"), L(3), L(2)])

case("view_2x3_to_3x2", "aten::view", [seq([2, 3]), L(3, 2)])
case("view_infer_flat", "aten::view", [seq([2, 3]), L(-1)])
case("view_infer_middle", "aten::view", [seq([2, 3, 2]), L(2, -1, 1)])
case("view_to_0dim", "aten::view", [seq([1, 1]), L()])
case("view_two_infer_error", "aten::view", [seq([2, 3]), L(-1, -1)])
case("view_wrong_numel_error", "aten::view", [seq([2, 3]), L(4, 2)])
case("view_infer_indivisible_error", "aten::view", [seq([2, 3]), L(-1, 4)])
case("view_negative_dim_error", "aten::view", [seq([2, 3]), L(-2, 3)])
case("view_empty_infer_error", "aten::view", [T([], [0, 3]), L(0, -1)])
case("view_empty", "aten::view", [T([], [0, 3]), L(3, 0, 2)])
case("view_transposed_incompatible", "aten::view", [seq([2, 3], view="t"), L(6)])
case("view_transposed_compatible", "aten::view", [seq([2, 3], view="t"), L(2, 1, 3)])
case("view_expanded_split", "aten::view", [seq([2, 4], view="expand0"), L(2, 2, 2)])
case("unsafe_view_flat", "aten::_unsafe_view", [seq([2, 3]), L(6)])
case("unsafe_view_infer", "aten::_unsafe_view", [seq([2, 3]), L(3, -1)])
case("unsafe_view_wrong_numel_error", "aten::_unsafe_view", [seq([2, 3]), L(5)])

case("t_2d", "aten::t", [seq([2, 3])])
case("t_1d", "aten::t", [seq([3])])
case("t_0d", "aten::t", [T([2.0], [])])
case("t_of_transposed", "aten::t", [seq([2, 3], view="t")])
case("t_3d_error", "aten::t", [seq([2, 2, 2])])
case("transpose_01", "aten::transpose.int", [seq([2, 3]), I(0), I(1)])
case("transpose_negative_dims", "aten::transpose.int", [seq([2, 3, 4]), I(-1), I(-3)])
case("transpose_same_dim", "aten::transpose.int", [seq([2, 3]), I(1), I(-1)])
case("transpose_0dim", "aten::transpose.int", [T([5.0], []), I(0), I(-1)])
case("transpose_out_of_range", "aten::transpose.int", [seq([2, 3]), I(0), I(2)])
case("transpose_out_of_range_negative", "aten::transpose.int", [seq([2, 3, 4]), I(-4), I(0)])
case("permute_201", "aten::permute", [seq([2, 3, 4]), L(2, 0, 1)])
case("permute_negative", "aten::permute", [seq([2, 3, 4]), L(-1, -3, -2)])
case("permute_identity_0dim", "aten::permute", [T([1.0], []), L()])
case("permute_wrong_length", "aten::permute", [seq([2, 3, 4]), L(1, 0)])
case("permute_duplicate", "aten::permute", [seq([2, 3, 4]), L(0, 1, 1)])
case("permute_duplicate_negative", "aten::permute", [seq([2, 3]), L(1, -1)])
case("permute_out_of_range", "aten::permute", [seq([2, 3]), L(0, 2)])
case("numpy_T_2d", "aten::numpy_T", [seq([2, 3])])
case("numpy_T_3d", "aten::numpy_T", [seq([2, 3, 4])])
case("numpy_T_1d", "aten::numpy_T", [seq([3])])
case("numpy_T_0d", "aten::numpy_T", [T([1.0], [])])
case("expand_singleton", "aten::expand", [seq([3, 1]), L(3, 4)])
case("expand_minus_one", "aten::expand", [seq([3, 1]), L(-1, 2)])
case("expand_new_leading", "aten::expand", [seq([3]), L(2, 2, 3)])
case("expand_0dim", "aten::expand", [T([7.0], []), L(2, 3)])
case("expand_same", "aten::expand", [seq([2, 3]), L(2, 3)])
case("expand_to_zero", "aten::expand", [seq([1, 3]), L(0, 3)])
case("expand_too_few_sizes", "aten::expand", [seq([2, 3]), L(3)])
case("expand_non_singleton_error", "aten::expand", [seq([2, 3]), L(4, 3)])
case("expand_minus_one_leading_error", "aten::expand", [seq([3]), L(-1, 3)])
case("expand_int64_error_message", "aten::expand", [seq([2, 3], dtype="int64"), L(2, 4)])
case("expand_bool_too_few", "aten::expand", [seq([2, 3], dtype="bool"), L(6)])
case("expand_bf16_too_few", "aten::expand", [seq([2, 3], dtype="bfloat16"), L(6)])
case("expand_f16_too_few", "aten::expand", [seq([2, 3], dtype="float16"), L(6)])
case("unsqueeze_front", "aten::unsqueeze", [seq([2, 3]), I(0)])
case("unsqueeze_back", "aten::unsqueeze", [seq([2, 3]), I(-1)])
case("unsqueeze_middle_transposed", "aten::unsqueeze", [seq([2, 3], view="t"), I(1)])
case("unsqueeze_0dim", "aten::unsqueeze", [T([3.0], []), I(0)])
case("unsqueeze_out_of_range", "aten::unsqueeze", [seq([2, 3]), I(3)])
case("squeeze_dim_one", "aten::squeeze.dim", [seq([2, 1, 3]), I(1)])
case("squeeze_dim_not_one", "aten::squeeze.dim", [seq([2, 1, 3]), I(0)])
case("squeeze_dim_negative", "aten::squeeze.dim", [seq([2, 3, 1]), I(-1)])
case("squeeze_dim_0dim", "aten::squeeze.dim", [T([3.0], []), I(0)])
case("squeeze_dim_out_of_range", "aten::squeeze.dim", [seq([2, 1]), I(2)])
case("select_row", "aten::select.int", [seq([2, 3]), I(0), I(1)])
case("select_negative_index", "aten::select.int", [seq([2, 3]), I(1), I(-1)])
case("select_negative_dim", "aten::select.int", [seq([2, 3, 2]), I(-2), I(2)])
case("select_transposed", "aten::select.int", [seq([2, 3], view="t"), I(0), I(1)])
case("select_index_out_of_range", "aten::select.int", [seq([2, 3]), I(1), I(5)])
case("select_negative_index_out_of_range", "aten::select.int", [seq([2, 3]), I(-1), I(-4)])
case("select_dim_out_of_range", "aten::select.int", [seq([2, 3]), I(2), I(0)])
case("select_0dim_error", "aten::select.int", [T([1.0], []), I(0), I(0)])
case("reshape_view", "aten::reshape", [seq([2, 3]), L(3, 2)])
case("reshape_infer", "aten::reshape", [seq([2, 3, 2]), L(-1, 2)])
case("reshape_copy_transposed", "aten::reshape", [seq([2, 3], view="t"), L(6)])
case("reshape_transposed_as_view", "aten::reshape", [seq([2, 3], view="t"), L(2, 3, 1)])
case("reshape_expanded_copy", "aten::reshape", [seq([2, 3], view="expand0"), L(6)])
case("reshape_wrong_numel_error", "aten::reshape", [seq([2, 3]), L(4)])
case("reshape_0dim_to_1", "aten::reshape", [T([2.0], []), L(1, 1)])
case("reshape_alias", "aten::_reshape_alias", [seq([2, 3]), L(3, 2), L(2, 1)])
case("reshape_alias_strided", "aten::_reshape_alias", [seq([2, 3]), L(3), L(2)])
case("flatten_3d", "aten::flatten.using_ints", [seq([2, 3, 2])])
case("flatten_from_1", "aten::flatten.using_ints", [seq([2, 3, 2]), I(1)])
case("flatten_middle", "aten::flatten.using_ints", [seq([2, 3, 2, 1]), I(1), I(-2)])
case("flatten_transposed_copy", "aten::flatten.using_ints", [seq([2, 3], view="t")])
case("flatten_0dim", "aten::flatten.using_ints", [T([2.0], [])])
case("flatten_1d_is_self", "aten::flatten.using_ints", [seq([3])])
case("flatten_start_after_end", "aten::flatten.using_ints", [seq([2, 3, 2]), I(2), I(1)])
case("flatten_out_of_range", "aten::flatten.using_ints", [seq([2, 3]), I(0), I(2)])

# ======================================================================================
# pointwise
# ======================================================================================
for op in ("add", "sub", "mul", "div"):
    ten = "aten::%s.Tensor" % op
    ip = "aten::%s_.Tensor" % op
    case(op + "_same_shape", ten, [frac([2, 3]), mix([2, 3], 1)])
    case(op + "_broadcast_row", ten, [frac([2, 3]), mix([3], 2)])
    case(op + "_broadcast_outer", ten, [mix([2, 1], 3), frac([1, 3])])
    case(op + "_transposed", ten, [frac([2, 3], view="t"), mix([2, 3], 1)])
    case(op + "_expanded", ten, [frac([3, 2], view="expand0"), mix([3, 2], 4)])
    case(op + "_f32_f64", ten, [frac([3]), frac([3], 1, "float64")])
    case(op + "_int_int", ten, [T([7, -7, 9, 0], [4], "int64"), T([2, 2, -4, 3], [4], "int64")])
    case(op + "_int_f32", ten, [T([7, -7, 3], [3], "int64"), frac([3])])
    case(op + "_f16_f16", ten, [frac([3], 0, "float16"), frac([3], 1, "float16")])
    case(op + "_bf16_f32_0dim", ten, [frac([3], 0, "bfloat16"), T([0.3], [])])
    case(op + "_int_0dim_f64", ten, [T([1, 2, 3], [3], "int64"), T([0.75], [], "float64")])
    case(op + "_0dim_0dim", ten, [T([1.5], [], "float64"), T([3.0], [])])
    case(op + "_f16_0dim_int", ten, [frac([2], 0, "float16"), T([3], [], "int64")])
    case(op + "_broadcast_error", ten, [seq([2, 3]), seq([2])])
    case(op + "_empty", ten, [T([], [0, 3]), seq([3])])
    case(op + "__inplace", ip, [frac([2, 3]), mix([3], 1)])
    case(op + "__inplace_f32_f64", ip, [frac([3]), frac([3], 1, "float64")])
    case(op + "__inplace_transposed", ip, [frac([2, 3], view="t"), mix([2, 3])])
    case(op + "__inplace_broadcast_error", ip, [seq([3]), seq([2, 3])])
    case(op + "__inplace_int_f32_error", ip, [seq([3], dtype="int64"), frac([3])])
    case(op + "__inplace_int_0dim_f64_error", ip, [seq([3], dtype="int64"), T([0.5], [], "float64")])
    case(op + "__inplace_f16_f32", ip, [frac([3], 0, "float16"), frac([3], 1)])
    case(op + "__inplace_expanded_error", ip, [seq([3, 2], view="expand0"), seq([3, 2])])

# bool
case("add_bool_bool", "aten::add.Tensor", [T([True, True, False, False], [4], "bool"), T([True, False, True, False], [4], "bool")])
case("mul_bool_bool", "aten::mul.Tensor", [T([True, True, False, False], [4], "bool"), T([True, False, True, False], [4], "bool")])
case("div_bool_bool", "aten::div.Tensor", [T([True, True, False, False], [4], "bool"), T([True, False, True, False], [4], "bool")])
case("add_bool_int", "aten::add.Tensor", [T([True, False], [2], "bool"), T([5, 6], [2], "int64")])
case("mul_bool_f32", "aten::mul.Tensor", [T([True, False], [2], "bool"), frac([2])])
case("sub_bool_bool_error", "aten::sub.Tensor", [T([True, False], [2], "bool"), T([True, True], [2], "bool")])
case("sub_bool_float_error", "aten::sub.Tensor", [T([True, False], [2], "bool"), frac([2])])
case("sub_float_bool_error", "aten::sub.Tensor", [frac([2]), T([True, False], [2], "bool")])
case("sub__bool_error", "aten::sub_.Tensor", [T([True, False], [2], "bool"), T([True, True], [2], "bool")])
case("add__bool_into_bool", "aten::add_.Tensor", [T([True, False, False], [3], "bool"), T([False, False, True], [3], "bool")])
case("mul__int_into_bool_error", "aten::mul_.Tensor", [T([True, False], [2], "bool"), T([2, 3], [2], "int64")])

# alpha
case("add_alpha_int", "aten::add.Tensor", [frac([3]), mix([3], 1), SI(2)])
case("add_alpha_float", "aten::add.Tensor", [frac([3]), frac([3], 1), SF(0.3)])
case("add_alpha_float_f64", "aten::add.Tensor", [frac([3], 0, "float64"), frac([3], 1, "float64"), SF(0.3)])
# Not recorded: float16/bfloat16 add with an alpha other than 1. PyTorch computes it as
# self + alpha * other rounded twice (once after the product) in its scalar loop, but as one
# fused multiply-add in its vectorized loop, so the result depends on the element's position
# and on the CPU's vector width; ctorch always fuses.
case("add_alpha_overflow_f16_error", "aten::add.Tensor", [frac([3], 0, "float16"), frac([3], 1, "float16"), SF(1e5)])
case("add_alpha_int_overflow_f16_error", "aten::add.Tensor", [frac([3], 0, "float16"), frac([3], 1, "float16"), SI(70000)])
case("add_alpha_overflow_f32_error", "aten::add.Tensor", [frac([3]), frac([3], 1), SF(1e39)])
case("add_alpha_zero", "aten::add.Tensor", [frac([2]), T([INF, NAN], [2]), SI(0)])
case("add_alpha_int_on_int", "aten::add.Tensor", [seq([3], dtype="int64"), seq([3], 10, dtype="int64"), SI(-3)])
case("add_alpha_float_on_int_error", "aten::add.Tensor", [seq([3], dtype="int64"), seq([3], dtype="int64"), SF(0.5)])
case("add_alpha_float_on_bool_error", "aten::add.Tensor", [seq([2], dtype="bool"), seq([2], dtype="bool"), SF(1.0)])
case("add_alpha_bool", "aten::add.Tensor", [seq([2], dtype="bool"), seq([2], dtype="bool"), B(True)])
case("add_alpha_bool_on_float_error", "aten::add.Tensor", [frac([2]), frac([2]), B(True)])
case("add_int_overflow_wraps", "aten::add.Tensor", [T([2 ** 62, -(2 ** 63)], [2], "int64"), T([2 ** 62, -1], [2], "int64")])
case("add__alpha_float", "aten::add_.Tensor", [frac([3]), frac([3], 1), SF(-0.01)])
case("add__alpha_float_int_error", "aten::add_.Tensor", [seq([3], dtype="int64"), seq([3], dtype="int64"), SF(2.0)])
case("sub_alpha_int", "aten::sub.Tensor", [frac([3]), mix([3], 1), SI(2)])
case("sub_alpha_float", "aten::sub.Tensor", [frac([3]), frac([3], 1), SF(0.3)])
case("sub_alpha_int_on_int", "aten::sub.Tensor", [seq([3], dtype="int64"), seq([3], 10, dtype="int64"), SI(4)])
case("sub_alpha_float_on_int_error", "aten::sub.Tensor", [seq([3], dtype="int64"), seq([3], dtype="int64"), SF(0.5)])
case("sub__alpha_float", "aten::sub_.Tensor", [frac([3], 0, "float64"), frac([3], 1, "float64"), SF(0.5)])
case("mul_int_overflow_wraps", "aten::mul.Tensor", [T([2 ** 62, 3 * 2 ** 61], [2], "int64"), T([4, 4], [2], "int64")])

# conversion to the common dtype first
case("mul_bf16_int_tensor", "aten::mul.Tensor", [T([1.0, 1.0, 3.0], [3], "bfloat16"), T([257, 513, 1025], [3], "int64")])
case("mul_bf16_int_0dim", "aten::mul.Tensor", [T([1.0, 3.0], [2], "bfloat16"), T([257], [], "int64")])
case("mul_f32_0dim_bf16", "aten::mul.Tensor", [T([0.3], []), frac([3], 0, "bfloat16")])
case("div_bf16_f32_0dim_divisor", "aten::div.Tensor", [frac([3], 0, "bfloat16"), T([0.3], [])])
case("div_f16_f64_one_element", "aten::div.Tensor", [frac([2, 3], 0, "float16"), T([0.3], [1], "float64")])
case("add_f16_int_tensor", "aten::add.Tensor", [T([0.0, 0.5], [2], "float16"), T([2049, 4097], [2], "int64")])
case("add_int_big_f32", "aten::add.Tensor", [T([2 ** 60 + 1, 2 ** 53 + 1, -(2 ** 62) - 1], [3], "int64"), T([0.0, 0.0, 0.0], [3])])

# output layout (TensorIterator's fast set-up and dimension reordering)
case("add_layout_transposed_plus_row", "aten::add.Tensor", [frac([2, 3], view="t"), mix([3], 1)])
case("add_layout_row_plus_transposed", "aten::add.Tensor", [mix([3], 1), frac([2, 3], view="t")])
case("add_layout_both_transposed", "aten::add.Tensor", [frac([2, 3], view="t"), mix([2, 3], 1, view="t")])
case("add_layout_contig_then_transposed", "aten::add.Tensor", [frac([2, 3]), mix([2, 3], 1, view="t")])
case("add_layout_3d_reversed_plus_contig", "aten::add.Tensor", [frac([2, 3, 2], view="t"), mix([2, 3, 2], 1)])
case("add_layout_3d_reversed_plus_broadcast", "aten::add.Tensor", [frac([2, 3, 2], view="t"), mix([3, 1], 1)])
case("add_layout_expanded_and_transposed", "aten::add.Tensor", [frac([2, 3], view="expand0"), mix([2, 3], 1, view="t")])
case("add_layout_transposed_0dim", "aten::add.Tensor", [frac([2, 3], view="t"), T([1.5], [])])
case("add_layout_transposed_size_one", "aten::add.Tensor", [frac([1, 3], view="t"), mix([1, 3], 1)])
case("add_layout_transposed_empty", "aten::add.Tensor", [T([], [0, 3], view="t"), mix([3], 1)])
case("add_scalar_transposed", "aten::add.Scalar", [frac([2, 3], view="t"), SI(1)])
case("neg_expanded", "aten::neg", [frac([3, 2], view="expand0")])
case("relu_3d_reversed", "aten::relu", [mix([2, 3, 2], view="t")])
case("clamp_min_transposed_int", "aten::clamp_min", [seq([2, 3], dtype="int64", view="t"), SF(2.5)])
case("threshold_backward_self_transposed", "aten::threshold_backward", [frac([2, 3]), mix([2, 3], view="t"), SI(0)])
case("threshold_backward_grad_transposed", "aten::threshold_backward", [frac([2, 3], view="t"), mix([2, 3]), SI(0)])
case("threshold_backward_grad_transposed_self_row", "aten::threshold_backward", [frac([2, 3], view="t"), mix([3]), SI(0)])

# special values
case("div_by_zero", "aten::div.Tensor", [T([1.0, -1.0, 0.0, NAN], [4]), T([0.0, 0.0, 0.0, 1.0], [4])])
case("div_by_negative_zero", "aten::div.Tensor", [T([1.0, 0.0], [2]), T([-0.0, -0.0], [2])])
case("div_int_by_zero", "aten::div.Tensor", [T([1, -1, 0], [3], "int64"), T([0, 0, 0], [3], "int64")])
case("div_int_exact", "aten::div.Tensor", [T([7, -7, 6], [3], "int64"), T([2, 2, 3], [3], "int64")])
case("div_int_big", "aten::div.Tensor", [T([2 ** 60 + 1, 3], [2], "int64"), T([3, 2 ** 55], [2], "int64")])
case("div_f64", "aten::div.Tensor", [frac([3], 0, "float64"), frac([3], 1, "float64")])
case("mul_inf_zero", "aten::mul.Tensor", [T([INF, -INF, NAN], [3]), T([0.0, 2.0, 1.0], [3])])
case("add_inf_minus_inf", "aten::add.Tensor", [T([INF, 1.0], [2]), T([-INF, NAN], [2])])
case("sub_signed_zero", "aten::sub.Tensor", [T([0.0, -0.0, 0.0], [3]), T([0.0, 0.0, -0.0], [3])])
case("add_signed_zero", "aten::add.Tensor", [T([-0.0, -0.0], [2]), T([0.0, -0.0], [2])])
case("div__int_error", "aten::div_.Tensor", [seq([3], dtype="int64"), seq([3], dtype="int64")])
case("div__float_by_int", "aten::div_.Tensor", [frac([3]), T([3, 0, -2], [3], "int64")])

# Scalar overloads
case("add_scalar_int_on_int", "aten::add.Scalar", [seq([3], dtype="int64"), SI(2)])
case("add_scalar_float_on_int", "aten::add.Scalar", [seq([3], dtype="int64"), SF(2.5)])
case("add_scalar_int_on_float", "aten::add.Scalar", [frac([3]), SI(2)])
case("add_scalar_float_on_float", "aten::add.Scalar", [frac([3]), SF(0.1)])
case("add_scalar_float_on_f64", "aten::add.Scalar", [frac([3], 0, "float64"), SF(0.1)])
case("add_scalar_float_on_f16", "aten::add.Scalar", [frac([3], 0, "float16"), SF(1e-3)])
case("add_scalar_alpha", "aten::add.Scalar", [frac([3]), SI(3), SF(0.5)])
case("add_scalar_alpha_int", "aten::add.Scalar", [seq([3], dtype="int64"), SI(3), SI(-2)])
case("add_scalar_alpha_float_int_error", "aten::add.Scalar", [seq([3], dtype="int64"), SI(3), SF(0.5)])
case("add_scalar_int_on_bool", "aten::add.Scalar", [T([True, False], [2], "bool"), SI(1)])
case("add_scalar_bool_on_bool", "aten::add.Scalar", [T([True, False], [2], "bool"), B(True)])
case("add_scalar_big_int", "aten::add.Scalar", [T([1, -1], [2], "int64"), SI(2 ** 62 + 7)])
case("mul_scalar_int_on_int", "aten::mul.Scalar", [seq([3], dtype="int64"), SI(-3)])
case("mul_scalar_float_on_int", "aten::mul.Scalar", [seq([3], dtype="int64"), SF(2.5)])
case("mul_scalar_int_on_float", "aten::mul.Scalar", [frac([3]), SI(3)])
case("mul_scalar_float_on_float", "aten::mul.Scalar", [frac([3]), SF(0.1)])
case("mul_scalar_float_on_bf16", "aten::mul.Scalar", [frac([3], 0, "bfloat16"), SF(0.1)])
case("mul_scalar_bool_on_int", "aten::mul.Scalar", [seq([3], dtype="int64"), B(False)])
case("mul_scalar_transposed", "aten::mul.Scalar", [frac([2, 3], view="t"), SF(-2.0)])
case("mul__scalar_float", "aten::mul_.Scalar", [frac([3]), SF(0.1)])
case("mul__scalar_int_on_int", "aten::mul_.Scalar", [seq([3], dtype="int64"), SI(5)])
case("mul__scalar_float_on_int_error", "aten::mul_.Scalar", [seq([3], dtype="int64"), SF(2.5)])
case("mul__scalar_transposed", "aten::mul_.Scalar", [frac([2, 3], view="t"), SI(2)])
case("div_scalar_int_on_int", "aten::div.Scalar", [seq([3], dtype="int64"), SI(2)])
case("div_scalar_float_on_int", "aten::div.Scalar", [seq([3], dtype="int64"), SF(0.5)])
case("div_scalar_int_on_float", "aten::div.Scalar", [frac([3]), SI(3)])
case("div_scalar_float_on_float", "aten::div.Scalar", [frac([3]), SF(0.1)])
case("div_scalar_by_zero", "aten::div.Scalar", [T([1.0, -1.0, 0.0], [3]), SI(0)])
case("div_scalar_f64", "aten::div.Scalar", [frac([3], 0, "float64"), SF(3.0)])
case("div_scalar_bool", "aten::div.Scalar", [T([True, False], [2], "bool"), SI(2)])

# unary
case("neg_float", "aten::neg", [T([1.5, -0.0, 0.0, NAN, INF], [5])])
case("neg_int", "aten::neg", [T([3, -(2 ** 63), 0], [3], "int64")])
case("neg_f16_transposed", "aten::neg", [frac([2, 3], 0, "float16", view="t")])
case("neg_bool_error", "aten::neg", [T([True], [1], "bool")])
case("relu_float", "aten::relu", [T([-1.5, 0.0, -0.0, 2.0, NAN, -INF], [6])])
case("relu_int", "aten::relu", [T([-3, 0, 5], [3], "int64")])
case("relu_bf16", "aten::relu", [frac([3], -1, "bfloat16")])
case("relu_transposed", "aten::relu", [mix([2, 3], view="t")])
case("relu_bool_error", "aten::relu", [T([True, False], [2], "bool")])
case("clamp_min_float", "aten::clamp_min", [T([-1.5, 0.25, 2.0, NAN], [4]), SF(0.5)])
case("clamp_min_int", "aten::clamp_min", [T([-3, 1, 5], [3], "int64"), SI(2)])
case("clamp_min_int_float_min", "aten::clamp_min", [T([-3, 1, 5], [3], "int64"), SF(2.5)])
case("clamp_min_float_int_min", "aten::clamp_min", [T([-3.5, 1.5, 5.0], [3]), SI(2)])
case("clamp_min_nan_min", "aten::clamp_min", [T([-1.0, 1.0], [2]), SF(NAN)])
case("clamp_min_f16", "aten::clamp_min", [frac([3], 0, "float16"), SF(0.1)])
case("clamp_min_bool_error", "aten::clamp_min", [T([True, False], [2], "bool"), B(False)])
case("clamp_min_bool_int_min", "aten::clamp_min", [T([True, False], [2], "bool"), SI(0)])
case("clamp_min_nan_min_int", "aten::clamp_min", [T([-1, 1], [2], "int64"), SF(NAN)])
case("clamp_min_overflow_f16_error", "aten::clamp_min", [frac([2], 0, "float16"), SF(1e5)])
case("clamp_min_f32_0dim", "aten::clamp_min", [T([-2.0], []), SF(-1.0)])
case("threshold_backward_float", "aten::threshold_backward", [frac([4]), T([-1.0, 0.0, 0.5, 2.0], [4]), SI(0)])
case("threshold_backward_threshold", "aten::threshold_backward", [frac([4]), T([-1.0, 0.0, 0.5, 2.0], [4]), SF(0.5)])
case("threshold_backward_nan", "aten::threshold_backward", [frac([3]), T([NAN, 1.0, -1.0], [3]), SI(0)])
case("threshold_backward_broadcast", "aten::threshold_backward", [frac([2, 3]), T([1.0, -1.0, 1.0], [3]), SI(0)])
case("threshold_backward_int", "aten::threshold_backward", [seq([3], dtype="int64"), T([-1, 0, 1], [3], "int64"), SI(0)])
case("threshold_backward_mixed_dtypes", "aten::threshold_backward", [frac([3]), T([-1.0, 0.0, 1.0], [3], "float64"), SI(0)])
case("threshold_backward_shape_error", "aten::threshold_backward", [frac([3]), frac([2]), SI(0)])

# ======================================================================================
# reductions
# ======================================================================================
case("sum_f32", "aten::sum", [frac([2, 3])], CLOSE)
case("sum_f64", "aten::sum", [frac([2, 3], 0, "float64")], CLOSE)
case("sum_int64", "aten::sum", [T([2 ** 62, 2 ** 62, 5], [3], "int64")])
case("sum_bool", "aten::sum", [T([True, False, True, True], [4], "bool")])
case("sum_dtype_f64", "aten::sum", [frac([4]), DT("float64")], CLOSE)
case("sum_int_dtype_f32", "aten::sum", [seq([4], dtype="int64"), DT("float32")], CLOSE)
case("sum_f16", "aten::sum", [frac([5], 0, "float16")], CLOSE)
case("sum_empty", "aten::sum", [T([], [0, 3])])
case("sum_0dim", "aten::sum", [T([2.5], [])])
case("sum_transposed", "aten::sum", [frac([2, 3], view="t")], CLOSE)
case("sum_nan", "aten::sum", [T([1.0, NAN, 2.0], [3])])
case("sum_dim_1", "aten::sum.dim_IntList", [frac([2, 3]), L(1)], CLOSE)
case("sum_dim_0_keepdim", "aten::sum.dim_IntList", [frac([2, 3]), L(0), B(True)], CLOSE)
case("sum_dim_negative", "aten::sum.dim_IntList", [frac([2, 3, 2]), L(-1)], CLOSE)
case("sum_dim_multiple", "aten::sum.dim_IntList", [frac([2, 3, 2]), L(0, 2)], CLOSE)
case("sum_dim_multiple_keepdim", "aten::sum.dim_IntList", [frac([2, 3, 2]), L(2, -3), B(True)], CLOSE)
case("sum_dim_empty_list", "aten::sum.dim_IntList", [frac([2, 3]), L()], CLOSE)
case("sum_dim_none", "aten::sum.dim_IntList", [frac([2, 3]), NONE, B(True)], CLOSE)
case("sum_dim_duplicate_error", "aten::sum.dim_IntList", [frac([2, 3]), L(0, 0)])
case("sum_dim_duplicate_negative_error", "aten::sum.dim_IntList", [frac([2, 3]), L(1, -1)])
case("sum_dim_out_of_range", "aten::sum.dim_IntList", [frac([2, 3]), L(2)])
case("sum_dim_int64", "aten::sum.dim_IntList", [seq([2, 3], dtype="int64"), L(0)])
case("sum_dim_bool", "aten::sum.dim_IntList", [T([True, False, True, True, True, False], [2, 3], "bool"), L(1)])
case("sum_dim_dtype", "aten::sum.dim_IntList", [seq([2, 3], dtype="int64"), L(1), B(False), DT("float64")])
case("sum_dim_bool_dtype_bool", "aten::sum.dim_IntList", [T([True, False, True, False], [2, 2], "bool"), L(1), B(False), DT("bool")])
case("sum_dim_transposed", "aten::sum.dim_IntList", [frac([2, 3], view="t"), L(0)], CLOSE)
case("sum_dim_expanded", "aten::sum.dim_IntList", [frac([4, 3], view="expand0"), L(0)], CLOSE)
case("sum_dim_0dim", "aten::sum.dim_IntList", [T([2.5], []), L(0)])
case("sum_dim_0dim_keepdim", "aten::sum.dim_IntList", [T([2.5], []), L(-1), B(True)])
case("sum_dim_zero_size", "aten::sum.dim_IntList", [T([], [2, 0]), L(1)])

# ======================================================================================
# linear algebra
# ======================================================================================
case("mm_2x3_3x4", "aten::mm", [frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("mm_f64", "aten::mm", [frac([3, 2], 0, "float64"), frac([2, 3], 1, "float64")], CLOSE)
case("mm_t_self", "aten::mm", [frac([2, 3], view="t"), mix([3, 4], 1)], CLOSE)
case("mm_t_mat2", "aten::mm", [frac([2, 3]), mix([3, 4], 1, view="t")], CLOSE)
case("mm_t_both", "aten::mm", [frac([4, 3], view="t"), mix([3, 2], 1, view="t")], CLOSE)
case("mm_expanded", "aten::mm", [frac([2, 3], view="expand0"), mix([3, 2], 1)], CLOSE)
case("mm_row_col", "aten::mm", [frac([1, 3]), frac([3, 1], 1)], CLOSE)
case("mm_col_row", "aten::mm", [frac([3, 1]), frac([1, 3], 1)], CLOSE)
# a one-column result has strides (1, 1): the BLAS is handed leading dimensions fixed up as PyTorch's cpublas does
case("mm_one_column", "aten::mm", [frac([4, 3]), frac([3, 1], 1)], CLOSE)
case("mm_one_column_f64", "aten::mm", [frac([4, 3], 0, "float64"), frac([3, 1], 1, "float64")], CLOSE)
case("mm_one_column_t_self", "aten::mm", [frac([4, 3], view="t"), frac([3, 1], 1)], CLOSE)
case("addmm_one_column", "aten::addmm", [frac([4, 1], 2), frac([4, 3]), frac([3, 1], 1)], CLOSE)
case("mm_k0", "aten::mm", [T([], [2, 0]), T([], [0, 3])])
case("mm_m0", "aten::mm", [T([], [0, 3]), frac([3, 2])])
case("mm_f16", "aten::mm", [frac([2, 3], 0, "float16"), frac([3, 2], 1, "float16")], CLOSE)
case("mm_bf16", "aten::mm", [frac([2, 3], 0, "bfloat16"), frac([3, 2], 1, "bfloat16")], CLOSE)
case("mm_int64", "aten::mm", [seq([2, 3], dtype="int64"), seq([3, 2], -2, dtype="int64")])
case("mm_nan_inf", "aten::mm", [T([NAN, 1.0, INF, 0.0], [2, 2]), T([1.0, 0.0, 0.0, 1.0], [2, 2])])
case("mm_shape_error", "aten::mm", [frac([2, 3]), frac([4, 5])])
case("mm_dtype_error", "aten::mm", [frac([2, 3]), frac([3, 2], 0, "float64")])
case("mm_dtype_error_int", "aten::mm", [seq([2, 3], dtype="int64"), frac([3, 2])])
case("mm_1d_self_error", "aten::mm", [frac([3]), frac([3, 2])])
case("mm_1d_mat2_error", "aten::mm", [frac([2, 3]), frac([3])])
case("mm_3d_error", "aten::mm", [frac([2, 2, 3]), frac([3, 2])])
case("mm_bool_error", "aten::mm", [T([True, False], [1, 2], "bool"), T([True, False], [2, 1], "bool")])
case("mm_bool_k0", "aten::mm", [T([], [2, 0], "bool"), T([], [0, 3], "bool")])
case("mm_shape_error_before_dtype", "aten::mm", [frac([2, 3]), frac([4, 3], 0, "float64")])
case("mm_dtype_error_half", "aten::mm", [frac([2, 3], 0, "float16"), frac([3, 2], 0, "bfloat16")])
case("mm_dtype_error_bool_self", "aten::mm", [T([True] * 6, [2, 3], "bool"), frac([3, 2])])

case("addmm_basic", "aten::addmm", [mix([2, 4], 2), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_beta_alpha", "aten::addmm", [mix([2, 4], 2), frac([2, 3]), mix([3, 4], 1), SF(0.5), SI(2)], CLOSE)
case("addmm_beta_zero_ignores_nan", "aten::addmm", [T([NAN, INF, 1.0, 2.0], [2, 2]), frac([2, 3]), mix([3, 2], 1), SI(0)], CLOSE)
case("addmm_alpha_zero", "aten::addmm", [mix([2, 2], 2), frac([2, 3]), mix([3, 2], 1), SI(1), SI(0)], CLOSE)
case("addmm_alpha_zero_nan_mat", "aten::addmm", [mix([2, 2], 2), T([NAN, 1, 1, 1, 1, 1], [2, 3]), mix([3, 2], 1), SI(1), SI(0)], CLOSE)
case("addmm_self_row_vector", "aten::addmm", [mix([4], 2), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_self_1xn", "aten::addmm", [mix([1, 4], 2), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_self_mx1", "aten::addmm", [mix([2, 1], 2), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_self_0dim", "aten::addmm", [T([0.5], []), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_self_transposed", "aten::addmm", [mix([2, 4], 2, view="t"), frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("addmm_transposed_mats", "aten::addmm", [mix([2, 4], 2), frac([2, 3], view="t"), mix([3, 4], 1, view="t")], CLOSE)
case("addmm_f64", "aten::addmm", [mix([2, 2], 2, "float64"), frac([2, 3], 0, "float64"), frac([3, 2], 1, "float64"), SF(0.25), SF(-1.5)], CLOSE)
case("addmm_k0", "aten::addmm", [mix([2, 3], 2), T([], [2, 0]), T([], [0, 3])])
case("addmm_k0_beta", "aten::addmm", [mix([2, 3], 2), T([], [2, 0]), T([], [0, 3]), SF(2.0)])
case("addmm_k0_beta_zero", "aten::addmm", [T([NAN] * 6, [2, 3]), T([], [2, 0]), T([], [0, 3]), SI(0)])
case("addmm_int64", "aten::addmm", [seq([2, 2], dtype="int64"), seq([2, 3], dtype="int64"), seq([3, 2], -2, dtype="int64"), SI(2), SI(3)])
case("addmm_shape_error", "aten::addmm", [mix([2, 5]), frac([2, 3]), frac([4, 5])])
case("addmm_self_shape_error", "aten::addmm", [mix([3]), frac([2, 3]), frac([3, 4])])
case("addmm_self_2d_shape_error", "aten::addmm", [mix([3, 4]), frac([2, 3]), frac([3, 4])])
case("addmm_dtype_error_mats", "aten::addmm", [mix([2, 2]), frac([2, 3]), frac([3, 2], 0, "float64")])
case("addmm_dtype_error_self", "aten::addmm", [mix([2, 2], 0, "float64"), frac([2, 3]), frac([3, 2])])
case("addmm_1d_mat1_error", "aten::addmm", [mix([2]), frac([3]), frac([3, 2])])
case("addmm_1d_mat2_error", "aten::addmm", [mix([2]), frac([2, 3]), frac([3])])
case("addmm_bool_error", "aten::addmm", [T([True], [1, 1], "bool"), T([True], [1, 1], "bool"), T([True], [1, 1], "bool")])
case("addmm_bool_k0_beta_zero", "aten::addmm", [T([True] * 6, [2, 3], "bool"), T([], [2, 0], "bool"), T([], [0, 3], "bool"), SI(0)])
case("addmm_bool_k0_mul_error", "aten::addmm", [T([True] * 6, [2, 3], "bool"), T([], [2, 0], "bool"), T([], [0, 3], "bool")])
case("addmm_dtype_before_dims_error", "aten::addmm", [mix([2], 0, "float64"), frac([3]), frac([3, 2])])
case("addmm_dims_before_shape_error", "aten::addmm", [mix([2]), frac([2, 3, 1]), frac([4, 2])])

case("linear_2d_bias", "aten::linear", [frac([2, 3]), mix([4, 3], 1), mix([4], 2)], CLOSE)
case("linear_2d_no_bias", "aten::linear", [frac([2, 3]), mix([4, 3], 1)], CLOSE)
case("linear_2d_none_bias", "aten::linear", [frac([2, 3]), mix([4, 3], 1), NONE], CLOSE)
case("linear_1d_input", "aten::linear", [frac([3]), mix([4, 3], 1), mix([4], 2)], CLOSE)
case("linear_1d_input_no_bias", "aten::linear", [frac([3]), mix([4, 3], 1)], CLOSE)
case("linear_3d_input", "aten::linear", [frac([2, 2, 3]), mix([4, 3], 1), mix([4], 2)], CLOSE)
case("linear_3d_input_no_bias", "aten::linear", [frac([2, 2, 3]), mix([4, 3], 1)], CLOSE)
case("linear_3d_transposed_input", "aten::linear", [frac([3, 2, 2], view="t"), mix([4, 2], 1), mix([4], 2)], CLOSE)
case("linear_2d_bias_2d", "aten::linear", [frac([2, 3]), mix([4, 3], 1), mix([2, 4], 2)], CLOSE)
case("linear_f64", "aten::linear", [frac([2, 3], 0, "float64"), frac([2, 3], 1, "float64"), frac([2], 2, "float64")], CLOSE)
case("linear_1d_weight", "aten::linear", [frac([2, 3]), mix([3], 1)], CLOSE)
case("linear_0dim_input_error", "aten::linear", [T([1.0], []), mix([4, 3], 1)])
case("linear_0dim_weight_error", "aten::linear", [frac([3]), T([1.0], [])])
case("linear_shape_error", "aten::linear", [frac([2, 3]), mix([4, 2], 1), mix([4], 2)])
case("linear_dtype_error", "aten::linear", [frac([2, 3]), frac([4, 3], 0, "float64")])

case("matmul_2d_2d", "aten::matmul", [frac([2, 3]), mix([3, 4], 1)], CLOSE)
case("matmul_3d_2d", "aten::matmul", [frac([2, 2, 3]), mix([3, 4], 1)], CLOSE)
case("matmul_3d_transposed_2d", "aten::matmul", [frac([3, 2, 2], view="t"), mix([2, 4], 1)], CLOSE)
case("matmul_1d_2d", "aten::matmul", [frac([3]), mix([3, 4], 1)], CLOSE)
case("matmul_2d_transposed", "aten::matmul", [frac([2, 3], view="t"), mix([3, 4], 1)], CLOSE)
case("matmul_1d_2d_shape_error", "aten::matmul", [frac([3]), mix([4, 2], 1)])
case("matmul_2d_2d_shape_error", "aten::matmul", [frac([2, 3]), mix([2, 3], 1)])
case("matmul_0dim_error", "aten::matmul", [T([1.0], []), mix([3, 4], 1)])
case("matmul_1d_1d", "aten::matmul", [frac([3]), frac([3], 1)], CLOSE)
case("matmul_2d_1d", "aten::matmul", [frac([2, 3]), frac([3], 1)], CLOSE)
case("matmul_3d_3d", "aten::matmul", [frac([2, 2, 3]), frac([2, 3, 2], 1)], CLOSE)
case("matmul_2d_3d", "aten::matmul", [frac([2, 3]), frac([2, 3, 2], 1)], CLOSE)

# ======================================================================================
# comparison, masking, indexing (what cross_entropy's label smoothing reaches)
# ======================================================================================
MASK6 = T([True, False, True, True, False, False], [6], "bool")
case("eq_scalar_int", "aten::eq.Scalar", [T([0, 2, 1, 2, 3, 0], [6], "int64"), SI(2)])
case("eq_scalar_float_f32", "aten::eq.Scalar", [T([0.1, 0.5, 0.1], [3]), SF(0.1)])
case("eq_scalar_float_int_self", "aten::eq.Scalar", [T([1, 2, 3], [3], "int64"), SF(2.0)])
case("eq_scalar_transposed", "aten::eq.Scalar", [seq([2, 3], view="t"), SI(3)])
case("eq_scalar_bool", "aten::eq.Scalar", [T([True, False], [2], "bool"), SI(1)])
case("bitwise_not_bool", "aten::bitwise_not", [MASK6])
case("bitwise_not_int", "aten::bitwise_not", [T([0, 5, -3], [3], "int64")])
case("bitwise_not_float_error", "aten::bitwise_not", [frac([3])])
case("masked_fill__scalar", "aten::masked_fill_.Scalar", [frac([6]), MASK6, SF(0.0)])
case("masked_fill__broadcast_mask", "aten::masked_fill_.Scalar", [frac([2, 3]), T([True, False, True], [3], "bool"), SI(-1)])
case("masked_fill__int", "aten::masked_fill_.Scalar", [T([1, 2], [2], "int64"), T([True, False], [2], "bool"), SF(0.5)])
case("masked_fill__int_mask_error", "aten::masked_fill_.Scalar", [frac([2]), T([1, 0], [2], "int64"), SF(0.0)])
case("masked_fill__shape_error", "aten::masked_fill_.Scalar", [frac([2]), T([True, False, True], [3], "bool"), SF(0.0)])
case("masked_fill__mask_wider_error", "aten::masked_fill_.Scalar", [frac([3]), T([True, False, True] * 2, [2, 3], "bool"), SF(0.0)])
case("masked_fill_scalar", "aten::masked_fill.Scalar", [seq([2, 3], view="t"), T([True, False, True], [3], "bool"), SF(9.5)])
case("masked_fill_scalar_broadcast_self", "aten::masked_fill.Scalar", [frac([3]), T([True, False, True, False, False, True], [2, 3], "bool"), SI(0)])
case("masked_select_1d", "aten::masked_select", [T([0, 2, 1, 2, 3, 0], [6], "int64"), MASK6])
case("masked_select_broadcast", "aten::masked_select", [frac([2, 3]), T([False, True, True], [3], "bool")])
case("masked_select_none", "aten::masked_select", [frac([3]), T([False, False, False], [3], "bool")])
case("masked_select_int_mask_error", "aten::masked_select", [frac([2]), T([1, 0], [2], "int64")])
case("masked_select_shape_error", "aten::masked_select", [frac([2]), T([True, False, True], [3], "bool")])
case("gather_dim0_1d", "aten::gather", [frac([4]), I(0), T([3, 0, 0, 2, 1, 1], [6], "int64")])
case("gather_dim1", "aten::gather", [seq([2, 3]), I(1), T([2, 0, 1, 1], [2, 2], "int64")])
case("gather_dim0_2d", "aten::gather", [seq([3, 2]), I(0), T([2, 0, 1, 1], [2, 2], "int64")])
case("gather_negative_dim", "aten::gather", [seq([2, 3]), I(-1), T([0, 2], [2, 1], "int64")])
case("gather_out_of_range_error", "aten::gather", [frac([2]), I(0), T([2], [1], "int64")])
case("gather_float_index_error", "aten::gather", [frac([2]), I(0), T([0.0], [1])])
case("gather_rank_error", "aten::gather", [frac([2]), I(0), T([0], [1, 1], "int64")])
case("gather_size_error", "aten::gather", [seq([1, 2]), I(1), T([0, 1, 1, 0, 0, 0], [2, 3], "int64")])

# ======================================================================================
# MiniGPT's operators: shapes, joins, products, nn ops, the optimizer's pointwise ops
# ======================================================================================
case("slice_mid", "aten::slice.Tensor", [seq([3, 5]), I(1), I(1), I(4)])
case("slice_step", "aten::slice.Tensor", [seq([7]), I(0), I(1), I(7), I(3)])
case("slice_negative", "aten::slice.Tensor", [seq([3, 5]), I(-1), I(-3)])
case("slice_clamped", "aten::slice.Tensor", [seq([4, 2]), I(0), I(-10), I(10)])
case("slice_empty", "aten::slice.Tensor", [seq([4, 2]), I(0), I(3), I(1)])
case("slice_transposed", "aten::slice.Tensor", [seq([3, 4], view="t"), I(0), I(1), I(3)])
case("slice_step_zero_error", "aten::slice.Tensor", [seq([4]), I(0), I(0), I(4), I(0)])
case("slice_0dim_error", "aten::slice.Tensor", [T([1.0], [])])
case("slice_dim_error", "aten::slice.Tensor", [seq([4]), I(1)])
case("narrow_basic", "aten::narrow", [seq([3, 5]), I(1), I(-3), I(2)])
case("narrow_length_error", "aten::narrow", [seq([3, 5]), I(1), I(2), I(4)])
case("narrow_start_error", "aten::narrow", [seq([3, 5]), I(1), I(6), I(0)])
case("narrow_negative_length_error", "aten::narrow", [seq([3, 5]), I(1), I(0), I(-1)])
case("split_even", "aten::split.Tensor", [seq([2, 6]), I(2), I(1)])
case("split_uneven", "aten::split.Tensor", [seq([7, 2]), I(3)])
case("split_larger", "aten::split.Tensor", [seq([3]), I(5)])
case("split_negative_error", "aten::split.Tensor", [seq([3]), I(-1)])
case("split_zero_error", "aten::split.Tensor", [seq([3]), I(0)])
case("split_0dim_error", "aten::split.Tensor", [T([1.0], []), I(1)])
case("split_with_sizes_basic", "aten::split_with_sizes", [seq([6, 2]), L(1, 3, 2)])
case("split_with_sizes_sum_error", "aten::split_with_sizes", [seq([6, 2]), L(1, 3)])
case("cat_dim0", "aten::cat", [TL(seq([2, 3]), mix([1, 3], 1))])
case("cat_dim1_promote", "aten::cat", [TL(seq([2, 2], dtype="int64"), frac([2, 1]), seq([2, 3], dtype="float64")), I(1)])
case("cat_legacy_empty", "aten::cat", [TL(T([], [0]), seq([2, 3])), I(-1)])
case("cat_transposed", "aten::cat", [TL(seq([3, 2], view="t"), seq([2, 2])), I(1)])
case("cat_rank_error", "aten::cat", [TL(seq([2, 3]), seq([3]))])
case("cat_size_error", "aten::cat", [TL(seq([2, 3]), seq([2, 4]))])
case("cat_empty_list_error", "aten::cat", [{"tensors": []}])
case("cat_0dim_error", "aten::cat", [TL(seq([2]), T([1.0], []))])
case("cat_dim_error", "aten::cat", [TL(seq([2, 3])), I(2)])
case("stack_dim0", "aten::stack", [TL(seq([2, 3]), mix([2, 3]))])
case("stack_last", "aten::stack", [TL(seq([2]), mix([2])), I(-1)])
case("stack_0dim", "aten::stack", [TL(T([1.0], []), T([2.0], []), T([3.0], []))])
case("stack_size_error", "aten::stack", [TL(seq([2, 3]), seq([3, 2]))])
case("stack_empty_error", "aten::stack", [{"tensors": []}])
case("tril_basic", "aten::tril", [seq([3, 4])])
case("tril_diag", "aten::tril", [seq([2, 3, 3]), I(-1)])
case("tril_diag_pos", "aten::tril", [seq([3, 2], view="t"), I(1)])
case("tril_bool", "aten::tril", [T([True] * 9, [3, 3], "bool")])
case("tril_1d_error", "aten::tril", [seq([3])])
case("index_select_rows", "aten::index_select", [seq([4, 3]), I(0), T([3, 0, 3], [3], "int64")])
case("index_select_cols", "aten::index_select", [seq([2, 4], view="t"), I(1), T([1], [1], "int64")])
case("index_select_out_of_range_error", "aten::index_select", [seq([4, 3]), I(0), T([4], [1], "int64")])
case("index_select_2d_index_error", "aten::index_select", [seq([4, 3]), I(0), T([0, 1], [1, 2], "int64")])
case("index_select_float_index_error", "aten::index_select", [seq([4, 3]), I(0), T([0.0], [1])])
case("arange_end", "aten::arange", [SI(5)])
case("arange_end_float", "aten::arange", [SF(2.5)])
case("arange_start", "aten::arange.start", [SI(2), SI(7)])
case("arange_start_long", "aten::arange.start", [SI(0), SI(4), DT("int64")])
case("arange_start_step_float", "aten::arange.start_step", [SF(0.0), SF(1.0), SF(0.1)])
case("arange_start_step_negative", "aten::arange.start_step", [SI(5), SI(-5), SI(-3)])
case("arange_start_step_f64", "aten::arange.start_step", [SI(1), SI(2), SF(0.25), DT("float64")])
case("arange_step_zero_error", "aten::arange.start_step", [SI(0), SI(5), SI(0)])
case("arange_sign_error", "aten::arange.start_step", [SI(0), SI(5), SI(-1)])
case("bmm_small", "aten::bmm", [frac([2, 3, 4]), mix([2, 4, 2], 1)], CLOSE)
case("bmm_gemm", "aten::bmm", [frac([2, 8, 9]), mix([2, 9, 7], 1)], CLOSE)
case("bmm_transposed", "aten::bmm", [frac([2, 8, 9]), mix([2, 7, 9], 1, view="t")], CLOSE)
case("bmm_int", "aten::bmm", [seq([2, 2, 3], dtype="int64"), seq([2, 3, 2], dtype="int64")])
case("bmm_rank_error", "aten::bmm", [frac([2, 3]), mix([2, 3, 2], 1)])
case("bmm_size_error", "aten::bmm", [frac([2, 3, 4]), mix([2, 3, 2], 1)])
case("dot_basic", "aten::dot", [frac([5]), mix([5], 1)], CLOSE)
case("dot_size_error", "aten::dot", [frac([5]), mix([4], 1)])
case("dot_dtype_error", "aten::dot", [frac([2]), seq([2], dtype="float64")])
case("dot_rank_error", "aten::dot", [frac([2, 2]), mix([4], 1)])
case("mv_basic", "aten::mv", [frac([3, 4]), mix([4], 1)], CLOSE)
case("mv_transposed", "aten::mv", [frac([4, 3], view="t"), mix([4], 1)], CLOSE)
case("mv_size_error", "aten::mv", [frac([3, 4]), mix([3], 1)])
case("matmul_4d_4d", "aten::matmul", [frac([2, 3, 4, 5]), mix([2, 3, 5, 2], 1)], CLOSE)
case("matmul_broadcast_batch", "aten::matmul", [frac([2, 1, 3, 4]), mix([5, 4, 2], 1)], CLOSE)
case("matmul_3d_1d", "aten::matmul", [frac([2, 3, 4]), mix([4], 1)], CLOSE)
case("matmul_1d_3d", "aten::matmul", [frac([4]), mix([2, 4, 3], 1)], CLOSE)
case("matmul_batch_error", "aten::matmul", [frac([2, 3, 4]), mix([3, 4, 2], 1)])
case("embedding_1d", "aten::embedding", [frac([5, 3]), T([4, 0, 4], [3], "int64")])
case("embedding_2d", "aten::embedding", [frac([5, 3]), T([1, 2, 3, 0], [2, 2], "int64")])
case("embedding_weight_error", "aten::embedding", [frac([5]), T([1], [1], "int64")])
case("embedding_index_dtype_error", "aten::embedding", [frac([5, 3]), T([1.0], [1])])
case("embedding_out_of_range_error", "aten::embedding", [frac([5, 3]), T([5], [1], "int64")])
case("embedding_dense_backward_basic", "aten::embedding_dense_backward", [frac([4, 3]), T([2, 0, 2, 1], [4], "int64"), I(3), I(-1), B(False)])
case("embedding_dense_backward_padding", "aten::embedding_dense_backward", [frac([2, 2, 3]), T([2, 0, 2, 1], [2, 2], "int64"), I(4), I(2), B(False)])
case("embedding_dense_backward_freq", "aten::embedding_dense_backward", [frac([4, 3]), T([2, 0, 2, 1], [4], "int64"), I(3), I(-1), B(True)], CLOSE)
case("native_layer_norm_affine", "aten::native_layer_norm", [frac([2, 3, 4]), L(4), mix([4], 1), mix([4], 2), F(1e-5)], LOOSE)
case("native_layer_norm_no_bias", "aten::native_layer_norm", [frac([3, 4]), L(4), mix([4], 1), NONE, F(1e-5)], LOOSE)
case("native_layer_norm_2d_shape", "aten::native_layer_norm", [frac([2, 3, 4]), L(3, 4), NONE, NONE, F(1e-3)], LOOSE)
case("native_layer_norm_wide", "aten::native_layer_norm", [mix([4, 64]), L(64), mix([64], 1), mix([64], 2), F(1e-5)], CLOSE)
case("native_layer_norm_shape_error", "aten::native_layer_norm", [frac([2, 3, 4]), L(3), NONE, NONE, F(1e-5)])
case("native_layer_norm_weight_error", "aten::native_layer_norm", [frac([2, 4]), L(4), mix([3], 1), NONE, F(1e-5)])
case("native_layer_norm_backward_all", "aten::native_layer_norm_backward",
     [mix([3, 4], 3), frac([3, 4]), L(4), T([0.3, -0.2, 0.1], [3, 1]), T([1.5, 2.0, 0.75], [3, 1]), mix([4], 1), mix([4], 2), BL(True, True, True)], CLOSE)
case("gelu_none", "aten::gelu", [mix([3, 4], 2)], CLOSE)
case("gelu_tanh", "aten::gelu", [mix([3, 4], 2), S("tanh")], CLOSE)
case("gelu_bad_approximate_error", "aten::gelu", [mix([3]), S("erf")])
case("gelu_int_error", "aten::gelu", [seq([3], dtype="int64")])
case("gelu_backward_none", "aten::gelu_backward", [frac([3, 4]), mix([3, 4], 2)], CLOSE)
case("gelu_backward_tanh", "aten::gelu_backward", [frac([3, 4]), mix([3, 4], 2), S("tanh")], CLOSE)
case("softmax_last", "aten::_softmax", [mix([3, 5], 1), I(-1), B(False)], CLOSE)
case("softmax_dim0", "aten::_softmax", [mix([3, 5], 1), I(0), B(False)], CLOSE)
case("softmax_neg_inf", "aten::_softmax", [T([0.5, float("-inf"), 1.0, -2.0], [2, 2]), I(1), B(False)], CLOSE)
case("softmax_half_to_float_error", "aten::_softmax", [mix([2, 2], 1), I(1), B(True)])
case("softmax_backward_data", "aten::_softmax_backward_data", [frac([3, 4]), T([0.1, 0.2, 0.3, 0.4] * 3, [3, 4]), I(1), DT("float32")], CLOSE)
case("softmax_int", "aten::softmax.int", [mix([2, 3], 1), I(1)], CLOSE)
case("safe_softmax_masked_row", "aten::_safe_softmax", [T([float("-inf")] * 3 + [0.5, 1.0, -1.0], [2, 3]), I(1)], CLOSE)
case("where_basic", "aten::where.self", [T([True, False, True], [3], "bool"), seq([2, 3]), mix([3], 1)])
case("where_promote", "aten::where.self", [T([True, False], [2], "bool"), seq([2], dtype="int64"), frac([2])])
case("where_condition_error", "aten::where.self", [seq([2]), seq([2]), seq([2])])
case("where_scalar", "aten::where.Scalar", [T([True, False], [2], "bool"), SF(0.0), SF(float("-inf"))])
case("eq_tensor", "aten::eq.Tensor", [T([1, 2, 3], [3], "int64"), T([1, 0, 3], [3], "int64")])
case("eq_tensor_broadcast", "aten::eq.Tensor", [frac([2, 3]), frac([3])])
case("all_dim", "aten::all.dim", [T([True, False, True, True], [2, 2], "bool"), I(1)])
case("all_dim_keepdim_float", "aten::all.dim", [T([1.0, 0.0, 2.0, 3.0], [2, 2]), I(0), B(True)])
case("argmax_all", "aten::argmax", [T([1.0, 3.0, 3.0, 2.0], [2, 2])])
case("argmax_dim", "aten::argmax", [T([1.0, 3.0, 5.0, 2.0, 7.0, 0.0], [2, 3]), I(-1), B(True)])
case("argmax_nan", "aten::argmax", [T([1.0, float("nan"), 3.0], [3]), I(0)])
case("max_all", "aten::max", [mix([3, 4], 1)])
case("min_all", "aten::min", [mix([3, 4], 1)])
case("max_empty_error", "aten::max", [T([], [0])])
case("vector_norm_2", "aten::linalg_vector_norm", [frac([3, 4])], CLOSE)
case("vector_norm_1_dim", "aten::linalg_vector_norm", [mix([3, 4], 1), SI(1), L(1)], CLOSE)
case("vector_norm_inf_keepdim", "aten::linalg_vector_norm", [mix([3, 4], 1), SF(float("inf")), L(0), B(True)], CLOSE)
case("vector_norm_3", "aten::linalg_vector_norm", [frac([5]), SF(3.0)], CLOSE)
case("vector_norm_int_error", "aten::linalg_vector_norm", [seq([3], dtype="int64")])
case("sqrt_basic", "aten::sqrt", [frac([2, 3])], CLOSE)
case("sqrt_int", "aten::sqrt", [seq([4], dtype="int64")], CLOSE)
case("reciprocal_basic", "aten::reciprocal", [mix([2, 3], 1)])
case("clamp_max_only", "aten::clamp", [mix([6], 1), NONE, SF(0.5)])
case("clamp_both", "aten::clamp", [mix([6], 1), SF(-0.5), SF(0.75)])
case("clamp_int", "aten::clamp", [seq([5], dtype="int64"), SI(2), SI(4)])
case("clamp_int_float_bound", "aten::clamp", [seq([5], dtype="int64"), NONE, SF(2.5)])
case("clamp_none_error", "aten::clamp", [mix([3], 1)])
case("div__scalar", "aten::div_.Scalar", [frac([2, 3]), SF(0.9)])
case("div__scalar_int_error", "aten::div_.Scalar", [seq([2], dtype="int64"), SI(2)])
case("lerp_small_weight", "aten::lerp_.Scalar", [frac([64], 1), mix([64], 2), SF(0.09999999999999998)])
case("lerp_large_weight", "aten::lerp_.Scalar", [frac([64], 1), mix([64], 2), SF(0.7)])
case("lerp_functional", "aten::lerp.Scalar", [frac([2, 3], 1), mix([3], 2), SF(0.3)])
case("lerp_dtype_error", "aten::lerp_.Scalar", [frac([2]), seq([2], dtype="float64"), SF(0.5)])
case("addcmul_adamw", "aten::addcmul_", [frac([64], 1), mix([64], 2), frac([64], 3), SF(0.050000000000000044)])
case("addcmul_functional", "aten::addcmul", [frac([2, 3], 1), mix([3], 2), frac([2, 1], 3), SF(-1.5)])
# value.to<scalar_t>(): an integral result truncates the value, a 16-bit float rounds it
case("addcmul_int_float_value", "aten::addcmul", [seq([2, 4], dtype="int64"), seq([2, 4], 2, dtype="int64"), seq([4], -1, dtype="int64"), SF(1.5)])
case("addcmul_int_neg_value", "aten::addcmul", [seq([3], dtype="int64"), seq([3], 2, dtype="int64"), seq([3], 1, dtype="int64"), SF(-2.75)])
case("addcmul_f16_value", "aten::addcmul", [frac([3], 1, "float16"), frac([3], 2, "float16"), frac([3], 3, "float16"), SF(0.1)], CLOSE)
case("addcdiv_adamw", "aten::addcdiv_", [frac([64], 1), mix([64], 2), frac([64], 3), SF(-0.0030000000000000005)])
case("addcdiv_functional", "aten::addcdiv", [frac([2, 3], 1), mix([3], 2), frac([2, 3], 3), SF(0.5)])
case("addcdiv_int_error", "aten::addcdiv", [seq([2], dtype="int64"), seq([2], dtype="int64"), seq([2], dtype="int64")])
case("maximum_basic", "aten::maximum", [mix([2, 3], 1), frac([3])])
case("maximum_out", "aten::maximum.out", [mix([2, 3], 1), frac([2, 3]), seq([2, 3])])
case("logical_not_float", "aten::logical_not", [T([0.0, 1.5, -0.0, 2.0], [4])])
case("local_scalar_dense_float", "aten::_local_scalar_dense", [T([2.5], [])])
case("local_scalar_dense_int", "aten::_local_scalar_dense", [T([7], [1], "int64")])
case("item_error", "aten::item", [seq([2])])
case("foreach_norm", "aten::_foreach_norm.Scalar", [TL(frac([3]), mix([2, 2], 1))], CLOSE)
case("foreach_norm_empty_error", "aten::_foreach_norm.Scalar", [{"tensors": []}])
case("sdpa_math_causal", "aten::_scaled_dot_product_attention_math",
     [frac([1, 2, 3, 4]), mix([1, 2, 3, 4], 1), frac([1, 2, 3, 4], 2), NONE, F(0.0), B(True)], CLOSE)
case("sdpa_causal", "aten::scaled_dot_product_attention", [frac([1, 2, 3, 4]), mix([1, 2, 3, 4], 1), frac([1, 2, 3, 4], 2), NONE, F(0.0), B(True)], CLOSE)
case("sdpa_bool_mask_3d", "aten::scaled_dot_product_attention",
     [frac([2, 3, 4]), mix([2, 3, 4], 1), frac([2, 3, 4], 2), T([True, False, True, True, True, False, False, True, True], [3, 3], "bool")], CLOSE)
case("sdpa_dtype_error", "aten::scaled_dot_product_attention", [frac([2, 3]), seq([2, 3], dtype="float64"), frac([2, 3])])
case("flash_cpu", "aten::_scaled_dot_product_flash_attention_for_cpu", [frac([1, 2, 3, 4]), mix([1, 2, 5, 4], 1), frac([1, 2, 5, 4], 2)], CLOSE)
case("flash_cpu_causal_scale", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [frac([1, 1, 4, 2]), mix([1, 1, 4, 2], 1), frac([1, 1, 4, 2], 2), F(0.0), B(True), NONE, F(0.3)], CLOSE)
case("flash_cpu_dropout_error", "aten::_scaled_dot_product_flash_attention_for_cpu", [frac([1, 1, 2, 2]), frac([1, 1, 2, 2]), frac([1, 1, 2, 2]), F(0.5)])
case("dropout_eval_is_input", "aten::dropout", [frac([2, 3]), F(0.5), B(False)])
case("dropout_p1", "aten::dropout", [frac([2, 3]), F(1.0), B(True)])
case("dropout_p_error", "aten::dropout", [frac([2, 3]), F(1.5), B(True)])
case("bernoulli_generator", "aten::bernoulli_.float", [frac([40]), F(0.3), G(3)])
case("bernoulli_transposed_f64", "aten::bernoulli_.float", [frac([4, 5], dtype="float64", view="t"), F(0.9), G(5)])
case("bernoulli_bool", "aten::bernoulli_.float", [T([False] * 6, [6], "bool"), F(0.5), G(7)])
case("bernoulli_p_error", "aten::bernoulli_.float", [frac([4]), F(1.5)])
case("exponential_generator", "aten::exponential_", [frac([50]), F(1.0), G(11)])
case("exponential_f64_lambda", "aten::exponential_", [frac([3, 4], dtype="float64"), F(2.5), G(12)])
case("exponential_lambda_error", "aten::exponential_", [frac([4]), F(-1.0)])
case("multinomial_one", "aten::multinomial", [T([0.1, 0.2, 0.3, 0.4] * 2, [2, 4]), I(1), B(False), G(13)])
case("multinomial_no_replacement", "aten::multinomial", [T([0.1, 0.2, 0.3, 0.4, 0.0], [5]), I(4), B(False), G(14)])
case("multinomial_replacement", "aten::multinomial", [T([0.1, 0.2, 0.3, 0.4, 0.0, 1.0], [2, 3]), I(6), B(True), G(15)])
case("multinomial_too_many_error", "aten::multinomial", [T([0.5, 0.5], [2]), I(3)])
case("multinomial_negative_error", "aten::multinomial", [T([0.5, -0.5], [2]), I(1)])
case("multinomial_zero_row_error", "aten::multinomial", [T([0.0, 0.0], [2]), I(1)])
case("multinomial_int_error", "aten::multinomial", [T([1, 2], [2], "int64"), I(1)])
case("select_backward_basic", "aten::select_backward", [frac([2, 3]), L(2, 4, 3), I(1), I(-1)])
case("slice_backward_basic", "aten::slice_backward", [frac([2, 2]), L(2, 5), I(1), I(1), I(5), I(2)])

with open(sys.argv[1], "w") as f:
    f.write("[\n")
    f.write(",\n".join(json.dumps(c) for c in cases))
    f.write("\n]\n")
print("%d cases, %d errors, %d skipped" % (len(cases), sum("error" in c for c in cases),
                                           sum("skip_reason" in c for c in cases)), file=sys.stderr)
