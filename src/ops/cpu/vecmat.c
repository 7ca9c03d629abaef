/* dot and mv (LinearAlgebra.cpp, Blas.cpp), what matmul reaches for 1-D operands. Both hand the
 * product to the GEMM (a BLAS when the build has one), as a 1 x k by k x 1 and an m x k by
 * k x 1 product. */
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/gemm.h"
#include "ops/kernel_util.h"

/* A contiguous copy of a strided vector or matrix's elements (or the tensor's own memory). */
static const void *dense(const ct_tensor *t, void **owned) {
    *owned = NULL;
    if (ct_tensor_is_contiguous(t)) return ct_tensor_data_ptr(t);
    size_t es = ct_dtype_size(t->dtype);
    char *b = ct_malloc((size_t)(t->numel ? t->numel : 1) * es);
    if (!b) return NULL;
    for (int64_t i = 0; i < t->numel; i++) memcpy(b + (size_t)i * es, ct_tensor_elem_ptr(t, i), es);
    *owned = b;
    return b;
}

static int check_type(ct_dtype dt, const char *name) {
    if (dt == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for 'Bool'", name);
    return 0;
}

/* integral products: a plain loop (no BLAS for int64) */
static void int_gemv(const int64_t *a, const int64_t *x, int64_t *y, int64_t m, int64_t k) {
    for (int64_t i = 0; i < m; i++) {
        uint64_t acc = 0; /* products wrap, as PyTorch's int64 kernels do on two's complement */
        for (int64_t j = 0; j < k; j++) acc += (uint64_t)a[i * k + j] * (uint64_t)x[j];
        y[i] = (int64_t)acc;
    }
}

/* dot(Tensor self, Tensor tensor) -> Tensor */
int ct_k_dot(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *a = ARG_T(0), *b = ARG_T(1);
    if (a->ndim != 1 || b->ndim != 1)
        return ct_error_set(CT_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
    if (a->dtype != b->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but found %s and %s",
                            ct_dtype_name(a->dtype), ct_dtype_name(b->dtype));
    if (a->numel != b->numel)
        return ct_error_set(CT_ERR_RUNTIME,
                            "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of elements, but got %lld and %lld elements respectively",
                            (long long)a->numel, (long long)b->numel, (long long)a->numel, (long long)b->numel);
    if (check_type(a->dtype, "dot") != 0) return -1;
    ct_tensor *out = ct_tensor_alloc(NULL, 0, a->dtype, true);
    if (!out) return -1;
    void *oa, *ob;
    const void *pa = dense(a, &oa), *pb = dense(b, &ob);
    if (pa && pb && a->numel > 0) {
        if (a->dtype == CT_INT64) int_gemv(pa, pb, ct_tensor_data_ptr(out), 1, a->numel);
        else ct_gemm(a->dtype, false, false, 1, 1, a->numel, 1.0, pa, 1, pb, a->numel, 0.0, ct_tensor_data_ptr(out), 1);
    }
    ct_free(oa);
    ct_free(ob);
    if (!pa || !pb) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

/* mv(Tensor self, Tensor vec) -> Tensor: addmv_(empty(self.size(0)), self, vec, 0, 1) */
int ct_k_mv(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *mat = ARG_T(0), *vec = ARG_T(1);
    if (mat->ndim == 0) return ct_error_set(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
    if (!(mat->ndim == 2 && vec->ndim == 1))
        return ct_error_set(CT_ERR_RUNTIME, "vector + matrix @ vector expected, got 1, %d, %d", mat->ndim, vec->ndim);
    if (mat->sizes[1] != vec->sizes[0])
        return ct_error_set(CT_ERR_RUNTIME, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                            (long long)mat->sizes[0], (long long)mat->sizes[0], (long long)mat->sizes[1],
                            (long long)vec->sizes[0]);
    if (mat->dtype != vec->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                            ct_dtype_type_meta_name(mat->dtype), ct_dtype_type_meta_name(vec->dtype));
    if (check_type(mat->dtype, "addmv_impl_cpu") != 0) return -1;
    int64_t m = mat->sizes[0], k = mat->sizes[1];
    ct_tensor *out = ct_tensor_alloc(&m, 1, vec->dtype, true);
    if (!out) return -1;
    void *oa, *ob;
    const void *pa = dense(mat, &oa), *pb = dense(vec, &ob);
    if (pa && pb && m > 0 && k > 0) {
        /* row-major A (m x k) is column-major A^T: y^T = x^T A^T */
        if (mat->dtype == CT_INT64) int_gemv(pa, pb, ct_tensor_data_ptr(out), m, k);
        else ct_gemm(mat->dtype, true, false, m, 1, k, 1.0, pa, k, pb, k, 0.0, ct_tensor_data_ptr(out), m);
    }
    ct_free(oa);
    ct_free(ob);
    if (!pa || !pb) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}
