/* Shapes and layouts of operator results: broadcasting (infer_size), TensorIterator's strided
 * walk, density (is_non_overlapping_and_dense) and the layout of a new output
 * (TensorIterator's compute_strides: an input's permutation when dense, else contiguous). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tls.h"
#include "dispatch/op_impl.h"
#include "ops/kernel_util.h"

int ct_broadcast_shapes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout) {
    int n = na > nb ? na : nb;
    for (int i = n - 1; i >= 0; i--) {
        int ia = i - (n - na), ib = i - (n - nb);
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, i);
        out[i] = sa == 1 ? sb : sa;
    }
    *nout = n;
    return 0;
}

void ct_broadcast_strides(const ct_tensor *t, const int64_t *sizes, int ndim, int64_t *strides) {
    int off = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int it = i - off;
        if (it < 0 || (t->sizes[it] == 1 && sizes[i] != 1))
            strides[i] = 0;
        else
            strides[i] = t->strides[it];
    }
}

void ct_for_each(const int64_t *sizes, int ndim, int k, char **bases, int64_t strides[][CT_MAX_DIMS],
                 const size_t *elem_sizes, ct_elem_fn f, void *ctx) {
    int64_t total = 1;
    for (int i = 0; i < ndim; i++) total *= sizes[i];
    if (total == 0) return;
    int64_t idx[CT_MAX_DIMS] = {0};
    char *ptrs[4];
    for (int j = 0; j < k; j++) ptrs[j] = bases[j];
    for (int64_t n = 0; n < total; n++) {
        f(ptrs, ctx);
        /* advance the odometer from the innermost dimension */
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < sizes[d]) {
                for (int j = 0; j < k; j++) ptrs[j] += strides[j][d] * (int64_t)elem_sizes[j];
                break;
            }
            for (int j = 0; j < k; j++) ptrs[j] -= strides[j][d] * (int64_t)elem_sizes[j] * (sizes[d] - 1);
            idx[d] = 0;
        }
    }
}

/* TensorImpl::is_non_overlapping_and_dense: the strides, ordered, are those of a contiguous
 * tensor with permuted dimensions (size-1 dimensions ignored). */
bool ct_is_non_overlapping_and_dense(const ct_tensor *t) {
    int n = t->ndim;
    if (t->numel > 0) {
        /* contiguous (size-1 dimensions aside) is dense: what the sort below would find */
        int64_t want = 1;
        int i = n - 1;
        for (; i >= 0; i--) {
            if (t->sizes[i] == 1) continue;
            if (t->strides[i] != want) break;
            want *= t->sizes[i];
        }
        if (i < 0) return true;
    }
    int perm[CT_MAX_DIMS];
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = 1; i < n; i++) {
        int p = perm[i], j = i - 1;
        while (j >= 0 && t->strides[perm[j]] > t->strides[p]) {
            perm[j + 1] = perm[j];
            j--;
        }
        perm[j + 1] = p;
    }
    int64_t expected = 1;
    for (int i = 0; i < n; i++) {
        int d = perm[i];
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

/* c10::checked_convert<To, From> / overflows<To, From> (c10/util/TypeCast.h, Half.h): the
 * range check Scalar::to<T>() makes. A bool source and a bool target never overflow;
 * integers are compared with the target's range; doubles too, except that infinities pass
 * for floating targets and NaN fails only for int64, which has no NaN. */
/* A new dense tensor with the given (non-overlapping and dense) strides, allocated directly
 * as set_output_raw_strided's empty_strided_cpu is: no dispatched call. */
static ct_tensor *alloc_dense_strided(const int64_t *sizes, const int64_t *strides, int ndim, ct_dtype dtype) {
    ct_tensor *t = ct_tensor_alloc(sizes, ndim, dtype, false);
    if (t && ndim > 0) memcpy(t->strides, strides, sizeof(int64_t) * (size_t)ndim);
    return t;
}

static bool same_sizes(const ct_tensor *t, const int64_t *sizes, int ndim) {
    if (t->ndim != ndim) return false;
    for (int i = 0; i < ndim; i++)
        if (t->sizes[i] != sizes[i]) return false;
    return true;
}

/* Note [TensorIterator output layout]
 *   TensorIteratorBase::build allocates an undefined output in one of three ways:
 *   - fast_set_up, when every input has the output's shape: contiguous if all are
 *     contiguous; the strides of the last input if all are non-overlapping and dense with
 *     equal strides;
 *   - otherwise reorder_dimensions sorts the dimensions, fastest first, by the inputs'
 *     strides over the broadcast shape (broadcast dimensions, stride 0, abstain; ties go to
 *     the smaller dimension first), starting from the reversed order, and
 *     allocate_or_resize_outputs gives the output contiguous strides in that order
 *     (plain contiguous when the order stayed reversed). */
ct_tensor *ct_iter_alloc_output(const int64_t *sizes, int ndim, ct_dtype dtype, const ct_tensor *const *ins, int nin) {
    bool all_same_shape = nin > 0, all_contig = true;
    for (int k = 0; k < nin; k++) {
        all_same_shape = all_same_shape && same_sizes(ins[k], sizes, ndim);
        all_contig = all_contig && ct_is_contiguous_nn(ins[k]);
    }
    if (all_same_shape) {
        /* compute_fast_setup_type */
        if (all_contig) return ct_tensor_alloc(sizes, ndim, dtype, false);
        bool same_strides = true;
        for (int k = 0; same_strides && k < nin; k++) same_strides = ct_is_non_overlapping_and_dense(ins[k]);
        for (int k = 1; same_strides && k < nin; k++)
            same_strides = memcmp(ins[k]->strides, ins[0]->strides, sizeof(int64_t) * (size_t)ndim) == 0;
        if (same_strides) return alloc_dense_strided(sizes, ins[nin - 1]->strides, ndim, dtype);
    }
    if (ndim <= 1) return ct_tensor_alloc(sizes, ndim, dtype, false);
    int64_t strides[CT_ITER_MAX_INPUTS][CT_MAX_DIMS];
    if (nin > CT_ITER_MAX_INPUTS) {
        ct_error_set(CT_ERR_RUNTIME, "ct_iter_alloc_output: at most %d inputs", CT_ITER_MAX_INPUTS);
        return NULL;
    }
    for (int k = 0; k < nin; k++) ct_broadcast_strides(ins[k], sizes, ndim, strides[k]);
    /* perm[0] is the fastest dimension; starts as n-1, ..., 0 */
    int perm[CT_MAX_DIMS];
    for (int j = 0; j < ndim; j++) perm[j] = ndim - 1 - j;
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            /* should_swap(perm[dim0], perm[dim1]) */
            int d0 = perm[dim0], d1 = perm[dim1], cmp = 0;
            for (int k = 0; k < nin && cmp == 0; k++) {
                int64_t s0 = strides[k][d0], s1 = strides[k][d1];
                if (s0 == 0 || s1 == 0) continue;
                if (s0 < s1) cmp = -1;
                else if (s0 > s1) cmp = 1;
                else if (sizes[d0] > sizes[d1]) cmp = 1;
            }
            if (cmp > 0) {
                int t = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = t;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    bool inverted = true;
    for (int j = 0; j < ndim; j++) inverted = inverted && perm[j] == ndim - 1 - j;
    if (inverted) return ct_tensor_alloc(sizes, ndim, dtype, false);
    /* compatible_stride in the permuted order, then invert_perm */
    int64_t out_strides[CT_MAX_DIMS], next = 1;
    for (int j = 0; j < ndim; j++) {
        out_strides[perm[j]] = next;
        next *= sizes[perm[j]];
    }
    return alloc_dense_strided(sizes, out_strides, ndim, dtype);
}

/* ---- TensorIterator's casts (Note [TensorIterator's casts on the CPU] in kernel_util.h) ---- */

int ct_iter_cast_begin(ct_iter_casts *k, ct_tensor *out, ct_tensor *const *ins, int nin, ct_dtype common, bool cast_out) {
    memset(k, 0, sizeof *k);
    if (nin > CT_ITER_MAX_INPUTS) return ct_error_set(CT_ERR_RUNTIME, "ct_iter_alloc_output: at most %d inputs", CT_ITER_MAX_INPUTS);
    k->nin = nin;
    k->out = out;
    /* outputs come first among the operands */
    if (out && cast_out && out->dtype != common) {
        ct_tensor *tmp = ct_empty_like(out, common, CT_CONTIGUOUS_FORMAT);
        if (!tmp) return -1;
        k->given = out;
        k->out = tmp;
    }
    for (int i = 0; i < nin; i++) {
        k->in[i] = ins[i];
        if (ins[i]->dtype == common) continue;
        ct_tensor *c = ct_to_dtype(ins[i], common, false, false, CT_MEMORY_FORMAT_NONE);
        if (!c) {
            k->nin = i;
            ct_iter_cast_end(k, -1);
            return -1;
        }
        k->in[i] = c;
        k->owned[i] = true;
    }
    return 0;
}

int ct_iter_cast_end(ct_iter_casts *k, int rc) {
    for (int i = 0; i < k->nin; i++)
        if (k->owned[i]) ct_tensor_release(k->in[i]);
    if (k->given) {
        if (rc == 0 && ct_copy_(k->given, k->out, false) != 0) rc = -1;
        ct_tensor_release(k->out);
    }
    memset(k, 0, sizeof *k);
    return rc;
}
