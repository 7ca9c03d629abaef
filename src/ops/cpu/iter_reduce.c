/* A reduction's loop over the intra-op threads.
 *
 * Note [Parallel reduction]
 *   TensorIteratorBase::parallel_reduce (TensorIteratorReduce.cpp) decides how a reduction is
 *   split, and a float sum's last bits follow that split, so ctorch makes the same decisions:
 *   - fewer than GRAIN_SIZE elements, one thread, or inside a parallel region: one serial pass;
 *   - a reduction to one element (two_pass_reduction): one partial result per thread
 *     (get_num_threads() of them, each starting as a copy of the output, which holds the
 *     identity), parallel_for(0, numel, GRAIN_SIZE) giving thread t elements [t*c, (t+1)*c)
 *     to reduce into its own partial in serial_for_each's blocks; then the partials, as one row,
 *     reduced into the output by the same loop;
 *   - otherwise (parallel_dim_reduction): the outermost kept dimension with at least as many
 *     entries as threads (else the largest kept one seen before a reduced dimension) is cut
 *     with parallel_for(0, cols, 1); where the input walks that dimension contiguously, each
 *     piece's ends are rounded down to multiples of 128 bytes (the last end stays), so the
 *     cascade sum's groups of 32 float columns are never cut and the result is the serial one;
 *     each piece is reduced on its own. */
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/iter.h"

typedef struct reduce_job {
    const ct_iter *it;
    ct_loop2d_fn loop;
    const void *ctx;
    char *partials;  /* two-pass: one output element per thread */
    size_t elem_size;
    int dim;         /* dim reduction: the dimension cut */
    bool round;      /* dim reduction: round the pieces to 128 bytes */
} reduce_job;

static int two_pass_chunk(void *vjob, int64_t begin, int64_t end) {
    const reduce_job *j = vjob;
    ct_iter sub = *j->it;
    sub.data[0] = j->partials + (size_t)ct_get_thread_num() * j->elem_size;
    ct_iter_run_range(&sub, j->loop, j->ctx, begin, end);
    return 0;
}

static int dim_chunk(void *vjob, int64_t begin, int64_t end) {
    const reduce_job *j = vjob;
    const ct_iter *it = j->it;
    if (j->round) { /* round_columns */
        const int64_t per128 = 128 / it->strides[j->dim][1];
        begin -= begin % per128;
        if (end != it->shape[j->dim]) end -= end % per128;
    }
    if (begin == end) return 0;
    ct_iter sub = *it; /* narrow(dim, begin, end - begin) */
    sub.numel = it->numel / it->shape[j->dim] * (end - begin);
    sub.shape[j->dim] = end - begin;
    for (int k = 0; k < sub.ntensors; k++) sub.data[k] += begin * it->strides[j->dim][k];
    ct_iter_run_serial(&sub, j->loop, j->ctx);
    return 0;
}

/* is_dim_reduced: the output does not move along d, which has more than one entry */
static bool dim_reduced(const ct_iter *it, int d) { return it->strides[d][0] == 0 && it->shape[d] > 1; }

/* find_split_dim; -1 when the outermost dimension is reduced */
static int split_dim(const ct_iter *it, int threads) {
    int best = it->ndim - 1;
    for (int d = best; d >= 0 && !dim_reduced(it, d); d--) {
        if (it->shape[d] >= threads) return d;
        if (it->shape[d] > it->shape[best]) best = d;
    }
    return dim_reduced(it, best) ? -1 : best;
}

int ct_iter_reduce(const ct_iter *it, ct_loop2d_fn loop, const void *ctx, size_t elem_size) {
    const int threads = ct_get_num_threads();
    if (it->numel < CT_GRAIN_SIZE || threads == 1 || ct_in_parallel_region() || it->ndim == 0) {
        ct_iter_run_serial(it, loop, ctx);
        return 0;
    }
    reduce_job j = {it, loop, ctx, NULL, elem_size, 0, false};
    bool one_output = true;
    for (int d = 0; d < it->ndim && one_output; d++) one_output = it->strides[d][0] == 0 || it->shape[d] == 1;
    if (one_output) { /* two_pass_reduction */
        j.partials = ct_malloc((size_t)threads * elem_size);
        if (!j.partials) return -1;
        for (int t = 0; t < threads; t++) memcpy(j.partials + (size_t)t * elem_size, it->data[0], elem_size);
        ct_parallel_for(0, it->numel, CT_GRAIN_SIZE, two_pass_chunk, &j);
        /* the final reduce: the partials as one contiguous row into the output */
        char *ptrs[CT_ITER_MAX_OPERANDS] = {it->data[0], j.partials};
        int64_t s[2 * CT_ITER_MAX_OPERANDS] = {0, (int64_t)elem_size};
        loop(ptrs, s, threads, 1, ctx);
        ct_free(j.partials);
        return 0;
    }
    j.dim = split_dim(it, threads);
    if (j.dim < 0) {
        ct_iter_run_serial(it, loop, ctx);
        return 0;
    }
    j.round = it->strides[j.dim][1] == (int64_t)elem_size && elem_size <= 128;
    ct_parallel_for(0, it->shape[j.dim], 1, dim_chunk, &j);
    return 0;
}
