"""Replays the advanced-indexing family's test table (tests/golden/record/index_ops.py, recorded
under PyTorch 2.6) through ctorch: each case's statements run as the recorder ran them, and `out`
compared: values (exactly: indexing copies elements, and the accumulating cases add small
integers), dtype and shape, or the error's type and message, and for the log cases the operators a
dispatch mode sees, in order. A float16/bfloat16 value is compared as the float64 it converts to.

Usage: ctorch python tests/python/index_ops.py tests/golden/torch-2.6/index_ops.json [-v]"""
import json
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def encode(v):
    if isinstance(v, torch.Tensor):
        t = v.detach()
        vals = t.to(torch.float64).tolist() if t.dtype in (torch.float16, torch.bfloat16) else t.tolist()
        return {"tensor": vals, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)}
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, (tuple, list)):
        return {"tuple": [encode(e) for e in v]}
    return {"py": v}


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def run(c):
    env = {"torch": torch, "T": torch.tensor}
    got = {}
    try:
        if "log" in c:
            with Log() as m:
                exec(c["code"], env)
            got["log"] = m.ops
        else:
            exec(c["code"], env)
        got["result"] = encode(env.get("out"))
    except Exception as e:  # noqa: BLE001 - compared with the recorded error
        got["error"] = {"type": type(e).__name__, "message": str(e)}
    return got


def main():
    table = json.load(open(sys.argv[1]))
    verbose = "-v" in sys.argv
    passed, failed = 0, []
    for c in table["cases"]:
        got = run(c)
        want = {k: c[k] for k in ("log", "result", "error") if k in c}
        if got == want:
            passed += 1
        else:
            failed.append((c["id"], want, got))
    for cid, want, got in failed:
        print(f"FAIL {cid}")
        if verbose:
            print("  want", json.dumps(want)[:600])
            print("  got ", json.dumps(got)[:600])
    n = len(table["cases"])
    print(f"index_ops: {passed}/{n} cases pass")
    sys.exit(0 if passed == n else 1)


if __name__ == "__main__":
    main()
