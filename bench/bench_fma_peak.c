/* This machine's float32 multiply-add peak, measured: the GF/s that ctorch's kernels (and a
 * BLAS) can at best reach, to put a matrix product's rate in proportion.
 *
 *   bench_fma_peak [THREADS]
 *
 * Runs each CPU capability's multiply-add loop (src/ops/cpu/vec/peak_vec.c: independent chains
 * of fused multiply-adds at the level's widest vectors; the DEFAULT level has no fused
 * multiply-add and shows a multiply and an add) on 1 thread and on THREADS threads at once
 * (default: every online CPU), best of 5 runs of ~0.1 s, and prints GF/s. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ops/cpu/capability.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct job {
    const ct_vec_kernels *k;
    int64_t iters, flops;
    float sink;
} job;

static void *run_job(void *arg) {
    job *j = arg;
    j->sink = j->k->fma_loop(j->iters, &j->flops);
    return NULL;
}

/* GF/s of n threads each running iters rounds, best of 5 */
static double gflops(const ct_vec_kernels *k, int n, int64_t iters) {
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        job jobs[256];
        pthread_t th[256];
        double t0 = now_s();
        for (int i = 0; i < n; i++) {
            jobs[i].k = k;
            jobs[i].iters = iters;
            pthread_create(&th[i], NULL, run_job, &jobs[i]);
        }
        int64_t flops = 0;
        for (int i = 0; i < n; i++) {
            pthread_join(th[i], NULL);
            flops += jobs[i].flops;
            if (jobs[i].sink == 12345.0f) printf(" "); /* keeps the result alive */
        }
        double g = (double)flops / (now_s() - t0) * 1e-9;
        if (g > best) best = g;
    }
    return best;
}

int main(int argc, char **argv) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = argc > 1 ? atoi(argv[1]) : (int)(ncpu > 0 ? ncpu : 1);
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    printf("float32 multiply-add peak (best of 5), %d thread(s) = %s\n", threads, argc > 1 ? "as asked" : "every online CPU");
    printf("%-10s %14s %14s\n", "level", "1 thread", "all threads");
    for (int l = 0; l < CT_CPU_CAPABILITY_COUNT; l++) {
        const ct_vec_kernels *k = ct_vec_for((ct_cpu_capability)l);
        if (!k) continue;
        /* size one run to ~0.1 s */
        int64_t iters = 1 << 16;
        double t0 = now_s();
        int64_t f;
        k->fma_loop(iters, &f);
        double dt = now_s() - t0;
        if (dt > 0) iters = (int64_t)((double)iters * 0.1 / dt) + 1;
        printf("%-10s %9.1f GF/s %9.1f GF/s\n", k->name, gflops(k, 1, iters), gflops(k, threads, iters));
    }
    printf("(the process-wide level here: %s)\n", ct_cpu_capability_name(ct_cpu_capability_get()));
    return 0;
}
