/* The cascade sum of float32 and float64, built once per CPU capability.
 *
 * Note [Cascade sum]
 *   PyTorch sums floating tensors on the CPU with cascade_sum (aten/src/ATen/native/cpu/
 *   SumKernel.cpp): it accumulates in the tensor's own type, in chunks (multi_row_sum keeps four
 *   levels of partial sums, a level's chunk being 2^max(4, ceil(log2 n)/4) of the level below), over
 *   four interleaved rows at once (row_sum reads a row as (-1, 4)), and, where the reduced or the
 *   kept dimension is contiguous, over whole vectors of ATen's Vectorized<T>, whose lanes are
 *   summed last. The result depends on that vector's width. At DEFAULT and AVX2 it is 32 bytes
 *   (8 floats, 4 doubles); the PyTorch 2.6 that recorded ctorch's references gives the same sums
 *   at AVX512 too (tests/golden/torch-2.6/cascade_sum.json: the same bits at all three levels),
 *   so ctorch uses 32 bytes at every level, and its sums do not depend on the level. This file
 *   does the same additions in the same order, the lanes written as arrays of CT_VEC_BYTES, so a
 *   sum equals PyTorch's (a sum PyTorch splits between threads, over 32768 elements with several
 *   threads, is the exception; a PyTorch build with 64-byte AVX512 vectors would differ in the
 *   last bit).
 *   The loop is TensorIterator's 2-d reduction loop: data = {out, in}, the output strides 0 on
 *   reduced dimensions, the output already zeroed (cascade_sum fills it), each partial sum added
 *   into it in T. */
#include <math.h>
#include <string.h>

#include "ops/cpu/vec/vec_impl.h"

/* utils::CeilLog2 */
static inline int64_t ceil_log2(int64_t x) {
    if (x <= 2) return 1;
    uint64_t v = (uint64_t)x - 1;
    int64_t last = 63;
    while (!(v >> last)) last--;
    return last + 1;
}

/* MULTI_ROW_SUM(name, T, L): multi_row_sum over 4 rows of L lanes: element k of row i is the L
 * values at in + i*row_stride + k*col_stride; out[k] receives the sums.
 * ROW_SUM(name, T, L, mrs): row_sum: a row of `size` L-lane elements in_stride apart. */
#define MULTI_ROW_SUM(NAME, T, L)                                                                               \
    static void NAME(const char *in, int64_t row_stride, int64_t col_stride, int64_t size, T out[4][L]) {       \
        const int64_t level_power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4;                          \
        const int64_t level_step = (int64_t)1 << level_power;                                                   \
        const int64_t level_mask = level_step - 1;                                                              \
        T acc[4][4][L];                                                                                         \
        for (int a = 0; a < 4; a++)                                                                             \
            for (int k = 0; k < 4; k++)                                                                         \
                for (int l = 0; l < L; l++) acc[a][k][l] = 0;                                                   \
        int64_t i = 0;                                                                                          \
        for (; i + level_step <= size;) {                                                                       \
            for (int64_t j = 0; j < level_step; ++j, ++i) {                                                     \
                const char *base = in + i * row_stride;                                                         \
                for (int k = 0; k < 4; k++) {                                                                   \
                    const T *p = (const T *)(base + k * col_stride);                                            \
                    for (int l = 0; l < L; l++) acc[0][k][l] += p[l];                                           \
                }                                                                                               \
            }                                                                                                   \
            for (int j = 1; j < 4; ++j) {                                                                       \
                for (int k = 0; k < 4; k++)                                                                     \
                    for (int l = 0; l < L; l++) {                                                               \
                        acc[j][k][l] += acc[j - 1][k][l];                                                       \
                        acc[j - 1][k][l] = 0;                                                                   \
                    }                                                                                           \
                if ((i & (level_mask << (j * level_power))) != 0) break;                                        \
            }                                                                                                   \
        }                                                                                                       \
        for (; i < size; ++i) {                                                                                 \
            const char *base = in + i * row_stride;                                                             \
            for (int k = 0; k < 4; k++) {                                                                       \
                const T *p = (const T *)(base + k * col_stride);                                                \
                for (int l = 0; l < L; l++) acc[0][k][l] += p[l];                                               \
            }                                                                                                   \
        }                                                                                                       \
        for (int j = 1; j < 4; ++j)                                                                             \
            for (int k = 0; k < 4; k++)                                                                         \
                for (int l = 0; l < L; l++) acc[0][k][l] += acc[j][k][l];                                       \
        memcpy(out, acc[0], sizeof(T) * 4 * L);                                                                 \
    }

/* COLUMN_SUM(name, T): multi_row_sum of vectorized_outer_sum over several of its groups of 4
 * vectors at once: ncols contiguous columns (a multiple of 4 vectors, at most COLUMN_BLOCK), each
 * summed down `size` rows row_stride apart with exactly the additions multi_row_sum does for its
 * lane (each column is its own chain, so the bits are those of one group at a time). Reading a
 * wider piece of each row keeps the accumulators in L1 and the rows' reads long enough for the
 * prefetcher. */
#define COLUMN_BLOCK 256
#define COLUMN_SUM(NAME, T)                                                                                     \
    static void NAME(const char *in, int64_t row_stride, int64_t ncols, int64_t size, T *out) {                \
        const int64_t level_power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4;                          \
        const int64_t level_step = (int64_t)1 << level_power;                                                   \
        const int64_t level_mask = level_step - 1;                                                              \
        T acc[4][COLUMN_BLOCK];                                                                                 \
        for (int a = 0; a < 4; a++)                                                                             \
            for (int64_t c = 0; c < ncols; c++) acc[a][c] = 0;                                                  \
        int64_t i = 0;                                                                                          \
        for (; i + level_step <= size;) {                                                                       \
            for (int64_t j = 0; j < level_step; ++j, ++i) {                                                     \
                const T *p = (const T *)(in + i * row_stride);                                                  \
                for (int64_t c = 0; c < ncols; c++) acc[0][c] += p[c];                                          \
            }                                                                                                   \
            for (int j = 1; j < 4; ++j) {                                                                       \
                for (int64_t c = 0; c < ncols; c++) {                                                           \
                    acc[j][c] += acc[j - 1][c];                                                                 \
                    acc[j - 1][c] = 0;                                                                          \
                }                                                                                               \
                if ((i & (level_mask << (j * level_power))) != 0) break;                                        \
            }                                                                                                   \
        }                                                                                                       \
        for (; i < size; ++i) {                                                                                 \
            const T *p = (const T *)(in + i * row_stride);                                                      \
            for (int64_t c = 0; c < ncols; c++) acc[0][c] += p[c];                                              \
        }                                                                                                       \
        for (int j = 1; j < 4; ++j)                                                                             \
            for (int64_t c = 0; c < ncols; c++) acc[0][c] += acc[j][c];                                         \
        memcpy(out, acc[0], sizeof(T) * (size_t)ncols);                                                         \
    }

#define ROW_SUM(NAME, T, L, MRS)                                                                                \
    static void NAME(const char *in, int64_t in_stride, int64_t size, T out[L]) {                               \
        const int64_t size_ilp = size / 4;                                                                      \
        T partial[4][L];                                                                                        \
        MRS(in, in_stride * 4, in_stride, size_ilp, partial);                                                   \
        for (int64_t i = size_ilp * 4; i < size; ++i) {                                                         \
            const T *p = (const T *)(in + i * in_stride);                                                       \
            for (int l = 0; l < L; l++) partial[0][l] += p[l];                                                  \
        }                                                                                                       \
        for (int k = 1; k < 4; k++)                                                                             \
            for (int l = 0; l < L; l++) partial[0][l] += partial[k][l];                                         \
        memcpy(out, partial[0], sizeof(T) * L);                                                                 \
    }

/* CASCADE(T, VL, ...): the loop2d body of cascade_sum for one type, VL its vector lanes */
#define CASCADE(NAME, T, VL, MRS_S, COL_V, ROW_S, ROW_V)                                                        \
    static void NAME(char **data, const int64_t *strides, int64_t size0, int64_t size1) {                       \
        int64_t in_s[2] = {strides[1], strides[3]}, out_s[2] = {strides[0], strides[2]};                        \
        const int64_t es = (int64_t)sizeof(T);                                                                  \
        if (out_s[0] != 0 && out_s[1] == 0) { /* the reduction becomes the first dimension */                   \
            int64_t t = in_s[0];                                                                                \
            in_s[0] = in_s[1];                                                                                  \
            in_s[1] = t;                                                                                        \
            t = out_s[0];                                                                                       \
            out_s[0] = out_s[1];                                                                                \
            out_s[1] = t;                                                                                       \
            t = size0;                                                                                          \
            size0 = size1;                                                                                      \
            size1 = t;                                                                                          \
        }                                                                                                       \
        char *out = data[0];                                                                                    \
        const char *in = data[1];                                                                               \
        if (out_s[0] != 0 && out_s[1] != 0) { /* no reduction in this block: out += in */                       \
            for (int64_t j = 0; j < size1; j++)                                                                 \
                for (int64_t i = 0; i < size0; i++) {                                                           \
                    T *o = (T *)(out + j * strides[2] + i * strides[0]);                                        \
                    *o = *o + *(const T *)(in + j * strides[3] + i * strides[1]);                               \
                }                                                                                               \
            return;                                                                                             \
        }                                                                                                       \
        const int64_t out_stride = out_s[1];                                                                    \
        if (in_s[0] == es && size0 >= VL) { /* vectorized_inner_sum */                                          \
            const int64_t vec_size = size0 / VL;                                                                \
            for (int64_t j = 0; j < size1; j++) {                                                               \
                const char *row = in + j * in_s[1];                                                             \
                T vacc[VL];                                                                                     \
                ROW_V(row, VL * es, vec_size, vacc);                                                            \
                T final_acc = 0;                                                                                \
                for (int64_t k = vec_size * VL; k < size0; k++) final_acc += ((const T *)row)[k];               \
                for (int l = 0; l < VL; l++) final_acc += vacc[l];                                              \
                *(T *)(out + j * out_stride) += final_acc;                                                      \
            }                                                                                                   \
        } else if (in_s[1] == es && size1 >= VL) { /* vectorized_outer_sum */                                   \
            int64_t j = 0;                                                                                      \
            for (const int64_t groups = size1 - size1 % (4 * VL); j < groups;) {                                \
                const int64_t ncols = groups - j < COLUMN_BLOCK ? groups - j : COLUMN_BLOCK;                    \
                T sums[COLUMN_BLOCK];                                                                           \
                COL_V(in + j * es, in_s[0], ncols, size0, sums);                                                \
                for (int64_t c = 0; c < ncols; c++) *(T *)(out + (j + c) * out_stride) += sums[c];              \
                j += ncols;                                                                                     \
            }                                                                                                   \
            for (; j + VL <= size1; j += VL) {                                                                  \
                T sums[VL];                                                                                     \
                ROW_V(in + j * es, in_s[0], size0, sums);                                                       \
                for (int l = 0; l < VL; l++) *(T *)(out + (j + l) * out_stride) += sums[l];                     \
            }                                                                                                   \
            for (; j < size1; j++) {                                                                            \
                T ans[1];                                                                                       \
                ROW_S(in + j * es, in_s[0], size0, ans);                                                        \
                *(T *)(out + j * out_stride) += ans[0];                                                         \
            }                                                                                                   \
        } else if (in_s[0] < in_s[1]) { /* scalar_inner_sum */                                                  \
            for (int64_t j = 0; j < size1; j++) {                                                               \
                T ans[1];                                                                                       \
                ROW_S(in + j * in_s[1], in_s[0], size0, ans);                                                   \
                *(T *)(out + j * out_stride) += ans[0];                                                         \
            }                                                                                                   \
        } else { /* scalar_outer_sum */                                                                         \
            int64_t j = 0;                                                                                      \
            for (; j + 3 < size1; j += 4) {                                                                     \
                T sums[4][1];                                                                                   \
                MRS_S(in + j * in_s[1], in_s[0], in_s[1], size0, sums);                                         \
                for (int r = 0; r < 4; r++) *(T *)(out + (j + r) * out_stride) += sums[r][0];                   \
            }                                                                                                   \
            for (; j < size1; j++) {                                                                            \
                T ans[1];                                                                                       \
                ROW_S(in + j * in_s[1], in_s[0], size0, ans);                                                   \
                *(T *)(out + j * out_stride) += ans[0];                                                         \
            }                                                                                                   \
        }                                                                                                       \
    }

#define F32_LANES (CT_VEC_BYTES / 4)
#define F64_LANES (CT_VEC_BYTES / 8)

MULTI_ROW_SUM(mrs_f32_s, float, 1)
MULTI_ROW_SUM(mrs_f32_v, float, F32_LANES)
COLUMN_SUM(col_f32_v, float)
ROW_SUM(row_f32_s, float, 1, mrs_f32_s)
ROW_SUM(row_f32_v, float, F32_LANES, mrs_f32_v)
CASCADE(cascade_f32, float, F32_LANES, mrs_f32_s, col_f32_v, row_f32_s, row_f32_v)

MULTI_ROW_SUM(mrs_f64_s, double, 1)
MULTI_ROW_SUM(mrs_f64_v, double, F64_LANES)
COLUMN_SUM(col_f64_v, double)
ROW_SUM(row_f64_s, double, 1, mrs_f64_s)
ROW_SUM(row_f64_v, double, F64_LANES, mrs_f64_v)
CASCADE(cascade_f64, double, F64_LANES, mrs_f64_s, col_f64_v, row_f64_s, row_f64_v)

CT_VEC_LOOP(ct_vec_cascade_sum) {
    const ct_vec_sum *s = ctx;
    if (s->dtype == CT_FLOAT64) cascade_f64(data, strides, size0, size1);
    else cascade_f32(data, strides, size0, size1);
}

/* Note [2-norm order]
 *   linalg_vector_norm with ord 2 over a float32 tensor whose reduced elements are one contiguous
 *   run (the whole of a contiguous tensor, or its last dimension) takes norm_kernel_tensor_
 *   iterator_impl's fast path (aten/src/ATen/native/cpu/ReduceOpsKernel.cpp): squares added into
 *   Vectorized<float> lanes over whole vectors, the lanes summed in order, the remaining
 *   elements added one by one, then sqrt. The kernel that runs at every level has 8 lanes (the
 *   AVX512 slot is the AVX2 kernel, as for Note [Cascade sum]). Two things in GCC's build of
 *   that loop fix the last bit, measured against PyTorch 2.6 at its three ATEN_CPU_CAPABILITY
 *   levels on 79 sizes (1..69, 100, 127-129, 1000, 4096, 12345, 65536, 100003, 10^6) and a
 *   37x53 matrix's rows (tests/golden/record/norm2_cases.py):
 *   - the lane updates acc += x * x are never fused;
 *   - the scalar remainder (under 8 elements), where the level has FMA, runs as GCC vectorised
 *     it: groups of 4 squared and added in order, unfused, and the last 1-3 elements with one
 *     fused multiply-add each. At DEFAULT nothing is fused. */
float CT_VEC(ct_vec_norm2_f32)(const float *x, int64_t n) {
    float acc[F32_LANES] = {0};
    int64_t d = 0;
    for (; d < n - n % F32_LANES; d += F32_LANES)
        for (int l = 0; l < F32_LANES; l++) acc[l] = acc[l] + x[d + l] * x[d + l];
    float s = acc[0];
    for (int l = 1; l < F32_LANES; l++) s = s + acc[l];
#if defined(__FMA__)
    for (const int64_t groups = d + (n - d) / 4 * 4; d < groups; d++) s = s + x[d] * x[d];
    for (; d < n; d++) s = fmaf(x[d], x[d], s);
#else
    for (; d < n; d++) s = s + x[d] * x[d];
#endif
    return sqrtf(s);
}
