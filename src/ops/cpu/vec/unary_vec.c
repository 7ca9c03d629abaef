/* The float32 loops of the unary math family over n contiguous elements, built once per CPU
 * capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Note [Unary float32 loops]
 *   PyTorch's contiguous float32 loops take exp, log, the trigonometric and hyperbolic functions
 *   and erf/erfc from SLEEF's vectorised functions at AVX2 and AVX512 (1.0 ULP, erfc 1.5) and
 *   from the C library at DEFAULT; ctorch does the same, calling SLEEF where the build found it
 *   (CTORCH_USE_SLEEF), so results there are SLEEF's bits, which can differ in the last bit from
 *   the C library's (and from PyTorch's own vectorised erf, a polynomial of its own, within
 *   OpInfo's float32 tolerances). sigmoid is 1 / (1 + exp(-x)) over the same exp. The square
 *   root, reciprocal, absolute value, negation, rounding, frac and sign are exact IEEE
 *   operations the compiler vectorises: the same bits at every level and as PyTorch's. */
#include <math.h>

#include "ops/cpu/vec/unary_vec.h"
#include "ops/cpu/vec/vec_impl.h"

#if defined(CTORCH_HAVE_SLEEF) && (defined(CT_CPU_CAP_IS_AVX512) || defined(CT_CPU_CAP_IS_AVX2))
#include <immintrin.h>
#include <sleef.h>
#endif

#if defined(CTORCH_HAVE_SLEEF) && defined(CT_CPU_CAP_IS_AVX512)
#define UV_LANES 16
typedef __m512 uv_vec;
#define UV_LOAD(p) _mm512_loadu_ps(p)
#define UV_STORE(p, v) _mm512_storeu_ps((p), (v))
#define UV_FN(name, ulp) Sleef_##name##f16_##ulp##avx512f
#define UV_HAVE_SLEEF 1
#elif defined(CTORCH_HAVE_SLEEF) && defined(CT_CPU_CAP_IS_AVX2)
#define UV_LANES 8
typedef __m256 uv_vec;
#define UV_LOAD(p) _mm256_loadu_ps(p)
#define UV_STORE(p, v) _mm256_storeu_ps((p), (v))
#define UV_FN(name, ulp) Sleef_##name##f8_##ulp##avx2
#define UV_HAVE_SLEEF 1
#endif

#ifdef UV_HAVE_SLEEF
/* whole vectors, then the tail through a zero-padded vector */
#define UV_SLEEF_LOOP(FN)                                                                     \
    do {                                                                                      \
        int64_t j = 0;                                                                        \
        for (; j + UV_LANES <= n; j += UV_LANES) UV_STORE(y + j, FN(UV_LOAD(x + j)));         \
        if (j < n) {                                                                          \
            float a[UV_LANES] = {0}, b[UV_LANES];                                             \
            for (int64_t k = j; k < n; k++) a[k - j] = x[k];                                  \
            UV_STORE(b, FN(UV_LOAD(a)));                                                      \
            for (int64_t k = j; k < n; k++) y[k] = b[k - j];                                  \
        }                                                                                     \
    } while (0)
#define UV_MATH(name, ulp, libm) UV_SLEEF_LOOP(UV_FN(name, ulp))

static inline uv_vec uv_sigmoid(uv_vec v) {
    float t[UV_LANES];
    UV_STORE(t, v);
    for (int l = 0; l < UV_LANES; l++) t[l] = -t[l];
    uv_vec e = UV_FN(exp, u10)(UV_LOAD(t));
    UV_STORE(t, e);
    for (int l = 0; l < UV_LANES; l++) t[l] = 1.0f / (1.0f + t[l]);
    return UV_LOAD(t);
}
#define UV_SIGMOID_LOOP() UV_SLEEF_LOOP(uv_sigmoid)
#else
#define UV_MATH(name, ulp, libm)                              \
    do {                                                      \
        for (int64_t j = 0; j < n; j++) y[j] = libm(x[j]);    \
    } while (0)
#define UV_SIGMOID_LOOP()                                                        \
    do {                                                                         \
        for (int64_t j = 0; j < n; j++) y[j] = 1.0f / (1.0f + expf(-x[j]));      \
    } while (0)
#endif

#define UV_EXACT(expr)                                  \
    do {                                                \
        for (int64_t j = 0; j < n; j++) {               \
            const float v = x[j];                       \
            y[j] = (expr);                              \
        }                                               \
    } while (0)

bool CT_VEC(ct_vec_unary_f32)(int op, const float *x, int64_t n, float *y) {
    switch ((ct_uv_op)op) {
    case CT_UV_EXP: UV_MATH(exp, u10, expf); return true;
    case CT_UV_EXP2: UV_MATH(exp2, u10, exp2f); return true;
    case CT_UV_EXPM1: UV_MATH(expm1, u10, expm1f); return true;
    case CT_UV_LOG: UV_MATH(log, u10, logf); return true;
    case CT_UV_LOG2: UV_MATH(log2, u10, log2f); return true;
    case CT_UV_LOG10: UV_MATH(log10, u10, log10f); return true;
    case CT_UV_LOG1P: UV_MATH(log1p, u10, log1pf); return true;
    case CT_UV_SIN: UV_MATH(sin, u10, sinf); return true;
    case CT_UV_COS: UV_MATH(cos, u10, cosf); return true;
    case CT_UV_TAN: UV_MATH(tan, u10, tanf); return true;
    case CT_UV_ASIN: UV_MATH(asin, u10, asinf); return true;
    case CT_UV_ACOS: UV_MATH(acos, u10, acosf); return true;
    case CT_UV_ATAN: UV_MATH(atan, u10, atanf); return true;
    case CT_UV_SINH: UV_MATH(sinh, u10, sinhf); return true;
    case CT_UV_COSH: UV_MATH(cosh, u10, coshf); return true;
    case CT_UV_TANH: UV_MATH(tanh, u10, tanhf); return true;
    case CT_UV_ASINH: UV_MATH(asinh, u10, asinhf); return true;
    case CT_UV_ACOSH: UV_MATH(acosh, u10, acoshf); return true;
    case CT_UV_ATANH: UV_MATH(atanh, u10, atanhf); return true;
    case CT_UV_ERF: UV_MATH(erf, u10, erff); return true;
    case CT_UV_ERFC: UV_MATH(erfc, u15, erfcf); return true;
    case CT_UV_SIGMOID: UV_SIGMOID_LOOP(); return true;
    case CT_UV_SQRT: UV_EXACT(sqrtf(v)); return true;
    case CT_UV_RSQRT: UV_EXACT(1.0f / sqrtf(v)); return true;
    case CT_UV_RECIPROCAL: UV_EXACT(1.0f / v); return true;
    case CT_UV_ABS: UV_EXACT(fabsf(v)); return true;
    case CT_UV_NEG: UV_EXACT(-v); return true;
    case CT_UV_FLOOR: UV_EXACT(floorf(v)); return true;
    case CT_UV_CEIL: UV_EXACT(ceilf(v)); return true;
    case CT_UV_TRUNC: UV_EXACT(truncf(v)); return true;
    case CT_UV_ROUND: UV_EXACT(nearbyintf(v)); return true;
    case CT_UV_FRAC: UV_EXACT(v - truncf(v)); return true;
    case CT_UV_SIGN: UV_EXACT((float)(0.0f < v) - (float)(v < 0.0f)); return true;
    default: return false;
    }
}
