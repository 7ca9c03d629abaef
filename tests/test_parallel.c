/* ct_parallel_for's contract (include/ctorch/parallel.h), at::parallel_for's:
 *   - a range of at most a grain (or one element), one thread, or a call from inside a chunk runs
 *     inline as one chunk on the calling thread, as thread number 0 (PyTorch's ThreadIdGuard(0),
 *     nested calls too);
 *   - otherwise t = min(threads, ceil(n / grain)) pieces (threads for a grain of 0) of
 *     ceil(n / t) elements, piece k on thread k, which together cover the range once;
 *   - a failing chunk's error comes back to the caller, and the other chunks still run;
 *   - loops begun from two threads at once each get the split (one runs on the pool, the
 *     other's pieces on its own thread, each with its number);
 *   - ct_set_num_threads refuses a count below one; ct_get_num_threads reads the count back.
 * Where the build has no OpenMP, ct_get_num_threads() is 1 and every loop runs inline: the
 * checks of the split are then skipped. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"

enum { MAX_CHUNKS = 16 };

typedef struct seen {
    atomic_int n;
    int64_t begin[MAX_CHUNKS], end[MAX_CHUNKS];
    int tid[MAX_CHUNKS];
    bool in_region[MAX_CHUNKS];
    int fail_tid;     /* the chunk run by this thread number fails; -1: none */
    atomic_int nested_inline; /* nested loops that ran as one chunk, thread number 0, in the region */
} seen;

static int record(void *ctx, int64_t b, int64_t e) {
    seen *s = ctx;
    int k = atomic_fetch_add(&s->n, 1);
    if (k < MAX_CHUNKS) {
        s->begin[k] = b;
        s->end[k] = e;
        s->tid[k] = ct_get_thread_num();
        s->in_region[k] = ct_in_parallel_region();
    }
    if (s->fail_tid == ct_get_thread_num()) return ct_error_set(CT_ERR_VALUE, "chunk %d failed", ct_get_thread_num());
    return 0;
}

typedef struct nested {
    int tid, calls;
    bool in_region;
    int64_t b, e;
} nested;

static int inner(void *ctx, int64_t b, int64_t e) {
    nested *n = ctx;
    n->calls++;
    n->b = b;
    n->e = e;
    n->tid = ct_get_thread_num();
    n->in_region = ct_in_parallel_region();
    return 0;
}

static int with_nested(void *ctx, int64_t b, int64_t e) {
    seen *s = ctx;
    nested n = {-1, 0, false, 0, 0};
    if (ct_parallel_for(b, e, 1, inner, &n) != 0) return -1;
    if (n.calls == 1 && n.b == b && n.e == e && n.tid == 0 && n.in_region) atomic_fetch_add(&s->nested_inline, 1);
    return record(ctx, b, e);
}

static void reset(seen *s) {
    memset(s, 0, sizeof *s);
    atomic_init(&s->n, 0);
    atomic_init(&s->nested_inline, 0);
    s->fail_tid = -1;
}

/* the chunks of one loop against the expected pieces; parallel: whether each ran inside a
 * parallel region (-1: not checked, for the inline runs) */
static void check_split(const char *what, seen *s, int64_t begin, int64_t end, int64_t pieces, int parallel) {
    int n = atomic_load(&s->n);
    CHECK_MSG(n == pieces, "%s: %d chunks, expected %lld", what, n, (long long)pieces);
    if (n != pieces || n > MAX_CHUNKS) return;
    const int64_t chunk = (end - begin + pieces - 1) / pieces;
    for (int k = 0; k < n; k++) {
        int at = -1; /* the chunk that starts piece k */
        for (int i = 0; i < n; i++)
            if (s->begin[i] == begin + k * chunk) at = i;
        CHECK_MSG(at >= 0, "%s: no chunk starts at %lld", what, (long long)(begin + k * chunk));
        if (at < 0) continue;
        const int64_t want_end = begin + (k + 1) * chunk < end ? begin + (k + 1) * chunk : end;
        CHECK_MSG(s->end[at] == want_end, "%s: piece %d ends at %lld, expected %lld", what, k, (long long)s->end[at],
                  (long long)want_end);
        CHECK_MSG(s->tid[at] == k, "%s: piece %d ran as thread %d", what, k, s->tid[at]);
        CHECK_MSG(parallel < 0 || s->in_region[at] == (parallel == 1), "%s: piece %d: in_parallel_region %d", what, k, s->in_region[at]);
    }
}

/* Loops from two threads at once: one has the pool, the other runs its pieces itself; both
 * must see the split, each piece once with its thread number, every time. */
enum { RACE_LOOPS = 300 };
typedef struct racer {
    int bad;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    for (int i = 0; i < RACE_LOOPS; i++) {
        seen s;
        reset(&s);
        if (ct_parallel_for(0, 3 * CT_GRAIN_SIZE + 1, CT_GRAIN_SIZE, record, &s) != 0) r->bad++;
        int n = atomic_load(&s.n);
        const int64_t chunk = (3 * CT_GRAIN_SIZE + 2) / 2;
        if (n != 2) r->bad++;
        for (int k = 0; k < n && k < MAX_CHUNKS; k++)
            if (s.begin[k] != s.tid[k] * chunk || !s.in_region[k]) r->bad++;
    }
    return NULL;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0);
    const int caller = ct_get_num_threads();
    CHECK(caller >= 1);
    CHECK_INT_EQ(ct_get_thread_num(), 0);
    CHECK(!ct_in_parallel_region());

    /* a count below one is refused and changes nothing */
    CHECK_INT_EQ(ct_set_num_threads(0), -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_RUNTIME);
    /* a NULL chunk function is refused, whatever the range */
    ct_error_clear();
    CHECK_INT_EQ(ct_parallel_for(0, 100000, 1, NULL, NULL), -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_VALUE);
    CHECK(strstr(ct_error_message(), "f is NULL") != NULL);
    CHECK_INT_EQ(ct_set_num_threads(-3), -1);
    CHECK_INT_EQ(ct_get_num_threads(), caller);

    seen s;
    /* one thread: every loop inline, as one chunk */
    CHECK_INT_EQ(ct_set_num_threads(1), 0);
    CHECK_INT_EQ(ct_get_num_threads(), 1);
    reset(&s);
    CHECK_INT_EQ(ct_parallel_for(5, 200005, CT_GRAIN_SIZE, record, &s), 0);
    check_split("1 thread", &s, 5, 200005, 1, -1);

    CHECK_INT_EQ(ct_set_num_threads(2), 0);
    const bool have_threads = ct_get_num_threads() == 2;
    printf("backend: %s; %d threads\n", ct_parallel_backend(), ct_get_num_threads());
    /* at most a grain, or one element: inline */
    reset(&s);
    CHECK_INT_EQ(ct_parallel_for(0, CT_GRAIN_SIZE, CT_GRAIN_SIZE, record, &s), 0);
    check_split("one grain", &s, 0, CT_GRAIN_SIZE, 1, -1);
    reset(&s);
    CHECK_INT_EQ(ct_parallel_for(7, 8, 0, record, &s), 0);
    check_split("one element", &s, 7, 8, 1, -1);
    /* an empty range runs nothing */
    reset(&s);
    CHECK_INT_EQ(ct_parallel_for(9, 9, 0, record, &s), 0);
    CHECK_INT_EQ(atomic_load(&s.n), 0);
    if (have_threads) {
        /* two threads, four grains: two pieces of 50000 */
        reset(&s);
        CHECK_INT_EQ(ct_parallel_for(0, 100000, CT_GRAIN_SIZE, record, &s), 0);
        check_split("100000 over 2", &s, 0, 100000, 2, 1);
        /* an odd range from an offset: ceil(40001 / 2) = 20001, then 20000 */
        reset(&s);
        CHECK_INT_EQ(ct_parallel_for(3, 40004, CT_GRAIN_SIZE, record, &s), 0);
        check_split("40001 over 2", &s, 3, 40004, 2, 1);
        /* a grain of 0: as many pieces as threads, even for two elements */
        reset(&s);
        CHECK_INT_EQ(ct_parallel_for(0, 2, 0, record, &s), 0);
        check_split("grain 0", &s, 0, 2, 2, 1);
        /* three threads and a range of two grains: two pieces, not three */
        CHECK_INT_EQ(ct_set_num_threads(3), 0);
        reset(&s);
        CHECK_INT_EQ(ct_parallel_for(0, 2 * CT_GRAIN_SIZE, CT_GRAIN_SIZE, record, &s), 0);
        check_split("2 grains over 3", &s, 0, 2 * CT_GRAIN_SIZE, 2, 1);
        CHECK_INT_EQ(ct_set_num_threads(2), 0);
        /* nested loops run inline, as one chunk, as thread 0, inside the region */
        reset(&s);
        CHECK_INT_EQ(ct_parallel_for(0, 100000, CT_GRAIN_SIZE, with_nested, &s), 0);
        check_split("nested", &s, 0, 100000, 2, 1);
        CHECK_INT_EQ(atomic_load(&s.nested_inline), 2);
        /* a failing chunk: its error comes back; the other chunk still ran */
        reset(&s);
        s.fail_tid = 1;
        CHECK_INT_EQ(ct_parallel_for(0, 100000, CT_GRAIN_SIZE, record, &s), -1);
        CHECK_ERROR(CT_ERR_VALUE, "chunk 1 failed");
        CHECK_INT_EQ(atomic_load(&s.n), 2);
        /* two threads' loops at the same time */
        racer ra = {0}, rb = {0};
        pthread_t ta, tb;
        CHECK_INT_EQ(pthread_create(&ta, NULL, race, &ra), 0);
        CHECK_INT_EQ(pthread_create(&tb, NULL, race, &rb), 0);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        CHECK_MSG(ra.bad == 0 && rb.bad == 0, "concurrent loops: %d and %d bad pieces", ra.bad, rb.bad);
        /* outside the loop the marks are the caller's again */
        CHECK_INT_EQ(ct_get_thread_num(), 0);
        CHECK(!ct_in_parallel_region());
    } else {
        printf("no intra-op threads in this build: the split checks are skipped\n");
    }
    /* an inline chunk's failure comes back too */
    reset(&s);
    s.fail_tid = 0;
    CHECK_INT_EQ(ct_parallel_for(0, 10, CT_GRAIN_SIZE, record, &s), -1);
    CHECK_ERROR(CT_ERR_VALUE, "chunk 0 failed");

    CHECK_INT_EQ(ct_set_num_threads(caller), 0);
    return ct_test_finish("test_parallel");
}
