/* Element-wise iteration over several strided operands, as TensorIterator lays it out (internal).
 *
 * Note [Iteration layout]
 *   TensorIterator turns a call's operands into a few loops that a kernel runs fast: every
 *   operand is broadcast to the output's shape (stride 0 where it repeats), the dimensions are
 *   ordered so the one with the smallest output stride is innermost (reorder_dimensions: the
 *   operands are consulted in order, a stride of 0 never decides), and neighbouring dimensions
 *   that every operand walks as one are merged (coalesce_dimensions). What is left is handed to
 *   the kernel as 2-d loops (loop2d: an inner and an outer dimension), outer dimensions beyond
 *   two counted here. A contiguous add of any shape becomes one loop over numel elements; the
 *   bias of addmm expanded to [2, 600] becomes 2 rows of 600 with the bias's row stride 0. */
#ifndef CT_ITER_H
#define CT_ITER_H

#include <stdint.h>

#include "core/tensor_impl.h"
#include "ops/cpu/vec/vec_kernels.h"

#define CT_ITER_MAX_OPERANDS 4

typedef struct ct_iter {
    int ntensors;
    int ndim;                                       /* after coalescing; 0 for one element */
    int64_t numel;
    int64_t shape[CT_MAX_DIMS];                     /* shape[0] is the innermost dimension */
    int64_t strides[CT_MAX_DIMS][CT_ITER_MAX_OPERANDS]; /* byte strides per dimension and operand */
    char *data[CT_ITER_MAX_OPERANDS];
} ct_iter;

/* Lays out the iteration of `shape` (ndim, outermost first, as tensor sizes are) over ts[0..n):
 * each tensor is broadcast to shape (ts[0], the output, normally has it). n <= 4. */
void ct_iter_init(ct_iter *it, const int64_t *shape, int ndim, const ct_tensor *const *ts, int n);
/* A reduction's layout (make_reduction): out, with the input's rank and size 1 (and any
 * stride) on the reduced dimensions, is broadcast over in's shape; the reduced dimensions go
 * innermost (the output's stride 0 decides first). */
void ct_iter_init_reduce(ct_iter *it, const ct_tensor *out, const ct_tensor *in);
/* Runs an element-wise loop over every element, calling it once per 2-d block: split over the
 * intra-op threads when there are more than CT_GRAIN_SIZE elements (TensorIterator::for_each),
 * so loop must compute each element on its own (not a reduction's loop: ct_iter_reduce). */
void ct_iter_run(const ct_iter *it, ct_loop2d_fn loop, const void *ctx);
/* The same on the calling thread. */
void ct_iter_run_serial(const ct_iter *it, ct_loop2d_fn loop, const void *ctx);
/* The elements [begin, end) of the iteration, in the 2-d blocks serial_for_each makes of them. */
void ct_iter_run_range(const ct_iter *it, ct_loop2d_fn loop, const void *ctx, int64_t begin, int64_t end);
/* A reduction's loop over a ct_iter_init_reduce layout whose output holds the identity
 * (TensorIteratorBase::parallel_reduce, Note [Parallel reduction] in iter_reduce.c): a grain of
 * elements or more is split over the threads as PyTorch splits it, so a float sum is PyTorch's
 * at the same thread count. elem_size: the bytes of an element of the output and of the input
 * (one dtype). 0, or -1 (out of memory for the per-thread partial results). */
int ct_iter_reduce(const ct_iter *it, ct_loop2d_fn loop, const void *ctx, size_t elem_size);

#endif
