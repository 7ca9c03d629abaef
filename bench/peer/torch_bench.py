"""The PyTorch side of the comparison benchmark: the cases of bench/bench_ctorch.c in Python, with
the same protocol and timing rule. The same script runs under every PyTorch release compared
(1.13 and 2.6 at the time of writing).

    python3 torch_bench.py --threads T --cases ID[,ID...] [--warmup-ms MS] [--batch-ms MS] [--batches N]

The thread count is pinned before torch is imported (the BLAS reads OPENBLAS_NUM_THREADS when it
loads) and with torch.set_num_threads; the BLAS's own count is read back from the library.
"""
import argparse
import json
import os
import resource
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, required=True)
ap.add_argument("--cases", required=True)
ap.add_argument("--warmup-ms", type=float, default=20.0)
ap.add_argument("--batch-ms", type=float, default=30.0)
ap.add_argument("--batches", type=int, default=3)
opts = ap.parse_args()
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(opts.threads)

import torch  # noqa: E402  (after the environment is set)
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

torch.set_num_threads(opts.threads)


def emit(obj):
    print(json.dumps(obj), flush=True)


def blas_info():
    """The OpenBLAS loaded into this process and its thread count, as the library reports them."""
    import ctypes
    try:
        with open("/proc/self/maps") as fh:
            paths = {line.split()[-1] for line in fh if "openblas" in line and "/" in line}
    except OSError:
        paths = set()
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_config.restype = ctypes.c_char_p
            return lib.openblas_get_config().decode(), int(lib.openblas_get_num_threads())
        except (OSError, AttributeError):
            continue
    return "none found", -1


class LoggingMode(TorchDispatchMode):
    """A dispatch mode that appends str(func) of every op to a list."""

    def __init__(self):
        super().__init__()
        self.log = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))


class Case:
    """run() is the timed call; begin()/end() switch an observer on and off around a batch."""

    def __init__(self, run, begin=None, end=None):
        self.run, self.begin, self.end = run, begin, end


def measure(case_id, c):
    now = time.perf_counter_ns
    if c.begin:
        c.begin()
    n, t0 = 0, now()
    el = first = 0
    while n < 2 or el < opts.warmup_ms * 1e6:
        c.run()
        n += 1
        el = now() - t0
        if n == 1:
            first = el
    if c.end:
        c.end()
    # the rate that sizes the batches leaves out the first call (first-use costs)
    iters = max(1, int(opts.batch_ms * 1e6 / max(1, (el - first) / (n - 1))))
    run = c.run

    def batch(observed):
        if observed and c.begin:
            c.begin()
        s = now()
        for _ in range(iters):
            run()
        t = round((now() - s) / iters, 2)
        if observed and c.end:
            c.end()
        return t

    # a case with an observer times a batch without it next to each observed batch (in
    # alternating order): its cost is measured under the same load of the machine
    paired = c.begin is not None
    ns, plain = [], []
    for b in range(opts.batches):
        if not paired:
            ns.append(batch(True))
            continue
        for k in (0, 1):
            if k == b % 2:
                ns.append(batch(True))
            else:
                plain.append(batch(False))
    out = {"case": case_id, "iters": iters, "ns": ns}
    if paired:
        out["plain_ns"] = plain
    emit(out)


def with_mode(run):
    """The case under a fresh logging mode per batch (the list starts empty each batch)."""
    holder = {}

    def begin():
        holder["m"] = LoggingMode()
        holder["m"].__enter__()

    def end():
        holder.pop("m").__exit__(None, None, None)

    return Case(run, begin, end)


def with_profiler(run):
    holder = {}

    def begin():
        holder["p"] = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
        holder["p"].__enter__()

    def end():
        holder.pop("p").__exit__(None, None, None)

    return Case(run, begin, end)


def make_step(hidden):
    """Sequential(Linear(16, 32), ReLU(), [Linear(32, 32), ReLU()] * (hidden - 1), Linear(32, 4)),
    batch 8, cross_entropy, SGD(lr=0.1); one step = zero_grad(set_to_none=True), forward, loss,
    backward, step."""
    torch.manual_seed(0)
    layers = [nn.Linear(16, 32), nn.ReLU()]
    for _ in range(hidden - 1):
        layers += [nn.Linear(32, 32), nn.ReLU()]
    layers.append(nn.Linear(32, 4))
    model = nn.Sequential(*layers)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 16)
    y = torch.randint(0, 4, (8,))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    return step


def make_minigpt_step():
    """minigpt.py's MiniGPT with its default options, its own classes (tests/golden/record/
    minigpt.py); one step = forward with cross_entropy, backward, clip_grad_norm_(1.0), AdamW as
    make_optimizer builds it, zero_grad(set_to_none=True), loss.item()."""
    sys.dont_write_bytecode = True  # nothing written into the source tree
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden", "record"))
    import minigpt  # noqa: E402
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

    return step


def square(n):
    return torch.randn(n, n), torch.randn(n, n), torch.randn(n)


SKIPPED = {
    "noop_op": "a custom op's kernel would be Python code: not comparable",
    "step_trace": "no decision trace in PyTorch's release builds",
}


LARGE = ("add", "add_inplace", "mul_bcast", "sum", "sum0", "softmax", "softmax0", "layer_norm", "gelu", "adamw")


def build_large(case_id):
    """ID_1e6 / ID_1e7: a [1000, 1000] or [1000, 10000] float32 tensor of randn values (as
    bench/bench_ctorch.c builds them); None when case_id is no such case."""
    name, _, size = case_id.rpartition("_")
    if name not in LARGE or size not in ("1e6", "1e7"):
        return None
    cols = 1000 if size == "1e6" else 10000
    a, b, row, w, bias = torch.randn(1000, cols), torch.randn(1000, cols), torch.randn(cols), torch.randn(cols), torch.randn(cols)
    if name == "add":
        return Case(lambda: torch.add(a, b))
    if name == "add_inplace":
        return Case(lambda: a.add_(b))
    if name == "mul_bcast":
        return Case(lambda: torch.mul(a, row))
    if name == "sum":
        return Case(lambda: torch.sum(a))
    if name == "sum0":
        return Case(lambda: torch.sum(a, 0))
    if name == "softmax":
        return Case(lambda: torch.softmax(a, -1))
    if name == "softmax0":
        return Case(lambda: torch.softmax(a, 0))
    if name == "layer_norm":
        return Case(lambda: F.layer_norm(a, (cols,), w, bias, 1e-5))
    if name == "gelu":
        return Case(lambda: F.gelu(a))
    # adamw: one parameter with a gradient, AdamW with PyTorch's defaults, one step per call
    p = nn.Parameter(a)
    p.grad = b
    opt = torch.optim.AdamW([p])
    return Case(opt.step)


FAMILY = ("exp", "bcast_mul", "gt", "sum_last", "sum_dim0", "var", "cumsum", "sort", "topk", "index", "gather",
          "scatter_add", "max_pool2d", "batch_norm")


def build_family(case_id):
    """ID_n1e2 / ID_n1e4 / ID_n1e6: a [10, 10], [100, 100] or [1000, 1000] float32 tensor of randn
    values, and conv2d (as bench/bench_ctorch.c builds them); None when case_id is no such case."""
    if case_id == "conv2d":
        x, w, b = torch.randn(8, 3, 32, 32), torch.randn(16, 3, 3, 3), torch.randn(16)
        return Case(lambda: F.conv2d(x, w, b, 1, 1))
    name, _, size = case_id.rpartition("_")
    if name not in FAMILY or size not in ("n1e2", "n1e4", "n1e6"):
        return None
    n = {"n1e2": 10, "n1e4": 100, "n1e6": 1000}[size]
    a, b, row = torch.randn(n, n), torch.randn(n, n), torch.randn(n)
    rows_idx, idx = torch.randperm(n), torch.randint(0, n, (n, n))
    img = a.view(1, 1, n, n)
    rm, rv, w, bias = torch.zeros(n), torch.ones(n), torch.randn(n), torch.randn(n)
    run = {
        "exp": lambda: torch.exp(a),
        "bcast_mul": lambda: torch.mul(a, row),
        "gt": lambda: torch.gt(a, b),
        "sum_last": lambda: torch.sum(a, -1),
        "sum_dim0": lambda: torch.sum(a, 0),
        "var": lambda: torch.var(a, -1),
        "cumsum": lambda: torch.cumsum(a, -1),
        "sort": lambda: torch.sort(a, -1),
        "topk": lambda: torch.topk(a, 5, -1),
        "index": lambda: a[rows_idx],
        "gather": lambda: torch.gather(a, 1, idx),
        "scatter_add": lambda: torch.scatter_add(a, 1, idx, b),
        "max_pool2d": lambda: F.max_pool2d(img, 2),
        "batch_norm": lambda: F.batch_norm(a, rm, rv, w, bias, True, 0.1, 1e-5),
    }[name]
    return Case(run)


def build(case_id):
    large = build_large(case_id)
    if large is not None:
        return large
    fam = build_family(case_id)
    if fam is not None:
        return fam
    a, b = torch.ones(1), torch.ones(1)
    if case_id == "add1":
        return Case(lambda: torch.add(a, b))
    if case_id == "add1_mode":
        return with_mode(lambda: torch.add(a, b))
    if case_id == "add1_inplace":
        return Case(lambda: a.add_(b))
    if case_id == "empty1":
        return Case(lambda: torch.empty(1))
    if case_id == "mm32":
        x, w, _ = square(32)
        return Case(lambda: torch.mm(x, w))
    if case_id in ("linear_fwd", "linear_fwdbwd"):
        x, w, bias = torch.randn(2, 64), torch.randn(600, 64), torch.randn(600)
        if case_id == "linear_fwd":
            return Case(lambda: F.linear(x, w, bias))
        w.requires_grad_(True)
        bias.requires_grad_(True)
        # y.sum().backward(): the gradients accumulate over the calls
        return Case(lambda: F.linear(x, w, bias).sum().backward())
    if case_id in ("step", "step_d4", "step_d16", "step_d64"):
        return Case(make_step(1 if case_id == "step" else int(case_id[6:])))
    if case_id == "step_mode":
        return with_mode(make_step(1))
    if case_id == "step_profiler":
        return with_profiler(make_step(1))
    if case_id == "minigpt_step":
        return Case(make_minigpt_step())
    if case_id in ("addmm256", "addmm2048"):
        x, w, bias = square(256 if case_id == "addmm256" else 2048)
        return Case(lambda: torch.addmm(bias, x, w))
    if case_id == "mm2048":
        x, w, _ = square(2048)
        return Case(lambda: torch.mm(x, w))
    return None


def main():
    blas, blas_threads = blas_info()
    emit({"meta": {"program": "torch", "version": torch.__version__,
                   "python": sys.version.split()[0], "threads": opts.threads,
                   "intra_op_threads": torch.get_num_threads(), "blas": blas,
                   "blas_threads": blas_threads}})
    for case_id in filter(None, opts.cases.split(",")):
        if case_id in SKIPPED:
            emit({"case": case_id, "skip": SKIPPED[case_id]})
            continue
        if case_id == "minigpt_step" and tuple(int(v) for v in torch.__version__.split(".")[:2]) < (2, 1):
            emit({"case": case_id, "skip": "minigpt.py needs PyTorch 2.1 or later (LayerNorm's bias argument)"})
            continue
        try:
            c = build(case_id)
            if c is None:
                emit({"case": case_id, "skip": "not a case of this program"})
                continue
            measure(case_id, c)
        except Exception as e:  # a failing case is reported, the others still run
            emit({"case": case_id, "error": "%s: %s" % (type(e).__name__, str(e)[:300])})
    emit({"end": {"max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}})


main()
