/* The unary math family: exp, exp2, expm1, log, log2, log10, log1p, the trigonometric and
 * hyperbolic functions and their inverses, sigmoid, logit, erf, erfc, erfinv, sqrt, rsqrt,
 * reciprocal, lgamma, digamma, deg2rad, rad2deg, abs, neg, sign, sgn, floor, ceil, trunc, round
 * (and round.decimals), frac, nan_to_num, and the tests signbit, isnan, isinf, isposinf,
 * isneginf; each as functional, in-place (op_) and out= (op.out) kernels where PyTorch 2.6 has
 * them, and the backward ops sigmoid_backward, tanh_backward and logit_backward.
 *
 * Note [One unary kernel]
 *   Every op of the family is one row of UNARY_OPS below (its class, its float64 and float
 *   functions, its integer function, its vectorised float32 loop, the name PyTorch's dispatch
 *   macro gives in "not implemented for" messages and the dtypes it refuses) and runs through one
 *   body, unary(), which does what TensorIterator's unary builders do:
 *     - the common dtype: a floating self keeps its dtype; an integral or bool self is computed in
 *       the default dtype for the "float" class (build_borrowing_unary_float_op: exp, sin, sqrt,
 *       ...), keeps its dtype for the "keep" class (abs, neg, sign, floor, round, frac,
 *       nan_to_num) and gives bool for the "test" class (signbit, isnan, ...);
 *     - the written-to tensor (self for op_, out for op.out) is checked for internal overlap, then
 *       its dtype: the float class casts the result to it when can_cast allows ("result type
 *       Float can't be cast to the desired output type Long"), the keep class requires self's
 *       dtype ("Found dtype Long but expected Float", the structured kernel's check), the test
 *       class requires bool; an out of another shape is resized to self's, laid out as the
 *       functional's result would be;
 *     - an input or output of another dtype goes through the iterator's casts (Note
 *       [TensorIterator's casts on the CPU] in kernel_util.h);
 *     - float16 and bfloat16 compute in float (opmath) and round once; float64 through the C
 *       library; contiguous float32 runs through the vectorised loops (Note [Unary float32
 *       loops] in vec/unary_vec.c), other float32 through the C library's float functions.
 *   The integer functions are written over int64 and stored back at the tensor's own width, so a
 *   new integral dtype of CT_DTYPE_TABLE needs no change here. */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "dispatch/front_door.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/iter.h"
#include "ops/cpu/vec/unary_vec.h"
#include "ops/kernel_util.h"

#define U_PI 3.14159265358979323846
#define U_2_SQRTPI 1.12837916709551257390

/* the op's parameters (logit's eps, round's decimals, nan_to_num's replacements) */
typedef struct u_par {
    bool has_eps;
    double eps;
    int64_t decimals;
    double nan, posinf, neginf;
} u_par;

typedef double (*u_fd)(double x, const u_par *p);
typedef float (*u_ff)(float x, const u_par *p);
typedef int64_t (*u_fi)(int64_t x, bool is_signed);

typedef enum { UK_FLOAT, UK_KEEP, UK_TEST } u_class;

/* the dtypes an op refuses ("<kname>" not implemented for '<dtype>') */
enum { REJ_NONE = 0, REJ_BOOL = 1, REJ_INTEGRAL = 2 };

typedef struct u_def {
    const char *name;
    u_class cls;
    u_fd fd;
    u_ff ff;
    u_fi fi; /* keep class on integral and bool dtypes; NULL: the values are copied */
    int uv;  /* ct_uv_op, or CT_UV_NONE */
    const char *kname;
    int reject;
} u_def;

/* ---- the element functions ---- */

#define U_LIBM(NAME, DFN, FFN)                                                         \
    static double d_##NAME(double x, const u_par *p) { (void)p; return DFN(x); }       \
    static float f_##NAME(float x, const u_par *p) { (void)p; return FFN(x); }
U_LIBM(exp, exp, expf)
U_LIBM(exp2, exp2, exp2f)
U_LIBM(expm1, expm1, expm1f)
U_LIBM(log, log, logf)
U_LIBM(log2, log2, log2f)
U_LIBM(log10, log10, log10f)
U_LIBM(log1p, log1p, log1pf)
U_LIBM(sin, sin, sinf)
U_LIBM(cos, cos, cosf)
U_LIBM(tan, tan, tanf)
U_LIBM(asin, asin, asinf)
U_LIBM(acos, acos, acosf)
U_LIBM(atan, atan, atanf)
U_LIBM(sinh, sinh, sinhf)
U_LIBM(cosh, cosh, coshf)
U_LIBM(tanh, tanh, tanhf)
U_LIBM(asinh, asinh, asinhf)
U_LIBM(acosh, acosh, acoshf)
U_LIBM(atanh, atanh, atanhf)
U_LIBM(erf, erf, erff)
U_LIBM(erfc, erfc, erfcf)
U_LIBM(sqrt, sqrt, sqrtf)
U_LIBM(lgamma, lgamma, lgammaf)
U_LIBM(abs, fabs, fabsf)
U_LIBM(floor, floor, floorf)
U_LIBM(ceil, ceil, ceilf)
U_LIBM(trunc, trunc, truncf)
U_LIBM(round, nearbyint, nearbyintf) /* half to even, as std::nearbyint */

static double d_sigmoid(double x, const u_par *p) { (void)p; return 1.0 / (1.0 + exp(-x)); }
static float f_sigmoid(float x, const u_par *p) { (void)p; return 1.0f / (1.0f + expf(-x)); }
static double d_rsqrt(double x, const u_par *p) { (void)p; return 1.0 / sqrt(x); }
static float f_rsqrt(float x, const u_par *p) { (void)p; return 1.0f / sqrtf(x); }
static double d_reciprocal(double x, const u_par *p) { (void)p; return 1.0 / x; }
static float f_reciprocal(float x, const u_par *p) { (void)p; return 1.0f / x; }
static double d_neg(double x, const u_par *p) { (void)p; return -x; }
static float f_neg(float x, const u_par *p) { (void)p; return -x; }
static double d_sign(double x, const u_par *p) { (void)p; return (double)(0.0 < x) - (double)(x < 0.0); }
static float f_sign(float x, const u_par *p) { (void)p; return (float)(0.0f < x) - (float)(x < 0.0f); }
static double d_frac(double x, const u_par *p) { (void)p; return x - trunc(x); }
static float f_frac(float x, const u_par *p) { (void)p; return x - truncf(x); }
static double d_deg2rad(double x, const u_par *p) { (void)p; return x * (U_PI / 180.0); }
static float f_deg2rad(float x, const u_par *p) { (void)p; return x * (float)(U_PI / 180.0); }
static double d_rad2deg(double x, const u_par *p) { (void)p; return x * (180.0 / U_PI); }
static float f_rad2deg(float x, const u_par *p) { (void)p; return x * (float)(180.0 / U_PI); }

/* logit: log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given */
static double d_logit(double x, const u_par *p) {
    if (p->has_eps) {
        double lo = p->eps, hi = 1.0 - p->eps;
        x = x < lo ? lo : (x > hi ? hi : x);
    }
    return log(x / (1.0 - x));
}
static float f_logit(float x, const u_par *p) {
    if (p->has_eps) {
        float lo = (float)p->eps, hi = 1.0f - (float)p->eps;
        x = x < lo ? lo : (x > hi ? hi : x);
    }
    return logf(x / (1.0f - x));
}

/* erfinv: Winitzki's closed-form estimate refined by Newton's method on erf(x) - y */
static double d_erfinv(double y, const u_par *p) {
    (void)p;
    if (isnan(y) || y < -1.0 || y > 1.0) return NAN;
    if (y == 1.0) return INFINITY;
    if (y == -1.0) return -INFINITY;
    if (y == 0.0) return y;
    const double a = 0.147, ln = log((1.0 - y) * (1.0 + y)), t = 2.0 / (U_PI * a) + ln / 2.0;
    double x = copysign(sqrt(sqrt(t * t - ln / a) - t), y);
    for (int k = 0; k < 4; k++) {
        double d = U_2_SQRTPI * exp(-x * x);
        if (d == 0.0) break;
        x -= (erf(x) - y) / d;
    }
    return x;
}
static float f_erfinv(float y, const u_par *p) { return (float)d_erfinv((double)y, p); }

/* digamma: the recurrence up to 6, then the asymptotic series; reflection below 0 */
static double digamma_of(double x) {
    if (x == 0.0) return copysign(INFINITY, -x);
    if (x < 0.0) {
        if (x == floor(x)) return NAN;
        return digamma_of(1.0 - x) - U_PI / tan(U_PI * x);
    }
    double r = 0.0;
    while (x < 6.0) {
        r -= 1.0 / x;
        x += 1.0;
    }
    const double f = 1.0 / (x * x);
    const double t = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132)))));
    return r + log(x) - 0.5 / x + t;
}
static double d_digamma(double x, const u_par *p) { (void)p; return digamma_of(x); }
static float f_digamma(float x, const u_par *p) { (void)p; return (float)digamma_of((double)x); }

/* round.decimals: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for d < 0 */
static double d_round_dec(double x, const u_par *p) {
    if (p->decimals == 0) return nearbyint(x);
    double t = pow(10.0, (double)(p->decimals > 0 ? p->decimals : -p->decimals));
    return p->decimals > 0 ? nearbyint(x * t) / t : nearbyint(x / t) * t;
}
static float f_round_dec(float x, const u_par *p) {
    if (p->decimals == 0) return nearbyintf(x);
    float t = (float)pow(10.0, (double)(p->decimals > 0 ? p->decimals : -p->decimals));
    return p->decimals > 0 ? nearbyintf(x * t) / t : nearbyintf(x / t) * t;
}

/* nan_to_num: the replacements were converted to the dtype by the caller */
static double d_nan_to_num(double x, const u_par *p) {
    return isnan(x) ? p->nan : (x == INFINITY ? p->posinf : (x == -INFINITY ? p->neginf : x));
}
static float f_nan_to_num(float x, const u_par *p) { return (float)d_nan_to_num((double)x, p); }

/* the test class: the answer for a floating element (an integral one is never NaN or infinite,
 * and only a signed negative one has its sign bit set) */
static double d_signbit(double x, const u_par *p) { (void)p; return signbit(x) ? 1.0 : 0.0; }
static double d_isnan(double x, const u_par *p) { (void)p; return isnan(x) ? 1.0 : 0.0; }
static double d_isinf(double x, const u_par *p) { (void)p; return isinf(x) ? 1.0 : 0.0; }
static double d_isposinf(double x, const u_par *p) { (void)p; return x == INFINITY ? 1.0 : 0.0; }
static double d_isneginf(double x, const u_par *p) { (void)p; return x == -INFINITY ? 1.0 : 0.0; }

/* the keep class on integers (wrapping as C++'s unsigned arithmetic does) */
static int64_t i_abs(int64_t x, bool s) { return s && x < 0 ? (int64_t)(0 - (uint64_t)x) : x; }
static int64_t i_neg(int64_t x, bool s) { (void)s; return (int64_t)(0 - (uint64_t)x); }
static int64_t i_sign(int64_t x, bool s) { (void)s; return (x > 0) - (x < 0); }

/* ---- the table ---- */

#define UNARY_OPS(X)                                                                             \
    X(EXP, exp, UK_FLOAT, d_exp, f_exp, NULL, CT_UV_EXP, "exp_vml_cpu", REJ_NONE)                 \
    X(EXP2, exp2, UK_FLOAT, d_exp2, f_exp2, NULL, CT_UV_EXP2, "exp2", REJ_NONE)                   \
    X(EXPM1, expm1, UK_FLOAT, d_expm1, f_expm1, NULL, CT_UV_EXPM1, "expm1_vml_cpu", REJ_NONE)     \
    X(LOG, log, UK_FLOAT, d_log, f_log, NULL, CT_UV_LOG, "log_vml_cpu", REJ_NONE)                 \
    X(LOG2, log2, UK_FLOAT, d_log2, f_log2, NULL, CT_UV_LOG2, "log2_vml_cpu", REJ_NONE)           \
    X(LOG10, log10, UK_FLOAT, d_log10, f_log10, NULL, CT_UV_LOG10, "log10_vml_cpu", REJ_NONE)     \
    X(LOG1P, log1p, UK_FLOAT, d_log1p, f_log1p, NULL, CT_UV_LOG1P, "log1p_vml_cpu", REJ_NONE)     \
    X(SIN, sin, UK_FLOAT, d_sin, f_sin, NULL, CT_UV_SIN, "sin_vml_cpu", REJ_NONE)                 \
    X(COS, cos, UK_FLOAT, d_cos, f_cos, NULL, CT_UV_COS, "cos_vml_cpu", REJ_NONE)                 \
    X(TAN, tan, UK_FLOAT, d_tan, f_tan, NULL, CT_UV_TAN, "tan_vml_cpu", REJ_NONE)                 \
    X(ASIN, asin, UK_FLOAT, d_asin, f_asin, NULL, CT_UV_ASIN, "asin_vml_cpu", REJ_NONE)           \
    X(ACOS, acos, UK_FLOAT, d_acos, f_acos, NULL, CT_UV_ACOS, "acos_vml_cpu", REJ_NONE)           \
    X(ATAN, atan, UK_FLOAT, d_atan, f_atan, NULL, CT_UV_ATAN, "atan_vml_cpu", REJ_NONE)           \
    X(SINH, sinh, UK_FLOAT, d_sinh, f_sinh, NULL, CT_UV_SINH, "sinh_vml_cpu", REJ_NONE)           \
    X(COSH, cosh, UK_FLOAT, d_cosh, f_cosh, NULL, CT_UV_COSH, "cosh_vml_cpu", REJ_NONE)           \
    X(TANH, tanh, UK_FLOAT, d_tanh, f_tanh, NULL, CT_UV_TANH, "tanh_vml_cpu", REJ_NONE)           \
    X(ASINH, asinh, UK_FLOAT, d_asinh, f_asinh, NULL, CT_UV_ASINH, "asinh_cpu", REJ_NONE)         \
    X(ACOSH, acosh, UK_FLOAT, d_acosh, f_acosh, NULL, CT_UV_ACOSH, "acosh_cpu", REJ_NONE)         \
    X(ATANH, atanh, UK_FLOAT, d_atanh, f_atanh, NULL, CT_UV_ATANH, "atanh_cpu", REJ_NONE)         \
    X(SIGMOID, sigmoid, UK_FLOAT, d_sigmoid, f_sigmoid, NULL, CT_UV_SIGMOID, "sigmoid_cpu", REJ_NONE) \
    X(LOGIT, logit, UK_FLOAT, d_logit, f_logit, NULL, CT_UV_NONE, "logit_cpu", REJ_NONE)          \
    X(ERF, erf, UK_FLOAT, d_erf, f_erf, NULL, CT_UV_ERF, "erf_vml_cpu", REJ_NONE)                 \
    X(ERFC, erfc, UK_FLOAT, d_erfc, f_erfc, NULL, CT_UV_ERFC, "erfc_vml_cpu", REJ_NONE)           \
    X(ERFINV, erfinv, UK_FLOAT, d_erfinv, f_erfinv, NULL, CT_UV_NONE, "erfinv_cpu", REJ_NONE)     \
    X(SQRT, sqrt, UK_FLOAT, d_sqrt, f_sqrt, NULL, CT_UV_SQRT, "sqrt_vml_cpu", REJ_NONE)           \
    X(RSQRT, rsqrt, UK_FLOAT, d_rsqrt, f_rsqrt, NULL, CT_UV_RSQRT, "rsqrt_cpu", REJ_NONE)         \
    X(RECIPROCAL, reciprocal, UK_FLOAT, d_reciprocal, f_reciprocal, NULL, CT_UV_RECIPROCAL, "reciprocal_cpu", REJ_NONE) \
    X(LGAMMA, lgamma, UK_FLOAT, d_lgamma, f_lgamma, NULL, CT_UV_NONE, "lgamma_vml_cpu", REJ_NONE) \
    X(DIGAMMA, digamma, UK_FLOAT, d_digamma, f_digamma, NULL, CT_UV_NONE, "digamma", REJ_NONE)    \
    X(DEG2RAD, deg2rad, UK_FLOAT, d_deg2rad, f_deg2rad, NULL, CT_UV_NONE, "mul_cpu", REJ_NONE)    \
    X(RAD2DEG, rad2deg, UK_FLOAT, d_rad2deg, f_rad2deg, NULL, CT_UV_NONE, "mul_cpu", REJ_NONE)    \
    X(ABS, abs, UK_KEEP, d_abs, f_abs, i_abs, CT_UV_ABS, "abs_cpu", REJ_BOOL)                    \
    X(NEG, neg, UK_KEEP, d_neg, f_neg, i_neg, CT_UV_NEG, "neg_cpu", REJ_BOOL)                    \
    X(SIGN, sign, UK_KEEP, d_sign, f_sign, i_sign, CT_UV_SIGN, "sign_cpu", REJ_NONE)             \
    X(SGN, sgn, UK_KEEP, d_sign, f_sign, i_sign, CT_UV_SIGN, "sign_cpu", REJ_NONE)               \
    X(FLOOR, floor, UK_KEEP, d_floor, f_floor, NULL, CT_UV_FLOOR, "floor_vml_cpu", REJ_BOOL)     \
    X(CEIL, ceil, UK_KEEP, d_ceil, f_ceil, NULL, CT_UV_CEIL, "ceil_vml_cpu", REJ_BOOL)           \
    X(TRUNC, trunc, UK_KEEP, d_trunc, f_trunc, NULL, CT_UV_TRUNC, "trunc_vml_cpu", REJ_BOOL)     \
    X(ROUND, round, UK_KEEP, d_round, f_round, NULL, CT_UV_ROUND, "round_vml_cpu", REJ_BOOL)     \
    X(ROUND_DEC, round, UK_KEEP, d_round_dec, f_round_dec, NULL, CT_UV_NONE, "round_cpu", REJ_BOOL | REJ_INTEGRAL) \
    X(FRAC, frac, UK_KEEP, d_frac, f_frac, NULL, CT_UV_FRAC, "frac_cpu", REJ_BOOL | REJ_INTEGRAL) \
    X(NAN_TO_NUM, nan_to_num, UK_KEEP, d_nan_to_num, f_nan_to_num, NULL, CT_UV_NONE, "nan_to_num", REJ_NONE) \
    X(SIGNBIT, signbit, UK_TEST, d_signbit, NULL, NULL, CT_UV_NONE, "signbit_cpu", REJ_NONE)     \
    X(ISNAN, isnan, UK_TEST, d_isnan, NULL, NULL, CT_UV_NONE, "isnan", REJ_NONE)                 \
    X(ISINF, isinf, UK_TEST, d_isinf, NULL, NULL, CT_UV_NONE, "isinf", REJ_NONE)                 \
    X(ISPOSINF, isposinf, UK_TEST, d_isposinf, NULL, NULL, CT_UV_NONE, "isposinf", REJ_NONE)     \
    X(ISNEGINF, isneginf, UK_TEST, d_isneginf, NULL, NULL, CT_UV_NONE, "isneginf", REJ_NONE)

#define U_DEF(E, NAME, CLS, FD, FF, FI, UV, KNAME, REJ) static const u_def U_##E = {#NAME, CLS, FD, FF, FI, UV, KNAME, REJ};
UNARY_OPS(U_DEF)
#undef U_DEF

/* ---- the loop ---- */

typedef struct u_ctx {
    const u_def *u;
    u_par par;
    ct_dtype in, out;
    const ct_dtype_info *in_info;
    const ct_vec_kernels *vk; /* for contiguous float32, when the op has a loop there */
} u_ctx;

/* an integral (or bool) element as int64, and an int64 stored at the element's own width */
static inline int64_t load_int(const char *p, const ct_dtype_info *di) {
    switch (di->size) {
    case 1: return di->is_signed ? (int64_t)*(const int8_t *)p : (int64_t)*(const uint8_t *)p;
    case 2: return di->is_signed ? (int64_t)*(const int16_t *)p : (int64_t)*(const uint16_t *)p;
    case 4: return di->is_signed ? (int64_t)*(const int32_t *)p : (int64_t)*(const uint32_t *)p;
    default: return *(const int64_t *)p;
    }
}
static inline void store_int(char *p, size_t size, int64_t v) {
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(int64_t *)p = v; break;
    }
}

static void u_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *vctx) {
    const u_ctx *c = vctx;
    const u_def *u = c->u;
    const u_par *par = &c->par;
    const int64_t so = strides[0], si = strides[1];
    for (int64_t j = 0; j < size1; j++) {
        char *po = data[0] + j * strides[2];
        const char *pi = data[1] + j * strides[3];
        if (u->cls == UK_TEST) {
            if (c->in_info->kind == CT_DTYPE_KIND_FLOATING) {
                for (int64_t i = 0; i < size0; i++) *(uint8_t *)(po + i * so) = u->fd(ct_load_as_double(pi + i * si, c->in), par) != 0;
            } else { /* integers: only signbit of a negative one is true */
                for (int64_t i = 0; i < size0; i++)
                    *(uint8_t *)(po + i * so) = u == &U_SIGNBIT && c->in_info->is_signed && load_int(pi + i * si, c->in_info) < 0;
            }
            continue;
        }
        switch (c->in) {
        case CT_FLOAT32:
            if (c->vk && so == 4 && si == 4 && c->vk->unary_f32(u->uv, (const float *)pi, size0, (float *)po)) break;
            for (int64_t i = 0; i < size0; i++) *(float *)(po + i * so) = u->ff(*(const float *)(pi + i * si), par);
            break;
        case CT_FLOAT64:
            for (int64_t i = 0; i < size0; i++) *(double *)(po + i * so) = u->fd(*(const double *)(pi + i * si), par);
            break;
        default:
            if (c->in_info->kind == CT_DTYPE_KIND_FLOATING) { /* float16, bfloat16: in float (opmath) */
                for (int64_t i = 0; i < size0; i++)
                    ct_store_from_double(po + i * so, c->out, (double)u->ff((float)ct_load_as_double(pi + i * si, c->in), par));
            } else { /* the keep class on integers and bool */
                const size_t es = c->in_info->size;
                for (int64_t i = 0; i < size0; i++) {
                    int64_t v = load_int(pi + i * si, c->in_info);
                    store_int(po + i * so, es, u->fi ? u->fi(v, c->in_info->is_signed) : v);
                }
            }
            break;
        }
    }
}

/* Runs c over out = f(in): same shape; in has the common dtype. */
static void u_run(ct_tensor *out, const ct_tensor *in, u_ctx *c) {
    if (out->numel == 0) return;
    c->in = in->dtype;
    c->out = out->dtype;
    c->in_info = ct_dtype_info_of((int)in->dtype);
    c->vk = NULL;
    if (in->dtype == CT_FLOAT32 && out->dtype == CT_FLOAT32 && c->u->uv != CT_UV_NONE) c->vk = ct_vec();
    ct_iter it;
    const ct_tensor *ts[2] = {out, in};
    ct_iter_init(&it, out->sizes, out->ndim, ts, 2);
    /* the C library's lgamma writes the global signgam: on one thread */
    if (c->u == &U_LGAMMA) ct_iter_run_serial(&it, u_loop, c);
    else ct_iter_run(&it, u_loop, c);
}

/* PyTorch's "<kname>" not implemented for '<dtype>' where the op refuses the dtype */
static int check_dtype(const u_def *u, ct_dtype d) {
    bool refuse = (d == CT_BOOL && (u->reject & REJ_BOOL)) ||
                  (d != CT_BOOL && !ct_dtype_is_floating(d) && (u->reject & REJ_INTEGRAL));
    if (refuse) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", u->kname, ct_dtype_name(d));
    return 0;
}


/* assert_no_partial_overlap(out, self): two dense tensors of one storage whose element ranges
 * meet without being the same (out = self is an in-place call, allowed). Layouts that are not
 * dense are not compared, as PyTorch calls them too hard to tell. */
static int check_partial_overlap(const ct_tensor *out, const ct_tensor *self) {
    if (out == self || out->storage != self->storage || out->numel == 0 || self->numel == 0) return 0;
    if (!ct_is_non_overlapping_and_dense(out) || !ct_is_non_overlapping_and_dense(self)) return 0;
    const size_t eo = ct_dtype_size(out->dtype), es = ct_dtype_size(self->dtype);
    const int64_t a0 = out->storage_offset * (int64_t)eo, a1 = a0 + out->numel * (int64_t)eo;
    const int64_t b0 = self->storage_offset * (int64_t)es, b1 = b0 + self->numel * (int64_t)es;
    if (a0 == b0 && a1 == b1) return 0; /* the same memory: full overlap */
    if (a0 < b1 && b0 < a1)
        return ct_error_set(CT_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

/* The one body (Note [One unary kernel]): target NULL for the functional, self for op_, out. */
static int unary(const u_def *u, const u_par *par, ct_tensor *self, ct_tensor *target, bool inplace, ct_value *rets) {
    const ct_dtype in_dt = self->dtype;
    const ct_dtype common = u->cls == UK_FLOAT && !ct_dtype_is_floating(in_dt) ? ct_default_dtype() : in_dt;
    const ct_dtype res_dt = u->cls == UK_TEST ? CT_BOOL : common;
    if (target) {
        /* the test class's meta function checks out's dtype before the iterator is built */
        if (u->cls == UK_TEST && target->dtype != CT_BOOL)
            return ct_error_set(CT_ERR_RUNTIME, "%s does not support non-boolean outputs.", u->name);
        if (ct_assert_no_internal_overlap(target) != 0 || check_partial_overlap(target, self) != 0) return -1;
        if (u->cls == UK_FLOAT && !ct_dtype_can_cast(common, target->dtype))
            return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(common),
                                ct_dtype_name(target->dtype));
        if (!inplace && u->cls == UK_KEEP && target->dtype != in_dt) {
            if (u == &U_NAN_TO_NUM)
                return ct_error_set(CT_ERR_RUNTIME, "nan_to_num: dtype of out: %s should be same as input: %s",
                                    ct_dtype_name(target->dtype), ct_dtype_name(in_dt));
            return ct_error_set(CT_ERR_RUNTIME, "Found dtype %s but expected %s", ct_dtype_name(target->dtype), ct_dtype_name(in_dt));
        }
        /* resize_output: out takes self's shape, laid out as the functional's result, unless it has it */
        if (!inplace && (target->ndim != self->ndim || memcmp(target->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim) != 0) &&
            ct_out_resize(target, self->sizes, self->ndim, (const ct_tensor *const *)&self, 1) != 0)
            return -1;
    }
    if (check_dtype(u, common) != 0) return -1;
    u_ctx c;
    memset(&c, 0, sizeof c);
    c.u = u;
    c.par = *par;
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, target, &self, 1, common, u->cls != UK_TEST) != 0) return -1;
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(self->sizes, self->ndim, res_dt, (const ct_tensor *const *)k.in, 1);
        if (!out) return ct_iter_cast_end(&k, -1);
    }
    u_run(out, k.in[0], &c);
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!target) ct_tensor_release(out);
        return -1;
    }
    if (target) return ct_ret_self(rets, target);
    return ct_ret(rets, 0, out);
}

static const u_par no_par = {false, 0, 0, 0, 0, 0};

/* ---- the kernels ---- */

/* Note [One unary kernel]: the three kernels of an op without parameters, as macros write them */
#define U_KERNELS(E, NAME)                                                                   \
    int ct_k_##NAME(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {        \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return unary(&U_##E, &no_par, ARG_T(0), NULL, false, rets);                          \
    }                                                                                        \
    int ct_k_##NAME##_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {     \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return unary(&U_##E, &no_par, ARG_T(0), ARG_T(0), true, rets);                       \
    }                                                                                        \
    int ct_k_##NAME##_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {  \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return unary(&U_##E, &no_par, ARG_T(0), ARG_T(1), false, rets);                      \
    }

U_KERNELS(EXP, exp)
U_KERNELS(EXP2, exp2)
U_KERNELS(EXPM1, expm1)
U_KERNELS(LOG, log)
U_KERNELS(LOG2, log2)
U_KERNELS(LOG10, log10)
U_KERNELS(LOG1P, log1p)
U_KERNELS(SIN, sin)
U_KERNELS(COS, cos)
U_KERNELS(TAN, tan)
U_KERNELS(ASIN, asin)
U_KERNELS(ACOS, acos)
U_KERNELS(ATAN, atan)
U_KERNELS(SINH, sinh)
U_KERNELS(COSH, cosh)
U_KERNELS(TANH, tanh)
U_KERNELS(ASINH, asinh)
U_KERNELS(ACOSH, acosh)
U_KERNELS(ATANH, atanh)
U_KERNELS(SIGMOID, sigmoid)
U_KERNELS(ERF, erf)
U_KERNELS(ERFC, erfc)
U_KERNELS(ERFINV, erfinv)
U_KERNELS(SQRT, sqrt)
U_KERNELS(RSQRT, rsqrt)
U_KERNELS(RECIPROCAL, reciprocal)
U_KERNELS(LGAMMA, lgamma)
U_KERNELS(DIGAMMA, digamma)
U_KERNELS(DEG2RAD, deg2rad)
U_KERNELS(RAD2DEG, rad2deg)
U_KERNELS(ABS, abs)
U_KERNELS(SIGN, sign)
U_KERNELS(SGN, sgn)
U_KERNELS(FLOOR, floor)
U_KERNELS(CEIL, ceil)
U_KERNELS(TRUNC, trunc)
U_KERNELS(ROUND, round)
U_KERNELS(FRAC, frac)

/* neg refuses bool before anything else (TORCH_META_FUNC(neg)) */
static int neg_check(const ct_tensor *self) {
    if (self->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return 0;
}
int ct_k_neg(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return neg_check(ARG_T(0)) ? -1 : unary(&U_NEG, &no_par, ARG_T(0), NULL, false, rets);
}
int ct_k_neg_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return neg_check(ARG_T(0)) ? -1 : unary(&U_NEG, &no_par, ARG_T(0), ARG_T(0), true, rets);
}
int ct_k_neg_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return neg_check(ARG_T(0)) ? -1 : unary(&U_NEG, &no_par, ARG_T(0), ARG_T(1), false, rets);
}

/* the test class: functional and out= (signbit, isposinf, isneginf), functional (isnan, isinf) */
#define U_TEST_KERNEL(E, NAME)                                                              \
    int ct_k_##NAME(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {        \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return unary(&U_##E, &no_par, ARG_T(0), NULL, false, rets);                          \
    }
#define U_TEST_OUT_KERNEL(E, NAME)                                                          \
    int ct_k_##NAME##_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {  \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return unary(&U_##E, &no_par, ARG_T(0), ARG_T(1), false, rets);                      \
    }
U_TEST_KERNEL(SIGNBIT, signbit)
U_TEST_OUT_KERNEL(SIGNBIT, signbit)
U_TEST_KERNEL(ISPOSINF, isposinf)
U_TEST_OUT_KERNEL(ISPOSINF, isposinf)
U_TEST_KERNEL(ISNEGINF, isneginf)
U_TEST_OUT_KERNEL(ISNEGINF, isneginf)
U_TEST_KERNEL(ISNAN, isnan)
U_TEST_KERNEL(ISINF, isinf)

/* logit(Tensor self, float? eps=None) and its in-place and out= forms */
static u_par logit_par(const ct_value *eps) {
    u_par p = no_par;
    if (eps->tag != CT_TAG_NONE) { /* a negative eps clamps nothing, as None */
        p.eps = eps->tag == CT_TAG_DOUBLE ? eps->u.d : (double)eps->u.i;
        p.has_eps = p.eps >= 0.0;
    }
    return p;
}
int ct_k_logit(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = logit_par(&args[1]);
    return unary(&U_LOGIT, &p, ARG_T(0), NULL, false, rets);
}
int ct_k_logit_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = logit_par(&args[1]);
    return unary(&U_LOGIT, &p, ARG_T(0), ARG_T(0), true, rets);
}
int ct_k_logit_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = logit_par(&args[1]);
    return unary(&U_LOGIT, &p, ARG_T(0), ARG_T(2), false, rets);
}

/* round.decimals(Tensor self, *, int decimals) and its in-place and out= forms */
static u_par round_par(const ct_value *d) {
    u_par p = no_par;
    p.decimals = d->u.i;
    return p;
}
int ct_k_round_decimals(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = round_par(&args[1]);
    return unary(&U_ROUND_DEC, &p, ARG_T(0), NULL, false, rets);
}
int ct_k_round__decimals(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = round_par(&args[1]);
    return unary(&U_ROUND_DEC, &p, ARG_T(0), ARG_T(0), true, rets);
}
int ct_k_round_decimals_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = round_par(&args[1]);
    return unary(&U_ROUND_DEC, &p, ARG_T(0), ARG_T(2), false, rets);
}

/* nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None): NaN to nan
 * (0), +inf to posinf (the dtype's largest value), -inf to neginf (its lowest); an integral or
 * bool self is copied */
static u_par nan_to_num_par(const ct_value *args, ct_dtype d) {
    u_par p = no_par;
    const double big = ct_dtype_is_floating(d) ? ct_dtype_max(d) : 0.0;
    p.nan = args[1].tag == CT_TAG_NONE ? 0.0 : (args[1].tag == CT_TAG_DOUBLE ? args[1].u.d : (double)args[1].u.i);
    p.posinf = args[2].tag == CT_TAG_NONE ? big : (args[2].tag == CT_TAG_DOUBLE ? args[2].u.d : (double)args[2].u.i);
    p.neginf = args[3].tag == CT_TAG_NONE ? -big : (args[3].tag == CT_TAG_DOUBLE ? args[3].u.d : (double)args[3].u.i);
    if (d == CT_FLOAT32 || ct_dtype_opmath(d) == CT_FLOAT32) { /* static_cast<scalar_t> */
        p.nan = (float)p.nan;
        p.posinf = (float)p.posinf;
        p.neginf = (float)p.neginf;
    }
    return p;
}
/* An integral or bool self has nothing to replace: nan_to_num_out resizes out (contiguous) and
 * copies self into it with a dispatched copy_ (a no-op for self itself: nan_to_num_). */
static int nan_to_num_integral(ct_tensor *self, ct_tensor *out, ct_value *rets) {
    if (out == self) return ct_ret_self(rets, self);
    if (out) {
        if (out->dtype != self->dtype)
            return ct_error_set(CT_ERR_RUNTIME, "nan_to_num: dtype of out: %s should be same as input: %s", ct_dtype_name(out->dtype),
                                ct_dtype_name(self->dtype));
        if ((out->ndim != self->ndim || memcmp(out->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim) != 0) &&
            ct_out_resize(out, self->sizes, self->ndim, NULL, 0) != 0)
            return -1;
        if (ct_copy_(out, self, false) != 0) return -1;
        return ct_ret_self(rets, out);
    }
    ct_tensor *r = ct_clone(self, CT_MEMORY_FORMAT_NONE);
    return ct_ret(rets, 0, r);
}

int ct_k_nan_to_num(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (!ct_dtype_is_floating(ARG_T(0)->dtype)) return nan_to_num_integral(ARG_T(0), NULL, rets);
    u_par p = nan_to_num_par(args, ARG_T(0)->dtype);
    return unary(&U_NAN_TO_NUM, &p, ARG_T(0), NULL, false, rets);
}
int ct_k_nan_to_num_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (!ct_dtype_is_floating(ARG_T(0)->dtype)) return nan_to_num_integral(ARG_T(0), ARG_T(0), rets);
    u_par p = nan_to_num_par(args, ARG_T(0)->dtype);
    return unary(&U_NAN_TO_NUM, &p, ARG_T(0), ARG_T(0), true, rets);
}
int ct_k_nan_to_num_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (!ct_dtype_is_floating(ARG_T(0)->dtype)) return nan_to_num_integral(ARG_T(0), ARG_T(4), rets);
    u_par p = nan_to_num_par(args, ARG_T(0)->dtype);
    return unary(&U_NAN_TO_NUM, &p, ARG_T(0), ARG_T(4), false, rets);
}

/* ---- isfinite: CompositeImplicitAutograd, as PyTorch decomposes it ---- */

/* t != inf (ne.Scalar) */
static ct_tensor *ne_inf(ct_tensor *t) { return ct_ne_scalar(t, ct_double(INFINITY)); }

/* isfinite(Tensor self): all true for an integral or bool self (ones_like(self, bool)), else
 * (self == self) * (self.abs() != inf) */
int ct_k_isfinite(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (!ct_dtype_is_floating(self->dtype)) return ct_ret(rets, 0, ct_ones_like(self, CT_BOOL, CT_PRESERVE_FORMAT));
    ct_tensor *a = ct_abs(self), *ne = a ? ne_inf(a) : NULL, *eq = ne ? ct_eq_tensor(self, self) : NULL;
    ct_tensor *r = eq ? ct_mul(eq, ne) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(ne);
    ct_tensor_release(eq);
    return ct_ret(rets, 0, r);
}

/* ---- the aliases: CompositeImplicitAutograd kernels that call their op (absolute -> abs) ---- */

#define U_ALIAS(NAME, OP)                                                                    \
    int ct_k_##NAME(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {        \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return ct_ret(rets, 0, ct_##OP(ARG_T(0)));                                           \
    }                                                                                        \
    int ct_k_##NAME##_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {     \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return ct_##OP##_(ARG_T(0)) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                \
    }                                                                                        \
    int ct_k_##NAME##_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {  \
        (void)op;                                                                            \
        (void)ks;                                                                            \
        return ct_##OP##_out(ARG_T(0), ARG_T(1)) != 0 ? -1 : ct_ret_self(rets, ARG_T(1));   \
    }

U_ALIAS(absolute, abs)
U_ALIAS(negative, neg)

/* positive: self itself, refused for bool (torch.positive, Tensor.__pos__) */
int ct_k_positive(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (ARG_T(0)->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "The `+` operator, on a bool tensor is not supported.");
    return ct_ret_self(rets, ARG_T(0));
}
U_ALIAS(arcsin, asin)
U_ALIAS(arccos, acos)
U_ALIAS(arctan, atan)
U_ALIAS(arcsinh, asinh)
U_ALIAS(arccosh, acosh)
U_ALIAS(arctanh, atanh)
U_ALIAS(fix, trunc)

/* ---- the backward ops: binary TensorIterator ops over (grad_output, output or self) ---- */

typedef enum { UB_SIGMOID, UB_TANH, UB_LOGIT } ub_kind;

typedef struct ub_ctx {
    ub_kind kind;
    ct_dtype dt;
    bool has_eps;
    double lo, hi;
} ub_ctx;

static void ub_elem(char **p, void *vctx) {
    const ub_ctx *c = vctx;
    double g = ct_load_as_double(p[1], c->dt), y = ct_load_as_double(p[2], c->dt), r;
    if (c->dt == CT_FLOAT64) {
        switch (c->kind) {
        case UB_SIGMOID: r = g * (1.0 - y) * y; break;
        case UB_TANH: r = g * (1.0 - y * y); break;
        default: /* + 0.0: at x = -0 PyTorch divides by +0 (recorded) */
            if (c->has_eps) r = (y < c->lo || y > c->hi) ? 0.0 : g / (y * (1.0 - y) + 0.0);
            else r = (y < 0.0 || y > 1.0) ? NAN : g / (y * (1.0 - y) + 0.0);
            break;
        }
    } else { /* float, and float16/bfloat16 in float */
        float gf = (float)g, yf = (float)y, rf;
        switch (c->kind) {
        case UB_SIGMOID: rf = gf * (1.0f - yf) * yf; break;
        case UB_TANH: rf = gf * (1.0f - yf * yf); break;
        default:
            if (c->has_eps) rf = (yf < (float)c->lo || yf > (float)c->hi) ? 0.0f : gf / (yf * (1.0f - yf) + 0.0f);
            else rf = (yf < 0.0f || yf > 1.0f) ? NAN : gf / (yf * (1.0f - yf) + 0.0f);
            break;
        }
        r = rf;
    }
    ct_store_from_double(p[0], c->dt, r);
}

static int unary_backward(ct_tensor *g, ct_tensor *y, ub_ctx *c, const char *kname, ct_value *rets) {
    int64_t shape[CT_MAX_DIMS];
    int nd;
    if (ct_broadcast_shapes(g->sizes, g->ndim, y->sizes, y->ndim, shape, &nd) != 0) return -1;
    ct_dtype rt = ct_result_type2(g, y);
    if (!ct_dtype_is_floating(rt)) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kname, ct_dtype_name(rt));
    ct_tensor *ins[2] = {g, y};
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, NULL, ins, 2, rt, true) != 0) return -1;
    ct_tensor *out = ct_iter_alloc_output(shape, nd, rt, (const ct_tensor *const *)k.in, 2);
    if (!out) return ct_iter_cast_end(&k, -1);
    c->dt = rt;
    if (out->numel > 0) {
        int64_t strides[3][CT_MAX_DIMS];
        char *bases[3];
        size_t es[3];
        memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
        bases[0] = ct_tensor_data_ptr(out);
        es[0] = ct_dtype_size(rt);
        for (int i = 0; i < 2; i++) {
            ct_broadcast_strides(k.in[i], out->sizes, out->ndim, strides[i + 1]);
            bases[i + 1] = ct_tensor_data_ptr(k.in[i]);
            es[i + 1] = ct_dtype_size(rt);
        }
        ct_for_each(out->sizes, out->ndim, 3, bases, strides, es, ub_elem, c);
    }
    ct_iter_cast_end(&k, 0);
    return ct_ret(rets, 0, out);
}

/* sigmoid_backward(Tensor grad_output, Tensor output): grad * (1 - y) * y */
int ct_k_sigmoid_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ub_ctx c = {UB_SIGMOID, CT_FLOAT32, false, 0, 0};
    return unary_backward(ARG_T(0), ARG_T(1), &c, "sigmoid_backward_cpu", rets);
}

/* tanh_backward(Tensor grad_output, Tensor output): grad * (1 - y * y) */
int ct_k_tanh_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ub_ctx c = {UB_TANH, CT_FLOAT32, false, 0, 0};
    return unary_backward(ARG_T(0), ARG_T(1), &c, "tanh_backward_cpu", rets);
}

/* logit_backward(Tensor grad_output, Tensor self, float? eps=None): grad / (x * (1 - x)) inside
 * [eps, 1 - eps] (0 outside), or inside [0, 1] (NaN outside) without eps */
int ct_k_logit_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    u_par p = logit_par(&args[2]);
    ub_ctx c = {UB_LOGIT, CT_FLOAT32, p.has_eps, p.eps, 1.0 - p.eps};
    return unary_backward(ARG_T(0), ARG_T(1), &c, "logit_backward_cpu", rets);
}
