/* The float32 loops of the optimizer's pointwise ops (lerp, addcmul, addcdiv) over contiguous
 * operands (sqrt and reciprocal are the unary family's: unary_vec.c), built once per CPU
 * capability (Note [CPU capabilities] in vec_kernels.h) so that the compiler vectorises them and fmaf is the instruction where the
 * level has FMA (a call into the C library otherwise, as in a generic build). Every operation is
 * the one the per-element code does (Note [Float formulas of the optimizer ops] in
 * pointwise_ext.c), so the results are the same bits at every level:
 *   lerp      fma(w, b - a, a) for |w| < 0.5, fma(w - 1, b - a, b) otherwise;
 *   addcmul   fma(v * t1, t2, s);
 *   addcdiv   s + (v * t1) / t2. */
#include <math.h>

#include "ops/cpu/vec/vec_impl.h"

void CT_VEC(ct_vec_lerp_f32)(const float *a, const float *b, float w, int64_t n, float *o) {
    if (fabsf(w) < 0.5f) {
        for (int64_t k = 0; k < n; k++) o[k] = fmaf(w, b[k] - a[k], a[k]);
    } else {
        const float w1 = w - 1.0f;
        for (int64_t k = 0; k < n; k++) o[k] = fmaf(w1, b[k] - a[k], b[k]);
    }
}

void CT_VEC(ct_vec_addcmul_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o) {
    for (int64_t k = 0; k < n; k++) o[k] = fmaf(v * t1[k], t2[k], s[k]);
}

void CT_VEC(ct_vec_addcdiv_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o) {
    for (int64_t k = 0; k < n; k++) o[k] = s[k] + (v * t1[k]) / t2[k];
}
