/* The kernels built once per CPU capability (internal).
 *
 * Note [CPU capabilities]
 *   ATen compiles its kernel files (aten/src/ATen/native/cpu/) several times, once per CPU
 *   capability (DEFAULT, AVX2, AVX512), each with its own -m flags, and picks one set at run time
 *   from CPUID (DispatchStub, overridable with ATEN_CPU_CAPABILITY). ctorch does the same with the
 *   files in src/ops/cpu/vec/: CMake builds each into one object library per capability with
 *   CT_CPU_CAP set to DEFAULT, AVX2 or AVX512, every exported name gets that suffix through
 *   CT_VEC(), and each build exports one table, ct_vec_kernels_<CAP>. src/ops/cpu/capability.c
 *   detects the CPU once and hands out the table (ct_vec()); CTORCH_CPU_CAPABILITY=default|avx2|
 *   avx512 pins a level (never above what the CPU has). Only plain C is written here: the loops
 *   are vectorised by the compiler for the level's instruction set, and every operation is the
 *   IEEE one the scalar code does (the kernel files are built with -ffp-contract=off; a fused
 *   multiply-add appears only where written as fma()/fmaf(), i.e. where PyTorch fuses), so a
 *   pointwise result never depends on the level; neither does a sum (Note [Cascade sum]). The
 *   float32 layer norm and softmax kernels (norm_vec.c, softmax_vec.c), the 2-norm (sum_vec.c)
 *   and GELU (gelu_vec.c, oneDNN's kernel) are the exception, as in PyTorch: they follow its
 *   kernel at each level, lanes, fused multiply-adds and SLEEF's exp/log included, so their
 *   last bits depend on the level exactly as PyTorch's do; so do the unary family's
 *   transcendental functions (unary_vec.c: SLEEF's at AVX2/AVX512, the C library's at DEFAULT). The
 *   register-blocked GEMM of builds without a BLAS (Note [Small GEMM]) sums a dot product in
 *   vector lanes, as a BLAS does, so its last bit can depend on the level, as a BLAS's does.
 *
 * Loops have ATen's loop2d shape: data[k] is operand k's first element (outputs first), strides
 * holds the byte strides of the inner dimension for every operand, then those of the outer
 * dimension; the loop covers size0 x size1 elements. */
#ifndef CT_VEC_KERNELS_H
#define CT_VEC_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dtype.h"

typedef void (*ct_loop2d_fn)(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx);

/* The pointwise operations with vectorised loops. ADD is a + alpha*b as one fused multiply-add
 * (see Note [Fused add] in pointwise.c); ADD1/SUB1 are alpha = 1 / -1, where the fused result
 * equals a plain a + b / a - b, so no fused multiply-add is needed. */
typedef enum ct_vec_op {
    CT_VOP_ADD,
    CT_VOP_ADD1,
    CT_VOP_SUB1,
    CT_VOP_MUL,
    CT_VOP_DIV,
    CT_VOP_NEG,
    CT_VOP_CLAMP_MIN,    /* a, alpha = min; NaN stays NaN */
    CT_VOP_THRESHOLD_BW, /* b <= alpha ? 0 : a */
    CT_VOP_COUNT
} ct_vec_op;

/* The binary family's float32 loops (binary_vec.c): the comparisons write bool (one byte), the
 * others float. SQUARE is pow(a, 2) = a * a (b unused). */
typedef enum ct_vec_bin_op {
    CT_VBIN_EQ, CT_VBIN_NE, CT_VBIN_LT, CT_VBIN_LE, CT_VBIN_GT, CT_VBIN_GE,
    CT_VBIN_MINIMUM, CT_VBIN_MAXIMUM, CT_VBIN_FMIN, CT_VBIN_FMAX, CT_VBIN_SQUARE,
    CT_VBIN_COUNT
} ct_vec_bin_op;

/* The element types with vectorised loops (one dtype for every operand). */
typedef enum ct_vec_type { CT_VT_F32, CT_VT_F64, CT_VT_I64, CT_VT_COUNT } ct_vec_type;

/* ctx of a pointwise loop */
typedef struct ct_vec_scalars {
    double alpha;    /* float64 (and, rounded, float32) */
    float alpha_f;   /* alpha rounded to float once, as the kernel's alpha.to<float>() */
    int64_t alpha_i; /* int64 */
} ct_vec_scalars;

/* ctx of a fill loop: the value's bytes in the destination dtype */
typedef struct ct_vec_fill {
    unsigned char bytes[8];
    int size;
} ct_vec_fill;

/* ctx of the cascade-sum loop */
typedef struct ct_vec_sum {
    ct_dtype dtype; /* float32 or float64: input and output */
} ct_vec_sum;

typedef struct ct_vec_kernels {
    const char *name;    /* "DEFAULT", "AVX2", "AVX512" */
    /* loops over (out, a[, b]); NULL where the op has none for the type */
    ct_loop2d_fn pointwise[CT_VOP_COUNT][CT_VT_COUNT];
    /* copy between operands of one element size (1, 2, 4 or 8 bytes): (dst, src) */
    ct_loop2d_fn copy_same[4];
    /* float32 <-> float64 conversions: (dst, src) */
    ct_loop2d_fn f32_from_f64, f64_from_f32;
    /* fill: (dst) with ct_vec_fill */
    ct_loop2d_fn fill;
    /* cascade sum (out, in) with ct_vec_sum, see Note [Cascade sum] */
    ct_loop2d_fn cascade_sum;
    /* float32 layer norm of M contiguous rows of N (Note [Layer norm order] in norm_vec.c): y, and
     * mean and rstd per row; gamma/beta may be NULL */
    void (*layer_norm_rows_f32)(const float *x, const float *gamma, const float *beta, int64_t M, int64_t N, float eps,
                                float *y, float *mean, float *rstd);
    /* its backward for one row: dx (when not NULL), and dy*(x-mean)*rstd / dy added into
     * acc_gamma / acc_beta (when not NULL) */
    void (*layer_norm_bw_row_f32)(const float *dy, const float *x, float mean, float rstd, const float *gamma, int64_t N,
                                  float *dx, float *acc_gamma, float *acc_beta);
    /* float32 softmax backward (Note [Softmax backward order] in softmax_vec.c): a row of n
     * contiguous elements, and a column of len elements `inner` apart */
    void (*softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi);
    void (*softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, float *gi);
    /* float32 softmax, log_softmax and log_softmax backward over a row of n contiguous elements */
    void (*softmax_lastdim_f32)(const float *x, int64_t n, float *y);
    /* float32 softmax over another dimension of a contiguous [outer, len, inner], columns
     * [begin, end) of its outer * inner (one chunk of the split: Note [Softmax over a dimension]
     * in softmax_vec.c) */
    void (*softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t begin, int64_t end, float *y);
    void (*log_softmax_lastdim_f32)(const float *x, int64_t n, float *y);
    /* float32 log_softmax and its backward over another dimension: one block of `size` adjacent
     * columns of len elements `inner` apart, with 2 * size (forward) or size (backward) floats of
     * scratch (Note [Log softmax over a dimension] in softmax_vec.c) */
    void (*log_softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t size, float *scratch, float *y);
    void (*log_softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, int64_t size, float *scratch,
                                   float *gi);
    void (*log_softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi);
    /* float32 GELU (approximate='none') and its backward dx = dy * gelu'(x) over n contiguous
     * elements, as oneDNN runs them for PyTorch (Note [GELU as oneDNN runs it] in gelu_vec.c) */
    void (*gelu_f32)(const float *x, int64_t n, float *y);
    void (*gelu_bw_f32)(const float *dy, const float *x, int64_t n, float *dx);
    /* the optimizer's float32 loops over n contiguous elements (optim_vec.c): out may be the
     * first input (the in-place forms) */
    void (*lerp_f32)(const float *a, const float *b, float w, int64_t n, float *o);
    void (*addcmul_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o);
    void (*addcdiv_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o);
    /* the unary math family's float32 loop over n contiguous elements (unary_vec.c): op is a
     * ct_uv_op of unary_vec.h; false when op has no loop here */
    bool (*unary_f32)(int op, const float *x, int64_t n, float *y);
    /* the activations' float32 loop over n contiguous elements (nnact_vec.c): op is a
     * ct_nnv_op of nnact_vec.h, par its parameters */
    void (*nnact_f32)(int op, const float *x, int64_t n, const float *par, float *y);
    /* the float32 2-norm of n contiguous elements in PyTorch's order (Note [2-norm order] in
     * sum_vec.c) */
    float (*norm2_f32)(const float *x, int64_t n);
    /* Register-blocked float32 GEMM, column-major BLAS semantics (see gemm.h; Note [Small GEMM]
     * in gemm_vec.c): the float32 products of a build without a BLAS. Returns false when it does
     * not handle the call (the DEFAULT level; a transposed op(B) too large to pack), then the
     * caller uses its plain loop. */
    bool (*sgemm_small)(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                        int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
    /* the binary family's float32 loop over n contiguous elements: out[i] = op(a[i], b[i * b_step])
     * (b_step 0: a scalar other), out bool for the comparisons, float otherwise */
    void (*binary_f32)(ct_vec_bin_op op, const float *a, const float *b, int64_t b_step, int64_t n, void *out);
    /* float32 batch norm (Note [Batch norm order] in bnorm_vec.c): y = x * alpha + beta of a plane
     * or of a row of C channels; the per-channel alpha and beta; the backward's per-plane sums of dy
     * and (x - mean) * dy and its dx; the channels-last kernels' per-row accumulations and dx */
    void (*bn_apply_f32)(const float *x, int64_t n, float alpha, float beta, float *y);
    void (*bn_apply_cl_f32)(const float *x, const float *alpha, const float *beta, int64_t C, float *y);
    void (*bn_terms_f32)(int64_t C, const float *mean, const float *invstd, const float *w, const float *b, float *alpha,
                         float *beta);
    void (*bn_bw_plane_f32)(const float *x, const float *dy, float mean, int64_t n, float *sum, float *dotp);
    void (*bn_bw_dx_f32)(const float *x, const float *dy, int64_t n, float mean, float k, float grad_mean, float invstd,
                         float w, float *dx);
    void (*bn_cl_accum_f32)(const float *x, const float *mean, int64_t C, float *buf);
    void (*bn_cl_bw_accum_f32)(const float *x, const float *dy, const float *mean, int64_t C, float *sum, float *dotp);
    void (*bn_cl_bw_dx_f32)(const float *x, const float *dy, const float *mean, const float *invstd, const float *sum,
                            const float *dotp, const float *w, float nf, int64_t C, float *dx);
    /* float32 group norm (Note [Group norm order] in gnorm_vec.c): one group's y, mean and rstd;
     * a plane's ds and db; one group's dx; dgamma and dbeta */
    void (*gn_group_f32)(const float *x, const float *gamma, const float *beta, int64_t D, int64_t HxW, double eps, float *y,
                         float *mean, float *rstd);
    void (*gn_plane_grads_f32)(const float *dy, const float *x, int64_t n, float *ds, float *db);
    void (*gn_input_bw_f32)(const float *dy, const float *x, const float *ds, const float *db, const float *gamma, int64_t D,
                            int64_t HxW, float mean, float rstd, float *dx);
    void (*gn_params_bw_f32)(const float *ds, const float *db, const float *mean, const float *rstd, int64_t N, int64_t C,
                             int64_t G, float *dgamma, float *dbeta);
    /* float32 bilinear upsampling (Note [Bilinear order] in resample_vec.c): one dimension's
     * indices and weights, one plane forward and backward */
    void (*linear_weights_f32)(int64_t in, int64_t out, bool align_corners, float scale, int64_t *i0, int64_t *i1, float *l0,
                               float *l1);
    void (*bilinear_plane_f32)(const float *x, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                               const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1, const float *wl0,
                               const float *wl1, bool combined, float *y);
    void (*bilinear_plane_bw_f32)(const float *g, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                                  const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1, const float *wl0,
                                  const float *wl1, float *gi);
} ct_vec_kernels;

#define CT_VEC_CAT_(a, b) a##_##b
#define CT_VEC_CAT(a, b) CT_VEC_CAT_(a, b)
/* The per-capability name of a kernel-file symbol: CT_VEC(foo) is foo_AVX2 in the AVX2 build. */
#define CT_VEC(name) CT_VEC_CAT(name, CT_CPU_CAP)

/* Each capability build exports its table. */
extern const ct_vec_kernels ct_vec_kernels_DEFAULT;
#ifdef CTORCH_HAVE_CPU_AVX2
extern const ct_vec_kernels ct_vec_kernels_AVX2;
#endif
#ifdef CTORCH_HAVE_CPU_AVX512
extern const ct_vec_kernels ct_vec_kernels_AVX512;
#endif

/* The bytes of ATen's Vectorized<T> whose lanes fix the cascade sum's order (Note [Cascade sum]
 * in sum_vec.c): 32 (8 floats, 4 doubles), at every level. */
#define CT_VEC_BYTES 32

#endif
