/* The CPU's measured fused multiply-add peak, in float32 GF/s, so that matrix products can be
 * shown as a share of what the cores can do.
 *
 *   fma_peak --threads T [--cases fma_peak] [--batch-ms MS]
 *
 * Each of T threads runs 12 independent FMA dependency chains on full vector registers
 * (AVX-512: 16 floats, AVX2: 8 floats), enough chains to cover the FMA latency on every
 * x86-64 core with two FMA pipes; a flop count of 2 per lane per FMA. Both instruction sets
 * are measured when the CPU has them; the best of 40 timed runs of each (about --batch-ms each,
 * timed by the threads themselves) is printed, and
 * the peak is the better of the two. Prints the comparison protocol's JSON lines (see
 * bench/bench_ctorch.c). On a CPU (or compiler) without AVX2+FMA it reports the case as skipped. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CT_PEAK_X86 1
#else
#define CT_PEAK_X86 0
#endif

#define CHAINS 12

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile float sink;
/* distinct starting values the compiler cannot see, so it cannot merge the chains */
static volatile float seed[CHAINS] = {1.0f, 1.1f, 1.2f, 1.3f, 1.4f, 1.5f, 1.6f, 1.7f, 1.8f, 1.9f, 2.0f, 2.1f};
static volatile float mul = 0.999999f, add = 1e-7f;

#if CT_PEAK_X86
/* The chains: acc[i] = acc[i] * m + a, with m slightly below 1 so values stay finite. */
__attribute__((target("avx512f"))) static void chains_avx512(long iters) {
    __m512 m = _mm512_set1_ps(mul), a = _mm512_set1_ps(add);
    __m512 c0 = _mm512_set1_ps(seed[0]), c1 = _mm512_set1_ps(seed[1]), c2 = _mm512_set1_ps(seed[2]);
    __m512 c3 = _mm512_set1_ps(seed[3]), c4 = _mm512_set1_ps(seed[4]), c5 = _mm512_set1_ps(seed[5]);
    __m512 c6 = _mm512_set1_ps(seed[6]), c7 = _mm512_set1_ps(seed[7]), c8 = _mm512_set1_ps(seed[8]);
    __m512 c9 = _mm512_set1_ps(seed[9]), c10 = _mm512_set1_ps(seed[10]), c11 = _mm512_set1_ps(seed[11]);
    for (long i = 0; i < iters; i++) {
        c0 = _mm512_fmadd_ps(c0, m, a);
        c1 = _mm512_fmadd_ps(c1, m, a);
        c2 = _mm512_fmadd_ps(c2, m, a);
        c3 = _mm512_fmadd_ps(c3, m, a);
        c4 = _mm512_fmadd_ps(c4, m, a);
        c5 = _mm512_fmadd_ps(c5, m, a);
        c6 = _mm512_fmadd_ps(c6, m, a);
        c7 = _mm512_fmadd_ps(c7, m, a);
        c8 = _mm512_fmadd_ps(c8, m, a);
        c9 = _mm512_fmadd_ps(c9, m, a);
        c10 = _mm512_fmadd_ps(c10, m, a);
        c11 = _mm512_fmadd_ps(c11, m, a);
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)));
    sink = _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static void chains_avx2(long iters) {
    __m256 m = _mm256_set1_ps(mul), a = _mm256_set1_ps(add);
    __m256 c0 = _mm256_set1_ps(seed[0]), c1 = _mm256_set1_ps(seed[1]), c2 = _mm256_set1_ps(seed[2]);
    __m256 c3 = _mm256_set1_ps(seed[3]), c4 = _mm256_set1_ps(seed[4]), c5 = _mm256_set1_ps(seed[5]);
    __m256 c6 = _mm256_set1_ps(seed[6]), c7 = _mm256_set1_ps(seed[7]), c8 = _mm256_set1_ps(seed[8]);
    __m256 c9 = _mm256_set1_ps(seed[9]), c10 = _mm256_set1_ps(seed[10]), c11 = _mm256_set1_ps(seed[11]);
    for (long i = 0; i < iters; i++) {
        c0 = _mm256_fmadd_ps(c0, m, a);
        c1 = _mm256_fmadd_ps(c1, m, a);
        c2 = _mm256_fmadd_ps(c2, m, a);
        c3 = _mm256_fmadd_ps(c3, m, a);
        c4 = _mm256_fmadd_ps(c4, m, a);
        c5 = _mm256_fmadd_ps(c5, m, a);
        c6 = _mm256_fmadd_ps(c6, m, a);
        c7 = _mm256_fmadd_ps(c7, m, a);
        c8 = _mm256_fmadd_ps(c8, m, a);
        c9 = _mm256_fmadd_ps(c9, m, a);
        c10 = _mm256_fmadd_ps(c10, m, a);
        c11 = _mm256_fmadd_ps(c11, m, a);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
    float v[8];
    _mm256_storeu_ps(v, s);
    sink = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
}
#endif

typedef struct job {
    void (*fn)(long);
    long iters;
    pthread_barrier_t *start;
    double t0, t1; /* the thread's own start and end of its chains */
} job;

static void *worker(void *p) {
    job *j = p;
    pthread_barrier_wait(j->start);
    j->t0 = now_ns();
    j->fn(j->iters);
    j->t1 = now_ns();
    return NULL;
}

/* Wall time of `threads` threads each running fn(iters): from the first thread's start to the
 * last one's end, as the threads themselves read the clock (the main thread may be descheduled
 * while they run, so it does not time them). */
static double run_threads(void (*fn)(long), long iters, int threads) {
    pthread_t tid[64];
    job jobs[64];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (int i = 0; i < threads; i++) {
        jobs[i] = (job){fn, iters, &start, 0, 0};
        if (pthread_create(&tid[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "fma_peak: cannot start thread %d\n", i + 1);
            exit(1); /* the threads already started wait at the barrier: end the process */
        }
    }
    double first = 0, last = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        if (i == 0 || jobs[i].t0 < first) first = jobs[i].t0;
        if (i == 0 || jobs[i].t1 > last) last = jobs[i].t1;
    }
    pthread_barrier_destroy(&start);
    return last - first;
}

/* Best GF/s of RUNS runs of about batch_ms each (the best: other load only ever slows a run;
 * short runs, many of them, so that on a shared machine some run without being preempted). */
#define RUNS 40
static double gflops(void (*fn)(long), int lanes, int threads, double batch_ms) {
    long iters = 1000;
    double t = 1e300;
    for (int r = 0; r < 5; r++) { /* calibrate on the fastest of a few runs of >= 1 ms */
        double tr = run_threads(fn, iters, threads);
        while (tr < 1e6) {
            iters *= 2;
            tr = run_threads(fn, iters, threads);
        }
        double per = tr / (double)iters;
        if (per < t) t = per;
    }
    iters = (long)(batch_ms * 1e6 / t);
    if (iters < 1000) iters = 1000;
    double best = 0;
    for (int r = 0; r < RUNS; r++) {
        t = run_threads(fn, iters, threads);
        double g = 2.0 * CHAINS * lanes * (double)iters * threads / t;
        if (g > best) best = g;
    }
    return best;
}

int main(int argc, char **argv) {
    int threads = 1;
    double batch_ms = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--threads") == 0) threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--batch-ms") == 0) batch_ms = atof(argv[i + 1]);
        /* --cases and the timing options of the other programs are accepted and ignored */
    }
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "fma_peak: --threads must be 1..64\n");
        return 2;
    }
    if (batch_ms < 1) batch_ms = 1;
    printf("{\"meta\": {\"program\": \"fma_peak\", \"threads\": %d, \"intra_op_threads\": %d}}\n", threads, threads);
#if CT_PEAK_X86
    __builtin_cpu_init();
    double g512 = -1, g256 = -1;
    if (__builtin_cpu_supports("avx512f")) g512 = gflops(chains_avx512, 16, threads, batch_ms);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) g256 = gflops(chains_avx2, 8, threads, batch_ms);
    if (g512 > 0 || g256 > 0) {
        printf("{\"case\": \"fma_peak\", \"values\": {\"gflops\": %.2f, \"isa\": \"%s\"", g512 > g256 ? g512 : g256,
               g512 > g256 ? "AVX-512" : "AVX2");
        if (g512 > 0) printf(", \"avx512_gflops\": %.2f", g512);
        if (g256 > 0) printf(", \"avx2_gflops\": %.2f", g256);
        printf("}}\n");
    } else {
        printf("{\"case\": \"fma_peak\", \"skip\": \"this CPU has neither AVX-512 nor AVX2 with FMA\"}\n");
    }
#else
    printf("{\"case\": \"fma_peak\", \"skip\": \"not an x86-64 build\"}\n");
#endif
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"end\": {\"max_rss_kb\": %ld}}\n", ru.ru_maxrss);
    return 0;
}
