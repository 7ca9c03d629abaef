"""Lab 00's linear(x, W, b) and the calls it is compared with, recorded by tools/trace_torch.py in
the trace-file schema (what a dispatch mode sees, with every argument): the same programs as
`ctorch trace --mode` runs. tests/test_trace_diff.c compares each with ctorch's.

    flock /tmp/torchref.lock ../shared/tools/torchref tests/golden/record/linear_traces.py OUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import torch  # noqa: E402
import trace_torch  # noqa: E402

# name: (call, dtype, grad mode, backward)
VARIANTS = {
    "linear_backward": ("linear", "float32", "grad", True),
    "addmm": ("addmm", "float32", "grad", False),
    "matmul_add": ("matmul_add", "float32", "grad", False),
    "linear_float16": ("linear", "float16", "grad", False),
    "linear_no_grad": ("linear", "float32", "no_grad", False),
    "linear_inference_mode": ("linear", "float32", "inference_mode", False),
}

if __name__ == "__main__":
    torch.set_num_threads(1)
    out = sys.argv[1]
    for name, (call, dtype, grad_mode, backward) in VARIANTS.items():
        trace_torch.run_linear(os.path.join(out, "linear_trace_%s.jsonl" % name), call, dtype, grad_mode, 42, backward)
