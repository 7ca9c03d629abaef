/* float32 batch norm loops, built once per CPU capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Note [Batch norm order]
 *   PyTorch 2.6's float kernels (aten/src/ATen/native/cpu/batch_norm_kernel.cpp) are registered
 *   with REGISTER_DISPATCH, so an AVX512 CPU runs the AVX2 build: 8 float lanes at every level.
 *   GCC's -ffp-contract=fast fuses a product feeding an addition into one multiply-add where the
 *   level has FMA (MADD), except in a loop-carried vector accumulator, which the AVX2 tuning
 *   keeps as a multiply and an add (the backward's dot product). The per-channel terms:
 *     alpha = invstd * weight, beta = bias - mean * alpha (one multiply-add), y = x * alpha + beta.
 *   The backward of a contiguous plane sums dy and (x - mean) * dy in 8 lanes per image
 *   (vec::reduce_all / map2_reduce_all, folded by vec_reduce_all) and
 *     dx = (dy - grad_mean - (x - mean) * k) * invstd * w,
 *   the product (x - mean) * k fused into the subtraction. Inputs of one element per channel
 *   and image (N x C, or N x C x 1 x 1) take the channels-last kernels: per-thread rows of C
 *   accumulated with buf + x and buf + (x - mean) * (x - mean) (fused), then summed in double. */
#include <math.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

#define BN_L (CT_VEC_BYTES / 4) /* lanes of Vectorized<float> in the kernel that runs */

/* y = x * alpha + beta over n contiguous elements */
void CT_VEC(ct_vec_bn_apply_f32)(const float *x, int64_t n, float alpha, float beta, float *y) {
    for (int64_t i = 0; i < n; i++) y[i] = MADD(x[i], alpha, beta);
}

/* one row of C channels: y[c] = x[c] * alpha[c] + beta[c] */
void CT_VEC(ct_vec_bn_apply_cl_f32)(const float *x, const float *alpha, const float *beta, int64_t C, float *y) {
    for (int64_t c = 0; c < C; c++) y[c] = MADD(x[c], alpha[c], beta[c]);
}

/* batch_norm_cpu_collect_linear_and_constant_terms: alpha and beta of C channels from the
 * mean, invstd, weight and bias (weight / bias NULL: 1 / 0) */
void CT_VEC(ct_vec_bn_terms_f32)(int64_t C, const float *mean, const float *invstd, const float *w, const float *b,
                                 float *alpha, float *beta) {
    for (int64_t c = 0; c < C; c++) {
        const float wv = w ? w[c] : 1.0f, bv = b ? b[c] : 0.0f;
        alpha[c] = invstd[c] * wv;
        beta[c] = MADD(-mean[c], alpha[c], bv);
    }
}

/* vec_reduce_all(+) of one Vectorized<float>: the AVX2 kernel folds halves (lane i with i+4,
 * then i+2, then i+1); the DEFAULT one adds the lanes in order */
static inline float fold_lanes(const float v[BN_L]) {
#if defined(__AVX2__)
    float w[BN_L], u[BN_L];
    for (int l = 0; l < BN_L; l++) w[l] = v[l] + v[l ^ (BN_L / 2)];
    for (int l = 0; l < BN_L; l++) u[l] = w[l] + w[l ^ (BN_L / 4)];
    return u[0] + u[1];
#else
    float r = v[0];
    for (int l = 1; l < BN_L; l++) r = r + v[l];
    return r;
#endif
}

/* reduce_all(+) of dy and map2_reduce_all((x - mean) * dy, +) over one plane of n elements */
void CT_VEC(ct_vec_bn_bw_plane_f32)(const float *x, const float *dy, float mean, int64_t n, float *sum, float *dotp) {
    if (n < BN_L) { /* one partial vector: its n lanes in order */
        float s = 0.0f, d = 0.0f;
        for (int64_t l = 0; l < n; l++) {
            const float p = (x[l] - mean) * dy[l];
            s = l == 0 ? dy[l] : s + dy[l];
            d = l == 0 ? p : d + p;
        }
        *sum = s;
        *dotp = d;
        return;
    }
    float as[BN_L], ad[BN_L];
    for (int l = 0; l < BN_L; l++) {
        as[l] = dy[l];
        ad[l] = (x[l] - mean) * dy[l];
    }
    for (int64_t i = BN_L; i < n; i += BN_L) {
        const int64_t k = n - i < BN_L ? n - i : BN_L; /* the last vector may be partial */
        for (int64_t l = 0; l < k; l++) {
            as[l] = as[l] + dy[i + l];
            const float p = (x[i + l] - mean) * dy[i + l]; /* a loop-carried accumulator: not fused */
            ad[l] = ad[l] + p;
        }
    }
    *sum = fold_lanes(as);
    *dotp = fold_lanes(ad);
}

/* dx = (dy - grad_mean - (x - mean) * k) * invstd * w over one plane (training) */
void CT_VEC(ct_vec_bn_bw_dx_f32)(const float *x, const float *dy, int64_t n, float mean, float k, float grad_mean,
                                 float invstd, float w, float *dx) {
    for (int64_t i = 0; i < n; i++) dx[i] = MADD(-(x[i] - mean), k, dy[i] - grad_mean) * invstd * w;
}

/* channels-last statistics: one row of C into a thread's buffer, buf += x (mean == NULL) or
 * buf += (x - mean) * (x - mean) */
void CT_VEC(ct_vec_bn_cl_accum_f32)(const float *x, const float *mean, int64_t C, float *buf) {
    if (!mean)
        for (int64_t c = 0; c < C; c++) buf[c] = buf[c] + x[c];
    else
        for (int64_t c = 0; c < C; c++) {
            const float d = x[c] - mean[c];
            buf[c] = MADD(d, d, buf[c]);
        }
}

/* channels-last backward: one row into a thread's sum and dotp buffers */
void CT_VEC(ct_vec_bn_cl_bw_accum_f32)(const float *x, const float *dy, const float *mean, int64_t C, float *sum,
                                       float *dotp) {
    for (int64_t c = 0; c < C; c++) {
        sum[c] = sum[c] + dy[c];
        dotp[c] = MADD(x[c] - mean[c], dy[c], dotp[c]);
    }
}

/* channels-last backward dx of one row (training): k = dotp * invstd * invstd / N,
 * grad_mean = sum / N, dx = (dy - grad_mean - (x - mean) * k) * invstd * w (w NULL: 1) */
void CT_VEC(ct_vec_bn_cl_bw_dx_f32)(const float *x, const float *dy, const float *mean, const float *invstd,
                                    const float *sum, const float *dotp, const float *w, float nf, int64_t C, float *dx) {
    for (int64_t c = 0; c < C; c++) {
        const float k = dotp[c] * invstd[c] * invstd[c] / nf;
        const float gm = sum[c] / nf;
        const float wv = w ? w[c] : 1.0f;
        dx[c] = MADD(-(x[c] - mean[c]), k, dy[c] - gm) * invstd[c] * wv;
    }
}
