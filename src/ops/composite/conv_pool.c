/* The CompositeImplicitAutograd convolution and pooling entry points (Convolution.cpp,
 * Pooling.cpp, AdaptiveAveragePooling.cpp), decomposed as PyTorch 2.6's C++ decomposes them so
 * that a dispatch mode sees the same operators: conv1d/2d/3d and conv_transpose1d/2d/3d batchify
 * an unbatched input with unsqueeze(0), call convolution and squeeze(0) the result; the .padding
 * overloads go through _convolution_mode ("same": convolution_same, "valid": no padding). */
#include <stdio.h>
#include <string.h>

#include "core/tls.h"
#include "ops/cpu/conv.h"
#include "ops/kernel_util.h"

/* caffe2::TypeMeta::name() of a dtype, as conv1d/2d/3d's bias check prints it */
static const char *type_meta_name(ct_dtype dt) {
    switch (dt) {
    case CT_FLOAT32: return "float";
    case CT_FLOAT64: return "double";
    case CT_FLOAT16: return "c10::Half";
    case CT_BFLOAT16: return "c10::BFloat16";
    case CT_INT64: return "long int";
    case CT_INT32: return "int";
    case CT_INT16: return "short int";
    case CT_INT8: return "signed char";
    case CT_UINT8: return "unsigned char";
    case CT_BOOL: return "bool";
    default: return ct_dtype_name(dt);
    }
}

static int check_bias_dtype(const ct_tensor *input, const ct_tensor *bias) {
    if (bias && bias->dtype != input->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "Input type (%s) and bias type (%s) should be the same", type_meta_name(input->dtype),
                            type_meta_name(bias->dtype));
    return 0;
}

/* batchify: a batched input as it is, an unbatched one unsqueezed at 0 (new reference) */
static ct_tensor *batchify(ct_tensor *input, int spatial, const char *name, bool *batched) {
    int nb = spatial + 1;
    *batched = input->ndim == nb + 1;
    if (input->ndim != nb && !*batched) {
        char a[256];
        ct_format_shape(input->sizes, input->ndim, a, sizeof a);
        ct_error_set(CT_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s", nb, nb + 1, name, a);
        return NULL;
    }
    return *batched ? ct_tensor_retain(input) : ct_unsqueeze(input, 0);
}

static int unbatch(ct_value *rets, ct_tensor *out, bool batched) {
    if (!out || batched) return ct_ret(rets, 0, out);
    ct_tensor *r = ct_squeeze_dim(out, 0);
    ct_tensor_release(out);
    return ct_ret(rets, 0, r);
}

#define LIST(k_) args[k_].u.list.data, args[k_].u.list.len

/* conv1d/2d/3d(Tensor input, Tensor weight, Tensor? bias, SymInt[n] stride, SymInt[n] padding,
 *   SymInt[n] dilation, SymInt groups) */
static int conv_nd(ct_value *args, ct_value *rets, int spatial, const char *name) {
    ct_tensor *input = ARG_T(0), *bias = ARG_OPT_T(2);
    if (check_bias_dtype(input, bias) != 0) return -1;
    bool batched;
    ct_tensor *in = batchify(input, spatial, name, &batched);
    if (!in) return -1;
    int64_t zeros[3] = {0, 0, 0};
    ct_tensor *out = ct_convolution(in, ARG_T(1), bias, LIST(3), LIST(4), LIST(5), false, zeros, spatial, ARG_I(6));
    ct_tensor_release(in);
    return unbatch(rets, out, batched);
}

int ct_k_conv1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd(args, rets, 1, "conv1d");
}
int ct_k_conv2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd(args, rets, 2, "conv2d");
}
int ct_k_conv3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd(args, rets, 3, "conv3d");
}

/* conv1d/2d/3d.padding(..., SymInt[n] stride, str padding, SymInt[n] dilation, SymInt groups):
 * _convolution_mode on the batchified input */
static int conv_nd_padding(ct_value *args, ct_value *rets, int spatial, const char *name) {
    ct_tensor *input = ARG_T(0), *bias = ARG_OPT_T(2);
    if (check_bias_dtype(input, bias) != 0) return -1;
    bool batched;
    ct_tensor *in = batchify(input, spatial, name, &batched);
    if (!in) return -1;
    ct_tensor *out = ct__convolution_mode(in, ARG_T(1), bias, LIST(3), args[4].u.s, LIST(5), ARG_I(6));
    ct_tensor_release(in);
    return unbatch(rets, out, batched);
}

int ct_k_conv1d_padding(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd_padding(args, rets, 1, "conv1d");
}
int ct_k_conv2d_padding(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd_padding(args, rets, 2, "conv2d");
}
int ct_k_conv3d_padding(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_nd_padding(args, rets, 3, "conv3d");
}

/* convolution_same: padding d*(k-1)/2 on the left, the rest on the right (pooling_same_mode_padding_lr
 * at stride 1); symmetric padding goes to convolution as it is */
static ct_tensor *convolution_same(ct_tensor *input, ct_tensor *weight, ct_tensor *bias, const int64_t *stride, int64_t ns,
                                   const int64_t *dilation, int64_t ndl, int64_t groups) {
    int k = weight->ndim;
    if (k <= 2) {
        ct_error_set(CT_ERR_RUNTIME, "weight should have at least three dimensions");
        return NULL;
    }
    if (groups <= 0) {
        ct_error_set(CT_ERR_RUNTIME, "non-positive groups is not supported");
        return NULL;
    }
    int dim = k - 2;
    if (k != input->ndim) {
        char a[256], b[256];
        ct_format_shape(weight->sizes, weight->ndim, a, sizeof a);
        ct_format_shape(input->sizes, input->ndim, b, sizeof b);
        ct_error_set(CT_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight%s, but got %d-dimensional input of size %s instead", k, k,
                     a, input->ndim, b);
        return NULL;
    }
    if (!(ns == dim || ns == 1)) {
        ct_error_set(CT_ERR_RUNTIME, "stride cannot broadcast to %d dimensions", dim);
        return NULL;
    }
    if (!(ndl == dim || ndl == 1)) {
        ct_error_set(CT_ERR_RUNTIME, "dilation cannot broadcast to %d dimensions", dim);
        return NULL;
    }
    for (int64_t i = 0; i < ns; i++)
        if (stride[i] != 1) {
            ct_error_set(CT_ERR_RUNTIME, "padding='same' is not supported for strided convolutions");
            return NULL;
        }
    int64_t pad_l[3], out_pad[3] = {0, 0, 0};
    bool symmetric = true;
    for (int i = 0; i < dim && i < 3; i++) {
        int64_t d = ndl == 1 ? dilation[0] : dilation[i];
        int64_t total = d * (weight->sizes[i + 2] - 1);
        pad_l[i] = total / 2;
        if (total - pad_l[i] != pad_l[i]) symmetric = false;
    }
    if (!symmetric) {
        /* PyTorch pads the input by the difference (constant_pad_nd) and calls convolution on it:
         * convolution's own mistakes are found first */
        int64_t psz[CT_MAX_DIMS], pr[3];
        memcpy(psz, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
        for (int i = 0; i < dim && i < 3; i++) {
            int64_t d = ndl == 1 ? dilation[0] : dilation[i];
            int64_t total = d * (weight->sizes[i + 2] - 1);
            psz[i + 2] += total - 2 * pad_l[i];
            pr[i] = pad_l[i];
        }
        ct_value vs = ct_intlist(stride, ns), vp = ct_intlist(pr, dim), vd = ct_intlist(dilation, ndl), vo = ct_intlist(out_pad, dim);
        if (ct_conv_forward_checks(input->ndim, psz, weight, bias, &vs, &vp, &vd, false, &vo, groups) != 0) return NULL;
        ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: padding='same' with an even kernel length and odd dilation pads the input with constant_pad_nd, which ctorch does not have");
        return NULL;
    }
    return ct_convolution(input, weight, bias, stride, ns, pad_l, dim, dilation, ndl, false, out_pad, dim, groups);
}

/* _convolution_mode(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, str padding,
 *   SymInt[] dilation, SymInt groups) */
int ct_k__convolution_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    const char *mode = args[4].u.s;
    if (strcmp(mode, "same") == 0)
        return ct_ret(rets, 0, convolution_same(ARG_T(0), ARG_T(1), ARG_OPT_T(2), LIST(3), LIST(5), ARG_I(6)));
    if (strcmp(mode, "valid") == 0) {
        int64_t zero = 0;
        return ct_ret(rets, 0, ct_convolution(ARG_T(0), ARG_T(1), ARG_OPT_T(2), LIST(3), &zero, 1, LIST(5), false, &zero, 1, ARG_I(6)));
    }
    return ct_error_set(CT_ERR_RUNTIME, "Invalid padding string: '%s'", mode);
}

/* conv_transpose1d/2d/3d(Tensor input, Tensor weight, Tensor? bias, SymInt[n] stride,
 *   SymInt[n] padding, SymInt[n] output_padding, SymInt groups, SymInt[n] dilation) */
static int conv_transpose_nd(ct_value *args, ct_value *rets, int spatial, const char *name) {
    bool batched;
    ct_tensor *in = batchify(ARG_T(0), spatial, name, &batched);
    if (!in) return -1;
    ct_tensor *out = ct_convolution(in, ARG_T(1), ARG_OPT_T(2), LIST(3), LIST(4), LIST(7), true, LIST(5), ARG_I(6));
    ct_tensor_release(in);
    return unbatch(rets, out, batched);
}

int ct_k_conv_transpose1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_transpose_nd(args, rets, 1, "conv_transpose1d");
}
int ct_k_conv_transpose2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_transpose_nd(args, rets, 2, "conv_transpose2d");
}
int ct_k_conv_transpose3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return conv_transpose_nd(args, rets, 3, "conv_transpose3d");
}

/* ---- pooling ---- */

/* Tensor::requires_grad(), read from the tensor's autograd metadata (ops sit below autograd) */
static bool requires_grad(const ct_tensor *t) { return t->autograd && (t->autograd->requires_grad || t->autograd->grad_fn); }

/* checkDimRange(name, TensorArg(self, "self", 1), 2, 4) */
static int check_dim_2_3(const ct_tensor *self, const char *name) {
    if (self->ndim >= 2 && self->ndim < 4) return 0;
    return ct_error_set(CT_ERR_RUNTIME, "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for %s)",
                        self->ndim, name);
}

/* check1d(name, arg, list) */
static int check1d(const char *name, const char *arg, const ct_value *v) {
    if (v->u.list.len == 1) return 0;
    return ct_error_set(CT_ERR_RUNTIME, "%s() argument '%s' should contain one int (got %lld)", name, arg, (long long)v->u.list.len);
}

/* a 1-d pooling as the 2-d one over self.unsqueeze(-2) */
static ct_tensor *squeeze_m2(ct_tensor *t) {
    if (!t) return NULL;
    ct_tensor *r = ct_squeeze_dim(t, -2);
    ct_tensor_release(t);
    return r;
}

/* max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
 *   int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor) */
int ct_k_max_pool1d_with_indices(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const ct_value *stride = args[2].u.list.len == 0 ? &args[1] : &args[2];
    if (check_dim_2_3(self, "max_pool1d") != 0 || check1d("max_pool1d", "kernel_size", &args[1]) != 0 ||
        check1d("max_pool1d", "stride", stride) != 0 || check1d("max_pool1d", "padding", &args[3]) != 0 ||
        check1d("max_pool1d", "dilation", &args[4]) != 0)
        return -1;
    int64_t k[2] = {1, args[1].u.list.data[0]}, s[2] = {1, stride->u.list.data[0]}, p[2] = {0, args[3].u.list.data[0]},
            d[2] = {1, args[4].u.list.data[0]};
    ct_tensor *in = ct_unsqueeze(self, -2);
    if (!in) return -1;
    ct_tensor *out = NULL, *idx = NULL;
    int rc = ct_max_pool2d_with_indices(in, k, 2, s, 2, p, 2, d, 2, ARG_B(5), &out, &idx);
    ct_tensor_release(in);
    if (rc != 0) return -1;
    out = squeeze_m2(out);
    idx = out ? squeeze_m2(idx) : (ct_tensor_release(idx), NULL);
    if (!out || !idx) {
        ct_tensor_release(out);
        ct_tensor_release(idx);
        return -1;
    }
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(idx);
    return 0;
}

/* check_max_pool1d (MaxPooling.cpp) */
static int check_max_pool1d(const ct_tensor *self, ct_value *args) {
    /* the rank (2 or 3) max_pool1d checked already */
    int64_t kl = args[1].u.list.len, sl = args[2].u.list.len, pl = args[3].u.list.len, dl = args[4].u.list.len;
    if (kl != 1)
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size %lld",
                            (long long)kl);
    if (!(sl == 0 || sl == 1))
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size %lld",
                            (long long)sl);
    if (pl != 1)
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size %lld",
                            (long long)pl);
    if (dl != 1)
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size %lld",
                            (long long)dl);
    int64_t k = args[1].u.list.data[0], s = sl ? args[2].u.list.data[0] : k, p = args[3].u.list.data[0], d = args[4].u.list.data[0];
    if (k <= 0) return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() kernel_size must be greater than zero, but got %lld", (long long)k);
    if (s <= 0) return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() stride must be greater than zero, but got %lld", (long long)s);
    if (p < 0) return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() padding must be non-negative, but got %lld", (long long)p);
    if (p > k / 2)
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() padding should be at most half of kernel size, but got padding=%lld and kernel_size=%lld",
                            (long long)p, (long long)k);
    if (d <= 0) return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() dilation must be greater than zero, but got %lld", (long long)d);
    int64_t in = self->sizes[self->ndim - 1];
    int64_t num = in + 2 * p - d * (k - 1) - 1 + (ARG_B(5) ? s - 1 : 0);
    int64_t ow = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
    if (ARG_B(5) && (ow - 1) * s >= in + p) ow--;
    if (ow <= 0) return ct_error_set(CT_ERR_RUNTIME, "max_pool1d() Invalid computed output size: %lld", (long long)ow);
    return 0;
}

/* max_pool1d: with_indices when self requires grad (or is subclass-like, as under a dispatch
 * mode); otherwise PyTorch runs max_pool1d_impl, a floating-types-only kernel, whose values
 * ctorch takes from the same pooling */
int ct_k_max_pool1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int nd = self->ndim;
    const int64_t *s = self->sizes;
    if (!((nd == 2 && s[0] != 0 && s[1] != 0) || (nd == 3 && s[1] != 0 && s[2] != 0))) {
        char a[256];
        ct_format_shape(s, nd, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", a);
    }
    if (check_max_pool1d(self, args) != 0) return -1;
    bool with_indices = (requires_grad(self) && !ct_tls_state.grad_disabled) || ct_is_tensor_subclass_like(self);
    if (!with_indices && !ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"max_pool1d_impl\" not implemented for '%s'", ct_dtype_name(self->dtype));
    ct_tensor *out = NULL, *idx = NULL;
    if (ct_max_pool1d_with_indices(self, LIST(1), LIST(2), LIST(3), LIST(4), ARG_B(5), &out, &idx) != 0) return -1;
    ct_tensor_release(idx);
    return ct_ret(rets, 0, out);
}

/* max_pool2d / max_pool3d: the values of max_pool{2,3}d_with_indices */
static int max_pool_values(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *out = NULL, *idx = NULL;
    int rc = dim == 2 ? ct_max_pool2d_with_indices(ARG_T(0), LIST(1), LIST(2), LIST(3), LIST(4), ARG_B(5), &out, &idx)
                      : ct_max_pool3d_with_indices(ARG_T(0), LIST(1), LIST(2), LIST(3), LIST(4), ARG_B(5), &out, &idx);
    if (rc != 0) return -1;
    ct_tensor_release(idx);
    return ct_ret(rets, 0, out);
}

int ct_k_max_pool2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_values(args, rets, 2);
}
int ct_k_max_pool3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_pool_values(args, rets, 3);
}

/* avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
 *   bool ceil_mode=False, bool count_include_pad=True): avg_pool2d over self.unsqueeze(-2) */
int ct_k_avg_pool1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const ct_value *stride = args[2].u.list.len == 0 ? &args[1] : &args[2];
    if (check_dim_2_3(self, "avg_pool1d") != 0 || check1d("avg_pool1d", "kernel_size", &args[1]) != 0 ||
        check1d("avg_pool1d", "stride", stride) != 0 || check1d("avg_pool1d", "padding", &args[3]) != 0)
        return -1;
    int64_t k[2] = {1, args[1].u.list.data[0]}, s[2] = {1, stride->u.list.data[0]}, p[2] = {0, args[3].u.list.data[0]};
    ct_tensor *in = ct_unsqueeze(self, -2);
    if (!in) return -1;
    ct_tensor *out = ct_avg_pool2d(in, k, 2, s, 2, p, 2, ARG_B(4), ARG_B(5), NULL);
    ct_tensor_release(in);
    return ct_ret(rets, 0, squeeze_m2(out));
}

/* adaptive_avg_pool1d(Tensor self, int[1] output_size): adaptive_avg_pool2d(self.unsqueeze(-2),
 * {1, output_size[0]}).squeeze(-2) */
int ct_k_adaptive_avg_pool1d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (check_dim_2_3(self, "adaptive_avg_pool1d") != 0 || check1d("adaptive_avg_pool1d", "output_size", &args[1]) != 0) return -1;
    int64_t o[2] = {1, args[1].u.list.data[0]};
    ct_tensor *in = ct_unsqueeze(self, -2);
    if (!in) return -1;
    ct_tensor *out = ct_adaptive_avg_pool2d(in, o, 2);
    ct_tensor_release(in);
    return ct_ret(rets, 0, squeeze_m2(out));
}

/* adaptive_avg_pool2d / 3d: an output of ones is the mean over the pooled dimensions (keepdim),
 * anything else _adaptive_avg_pool2d / 3d */
static int adaptive_avg(ct_value *args, ct_value *rets, int dim) {
    ct_tensor *self = ARG_T(0);
    const char *name = dim == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d";
    const int64_t *o = args[1].u.list.data;
    if (args[1].u.list.len != dim) return ct_error_set(CT_ERR_RUNTIME, "%s: output_size must be %d", name, dim);
    bool neg = false, ones = true;
    for (int i = 0; i < dim; i++) {
        neg |= o[i] < 0;
        ones &= o[i] == 1;
    }
    if (neg) {
        if (dim == 2)
            return ct_error_set(CT_ERR_RUNTIME, "%s: elements of output_size must be greater than or equal to 0 but received {%lld, %lld}", name,
                                (long long)o[0], (long long)o[1]);
        return ct_error_set(CT_ERR_RUNTIME, "%s: elements of output_size must be greater than or equal to 0 but received {%lld, %lld,%lld}",
                            name, (long long)o[0], (long long)o[1], (long long)o[2]);
    }
    if (ones) {
        int64_t dims[3] = {-1, -2, -3};
        return ct_ret(rets, 0, ct_mean_dim(self, dims, dim, true, CT_DTYPE_UNDEFINED));
    }
    return ct_ret(rets, 0, dim == 2 ? ct__adaptive_avg_pool2d(self, o, 2) : ct__adaptive_avg_pool3d(self, o, 3));
}

int ct_k_adaptive_avg_pool2d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg(args, rets, 2);
}
int ct_k_adaptive_avg_pool3d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return adaptive_avg(args, rets, 3);
}
