"""Records what Lab 00's REPORT.md compares with PyTorch 2.6 beyond the lab's own script
(lab00.out, key_sets_and_modes.out): linear's backward graph as PyTorch builds it, and a
fingerprint of the lab's random inputs. examples/lab00.c reads the output while it writes the
report (each "the same as PyTorch" about node names or random numbers comes from comparing the
run with this file); tests/test_lab00_prose.c checks that the sentences follow the comparison.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/lab00_report.py torch-2.6/lab00_report.json

Output: a JSON object
  "torch": torch.__version__,
  "seed": the manual_seed the inputs were drawn with (the lab's default),
  "graph": y.grad_fn for y = linear(x, W, b), walked depth first through next_functions, one
           entry per edge: {"path": [index of each next_functions entry from the root],
           "name": type(node).__name__ or null for a None edge, "input_nr": the edge's number,
           "variable_shape": the leaf's shape for an AccumulateGrad, else null},
  "inputs": {"x"|"W"|"b": {"sizes": [...], "checksum": "0x%016x"}}, the checksum being the
           sum over i of (i + 1) * bits[i] modulo 2**64, bits the float32 bit patterns of the
           tensor's elements in row-major order.
"""
import json
import sys

import torch

SEED = 42
torch.manual_seed(SEED)
x = torch.randn(2, 64, requires_grad=True)
W = torch.randn(600, 64, requires_grad=True)
b = torch.randn(600, requires_grad=True)
y = torch.nn.functional.linear(x, W, b)

graph = []


def walk(fn, path, nr):
    if fn is None:
        graph.append({"path": path, "name": None, "input_nr": nr, "variable_shape": None})
        return
    var = list(fn.variable.shape) if hasattr(fn, "variable") else None
    graph.append({"path": path, "name": type(fn).__name__, "input_nr": nr, "variable_shape": var})
    for i, (nxt, n) in enumerate(fn.next_functions):
        walk(nxt, path + [i], n)


walk(y.grad_fn, [], 0)


def checksum(t):
    bits = t.detach().contiguous().view(torch.int32).flatten().tolist()
    s = 0
    for i, v in enumerate(bits):
        s = (s + (i + 1) * (v & 0xFFFFFFFF)) % (1 << 64)
    return "0x%016x" % s


out = {
    "torch": torch.__version__,
    "seed": SEED,
    "graph": graph,
    "inputs": {name: {"sizes": list(t.shape), "checksum": checksum(t)} for name, t in (("x", x), ("W", W), ("b", b))},
}
text = json.dumps(out, indent=1) + "\n"
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as f:
        f.write(text)
else:
    sys.stdout.write(text)
