/* Reductions beyond sum and the family of reduce_family.c: linalg_vector_norm (LinearAlgebra.cpp)
 * and _local_scalar_dense (Scalar.cpp). The float32 2-norm over a contiguous run follows
 * PyTorch's float kernel (Note [2-norm order] in vec/sum_vec.c); other norms are accumulated in
 * double and rounded once, where PyTorch's float kernels accumulate in float. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* the reduced shape for dims given as a mask; keepdim leaves 1s */
static int reduced_shape(const ct_tensor *t, const bool *mask, bool keepdim, int64_t *shape) {
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (mask[d]) {
            if (keepdim) shape[n++] = 1;
        } else {
            shape[n++] = t->sizes[d];
        }
    }
    return n;
}

/* Visits every element of t grouped by output position: out index of each input element. */
static int64_t out_index(const ct_tensor *t, const bool *mask, int64_t lin) {
    int64_t idx = 0, mul = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t c = lin % t->sizes[d];
        lin /= t->sizes[d];
        if (!mask[d]) {
            idx += c * mul;
            mul *= t->sizes[d];
        }
    }
    return idx;
}

/* linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
 * ScalarType? dtype=None) -> Tensor */
int ct_k_linalg_vector_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
                            ct_dtype_name(self->dtype));
    double ord = ct_scalar_to_double(args[1]);
    bool keepdim = ARG_B(3);
    bool mask[CT_MAX_DIMS] = {false};
    bool all = ARG_IS_NONE(2) || args[2].u.list.len == 0;
    if (all) {
        for (int d = 0; d < self->ndim; d++) mask[d] = true;
    } else {
        for (int64_t i = 0; i < args[2].u.list.len; i++) {
            int64_t d;
            if (ct_wrap_dim(args[2].u.list.data[i], self->ndim, &d) != 0) return -1;
            if (self->ndim > 0) mask[d] = true;
        }
    }
    if (self->numel == 0 && (ord < 0 || ord == INFINITY) && all)
        return ct_error_set(CT_ERR_RUNTIME,
                            "linalg.vector_norm cannot compute the %g norm on an empty tensor because the operation does not have an identity",
                            ord);
    ct_dtype out_dt = self->dtype;
    if (args[4].tag == CT_TAG_INT) {
        ct_dtype want = (ct_dtype)args[4].u.i;
        if (!ct_dtype_is_floating(want))
            return ct_error_set(CT_ERR_RUNTIME, "linalg.vector_norm: dtype should be floating point or complex, but got %s",
                                ct_dtype_name(want));
        out_dt = want;
    }
    int64_t shape[CT_MAX_DIMS];
    int n = reduced_shape(self, mask, keepdim, shape);
    ct_tensor *out = ct_tensor_alloc(shape, n, out_dt, false);
    double *acc = ct_calloc((size_t)(out && out->numel ? out->numel : 1), sizeof(double));
    if (!out || !acc) {
        ct_tensor_release(out);
        ct_free(acc);
        return -1;
    }
    bool inf = isinf(ord) && ord > 0, ninf = isinf(ord) && ord < 0;
    for (int64_t i = 0; i < out->numel; i++) acc[i] = ninf ? INFINITY : 0.0;
    /* ord 2 over a contiguous float32 tensor's trailing dimensions (its whole, or its last
     * dimension): each output is one contiguous run, summed in PyTorch's order (Note [2-norm
     * order] in vec/sum_vec.c) */
    int64_t run = 1;
    bool runs_f32 = ord == 2 && self->dtype == CT_FLOAT32 && out_dt == CT_FLOAT32 && self->numel > 0 &&
                    ct_is_contiguous_nn(self);
    for (int d = 0, seen_reduced = 0; runs_f32 && d < self->ndim; d++) {
        if (self->sizes[d] == 1) continue;
        if (mask[d]) {
            seen_reduced = 1;
            run *= self->sizes[d];
        } else if (seen_reduced) {
            runs_f32 = false; /* a kept dimension inside the reduced ones */
        }
    }
    if (runs_f32 && run > 1) {
        const float *x = (const float *)self->storage->data + self->storage_offset;
        float *o = ct_tensor_data_ptr(out);
        const ct_vec_kernels *vk = ct_vec();
        for (int64_t i = 0; i < out->numel; i++) o[i] = vk->norm2_f32(x + i * run, run);
        ct_free(acc);
        return ct_ret(rets, 0, out);
    }
    /* the whole of a contiguous float32 tensor, 1-norm: the loop below's operations in its
     * order, without its per-element address arithmetic */
    const bool whole_f32 = all && args[4].tag != CT_TAG_INT && self->dtype == CT_FLOAT32 && self->numel > 0 &&
                           ct_is_contiguous_nn(self) && ord == 1;
    if (whole_f32) {
        const float *x = (const float *)self->storage->data + self->storage_offset;
        double sum = acc[0];
        for (int64_t i = 0; i < self->numel; i++) sum += fabs((double)x[i]);
        acc[0] = sum;
    }
    for (int64_t i = 0; !whole_f32 && i < self->numel; i++) {
        double v = fabs(ct_load_as_double(ct_tensor_elem_ptr(self, i), self->dtype));
        if (args[4].tag == CT_TAG_INT) { /* the input is converted to dtype first */
            char tmp[8];
            ct_store_from_double(tmp, out_dt, v);
            v = ct_load_as_double(tmp, out_dt);
        }
        double *a = &acc[out_index(self, mask, i)];
        if (inf) *a = (isnan(v) || v > *a) ? v : *a;
        else if (ninf) *a = (isnan(v) || v < *a) ? v : *a;
        else if (ord == 0) *a += v != 0;
        else if (ord == 1) *a += v;
        else if (ord == 2) *a += v * v;
        else *a += pow(v, ord);
    }
    for (int64_t i = 0; i < out->numel; i++) {
        double r = acc[i];
        if (ord == 2) r = sqrt(r);
        else if (!inf && !ninf && ord != 0 && ord != 1) r = pow(r, 1.0 / ord);
        ct_store_from_double(ct_tensor_elem_ptr(out, i), out_dt, r);
    }
    ct_free(acc);
    return ct_ret(rets, 0, out);
}

/* _local_scalar_dense(Tensor self) -> Scalar: the single element, as an int, a float or a bool */
int ct_k__local_scalar_dense(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->numel != 1)
        return ct_error_set(CT_ERR_RUNTIME, "a Tensor with %lld elements cannot be converted to Scalar", (long long)self->numel);
    const char *p = ct_tensor_elem_ptr(self, 0);
    if (ct_dtype_is_integral(self->dtype, false)) {
        rets[0] = ct_int(ct_elem_load_int64(p, self->dtype));
    } else if (self->dtype == CT_BOOL) {
        rets[0] = ct_bool(*(const unsigned char *)p != 0);
    } else {
        rets[0] = ct_double(ct_load_as_double(p, self->dtype));
    }
    return 0;
}
