"""Runs a batch of generated programs and prints one JSON line per program.

Run by `ctorch python` and by PyTorch 2.6 alike (the same file, the same programs):

    harness.py BATCH.json [FIRST]

BATCH.json holds {"programs": [{"id", "src"}, ...]}. Each program is run in a namespace of its own
after torch.manual_seed(0); it builds its inputs with T() and leaves what it computed in `out`
(and may name leaves in `leaves`, whose gradients are read after `backward`). Printed per program:
{"id", "out": <value>} or {"id", "error": [type, first line of the message]}, and "grads" when the
program called backward. FIRST skips the programs before it (a crashed run is resumed after the
program that crashed).
"""
import json
import math
import sys

import torch

DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
    "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


def _values(n, seed):
    """n numbers in [-4, 4) with two decimals, from a 32-bit LCG: the same on every interpreter."""
    out = []
    s = (seed * 2654435761 + 12345) & 0xFFFFFFFF
    for _ in range(n):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(((s >> 8) % 800 - 400) / 100.0)
    return out


def T(shape, dtype="float32", seed=0, grad=False, positive=False):
    """A tensor of `shape` and `dtype` with deterministic values (a leaf, requiring grad if asked)."""
    n = 1
    for s in shape:
        n *= s
    vals = _values(n, seed)
    if positive:
        vals = [abs(v) + 0.25 for v in vals]
    dt = DTYPES[dtype]
    if dt == torch.bool:
        vals = [v > 0 for v in vals]
    elif dt in (torch.int64, torch.int32, torch.int16, torch.int8):
        vals = [int(round(v * 2)) for v in vals]
    elif dt == torch.uint8:
        vals = [int(round(abs(v) * 3)) for v in vals]
    # clone: a leaf of its own, not a view of the flat tensor reshape made
    t = torch.tensor(vals, dtype=torch.float64 if dt.is_floating_point else dt).reshape(shape).clone().to(dt)
    if grad:
        t.requires_grad_(True)
    return t


def I(shape, high, seed=0, dtype="int64"):
    """An index tensor of `shape` with values in [0, high) (deterministic)."""
    n = 1
    for s in shape:
        n *= s
    vals = [int((v + 4.0) * 100) % max(high, 1) for v in _values(n, seed + 101)]
    return torch.tensor(vals, dtype=DTYPES[dtype]).reshape(shape)


def encode(v, depth=0):
    if depth > 4:
        return {"repr": "deep"}
    if isinstance(v, torch.Tensor):
        d = {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape),
             "stride": list(v.stride()), "rg": bool(v.requires_grad)}
        d["v"] = [(_num(x)) for x in v.detach().reshape(-1).tolist()] if v.numel() <= 4096 else "large"
        return d
    if isinstance(v, (list, tuple)):
        return {"seq": [encode(x, depth + 1) for x in v]}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, (int, float)):
        return {"num": _num(v)}
    if v is None:
        return {"none": True}
    if isinstance(v, torch.dtype):
        return {"dtype_obj": str(v)}
    if isinstance(v, torch.Size):
        return {"seq": [encode(x) for x in v]}
    return {"type": type(v).__name__}


def _num(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
    return x


def run(prog):
    torch.manual_seed(0)
    env = {"torch": torch, "T": T, "I": I}
    res = {"id": prog["id"]}
    try:
        exec(prog["src"], env)
        res["out"] = encode(env.get("out"))
        if "grads" in env:
            res["grads"] = encode(env["grads"])
    except Exception as e:  # the comparison is the point: every exception is a result
        msg = str(e).strip().split("\n")[0]
        res["error"] = [type(e).__name__, msg]
    return res


def main():
    batch = json.load(open(sys.argv[1]))
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for prog in batch["programs"][first:]:
        print("@" + prog["id"], flush=True)  # which program a crash happened in
        print(json.dumps(run(prog)), flush=True)


if __name__ == "__main__":
    main()
