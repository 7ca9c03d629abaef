/* Small float32 matrix products, built once per CPU capability.
 *
 * Note [Small GEMM]
 *   A BLAS pays for generality on every call: argument checks, a thread decision, packing both
 *   operands into panels. For the products of a small linear layer (the lab's 2x64 @ 64x600 and
 *   its backward: 64x600 @ 600x2, 600x2 @ 2x64) that costs more than the arithmetic, and OpenBLAS
 *   took 1.5-2.9 us for each of them on the development machine. These kernels work on the
 *   operands where they lie (column-major BLAS semantics, C = alpha*op(A)*op(B) + beta*C):
 *     - op(A) = A, columns contiguous: C's columns are built as sums of A's columns times
 *       elements of B, four vectors of rows by four columns of C held in registers (the "axpy"
 *       form), each element summed in the order p = 0..k-1 with fused multiply-adds;
 *     - op(A) = A^T, rows of op(A) contiguous: each element of C is a dot product of a row of
 *       op(A) and a column of op(B) (B packed to columns first when it is transposed), eight
 *       (four) rows by two columns at a time, the vector lanes summed by one shuffle network for
 *       the sixteen (eight) dot products together.
 *   Only the AVX2 and AVX512 builds have them (they are written with the level's intrinsics);
 *   the DEFAULT build, and shapes above the size where the BLAS's packing pays off, return false
 *   and the caller uses the BLAS (gemm.c). */
#include <stdlib.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

/* Above this many multiply-adds (m*n*k) the BLAS, with its packing and threads, is faster. */
#define SMALL_GEMM_MAX_FLOPS ((int64_t)1 << 21)
/* op(B) packed to columns for the dot-product form: at most this many floats, on the stack */
#define SMALL_GEMM_PACK_MAX 8192

static inline float b_at(const float *b, int64_t ldb, bool tb, int64_t p, int64_t j) {
    return tb ? b[j + p * ldb] : b[p + j * ldb];
}

static inline float c_update(float acc, float alpha, float beta, const float *c) {
    return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

#if defined(__AVX512F__)

/* axpy form, op(A) = A: 64 rows (4 vectors) x 4 columns of C per block */
static void axpy_form(bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                      const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int64_t j0 = 0; j0 < n; j0 += 4) {
        int64_t col[4];
        for (int q = 0; q < 4; q++) col[q] = j0 + q < n ? j0 + q : n - 1; /* a short last block repeats its column */
        for (int64_t i0 = 0; i0 < m; i0 += 64) {
            __mmask16 mask[4];
            for (int v = 0; v < 4; v++) {
                int64_t left = m - i0 - 16 * v;
                mask[v] = left >= 16 ? (__mmask16)0xFFFF : left <= 0 ? (__mmask16)0 : (__mmask16)((1u << left) - 1);
            }
            __m512 acc[4][4];
            for (int q = 0; q < 4; q++)
                for (int v = 0; v < 4; v++) acc[q][v] = _mm512_setzero_ps();
            for (int64_t p = 0; p < k; p++) {
                const float *ap = a + i0 + p * lda;
                __m512 av[4];
                for (int v = 0; v < 4; v++) av[v] = _mm512_maskz_loadu_ps(mask[v], ap + 16 * v);
                for (int q = 0; q < 4; q++) {
                    __m512 bv = _mm512_set1_ps(b_at(b, ldb, tb, p, col[q]));
                    for (int v = 0; v < 4; v++) acc[q][v] = _mm512_fmadd_ps(av[v], bv, acc[q][v]);
                }
            }
            for (int q = 0; q < 4 && j0 + q < n; q++) {
                float *cp = c + i0 + (j0 + q) * ldc;
                for (int v = 0; v < 4; v++) {
                    if (!mask[v]) continue;
                    __m512 r = _mm512_mul_ps(va, acc[q][v]);
                    if (beta != 0.0f) r = _mm512_add_ps(r, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(mask[v], cp + 16 * v)));
                    _mm512_mask_storeu_ps(cp + 16 * v, mask[v], r);
                }
            }
        }
    }
}

/* The lane sums of 16 vectors in one vector: four rounds of shuffles and adds, each halving
 * the lanes per input. Input x's sum ends in lane 4*(x%4) + x/4. */
static inline __m512 reduce16(const __m512 *v) {
    __m512 t[8], u[4], w[2];
    for (int x = 0; x < 8; x++)
        t[x] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * x], v[2 * x + 1], 0x44), _mm512_shuffle_f32x4(v[2 * x], v[2 * x + 1], 0xEE));
    for (int x = 0; x < 4; x++)
        u[x] = _mm512_add_ps(_mm512_shuffle_f32x4(t[2 * x], t[2 * x + 1], _MM_SHUFFLE(2, 0, 2, 0)),
                             _mm512_shuffle_f32x4(t[2 * x], t[2 * x + 1], _MM_SHUFFLE(3, 1, 3, 1)));
    for (int x = 0; x < 2; x++)
        w[x] = _mm512_add_ps(_mm512_shuffle_ps(u[2 * x], u[2 * x + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(u[2 * x], u[2 * x + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    return _mm512_add_ps(_mm512_shuffle_ps(w[0], w[1], _MM_SHUFFLE(2, 0, 2, 0)), _mm512_shuffle_ps(w[0], w[1], _MM_SHUFFLE(3, 1, 3, 1)));
}

/* dot-product form, op(A) = A^T: rows of op(A) at a + i*lda, columns of op(B) at bc + j*ldbc;
 * 8 rows x 2 columns of C per block */
static void dot_form(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *bc,
                     int64_t ldbc, float beta, float *c, int64_t ldc) {
    const __mmask16 tail = (__mmask16)((1u << (k % 16)) - 1);
    const int64_t kv = k - k % 16;
    for (int64_t i0 = 0; i0 < m; i0 += 8) {
        const float *row[8];
        for (int r = 0; r < 8; r++) row[r] = a + (i0 + r < m ? i0 + r : m - 1) * lda;
        for (int64_t j0 = 0; j0 < n; j0 += 2) {
            const float *colp[2];
            for (int q = 0; q < 2; q++) colp[q] = bc + (j0 + q < n ? j0 + q : n - 1) * ldbc;
            __m512 acc[16];
            for (int x = 0; x < 16; x++) acc[x] = _mm512_setzero_ps();
            for (int64_t p = 0; p < kv; p += 16) {
                __m512 b0 = _mm512_loadu_ps(colp[0] + p), b1 = _mm512_loadu_ps(colp[1] + p);
                for (int r = 0; r < 8; r++) {
                    __m512 av = _mm512_loadu_ps(row[r] + p);
                    acc[2 * r] = _mm512_fmadd_ps(av, b0, acc[2 * r]);
                    acc[2 * r + 1] = _mm512_fmadd_ps(av, b1, acc[2 * r + 1]);
                }
            }
            if (tail) {
                __m512 b0 = _mm512_maskz_loadu_ps(tail, colp[0] + kv), b1 = _mm512_maskz_loadu_ps(tail, colp[1] + kv);
                for (int r = 0; r < 8; r++) {
                    __m512 av = _mm512_maskz_loadu_ps(tail, row[r] + kv);
                    acc[2 * r] = _mm512_fmadd_ps(av, b0, acc[2 * r]);
                    acc[2 * r + 1] = _mm512_fmadd_ps(av, b1, acc[2 * r + 1]);
                }
            }
            /* feeding acc[4*(x%4) + x/4] as input x puts acc[L]'s sum in lane L */
            __m512 vin[16];
            for (int x = 0; x < 16; x++) vin[x] = acc[4 * (x % 4) + x / 4];
            float sums[16];
            _mm512_storeu_ps(sums, reduce16(vin));
            for (int r = 0; r < 8 && i0 + r < m; r++)
                for (int q = 0; q < 2 && j0 + q < n; q++) {
                    float *cp = c + (i0 + r) + (j0 + q) * ldc;
                    *cp = c_update(sums[2 * r + q], alpha, beta, cp);
                }
        }
    }
}

#elif defined(__AVX2__)

static inline __m256 maskload(const float *p, int64_t left) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(left > 8 ? 8 : left < 0 ? 0 : left)), idx);
    return _mm256_maskload_ps(p, mask);
}

static inline void maskstore(float *p, int64_t left, __m256 v) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(left > 8 ? 8 : left < 0 ? 0 : left)), idx);
    _mm256_maskstore_ps(p, mask, v);
}

/* axpy form, op(A) = A: 16 rows (2 vectors) x 4 columns of C per block */
static void axpy_form(bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                      const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    for (int64_t j0 = 0; j0 < n; j0 += 4) {
        int64_t col[4];
        for (int q = 0; q < 4; q++) col[q] = j0 + q < n ? j0 + q : n - 1;
        for (int64_t i0 = 0; i0 < m; i0 += 16) {
            const int64_t left = m - i0;
            const bool full = left >= 16;
            __m256 acc[4][2];
            for (int q = 0; q < 4; q++) acc[q][0] = acc[q][1] = _mm256_setzero_ps();
            for (int64_t p = 0; p < k; p++) {
                const float *ap = a + i0 + p * lda;
                __m256 a0 = full ? _mm256_loadu_ps(ap) : maskload(ap, left);
                __m256 a1 = full ? _mm256_loadu_ps(ap + 8) : maskload(ap + 8, left - 8);
                for (int q = 0; q < 4; q++) {
                    __m256 bv = _mm256_set1_ps(b_at(b, ldb, tb, p, col[q]));
                    acc[q][0] = _mm256_fmadd_ps(a0, bv, acc[q][0]);
                    acc[q][1] = _mm256_fmadd_ps(a1, bv, acc[q][1]);
                }
            }
            for (int q = 0; q < 4 && j0 + q < n; q++) {
                float *cp = c + i0 + (j0 + q) * ldc;
                for (int v = 0; v < 2; v++) {
                    int64_t lv = left - 8 * v;
                    if (lv <= 0) continue;
                    __m256 r = _mm256_mul_ps(va, acc[q][v]);
                    if (beta != 0.0f) r = _mm256_add_ps(r, _mm256_mul_ps(vb, lv >= 8 ? _mm256_loadu_ps(cp + 8 * v) : maskload(cp + 8 * v, lv)));
                    if (lv >= 8) _mm256_storeu_ps(cp + 8 * v, r);
                    else maskstore(cp + 8 * v, lv, r);
                }
            }
        }
    }
}

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

/* dot-product form, op(A) = A^T: 4 rows x 2 columns of C per block */
static void dot_form(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *bc,
                     int64_t ldbc, float beta, float *c, int64_t ldc) {
    const int64_t kv = k - k % 8;
    for (int64_t i0 = 0; i0 < m; i0 += 4) {
        const float *row[4];
        for (int r = 0; r < 4; r++) row[r] = a + (i0 + r < m ? i0 + r : m - 1) * lda;
        for (int64_t j0 = 0; j0 < n; j0 += 2) {
            const float *colp[2];
            for (int q = 0; q < 2; q++) colp[q] = bc + (j0 + q < n ? j0 + q : n - 1) * ldbc;
            __m256 acc[8];
            for (int x = 0; x < 8; x++) acc[x] = _mm256_setzero_ps();
            for (int64_t p = 0; p < kv; p += 8) {
                __m256 b0 = _mm256_loadu_ps(colp[0] + p), b1 = _mm256_loadu_ps(colp[1] + p);
                for (int r = 0; r < 4; r++) {
                    __m256 av = _mm256_loadu_ps(row[r] + p);
                    acc[2 * r] = _mm256_fmadd_ps(av, b0, acc[2 * r]);
                    acc[2 * r + 1] = _mm256_fmadd_ps(av, b1, acc[2 * r + 1]);
                }
            }
            if (kv < k) {
                __m256 b0 = maskload(colp[0] + kv, k - kv), b1 = maskload(colp[1] + kv, k - kv);
                for (int r = 0; r < 4; r++) {
                    __m256 av = maskload(row[r] + kv, k - kv);
                    acc[2 * r] = _mm256_fmadd_ps(av, b0, acc[2 * r]);
                    acc[2 * r + 1] = _mm256_fmadd_ps(av, b1, acc[2 * r + 1]);
                }
            }
            __m256 vin[8]; /* acc[L]'s sum in lane L */
            for (int x = 0; x < 8; x++) vin[x] = acc[4 * (x % 2) + x / 2];
            float sums[8];
            _mm256_storeu_ps(sums, reduce8(vin));
            for (int r = 0; r < 4 && i0 + r < m; r++)
                for (int q = 0; q < 2 && j0 + q < n; q++) {
                    float *cp = c + (i0 + r) + (j0 + q) * ldc;
                    *cp = c_update(sums[2 * r + q], alpha, beta, cp);
                }
        }
    }
}

#endif

bool CT_VEC(ct_vec_sgemm_small)(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                                int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
#if defined(__AVX512F__) || defined(__AVX2__)
    if (m <= 0 || n <= 0 || k <= 0 || m * n * k > SMALL_GEMM_MAX_FLOPS) return false;
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
