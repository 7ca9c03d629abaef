/* Dispatcher cost, ctorch beside libtorch in one run.
 *
 *   bench_dispatch [ITERS] [PEER]
 *
 * Times the same operations in ctorch and (when PEER, the libtorch program built from
 * bench/peer/libtorch_bench.cpp, exists) in libtorch, each as the best of 5 timed loops, and
 * prints nanoseconds per call and the ratio. Also shows what observing costs in ctorch: the
 * decision trace collected in memory, and printed (to /dev/null). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctorch/ctorch.h"
#include "ctorch/profiler.h"

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

static int read_peer(const char *path, long iters, peer_row *rows, int max) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %ld 2>/dev/null", path, iters);
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    int n = 0;
    while (n < max && fscanf(p, "%63s %lf", rows[n].name, &rows[n].ns) == 2) n++;
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
    };
    peer_row rows[32];
    int npeer = read_peer(peer, iters, rows, 32);
    printf("ns per call, best of 5 loops of %ld calls (1 thread)\n\n", iters);
    printf("%-36s %12s %12s %10s\n", "operation", "ctorch", npeer ? "libtorch" : "libtorch(-)", "ratio");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double ours = ns_per_call(cases[i].f, &c, iters / cases[i].div);
        double theirs = peer_ns(rows, npeer, cases[i].name);
        if (theirs > 0)
            printf("%-36s %12.1f %12.1f %9.1fx\n", cases[i].label, ours, theirs, theirs / ours);
        else
            printf("%-36s %12.1f %12s %10s\n", cases[i].label, ours, "n/a", "");
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
    if (!npeer) printf("\n(libtorch side not run: build %s from bench/peer/libtorch_bench.cpp; see bench/README.md)\n", peer);
    ct_tensor_release(c.a);
    ct_tensor_release(c.b);
    ct_tensor_release(c.a32);
    ct_tensor_release(c.b32);
    ct_tensor_release(c.ag);
    return 0;
}
