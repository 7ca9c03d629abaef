"""The float32 kernels ctorch runs in PyTorch's own order, as PyTorch 2.6 computes them at each CPU
capability: native_layer_norm (+ backward), _softmax, _softmax_backward_data, _log_softmax,
_log_softmax_backward_data (over the last dimension; over dim 0 and a middle one of a few shapes,
"softmax_dim{d}_{shape}", whose softmax forward depends on the threads' split, the large one's
forward only; the softmax backward over another one too)
nll_loss_forward, GELU and its backward (oneDNN's kernel for a contiguous float32 tensor) and
linalg_vector_norm's 2-norm over contiguous runs, with ATEN_CPU_CAPABILITY=default, avx2 and
avx512 and oneDNN's instruction set capped to match (ONEDNN_MAX_CPU_ISA=SSE41, AVX2, and none at
avx512) (one process per level and thread count: one thread, "levels", and two, "levels_2threads",
where layer norm's weight and bias gradients are summed per thread and can differ). Inputs: v(i, salt) = (((i * 7919 + salt * 104729) % 1999) - 999) / 37.0 / div, rounded
to float32, which a C program rebuilds bit for bit. Output: {"torch": version, "levels": {level:
{"capability": what PyTorch reports, "cases": {name: [outputs as lists of float32 bit patterns
in hex, row-major]}}}}."""
import json, os, struct, subprocess, sys

def v(n, salt, div):
    return [(((i * 7919 + salt * 104729) % 1999) - 999) / 37.0 / div for i in range(n)]

def run(threads):
    import torch
    torch.set_num_threads(threads)
    f32 = torch.float32
    def t(shape, salt, div):
        n = 1
        for s in shape: n *= s
        return torch.tensor(v(n, salt, div), dtype=f32).reshape(shape)
    def hx(x):
        return [struct.pack("<f", e).hex() for e in x.contiguous().reshape(-1).tolist()]
    cases = {}
    for rows, n, affine in ((6, 64, True), (3, 37, True), (3, 37, False), (2, 300, True), (1, 2100, True)):
        x = t([rows, n], 0, 10.0)
        w = t([n], 1, 20.0) if affine else None
        b = t([n], 2, 20.0) if affine else None
        y, mean, rstd = torch.ops.aten.native_layer_norm(x, [n], w, b, 1e-5)
        dy = t([rows, n], 3, 30.0)
        dx, dw, db = torch.ops.aten.native_layer_norm_backward(dy, x, [n], mean, rstd, w, b, [True, affine, affine])
        outs = [y, mean, rstd, dx] + ([dw, db] if affine else [])
        cases[f"layer_norm_{rows}x{n}{'' if affine else '_plain'}"] = [hx(o) for o in outs]
    for shape in ([5, 32], [3, 600], [2, 7], [4, 45]):
        x = t(shape, 4, 3.0)
        y = torch.ops.aten._softmax(x, -1, False)
        g = t(shape, 5, 10.0)
        gi = torch.ops.aten._softmax_backward_data(g, y, -1, f32)
        ly = torch.ops.aten._log_softmax(x, -1, False)
        lgi = torch.ops.aten._log_softmax_backward_data(g, ly, -1, f32)
        cases["softmax_" + "x".join(map(str, shape))] = [hx(y), hx(gi), hx(ly), hx(lgi)]
    for shape, d in (([37, 203], 0), ([3, 11, 29], 1), ([3, 11, 29], 0), ([2, 16400], 0)):
        x = t(shape, 15, 3.0)
        y = torch.ops.aten._softmax(x, d, False)
        outs = [hx(y)]
        if x.numel() < 32768:  # the large one: the forward only, to keep the file small
            g = t(shape, 16, 10.0)
            ly = torch.ops.aten._log_softmax(x, d, False)
            outs += [hx(torch.ops.aten._softmax_backward_data(g, y, d, f32)), hx(ly),
                     hx(torch.ops.aten._log_softmax_backward_data(g, ly, d, f32))]
        cases[f"softmax_dim{d}_" + "x".join(map(str, shape))] = outs
    y = t([4, 6, 5], 6, 30.0)  # any output: the backward's arithmetic over dim 1
    cases["softmax_backward_dim1_4x6x5"] = [hx(torch.ops.aten._softmax_backward_data(t([4, 6, 5], 7, 10.0), y, 1, f32))]
    for batch, classes in ((40, 7), (300, 11)):
        lp = torch.ops.aten._log_softmax(t([batch, classes], 8, 3.0), -1, False)
        target = torch.tensor([(i * 5) % classes for i in range(batch)])
        w = t([classes], 9, 50.0) + 1.0
        outs = []
        for weight, red, ignore in ((None, 1, -100), (None, 2, -100), (w, 1, -100), (w, 2, 2), (None, 1, 3)):
            o, tw = torch.ops.aten.nll_loss_forward(lp, target, weight, red, ignore)
            outs += [hx(o), hx(tw)]
        cases[f"nll_loss_{batch}x{classes}"] = outs
    x = t([4099], 10, 1.5)
    dy = t([4099], 11, 10.0)
    cases["gelu_4099"] = [hx(torch.nn.functional.gelu(x)), hx(torch.ops.aten.gelu_backward(dy, x))]
    special = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 1e-40, 5.54, 5.55, -5.55, 40.0, -40.0, 88.0, -88.0,
                            float("inf"), float("-inf"), float("nan")], dtype=f32)
    cases["gelu_special"] = [hx(torch.nn.functional.gelu(special)),
                             hx(torch.ops.aten.gelu_backward(torch.ones(special.numel()), special))]
    sizes = list(range(1, 41)) + [100, 129, 1000]
    cases["norm2_sizes"] = [hx(torch.stack([torch.linalg.vector_norm(t([n], 13, 0.5)) for n in sizes]))]
    m = t([37, 53], 14, 2.0)
    cases["norm2_37x53"] = [hx(torch.linalg.vector_norm(m, dim=-1)), hx(torch.linalg.vector_norm(m)),
                            hx(torch.linalg.vector_norm(m.reshape(37, 1, 53), dim=(1, 2), keepdim=True))]
    return {"capability": torch.backends.cpu.get_cpu_capability(), "cases": cases}

if len(sys.argv) > 3 and sys.argv[1] == "--level":
    print(json.dumps(run(int(sys.argv[3]))))
    sys.exit(0)
out = {}
for key, threads in (("levels", 1), ("levels_2threads", 2)):
    levels = out[key] = {}
    for level in ("default", "avx2", "avx512"):
        env = dict(os.environ, ATEN_CPU_CAPABILITY=level)
        if level != "avx512":
            env["ONEDNN_MAX_CPU_ISA"] = {"default": "SSE41", "avx2": "AVX2"}[level]
        res = subprocess.run([sys.executable, __file__, "--level", level, str(threads)], env=env, capture_output=True, text=True,
                             check=True)
        levels[level] = json.loads(res.stdout)
import torch
json.dump(dict(torch=torch.__version__, **out), open(sys.argv[1], "w"))
print({k: v["capability"] for k, v in out["levels"].items()})
