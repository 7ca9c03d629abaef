/* float32 upsampling loops, built once per CPU capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Note [Bilinear order]
 *   PyTorch 2.6's bilinear kernel (aten/src/ATen/native/cpu/UpSampleKernel.cpp) computes each output
 *   dimension's source indices and weights in float: the source index scale * (dst + 0.5) - 0.5
 *   (one multiply-add where the level has FMA), clamped at 0, lambda1 = min(max(src - i0, 0), 1),
 *   lambda0 = 1 - lambda1 (an output size equal to the input's copies: weights 1 and 0). Outputs with
 *   OH + OW <= 128 (and one thread with 3 channels) take the channels-last kernel (also for a
 *   contiguous input): y = x00 * w00 + x01 * w01 + x10 * w10 + x11 * w11 with w_ij = h_i * w_j,
 *   summed left to right, the first product and each later one fused (measured bit for bit);
 *   larger ones the generic kernel, here (x00 * w0 + x01 * w1) * h0 + (x10 * w0 + x11 * w1) * h1
 *   with first products fused (measured bit for bit too). The backward adds h * w * g into the four input
 *   cells, in output order, fused. */
#include <math.h>

#include "ops/cpu/vec/vec_impl.h"

/* indices and weights of one output dimension of out elements over in (scale: the area pixel scale) */
void CT_VEC(ct_vec_linear_weights_f32)(int64_t in, int64_t out, bool align_corners, float scale, int64_t *i0, int64_t *i1,
                                       float *l0, float *l1) {
    for (int64_t o = 0; o < out; o++) {
        if (out == in) {
            i0[o] = i1[o] = o;
            l0[o] = 1.0f;
            l1[o] = 0.0f;
            continue;
        }
        float real = align_corners ? scale * (float)o : MADD(scale, (float)o + 0.5f, -0.5f);
        if (!align_corners && real < 0) real = 0;
        int64_t idx = (int64_t)floorf(real);
        if (idx > in - 1) idx = in - 1;
        float lam = real - (float)idx;
        lam = lam < 0 ? 0 : lam;
        lam = lam > 1 ? 1 : lam;
        i0[o] = idx;
        i1[o] = idx + (idx < in - 1 ? 1 : 0);
        l1[o] = lam;
        l0[o] = 1.0f - lam;
    }
}

/* one plane: y[oh][ow] from x[H][W]; combined: the channels-last kernel's four combined weights */
void CT_VEC(ct_vec_bilinear_plane_f32)(const float *x, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                                       const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1, const float *wl0,
                                       const float *wl1, bool combined, float *y) {
    if (combined) {
        for (int64_t oh = 0; oh < OH; oh++) {
            const float *r0 = x + h0[oh] * W, *r1 = x + h1[oh] * W;
            for (int64_t ow = 0; ow < OW; ow++) {
                const float w00 = hl0[oh] * wl0[ow], w01 = hl0[oh] * wl1[ow], w10 = hl1[oh] * wl0[ow], w11 = hl1[oh] * wl1[ow];
                float t = MADD(r0[w0[ow]], w00, r0[w1[ow]] * w01);
                t = MADD(r1[w0[ow]], w10, t);
                y[oh * OW + ow] = MADD(r1[w1[ow]], w11, t);
            }
        }
        return;
    }
    for (int64_t oh = 0; oh < OH; oh++) {
        const float *r0 = x + h0[oh] * W, *r1 = x + h1[oh] * W;
        for (int64_t ow = 0; ow < OW; ow++) {
            const float t0 = MADD(r0[w0[ow]], wl0[ow], r0[w1[ow]] * wl1[ow]);
            const float t1 = MADD(r1[w0[ow]], wl0[ow], r1[w1[ow]] * wl1[ow]);
            y[oh * OW + ow] = MADD(t0, hl0[oh], t1 * hl1[oh]);
        }
    }
}

/* one plane's backward: g[oh][ow] spread into gi[H][W] (zeroed by the caller) */
void CT_VEC(ct_vec_bilinear_plane_bw_f32)(const float *g, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                                          const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1,
                                          const float *wl0, const float *wl1, float *gi) {
    for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
            const float v = g[oh * OW + ow];
            float *a = gi + h0[oh] * W, *b = gi + h1[oh] * W;
            a[w0[ow]] = MADD(hl0[oh] * wl0[ow], v, a[w0[ow]]);
            a[w1[ow]] = MADD(hl0[oh] * wl1[ow], v, a[w1[ow]]);
            b[w0[ow]] = MADD(hl1[oh] * wl0[ow], v, b[w0[ow]]);
            b[w1[ow]] = MADD(hl1[oh] * wl1[ow], v, b[w1[ow]]);
        }
}
