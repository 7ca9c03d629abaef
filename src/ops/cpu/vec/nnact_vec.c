/* The float32 loops of the activations (Note [One activation kernel] in ../nn_act.c) over n
 * contiguous elements, built once per CPU level: silu as x * sigmoid(x) and softplus as
 * log1p(exp(beta * x)) / beta over the unary family's vectorised sigmoid, exp and log1p (a block
 * at a time, through a buffer on the stack), leaky_relu and hardtanh as selects the compiler
 * vectorises. par: softplus's beta and threshold, leaky_relu's slope, hardtanh's min and max. */
#include "ops/cpu/vec/nnact_vec.h"
#include "ops/cpu/vec/unary_vec.h"
#include "ops/cpu/vec/vec_impl.h"

#define NNV_BLOCK 256

void CT_VEC(ct_vec_nnact_f32)(int op, const float *x, int64_t n, const float *par, float *y) {
    switch ((ct_nnv_op)op) {
    case CT_NNV_SILU:
        for (int64_t b = 0; b < n; b += NNV_BLOCK) {
            int64_t m = n - b < NNV_BLOCK ? n - b : NNV_BLOCK;
            float s[NNV_BLOCK];
            CT_VEC(ct_vec_unary_f32)(CT_UV_SIGMOID, x + b, m, s);
            for (int64_t i = 0; i < m; i++) y[b + i] = x[b + i] * s[i];
        }
        break;
    case CT_NNV_SOFTPLUS: {
        const float beta = par[0], thr = par[1];
        for (int64_t b = 0; b < n; b += NNV_BLOCK) {
            int64_t m = n - b < NNV_BLOCK ? n - b : NNV_BLOCK;
            float t[NNV_BLOCK], e[NNV_BLOCK];
            for (int64_t i = 0; i < m; i++) t[i] = x[b + i] * beta;
            CT_VEC(ct_vec_unary_f32)(CT_UV_EXP, t, m, e);
            CT_VEC(ct_vec_unary_f32)(CT_UV_LOG1P, e, m, e);
            for (int64_t i = 0; i < m; i++) y[b + i] = t[i] > thr ? x[b + i] : e[i] / beta;
        }
        break;
    }
    case CT_NNV_LEAKY_RELU: {
        const float s = par[0];
        for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : x[i] * s;
        break;
    }
    case CT_NNV_HARDTANH: {
        const float lo = par[0], hi = par[1];
        for (int64_t i = 0; i < n; i++) {
            float v = x[i];
            y[i] = v != v ? v : v < lo ? lo : v > hi ? hi : v;
        }
        break;
    }
    }
}
