/* The intra-op threads (include/ctorch/parallel.h).
 *
 * Note [Parallel for]
 *   ct_parallel_for is at::parallel_for over OpenMP (ParallelOpenMP.h, Parallel-inl.h): the
 *   calling thread opens a parallel region of its team (sized with omp_set_num_threads, not with
 *   a num_threads clause, which PyTorch avoids for GOMP's sake), every member works out the same
 *   split (t = min(team, ceil(n / grain)) pieces of ceil(n / t) elements) and runs the piece of
 *   its own number, the others nothing. A kernel whose float result depends on the split (the
 *   two-pass sum, a per-thread buffer indexed by ct_get_thread_num()) then sees PyTorch's pieces
 *   at the same thread count. Inside a chunk the thread is marked as in a parallel region, so a
 *   nested loop runs inline; an inline loop runs with thread number 0, as ThreadIdGuard(0) does.
 *
 * Note [Parallel for under ThreadSanitizer]
 *   libgomp is not built with ThreadSanitizer, so TSan does not see the hand-over at a region's
 *   start and end (futexes inside libgomp) and would report every kernel's buffers as raced. In
 *   a TSan build the job goes to the team through an atomic pointer instead of the region's
 *   captured variables (whose copy libgomp makes), behind a lock that keeps one region of
 *   ctorch's at a time, and each chunk's end is published with __tsan_release for the caller's
 *   __tsan_acquire. What the kernels' chunks do is then checked as it is: a chunk writing
 *   another's data is reported. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef CTORCH_HAVE_OPENMP
#include <omp.h>
#endif

#include "ctorch/error.h"
#include "ctorch/parallel.h"

#if defined(__SANITIZE_THREAD__)
#define CT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CT_TSAN 1
#endif
#endif

#if defined(CT_TSAN) && defined(CTORCH_HAVE_OPENMP)
#include <pthread.h>
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#endif

static atomic_int set_threads;     /* ct_set_num_threads's count; 0 until called */
static atomic_int default_threads; /* the environment's or the machine's; 0 until first asked */
static _Thread_local int thread_num;
static _Thread_local bool in_parallel;

/* A positive integer at the start of the variable, as std::stoi reads it; 0 when unset or not one. */
static int env_threads(const char *name) {
    const char *s = getenv(name);
    if (!s) return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno != 0 || v <= 0 || v > 1 << 20) return 0;
    return (int)v;
}

/* The physical cores (cpuinfo's core count, TaskThreadPoolBase::defaultNumThreads): distinct
 * (package, core) pairs of the processors sysfs lists; the online processors when it lists none. */
static int physical_cores(void) {
    enum { MAXCPU = 1024 };
    long ids[MAXCPU];
    int nids = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < ncpu && c < MAXCPU; c++) {
        long v[2];
        int got = 0;
        static const char *const files[2] = {"physical_package_id", "core_id"};
        for (int f = 0; f < 2; f++) {
            char path[128];
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/topology/%s", c, files[f]);
            FILE *fp = fopen(path, "r");
            if (!fp) break;
            if (fscanf(fp, "%ld", &v[f]) == 1) got++;
            fclose(fp);
        }
        if (got != 2) continue;
        long id = v[0] * 65536 + v[1];
        bool seen = false;
        for (int k = 0; k < nids && !seen; k++) seen = ids[k] == id;
        if (!seen) ids[nids++] = id;
    }
    if (nids > 0) return nids;
    long on = sysconf(_SC_NPROCESSORS_ONLN);
    return on > 0 ? (int)on : 1;
}

static int compute_default(void) {
    int n = env_threads("CTORCH_NUM_THREADS");
    if (n > 0) return n;
    /* intraop_default_num_threads: MKL_NUM_THREADS wins over OMP_NUM_THREADS */
    n = env_threads("MKL_NUM_THREADS");
    if (n == 0) n = env_threads("OMP_NUM_THREADS");
    return n > 0 ? n : physical_cores();
}

int ct_set_num_threads(int n) {
    if (n <= 0) return ct_error_set(CT_ERR_RUNTIME, "Expected positive number of threads");
    atomic_store_explicit(&set_threads, n, memory_order_relaxed);
    return 0;
}

int ct_get_num_threads(void) {
#ifdef CTORCH_HAVE_OPENMP
    int n = atomic_load_explicit(&set_threads, memory_order_relaxed);
    if (n > 0) return n;
    n = atomic_load_explicit(&default_threads, memory_order_relaxed);
    if (n > 0) return n;
    /* first use: every thread that gets here computes the same count; one store wins */
    int want = compute_default(), zero = 0;
    atomic_compare_exchange_strong(&default_threads, &zero, want);
    return atomic_load(&default_threads);
#else
    return 1;
#endif
}

int ct_get_thread_num(void) { return thread_num; }
bool ct_in_parallel_region(void) { return in_parallel; }

const char *ct_parallel_backend(void) {
#ifdef CTORCH_HAVE_OPENMP
#define CT_STR_(x) #x
#define CT_STR(x) CT_STR_(x)
    return "OpenMP " CT_STR(_OPENMP);
#else
    return "none (built without OpenMP)";
#endif
}

/* Runs f on [b, e) marked as thread tid of a parallel region; restores the marks after. */
static int run_marked(ct_parallel_fn f, void *ctx, int64_t b, int64_t e, int tid, bool parallel) {
    int saved_num = thread_num;
    bool saved_in = in_parallel;
    thread_num = tid;
    in_parallel = parallel;
    int rc = f(ctx, b, e);
    thread_num = saved_num;
    in_parallel = saved_in;
    return rc;
}

#ifdef CTORCH_HAVE_OPENMP
typedef struct job {
    int64_t begin, end, grain;
    ct_parallel_fn f;
    void *ctx;
    atomic_int failed; /* 1 once a chunk failed: that chunk's error is below */
    ct_error_kind kind;
    char msg[1024];
#ifdef CT_TSAN
    char done; /* the address __tsan_release / __tsan_acquire pair on */
#endif
} job;

/* One member's part of the region: team members, this one's number. */
static void run_member(job *j, int64_t team, int64_t tid) {
    int64_t n = j->end - j->begin, t = team;
    if (j->grain > 0 && t > (n + j->grain - 1) / j->grain) t = (n + j->grain - 1) / j->grain;
    int64_t chunk = (n + t - 1) / t, b = j->begin + tid * chunk;
    if (b < j->end && tid < t) {
        int64_t e = j->end - b < chunk ? j->end : b + chunk;
        if (run_marked(j->f, j->ctx, b, e, (int)tid, true) != 0) {
            int zero = 0;
            if (atomic_compare_exchange_strong(&j->failed, &zero, 1)) {
                j->kind = ct_error_code();
                snprintf(j->msg, sizeof j->msg, "%s", ct_error_message());
            }
        }
    }
#ifdef CT_TSAN
    __tsan_release(&j->done);
#endif
}

/* The team size this thread last asked libgomp for (its nthreads ICV is per thread). */
static _Thread_local int team_asked;

#ifdef CT_TSAN
static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(job *) region_job;
static void region_body(void) {
    job *j = atomic_load_explicit(&region_job, memory_order_acquire);
    run_member(j, omp_get_num_threads(), omp_get_thread_num());
}
#endif

static void run_region(job *j, int threads) {
    if (team_asked != threads) {
        omp_set_num_threads(threads);
        team_asked = threads;
    }
#ifdef CT_TSAN
    pthread_mutex_lock(&region_lock);
    atomic_store_explicit(&region_job, j, memory_order_release);
#pragma omp parallel
    region_body();
    __tsan_acquire(&j->done);
    pthread_mutex_unlock(&region_lock);
#else
#pragma omp parallel
    run_member(j, omp_get_num_threads(), omp_get_thread_num());
#endif
}
#endif /* CTORCH_HAVE_OPENMP */

int ct_parallel_for(int64_t begin, int64_t end, int64_t grain_size, ct_parallel_fn f, void *ctx) {
    if (!f) return ct_error_set(CT_ERR_VALUE, "ct_parallel_for: f is NULL");
    if (begin >= end) return 0;
    if (grain_size < 0) grain_size = 0;
    const int64_t n = end - begin;
    const int threads = ct_get_num_threads();
    if (n <= grain_size || n <= 1 || in_parallel || threads <= 1) return run_marked(f, ctx, begin, end, 0, in_parallel);
#ifdef CTORCH_HAVE_OPENMP
    job j = {.begin = begin, .end = end, .grain = grain_size, .f = f, .ctx = ctx};
    atomic_init(&j.failed, 0);
    run_region(&j, threads);
    if (atomic_load(&j.failed)) return ct_error_set(j.kind, "%s", j.msg);
    return 0;
#else
    return run_marked(f, ctx, begin, end, 0, false);
#endif
}
