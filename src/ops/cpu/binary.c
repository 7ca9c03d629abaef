/* The binary family's kernel template (binary_impl.h) and its math ops: pow (Tensor and Scalar
 * forms), float_power, fmod, remainder, atan2, minimum, fmin/fmax, floor_divide, div with a
 * rounding mode, copysign, hypot, logaddexp, xlogy.
 *
 * Note [The binary template]
 *   Each op is one row of `ops` below: the name its dtype dispatch reports ("fmod_cpu"), how it
 *   promotes (a regular op computes in the result type of its inputs, a float op in the default
 *   dtype when that is integral, a comparison in the result type with a bool output) and the
 *   dtype kinds it has kernels for. ct_bin_run checks in TensorIteratorBase::build's order
 *   (internal overlap, broadcast shape, the output's shape, the result type's cast to the
 *   output), then the dtype, then brings the operands to the common dtype (Note [TensorIterator's
 *   casts on the CPU]) and runs one loop over every element. The loop reads and writes through
 *   the dtype table's conversions, so an element is computed the same way whatever the dtype:
 *   float64 in double, the other floating dtypes in float (at::opmath_type), an integral dtype
 *   in int64 wrapped to its width (its arithmetic wraps as the narrower C type's does), bool as
 *   bool. Integer division by zero is PyTorch's "ZeroDivisionError", found before any element
 *   is written. */
#include <math.h>
#include <string.h>

#include "ops/cpu/binary_impl.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/iter.h"

enum { CLS_REGULAR, CLS_FLOAT, CLS_COMPARE };
enum { K_BOOL = 1, K_INT = 2, K_FLOAT = 4, K_ALL = 7 };

static const struct {
    const char *kernel; /* the name its AT_DISPATCH reports */
    unsigned char cls, kinds;
} ops[CT_BIN_COUNT] = {
    [CT_BIN_POW] = {"pow", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_POW_SCALAR] = {"pow", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_FMOD] = {"fmod_cpu", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_REMAINDER] = {"remainder_cpu", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_ATAN2] = {"atan2_cpu", CLS_FLOAT, K_FLOAT},
    [CT_BIN_MINIMUM] = {"minimum_cpu", CLS_REGULAR, K_ALL},
    [CT_BIN_MAXIMUM] = {"maximum_cpu", CLS_REGULAR, K_ALL},
    [CT_BIN_FMIN] = {"fmin_cpu", CLS_REGULAR, K_ALL},
    [CT_BIN_FMAX] = {"fmax_cpu", CLS_REGULAR, K_ALL},
    [CT_BIN_DIV_FLOOR] = {"div_floor_cpu", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_DIV_TRUNC] = {"div_trunc_cpu", CLS_REGULAR, K_INT | K_FLOAT},
    [CT_BIN_DIV_TRUE] = {"div_true_cpu", CLS_FLOAT, K_FLOAT},
    [CT_BIN_COPYSIGN] = {"copysign_cpu", CLS_FLOAT, K_FLOAT},
    [CT_BIN_HYPOT] = {"hypot_cpu", CLS_REGULAR, K_FLOAT},
    [CT_BIN_LOGADDEXP] = {"logaddexp_cpu", CLS_REGULAR, K_FLOAT},
    [CT_BIN_XLOGY] = {"xlogy_cpu", CLS_FLOAT, K_FLOAT},
    [CT_BIN_EQ] = {"eq_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_NE] = {"ne_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_LT] = {"lt_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_LE] = {"le_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_GT] = {"gt_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_GE] = {"ge_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_LOGICAL_AND] = {"logical_and_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_LOGICAL_OR] = {"logical_or_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_LOGICAL_XOR] = {"logical_xor_cpu", CLS_COMPARE, K_ALL},
    [CT_BIN_BITWISE_AND] = {"bitwise_and_cpu", CLS_REGULAR, K_BOOL | K_INT},
    [CT_BIN_BITWISE_OR] = {"bitwise_or_cpu", CLS_REGULAR, K_BOOL | K_INT},
    [CT_BIN_BITWISE_XOR] = {"bitwise_xor_cpu", CLS_REGULAR, K_BOOL | K_INT},
    [CT_BIN_LSHIFT] = {"lshift_cpu", CLS_REGULAR, K_INT},
    [CT_BIN_RSHIFT] = {"rshift_cpu", CLS_REGULAR, K_INT},
};

typedef struct bin_ctx {
    ct_bin_fn f;
    ct_dtype common, out;
    int bits;          /* the integral common dtype's width */
    bool is_signed;
    double exp_d;      /* CT_BIN_POW_SCALAR: the exponent */
    float exp_f;
    int64_t exp_i;
    bool found_zero;   /* the zero-divisor scan */
} bin_ctx;

/* ---- the element operations, by compute type ---- */

static inline int64_t wrap_bits(int64_t v, int bits, bool is_signed) {
    if (bits >= 64) return v;
    uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & m;
    if (is_signed && (u >> (bits - 1))) u |= ~m;
    return (int64_t)u;
}

static inline int64_t powi(int64_t a, int64_t b) {
    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    uint64_t r = 1, x = (uint64_t)a;
    while (b) {
        if (b & 1) r *= x;
        x *= x;
        b >>= 1;
    }
    return (int64_t)r;
}

static int64_t op_int(const bin_ctx *c, int64_t a, int64_t b) {
    switch (c->f) {
    case CT_BIN_POW: return powi(a, b);
    case CT_BIN_POW_SCALAR: return powi(a, c->exp_i);
    case CT_BIN_FMOD: return b == -1 ? 0 : a % b;
    case CT_BIN_REMAINDER: {
        int64_t r = b == -1 ? 0 : a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
    }
    case CT_BIN_DIV_TRUNC: return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
    case CT_BIN_DIV_FLOOR: {
        if (b == -1) return (int64_t)(0 - (uint64_t)a);
        int64_t q = a / b, r = a % b;
        return (r != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    case CT_BIN_MINIMUM: case CT_BIN_FMIN: return b < a ? b : a;
    case CT_BIN_MAXIMUM: case CT_BIN_FMAX: return a < b ? b : a;
    case CT_BIN_EQ: return a == b;
    case CT_BIN_NE: return a != b;
    case CT_BIN_LT: return a < b;
    case CT_BIN_LE: return a <= b;
    case CT_BIN_GT: return a > b;
    case CT_BIN_GE: return a >= b;
    case CT_BIN_LOGICAL_AND: return a && b;
    case CT_BIN_LOGICAL_OR: return a || b;
    case CT_BIN_LOGICAL_XOR: return !a != !b;
    case CT_BIN_BITWISE_AND: return a & b;
    case CT_BIN_BITWISE_OR: return a | b;
    case CT_BIN_BITWISE_XOR: return a ^ b;
    case CT_BIN_LSHIFT: /* a shift by a negative count or the width or more is 0 */
        return (b < 0 || b >= c->bits) ? 0 : (int64_t)((uint64_t)a << b);
    case CT_BIN_RSHIFT: { /* ... or the sign, for a right shift */
        int max_shift = c->bits - (c->is_signed ? 1 : 0);
        if (!c->is_signed) { /* the value read is the unsigned one: shift it as such */
            uint64_t u = (uint64_t)a;
            return (b < 0 || b >= max_shift) ? 0 : (int64_t)(u >> b);
        }
        return (b < 0 || b >= max_shift) ? (a < 0 ? -1 : 0) : a >> b;
    }
    default: return 0;
    }
}

/* the floating ops, once for float (the opmath of float32/float16/bfloat16) and once for double */
#define FLOAT_OPS(T, SUF, EXP)                                                                                   \
    static T op_##SUF(const bin_ctx *c, T a, T b) {                                                               \
        switch (c->f) {                                                                                           \
        case CT_BIN_POW: return pow##SUF##_(a, b);                                                                \
        case CT_BIN_POW_SCALAR: {                                                                                 \
            const T e = EXP;                                                                                      \
            if (e == (T)2) return a * a;                                                                          \
            if (e == (T)3) return a * a * a;                                                                      \
            if (e == (T)0.5 && c->common != CT_FLOAT16) return sqrt##SUF##_(a);                                   \
            if (e == (T)-0.5 && c->common != CT_FLOAT16) return (T)1 / sqrt##SUF##_(a);                           \
            if (e == (T)-1) return (T)1 / a;                                                                      \
            if (e == (T)-2) return (T)1 / (a * a);                                                                \
            return pow##SUF##_(a, e);                                                                             \
        }                                                                                                         \
        case CT_BIN_FMOD: return fmod##SUF##_(a, b);                                                              \
        case CT_BIN_REMAINDER: {                                                                                  \
            T m = fmod##SUF##_(a, b);                                                                             \
            if (m != 0 && ((b < 0) != (m < 0))) m += b;                                                           \
            return m;                                                                                             \
        }                                                                                                         \
        case CT_BIN_ATAN2: return atan2##SUF##_(a, b);                                                            \
        /* std::min / std::max: of two equal values (0 and -0) the first */                                  \
        case CT_BIN_MINIMUM: return (a != a) ? a : (b != b) ? b : (b < a ? b : a);                                \
        case CT_BIN_MAXIMUM: return (a != a) ? a : (b != b) ? b : (a < b ? b : a);                                \
        case CT_BIN_FMIN: return (a != a) ? b : (b != b) ? a : (b < a ? b : a);                                   \
        case CT_BIN_FMAX: return (a != a) ? b : (b != b) ? a : (a < b ? b : a);                                   \
        case CT_BIN_DIV_TRUNC: return trunc##SUF##_(a / b);                                                       \
        case CT_BIN_DIV_TRUE: return a / b;                                                                       \
        case CT_BIN_DIV_FLOOR: { /* div_floor_floating */                                                         \
            if (b == 0) return a / b;                                                                             \
            T m = fmod##SUF##_(a, b), d = (a - m) / b;                                                            \
            if (m != 0 && ((b < 0) != (m < 0))) d -= 1;                                                           \
            if (d == 0) return copysign##SUF##_((T)0, a / b);                                                     \
            T fl = floor##SUF##_(d);                                                                              \
            if (d - fl > (T)0.5) fl += 1;                                                                         \
            return fl;                                                                                            \
        }                                                                                                         \
        case CT_BIN_COPYSIGN: return copysign##SUF##_(a, b);                                                      \
        case CT_BIN_HYPOT: return hypot##SUF##_(a, b);                                                            \
        case CT_BIN_LOGADDEXP:                                                                                    \
            if (isinf(a) && a == b) return a;                                                                     \
            else {                                                                                                \
                T m = a > b ? a : b;                                                                              \
                if (a != a || b != b) m = a != a ? a : b;                                                         \
                return m + log1p##SUF##_(exp##SUF##_(-fabs##SUF##_(a - b)));                                      \
            }                                                                                                     \
        case CT_BIN_XLOGY:                                                                                        \
            if (b != b) return b;                                                                                 \
            if (a == 0) return 0;                                                                                 \
            return a * log##SUF##_(b);                                                                            \
        case CT_BIN_EQ: return a == b;                                                                            \
        case CT_BIN_NE: return a != b;                                                                            \
        case CT_BIN_LT: return a < b;                                                                             \
        case CT_BIN_LE: return a <= b;                                                                            \
        case CT_BIN_GT: return a > b;                                                                             \
        case CT_BIN_GE: return a >= b;                                                                            \
        case CT_BIN_LOGICAL_AND: return a != 0 && b != 0;                                                         \
        case CT_BIN_LOGICAL_OR: return a != 0 || b != 0;                                                          \
        case CT_BIN_LOGICAL_XOR: return (a != 0) != (b != 0);                                                     \
        default: return 0;                                                                                        \
        }                                                                                                         \
    }

/* fmod of two floats, exactly as fmodf gives it, without the C library's bit-by-bit loop when
 * the quotient is small: q = trunc(a / b) in double, possibly off by one, then a - q * b, which is
 * exact in double (q * b has at most 53 bits, the difference at most 26), corrected into
 * [0, |b|) with a's sign. Larger quotients, infinities, NaN and a zero b go to fmodf. */
static inline float fast_fmodf(float a, float b) {
    const double da = a, db = b;
    const double q = trunc(da / db);
    if (!(fabs(q) < 536870912.0) || b == 0 || isinf(a) || isinf(b)) return fmodf(a, b);
    double r = da - q * db;
    const double ab = fabs(db);
    if (a >= 0) {
        if (r < 0) r += ab;
        else if (r >= ab) r -= ab;
    } else {
        if (r > 0) r -= ab;
        else if (r <= -ab) r += ab;
    }
    return r == 0 ? copysignf(0.0f, a) : (float)r;
}

#define powf_ powf
#define sqrtf_ sqrtf
#define fmodf_ fast_fmodf
#define atan2f_ atan2f
#define fminf_ fminf
#define fmaxf_ fmaxf
#define truncf_ truncf
#define floorf_ floorf
#define copysignf_ copysignf
#define hypotf_ hypotf
#define log1pf_ log1pf
#define expf_ expf
#define fabsf_ fabsf
#define logf_ logf
#define powd_ pow
#define sqrtd_ sqrt
#define fmodd_ fmod
#define atan2d_ atan2
#define fmind_ fmin
#define fmaxd_ fmax
#define truncd_ trunc
#define floord_ floor
#define copysignd_ copysign
#define hypotd_ hypot
#define log1pd_ log1p
#define expd_ exp
#define fabsd_ fabs
#define logd_ log
FLOAT_OPS(float, f, c->exp_f)
FLOAT_OPS(double, d, c->exp_d)

/* ---- the loop ---- */

static inline int64_t load_int(const char *p, ct_dtype d) {
    if (d == CT_INT64) return *(const int64_t *)p;
    if (d == CT_BOOL) return *(const uint8_t *)p != 0;
    return (int64_t)ct_elem_load(p, d); /* the narrower integers: exact */
}

static inline void store_int(char *p, ct_dtype d, int64_t v, int bits, bool is_signed) {
    if (d == CT_INT64) *(int64_t *)p = v;
    else if (d == CT_BOOL) *(uint8_t *)p = v != 0;
    else ct_elem_store(p, d, (double)wrap_bits(v, bits, is_signed));
}

static inline float load_f(const char *p, ct_dtype d) {
    return d == CT_FLOAT32 ? *(const float *)p : (float)ct_elem_load(p, d);
}

static inline void store_f(char *p, ct_dtype d, float v) {
    if (d == CT_FLOAT32) *(float *)p = v;
    else ct_elem_store(p, d, v);
}

/* a comparison's (or logical op's) answer into its output, bool or (in place) any dtype */
static inline void store_truth(char *p, ct_dtype d, bool v) {
    if (d == CT_BOOL) *(uint8_t *)p = v;
    else ct_elem_store(p, d, v ? 1.0 : 0.0);
}

static void bin_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *vctx) {
    const bin_ctx *c = vctx;
    const bool truth = ops[c->f].cls == CLS_COMPARE;
    const ct_dtype cd = c->common, od = c->out;
    for (int64_t j = 0; j < size1; j++) {
        char *po = data[0] + j * strides[3];
        const char *pa = data[1] + j * strides[4], *pb = data[2] + j * strides[5];
        if (cd == CT_FLOAT64) {
            for (int64_t i = 0; i < size0; i++, po += strides[0], pa += strides[1], pb += strides[2]) {
                double r = op_d(c, *(const double *)pa, *(const double *)pb);
                if (truth) store_truth(po, od, r != 0);
                else *(double *)po = r;
            }
        } else if (ct_dtype_is_floating(cd)) {
            for (int64_t i = 0; i < size0; i++, po += strides[0], pa += strides[1], pb += strides[2]) {
                float r = op_f(c, load_f(pa, cd), load_f(pb, cd));
                if (truth) store_truth(po, od, r != 0);
                else store_f(po, od, r);
            }
        } else {
            for (int64_t i = 0; i < size0; i++, po += strides[0], pa += strides[1], pb += strides[2]) {
                int64_t r = op_int(c, load_int(pa, cd), load_int(pb, cd));
                if (truth) store_truth(po, od, r != 0);
                else store_int(po, od, r, c->bits, c->is_signed);
            }
        }
    }
}

/* The float32 ops with a vectorised loop (vec/binary_vec.c): the comparisons into bool,
 * minimum/maximum, fmin/fmax and pow by 2 into float32; CT_VBIN_COUNT for the others. */
static ct_vec_bin_op vec_op(const bin_ctx *c) {
    if (c->common != CT_FLOAT32) return CT_VBIN_COUNT;
    if (c->f >= CT_BIN_EQ && c->f <= CT_BIN_GE)
        return c->out == CT_BOOL ? (ct_vec_bin_op)(CT_VBIN_EQ + (c->f - CT_BIN_EQ)) : CT_VBIN_COUNT;
    if (c->out != CT_FLOAT32) return CT_VBIN_COUNT;
    switch (c->f) {
    case CT_BIN_MINIMUM: return CT_VBIN_MINIMUM;
    case CT_BIN_MAXIMUM: return CT_VBIN_MAXIMUM;
    case CT_BIN_FMIN: return CT_VBIN_FMIN;
    case CT_BIN_FMAX: return CT_VBIN_FMAX;
    case CT_BIN_POW_SCALAR: return c->exp_f == 2.0f ? CT_VBIN_SQUARE : CT_VBIN_COUNT;
    default: return CT_VBIN_COUNT;
    }
}

/* a contiguous run split over the threads (TensorIterator::for_each's split) */
typedef struct vec_job {
    ct_vec_bin_op op;
    char *o;
    const float *a, *b;
    int64_t eo, b_step;
} vec_job;

static int vec_chunk(void *vj, int64_t begin, int64_t end) {
    const vec_job *j = vj;
    ct_vec()->binary_f32(j->op, j->a + begin, j->b + begin * j->b_step, j->b_step, end - begin, j->o + begin * j->eo);
    return 0;
}

/* int64 operands and output (bool for the comparisons), contiguous, b repeated when b_step is 0:
 * the switch taken once per run, each case a plain loop over op_int's element operation */
static bool i64_run(const bin_ctx *c, char *out, const int64_t *a, const int64_t *b, int64_t b_step, int64_t n) {
    if (c->common != CT_INT64) return false;
    const bool truth = ops[c->f].cls == CLS_COMPARE;
    if (truth ? c->out != CT_BOOL : c->out != CT_INT64) return false;
    int64_t *o = (int64_t *)out;
    uint8_t *ob = (uint8_t *)out;
#define I64(EXPR)                                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                                            \
        const int64_t x = a[i], y = b[i * b_step];                                                               \
        o[i] = (EXPR);                                                                                           \
    }                                                                                                            \
    return true
#define I64B(EXPR)                                                                                               \
    for (int64_t i = 0; i < n; i++) {                                                                            \
        const int64_t x = a[i], y = b[i * b_step];                                                               \
        ob[i] = (EXPR);                                                                                          \
    }                                                                                                            \
    return true
    switch (c->f) {
    case CT_BIN_BITWISE_AND: I64(x & y);
    case CT_BIN_BITWISE_OR: I64(x | y);
    case CT_BIN_BITWISE_XOR: I64(x ^ y);
    case CT_BIN_MINIMUM: case CT_BIN_FMIN: I64(y < x ? y : x);
    case CT_BIN_MAXIMUM: case CT_BIN_FMAX: I64(x < y ? y : x);
    case CT_BIN_EQ: I64B(x == y);
    case CT_BIN_NE: I64B(x != y);
    case CT_BIN_LT: I64B(x < y);
    case CT_BIN_LE: I64B(x <= y);
    case CT_BIN_GT: I64B(x > y);
    case CT_BIN_GE: I64B(x >= y);
    default:
        if (truth) {
            I64B(op_int(c, x, y) != 0);
        }
        I64(op_int(c, x, y));
    }
#undef I64
#undef I64B
}

typedef struct i64_job {
    const bin_ctx *c;
    char *o;
    const int64_t *a, *b;
    int64_t eo, b_step;
} i64_job;

static int i64_chunk(void *vj, int64_t begin, int64_t end) {
    const i64_job *j = vj;
    i64_run(j->c, j->o + begin * j->eo, j->a + begin, j->b + begin * j->b_step, j->b_step, end - begin);
    return 0;
}

static bool has_zero(const ct_tensor *b) {
    const int64_t n = b->numel;
    for (int64_t i = 0; i < n; i++) {
        const char *p = ct_tensor_elem_ptr(b, i);
        if (load_int(p, b->dtype) == 0) return true;
    }
    return false;
}

static bool divides(ct_bin_fn f) {
    return f == CT_BIN_FMOD || f == CT_BIN_REMAINDER || f == CT_BIN_DIV_FLOOR || f == CT_BIN_DIV_TRUNC;
}

static int kind_of(ct_dtype d) {
    return d == CT_BOOL ? K_BOOL : ct_dtype_is_floating(d) ? K_FLOAT : K_INT;
}

static int run_ctx(bin_ctx *c, ct_tensor *a, ct_tensor *b, ct_tensor *self_out, ct_value *rets) {
    const ct_bin_fn f = c->f;
    if (self_out && ct_assert_no_internal_overlap(self_out) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(a->sizes, a->ndim, b->sizes, b->ndim, shape, &n) != 0) return -1;
    ct_tensor *ins[2] = {a, b};
    const int resize = self_out ? ct_out_mark_resize(self_out, shape, n, ins, 2) : 0;
    if (resize < 0) return -1;
    ct_dtype rt = ct_result_type2(a, b);
    if (ops[f].cls == CLS_FLOAT && !ct_dtype_is_floating(rt)) rt = ct_default_dtype();
    const bool truth = ops[f].cls == CLS_COMPARE;
    if (self_out && !truth && !ct_dtype_can_cast(rt, self_out->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(rt),
                            ct_dtype_name(self_out->dtype));
    if (resize && ct_out_resize(self_out, shape, n, (const ct_tensor *const *)ins, 2) != 0) return -1;
    if (!(ops[f].kinds & kind_of(rt)))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", ops[f].kernel, ct_dtype_name(rt));
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, self_out, ins, 2, rt, !truth) != 0) return -1;
    if (divides(f) && !ct_dtype_is_floating(rt) && has_zero(k.in[1])) {
        ct_iter_cast_end(&k, -1);
        return ct_error_set(CT_ERR_RUNTIME, "ZeroDivisionError");
    }
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(shape, n, truth ? CT_BOOL : rt, (const ct_tensor *const *)k.in, 2);
        if (!out) return ct_iter_cast_end(&k, -1);
    }
    c->common = rt;
    c->out = out->dtype;
    c->bits = (int)ct_dtype_size(rt) * 8;
    c->is_signed = ct_dtype_is_signed(rt);
    if (out->numel > 0) {
        ct_tensor *ka = k.in[0], *kb = k.in[1];
        const int64_t eo = (int64_t)ct_dtype_size(out->dtype);
        const ct_vec_bin_op vop = vec_op(c);
        if (vop != CT_VBIN_COUNT && ka->numel == out->numel && (kb->numel == out->numel || kb->numel == 1) &&
            ct_is_contiguous_nn(out) && ct_is_contiguous_nn(ka) && ct_is_contiguous_nn(kb)) {
            vec_job j = {vop, (char *)out->storage->data + out->storage_offset * eo,
                         (const float *)ka->storage->data + ka->storage_offset, (const float *)kb->storage->data + kb->storage_offset,
                         eo, kb->numel == 1 ? 0 : 1};
            if (out->numel > CT_GRAIN_SIZE) ct_parallel_for(0, out->numel, CT_GRAIN_SIZE, vec_chunk, &j);
            else vec_chunk(&j, 0, out->numel);
            goto done;
        }
        if (rt == CT_INT64 && ka->numel == out->numel && (kb->numel == out->numel || kb->numel == 1) &&
            ct_is_contiguous_nn(out) && ct_is_contiguous_nn(ka) && ct_is_contiguous_nn(kb) &&
            i64_run(c, NULL, NULL, NULL, 0, 0)) {
            i64_job j = {c, (char *)out->storage->data + out->storage_offset * eo,
                         (const int64_t *)ka->storage->data + ka->storage_offset,
                         (const int64_t *)kb->storage->data + kb->storage_offset, eo, kb->numel == 1 ? 0 : 1};
            if (out->numel > CT_GRAIN_SIZE) ct_parallel_for(0, out->numel, CT_GRAIN_SIZE, i64_chunk, &j);
            else i64_chunk(&j, 0, out->numel);
            goto done;
        }
        const ct_tensor *ts[3] = {out, ka, kb};
        ct_iter it;
        ct_iter_init(&it, out->sizes, out->ndim, ts, 3);
        ct_iter_run(&it, bin_loop, c);
    }
done:
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!self_out) ct_tensor_release(out);
        return -1;
    }
    if (self_out) return ct_ret_self(rets, self_out);
    return ct_ret(rets, 0, out);
}

int ct_bin_run(ct_bin_fn f, ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_value *rets) {
    bin_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    return run_ctx(&c, a, b, out, rets);
}

/* ---- pow ---- */

/* pow.Tensor_Scalar and its in-place and out= forms (TORCH_META_FUNC(pow_Tensor_Scalar) and
 * TORCH_IMPL_FUNC(pow_Tensor_Scalar_out)): integers to a negative integer power are refused;
 * the result type is self's with the exponent as a wrapped number; an exponent of 0 fills the
 * output with 1 and one of 1 copies self (both dispatched), any other runs the kernel over
 * self.to(result type), with PyTorch's special cases (2, 3, 0.5, -0.5, -1, -2) for floats. */
static int pow_scalar_exp(ct_tensor *self, ct_scalar e, ct_tensor *self_out, ct_value *rets) {
    bool e_integral = e.tag != CT_TAG_DOUBLE;
    int64_t ei = e.tag == CT_TAG_BOOL ? e.u.b : e.tag == CT_TAG_INT ? e.u.i : 0;
    if (ct_dtype_is_integral(self->dtype, true) && e_integral && ei < 0)
        return ct_error_set(CT_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
    ct_dtype rt = ct_result_type_scalar(self, e);
    if (self_out && ct_assert_no_internal_overlap(self_out) != 0) return -1;
    const int resize = self_out ? ct_out_mark_resize(self_out, self->sizes, self->ndim, &self, 1) : 0;
    if (resize < 0) return -1;
    if (self_out && !ct_dtype_can_cast(rt, self_out->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(rt),
                            ct_dtype_name(self_out->dtype));
    if (resize && ct_out_resize(self_out, self->sizes, self->ndim, (const ct_tensor *const *)&self, 1) != 0) return -1;
    double ed = ct_scalar_to_double(e);
    if (ed == 0.0 || ed == 1.0) {
        ct_tensor *out = self_out ? ct_tensor_retain(self_out)
                                  : ct_iter_alloc_output(self->sizes, self->ndim, rt, (const ct_tensor *const *)&self, 1);
        if (!out) return -1;
        int rc = ed == 0.0 ? ct_fill_(out, ct_int(1)) : ct_copy_(out, self, false);
        if (rc != 0) {
            ct_tensor_release(out);
            return -1;
        }
        if (self_out) {
            ct_tensor_release(out);
            return ct_ret_self(rets, self_out);
        }
        return ct_ret(rets, 0, out);
    }
    if (!(ops[CT_BIN_POW_SCALAR].kinds & kind_of(rt)))
        return ct_error_set(CT_ERR_RUNTIME, "\"pow\" not implemented for '%s'", ct_dtype_name(rt));
    ct_tensor *base = self->dtype == rt ? ct_tensor_retain(self) : ct_to_dtype(self, rt, false, false, CT_MEMORY_FORMAT_NONE);
    if (!base) return -1;
    bin_ctx c;
    memset(&c, 0, sizeof c);
    c.f = CT_BIN_POW_SCALAR;
    c.exp_d = ed;
    c.exp_f = (float)ed;
    c.exp_i = e.tag == CT_TAG_DOUBLE ? (int64_t)ed : ei;
    int rc = run_ctx(&c, base, base, self_out, rets);
    ct_tensor_release(base);
    return rc;
}

CT_BIN_TT(pow_tensor_tensor, CT_BIN_POW)
CT_BIN_TT_(pow__tensor, CT_BIN_POW)
CT_BIN_TT_OUT(pow_tensor_tensor_out, CT_BIN_POW)

int ct_k_pow_tensor_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return pow_scalar_exp(ARG_T(0), args[1], NULL, rets);
}
int ct_k_pow__scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return pow_scalar_exp(ARG_T(0), args[1], ARG_T(0), rets);
}
int ct_k_pow_tensor_scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return pow_scalar_exp(ARG_T(0), args[1], ARG_T(2), rets);
}

/* pow.Scalar(Scalar self, Tensor exponent): a base of 1 fills the output with 1; any other is
 * pow over the base as a wrapped number (TORCH_IMPL_FUNC(pow_Scalar_out)) */
static int pow_scalar_base(ct_scalar base, ct_tensor *e, ct_tensor *out, ct_value *rets) {
    ct_tensor *w = ct_wrap_scalar(base);
    if (!w) return -1;
    int rc;
    if (base.tag != CT_TAG_BOOL && ct_scalar_to_double(base) == 1.0) { /* Scalar::equal(1.0): not a bool */
        ct_dtype rt = ct_result_type2(w, e);
        const int resize = out ? ct_out_mark_resize(out, e->sizes, e->ndim, &e, 1) : 0;
        if (resize < 0) rc = -1;
        else if (out && !ct_dtype_can_cast(rt, out->dtype))
            rc = ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                              ct_dtype_name(rt), ct_dtype_name(out->dtype));
        else if (resize && ct_out_resize(out, e->sizes, e->ndim, (const ct_tensor *const *)&e, 1) != 0) rc = -1;
        else {
            ct_tensor *o = out ? ct_tensor_retain(out) : ct_iter_alloc_output(e->sizes, e->ndim, rt, (const ct_tensor *const *)&e, 1);
            rc = o && ct_fill_(o, ct_int(1)) == 0 ? 0 : -1;
            if (rc == 0 && !out) rc = ct_ret(rets, 0, o);
            else {
                ct_tensor_release(o);
                if (rc == 0) rc = ct_ret_self(rets, out);
            }
        }
    } else {
        rc = ct_bin_run(CT_BIN_POW, w, e, out, rets);
    }
    ct_tensor_release(w);
    return rc;
}

int ct_k_pow_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return pow_scalar_base(args[0], ARG_T(1), NULL, rets);
}
int ct_k_pow_scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return pow_scalar_base(args[0], ARG_T(1), ARG_T(2), rets);
}

/* float_power (CompositeImplicitAutograd): pow in float64 */
static ct_tensor *to_double(ct_tensor *t) { return ct_to_dtype(t, CT_FLOAT64, false, false, CT_MEMORY_FORMAT_NONE); }

int ct_k_float_power_tensor_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *a = to_double(ARG_T(0)), *b = a ? to_double(ARG_T(1)) : NULL;
    ct_tensor *r = b ? ct_pow_tensor_tensor(a, b) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(b);
    return ct_ret(rets, 0, r);
}
int ct_k_float_power_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *b = to_double(ARG_T(1));
    ct_tensor *r = b ? ct_pow_scalar(ct_double(ct_scalar_to_double(args[0])), b) : NULL;
    ct_tensor_release(b);
    return ct_ret(rets, 0, r);
}
int ct_k_float_power_tensor_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *a = to_double(ARG_T(0));
    ct_tensor *r = a ? ct_pow_tensor_scalar(a, ct_double(ct_scalar_to_double(args[1]))) : NULL;
    ct_tensor_release(a);
    return ct_ret(rets, 0, r);
}
static int float_power_check(const ct_tensor *self) {
    if (self->dtype != CT_FLOAT64)
        return ct_error_set(CT_ERR_RUNTIME, "the base given to float_power_ has dtype %s but the operation's result requires dtype Double",
                            ct_dtype_name(self->dtype));
    return 0;
}
int ct_k_float_power__scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (float_power_check(ARG_T(0)) != 0) return -1;
    if (ct_pow__scalar(ARG_T(0), ct_double(ct_scalar_to_double(args[1]))) != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}
int ct_k_float_power__tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (float_power_check(ARG_T(0)) != 0) return -1;
    ct_tensor *b = to_double(ARG_T(1));
    int rc = b ? ct_pow__tensor(ARG_T(0), b) : -1;
    ct_tensor_release(b);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}

/* ---- the other math ops ---- */

CT_BIN_TT(fmod_tensor, CT_BIN_FMOD)
CT_BIN_TT_(fmod__tensor, CT_BIN_FMOD)
CT_BIN_TT_OUT(fmod_tensor_out, CT_BIN_FMOD)
CT_BIN_FWD_NEW(fmod_scalar, ct_fmod_tensor, 1)
CT_BIN_FWD_INPLACE(fmod__scalar, ct_fmod__tensor)
CT_BIN_FWD_OUT(fmod_scalar_out, ct_fmod_tensor_out, 1)

CT_BIN_TT(remainder_tensor, CT_BIN_REMAINDER)
CT_BIN_TT_(remainder__tensor, CT_BIN_REMAINDER)
CT_BIN_TT_OUT(remainder_tensor_out, CT_BIN_REMAINDER)
CT_BIN_FWD_NEW(remainder_scalar, ct_remainder_tensor, 1)
CT_BIN_FWD_INPLACE(remainder__scalar, ct_remainder__tensor)
CT_BIN_FWD_OUT(remainder_scalar_out, ct_remainder_tensor_out, 1)
CT_BIN_FWD_NEW(remainder_scalar_tensor, ct_remainder_tensor, 0)
CT_BIN_AUTOGEN_OUT(remainder_scalar_tensor_out, ct_remainder_scalar_tensor(args[0], ARG_T(1)), 2)

CT_BIN_TT(atan2, CT_BIN_ATAN2)
CT_BIN_TT_(atan2_, CT_BIN_ATAN2)
CT_BIN_TT_OUT(atan2_out, CT_BIN_ATAN2)

CT_BIN_TT(maximum, CT_BIN_MAXIMUM)
CT_BIN_TT_OUT(maximum_out, CT_BIN_MAXIMUM)
CT_BIN_TT(minimum, CT_BIN_MINIMUM)
CT_BIN_TT_OUT(minimum_out, CT_BIN_MINIMUM)
CT_BIN_TT(fmin, CT_BIN_FMIN)
CT_BIN_TT_OUT(fmin_out, CT_BIN_FMIN)
CT_BIN_TT(fmax, CT_BIN_FMAX)
CT_BIN_TT_OUT(fmax_out, CT_BIN_FMAX)

CT_BIN_TT(floor_divide, CT_BIN_DIV_FLOOR)
CT_BIN_TT_(floor_divide__tensor, CT_BIN_DIV_FLOOR)
CT_BIN_TT_OUT(floor_divide_out, CT_BIN_DIV_FLOOR)
CT_BIN_FWD_NEW(floor_divide_scalar, ct_floor_divide, 1)
CT_BIN_FWD_INPLACE(floor_divide__scalar, ct_floor_divide__tensor)
CT_BIN_AUTOGEN_OUT(floor_divide_scalar_out, ct_floor_divide_scalar(ARG_T(0), args[1]), 2)

CT_BIN_TT(copysign_tensor, CT_BIN_COPYSIGN)
CT_BIN_TT_(copysign__tensor, CT_BIN_COPYSIGN)
CT_BIN_TT_OUT(copysign_out, CT_BIN_COPYSIGN)
CT_BIN_FWD_NEW(copysign_scalar, ct_copysign_tensor, 1)
CT_BIN_FWD_INPLACE(copysign__scalar, ct_copysign__tensor)
CT_BIN_FWD_OUT(copysign_scalar_out, ct_copysign_out, 1)

CT_BIN_TT(hypot, CT_BIN_HYPOT)
CT_BIN_TT_(hypot_, CT_BIN_HYPOT)
CT_BIN_TT_OUT(hypot_out, CT_BIN_HYPOT)
CT_BIN_TT(logaddexp, CT_BIN_LOGADDEXP)
CT_BIN_TT_OUT(logaddexp_out, CT_BIN_LOGADDEXP)

CT_BIN_TT(xlogy_tensor, CT_BIN_XLOGY)
CT_BIN_TT_(xlogy__tensor, CT_BIN_XLOGY)
CT_BIN_TT_OUT(xlogy_outtensor, CT_BIN_XLOGY)
CT_BIN_FWD_NEW(xlogy_scalar_self, ct_xlogy_tensor, 0)
CT_BIN_FWD_OUT(xlogy_outscalar_self, ct_xlogy_outtensor, 0)
CT_BIN_FWD_NEW(xlogy_scalar_other, ct_xlogy_tensor, 1)
CT_BIN_FWD_INPLACE(xlogy__scalar_other, ct_xlogy__tensor)
CT_BIN_FWD_OUT(xlogy_outscalar_other, ct_xlogy_outtensor, 1)

/* div with a rounding mode: None is true division, 'trunc' and 'floor' keep integers integral
 * (TORCH_META_FUNC2(div, Tensor_mode)) */
static int rounding(const ct_value *v, ct_bin_fn *f) {
    if (v->tag == CT_TAG_NONE) *f = CT_BIN_DIV_TRUE;
    else if (strcmp(v->u.s, "trunc") == 0) *f = CT_BIN_DIV_TRUNC;
    else if (strcmp(v->u.s, "floor") == 0) *f = CT_BIN_DIV_FLOOR;
    else
        return ct_error_set(CT_ERR_RUNTIME, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'",
                            v->u.s);
    return 0;
}

static const char *mode_str(const ct_value *v) { return v->tag == CT_TAG_NONE ? NULL : v->u.s; }

int ct_k_div_tensor_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_bin_fn f = CT_BIN_DIV_TRUE;
    if (rounding(&args[2], &f) != 0) return -1;
    return ct_bin_run(f, ARG_T(0), ARG_T(1), NULL, rets);
}
int ct_k_div__tensor_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_bin_fn f = CT_BIN_DIV_TRUE;
    if (rounding(&args[2], &f) != 0) return -1;
    return ct_bin_run(f, ARG_T(0), ARG_T(1), ARG_T(0), rets);
}
int ct_k_div_out_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_bin_fn f = CT_BIN_DIV_TRUE;
    if (rounding(&args[2], &f) != 0) return -1;
    return ct_bin_run(f, ARG_T(0), ARG_T(1), ARG_T(3), rets);
}
int ct_k_div_scalar_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    ct_tensor *r = ct_div_tensor_mode(ARG_T(0), w, mode_str(&args[2]));
    ct_tensor_release(w);
    return ct_ret(rets, 0, r);
}
int ct_k_div__scalar_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_div__tensor_mode(ARG_T(0), w, mode_str(&args[2]));
    ct_tensor_release(w);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}
CT_BIN_AUTOGEN_OUT(div_scalar_mode_out, ct_div_scalar_mode(ARG_T(0), args[1], mode_str(&args[2])), 3)

/* div.out: true division into out (the rounding modes are div.out_mode's) */
CT_BIN_TT_OUT(div_out, CT_BIN_DIV_TRUE)
