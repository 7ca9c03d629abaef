/* bmm (LinearAlgebra.cpp: bmm_out_or_baddbmm_, baddbmm_cpu_kernel, addmm_impl_cpu_).
 *
 * Small products (contraction * rows * cols < 400) run PyTorch's plain triple loop, which
 * accumulates each element in the scalar type; larger ones call the GEMM once per batch
 * element with the operand layouts addmm_impl_cpu_ chooses (Note [addmm layout decisions] in
 * linalg.c), copying an operand only where it would (without dispatching the select and clone
 * calls PyTorch makes for each batch element). */
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/gemm.h"
#include "ops/kernel_util.h"

/* One matrix of a batch: base pointer (elements), sizes and strides. */
typedef struct mat {
    const char *p;
    int64_t sz[2], st[2];
} mat;

static mat batch_elem(const ct_tensor *t, int64_t b) {
    mat m;
    size_t es = ct_dtype_size(t->dtype);
    m.p = (const char *)t->storage->data + (size_t)(t->storage_offset + b * t->strides[0]) * es;
    m.sz[0] = t->sizes[1];
    m.sz[1] = t->sizes[2];
    m.st[0] = t->strides[1];
    m.st[1] = t->strides[2];
    return m;
}

/* A contiguous copy of m (clone(MemoryFormat::Contiguous)) into buf. */
static mat contiguous_copy(const mat *m, char *buf, size_t es) {
    for (int64_t i = 0; i < m->sz[0]; i++)
        for (int64_t j = 0; j < m->sz[1]; j++)
            memcpy(buf + (size_t)(i * m->sz[1] + j) * es, m->p + (size_t)(i * m->st[0] + j * m->st[1]) * es, es);
    mat c;
    c.p = buf;
    c.sz[0] = m->sz[0];
    c.sz[1] = m->sz[1];
    c.st[0] = m->sz[1];
    c.st[1] = 1;
    return c;
}

static inline int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* addmm_impl_cpu_(r, r, m1, m2, beta=0, alpha=1) for a contiguous row-major result r. */
static int gemm_one(ct_dtype dt, char *r, int64_t rows, int64_t cols, mat m1, mat m2, char *tmp1, char *tmp2) {
    size_t es = ct_dtype_size(dt);
    /* the result is row-major: transpose_c, with m1 and m2 swapped */
    mat t = m1;
    m1 = m2;
    m2 = t;
    const bool transpose_c = true;
    const int64_t m = cols, n = rows, k = m1.sz[0];
    bool transpose_a, transpose_b;
    if (m1.st[1] == 1 && m1.st[0] >= max1(m)) {
        transpose_a = false;
    } else if (m1.st[0] == 1 && m1.st[1] >= max1(k)) {
        transpose_a = true;
    } else {
        transpose_a = !transpose_c;
        m1 = contiguous_copy(&m1, tmp1, es);
    }
    if (m2.st[1] == 1 && m2.st[0] >= max1(k)) {
        transpose_b = false;
    } else if (m2.st[0] == 1 && m2.st[1] >= max1(n)) {
        transpose_b = true;
    } else {
        transpose_b = !transpose_c;
        m2 = contiguous_copy(&m2, tmp2, es);
    }
    int64_t lda = (transpose_a == transpose_c) ? m1.st[1] : m1.st[0];
    int64_t ldb = (transpose_b == transpose_c) ? m2.st[1] : m2.st[0];
    int64_t ldc = cols;
    ct_gemm(dt, transpose_a, transpose_b, m, n, k, 1.0, m1.p, max1(lda), m2.p, max1(ldb), 0.0, r, max1(ldc));
    return 0;
}

/* baddbmm_cpu_kernel<scalar_t, is_bmm=true>: r[i][j] = sum_k s[i][k] * m[k][j], accumulated in
 * the scalar type's opmath (float for float32 and the 16-bit types, double for float64) */
static void small_bmm(ct_tensor *res, const ct_tensor *b1, const ct_tensor *b2) {
    int64_t bs = res->sizes[0], is = res->sizes[1], js = res->sizes[2], ks = b1->sizes[2];
    ct_dtype dt = res->dtype;
    for (int64_t b = 0; b < bs; b++) {
        mat s = batch_elem(b1, b), m = batch_elem(b2, b);
        for (int64_t i = 0; i < is; i++)
            for (int64_t j = 0; j < js; j++) {
                void *dst = ct_tensor_elem_ptr(res, (b * is + i) * js + j);
                if (dt == CT_FLOAT64) {
                    double acc = 0;
                    for (int64_t k = 0; k < ks; k++)
                        acc += *(const double *)(s.p + (size_t)(i * s.st[0] + k * s.st[1]) * 8) *
                               *(const double *)(m.p + (size_t)(k * m.st[0] + j * m.st[1]) * 8);
                    *(double *)dst = acc;
                } else if (ct_dtype_is_integral(dt, false)) {
                    /* integer products wrap, as PyTorch's integer kernels do on two's complement */
                    uint64_t acc = 0;
                    size_t es = ct_dtype_size(dt);
                    for (int64_t k = 0; k < ks; k++)
                        acc += (uint64_t)ct_elem_load_int64(s.p + (size_t)(i * s.st[0] + k * s.st[1]) * es, dt) *
                               (uint64_t)ct_elem_load_int64(m.p + (size_t)(k * m.st[0] + j * m.st[1]) * es, dt);
                    ct_elem_store_int64(dst, dt, (int64_t)acc);
                } else {
                    float acc = 0;
                    size_t es = ct_dtype_size(dt);
                    for (int64_t k = 0; k < ks; k++)
                        acc += (float)ct_load_as_double(s.p + (size_t)(i * s.st[0] + k * s.st[1]) * es, dt) *
                               (float)ct_load_as_double(m.p + (size_t)(k * m.st[0] + j * m.st[1]) * es, dt);
                    ct_store_from_double(dst, dt, acc);
                }
            }
    }
}

/* bmm(Tensor self, Tensor mat2) -> Tensor */
int ct_k_bmm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *b1 = ARG_T(0), *b2 = ARG_T(1);
    /* common_checks_baddbmm_bmm */
    if (b1->ndim != 3) return ct_error_set(CT_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b2->ndim != 3) return ct_error_set(CT_ERR_RUNTIME, "batch2 must be a 3D tensor");
    int64_t bs = b1->sizes[0], contraction = b1->sizes[2], rows = b1->sizes[1], cols = b2->sizes[2];
    if (b2->sizes[0] != bs || b2->sizes[1] != contraction)
        return ct_error_set(CT_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                            (long long)bs, (long long)contraction, (long long)b2->sizes[0], (long long)b2->sizes[1]);
    if (b1->dtype != b2->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct_dtype_name(b1->dtype),
                            ct_dtype_name(b2->dtype));
    int64_t shape[3] = {bs, rows, cols};
    ct_tensor *res = ct_tensor_alloc(shape, 3, b1->dtype, false);
    if (!res) return -1;
    if (res->numel == 0) return ct_ret(rets, 0, res);
    if (contraction == 0) { /* an empty contraction: zeros */
        memset(ct_tensor_data_ptr(res), 0, (size_t)res->numel * ct_dtype_size(res->dtype));
        return ct_ret(rets, 0, res);
    }
    if (b1->dtype == CT_BOOL) {
        ct_tensor_release(res);
        return ct_error_set(CT_ERR_RUNTIME, "\"bmm\" not implemented for 'Bool'");
    }
    if (contraction * rows * cols < 400 || ct_dtype_is_integral(b1->dtype, false)) {
        small_bmm(res, b1, b2);
        return ct_ret(rets, 0, res);
    }
    size_t es = ct_dtype_size(res->dtype);
    char *tmp1 = ct_malloc((size_t)(contraction * cols) * es + 1), *tmp2 = ct_malloc((size_t)(rows * contraction) * es + 1);
    if (!tmp1 || !tmp2) {
        ct_free(tmp1);
        ct_free(tmp2);
        ct_tensor_release(res);
        return -1;
    }
    char *r = ct_tensor_data_ptr(res);
    for (int64_t b = 0; b < bs; b++)
        gemm_one(res->dtype, r + (size_t)(b * rows * cols) * es, rows, cols, batch_elem(b1, b), batch_elem(b2, b), tmp1, tmp2);
    ct_free(tmp1);
    ct_free(tmp2);
    return ct_ret(rets, 0, res);
}
