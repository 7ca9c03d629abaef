"""The seed script's traced step (forward, backward and the SGD step of the 16-32-4 MLP under a
dispatch mode, with those phases) recorded by tools/trace_torch.py in the trace-file schema:
what the seed script's OpCounter sees, op by op, with every argument. ctorch's
`ctorch step --seed N --trace FILE` writes the same step; tests/test_trace_diff.c compares them
with `ctorch diff`.

    flock /tmp/torchref.lock ../shared/tools/torchref tests/golden/record/seed_step_trace.py SEED OUT
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import trace_torch  # noqa: E402


def make_batch(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(8, 16, generator=g)
    y = torch.randint(0, 4, (8,), generator=g)
    return x, y


def make_model(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def traced_step(seed, out):
    # as the seed script's traced_step, with the trace recorder in place of OpCounter
    model = make_model(seed)
    x, y = make_batch(seed + 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    program = "ctorch step --seed %d --trace (traced_step)" % seed
    with trace_torch.TraceMode(out, program=program, seed=seed) as rec:
        rec.phase = "forward"
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        rec.phase = "backward"
        loss.backward()
        rec.phase = "optimizer"
        opt.step()
        rec.phase = None


if __name__ == "__main__":
    torch.set_num_threads(1)
    traced_step(int(sys.argv[1]), sys.argv[2])
