/* Backward formulas of the binary family (derivatives.yaml and FunctionsManual.cpp's
 * pow_backward, pow_backward_self, pow_backward_exponent, atan2_backward,
 * copysign_tensor_self_backward, div_tensor_self/other_backward): each calls ops through the
 * dispatcher in the order PyTorch's generated code does (Note [Formula order] in formulas.h). */
#include <math.h>
#include <string.h>

#include "autograd/formulas.h"
#include "ctorch/dispatch.h"

/* the temporaries of one formula, released together */
typedef struct temps {
    ct_tensor *t[24];
    int n;
    bool failed;
} temps;

static ct_tensor *keep(temps *T, ct_tensor *x) {
    if (!x) T->failed = true;
    else if (T->n < 24) T->t[T->n++] = x;
    return x;
}

static void drop(temps *T) {
    for (int i = 0; i < T->n; i++) ct_tensor_release(T->t[i]);
    T->n = 0;
}

/* a result the formula hands out: not among the temporaries */
static int give(temps *T, ct_tensor **slot, ct_tensor *x) {
    if (T->failed || !x) {
        ct_tensor_release(x);
        T->failed = true;
        return -1;
    }
    *slot = x;
    return 0;
}

#define OK_(T) (!(T)->failed)

static ct_tensor *saved(ct_node *n, int i, temps *T) {
    ct_tensor *t = NULL;
    if (ct_saved_unpack(n, &n->saved_args[i], &t) != 0) {
        T->failed = true;
        return NULL;
    }
    return keep(T, t);
}

static ct_tensor *saved_result(ct_node *n, temps *T) {
    ct_tensor *t = NULL;
    if (ct_saved_unpack(n, &n->saved_rets[0], &t) != 0) {
        T->failed = true;
        return NULL;
    }
    return keep(T, t);
}

static ct_tensor *scalar0(ct_tensor *like, double v) { return like ? ct_scalar_tensor(ct_double(v), like->dtype) : NULL; }

/* pow.Tensor_Scalar: self: pow_backward(grad, self, exponent) =
 * exponent == 0 ? zeros_like(self) : grad * (exponent * self.pow(exponent - 1)) */
int ct_d_pow_tensor_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T);
    double e = ct_f_darg(n, 1);
    if (OK_(&T) && e == 0.0) {
        give(&T, &out[0], ct_zeros_like(self, CT_DTYPE_UNDEFINED, CT_CONTIGUOUS_FORMAT));
    } else if (OK_(&T)) {
        ct_tensor *p = keep(&T, ct_pow_tensor_scalar(self, ct_double(e - 1)));
        ct_tensor *m = OK_(&T) ? keep(&T, ct_mul_scalar(p, ct_double(e))) : NULL;
        if (OK_(&T)) give(&T, &out[0], ct_mul(grads[0], m));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* pow_backward_exponent's mask where the gradient is 0: base == 0 and exponent >= 0 */
static ct_tensor *exponent_grad(ct_tensor *grad, ct_tensor *self, ct_tensor *exponent, ct_tensor *result, temps *T) {
    /* grad * where(cond, 0, result * log(self)) */
    ct_tensor *c1 = keep(T, ct_eq_scalar(self, ct_double(0.0)));
    ct_tensor *c2 = OK_(T) ? keep(T, ct_ge_scalar(exponent, ct_int(0))) : NULL;
    ct_tensor *cond = OK_(T) ? keep(T, ct_bitwise_and_tensor(c1, c2)) : NULL;
    ct_tensor *zero = OK_(T) ? keep(T, scalar0(grad, 0.0)) : NULL;
    ct_tensor *lg = OK_(T) ? keep(T, ct_log(self)) : NULL;
    ct_tensor *rl = OK_(T) ? keep(T, ct_mul(result, lg)) : NULL;
    ct_tensor *w = OK_(T) ? keep(T, ct_where(cond, zero, rl)) : NULL;
    return OK_(T) ? ct_mul(grad, w) : NULL;
}

/* pow.Tensor_Tensor: exponent: pow_backward_exponent(grad, self, exponent, result);
 * self: pow_backward_self(grad, self, exponent) =
 *   where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1))) */
int ct_d_pow_tensor_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *exponent = OK_(&T) ? saved(n, 1, &T) : NULL;
    if (OK_(&T) && ct_node_needs(n, 1)) {
        ct_tensor *result = saved_result(n, &T);
        if (OK_(&T)) give(&T, &out[1], exponent_grad(grads[0], self, exponent, result, &T));
    }
    if (OK_(&T) && ct_node_needs(n, 0)) {
        ct_tensor *cond = keep(&T, ct_eq_scalar(exponent, ct_double(0.0)));
        ct_tensor *zero = OK_(&T) ? keep(&T, scalar0(grads[0], 0.0)) : NULL;
        ct_tensor *em1 = OK_(&T) ? keep(&T, ct_sub(exponent, keep(&T, ct_wrapped_number(ct_int(1))), ct_int(1))) : NULL;
        ct_tensor *p = OK_(&T) ? keep(&T, ct_pow_tensor_tensor(self, em1)) : NULL;
        ct_tensor *m = OK_(&T) ? keep(&T, ct_mul(exponent, p)) : NULL;
        ct_tensor *gm = OK_(&T) ? keep(&T, ct_mul(grads[0], m)) : NULL;
        if (OK_(&T)) give(&T, &out[0], ct_where(cond, zero, gm));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* pow.Scalar: exponent: pow_backward_exponent(grad, base, exponent, result) =
 * grad * (result * log(base)), 0 where base == 0 and exponent >= 0 */
int ct_d_pow_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    double base = ct_f_darg(n, 0);
    ct_tensor *exponent = saved(n, 1, &T);
    ct_tensor *result = OK_(&T) ? saved_result(n, &T) : NULL;
    ct_tensor *rl = OK_(&T) ? keep(&T, ct_mul_scalar(result, ct_double(log(base)))) : NULL;
    if (OK_(&T) && base == 0.0) {
        ct_tensor *cond = keep(&T, ct_ge_scalar(exponent, ct_int(0)));
        ct_tensor *zero = OK_(&T) ? keep(&T, scalar0(grads[0], 0.0)) : NULL;
        ct_tensor *w = OK_(&T) ? keep(&T, ct_where(cond, zero, rl)) : NULL;
        if (OK_(&T)) give(&T, &out[1], ct_mul(grads[0], w));
    } else if (OK_(&T)) {
        give(&T, &out[1], ct_mul(grads[0], rl));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* fmod.Tensor / remainder.Tensor: other: -grad * self.div(other, rounding_mode), self: grad */
static int mod_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out, const char *mode) {
    temps T = {0};
    if (ct_node_needs(n, 1)) {
        ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
        ct_tensor *ng = OK_(&T) ? keep(&T, ct_neg(grads[0])) : NULL;
        ct_tensor *q = OK_(&T) ? keep(&T, ct_div_tensor_mode(self, other, mode)) : NULL;
        if (OK_(&T)) give(&T, &out[1], ct_mul(ng, q));
    }
    if (OK_(&T) && ct_node_needs(n, 0)) give(&T, &out[0], ct_tensor_retain(grads[0]));
    drop(&T);
    return T.failed ? -1 : 0;
}
int ct_d_fmod_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return mod_backward(n, grads, out, "trunc"); }
int ct_d_remainder_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return mod_backward(n, grads, out, "floor"); }

/* atan2: atan2_backward: recip = (self * self + other * other).reciprocal();
 * self: grad * other * recip, other: grad * -self * recip */
int ct_d_atan2(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
    ct_tensor *s2 = OK_(&T) ? keep(&T, ct_mul(self, self)) : NULL;
    ct_tensor *o2 = OK_(&T) ? keep(&T, ct_mul(other, other)) : NULL;
    ct_tensor *den = OK_(&T) ? keep(&T, ct_add(s2, o2, ct_int(1))) : NULL;
    ct_tensor *recip = OK_(&T) ? keep(&T, ct_reciprocal(den)) : NULL;
    if (OK_(&T) && ct_node_needs(n, 0)) {
        ct_tensor *go = keep(&T, ct_mul(grads[0], other));
        if (OK_(&T)) give(&T, &out[0], ct_mul(go, recip));
    }
    if (OK_(&T) && ct_node_needs(n, 1)) {
        ct_tensor *ns = keep(&T, ct_neg(self));
        ct_tensor *gs = OK_(&T) ? keep(&T, ct_mul(grads[0], ns)) : NULL;
        if (OK_(&T)) give(&T, &out[1], ct_mul(gs, recip));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* maximum / minimum: where(self == other, grad / 2, grad).masked_fill_(self </> other, 0), other first */
static int minmax_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool is_max) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
    for (int which = 1; which >= 0 && OK_(&T); which--) {
        if (!ct_node_needs(n, which)) continue;
        ct_tensor *eq = keep(&T, ct_eq_tensor(self, other));
        ct_tensor *half = OK_(&T) ? keep(&T, ct_div_scalar(grads[0], ct_int(2))) : NULL;
        ct_tensor *w = OK_(&T) ? ct_where(eq, half, grads[0]) : NULL;
        /* the zero side: self < other for self's gradient of maximum, ... */
        bool lt = (which == 0) == is_max;
        ct_tensor *mask = w ? keep(&T, lt ? ct_lt_tensor(self, other) : ct_gt_tensor(self, other)) : NULL;
        if (w && (!mask || ct_masked_fill_(w, mask, ct_int(0)) != 0)) {
            ct_tensor_release(w);
            w = NULL;
        }
        give(&T, &out[which], w);
    }
    drop(&T);
    return T.failed ? -1 : 0;
}
int ct_d_maximum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return minmax_backward(n, grads, out, true); }
int ct_d_minimum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return minmax_backward(n, grads, out, false); }

/* fmax / fmin: self: grad.masked_fill((self >= other).logical_or_(other.isnan()).logical_not_(), 0),
 * other: grad.masked_fill((self >= other).logical_or_(other.isnan()), 0) (<= for fmin) */
static int fminmax_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool is_max) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
    for (int which = 1; which >= 0 && OK_(&T); which--) {
        if (!ct_node_needs(n, which)) continue;
        ct_tensor *c = keep(&T, is_max ? ct_ge_tensor(self, other) : ct_le_tensor(self, other));
        ct_tensor *nan = OK_(&T) ? keep(&T, ct_isnan(other)) : NULL;
        if (OK_(&T) && ct_logical_or_(c, nan) != 0) T.failed = true;
        if (OK_(&T) && which == 0 && ct_logical_not_(c) != 0) T.failed = true;
        if (OK_(&T)) give(&T, &out[which], ct_masked_fill(grads[0], c, ct_int(0)));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}
int ct_d_fmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return fminmax_backward(n, grads, out, true); }
int ct_d_fmin(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return fminmax_backward(n, grads, out, false); }

/* div.Tensor_mode: with a rounding mode both gradients are zeros; without, div's
 * (div_tensor_self_backward / div_tensor_other_backward), other first */
int ct_d_div_tensor_mode(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    const ct_value *mode = &n->args[2];
    bool rounding = mode->tag != CT_TAG_NONE;
    if (ct_node_needs(n, 1)) {
        if (rounding) {
            give(&T, &out[1], ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
        } else {
            ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
            ct_tensor *q1 = OK_(&T) ? keep(&T, ct_div(self, other)) : NULL;
            ct_tensor *q2 = OK_(&T) ? keep(&T, ct_div(q1, other)) : NULL;
            ct_tensor *ng = OK_(&T) ? keep(&T, ct_neg(grads[0])) : NULL;
            if (OK_(&T)) give(&T, &out[1], ct_mul(ng, q2));
        }
    }
    if (OK_(&T) && ct_node_needs(n, 0)) {
        if (rounding) {
            give(&T, &out[0], ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
        } else {
            ct_tensor *other = saved(n, 1, &T);
            if (OK_(&T)) give(&T, &out[0], ct_div(grads[0], other));
        }
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* copysign: self: copysign_tensor_self_backward(grad, self, result) = grad * (result / self)
 * with 0 where self == 0; other: zeros_like(other) */
int ct_d_copysign_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    if (ct_node_needs(n, 1)) {
        ct_tensor *other = saved(n, 1, &T);
        if (OK_(&T)) give(&T, &out[1], ct_zeros_like(other, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    }
    if (OK_(&T) && ct_node_needs(n, 0)) {
        ct_tensor *self = saved(n, 0, &T), *result = OK_(&T) ? saved_result(n, &T) : NULL;
        ct_tensor *ratio = OK_(&T) ? keep(&T, ct_div(result, self)) : NULL;
        ct_tensor *z = OK_(&T) ? keep(&T, ct_eq_scalar(self, ct_int(0))) : NULL;
        if (OK_(&T) && ct_masked_fill_(ratio, z, ct_int(0)) != 0) T.failed = true;
        if (OK_(&T)) give(&T, &out[0], ct_mul(grads[0], ratio));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}
int ct_d_copysign_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *result = OK_(&T) ? saved_result(n, &T) : NULL;
    ct_tensor *ratio = OK_(&T) ? keep(&T, ct_div(result, self)) : NULL;
    ct_tensor *z = OK_(&T) ? keep(&T, ct_eq_scalar(self, ct_int(0))) : NULL;
    if (OK_(&T) && ct_masked_fill_(ratio, z, ct_int(0)) != 0) T.failed = true;
    if (OK_(&T)) give(&T, &out[0], ct_mul(grads[0], ratio));
    drop(&T);
    return T.failed ? -1 : 0;
}

/* hypot: self: grad * self / result, other: grad * other / result */
int ct_d_hypot(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *result = saved_result(n, &T);
    for (int which = 1; which >= 0 && OK_(&T); which--) {
        if (!ct_node_needs(n, which)) continue;
        ct_tensor *x = saved(n, which, &T);
        ct_tensor *gx = OK_(&T) ? keep(&T, ct_mul(grads[0], x)) : NULL;
        if (OK_(&T)) give(&T, &out[which], ct_div(gx, result));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* logaddexp: self: grad / (1 + exp(other - self)), other: grad / (1 + exp(self - other)) */
int ct_d_logaddexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
    for (int which = 1; which >= 0 && OK_(&T); which--) {
        if (!ct_node_needs(n, which)) continue;
        ct_tensor *d = keep(&T, which == 0 ? ct_sub(other, self, ct_int(1)) : ct_sub(self, other, ct_int(1)));
        ct_tensor *e = OK_(&T) ? keep(&T, ct_exp(d)) : NULL;
        ct_tensor *one = OK_(&T) ? keep(&T, ct_add_scalar(e, ct_int(1), ct_int(1))) : NULL;
        if (OK_(&T)) give(&T, &out[which], ct_div(grads[0], one));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* xlogy.Tensor: self: xlogy(grad, other) with 0 where self == 0 and other <= 0 (the directional
 * derivative along x = 0), other: grad * self / other */
int ct_d_xlogy_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *self = saved(n, 0, &T), *other = OK_(&T) ? saved(n, 1, &T) : NULL;
    if (OK_(&T) && ct_node_needs(n, 1)) {
        ct_tensor *gs = keep(&T, ct_mul(grads[0], self));
        if (OK_(&T)) give(&T, &out[1], ct_div(gs, other));
    }
    if (OK_(&T) && ct_node_needs(n, 0)) {
        ct_tensor *x = keep(&T, ct_xlogy_tensor(grads[0], other));
        ct_tensor *z = OK_(&T) ? keep(&T, ct_eq_scalar(self, ct_double(0.0))) : NULL;
        ct_tensor *np = OK_(&T) ? keep(&T, ct_le_scalar(other, ct_double(0.0))) : NULL;
        ct_tensor *mask = OK_(&T) ? keep(&T, ct_bitwise_and_tensor(z, np)) : NULL;
        if (OK_(&T)) give(&T, &out[0], ct_masked_fill(x, mask, ct_double(0.0)));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}
/* xlogy.Scalar_Self: other: grad * self / other */
int ct_d_xlogy_scalar_self(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_tensor *other = saved(n, 1, &T);
    ct_tensor *gs = OK_(&T) ? keep(&T, ct_mul_scalar(grads[0], ct_f_sarg(n, 0))) : NULL;
    if (OK_(&T)) give(&T, &out[1], ct_div(gs, other));
    drop(&T);
    return T.failed ? -1 : 0;
}
/* xlogy.Scalar_Other: self: other > 0 ? xlogy(grad, other) : xlogy(grad, other) with 0 where self == 0 */
int ct_d_xlogy_scalar_other(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    temps T = {0};
    ct_scalar other = ct_f_sarg(n, 1);
    ct_tensor *x = keep(&T, ct_xlogy_scalar_other(grads[0], other));
    if (OK_(&T) && ct_f_darg(n, 1) > 0.0) {
        give(&T, &out[0], ct_tensor_retain(x));
    } else if (OK_(&T)) {
        ct_tensor *self = saved(n, 0, &T);
        ct_tensor *z = OK_(&T) ? keep(&T, ct_eq_scalar(self, ct_double(0.0))) : NULL;
        if (OK_(&T)) give(&T, &out[0], ct_masked_fill(x, z, ct_double(0.0)));
    }
    drop(&T);
    return T.failed ? -1 : 0;
}

/* the in-place comparisons: self: zeros_like(self); the Tensor forms also other: zeros_like(other) */
int ct_d_compare_scalar_(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    return 0;
}
int ct_d_compare_tensor_(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    if (ct_node_needs(n, 1)) {
        const ct_tensor_meta *m = ct_f_meta(n, 1);
        CT_F_NEED(out[1] = ct_zeros(m->sizes, m->ndim, m->dtype));
    }
    return 0;
}
