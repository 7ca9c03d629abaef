/* The intra-op threads (include/ctorch/parallel.h).
 *
 * Note [Parallel for]
 *   ct_parallel_for keeps at::parallel_for's split (ParallelOpenMP.h, Parallel-inl.h): every
 *   member of a team of t threads works out the same pieces (t = min(team, ceil(n / grain))
 *   pieces of ceil(n / t) elements) and runs the piece of its own number, the others nothing. A
 *   kernel whose float result depends on the split (the two-pass sum, a per-thread buffer
 *   indexed by ct_get_thread_num()) then sees PyTorch's pieces at the same thread count. Inside
 *   a chunk the thread is marked as in a parallel region, so a nested loop runs inline; an
 *   inline loop runs with thread number 0, as ThreadIdGuard(0) does.
 *
 * Note [The pool]
 *   The team is ctorch's own: threads - 1 workers started on the first loop that needs them,
 *   and the calling thread as member 0. A loop publishes its job, moves a generation counter
 *   and runs its own piece; each worker runs its piece and counts itself off; the caller waits
 *   for the count to reach zero. A waiting thread (a worker between loops, the caller at the
 *   end) looks at its word for at most SPIN_NS, yielding the core every few looks, and then
 *   sleeps on a futex. This replaced OpenMP (libgomp): after a region libgomp's workers spin
 *   for some 300,000 pause instructions without yielding (milliseconds here), and OpenBLAS's
 *   own threads, which the products run on, waited for that core: at two threads the lab's
 *   forward + backward (a 38,400-element loop, then small products) took 7.6 ms instead of
 *   9 us. libgomp reads GOMP_SPINCOUNT once, when it is loaded, so a library cannot lower it
 *   for itself.
 *
 *   One loop runs on the pool at a time. A loop begun while another thread's loop has it runs
 *   its pieces one after another on its own thread, each with its thread number, so its bits
 *   are those of the split. After fork() the child starts new workers when it needs them.
 *   The hand-over is C11 atomics (the futexes only sleep and wake), so ThreadSanitizer sees it
 *   and checks what the chunks themselves do. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* syscall(SYS_futex) */
#endif
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ctorch/error.h"
#include "ctorch/parallel.h"

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
    return "ctorch's thread pool (pthreads, futex waits)";
#else
    return "none (built without threads)";
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
}

/* ---- the pool (Note [The pool]) ---- */

enum { MAX_WORKERS = 255 };

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER; /* one region at a time */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static int nworkers;                  /* started, under pool_lock */
static atomic_uint generation;        /* one more per region; the workers' futex word */
static atomic_int workers_asleep;     /* workers in (or going into) their futex wait */
static atomic_uint pending;           /* workers yet to finish this region; the caller's futex word */
static atomic_int caller_asleep;
static job *region_job;               /* written before generation moves, read after */
static int region_team;

static void futex_wait(atomic_uint *word, unsigned expected) {
    syscall(SYS_futex, (void *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}
static void futex_wake(atomic_uint *word) { syscall(SYS_futex, (void *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0); }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins on *word while it equals `value` for at most SPIN_NS, giving the core away between
 * looks; true when it changed. */
#define SPIN_NS 50000
static bool spin_while(atomic_uint *word, unsigned value) {
    uint64_t start = 0;
    for (unsigned i = 0;; i++) {
        for (int k = 0; k < 16; k++) {
            if (atomic_load_explicit(word, memory_order_acquire) != value) return true;
            cpu_relax();
        }
        if ((i & 7) == 7) {
            sched_yield();
            uint64_t t = now_ns();
            if (start == 0) start = t;
            else if (t - start > SPIN_NS) return false;
        }
    }
}

static void *worker_main(void *arg) {
    /* its member number, and the generation when it was started (it must not miss a region
     * begun before it first looks) */
    const uint64_t packed = (uint64_t)(uintptr_t)arg;
    const int index = (int)(packed & 0xffff);
    unsigned seen = (unsigned)(packed >> 16);
    for (;;) {
        if (!spin_while(&generation, seen)) {
            atomic_fetch_add(&workers_asleep, 1);
            while (atomic_load(&generation) == seen) futex_wait(&generation, seen);
            atomic_fetch_sub(&workers_asleep, 1);
        }
        seen = atomic_load_explicit(&generation, memory_order_acquire);
        if (index < region_team) run_member(region_job, region_team, index);
        if (atomic_fetch_sub(&pending, 1) == 1 && atomic_load(&caller_asleep)) futex_wake(&pending);
    }
    return NULL;
}

/* after fork() the child has only the forking thread: the workers are gone, and the lock may
 * have been held by a thread that is not there */
static void pool_forget(void) {
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&pool_lock, &fresh, sizeof fresh);
    nworkers = 0;
    atomic_store(&workers_asleep, 0);
    atomic_store(&pending, 0);
    atomic_store(&caller_asleep, 0);
}
static void install_fork_handler(void) { pthread_atfork(NULL, NULL, pool_forget); }

/* Starts workers until there are `want` (or as many as start); under pool_lock. */
static void grow(int want) {
    pthread_once(&fork_once, install_fork_handler);
    while (nworkers < want && nworkers < MAX_WORKERS) {
        pthread_attr_t attr;
        pthread_t th;
        if (pthread_attr_init(&attr) != 0) return;
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        uint64_t packed = (uint64_t)atomic_load(&generation) << 16 | (uint64_t)(nworkers + 1);
        int rc = pthread_create(&th, &attr, worker_main, (void *)(uintptr_t)packed);
        pthread_attr_destroy(&attr);
        if (rc != 0) return;
        nworkers++;
    }
}

static void run_region(job *j, int threads) {
    if (pthread_mutex_trylock(&pool_lock) != 0) {
        /* another thread's region holds the pool: the same pieces, one after another, here */
        for (int t = 0; t < threads; t++) run_member(j, threads, t);
        return;
    }
    grow(threads - 1);
    if (nworkers < threads - 1) { /* the system gave fewer threads: the rest run here */
        pthread_mutex_unlock(&pool_lock);
        for (int t = 0; t < threads; t++) run_member(j, threads, t);
        return;
    }
    region_job = j;
    region_team = threads;
    atomic_store(&pending, nworkers);
    atomic_fetch_add(&generation, 1); /* releases the job to the workers */
    if (atomic_load(&workers_asleep) > 0) futex_wake(&generation);
    run_member(j, threads, 0);
    atomic_uint *word = &pending;
    for (;;) {
        unsigned left = atomic_load_explicit(word, memory_order_acquire);
        if (left == 0 || !spin_while(word, left)) {
            if (atomic_load_explicit(word, memory_order_acquire) == 0) break;
            atomic_store(&caller_asleep, 1);
            unsigned v = atomic_load(word);
            if (v != 0) futex_wait(word, v);
            atomic_store(&caller_asleep, 0);
        }
    }
    pthread_mutex_unlock(&pool_lock);
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
