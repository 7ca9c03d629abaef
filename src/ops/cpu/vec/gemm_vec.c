/* Register-blocked float32 matrix products, built once per CPU capability.
 *
 * Note [Small GEMM]
 *   The float32 products of a build without a BLAS (the sanitizer build; a machine without
 *   OpenBLAS). They work on the operands where they lie, without packing (column-major BLAS
 *   semantics, C = alpha*op(A)*op(B) + beta*C):
 *     - op(A) = A, columns contiguous: C's columns are built as sums of A's columns times
 *       elements of B, 4 (AVX-512: 4 x 16 rows) or 2 vectors of rows by 4, 2 or 1 columns of C held
 *       in registers (the "axpy" form), each element summed in the order p = 0..k-1 with fused
 *       multiply-adds; 64x64x64 runs at ~110 GF/s on one core of the development machine (its
 *       measured peak is 117 GF/s);
 *     - op(A) = A^T, rows of op(A) contiguous: each element of C is a dot product of a row of
 *       op(A) and a column of op(B) (B packed to columns first when it is transposed), 8 (AVX2: 4)
 *       rows by 2 columns at a time in 256-bit lanes (on CPUs that split 512-bit operations, as
 *       AMD Zen 4 does, wider shuffles cost more and multiply-adds go no faster), the lanes summed
 *       by one shuffle network per 4 rows and 2 columns.
 *   Why a build with OpenBLAS does not use them: OpenBLAS 0.3.21 (its Cooperlake kernels on the
 *   development machine, with small-matrix paths that skip packing) measured as fast or faster
 *   at every shape tried, single-threaded: the lab's 600x2x64 (A^T) 2.5 us against 3.0, its
 *   64x2x600 1.5 against 1.5, 64x600x2 2.7 against 3.6, the seed MLP's 32x8x16 97 ns against
 *   100, 64^3 4.6 us against 4.7. Only the AVX2 and AVX512 builds have these kernels (written with
 *   the level's intrinsics); the DEFAULT build returns false and the caller uses its plain loop.
 */
#include <stdlib.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

/* op(B) packed to columns for the dot-product form: at most this many floats, on the stack */
#define SMALL_GEMM_PACK_MAX 8192

static inline float b_at(const float *b, int64_t ldb, bool tb, int64_t p, int64_t j) {
    return tb ? b[j + p * ldb] : b[p + j * ldb];
}

#if defined(__AVX512F__) || defined(__AVX2__)
/* the first `left` (0..8) floats at p, zeros after */
static inline __m256 maskload(const float *p, int64_t left) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(left > 8 ? 8 : left < 0 ? 0 : left)), idx);
    return _mm256_maskload_ps(p, mask);
}
#endif

#if defined(__AVX512F__)

#define VL 16
typedef __m512 vec_t;
static inline __mmask16 lane_mask(int64_t left) {
    return left >= 16 ? (__mmask16)0xFFFF : left <= 0 ? (__mmask16)0 : (__mmask16)((1u << left) - 1);
}
/* plain loads and stores for whole vectors (a masked store is slow on some AVX-512 CPUs) */
static inline vec_t vload(const float *p, int64_t left) {
    return left >= 16 ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(lane_mask(left), p);
}
static inline void vstore(float *p, int64_t left, vec_t v) {
    if (left >= 16) _mm512_storeu_ps(p, v);
    else _mm512_mask_storeu_ps(p, lane_mask(left), v);
}
#define VZERO() _mm512_setzero_ps()
#define VSET1(x) _mm512_set1_ps(x)
#define VFMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define VMUL(a, b) _mm512_mul_ps(a, b)
#define VADD(a, b) _mm512_add_ps(a, b)
#define AXPY_WIDE 4 /* vectors of rows in the 4-column block */

#elif defined(__AVX2__)

#define VL 8
typedef __m256 vec_t;
static inline vec_t vload(const float *p, int64_t left) { return left >= 8 ? _mm256_loadu_ps(p) : maskload(p, left); }
static inline void vstore(float *p, int64_t left, vec_t v) {
    if (left >= 8) {
        _mm256_storeu_ps(p, v);
        return;
    }
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(left < 0 ? 0 : left)), idx);
    _mm256_maskstore_ps(p, mask, v);
}
#define VZERO() _mm256_setzero_ps()
#define VSET1(x) _mm256_set1_ps(x)
#define VFMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VMUL(a, b) _mm256_mul_ps(a, b)
#define VADD(a, b) _mm256_add_ps(a, b)
#define AXPY_WIDE 2

#endif

#if defined(__AVX512F__) || defined(__AVX2__)
#if defined(__AVX512F__)
#define DOT_ROWS 8
#else
#define DOT_ROWS 4
#endif

/* The lane sums of 8 vectors in one vector; input x's sum ends in lane 4*(x%2) + x/2. */
static inline __m256 reduce8(const __m256 *v) {
    __m256 t[4], u[2];
    for (int x = 0; x < 4; x++)
        t[x] = _mm256_add_ps(_mm256_permute2f128_ps(v[2 * x], v[2 * x + 1], 0x20), _mm256_permute2f128_ps(v[2 * x], v[2 * x + 1], 0x31));
    for (int x = 0; x < 2; x++)
        u[x] = _mm256_add_ps(_mm256_shuffle_ps(t[2 * x], t[2 * x + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm256_shuffle_ps(t[2 * x], t[2 * x + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    return _mm256_add_ps(_mm256_shuffle_ps(u[0], u[1], _MM_SHUFFLE(2, 0, 2, 0)), _mm256_shuffle_ps(u[0], u[1], _MM_SHUFFLE(3, 1, 3, 1)));
}

/* dot-product form, op(A) = A^T: DOT_ROWS rows x 2 columns of C per block, acc[DOT_ROWS*q + r].
 * 256-bit vectors at both levels: a dot product's lanes must be summed at the end, and on CPUs
 * that split 512-bit operations in two (AMD Zen 4) the wider shuffles cost twice as much while
 * the multiply-adds do not go faster; AVX-512's 32 registers allow 8 rows at a time. */
static void dot_form(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *bc,
                     int64_t ldbc, float beta, float *c, int64_t ldc) {
    const int64_t kv = k - k % 8;
    const __m128 va = _mm_set1_ps(alpha), vb = _mm_set1_ps(beta);
    for (int64_t i0 = 0; i0 < m; i0 += DOT_ROWS) {
        const float *row[DOT_ROWS];
        for (int r = 0; r < DOT_ROWS; r++) row[r] = a + (i0 + r < m ? i0 + r : m - 1) * lda;
        for (int64_t j0 = 0; j0 < n; j0 += 2) {
            const bool two = j0 + 1 < n;
            const float *colp[2] = {bc + j0 * ldbc, bc + (two ? j0 + 1 : j0) * ldbc};
            __m256 acc[2 * DOT_ROWS];
            for (int x = 0; x < 2 * DOT_ROWS; x++) acc[x] = _mm256_setzero_ps();
            for (int64_t p = 0; p < kv; p += 8) {
                __m256 b0 = _mm256_loadu_ps(colp[0] + p), b1 = _mm256_loadu_ps(colp[1] + p);
                for (int r = 0; r < DOT_ROWS; r++) {
                    __m256 av = _mm256_loadu_ps(row[r] + p);
                    acc[r] = _mm256_fmadd_ps(av, b0, acc[r]);
                    acc[DOT_ROWS + r] = _mm256_fmadd_ps(av, b1, acc[DOT_ROWS + r]);
                }
            }
            if (kv < k) {
                __m256 b0 = maskload(colp[0] + kv, k - kv), b1 = maskload(colp[1] + kv, k - kv);
                for (int r = 0; r < DOT_ROWS; r++) {
                    __m256 av = maskload(row[r] + kv, k - kv);
                    acc[r] = _mm256_fmadd_ps(av, b0, acc[r]);
                    acc[DOT_ROWS + r] = _mm256_fmadd_ps(av, b1, acc[DOT_ROWS + r]);
                }
            }
            /* groups of 4 rows: reduce8 of (rows g..g+3 of column j0, the same of column j0+1)
             * leaves the row sums of column j0 in lanes 0-3, of column j0+1 in lanes 4-7 */
            for (int g = 0; g < DOT_ROWS; g += 4) {
                const int64_t left = m - i0 - g;
                if (left <= 0) continue;
                const __m128i rmask = _mm_cmpgt_epi32(_mm_set1_epi32((int)(left > 4 ? 4 : left)), _mm_setr_epi32(0, 1, 2, 3));
                __m256 grp[8], vin[8];
                for (int r = 0; r < 4; r++) {
                    grp[r] = acc[g + r];
                    grp[4 + r] = acc[DOT_ROWS + g + r];
                }
                for (int x = 0; x < 8; x++) vin[x] = grp[4 * (x % 2) + x / 2]; /* grp[L]'s sum in lane L */
                __m256 z = reduce8(vin);
                float *c0 = c + i0 + g + j0 * ldc, *c1 = c0 + ldc;
                __m128 z0 = _mm_mul_ps(va, _mm256_castps256_ps128(z)), z1 = _mm_mul_ps(va, _mm256_extractf128_ps(z, 1));
                if (beta != 0.0f) {
                    z0 = _mm_add_ps(z0, _mm_mul_ps(vb, _mm_maskload_ps(c0, rmask)));
                    if (two) z1 = _mm_add_ps(z1, _mm_mul_ps(vb, _mm_maskload_ps(c1, rmask)));
                }
                if (left >= 4) {
                    _mm_storeu_ps(c0, z0);
                    if (two) _mm_storeu_ps(c1, z1);
                } else {
                    _mm_maskstore_ps(c0, rmask, z0);
                    if (two) _mm_maskstore_ps(c1, rmask, z1);
                }
            }
        }
    }
}

#endif

#if defined(__AVX512F__) || defined(__AVX2__)
/* fully unrolled register blocks (GCC otherwise may keep the accumulators in memory) */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif

/* One block of the axpy form: MV vectors of rows from i0, NC columns from j0, over all of k.
 * op(B)(p, j) is at bp[j] + p * sp. */
#define AXPY_BLOCK(NAME, MV, NC)                                                                                \
    static void NAME(int64_t m, int64_t i0, int64_t k, float alpha, const float *a, int64_t lda,                \
                     const float *const *bp, int64_t sp, float beta, float *const *cp) {                        \
        vec_t acc[NC][MV];                                                                                      \
        UNROLL for (int q = 0; q < NC; q++)                                                                     \
            UNROLL for (int v = 0; v < MV; v++) acc[q][v] = VZERO();                                            \
        const int64_t left = m - i0;                                                                            \
        for (int64_t p = 0; p < k; p++) {                                                                       \
            const float *ap = a + i0 + p * lda;                                                                 \
            vec_t av[MV];                                                                                       \
            UNROLL for (int v = 0; v < MV; v++) av[v] = vload(ap + VL * v, left - VL * v);                      \
            UNROLL for (int q = 0; q < NC; q++) {                                                               \
                vec_t bv = VSET1(bp[q][p * sp]);                                                                \
                UNROLL for (int v = 0; v < MV; v++) acc[q][v] = VFMA(av[v], bv, acc[q][v]);                     \
            }                                                                                                   \
        }                                                                                                       \
        const vec_t va = VSET1(alpha), vb = VSET1(beta);                                                        \
        /* constant trip counts, no early exit: the accumulators stay in registers */                         \
        UNROLL for (int q = 0; q < NC; q++)                                                                     \
            UNROLL for (int v = 0; v < MV; v++) {                                                               \
                const int64_t lv = left - VL * v;                                                               \
                if (lv > 0) {                                                                                   \
                    float *c = cp[q] + i0 + VL * v;                                                             \
                    vec_t r = VMUL(va, acc[q][v]);                                                              \
                    if (beta != 0.0f) r = VADD(r, VMUL(vb, vload(c, lv)));                                      \
                    vstore(c, lv, r);                                                                           \
                }                                                                                               \
            }                                                                                                   \
    }

AXPY_BLOCK(axpy_wide4, AXPY_WIDE, 4)
AXPY_BLOCK(axpy_2x4, 2, 4)
AXPY_BLOCK(axpy_4x2, 4, 2)
AXPY_BLOCK(axpy_4x1, 4, 1)

/* axpy form, op(A) = A (columns contiguous): C's columns in blocks of 4 (then 2, 1) */
static void axpy_form(bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                      const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
    const int64_t sp = tb ? ldb : 1, sj = tb ? 1 : ldb;
    int64_t j0 = 0;
    while (j0 < n) {
        const int nc = n - j0 >= 4 ? 4 : n - j0 >= 2 ? 2 : 1;
        const float *bp[4];
        float *cp[4];
        for (int q = 0; q < nc; q++) {
            bp[q] = b + (j0 + q) * sj;
            cp[q] = c + (j0 + q) * ldc;
        }
        /* short columns (m <= 2 vectors) in 2-vector blocks, so no block is mostly masked */
        const bool narrow = nc == 4 && m <= 2 * VL;
        const int64_t rows = (nc == 4 ? (narrow ? 2 : AXPY_WIDE) : 4) * VL;
        for (int64_t i0 = 0; i0 < m; i0 += rows) {
            if (narrow) axpy_2x4(m, i0, k, alpha, a, lda, bp, sp, beta, cp);
            else if (nc == 4) axpy_wide4(m, i0, k, alpha, a, lda, bp, sp, beta, cp);
            else if (nc == 2) axpy_4x2(m, i0, k, alpha, a, lda, bp, sp, beta, cp);
            else axpy_4x1(m, i0, k, alpha, a, lda, bp, sp, beta, cp);
        }
        j0 += nc;
    }
}
#endif

bool CT_VEC(ct_vec_sgemm_small)(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                                int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
#if defined(__AVX512F__) || defined(__AVX2__)
    if (m <= 0 || n <= 0 || k <= 0) return false;
    if (!transa) {
        axpy_form(transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return true;
    }
    if (!transb) {
        dot_form(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return true;
    }
    if (k * n > SMALL_GEMM_PACK_MAX) return false;
    float packed[SMALL_GEMM_PACK_MAX];
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = 0; p < k; p++) packed[p + j * k] = b_at(b, ldb, true, p, j);
    dot_form(m, n, k, alpha, a, lda, packed, k, beta, c, ldc);
    return true;
#else
    (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta, (void)c, (void)ldc;
    return false;
#endif
}
