/* Element types and 16-bit float conversions (round to nearest even, as c10::Half / c10::BFloat16). */
#include <math.h>
#include <string.h>

#include "ctorch/dtype.h"

bool ct_dtype_valid(int d) {
    return d == CT_INT64 || d == CT_FLOAT16 || d == CT_FLOAT32 || d == CT_FLOAT64 || d == CT_BOOL ||
           d == CT_BFLOAT16;
}

size_t ct_dtype_size(ct_dtype d) {
    switch (d) {
    case CT_INT64: return 8;
    case CT_FLOAT16: return 2;
    case CT_FLOAT32: return 4;
    case CT_FLOAT64: return 8;
    case CT_BOOL: return 1;
    case CT_BFLOAT16: return 2;
    default: return 0;
    }
}

const char *ct_dtype_name(ct_dtype d) {
    switch (d) {
    case CT_INT64: return "Long";
    case CT_FLOAT16: return "Half";
    case CT_FLOAT32: return "Float";
    case CT_FLOAT64: return "Double";
    case CT_BOOL: return "Bool";
    case CT_BFLOAT16: return "BFloat16";
    default: return "UNKNOWN_SCALAR";
    }
}

const char *ct_dtype_python_name(ct_dtype d) {
    switch (d) {
    case CT_INT64: return "torch.int64";
    case CT_FLOAT16: return "torch.float16";
    case CT_FLOAT32: return "torch.float32";
    case CT_FLOAT64: return "torch.float64";
    case CT_BOOL: return "torch.bool";
    case CT_BFLOAT16: return "torch.bfloat16";
    default: return "torch.undefined";
    }
}

const char *ct_dtype_type_meta_name(ct_dtype d) {
    switch (d) {
    case CT_INT64: return "long int";
    case CT_FLOAT16: return "c10::Half";
    case CT_FLOAT32: return "float";
    case CT_FLOAT64: return "double";
    case CT_BOOL: return "bool";
    case CT_BFLOAT16: return "c10::BFloat16";
    default: return "nullptr (uninitialized)";
    }
}

bool ct_dtype_is_floating(ct_dtype d) {
    return d == CT_FLOAT16 || d == CT_FLOAT32 || d == CT_FLOAT64 || d == CT_BFLOAT16;
}

ct_dtype ct_default_dtype(void) { return CT_FLOAT32; }

/* c10::promoteTypes restricted to ctorch's dtypes. */
ct_dtype ct_dtype_promote(ct_dtype a, ct_dtype b) {
    if (a == b) return a;
    if (a == CT_BOOL) return b;
    if (b == CT_BOOL) return a;
    if (a == CT_INT64) return b;
    if (b == CT_INT64) return a;
    /* both floating and different */
    if (a == CT_FLOAT64 || b == CT_FLOAT64) return CT_FLOAT64;
    if (a == CT_FLOAT32 || b == CT_FLOAT32) return CT_FLOAT32;
    return CT_FLOAT32; /* Half + BFloat16 -> Float */
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
