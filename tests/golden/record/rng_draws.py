"""Raw bit patterns of PyTorch's CPU random streams, for tests/test_rng.c.

Run under PyTorch 2.6 from tests/golden:
    ../../../shared/tools/torchref record/rng_draws.py torch-2.6/rng_draws.json

Output: one flat JSON object {"key": [uint, ...], ...}. Floating values are stored as their IEEE
bit patterns (float32 -> uint32, float64 -> uint64, float16/bfloat16 -> uint16); integer values as
uint64 (two's complement for negatives). Keys are described in tests/test_rng.c.
"""
import json
import math
import sys

import numpy as np
import torch

out = {}
MASK64 = (1 << 64) - 1


def bits(t):
    """Bit patterns of a tensor's elements in logical (row-major) order."""
    t = t.detach().contiguous().reshape(-1)
    if t.dtype == torch.float32:
        return [int(v) for v in t.numpy().view(np.uint32)]
    if t.dtype == torch.float64:
        return [int(v) for v in t.numpy().view(np.uint64)]
    if t.dtype in (torch.float16, torch.bfloat16):
        return [int(v) for v in t.view(torch.int16).numpy().view(np.uint16)]
    if t.dtype == torch.int64:
        return [int(v) & MASK64 for v in t.numpy()]
    if t.dtype == torch.bool:
        return [int(v) for v in t.numpy()]
    raise TypeError(t.dtype)


def dbits(x):
    return [int(np.array([x], dtype=np.float64).view(np.uint64)[0])]


def put(key, values):
    assert key not in out, key
    out[key] = values


# ---- what produced the recording ----------------------------------------------------------------
put("meta_torch_version", [int(p) for p in torch.__version__.split("+")[0].split(".")[:3]])
cap = torch.backends.cpu.get_cpu_capability()
put("meta_cpu_capability_is_avx512", [1 if cap == "AVX512" else 0])
put("meta_cpu_capability_is_avx2", [1 if cap == "AVX2" else 0])
print("torch", torch.__version__, "capability", cap, file=sys.stderr)

# ---- generator basics ---------------------------------------------------------------------------
put("default_seed", [torch.Generator().initial_seed()])
g = torch.Generator().manual_seed(123)
put("manual_seed_initial", [g.initial_seed()])

# ---- randn float32 (scalar path below 16, block path from 16) ----------------------------------
for seed in (0, 42):
    for n in (1, 2, 5, 15, 16, 17, 20, 33, 100, 1000):
        torch.manual_seed(seed)
        put(f"randn_f32_s{seed}_n{n}", bits(torch.randn(n)))

# ---- randn float64 -------------------------------------------------------------------------------
for seed in (0, 42):
    for n in (5, 20, 33):
        torch.manual_seed(seed)
        put(f"randn_f64_s{seed}_n{n}", bits(torch.randn(n, dtype=torch.float64)))

# ---- the cached second Box-Muller value ---------------------------------------------------------
torch.manual_seed(0)
a = torch.randn(3)
b = torch.randn(1)
put("seq_randn3_randn1", bits(torch.cat([a, b])))
# the block path leaves the cache alone: randn(3), randn(16), randn(1)
torch.manual_seed(0)
a = torch.randn(3)
m = torch.randn(16)
b = torch.randn(1)
put("seq_randn3_randn16_randn1", bits(torch.cat([a, m, b])))
# float64 scalar draw, then float32 scalar draw: one double cache
torch.manual_seed(5)
a = torch.randn(1, dtype=torch.float64)
b = torch.randn(1)
put("seq_f64_then_f32_a", bits(a))
put("seq_f64_then_f32_b", bits(b))
# manual_seed clears the cache
torch.manual_seed(0)
torch.randn(1)
torch.manual_seed(0)
put("seq_reseed_clears_cache", bits(torch.randn(2)))

# ---- rand ------------------------------------------------------------------------------------------
torch.manual_seed(0)
put("rand_f32_s0_n10", bits(torch.rand(10)))
torch.manual_seed(42)
put("rand_f32_s42_n1000", bits(torch.rand(1000)))
torch.manual_seed(0)
put("rand_f64_s0_n5", bits(torch.rand(5, dtype=torch.float64)))
torch.manual_seed(42)
put("rand_f64_s42_n100", bits(torch.rand(100, dtype=torch.float64)))
torch.manual_seed(0)
put("rand_f16_s0_n100", bits(torch.rand(100, dtype=torch.float16)))
torch.manual_seed(0)
put("rand_bf16_s0_n100", bits(torch.rand(100, dtype=torch.bfloat16)))

# ---- uniform_ with non-power-of-two widths --------------------------------------------------------
RANGES = [("m0p125_0p125", -0.125, 0.125), ("2_7p5", 2.0, 7.5), ("m3_0p1", -3.0, 0.1)]
for name, lo, hi in RANGES:
    for dt, dn in ((torch.float32, "f32"), (torch.float64, "f64"), (torch.float16, "f16"),
                   (torch.bfloat16, "bf16")):
        torch.manual_seed(0)
        put(f"uniform_{dn}_{name}", bits(torch.empty(1000, dtype=dt).uniform_(lo, hi)))

# bfloat16 (1, 300): x * (to - from) + from rounds up to `to` for the largest x (would be folded
# back to `from` by the clamp that later releases add to uniform_kernel)
for dt, dn in ((torch.float16, "f16"), (torch.bfloat16, "bf16")):
    torch.manual_seed(0)
    put(f"uniform_{dn}_1_300", bits(torch.empty(1000, dtype=dt).uniform_(1.0, 300.0)))

# nn.Linear initialisation bounds, computed exactly as torch.nn.init does
for fan_in, out_f in ((16, 8), (32, 4)):
    a = math.sqrt(5)
    gain = math.sqrt(2.0 / (1 + a ** 2))
    std = gain / math.sqrt(fan_in)
    wbound = math.sqrt(3.0) * std
    bbound = 1 / math.sqrt(fan_in)
    put(f"linear_fan{fan_in}_wbound_f64", dbits(wbound))
    put(f"linear_fan{fan_in}_bbound_f64", dbits(bbound))
    torch.manual_seed(0)
    w = torch.empty(1000).uniform_(-wbound, wbound)
    put(f"uniform_f32_kaiming_fan{fan_in}", bits(w))
    torch.manual_seed(0)
    bb = torch.empty(1000).uniform_(-bbound, bbound)
    put(f"uniform_f32_bias_fan{fan_in}", bits(bb))
    torch.manual_seed(7)
    lin = torch.nn.Linear(fan_in, out_f)
    put(f"linear_{fan_in}x{out_f}_s7_weight", bits(lin.weight))
    put(f"linear_{fan_in}x{out_f}_s7_bias", bits(lin.bias))

# ---- normal_ with mean/std --------------------------------------------------------------------------
MEAN, STD = 0.1, 0.3
for n in (10, 40):
    torch.manual_seed(0)
    put(f"normal_f32_n{n}_mean_std", bits(torch.empty(n).normal_(MEAN, STD)))
    torch.manual_seed(0)
    put(f"normal_f64_n{n}_mean_std", bits(torch.empty(n, dtype=torch.float64).normal_(MEAN, STD)))
# non-contiguous (transposed) tensor: scalar path even for >= 16 elements. Recorded both in the
# order of the underlying memory (the order the values were drawn: TensorIterator iterates the
# output in memory order) and in logical order.
torch.manual_seed(0)
base = torch.empty(4, 5)
t = base.t()
t.normal_(MEAN, STD)
put("normal_f32_transposed_4x5_memory", bits(base))
put("normal_f32_transposed_4x5_logical", bits(t))
torch.manual_seed(0)
base = torch.empty(8, 6, dtype=torch.float64)
base.t().normal_(MEAN, STD)
put("normal_f64_transposed_8x6_memory", bits(base))
# a non-contiguous slice (every other element)
torch.manual_seed(0)
base = torch.zeros(40)
base[::2].normal_(MEAN, STD)
put("normal_f32_strided_20_values", bits(base[::2]))
# many scalar-path values (tells log1p(-u2) from log(1 - u2) in normal_distribution<double>)
torch.manual_seed(1)
base = torch.empty(4000, 2, dtype=torch.float64)
base[:, 0].normal_()
put("normal_f64_strided_4000", bits(base[:, 0]))
torch.manual_seed(2)
base = torch.empty(2000, 2)
base[:, 1].normal_(MEAN, STD)
put("normal_f32_strided_2000_mean_std", bits(base[:, 1]))
# float16 / bfloat16
for dt, dn in ((torch.float16, "f16"), (torch.bfloat16, "bf16")):
    for n in (10, 16, 40):
        torch.manual_seed(0)
        put(f"normal_{dn}_n{n}_std", bits(torch.empty(n, dtype=dt).normal_(0.0, 1.0)))
        torch.manual_seed(0)
        put(f"normal_{dn}_n{n}_mean_std", bits(torch.empty(n, dtype=dt).normal_(MEAN, STD)))
    torch.manual_seed(0)
    put(f"randn_{dn}_n40", bits(torch.randn(40, dtype=dt)))

# ---- randint / random_(from, to) -------------------------------------------------------------------
def ri(key, seed, lo, hi, n, dtype=torch.int64):
    torch.manual_seed(seed)
    put(key, bits(torch.randint(lo, hi, (n,), dtype=dtype)))


ri("randint_0_4_n8", 0, 0, 4, 8)
ri("randint_0_10_n100", 0, 0, 10, 100)
ri("randint_0_10_s42_n100", 42, 0, 10, 100)
ri("randint_m5_5_n50", 0, -5, 5, 50)
ri("randint_0_2p28m1_n20", 0, 0, 2 ** 28 - 1, 20)
ri("randint_0_2p28_n20", 0, 0, 2 ** 28, 20)
ri("randint_0_2p30_n20", 0, 0, 2 ** 30, 20)
ri("randint_0_2p32m1_n20", 0, 0, 2 ** 32 - 1, 20)
ri("randint_0_2p32_n20", 0, 0, 2 ** 32, 20)
ri("randint_0_2p32p5_n20", 0, 0, 2 ** 32 + 5, 20)
ri("randint_0_2p40_n20", 0, 0, 2 ** 40, 20)
ri("randint_m2p62_2p62_n20", 0, -2 ** 62, 2 ** 62, 20)
ri("randint_f32_0_10_n20", 0, 0, 10, 20, torch.float32)
ri("randint_f32_0_2p30_n20", 0, 0, 2 ** 30, 20, torch.float32)
ri("randint_f32_0_2p24_n20", 0, 0, 2 ** 24, 20, torch.float32)
ri("randint_f64_0_2p40_n20", 0, 0, 2 ** 40, 20, torch.float64)
ri("randint_f64_0_2p30_n20", 0, 0, 2 ** 30, 20, torch.float64)
ri("randint_f16_0_100_n20", 0, 0, 100, 20, torch.float16)
ri("randint_bf16_0_100_n20", 0, 0, 100, 20, torch.bfloat16)
ri("randint_bool_0_2_n20", 0, 0, 2, 20, torch.bool)
ri("randint_f32_m2p30m100_0_n20", 0, -(2 ** 30 + 100), 0, 20, torch.float32)
ri("randint_f16_0_5000_n20", 0, 0, 5000, 20, torch.float16)
torch.manual_seed(0)
put("random_from_none_f16_5_n20", bits(torch.empty(20, dtype=torch.float16).random_(5, None)))
torch.manual_seed(0)
put("random_from_none_f32_0_n20", bits(torch.empty(20).random_(0, None)))
torch.manual_seed(0)
put("random_from_none_i64_5_n20", bits(torch.empty(20, dtype=torch.int64).random_(5, None)))
torch.manual_seed(0)
put("random_from_none_bool_0_n20", bits(torch.empty(20, dtype=torch.bool).random_(0, None)))
torch.manual_seed(0)
put("random_full_i64_n20", bits(torch.empty(20, dtype=torch.int64).random_(-2 ** 63, None)))
torch.manual_seed(0)
put("random_full_f32_n20", bits(torch.empty(20).random_(-2 ** 63, None)))
torch.manual_seed(0)
put("random_from_to_f32_m3_7_n20", bits(torch.empty(20).random_(-3, 7)))

# ---- explicit generators ------------------------------------------------------------------------------
for s in (0, 1, 2024, 2 ** 32 + 7, 2 ** 63 + 11):
    g = torch.Generator().manual_seed(s)
    put(f"gen_s{s}_initial_seed", [g.initial_seed()])
    put(f"gen_s{s}_randn20", bits(torch.randn(20, generator=g)))
    put(f"gen_s{s}_randn5", bits(torch.randn(5, generator=g)))
    put(f"gen_s{s}_rand7", bits(torch.rand(7, generator=g)))
    put(f"gen_s{s}_randint", bits(torch.randint(0, 1000, (9,), generator=g)))
# a private generator does not touch the default one
torch.manual_seed(3)
g = torch.Generator().manual_seed(3)
x = torch.randn(4, generator=g)
y = torch.randn(4)
put("gen_private_vs_default_g", bits(x))
put("gen_private_vs_default_default", bits(y))
# torch.Generator() without manual_seed: default seed stream
g = torch.Generator()
put("gen_unseeded_randn20", bits(torch.randn(20, generator=g)))
# the brief's example
g = torch.Generator().manual_seed(1)
x = torch.randn(8, 16, generator=g)
y = torch.randint(0, 4, (8,), generator=g)
put("gen1_randn_8x16", bits(x))
put("gen1_randint_0_4_n8", bits(y))

with open(sys.argv[1] if len(sys.argv) > 1 else "rng_draws.json", "w") as f:
    json.dump(out, f)
print("wrote", len(out), "keys,", sum(len(v) for v in out.values()), "values", file=sys.stderr)
