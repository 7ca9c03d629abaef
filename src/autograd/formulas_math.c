/* Backward formulas of the matrix products and the arithmetic (derivatives.yaml and
 * FunctionsManual.cpp): addmm, mm, _to_copy, add, sub, mul, div (Tensor and Scalar), neg, relu,
 * sum and sum.dim_IntList, in the order of Note [Formula order] (formulas.h). */
#include "autograd/formulas.h"
#include "ops/api_call.h"
#include "ops/convert.h"

static bool scalar_is_one(ct_scalar s) {
    if (s.tag == CT_TAG_DOUBLE) return s.u.d == 1.0;
    if (s.tag == CT_TAG_BOOL) return s.u.b;
    return s.u.i == 1;
}

/* maybe_multiply: t itself when s == 1, else t * s (mul.Scalar) */
static ct_tensor *maybe_multiply(ct_tensor *t, ct_scalar s) {
    if (scalar_is_one(s)) return ct_tensor_retain(t);
    return ct_mul_scalar(t, s);
}

static ct_tensor *mul_and_release(ct_tensor *t, ct_scalar s) {
    if (!t) return NULL;
    ct_tensor *r = maybe_multiply(t, s);
    ct_tensor_release(t);
    return r;
}

static ct_tensor *t_of(ct_tensor *x) { return x ? ct_t(x) : NULL; }

/* mm_mat1_backward(grad, mat2, mat1 sizes/strides, alpha) */
static ct_tensor *mm_mat1_backward(ct_tensor *grad, ct_tensor *mat2, const ct_tensor_meta *m1, ct_scalar alpha) {
    if (m1->ndim == 2 && m1->strides[0] == 1 && m1->strides[1] == m1->sizes[0]) {
        /* column-major input: mat2.mm(grad.t()).t() */
        ct_tensor *gt = ct_t(grad);
        ct_tensor *p = gt ? ct_mm(mat2, gt) : NULL;
        ct_tensor *r = t_of(p);
        ct_tensor_release(gt);
        ct_tensor_release(p);
        return mul_and_release(r, alpha);
    }
    ct_tensor *m2t = ct_t(mat2);
    ct_tensor *r = m2t ? ct_mm(grad, m2t) : NULL;
    ct_tensor_release(m2t);
    return mul_and_release(r, alpha);
}

/* mm_mat2_backward(grad, mat1, mat2 sizes/strides, alpha) */
static ct_tensor *mm_mat2_backward(ct_tensor *grad, ct_tensor *mat1, const ct_tensor_meta *m2, ct_scalar alpha) {
    if (m2->ndim == 2 && m2->strides[0] == 1 && m2->strides[1] == m2->sizes[0]) {
        /* column-major input: grad.t().mm(mat1).t() */
        ct_tensor *gt = ct_t(grad);
        ct_tensor *p = gt ? ct_mm(gt, mat1) : NULL;
        ct_tensor *r = t_of(p);
        ct_tensor_release(gt);
        ct_tensor_release(p);
        return mul_and_release(r, alpha);
    }
    ct_tensor *m1t = ct_t(mat1);
    ct_tensor *r = m1t ? ct_mm(m1t, grad) : NULL;
    ct_tensor_release(m1t);
    return mul_and_release(r, alpha);
}

int ct_d_addmm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    if (ct_node_needs(n, 1)) {
        ct_tensor *mat2;
        if (ct_saved_unpack(n, &n->saved_args[2], &mat2) != 0) return -1;
        out[1] = mm_mat1_backward(grad, mat2, ct_f_meta(n, 1), ct_f_sarg(n, 4));
        ct_tensor_release(mat2);
        CT_F_NEED(out[1]);
    }
    if (ct_node_needs(n, 2)) {
        ct_tensor *mat1;
        if (ct_saved_unpack(n, &n->saved_args[1], &mat1) != 0) return -1;
        out[2] = mm_mat2_backward(grad, mat1, ct_f_meta(n, 2), ct_f_sarg(n, 4));
        ct_tensor_release(mat1);
        CT_F_NEED(out[2]);
    }
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = maybe_multiply(grad, ct_f_sarg(n, 3)));
    return 0;
}

int ct_d_mm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        out[1] = mm_mat2_backward(grad, self, ct_f_meta(n, 1), ct_int(1));
        ct_tensor_release(self);
        CT_F_NEED(out[1]);
    }
    if (ct_node_needs(n, 0)) {
        ct_tensor *mat2;
        if (ct_saved_unpack(n, &n->saved_args[1], &mat2) != 0) return -1;
        out[0] = mm_mat1_backward(grad, mat2, ct_f_meta(n, 0), ct_int(1));
        ct_tensor_release(mat2);
        CT_F_NEED(out[0]);
    }
    return 0;
}

int ct_d_to_copy(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_to_options(grads[0], ct_f_meta(n, 0)->dtype));
    return 0;
}

int ct_d_add(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = maybe_multiply(grads[0], ct_f_sarg(n, 2)));
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

int ct_d_sub(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) {
        ct_tensor *ng = ct_neg(grads[0]);
        CT_F_NEED(out[1] = mul_and_release(ng, ct_f_sarg(n, 2)));
    }
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

/* rsub.Tensor(self, other, alpha) is other - alpha * self: self -grad * alpha, other grad */
int ct_d_rsub_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) {
        ct_tensor *ng = ct_neg(grads[0]);
        CT_F_NEED(out[0] = mul_and_release(ng, ct_f_sarg(n, 2)));
    }
    if (ct_node_needs(n, 1)) out[1] = ct_tensor_retain(grads[0]);
    return 0;
}

/* rsub.Scalar(self, other, alpha) is other - alpha * self: self -grad * alpha */
int ct_d_rsub_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *ng = ct_neg(grads[0]);
    CT_F_NEED(out[0] = mul_and_release(ng, ct_f_sarg(n, 2)));
    return 0;
}

int ct_d_mul(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        out[1] = ct_mul(grads[0], self);
        ct_tensor_release(self);
        CT_F_NEED(out[1]);
    }
    if (ct_node_needs(n, 0)) {
        ct_tensor *other;
        if (ct_saved_unpack(n, &n->saved_args[1], &other) != 0) return -1;
        out[0] = ct_mul(grads[0], other);
        ct_tensor_release(other);
        CT_F_NEED(out[0]);
    }
    return 0;
}

int ct_d_div(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *other = NULL;
    if (ct_saved_unpack(n, &n->saved_args[1], &other) != 0) return -1;
    int rc = 0;
    if (ct_node_needs(n, 1)) {
        /* -grad * ((self / other) / other): GCC evaluates the right operand first */
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) rc = -1;
        ct_tensor *q1 = rc == 0 ? ct_div(self, other) : NULL;
        ct_tensor *q2 = q1 ? ct_div(q1, other) : NULL;
        ct_tensor *ng = q2 ? ct_neg(grads[0]) : NULL;
        out[1] = ng ? ct_mul(ng, q2) : NULL;
        if (!out[1]) rc = -1;
        ct_tensor_release(ng);
        ct_tensor_release(q1);
        ct_tensor_release(q2);
    }
    if (rc == 0 && ct_node_needs(n, 0)) {
        out[0] = ct_div(grads[0], other);
        if (!out[0]) rc = -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(other);
    return rc;
}

int ct_d_mul_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_mul_scalar(grads[0], ct_f_sarg(n, 1)));
    return 0;
}

int ct_d_div_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_div_scalar(grads[0], ct_f_sarg(n, 1)));
    return 0;
}

int ct_d_neg(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    CT_F_NEED(out[0] = ct_neg(grads[0]));
    return 0;
}

/* at::scalar_tensor(v, like.options()): the options give dtype, layout and device (pin_memory
 * unset), as a dispatch mode sees them */
ct_tensor *ct_f_scalar_like(double v, const ct_tensor *like) {
    ct_value a[5] = {ct_double(v), ct_int((int64_t)like->dtype), ct_int(0) /* torch.strided */,
                     (ct_value){.tag = CT_TAG_DEVICE, .u = {.i = 0}}, ct_none()};
    ct_value r[1] = {ct_none()};
    if (ct_api_call(CT_OPID_scalar_tensor, a, r) != 0) return NULL;
    return ct_api_take_tensor(r);
}

/* clamp_backward: where(self within the bounds given, grad, 0), with PyTorch's order of calls:
 * the zero (scalar_tensor), self >= min, self <= max, their logical_and_, the where */
static int clamp_grad(ct_node *n, ct_tensor *grad, const ct_value *min, const ct_value *max, ct_tensor **out) {
    bool lo = min && min->tag != CT_TAG_NONE, hi = max && max->tag != CT_TAG_NONE;
    ct_tensor *self;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    ct_tensor *zero = ct_f_scalar_like(0.0, grad);
    ct_tensor *mask = NULL;
    if (zero) {
        ct_tensor *ge = lo ? ct_ge_scalar(self, *min) : NULL;
        ct_tensor *le = hi && (ge || !lo) ? ct_le_scalar(self, *max) : NULL;
        if (lo && hi) {
            if (ge && le && ct_logical_and_(ge, le) == 0) mask = ct_tensor_retain(ge);
        } else {
            mask = ct_tensor_retain(lo ? ge : le);
        }
        ct_tensor_release(ge);
        ct_tensor_release(le);
    }
    *out = mask ? ct_where(mask, grad, zero) : NULL;
    ct_tensor_release(mask);
    ct_tensor_release(zero);
    ct_tensor_release(self);
    return *out ? 0 : -1;
}

/* clamp(self, min, max): ClampBackward1 */
int ct_d_clamp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return clamp_grad(n, grads[0], &n->args[1], &n->args[2], &out[0]);
}

/* clamp_min(self, min): ClampMinBackward0 */
int ct_d_clamp_min(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return clamp_grad(n, grads[0], &n->args[1], NULL, &out[0]);
}

/* clamp_max(self, max): ClampMaxBackward0 */
int ct_d_clamp_max(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return clamp_grad(n, grads[0], NULL, &n->args[1], &out[0]);
}

int ct_d_relu(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    out[0] = ct_threshold_backward(grads[0], result, ct_int(0));
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_sum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_expand(grads[0], ct_f_meta(n, 0)->sizes, ct_f_meta(n, 0)->ndim, false));
    return 0;
}

int ct_d_sum_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* sum_backward(grad, self sizes, dim, keepdim) */
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const ct_value *dims = &n->args[1];
    bool keepdim = n->args[2].u.b;
    ct_tensor *g = ct_tensor_retain(grads[0]);
    if (!keepdim && m->ndim > 0 && dims->tag == CT_TAG_INTLIST && dims->u.list.len > 0) {
        if (dims->u.list.len == 1) {
            ct_tensor *u = ct_unsqueeze(g, dims->u.list.data[0]);
            ct_tensor_release(g);
            g = u;
        } else {
            bool mask[CT_MAX_DIMS];
            ct_f_dim_mask(dims, m->ndim, mask);
            for (int i = 0; i < m->ndim && g; i++) {
                if (!mask[i]) continue;
                ct_tensor *u = ct_unsqueeze(g, i);
                ct_tensor_release(g);
                g = u;
            }
        }
    }
    if (!g) return -1;
    out[0] = ct_expand(g, m->sizes, m->ndim, false);
    ct_tensor_release(g);
    CT_F_NEED(out[0]);
    return 0;
}
