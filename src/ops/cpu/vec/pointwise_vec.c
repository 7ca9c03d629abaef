/* Pointwise loops, built once per CPU capability (Note [CPU capabilities] in vec_kernels.h).
 *
 * Each loop has the three inner-loop shapes of ATen's VectorizedLoop2d: every operand
 * contiguous, one input of stride 0 (a scalar repeated along the row: a bias, a wrapped
 * number) with the others contiguous, and any strides. The first two are plain counted loops
 * over arrays, which the compiler vectorises at each level's width; the last walks bytes. An
 * element's value is the same in all three: the operation is the same IEEE one. */
#include <math.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

/* The element operations. a: first input, b: second input, al: the op's scalar. */
static inline float add_f32(float a, float b, float al) { return fmaf(al, b, a); } /* Note [Fused add] */
static inline double add_f64(double a, double b, double al) { return fma(al, b, a); }
static inline int64_t add_i64(int64_t a, int64_t b, int64_t al) { return (int64_t)((uint64_t)a + (uint64_t)al * (uint64_t)b); }
static inline float add1_f32(float a, float b, float al) { (void)al; return a + b; }
static inline double add1_f64(double a, double b, double al) { (void)al; return a + b; }
static inline int64_t add1_i64(int64_t a, int64_t b, int64_t al) { (void)al; return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline float sub1_f32(float a, float b, float al) { (void)al; return a - b; }
static inline double sub1_f64(double a, double b, double al) { (void)al; return a - b; }
static inline int64_t sub1_i64(int64_t a, int64_t b, int64_t al) { (void)al; return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline float mul_f32(float a, float b, float al) { (void)al; return a * b; }
static inline double mul_f64(double a, double b, double al) { (void)al; return a * b; }
static inline int64_t mul_i64(int64_t a, int64_t b, int64_t al) { (void)al; return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline float div_f32(float a, float b, float al) { (void)al; return a / b; }
static inline double div_f64(double a, double b, double al) { (void)al; return a / b; }
static inline float threshold_bw_f32(float a, float b, float al) { return b <= al ? 0.0f : a; }
static inline double threshold_bw_f64(double a, double b, double al) { return b <= al ? 0.0 : a; }
static inline int64_t threshold_bw_i64(int64_t a, int64_t b, int64_t al) { return b <= al ? 0 : a; }
static inline float neg_f32(float a, float al) { (void)al; return -a; }
static inline double neg_f64(double a, double al) { (void)al; return -a; }
static inline int64_t neg_i64(int64_t a, int64_t al) { (void)al; return (int64_t)(0 - (uint64_t)a); }
/* clamp_min keeps NaN (a != a) */
static inline float clamp_min_f32(float a, float al) { return a != a ? a : (a < al ? al : a); }
static inline double clamp_min_f64(double a, double al) { return a != a ? a : (a < al ? al : a); }
static inline int64_t clamp_min_i64(int64_t a, int64_t al) { return a < al ? al : a; }

#define ALPHA_float(sc) ((sc)->alpha_f)
#define ALPHA_double(sc) ((sc)->alpha)
#define ALPHA_int64_t(sc) ((sc)->alpha_i)

/* out = OP(a, b): data = {out, a, b} */
#define BINARY_LOOP(OP, T)                                                                                      \
    CT_VEC_LOOP(ct_vec_##OP) {                                                                                  \
        const T al = ALPHA_##T((const ct_vec_scalars *)ctx);                                                    \
        const int64_t so = strides[0], sa = strides[1], sb = strides[2];                                        \
        const int64_t es = (int64_t)sizeof(T);                                                                  \
        for (int64_t j = 0; j < size1; j++) {                                                                   \
            char *po = data[0] + j * strides[3];                                                                \
            const char *pa = data[1] + j * strides[4], *pb = data[2] + j * strides[5];                          \
            if (so == es && sa == es && sb == es) {                                                             \
                T *o = (T *)po;                                                                                 \
                const T *x = (const T *)pa, *y = (const T *)pb;                                                 \
                for (int64_t i = 0; i < size0; i++) o[i] = OP(x[i], y[i], al);                                  \
            } else if (so == es && sa == es && sb == 0) {                                                       \
                T *o = (T *)po;                                                                                 \
                const T *x = (const T *)pa, y = *(const T *)pb;                                                 \
                for (int64_t i = 0; i < size0; i++) o[i] = OP(x[i], y, al);                                     \
            } else if (so == es && sa == 0 && sb == es) {                                                       \
                T *o = (T *)po;                                                                                 \
                const T x = *(const T *)pa, *y = (const T *)pb;                                                 \
                for (int64_t i = 0; i < size0; i++) o[i] = OP(x, y[i], al);                                     \
            } else {                                                                                            \
                for (int64_t i = 0; i < size0; i++)                                                             \
                    *(T *)(po + i * so) = OP(*(const T *)(pa + i * sa), *(const T *)(pb + i * sb), al);         \
            }                                                                                                   \
        }                                                                                                       \
    }

/* out = OP(a): data = {out, a} */
#define UNARY_LOOP(OP, T)                                                                                       \
    CT_VEC_LOOP(ct_vec_##OP) {                                                                                  \
        const T al = ALPHA_##T((const ct_vec_scalars *)ctx);                                                    \
        const int64_t so = strides[0], sa = strides[1];                                                         \
        const int64_t es = (int64_t)sizeof(T);                                                                  \
        for (int64_t j = 0; j < size1; j++) {                                                                   \
            char *po = data[0] + j * strides[2];                                                                \
            const char *pa = data[1] + j * strides[3];                                                          \
            if (so == es && sa == es) {                                                                         \
                T *o = (T *)po;                                                                                 \
                const T *x = (const T *)pa;                                                                     \
                for (int64_t i = 0; i < size0; i++) o[i] = OP(x[i], al);                                        \
            } else {                                                                                            \
                for (int64_t i = 0; i < size0; i++) *(T *)(po + i * so) = OP(*(const T *)(pa + i * sa), al);    \
            }                                                                                                   \
        }                                                                                                       \
    }

BINARY_LOOP(add_f32, float)
BINARY_LOOP(add_f64, double)
BINARY_LOOP(add_i64, int64_t)
BINARY_LOOP(add1_f32, float)
BINARY_LOOP(add1_f64, double)
BINARY_LOOP(add1_i64, int64_t)
BINARY_LOOP(sub1_f32, float)
BINARY_LOOP(sub1_f64, double)
BINARY_LOOP(sub1_i64, int64_t)
BINARY_LOOP(mul_f32, float)
BINARY_LOOP(mul_f64, double)
BINARY_LOOP(mul_i64, int64_t)
BINARY_LOOP(div_f32, float)
BINARY_LOOP(div_f64, double)
BINARY_LOOP(threshold_bw_f32, float)
BINARY_LOOP(threshold_bw_f64, double)
BINARY_LOOP(threshold_bw_i64, int64_t)
UNARY_LOOP(neg_f32, float)
UNARY_LOOP(neg_f64, double)
UNARY_LOOP(neg_i64, int64_t)
UNARY_LOOP(clamp_min_f32, float)
UNARY_LOOP(clamp_min_f64, double)
UNARY_LOOP(clamp_min_i64, int64_t)
