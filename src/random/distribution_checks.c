/* The random operators' argument checks and bounds, as ATen's DistributionTemplates.h computes
 * them before any number is drawn (random_'s from/to adjusted to what the dtype holds exactly,
 * uniform_'s range, normal_'s std): the messages are PyTorch's. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/dtype_impl.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "random/rng.h"

/* a kernel's "not implemented for" error (AT_DISPATCH's message; a RuntimeError in PyTorch) */
int ct_rng_not_implemented(const char *kernel, ct_dtype dtype) {
    return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ct_dtype_valid((int)dtype) ? ct_dtype_name(dtype) : "Undefined");
}

/* ---- argument checks of the operators (aten/src/ATen/native/DistributionTemplates.h) ------------ */

/* Doubles in messages print as C++'s `ostream << double` does (6 significant digits). */
#define DBL_FMT "%g"

/* static_cast<int64_t>(static_cast<scalar_t>(v)) for a floating scalar_t. The values reaching
 * it are within the dtype's range (checked after) or at least within int64 after rounding, except
 * for pathological inputs near +-2^63, which saturate here instead of being undefined. */
static int64_t through_float(int64_t v, ct_dtype dtype) {
    double d;
    switch (dtype) {
    case CT_FLOAT16: d = ct_half_to_float(ct_float_to_half((float)v)); break;
    case CT_BFLOAT16: d = ct_bfloat16_to_float(ct_float_to_bfloat16((float)v)); break;
    case CT_FLOAT32: d = (float)v; break;
    default: d = (double)v; break;
    }
    if (d >= 9223372036854775808.0) return INT64_MAX;
    if (d < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
}

/* floor(log2(|v|)) for v != 0 (PyTorch's `while (x >>= 1) ++n` on std::abs(v)). */
static int ilog2_abs(int64_t v) {
    uint64_t x = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n = 0;
    while (x >>= 1) ++n;
    return n;
}

/* update_from<scalar_t>: moves `from` right to the next value that stays >= from after the cast. */
static int64_t update_from(int64_t from, ct_dtype dtype) {
    int64_t from_plus_1 = through_float((int64_t)((uint64_t)from + 1), dtype); /* wraps like PyTorch for INT64_MAX */
    if (from_plus_1 < from) {
        int n = ilog2_abs((int64_t)((uint64_t)from + 1));
        from = from_plus_1 + (INT64_C(1) << (n - ct_dtype_digits(dtype) + 1));
    }
    return from;
}

/* update_to<scalar_t>: moves `to` left to the next value that stays < to after the cast. */
static int64_t update_to(int64_t to, ct_dtype dtype) {
    int64_t to_minus_1 = through_float(to - 1, dtype);
    if (to_minus_1 >= to) {
        int n = ilog2_abs(to - 1);
        to = to_minus_1 - (INT64_C(1) << (n - ct_dtype_digits(dtype) + 1));
    }
    return to;
}

/* check_from_to_in_range. (PyTorch also warns when a floating bound is beyond +-2^digits;
 * ctorch has no warnings.) */
static int check_from_to_in_range(int64_t from, int64_t to_inc, ct_dtype dtype) {
    const char *tn = ct_dtype_type_meta_name(dtype);
    if (ct_dtype_is_floating(dtype)) {
        double max = ct_dtype_max(dtype);
        if (!((double)from >= -max && (double)from <= max))
            return ct_error_set(CT_ERR_RUNTIME, "from is out of bounds for %s", tn);
        if (!((double)to_inc >= -max && (double)to_inc <= max))
            return ct_error_set(CT_ERR_RUNTIME, "to - 1 is out of bounds for %s", tn);
    } else {
        int64_t min = dtype == CT_BOOL ? 0 : INT64_MIN, max = dtype == CT_BOOL ? 1 : INT64_MAX;
        if (dtype != CT_BOOL && dtype != CT_INT64) { /* numeric_limits' lowest() and max() */
            max = (int64_t)ct_dtype_max(dtype);
            min = ct_dtype_is_signed(dtype) ? -max - 1 : 0;
        }
        if (from < min || from > max) return ct_error_set(CT_ERR_RUNTIME, "from is out of bounds for %s", tn);
        if (to_inc < min || to_inc > max)
            return ct_error_set(CT_ERR_RUNTIME, "to - 1 is out of bounds for %s", tn);
    }
    return 0;
}

int ct_rng_random_bounds(ct_dtype dtype, int64_t from, const int64_t *to, int64_t *base, uint64_t *range) {
    if (!ct_dtype_valid((int)dtype))
        return ct_error_set(CT_ERR_RUNTIME, "random_from_to_impl handles only integral, floating-point and boolean types");
    bool fp = ct_dtype_is_floating(dtype);
    if (to) {
        int64_t t = *to;
        if (!(from < t))
            return ct_error_set(CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                                (long long)from, (long long)t);
        if (fp) {
            from = update_from(from, dtype);
            t = update_to(t, dtype);
            if (!(from < t))
                return ct_error_set(CT_ERR_RUNTIME,
                                    "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=%lld >= to=%lld",
                                    (long long)from, (long long)t);
        }
        if (check_from_to_in_range(from, t - 1, dtype) != 0) return -1;
        *base = from;
        *range = (uint64_t)t - (uint64_t)from;
        return 0;
    }
    if (from == INT64_MIN) { /* [int64 min, int64 max]: the full 64-bit kernel */
        *base = from;
        *range = 0;
        return 0;
    }
    int64_t to_inc;
    if (fp) {
        int digits = ct_dtype_digits(dtype);
        to_inc = INT64_C(1) << digits; /* 2^digits, at most 2^53 */
        from = update_from(from, dtype);
        if (!(from < to_inc))
            return ct_error_set(CT_ERR_RUNTIME,
                                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from=%lld > to_inc=%lld",
                                (long long)from, (long long)to_inc);
    } else {
        to_inc = dtype == CT_BOOL ? 1 : dtype == CT_INT64 ? INT64_MAX : (int64_t)ct_dtype_max(dtype);
    }
    if (check_from_to_in_range(from, to_inc, dtype) != 0) return -1;
    *base = from;
    *range = (uint64_t)to_inc - (uint64_t)from + 1; /* 0 (= 2^64) cannot happen: from > INT64_MIN */
    return 0;
}

/* uniform_impl_: bounds within the dtype, from <= to, to - from representable; then both are
 * clamped into [lowest, max]. */
int ct_rng_uniform_bounds(ct_dtype dtype, double *from, double *to) {
    if (!ct_dtype_is_floating(dtype)) return ct_rng_not_implemented("check_uniform_bounds", dtype);
    const char *tn = ct_dtype_type_meta_name(dtype);
    double max = ct_dtype_max(dtype), lo = *from, hi = *to;
    if (!(lo >= -max && lo <= max)) return ct_error_set(CT_ERR_RUNTIME, "from is out of bounds for %s", tn);
    if (!(hi >= -max && hi <= max)) return ct_error_set(CT_ERR_RUNTIME, "to is out of bounds for %s", tn);
    if (!(lo <= hi))
        return ct_error_set(CT_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=" DBL_FMT " > to=" DBL_FMT,
                            lo, hi);
    if (!(hi - lo <= max))
        return ct_error_set(CT_ERR_RUNTIME,
                            "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=" DBL_FMT
                            " and from=" DBL_FMT " which result in to-from to exceed the limit",
                            ct_dtype_name(dtype), hi, lo);
    *from = fmin(fmax(lo, -max), max);
    *to = fmax(fmin(hi, max), -max);
    return 0;
}

/* CHECK_NORMAL_STD in normal_impl_. */
int ct_rng_normal_check(double std) {
    if (!(std >= 0.0)) return ct_error_set(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std " DBL_FMT, std);
    return 0;
}
