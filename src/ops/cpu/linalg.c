/* mm and addmm (LinearAlgebra.cpp: addmm_out_cpu, mm_out_cpu, addmm_impl_cpu_).
 *
 * Note [addmm layout decisions]
 *   addmm_impl_cpu_ decides, from the strides of the result and of both matrices, whether
 *   each operand can be handed to BLAS as it is (calling resolve_conj on it), as a transpose
 *   (no call), or must first be copied (clone). Those calls go through the dispatcher, so
 *   the profiler shows them under aten::mm / aten::addmm. ctorch makes the same decisions in
 *   the same order so its event trees match PyTorch's. */
#include <string.h>

#include "ops/cpu/gemm.h"
#include "ops/kernel_util.h"

/* ADDMM_META's check; TORCH_META_FUNC(mm)'s says only "self must be a matrix". */
static int check_matrix(const ct_tensor *t, const char *name) {
    if (t->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "%s must be a matrix, got %d-D tensor", name, t->ndim);
    return 0;
}

static int check_mm_shapes(const ct_tensor *m1, const ct_tensor *m2) {
    if (m1->sizes[1] != m2->sizes[0])
        return ct_error_set(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                            (long long)m1->sizes[0], (long long)m1->sizes[1], (long long)m2->sizes[0],
                            (long long)m2->sizes[1]);
    return 0;
}

/* _AT_DISPATCH_ADDMM_TYPES in addmm_impl_cpu_, reached only by non-empty products */
static int check_dtype_supported(ct_dtype dt) {
    if (dt == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
    return 0;
}

/* addmm_impl_cpu_(result, self, m1, m2, beta, alpha); result is freshly allocated and row-major. */
static int addmm_impl(ct_tensor *result, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
    if (m1->dtype != m2->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                            ct_dtype_type_meta_name(m1->dtype), ct_dtype_type_meta_name(m2->dtype)); /* TypeMeta names */
    if (self->sizes[0] != m1->sizes[0] || self->sizes[1] != m2->sizes[1])
        return ct_error_set(CT_ERR_RUNTIME, "input shape is incompatible with matrix multiplication (%lldx%lld @ %lldx%lld != %lldx%lld)",
                            (long long)m1->sizes[0], (long long)m1->sizes[1], (long long)m2->sizes[0],
                            (long long)m2->sizes[1], (long long)self->sizes[0], (long long)self->sizes[1]);
    if (result->numel == 0) return 0;
    double beta_d = ct_scalar_to_double(beta), alpha_d = ct_scalar_to_double(alpha);
    if (m1->sizes[1] == 0) { /* [a, 0] x [0, b] */
        if (beta_d == 0.0) return ct_zero_(result);
        if (self != result && ct_copy_(result, self, false) != 0) return -1;
        return ct_mul_scalar_(result, beta);
    }
    if (beta_d != 0.0 && self != result && ct_copy_(result, self, false) != 0) return -1;

    const int64_t *rs = result->strides, *rsz = result->sizes;
    const int64_t *m1s = m1->strides, *m1sz = m1->sizes, *m2s = m2->strides, *m2sz = m2->sizes;
    bool transpose_c;
    ct_tensor *c = NULL, *a = NULL, *b = NULL;
    int rc = -1;
    if (rs[0] == 1 && (rsz[1] == 1 || rs[1] >= (rsz[0] > 1 ? rsz[0] : 1))) {
        transpose_c = false;
        c = ct_resolve_conj(result);
    } else if (rs[1] == 1 && (rsz[0] == 1 || rs[0] >= (rsz[1] > 1 ? rsz[1] : 1))) {
        ct_tensor *tmp = m1;
        m1 = m2;
        m2 = tmp;
        const int64_t *t1 = m1s;
        m1s = m2s;
        m2s = t1;
        t1 = m1sz;
        m1sz = m2sz;
        m2sz = t1;
        transpose_c = true;
        c = ct_resolve_conj(result);
    } else {
        /* not reachable for the freshly allocated results of mm/addmm */
        return ct_error_set(CT_ERR_RUNTIME, "addmm: unsupported result layout");
    }
    if (!c) return -1;
    const int64_t m = rsz[transpose_c ? 1 : 0];
    const int64_t n = rsz[transpose_c ? 0 : 1];
    const int64_t k = m1sz[transpose_c ? 0 : 1];
    int64_t mm_ = m > 1 ? m : 1, kk = k > 1 ? k : 1, nn = n > 1 ? n : 1;

    bool transpose_a, transpose_b;
    if (m1s[transpose_c ? 1 : 0] == 1 && m1s[transpose_c ? 0 : 1] >= mm_) {
        transpose_a = false;
        a = ct_resolve_conj(m1);
    } else if (m1s[transpose_c ? 0 : 1] == 1 && m1s[transpose_c ? 1 : 0] >= kk) {
        transpose_a = true;
        a = ct_tensor_retain(m1);
    } else {
        transpose_a = !transpose_c;
        a = ct_clone(m1, CT_CONTIGUOUS_FORMAT);
    }
    if (!a) goto done;
    if (m2s[transpose_c ? 1 : 0] == 1 && m2s[transpose_c ? 0 : 1] >= kk) {
        transpose_b = false;
        b = ct_resolve_conj(m2);
    } else if (m2s[transpose_c ? 0 : 1] == 1 && m2s[transpose_c ? 1 : 0] >= nn) {
        transpose_b = true;
        b = ct_tensor_retain(m2);
    } else {
        transpose_b = !transpose_c;
        b = ct_clone(m2, CT_CONTIGUOUS_FORMAT);
    }
    if (!b) goto done;
    if (check_dtype_supported(result->dtype) != 0) goto done;
    {
        const int64_t lda = a->strides[(transpose_a == transpose_c) ? 1 : 0];
        const int64_t ldb = b->strides[(transpose_b == transpose_c) ? 1 : 0];
        const int64_t ldc = c->strides[transpose_c ? 0 : 1];
        ct_gemm(result->dtype, transpose_a, transpose_b, m, n, k, alpha_d, ct_tensor_data_ptr(a), lda > 0 ? lda : 1,
                ct_tensor_data_ptr(b), ldb > 0 ? ldb : 1, beta_d, ct_tensor_data_ptr(c), ldc > 0 ? ldc : 1);
    }
    rc = 0;
done:
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(c);
    return rc;
}

/* mm(Tensor self, Tensor mat2) */
int ct_k_mm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mat2 = ARG_T(1);
    /* TORCH_META_FUNC(mm); the dtypes are compared later, by addmm_impl_cpu_ */
    if (self->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "self must be a matrix");
    if (mat2->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "mat2 must be a matrix");
    if (check_mm_shapes(self, mat2) != 0) return -1;
    int64_t shape[2] = {self->sizes[0], mat2->sizes[1]};
    ct_tensor *result = ct_tensor_alloc(shape, 2, self->dtype, false);
    if (!result) return -1;
    /* mm_out_cpu: addmm_impl_cpu_(result, result, self, mat2, 0, 1) */
    if (addmm_impl(result, result, self, mat2, ct_int(0), ct_int(1)) != 0) {
        ct_tensor_release(result);
        return -1;
    }
    return ct_ret(rets, 0, result);
}

/* addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) */
int ct_k_addmm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mat1 = ARG_T(1), *mat2 = ARG_T(2);
    /* ADDMM_META(), in its order */
    if (self->dtype != mat2->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "self and mat2 must have the same dtype, but got %s and %s",
                            ct_dtype_name(self->dtype), ct_dtype_name(mat2->dtype));
    if (mat1->dtype != mat2->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "mat1 and mat2 must have the same dtype, but got %s and %s",
                            ct_dtype_name(mat1->dtype), ct_dtype_name(mat2->dtype));
    if (check_matrix(mat1, "mat1") != 0 || check_matrix(mat2, "mat2") != 0) return -1;
    if (check_mm_shapes(mat1, mat2) != 0) return -1;
    int64_t shape[2] = {mat1->sizes[0], mat2->sizes[1]};
    ct_tensor *result = ct_tensor_alloc(shape, 2, mat1->dtype, false);
    if (!result) return -1;
    /* expand_size(self, {mat1.size(0), mat2.size(1)}): expands only when the sizes differ */
    ct_tensor *b_self;
    bool same = self->ndim == 2 && self->sizes[0] == shape[0] && self->sizes[1] == shape[1];
    b_self = same ? ct_tensor_retain(self) : ct_expand(self, shape, 2, false);
    if (!b_self) {
        ct_tensor_release(result);
        return -1;
    }
    int rc = addmm_impl(result, b_self, mat1, mat2, args[3], args[4]);
    ct_tensor_release(b_self);
    if (rc != 0) {
        ct_tensor_release(result);
        return -1;
    }
    return ct_ret(rets, 0, result);
}
