/* Matrix product core. OpenBLAS (through CBLAS) is used for float32/float64 when the build
 * found it: it is what PyTorch's CPU builds use too, and it measured as fast as or faster than
 * ctorch's own kernels at every shape tried, down to the seed MLP's 8x16x32 (its small-matrix
 * kernels skip packing; see Note [Small GEMM] in vec/gemm_vec.c). Without a BLAS, float32
 * products run in those register-blocked kernels; the plain loop keeps a bare machine working
 * and handles 16-bit floats and float64. */
#include <limits.h>

#include "build_info.h"
#include "ctorch/backends.h"
#include "core/dtype_impl.h"
#include "core/tensor_impl.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/gemm.h"

#ifdef CTORCH_HAVE_CBLAS
#include <cblas.h>
#endif

const char *ct_blas_name(void) { return CTORCH_BLAS_NAME; }

/* element i of an array of dtype dt (es bytes each) */
static inline double ld(const void *p, int64_t i, ct_dtype dt, size_t es) {
    return ct_elem_load((const char *)p + (size_t)i * es, dt);
}
static inline void st(void *p, int64_t i, ct_dtype dt, size_t es, double v) {
    ct_elem_store((char *)p + (size_t)i * es, dt, v);
}

static void gemm_loop(ct_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                      int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
    bool fp = ct_dtype_opmath(dt) == CT_FLOAT32; /* accumulate 16/32-bit floats in float */
    size_t es = ct_dtype_size(dt);
    if (ct_dtype_is_integral(dt, false)) {
        /* integer products wrap as PyTorch's integer gemm does (two's complement), kept modulo
         * the dtype's width when stored */
        uint64_t ia = (uint64_t)ct_double_to_int64(alpha), ib = (uint64_t)ct_double_to_int64(beta);
        for (int64_t j = 0; j < n; j++) {
            for (int64_t i = 0; i < m; i++) {
                uint64_t acc = 0;
                for (int64_t p = 0; p < k; p++) {
                    const char *pa = (const char *)a + (size_t)(ta ? p + i * lda : i + p * lda) * es;
                    const char *pb = (const char *)b + (size_t)(tb ? j + p * ldb : p + j * ldb) * es;
                    acc += (uint64_t)ct_elem_load_int64(pa, dt) * (uint64_t)ct_elem_load_int64(pb, dt);
                }
                char *pc = (char *)c + (size_t)(i + j * ldc) * es;
                uint64_t cur = beta == 0.0 ? 0 : ib * (uint64_t)ct_elem_load_int64(pc, dt);
                ct_elem_store_int64(pc, dt, (int64_t)(ia * acc + cur));
            }
        }
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < m; i++) {
            double acc = 0;
            float facc = 0;
            for (int64_t p = 0; p < k; p++) {
                double av = ld(a, ta ? p + i * lda : i + p * lda, dt, es);
                double bv = ld(b, tb ? j + p * ldb : p + j * ldb, dt, es);
                if (fp) facc += (float)av * (float)bv;
                else acc += av * bv;
            }
            double prod = fp ? (double)facc : acc;
            double cur = beta == 0.0 ? 0.0 : beta * ld(c, i + j * ldc, dt, es);
            st(c, i + j * ldc, dt, es, alpha * prod + cur);
        }
    }
}

const char *ct_backends_blas_core(void) {
#ifdef CTORCH_HAVE_CBLAS
    return openblas_get_corename();
#else
    return NULL;
#endif
}

void ct_gemm(ct_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const void *a, int64_t lda,
             const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
    /* CPUBlas.cpp's normalize_last_dims: a leading dimension a size-1 dimension leaves free is
     * set to what the BLAS requires (a [2, 1] result of strides (1, 1) has ldc 2) */
    if (n == 1) ldc = m;
    if (ta) {
        if (m == 1) lda = k;
    } else if (k == 1) {
        lda = m;
    }
    if (tb) {
        if (k == 1) ldb = n;
    } else if (n == 1) {
        ldb = k;
    }
#ifndef CTORCH_HAVE_CBLAS
    /* without a BLAS, float32 products run in ctorch's register-blocked kernels (Note [Small GEMM]) */
    if (dt == CT_FLOAT32 && ct_vec()->sgemm_small(ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc)) return;
#endif
#ifdef CTORCH_HAVE_CBLAS
    /* A BLAS skips the product when alpha is 0; PyTorch 2.6 still multiplies, so a NaN or inf in
     * A or B reaches the result (op case addmm_alpha_zero_nan_mat). That rare case takes the loop. */
    if (alpha == 0.0) {
        gemm_loop(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    bool fits = m < INT_MAX && n < INT_MAX && k < INT_MAX && lda < INT_MAX && ldb < INT_MAX && ldc < INT_MAX;
    if (fits && dt == CT_FLOAT32) {
        cblas_sgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)m, (int)n,
                    (int)k, (float)alpha, a, (int)lda, b, (int)ldb, (float)beta, c, (int)ldc);
        return;
    }
    if (fits && dt == CT_FLOAT64) {
        cblas_dgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)m, (int)n,
                    (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
        return;
    }
#endif
    gemm_loop(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
