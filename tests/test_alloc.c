/* The allocator and a regression guard on allocation that cannot flake: it counts, through the
 * allocator's own counters, what each dispatched op and each training step allocates, with
 * exact or upper bounds, never time.
 *
 *   - size classes and the cache: a freed block is handed out again; calloc zeroes a reused
 *     block; realloc keeps contents; the limit bounds the cache; trim empties it; bad input
 *     to the stats API gets an error; an exiting thread gives its cache back;
 *   - per op: a 1-element add allocates exactly its result (one block), add_ nothing,
 *     linear forward and forward+backward at most what they allocate today, and in steady state
 *     none of them reaches the system allocator;
 *   - per seed-MLP step (examples/step_tracer.c's model and batch): at most today's count, none
 *     from the system after the first step, and no growth of live bytes over many steps; with
 *     the decision trace collected the step allocates exactly what it does without (the ring is
 *     allocated once); with the profiler on, once its event limit is reached, the same;
 *   - resident memory does not grow over 10,000 steps with the decision trace on (optimised,
 *     unsanitised builds only: the sanitizer's own bookkeeping grows). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "ctorch/testing.h"
#include "ctorch/trace.h"
#include "harness.h"
#include "step_tracer.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

/* Today's counts (the test prints them). Lower them when an op allocates less; never raise
 * one without knowing which allocation was added and why. */
#define CT_ALLOC_BOUND_LINEAR 4
#define CT_ALLOC_BOUND_LINEAR_GRAD 13
#define CT_ALLOC_BOUND_LINEAR_FWD_BWD 48
#define CT_ALLOC_BOUND_STEP 111

static ct_alloc_stats snap(void) {
    ct_alloc_stats s;
    ct_alloc_get_stats(CT_ALLOC_THREAD, &s);
    return s;
}

/* what one run of a piece of work allocated */
typedef struct cost {
    long long allocs, frees, system, live;
} cost;

static cost diff(ct_alloc_stats a, ct_alloc_stats b) {
    cost c = {b.allocations - a.allocations, b.frees - a.frees, b.system_allocs - a.system_allocs,
              b.bytes_live - a.bytes_live};
    return c;
}

/* ---- the allocator itself ---- */

static void test_allocator(void) {
    ct_alloc_trim();
    ct_alloc_stats s0 = snap();
    char *a = ct_malloc(100);
    CHECK(a != NULL);
    memset(a, 0x5a, 100);
    ct_alloc_stats s1 = snap();
    CHECK_INT_EQ(s1.allocations - s0.allocations, 1);
    CHECK_INT_EQ(s1.bytes_live - s0.bytes_live, 100);
    CHECK_INT_EQ(s1.system_allocs - s0.system_allocs, 1); /* the cache was empty */
    ct_free(a);
    ct_alloc_stats s2 = snap();
    CHECK_INT_EQ(s2.frees - s1.frees, 1);
    CHECK_INT_EQ(s2.bytes_live, s0.bytes_live);
    CHECK(s2.bytes_cached > s1.bytes_cached);
    /* the same size class again: the freed block, from the cache */
    char *b = ct_calloc(10, 11);
    CHECK(b == a);
    int zero = 1;
    for (int i = 0; b && i < 110; i++) zero &= b[i] == 0;
    CHECK_MSG(zero, "ct_calloc returns zeroed memory from the cache");
    ct_alloc_stats s3 = snap();
    CHECK_INT_EQ(s3.cache_hits - s2.cache_hits, 1);
    CHECK_INT_EQ(s3.system_allocs, s2.system_allocs);
    /* realloc keeps the contents, in place or not */
    for (int i = 0; b && i < 110; i++) b[i] = (char)i;
    char *c = ct_realloc(b, 5000);
    CHECK(c != NULL);
    int same = 1;
    for (int i = 0; c && i < 110; i++) same &= c[i] == (char)i;
    CHECK_MSG(same, "ct_realloc keeps the contents");
    ct_free(c);
    /* 64-byte aligned blocks */
    void *al = ct_aligned_alloc(1000);
    CHECK(al && ((uintptr_t)al & 63) == 0);
    ct_aligned_free(al, 1000);
    /* blocks over the largest class go to the shared list of large blocks: a request of the
     * same size gets the block back, one far smaller does not, and trim gives it back */
    ct_alloc_trim();
    ct_alloc_stats s4 = snap();
    const size_t bign = 2 * CT_ALLOC_MAX_CACHED_BLOCK; /* and 3/4 of it is over the largest class too */
    void *big = ct_malloc(bign);
    CHECK(big != NULL);
    ct_free(big);
    ct_alloc_stats s5 = snap();
    CHECK_INT_EQ(s5.system_allocs - s4.system_allocs, 1);
    CHECK_INT_EQ(s5.system_frees - s4.system_frees, 0);
    CHECK(s5.bytes_cached >= s4.bytes_cached + (long long)bign);
    void *big2 = ct_malloc(bign);
    CHECK(big2 == big);
    ct_alloc_stats s5b = snap();
    CHECK_INT_EQ(s5b.cache_hits - s5.cache_hits, 1);
    CHECK_INT_EQ(s5b.system_allocs, s5.system_allocs);
    ct_free(big2);
    void *huge = ct_aligned_alloc(2 * bign); /* too big for the kept block */
    void *small_big = ct_aligned_alloc(bign / 4 * 3); /* too small for it */
    CHECK(huge != NULL && huge != big && small_big != NULL && small_big != big);
    CHECK_INT_EQ(snap().system_allocs - s5b.system_allocs, 2);
    ct_aligned_free(huge, 2 * bign);
    ct_aligned_free(small_big, bign / 4 * 3);
    ct_alloc_trim();
    ct_alloc_stats s5c = snap();
    CHECK_INT_EQ(s5c.system_frees - s5b.system_frees, 3);
    CHECK_INT_EQ(s5c.bytes_cached, 0);
    /* caching off: a large block goes straight back */
    size_t keep_limit = ct_alloc_cache_limit();
    ct_alloc_set_cache_limit(0);
    big = ct_malloc(bign);
    ct_free(big);
    CHECK_INT_EQ(snap().bytes_cached, 0);
    CHECK_INT_EQ(snap().system_frees - s5c.system_frees, 1);
    ct_alloc_set_cache_limit(keep_limit);
    /* the limit bounds the cache; 0 turns it off */
    size_t limit = ct_alloc_cache_limit();
    ct_alloc_trim();
    CHECK_INT_EQ(snap().bytes_cached, 0);
    ct_alloc_set_cache_limit(0);
    void *d = ct_malloc(64);
    ct_free(d);
    CHECK_INT_EQ(snap().bytes_cached, 0);
    ct_alloc_set_cache_limit(4096);
    void *blocks[8];
    for (int i = 0; i < 8; i++) blocks[i] = ct_malloc(1000);
    for (int i = 0; i < 8; i++) ct_free(blocks[i]);
    CHECK_MSG(snap().bytes_cached <= 4096, "cache holds %lld bytes over its 4096-byte limit", (long long)snap().bytes_cached);
    ct_alloc_set_cache_limit(limit);
    CHECK(ct_alloc_cache_limit() == limit);
    /* peak */
    ct_alloc_reset_peak();
    ct_alloc_stats s6 = snap();
    CHECK_INT_EQ(s6.bytes_peak, s6.bytes_live);
    void *e = ct_malloc(1 << 16);
    ct_free(e);
    CHECK_INT_EQ(snap().bytes_peak, s6.bytes_live + (1 << 16));
    /* the process view covers this thread */
    ct_alloc_stats ps;
    CHECK_INT_EQ(ct_alloc_get_stats(CT_ALLOC_PROCESS, &ps), 0);
    CHECK(ps.allocations >= snap().allocations);
    /* misuse */
    CHECK_INT_EQ(ct_alloc_get_stats(CT_ALLOC_THREAD, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_alloc_get_stats: out is NULL");
    CHECK_INT_EQ(ct_alloc_get_stats((ct_alloc_scope)7, &ps), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_alloc_get_stats: invalid scope 7");
    /* an injected failure is counted and leaves the counters consistent */
    ct_alloc_stats s7 = snap();
    ct_testing_fail_alloc_after(1);
    CHECK(ct_malloc(10) == NULL);
    CHECK_ERROR(CT_ERR_NOMEM, "DefaultCPUAllocator: can't allocate memory: you tried to allocate 10 bytes.");
    ct_alloc_stats s8 = snap();
    CHECK_INT_EQ(s8.failed - s7.failed, 1);
    CHECK_INT_EQ(s8.allocations, s7.allocations);
}

/* a thread's cache goes back to the system when it exits; its counts stay in the process view */
static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 100; i++) ct_free(ct_malloc(200));
    int64_t one = 1;
    ct_tensor_release(ct_ones(&one, 1, CT_DTYPE_UNDEFINED));
    return NULL;
}

static void test_thread_exit(void) {
    int64_t one = 1;
    ct_tensor_release(ct_ones(&one, 1, CT_DTYPE_UNDEFINED)); /* the operator registry is built here, not there */
    ct_alloc_stats before, after;
    ct_alloc_get_stats(CT_ALLOC_PROCESS, &before);
    pthread_t th;
    CHECK_INT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
    pthread_join(th, NULL);
    ct_alloc_get_stats(CT_ALLOC_PROCESS, &after);
    CHECK_MSG(after.allocations - before.allocations >= 101, "the exited thread's allocations are counted");
    CHECK_INT_EQ(after.frees - before.frees, after.allocations - before.allocations);
    /* every block it took from the system went back: nothing of it stays cached */
    CHECK_INT_EQ(after.system_frees - before.system_frees, after.system_allocs - before.system_allocs);
    CHECK_INT_EQ(after.bytes_cached, before.bytes_cached);
}

/* ---- per op ---- */

typedef struct op_ctx {
    ct_tensor *a, *b, *x, *w, *bias, *wg, *bg;
} op_ctx;

static void op_add(op_ctx *c) { ct_tensor_release(ct_add(c->a, c->b, ct_int(1))); }
static void op_add_(op_ctx *c) { ct_add_(c->a, c->b, ct_double(0.0)); }
static void op_detach(op_ctx *c) { ct_tensor_release(ct_detach(c->wg)); }
static void op_linear(op_ctx *c) { ct_tensor_release(ct_linear(c->x, c->w, c->bias)); }
static void op_linear_grad(op_ctx *c) { ct_tensor_release(ct_linear(c->x, c->wg, c->bg)); }
static void op_linear_fwd_bwd(op_ctx *c) {
    ct_tensor *y = ct_linear(c->x, c->wg, c->bg);
    ct_tensor *s = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    if (s) ct_backward(s, NULL, false);
    ct_tensor_release(s);
    ct_tensor_release(y);
}

/* runs op a few times to warm the cache, then counts one run */
static cost measure(void (*op)(op_ctx *), op_ctx *c) {
    for (int i = 0; i < 3; i++) op(c);
    ct_alloc_stats a = snap();
    op(c);
    return diff(a, snap());
}

static void check_op(const char *name, cost k, long long max_allocs, bool exact) {
    printf("  %-28s %3lld allocations, %3lld frees, %lld from the system, live %+lld bytes\n", name, k.allocs,
           k.frees, k.system, k.live);
    if (exact) CHECK_MSG(k.allocs == max_allocs, "%s: %lld allocations, want exactly %lld", name, k.allocs, max_allocs);
    else CHECK_MSG(k.allocs <= max_allocs, "%s: %lld allocations, want at most %lld", name, k.allocs, max_allocs);
    CHECK_MSG(k.frees == k.allocs, "%s: %lld frees for %lld allocations", name, k.frees, k.allocs);
    CHECK_MSG(k.system == 0, "%s: %lld blocks from the system allocator in steady state", name, k.system);
}

static void test_per_op(void) {
    printf("allocations per dispatched op (steady state):\n");
    int64_t one = 1, xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    op_ctx c;
    c.a = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    c.b = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    c.x = ct_ones(xs, 2, CT_DTYPE_UNDEFINED);
    c.w = ct_ones(ws, 2, CT_DTYPE_UNDEFINED);
    c.bias = ct_ones(bs, 1, CT_DTYPE_UNDEFINED);
    c.wg = ct_ones(ws, 2, CT_DTYPE_UNDEFINED);
    c.bg = ct_ones(bs, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(c.wg, true);
    ct_tensor_set_requires_grad(c.bg, true);
    /* a new tensor's header, storage and data are one allocation (Note [One block for a new tensor]) */
    check_op("add, 1 element", measure(op_add, &c), 1, true);
    check_op("add_, 1 element", measure(op_add_, &c), 0, true);
    /* the detached view is the one header the kernel below ADInplaceOrView made (Note [A detached
     * copy of a tensor nobody else holds]) */
    check_op("detach, requires grad", measure(op_detach, &c), 1, true);
    check_op("linear 2x64 by 600x64", measure(op_linear, &c), CT_ALLOC_BOUND_LINEAR, false);
    check_op("linear, weight requires grad", measure(op_linear_grad, &c), CT_ALLOC_BOUND_LINEAR_GRAD, false);
    check_op("linear forward + backward", measure(op_linear_fwd_bwd, &c), CT_ALLOC_BOUND_LINEAR_FWD_BWD, false);
    ct_tensor *ts[] = {c.a, c.b, c.x, c.w, c.bias, c.wg, c.bg};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
}

/* ---- per training step ---- */

typedef struct trainer {
    ct_module *model;
    ct_tensor *x, *y, *params[4];
    ct_optimizer *opt;
} trainer;

static int trainer_init(trainer *t) {
    memset(t, 0, sizeof *t);
    t->model = ct_example_make_model(0);
    if (!t->model || ct_example_make_batch(1, &t->x, &t->y) != 0) return -1;
    ct_module_parameters(t->model, t->params, 4);
    t->opt = ct_sgd_new(t->params, 4, ct_sgd_defaults(0.1));
    return t->opt ? 0 : -1;
}

static void trainer_free(trainer *t) {
    ct_optimizer_free(t->opt);
    ct_tensor_release(t->x);
    ct_tensor_release(t->y);
    ct_module_free(t->model);
}

/* zero_grad (set_to_none), forward, cross_entropy, backward, SGD step */
static int step(trainer *t) {
    if (ct_optimizer_zero_grad(t->opt, true) != 0) return -1;
    ct_tensor *logits = ct_module_forward(t->model, t->x);
    ct_tensor *loss = logits ? ct_cross_entropy(logits, t->y, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int rc = loss && ct_backward(loss, NULL, false) == 0 && ct_optimizer_step(t->opt) == 0 ? 0 : -1;
    ct_tensor_release(loss);
    ct_tensor_release(logits);
    return rc;
}

/* runs `warm` steps, then counts one step, then runs `more` and checks live bytes did not move */
static cost step_cost(trainer *t, int warm, int more, const char *what) {
    int bad = 0;
    for (int i = 0; i < warm; i++) bad |= step(t);
    ct_alloc_stats a = snap();
    bad |= step(t);
    ct_alloc_stats b = snap();
    for (int i = 0; i < more; i++) bad |= step(t);
    ct_alloc_stats c = snap();
    CHECK_MSG(!bad, "%s: a step failed: %s", what, ct_error_message());
    CHECK_MSG(c.bytes_live == b.bytes_live, "%s: live bytes grew by %lld over %d steps", what,
              (long long)(c.bytes_live - b.bytes_live), more);
    CHECK_MSG(c.system_allocs == b.system_allocs, "%s: %lld blocks from the system allocator over %d steps", what,
              (long long)(c.system_allocs - b.system_allocs), more);
    cost k = diff(a, b);
    printf("  %-28s %3lld allocations, %3lld frees, %lld from the system, live %+lld bytes\n", what, k.allocs,
           k.frees, k.system, k.live);
    return k;
}

static void test_per_step(void) {
    printf("allocations per seed-MLP training step (16-32-4, batch 8, cross_entropy, SGD):\n");
    trainer t;
    CHECK(trainer_init(&t) == 0);
    ct_alloc_stats s0 = snap();
    CHECK(step(&t) == 0);
    ct_alloc_stats s1 = snap();
    cost plain = step_cost(&t, 2, 200, "plain step");
    CHECK_MSG(plain.allocs <= CT_ALLOC_BOUND_STEP, "a step makes %lld allocations, want at most %d", plain.allocs,
              CT_ALLOC_BOUND_STEP);
    CHECK_INT_EQ(plain.frees, plain.allocs);
    CHECK_INT_EQ(plain.system, 0);
    CHECK_INT_EQ(plain.live, 0);
    /* the first step warmed the cache: it is the one that reached the system */
    CHECK(s1.system_allocs > s0.system_allocs);

    /* collecting the decision trace allocates nothing per hop */
    ct_trace_set_capacity(4096);
    CHECK_INT_EQ(ct_trace_begin(), 0);
    cost traced = step_cost(&t, 40, 200, "step, trace collected");
    ct_trace_stats ts;
    ct_trace_get_stats(&ts);
    CHECK(ts.overwritten > 0); /* the ring wrapped: memory stayed bounded all the same */
    ct_dispatch_record *recs = NULL;
    size_t n = 0;
    CHECK_INT_EQ(ct_trace_end(&recs, &n), 0);
    CHECK_INT_EQ(n, 4096);
    ct_free(recs);
    ct_trace_set_capacity(CT_TRACE_DEFAULT_CAPACITY);
    CHECK_INT_EQ(traced.allocs, plain.allocs);
    CHECK_INT_EQ(traced.live, 0);

    /* the profiler: once its event limit is reached it holds still */
    ct_profiler *p = ct_profiler_start(false);
    CHECK(p != NULL);
    ct_profiler_set_max_events(p, 2048);
    cost profiled = step_cost(&t, 40, 200, "step, profiler at its limit");
    CHECK(ct_profiler_dropped_events(p) > 0);
    CHECK_INT_EQ(ct_profiler_raw_event_count(p), 2048);
    ct_profiler_stop(p);
    ct_profiler_free(p);
    CHECK_INT_EQ(profiled.allocs, plain.allocs);

    trainer_free(&t);
}

/* ---- resident memory over 10,000 steps with tracing on ---- */

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long pages = 0, rss = 0;
    int ok = fscanf(f, "%ld %ld", &pages, &rss) == 2;
    fclose(f);
    return ok ? rss * 4 : -1;
}

static void test_rss(void) {
    trainer t;
    CHECK(trainer_init(&t) == 0);
    CHECK_INT_EQ(ct_trace_begin(), 0);
    int bad = 0;
    /* the default ring (65536 hops) fills within the first thousand steps */
    for (int i = 0; i < 1000; i++) bad |= step(&t);
    long r0 = rss_kib();
    ct_alloc_stats a = snap();
    for (int i = 0; i < 9000; i++) bad |= step(&t);
    long r1 = rss_kib();
    ct_alloc_stats b = snap();
    ct_trace_stats ts;
    ct_trace_get_stats(&ts);
    CHECK_INT_EQ(ct_trace_end(NULL, NULL), 0);
    CHECK(!bad);
    printf("10,000 steps with the decision trace collected: %llu hops recorded, %llu overwritten; "
           "resident %ld KiB after 1,000 steps, %ld KiB after 10,000; live bytes %+lld\n",
           (unsigned long long)ts.recorded, (unsigned long long)ts.overwritten, r0, r1,
           (long long)(b.bytes_live - a.bytes_live));
    CHECK_INT_EQ(b.bytes_live, a.bytes_live);
    CHECK_INT_EQ(b.system_allocs, a.system_allocs);
#ifndef SANITIZED
    if (r0 > 0 && r1 > 0) CHECK_MSG(r1 - r0 <= 256, "resident memory grew by %ld KiB over 9,000 steps", r1 - r0);
#endif
    trainer_free(&t);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    test_allocator();
    test_thread_exit();
    test_per_op();
    test_per_step();
    test_rss();
    return ct_test_finish("test_alloc");
}
