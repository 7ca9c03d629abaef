/* Dispatcher cost and a MiniGPT training step, ctorch beside libtorch and PyTorch in one run.
 *
 *   bench_dispatch [ITERS] [PEER] [PYTORCH_CMD] [STEPS]
 *
 * Times the same operations in ctorch, in libtorch (when PEER, the program built from
 * bench/peer/libtorch_bench.cpp, exists) and in PyTorch (when PYTORCH_CMD, a command that runs
 * bench/peer/pytorch_bench.py under a Python with torch, is given), each as the best of 5 timed
 * loops, and prints nanoseconds per call and the ratios. The last row is one training step of
 * MiniGPT with minigpt.py's defaults (examples/minigpt.c; torch::nn in the libtorch peer,
 * minigpt.py's own classes in the PyTorch one): forward, cross_entropy, backward,
 * clip_grad_norm_, AdamW, zero_grad, loss.item(). Also shows what observing costs in ctorch:
 * the decision trace collected in memory, and printed (to /dev/null). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctorch/ctorch.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "minigpt.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef void (*bench_fn)(void *);

static double ns_per_call(bench_fn f, void *ud, long iters) {
    for (long i = 0; i < iters / 10; i++) f(ud);
    double best = 1e300;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) f(ud);
        double ns = (now_ns() - t0) / (double)iters;
        if (ns < best) best = ns;
    }
    return best;
}

typedef struct ctx {
    ct_tensor *a, *b, *a32, *b32, *ag;
    const ct_op *noop;
    /* MiniGPT with minigpt.py's defaults, its optimizer and one batch */
    ct_module *gpt;
    ct_optimizer *opt;
    ct_tensor *x, *y;
    double clip;
    int failed;
} ctx;

static void add_1elem(void *ud) {
    ctx *c = ud;
    ct_tensor_release(ct_add(c->a, c->b, ct_int(1)));
}
static void add_inplace(void *ud) {
    ctx *c = ud;
    ct_add_(c->a, c->b, ct_double(0.0));
}
static void empty_1elem(void *ud) {
    (void)ud;
    int64_t one = 1;
    ct_tensor_release(ct_empty(&one, 1, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
}
static void noop_op(void *ud) {
    ctx *c = ud;
    ct_value a[1] = {ct_tensor_value(c->a)}, r[1];
    ct_call(c->noop, a, r);
    ct_tensor_release(r[0].u.t);
}
static void mm_32(void *ud) {
    ctx *c = ud;
    ct_tensor_release(ct_mm(c->a32, c->b32));
}

static void minigpt_step(void *ud) {
    ctx *c = ud;
    double loss;
    if (ct_gpt_train_step(c->gpt, c->opt, c->x, c->y, c->clip, &loss) != 0) c->failed = 1;
}

static int minigpt_setup(ctx *c) {
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    ct_gpt_config cfg = ct_gpt_config_from_args(&a);
    ct_manual_seed(a.seed);
    c->gpt = ct_gpt_new(&cfg);
    c->opt = c->gpt ? ct_gpt_make_optimizer(c->gpt, a.lr, 0.1) : NULL;
    c->clip = a.clip;
    c->failed = 0;
    return c->opt && ct_gpt_make_batch(&cfg, a.batch, a.seed + 1, &c->x, &c->y) == 0 ? 0 : -1;
}

static int noop_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_tensor_value(ct_tensor_retain(args[0].u.t));
    return 0;
}

static double collect_and_drop(bench_fn f, void *ud, long iters) {
    /* collection in memory: restart the collector every 4096 calls to bound memory */
    double total = 0;
    long done = 0;
    while (done < iters) {
        long chunk = iters - done < 4096 ? iters - done : 4096;
        ct_trace_begin();
        double t0 = now_ns();
        for (long i = 0; i < chunk; i++) f(ud);
        total += now_ns() - t0;
        ct_dispatch_record *recs;
        size_t n;
        ct_trace_end(&recs, &n);
        ct_free(recs);
        done += chunk;
    }
    return total / (double)iters;
}

typedef struct peer_row {
    char name[64];
    double ns;
} peer_row;

static int read_peer(const char *path, bool quote, long iters, long steps, peer_row *rows, int max) {
    char cmd[4096];
    if (!path || !*path) return 0;
    snprintf(cmd, sizeof cmd, quote ? "'%s' %ld %ld 2>/dev/null" : "%s %ld %ld 2>/dev/null", path, iters, steps);
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    int n = 0;
    char line[256];
    while (n < max && fgets(line, sizeof line, p)) {
        if (line[0] == '#') printf("%s", line); /* what the peer says it is */
        else if (sscanf(line, "%63s %lf", rows[n].name, &rows[n].ns) == 2) n++;
    }
    pclose(p);
    return n;
}

static double peer_ns(const peer_row *rows, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].name, name) == 0) return rows[i].ns;
    return -1;
}

int main(int argc, char **argv) {
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    const char *peer = argc > 2 ? argv[2] : "bench/libtorch_bench";
    const char *python = argc > 3 ? argv[3] : NULL; /* a shell command line */
    long steps = argc > 4 ? atol(argv[4]) : 20;
    if (steps < 1) steps = 1;
    ctx c;
    int64_t one = 1, sq[2] = {32, 32};
    c.a = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    c.b = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    c.a32 = ct_ones(sq, 2, CT_DTYPE_UNDEFINED);
    c.b32 = ct_ones(sq, 2, CT_DTYPE_UNDEFINED);
    c.ag = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    c.noop = ct_op_define("ctbench::noop(Tensor self) -> Tensor", "bench/bench_dispatch.c");
    if (!c.a || !c.noop) {
        fprintf(stderr, "bench_dispatch: %s\n", ct_error_message());
        return 1;
    }
    ct_register_kernel(c.noop, CT_KEY_CPU, noop_kernel, "bench/bench_dispatch.c");
    if (minigpt_setup(&c) != 0) {
        fprintf(stderr, "bench_dispatch: MiniGPT: %s\n", ct_error_message());
        return 1;
    }

    struct {
        const char *name, *label;
        bench_fn f;
        long div;
    } cases[] = {
        {"add_1elem", "add, 1 element (new tensor)", add_1elem, 1},
        {"add_inplace_1elem", "add_, 1 element (in place)", add_inplace, 1},
        {"empty_1elem", "empty({1})", empty_1elem, 1},
        {"noop_op", "custom op, kernel returns input", noop_op, 1},
        {"mm_32x32", "mm 32x32", mm_32, 10},
        {"minigpt_step", "MiniGPT training step (defaults)", minigpt_step, -1},
    };
    peer_row rows[32], prows[32];
    int npeer = read_peer(peer, true, iters, steps, rows, 32);
    int npy = read_peer(python, false, iters, steps, prows, 32);
    printf("ns per call, best of 5 loops of %ld calls (MiniGPT: %ld steps; 1 thread)\n\n", iters, steps);
    printf("%-36s %12s %12s %12s %10s %10s\n", "operation", "ctorch", npeer ? "libtorch" : "libtorch(-)",
           npy ? "PyTorch" : "PyTorch(-)", "libtorch/", "PyTorch/");
    printf("%-36s %12s %12s %12s %10s %10s\n", "", "", "", "", "ctorch", "ctorch");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double ours = cases[i].div < 0 ? ns_per_call(cases[i].f, &c, steps) : ns_per_call(cases[i].f, &c, iters / cases[i].div);
        double lt = peer_ns(rows, npeer, cases[i].name), py = peer_ns(prows, npy, cases[i].name);
        char lts[32] = "n/a", pys[32] = "n/a", ltr[32] = "", pyr[32] = "";
        if (lt > 0) {
            snprintf(lts, sizeof lts, "%.1f", lt);
            snprintf(ltr, sizeof ltr, "%.2fx", lt / ours);
        }
        if (py > 0) {
            snprintf(pys, sizeof pys, "%.1f", py);
            snprintf(pyr, sizeof pyr, "%.2fx", py / ours);
        }
        printf("%-36s %12.1f %12s %12s %10s %10s\n", cases[i].label, ours, lts, pys, ltr, pyr);
    }
    if (c.failed) {
        fprintf(stderr, "bench_dispatch: the MiniGPT step failed: %s\n", ct_error_message());
        return 1;
    }
    printf("\nobserving in ctorch (add, 1 element):\n");
    double base = ns_per_call(add_1elem, &c, iters);
    double coll = collect_and_drop(add_1elem, &c, iters);
    printf("%-36s %12.1f\n", "no observer", base);
    printf("%-36s %12.1f  (+%.1f)\n", "decision trace collected in memory", coll, coll - base);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        ct_trace_set_stream(devnull);
        ct_trace_set_print(1);
        double pr = ns_per_call(add_1elem, &c, iters / 10);
        ct_trace_set_print(0);
        ct_trace_set_stream(NULL);
        fclose(devnull);
        printf("%-36s %12.1f  (+%.1f)\n", "PyTorch-format trace printed", pr, pr - base);
    }
    printf("\nprofiling in ctorch (add, 1 element):\n");
    for (int shapes = 0; shapes < 2; shapes++) {
        double total = 0;
        long done = 0;
        int64_t overhead = 0, events = 0;
        while (done < iters) {
            long chunk = iters - done < 20000 ? iters - done : 20000;
            ct_profiler *p = ct_profiler_start(shapes != 0);
            double t0 = now_ns();
            for (long i = 0; i < chunk; i++) add_1elem(&c);
            total += now_ns() - t0;
            ct_profiler_stop(p);
            overhead += ct_profiler_overhead_ns(p);
            events += ct_profiler_raw_event_count(p);
            ct_profiler_free(p);
            done += chunk;
        }
        double ns = total / (double)iters;
        printf("%-36s %12.1f  (+%.1f; %.0f ns of it inside the profiler per event; %.2f M ops/s vs %.2f M ops/s)\n",
               shapes ? "profiler, record_shapes=True" : "profiler, record_shapes=False", ns, ns - base,
               (double)overhead / (double)(events ? events : 1), 1e3 / ns, 1e3 / base);
    }
    if (!npeer) printf("\n(libtorch side not run: build %s from bench/peer/libtorch_bench.cpp)\n", peer);
    if (!npy) printf("(PyTorch side not run: give a command that runs bench/peer/pytorch_bench.py with torch)\n");
    ct_tensor_release(c.a);
    ct_tensor_release(c.b);
    ct_tensor_release(c.a32);
    ct_tensor_release(c.b32);
    ct_tensor_release(c.ag);
    ct_tensor_release(c.x);
    ct_tensor_release(c.y);
    ct_optimizer_free(c.opt);
    ct_module_free(c.gpt);
    return 0;
}
