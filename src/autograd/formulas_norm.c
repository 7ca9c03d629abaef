/* Backward formulas of the normalization, resampling, dropout and distance ops
 * (derivatives.yaml): native_batch_norm and the _native_batch_norm_legit family. Each calls
 * ops through the dispatcher in the order of Note [Formula order] (formulas.h). */
#include <string.h>

#include "autograd/formulas.h"

/* input, weight, bias: native_batch_norm_backward(grad, input, weight, running_mean, running_var,
 * result1, result2, training, eps, grad_input_mask), when grad is defined */
static int batch_norm_bw(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool stats, bool training, double eps) {
    if (!grads[0]) return 0;
    ct_tensor *input = NULL, *weight = NULL, *rm = NULL, *rv = NULL, *mean = NULL, *invstd = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &input) == 0 && ct_saved_unpack(n, &n->saved_args[1], &weight) == 0 &&
        (!stats || (ct_saved_unpack(n, &n->saved_args[3], &rm) == 0 && ct_saved_unpack(n, &n->saved_args[4], &rv) == 0)) &&
        ct_saved_unpack(n, &n->saved_rets[1], &mean) == 0 && ct_saved_unpack(n, &n->saved_rets[2], &invstd) == 0) {
        bool mask[3] = {ct_node_needs(n, 0), ct_node_needs(n, 1), ct_node_needs(n, 2)};
        ct_tensor *gi = NULL, *gw = NULL, *gb = NULL;
        rc = ct_native_batch_norm_backward(grads[0], input, weight, rm, rv, mean, invstd, training, eps, mask, 3, &gi, &gw, &gb);
        if (rc == 0) {
            out[0] = gi;
            out[1] = gw;
            out[2] = gb;
        }
    }
    ct_tensor_release(input);
    ct_tensor_release(weight);
    ct_tensor_release(rm);
    ct_tensor_release(rv);
    ct_tensor_release(mean);
    ct_tensor_release(invstd);
    return rc;
}

/* native_batch_norm, _native_batch_norm_legit(_functional): training is argument 5, eps 7 */
int ct_d_native_batch_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return batch_norm_bw(n, grads, out, true, n->args[5].u.b, n->args[7].u.d);
}

/* _native_batch_norm_legit.no_stats: undefined running statistics; training 3, eps 5 */
int ct_d_native_batch_norm_no_stats(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return batch_norm_bw(n, grads, out, false, n->args[3].u.b, n->args[5].u.d);
}

/* _native_batch_norm_legit_no_training: training false; eps 6 */
int ct_d_native_batch_norm_no_training(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return batch_norm_bw(n, grads, out, true, false, n->args[6].u.d);
}

/* native_group_norm: input, weight, bias: native_group_norm_backward(grads[0].contiguous(),
 * input.contiguous(), result1, result2, weight, N, C, HxW, group, grad_input_mask); the
 * infinitely differentiable form PyTorch takes under grad mode, or when the mean or rstd received
 * a gradient, is not implemented */
int ct_d_native_group_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_is_grad_enabled() || grads[1] || grads[2])
        return ct_error_set(CT_ERR_UNSUPPORTED,
                            "ctorch: the derivative of native_group_norm through its mean and rstd, or of higher order, is not implemented yet");
    if (!grads[0]) return 0;
    ct_tensor *input = NULL, *weight = NULL, *mean = NULL, *rstd = NULL, *g = NULL, *x = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &input) == 0 && ct_saved_unpack(n, &n->saved_args[1], &weight) == 0 &&
        ct_saved_unpack(n, &n->saved_rets[1], &mean) == 0 && ct_saved_unpack(n, &n->saved_rets[2], &rstd) == 0 &&
        (g = ct_contiguous(grads[0], CT_CONTIGUOUS_FORMAT)) && (x = ct_contiguous(input, CT_CONTIGUOUS_FORMAT))) {
        bool mask[3] = {ct_node_needs(n, 0), ct_node_needs(n, 1), ct_node_needs(n, 2)};
        ct_tensor *gi = NULL, *gw = NULL, *gb = NULL;
        rc = ct_native_group_norm_backward(g, x, mean, rstd, weight, ct_f_iarg(n, 3), ct_f_iarg(n, 4), ct_f_iarg(n, 5),
                                           ct_f_iarg(n, 6), mask, 3, &gi, &gw, &gb);
        if (rc == 0) {
            out[0] = gi;
            out[1] = gw;
            out[2] = gb;
        }
    }
    ct_tensor_release(input);
    ct_tensor_release(weight);
    ct_tensor_release(mean);
    ct_tensor_release(rstd);
    ct_tensor_release(g);
    ct_tensor_release(x);
    return rc;
}

/* native_dropout: input: native_dropout_backward(grad, result1, scale), or under grad mode
 * infinitely_differentiable_native_dropout_backward = grad * (result1.type_as(grad) * scale), with
 * scale = 1 when train is None or false (as derivatives.yaml writes it), else 1 / (1 - p) (0 for p 1) */
int ct_d_native_dropout(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *mask;
    if (ct_saved_unpack(n, &n->saved_rets[1], &mask) != 0) return -1;
    const double p = n->args[1].u.d;
    const bool train = n->args[2].tag == CT_TAG_BOOL && n->args[2].u.b;
    const double scale = !train ? 1 : (p == 1 ? 0.0 : 1.0 / (1.0 - p));
    if (ct_is_grad_enabled()) {
        ct_tensor *m = ct_to_dtype(mask, ct_tensor_dtype(grads[0]), false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor *ms = m ? ct_mul_scalar(m, ct_double(scale)) : NULL;
        out[0] = ms ? ct_mul(grads[0], ms) : NULL;
        ct_tensor_release(m);
        ct_tensor_release(ms);
    } else {
        out[0] = ct_native_dropout_backward(grads[0], mask, scale);
    }
    ct_tensor_release(mask);
    CT_F_NEED(out[0]);
    return 0;
}

/* an optional float argument of the node: its address, or NULL for None */
static const double *opt_d(const ct_node *n, int i) { return n->args[i].tag == CT_TAG_DOUBLE ? &n->args[i].u.d : NULL; }

/* upsample_nearest2d: self: upsample_nearest2d_backward(grad, output_size, self.sizes(), scales_h, scales_w) */
int ct_d_upsample_nearest2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_upsample_nearest2d_backward(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, m->sizes, m->ndim,
                                                      opt_d(n, 2), opt_d(n, 3)));
    return 0;
}

/* upsample_nearest2d_backward: grad_output: upsample_nearest2d(grad, output_size, scales_h, scales_w) */
int ct_d_upsample_nearest2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_upsample_nearest2d(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, opt_d(n, 3), opt_d(n, 4)));
    return 0;
}

/* upsample_bilinear2d: self: upsample_bilinear2d_backward(grad, output_size, self.sizes(), align_corners, scales_h, scales_w) */
int ct_d_upsample_bilinear2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_upsample_bilinear2d_backward(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, m->sizes, m->ndim,
                                                       n->args[2].u.b, opt_d(n, 3), opt_d(n, 4)));
    return 0;
}

/* upsample_bilinear2d_backward: grad_output: upsample_bilinear2d(grad, output_size, align_corners, scales_h, scales_w) */
int ct_d_upsample_bilinear2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_upsample_bilinear2d(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, n->args[3].u.b, opt_d(n, 4),
                                              opt_d(n, 5)));
    return 0;
}

/* native_dropout_backward: grad_output: native_dropout_double_backward(grad, grad_output, mask, scale)
 * = grad.type_as(grad_output) * (mask.type_as(grad_output) * scale) */
int ct_d_native_dropout_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *go = NULL, *mask = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &go) == 0 && ct_saved_unpack(n, &n->saved_args[1], &mask) == 0) {
        const ct_dtype dt = ct_tensor_dtype(go);
        ct_tensor *g = ct_to_dtype(grads[0], dt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor *m = g ? ct_to_dtype(mask, dt, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor *ms = m ? ct_mul_scalar(m, ct_double(n->args[2].u.d)) : NULL;
        out[0] = ms ? ct_mul(g, ms) : NULL;
        rc = out[0] ? 0 : -1;
        ct_tensor_release(g);
        ct_tensor_release(m);
        ct_tensor_release(ms);
    }
    ct_tensor_release(go);
    ct_tensor_release(mask);
    return rc;
}

/* upsample_nearest1d: self: upsample_nearest1d_backward(grad, output_size, self.sizes(), scales) */
int ct_d_upsample_nearest1d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_upsample_nearest1d_backward(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, m->sizes, m->ndim,
                                                      opt_d(n, 2)));
    return 0;
}

/* upsample_nearest1d_backward: grad_output: upsample_nearest1d(grad, output_size, scales) */
int ct_d_upsample_nearest1d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_upsample_nearest1d(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, opt_d(n, 3)));
    return 0;
}

/* upsample_nearest3d: self: upsample_nearest3d_backward(grad, output_size, self.sizes(), scales_d, scales_h, scales_w) */
int ct_d_upsample_nearest3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_upsample_nearest3d_backward(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, m->sizes, m->ndim,
                                                      opt_d(n, 2), opt_d(n, 3), opt_d(n, 4)));
    return 0;
}

/* upsample_nearest3d_backward: grad_output: upsample_nearest3d(grad, output_size, scales_d, scales_h, scales_w) */
int ct_d_upsample_nearest3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_upsample_nearest3d(grads[0], n->args[1].u.list.data, n->args[1].u.list.len, opt_d(n, 3), opt_d(n, 4),
                                             opt_d(n, 5)));
    return 0;
}

/* _pdist_forward: self: _pdist_backward(grad, self, p, result) */
int ct_d_pdist_forward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *result = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) == 0 && ct_saved_unpack(n, &n->saved_rets[0], &result) == 0) {
        out[0] = ct__pdist_backward(grads[0], self, n->args[1].u.d, result);
        rc = out[0] ? 0 : -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(result);
    return rc;
}
