/* Element types: the dtype table's entries and the answers made from them (Note [The dtype table]
 * in ctorch/dtype.h), and 16-bit float conversions (round to nearest even, as c10::Half /
 * c10::BFloat16). */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "core/dtype_impl.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"

const ct_dtype_info ct_dtype_infos[CT_DTYPE_SLOTS] = {
#define INFO_(e, n, c10, name, alias, size, kind, reduced, sgn, digits, max, opmath, meta, cpp, legacy, msg) \
    [n] = {c10, name, alias, "torch." name, meta, cpp, legacy, msg, max, size, kind, opmath, digits, true, reduced, sgn},
    CT_DTYPE_TABLE(INFO_)
#undef INFO_
};

bool ct_dtype_valid(int d) { return ct_dtype_info_of(d) != NULL; }

size_t ct_dtype_size(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->size : 0;
}

const char *ct_dtype_name(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->c10_name : "UNKNOWN_SCALAR";
}

const char *ct_dtype_python_name(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->python_name : "torch.undefined";
}

const char *ct_dtype_type_meta_name(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->type_meta : "nullptr (uninitialized)";
}

const char *ct_dtype_legacy_type_name(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->legacy_type : "torch.Tensor";
}

ct_dtype_kind ct_dtype_kind_of(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->kind : CT_DTYPE_KIND_BOOL;
}

bool ct_dtype_is_floating(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i && i->kind == CT_DTYPE_KIND_FLOATING;
}

bool ct_dtype_is_integral(ct_dtype d, bool include_bool) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i && (i->kind == CT_DTYPE_KIND_INTEGRAL || (include_bool && i->kind == CT_DTYPE_KIND_BOOL));
}

bool ct_dtype_is_reduced_floating(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i && i->reduced;
}

bool ct_dtype_is_signed(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i && i->is_signed;
}

/* torch.set_default_dtype's dtype: one for the process, as PyTorch's (not per thread) */
static _Atomic int default_dtype = CT_FLOAT32;

ct_dtype ct_default_dtype(void) { return (ct_dtype)atomic_load_explicit(&default_dtype, memory_order_relaxed); }

int ct_set_default_dtype(ct_dtype dtype) {
    if (!ct_dtype_is_floating(dtype))
        return ct_error_set(CT_ERR_TYPE, "only floating-point types are supported as the default type");
    atomic_store_explicit(&default_dtype, (int)dtype, memory_order_relaxed);
    return 0;
}

int ct_dtype_check_value(ct_dtype d, double v, bool integral) {
    const ct_dtype_info *info = ct_dtype_info_of((int)d);
    if (!info || info->kind == CT_DTYPE_KIND_BOOL) return 0;
    bool floating = info->kind == CT_DTYPE_KIND_FLOATING, overflow;
    /* lowest(): -max for a float, -max - 1 for a signed integer (exact for int8 to int32; int64's
     * is -2^63, which -max rounds to as a double already) */
    double hi = info->max, lo = !info->is_signed ? 0.0 : floating ? -hi : -hi - 1.0;
    if (integral) overflow = v > hi || (info->is_signed || floating ? v < lo : v < -hi);
    else if (floating && isinf(v)) overflow = false;
    else if (isnan(v)) overflow = !floating;
    else overflow = v < lo || v > hi;
    if (overflow)
        return ct_error_set(CT_ERR_RUNTIME, "value cannot be converted to type %s without overflow", info->cpp_name);
    return 0;
}

/* c10::promoteTypes from the table's facts: of two categories the higher one's dtype; in one
 * category the wider dtype; two of one width (float16 and bfloat16) meet at the narrowest dtype
 * of their category that is wider than both (float32). */
ct_dtype ct_dtype_promote(ct_dtype a, ct_dtype b) {
    const ct_dtype_info *x = ct_dtype_info_of((int)a), *y = ct_dtype_info_of((int)b);
    if (!x || !y) return CT_DTYPE_UNDEFINED;
    if (a == b) return a;
    if (x->kind != y->kind) return x->kind > y->kind ? a : b;
    if (x->size != y->size) return x->size > y->size ? a : b;
    ct_dtype best = CT_DTYPE_UNDEFINED;
    for (int d = 0; d < CT_DTYPE_SLOTS; d++) {
        const ct_dtype_info *i = ct_dtype_info_of(d);
        if (i && i->kind == x->kind && i->size > x->size && (best == CT_DTYPE_UNDEFINED || i->size < ct_dtype_infos[best].size))
            best = (ct_dtype)d;
    }
    return best;
}

/* c10::canCast: never down a category (floating to integral or bool, integral to bool). */
bool ct_dtype_can_cast(ct_dtype from, ct_dtype to) {
    const ct_dtype_info *x = ct_dtype_info_of((int)from), *y = ct_dtype_info_of((int)to);
    return x && y && y->kind >= x->kind;
}

static uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t ct_float_to_half(float f) {
    uint32_t x = f2u(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) /* inf or nan */
        return (uint16_t)(sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (absx >= 0x477ff000u) /* rounds to >= 65520: overflow to inf */
        return (uint16_t)(sign | 0x7c00u);
    if (absx < 0x38800000u) { /* below the smallest normal half: subnormal or zero */
        /* value * 2^24 rounded to nearest even gives the subnormal mantissa */
        float v = u2f(absx) * 16777216.0f; /* exact: scaling by a power of two */
        float r = nearbyintf(v);           /* default rounding mode: nearest even */
        return (uint16_t)(sign | (uint32_t)r);
    }
    uint32_t mant = absx & 0x7fffffu;
    int32_t exp = (int32_t)(absx >> 23) - 127 + 15;
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* carries into the exponent correctly */
    return (uint16_t)(sign | h);
}

float ct_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0) {
        float v = (float)mant * (1.0f / 16777216.0f); /* mant * 2^-24 */
        return sign ? -v : v;
    }
    if (exp == 31) return u2f(sign | 0x7f800000u | (mant << 13));
    return u2f(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t ct_float_to_bfloat16(float f) {
    uint32_t u = f2u(f);
    if (f != f) return 0x7fc0u; /* NaN */
    uint32_t bias = ((u >> 16) & 1u) + 0x7fffu;
    return (uint16_t)((u + bias) >> 16);
}

float ct_bfloat16_to_float(uint16_t b) { return u2f((uint32_t)b << 16); }
