/* float32 layer norm rows, built once per CPU capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Note [Layer norm order]
 *   PyTorch 2.6's float kernel (aten/src/ATen/native/cpu/layer_norm_kernel.cpp) stays in float:
 *   RowwiseMoments (moments_utils.h) runs Welford's update over the row in Vectorized<float>
 *   lanes, 16 vectors to a chunk, merges chunks on a cascade stack and the lanes last;
 *   y = (x - mean) * rstd * gamma + beta. The backward sums ds and db with map*_reduce_all over
 *   vector lanes, folded by vec_reduce_all, and accumulates dgamma/dbeta row by row.
 *   Two properties of that build fix the last bit:
 *   - the kernel is registered with REGISTER_DISPATCH, which leaves the AVX512 slot empty, so an
 *     AVX512 CPU runs the AVX2 kernel: 8 float lanes (CT_VEC_BYTES) at every level;
 *   - the kernel files are C++ built by GCC, whose default -ffp-contract=fast fuses a product
 *     that feeds an addition into one multiply-add wherever the level has FMA (AVX2, AVX512),
 *     and nowhere at DEFAULT. MADD() (vec_impl.h) is written at exactly those places; this file is
 *     built with -ffp-contract=off, so nothing else is fused.
 *   Measured against PyTorch 2.6 at all three ATEN_CPU_CAPABILITY levels on MiniGPT's rows:
 *   mean, rstd, y and the three gradients bit for bit. */
#include <math.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

#define LN_L (CT_VEC_BYTES / 4) /* lanes of Vectorized<float> in the kernel that runs */
#define LN_CHUNK 16             /* kChunkSize */
#define LN_MAX_DEPTH 64
#define LN_ROWS 4               /* rows whose moments are taken together */


/* utils::CeilLog2 */
static int64_t ceil_log2(int64_t x) {
    if (x <= 2) return 1;
    uint64_t v = (uint64_t)x - 1;
    int64_t last = 63;
    while (!(v >> last)) last--;
    return last + 1;
}

/* AddMoments / AddMomentsVec on one lane: merge (m0_add, m1_add, m2_add) into (m0, m1, m2) */
static inline void add_moments(int64_t m0_add, float m1_add, float m2_add, int64_t *m0, float *m1, float *m2) {
    const int64_t n = *m0 + m0_add;
    const float c = n == 0 ? 0.0f : (float)m0_add / (float)n;
    const float delta = m1_add - *m1;
    *m1 = MADD(c, delta, *m1);
    *m2 = *m2 + MADD(delta * delta * c, (float)*m0, m2_add);
    *m0 = n;
}

/* RowwiseMoments(x, N) of `rows` rows N apart: each row's mean and biased variance. Each row is
 * its own Welford chain, in PyTorch's order; a chain's steps wait on each other, so rows are
 * taken LN_ROWS at a time, their chains interleaved (the counts m0 depend on N only, so the rows
 * share them). Always inlined so that `rows` is a constant in each caller. */
static inline __attribute__((always_inline)) void rowwise_moments(const float *x, int64_t N, int rows, float *mean,
                                                                   float *var) {
    const int64_t n = N / LN_L;
    const int64_t m = (n + LN_CHUNK - 1) / LN_CHUNK;
    const int64_t depth = ceil_log2(m);
    int64_t m0_stk[LN_MAX_DEPTH];
    float m1_stk[LN_ROWS][LN_MAX_DEPTH][LN_L], m2_stk[LN_ROWS][LN_MAX_DEPTH][LN_L];
    for (int64_t d = 0; d < depth; d++) {
        m0_stk[d] = 0;
        for (int r = 0; r < rows; r++)
            for (int l = 0; l < LN_L; l++) m1_stk[r][d][l] = m2_stk[r][d][l] = 0.0f;
    }
    for (int64_t i = 0; i < m; i++) {
        const int64_t m0 = n - i * LN_CHUNK < LN_CHUNK ? n - i * LN_CHUNK : LN_CHUNK;
        float m1v[LN_ROWS][LN_L] = {{0}}, m2v[LN_ROWS][LN_L] = {{0}};
        for (int64_t j = 0; j < m0; j++) {
            const float c = 1.0f / (float)(j + 1);
            for (int r = 0; r < rows; r++) {
                const float *xp = x + r * N + (i * LN_CHUNK + j) * LN_L;
                for (int l = 0; l < LN_L; l++) {
                    const float xv = xp[l];
                    const float delta = xv - m1v[r][l];
                    m1v[r][l] = MADD(delta, c, m1v[r][l]);
                    m2v[r][l] = MADD(delta, xv - m1v[r][l], m2v[r][l]);
                }
            }
        }
        int64_t s0 = m0_stk[0];
        for (int r = 0; r < rows; r++)
            for (int l = 0; l < LN_L; l++) {
                s0 = m0_stk[0];
                add_moments(m0, m1v[r][l], m2v[r][l], &s0, &m1_stk[r][0][l], &m2_stk[r][0][l]);
            }
        m0_stk[0] = s0;
        int64_t mask = i + 1;
        for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j) {
            int64_t t0 = m0_stk[j];
            for (int r = 0; r < rows; r++)
                for (int l = 0; l < LN_L; l++) {
                    t0 = m0_stk[j];
                    add_moments(m0_stk[j - 1], m1_stk[r][j - 1][l], m2_stk[r][j - 1][l], &t0, &m1_stk[r][j][l],
                                &m2_stk[r][j][l]);
                    m1_stk[r][j - 1][l] = m2_stk[r][j - 1][l] = 0.0f;
                }
            m0_stk[j] = t0;
            m0_stk[j - 1] = 0;
            mask >>= 1;
        }
    }
    for (int64_t d = 1; d < depth; d++) {
        int64_t t0 = m0_stk[0];
        for (int r = 0; r < rows; r++)
            for (int l = 0; l < LN_L; l++) {
                t0 = m0_stk[0];
                add_moments(m0_stk[d], m1_stk[r][d][l], m2_stk[r][d][l], &t0, &m1_stk[r][0][l], &m2_stk[r][0][l]);
            }
        m0_stk[0] = t0;
    }
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * N;
        int64_t m0 = 0;
        float m1 = 0.0f, m2 = 0.0f;
        for (int64_t i = n * LN_L; i < N; i++) {
            const float delta = xr[i] - m1;
            ++m0;
            m1 += delta / (float)m0;
            m2 = MADD(delta, xr[i] - m1, m2);
        }
        for (int l = 0; l < LN_L; l++) add_moments(n, m1_stk[r][0][l], m2_stk[r][0][l], &m0, &m1, &m2);
        mean[r] = m1;
        var[r] = m2 / (float)N;
    }
}

/* y = (x - mean) * rstd * gamma + beta of one row, from its moments */
static void normalize_row(const float *x, const float *gamma, const float *beta, int64_t N, float eps, float mu,
                          float var, float *y, float *mean, float *rstd) {
    const float r = 1.0f / sqrtf(var + eps);
    const float bias = -mu;
    for (int64_t j = 0; j < N; j++) {
        const float g = gamma ? gamma[j] : 1.0f, b = beta ? beta[j] : 0.0f;
        y[j] = MADD((x[j] + bias) * r, g, b);
    }
    *mean = mu;
    *rstd = r;
}

void CT_VEC(ct_vec_layer_norm_rows_f32)(const float *x, const float *gamma, const float *beta, int64_t M, int64_t N,
                                        float eps, float *y, float *mean, float *rstd) {
    float mu[LN_ROWS], var[LN_ROWS];
    int64_t i = 0;
    for (; i + LN_ROWS <= M; i += LN_ROWS) {
        rowwise_moments(x + i * N, N, LN_ROWS, mu, var);
        for (int r = 0; r < LN_ROWS; r++)
            normalize_row(x + (i + r) * N, gamma, beta, N, eps, mu[r], var[r], y + (i + r) * N, mean + i + r,
                          rstd + i + r);
    }
    for (; i < M; i++) {
        rowwise_moments(x + i * N, N, 1, mu, var);
        normalize_row(x + i * N, gamma, beta, N, eps, mu[0], var[0], y + i * N, mean + i, rstd + i);
    }
}

/* vec_reduce_all(+) of one Vectorized<float>: the AVX2 kernel folds halves (lane i with i+4,
 * then i+2, then i+1); the DEFAULT one adds the lanes in order */
static inline float fold_lanes(const float v[LN_L]) {
#if defined(__AVX2__)
    float w[LN_L], u[LN_L];
    for (int l = 0; l < LN_L; l++) w[l] = v[l] + v[l ^ (LN_L / 2)];
    for (int l = 0; l < LN_L; l++) u[l] = w[l] + w[l ^ (LN_L / 4)];
    return u[0] + u[1];
#else
    float r = v[0];
    for (int l = 1; l < LN_L; l++) r = r + v[l];
    return r;
#endif
}

/* map{2,3}_reduce_all(+) of p[j] = a[j] * b[j] (* c[j] when c) over N, and of q[j] = a[j] (* c[j]) */
static void reduce_pair(const float *a, const float *b, const float *c, int64_t N, float *sp, float *sq) {
    if (N < LN_L) {
        float rp = 0, rq = 0;
        for (int64_t l = 0; l < N; l++) {
            const float p = c ? a[l] * b[l] * c[l] : a[l] * b[l];
            const float q = c ? a[l] * c[l] : a[l];
            rp = l == 0 ? p : rp + p;
            rq = l == 0 ? q : rq + q;
        }
        *sp = rp;
        *sq = rq;
        return;
    }
    float accp[LN_L], accq[LN_L];
    for (int l = 0; l < LN_L; l++) {
        accp[l] = c ? a[l] * b[l] * c[l] : a[l] * b[l];
        accq[l] = c ? a[l] * c[l] : a[l];
    }
    int64_t d = LN_L;
    for (; d < N; d += LN_L) {
        const int64_t k = N - d < LN_L ? N - d : LN_L; /* the last vector may be partial */
        for (int64_t l = 0; l < k; l++) {
            const float av = a[d + l], bv = b[d + l];
            /* register accumulators of the AVX2 kernel: not fused (MADD_CHAIN in softmax_vec.c) */
            if (c) {
                accp[l] = av * bv * c[d + l] + accp[l];
                accq[l] = av * c[d + l] + accq[l];
            } else {
                accp[l] = av * bv + accp[l];
                accq[l] = accq[l] + av;
            }
        }
    }
    *sp = fold_lanes(accp);
    *sq = fold_lanes(accq);
}

void CT_VEC(ct_vec_layer_norm_bw_row_f32)(const float *dy, const float *x, float mean, float rstd, const float *gamma,
                                          int64_t N, float *dx, float *acc_gamma, float *acc_beta) {
    const float a = rstd;
    if (acc_gamma) {
        const float b = -a * mean;
        for (int64_t j = 0; j < N; j++) acc_gamma[j] = MADD(dy[j], MADD(a, x[j], b), acc_gamma[j]);
    }
    if (acc_beta)
        for (int64_t j = 0; j < N; j++) acc_beta[j] = acc_beta[j] + dy[j];
    if (!dx) return;
    float ds, db;
    reduce_pair(dy, x, gamma, N, &ds, &db);
    const float scale = 1.0f / (float)N;
    const float bb = MADD(db, mean, -ds) * a * a * a * scale;
    const float cc = MADD(-bb, mean, -(db * a * scale));
    for (int64_t j = 0; j < N; j++) {
        /* a*dy*gamma + b*x + c: GCC fuses b*x with the first product as the addend */
        if (gamma) dx[j] = MADD(bb, x[j], a * dy[j] * gamma[j]) + cc;
        else dx[j] = MADD(bb, x[j], a * dy[j]) + cc;
    }
}

/* RowwiseMoments of one row of N: its mean and biased variance (group norm's groups) */
void CT_VEC(ct_vec_row_moments_f32)(const float *x, int64_t N, float *mean, float *var) {
    rowwise_moments(x, N, 1, mean, var);
}
