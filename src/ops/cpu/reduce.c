/* Reductions: sum, sum.dim_IntList.
 *
 * Structure follows PyTorch's reduction path so the profiler sees the same helper calls:
 * the result is viewed with the kept dimensions (as_strided, only when keepdim is false),
 * the view is filled with the identity (fill_, as cascade_sum does), then accumulated.
 * float32 and float64 sums are PyTorch's cascade sum, addition for addition (Note [Cascade
 * sum] in vec/sum_vec.c), split over the threads as PyTorch splits them (Note [Parallel
 * reduction] in iter_reduce.c); other dtypes, and sums into another dtype, accumulate in double
 * (int64 exactly), which can differ from PyTorch's in the last bit of a float16/bfloat16. */
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

static ct_dtype sum_result_dtype(const ct_tensor *self, const ct_value *dtype_arg) {
    if (dtype_arg->tag == CT_TAG_INT) return (ct_dtype)dtype_arg->u.i;
    /* integral (and bool) inputs sum to int64 */
    return ct_dtype_is_floating(self->dtype) ? self->dtype : CT_INT64;
}

/* Reduces self over the dims flagged in mask into a new tensor. */
static int do_sum(ct_tensor *self, const bool *mask, bool keepdim, ct_dtype out_dt, ct_value *rets) {
    int nd = self->ndim;
    int64_t kshape[CT_MAX_DIMS] = {0}, oshape[CT_MAX_DIMS] = {0};
    int on = 0;
    for (int i = 0; i < nd; i++) {
        kshape[i] = mask[i] ? 1 : self->sizes[i];
        if (!mask[i] || keepdim) oshape[on++] = kshape[i];
    }
    ct_tensor *result = ct_tensor_alloc(oshape, on, out_dt, false);
    if (!result) return -1;
    ct_tensor *viewed = result;
    if (!keepdim && nd > 0) {
        /* review_reduce_result: the result seen with the reduced dims kept as size 1 */
        int64_t kstrides[CT_MAX_DIMS];
        ct_contiguous_strides(kshape, nd, kstrides);
        for (int i = 0; i < nd; i++)
            if (mask[i]) kstrides[i] = 0;
        viewed = ct_as_strided(result, kshape, nd, kstrides, nd, NULL);
        if (!viewed) {
            ct_tensor_release(result);
            return -1;
        }
    } else {
        ct_tensor_retain(viewed);
    }
    if (ct_fill_(viewed, ct_int(0)) != 0) {
        ct_tensor_release(viewed);
        ct_tensor_release(result);
        return -1;
    }
    if ((out_dt == CT_FLOAT32 || out_dt == CT_FLOAT64) && self->dtype == out_dt && self->numel > 0) {
        /* PyTorch's cascade sum, in the same order (Note [Cascade sum] in vec/sum_vec.c) */
        ct_iter it;
        ct_iter_init_reduce(&it, viewed, self);
        ct_vec_sum ctx = {out_dt};
        int rc = ct_iter_reduce(&it, ct_vec()->cascade_sum, &ctx, ct_dtype_size(out_dt));
        ct_tensor_release(viewed);
        if (rc != 0) {
            ct_tensor_release(result);
            return -1;
        }
        return ct_ret(rets, 0, result);
    }
    /* other dtypes: walk self in logical order, adding into the kept-dims position */
    int64_t n_out = result->numel;
    double *acc = ct_calloc((size_t)(n_out > 0 ? n_out : 1), sizeof(double));
    int64_t *iacc = NULL;
    bool integral = ct_dtype_is_integral(out_dt, false);
    if (integral) iacc = ct_calloc((size_t)(n_out > 0 ? n_out : 1), sizeof(int64_t));
    if (!acc || (integral && !iacc)) {
        ct_free(acc);
        ct_free(iacc);
        ct_tensor_release(viewed);
        ct_tensor_release(result);
        return -1;
    }
    int64_t idx[CT_MAX_DIMS] = {0};
    for (int64_t lin = 0; lin < self->numel; lin++) {
        int64_t src_off = self->storage_offset, out_lin = 0;
        for (int d = 0; d < nd; d++) {
            src_off += idx[d] * self->strides[d];
            out_lin = out_lin * kshape[d] + (mask[d] ? 0 : idx[d]);
        }
        const char *p = (const char *)self->storage->data + (size_t)src_off * ct_dtype_size(self->dtype);
        if (integral) {
            /* int64 sums wrap around as PyTorch's do (in unsigned arithmetic: no overflow in C) */
            int64_t v = self->dtype == CT_INT64 ? *(const int64_t *)p : ct_elem_load_int64(p, self->dtype);
            iacc[out_lin] = (int64_t)((uint64_t)iacc[out_lin] + (uint64_t)v);
        } else
            acc[out_lin] += ct_load_as_double(p, self->dtype);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < self->sizes[d]) break;
            idx[d] = 0;
        }
    }
    char *o = ct_tensor_data_ptr(result);
    size_t es = ct_dtype_size(out_dt);
    for (int64_t i = 0; i < n_out; i++) {
        if (integral) ct_elem_store_int64(o + (size_t)i * es, out_dt, iacc[i]); /* modulo a narrower dtype */
        else ct_store_from_double(o + (size_t)i * es, out_dt, acc[i]);
    }
    ct_free(acc);
    ct_free(iacc);
    ct_tensor_release(viewed);
    return ct_ret(rets, 0, result);
}

/* sum(Tensor self, *, ScalarType? dtype=None): a full reduction */
int ct_k_sum(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    /* at::sum(self, IntArrayRef{}, false, dtype): the dim overload, through the dispatcher */
    static const int64_t no_dims[1] = {0};
    ct_dtype dt = args[1].tag == CT_TAG_INT ? (ct_dtype)args[1].u.i : CT_DTYPE_UNDEFINED;
    return ct_ret(rets, 0, ct_sum_dim(ARG_T(0), no_dims, 0, false, dt));
}

/* sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) */
int ct_k_sum_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (ct_check_options(op, args) != 0) return -1;
    bool mask[CT_MAX_DIMS];
    memset(mask, 0, sizeof mask);
    if (args[1].tag == CT_TAG_NONE || args[1].u.list.len == 0) {
        for (int i = 0; i < self->ndim; i++) mask[i] = true;
    } else {
        for (int64_t i = 0; i < args[1].u.list.len; i++) {
            int64_t d;
            if (ct_wrap_dim(args[1].u.list.data[i], self->ndim, &d) != 0) return -1;
            if (self->ndim == 0) continue;
            if (mask[d]) return ct_error_set(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
            mask[d] = true;
        }
    }
    return do_sum(self, mask, ARG_B(2), sum_result_dtype(self, &args[3]), rets);
}
