"""The PyTorch side of bench_dispatch: the same operations through PyTorch's Python API, timed
the same way (best of 5 loops after a warm-up of a tenth), one thread. Prints "name ns_per_call"
lines for bench_dispatch to read
(and a "# ..." line naming the version).

    python pytorch_bench.py [ITERS] [STEPS]

minigpt_step is one training step of minigpt.py's MiniGPT with its default options (its own
classes, imported from tests/golden/record/minigpt.py): forward with cross_entropy, backward,
clip_grad_norm_(1.0), AdamW as make_optimizer builds it, zero_grad(set_to_none=True), l.item().
"""
import os
import sys
import time

import torch

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden", "record"))
import minigpt  # noqa: E402


def ns_per_call(f, iters):
    for _ in range(iters // 10):
        f()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter_ns()
        for _ in range(iters):
            f()
        best = min(best, (time.perf_counter_ns() - t0) / iters)
    return best


def main():
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.set_num_threads(1)
    print("# PyTorch %s" % torch.__version__, flush=True)
    a, b = torch.ones(1), torch.ones(1)
    a32, b32 = torch.ones(32, 32), torch.ones(32, 32)
    print("add_1elem %.1f" % ns_per_call(lambda: torch.add(a, b), iters), flush=True)
    print("add_inplace_1elem %.1f" % ns_per_call(lambda: a.add_(b, alpha=0.0), iters), flush=True)
    print("empty_1elem %.1f" % ns_per_call(lambda: torch.empty(1), iters), flush=True)
    print("mm_32x32 %.1f" % ns_per_call(lambda: torch.mm(a32, b32), iters // 10), flush=True)

    c = minigpt.Config()
    torch.manual_seed(0)
    model = minigpt.MiniGPT(c)
    opt = minigpt.make_optimizer(model, 3e-3, 0.1)
    x, y = minigpt.make_batch(c, 4, 1)

    def step():
        _, loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        loss.item()

    print("minigpt_step %.1f" % ns_per_call(step, steps), flush=True)


if __name__ == "__main__":
    main()
