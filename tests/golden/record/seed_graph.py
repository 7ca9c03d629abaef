"""The seed model's autograd graph as PyTorch 2.6 builds it: grad_fn names and next_functions,
walked depth first (None edges included), with the shape of each AccumulateGrad's variable."""
import sys, importlib.util
spec = importlib.util.spec_from_file_location("st", "../../../shared/reference/torch-2.6/seed_step_tracer.py")
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
g = torch.Generator().manual_seed(1); x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
loss = F.cross_entropy(model(x), y)
out = open(sys.argv[1], "w")
def walk(fn, nr, depth):
    if fn is None:
        out.write("  " * depth + f"None {nr}\n"); return
    extra = f" {list(fn.variable.shape)}" if hasattr(fn, "variable") else ""
    out.write("  " * depth + f"{type(fn).__name__} {nr}{extra}\n")
    for nxt, n in fn.next_functions: walk(nxt, n, depth + 1)
walk(loss.grad_fn, 0, 0)
out.write(repr(loss.grad_fn).split(" object at")[0] + ">\n")
