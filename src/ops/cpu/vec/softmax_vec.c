/* float32 softmax backward, built once per CPU capability (Note [CPU capabilities] in
 * vec_kernels.h).
 *
 * Note [Softmax backward order]
 *   PyTorch 2.6's float kernels (aten/src/ATen/native/cpu/SoftMaxKernel.cpp) are registered
 *   with ALSO_REGISTER_AVX512_DISPATCH, so, unlike most kernels, an AVX512 CPU runs 16-lane
 *   Vectorized<float> code: the results differ between DEFAULT, AVX2 and AVX512 (measured with
 *   ATEN_CPU_CAPABILITY). Over the last dimension, sum = map2_reduce_all(grad * out): a
 *   vector accumulator started from the first vector's products, each further product added in
 *   (GCC fuses that product and addition into one multiply-add where the level has FMA, as in
 *   Note [Layer norm order]), a partial last vector into its first lanes, then the lanes folded
 *   (halves: lane i with i + L/2, ..., i + 1; at DEFAULT in order); grad_input = (grad - sum) *
 *   out. Over another dimension the kernel sums grad * out in order along it (a buffer in
 *   memory, not a register chain: one multiply-add per step where the level has FMA), and writes out * (grad - sum). */
#include <math.h>

#include "ops/cpu/vec/vec_impl.h"

#if defined(CT_CPU_CAP_IS_AVX512)
#define SM_L 16
#else
#define SM_L 8
#endif

#if defined(CT_CPU_CAP_IS_AVX512) || defined(CT_CPU_CAP_IS_AVX2)
#include <immintrin.h>
#endif
#if defined(CTORCH_HAVE_SLEEF) && (defined(CT_CPU_CAP_IS_AVX512) || defined(CT_CPU_CAP_IS_AVX2))
#include <sleef.h>
#endif

/* A product added into a loop's vector accumulator: GCC's x86 tuning avoids chains of 256-bit
 * multiply-adds (X86_TUNE_AVOID_256FMA_CHAINS), so only the 512-bit build fuses there. */
#if defined(CT_CPU_CAP_IS_AVX512)
#define MADD_CHAIN(a, b, c) fmaf((a), (b), (c))
#else
#define MADD_CHAIN(a, b, c) ((a) * (b) + (c))
#endif

static inline float fold_lanes(const float v[SM_L]) {
#if defined(__AVX2__)
    float w[SM_L];
    for (int l = 0; l < SM_L; l++) w[l] = v[l];
    for (int s = SM_L / 2; s >= 1; s /= 2) {
        float t[SM_L];
        for (int l = 0; l < SM_L; l++) t[l] = w[l] + w[l ^ s];
        for (int l = 0; l < SM_L; l++) w[l] = t[l];
    }
    return w[0];
#else
    float r = v[0];
    for (int l = 1; l < SM_L; l++) r = r + v[l];
    return r;
#endif
}

/* one row of n contiguous elements (softmax over the last dimension) */
void CT_VEC(ct_vec_softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi) {
    float sum;
    if (n < SM_L) {
        sum = 0;
        for (int64_t l = 0; l < n; l++) sum = l == 0 ? g[0] * y[0] : sum + g[l] * y[l];
    } else {
        float acc[SM_L];
        for (int l = 0; l < SM_L; l++) acc[l] = g[l] * y[l];
        for (int64_t d = SM_L; d < n; d += SM_L) {
            const int64_t k = n - d < SM_L ? n - d : SM_L;
            for (int64_t l = 0; l < k; l++) acc[l] = MADD_CHAIN(g[d + l], y[d + l], acc[l]);
        }
        sum = fold_lanes(acc);
    }
    for (int64_t j = 0; j < n; j++) gi[j] = (g[j] - sum) * y[j];
}

/* one column: len elements `inner` apart (softmax over another dimension) */
void CT_VEC(ct_vec_softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, float *gi) {
    float sum = 0.0f;
    for (int64_t k = 0; k < len; k++) sum = MADD(g[k * inner], y[k * inner], sum);
    for (int64_t k = 0; k < len; k++) gi[k * inner] = y[k * inner] * (g[k * inner] - sum);
}

/* Vectorized<float>::exp() / log() over n elements: SLEEF's u10 functions at AVX2 and AVX512
 * (16 lanes there: these kernels are registered for AVX512), std::exp / std::log at DEFAULT. */
#if defined(CTORCH_HAVE_SLEEF) && defined(CT_CPU_CAP_IS_AVX512)
#define VEC_MATH(NAME, SLEEF_FN, LIBM_FN)                                                                  \
    static void NAME(const float *in, float *out, int64_t n) {                                          \
        int64_t j = 0;                                                                                  \
        for (; j + 16 <= n; j += 16) _mm512_storeu_ps(out + j, SLEEF_FN##16_u10avx512f(_mm512_loadu_ps(in + j))); \
        if (j < n) {                                                                                    \
            float a[16] = {0}, b[16];                                                                   \
            for (int64_t k = j; k < n; k++) a[k - j] = in[k];                                           \
            _mm512_storeu_ps(b, SLEEF_FN##16_u10avx512f(_mm512_loadu_ps(a)));                           \
            for (int64_t k = j; k < n; k++) out[k] = b[k - j];                                          \
        }                                                                                               \
    }
#elif defined(CTORCH_HAVE_SLEEF) && defined(CT_CPU_CAP_IS_AVX2)
#define VEC_MATH(NAME, SLEEF_FN, LIBM_FN)                                                                  \
    static void NAME(const float *in, float *out, int64_t n) {                                          \
        int64_t j = 0;                                                                                  \
        for (; j + 8 <= n; j += 8) _mm256_storeu_ps(out + j, SLEEF_FN##8_u10avx2(_mm256_loadu_ps(in + j))); \
        if (j < n) {                                                                                    \
            float a[8] = {0}, b[8];                                                                     \
            for (int64_t k = j; k < n; k++) a[k - j] = in[k];                                           \
            _mm256_storeu_ps(b, SLEEF_FN##8_u10avx2(_mm256_loadu_ps(a)));                               \
            for (int64_t k = j; k < n; k++) out[k] = b[k - j];                                          \
        }                                                                                               \
    }
#else
#define VEC_MATH(NAME, SLEEF_FN, LIBM_FN)                                                                  \
    static void NAME(const float *in, float *out, int64_t n) {                                          \
        for (int64_t j = 0; j < n; j++) out[j] = LIBM_FN(in[j]);                                        \
    }
#endif
VEC_MATH(vec_exp, Sleef_expf, expf)
VEC_MATH(vec_log, Sleef_logf, logf)

/* The lane sum of a row of n (reduce_all(+) over Vectorized<float>): the first vector, each
 * further one added lane by lane (a partial last one into its first lanes), lanes folded. */
static float row_sum(const float *v, int64_t n) {
    if (n < SM_L) {
        float s = v[0];
        for (int64_t l = 1; l < n; l++) s = s + v[l];
        return n > 0 ? s : 0.0f;
    }
    float acc[SM_L];
    for (int l = 0; l < SM_L; l++) acc[l] = v[l];
    int64_t d = SM_L;
    for (; d + SM_L <= n; d += SM_L) /* whole vectors: a fixed-width loop kept in a register */
        for (int l = 0; l < SM_L; l++) acc[l] = acc[l] + v[d + l];
    for (int64_t l = 0; l < n - d; l++) acc[l] = acc[l] + v[d + l];
    return fold_lanes(acc);
}

/* vec::maximum over a row: NaN wins. The maximum is exact in any order, so it is taken lane by
 * lane with vector max instructions where the level has them, with a flag for a NaN seen; only a
 * row with a NaN is scanned again, one element at a time, for the NaN it returns (the last). */
static float row_max(const float *x, int64_t n) {
    float mx = -INFINITY;
    int nan = 0;
    int64_t j = 0;
#if defined(CT_CPU_CAP_IS_AVX512)
    __m512 m = _mm512_set1_ps(-INFINITY);
    __mmask16 un = 0;
    for (; j + 16 <= n; j += 16) {
        const __m512 v = _mm512_loadu_ps(x + j);
        m = _mm512_max_ps(v, m);
        un |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    }
    mx = _mm512_reduce_max_ps(m);
    nan = un != 0;
#elif defined(CT_CPU_CAP_IS_AVX2)
    __m256 m = _mm256_set1_ps(-INFINITY), un = _mm256_setzero_ps();
    for (; j + 8 <= n; j += 8) {
        const __m256 v = _mm256_loadu_ps(x + j);
        m = _mm256_max_ps(v, m);
        un = _mm256_or_ps(un, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, m);
    for (int l = 0; l < 8; l++) mx = lanes[l] > mx ? lanes[l] : mx;
    nan = _mm256_movemask_ps(un) != 0;
#endif
    for (; j < n; j++) {
        mx = x[j] > mx ? x[j] : mx;
        nan |= x[j] != x[j];
    }
    if (nan)
        for (j = 0; j < n; j++)
            if (x[j] != x[j]) mx = x[j];
    return mx;
}

/* softmax over a row of n contiguous elements (_vec_softmax_lastdim): e = exp(x - max), then
 * e * (1 / sum(e)) */
void CT_VEC(ct_vec_softmax_lastdim_f32)(const float *x, int64_t n, float *y) {
    const float mx = row_max(x, n);
    for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
    vec_exp(y, y, n);
    const float inv = 1.0f / row_sum(y, n);
    for (int64_t j = 0; j < n; j++) y[j] = y[j] * inv;
}

/* log_softmax over a row (serial_vec_log_softmax_lastdim_range): (x - max) - log(sum(exp(x - max))) */
void CT_VEC(ct_vec_log_softmax_lastdim_f32)(const float *x, int64_t n, float *y) {
    const float mx = row_max(x, n);
    for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
    vec_exp(y, y, n);
    float lse = row_sum(y, n);
    vec_log(&lse, &lse, 1);
    for (int64_t j = 0; j < n; j++) y[j] = (x[j] - mx) - lse;
}

/* log_softmax backward over a row: grad - exp(out) * sum(grad), the product and subtraction one
 * multiply-add where the level has FMA */
void CT_VEC(ct_vec_log_softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi) {
    const float sum = row_sum(g, n);
    vec_exp(y, gi, n);
    for (int64_t j = 0; j < n; j++) gi[j] = MADD(-gi[j], sum, g[j]);
}

/* Note [Softmax over a dimension]
 *   Over a dimension other than the last, PyTorch's float kernel (_vec_softmax in
 *   SoftMaxKernel.cpp) walks the columns of [outer, len, inner] a chunk of parallel_for at a
 *   time: from the chunk's first column, a group of L adjacent columns (one Vectorized<float>,
 *   16 lanes at AVX512) whenever the group fits in its row of inner columns and in the chunk,
 *   otherwise single columns up to the row's end or the chunk's. A group takes the lane-wise
 *   maximum (vec::maximum: a NaN wins), exp(x - max) with SLEEF's vector exp (the C library's at
 *   DEFAULT), a lane-wise sum and a division by it; a single column takes std::max (a later NaN
 *   is passed over), the C library's expf, a float sum and the division. A column's last bits
 *   thus depend on whether it fell in a group, i.e. on where the chunks start: at 2 threads the
 *   columns just before the cut are single ones. ctorch runs the same walk over the same chunks. */
static inline float vec_maximum(float a, float b) { return a != a ? a : (a > b ? a : b); }

/* Groups taken together by softmax_groups: each column's steps are its group's, in its group's
 * order, but the groups' passes over the rows read SM_GROUPS vectors of adjacent columns instead
 * of one, so a pass's rows are still in the cache for the next pass. */
#define SM_GROUPS 8

/* n groups of L adjacent columns (n <= SM_GROUPS) of len elements, inner apart, from x into y */
static void softmax_groups(const float *x, int64_t len, int64_t inner, int64_t n, float *y) {
    const int64_t w = n * SM_L;
    float m[SM_GROUPS * SM_L], s[SM_GROUPS * SM_L], t[SM_GROUPS * SM_L];
    for (int64_t c = 0; c < w; c++) m[c] = x[c];
    for (int64_t d = 1; d < len; d++) {
        const float *r = x + d * inner;
        for (int64_t c = 0; c < w; c++) m[c] = vec_maximum(m[c], r[c]);
    }
    for (int64_t c = 0; c < w; c++) s[c] = 0.0f;
    for (int64_t d = 0; d < len; d++) {
        const float *r = x + d * inner;
        float *o = y + d * inner;
        for (int64_t c = 0; c < w; c++) t[c] = r[c] - m[c];
        vec_exp(t, o, w);
        for (int64_t c = 0; c < w; c++) s[c] = s[c] + o[c];
    }
    for (int64_t d = 0; d < len; d++) {
        float *o = y + d * inner;
        for (int64_t c = 0; c < w; c++) o[c] = o[c] / s[c];
    }
}

/* one column, as host_softmax's scalar code */
static void softmax_column(const float *x, int64_t len, int64_t inner, float *y) {
    float m = x[0], s = 0.0f;
    for (int64_t d = 1; d < len; d++) m = m < x[d * inner] ? x[d * inner] : m;
    for (int64_t d = 0; d < len; d++) {
        y[d * inner] = expf(x[d * inner] - m);
        s += y[d * inner];
    }
    for (int64_t d = 0; d < len; d++) y[d * inner] = y[d * inner] / s;
}

/* columns [begin, end) of the outer * inner columns of a contiguous [outer, len, inner] */
void CT_VEC(ct_vec_softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t begin, int64_t end, float *y) {
    const int64_t outer_stride = len * inner;
    for (int64_t idx = begin; idx < end;) {
        const int64_t o = idx / inner, in = idx % inner;
        if (in + SM_L <= inner && idx + SM_L <= end) { /* the groups that follow, up to SM_GROUPS */
            int64_t n = 1;
            while (n < SM_GROUPS && in + (n + 1) * SM_L <= inner && idx + (n + 1) * SM_L <= end) n++;
            softmax_groups(x + o * outer_stride + in, len, inner, n, y + o * outer_stride + in);
            idx += n * SM_L;
            continue;
        }
        const int64_t tail = idx + SM_L > end ? end - idx : inner - in;
        for (int64_t i = 0; i < tail; i++) {
            const int64_t oo = (idx + i) / inner, ii = (idx + i) % inner;
            softmax_column(x + oo * outer_stride + ii, len, inner, y + oo * outer_stride + ii);
        }
        idx += tail;
    }
}

/* Note [Log softmax over a dimension]
 *   Over a dimension other than the last, PyTorch's float log_softmax (_vec_logsoftmax) and its
 *   backward cut each row of inner columns into blocks of min(inner, C) columns, C being
 *   128 KB / (len * 4 bytes) rounded down to whole vectors (at least one), and hand the
 *   outer x blocks to the threads with a grain of 0. The blocks do not depend on the threads, so
 *   neither do the bits. In a block, the columns of its whole vectors and those of its last
 *   size % L take the same steps, except that the first take SLEEF's vector exp (the C
 *   library's at DEFAULT) and the last the C library's expf. Forward: max = -inf, then
 *   max = x > max ? x : max down the column (a NaN is passed over), sum of exp(x - max) in
 *   order, the vector log of the block's sums, out = (x - max) - log. Backward: the sum of grad
 *   in order, then grad - exp(out) * sum, one multiply-add where the level has FMA. */

/* the columns of a block of `size` that PyTorch's vector loop takes */
static inline int64_t block_vector_columns(int64_t size) { return size - size % SM_L; }

void CT_VEC(ct_vec_log_softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t size, float *scratch, float *y) {
    float *m = scratch, *s = scratch + size;
    const int64_t nv = block_vector_columns(size);
    for (int64_t c = 0; c < size; c++) {
        m[c] = -INFINITY;
        s[c] = 0.0f;
    }
    for (int64_t d = 0; d < len; d++) {
        const float *r = x + d * inner;
        for (int64_t c = 0; c < size; c++) m[c] = r[c] > m[c] ? r[c] : m[c];
    }
    for (int64_t d = 0; d < len; d++) {
        const float *r = x + d * inner;
        float *o = y + d * inner; /* the exponentials pass through the output row */
        for (int64_t c = 0; c < nv; c++) o[c] = r[c] - m[c];
        vec_exp(o, o, nv);
        for (int64_t c = 0; c < nv; c++) s[c] = s[c] + o[c];
        for (int64_t c = nv; c < size; c++) s[c] = s[c] + expf(r[c] - m[c]);
    }
    vec_log(s, s, size);
    for (int64_t d = 0; d < len; d++) {
        const float *r = x + d * inner;
        float *o = y + d * inner;
        for (int64_t c = 0; c < size; c++) o[c] = (r[c] - m[c]) - s[c];
    }
}

void CT_VEC(ct_vec_log_softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, int64_t size,
                                           float *scratch, float *gi) {
    float *s = scratch;
    const int64_t nv = block_vector_columns(size);
    for (int64_t c = 0; c < size; c++) s[c] = 0.0f;
    for (int64_t d = 0; d < len; d++) {
        const float *r = g + d * inner;
        for (int64_t c = 0; c < size; c++) s[c] = s[c] + r[c];
    }
    for (int64_t d = 0; d < len; d++) {
        const float *gr = g + d * inner, *yr = y + d * inner;
        float *o = gi + d * inner;
        vec_exp(yr, o, nv);
        for (int64_t c = 0; c < nv; c++) o[c] = MADD(-o[c], s[c], gr[c]);
        for (int64_t c = nv; c < size; c++) o[c] = MADD(-expf(yr[c]), s[c], gr[c]);
    }
}
