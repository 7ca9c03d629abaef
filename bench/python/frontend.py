"""The Python front-end's benchmark: the same program under `ctorch python` and under PyTorch.
Prints one line per case, "NAME MICROSECONDS_PER_ITERATION", the median of 5 timed rounds:
  seed_step        the seed training step (MLP 16->32->4, ReLU, cross_entropy, SGD lr=0.1 step)
  seed_step_mode   the same step under a Python TorchDispatchMode that forwards every call
  add1             a 1-element add, no mode
  add1_mode        a 1-element add under a Python TorchDispatchMode that forwards the call
  mode_handler     the handler's own Python (a function of the same shape, called directly)
Usage: frontend.py [ITERATIONS]"""
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
torch.set_num_threads(1)  # one thread each: the ops are small, and threads only add waiting
print("torch", torch.__version__)


class Forward(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def timed(fn, iters):
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        rounds.append((time.perf_counter() - t0) / iters * 1e6)
    return statistics.median(rounds)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(1)
x = torch.randn(8, 16, generator=g)
y = torch.randint(0, 4, (8,), generator=g)


def step():
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()


a, b = torch.ones(1), torch.ones(1)


def add():
    torch.add(a, b)


mode = Forward()


def add_mode():
    with mode:
        torch.add(a, b)


def step_mode():
    with mode:
        step()


def handler_alone(func=None, types=(), args=(), kwargs=None):
    return (lambda *a, **k: None)(*args, **(kwargs or {}))


for name, fn, iters in (("seed_step", step, max(n // 10, 50)), ("seed_step_mode", step_mode, max(n // 20, 25)),
                        ("add1", add, n), ("add1_mode", add_mode, n), ("mode_handler", handler_alone, n)):
    for _ in range(min(iters, 100)):
        fn()
    print(f"{name} {timed(fn, iters):.3f}")
