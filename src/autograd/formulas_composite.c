/* Backward formulas of the composites family (derivatives.yaml and FunctionsManual.cpp):
 * norm_backward for every order (linalg_vector_norm's LinalgVectorNormBackward0 and
 * norm.ScalarOpt_dim's NormBackward1), glu (glu_backward), soft_margin_loss
 * (soft_margin_loss_backward) and binary_cross_entropy_with_logits (self and target). Each calls
 * ops through the dispatcher in the order of Note [Formula order] (formulas.h). */
#include <math.h>

#include "autograd/formulas.h"
#include "core/tls.h"
#include "ops/kernel_util.h"

/* Temporaries of a formula, released together. */
typedef struct ftemps {
    ct_tensor *t[16];
    int n;
    bool failed;
} ftemps;

static ct_tensor *fk(ftemps *T, ct_tensor *t) {
    if (t && T->n == (int)(sizeof T->t / sizeof T->t[0])) {
        ct_tensor_release(t);
        ct_error_set(CT_ERR_RUNTIME, "internal error: too many temporaries in a formula");
        t = NULL;
    }
    if (!t) T->failed = true;
    else T->t[T->n++] = t;
    return t;
}

static ct_tensor *fin(ftemps *T, ct_tensor *t, int rc) {
    if (rc != 0) T->failed = true;
    return rc == 0 ? t : NULL;
}

static void ftemps_release(ftemps *T) {
    for (int i = 0; i < T->n; i++) ct_tensor_release(T->t[i]);
    T->n = 0;
}

/* norm_backward(grad, self, p, norm, dim, keepdim): the gradient of the p-norm over dims (an int
 * list, or None/empty for every dimension), grad and norm unsqueezed back where !keepdim */
static int norm_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out, double p, const ct_value *dims, bool keepdim) {
    ct_tensor *self = NULL, *norm = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0 || ct_saved_unpack(n, &n->saved_rets[0], &norm) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    ftemps T = {.n = 0, .failed = false};
    fk(&T, self);
    fk(&T, norm);
    ct_tensor *grad = fk(&T, ct_tensor_retain(grads[0]));
    int ndim = self->ndim;
    if (!keepdim && ndim != 0 && dims->tag == CT_TAG_INTLIST && dims->u.list.len > 0) {
        bool mask[CT_MAX_DIMS];
        ct_f_dim_mask(dims, ndim, mask);
        for (int d = 0; d < ndim && !T.failed; d++) { /* unsqueeze_multiple: grad's, then norm's */
            if (!mask[d]) continue;
            grad = fk(&T, ct_unsqueeze(grad, d));
        }
        for (int d = 0; d < ndim && !T.failed; d++) {
            if (!mask[d]) continue;
            norm = fk(&T, ct_unsqueeze(norm, d));
        }
    }
    ct_tensor *r = NULL;
    if (T.failed) goto done;
    if (p == 0.0) {
        r = NULL; /* an undefined gradient: none flows back */
    } else if (p == 1.0) { /* self.sgn() * grad */
        ct_tensor *s = fk(&T, ct_sgn(self));
        r = s ? ct_mul(s, grad) : NULL;
        if (!r) T.failed = true;
    } else if (p == 2.0) { /* grad * (self / norm).masked_fill_(norm == 0, 0) */
        ct_tensor *q = fk(&T, ct_div(self, norm));
        ct_tensor *z = q ? fk(&T, ct_eq_scalar(norm, ct_int(0))) : NULL;
        q = z ? fin(&T, q, ct_masked_fill_(q, z, ct_int(0))) : NULL;
        r = q ? ct_mul(grad, q) : NULL;
        if (!r) T.failed = true;
    } else if (isinf(p)) { /* self.sgn() * ((grad / mask.sum(dim, true)) * mask), mask: |self| == norm or NaN */
        ct_tensor *sa = fk(&T, ct_abs(self));
        ct_tensor *eq = sa ? fk(&T, ct_eq_tensor(sa, norm)) : NULL;
        ct_tensor *nan = eq ? fk(&T, ct_isnan(sa)) : NULL;
        ct_tensor *mask = nan ? fk(&T, ct_logical_or(eq, nan)) : NULL;
        int64_t all[CT_MAX_DIMS];
        const int64_t *dl = NULL;
        int64_t nd = 0;
        if (dims->tag == CT_TAG_INTLIST && dims->u.list.len > 0) {
            dl = dims->u.list.data;
            nd = dims->u.list.len;
        } else {
            for (int d = 0; d < ndim; d++) all[d] = d;
            dl = all;
            nd = ndim;
        }
        ct_tensor *cnt = mask ? fk(&T, ct_sum_dim(mask, dl, nd, true, CT_DTYPE_UNDEFINED)) : NULL;
        ct_tensor *s = cnt ? fk(&T, ct_sgn(self)) : NULL;
        ct_tensor *gd = s ? fk(&T, ct_div(grad, cnt)) : NULL;
        ct_tensor *gm = gd ? fk(&T, ct_mul(gd, mask)) : NULL;
        r = gm ? ct_mul(s, gm) : NULL;
        if (!r) T.failed = true;
    } else if (p < 1.0) { /* self.sgn() * self.abs().pow_(p - 1).masked_fill_(self == 0, 0) * grad * norm.pow(1 - p) */
        ct_tensor *s = fk(&T, ct_sgn(self));
        ct_tensor *a = s ? fk(&T, ct_abs(self)) : NULL;
        a = a ? fin(&T, a, ct_pow__scalar(a, ct_double(p - 1))) : NULL;
        ct_tensor *z = a ? fk(&T, ct_eq_scalar(self, ct_int(0))) : NULL;
        a = z ? fin(&T, a, ct_masked_fill_(a, z, ct_int(0))) : NULL;
        ct_tensor *ss = a ? fk(&T, ct_mul(s, a)) : NULL;
        ct_tensor *sg = ss ? fk(&T, ct_mul(ss, grad)) : NULL;
        ct_tensor *np = sg ? fk(&T, ct_pow_tensor_scalar(norm, ct_double(1 - p))) : NULL;
        r = np ? ct_mul(sg, np) : NULL;
        if (!r) T.failed = true;
    } else { /* p in (1, 2): self.sgn() * |self|^(p-1); beyond 2: self * |self|^(p-2); over norm^(p-1) */
        ct_tensor *ss;
        if (p < 2.0) {
            ct_tensor *s = fk(&T, ct_sgn(self));
            ct_tensor *a = s ? fk(&T, ct_abs(self)) : NULL;
            a = a ? fin(&T, a, ct_pow__scalar(a, ct_double(p - 1))) : NULL;
            ss = a ? fk(&T, ct_mul(s, a)) : NULL;
        } else {
            ct_tensor *a = fk(&T, ct_abs(self));
            a = a ? fin(&T, a, ct_pow__scalar(a, ct_double(p - 2))) : NULL;
            ss = a ? fk(&T, ct_mul(self, a)) : NULL;
        }
        ct_tensor *np = ss ? fk(&T, ct_pow_tensor_scalar(norm, ct_double(p - 1))) : NULL;
        ct_tensor *sv = np ? fk(&T, ct_div(grad, np)) : NULL;
        ct_tensor *z = sv ? fk(&T, ct_eq_scalar(norm, ct_int(0))) : NULL;
        sv = z ? fin(&T, sv, ct_masked_fill_(sv, z, ct_int(0))) : NULL;
        r = sv ? ct_mul(ss, sv) : NULL;
        if (!r) T.failed = true;
    }
done:
    ftemps_release(&T);
    if (T.failed) {
        ct_tensor_release(r);
        return -1;
    }
    out[0] = r;
    return 0;
}

/* linalg_vector_norm(self, ord, dim, keepdim, dtype): linalg_vector_norm_backward */
int ct_d_linalg_vector_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return norm_backward(n, grads, out, ct_f_darg(n, 1), &n->args[2], n->args[3].u.b);
}

/* norm.ScalarOpt_dim(self, p?, dim, keepdim): norm_backward, p 2 when None */
int ct_d_norm_ScalarOpt_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    double p = n->args[1].tag == CT_TAG_NONE ? 2.0 : ct_f_darg(n, 1);
    return norm_backward(n, grads, out, p, &n->args[2], n->args[3].u.b);
}

/* glu: self: glu_backward(grad, self, dim) */
int ct_d_glu(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    out[0] = ct_glu_backward(grads[0], self, ct_f_iarg(n, 1));
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}

/* soft_margin_loss: self: soft_margin_loss_backward(grad, self, target, reduction) */
int ct_d_soft_margin_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *target = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0 || ct_saved_unpack(n, &n->saved_args[1], &target) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = ct_soft_margin_loss_backward(grads[0], self, target, ct_f_iarg(n, 2));
    ct_tensor_release(self);
    ct_tensor_release(target);
    CT_F_NEED(out[0]);
    return 0;
}

/* binary_cross_entropy_with_logits_backward (self): with t = pos_weight * target,
 * ((t + 1 - target) * sigmoid(input) - t) * grad (without pos_weight: (sigmoid(input) - target) * grad),
 * times weight, over numel for the mean; out of place where a subclass-like tensor (or a
 * dispatch mode) or grad mode asks for it, as FunctionsManual.cpp's */
static ct_tensor *bce_logits_self(ct_tensor *grad, ct_tensor *input, ct_tensor *target, ct_tensor *weight,
                                  ct_tensor *pos_weight, int64_t reduction) {
    ftemps T = {.n = 0, .failed = false};
    ct_tensor *gi = NULL;
    if (pos_weight) {
        ct_tensor *t = fk(&T, ct_mul(pos_weight, target));
        bool oop = ct_is_tensor_subclass_like(input) || ct_is_tensor_subclass_like(target) || !ct_tls_state.grad_disabled;
        ct_tensor *a = t ? fk(&T, ct_add_scalar(t, ct_int(1), ct_int(1))) : NULL;
        if (a && oop) {
            ct_tensor *b = fk(&T, ct_sub(a, target, ct_int(1)));
            ct_tensor *s = b ? fk(&T, ct_sigmoid(input)) : NULL;
            gi = s ? fk(&T, ct_mul(b, s)) : NULL;
        } else if (a) {
            a = fin(&T, a, ct_sub_(a, target, ct_int(1)));
            ct_tensor *s = a ? fk(&T, ct_sigmoid(input)) : NULL;
            gi = s ? fin(&T, a, ct_mul_(a, s)) : NULL;
        }
        bool oop2 = gi && (ct_is_tensor_subclass_like(gi) || ct_is_tensor_subclass_like(t) || !ct_tls_state.grad_disabled);
        if (gi) gi = oop2 ? fk(&T, ct_sub(gi, t, ct_int(1))) : fin(&T, gi, ct_sub_(gi, t, ct_int(1)));
    } else {
        ct_tensor *s = fk(&T, ct_sigmoid(input));
        gi = s ? fk(&T, ct_sub(s, target, ct_int(1))) : NULL;
    }
    if (gi) {
        if (ct_is_tensor_subclass_like(grad) || !ct_tls_state.grad_disabled) gi = fk(&T, ct_mul(gi, grad));
        else gi = fin(&T, gi, ct_mul_(gi, grad));
    }
    if (gi && weight) {
        if (ct_is_tensor_subclass_like(weight) || !ct_tls_state.grad_disabled) gi = fk(&T, ct_mul(gi, weight));
        else gi = fin(&T, gi, ct_mul_(gi, weight));
    }
    if (gi && reduction == 1) gi = fin(&T, gi, ct_div__scalar(gi, ct_int(input->numel)));
    ct_tensor *r = (!T.failed && gi) ? ct_tensor_retain(gi) : NULL;
    ftemps_release(&T);
    return r;
}

/* binary_cross_entropy_with_logits_target_backward: (log_sigmoid(-self) - log_sigmoid(self) * pos_weight) * grad
 * (without pos_weight: -self * grad), times weight, over numel for the mean */
static ct_tensor *bce_logits_target(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                    ct_tensor *pos_weight, int64_t reduction) {
    ftemps T = {.n = 0, .failed = false};
    ct_tensor *gt = NULL;
    if (pos_weight) {
        bool oop = ct_is_tensor_subclass_like(pos_weight) || ct_is_tensor_subclass_like(grad);
        ct_tensor *ns = fk(&T, ct_neg(self));
        ct_tensor *l1 = ns ? fk(&T, ct_log_sigmoid(ns)) : NULL;
        ct_tensor *l2 = l1 ? fk(&T, ct_log_sigmoid(self)) : NULL;
        if (l2 && oop) {
            ct_tensor *m = fk(&T, ct_mul(l2, pos_weight));
            ct_tensor *d = m ? fk(&T, ct_sub(l1, m, ct_int(1))) : NULL;
            gt = d ? fk(&T, ct_mul(d, grad)) : NULL;
        } else if (l2) {
            l2 = fin(&T, l2, ct_mul_(l2, pos_weight));
            l1 = l2 ? fin(&T, l1, ct_sub_(l1, l2, ct_int(1))) : NULL;
            gt = l1 ? fin(&T, l1, ct_mul_(l1, grad)) : NULL;
        }
    } else {
        ct_tensor *ns = fk(&T, ct_neg(self));
        gt = ns ? fk(&T, ct_mul(ns, grad)) : NULL;
    }
    if (gt && weight) {
        if (ct_is_tensor_subclass_like(weight)) gt = fk(&T, ct_mul(gt, weight));
        else gt = fin(&T, gt, ct_mul_(gt, weight));
    }
    if (gt && reduction == 1) gt = fin(&T, gt, ct_div__scalar(gt, ct_int(target->numel)));
    ct_tensor *r = (!T.failed && gt) ? ct_tensor_retain(gt) : NULL;
    ftemps_release(&T);
    return r;
}

int ct_d_binary_cross_entropy_with_logits(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s[4] = {NULL, NULL, NULL, NULL};
    int rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++) rc = ct_saved_unpack(n, &n->saved_args[i], &s[i]);
    int64_t reduction = ct_f_iarg(n, 4);
    if (rc == 0 && ct_node_needs(n, 0) && !(out[0] = bce_logits_self(grads[0], s[0], s[1], s[2], s[3], reduction))) rc = -1;
    if (rc == 0 && ct_node_needs(n, 1) && !(out[1] = bce_logits_target(grads[0], s[0], s[1], s[2], s[3], reduction))) rc = -1;
    for (int i = 0; i < 4; i++) ct_tensor_release(s[i]);
    return rc;
}
