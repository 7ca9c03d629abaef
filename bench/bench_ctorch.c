/* The ctorch side of the comparison benchmark (bench/compare.py runs it beside the peers).
 *
 *   bench_ctorch --threads T --cases ID[,ID...] [--warmup-ms MS] [--batch-ms MS] [--batches N]
 *
 * Runs each named case and prints one JSON line per case on stdout:
 *   {"case": ID, "iters": calls per batch, "ns": [per-call ns of each timed batch]}
 * (a case with an observer adds "plain_ns": the same calls timed without it, batch by batch),
 * or {"case": ID, "values": {...}} for cases that measure something else (memory),
 * or {"case": ID, "skip": "why"} / {"case": ID, "error": "message"}.
 * The first line is {"meta": {...}} (threads as the process sees them), the last
 * {"end": {"max_rss_kb": N}} (getrusage). Every program in the comparison follows the same
 * protocol and timing rule (see measure() here, bench/peer/libtorch_bench.cpp and
 * bench/peer/torch_bench.py): warm up for --warmup-ms (at least two calls) with the case's
 * observers on, choose the calls per batch from the warm-up rate so a batch lasts about
 * --batch-ms, then time --batches batches.
 *
 * Uses only the public API (include/ctorch), and MiniGPT from examples/minigpt.c (itself on the
 * public API), so it measures what a program linking ctorch gets.
 * The thread count is pinned by --threads (ct_set_num_threads, as the peers call
 * torch.set_num_threads) and by the environment the caller sets for the BLAS (OPENBLAS_NUM_THREADS
 * and friends). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "ctorch/trace.h"
#include "minigpt.h"

#ifndef CT_BENCH_VERSION
#define CT_BENCH_VERSION "unknown"
#endif

/* ---- timing -------------------------------------------------------------------------------- */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct bench_opts {
    double warmup_ms, batch_ms;
    int batches;
    long calls; /* --calls: run this many calls untimed instead (0: time batches) */
} bench_opts;

/* A timed case: setup makes its state, run does one call (the timed unit), the optional
 * batch_begin/batch_end turn its observer on and off around each batch (outside the timing),
 * teardown frees the state. Every hook returns 0, or -1 with ctorch's error set. */
typedef struct timed_case {
    const char *id;
    void *(*setup)(void);
    int (*run)(void *st);
    int (*batch_begin)(void *st);
    int (*batch_end)(void *st);
    void (*teardown)(void *st);
} timed_case;

static void print_error(const char *id, const char *what) {
    /* the message is ctorch's: keep it printable as a JSON string */
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s", what, ct_error_message());
    for (char *p = msg; *p; p++)
        if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = ' ';
    printf("{\"case\": \"%s\", \"error\": \"%s\"}\n", id, msg);
    fflush(stdout);
}

/* One timed batch of iters calls; with `observed`, the case's observer is on around it. Stores
 * the per-call time. */
static int run_batch(const timed_case *c, void *st, long iters, bool observed, double *ns) {
    if (observed && c->batch_begin && c->batch_begin(st) != 0) return -1;
    double t0 = now_ns();
    for (long i = 0; i < iters; i++)
        if (c->run(st) != 0) return -1;
    *ns = (now_ns() - t0) / (double)iters;
    if (observed && c->batch_end && c->batch_end(st) != 0) return -1;
    return 0;
}

static void print_list(const char *key, const double *v, int n) {
    printf(", \"%s\": [", key);
    for (int b = 0; b < n; b++) printf("%s%.2f", b ? ", " : "", v[b]);
    printf("]");
}

/* --calls N: three warm-up calls, then exactly N calls, all with the case's observer on and
 * nothing timed; what instruction counts (callgrind) are read from: the difference of two
 * such runs is the steady-state cost of N1 - N2 calls (docs/performance.md). */
static void count_calls(const timed_case *c, long calls) {
    void *st = c->setup();
    if (!st) {
        print_error(c->id, "setup");
        return;
    }
    int rc = c->batch_begin ? c->batch_begin(st) : 0;
    for (long i = 0; rc == 0 && i < 3 + calls; i++) rc = c->run(st);
    if (rc == 0 && c->batch_end) rc = c->batch_end(st);
    if (rc != 0) print_error(c->id, "run");
    else printf("{\"case\": \"%s\", \"calls\": %ld}\n", c->id, calls);
    fflush(stdout);
    c->teardown(st);
}

static void measure(const timed_case *c, const bench_opts *o) {
    if (o->calls > 0) {
        count_calls(c, o->calls);
        return;
    }
    void *st = c->setup();
    if (!st) {
        print_error(c->id, "setup");
        return;
    }
    /* warm-up: at least two calls and warmup_ms, observers on; the rate that sizes the
     * batches leaves out the first call (first-use costs) */
    long n = 0;
    double t0 = now_ns(), el = 0, first = 0;
    if (c->batch_begin && c->batch_begin(st) != 0) goto fail;
    while (n < 2 || el < o->warmup_ms * 1e6) {
        if (c->run(st) != 0) goto fail;
        n++;
        el = now_ns() - t0;
        if (n == 1) first = el;
    }
    if (c->batch_end && c->batch_end(st) != 0) goto fail;
    double per = (el - first) / (double)(n - 1);
    long iters = per < o->batch_ms * 1e6 ? (long)(o->batch_ms * 1e6 / (per > 1 ? per : 1)) : 1;
    /* Note [Paired observer batches]: a case with an observer times a batch without it next to
     * each observed batch (in alternating order), so its cost is measured against the plain
     * case under the same load of the machine */
    double ns[64], plain[64];
    int nb = o->batches < 64 ? o->batches : 64;
    bool paired = c->batch_begin != NULL;
    for (int b = 0; b < nb; b++) {
        for (int k = 0; k < (paired ? 2 : 1); k++) {
            bool observed = !paired || (k == (b & 1));
            if (run_batch(c, st, iters, observed, observed ? &ns[b] : &plain[b]) != 0) goto fail;
        }
    }
    printf("{\"case\": \"%s\", \"iters\": %ld", c->id, iters);
    print_list("ns", ns, nb);
    if (paired) print_list("plain_ns", plain, nb);
    printf("}\n");
    fflush(stdout);
    c->teardown(st);
    return;
fail:
    print_error(c->id, "run");
    c->teardown(st);
}

/* ---- helpers ------------------------------------------------------------------------------- */

static ct_tensor *randn2(int64_t a, int64_t b) {
    int64_t s[2] = {a, b};
    return ct_randn(s, b ? 2 : 1, CT_FLOAT32);
}

/* ---- one-element add and the dispatcher-cost cases ----------------------------------------- */

typedef struct small_st {
    ct_tensor *a, *b;
    const ct_op *noop;
    ct_op_logger *log;
} small_st;

static void *small_setup(void) {
    small_st *s = calloc(1, sizeof *s);
    int64_t one = 1;
    if (!s) return NULL;
    s->a = ct_ones(&one, 1, CT_FLOAT32);
    s->b = ct_ones(&one, 1, CT_FLOAT32);
    if (!s->a || !s->b) {
        ct_tensor_release(s->a);
        ct_tensor_release(s->b);
        free(s);
        return NULL;
    }
    return s;
}
static void small_teardown(void *p) {
    small_st *s = p;
    ct_tensor_release(s->a);
    ct_tensor_release(s->b);
    ct_op_logger_free(s->log);
    free(s);
}

static int add1_run(void *p) {
    small_st *s = p;
    ct_tensor *c = ct_add(s->a, s->b, ct_int(1));
    ct_tensor_release(c);
    return c ? 0 : -1;
}

static int add1_inplace_run(void *p) {
    small_st *s = p;
    return ct_add_(s->a, s->b, ct_int(1));
}

static int empty1_run(void *p) {
    (void)p;
    int64_t one = 1;
    ct_tensor *c = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    ct_tensor_release(c);
    return c ? 0 : -1;
}

/* a custom operator whose CPU kernel returns its input: the cost of dispatching alone */
static int noop_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_tensor_value(ct_tensor_retain(args[0].u.t));
    return 0;
}
static void *noop_setup(void) {
    small_st *s = small_setup();
    if (!s) return NULL;
    s->noop = ct_op_find("ctbench::noop");
    if (!s->noop) {
        ct_error_clear();
        s->noop = ct_op_define("ctbench::noop(Tensor self) -> Tensor", "bench/bench_ctorch.c");
        if (!s->noop || ct_register_kernel(s->noop, CT_KEY_CPU, noop_kernel, "bench/bench_ctorch.c") != 0) {
            small_teardown(s);
            return NULL;
        }
    }
    return s;
}
static int noop_run(void *p) {
    small_st *s = p;
    ct_value a[1] = {ct_tensor_value(s->a)}, r[1];
    if (ct_call(s->noop, a, r) != 0) return -1;
    ct_tensor_release(r[0].u.t);
    return 0;
}

/* the logging dispatch mode: every op's str(func) appended to a list; the list is emptied
 * between batches (outside the timing), as the peers empty theirs */
static void *add1_mode_setup(void) {
    small_st *s = small_setup();
    if (s && !(s->log = ct_op_logger_new())) {
        small_teardown(s);
        return NULL;
    }
    return s;
}
static int logger_begin(ct_op_logger *l) {
    ct_op_logger_clear(l);
    return ct_op_logger_push(l);
}
static int add1_mode_begin(void *p) { return logger_begin(((small_st *)p)->log); }
static int add1_mode_end(void *p) { return ct_op_logger_pop(((small_st *)p)->log); }

/* ---- matrix products ----------------------------------------------------------------------- */

typedef struct mat_st {
    ct_tensor *x, *w, *b;
    int64_t n;
} mat_st;

static void mat_teardown(void *p) {
    mat_st *s = p;
    ct_tensor_release(s->x);
    ct_tensor_release(s->w);
    ct_tensor_release(s->b);
    free(s);
}

static mat_st *square_setup(int64_t n) {
    mat_st *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->n = n;
    s->x = randn2(n, n);
    s->w = randn2(n, n);
    s->b = randn2(n, 0);
    if (!s->x || !s->w || !s->b) {
        mat_teardown(s);
        return NULL;
    }
    return s;
}
static void *sq32_setup(void) { return square_setup(32); }
static void *sq256_setup(void) { return square_setup(256); }
static void *sq2048_setup(void) { return square_setup(2048); }

/* addmm(b, x, w): b has n elements, broadcast over the rows (as linear's bias is) */
static int addmm_run(void *p) {
    mat_st *s = p;
    ct_tensor *y = ct_addmm(s->b, s->x, s->w, ct_int(1), ct_int(1));
    ct_tensor_release(y);
    return y ? 0 : -1;
}
static int mm_run(void *p) {
    mat_st *s = p;
    ct_tensor *y = ct_mm(s->x, s->w);
    ct_tensor_release(y);
    return y ? 0 : -1;
}

/* the lab's linear: x 2x64, W 600x64, b 600 */
static void *lab_linear_setup_grad(bool grad) {
    mat_st *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->x = randn2(2, 64);
    s->w = randn2(600, 64);
    s->b = randn2(600, 0);
    if (!s->x || !s->w || !s->b || ct_tensor_set_requires_grad(s->w, grad) != 0 ||
        ct_tensor_set_requires_grad(s->b, grad) != 0) {
        mat_teardown(s);
        return NULL;
    }
    return s;
}
static void *linear_setup(void) { return lab_linear_setup_grad(false); }
static void *linear_grad_setup(void) { return lab_linear_setup_grad(true); }
static int linear_run(void *p) {
    mat_st *s = p;
    ct_tensor *y = ct_linear(s->x, s->w, s->b);
    ct_tensor_release(y);
    return y ? 0 : -1;
}
/* y = linear(x, W, b); y.sum().backward(): W.grad and b.grad accumulate over the calls */
static int linear_fwdbwd_run(void *p) {
    mat_st *s = p;
    ct_tensor *y = ct_linear(s->x, s->w, s->b);
    ct_tensor *l = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    int rc = l ? ct_backward(l, NULL, false) : -1;
    ct_tensor_release(l);
    ct_tensor_release(y);
    return rc;
}

/* ---- the seed training step ---------------------------------------------------------------- */

/* Sequential(Linear(16, 32), ReLU(), [Linear(32, 32), ReLU()] * (hidden - 1), Linear(32, 4)),
 * batch 8, cross_entropy, SGD(lr=0.1); one step = zero_grad(set_to_none=True), forward, loss,
 * backward, step. hidden == 1 is the seed script's model. */
typedef struct step_st {
    ct_module *model;
    ct_optimizer *opt;
    ct_tensor *x, *y;
    ct_op_logger *log;
    ct_profiler *prof;
} step_st;

static void step_teardown(void *p) {
    step_st *s = p;
    if (!s) return;
    ct_optimizer_free(s->opt);
    ct_module_free(s->model);
    ct_tensor_release(s->x);
    ct_tensor_release(s->y);
    ct_op_logger_free(s->log);
    if (s->prof) ct_profiler_free(s->prof);
    free(s);
}

static step_st *step_setup_depth(int hidden) {
    step_st *s = calloc(1, sizeof *s);
    ct_module **mods = calloc((size_t)(2 * hidden + 1), sizeof *mods);
    if (!s || !mods) {
        free(s);
        free(mods);
        return NULL;
    }
    ct_manual_seed(0);
    int n = 0;
    mods[n++] = ct_nn_linear(16, 32, true);
    mods[n++] = ct_nn_relu();
    for (int i = 1; i < hidden; i++) {
        mods[n++] = ct_nn_linear(32, 32, true);
        mods[n++] = ct_nn_relu();
    }
    mods[n++] = ct_nn_linear(32, 4, true);
    s->model = ct_nn_sequential(mods, n);
    free(mods);
    int64_t ys[1] = {8};
    s->x = randn2(8, 16);
    s->y = ct_randint(0, 4, ys, 1, CT_INT64);
    if (!s->model || !s->x || !s->y) goto fail;
    int np = ct_module_parameters(s->model, NULL, 0);
    ct_tensor **params = calloc((size_t)np, sizeof *params);
    if (!params) goto fail;
    ct_module_parameters(s->model, params, np);
    s->opt = ct_sgd_new(params, np, ct_sgd_defaults(0.1));
    free(params);
    if (!s->opt) goto fail;
    return s;
fail:
    step_teardown(s);
    return NULL;
}
static void *step_setup(void) { return step_setup_depth(1); }
static void *step4_setup(void) { return step_setup_depth(4); }
static void *step16_setup(void) { return step_setup_depth(16); }
static void *step64_setup(void) { return step_setup_depth(64); }

static int step_run(void *p) {
    step_st *s = p;
    if (ct_optimizer_zero_grad(s->opt, true) != 0) return -1;
    ct_tensor *logits = ct_module_forward(s->model, s->x);
    ct_tensor *loss = logits ? ct_cross_entropy(logits, s->y, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int rc = loss && ct_backward(loss, NULL, false) == 0 && ct_optimizer_step(s->opt) == 0 ? 0 : -1;
    ct_tensor_release(loss);
    ct_tensor_release(logits);
    return rc;
}

/* observers on the seed step, each switched on around a batch */
static void *step_mode_setup(void) {
    step_st *s = step_setup_depth(1);
    if (s && !(s->log = ct_op_logger_new())) {
        step_teardown(s);
        return NULL;
    }
    return s;
}
static int step_mode_begin(void *p) { return logger_begin(((step_st *)p)->log); }
static int step_mode_end(void *p) { return ct_op_logger_pop(((step_st *)p)->log); }

static int step_prof_begin(void *p) {
    step_st *s = p;
    s->prof = ct_profiler_start(false);
    return s->prof ? 0 : -1;
}
static int step_prof_end(void *p) {
    step_st *s = p;
    int rc = ct_profiler_stop(s->prof);
    ct_profiler_free(s->prof);
    s->prof = NULL;
    return rc;
}

/* Note [Collecting the decision trace]: the records of a batch are collected in memory and
 * dropped after it; collection is the only use of include/ctorch/trace.h here, so a change of
 * how records are kept (ring buffer, stream) touches these two functions alone. */
static int trace_on(void *p) {
    (void)p;
    return ct_trace_begin();
}
static int trace_off(void *p) {
    (void)p;
    ct_dispatch_record *recs = NULL;
    size_t n = 0;
    int rc = ct_trace_end(&recs, &n);
    ct_free(recs);
    return rc;
}

/* ---- MiniGPT's training step ----------------------------------------------------------------- */

/* minigpt.py's MiniGPT with its defaults (examples/minigpt.c: vocab 600, block 32, 2 layers, 4
 * heads, d_model 64, dropout 0.1, batch 4), AdamW as make_optimizer builds it; one call =
 * forward with cross_entropy, backward, clip_grad_norm_, step, zero_grad, loss.item(). */
typedef struct gpt_st {
    ct_module *model;
    ct_optimizer *opt;
    ct_tensor *x, *y;
    double clip;
} gpt_st;

static void gpt_teardown(void *p) {
    gpt_st *s = p;
    if (!s) return;
    ct_tensor_release(s->x);
    ct_tensor_release(s->y);
    ct_optimizer_free(s->opt);
    ct_module_free(s->model);
    free(s);
}

static void *gpt_setup(void) {
    gpt_st *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    ct_gpt_config cfg = ct_gpt_config_from_args(&a);
    ct_manual_seed(a.seed);
    s->model = ct_gpt_new(&cfg);
    s->opt = s->model ? ct_gpt_make_optimizer(s->model, a.lr, 0.1) : NULL;
    s->clip = a.clip;
    if (!s->opt || ct_gpt_make_batch(&cfg, a.batch, a.seed + 1, &s->x, &s->y) != 0) {
        gpt_teardown(s);
        return NULL;
    }
    return s;
}

static int gpt_run(void *p) {
    gpt_st *s = p;
    double loss;
    return ct_gpt_train_step(s->model, s->opt, s->x, s->y, s->clip, &loss);
}

/* ---- memory over a long training loop ------------------------------------------------------ */

static long current_rss_kb(void) {
    long pages_total = 0, pages_rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages_total, &pages_rss) != 2) pages_rss = -1;
        fclose(f);
    }
    if (pages_rss > 0) return pages_rss * (sysconf(_SC_PAGESIZE) / 1024);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* The seed step repeated; RSS read after step 100 and after step 10,000 (and a few points
 * between), with the decision trace collected from the first step to the last when `trace`. */
static void rss_loop(const char *id, bool trace) {
    static const long marks[] = {100, 1000, 5000, 10000};
    long rss[4];
    step_st *s = step_setup_depth(1);
    if (!s) {
        print_error(id, "setup");
        return;
    }
    if (trace && trace_on(NULL) != 0) {
        print_error(id, "trace");
        step_teardown(s);
        return;
    }
    int m = 0;
    for (long i = 1; i <= marks[3]; i++) {
        if (step_run(s) != 0) {
            if (trace) trace_off(NULL);
            print_error(id, "run");
            step_teardown(s);
            return;
        }
        if (i == marks[m]) rss[m++] = current_rss_kb();
    }
    if (trace) trace_off(NULL);
    step_teardown(s);
    printf("{\"case\": \"%s\", \"values\": {", id);
    for (int i = 0; i < 4; i++) printf("%s\"rss_kb_step_%ld\": %ld", i ? ", " : "", marks[i], rss[i]);
    printf("}}\n");
    fflush(stdout);
}

/* ---- large float32 tensors: the intra-op threads ------------------------------------------- */

/* Each case exists at two sizes, as ID_1e6 and ID_1e7: a [1000, 1000] or a [1000, 10000] float32
 * tensor (10^6 or 10^7 elements) of randn values; the ops are those PyTorch splits over its
 * intra-op threads (at::parallel_for) for tensors above the grain size. */
typedef enum large_op {
    L_ADD, L_ADD_INPLACE, L_MUL_BCAST, L_SUM, L_SUM0, L_SOFTMAX, L_SOFTMAX0, L_LAYER_NORM, L_GELU, L_ADAMW
} large_op;

static const struct {
    const char *name;
    large_op op;
} LARGE[] = {
    {"add", L_ADD},           {"add_inplace", L_ADD_INPLACE}, {"mul_bcast", L_MUL_BCAST}, {"sum", L_SUM},
    {"sum0", L_SUM0},         {"softmax", L_SOFTMAX},         {"softmax0", L_SOFTMAX0},   {"layer_norm", L_LAYER_NORM},
    {"gelu", L_GELU},         {"adamw", L_ADAMW},
};

typedef struct large_st {
    large_op op;
    int64_t cols;
    ct_tensor *a, *b, *row, *w, *bias;
    ct_optimizer *opt;
} large_st;

/* the case measure() is about to set up (run_case sets it; setup takes no argument) */
static large_op large_next_op;
static int64_t large_next_cols;

static void large_teardown(void *p) {
    large_st *s = p;
    ct_optimizer_free(s->opt);
    ct_tensor_release(s->a);
    ct_tensor_release(s->b);
    ct_tensor_release(s->row);
    ct_tensor_release(s->w);
    ct_tensor_release(s->bias);
    free(s);
}

static void *large_setup(void) {
    large_st *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->op = large_next_op;
    s->cols = large_next_cols;
    s->a = randn2(1000, s->cols);
    s->b = randn2(1000, s->cols);
    s->row = randn2(s->cols, 0);
    s->w = randn2(s->cols, 0);
    s->bias = randn2(s->cols, 0);
    bool ok = s->a && s->b && s->row && s->w && s->bias;
    if (ok && s->op == L_ADAMW) {
        /* one parameter of the tensor's size with a gradient; AdamW with PyTorch's defaults */
        ok = ct_tensor_set_requires_grad(s->a, true) == 0 && ct_tensor_set_grad(s->a, s->b) == 0 &&
             (s->opt = ct_adamw_new(&s->a, 1, ct_adamw_defaults())) != NULL;
    }
    if (!ok) {
        large_teardown(s);
        return NULL;
    }
    return s;
}

static int large_run(void *p) {
    large_st *s = p;
    ct_tensor *r = NULL;
    int64_t zero = 0, last = s->cols;
    switch (s->op) {
    case L_ADD: r = ct_add(s->a, s->b, ct_int(1)); break;
    case L_ADD_INPLACE: return ct_add_(s->a, s->b, ct_int(1));
    case L_MUL_BCAST: r = ct_mul(s->a, s->row); break;
    case L_SUM: r = ct_sum(s->a, CT_DTYPE_UNDEFINED); break;
    case L_SUM0: r = ct_sum_dim(s->a, &zero, 1, false, CT_DTYPE_UNDEFINED); break;
    case L_SOFTMAX: r = ct_softmax(s->a, -1, CT_DTYPE_UNDEFINED); break;
    case L_SOFTMAX0: r = ct_softmax(s->a, 0, CT_DTYPE_UNDEFINED); break;
    case L_LAYER_NORM: r = ct_layer_norm(s->a, &last, 1, s->w, s->bias, 1e-5, true); break;
    case L_GELU: r = ct_gelu(s->a, "none"); break;
    case L_ADAMW: return ct_optimizer_step(s->opt);
    }
    ct_tensor_release(r);
    return r ? 0 : -1;
}

/* "add_1e7" -> L_ADD with 10000 columns; false when id is no large case */
static bool large_case(const char *id, large_op *op, int64_t *cols) {
    const char *u = strrchr(id, '_');
    if (!u || (strcmp(u, "_1e6") != 0 && strcmp(u, "_1e7") != 0)) return false;
    for (size_t i = 0; i < sizeof LARGE / sizeof LARGE[0]; i++)
        if (strlen(LARGE[i].name) == (size_t)(u - id) && strncmp(LARGE[i].name, id, (size_t)(u - id)) == 0) {
            *op = LARGE[i].op;
            *cols = u[3] == '6' ? 1000 : 10000;
            return true;
        }
    return false;
}

/* ---- the operator families at 1e2, 1e4 and 1e6 elements ------------------------------------ */

/* Each case exists at three sizes, as ID_n1e2, ID_n1e4 and ID_n1e6: a [10, 10], [100, 100] or
 * [1000, 1000] float32 tensor of randn values (max_pool2d sees it as [1, 1, R, C], batch_norm as
 * N=R rows of C channels, training, with running statistics); conv2d has one size of its own (N=8,
 * 3->16 channels, 32x32, 3x3, padding 1). The same cases, built the same way, are in
 * bench/peer/libtorch_bench.cpp and bench/peer/torch_bench.py. */
typedef enum fam_op {
    F_EXP, F_BCAST_MUL, F_GT, F_SUM_LAST, F_SUM_DIM0, F_VAR, F_CUMSUM, F_SORT, F_TOPK, F_INDEX, F_GATHER,
    F_SCATTER_ADD, F_MAX_POOL2D, F_BATCH_NORM, F_CONV2D
} fam_op;

static const struct {
    const char *name;
    fam_op op;
} FAMILY[] = {
    {"exp", F_EXP},         {"bcast_mul", F_BCAST_MUL},     {"gt", F_GT},           {"sum_last", F_SUM_LAST},
    {"sum_dim0", F_SUM_DIM0}, {"var", F_VAR},               {"cumsum", F_CUMSUM},   {"sort", F_SORT},
    {"topk", F_TOPK},       {"index", F_INDEX},             {"gather", F_GATHER},   {"scatter_add", F_SCATTER_ADD},
    {"max_pool2d", F_MAX_POOL2D}, {"batch_norm", F_BATCH_NORM},
};

typedef struct fam_st {
    fam_op op;
    int64_t n; /* rows = columns */
    ct_tensor *a, *b, *row, *rows_idx, *idx, *img, *rm, *rv, *w, *bias, *cw, *cb;
} fam_st;

static fam_op fam_next_op;
static int64_t fam_next_n;

static void fam_teardown(void *p) {
    fam_st *s = p;
    ct_tensor *all[] = {s->a, s->b, s->row, s->rows_idx, s->idx, s->img, s->rm, s->rv, s->w, s->bias, s->cw, s->cb};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_tensor_release(all[i]);
    free(s);
}

static void *fam_setup(void) {
    fam_st *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->op = fam_next_op;
    s->n = fam_next_n;
    bool ok;
    if (s->op == F_CONV2D) {
        int64_t xs[4] = {8, 3, 32, 32}, ws[4] = {16, 3, 3, 3}, bs[1] = {16};
        s->a = ct_randn(xs, 4, CT_FLOAT32);
        s->cw = ct_randn(ws, 4, CT_FLOAT32);
        s->cb = ct_randn(bs, 1, CT_FLOAT32);
        ok = s->a && s->cw && s->cb;
    } else {
        int64_t n = s->n, shape[2] = {n, n}, img[4] = {1, 1, n, n};
        s->a = randn2(n, n);
        s->b = randn2(n, n);
        s->row = randn2(n, 0);
        s->rows_idx = ct_randperm(n, CT_INT64);                /* a[idx]: the rows in a random order */
        s->idx = ct_randint(0, n, shape, 2, CT_INT64);          /* gather / scatter_add along dim 1 */
        s->img = s->a ? ct_view(s->a, img, 4) : NULL;
        s->rm = ct_zeros(&n, 1, CT_FLOAT32);
        s->rv = ct_ones(&n, 1, CT_FLOAT32);
        s->w = randn2(n, 0);
        s->bias = randn2(n, 0);
        ok = s->a && s->b && s->row && s->rows_idx && s->idx && s->img && s->rm && s->rv && s->w && s->bias;
    }
    if (!ok) {
        fam_teardown(s);
        return NULL;
    }
    return s;
}

static int fam_run(void *p) {
    fam_st *s = p;
    ct_tensor *r = NULL, *r2 = NULL;
    int64_t zero = 0, last = -1, k2[2] = {2, 2}, none[1] = {0}, one2[2] = {1, 1}, pad1[2] = {1, 1};
    ct_scalar corr = ct_int(1);
    switch (s->op) {
    case F_EXP: r = ct_exp(s->a); break;
    case F_BCAST_MUL: r = ct_mul(s->a, s->row); break;
    case F_GT: r = ct_gt_tensor(s->a, s->b); break;
    case F_SUM_LAST: r = ct_sum_dim(s->a, &last, 1, false, CT_DTYPE_UNDEFINED); break;
    case F_SUM_DIM0: r = ct_sum_dim(s->a, &zero, 1, false, CT_DTYPE_UNDEFINED); break;
    case F_VAR: r = ct_var_correction(s->a, &last, 1, &corr, false); break;
    case F_CUMSUM: r = ct_cumsum(s->a, -1, CT_DTYPE_UNDEFINED); break;
    case F_SORT:
        if (ct_sort(s->a, -1, false, &r, &r2) != 0) return -1;
        break;
    case F_TOPK:
        if (ct_topk(s->a, 5, -1, true, true, &r, &r2) != 0) return -1;
        break;
    case F_INDEX: r = ct_index_tensor(s->a, &s->rows_idx, 1); break;
    case F_GATHER: r = ct_gather(s->a, 1, s->idx, false); break;
    case F_SCATTER_ADD: r = ct_scatter_add(s->a, 1, s->idx, s->b); break;
    case F_MAX_POOL2D: r = ct_max_pool2d(s->img, k2, 2, NULL, 0, none, 1, one2, 2, false); break;
    case F_BATCH_NORM: r = ct_batch_norm(s->a, s->w, s->bias, s->rm, s->rv, true, 0.1, 1e-5, false); break;
    case F_CONV2D: r = ct_conv2d(s->a, s->cw, s->cb, one2, 2, pad1, 2, one2, 2, 1); break;
    }
    ct_tensor_release(r2);
    ct_tensor_release(r);
    return r ? 0 : -1;
}

/* "exp_n1e4" -> F_EXP with 100 rows, "conv2d" -> F_CONV2D; false when id is no such case */
static bool fam_case(const char *id, fam_op *op, int64_t *n) {
    if (strcmp(id, "conv2d") == 0) {
        *op = F_CONV2D;
        *n = 0;
        return true;
    }
    const char *u = strrchr(id, '_');
    if (!u || (strcmp(u, "_n1e2") != 0 && strcmp(u, "_n1e4") != 0 && strcmp(u, "_n1e6") != 0)) return false;
    for (size_t i = 0; i < sizeof FAMILY / sizeof FAMILY[0]; i++)
        if (strlen(FAMILY[i].name) == (size_t)(u - id) && strncmp(FAMILY[i].name, id, (size_t)(u - id)) == 0) {
            *op = FAMILY[i].op;
            *n = u[4] == '2' ? 10 : u[4] == '4' ? 100 : 1000;
            return true;
        }
    return false;
}

/* ---- the case table ------------------------------------------------------------------------ */

static const timed_case TIMED[] = {
    {"add1", small_setup, add1_run, NULL, NULL, small_teardown},
    {"add1_mode", add1_mode_setup, add1_run, add1_mode_begin, add1_mode_end, small_teardown},
    {"add1_inplace", small_setup, add1_inplace_run, NULL, NULL, small_teardown},
    {"empty1", small_setup, empty1_run, NULL, NULL, small_teardown},
    {"noop_op", noop_setup, noop_run, NULL, NULL, small_teardown},
    {"mm32", sq32_setup, mm_run, NULL, NULL, mat_teardown},
    {"linear_fwd", linear_setup, linear_run, NULL, NULL, mat_teardown},
    {"linear_fwdbwd", linear_grad_setup, linear_fwdbwd_run, NULL, NULL, mat_teardown},
    {"step", step_setup, step_run, NULL, NULL, step_teardown},
    {"step_mode", step_mode_setup, step_run, step_mode_begin, step_mode_end, step_teardown},
    {"step_profiler", step_setup, step_run, step_prof_begin, step_prof_end, step_teardown},
    {"step_trace", step_setup, step_run, trace_on, trace_off, step_teardown},
    {"step_d4", step4_setup, step_run, NULL, NULL, step_teardown},
    {"step_d16", step16_setup, step_run, NULL, NULL, step_teardown},
    {"step_d64", step64_setup, step_run, NULL, NULL, step_teardown},
    {"minigpt_step", gpt_setup, gpt_run, NULL, NULL, gpt_teardown},
    {"addmm256", sq256_setup, addmm_run, NULL, NULL, mat_teardown},
    {"addmm2048", sq2048_setup, addmm_run, NULL, NULL, mat_teardown},
    {"mm2048", sq2048_setup, mm_run, NULL, NULL, mat_teardown},
};

static void run_case(const char *id, const bench_opts *o) {
    for (size_t i = 0; i < sizeof TIMED / sizeof TIMED[0]; i++)
        if (strcmp(TIMED[i].id, id) == 0) {
            measure(&TIMED[i], o);
            return;
        }
    large_op op;
    if (large_case(id, &op, &large_next_cols)) {
        large_next_op = op;
        const timed_case c = {id, large_setup, large_run, NULL, NULL, large_teardown};
        measure(&c, o);
        return;
    }
    fam_op fop;
    if (fam_case(id, &fop, &fam_next_n)) {
        fam_next_op = fop;
        const timed_case c = {id, fam_setup, fam_run, NULL, NULL, fam_teardown};
        measure(&c, o);
        return;
    }
    if (strcmp(id, "rss_loop_trace") == 0) {
        rss_loop(id, true);
        return;
    }
    if (strcmp(id, "rss_loop") == 0) {
        rss_loop(id, false);
        return;
    }
    printf("{\"case\": \"%s\", \"skip\": \"not a case of this program\"}\n", id);
    fflush(stdout);
}

/* ---- threads as the process sees them ------------------------------------------------------ */

/* The BLAS the library was linked with, found at run time (OpenBLAS or BLIS), and its threads. */
static void print_meta(int threads) {
    void *self = dlopen(NULL, RTLD_LAZY);
    const char *blas = "none found";
    int blas_threads = -1;
    char blas_buf[160] = "";
    if (self) {
        int (*ob_threads)(void) = (int (*)(void))dlsym(self, "openblas_get_num_threads");
        char *(*ob_config)(void) = (char *(*)(void))dlsym(self, "openblas_get_config");
        int (*bli_threads)(void) = (int (*)(void))dlsym(self, "bli_thread_get_num_threads");
        if (ob_threads) {
            blas_threads = ob_threads();
            snprintf(blas_buf, sizeof blas_buf, "%s", ob_config ? ob_config() : "OpenBLAS");
            blas = blas_buf;
        } else if (bli_threads) {
            blas_threads = bli_threads();
            blas = "BLIS";
        }
    }
    for (char *q = blas_buf; *q; q++)
        if (*q == '"' || *q == '\\') *q = ' ';
    printf("{\"meta\": {\"program\": \"ctorch\", \"version\": \"%s\", \"threads\": %d, \"intra_op_threads\": %d, "
           "\"blas\": \"%s\", \"blas_threads\": %d}}\n",
           CT_BENCH_VERSION, threads, ct_get_num_threads(), blas, blas_threads);
    fflush(stdout);
    if (self) dlclose(self);
}

static void usage(void) {
    fprintf(stderr,
            "usage: bench_ctorch --threads T --cases ID[,ID...] [--warmup-ms MS] [--batch-ms MS] [--batches N]\n"
            "       bench_ctorch --threads T --cases ID[,ID...] --calls N   (untimed, for instruction counts)\n"
            "cases:");
    for (size_t i = 0; i < sizeof TIMED / sizeof TIMED[0]; i++) fprintf(stderr, " %s", TIMED[i].id);
    fprintf(stderr, " rss_loop rss_loop_trace\n      ");
    for (size_t i = 0; i < sizeof LARGE / sizeof LARGE[0]; i++) fprintf(stderr, " %s_1e6 %s_1e7", LARGE[i].name, LARGE[i].name);
    fprintf(stderr, "\n      ");
    for (size_t i = 0; i < sizeof FAMILY / sizeof FAMILY[0]; i++)
        fprintf(stderr, " %s_n1e2 %s_n1e4 %s_n1e6", FAMILY[i].name, FAMILY[i].name, FAMILY[i].name);
    fprintf(stderr, " conv2d\n");
}

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    bench_opts o = {20.0, 30.0, 3, 0};
    int threads = 1;
    char *cases = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            usage();
            return 2;
        }
        if (strcmp(argv[i], "--threads") == 0) threads = atoi(v);
        else if (strcmp(argv[i], "--cases") == 0) cases = strdup(v);
        else if (strcmp(argv[i], "--warmup-ms") == 0) o.warmup_ms = atof(v);
        else if (strcmp(argv[i], "--batch-ms") == 0) o.batch_ms = atof(v);
        else if (strcmp(argv[i], "--batches") == 0) o.batches = atoi(v);
        else if (strcmp(argv[i], "--calls") == 0) o.calls = atol(v);
        else {
            usage();
            return 2;
        }
        i++;
    }
    if (!cases || o.batches < 1 || o.calls < 0) {
        usage();
        free(cases);
        return 2;
    }
    /* torch.set_num_threads(T), as the peers do */
    if (threads < 1 || ct_set_num_threads(threads) != 0) {
        usage();
        free(cases);
        return 2;
    }
    print_meta(threads);
    for (char *save = NULL, *id = strtok_r(cases, ",", &save); id; id = strtok_r(NULL, ",", &save))
        run_case(id, &o);
    free(cases);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"end\": {\"max_rss_kb\": %ld}}\n", ru.ru_maxrss);
    return 0;
}
