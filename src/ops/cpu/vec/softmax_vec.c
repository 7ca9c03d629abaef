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

#if defined(__FMA__)
#define MADD(a, b, c) fmaf((a), (b), (c))
#else
#define MADD(a, b, c) ((a) * (b) + (c))
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
