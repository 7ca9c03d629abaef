"""What fixes PyTorch's float32 bits on this machine besides the program: the CPU capability
(ATen's kernels, and oneDNN's GELU at the matching instruction set), the kernel set OpenBLAS chose
for the CPU, and whether the environment forced one (OPENBLAS_CORETYPE). The tests compare this
with `ctorch -V` and require bit-identical results only where the two agree.

As a script: torchref record/torch_conditions.py OUT.json (writes this machine's conditions)."""
import ctypes
import json
import os
import sys


def blas_core():
    """The kernel set the BLAS torch loaded chose (OpenBLAS's core name), or None."""
    import torch
    torch.mm(torch.ones(2, 2), torch.ones(2, 2))  # the BLAS is loaded by now
    for line in open("/proc/self/maps"):
        path = line.split()[-1]
        if "blas" in os.path.basename(path) and path.startswith("/"):
            try:
                fn = ctypes.CDLL(path).openblas_get_corename
            except (OSError, AttributeError):
                continue
            fn.restype = ctypes.c_char_p
            return fn().decode()
    return None


def conditions():
    import torch
    return {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "blas_core": blas_core(), "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE")}


def write(path):
    with open(path, "w") as f:
        json.dump(conditions(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    write(sys.argv[1])
