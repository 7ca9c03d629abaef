/* upsample_nearest2d and upsample_bilinear2d with their backward ops (UpSample.cpp,
 * UpSampleNearest2d.cpp, UpSampleBilinear2d.cpp, cpu/UpSampleKernel.cpp) and the .vec overloads
 * (CompositeImplicitAutograd: the output size from output_size or the scale factors, then the
 * op). float32 bilinear follows PyTorch's float kernel (Note [Bilinear order] in
 * vec/resample_vec.c); nearest copies, with PyTorch's float source index; its backward adds in
 * output order. Other types compute the same way in double, rounded once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* compute_scales_value<float>: 1 / scale when one is given (> 0), else in / out */
static float scales_value(const ct_value *s, int64_t in, int64_t out) {
    if (s->tag == CT_TAG_DOUBLE && s->u.d > 0.) return (float)(1.0 / s->u.d);
    return (float)in / (float)out;
}
static double scales_value_d(const ct_value *s, int64_t in, int64_t out) {
    if (s->tag == CT_TAG_DOUBLE && s->u.d > 0.) return 1.0 / s->u.d;
    return (double)in / (double)out;
}

/* upsample_2d_common_check: 0 or -1 with PyTorch's message; sets n*c, H, W */
static int check_2d(const int64_t *in, int64_t in_len, const int64_t *out, int64_t out_len) {
    if (out_len != 2) return ct_error_set(CT_ERR_RUNTIME, "It is expected output_size equals to 2, but got size %lld", (long long)out_len);
    if (in_len != 4) return ct_error_set(CT_ERR_RUNTIME, "It is expected input_size equals to 4, but got size %lld", (long long)in_len);
    if (!(in[2] > 0 && in[3] > 0 && out[0] > 0 && out[1] > 0))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Input and output sizes should be greater than 0, but got input (H: %lld, W: %lld) output (H: %lld, W: %lld)",
                            (long long)in[2], (long long)in[3], (long long)out[0], (long long)out[1]);
    return 0;
}

static int check_input(const ct_tensor *x, const int64_t *out, int64_t out_len) {
    if (check_2d(x->sizes, x->ndim, out, out_len) != 0) return -1;
    int64_t rest = 1;
    for (int d = 1; d < x->ndim; d++) rest *= x->sizes[d];
    if (x->numel == 0 && rest == 0) {
        char b[256];
        ct_format_shape(x->sizes, x->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "Non-empty 4D data tensor expected but got a tensor with sizes %s", b);
    }
    if (!ct_dtype_is_floating(x->dtype) && x->dtype != CT_UINT8)
        return ct_error_set(CT_ERR_RUNTIME, "\"upsample_nearest2d_channels_last\" not implemented for '%s'", ct_dtype_name(x->dtype));
    return 0;
}

/* the backward's check of grad_output against the full output size */
static int check_grad_output(const ct_tensor *g, const int64_t *is, int64_t OH, int64_t OW) {
    if (g->ndim != 4)
        return ct_error_set(CT_ERR_RUNTIME, "Expected grad_output to be a tensor of dimension 4 but got: dimension %d", g->ndim);
    const int64_t full[4] = {is[0], is[1], OH, OW};
    for (int i = 0; i < 4; i++)
        if (g->sizes[i] != full[i])
            return ct_error_set(CT_ERR_RUNTIME,
                                "Expected grad_output to have the same shape as output; output.size(%d) = %lld but got grad_output.size(%d) = %lld",
                                i, (long long)full[i], i, (long long)g->sizes[i]);
    return 0;
}

/* nearest_idx: the source index of output o */
static int64_t nearest_idx(int64_t o, int64_t in, int64_t out, const ct_value *scale) {
    if (out == in) return o;
    if (out == 2 * in) return o >> 1;
    const float s = scales_value(scale, in, out);
    int64_t i = (int64_t)floorf((float)o * s);
    return i < in - 1 ? i : in - 1;
}

/* the planes of x (contiguous copy) as doubles, or NULL */
static double *planes(const ct_tensor *t) { return ct_to_double_buffer(t); }

/* upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) */
int ct_k_upsample_nearest2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x = ARG_T(0);
    const int64_t *os = args[1].u.list.data;
    if (check_input(x, os, args[1].u.list.len) != 0) return -1;
    const int64_t NC = x->sizes[0] * x->sizes[1], H = x->sizes[2], W = x->sizes[3], OH = os[0], OW = os[1];
    int64_t shape[4] = {x->sizes[0], x->sizes[1], OH, OW};
    ct_tensor *y = ct_tensor_alloc(shape, 4, x->dtype, false);
    int64_t *ih = y ? ct_malloc(sizeof(int64_t) * (size_t)(OH + OW)) : NULL;
    double *xv = ih && x->numel ? planes(x) : NULL;
    if (!y || !ih || (x->numel && !xv)) {
        ct_tensor_release(y);
        ct_free(ih);
        ct_free(xv);
        return -1;
    }
    int64_t *iw = ih + OH;
    for (int64_t o = 0; o < OH; o++) ih[o] = nearest_idx(o, H, OH, &args[2]);
    for (int64_t o = 0; o < OW; o++) iw[o] = nearest_idx(o, W, OW, &args[3]);
    char *yd = (char *)y->storage->data;
    const size_t es = ct_dtype_size(x->dtype);
    for (int64_t p = 0; p < NC; p++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++)
                ct_store_from_double(yd + (size_t)((p * OH + oh) * OW + ow) * es, x->dtype, xv[(p * H + ih[oh]) * W + iw[ow]]);
    ct_free(ih);
    ct_free(xv);
    return ct_ret(rets, 0, y);
}

/* upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size,
 *   float? scales_h=None, float? scales_w=None): each gradient added into its source, in order */
int ct_k_upsample_nearest2d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0);
    const int64_t *os = args[1].u.list.data, *is = args[2].u.list.data;
    if (check_2d(is, args[2].u.list.len, os, args[1].u.list.len) != 0) return -1;
    const int64_t NC = is[0] * is[1], H = is[2], W = is[3], OH = os[0], OW = os[1];
    if (check_grad_output(g, is, OH, OW) != 0) return -1;
    if (!ct_dtype_is_floating(g->dtype) && g->dtype != CT_UINT8)
        return ct_error_set(CT_ERR_RUNTIME, "\"upsample_nearest2d_backward_cl\" not implemented for '%s'", ct_dtype_name(g->dtype));
    ct_tensor *gi = ct_tensor_alloc(is, 4, g->dtype, true);
    int64_t *ih = gi ? ct_malloc(sizeof(int64_t) * (size_t)(OH + OW)) : NULL;
    double *gv = ih && g->numel ? planes(g) : NULL;
    double *acc = gv ? ct_calloc((size_t)(NC * H * W), sizeof(double)) : NULL;
    if (!gi || !ih || (g->numel && (!gv || !acc))) {
        ct_tensor_release(gi);
        ct_free(ih);
        ct_free(gv);
        ct_free(acc);
        return -1;
    }
    int64_t *iw = ih + OH;
    for (int64_t o = 0; o < OH; o++) ih[o] = nearest_idx(o, H, OH, &args[3]);
    for (int64_t o = 0; o < OW; o++) iw[o] = nearest_idx(o, W, OW, &args[4]);
    const bool f32 = g->dtype == CT_FLOAT32;
    float *accf = f32 ? (float *)gi->storage->data : NULL;
    for (int64_t p = 0; g->numel && p < NC; p++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++) {
                const int64_t dst = (p * H + ih[oh]) * W + iw[ow];
                const double v = gv[(p * OH + oh) * OW + ow];
                if (f32) accf[dst] = accf[dst] + (float)v;
                else acc[dst] += v;
            }
    if (!f32)
        for (int64_t i = 0; g->numel && i < NC * H * W; i++) ct_store_from_double(ct_tensor_elem_ptr(gi, i), gi->dtype, acc[i]);
    ct_free(ih);
    ct_free(gv);
    ct_free(acc);
    return ct_ret(rets, 0, gi);
}

/* the weights of one dimension in double (non-float32 types) */
static void linear_weights_d(int64_t in, int64_t out, bool align, double scale, int64_t *i0, int64_t *i1, double *l0, double *l1) {
    for (int64_t o = 0; o < out; o++) {
        if (out == in) {
            i0[o] = i1[o] = o;
            l0[o] = 1;
            l1[o] = 0;
            continue;
        }
        double real = align ? scale * (double)o : scale * ((double)o + 0.5) - 0.5;
        if (!align && real < 0) real = 0;
        int64_t idx = (int64_t)floor(real);
        if (idx > in - 1) idx = in - 1;
        double lam = real - (double)idx;
        lam = lam < 0 ? 0 : (lam > 1 ? 1 : lam);
        i0[o] = idx;
        i1[o] = idx + (idx < in - 1 ? 1 : 0);
        l1[o] = lam;
        l0[o] = 1 - lam;
    }
}

/* area_pixel_compute_scale */
static double area_scale(int64_t in, int64_t out, bool align, const ct_value *s, bool f32) {
    if (align) return out > 1 ? (f32 ? (double)((float)(in - 1) / (float)(out - 1)) : (double)(in - 1) / (double)(out - 1)) : 0;
    return f32 ? (double)scales_value(s, in, out) : scales_value_d(s, in, out);
}

/* the shared part of the bilinear forward and backward: weights of both dimensions */
typedef struct bl_w {
    int64_t *h0, *h1, *w0, *w1;
    float *hl0f, *hl1f, *wl0f, *wl1f;
    double *hl0, *hl1, *wl0, *wl1;
    void *mem;
} bl_w;

static int bl_weights(bl_w *b, int64_t H, int64_t W, int64_t OH, int64_t OW, bool align, const ct_value *sh, const ct_value *sw,
                      bool f32) {
    const size_t n = (size_t)(OH + OW);
    b->mem = ct_malloc(n * 2 * sizeof(int64_t) + n * 2 * (f32 ? sizeof(float) : sizeof(double)));
    if (!b->mem) return -1;
    int64_t *ip = b->mem;
    b->h0 = ip, b->h1 = ip + OH, b->w0 = ip + 2 * OH, b->w1 = ip + 2 * OH + OW;
    if (f32) {
        float *fp = (float *)(ip + 2 * n);
        b->hl0f = fp, b->hl1f = fp + OH, b->wl0f = fp + 2 * OH, b->wl1f = fp + 2 * OH + OW;
        const ct_vec_kernels *vk = ct_vec();
        vk->linear_weights_f32(H, OH, align, (float)area_scale(H, OH, align, sh, true), b->h0, b->h1, b->hl0f, b->hl1f);
        vk->linear_weights_f32(W, OW, align, (float)area_scale(W, OW, align, sw, true), b->w0, b->w1, b->wl0f, b->wl1f);
    } else {
        double *dp = (double *)(ip + 2 * n);
        b->hl0 = dp, b->hl1 = dp + OH, b->wl0 = dp + 2 * OH, b->wl1 = dp + 2 * OH + OW;
        linear_weights_d(H, OH, align, area_scale(H, OH, align, sh, false), b->h0, b->h1, b->hl0, b->hl1);
        linear_weights_d(W, OW, align, area_scale(W, OW, align, sw, false), b->w0, b->w1, b->wl0, b->wl1);
    }
    return 0;
}

/* upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None,
 *   float? scales_w=None) */
int ct_k_upsample_bilinear2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x = ARG_T(0);
    const int64_t *os = args[1].u.list.data;
    const bool align = ARG_B(2);
    if (check_2d(x->sizes, x->ndim, os, args[1].u.list.len) != 0) return -1;
    if (!ct_dtype_is_floating(x->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"upsample_bilinear2d_channels_last\" not implemented for '%s'", ct_dtype_name(x->dtype));
    const int64_t NC = x->sizes[0] * x->sizes[1], H = x->sizes[2], W = x->sizes[3], OH = os[0], OW = os[1];
    int64_t shape[4] = {x->sizes[0], x->sizes[1], OH, OW};
    ct_tensor *y = ct_tensor_alloc(shape, 4, x->dtype, false);
    const bool f32 = x->dtype == CT_FLOAT32;
    bl_w b = {0};
    if (!y || bl_weights(&b, H, W, OH, OW, align, &args[3], &args[4], f32) != 0) {
        ct_tensor_release(y);
        return -1;
    }
    int rc = 0;
    /* _use_vectorized_kernel_cond_2d: small outputs take the channels-last kernel */
    const bool combined = OH + OW <= 128 || (ct_get_num_threads() == 1 && x->sizes[1] == 3);
    if (f32 && x->numel) {
        float *own = NULL;
        const float *xf = ct_float_elements(x, &own);
        if (!xf) rc = -1;
        for (int64_t p = 0; rc == 0 && p < NC; p++)
            ct_vec()->bilinear_plane_f32(xf + p * H * W, W, OH, OW, b.h0, b.h1, b.hl0f, b.hl1f, b.w0, b.w1, b.wl0f, b.wl1f, combined,
                                         (float *)y->storage->data + p * OH * OW);
        ct_free(own);
    } else if (x->numel) {
        double *xv = planes(x);
        if (!xv) rc = -1;
        for (int64_t p = 0; rc == 0 && p < NC; p++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    const double *r0 = xv + (p * H + b.h0[oh]) * W, *r1 = xv + (p * H + b.h1[oh]) * W;
                    const double t0 = r0[b.w0[ow]] * b.wl0[ow] + r0[b.w1[ow]] * b.wl1[ow];
                    const double t1 = r1[b.w0[ow]] * b.wl0[ow] + r1[b.w1[ow]] * b.wl1[ow];
                    ct_store_from_double(ct_tensor_elem_ptr(y, (p * OH + oh) * OW + ow), y->dtype, t0 * b.hl0[oh] + t1 * b.hl1[oh]);
                }
        ct_free(xv);
    }
    ct_free(b.mem);
    if (rc != 0) {
        ct_tensor_release(y);
        return -1;
    }
    return ct_ret(rets, 0, y);
}

/* upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size,
 *   bool align_corners, float? scales_h=None, float? scales_w=None) */
int ct_k_upsample_bilinear2d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0);
    const int64_t *os = args[1].u.list.data, *is = args[2].u.list.data;
    const bool align = ARG_B(3);
    if (check_2d(is, args[2].u.list.len, os, args[1].u.list.len) != 0) return -1;
    const int64_t NC = is[0] * is[1], H = is[2], W = is[3], OH = os[0], OW = os[1];
    if (check_grad_output(g, is, OH, OW) != 0) return -1;
    if (!ct_dtype_is_floating(g->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"upsample_bilinear2d_backward_channels_last\" not implemented for '%s'", ct_dtype_name(g->dtype));
    const bool f32 = g->dtype == CT_FLOAT32;
    ct_tensor *gi = ct_tensor_alloc(is, 4, g->dtype, true);
    bl_w b = {0};
    if (!gi || bl_weights(&b, H, W, OH, OW, align, &args[4], &args[5], f32) != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    int rc = 0;
    if (f32 && g->numel) {
        float *own = NULL;
        const float *gf = ct_float_elements(g, &own);
        if (!gf) rc = -1;
        for (int64_t p = 0; rc == 0 && p < NC; p++)
            ct_vec()->bilinear_plane_bw_f32(gf + p * OH * OW, W, OH, OW, b.h0, b.h1, b.hl0f, b.hl1f, b.w0, b.w1, b.wl0f, b.wl1f,
                                            (float *)gi->storage->data + p * H * W);
        ct_free(own);
    } else if (g->numel) {
        double *gv = planes(g), *acc = gv ? ct_calloc((size_t)(NC * H * W), sizeof(double)) : NULL;
        if (!acc) rc = -1;
        for (int64_t p = 0; rc == 0 && p < NC; p++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    const double v = gv[(p * OH + oh) * OW + ow];
                    double *a = acc + (p * H + b.h0[oh]) * W, *c = acc + (p * H + b.h1[oh]) * W;
                    a[b.w0[ow]] += b.hl0[oh] * b.wl0[ow] * v;
                    a[b.w1[ow]] += b.hl0[oh] * b.wl1[ow] * v;
                    c[b.w0[ow]] += b.hl1[oh] * b.wl0[ow] * v;
                    c[b.w1[ow]] += b.hl1[oh] * b.wl1[ow] * v;
                }
        for (int64_t i = 0; rc == 0 && i < NC * H * W; i++) ct_store_from_double(ct_tensor_elem_ptr(gi, i), gi->dtype, acc[i]);
        ct_free(gv);
        ct_free(acc);
    }
    ct_free(b.mem);
    if (rc != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}

/* ---- nearest over 1 and 3 spatial dimensions (UpSampleNearest1d.cpp, UpSampleNearest3d.cpp) ---- */

/* upsample_1d/3d_common_check and the meta function's non-empty check, for nd spatial dims */
static int check_nd(int nd, const int64_t *in, int64_t in_len, const int64_t *out, int64_t out_len, const ct_tensor *x) {
    if (out_len != nd)
        return ct_error_set(CT_ERR_RUNTIME, "It is expected output_size equals to %d, but got size %lld", nd, (long long)out_len);
    if (in_len != nd + 2)
        return ct_error_set(CT_ERR_RUNTIME, "It is expected input_size equals to %d, but got size %lld", nd + 2, (long long)in_len);
    bool ok = true;
    for (int i = 0; i < nd; i++) ok = ok && in[i + 2] > 0 && out[i] > 0;
    if (!ok) {
        if (nd == 1)
            return ct_error_set(CT_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (W: %lld) and output (W: %lld)",
                                (long long)in[2], (long long)out[0]);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Input and output sizes should be greater than 0, but got input (D: %lld, H: %lld, W: %lld) output (D: %lld, H: %lld, W: %lld)",
                            (long long)in[2], (long long)in[3], (long long)in[4], (long long)out[0], (long long)out[1], (long long)out[2]);
    }
    if (x) {
        int64_t rest = 1;
        for (int d = 1; d < x->ndim; d++) rest *= x->sizes[d];
        if (x->numel == 0 && rest == 0) {
            char b[256];
            ct_format_shape(x->sizes, x->ndim, b, sizeof b);
            return ct_error_set(CT_ERR_RUNTIME, "Non-empty %dD data tensor expected but got a tensor with sizes %s", nd + 2, b);
        }
    }
    return 0;
}

/* the nearest source offset of each output element of a plane, for nd dims (scales: args) */
static int64_t *nearest_map(int nd, const int64_t *in, const int64_t *out, const ct_value *scales, int64_t *plane_in,
                            int64_t *plane_out) {
    int64_t pin = 1, pout = 1;
    for (int i = 0; i < nd; i++) pin *= in[i], pout *= out[i];
    int64_t *map = ct_malloc(sizeof(int64_t) * (size_t)(pout ? pout : 1));
    if (!map) return NULL;
    for (int64_t o = 0; o < pout; o++) {
        int64_t rem = o, src = 0, stride = 1;
        for (int i = nd - 1; i >= 0; i--) {
            const int64_t oi = rem % out[i];
            rem /= out[i];
            src += nearest_idx(oi, in[i], out[i], &scales[i]) * stride;
            stride *= in[i];
        }
        map[o] = src;
    }
    *plane_in = pin;
    *plane_out = pout;
    return map;
}

static int nearest_nd(int nd, ct_value *args, ct_value *rets) {
    ct_tensor *x = ARG_T(0);
    const int64_t *os = args[1].u.list.data;
    if (check_nd(nd, x->sizes, x->ndim, os, args[1].u.list.len, x) != 0) return -1;
    if (!ct_dtype_is_floating(x->dtype) && x->dtype != CT_UINT8)
        return ct_error_set(CT_ERR_RUNTIME, "\"compute_indices_weights_nearest\" not implemented for '%s'", ct_dtype_name(x->dtype));
    int64_t shape[5] = {x->sizes[0], x->sizes[1]}, pin, pout;
    for (int i = 0; i < nd; i++) shape[i + 2] = os[i];
    int64_t *map = nearest_map(nd, x->sizes + 2, os, &args[2], &pin, &pout);
    ct_tensor *y = map ? ct_tensor_alloc(shape, nd + 2, x->dtype, false) : NULL;
    double *xv = y && x->numel ? planes(x) : NULL;
    if (!y || (x->numel && !xv)) {
        ct_free(map);
        ct_tensor_release(y);
        return -1;
    }
    const int64_t NC = x->sizes[0] * x->sizes[1];
    for (int64_t p = 0; x->numel && p < NC; p++)
        for (int64_t o = 0; o < pout; o++) ct_store_from_double(ct_tensor_elem_ptr(y, p * pout + o), y->dtype, xv[p * pin + map[o]]);
    ct_free(map);
    ct_free(xv);
    return ct_ret(rets, 0, y);
}

static int nearest_nd_backward(int nd, ct_value *args, ct_value *rets) {
    ct_tensor *g = ARG_T(0);
    const int64_t *os = args[1].u.list.data, *is = args[2].u.list.data;
    if (check_nd(nd, is, args[2].u.list.len, os, args[1].u.list.len, NULL) != 0) return -1;
    if (g->ndim != nd + 2)
        return ct_error_set(CT_ERR_RUNTIME, "Expected grad_output to be a tensor of dimension %d but got: dimension %d", nd + 2, g->ndim);
    for (int i = 0; i < nd + 2; i++) {
        const int64_t want = i < 2 ? is[i] : os[i - 2];
        if (g->sizes[i] != want)
            return ct_error_set(CT_ERR_RUNTIME,
                                "Expected grad_output to have the same shape as output; output.size(%d) = %lld but got grad_output.size(%d) = %lld",
                                i, (long long)want, i, (long long)g->sizes[i]);
    }
    if (!ct_dtype_is_floating(g->dtype))
        return ct_error_set(CT_ERR_RUNTIME, nd == 1 ? "\"upsample_nearest1d_backward\" not implemented for '%s'"
                                                    : "\"_upsample_nearest3d_backward_cl\" not implemented for '%s'",
                            ct_dtype_name(g->dtype));
    int64_t pin, pout;
    int64_t *map = nearest_map(nd, is + 2, os, &args[3], &pin, &pout);
    ct_tensor *gi = map ? ct_tensor_alloc(is, nd + 2, g->dtype, true) : NULL;
    const int64_t NC = is[0] * is[1];
    double *gv = gi && g->numel ? planes(g) : NULL, *acc = gv ? ct_calloc((size_t)(NC * pin), sizeof(double)) : NULL;
    if (!gi || (g->numel && !acc)) {
        ct_free(map);
        ct_free(gv);
        ct_tensor_release(gi);
        return -1;
    }
    const bool f32 = g->dtype == CT_FLOAT32;
    float *accf = f32 ? (float *)gi->storage->data : NULL;
    for (int64_t p = 0; g->numel && p < NC; p++)
        for (int64_t o = 0; o < pout; o++) {
            const int64_t dst = p * pin + map[o];
            if (f32) accf[dst] = accf[dst] + (float)gv[p * pout + o];
            else acc[dst] += gv[p * pout + o];
        }
    if (!f32)
        for (int64_t i = 0; g->numel && i < NC * pin; i++) ct_store_from_double(ct_tensor_elem_ptr(gi, i), gi->dtype, acc[i]);
    ct_free(map);
    ct_free(gv);
    ct_free(acc);
    return ct_ret(rets, 0, gi);
}

/* upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) */
int ct_k_upsample_nearest1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return nearest_nd(1, args, rets);
}

/* upsample_nearest1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, float? scales=None) */
int ct_k_upsample_nearest1d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return nearest_nd_backward(1, args, rets);
}

/* upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) */
int ct_k_upsample_nearest3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return nearest_nd(3, args, rets);
}

/* upsample_nearest3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size,
 *   float? scales_d=None, float? scales_h=None, float? scales_w=None) */
int ct_k_upsample_nearest3d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return nearest_nd_backward(3, args, rets);
}
