/* The binary family's float32 loops, built once per CPU capability (Note [CPU capabilities] in
 * vec_kernels.h): the comparisons, minimum/maximum, fmin/fmax and pow by 2 over contiguous
 * operands, a scalar other repeated. Plain counted loops over arrays with the select written
 * branch-free, which the compiler vectorises at each level's width; each element is the same IEEE
 * operation binary.c's element loop does (of two equal values, 0 and -0, minimum and maximum keep
 * the first, as std::min / std::max do), so the result never depends on the level. */
#include <stdint.h>

#include "ops/cpu/vec/vec_impl.h"

static inline float vmin(float a, float b) { return a != a ? a : b != b ? b : (b < a ? b : a); }
static inline float vmax(float a, float b) { return a != a ? a : b != b ? b : (a < b ? b : a); }
static inline float vfmin(float a, float b) { return a != a ? b : b != b ? a : (b < a ? b : a); }
static inline float vfmax(float a, float b) { return a != a ? b : b != b ? a : (a < b ? b : a); }

#define LOOP(T, EXPR)                                                                                            \
    do {                                                                                                         \
        T *o = (T *)out;                                                                                         \
        if (b_step) {                                                                                            \
            for (int64_t i = 0; i < n; i++) {                                                                    \
                const float x = a[i], y = b[i];                                                                  \
                o[i] = (T)(EXPR);                                                                                \
            }                                                                                                    \
        } else {                                                                                                 \
            const float y = b[0];                                                                                \
            for (int64_t i = 0; i < n; i++) {                                                                    \
                const float x = a[i];                                                                            \
                o[i] = (T)(EXPR);                                                                                \
            }                                                                                                    \
        }                                                                                                        \
    } while (0)

void CT_VEC(ct_vec_binary_f32)(ct_vec_bin_op op, const float *a, const float *b, int64_t b_step, int64_t n, void *out) {
    switch (op) {
    case CT_VBIN_EQ: LOOP(uint8_t, x == y); break;
    case CT_VBIN_NE: LOOP(uint8_t, x != y); break;
    case CT_VBIN_LT: LOOP(uint8_t, x < y); break;
    case CT_VBIN_LE: LOOP(uint8_t, x <= y); break;
    case CT_VBIN_GT: LOOP(uint8_t, x > y); break;
    case CT_VBIN_GE: LOOP(uint8_t, x >= y); break;
    case CT_VBIN_MINIMUM: LOOP(float, vmin(x, y)); break;
    case CT_VBIN_MAXIMUM: LOOP(float, vmax(x, y)); break;
    case CT_VBIN_FMIN: LOOP(float, vfmin(x, y)); break;
    case CT_VBIN_FMAX: LOOP(float, vfmax(x, y)); break;
    case CT_VBIN_SQUARE: {
        float *o = out;
        for (int64_t i = 0; i < n; i++) o[i] = a[i] * a[i];
        break;
    }
    case CT_VBIN_COUNT: break;
    }
}
