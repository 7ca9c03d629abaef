/*
 * Distributions over the CPU generator, bit-identical to PyTorch 2.6's CPU kernels on x86-64
 * (aten/src/ATen/native/cpu/DistributionTemplates.h over aten/src/ATen/core/DistributionsHelper.h
 * and TransformationHelper.h).
 *
 * Note [Floating-point contraction]
 *   PyTorch's random kernels live in aten/src/ATen/native/cpu/, which is compiled once per CPU
 *   capability. On x86-64 the kernels that run are the AVX2 ones: DispatchStub prefers AVX512,
 *   but REGISTER_DISPATCH registers no AVX512 kernel for these stubs, so the dispatcher falls
 *   back to AVX2 (the recordings in tests/golden/torch-2.6 were taken on an AVX512 machine and
 *   still match the AVX2 code). That translation unit is built with -mavx2 -mfma under GCC's
 *   default -ffp-contract=fast, so GCC fuses a*b+c into one fused multiply-add wherever the
 *   source has that shape, including in the scalar code. This file is compiled with
 *   -ffp-contract=off and writes every such fusion as an explicit fma()/fmaf(); every other
 *   operation is rounded on its own, as in PyTorch.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "core/tensor_impl.h"
#include "core/bits.h"
#include "random/rng.h"

/* c10::pi<double>; spelled out because strict C11 has no M_PI. */
#define CT_PI 3.14159265358979323846

/* ---- bit helpers ----------------------------------------------------------------------------- */

/* Stores a float into a float16 / bfloat16 element (c10::Half / c10::BFloat16 from float:
 * round to nearest even). A double is first narrowed to float, as c10's types only have a
 * float constructor. */
static inline void store_half(void *data, int64_t i, float v) {
    ((uint16_t *)data)[i] = ct_float_to_half(v);
}
static inline void store_bf16(void *data, int64_t i, float v) {
    ((uint16_t *)data)[i] = ct_float_to_bfloat16(v);
}


/* ---- uniform ---------------------------------------------------------------------------------- */

/* transformation::uniform_real for float: the low 24 bits (std::numeric_limits<float>::digits) of
 * one 32-bit word scaled by 2^-24, then x * (to - from) + from, fused (Note [Floating-point
 * contraction]). x <= 1 - 2^-24 and the product is exact before the single rounding. */
static inline float uniform_float_locked(ct_generator *g, float from, float to) {
    float x = (float)(ct_rng_next32_locked(g) & 0xFFFFFFu) * (1.0f / 16777216.0f);
    return fmaf(x, to - from, from);
}

/* A double in [0, 1) from one 64-bit draw (random64): its low 53 bits, scaled by 2^-53. */
static inline double unit_double(uint64_t word) {
    return (double)(word & ((UINT64_C(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
}

/* The same as uniform_float_locked for double. */
static inline double uniform_double_locked(ct_generator *g, double from, double to) {
    return fma(unit_double(ct_rng_next64_locked(g)), to - from, from);
}

/* uniform_double_locked(g, 0, 1): fma(x, 1, 0) is x exactly, so without the multiply-add (a call
 * into the C library where the build has no FMA instruction) */
static inline double uniform01_locked(ct_generator *g) { return unit_double(ct_rng_next64_locked(g)); }

/* uniform_kernel (DistributionTemplates.h): from/to are cast to the tensor's scalar type first,
 * then uniform_real_distribution<scalar_t>(from, to) draws one value per element. */
int ct_rng_uniform(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double from, double to) {
    switch (dtype) {
    case CT_FLOAT32: {
        float *out = data;
        float f = (float)from, t = (float)to;
        g = ct_rng_lock(g);
        for (int64_t i = 0; i < n; i++) out[i] = uniform_float_locked(g, f, t);
        ct_rng_unlock(g);
        return 0;
    }
    case CT_FLOAT64: {
        double *out = data;
        g = ct_rng_lock(g);
        for (int64_t i = 0; i < n; i++) out[i] = uniform_double_locked(g, from, to);
        ct_rng_unlock(g);
        return 0;
    }
    case CT_FLOAT16:
    case CT_BFLOAT16: {
        /* uniform_real_distribution<at::Half / at::BFloat16>: digits is 11 / 8, so the low 11 / 8
         * bits of a 32-bit word, scaled in float (dist_acctype is float). (to - from) is c10
         * arithmetic on two 16-bit values, rounded back to the 16-bit type; the multiply-add
         * is in float and fused. */
        bool half = dtype == CT_FLOAT16;
        uint16_t fh = half ? ct_float_to_half((float)from) : ct_float_to_bfloat16((float)from);
        uint16_t th = half ? ct_float_to_half((float)to) : ct_float_to_bfloat16((float)to);
        float ff = half ? ct_half_to_float(fh) : ct_bfloat16_to_float(fh);
        float tf = half ? ct_half_to_float(th) : ct_bfloat16_to_float(th);
        float diff = half ? ct_half_to_float(ct_float_to_half(tf - ff))
                          : ct_bfloat16_to_float(ct_float_to_bfloat16(tf - ff));
        uint32_t mask = half ? 0x7FFu : 0xFFu;
        float scale = half ? 1.0f / 2048.0f : 1.0f / 256.0f;
        g = ct_rng_lock(g);
        for (int64_t i = 0; i < n; i++) {
            float x = (float)(ct_rng_next32_locked(g) & mask) * scale;
            float v = fmaf(x, diff, ff);
            if (half) store_half(data, i, v);
            else store_bf16(data, i, v);
        }
        ct_rng_unlock(g);
        return 0;
    }
    default: return ct_rng_not_implemented("check_uniform_bounds", dtype);
    }
}

/* ---- normal: the scalar path ------------------------------------------------------------------- */

/* at::normal_distribution<double> (DistributionsHelper.h): returns the generator's cached
 * second sample if there is one; otherwise draws u1, u2 from uniform_real_distribution<double>
 * (one random64 each), caches r*sin(theta) and returns r*cos(theta), with
 * r = sqrt(-2 log1p(-u2)) (2.x; older releases wrote log(1 - u2)) and theta = 2 pi u1.
 * transformation::normal then applies val * std + mean (fused). */
static double normal_double_locked(ct_generator *g, double mean, double std) {
    double v;
    if (!ct_rng_take_normal_locked(g, &v)) {
        double u1 = uniform01_locked(g);
        double u2 = uniform01_locked(g);
        double r = sqrt(-2.0 * log1p(-u2));
        double theta = 2.0 * CT_PI * u1;
        ct_rng_set_normal_locked(g, r * sin(theta));
        v = r * cos(theta);
    }
    return fma(v, std, mean);
}

/* ---- normal: the float block path (normal_fill_16_AVX2) ---------------------------------------- */

/* avx_mathfun.h's log256_ps (the Cephes logf polynomial), one lane at a time, with a fused
 * multiply-add exactly where GCC fuses the vector code (the Horner steps, y*z + e*q1,
 * y - z/2 and x + e*q2). Only ever called with x in (0, 1] here, but keeps the vector code's
 * handling of x <= 0 (NaN) and denormals (clamped to the smallest normal). */
static float cephes_logf(float x) {
    bool invalid = !(x > 0.0f);
    if (!(x >= ct_bits_f32(0x00800000u))) x = ct_bits_f32(0x00800000u); /* _mm256_max_ps(x, min_norm_pos) */
    int32_t exponent = (int32_t)(ct_f32_bits(x) >> 23) - 0x7f;
    /* keep the mantissa, force the exponent of 0.5: x in [0.5, 1) */
    x = ct_bits_f32((ct_f32_bits(x) & 0x807FFFFFu) | 0x3F000000u);
    float e = (float)exponent + 1.0f;
    /* below sqrt(1/2): use 2x - 1 and one less in the exponent, so x - 1 is in [-0.29, 0.41] */
    bool small = x < (float)0.707106781186547524;
    float add = small ? x : 0.0f;
    x = x - 1.0f;
    e = e - (small ? 1.0f : 0.0f);
    x = x + add;
    float z = x * x;
    float y = (float)7.0376836292E-2;
    y = fmaf(y, x, (float)-1.1514610310E-1);
    y = fmaf(y, x, (float)1.1676998740E-1);
    y = fmaf(y, x, (float)-1.2420140846E-1);
    y = fmaf(y, x, (float)1.4249322787E-1);
    y = fmaf(y, x, (float)-1.6668057665E-1);
    y = fmaf(y, x, (float)2.0000714765E-1);
    y = fmaf(y, x, (float)-2.4999993993E-1);
    y = fmaf(y, x, (float)3.3333331174E-1);
    y = y * x;
    y = fmaf(y, z, e * (float)-2.12194440e-4);
    y = fmaf(-z, 0.5f, y);
    x = x + y;
    x = fmaf(e, 0.693359375f, x);
    return invalid ? ct_bits_f32(0xFFFFFFFFu) : x;
}

/* avx_mathfun.h's sincos256_ps (Cephes sinf/cosf): reduce by multiples of pi/4 with the
 * three-part Cody-Waite constant, evaluate both polynomials, pick per octant. Fused where GCC
 * fuses: the reduction steps, the polynomial Horner steps, y*z - z/2 and y*x + x. */
static void cephes_sincosf(float x, float *s, float *c) {
    uint32_t sign_sin = ct_f32_bits(x) & 0x80000000u;
    x = ct_bits_f32(ct_f32_bits(x) & 0x7FFFFFFFu);
    float y = x * (float)1.27323954473516; /* 4/pi */
    int32_t j = (int32_t)y;               /* _mm256_cvttps_epi32 truncates */
    j = (j + 1) & ~1;                      /* round up to even: octant pairs */
    y = (float)j;
    uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    bool use_sin_poly = (j & 2) == 0;
    x = fmaf(y, (float)-0.78515625, x);
    x = fmaf(y, (float)-2.4187564849853515625e-4, x);
    x = fmaf(y, (float)-3.77489497744594108e-8, x);
    uint32_t sign_cos = ((uint32_t)(~(j - 2)) & 4u) << 29;
    sign_sin ^= swap_sin;
    float z = x * x;
    /* cosine polynomial */
    float yc = (float)2.443315711809948E-005;
    yc = fmaf(yc, z, (float)-1.388731625493765E-003);
    yc = fmaf(yc, z, (float)4.166664568298827E-002);
    yc = yc * z;
    float half_z = z * 0.5f;
    yc = fmaf(yc, z, -half_z);
    yc = yc + 1.0f;
    /* sine polynomial */
    float ys = (float)-1.9515295891E-4;
    ys = fmaf(ys, z, (float)8.3321608736E-3);
    ys = fmaf(ys, z, (float)-1.6666654611E-1);
    ys = ys * z;
    ys = fmaf(ys, x, x);
    /* the vector code selects with masks and adds the zero lane back; do the same arithmetic */
    float sin_part = use_sin_poly ? ys : 0.0f;
    float cos_part = use_sin_poly ? 0.0f : yc;
    float ys_rest = ys - sin_part;
    float yc_rest = yc - cos_part;
    float sin_v = cos_part + sin_part;
    float cos_v = yc_rest + ys_rest;
    *s = ct_bits_f32(ct_f32_bits(sin_v) ^ sign_sin);
    *c = ct_bits_f32(ct_f32_bits(cos_v) ^ sign_cos);
}

/* normal_fill_16_AVX2: Box-Muller on 16 uniforms in place, data[j] paired with data[j + 8]:
 * u1 = 1 - data[j] (in (0, 1]), u2 = data[j + 8], radius = sqrt(-2 log u1),
 * theta = (float)(2 pi) * u2, outputs radius*cos*std + mean and radius*sin*std + mean
 * (_mm256_fmadd_ps). */
static void normal_fill16_float(float *d, float mean, float std) {
    const float two_pi = (float)(2.0 * CT_PI);
    float radius[8], theta[8];
    for (int j = 0; j < 8; j++) {
        radius[j] = sqrtf(-2.0f * cephes_logf(1.0f - d[j]));
        theta[j] = two_pi * d[j + 8];
    }
    for (int j = 0; j < 8; j++) {
        float s, c;
        cephes_sincosf(theta[j], &s, &c);
        d[j] = fmaf(radius[j] * c, std, mean);
        d[j + 8] = fmaf(radius[j] * s, std, mean);
    }
}

/* normal_fill_AVX2: all n uniforms first (one 32-bit word each), Box-Muller per full block of
 * 16, then, if n % 16 != 0, redraw the LAST 16 uniforms and transform that window again (it
 * overlaps values already finished). Requires n >= 16. */
static void normal_fill_float_locked(ct_generator *g, float *d, int64_t n, float mean, float std) {
    for (int64_t i = 0; i < n; i++) d[i] = uniform_float_locked(g, 0.0f, 1.0f);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill16_float(d + i, mean, std);
    if (n % 16 != 0) {
        float *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = uniform_float_locked(g, 0.0f, 1.0f);
        normal_fill16_float(tail, mean, std);
    }
}

/* ---- normal: the double block path (normal_fill<double> / normal_fill_16<double>) -------------- */

static void normal_fill16_double(double *d, double mean, double std) {
    for (int j = 0; j < 8; j++) {
        double u1 = 1.0 - d[j];
        double u2 = d[j + 8];
        double radius = sqrt(-2.0 * log(u1));
        /* `2.0f * c10::pi<double> * u2`: (2 pi) in double, then times u2 */
        double theta = 2.0 * CT_PI * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

static void normal_fill_double_locked(ct_generator *g, double *d, int64_t n, double mean, double std) {
    for (int64_t i = 0; i < n; i++) d[i] = uniform01_locked(g);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill16_double(d + i, mean, std);
    if (n % 16 != 0) {
        double *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = uniform01_locked(g);
        normal_fill16_double(tail, mean, std);
    }
}

/* ---- normal: the float16 / bfloat16 block path (normal_fill<at::Half / at::BFloat16>) ---------- */

/* A 16-bit element read as float / written from float (round to nearest even). */
static inline float load16(const uint16_t *d, int64_t i, bool half) {
    return half ? ct_half_to_float(d[i]) : ct_bfloat16_to_float(d[i]);
}
static inline uint16_t to16(float v, bool half) {
    return half ? ct_float_to_half(v) : ct_float_to_bfloat16(v);
}
/* The value of v rounded to the 16-bit type, as a float. */
static inline float round16(float v, bool half) {
    return half ? ct_half_to_float(ct_float_to_half(v)) : ct_bfloat16_to_float(ct_float_to_bfloat16(v));
}

/* uniform_real_distribution<at::Half / at::BFloat16>(0, 1) stored into the 16-bit tensor: the low
 * 11 / 8 bits (numeric_limits<T>::digits) of a 32-bit word, scaled by 2^-11 / 2^-8; exact. */
static inline uint16_t uniform01_16bit_locked(ct_generator *g, bool half) {
    uint32_t w = ct_rng_next32_locked(g);
    float x = half ? (float)(w & 0x7FFu) * (1.0f / 2048.0f) : (float)(w & 0xFFu) * (1.0f / 256.0f);
    return to16(x, half);
}

/* normal_fill_16<scalar_t> instantiated for the 16-bit types. Every named value is a scalar_t,
 * and c10/util/BFloat16-math.h overloads std::log, std::sqrt, std::cos and std::sin for the
 * reduced-precision types (computed in float, returned as scalar_t), and Half x Half arithmetic
 * returns Half: so every step below rounds to the 16-bit type and nothing fuses. The exception is
 * theta = 2.0f * c10::pi<double> * u2, a double product (operator*(double, Half)) narrowed through
 * float. */
static void normal_fill16_16bit(uint16_t *d, bool half, float mean, float std) {
    for (int j = 0; j < 8; j++) {
        float u1 = round16(1.0f - load16(d, j, half), half);
        float u2 = load16(d, j + 8, half);
        float log_u1 = round16(logf(u1), half);
        float radius = round16(sqrtf(round16(-2.0f * log_u1, half)), half);
        float theta = round16((float)(2.0 * CT_PI * (double)u2), half);
        float c = round16(cosf(theta), half), s = round16(sinf(theta), half);
        float a = round16(round16(radius * c, half) * std, half);
        float b = round16(round16(radius * s, half) * std, half);
        d[j] = to16(a + mean, half);
        d[j + 8] = to16(b + mean, half);
    }
}

/* normal_fill<scalar_t>: same block structure as the float path, in the 16-bit buffer itself.
 * mean and std are static_cast<scalar_t> of the doubles. */
static void normal_fill_16bit_locked(ct_generator *g, uint16_t *d, int64_t n, bool half, double mean,
                                     double std) {
    float m = round16((float)mean, half), s = round16((float)std, half);
    for (int64_t i = 0; i < n; i++) d[i] = uniform01_16bit_locked(g, half);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill16_16bit(d + i, half, m, s);
    if (n % 16 != 0) {
        uint16_t *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = uniform01_16bit_locked(g, half);
        normal_fill16_16bit(tail, half, m, s);
    }
}

/* normal_kernel (DistributionTemplates.h): the block path for numel >= 16 and a contiguous
 * output, otherwise normal_distribution<double> per element, cast to the scalar type. */
int ct_rng_normal(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double mean, double std,
                  bool contiguous) {
    if (!ct_dtype_is_floating(dtype)) return ct_rng_not_implemented("normal_kernel_cpu", dtype);
    bool block = n >= 16 && contiguous;
    g = ct_rng_lock(g);
    if (block) {
        switch (dtype) {
        case CT_FLOAT32: normal_fill_float_locked(g, data, n, (float)mean, (float)std); break;
        case CT_FLOAT64: normal_fill_double_locked(g, data, n, mean, std); break;
        default: normal_fill_16bit_locked(g, data, n, dtype == CT_FLOAT16, mean, std); break;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            double v = normal_double_locked(g, mean, std);
            switch (dtype) {
            case CT_FLOAT32: ((float *)data)[i] = (float)v; break;
            case CT_FLOAT64: ((double *)data)[i] = v; break;
            case CT_FLOAT16: store_half(data, i, (float)v); break;
            default: store_bf16(data, i, (float)v); break;
            }
        }
    }
    ct_rng_unlock(g);
    return 0;
}

/* ---- random_(from, to) ------------------------------------------------------------------------- */

/* Stores the int64 result of a random_ draw as a C++ static_cast<scalar_t>(int64_t) would:
 * c10::Half / c10::BFloat16 go through float. */
static inline void store_int(void *data, int64_t i, ct_dtype dtype, int64_t v) {
    switch (dtype) {
    case CT_INT64: ((int64_t *)data)[i] = v; break;
    case CT_FLOAT32: ((float *)data)[i] = (float)v; break;
    case CT_FLOAT64: ((double *)data)[i] = (double)v; break;
    case CT_FLOAT16: store_half(data, i, (float)v); break;
    case CT_BFLOAT16: store_bf16(data, i, (float)v); break;
    case CT_INT32:
    case CT_INT16:
    case CT_INT8:
    case CT_UINT8: ct_elem_store_int64((char *)data + (size_t)i * ct_dtype_size(dtype), dtype, v); break;
    default: ((bool *)data)[i] = v != 0; break;
    }
}

/* random_from_to_kernel: uniform_int_from_to_distribution<scalar_t> (DistributionsHelper.h) takes
 * one random64() per element when range >= 2^32 and scalar_t is int64, double, float or bfloat16,
 * and one random() otherwise (so float16 and bool always use 32-bit words).
 * transformation::uniform_int_from_to gives (draw % range) + base in uint64 arithmetic,
 * reinterpreted as int64. range == 0 stands for 2^64: random_full_64_bits_range_kernel, where
 * uniform_int_full_range_distribution reinterprets one random64() as int64. */
int ct_rng_random_from_to(ct_generator *g, void *data, int64_t n, ct_dtype dtype, int64_t from,
                          uint64_t range) {
    if (!ct_dtype_valid((int)dtype)) return ct_rng_not_implemented("random_from_to_kernel_cpu", dtype);
    bool wide_type = dtype == CT_INT64 || dtype == CT_FLOAT64 || dtype == CT_FLOAT32 || dtype == CT_BFLOAT16;
    if (range == 0) {
        if (!wide_type) /* its AT_DISPATCH refuses the other types first */
            return ct_rng_not_implemented("random_full_64_bits_range_kernel_cpu", dtype);
        g = ct_rng_lock(g);
        for (int64_t i = 0; i < n; i++) store_int(data, i, dtype, (int64_t)ct_rng_next64_locked(g));
        ct_rng_unlock(g);
        return 0;
    }
    bool wide = wide_type && range >= (UINT64_C(1) << 32);
    g = ct_rng_lock(g);
    for (int64_t i = 0; i < n; i++) {
        uint64_t draw = wide ? ct_rng_next64_locked(g) : (uint64_t)ct_rng_next32_locked(g);
        store_int(data, i, dtype, (int64_t)(draw % range + (uint64_t)from));
    }
    ct_rng_unlock(g);
    return 0;
}

/* ---- bernoulli, exponential ------------------------------------------------------------------ */

static void store_any(void *data, int64_t i, ct_dtype dtype, double v) {
    ct_store_from_double((char *)data + (size_t)i * ct_dtype_size(dtype), dtype, v);
}

/* bernoulli_kernel(self, double p) (DistributionTemplates.h, the build without MKL): per element
 * bernoulli_distribution<double>(p): one uniform_real_distribution<double> draw (random64)
 * compared with p, stored as 1 or 0 in the tensor's type. */
int ct_rng_bernoulli(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double p) {
    if (!ct_dtype_valid((int)dtype)) return ct_rng_not_implemented("bernoulli_scalar_cpu_", dtype);
    g = ct_rng_lock(g);
    if (dtype == CT_FLOAT32) { /* dropout's masks: the same draws, 256 words at a time */
        float *out = data;
        uint64_t words[256];
        for (int64_t i = 0; i < n; i += 256) {
            const int64_t m = n - i < 256 ? n - i : 256;
            ct_rng_fill64_locked(g, words, m);
            for (int64_t k = 0; k < m; k++)
                out[i + k] = unit_double(words[k]) < p ? 1.0f : 0.0f;
        }
    } else {
        for (int64_t i = 0; i < n; i++) store_any(data, i, dtype, uniform01_locked(g) < p ? 1.0 : 0.0);
    }
    ct_rng_unlock(g);
    return 0;
}

/* exponential_kernel (DistributionTemplates.h, the build without MKL): per element
 * exponential_distribution<double>(lambda): one uniform_real_distribution<double> draw u, then
 * (-1 / lambda) * log1p(-u) (transformation::exponential's CPU branch in 2.6; older releases
 * wrote log(1 - u), which differs in the last bit of some doubles), cast to the type. */
int ct_rng_exponential(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double lambda) {
    if (!ct_dtype_is_floating(dtype)) return ct_rng_not_implemented("exponential_cpu", dtype);
    g = ct_rng_lock(g);
    for (int64_t i = 0; i < n; i++) {
        double u = uniform01_locked(g);
        store_any(data, i, dtype, (-1.0 / lambda) * log1p(-u));
    }
    ct_rng_unlock(g);
    return 0;
}

/* uniform_real_distribution<double>(0, 1) once (multinomial with replacement). */
double ct_rng_uniform_double(ct_generator *g) {
    g = ct_rng_lock(g);
    double u = uniform01_locked(g);
    ct_rng_unlock(g);
    return u;
}
