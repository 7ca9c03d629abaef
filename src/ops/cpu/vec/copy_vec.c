/* Copy, conversion and fill loops, built once per CPU capability (Note [CPU capabilities] in
 * vec_kernels.h). Rows that are contiguous on both sides move as one block (memmove), a
 * source of stride 0 (an expanded tensor: the bias addmm copies into its result) is stored
 * as a repeated value, and anything else goes element by element. */
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

/* (dst, src) of one element size; T an unsigned integer of that size */
#define COPY_LOOP(NAME, T)                                                                                      \
    CT_VEC_LOOP(NAME) {                                                                                         \
        (void)ctx;                                                                                              \
        const int64_t sd = strides[0], ss = strides[1], es = (int64_t)sizeof(T);                                \
        for (int64_t j = 0; j < size1; j++) {                                                                   \
            char *pd = data[0] + j * strides[2];                                                                \
            const char *ps = data[1] + j * strides[3];                                                          \
            if (sd == es && ss == es) {                                                                         \
                memmove(pd, ps, (size_t)(size0 * es));                                                          \
            } else if (sd == es && ss == 0) {                                                                   \
                T *d = (T *)pd;                                                                                 \
                T v;                                                                                            \
                memcpy(&v, ps, sizeof v);                                                                       \
                for (int64_t i = 0; i < size0; i++) d[i] = v;                                                   \
            } else {                                                                                            \
                for (int64_t i = 0; i < size0; i++) memcpy(pd + i * sd, ps + i * ss, sizeof(T));                \
            }                                                                                                   \
        }                                                                                                       \
    }

COPY_LOOP(ct_vec_copy_1, uint8_t)
COPY_LOOP(ct_vec_copy_2, uint16_t)
COPY_LOOP(ct_vec_copy_4, uint32_t)
COPY_LOOP(ct_vec_copy_8, uint64_t)

/* (dst, src) with a conversion that C's cast does as PyTorch's static_cast does */
#define CONVERT_LOOP(NAME, TD, TS)                                                                              \
    CT_VEC_LOOP(NAME) {                                                                                         \
        (void)ctx;                                                                                              \
        const int64_t sd = strides[0], ss = strides[1];                                                         \
        for (int64_t j = 0; j < size1; j++) {                                                                   \
            char *pd = data[0] + j * strides[2];                                                                \
            const char *ps = data[1] + j * strides[3];                                                          \
            if (sd == (int64_t)sizeof(TD) && ss == (int64_t)sizeof(TS)) {                                       \
                TD *d = (TD *)pd;                                                                               \
                const TS *s = (const TS *)ps;                                                                   \
                for (int64_t i = 0; i < size0; i++) d[i] = (TD)s[i];                                            \
            } else {                                                                                            \
                for (int64_t i = 0; i < size0; i++) *(TD *)(pd + i * sd) = (TD) * (const TS *)(ps + i * ss);   \
            }                                                                                                   \
        }                                                                                                       \
    }

CONVERT_LOOP(ct_vec_f32_from_f64, float, double)
CONVERT_LOOP(ct_vec_f64_from_f32, double, float)

/* fill (dst) with the value's bytes */
#define FILL_ROW(T)                                                                                             \
    do {                                                                                                        \
        T v;                                                                                                    \
        memcpy(&v, f->bytes, sizeof v);                                                                         \
        if (sd == (int64_t)sizeof(T)) {                                                                         \
            T *d = (T *)pd;                                                                                     \
            for (int64_t i = 0; i < size0; i++) d[i] = v;                                                       \
        } else {                                                                                                \
            for (int64_t i = 0; i < size0; i++) memcpy(pd + i * sd, &v, sizeof v);                              \
        }                                                                                                       \
    } while (0)

CT_VEC_LOOP(ct_vec_fill) {
    const ct_vec_fill *f = ctx;
    const int64_t sd = strides[0];
    for (int64_t j = 0; j < size1; j++) {
        char *pd = data[0] + j * strides[1];
        switch (f->size) {
        case 1: FILL_ROW(uint8_t); break;
        case 2: FILL_ROW(uint16_t); break;
        case 4: FILL_ROW(uint32_t); break;
        default: FILL_ROW(uint64_t); break;
        }
    }
}
