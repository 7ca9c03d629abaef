/* The out= forms of the common reductions (ReduceOps.cpp's structured sum.IntList_out, mean.out,
 * amax.out and amin.out): the meta function's dtype rules and checks, the functional kernel run
 * directly (no second call through the dispatcher, as the structured kernel writes its output
 * itself), then out resized to the result's shape when it has another (contiguous) and the
 * values copied in. The functional kernel is handed its own operator (its checks read its schema). */
#include <string.h>

#include "ops/builtin.h"
#include "ops/kernel_util.h"

/* the structured kernel's set_output: out takes the result's shape, then its values */
static int write_out(ct_tensor *out, ct_tensor *r, ct_value *rets) {
    int rc = 0;
    if (!(out->ndim == r->ndim && memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim) == 0)) {
        ct_tensor *fresh = ct_tensor_alloc(r->sizes, r->ndim, out->dtype, false);
        rc = fresh ? ct_tensor_shallow_copy_from(out, fresh) : -1;
        ct_tensor_release(fresh);
    }
    if (rc == 0) rc = ct_copy_into(out, r);
    ct_tensor_release(r);
    if (rc != 0) return -1;
    ct_bump_version(out);
    return ct_ret_self(rets, out);
}

/* the generated structured out= check: out must have the dtype the meta function chose */
static int check_out_dtype(const ct_tensor *out, ct_dtype want) {
    if (out->dtype != want)
        return ct_error_set(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead", ct_dtype_type_meta_name(want),
                            ct_dtype_type_meta_name(out->dtype));
    return 0;
}

/* sum.IntList_out / mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 * Tensor(a!) out): the result's dtype is dtype when given, else out's (infer_dtype_from_optional) */
static int sum_mean_out(ct_keyset ks, ct_value *args, ct_value *rets, bool mean) {
    ct_tensor *self = ARG_T(0), *out = ARG_T(4);
    bool has_dtype = args[3].tag != CT_TAG_NONE;
    if (mean) {
        ct_dtype in_dtype = has_dtype ? (ct_dtype)args[3].u.i : self->dtype;
        if (!ct_dtype_is_floating(in_dtype))
            return ct_error_set(CT_ERR_RUNTIME,
                                "mean(): could not infer output dtype. %s dtype must be either a floating point or complex "
                                "dtype. Got: %s",
                                has_dtype ? "Optional" : "Input", ct_dtype_name(in_dtype));
    }
    ct_dtype out_dtype = has_dtype ? (ct_dtype)args[3].u.i : out->dtype;
    if (check_out_dtype(out, out_dtype) != 0) return -1;
    ct_value a[4] = {args[0], args[1], args[2], ct_int((int64_t)out_dtype)};
    ct_value r[1] = {ct_none()};
    if ((mean ? ct_k_mean_dim(ct_builtin(CT_OPID_mean_dim), ks, a, r) : ct_k_sum_dim(ct_builtin(CT_OPID_sum_dim), ks, a, r)) != 0) return -1;
    return write_out(out, r[0].u.t, rets);
}

int ct_k_sum_IntList_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    return sum_mean_out(ks, args, rets, false);
}

int ct_k_mean_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    return sum_mean_out(ks, args, rets, true);
}

/* amax.out / amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out): out of
 * self's dtype (check_amax_amin's message) */
static int amax_amin_out(ct_keyset ks, ct_value *args, ct_value *rets, bool max) {
    ct_tensor *self = ARG_T(0), *out = ARG_T(3);
    if (self->dtype != out->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.",
                            ct_dtype_name(self->dtype), ct_dtype_name(out->dtype));
    ct_value r[1] = {ct_none()};
    if ((max ? ct_k_amax(ct_builtin(CT_OPID_amax), ks, args, r) : ct_k_amin(ct_builtin(CT_OPID_amin), ks, args, r)) != 0) return -1;
    return write_out(out, r[0].u.t, rets);
}

int ct_k_amax_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    return amax_amin_out(ks, args, rets, true);
}

int ct_k_amin_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    return amax_amin_out(ks, args, rets, false);
}

/* prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out):
 * as sum's, the result dtype dtype= or out's */
int ct_k_prod_int_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    ct_tensor *out = ARG_T(4);
    ct_dtype out_dtype = args[3].tag != CT_TAG_NONE ? (ct_dtype)args[3].u.i : out->dtype;
    if (check_out_dtype(out, out_dtype) != 0) return -1;
    ct_value a[4] = {args[0], args[1], args[2], ct_int((int64_t)out_dtype)};
    ct_value r[1] = {ct_none()};
    if (ct_k_prod_dim_int(ct_builtin(CT_OPID_prod_dim_int), ks, a, r) != 0) return -1;
    return write_out(out, r[0].u.t, rets);
}

/* cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out): meta_func_cum_ops,
 * dim checked first, the result dtype dtype= or out's */
int ct_k_cumsum_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    ct_tensor *self = ARG_T(0), *out = ARG_T(3);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim > 0 ? self->ndim : 1, &dim) != 0) return -1;
    ct_dtype out_dtype = args[2].tag != CT_TAG_NONE ? (ct_dtype)args[2].u.i : out->dtype;
    if (check_out_dtype(out, out_dtype) != 0) return -1;
    ct_value a[3] = {args[0], args[1], ct_int((int64_t)out_dtype)};
    ct_value r[1] = {ct_none()};
    if (ct_k_cumsum(ct_builtin(CT_OPID_cumsum), ks, a, r) != 0) return -1;
    return write_out(out, r[0].u.t, rets);
}

/* the two outputs of sort.values / topk.values: values of self's dtype, indices of int64 (the
 * structured kernels' generated checks), then each resized and written */
static int write_values_indices(ct_tensor *values, ct_tensor *indices, ct_value *r, ct_value *rets) {
    ct_value one[1];
    if (write_out(values, r[0].u.t, one) != 0) {
        ct_tensor_release(r[1].u.t);
        return -1;
    }
    ct_tensor_release(one[0].u.t);
    if (write_out(indices, r[1].u.t, one) != 0) return -1;
    ct_tensor_release(one[0].u.t);
    rets[0] = ct_tensor_value(ct_tensor_retain(values));
    rets[1] = ct_tensor_value(ct_tensor_retain(indices));
    return 0;
}

static int check_values_indices(const ct_tensor *self, const ct_tensor *values, const ct_tensor *indices) {
    if (check_out_dtype(values, self->dtype) != 0) return -1;
    return check_out_dtype(indices, CT_INT64);
}

/* sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) */
int ct_k_sort_values(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    ct_tensor *self = ARG_T(0), *values = ARG_T(3), *indices = ARG_T(4);
    if (check_values_indices(self, values, indices) != 0) return -1;
    ct_value r[2] = {ct_none(), ct_none()};
    if (ct_k_sort(ct_builtin(CT_OPID_sort), ks, args, r) != 0) return -1;
    return write_values_indices(values, indices, r, rets);
}

/* topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values,
 * Tensor(b!) indices) */
int ct_k_topk_values(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    ct_tensor *self = ARG_T(0), *values = ARG_T(5), *indices = ARG_T(6);
    if (check_values_indices(self, values, indices) != 0) return -1;
    ct_value r[2] = {ct_none(), ct_none()};
    if (ct_k_topk(ct_builtin(CT_OPID_topk), ks, args, r) != 0) return -1;
    return write_values_indices(values, indices, r, rets);
}
