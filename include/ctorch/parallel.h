/*
 * ctorch/parallel.h - the intra-op threads: how many, and the loop that splits work over them.
 *
 *     ct_set_num_threads(2);                          // torch.set_num_threads(2)
 *     ct_parallel_for(0, n, CT_GRAIN_SIZE, chunk, &ctx); // at::parallel_for(0, n, GRAIN_SIZE, f)
 *
 * The element-wise kernels and the reductions split a tensor of more than CT_GRAIN_SIZE elements
 * over these threads as PyTorch's at::parallel_for does (docs/performance.md, "Threads"), so a
 * result whose float bits depend on the split (a sum, a softmax over a leading dimension, layer
 * norm's weight gradient) equals PyTorch's at the same thread count.
 *
 * How many: ct_set_num_threads(n) once set; otherwise CTORCH_NUM_THREADS, then PyTorch's default
 * (intraop_default_num_threads): MKL_NUM_THREADS, else OMP_NUM_THREADS, else the machine's
 * physical cores. A variable that is no positive integer is ignored, as PyTorch ignores it (with a
 * warning there). The count is the process's, for every calling thread.
 *
 * The threads are ctorch's own pool (threads - 1 workers and the calling thread), started on
 * the first loop that needs them; between loops a worker waits briefly, giving its core away,
 * then sleeps. One loop has the pool at a time: a loop another thread begins meanwhile runs its
 * pieces one after another on that thread, with the same split. A build without threads (CMake
 * option CTORCH_USE_OPENMP off) runs every loop on the calling thread and ct_get_num_threads()
 * says 1, as PyTorch built without OpenMP does.
 */
#ifndef CTORCH_PARALLEL_H
#define CTORCH_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* at::internal::GRAIN_SIZE: the elements below which an element-wise loop stays on one thread. */
#define CT_GRAIN_SIZE 32768

/* A chunk of a parallel loop: [begin, end) of the range, with the caller's ctx. Returns 0, or -1
 * with the thread's error set (the loop hands the first failure back to its caller).
 * It runs on one of the pool's threads, whose thread-local state is its own: it must not call
 * operators (no dispatcher, autograd or modes state is carried over), only compute. */
typedef int (*ct_parallel_fn)(void *ctx, int64_t begin, int64_t end);

/* at::parallel_for: runs f over [begin, end) in chunks. Inline, as one chunk, on the calling
 * thread when the range has at most grain_size elements (or one), when one thread is set, or
 * when called from inside a chunk (nested loops run inline); otherwise the range is cut into
 * ceil(n / t) pieces for t = min(threads, ceil(n / grain_size)) (t = threads for a grain_size of
 * 0), piece k on thread k (ct_get_thread_num()). Returns 0 after every chunk ran, or -1 with the
 * error of the first chunk that failed (the others still ran); -1 (ValueError) for a NULL f.
 * grain_size must be >= 0. */
CT_API int ct_parallel_for(int64_t begin, int64_t end, int64_t grain_size, ct_parallel_fn f, void *ctx);

/* torch.set_num_threads: the intra-op threads from now on (the pool grows on its next loop).
 * n <= 0: -1 with PyTorch's RuntimeError. */
CT_API int ct_set_num_threads(int n);
/* torch.get_num_threads: the count set, or the default above; 1 in a build without OpenMP. */
CT_API int ct_get_num_threads(void);
/* at::get_thread_num: inside a chunk, its thread's place in the team (0 .. threads-1); 0 outside. */
CT_API int ct_get_thread_num(void);
/* at::in_parallel_region: true inside a chunk run by a parallel loop. */
CT_API bool ct_in_parallel_region(void);
/* "ctorch's thread pool (pthreads, futex waits)" or "none (built without threads)". Static. */
CT_API const char *ct_parallel_backend(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_PARALLEL_H */
