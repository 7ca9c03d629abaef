/* convolution, convolution_backward, im2col and col2im (Convolution.cpp's _convolution and
 * check_shape_forward, ConvolutionMM2d.cpp, NaiveConvolutionTranspose2d.cpp, Im2Col.cpp,
 * Col2Im.cpp).
 *
 * Every convolution runs as im2col + gemm over 1 to 3 spatial dimensions (a 1-d or 2-d
 * problem is a 3-d one with leading spatial sizes of 1): a sample's group of input planes is
 * unrolled into a [C/groups * prod(kernel)] x [prod(output)] matrix of columns and multiplied
 * by the group's weight matrix, as PyTorch's slow CPU paths (slow_conv2d, slow_conv3d,
 * slow_conv_dilated, slow_conv_transpose) do; a transposed convolution is the input gradient of
 * the ordinary one: columns = W^T x, folded back with col2im. float32 and float64 multiply in
 * the BLAS; float16 and bfloat16 compute in float32 and round once (as oneDNN's reduced-precision
 * convolutions accumulate in float), the integer types in int64, wrapping as PyTorch's integer
 * gemm does. The dtypes each path accepts are PyTorch 2.6's CPU ones (Note [Convolution dtypes]). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/conv.h"
#include "ops/cpu/gemm.h"
#include "ops/kernel_util.h"

/* ---- geometry ---- */

/* One unrolling: C planes of an image of spatial size img, read at the positions of a
 * col-sized grid (k, s, p, d per dimension); always 3 spatial dimensions. */
typedef struct cgeom {
    int64_t C;
    int64_t img[3], col[3], k[3], s[3], p[3], d[3];
} cgeom;

static inline int64_t prod3(const int64_t *v) { return v[0] * v[1] * v[2]; }

/* the convolution's parameters, expanded to its dimensions (expand_param_if_needed) */
typedef struct conv_params {
    int dim; /* spatial dimensions: weight.dim() - 2 */
    int64_t stride[3], padding[3], dilation[3], output_padding[3];
    bool transposed;
    int64_t groups;
} conv_params;

static void fmt_list(char *buf, size_t n, const int64_t *v, int64_t len) { ct_format_shape(v, (int)len, buf, n); }

static int expand_param(const ct_value *v, const char *name, int dim, int64_t *out) {
    int64_t len = v->u.list.len;
    const int64_t *d = v->u.list.data;
    if (len == 1) {
        for (int i = 0; i < dim; i++) out[i] = d[0];
        return 0;
    }
    if (len != dim) {
        char b[256];
        fmt_list(b, sizeof b, d, len);
        return ct_error_set(CT_ERR_RUNTIME,
                            "expected %s to be a single integer value or a list of %d values to match the convolution dimensions, but got %s=%s",
                            name, dim, name, b);
    }
    for (int i = 0; i < dim; i++) out[i] = d[i];
    return 0;
}

/* _convolution's checks before check_shape_forward: the weight's rank, groups, the lists */
static int parse_params(const ct_tensor *weight, const ct_value *stride, const ct_value *padding, const ct_value *dilation,
                        bool transposed, const ct_value *output_padding, int64_t groups, conv_params *cp) {
    int dim = weight->ndim - 2;
    if (dim <= 0) return ct_error_set(CT_ERR_RUNTIME, "weight should have at least three dimensions");
    if (groups <= 0) return ct_error_set(CT_ERR_RUNTIME, "non-positive groups is not supported");
    if (dim > 3) return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: convolution over %d spatial dimensions is not supported", dim);
    cp->dim = dim;
    cp->transposed = transposed;
    cp->groups = groups;
    if (expand_param(stride, "stride", dim, cp->stride) != 0 || expand_param(padding, "padding", dim, cp->padding) != 0 ||
        expand_param(dilation, "dilation", dim, cp->dilation) != 0 ||
        expand_param(output_padding, "output_padding", dim, cp->output_padding) != 0)
        return -1;
    return 0;
}

/* check_shape_forward (Convolution.cpp), over an input of rank indim and sizes isz */
static int check_shape_forward_sz(int indim, const int64_t *isz, const ct_tensor *weight, const ct_tensor *bias, const conv_params *cp) {
    char a[256], b[256];
    int dim = cp->dim;
    for (int i = 0; i < dim; i++)
        if (cp->padding[i] < 0) return ct_error_set(CT_ERR_RUNTIME, "negative padding is not supported");
    for (int i = 0; i < dim; i++)
        if (cp->output_padding[i] < 0) return ct_error_set(CT_ERR_RUNTIME, "negative output_padding is not supported");
    for (int i = 0; i < dim; i++)
        if (cp->stride[i] <= 0) return ct_error_set(CT_ERR_RUNTIME, "non-positive stride is not supported");
    for (int i = 0; i < dim; i++)
        if (cp->dilation[i] < 0) return ct_error_set(CT_ERR_RUNTIME, "dilation should be greater than zero");
    const int64_t *ws = weight->sizes;
    ct_format_shape(ws, weight->ndim, a, sizeof a);
    if (weight->ndim != indim) {
        ct_format_shape(isz, indim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight %s, but got %d-dimensional input of size %s instead",
                            weight->ndim, weight->ndim, a, indim, b);
    }
    int64_t g = cp->groups;
    if (ws[0] < g)
        return ct_error_set(CT_ERR_RUNTIME, "Given groups=%lld, expected weight to be at least %lld at dimension 0, but got weight of size %s instead",
                            (long long)g, (long long)g, a);
    if (ws[0] % g != 0)
        return ct_error_set(CT_ERR_RUNTIME, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got weight of size [%s] instead",
                            (long long)g, (long long)g, a);
    ct_format_shape(isz, indim, b, sizeof b);
    if (!cp->transposed) {
        if (isz[1] != ws[1] * g)
            return ct_error_set(CT_ERR_RUNTIME, "Given groups=%lld, weight of size %s, expected input%s to have %lld channels, but got %lld channels instead",
                                (long long)g, a, b, (long long)(ws[1] * g), (long long)isz[1]);
        if (bias && !(bias->ndim == 1 && bias->sizes[0] == ws[0])) {
            char c[256];
            ct_format_shape(bias->sizes, bias->ndim, c, sizeof c);
            return ct_error_set(CT_ERR_RUNTIME, "Given weight of size %s, expected bias to be 1-dimensional with %lld elements, but got bias of size %s instead",
                                a, (long long)ws[0], c);
        }
        bool ok = true;
        char is[256] = "", ks[256] = "";
        size_t il = 0, kl = 0;
        for (int i = 2; i < indim; i++) {
            int64_t in = isz[i] + 2 * cp->padding[i - 2];
            int64_t k = cp->dilation[i - 2] * (ws[i] - 1) + 1;
            if (in < k) ok = false;
            il += (size_t)snprintf(is + il, sizeof is - il, "%s%lld", i > 2 ? " x " : "", (long long)in);
            kl += (size_t)snprintf(ks + kl, sizeof ks - kl, "%s%lld", i > 2 ? " x " : "", (long long)k);
            if (il >= sizeof is) il = sizeof is - 1;
            if (kl >= sizeof ks) kl = sizeof ks - 1;
        }
        if (!ok)
            return ct_error_set(CT_ERR_RUNTIME,
                                "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater than actual input size",
                                is, ks);
    } else {
        if (isz[1] != ws[0])
            return ct_error_set(CT_ERR_RUNTIME, "Given transposed=1, weight of size %s, expected input%s to have %lld channels, but got %lld channels instead",
                                a, b, (long long)ws[0], (long long)isz[1]);
        if (bias && !(bias->ndim == 1 && bias->sizes[0] == ws[1] * g)) {
            char c[256];
            ct_format_shape(bias->sizes, bias->ndim, c, sizeof c);
            return ct_error_set(CT_ERR_RUNTIME,
                                "Given transposed=1, weight of size %s, expected bias to be 1-dimensional with %lld elements, but got bias of size %s instead",
                                a, (long long)(ws[1] * g), c);
        }
    }
    return 0;
}

static int check_shape_forward(const ct_tensor *input, const ct_tensor *weight, const ct_tensor *bias, const conv_params *cp) {
    return check_shape_forward_sz(input->ndim, input->sizes, weight, bias, cp);
}

/* Note [Convolution dtypes]
 *   PyTorch 2.6's CPU backends: float32, float64, bfloat16 and float16 everywhere (oneDNN, or
 *   the slow kernels); the integer types through the slow kernels only, which take every
 *   integer type but bool for an ordinary convolution (slow_conv2d_cpu, compute_columns3d),
 *   only int64 when dilated (slow_conv_dilated<>) or transposed (slow_conv_transpose2d/3d). */
static int check_dtype(const ct_tensor *input, const conv_params *cp) {
    ct_dtype dt = input->dtype;
    if (ct_dtype_is_floating(dt) || dt == CT_INT64) return 0;
    if (!ct_dtype_is_integral(dt, true))
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: convolution of %s tensors is not supported", ct_dtype_name(dt));
    bool dilated = false;
    for (int i = 0; i < cp->dim; i++) dilated |= cp->dilation[i] != 1;
    const char *kernel = NULL;
    if (cp->transposed) kernel = cp->dim == 3 ? "slow_conv_transpose3d_out_cpu" : "slow_conv_transpose2d_out_cpu";
    else if (dilated) kernel = "slow_conv_dilated<>";
    else if (dt == CT_BOOL) kernel = cp->dim == 3 ? "compute_columns3d" : "slow_conv2d_cpu";
    if (kernel) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(dt));
    return 0;
}

/* a dilation of 0 passes check_shape_forward; the CPU backends refuse it, naming the list */
static int check_dilation_zero(const conv_params *cp) {
    for (int i = 0; i < cp->dim; i++)
        if (cp->dilation[i] == 0) {
            char a[256];
            fmt_list(a, sizeof a, cp->dilation, cp->dim);
            return ct_error_set(CT_ERR_RUNTIME, "dilation should be greater than zero, but got %s", a);
        }
    return 0;
}

static int check_same_dtype(const ct_tensor *input, const ct_tensor *other) {
    if (other && other->dtype != input->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct_dtype_name(input->dtype), ct_dtype_name(other->dtype));
    return 0;
}

/* the dtype the arithmetic runs in */
static ct_dtype work_dtype(ct_dtype dt) {
    if (dt == CT_FLOAT32 || dt == CT_FLOAT64) return dt;
    if (ct_dtype_is_floating(dt)) return CT_FLOAT32;
    return CT_INT64;
}

/* t's elements, contiguous, in dtype wd: t itself (retained) or a copy. NULL t: NULL. */
static ct_tensor *contig_as(const ct_tensor *t, ct_dtype wd, bool *fail) {
    if (!t || *fail) return NULL;
    if (t->dtype == wd && ct_is_contiguous_nn(t)) return ct_tensor_retain((ct_tensor *)t);
    ct_tensor *c = ct_tensor_alloc(t->sizes, t->ndim, wd, false);
    if (!c || ct_copy_into(c, t) != 0) {
        ct_tensor_release(c);
        *fail = true;
        return NULL;
    }
    return c;
}

static inline char *tdata(const ct_tensor *t) { return (char *)t->storage->data + (size_t)t->storage_offset * ct_dtype_size(t->dtype); }

/* ---- im2col / col2im over 3 spatial dimensions, per element type ---- */

#define CT_IM2COL(T, SUF)                                                                                     \
    static void im2col_##SUF(const T *img, T *cols, const cgeom *g) {                                             \
        const int64_t L = prod3(g->col), IS = prod3(g->img);                                                      \
        int64_t row = 0;                                                                                          \
        for (int64_t c = 0; c < g->C; c++)                                                                        \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                                              \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                                          \
                    for (int64_t kw = 0; kw < g->k[2]; kw++, row++) {                                             \
                        T *dst = cols + row * L;                                                                  \
                        const T *src = img + c * IS;                                                              \
                        for (int64_t od = 0; od < g->col[0]; od++) {                                              \
                            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                                   \
                            for (int64_t oh = 0; oh < g->col[1]; oh++) {                                          \
                                int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];                               \
                                T *o = dst + (od * g->col[1] + oh) * g->col[2];                                   \
                                if (id < 0 || id >= g->img[0] || ih < 0 || ih >= g->img[1]) {                     \
                                    memset(o, 0, sizeof(T) * (size_t)g->col[2]);                                  \
                                    continue;                                                                     \
                                }                                                                                 \
                                const T *r = src + (id * g->img[1] + ih) * g->img[2];                             \
                                int64_t off = kw * g->d[2] - g->p[2], sw = g->s[2], W = g->img[2];                \
                                if (sw == 1) {                                                                    \
                                    int64_t lo = off < 0 ? -off : 0, hi = W - off;                                \
                                    if (hi > g->col[2]) hi = g->col[2];                                           \
                                    if (hi < lo) hi = lo;                                                         \
                                    if (lo > g->col[2]) lo = hi = g->col[2];                                      \
                                    if (lo) memset(o, 0, sizeof(T) * (size_t)lo);                                 \
                                    if (hi > lo) memcpy(o + lo, r + lo + off, sizeof(T) * (size_t)(hi - lo));     \
                                    if (g->col[2] > hi) memset(o + hi, 0, sizeof(T) * (size_t)(g->col[2] - hi));  \
                                } else {                                                                          \
                                    for (int64_t ow = 0; ow < g->col[2]; ow++) {                                  \
                                        int64_t iw = ow * sw + off;                                               \
                                        o[ow] = (iw >= 0 && iw < W) ? r[iw] : (T)0;                               \
                                    }                                                                             \
                                }                                                                                 \
                            }                                                                                     \
                        }                                                                                         \
                    }                                                                                             \
    }

/* adds the columns into img (which the caller zeroed or holds a partial sum) */
#define CT_COL2IM(T, SUF)                                                                                          \
    static void col2im_##SUF(const T *cols, T *img, const cgeom *g) {                                             \
        const int64_t L = prod3(g->col), IS = prod3(g->img);                                                      \
        int64_t row = 0;                                                                                          \
        for (int64_t c = 0; c < g->C; c++)                                                                        \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                                              \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                                          \
                    for (int64_t kw = 0; kw < g->k[2]; kw++, row++) {                                             \
                        const T *srcc = cols + row * L;                                                           \
                        T *dst = img + c * IS;                                                                    \
                        for (int64_t od = 0; od < g->col[0]; od++) {                                              \
                            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                                   \
                            if (id < 0 || id >= g->img[0]) continue;                                              \
                            for (int64_t oh = 0; oh < g->col[1]; oh++) {                                          \
                                int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];                               \
                                if (ih < 0 || ih >= g->img[1]) continue;                                          \
                                const T *o = srcc + (od * g->col[1] + oh) * g->col[2];                            \
                                T *r = dst + (id * g->img[1] + ih) * g->img[2];                                   \
                                int64_t off = kw * g->d[2] - g->p[2];                                             \
                                for (int64_t ow = 0; ow < g->col[2]; ow++) {                                      \
                                    int64_t iw = ow * g->s[2] + off;                                              \
                                    if (iw >= 0 && iw < g->img[2]) r[iw] += o[ow];                                \
                                }                                                                                 \
                            }                                                                                     \
                        }                                                                                         \
                    }                                                                                             \
    }

CT_IM2COL(float, f32)
CT_IM2COL(double, f64)
/* im2col of the remaining element sizes (im2col copies, whatever the type) */
CT_IM2COL(uint8_t, u8)
CT_IM2COL(uint16_t, u16)
CT_COL2IM(float, f32)
CT_COL2IM(double, f64)
CT_COL2IM(int64_t, i64)

static void im2col_any(size_t es, const void *img, void *cols, const cgeom *g) {
    switch (es) {
    case 1: im2col_u8(img, cols, g); break;
    case 2: im2col_u16(img, cols, g); break;
    case 4: im2col_f32(img, cols, g); break;
    default: im2col_f64(img, cols, g); break;
    }
}

/* float16's slow kernels keep the columns and the image in float16: every column rounded, and
 * every sum col2im forms rounded (scalar_t arithmetic), in col2im's order */
static inline float rh(float v) { return ct_half_to_float(ct_float_to_half(v)); }
static void col2im_f16(float *cols, float *img, const cgeom *g) {
    const int64_t L = prod3(g->col), IS = prod3(g->img);
    for (int64_t i = 0; i < g->C * prod3(g->k) * L; i++) cols[i] = rh(cols[i]);
    int64_t row = 0;
    for (int64_t c = 0; c < g->C; c++)
        for (int64_t kd = 0; kd < g->k[0]; kd++)
            for (int64_t kh = 0; kh < g->k[1]; kh++)
                for (int64_t kw = 0; kw < g->k[2]; kw++, row++) {
                    const float *srcc = cols + row * L;
                    float *dst = img + c * IS;
                    for (int64_t od = 0; od < g->col[0]; od++) {
                        int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];
                        if (id < 0 || id >= g->img[0]) continue;
                        for (int64_t oh = 0; oh < g->col[1]; oh++) {
                            int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];
                            if (ih < 0 || ih >= g->img[1]) continue;
                            const float *o = srcc + (od * g->col[1] + oh) * g->col[2];
                            float *r = dst + (id * g->img[1] + ih) * g->img[2];
                            int64_t off = kw * g->d[2] - g->p[2];
                            for (int64_t ow = 0; ow < g->col[2]; ow++) {
                                int64_t iw = ow * g->s[2] + off;
                                if (iw >= 0 && iw < g->img[2]) r[iw] = rh(r[iw] + o[ow]);
                            }
                        }
                    }
                }
}

static void col2im_w(ct_dtype wd, const void *cols, void *img, const cgeom *g) {
    if (wd == CT_FLOAT32) col2im_f32(cols, img, g);
    else if (wd == CT_FLOAT64) col2im_f64(cols, img, g);
    else col2im_i64(cols, img, g);
}

/* Row-major C[M x N] = op(A) op(B) + beta C, lda/ldb/ldc the row lengths as stored. */
static void mm(ct_dtype wd, bool ta, bool tb, int64_t M, int64_t N, int64_t K, const void *A, int64_t lda, const void *B,
               int64_t ldb, double beta, void *C, int64_t ldc) {
    if (M == 0 || N == 0) return;
    /* float32: ctorch's register-blocked kernels (Note [Small GEMM]) take a convolution's short and
     * wide products (16 x 1024 x 27 for 16 filters of 3x3x3 over a 32x32 image) about twice as
     * fast as OpenBLAS 0.3.21 here; the BLAS takes what they do not */
    if (wd == CT_FLOAT32 &&
        ct_vec()->sgemm_small(tb, ta, N, M, K, 1.0f, B, ldb < 1 ? 1 : ldb, A, lda < 1 ? 1 : lda, (float)beta, C, ldc < 1 ? 1 : ldc))
        return;
    ct_gemm(wd, tb, ta, N, M, K, 1.0, B, ldb < 1 ? 1 : ldb, A, lda < 1 ? 1 : lda, beta, C, ldc < 1 ? 1 : ldc);
}

/* ---- the convolution problem ---- */

typedef struct conv_job {
    ct_dtype wd;
    size_t es;
    int64_t N, G;
    int64_t Cin, Cout;      /* channels of input and output */
    int64_t in[3], out[3];  /* spatial sizes of input and output */
    int64_t k[3];
    cgeom cg;               /* the unrolling (of the input, or for a transposed one, of the output) */
    bool direct;            /* 1x1, stride 1, no padding: the image is its own column matrix */
    bool transposed_;
    bool half;              /* a float16 problem: col2im as float16's slow kernels do it */
    const char *x, *w, *b, *gy;
    char *y, *gx, *gw;
    char *cols;             /* per thread: one column matrix each */
    int64_t cols_elems;
} conv_job;

static void init_job(conv_job *j, const ct_tensor *input, const ct_tensor *weight, const conv_params *cp, ct_dtype wd) {
    memset(j, 0, sizeof *j);
    j->wd = wd;
    j->es = ct_dtype_size(wd);
    j->N = input->sizes[0];
    j->G = cp->groups;
    int dim = cp->dim, lead = 3 - dim;
    for (int i = 0; i < 3; i++) {
        j->in[i] = j->out[i] = j->k[i] = 1;
        j->cg.s[i] = j->cg.d[i] = 1;
        j->cg.p[i] = 0;
    }
    for (int i = 0; i < dim; i++) {
        int q = lead + i;
        j->in[q] = input->sizes[2 + i];
        j->k[q] = weight->sizes[2 + i];
        j->cg.s[q] = cp->stride[i];
        j->cg.p[q] = cp->padding[i];
        j->cg.d[q] = cp->dilation[i];
        if (!cp->transposed)
            j->out[q] = (j->in[q] + 2 * cp->padding[i] - cp->dilation[i] * (j->k[q] - 1) - 1) / cp->stride[i] + 1;
        else
            j->out[q] = (j->in[q] - 1) * cp->stride[i] - 2 * cp->padding[i] + cp->dilation[i] * (j->k[q] - 1) + cp->output_padding[i] + 1;
    }
    j->Cin = input->sizes[1];
    j->Cout = cp->transposed ? weight->sizes[1] * cp->groups : weight->sizes[0];
    memcpy(j->cg.k, j->k, sizeof j->k);
    if (!cp->transposed) {
        j->cg.C = j->Cin / j->G;
        memcpy(j->cg.img, j->in, sizeof j->in);
        memcpy(j->cg.col, j->out, sizeof j->out);
    } else {
        j->cg.C = j->Cout / j->G;
        memcpy(j->cg.img, j->out, sizeof j->out);
        memcpy(j->cg.col, j->in, sizeof j->in);
    }
    bool direct = true;
    for (int i = 0; i < 3; i++) direct &= j->k[i] == 1 && j->cg.s[i] == 1 && j->cg.p[i] == 0;
    j->direct = direct;
    j->cols_elems = j->cg.C * prod3(j->k) * prod3(j->cg.col);
}

static inline char *at(const char *base, int64_t elems, size_t es) { return (char *)base + (size_t)elems * es; }


/* the column matrix of an image: built into cols, or the image itself for a 1x1 unit-stride
 * convolution without padding */
static const char *unroll(const conv_job *j, const char *img, char *cols) {
    if (j->direct) return img;
    im2col_any(j->es, img, cols, &j->cg);
    return cols;
}

static char *thread_cols(const conv_job *j) {
    return j->cols ? at(j->cols, j->cols_elems * ct_get_thread_num(), j->es) : NULL;
}

/* forward of samples [begin, end) */
static int conv_fwd_chunk(void *vj, int64_t begin, int64_t end) {
    const conv_job *j = vj;
    const int64_t KS = prod3(j->k), IS = prod3(j->in), OS = prod3(j->out);
    const int64_t cgi = j->Cin / j->G, cgo = j->Cout / j->G;
    char *cols = thread_cols(j);
    for (int64_t n = begin; n < end; n++)
        for (int64_t grp = 0; grp < j->G; grp++) {
            const char *xg = at(j->x, (n * j->Cin + grp * cgi) * IS, j->es);
            char *yg = at(j->y, (n * j->Cout + grp * cgo) * OS, j->es);
            const char *wg = at(j->w, grp * cgo * cgi * KS, j->es);
            mm(j->wd, false, false, cgo, OS, cgi * KS, wg, cgi * KS, unroll(j, xg, cols), OS, 0.0, yg, OS);
        }
    return 0;
}

/* transposed forward: columns = W^T x folded into the output (zeroed by the caller) */
static int convt_fwd_chunk(void *vj, int64_t begin, int64_t end) {
    const conv_job *j = vj;
    const int64_t KS = prod3(j->k), IS = prod3(j->in), OS = prod3(j->out);
    const int64_t cgi = j->Cin / j->G, cgo = j->Cout / j->G;
    char *cols = thread_cols(j);
    for (int64_t n = begin; n < end; n++)
        for (int64_t grp = 0; grp < j->G; grp++) {
            const char *xg = at(j->x, (n * j->Cin + grp * cgi) * IS, j->es);
            char *yg = at(j->y, (n * j->Cout + grp * cgo) * OS, j->es);
            const char *wg = at(j->w, grp * cgi * cgo * KS, j->es);
            mm(j->wd, true, false, cgo * KS, IS, cgi, wg, cgo * KS, xg, IS, 0.0, j->direct ? yg : cols, IS);
            if (j->direct) continue;
            if (j->half) col2im_f16((float *)(void *)cols, (float *)(void *)yg, &j->cg);
            else col2im_w(j->wd, cols, yg, &j->cg);
        }
    return 0;
}

/* input gradient of samples [begin, end): the transposed problem of the forward (gx zeroed) */
static int conv_gx_chunk(void *vj, int64_t begin, int64_t end) {
    const conv_job *j = vj;
    const int64_t KS = prod3(j->k), IS = prod3(j->in), OS = prod3(j->out);
    const int64_t cgi = j->Cin / j->G, cgo = j->Cout / j->G;
    char *cols = thread_cols(j);
    for (int64_t n = begin; n < end; n++)
        for (int64_t grp = 0; grp < j->G; grp++) {
            char *gxg = at(j->gx, (n * j->Cin + grp * cgi) * IS, j->es);
            const char *gyg = at(j->gy, (n * j->Cout + grp * cgo) * OS, j->es);
            if (!j->transposed_) {
                const char *wg = at(j->w, grp * cgo * cgi * KS, j->es);
                mm(j->wd, true, false, cgi * KS, OS, cgo, wg, cgi * KS, gyg, OS, 0.0, j->direct ? gxg : cols, OS);
                if (j->direct) continue;
                if (j->half) col2im_f16((float *)(void *)cols, (float *)(void *)gxg, &j->cg);
                else col2im_w(j->wd, cols, gxg, &j->cg);
            } else {
                const char *wg = at(j->w, grp * cgi * cgo * KS, j->es);
                mm(j->wd, false, false, cgi, IS, cgo * KS, wg, cgo * KS, unroll(j, gyg, cols), IS, 0.0, gxg, IS);
            }
        }
    return 0;
}

/* weight gradient, summed over the samples in order */
static void conv_gw(const conv_job *j) {
    const int64_t KS = prod3(j->k), IS = prod3(j->in), OS = prod3(j->out);
    const int64_t cgi = j->Cin / j->G, cgo = j->Cout / j->G;
    char *cols = j->cols;
    for (int64_t n = 0; n < j->N; n++)
        for (int64_t grp = 0; grp < j->G; grp++) {
            const char *xg = at(j->x, (n * j->Cin + grp * cgi) * IS, j->es);
            const char *gyg = at(j->gy, (n * j->Cout + grp * cgo) * OS, j->es);
            double beta = n > 0 ? 1.0 : 0.0;
            if (!j->transposed_) {
                char *gwg = at(j->gw, grp * cgo * cgi * KS, j->es);
                mm(j->wd, false, true, cgo, cgi * KS, OS, gyg, OS, unroll(j, xg, cols), OS, beta, gwg, cgi * KS);
            } else {
                char *gwg = at(j->gw, grp * cgi * cgo * KS, j->es);
                mm(j->wd, false, true, cgi, cgo * KS, IS, xg, IS, unroll(j, gyg, cols), IS, beta, gwg, cgo * KS);
            }
        }
}

#define CT_CONV_BIAS(T, SUF)                                                                                       \
    static void add_bias_##SUF(T *y, const T *b, int64_t N, int64_t C, int64_t S) {                              \
        for (int64_t n = 0; n < N; n++)                                                                           \
            for (int64_t c = 0; c < C; c++) {                                                                     \
                T *r = y + (n * C + c) * S;                                                                       \
                for (int64_t i = 0; i < S; i++) r[i] += b[c];                                                     \
            }                                                                                                     \
    }
CT_CONV_BIAS(float, f32)
CT_CONV_BIAS(double, f64)
CT_CONV_BIAS(int64_t, i64)

static void add_bias(ct_dtype wd, char *y, const char *b, int64_t N, int64_t C, int64_t S) {
    if (wd == CT_FLOAT32) add_bias_f32((float *)y, (const float *)b, N, C, S);
    else if (wd == CT_FLOAT64) add_bias_f64((double *)y, (const double *)b, N, C, S);
    else add_bias_i64((int64_t *)y, (const int64_t *)b, N, C, S);
}

/* the bias gradient: gy summed over samples and positions, per channel */
static void bias_grad(ct_dtype wd, const char *gy, char *gb, int64_t N, int64_t C, int64_t S) {
    for (int64_t c = 0; c < C; c++) {
        if (wd == CT_INT64) {
            uint64_t acc = 0;
            for (int64_t n = 0; n < N; n++)
                for (int64_t i = 0; i < S; i++) acc += (uint64_t)((const int64_t *)gy)[(n * C + c) * S + i];
            ((int64_t *)gb)[c] = (int64_t)acc;
        } else if (wd == CT_FLOAT32) {
            double acc = 0;
            for (int64_t n = 0; n < N; n++)
                for (int64_t i = 0; i < S; i++) acc += ((const float *)gy)[(n * C + c) * S + i];
            ((float *)gb)[c] = (float)acc;
        } else {
            double acc = 0;
            for (int64_t n = 0; n < N; n++)
                for (int64_t i = 0; i < S; i++) acc += ((const double *)gy)[(n * C + c) * S + i];
            ((double *)gb)[c] = acc;
        }
    }
}

static int alloc_cols(conv_job *j, int threads) {
    if (j->direct && !j->transposed_) return 0;
    j->cols = ct_malloc((size_t)(threads > 0 ? threads : 1) * (size_t)(j->cols_elems > 0 ? j->cols_elems : 1) * j->es);
    return j->cols ? 0 : -1;
}

/* the output's shape: [N, C_out, spatial...] */
static int out_shape(const ct_tensor *input, const conv_job *j, int dim, int64_t *shape) {
    shape[0] = j->N;
    shape[1] = j->Cout;
    for (int i = 0; i < dim; i++) shape[2 + i] = j->out[3 - dim + i];
    return 2 + dim;
    (void)input;
}

/* a result of dtype dt from a work tensor w of another dtype (or w itself) */
static ct_tensor *finish(ct_tensor *w, ct_dtype dt) {
    if (!w || w->dtype == dt) return w;
    ct_tensor *r = ct_tensor_alloc(w->sizes, w->ndim, dt, false);
    if (r && ct_copy_into(r, w) != 0) {
        ct_tensor_release(r);
        r = NULL;
    }
    ct_tensor_release(w);
    return r;
}

/* convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
 *   SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor */
int ct_k_convolution(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_T(1), *bias = ARG_OPT_T(2);
    conv_params cp;
    if (parse_params(weight, &args[3], &args[4], &args[5], ARG_B(6), &args[7], ARG_I(8), &cp) != 0) return -1;
    if (check_shape_forward(input, weight, bias, &cp) != 0) return -1;
    if (check_same_dtype(input, weight) != 0 || check_same_dtype(input, bias) != 0 || check_dtype(input, &cp) != 0 ||
        check_dilation_zero(&cp) != 0)
        return -1;
    conv_job j;
    ct_dtype wd = work_dtype(input->dtype);
    init_job(&j, input, weight, &cp, wd);
    j.transposed_ = cp.transposed;
    j.half = input->dtype == CT_FLOAT16;
    int64_t shape[5];
    int nd = out_shape(input, &j, cp.dim, shape);
    for (int i = 2; i < nd; i++)
        if (shape[i] <= 0) {
            char a[128] = "", b[128] = "";
            size_t al = 0, bl = 0;
            for (int q = 0; q < cp.dim; q++) {
                al += (size_t)snprintf(a + al, sizeof a - al, "%s%lld", q ? " x " : "", (long long)input->sizes[2 + q]);
                bl += (size_t)snprintf(b + bl, sizeof b - bl, "%s%lld", q ? " x " : "", (long long)shape[2 + q]);
            }
            return ct_error_set(CT_ERR_RUNTIME, "Given input size per channel: (%s). Calculated output size per channel: (%s). Output size is too small", a, b);
        }
    bool fail = false;
    ct_tensor *yw = ct_tensor_alloc(shape, nd, wd, cp.transposed);
    if (!yw) return -1;
    int64_t numel = 1;
    for (int i = 0; i < nd; i++) numel *= shape[i];
    if (numel > 0 && input->sizes[1] > 0) {
        ct_tensor *x = contig_as(input, wd, &fail), *w = contig_as(weight, wd, &fail), *b = contig_as(bias, wd, &fail);
        int threads = ct_get_num_threads();
        if (!fail && alloc_cols(&j, threads) != 0) fail = true;
        if (!fail) {
            j.x = tdata(x);
            j.w = tdata(w);
            j.y = tdata(yw);
            ct_parallel_for(0, j.N, 1, cp.transposed ? convt_fwd_chunk : conv_fwd_chunk, &j);
            if (b) add_bias(wd, j.y, tdata(b), j.N, j.Cout, prod3(j.out));
        }
        ct_free(j.cols);
        ct_tensor_release(x);
        ct_tensor_release(w);
        ct_tensor_release(b);
    } else if (numel > 0) {
        /* no input channels: the output is the bias (zeros without one) */
        memset(tdata(yw), 0, (size_t)numel * ct_dtype_size(wd));
        ct_tensor *b = contig_as(bias, wd, &fail);
        if (b) add_bias(wd, tdata(yw), tdata(b), j.N, j.Cout, prod3(j.out));
        ct_tensor_release(b);
    }
    if (fail) {
        ct_tensor_release(yw);
        return -1;
    }
    return ct_ret(rets, 0, finish(yw, input->dtype));
}

/* convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes,
 *   SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding,
 *   SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor) */
int ct_k_convolution_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *gy = ARG_T(0), *input = ARG_T(1), *weight = ARG_T(2);
    conv_params cp;
    if (parse_params(weight, &args[4], &args[5], &args[6], ARG_B(7), &args[8], ARG_I(9), &cp) != 0) return -1;
    if (check_shape_forward(input, weight, NULL, &cp) != 0) return -1;
    if (check_same_dtype(input, weight) != 0 || check_same_dtype(input, gy) != 0 || check_dtype(input, &cp) != 0 ||
        check_dilation_zero(&cp) != 0)
        return -1;
    if (args[10].u.list.len != 3) return ct_error_set(CT_ERR_RUNTIME, "convolution_backward: output_mask needs 3 values");
    const int64_t *mask = args[10].u.list.data;
    conv_job j;
    ct_dtype wd = work_dtype(input->dtype);
    init_job(&j, input, weight, &cp, wd);
    j.transposed_ = cp.transposed;
    j.half = input->dtype == CT_FLOAT16;
    int64_t shape[5];
    int nd = out_shape(input, &j, cp.dim, shape);
    bool same = gy->ndim == nd;
    for (int i = 0; same && i < nd; i++) same = gy->sizes[i] == shape[i];
    if (!same) {
        char a[256], b[256];
        ct_format_shape(shape, nd, a, sizeof a);
        ct_format_shape(gy->sizes, gy->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "Expected grad_output to have shape %s, but got %s", a, b);
    }
    bool fail = false;
    ct_tensor *gxw = NULL, *gww = NULL, *gbw = NULL;
    if (mask[0]) fail |= !(gxw = ct_tensor_alloc(input->sizes, input->ndim, wd, true));
    if (mask[1] && !fail) fail |= !(gww = ct_tensor_alloc(weight->sizes, weight->ndim, wd, true));
    if (mask[2] && !fail) {
        int64_t c = j.Cout;
        fail |= !(gbw = ct_tensor_alloc(&c, 1, wd, true));
    }
    int64_t numel = 1;
    for (int i = 0; i < nd; i++) numel *= shape[i];
    if (!fail && numel > 0 && input->sizes[1] > 0 && (gxw || gww || gbw)) {
        ct_tensor *x = contig_as(input, wd, &fail), *w = contig_as(weight, wd, &fail), *g = contig_as(gy, wd, &fail);
        int threads = ct_get_num_threads();
        if (!fail && (gxw || gww) && alloc_cols(&j, threads) != 0) fail = true;
        if (!fail) {
            j.x = tdata(x);
            j.w = tdata(w);
            j.gy = tdata(g);
            if (gxw) {
                j.gx = tdata(gxw);
                ct_parallel_for(0, j.N, 1, conv_gx_chunk, &j);
            }
            if (gww) {
                j.gw = tdata(gww);
                conv_gw(&j);
            }
            if (gbw) bias_grad(wd, j.gy, tdata(gbw), j.N, j.Cout, prod3(j.out));
        }
        ct_free(j.cols);
        ct_tensor_release(x);
        ct_tensor_release(w);
        ct_tensor_release(g);
    }
    if (!fail) {
        gxw = finish(gxw, input->dtype);
        gww = finish(gww, input->dtype);
        gbw = finish(gbw, input->dtype);
        fail = (mask[0] && !gxw) || (mask[1] && !gww) || (mask[2] && !gbw);
    }
    if (fail) {
        ct_tensor_release(gxw);
        ct_tensor_release(gww);
        ct_tensor_release(gbw);
        return -1;
    }
    rets[0] = gxw ? ct_tensor_value(gxw) : ct_none();
    rets[1] = gww ? ct_tensor_value(gww) : ct_none();
    rets[2] = gbw ? ct_tensor_value(gbw) : ct_none();
    return 0;
}

/* ---- im2col and col2im (F.unfold, F.fold) ---- */

/* the four int[2] lists of im2col/col2im: kernel_size, dilation, padding, stride */
static int fold_lists(const ct_value *args, int first, int64_t v[4][2]) {
    static const char *const names[4] = {"kernel_size", "dilation", "padding", "stride"};
    for (int i = 0; i < 4; i++) {
        const ct_value *a = &args[first + i];
        if (a->u.list.len != 2)
            return ct_error_set(CT_ERR_RUNTIME, "It is expected %s equals to 2, but got size %lld", names[i], (long long)a->u.list.len);
        v[i][0] = a->u.list.data[0];
        v[i][1] = a->u.list.data[1];
    }
    return 0;
}

static int fold_param_checks(int64_t v[4][2], bool check_padding) {
    if (!(v[0][1] > 0 && v[0][0] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "kernel size should be greater than zero, but got kernel_height: %lld kernel_width: %lld",
                            (long long)v[0][0], (long long)v[0][1]);
    if (!(v[1][1] > 0 && v[1][0] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "dilation should be greater than zero, but got dilation_height: %lld dilation_width: %lld",
                            (long long)v[1][0], (long long)v[1][1]);
    if (check_padding && !(v[2][1] >= 0 && v[2][0] >= 0))
        return ct_error_set(CT_ERR_RUNTIME, "padding should be non-negative, but got pad_height: %lld pad_width: %lld", (long long)v[2][0],
                            (long long)v[2][1]);
    if (!(v[3][1] > 0 && v[3][0] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "stride should be greater than zero, but got stride_height: %lld stride_width: %lld",
                            (long long)v[3][0], (long long)v[3][1]);
    return 0;
}

/* div_rtn: division rounding toward negative infinity */
static int64_t div_rtn(int64_t x, int64_t y) {
    int64_t q = x / y, r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) q--;
    return q;
}

static int check_fold_dtype(const ct_tensor *t, const char *kernel) {
    if (ct_dtype_is_floating(t->dtype) || t->dtype == CT_BOOL) return 0;
    return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(t->dtype));
}

/* im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor */
int ct_k_im2col(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t v[4][2];
    if (fold_lists(args, 1, v) != 0 || fold_param_checks(v, true) != 0) return -1;
    int nd = self->ndim;
    const int64_t *s = self->sizes;
    int64_t ignored;
    /* im2col_shape_check reads input.size(1) and size(2) before it checks the rank */
    if (ct_wrap_dim(1, nd, &ignored) != 0 || ct_wrap_dim(2, nd, &ignored) != 0) return -1;
    bool ok = (nd == 3 && s[0] != 0 && s[1] != 0 && s[2] != 0) || (nd == 4 && s[1] != 0 && s[2] != 0 && s[3] != 0);
    if (!ok) {
        char a[256];
        ct_format_shape(s, nd, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s", a);
    }
    bool batched = nd == 4;
    int64_t N = batched ? s[0] : 1, C = s[nd - 3], H = s[nd - 2], W = s[nd - 1];
    int64_t oh = div_rtn(H + 2 * v[2][0] - (v[1][0] * (v[0][0] - 1) + 1), v[3][0]) + 1;
    int64_t ow = div_rtn(W + 2 * v[2][1] - (v[1][1] * (v[0][1] - 1) + 1), v[3][1]) + 1;
    if (oh < 1 || ow < 1)
        return ct_error_set(CT_ERR_RUNTIME,
                            /* PyTorch prints the height twice */
                            "Given input with spatial size (%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape of the array of sliding blocks as (%lld, %lld), but its components must be at least one.",
                            (long long)H, (long long)H, (long long)v[0][0], (long long)v[0][1], (long long)v[1][0], (long long)v[1][1],
                            (long long)v[2][0], (long long)v[2][1], (long long)oh, (long long)ow);
    if (check_fold_dtype(self, "im2col_out_cpu") != 0) return -1;
    int64_t shape[3] = {N, C * v[0][0] * v[0][1], oh * ow};
    ct_tensor *out = batched ? ct_tensor_alloc(shape, 3, self->dtype, false) : ct_tensor_alloc(shape + 1, 2, self->dtype, false);
    if (!out) return -1;
    bool fail = false;
    ct_tensor *x = contig_as(self, self->dtype, &fail);
    if (fail) {
        ct_tensor_release(out);
        return -1;
    }
    cgeom g = {C, {1, H, W}, {1, oh, ow}, {1, v[0][0], v[0][1]}, {1, v[3][0], v[3][1]}, {0, v[2][0], v[2][1]}, {1, v[1][0], v[1][1]}};
    size_t es = ct_dtype_size(self->dtype);
    for (int64_t n = 0; n < N; n++)
        im2col_any(es, at(tdata(x), n * C * H * W, es), at(tdata(out), n * shape[1] * shape[2], es), &g);
    ct_tensor_release(x);
    return ct_ret(rets, 0, out);
}

/* col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding,
 *   int[2] stride) -> Tensor */
int ct_k_col2im(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (args[1].u.list.len != 2)
        return ct_error_set(CT_ERR_RUNTIME, "It is expected output_size equals to 2, but got size %lld", (long long)args[1].u.list.len);
    int64_t v[4][2];
    if (fold_lists(args, 2, v) != 0) return -1;
    int64_t OH = args[1].u.list.data[0], OW = args[1].u.list.data[1];
    if (fold_param_checks(v, false) != 0) return -1;
    int nd = self->ndim;
    const int64_t *s = self->sizes;
    bool ok = (nd == 2 && s[0] != 0 && s[1] != 0) || (nd == 3 && s[1] != 0 && s[2] != 0);
    if (!ok) {
        char a[256];
        ct_format_shape(s, nd, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", a);
    }
    bool batched = nd == 3;
    int64_t N = batched ? s[0] : 1, planes = s[nd - 2], L = s[nd - 1], KS = v[0][0] * v[0][1];
    if (planes % KS != 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%lld and kernel_size=(%lld, %lld).",
                            (long long)planes, (long long)v[0][0], (long long)v[0][1]);
    int64_t bh = div_rtn(OH + 2 * v[2][0] - v[1][0] * (v[0][0] - 1) - 1, v[3][0]) + 1;
    int64_t bw = div_rtn(OW + 2 * v[2][1] - v[1][1] * (v[0][1] - 1) - 1, v[3][1]) + 1;
    if (L != bh * bw)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld), expected size of input's dimension 2 to match the calculated number of sliding blocks %lld * %lld = %lld, but got input.size(2)=%lld.",
                            (long long)OH, (long long)OW, (long long)v[0][0], (long long)v[0][1], (long long)v[1][0], (long long)v[1][1],
                            (long long)v[2][0], (long long)v[2][1], (long long)v[3][0], (long long)v[3][1], (long long)bh, (long long)bw,
                            (long long)(bh * bw), (long long)L);
    if (!(bh >= 1 && bw >= 1))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld), calculated shape of the array of sliding blocks as (%lld, %lld), which is too small (non-positive)",
                            (long long)OH, (long long)OW, (long long)v[0][0], (long long)v[0][1], (long long)v[1][0], (long long)v[1][1],
                            (long long)v[2][0], (long long)v[2][1], (long long)v[3][0], (long long)v[3][1], (long long)bh, (long long)bw);
    if (OW < 1 || OH < 1)
        return ct_error_set(CT_ERR_RUNTIME, "Expected output spatial size to be positive, but got: output_size=(%lld, %lld).", (long long)OH,
                            (long long)OW);
    if (check_fold_dtype(self, "col2im_out_cpu") != 0) return -1;
    int64_t C = planes / KS;
    ct_dtype wd = work_dtype(self->dtype);
    int64_t shape[4] = {N, C, OH, OW};
    ct_tensor *outw = batched ? ct_tensor_alloc(shape, 4, wd, true) : ct_tensor_alloc(shape + 1, 3, wd, true);
    if (!outw) return -1;
    bool fail = false;
    ct_tensor *x = contig_as(self, wd, &fail);
    if (fail) {
        ct_tensor_release(outw);
        return -1;
    }
    cgeom g = {C, {1, OH, OW}, {1, bh, bw}, {1, v[0][0], v[0][1]}, {1, v[3][0], v[3][1]}, {0, v[2][0], v[2][1]}, {1, v[1][0], v[1][1]}};
    size_t es = ct_dtype_size(wd);
    for (int64_t n = 0; n < N; n++) col2im_w(wd, at(tdata(x), n * planes * L, es), at(tdata(outw), n * C * OH * OW, es), &g);
    ct_tensor_release(x);
    if (self->dtype == CT_BOOL && outw) { /* a sum of bools: true where any block was */
        ct_tensor *r = ct_tensor_alloc(outw->sizes, outw->ndim, CT_BOOL, false);
        if (r && ct_copy_into(r, outw) != 0) {
            ct_tensor_release(r);
            r = NULL;
        }
        ct_tensor_release(outw);
        return ct_ret(rets, 0, r);
    }
    return ct_ret(rets, 0, finish(outw, self->dtype));
}

int ct_conv_forward_checks(int indim, const int64_t *isz, const ct_tensor *weight, const ct_tensor *bias, const ct_value *stride,
                           const ct_value *padding, const ct_value *dilation, bool transposed, const ct_value *output_padding, int64_t groups) {
    conv_params cp;
    if (parse_params(weight, stride, padding, dilation, transposed, output_padding, groups, &cp) != 0) return -1;
    return check_shape_forward_sz(indim, isz, weight, bias, &cp);
}
