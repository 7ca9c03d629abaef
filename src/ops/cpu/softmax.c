/* _softmax and _softmax_backward_data (SoftMax.cpp, cpu/SoftMaxKernel.cpp). In float32 the
 * backward, and the forward over the last dimension, run PyTorch's float kernel's operations in
 * its order (src/ops/cpu/vec/softmax_vec.c, Note [Softmax backward order]; the forward's exp is
 * the C library's, which can differ from PyTorch's vectorised exp in the last bit). Otherwise, as the log-softmax kernels in softmax_loss.c,
 * values are computed in double and rounded once to the result type; PyTorch's float kernels
 * accumulate in float, so the last bit can differ. */
#include <math.h>

#include "core/alloc.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* float32 softmax backward in PyTorch's kernel order; gi is contiguous */
static int softmax_bw_f32(const ct_tensor *g, const ct_tensor *out, int d, ct_tensor *gi) {
    if (g->numel == 0) return 0; /* nothing to compute (and no data to point into) */
    float *gf = ct_to_float_buffer(g), *yf = gf ? ct_to_float_buffer(out) : NULL;
    if (!gf || !yf) {
        ct_free(gf);
        return -1;
    }
    float *r = (float *)gi->storage->data + gi->storage_offset;
    int64_t outer, inner, len = g->sizes[d];
    ct_dim_outer_inner(g, d, &outer, &inner);
    const ct_vec_kernels *vk = ct_vec();
    for (int64_t o = 0; o < outer; o++) {
        if (d == g->ndim - 1) {
            vk->softmax_bw_lastdim_f32(gf + o * len, yf + o * len, len, r + o * len);
            continue;
        }
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in;
            vk->softmax_bw_dim_f32(gf + base, yf + base, len, inner, r + base);
        }
    }
    ct_free(gf);
    ct_free(yf);
    return 0;
}

/* _softmax(Tensor self, int dim, bool half_to_float) -> Tensor */
int ct_k__softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    bool half_to_float = ARG_B(2);
    if (half_to_float) return ct_error_set(CT_ERR_RUNTIME, "softmax with half to float conversion is not supported on CPU");
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                            dim == self->ndim - 1 || self->ndim == 0 ? "softmax_lastdim_kernel_impl" : "softmax_kernel_impl",
                            ct_dtype_name(self->dtype));
    ct_dtype out_dt = self->dtype;
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, out_dt, false);
    if (!out) return -1;
    if (self->numel == 0) return ct_ret(rets, 0, out);
    if (self->ndim == 0) {
        ct_elem_st(out, 0, 1.0);
        return ct_ret(rets, 0, out);
    }
    int d = (int)dim;
    int64_t outer, inner, len = self->sizes[d];
    ct_dim_outer_inner(self, d, &outer, &inner);
    if (self->dtype == CT_FLOAT32 && inner == 1) { /* PyTorch's kernel order (softmax_vec.c) */
        float *xf = ct_to_float_buffer(self), *r = (float *)out->storage->data + out->storage_offset;
        if (!xf) {
            ct_tensor_release(out);
            return -1;
        }
        const ct_vec_kernels *vk = ct_vec();
        for (int64_t o = 0; o < outer; o++) vk->softmax_lastdim_f32(xf + o * len, len, r + o * len);
        ct_free(xf);
        return ct_ret(rets, 0, out);
    }
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            /* max, exp(x - max), sum, times 1 / sum */
            double mx = -INFINITY;
            for (int64_t k = 0; k < len; k++) {
                double v = ct_elem_ld(self, ct_dim_offset(self, d, o, in, k));
                if (v > mx || isnan(v)) mx = v;
            }
            double sum = 0;
            for (int64_t k = 0; k < len; k++) sum += exp(ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx);
            for (int64_t k = 0; k < len; k++)
                ct_elem_st(out, ct_dim_offset(out, d, o, in, k), exp(ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx) / sum);
        }
    return ct_ret(rets, 0, out);
}

/* _softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype):
 * grad_input = (grad_output - sum(grad_output * output, dim)) * output */
int ct_k__softmax_backward_data(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0), *out = ARG_T(1), *gi;
    int64_t dim;
    if (ct_softmax_backward_setup(args, "_softmax_backward_data", &dim, &gi) != 0) return -1;
    if (g->numel == 0) return ct_ret(rets, 0, gi);
    if (g->ndim == 0) {
        double gv = ct_elem_ld(g, g->storage_offset), ov = ct_elem_ld(out, out->storage_offset);
        ct_elem_st(gi, 0, (gv - gv * ov) * ov);
        return ct_ret(rets, 0, gi);
    }
    int d = (int)dim;
    if (g->dtype == CT_FLOAT32 && out->dtype == CT_FLOAT32 && gi->dtype == CT_FLOAT32) {
        if (softmax_bw_f32(g, out, d, gi) != 0) {
            ct_tensor_release(gi);
            return -1;
        }
        return ct_ret(rets, 0, gi);
    }
    int64_t outer, inner, len = g->sizes[d];
    ct_dim_outer_inner(g, d, &outer, &inner);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            double sum = 0;
            for (int64_t k = 0; k < len; k++) sum += ct_elem_ld(g, ct_dim_offset(g, d, o, in, k)) * ct_elem_ld(out, ct_dim_offset(out, d, o, in, k));
            for (int64_t k = 0; k < len; k++)
                ct_elem_st(gi, ct_dim_offset(gi, d, o, in, k),
                   (ct_elem_ld(g, ct_dim_offset(g, d, o, in, k)) - sum) * ct_elem_ld(out, ct_dim_offset(out, d, o, in, k)));
        }
    return ct_ret(rets, 0, gi);
}
