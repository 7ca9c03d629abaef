/* Max, average and adaptive average pooling over 2 and 3 spatial dimensions and their
 * backward kernels (DilatedMaxPool2d.cpp, DilatedMaxPool3d.cpp, AveragePool2d.cpp,
 * AveragePool3d.cpp, AdaptiveAveragePooling.cpp, AdaptiveAveragePooling3d.cpp,
 * AdaptiveMaxPooling2d.cpp, Pool.h; the CPU kernels of cpu/MaxPoolKernel.cpp,
 * cpu/AvgPoolKernel.cpp, cpu/AdaptiveAvgPoolKernel.cpp, cpu/AdaptiveMaxPoolKernel.cpp).
 *
 * A 2-d problem is a 3-d one with a depth of 1. Each output element is computed as PyTorch's
 * kernel computes it for a contiguous (NCHW) input: the window walked depth, height, width;
 * a maximum that takes a NaN (or a larger value) and keeps its flat index into the plane; an
 * average summed in the kernel's accumulate type (float for float32 and the 16-bit floats,
 * double, int64 for the integer types) and divided as the kernel divides (sum / divisor for
 * avg_pool, sum / kh / kw for adaptive pooling), so float results are PyTorch's bits. The
 * backward kernels scatter the gradient the same way (grad / divisor added to each input of
 * the window; to the argmax for max pooling). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/kernel_util.h"

typedef struct pgeom {
    int64_t planes;             /* batch * channels */
    int64_t in[3], out[3], k[3], s[3], p[3], d[3];
} pgeom;

static inline int64_t prod3(const int64_t *v) { return v[0] * v[1] * v[2]; }

static int64_t div_rtn(int64_t x, int64_t y) {
    int64_t q = x / y, r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) q--;
    return q;
}

/* pooling_output_shape (Pool.h) */
static int pooling_output_shape(int64_t in, int64_t k, int64_t pad, int64_t s, int64_t d, bool ceil_mode, int64_t *out) {
    if (s == 0) return ct_error_set(CT_ERR_RUNTIME, "stride should not be zero");
    if (pad < 0) return ct_error_set(CT_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld", (long long)pad);
    if (pad > ((k - 1) * d + 1) / 2)
        return ct_error_set(CT_ERR_RUNTIME, "pad should be at most half of effective kernel size, but got pad=%lld, kernel_size=%lld and dilation=%lld",
                            (long long)pad, (long long)k, (long long)d);
    int64_t o = div_rtn(in + 2 * pad - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0), s) + 1;
    if (ceil_mode && (o - 1) * s >= in + pad) o--;
    *out = o;
    return 0;
}

/* a pooling list argument: n values from 1 (repeated) or n given; an empty stride is the kernel's */
static void expand_list(const ct_value *v, int n, const int64_t *dflt, int64_t *out) {
    int64_t len = v->u.list.len;
    for (int i = 0; i < n; i++) out[i] = len == 0 ? (dflt ? dflt[i] : 0) : len == 1 ? v->u.list.data[0] : v->u.list.data[i];
}

static inline char *tdata(const ct_tensor *t) { return (char *)t->storage->data + (size_t)t->storage_offset * ct_dtype_size(t->dtype); }

static ct_tensor *contig(const ct_tensor *t, ct_dtype dt) {
    if (t->dtype == dt && ct_is_contiguous_nn(t)) return ct_tensor_retain((ct_tensor *)t);
    ct_tensor *c = ct_tensor_alloc(t->sizes, t->ndim, dt, false);
    if (c && ct_copy_into(c, t) != 0) {
        ct_tensor_release(c);
        c = NULL;
    }
    return c;
}

/* the output's shape: the input's leading dimensions, then out[] of the last `dim` */
static int pooled_shape(const ct_tensor *input, int dim, const int64_t *out3, int64_t *shape) {
    int lead = input->ndim - dim;
    for (int i = 0; i < lead; i++) shape[i] = input->sizes[i];
    for (int i = 0; i < dim; i++) shape[lead + i] = out3[3 - dim + i];
    return input->ndim;
}

static void fill_geom(pgeom *g, const ct_tensor *input, int dim) {
    g->planes = 1;
    for (int i = 0; i < input->ndim - dim; i++) g->planes *= input->sizes[i];
    for (int i = 0; i < 3; i++) {
        int q = i - (3 - dim);
        g->in[i] = q >= 0 ? input->sizes[input->ndim - dim + q] : 1;
    }
}

static int not_implemented(const char *kernel, ct_dtype dt) {
    return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(dt));
}

/* ---- max pooling ---- */

/* maximum of each window: out gets the value (copied as it is), idx the flat index in the plane */
static void max_pool_planes(const pgeom *g, const ct_tensor *x, char *out, int64_t *idx, int64_t p0, int64_t p1) {
    const ct_dtype dt = x->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g->in), OS = prod3(g->out);
    const char *xd = tdata(x);
    for (int64_t pl = p0; pl < p1; pl++) {
        const char *ip = xd + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (int64_t od = 0; od < g->out[0]; od++) {
            int64_t d0 = od * g->s[0] - g->p[0], d1 = d0 + (g->k[0] - 1) * g->d[0] + 1;
            if (d1 > g->in[0]) d1 = g->in[0];
            while (d0 < 0) d0 += g->d[0];
            for (int64_t oh = 0; oh < g->out[1]; oh++) {
                int64_t h0 = oh * g->s[1] - g->p[1], h1 = h0 + (g->k[1] - 1) * g->d[1] + 1;
                if (h1 > g->in[1]) h1 = g->in[1];
                while (h0 < 0) h0 += g->d[1];
                for (int64_t ow = 0; ow < g->out[2]; ow++, o++) {
                    int64_t w0 = ow * g->s[2] - g->p[2], w1 = w0 + (g->k[2] - 1) * g->d[2] + 1;
                    if (w1 > g->in[2]) w1 = g->in[2];
                    while (w0 < 0) w0 += g->d[2];
                    int64_t best = (d0 * g->in[1] + h0) * g->in[2] + w0;
                    if (dt == CT_FLOAT32) {
                        const float *fp = (const float *)ip;
                        float mv = -INFINITY;
                        for (int64_t id = d0; id < d1; id += g->d[0])
                            for (int64_t ih = h0; ih < h1; ih += g->d[1])
                                for (int64_t iw = w0; iw < w1; iw += g->d[2]) {
                                    int64_t i = (id * g->in[1] + ih) * g->in[2] + iw;
                                    float v = fp[i];
                                    if (v > mv || isnan(v)) {
                                        mv = v;
                                        best = i;
                                    }
                                }
                        ((float *)out)[o] = fp[best];
                    } else if (ct_dtype_is_floating(dt)) {
                        double mv = -INFINITY;
                        for (int64_t id = d0; id < d1; id += g->d[0])
                            for (int64_t ih = h0; ih < h1; ih += g->d[1])
                                for (int64_t iw = w0; iw < w1; iw += g->d[2]) {
                                    int64_t i = (id * g->in[1] + ih) * g->in[2] + iw;
                                    double v = ct_load_as_double(ip + (size_t)i * es, dt);
                                    if (v > mv || isnan(v)) {
                                        mv = v;
                                        best = i;
                                    }
                                }
                        memcpy(out + (size_t)o * es, ip + (size_t)best * es, es);
                    } else {
                        int64_t mv = INT64_MIN;
                        bool first = true;
                        for (int64_t id = d0; id < d1; id += g->d[0])
                            for (int64_t ih = h0; ih < h1; ih += g->d[1])
                                for (int64_t iw = w0; iw < w1; iw += g->d[2]) {
                                    int64_t i = (id * g->in[1] + ih) * g->in[2] + iw;
                                    int64_t v = ct_elem_load_int64(ip + (size_t)i * es, dt);
                                    if (first || v > mv) {
                                        mv = v;
                                        best = i;
                                        first = false;
                                    }
                                }
                        memcpy(out + (size_t)o * es, ip + (size_t)best * es, es);
                    }
                    if (idx) idx[o] = best;
                }
            }
        }
    }
}

typedef struct max_pool_job {
    const pgeom *g;
    const ct_tensor *x;
    char *out;
    int64_t *idx;
} max_pool_job;

static int max_pool_chunk(void *vj, int64_t begin, int64_t end) {
    const max_pool_job *j = vj;
    max_pool_planes(j->g, j->x, j->out, j->idx, begin, end);
    return 0;
}

/* the planes split over the intra-op threads (each output is its window's alone, so the split
 * changes no value), a plane or more per piece of at least CT_GRAIN_SIZE outputs */
static void max_pool_frames(const pgeom *g, const ct_tensor *x, char *out, int64_t *idx) {
    max_pool_job j = {g, x, out, idx};
    int64_t os = prod3(g->out) > 0 ? prod3(g->out) : 1;
    ct_parallel_for(0, g->planes, (CT_GRAIN_SIZE + os - 1) / os, max_pool_chunk, &j);
}

/* the four max pooling lists, checked as max_pool2d_with_indices's / max_pool3d_with_indices's meta
 * functions check them (dim 2 or 3) */
static int max_pool_lists(const ct_value *args, int dim, int64_t *k, int64_t *s, int64_t *p, int64_t *d) {
    const char *nm = dim == 2 ? "max_pool2d" : "max_pool3d";
    const char *nn = dim == 2 ? "two" : "three";
    int64_t kl = args[1].u.list.len, sl = args[2].u.list.len, pl = args[3].u.list.len, dl = args[4].u.list.len;
    if (!(kl == 1 || kl == dim))
        return ct_error_set(CT_ERR_RUNTIME, "%s: kernel_size must either be a single int, or a tuple of %s ints", nm, nn);
    if (!(sl == 0 || sl == 1 || sl == dim))
        return ct_error_set(CT_ERR_RUNTIME, "%s: stride must either be omitted, a single int, or a tuple of %s ints", nm, nn);
    if (!(pl == 1 || pl == dim))
        return ct_error_set(CT_ERR_RUNTIME, "%s: padding must either be a single int, or a tuple of %s ints", nm, nn);
    if (!(dl == 1 || dl == dim))
        return ct_error_set(CT_ERR_RUNTIME, "%s: dilation must be either a single int, or a tuple of %s ints", nm, nn);
    expand_list(&args[1], dim, NULL, k);
    expand_list(&args[2], dim, k, s);
    expand_list(&args[3], dim, NULL, p);
    expand_list(&args[4], dim, NULL, d);
    return 0;
}

/* pool2d_shape_check (Pool.h); dilation 1 for average pooling */
static int pool2d_shape_check(const ct_tensor *input, const int64_t *k, const int64_t *s, const int64_t *p, const int64_t *d,
                              int64_t planes_in, const int64_t *in, const int64_t *out) {
    if (!(k[1] > 0 && k[0] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "kernel size should be greater than zero, but got kH: %lld kW: %lld", (long long)k[0], (long long)k[1]);
    if (!(s[1] > 0 && s[0] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "stride should be greater than zero, but got dH: %lld dW: %lld", (long long)s[0], (long long)s[1]);
    if (!(d[0] > 0 && d[1] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "dilation should be greater than zero, but got dilationH: %lld dilationW: %lld", (long long)d[0],
                            (long long)d[1]);
    int nd = input->ndim;
    const int64_t *sz = input->sizes;
    bool valid = sz[1] != 0 && sz[2] != 0;
    if (!((nd == 3 && sz[0] != 0 && valid) || (nd == 4 && valid && sz[3] != 0))) {
        char a[256];
        ct_format_shape(sz, nd, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", a);
    }
    if (!(k[1] / 2 >= p[1] && k[0] / 2 >= p[0]))
        return ct_error_set(CT_ERR_RUNTIME, "pad should be smaller than or equal to half of kernel size, but got padW = %lld, padH = %lld, kW = %lld, kH = %lld",
                            (long long)p[1], (long long)p[0], (long long)k[1], (long long)k[0]);
    if (!(out[1] >= 1 && out[0] >= 1))
        return ct_error_set(CT_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). Calculated output size: (%lldx%lldx%lld). Output size is too small",
                            (long long)planes_in, (long long)in[0], (long long)in[1], (long long)planes_in, (long long)out[0], (long long)out[1]);
    return 0;
}

/* pool3d_shape_check (Pool.h) */
static int pool3d_shape_check(const ct_tensor *input, int64_t nslices, const int64_t *k, const int64_t *s, const int64_t *p, const int64_t *d,
                              const int64_t *in, const int64_t *out, const char *fn, bool check_input_size) {
    if (!(k[0] > 0 && k[2] > 0 && k[1] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "kernel size should be greater than zero, but got kT: %lld kH: %lld kW: %lld", (long long)k[0],
                            (long long)k[1], (long long)k[2]);
    if (!(s[0] > 0 && s[2] > 0 && s[1] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "stride should be greater than zero, but got dT: %lld dH: %lld dW: %lld", (long long)s[0],
                            (long long)s[1], (long long)s[2]);
    if (!(d[0] > 0 && d[2] > 0 && d[1] > 0))
        return ct_error_set(CT_ERR_RUNTIME, "dilation should be greater than zero, but got dilationT: %lld dilationH: %lld dilationW: %lld",
                            (long long)d[0], (long long)d[1], (long long)d[2]);
    int nd = input->ndim;
    char a[256];
    ct_format_shape(input->sizes, nd, a, sizeof a);
    /* the rank (4 or 5) the callers checked already */
    for (int i = 0; i < nd; i++) {
        if (nd == 5 && i == 0) continue;
        if (input->sizes[i] <= 0)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s: Expected input's non-batch dimensions to have positive length, but input has a shape of %s and non-batch dimension %lld has length zero!",
                                fn, a, (long long)input->sizes[i]);
    }
    if (check_input_size && !(in[0] >= k[0] && in[1] >= k[1] && in[2] >= k[2]))
        return ct_error_set(CT_ERR_RUNTIME, "input image (T: %lld H: %lld W: %lld) smaller than kernel size (kT: %lld kH: %lld kW: %lld)",
                            (long long)in[0], (long long)in[1], (long long)in[2], (long long)k[0], (long long)k[1], (long long)k[2]);
    if (!(k[0] / 2 >= p[0] && k[2] / 2 >= p[2] && k[1] / 2 >= p[1]))
        return ct_error_set(CT_ERR_RUNTIME,
                            "pad should be smaller than or equal to half of kernel size, but got kT: %lld kW: %lld kH: %lld padT: %lld padW: %lld padH: %lld",
                            (long long)k[0], (long long)k[2], (long long)k[1], (long long)p[0], (long long)p[2], (long long)p[1]);
    if (!(out[0] >= 1 && out[2] >= 1 && out[1] >= 1))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Given input size: (%lldx%lldx%lldx%lld). Calculated output size: (%lldx%lldx%lldx%lld). Output size is too small",
                            (long long)nslices, (long long)in[0], (long long)in[1], (long long)in[2], (long long)nslices, (long long)out[0],
                            (long long)out[1], (long long)out[2]);
    return 0;
}

/* the geometry of max_pool{2,3}d_with_indices and its backward: args[0] self, args[1..5] the
 * lists and ceil_mode */
static int max_pool_setup(const ct_tensor *input, const ct_value *args, int dim, pgeom *g) {
    int64_t k[3], s[3], p[3], d[3], out[3] = {1, 1, 1};
    if (max_pool_lists(args, dim, k, s, p, d) != 0) return -1;
    bool ceil_mode = args[5].u.b;
    int nd = input->ndim;
    if (dim == 2 && !(nd == 3 || nd == 4)) return ct_error_set(CT_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    if (dim == 3 && !(nd == 4 || nd == 5))
        return ct_error_set(CT_ERR_RUNTIME, "non-empty 4D or 5D (batch mode) tensor expected for input");
    const int64_t *in = input->sizes + nd - dim;
    for (int i = 0; i < dim; i++)
        if (pooling_output_shape(in[i], k[i], p[i], s[i], d[i], ceil_mode, &out[i]) != 0) return -1;
    if (dim == 2) {
        if (pool2d_shape_check(input, k, s, p, d, input->sizes[nd - 3], in, out) != 0) return -1;
    } else if (pool3d_shape_check(input, input->sizes[nd - 4], k, s, p, d, in, out, "max_pool3d_with_indices_out_cpu_template()", false) != 0) {
        return -1;
    }
    fill_geom(g, input, dim);
    for (int i = 0; i < 3; i++) {
        int q = i - (3 - dim);
        g->out[i] = q >= 0 ? out[q] : 1;
        g->k[i] = q >= 0 ? k[q] : 1;
        g->s[i] = q >= 0 ? s[q] : 1;
        g->p[i] = q >= 0 ? p[q] : 0;
        g->d[i] = q >= 0 ? d[q] : 1;
    }
    return 0;
}

static int max_pool_forward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *self = ARG_T(0);
    pgeom g = {0};
    if (max_pool_setup(self, args, dim, &g) != 0) return -1;
    if (self->dtype == CT_BOOL || (!ct_dtype_is_integral(self->dtype, true) && !ct_dtype_is_floating(self->dtype)))
        return not_implemented(dim == 2 ? "max_pool2d" : "max_pool3d", self->dtype);
    int64_t shape[CT_MAX_DIMS];
    int nd = pooled_shape(self, dim, g.out, shape);
    ct_tensor *out = ct_tensor_alloc(shape, nd, self->dtype, false);
    ct_tensor *idx = ct_tensor_alloc(shape, nd, CT_INT64, false);
    ct_tensor *x = out && idx ? contig(self, self->dtype) : NULL;
    if (!x) {
        ct_tensor_release(out);
        ct_tensor_release(idx);
        return -1;
    }
    max_pool_frames(&g, x, tdata(out), (int64_t *)(void *)tdata(idx));
    ct_tensor_release(x);
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(idx);
    return 0;
}

/* max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *   int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor) */
int ct_k_max_pool2d_with_indices(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_forward(args, rets, 2);
}
int ct_k_max_pool3d_with_indices(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_forward(args, rets, 3);
}

/* the scatter of a gradient through indices: gi[plane][idx] += go, per plane (gi zeroed) */
static int scatter_grad(const ct_tensor *grad_output, const ct_tensor *indices, ct_tensor *gi, int64_t planes, int64_t IS, int64_t OS) {
    ct_dtype wd = gi->dtype;
    ct_tensor *go = contig(grad_output, wd), *ix = go ? contig(indices, CT_INT64) : NULL;
    if (!ix) {
        ct_tensor_release(go);
        return -1;
    }
    const int64_t *id = (const int64_t *)(void *)tdata(ix);
    char *gd = tdata(gi);
    const char *gg = tdata(go);
    size_t es = ct_dtype_size(wd);
    for (int64_t pl = 0; pl < planes; pl++)
        for (int64_t o = 0; o < OS; o++) {
            int64_t i = id[pl * OS + o];
            if (i < 0 || i >= IS) continue;
            if (wd == CT_FLOAT32) ((float *)(void *)gd)[pl * IS + i] += ((const float *)(const void *)gg)[pl * OS + o];
            else if (wd == CT_FLOAT64) ((double *)(void *)gd)[pl * IS + i] += ((const double *)(const void *)gg)[pl * OS + o];
            else {
                char *q = gd + (size_t)(pl * IS + i) * es;
                double v = ct_load_as_double(q, wd) + ct_load_as_double(gg + (size_t)(pl * OS + o) * es, wd);
                ct_store_from_double(q, wd, v);
            }
        }
    ct_tensor_release(go);
    ct_tensor_release(ix);
    return 0;
}

/* max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size,
 *   int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor */
static int max_pool_backward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *go = ARG_T(0), *self = ARG_T(1), *indices = ARG_T(7);
    pgeom g = {0};
    if (max_pool_setup(self, args + 1, dim, &g) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype))
        return not_implemented(dim == 2 ? "max_pool2d_with_indices_backward" : "max_pool3d_with_indices_backward", self->dtype);
    ct_tensor *gi = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, true);
    if (!gi) return -1;
    if (scatter_grad(go, indices, gi, g.planes, prod3(g.in), prod3(g.out)) != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}

int ct_k_max_pool2d_with_indices_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_backward(args, rets, 2);
}
int ct_k_max_pool3d_with_indices_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_backward(args, rets, 3);
}

/* ---- average pooling ---- */

typedef struct avg_opts {
    bool count_include_pad;
    bool has_divisor;
    int64_t divisor;
} avg_opts;

/* the window of output (od, oh, ow): clipped bounds in lo/hi, and its divisor */
static int64_t avg_window(const pgeom *g, const avg_opts *o, const int64_t *pos, int64_t *lo, int64_t *hi) {
    int64_t pool = 1, real = 1;
    for (int i = 0; i < 3; i++) {
        int64_t a = pos[i] * g->s[i] - g->p[i], b = a + g->k[i];
        if (b > g->in[i] + g->p[i]) b = g->in[i] + g->p[i];
        pool *= b - a;
        if (a < 0) a = 0;
        if (b > g->in[i]) b = g->in[i];
        lo[i] = a;
        hi[i] = b;
        real *= b > a ? b - a : 0;
    }
    if (o->has_divisor) return o->divisor;
    return o->count_include_pad ? pool : real;
}

static bool window_empty(const int64_t *lo, const int64_t *hi) { return lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]; }

/* the forward: x contiguous in its own dtype, out alike */
static void avg_pool_frames(const pgeom *g, const avg_opts *opt, const ct_tensor *x, ct_tensor *out) {
    const ct_dtype dt = x->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g->in), OS = prod3(g->out);
    const char *xd = tdata(x);
    char *od = tdata(out);
    int64_t pos[3], lo[3], hi[3];
    for (int64_t pl = 0; pl < g->planes; pl++) {
        const char *ip = xd + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (pos[0] = 0; pos[0] < g->out[0]; pos[0]++)
            for (pos[1] = 0; pos[1] < g->out[1]; pos[1]++)
                for (pos[2] = 0; pos[2] < g->out[2]; pos[2]++, o++) {
                    int64_t div = avg_window(g, opt, pos, lo, hi);
                    char *op = od + (size_t)o * es;
                    if (window_empty(lo, hi)) {
                        memset(op, 0, es);
                        continue;
                    }
                    if (dt == CT_INT64) {
                        int64_t sum = 0;
                        for (int64_t a = lo[0]; a < hi[0]; a++)
                            for (int64_t b = lo[1]; b < hi[1]; b++)
                                for (int64_t c = lo[2]; c < hi[2]; c++)
                                    sum += ((const int64_t *)(const void *)ip)[(a * g->in[1] + b) * g->in[2] + c];
                        *(int64_t *)(void *)op = sum / div;
                    } else if (dt == CT_FLOAT64) {
                        double sum = 0;
                        for (int64_t a = lo[0]; a < hi[0]; a++)
                            for (int64_t b = lo[1]; b < hi[1]; b++)
                                for (int64_t c = lo[2]; c < hi[2]; c++)
                                    sum += ((const double *)(const void *)ip)[(a * g->in[1] + b) * g->in[2] + c];
                        *(double *)(void *)op = sum / (double)div;
                    } else {
                        float sum = 0;
                        for (int64_t a = lo[0]; a < hi[0]; a++)
                            for (int64_t b = lo[1]; b < hi[1]; b++)
                                for (int64_t c = lo[2]; c < hi[2]; c++)
                                    sum += (float)ct_load_as_double(ip + (size_t)((a * g->in[1] + b) * g->in[2] + c) * es, dt);
                        ct_store_from_double(op, dt, (double)(sum / (float)div));
                    }
                }
    }
}

/* the backward: gi (zeroed, contiguous, float32/float64/int64 or a 16-bit float) gets
 * go / divisor added at each input of each window */
static void avg_pool_backward_frames(const pgeom *g, const avg_opts *opt, const ct_tensor *go, ct_tensor *gi) {
    const ct_dtype dt = gi->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g->in), OS = prod3(g->out);
    const char *gd = tdata(go);
    char *id = tdata(gi);
    int64_t pos[3], lo[3], hi[3];
    for (int64_t pl = 0; pl < g->planes; pl++) {
        char *ip = id + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (pos[0] = 0; pos[0] < g->out[0]; pos[0]++)
            for (pos[1] = 0; pos[1] < g->out[1]; pos[1]++)
                for (pos[2] = 0; pos[2] < g->out[2]; pos[2]++, o++) {
                    int64_t div = avg_window(g, opt, pos, lo, hi);
                    for (int64_t a = lo[0]; a < hi[0]; a++)
                        for (int64_t b = lo[1]; b < hi[1]; b++)
                            for (int64_t c = lo[2]; c < hi[2]; c++) {
                                int64_t i = (a * g->in[1] + b) * g->in[2] + c;
                                if (dt == CT_FLOAT32)
                                    ((float *)(void *)ip)[i] += ((const float *)(const void *)gd)[o] / (float)div;
                                else if (dt == CT_FLOAT64)
                                    ((double *)(void *)ip)[i] += ((const double *)(const void *)gd)[o] / (double)div;
                                else if (dt == CT_INT64)
                                    ((int64_t *)(void *)ip)[i] += ((const int64_t *)(const void *)gd)[o] / div;
                                else { /* scalar_t arithmetic: the quotient and each sum rounded to dt */
                                    char tmp[8];
                                    ct_store_from_double(tmp, dt, (double)((float)ct_load_as_double(gd + (size_t)o * es, dt) / (float)div));
                                    char *q = ip + (size_t)i * es;
                                    ct_store_from_double(q, dt, (double)((float)ct_load_as_double(q, dt) + (float)ct_load_as_double(tmp, dt)));
                                }
                            }
                }
    }
}

/* the lists of avg_pool2d/avg_pool3d (args[1..6]): kernel, stride, padding, ceil_mode,
 * count_include_pad, divisor_override */
static int avg_pool_setup(const ct_tensor *input, const ct_value *args, int dim, pgeom *g, avg_opts *opt) {
    const char *nm = dim == 2 ? "avg_pool2d" : "avg_pool3d";
    int64_t kl = args[1].u.list.len, sl = args[2].u.list.len, pl = args[3].u.list.len;
    int64_t k[3], s[3], p[3], d[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    if (dim == 2) {
        if (!(kl == 1 || kl == 2)) return ct_error_set(CT_ERR_RUNTIME, "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
        if (!(sl == 0 || sl == 1 || sl == 2))
            return ct_error_set(CT_ERR_RUNTIME, "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
        if (!(pl == 1 || pl == 2)) return ct_error_set(CT_ERR_RUNTIME, "avg_pool2d: padding must either be a single int, or a tuple of two ints");
    } else {
        if (!(kl == 1 || kl == 3)) return ct_error_set(CT_ERR_RUNTIME, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
        if (!(sl == 0 || sl == 1 || sl == 3))
            return ct_error_set(CT_ERR_RUNTIME, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
        if (!(pl == 1 || pl == 3)) return ct_error_set(CT_ERR_RUNTIME, "avg_pool3d: padding must be a single int, or a tuple of three ints");
        if (!(input->ndim == 4 || input->ndim == 5))
            return ct_error_set(CT_ERR_RUNTIME, "non-empty 4D or 5D (batch mode) tensor expected for input");
    }
    (void)nm;
    expand_list(&args[1], dim, NULL, k);
    expand_list(&args[2], dim, k, s);
    expand_list(&args[3], dim, NULL, p);
    bool ceil_mode = args[4].u.b;
    opt->count_include_pad = args[5].u.b;
    opt->has_divisor = args[6].tag == CT_TAG_INT;
    opt->divisor = opt->has_divisor ? args[6].u.i : 0;
    if (opt->has_divisor && opt->divisor == 0) return ct_error_set(CT_ERR_RUNTIME, "divisor must be not zero");
    int nd = input->ndim;
    if (nd < dim + 1) { /* input.size(-3) / size(-4) */
        int64_t ignored;
        return ct_wrap_dim(-(dim + 1), nd, &ignored);
    }
    const int64_t *in = input->sizes + nd - dim;
    for (int i = 0; i < dim; i++)
        if (pooling_output_shape(in[i], k[i], p[i], s[i], 1, ceil_mode, &out[i]) != 0) return -1;
    if (dim == 2) {
        if (pool2d_shape_check(input, k, s, p, d, input->sizes[nd - 3], in, out) != 0) return -1;
    } else if (pool3d_shape_check(input, input->sizes[nd - 4], k, s, p, d, in, out, "avg_pool3d()", true) != 0) {
        return -1;
    }
    fill_geom(g, input, dim);
    for (int i = 0; i < 3; i++) {
        int q = i - (3 - dim);
        g->out[i] = q >= 0 ? out[q] : 1;
        g->k[i] = q >= 0 ? k[q] : 1;
        g->s[i] = q >= 0 ? s[q] : 1;
        g->p[i] = q >= 0 ? p[q] : 0;
        g->d[i] = 1;
    }
    return 0;
}

/* PyTorch 2.6's CPU dtypes: avg_pool2d takes the floating types and int64, avg_pool3d
 * (avg_pool3d_out_frame) float32, float64 and int64 */
static int avg_dtype(ct_dtype dt, int dim, bool backward) {
    bool ok = dim == 2 ? (ct_dtype_is_floating(dt) || dt == CT_INT64) : (dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_INT64);
    if (ok) return 0;
    const char *k = dim == 2 ? (backward ? "avg_pool2d_backward_out_frame" : "avg_pool2d") : (backward ? "avg_pool3d_backward_out_frame" : "avg_pool3d_out_frame");
    return not_implemented(k, dt);
}

static int avg_pool_forward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *self = ARG_T(0);
    pgeom g = {0};
    avg_opts opt = {0};
    if (avg_pool_setup(self, args, dim, &g, &opt) != 0) return -1;
    if (avg_dtype(self->dtype, dim, false) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int nd = pooled_shape(self, dim, g.out, shape);
    ct_tensor *out = ct_tensor_alloc(shape, nd, self->dtype, false);
    ct_tensor *x = out ? contig(self, self->dtype) : NULL;
    if (!x) {
        ct_tensor_release(out);
        return -1;
    }
    avg_pool_frames(&g, &opt, x, out);
    ct_tensor_release(x);
    return ct_ret(rets, 0, out);
}

/* avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *   bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor */
int ct_k_avg_pool2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return avg_pool_forward(args, rets, 2);
}
int ct_k_avg_pool3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return avg_pool_forward(args, rets, 3);
}

/* avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride,
 *   int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor */
static int avg_pool_backward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *go = ARG_T(0), *self = ARG_T(1);
    pgeom g = {0};
    avg_opts opt = {0};
    if (avg_pool_setup(self, args + 1, dim, &g, &opt) != 0) return -1;
    if (avg_dtype(self->dtype, dim, true) != 0) return -1;
    ct_tensor *gi = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, true);
    ct_tensor *g2 = gi ? contig(go, self->dtype) : NULL;
    if (!g2) {
        ct_tensor_release(gi);
        return -1;
    }
    avg_pool_backward_frames(&g, &opt, g2, gi);
    ct_tensor_release(g2);
    return ct_ret(rets, 0, gi);
}

int ct_k_avg_pool2d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return avg_pool_backward(args, rets, 2);
}
int ct_k_avg_pool3d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return avg_pool_backward(args, rets, 3);
}

/* ---- adaptive pooling ---- */

static inline int64_t start_index(int64_t a, int64_t b, int64_t c) { return (a / b) * c + ((a % b) * c) / b; }
static inline int64_t end_index(int64_t a, int64_t b, int64_t c) { return 1 + ((a + 1) * c - 1) / b; }

/* the checks of adaptive_avg_pool{2,3}d_out_cpu_template / adaptive_max_pool2d's meta */
static int adaptive_setup(const ct_tensor *input, const ct_value *osz, int dim, const char *name, pgeom *g) {
    if (osz->u.list.len != dim) {
        if (strcmp(name, "adaptive_max_pool2d") == 0)
            return ct_error_set(CT_ERR_RUNTIME, "adaptive_max_pool2d(): internal error: output_size.size() must be 2");
        return ct_error_set(CT_ERR_RUNTIME, "%s: output_size must be %d", name, dim);
    }
    int nd = input->ndim;
    char a[256];
    ct_format_shape(input->sizes, nd, a, sizeof a);
    if (!(nd == dim + 1 || nd == dim + 2))
        return ct_error_set(CT_ERR_RUNTIME, "%s(): Expected %dD or %dD tensor, but got%s %s", name, dim + 1, dim + 2,
                            strcmp(name, "adaptive_max_pool2d") == 0 ? ":" : "", a);
    for (int i = nd - dim; i < nd; i++)
        if (input->sizes[i] <= 0)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty",
                                name, a, i);
    fill_geom(g, input, dim);
    for (int i = 0; i < 3; i++) {
        int q = i - (3 - dim);
        g->out[i] = q >= 0 ? osz->u.list.data[q] : 1;
        g->k[i] = g->s[i] = g->d[i] = 1;
        g->p[i] = 0;
    }
    return 0;
}

static inline float round_to(ct_dtype dt, float v) {
    return dt == CT_FLOAT16 ? ct_half_to_float(ct_float_to_half(v)) : ct_bfloat16_to_float(ct_float_to_bfloat16(v));
}

static void adaptive_avg_frames(const pgeom *g, const ct_tensor *x, ct_tensor *out, bool three) {
    const ct_dtype dt = x->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g->in), OS = prod3(g->out);
    const char *xd = tdata(x);
    char *od = tdata(out);
    for (int64_t pl = 0; pl < g->planes; pl++) {
        const char *ip = xd + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (int64_t a = 0; a < g->out[0]; a++) {
            int64_t d0 = start_index(a, g->out[0], g->in[0]), d1 = end_index(a, g->out[0], g->in[0]);
            for (int64_t b = 0; b < g->out[1]; b++) {
                int64_t h0 = start_index(b, g->out[1], g->in[1]), h1 = end_index(b, g->out[1], g->in[1]);
                for (int64_t c = 0; c < g->out[2]; c++, o++) {
                    int64_t w0 = start_index(c, g->out[2], g->in[2]), w1 = end_index(c, g->out[2], g->in[2]);
                    int64_t kd = d1 - d0, kh = h1 - h0, kw = w1 - w0;
                    if (dt == CT_FLOAT64) {
                        double sum = 0;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++) sum += ((const double *)(const void *)ip)[(i * g->in[1] + j) * g->in[2] + k];
                        double r = g->out[0] == 1 && g->in[0] == 1 ? sum / (double)kh / (double)kw : sum / (double)kd / (double)kh / (double)kw;
                        ((double *)(void *)od)[o] = r;
                    } else if (dt != CT_FLOAT32 && three) {
                        /* the 3-d kernel sums and divides the 16-bit floats in their own type */
                        float sum = 0;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++)
                                    sum = round_to(dt, sum + (float)ct_load_as_double(ip + (size_t)((i * g->in[1] + j) * g->in[2] + k) * es, dt));
                        float r = round_to(dt, round_to(dt, round_to(dt, sum / (float)kd) / (float)kh) / (float)kw);
                        ct_store_from_double(od + (size_t)o * es, dt, (double)r);
                    } else {
                        float sum = 0;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++)
                                    sum += (float)ct_load_as_double(ip + (size_t)((i * g->in[1] + j) * g->in[2] + k) * es, dt);
                        float r = g->out[0] == 1 && g->in[0] == 1 ? sum / (float)kh / (float)kw : sum / (float)kd / (float)kh / (float)kw;
                        ct_store_from_double(od + (size_t)o * es, dt, (double)r);
                    }
                }
            }
        }
    }
}

static int adaptive_avg_forward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *self = ARG_T(0);
    pgeom g = {0};
    const char *name = dim == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d";
    if (adaptive_setup(self, &args[1], dim, name, &g) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype)) return not_implemented(dim == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d_cpu", self->dtype);
    int64_t shape[CT_MAX_DIMS];
    int nd = pooled_shape(self, dim, g.out, shape);
    ct_tensor *out = ct_tensor_alloc(shape, nd, self->dtype, false);
    ct_tensor *x = out ? contig(self, self->dtype) : NULL;
    if (!x) {
        ct_tensor_release(out);
        return -1;
    }
    if (prod3(g.out) > 0) adaptive_avg_frames(&g, x, out, dim == 3);
    ct_tensor_release(x);
    return ct_ret(rets, 0, out);
}

/* _adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor */
int ct_k__adaptive_avg_pool2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg_forward(args, rets, 2);
}
int ct_k__adaptive_avg_pool3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg_forward(args, rets, 3);
}

/* _adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor: grad / kh / kw added
 * to each input of the window */
static int adaptive_avg_backward(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *go = ARG_T(0), *self = ARG_T(1);
    pgeom g = {0};
    int nd = self->ndim;
    const char *name = dim == 2 ? "adaptive_avg_pool2d_backward" : "adaptive_avg_pool3d_backward";
    if (!(nd == dim + 1 || nd == dim + 2) || go->ndim != nd) {
        char a[256];
        ct_format_shape(go->sizes, go->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "%s(): Expected %dD or %dD tensor, but got %s", name, dim + 1, dim + 2, a);
    }
    if (!ct_dtype_is_floating(self->dtype)) return not_implemented(name, self->dtype);
    fill_geom(&g, self, dim);
    for (int i = 0; i < 3; i++) {
        int q = i - (3 - dim);
        g.out[i] = q >= 0 ? go->sizes[nd - dim + q] : 1;
    }
    ct_tensor *gi = ct_tensor_alloc(self->sizes, nd, self->dtype, true);
    ct_tensor *gw = gi ? contig(go, self->dtype) : NULL;
    if (!gw) {
        ct_tensor_release(gi);
        return -1;
    }
    const ct_dtype dt = self->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g.in), OS = prod3(g.out);
    for (int64_t pl = 0; pl < g.planes; pl++) {
        char *ip = tdata(gi) + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (int64_t a = 0; a < g.out[0]; a++) {
            int64_t d0 = start_index(a, g.out[0], g.in[0]), d1 = end_index(a, g.out[0], g.in[0]);
            for (int64_t b = 0; b < g.out[1]; b++) {
                int64_t h0 = start_index(b, g.out[1], g.in[1]), h1 = end_index(b, g.out[1], g.in[1]);
                for (int64_t c = 0; c < g.out[2]; c++, o++) {
                    int64_t w0 = start_index(c, g.out[2], g.in[2]), w1 = end_index(c, g.out[2], g.in[2]);
                    int64_t kd = d1 - d0, kh = h1 - h0, kw = w1 - w0;
                    bool two = dim == 2;
                    if (dt == CT_FLOAT64) {
                        double gv = ((const double *)(const void *)tdata(gw))[o];
                        double delta = two ? gv / (double)kh / (double)kw : gv / (double)kd / (double)kh / (double)kw;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++) ((double *)(void *)ip)[(i * g.in[1] + j) * g.in[2] + k] += delta;
                    } else if (dt == CT_FLOAT32) {
                        float gv = ((const float *)(const void *)tdata(gw))[o];
                        float delta = two ? gv / (float)kh / (float)kw : gv / (float)kd / (float)kh / (float)kw;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++) ((float *)(void *)ip)[(i * g.in[1] + j) * g.in[2] + k] += delta;
                    } else {
                        float gv = (float)ct_load_as_double(tdata(gw) + (size_t)o * es, dt);
                        float delta = two ? gv / (float)kh / (float)kw : gv / (float)kd / (float)kh / (float)kw;
                        for (int64_t i = d0; i < d1; i++)
                            for (int64_t j = h0; j < h1; j++)
                                for (int64_t k = w0; k < w1; k++) {
                                    char *q = ip + (size_t)((i * g.in[1] + j) * g.in[2] + k) * es;
                                    ct_store_from_double(q, dt, ct_load_as_double(q, dt) + (double)delta);
                                }
                    }
                }
            }
        }
    }
    ct_tensor_release(gw);
    return ct_ret(rets, 0, gi);
}

int ct_k__adaptive_avg_pool2d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg_backward(args, rets, 2);
}
int ct_k__adaptive_avg_pool3d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg_backward(args, rets, 3);
}

/* adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor) */
int ct_k_adaptive_max_pool2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    pgeom g = {0};
    if (adaptive_setup(self, &args[1], 2, "adaptive_max_pool2d", &g) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype)) return not_implemented("adaptive_max_pool2d", self->dtype);
    int64_t shape[CT_MAX_DIMS];
    int nd = pooled_shape(self, 2, g.out, shape);
    ct_tensor *out = ct_tensor_alloc(shape, nd, self->dtype, false);
    ct_tensor *idx = ct_tensor_alloc(shape, nd, CT_INT64, false);
    ct_tensor *x = out && idx ? contig(self, self->dtype) : NULL;
    if (!x) {
        ct_tensor_release(out);
        ct_tensor_release(idx);
        return -1;
    }
    const ct_dtype dt = self->dtype;
    const size_t es = ct_dtype_size(dt);
    const int64_t IS = prod3(g.in), OS = prod3(g.out);
    int64_t *id = (int64_t *)(void *)tdata(idx);
    for (int64_t pl = 0; pl < g.planes; pl++) {
        const char *ip = tdata(x) + (size_t)(pl * IS) * es;
        int64_t o = pl * OS;
        for (int64_t b = 0; b < g.out[1]; b++) {
            int64_t h0 = start_index(b, g.out[1], g.in[1]), h1 = end_index(b, g.out[1], g.in[1]);
            for (int64_t c = 0; c < g.out[2]; c++, o++) {
                int64_t w0 = start_index(c, g.out[2], g.in[2]), w1 = end_index(c, g.out[2], g.in[2]);
                int64_t best = h0 * g.in[2] + w0;
                double mv = -INFINITY;
                for (int64_t j = h0; j < h1; j++)
                    for (int64_t k = w0; k < w1; k++) {
                        int64_t i = j * g.in[2] + k;
                        double v = ct_load_as_double(ip + (size_t)i * es, dt);
                        if (v > mv || isnan(v)) {
                            mv = v;
                            best = i;
                        }
                    }
                memcpy(tdata(out) + (size_t)o * es, ip + (size_t)best * es, es);
                id[o] = best;
            }
        }
    }
    ct_tensor_release(x);
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(idx);
    return 0;
}

/* adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor */
int ct_k_adaptive_max_pool2d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *go = ARG_T(0), *self = ARG_T(1), *indices = ARG_T(2);
    int nd = self->ndim;
    if (!(nd == 3 || nd == 4) || go->ndim != nd) {
        char a[256];
        ct_format_shape(go->sizes, go->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "adaptive_max_pooling2d_backward(): Expected 3D or 4D grad_output, but got: %s", a);
    }
    if (!ct_dtype_is_floating(self->dtype)) return not_implemented("adaptive_max_pool2d_backward", self->dtype);
    int64_t planes = 1;
    for (int i = 0; i < nd - 2; i++) planes *= self->sizes[i];
    ct_tensor *gi = ct_tensor_alloc(self->sizes, nd, self->dtype, true);
    if (!gi) return -1;
    if (scatter_grad(go, indices, gi, planes, self->sizes[nd - 2] * self->sizes[nd - 1], go->sizes[nd - 2] * go->sizes[nd - 1]) != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}
