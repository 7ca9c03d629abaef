#!/usr/bin/env python3
"""Runs ctorch and its peers on the same cases, interleaved, and prints one table.

    python3 bench/compare.py [--build DIR] [--rounds N] [--cases ID,...] [--programs NAME,...]

Python 3 standard library only. Every program (bench/bench_ctorch.c, bench/peer/libtorch_bench.cpp,
bench/peer/torch_bench.py under each PyTorch, bench/peak/fma_peak.c) takes a case list and prints
JSON lines of raw timings (the protocol is described in bench/bench_ctorch.c). In each round every
program runs every case of each group once, in one process per group, the programs' order rotating
from round to round; a case's value in a round is its fastest timed batch: batches are short (5 ms)
and many (10), so that on a shared machine some of them run without being preempted (other work
only ever slows a batch down). The table gives
per case and program the median of the rounds, the spread of the rounds, and ratios
peer / ctorch computed from the medians (> 1: ctorch is faster).

To add a case: a line in CASES, and the case in each program that has it (a program that does not
know a case reports it skipped and its cell shows "—"). To add a peer: a line in programs().
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Case:
    """id: the name every program knows it by; group: cases run in one process together (a
    group's max RSS is reported); flops: for GF/s and % of the FMA peak; base: the case this one
    adds an observer to (its cost is shown in % over base)."""

    def __init__(self, cid, label, group="small", flops=None, base=None, obs=None, values=False):
        self.id, self.label, self.group, self.flops, self.values = cid, label, group, flops, values
        self.base, self.obs = base, obs


CASES = [
    Case("add1", "add, 1 element (new tensor)"),
    Case("add1_mode", "  the same under an op-logging mode", base="add1",
         obs="add: op-logging mode, cost"),
    Case("add1_inplace", "add_, 1 element (in place)"),
    Case("empty1", "empty([1])"),
    Case("noop_op", "custom op, kernel returns its input"),
    Case("mm32", "mm 32x32"),
    Case("linear_fwd", "lab linear: x 2x64, W 600x64, b 600"),
    Case("linear_fwdbwd", "  forward + y.sum().backward()"),
    Case("step", "seed MLP step (16-32-4, b8, CE, SGD)"),
    Case("step_mode", "  under an op-logging dispatch mode", base="step",
         obs="step: op-logging mode, cost"),
    Case("step_profiler", "  under the profiler", base="step", obs="step: profiler, cost"),
    Case("step_trace", "  with the decision trace collected", base="step",
         obs="step: decision trace, cost"),
    Case("step_d4", "  4 hidden layers (width 32)"),
    Case("step_d16", "  16 hidden layers"),
    Case("step_d64", "  64 hidden layers"),
    Case("minigpt_step", "MiniGPT training step (minigpt.py defaults)", group="gpt"),
    Case("addmm256", "addmm 256x256x256, bias [256]", flops=2 * 256 ** 3),
    Case("addmm2048", "addmm 2048x2048x2048, bias [2048]", group="gemm", flops=2 * 2048 ** 3),
    Case("mm2048", "mm 2048x2048x2048", group="gemm", flops=2 * 2048 ** 3),
    Case("rss_loop", "seed-step loop: RSS at step 100, 1k->10k", group="loop", values=True),
    Case("rss_loop_trace", "  the same, decision trace collected", group="loop_trace", values=True),
    Case("fma_peak", "FMA peak", group="peak", values=True),
]
# Large float32 tensors, the ops PyTorch splits over its intra-op threads: [1000, 1000] (1e6) and
# [1000, 10000] (1e7) elements of randn values, one call per unit (AdamW: one step of one parameter
# of that size, PyTorch's default options). Group "large": the PyTorch columns run it at 1 and 2
# threads whatever --python-threads says.
LARGE_OPS = [
    ("add", "add (new output)"), ("add_inplace", "add_ (in place)"), ("mul_bcast", "mul, [1000, C] * [C]"),
    ("sum", "sum of all"), ("sum0", "sum over dim 0"), ("softmax", "softmax over the last dim"),
    ("softmax0", "softmax over dim 0"), ("layer_norm", "layer_norm over the last dim"), ("gelu", "gelu"),
    ("adamw", "AdamW step, one parameter"),
]
for _size, _cols in (("1e6", 1000), ("1e7", 10000)):
    CASES += [Case("%s_%s" % (_op, _size), "%s, 1000x%d" % (_label, _cols), group="large") for _op, _label in LARGE_OPS]
# The operator families at 1e2, 1e4 and 1e6 float32 elements ([10, 10], [100, 100], [1000, 1000] of
# randn values; reductions, scans, sort and topk along the last dim unless named; batch_norm in
# training mode with running statistics; index: a[randperm(R)]; gather / scatter_add along dim 1),
# and one conv2d. Group "ops": like "large", the PyTorch columns run it at 1 and 2 threads.
FAMILY_OPS = [
    ("exp", "exp"), ("bcast_mul", "mul, [R, C] * [C]"), ("gt", "gt (a > b)"), ("sum_last", "sum over the last dim"),
    ("sum_dim0", "sum over dim 0"), ("var", "var over the last dim"), ("cumsum", "cumsum"), ("sort", "sort"),
    ("topk", "topk, k=5"), ("index", "index, a[idx] (rows)"), ("gather", "gather"), ("scatter_add", "scatter_add"),
    ("max_pool2d", "max_pool2d 2x2, [1, 1, R, C]"), ("batch_norm", "batch_norm (training), N=R, C"),
]
for _size, _n in (("n1e2", 10), ("n1e4", 100), ("n1e6", 1000)):
    CASES += [Case("%s_%s" % (_op, _size), "%s, %dx%d" % (_label, _n, _n), group="ops") for _op, _label in FAMILY_OPS]
CASES.append(Case("conv2d", "conv2d N=8, 3->16, 32x32, 3x3, padding 1", group="ops"))
GROUP_LABELS = {"small": "max RSS, small cases (MB)", "gemm": "max RSS, 2048 GEMM cases (MB)"}
# batches per round where --batches would take too long: a 2048 GEMM call takes 0.1-0.3 s
GROUP_BATCHES = {"gemm": 3}


class Program:
    """A column of the table (or, with column=False, a measurement printed in the header)."""

    def __init__(self, name, threads, cmd, groups, env=None, missing=None, column=True, is_ctorch=False):
        self.name, self.threads, self.cmd, self.groups = name, threads, cmd, groups
        self.env = env or {}
        self.missing = missing  # why it cannot run, or None
        self.column, self.is_ctorch = column, is_ctorch
        self.meta = None
        self.runs = {}  # case id -> list of round values
        self.rss = {}  # group -> list of max RSS (kB) per round
        self.obs = {}  # observer case id -> its cost over the paired plain batches, per round
        self.notes = {}  # case id -> skip/error text

    @property
    def key(self):
        return "%s %dt" % (self.name, self.threads)


def thread_env(t):
    return {v: str(t) for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "BLIS_NUM_THREADS", "MKL_NUM_THREADS")}


def programs(a):
    b = os.path.join(a.build, "bench")
    small = ["small", "gpt", "gemm", "large", "ops"]
    out = []

    def exe(name):
        p = os.path.join(b, name)
        return None if os.access(p, os.X_OK) else "%s not built" % os.path.relpath(p, ROOT)

    for t in (1, 2):
        groups = small + (["loop", "loop_trace"] if t == 1 else [])
        out.append(Program("ctorch", t, [os.path.join(b, "bench_ctorch")], groups, thread_env(t),
                           exe("bench_ctorch"), is_ctorch=True))
    for t in (1, 2):
        out.append(Program("libtorch", t, [os.path.join(b, "libtorch_bench")], small, thread_env(t),
                           exe("libtorch_bench")))
    script = os.path.relpath(os.path.join(HERE, "peer", "torch_bench.py"), ROOT)
    # the large and operator-family cases at 1 and 2 threads in every PyTorch column; the others at --python-threads
    py_threads = sorted(set(a.python_threads) | {1, 2})

    def py_groups(t):
        return small if t in a.python_threads else ["large", "ops"]
    for t in py_threads:
        miss = None if os.access(a.python, os.X_OK) else "%s not found" % a.python
        out.append(Program("PyTorch 1.13", t, [a.python, script], py_groups(t), thread_env(t), miss))
    for t in py_threads:
        miss = None if os.access(a.torchref, os.X_OK) else "%s not found" % a.torchref
        # the reference runner is shared by everyone on the machine: a lock serialises its runs
        out.append(Program("PyTorch 2.6", t, ["flock", a.torchref_lock, a.torchref, script], py_groups(t),
                           thread_env(t), miss))
    if a.baseline:
        # another build of ctorch (e.g. main's), as a peer: its ratio says how this one compares
        bb = os.path.join(os.path.abspath(a.baseline), "bench", "bench_ctorch")
        for t in (1, 2):
            out.append(Program("ctorch base", t, [bb], small, thread_env(t),
                               None if os.access(bb, os.X_OK) else "%s not built" % bb))
    for t in (1, 2):
        out.append(Program("FMA peak", t, [os.path.join(b, "fma_peak")], ["peak"], thread_env(t),
                           exe("fma_peak"), column=False))
    return out


def run_group(p, group, cases, a):
    """Runs program p on a group's cases once; records each case's round value."""
    ids = [c.id for c in cases]
    cmd = p.cmd + ["--threads", str(p.threads), "--cases", ",".join(ids), "--warmup-ms", str(a.warmup_ms),
                   "--batch-ms", str(a.batch_ms), "--batches", str(min(a.batches, GROUP_BATCHES.get(group, a.batches)))]
    env = dict(os.environ)
    if not a.keep_blas_pin:
        # an inherited OPENBLAS_CORETYPE makes OpenBLAS use another CPU's kernels: every program
        # gets the kernels its BLAS chooses for this CPU unless --keep-blas-pin
        env.pop("OPENBLAS_CORETYPE", None)
    env.update(p.env)
    try:
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=a.timeout)
        out, err, rc = r.stdout, r.stderr, r.returncode
    except (OSError, subprocess.TimeoutExpired) as e:
        out, err, rc = "", str(e), -1
    seen = set()
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if "meta" in d:
            p.meta = d["meta"]
        elif "end" in d:
            p.rss.setdefault(group, []).append(d["end"]["max_rss_kb"])
        elif "case" in d:
            cid = d["case"]
            seen.add(cid)
            if "ns" in d:
                p.runs.setdefault(cid, []).append(min(d["ns"]))
                if d.get("plain_ns"):  # paired batches without the observer: its cost this round
                    p.obs.setdefault(cid, []).append(min(d["ns"]) / min(d["plain_ns"]) - 1.0)
            elif "values" in d:
                p.runs.setdefault(cid, []).append(d["values"])
            else:
                p.notes[cid] = ("skipped: " + d["skip"]) if "skip" in d else ("error: " + d.get("error", "?"))
    if p.meta is None:
        tail = (err.strip().splitlines() or ["exit status %d" % rc])[-1]
        p.missing = "did not run (%s)" % tail[:200]
    elif rc != 0:
        for cid in ids:
            if cid not in seen:
                p.notes[cid] = "error: the program stopped (exit status %d) before this case" % rc


# ---- formatting -----------------------------------------------------------------------------------

DASH = "—"


def med(xs):
    return statistics.median(xs) if xs else None


def fmt_num(v):
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def unit_for(ns):
    for scale, name in ((1e6, "ms"), (1e3, "µs")):
        if ns >= scale:
            return scale, name
    return 1.0, "ns"


def spread_pct(xs):
    m = statistics.median(xs)
    return 100.0 * (max(xs) - min(xs)) / 2.0 / m if m else 0.0


def ctorch_ref(progs, p):
    """The ctorch column a peer is compared with: the same thread count, else ctorch at 1."""
    same = [q for q in progs if q.is_ctorch and q.threads == p.threads and not q.missing]
    one = [q for q in progs if q.is_ctorch and q.threads == 1 and not q.missing]
    return (same or one or [None])[0]


def peak_of(pk):
    """The FMA peak: the best round (other load on the machine only ever lowers a round)."""
    return max(v["gflops"] for v in pk.runs["fma_peak"])


def cpu_description():
    model, flags = platform.processor() or platform.machine(), set()
    fam = mod = None
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k == "model name":
                    model = v
                elif k == "flags":
                    flags = set(v.split())
                elif k == "cpu family":
                    fam = v
                elif k == "model" and mod is None:
                    mod = v
    except OSError:
        pass
    isa = "AVX-512" if "avx512f" in flags else "AVX2+FMA" if {"avx2", "fma"} <= flags else "no AVX2"
    fm = " (family %s, model %s)" % (fam, mod) if fam else ""
    return "%s%s, %d CPUs, %s" % (model, fm, os.cpu_count() or 0, isa)


def source_state():
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return rev + (" (with uncommitted changes)" if dirty else "") if rev else "unknown"
    except OSError:
        return "unknown"


def describe(p):
    m = p.meta or {}
    bits = []
    if p.name in ("ctorch", "ctorch base"):
        bits.append("ctorch %s (C)%s, ct_set_num_threads(%d) -> %s intra-op thread(s)" % (
            m.get("version", "?"), " from --baseline" if p.name == "ctorch base" else "", p.threads,
            m.get("intra_op_threads", "?")))
    elif p.name == "libtorch":
        bits.append("libtorch %s (C++), at::set_num_threads(%d) -> %s" % (m.get("version", "?"), p.threads,
                                                                           m.get("intra_op_threads", "?")))
    else:
        bits.append("torch %s, Python %s, torch.set_num_threads(%d) -> %s" % (
            m.get("version", "?"), m.get("python", "?"), p.threads, m.get("intra_op_threads", "?")))
    blas = m.get("blas", "?")
    blas = " ".join(w for w in blas.split() if w not in ("NO_LAPACKE", "DYNAMIC_ARCH", "NO_AFFINITY")
                    and not w.startswith("MAX_THREADS"))
    bits.append("BLAS %s, %s thread(s)" % (blas, m.get("blas_threads", "?")))
    return "; ".join(bits)


def print_table(progs, cases, a, started, load0):
    cols = [p for p in progs if p.column]
    peers = [p for p in cols if not p.is_ctorch]
    peaks = {p.threads: p for p in progs if p.name == "FMA peak"}
    w_label, w_cell, w_ratio = 40, 16, 9
    out = []
    now = datetime.datetime.now(datetime.timezone.utc)
    load1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out.append("ctorch beside its peers, %s UTC; %s" % (started.strftime("%Y-%m-%d %H:%M"), cpu_description()))
    out.append("%d rounds, interleaved (each round runs every program on every case, the order of the programs "
               "rotating); %.0f min; load average %.1f at the start, %.1f at the end; source %s" % (
                   a.rounds, (now - started).total_seconds() / 60, load0, load1, source_state()))
    out.append("cell: median of the rounds ±half their min-max range in %% of the median; a round's value is the "
               "fastest of %d batches of ~%g ms (2048 GEMMs: %d) after >=%g ms of warm-up" % (
                   a.batches, a.batch_ms, min(a.batches, GROUP_BATCHES["gemm"]), a.warmup_ms))
    out.append("ratio: peer median / ctorch median at the same thread count (>1: ctorch faster; for GF/s rows "
               "the ratio of times too); 'worst': the smallest ratio. GF/s = 2*M*N*K / time")
    out.append("observer cost ('... cost' rows): observed batches / plain batches timed alternately in the same "
               "process, per round; median of the rounds ± half their min-max range in points")
    pin = os.environ.get("OPENBLAS_CORETYPE")
    if pin:
        out.append("OPENBLAS_CORETYPE=%s was set in the environment: %s" % (
            pin, "kept for every program (--keep-blas-pin)" if a.keep_blas_pin else
            "removed for every program, so each BLAS chooses its kernels for this CPU (--keep-blas-pin keeps it)"))
    for p in cols:
        state = describe(p) if not p.missing else "not run: " + p.missing
        out.append("  %-16s %s" % (p.key, state))
    for t in sorted(peaks):
        pk = peaks[t]
        vals = pk.runs.get("fma_peak")
        if pk.missing or not vals:
            out.append("  FMA peak %dt      not measured (%s)" % (t, pk.missing or pk.notes.get("fma_peak", "?")))
            continue
        other = ", ".join("%s %.1f" % (k.split("_")[0].upper().replace("AVX512", "AVX-512"), max(v[k] for v in vals if k in v))
                          for k in ("avx512_gflops", "avx2_gflops") if any(k in v for v in vals))
        out.append("  FMA peak %dt      %.1f GF/s float32: the best of the rounds of bench/peak/fma_peak.c "
                   "(12 independent FMA chains per thread; %s)" % (t, peak_of(pk), other))
    out.append("")
    head = "%-*s %-4s" % (w_label, "case", "unit") + "".join("%*s" % (w_cell, p.key) for p in cols)
    head += "  |" + "".join("%*s" % (w_ratio, short(p)) for p in peers) + "%*s" % (w_ratio, "worst")
    out.append(head)
    out.append("-" * len(head))
    errors, skips = [], {}

    def note_ref(p, cid):
        text = p.notes[cid]
        if text.startswith("skipped: "):
            ids = skips.setdefault((p.name, text[len("skipped: "):]), [])
            if cid not in ids:
                ids.append(cid)
            return DASH
        text = "%s, %s: %s" % (p.key, cid, text)
        if text not in errors:
            errors.append(text)
        return "error[%d]" % (errors.index(text) + 1)

    def cell_of(p, cid):
        if p.missing:
            return None, DASH
        xs = p.runs.get(cid)
        if not xs:
            return None, note_ref(p, cid) if cid in p.notes else DASH
        return xs, None

    def ratio_cells(getter):
        cells, rs = [], []
        for p in peers:
            ref = ctorch_ref(progs, p)
            pv, cv = getter(p), getter(ref) if ref else None
            if pv is None or cv is None or cv == 0:
                cells.append("%*s" % (w_ratio, DASH))
            else:
                rs.append(pv / cv)
                cells.append("%*s" % (w_ratio, "%.2fx" % (pv / cv)))
        cells.append("%*s" % (w_ratio, ("%.2fx" % min(rs)) if rs else DASH))
        return "".join(cells)

    def med_of(cid):
        return lambda p: (med(p.runs[cid]) if p and not p.missing and p.runs.get(cid) else None)

    for c in cases:
        if c.values:
            continue
        ref = [p for p in cols if p.is_ctorch and p.runs.get(c.id)] or [p for p in cols if p.runs.get(c.id)]
        if c.flops:
            unit, scale = "GF/s", None
        else:
            scale, unit = unit_for(med(ref[0].runs[c.id])) if ref else (1.0, "ns")
        row = "%-*s %-4s" % (w_label, c.label, unit)
        for p in cols:
            xs, txt = cell_of(p, c.id)
            if xs is not None:
                if c.flops:
                    g = [c.flops / x for x in xs]  # flop per ns = GF/s
                    txt = "%s ±%.0f%%" % (fmt_num(med(g)), spread_pct(g))
                else:
                    txt = "%s ±%.0f%%" % (fmt_num(med(xs) / scale), spread_pct(xs))
            row += "%*s" % (w_cell, txt)
        row += "  |" + ratio_cells(med_of(c.id))
        out.append(row)
        if c.flops:
            row = "%-*s %-4s" % (w_label, "  % of the FMA peak (same threads)", "%")
            for p in cols:
                xs = p.runs.get(c.id) if not p.missing else None
                pk = peaks.get(p.threads)
                pv = pk and not pk.missing and pk.runs.get("fma_peak")
                if xs and pv:
                    txt = "%.0f%%" % (100.0 * (c.flops / med(xs)) / peak_of(pk))
                else:
                    txt = DASH
                row += "%*s" % (w_cell, txt)
            out.append(row)
    # observers: cost over the plain batches timed next to the observed ones, in the same process
    for c in cases:
        if not c.base:
            continue
        row = "%-*s %-4s" % (w_label, c.obs, "%")
        for p in cols:
            xs = p.obs.get(c.id) if not p.missing else None
            row += "%*s" % (w_cell, ("%+.0f%% ±%.0f" % (100.0 * med(xs), 50.0 * (max(xs) - min(xs)))) if xs else DASH)
        out.append(row)
    # memory
    for g in ("small", "gemm"):
        if not any(c.group == g for c in cases):
            continue
        row = "%-*s %-4s" % (w_label, GROUP_LABELS[g], "MB")
        for p in cols:
            xs = p.rss.get(g) if not p.missing else None
            row += "%*s" % (w_cell, ("%.0f" % (max(xs) / 1024.0)) if xs else DASH)
        row += "  |" + ratio_cells(lambda p, g=g: (max(p.rss[g]) if p and not p.missing and p.rss.get(g) else None))
        out.append(row)
    for c in cases:
        if not c.values or c.group == "peak":
            continue
        row = "%-*s %-4s" % (w_label, c.label, "MB")
        for p in cols:
            xs, txt = cell_of(p, c.id)
            if xs is not None:
                a100 = med([v["rss_kb_step_100"] for v in xs]) / 1024.0
                a1k = med([v["rss_kb_step_1000"] for v in xs]) / 1024.0
                a10k = med([v["rss_kb_step_10000"] for v in xs]) / 1024.0
                txt = "%.1f, %.1f->%.1f" % (a100, a1k, a10k)
            row += "%*s" % (w_cell, txt)
        out.append(row)
    out.extend(target_lines(progs, cases))
    if skips or errors:
        out.append("")
    for (name, why), ids in skips.items():
        out.append("%s %s: %s (%s)" % (DASH, name, why, ", ".join(ids)))
    out.extend("error[%d] %s" % (i + 1, n) for i, n in enumerate(errors))
    print("\n".join(out))
    sys.stdout.flush()


# ---- targets ----------------------------------------------------------------------------------------
# The speed targets the README states, checked against this run's medians. A ratio against a peer is
# the smallest over that peer's columns (each against ctorch at the same thread count), so that a
# target holds only against the peer's best thread count.
TARGETS = [
    # (case, label, peer name or "best" (every peer) or "observer" or "peak" or "rss", bound, ">=" or "<=")
    ("add1", "1-element add", "libtorch", 10.0, ">="),
    ("add1_mode", "1-element add under a logging mode", "PyTorch 2.6", 50.0, ">="),
    ("linear_fwd", "lab linear forward", "libtorch", 3.0, ">="),
    ("linear_fwdbwd", "lab linear forward+backward", "libtorch", 5.0, ">="),
    ("step", "seed step", "libtorch", 10.0, ">="),
    ("step_d64", "seed step, 64 hidden layers", "libtorch", 5.0, ">="),
    ("step_trace", "decision trace", "observer", 20.0, "<="),
    ("step_profiler", "profiler", "observer", 20.0, "<="),
    ("step_mode", "dispatch mode", "observer", 10.0, "<="),
    ("addmm2048", "addmm 2048", "best", 0.95, ">="),
    ("addmm2048", "addmm 2048", "peak", 85.0, ">="),
    ("addmm256", "addmm 256", "best", 0.9, ">="),
    ("rss_loop_trace", "training loop, trace on", "rss", 256.0, "<="),
]
# the large cases: at least PyTorch 2.6's speed at each thread count, and (1e7 elements) the
# 2-thread run at least 1.6x faster than the 1-thread one
for _size in ("1e6", "1e7"):
    TARGETS += [("%s_%s" % (_op, _size), "%s %s" % (_op, _size), "PyTorch 2.6", 1.0, ">=") for _op, _ in LARGE_OPS]
TARGETS += [("%s_1e7" % _op, "%s 1e7" % _op, "threads", 1.6, ">=") for _op, _ in LARGE_OPS]


def target_lines(progs, cases):
    ids = {c.id for c in cases}
    cts = [p for p in progs if p.is_ctorch and p.column and not p.missing]
    peers = [p for p in progs if p.column and not p.is_ctorch and not p.missing]
    peaks = {p.threads: p for p in progs if p.name == "FMA peak" and not p.missing and p.runs.get("fma_peak")}
    out = ["", "targets (from this run's medians):"]

    def ratio(p, cid):
        ref = ctorch_ref(progs, p)
        pv = med(p.runs.get(cid, []))
        cv = med(ref.runs.get(cid, [])) if ref else None
        return pv / cv if pv and cv else None

    for cid, label, kind, bound, op in TARGETS:
        if cid not in ids:
            continue
        if kind in ("observer",):
            vals = [(p.key, 100.0 * med(p.obs[cid])) for p in cts if p.obs.get(cid)]
            what, unit = "cost over the plain step", "%"
        elif kind == "peak":
            vals = []
            for p in cts:
                pk = peaks.get(p.threads)
                if pk and p.runs.get(cid):
                    c = next(c for c in CASES if c.id == cid)
                    vals.append((p.key, 100.0 * (c.flops / med(p.runs[cid])) / peak_of(pk)))
            what, unit = "share of the FMA peak", "%"
        elif kind == "threads":
            one = [p for p in cts if p.threads == 1 and p.runs.get(cid)]
            two = [p for p in cts if p.threads == 2 and p.runs.get(cid)]
            vals = [("ctorch 1t / 2t", med(one[0].runs[cid]) / med(two[0].runs[cid]))] if one and two else []
            what, unit = "ctorch's 1-thread time / its 2-thread time", "x"
        elif kind == "rss":
            vals = []
            for p in cts:
                if p.runs.get(cid):
                    a1k = med([v["rss_kb_step_1000"] for v in p.runs[cid]])
                    a10k = med([v["rss_kb_step_10000"] for v in p.runs[cid]])
                    vals.append((p.key, a10k - a1k))
            # from step 1,000: the trace's ring buffer (allocated when collection starts) is
            # touched page by page until it is full, a few hundred steps in
            what, unit = "RSS growth from step 1,000 to 10,000 (KiB)", ""
        else:
            # "best": the other libraries (a --baseline build of ctorch is no peer to beat)
            pool = [p for p in peers if (kind == "best" and p.name != "ctorch base") or p.name == kind]
            vals = [(p.key, r) for p in pool for r in [ratio(p, cid)] if r is not None]
            what = "vs the best peer" if kind == "best" else "vs " + kind
            unit = "x"
        if not vals:
            out.append("  %-72s not measured in this run" % ("%s, %s %s %g%s:" % (label, what, op, bound, unit)))
            continue
        # the value that decides: the worst for ctorch
        key, v = (min if op == ">=" else max)(vals, key=lambda kv: kv[1])
        ok = v >= bound if op == ">=" else v <= bound
        out.append("  %-72s %s  (%s)" % ("%s, %s %s %g%s:" % (label, what, op, bound, unit),
                                         ("%.2f%s" % (v, unit)) if unit == "x" else ("%.0f%s" % (v, unit)),
                                         ("holds" if ok else "MISSED") + (", " + key if len(vals) > 1 else "")))
    return out


def short(p):
    return {"ctorch": "ct", "ctorch base": "base", "libtorch": "lt", "PyTorch 1.13": "py1.13",
            "PyTorch 2.6": "py2.6"}.get(p.name, p.name)[:6] + \
        ("/%d" % p.threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the CMake build folder")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cases", default="", help="case ids to run (default: all)")
    ap.add_argument("--programs", default="", help="program names to run, e.g. ctorch,libtorch (default: all)")
    ap.add_argument("--warmup-ms", type=float, default=20.0)
    ap.add_argument("--batch-ms", type=float, default=5.0)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--python-threads", default="1", help="thread counts for the PyTorch columns, e.g. 1,2")
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python with PyTorch 1.13")
    ap.add_argument("--torchref", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", "torchref")),
                    help="the runner of PyTorch 2.6")
    ap.add_argument("--torchref-lock", default=os.environ.get("TORCHREF_LOCK", "/tmp/torchref.lock"))
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds one program run may take")
    ap.add_argument("--keep-blas-pin", action="store_true",
                    help="keep an inherited OPENBLAS_CORETYPE (by default it is removed for every program)")
    ap.add_argument("--json-out", default="", help="also write every raw round value here")
    ap.add_argument("--baseline", default="",
                    help="another ctorch build folder (e.g. main's) whose bench_ctorch runs as a peer column")
    a = ap.parse_args()
    a.build, a.torchref = os.path.abspath(a.build), os.path.abspath(a.torchref)
    a.python_threads = [int(t) for t in a.python_threads.split(",") if t]
    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    wanted = set(filter(None, a.cases.split(",")))
    cases = [c for c in CASES if not wanted or c.id in wanted or c.group == "peak"]
    # an observer's row needs its base case
    cases = [c for c in CASES if c in cases or any(o.base == c.id for o in cases)]
    progs = programs(a)
    if a.programs:
        keep = {n.strip().lower() for n in a.programs.split(",")}
        progs = [p for p in progs if p.name.lower() in keep or p.is_ctorch or not p.column]
    groups = []
    for c in cases:
        if c.group not in groups:
            groups.append(c.group)
    for p in progs:
        if p.missing:
            print("bench: %s: not run: %s" % (p.key, p.missing), file=sys.stderr)
    for r in range(a.rounds):
        for g in groups:
            gcases = [c for c in cases if c.group == g]
            runners = [p for p in progs if g in p.groups and not p.missing]
            k = r % len(runners) if runners else 0
            for p in runners[k:] + runners[:k]:
                if p.missing:  # it failed to start earlier in this round
                    continue
                print("bench: round %d/%d, %s, %s" % (r + 1, a.rounds, g, p.key), file=sys.stderr, flush=True)
                run_group(p, g, gcases, a)
                if p.missing:
                    print("bench: %s: %s" % (p.key, p.missing), file=sys.stderr)
    print_table(progs, cases, a, started, load0)
    if a.json_out:
        with open(a.json_out, "w") as fh:
            json.dump({"started": started.isoformat(), "cpu": cpu_description(), "rounds": a.rounds,
                       "programs": [{"name": p.name, "threads": p.threads, "meta": p.meta, "missing": p.missing,
                                     "rounds": p.runs, "max_rss_kb": p.rss, "notes": p.notes} for p in progs]},
                      fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
