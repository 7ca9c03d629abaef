/* glu and glu_backward, the CPU kernels (Activation.cpp's meta checks, cpu/Activation.cpp's
 * glu_kernel / glu_backward_kernel): the input split in halves a, b along dim;
 * glu = a * sigmoid(b), sigmoid(b) = 1 / (1 + exp(-b)); the backward gives the first half
 * sigmoid(b) * grad and the second a * sigmoid(b) * (1 - sigmoid(b)) * grad. Each element is
 * computed in the dtype's opmath type (float for float32, float16 and bfloat16; double for
 * float64), in PyTorch's order. */
#include <math.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

/* the checks glu's meta function makes; *dim wrapped, *half the halved size */
static int glu_check(const ct_tensor *self, int64_t dim_arg, int64_t *dim, int64_t *half, const char *kname) {
    if (self->ndim == 0) return ct_error_set(CT_ERR_RUNTIME, "glu does not support scalars because halving size must be even");
    if (ct_wrap_dim(dim_arg, self->ndim, dim) != 0) return -1;
    int64_t n = self->sizes[*dim];
    if (n % 2 != 0)
        return ct_error_set(CT_ERR_RUNTIME, "Halving dimension must be even, but dimension %lld is size %lld", (long long)*dim,
                            (long long)n);
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kname, ct_dtype_name(self->dtype));
    *half = n / 2;
    return 0;
}

/* a logical element index of the output (half-size along dim) to the input's indices of a and b */
static void split_index(const ct_tensor *self, int dim, int64_t half, int64_t i, int64_t *ia, int64_t *ib) {
    int64_t inner = 1;
    for (int d = dim + 1; d < self->ndim; d++) inner *= self->sizes[d];
    int64_t in = i % inner, k = (i / inner) % half, outer = i / (inner * half);
    *ia = (outer * 2 * half + k) * inner + in;
    *ib = (outer * 2 * half + k + half) * inner + in;
}

/* glu(Tensor self, int dim=-1) -> Tensor */
int ct_k_glu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim, half;
    if (glu_check(self, ARG_I(1), &dim, &half, "glu_cpu") != 0) return -1;
    int64_t sizes[CT_MAX_DIMS];
    for (int d = 0; d < self->ndim; d++) sizes[d] = self->sizes[d];
    sizes[dim] = half;
    ct_tensor *out = ct_tensor_alloc(sizes, self->ndim, self->dtype, false);
    if (!out) return -1;
    if (out->numel > 0) {
        double *x = ct_to_double_buffer(self);
        if (!x) {
            ct_tensor_release(out);
            return -1;
        }
        char *o = ct_tensor_data_ptr(out);
        size_t es = ct_dtype_size(out->dtype);
        bool dbl = self->dtype == CT_FLOAT64;
        for (int64_t i = 0; i < out->numel; i++) {
            int64_t ia, ib;
            split_index(self, (int)dim, half, i, &ia, &ib);
            double r;
            if (dbl) {
                r = x[ia] * (1.0 / (1.0 + exp(-x[ib])));
            } else {
                float a = (float)x[ia], b = (float)x[ib];
                r = (double)(a * (1.0f / (1.0f + expf(-b))));
            }
            ct_store_from_double(o + (size_t)i * es, out->dtype, r);
        }
        ct_free(x);
    }
    return ct_ret(rets, 0, out);
}

/* glu_backward(Tensor grad_output, Tensor self, int dim) -> Tensor */
int ct_k_glu_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0), *self = ARG_T(1);
    int64_t dim, half;
    if (glu_check(self, ARG_I(2), &dim, &half, "glu_backward_cpu") != 0) return -1;
    { /* the iterator over (the first half of grad_input, a, b, grad_output) broadcasts grad_output */
        int64_t hs[CT_MAX_DIMS], bs[CT_MAX_DIMS];
        int nb;
        for (int d = 0; d < self->ndim; d++) hs[d] = self->sizes[d];
        hs[dim] = half;
        if (ct_broadcast_shapes(hs, self->ndim, grad->sizes, grad->ndim, bs, &nb) != 0) return -1;
        if (ct_check_output_shape(grad, hs, self->ndim) != 0) return -1;
    }
    ct_tensor *gi = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, false);
    if (!gi) return -1;
    if (gi->numel > 0) {
        double *x = ct_to_double_buffer(self), *g = x ? ct_to_double_buffer(grad) : NULL;
        if (!g) {
            ct_free(x);
            ct_tensor_release(gi);
            return -1;
        }
        char *o = ct_tensor_data_ptr(gi);
        size_t es = ct_dtype_size(gi->dtype);
        bool dbl = self->dtype == CT_FLOAT64;
        for (int64_t i = 0; i < grad->numel; i++) {
            int64_t ia, ib;
            split_index(self, (int)dim, half, i, &ia, &ib);
            double ga, gb;
            if (dbl) {
                double s = 1.0 / (1.0 + exp(-x[ib]));
                ga = s * g[i];
                gb = x[ia] * s * (1.0 - s) * g[i];
            } else {
                float a = (float)x[ia], b = (float)x[ib], go = (float)g[i];
                float s = 1.0f / (1.0f + expf(-b));
                ga = (double)(s * go);
                gb = (double)(a * s * (1.0f - s) * go);
            }
            ct_store_from_double(o + (size_t)ia * es, gi->dtype, ga);
            ct_store_from_double(o + (size_t)ib * es, gi->dtype, gb);
        }
        ct_free(x);
        ct_free(g);
    }
    return ct_ret(rets, 0, gi);
}
