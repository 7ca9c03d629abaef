/* Element-wise iteration layout: Note [Iteration layout] in iter.h. */
#include <string.h>

#include "ctorch/parallel.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

/* TensorIterator's reorder_dimensions comparison of dimensions d0 (inner) and d1: 1 when d1
 * should move inside d0. The first operand whose strides differ decides; a stride of 0
 * (broadcast) never does, except the output's in a reduction; equal strides put the smaller
 * size inside. */
static int should_swap(const ct_iter *it, int d0, int d1, bool reduction) {
    for (int k = 0; k < it->ntensors; k++) {
        int64_t s0 = it->strides[d0][k], s1 = it->strides[d1][k];
        /* a reduction moves its reduced dimensions (the output's stride 0) inside */
        if (reduction && k == 0 && (s0 == 0) != (s1 == 0)) return s1 == 0 ? 1 : -1;
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (it->shape[d0] > it->shape[d1]) return 1;
    }
    return 0;
}

static void swap_dims(ct_iter *it, int d0, int d1) {
    int64_t s = it->shape[d0];
    it->shape[d0] = it->shape[d1];
    it->shape[d1] = s;
    for (int k = 0; k < it->ntensors; k++) {
        int64_t t = it->strides[d0][k];
        it->strides[d0][k] = it->strides[d1][k];
        it->strides[d1][k] = t;
    }
}

static bool can_coalesce(const ct_iter *it, int d0, int d1) {
    int64_t s0 = it->shape[d0], s1 = it->shape[d1];
    if (s0 == 1 || s1 == 1) return true;
    for (int k = 0; k < it->ntensors; k++)
        if (s0 * it->strides[d0][k] != it->strides[d1][k]) return false;
    return true;
}

static void build(ct_iter *it, const int64_t *shape, int ndim, const ct_tensor *const *ts, int n, bool reduction) {
    int64_t numel = 1;
    for (int d = 0; d < ndim; d++) numel *= shape[d];
    it->ntensors = n;
    it->numel = numel;
    size_t es[CT_ITER_MAX_OPERANDS];
    bool flat = true;
    for (int k = 0; k < n; k++) {
        es[k] = ct_dtype_size(ts[k]->dtype);
        /* ct_tensor_data_ptr without its checks: the kernels' operands are tensors */
        const ct_storage *st = ts[k]->storage;
        it->data[k] = st && st->data ? (char *)st->data + (size_t)ts[k]->storage_offset * es[k] : NULL;
        if (ts[k]->numel != 1 && !(ts[k]->numel == numel && ct_is_contiguous_nn(ts[k]))) flat = false;
    }
    if (flat) {
        /* every operand contiguous with the output's elements, or one element: one loop */
        it->ndim = numel == 1 ? 0 : 1;
        it->shape[0] = numel;
        for (int k = 0; k < n; k++) it->strides[0][k] = ts[k]->numel == 1 ? 0 : (int64_t)es[k];
        return;
    }
    /* innermost first */
    for (int d = 0; d < ndim; d++) it->shape[ndim - 1 - d] = shape[d];
    for (int k = 0; k < n; k++) {
        int64_t st[CT_MAX_DIMS];
        ct_broadcast_strides(ts[k], shape, ndim, st);
        /* in bytes, wrapping as PyTorch's stride_bytes does on two's complement: only a dimension
         * of size 1 (never stepped along) can have a stride this large in a valid view, e.g. a
         * slice with a step near INT64_MAX; its stride takes part only in ordering the dims */
        for (int d = 0; d < ndim; d++) it->strides[ndim - 1 - d][k] = (int64_t)((uint64_t)st[d] * (uint64_t)es[k]);
    }
    /* reorder_dimensions: an insertion sort that tolerates undecided comparisons */
    for (int i = 1; i < ndim; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int cmp = should_swap(it, d0, d1, reduction);
            if (cmp > 0) {
                swap_dims(it, d0, d1);
                d1 = d0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    /* coalesce_dimensions */
    int prev = 0;
    for (int d = 1; d < ndim; d++) {
        if (can_coalesce(it, prev, d)) {
            if (it->shape[prev] == 1)
                for (int k = 0; k < n; k++) it->strides[prev][k] = it->strides[d][k];
            it->shape[prev] *= it->shape[d];
        } else {
            prev++;
            if (prev != d) {
                it->shape[prev] = it->shape[d];
                for (int k = 0; k < n; k++) it->strides[prev][k] = it->strides[d][k];
            }
        }
    }
    it->ndim = ndim == 0 ? 0 : prev + 1;
    if (it->ndim == 1 && it->shape[0] == 1) it->ndim = 0;
}

void ct_iter_init(ct_iter *it, const int64_t *shape, int ndim, const ct_tensor *const *ts, int n) {
    build(it, shape, ndim, ts, n, false);
}

void ct_iter_init_reduce(ct_iter *it, const ct_tensor *out, const ct_tensor *in) {
    const ct_tensor *ts[2] = {out, in};
    build(it, in->sizes, in->ndim, ts, 2, true);
}

void ct_iter_run_serial(const ct_iter *it, ct_loop2d_fn loop, const void *ctx) {
    if (it->numel == 0) return;
    const int n = it->ntensors;
    int64_t s[2 * CT_ITER_MAX_OPERANDS];
    char *ptrs[CT_ITER_MAX_OPERANDS];
    /* all slots, a fixed-size copy (a loop over n becomes a memcpy call) */
    for (int k = 0; k < CT_ITER_MAX_OPERANDS; k++) ptrs[k] = k < n ? it->data[k] : NULL;
    if (it->ndim == 0) {
        for (int k = 0; k < 2 * CT_ITER_MAX_OPERANDS; k++) s[k] = 0;
        loop(ptrs, s, 1, 1, ctx);
        return;
    }
    for (int k = n; k < 2 * CT_ITER_MAX_OPERANDS; k++) s[k] = 0;
    for (int k = 0; k < n; k++) s[k] = it->strides[0][k];
    if (it->ndim == 1) {
        loop(ptrs, s, it->shape[0], 1, ctx);
        return;
    }
    for (int k = 0; k < n; k++) s[n + k] = it->strides[1][k];
    if (it->ndim == 2) {
        loop(ptrs, s, it->shape[0], it->shape[1], ctx);
        return;
    }
    int64_t idx[CT_MAX_DIMS] = {0};
    for (;;) {
        loop(ptrs, s, it->shape[0], it->shape[1], ctx);
        int d = 2;
        for (; d < it->ndim; d++) {
            for (int k = 0; k < n; k++) ptrs[k] += it->strides[d][k];
            if (++idx[d] < it->shape[d]) break;
            for (int k = 0; k < n; k++) ptrs[k] -= it->strides[d][k] * it->shape[d];
            idx[d] = 0;
        }
        if (d == it->ndim) return;
    }
}

/* serial_for_each over [begin, end) with DimCounter's steps: from the range's first element to
 * the end of its row, whole rows (up to the end of the second dimension), then the start of the
 * range's last row. The block shapes matter to a reduction's loop (its sums are taken per block),
 * so they are TensorIterator's. */
void ct_iter_run_range(const ct_iter *it, ct_loop2d_fn loop, const void *ctx, int64_t begin, int64_t end) {
    if (begin >= end) return;
    const int n = it->ntensors;
    int64_t s[2 * CT_ITER_MAX_OPERANDS] = {0};
    char *ptrs[CT_ITER_MAX_OPERANDS] = {NULL};
    if (it->ndim <= 1) {
        for (int k = 0; k < n; k++) {
            s[k] = it->ndim == 0 ? 0 : it->strides[0][k];
            ptrs[k] = it->data[k] + begin * s[k];
        }
        loop(ptrs, s, end - begin, 1, ctx);
        return;
    }
    for (int k = 0; k < n; k++) {
        s[k] = it->strides[0][k];
        s[n + k] = it->strides[1][k];
    }
    int64_t values[CT_MAX_DIMS] = {0}, lin = begin;
    for (int d = 0; d < it->ndim; d++) {
        values[d] = lin % it->shape[d];
        lin /= it->shape[d];
    }
    for (int64_t offset = begin; offset < end;) {
        for (int k = 0; k < n; k++) {
            ptrs[k] = it->data[k];
            for (int d = 0; d < it->ndim; d++) ptrs[k] += values[d] * it->strides[d][k];
        }
        /* max_2d_step */
        int64_t step0 = it->shape[0] - values[0] < end - offset ? it->shape[0] - values[0] : end - offset, step1 = 1;
        if (step0 == it->shape[0]) {
            step1 = (end - offset) / it->shape[0];
            if (it->shape[1] - values[1] < step1) step1 = it->shape[1] - values[1];
        }
        loop(ptrs, s, step0, step1, ctx);
        /* increment */
        offset += step0 * step1;
        int d = 0;
        int64_t carry = step0;
        if (step1 != 1) {
            d = 1;
            carry = step1;
        }
        for (; d < it->ndim && carry > 0; d++) {
            int64_t v = values[d] + carry;
            carry = v >= it->shape[d] ? 1 : 0;
            values[d] = v >= it->shape[d] ? v - it->shape[d] : v;
        }
    }
}

typedef struct range_job {
    const ct_iter *it;
    ct_loop2d_fn loop;
    const void *ctx;
} range_job;

static int range_chunk(void *vjob, int64_t begin, int64_t end) {
    const range_job *j = vjob;
    ct_iter_run_range(j->it, j->loop, j->ctx, begin, end);
    return 0;
}

void ct_iter_run(const ct_iter *it, ct_loop2d_fn loop, const void *ctx) {
    /* TensorIterator::for_each: more than a grain of elements is split over the threads */
    if (it->numel > CT_GRAIN_SIZE && !ct_in_parallel_region() && ct_get_num_threads() > 1) {
        range_job j = {it, loop, ctx};
        ct_parallel_for(0, it->numel, CT_GRAIN_SIZE, range_chunk, &j);
        return;
    }
    ct_iter_run_serial(it, loop, ctx);
}
