"""Records repr(tensor) and str(tensor.shape) for the cases tests/test_print.c checks.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/print_cases.py torch-2.6/print_cases.json

Each case stores the exact element values (float(x) of the stored element, so float16 and
bfloat16 values are the ones the tensor really holds) so the C test can rebuild the tensor.
JSON has no NaN/inf, so those values are written as the strings "nan", "inf", "-inf".
"""
import json
import math
import sys

import torch

DTYPE_NAMES = {
    torch.float32: "float32",
    torch.float64: "float64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.int64: "int64",
    torch.bool: "bool",
}

cases = []


def enc(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def add(name, t):
    flat = t.detach().contiguous().reshape(-1).tolist()
    grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    cases.append({
        "name": name,
        "dtype": DTYPE_NAMES[t.dtype],
        "sizes": list(t.shape),
        "values": [enc(v) for v in flat],
        "requires_grad": bool(t.requires_grad),
        "grad_fn": grad_fn,
        "repr": repr(t),
        "size_str": str(t.shape),
    })


T = torch.tensor
f64, f16, bf16, i64 = torch.float64, torch.float16, torch.bfloat16, torch.int64
nan, inf = float("nan"), float("inf")

# ---- basic float32 ----
add("f32_simple", T([1.5, 2.25, -3.0]))
add("f32_int_mode", T([1.0, 2.0, 3.0]))
add("f32_int_mode_neg", T([-1.0, 20.0, 300.0]))
add("f32_zeros_2x3", torch.zeros(2, 3))
add("f32_padding", T([-1.5, 10.25, 100.125]))
add("f32_rounding", T([0.12345, 0.25, 0.00015, 2.00005]))
add("f32_arange20", torch.arange(20.0))
add("f32_linspace7", torch.linspace(0, 1, 7))
add("f32_linspace25_wrap", torch.linspace(-1, 1, 25))

# ---- 0-dim ----
add("scalar_f32", T(3.5))
add("scalar_f32_int", T(3.0))
add("scalar_f32_neg", T(-2.5))
add("scalar_f32_negzero", T(-0.0))
add("scalar_f32_small", T(1e-5))
add("scalar_f32_nan", T(nan))
add("scalar_f32_inf", T(-inf))
add("scalar_f64", T(2.0, dtype=f64))
add("scalar_i64", T(-7))
add("scalar_bool", T(True))
add("scalar_f16", T(0.1, dtype=f16))

# ---- empty ----
add("empty_1d", T([]))
add("empty_0x3", torch.zeros(0, 3))
add("empty_i64", T([], dtype=i64))
add("empty_bool_2x0", torch.zeros(2, 0, dtype=torch.bool))
add("empty_f64_3x0x2", torch.zeros(3, 0, 2, dtype=f64))
add("empty_f16", T([], dtype=f16))

# ---- scientific mode choice ----
add("sci_small", T([1e-5, 1.0, 2.0]))
add("sci_ratio", T([12345.678, 1.0]))
add("sci_big", T([1e10, 3.0]))
add("sci_int_mode_big", T([1e9, 1.0]))
add("int_mode_1e8", T([1e8]))
add("int_mode_ratio_1000", T([1.0, 1000.0]))
add("int_mode_ratio_1001", T([1.0, 1001.0]))
add("f32_1e-4", T([0.0001, 1.0]))
add("f64_1e-4", T([0.0001, 1.0], dtype=f64))
# min_abs alone decides: 1e-4 rounds below 1e-4 in float32 but not in float64.
add("f32_min_1e-4_only", T([0.0001, 0.05]))
add("f64_min_1e-4_only", T([0.0001, 0.05], dtype=f64))
add("sci_min_5e-5", T([5e-5, 0.01]))
add("sci_wide_range", T([1e-10, 1e10, -1.0]))
add("f64_exp3", T([1e300, -1e-300], dtype=f64))
add("f64_sci_precise", T([123456789.123, 0.5], dtype=f64))

# ---- zeros, nan, inf ----
add("negzero", T([-0.0, 1.0]))
add("negzero_only", T([-0.0]))
add("zero_negzero", T([0.0, -0.0]))
add("nan_inf_only", T([nan, inf, -inf]))
add("int_mode_nan", T([1.0, nan]))
add("float_nan_inf", T([1.5, nan, -inf]))
add("sci_nan_inf", T([1e-5, nan, inf, 0.0]))
add("negzero_float", T([-0.0, 0.5]))

# ---- random, multi-dim ----
torch.manual_seed(0)
add("randn30_wrap", torch.randn(30))
add("randn_4x5", torch.randn(4, 5))
add("randn_2x12_wrap", torch.randn(2, 12))
add("randn_2x3x4", torch.randn(2, 3, 4))
add("randn_4d", torch.randn(2, 2, 2, 2))
add("randn_5d", torch.randn(2, 1, 2, 1, 2))
add("randn_2x1x3", torch.randn(2, 1, 3))
add("randn_1x1", torch.randn(1, 1))
add("arange_3x4_scaled", torch.arange(12.0).reshape(3, 4) * 0.5 - 2)

# ---- summarization ----
add("f32_arange1000_full", torch.arange(1000.0))
add("f32_arange2000", torch.arange(2000.0))
add("f32_randn2000", torch.randn(2000))
add("i64_arange1001", torch.arange(1001))
add("i64_arange2000", torch.arange(2000) - 1000)
add("bool_2000", torch.arange(2000) % 3 == 0)
add("f32_randn_50x60", torch.randn(50, 60))
add("i64_50x60", torch.arange(3000).reshape(50, 60))
add("f32_randn_3x400", torch.randn(3, 400))
add("f32_randn_200x7", torch.randn(200, 7))
add("f32_randn_10x10x11", torch.randn(10, 10, 11))
add("f32_2000x1", torch.randn(2000, 1))

add("f64_randn_40x30", torch.randn(40, 30, dtype=f64))
add("bool_40x30", torch.randn(40, 30) > 0)
add("f16_randn_1500", torch.randn(1500).half())
add("f32_sci_20x60_wrap", torch.randn(20, 60) * 1e-5)
add("i64_4d_8x8x8x8", torch.arange(4096).reshape(8, 8, 8, 8) - 2000)
add("f32_deep_10d_wrap", torch.randn(1, 1, 1, 1, 1, 1, 1, 1, 1, 20))
add("rg_leaf_summarized", torch.randn(1001, requires_grad=True))

# ---- int64 ----
add("i64_small", T([-5, 3, 100000]))
add("i64_extremes", T([9223372036854775807, -9223372036854775808, 0]))
add("i64_arange100_wrap", torch.arange(100))
add("i64_2x3", T([[1, -2, 3], [40, 5, -600]]))

# ---- bool ----
add("bool_mixed", T([True, False, True]))
add("bool_all_true", T([True, True]))
add("bool_2x2", T([[True, False], [False, False]]))
add("bool_wrap", torch.arange(40) % 2 == 0)

# ---- float64 / float16 / bfloat16 ----
add("f64_randn_3x4", torch.randn(3, 4, dtype=f64))
add("f64_third", T([1.0 / 3.0], dtype=f64))
add("f64_suffix_wrap", torch.randn(8, dtype=f64))
add("f64_int_mode", T([1.0, 2.0], dtype=f64))
add("f16_randn", torch.randn(5).half())
add("f16_values", T([1e-5, 65504.0, 0.1], dtype=f16))
add("f16_int_mode", T([1.0, -2.0, 300.0], dtype=f16))
add("f16_overflow_inf", T([70000.0, 1.0]).half())
add("f16_tenths", T([0.1, 0.2, 0.3], dtype=f16))
add("bf16_randn", torch.randn(5).bfloat16())
add("bf16_big", T([1e10, 3.0], dtype=bf16))
add("bf16_values", T([0.1, 1.7, -2.3, 100.5], dtype=bf16))
add("bf16_2x3", torch.randn(2, 3).bfloat16())

# ---- autograd suffixes ----
add("rg_leaf", torch.randn(3, requires_grad=True))
add("rg_leaf_f64", torch.randn(2, 2, dtype=f64, requires_grad=True))
add("rg_leaf_wrap", torch.randn(2, 7, requires_grad=True))
add("rg_leaf_f16_scalar", T(1.5, dtype=f16, requires_grad=True))
add("rg_leaf_empty", torch.zeros(0, 2, requires_grad=True))
# The last line is 59 characters: the suffix would fit in 80, but PyTorch's line-length
# measure counts two more, so it goes onto a new line.
add("rg_suffix_boundary", T([-1e-5, -2e-5, -3e-5, -4e-5], requires_grad=True))
add("f64_suffix_boundary", T([-1e-5, -2e-5, -3e-5, -4e-5], dtype=f64))
add("f64_suffix_fits", T([-1e-5, -2e-5, -3e-5], dtype=f64))
w = torch.randn(3, 4, requires_grad=True)
x = torch.randn(2, 3)
b = torch.randn(4, requires_grad=True)
add("gf_addmm", torch.addmm(b, x, w))
add("gf_mul", w * 2)
add("gf_sum_scalar", w.sum())
wd = torch.randn(8, dtype=f64, requires_grad=True)
add("gf_f64_wrap", wd * 3)
add("gf_wide_row", torch.randn(9, requires_grad=True) * 1.0)


# A custom autograd.Function's node is named "<class name>Backward", which lets the name length
# be chosen: once dtype has wrapped onto its own line, a grad_fn suffix of exactly 52 characters
# still fits that line (the count is exact there) and one more character wraps it.
def long_named_identity(cls_name):
    def forward(ctx, x):
        return x.clone()

    def backward(ctx, g):
        return g

    return type(cls_name, (torch.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


for cls_len in (34, 35):
    fn = long_named_identity(("SuffixLayoutCheck" * 3)[:cls_len])
    x = T([-1e-5, -2e-5, -3e-5, -4e-5], dtype=f64, requires_grad=True)
    add(f"gf_custom_name_{cls_len + 8}", fn.apply(x))

# One case per line keeps the file diffable without spreading 2000-value lists over 2000 lines.
with open(sys.argv[1], "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c) for c in cases) + "\n]\n")
print(f"torch {torch.__version__}: {len(cases)} cases written to {sys.argv[1]}")
