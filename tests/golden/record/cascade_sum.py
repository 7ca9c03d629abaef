"""Float sums as PyTorch 2.6 adds them (cascade_sum), at each CPU capability: the same inputs summed
over several shapes, dimensions and layouts with ATEN_CPU_CAPABILITY=default, avx2 and avx512
(one process per level, one thread, so no sum is split between threads). The inputs are
x[i] = ((i * 7919) % 1999 - 999) / 37.0 rounded to the dtype, which a C program rebuilds bit for
bit. Output: {"torch": version, "levels": {level: {"capability": what PyTorch reports, "cases": [
{"name", "dtype", "shape", "view", "dims", "keepdim", "values"}]}}} with the sums row-major."""
import json, os, subprocess, sys

CASES = [
    # name, shape, view ("" | "t" transposed | "step2": every second element of a 1-d tensor), dims (None = all), keepdim
    ("full_1200", [1200], "", None, False),
    ("bias_grad_2x600", [2, 600], "", [0], True),
    ("rows_2x600", [2, 600], "", [1], False),
    ("all_2x600", [2, 600], "", None, False),
    ("d0_37x41", [37, 41], "", [0], False),
    ("d1_37x41", [37, 41], "", [1], False),
    ("t_d0_37x41", [37, 41], "t", [0], False),
    ("t_d1_37x41", [37, 41], "t", [1], False),
    ("d02_5x7x9", [5, 7, 9], "", [0, 2], False),
    ("d1_5x7x9", [5, 7, 9], "", [1], True),
    ("d12_5x7x9", [5, 7, 9], "", [1, 2], False),
    ("long_rows_3x1000", [3, 1000], "", [1], False),
    ("long_cols_1000x3", [1000, 3], "", [0], False),
    ("cols_300x70", [300, 70], "", [0], False),
    ("n7", [7], "", None, False),
    ("n15", [15], "", None, False),
    ("n16", [16], "", None, False),
    ("n17", [17], "", None, False),
    ("n33", [33], "", None, False),
    ("n4099", [4099], "", None, False),
    ("step2_2400", [2400], "step2", None, False),
]

def run(level):
    import torch
    torch.set_num_threads(1)
    out = []
    for dtype_name, dtype in (("float32", torch.float32), ("float64", torch.float64)):
        for name, shape, view, dims, keepdim in CASES:
            n = 1
            for s in shape: n *= s
            x = torch.tensor([((i * 7919) % 1999 - 999) / 37.0 for i in range(n)], dtype=dtype).reshape(shape)
            if view == "t": x = x.t()
            if view == "step2": x = x[::2]
            r = x.sum() if dims is None else x.sum(dims, keepdim=keepdim)
            out.append({"name": name, "dtype": dtype_name, "shape": shape, "view": view, "dims": dims,
                        "keepdim": keepdim, "values": r.flatten().tolist()})
    return {"capability": torch.backends.cpu.get_cpu_capability(), "cases": out}

if len(sys.argv) > 2 and sys.argv[1] == "--level":
    print(json.dumps(run(sys.argv[2])))
    sys.exit(0)
levels = {}
for level in ("default", "avx2", "avx512"):
    env = dict(os.environ, ATEN_CPU_CAPABILITY=level)
    res = subprocess.run([sys.executable, __file__, "--level", level], env=env, capture_output=True, text=True, check=True)
    levels[level] = json.loads(res.stdout)
import torch
json.dump({"torch": torch.__version__, "levels": levels}, open(sys.argv[1], "w"))
print({k: v["capability"] for k, v in levels.items()})
