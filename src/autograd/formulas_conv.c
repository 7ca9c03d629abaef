/* The convolution and pooling formulas (derivatives.yaml). */
#include "autograd/formulas.h"

#define NLIST(i_) n->args[i_].u.list.data, n->args[i_].u.list.len

/* convolution: input, weight, bias: convolution_backward(grad, input, weight, bias->sym_sizes(),
 * stride, padding, dilation, transposed, output_padding, groups, grad_input_mask), when grad is
 * defined */
int ct_d_convolution(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (!grads[0]) return 0;
    ct_tensor *input = NULL, *weight = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &input) == 0 && ct_saved_unpack(n, &n->saved_args[1], &weight) == 0) {
        const ct_tensor_meta *bm = ct_f_meta(n, 2);
        bool mask[3] = {ct_node_needs(n, 0), ct_node_needs(n, 1), ct_node_needs(n, 2)};
        ct_tensor *gi = NULL, *gw = NULL, *gb = NULL;
        rc = ct_convolution_backward(grads[0], input, weight, bm->defined ? bm->sizes : NULL, bm->defined ? bm->ndim : 0, NLIST(3), NLIST(4),
                                     NLIST(5), n->args[6].u.b, NLIST(7), ct_f_iarg(n, 8), mask, 3, &gi, &gw, &gb);
        if (rc == 0) {
            out[0] = gi;
            out[1] = gw;
            out[2] = gb;
        }
    }
    ct_tensor_release(input);
    ct_tensor_release(weight);
    return rc;
}

/* im2col: self: col2im_symint(grad, {self.sym_size(-2), self.sym_size(-1)}, kernel_size,
 * dilation, padding, stride) */
int ct_d_im2col(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t size[2] = {m->sizes[m->ndim - 2], m->sizes[m->ndim - 1]};
    out[0] = ct_col2im(grads[0], size, 2, NLIST(1), NLIST(2), NLIST(3), NLIST(4));
    CT_F_NEED(out[0]);
    return 0;
}

/* col2im: self: im2col(grad, kernel_size, dilation, padding, stride) */
int ct_d_col2im(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    out[0] = ct_im2col(grads[0], NLIST(2), NLIST(3), NLIST(4), NLIST(5));
    CT_F_NEED(out[0]);
    return 0;
}

/* the saved self (argument i) of a pooling node; -1 on failure */
static ct_tensor *saved_arg(ct_node *n, int i) {
    ct_tensor *t = NULL;
    return ct_saved_unpack(n, &n->saved_args[i], &t) == 0 ? t : NULL;
}

/* max_pool2d_with_indices / max_pool3d_with_indices: self: max_pool{2,3}d_with_indices_backward(grad,
 * self, kernel_size, stride, padding, dilation, ceil_mode, result1) */
static int max_pool_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, int dim) {
    if (!grads[0]) return 0;
    ct_tensor *self = saved_arg(n, 0), *idx = NULL;
    if (!self) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[1], &idx) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = dim == 2 ? ct_max_pool2d_with_indices_backward(grads[0], self, NLIST(1), NLIST(2), NLIST(3), NLIST(4), n->args[5].u.b, idx)
                      : ct_max_pool3d_with_indices_backward(grads[0], self, NLIST(1), NLIST(2), NLIST(3), NLIST(4), n->args[5].u.b, idx);
    ct_tensor_release(self);
    ct_tensor_release(idx);
    CT_F_NEED(out[0]);
    return 0;
}
int ct_d_max_pool2d_with_indices(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return max_pool_formula(n, grads, out, 2); }
int ct_d_max_pool3d_with_indices(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return max_pool_formula(n, grads, out, 3); }

/* avg_pool2d / avg_pool3d: self: avg_pool{2,3}d_backward(grad, self, kernel_size, stride, padding,
 * ceil_mode, count_include_pad, divisor_override) */
static int avg_pool_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, int dim) {
    ct_tensor *self = saved_arg(n, 0);
    if (!self) return -1;
    const int64_t *div = n->args[6].tag == CT_TAG_INT ? &n->args[6].u.i : NULL;
    out[0] = dim == 2 ? ct_avg_pool2d_backward(grads[0], self, NLIST(1), NLIST(2), NLIST(3), n->args[4].u.b, n->args[5].u.b, div)
                      : ct_avg_pool3d_backward(grads[0], self, NLIST(1), NLIST(2), NLIST(3), n->args[4].u.b, n->args[5].u.b, div);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}
int ct_d_avg_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return avg_pool_formula(n, grads, out, 2); }
int ct_d_avg_pool3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return avg_pool_formula(n, grads, out, 3); }

/* _adaptive_avg_pool2d / 3d: self: _adaptive_avg_pool{2,3}d_backward(grad, self) */
int ct_d_adaptive_avg_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = saved_arg(n, 0);
    if (!self) return -1;
    out[0] = ct__adaptive_avg_pool2d_backward(grads[0], self);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}
int ct_d_adaptive_avg_pool3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = saved_arg(n, 0);
    if (!self) return -1;
    out[0] = ct__adaptive_avg_pool3d_backward(grads[0], self);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}

/* adaptive_max_pool2d: self: adaptive_max_pool2d_backward(grad, self, result1) */
int ct_d_adaptive_max_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (!grads[0]) return 0;
    ct_tensor *self = saved_arg(n, 0), *idx = NULL;
    if (!self) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[1], &idx) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = ct_adaptive_max_pool2d_backward(grads[0], self, idx);
    ct_tensor_release(self);
    ct_tensor_release(idx);
    CT_F_NEED(out[0]);
    return 0;
}

/* self: zeros_like(self), self the saved argument 1 */
static int zeros_like_self(ct_node *n, ct_tensor **out) {
    if (!ct_node_needs(n, 1)) return 0;
    ct_tensor *self = saved_arg(n, 1);
    if (!self) return -1;
    out[1] = ct_zeros_like(self, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    ct_tensor_release(self);
    return out[1] ? 0 : -1;
}

/* avg_pool2d_backward / avg_pool3d_backward: grad_output: avg_pool{2,3}d(grad, kernel_size,
 * stride, padding, ceil_mode, count_include_pad, divisor_override); self: zeros_like(self) */
static int avg_pool_backward_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, int dim) {
    if (ct_node_needs(n, 0)) {
        const int64_t *div = n->args[7].tag == CT_TAG_INT ? &n->args[7].u.i : NULL;
        out[0] = dim == 2 ? ct_avg_pool2d(grads[0], NLIST(2), NLIST(3), NLIST(4), n->args[5].u.b, n->args[6].u.b, div)
                          : ct_avg_pool3d(grads[0], NLIST(2), NLIST(3), NLIST(4), n->args[5].u.b, n->args[6].u.b, div);
        CT_F_NEED(out[0]);
    }
    return zeros_like_self(n, out);
}
int ct_d_avg_pool2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return avg_pool_backward_formula(n, grads, out, 2); }
int ct_d_avg_pool3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return avg_pool_backward_formula(n, grads, out, 3); }

/* _adaptive_avg_pool2d_backward / 3d: grad_output: _adaptive_avg_pool{2,3}d(grad, grad_output's
 * last 2 or 3 sizes); self: zeros_like(self) */
static int adaptive_avg_backward_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, int dim) {
    if (ct_node_needs(n, 0)) {
        const ct_tensor_meta *m = ct_f_meta(n, 0);
        const int64_t *sz = m->sizes + m->ndim - dim;
        out[0] = dim == 2 ? ct__adaptive_avg_pool2d(grads[0], sz, 2) : ct__adaptive_avg_pool3d(grads[0], sz, 3);
        CT_F_NEED(out[0]);
    }
    return zeros_like_self(n, out);
}
int ct_d_adaptive_avg_pool2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return adaptive_avg_backward_formula(n, grads, out, 2);
}
int ct_d_adaptive_avg_pool3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return adaptive_avg_backward_formula(n, grads, out, 3);
}
