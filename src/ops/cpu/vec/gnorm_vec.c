/* float32 group norm loops, built once per CPU capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Note [Group norm order]
 *   PyTorch 2.6's float kernel (aten/src/ATen/native/cpu/group_norm_kernel.cpp, REGISTER_DISPATCH:
 *   the AVX2 build on an AVX512 CPU) takes each group's moments with RowwiseMoments (the layer
 *   norm's Welford chains, Note [Layer norm order]), rstd = 1 / sqrt(max(var, 0) + eps) in double
 *   rounded to float, then y = (x - mean) * rstd without parameters, else per channel
 *   scale = rstd * gamma, bias = -scale * mean + beta (fused) and y = scale * x + bias (fused).
 *   The backward sums ds = dy * x and db = dy per plane in 8 lanes (map2_reduce_all / reduce_all),
 *   then per group ds * gamma and db * gamma in lanes over whole vectors of channels and in order
 *   over the rest, c2 = (db * mean - ds) * rstd^3 / (D * HxW), c3 = -c2 * mean - db * rstd / (D * HxW),
 *   dx = c1 * dy + c2 * x + c3 with c1 = rstd * gamma (c1 * dy fused; in c3 (db * rstd) * s); dgamma sums
 *   (ds - db * mean) * rstd over the batch (both fused into the accumulator) and dbeta db.
 *   MADD marks where GCC's contraction fuses (measured against PyTorch 2.6). */
#include <math.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

#define GN_L (CT_VEC_BYTES / 4)

/* one group of D channels of HxW: y, and its mean and rstd */
void CT_VEC(ct_vec_gn_group_f32)(const float *x, const float *gamma, const float *beta, int64_t D, int64_t HxW, double eps,
                                 float *y, float *mean, float *rstd) {
    float m, v;
    CT_VEC(ct_vec_row_moments_f32)(x, D * HxW, &m, &v);
    const float r = (float)(1.0 / sqrt((double)(v > 0.0f ? v : 0.0f) + eps));
    if (!gamma && !beta) {
        for (int64_t j = 0; j < D * HxW; j++) y[j] = (x[j] - m) * r;
    } else {
        for (int64_t c = 0; c < D; c++) {
            const float scale = r * (gamma ? gamma[c] : 1.0f);
            const float bias = MADD(-scale, m, beta ? beta[c] : 0.0f);
            const float *xp = x + c * HxW;
            float *yp = y + c * HxW;
            for (int64_t k = 0; k < HxW; k++) yp[k] = MADD(scale, xp[k], bias);
        }
    }
    *mean = m;
    *rstd = r;
}

static inline float fold_lanes(const float v[GN_L]) {
#if defined(__AVX2__)
    float w[GN_L], u[GN_L];
    for (int l = 0; l < GN_L; l++) w[l] = v[l] + v[l ^ (GN_L / 2)];
    for (int l = 0; l < GN_L; l++) u[l] = w[l] + w[l ^ (GN_L / 4)];
    return u[0] + u[1];
#else
    float r = v[0];
    for (int l = 1; l < GN_L; l++) r = r + v[l];
    return r;
#endif
}

/* ComputeInternalGradients of one plane: ds = sum(dy * x), db = sum(dy) */
void CT_VEC(ct_vec_gn_plane_grads_f32)(const float *dy, const float *x, int64_t n, float *ds, float *db) {
    if (n < GN_L) {
        float s = 0.0f, b = 0.0f;
        for (int64_t l = 0; l < n; l++) {
            const float p = dy[l] * x[l];
            s = l == 0 ? p : s + p;
            b = l == 0 ? dy[l] : b + dy[l];
        }
        *ds = s;
        *db = b;
        return;
    }
    float as[GN_L], ab[GN_L];
    for (int l = 0; l < GN_L; l++) {
        as[l] = dy[l] * x[l];
        ab[l] = dy[l];
    }
    for (int64_t i = GN_L; i < n; i += GN_L) {
        const int64_t k = n - i < GN_L ? n - i : GN_L;
        for (int64_t l = 0; l < k; l++) {
            const float p = dy[i + l] * x[i + l]; /* a loop-carried accumulator: not fused */
            as[l] = as[l] + p;
            ab[l] = ab[l] + dy[i + l];
        }
    }
    *ds = fold_lanes(as);
    *db = fold_lanes(ab);
}

/* GroupNormInputBackward of one group: dx of its D planes from the planes' ds and db */
void CT_VEC(ct_vec_gn_input_bw_f32)(const float *dy, const float *x, const float *ds, const float *db, const float *gamma,
                                    int64_t D, int64_t HxW, float mean, float rstd, float *dx) {
    const float s = 1.0f / (float)(D * HxW);
    const int64_t d = D / GN_L * GN_L;
    float vs[GN_L] = {0}, vb[GN_L] = {0};
    for (int64_t j = 0; j < d; j += GN_L)
        for (int l = 0; l < GN_L; l++) {
            const float g = gamma ? gamma[j + l] : 1.0f;
            vs[l] = vs[l] + ds[j + l] * g;
            vb[l] = vb[l] + db[j + l] * g;
        }
    float ds_val = 0.0f, db_val = 0.0f;
    for (int l = 0; l < GN_L; l++) {
        ds_val += vs[l];
        db_val += vb[l];
    }
    for (int64_t j = d; j < D; j++) {
        const float g = gamma ? gamma[j] : 1.0f;
        ds_val = MADD(ds[j], g, ds_val);
        db_val = MADD(db[j], g, db_val);
    }
    const float c2 = MADD(db_val, mean, -ds_val) * rstd * rstd * rstd * s;
    const float c3 = MADD(-(db_val * rstd), s, -c2 * mean); /* the second product fused (measured) */
    for (int64_t j = 0; j < D; j++) {
        const float c1 = rstd * (gamma ? gamma[j] : 1.0f);
        const float *dyp = dy + j * HxW, *xp = x + j * HxW;
        float *dxp = dx + j * HxW;
        for (int64_t k = 0; k < HxW; k++) dxp[k] = MADD(c1, dyp[k], c2 * xp[k]) + c3;
    }
}

/* GammaBackward / BetaBackward: dgamma[c] = sum over n of (ds - db * mean) * rstd, dbeta[c] = sum of db,
 * for the C channels of N samples (mean, rstd: N x G) */
void CT_VEC(ct_vec_gn_params_bw_f32)(const float *ds, const float *db, const float *mean, const float *rstd, int64_t N,
                                     int64_t C, int64_t G, float *dgamma, float *dbeta) {
    const int64_t D = C / G, inner = D / GN_L * GN_L;
    for (int64_t g = 0; g < G; g++) {
        for (int64_t i = 0; i < D; i++) {
            const int64_t c = g * D + i;
            float ag = 0.0f, ab = 0.0f;
            for (int64_t n = 0; n < N; n++) {
                const int64_t nc = n * C + c;
                ag = MADD(MADD(-db[nc], mean[n * G + g], ds[nc]), rstd[n * G + g], ag);
                ab = ab + db[nc];
            }
            (void)inner;
            if (dgamma) dgamma[c] = ag;
            if (dbeta) dbeta[c] = ab;
        }
    }
}
