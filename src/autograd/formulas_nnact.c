/* The backward formulas of the activations and pointwise losses (derivatives.yaml's entries for
 * softplus, silu, mish, hardtanh, leaky_relu, elu, celu, hardsigmoid, hardswish,
 * log_sigmoid_forward, threshold, softshrink, hardshrink, mse_loss, smooth_l1_loss, huber_loss,
 * binary_cross_entropy): each calls the op's backward op on the saved input (or, for the in-place
 * forms, the saved result). */
#include "autograd/formulas.h"
#include "ops/kernel_util.h"

/* the saved tensor: argument i (from_result false) or output 0 */
static ct_tensor *saved(ct_node *n, int i, bool from_result) {
    ct_tensor *t;
    if (ct_saved_unpack(n, from_result ? &n->saved_rets[0] : &n->saved_args[i], &t) != 0) return NULL;
    return t;
}

#define D_HEAD(fn, FROM_RESULT)                                                                  \
    int fn(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {                              \
        ct_tensor *x = saved(n, 0, FROM_RESULT);                                                 \
        if (!x) return -1;
#define D_TAIL(expr)                                                                             \
        out[0] = (expr);                                                                         \
        ct_tensor_release(x);                                                                    \
        CT_F_NEED(out[0]);                                                                       \
        return 0;                                                                                \
    }

D_HEAD(ct_d_softplus, false) D_TAIL(ct_softplus_backward(grads[0], x, ct_f_sarg(n, 1), ct_f_sarg(n, 2)))
D_HEAD(ct_d_silu, false) D_TAIL(ct_silu_backward(grads[0], x))
D_HEAD(ct_d_mish, false) D_TAIL(ct_mish_backward(grads[0], x))
D_HEAD(ct_d_hardtanh, false) D_TAIL(ct_hardtanh_backward(grads[0], x, ct_f_sarg(n, 1), ct_f_sarg(n, 2)))
D_HEAD(ct_d_hardtanh_result, true) D_TAIL(ct_hardtanh_backward(grads[0], x, ct_f_sarg(n, 1), ct_f_sarg(n, 2)))
D_HEAD(ct_d_leaky_relu, false) D_TAIL(ct_leaky_relu_backward(grads[0], x, ct_f_sarg(n, 1), false))
D_HEAD(ct_d_leaky_relu_result, true) D_TAIL(ct_leaky_relu_backward(grads[0], x, ct_f_sarg(n, 1), true))
D_HEAD(ct_d_elu, false)
D_TAIL(ct_elu_backward(grads[0], ct_f_sarg(n, 1), ct_f_sarg(n, 2), ct_f_sarg(n, 3), false, x))
D_HEAD(ct_d_elu_result, true)
D_TAIL(ct_elu_backward(grads[0], ct_f_sarg(n, 1), ct_f_sarg(n, 2), ct_f_sarg(n, 3), true, x))
/* celu: elu_backward(grad, alpha, 1, 1/alpha, is_result, self or result) */
D_HEAD(ct_d_celu, false)
D_TAIL(ct_elu_backward(grads[0], ct_f_sarg(n, 1), ct_double(1.0), ct_double(1.0 / ct_scalar_to_double(ct_f_sarg(n, 1))), false, x))
D_HEAD(ct_d_celu_result, true)
D_TAIL(ct_elu_backward(grads[0], ct_f_sarg(n, 1), ct_double(1.0), ct_double(1.0 / ct_scalar_to_double(ct_f_sarg(n, 1))), true, x))
D_HEAD(ct_d_hardsigmoid, false) D_TAIL(ct_hardsigmoid_backward(grads[0], x))
D_HEAD(ct_d_hardswish, false) D_TAIL(ct_hardswish_backward(grads[0], x))
D_HEAD(ct_d_threshold, false) D_TAIL(ct_threshold_backward(grads[0], x, ct_f_sarg(n, 1)))
D_HEAD(ct_d_threshold_result, true) D_TAIL(ct_threshold_backward(grads[0], x, ct_f_sarg(n, 1)))
D_HEAD(ct_d_softshrink, false) D_TAIL(ct_softshrink_backward(grads[0], x, ct_f_sarg(n, 1)))
D_HEAD(ct_d_hardshrink, false) D_TAIL(ct_hardshrink_backward(grads[0], x, ct_f_sarg(n, 1)))

/* log_sigmoid_forward: self: log_sigmoid_backward(grad, self, buffer) */
int ct_d_log_sigmoid(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *x = saved(n, 0, false), *buf = NULL;
    if (!x || ct_saved_unpack(n, &n->saved_rets[1], &buf) != 0) {
        ct_tensor_release(x);
        return -1;
    }
    out[0] = ct_log_sigmoid_backward(grads[0], x, buf);
    ct_tensor_release(x);
    ct_tensor_release(buf);
    CT_F_NEED(out[0]);
    return 0;
}

/* The two-input losses: self: op_backward(grad, self, target, ...); target: op_backward(grad,
 * target, self, ...) (mse, smooth_l1, huber: the loss is symmetric in its arguments). */
typedef enum { L_MSE, L_SMOOTH_L1, L_HUBER } loss_kind;

static ct_tensor *loss_bw(loss_kind k, ct_node *n, ct_tensor *g, ct_tensor *a, ct_tensor *b) {
    int64_t red = ct_f_iarg(n, 2);
    switch (k) {
    case L_MSE: return ct_mse_loss_backward(g, a, b, red);
    case L_SMOOTH_L1: return ct_smooth_l1_loss_backward(g, a, b, red, ct_f_darg(n, 3));
    default: return ct_huber_loss_backward(g, a, b, red, ct_f_darg(n, 3));
    }
}

static int loss_formula(loss_kind k, ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = saved(n, 0, false), *target = self ? saved(n, 1, false) : NULL;
    int rc = -1;
    if (target) {
        rc = 0;
        if (ct_node_needs(n, 0) && !(out[0] = loss_bw(k, n, grads[0], self, target))) rc = -1;
        if (rc == 0 && ct_node_needs(n, 1) && !(out[1] = loss_bw(k, n, grads[0], target, self))) rc = -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(target);
    return rc;
}

int ct_d_mse_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return loss_formula(L_MSE, n, grads, out); }
int ct_d_smooth_l1_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return loss_formula(L_SMOOTH_L1, n, grads, out);
}
int ct_d_huber_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return loss_formula(L_HUBER, n, grads, out); }

/* binary_cross_entropy's target: (log1p(-self) - log(self)) * grad [* weight] [/ numel], as
 * binary_cross_entropy_target_backward */
static ct_tensor *bce_target_grad(ct_tensor *g, ct_tensor *self, ct_tensor *weight, int64_t reduction) {
    ct_tensor *ng = ct_neg(self), *a = ng ? ct_log1p(ng) : NULL, *b = a ? ct_log(self) : NULL;
    ct_tensor *d = b ? ct_sub(a, b, ct_int(1)) : NULL, *r = d ? ct_mul(d, g) : NULL;
    ct_tensor_release(ng);
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(d);
    if (r && weight) {
        ct_tensor *rw = ct_mul(r, weight);
        ct_tensor_release(r);
        r = rw;
    }
    if (r && reduction == 1) {
        ct_tensor *rm = ct_div_scalar(r, ct_int(self->numel));
        ct_tensor_release(r);
        r = rm;
    }
    return r;
}

/* binary_cross_entropy: self: binary_cross_entropy_backward(grad, self, target, weight, reduction);
 * target: binary_cross_entropy_target_backward(grad, self, target, weight, reduction) */
int ct_d_binary_cross_entropy(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = saved(n, 0, false), *target = self ? saved(n, 1, false) : NULL, *weight = NULL;
    int rc = -1;
    if (target && ct_saved_unpack(n, &n->saved_args[2], &weight) == 0) {
        rc = 0;
        if (ct_node_needs(n, 0) &&
            !(out[0] = ct_binary_cross_entropy_backward(grads[0], self, target, weight, ct_f_iarg(n, 3))))
            rc = -1;
        if (rc == 0 && ct_node_needs(n, 1) && !(out[1] = bce_target_grad(grads[0], self, weight, ct_f_iarg(n, 3)))) rc = -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(target);
    ct_tensor_release(weight);
    return rc;
}
