/* Backward formulas (torch/csrc/autograd/FunctionsManual.cpp and derivatives.yaml). Each
 * calls ops through the dispatcher, in the order PyTorch's generated Node::apply does, so a
 * dispatch mode or the profiler sees the same backward ops.
 *
 * Note [Formula order]
 *   The generated apply() computes the inputs' gradients in the alphabetical order of their
 *   argument names (load_derivatives.py sorts them): addmm does mat1, mat2, self; div and mul
 *   do other before self; mm does mat2 before self. */
#include <string.h>

#include "autograd/autograd_impl.h"
#include "autograd/formulas.h"
#include "autograd/node.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ops/builtin.h"
#include "ops/convert.h"
#include "ops/sum_to.h"

#define A(i) (1u << (i))
#define R(i) (1u << (i))

/* ---- helpers ---- */

static int64_t iarg(const ct_node *n, int i) { return n->args[i].u.i; }
static ct_scalar sarg(const ct_node *n, int i) { return n->args[i]; }
static const ct_tensor_meta *meta(const ct_node *n, int i) { return &n->arg_meta[i]; }

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

/* Fails the formula: the caller releases whatever was already produced. */
#define NEED_OK(expr)                                                                             \
    do {                                                                                          \
        if (!(expr)) return -1;                                                                   \
    } while (0)

/* ---- formulas ---- */

static int ct_d_addmm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    if (ct_node_needs(n, 1)) {
        ct_tensor *mat2;
        if (ct_saved_unpack(n, &n->saved_args[2], &mat2) != 0) return -1;
        out[1] = mm_mat1_backward(grad, mat2, meta(n, 1), sarg(n, 4));
        ct_tensor_release(mat2);
        NEED_OK(out[1]);
    }
    if (ct_node_needs(n, 2)) {
        ct_tensor *mat1;
        if (ct_saved_unpack(n, &n->saved_args[1], &mat1) != 0) return -1;
        out[2] = mm_mat2_backward(grad, mat1, meta(n, 2), sarg(n, 4));
        ct_tensor_release(mat1);
        NEED_OK(out[2]);
    }
    if (ct_node_needs(n, 0)) NEED_OK(out[0] = maybe_multiply(grad, sarg(n, 3)));
    return 0;
}

static int ct_d_mm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        out[1] = mm_mat2_backward(grad, self, meta(n, 1), ct_int(1));
        ct_tensor_release(self);
        NEED_OK(out[1]);
    }
    if (ct_node_needs(n, 0)) {
        ct_tensor *mat2;
        if (ct_saved_unpack(n, &n->saved_args[1], &mat2) != 0) return -1;
        out[0] = mm_mat1_backward(grad, mat2, meta(n, 0), ct_int(1));
        ct_tensor_release(mat2);
        NEED_OK(out[0]);
    }
    return 0;
}

static int ct_d_t(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    NEED_OK(out[0] = ct_t(grads[0]));
    return 0;
}

static int ct_d_transpose(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_transpose(grads[0], iarg(n, 1), iarg(n, 2)));
    return 0;
}

static int ct_d_permute(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* permute_backwards: the inverse permutation */
    const ct_value *dims = &n->args[1];
    int64_t nd = dims->u.list.len, inv[CT_MAX_DIMS];
    for (int64_t i = 0; i < nd; i++) {
        int64_t d = dims->u.list.data[i];
        if (d < 0) d += nd;
        inv[d] = i;
    }
    NEED_OK(out[0] = ct_permute(grads[0], inv, nd));
    return 0;
}

static int ct_d_reshape_to_self(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_reshape(grads[0], meta(n, 0)->sizes, meta(n, 0)->ndim));
    return 0;
}

static int ct_d_expand(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_sum_to(grads[0], meta(n, 0)->sizes, meta(n, 0)->ndim));
    return 0;
}

static int ct_d_identity(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

static int ct_d_unsqueeze(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_squeeze_dim(grads[0], iarg(n, 1)));
    return 0;
}

static int ct_d_squeeze_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* unsqueeze_to(grad, dim, self sizes) */
    const ct_tensor_meta *m = meta(n, 0);
    int64_t dim = iarg(n, 1);
    if (m->ndim == 0) {
        out[0] = ct_tensor_retain(grads[0]);
        return 0;
    }
    if (dim < 0) dim += m->ndim;
    if (m->sizes[dim] == 1) NEED_OK(out[0] = ct_unsqueeze(grads[0], dim));
    else out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

static int ct_d_to_copy(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_to_options(grads[0], meta(n, 0)->dtype));
    return 0;
}

static int ct_d_add(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) NEED_OK(out[1] = maybe_multiply(grads[0], sarg(n, 2)));
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

static int ct_d_sub(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) {
        ct_tensor *ng = ct_neg(grads[0]);
        NEED_OK(out[1] = mul_and_release(ng, sarg(n, 2)));
    }
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

static int ct_d_mul(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        out[1] = ct_mul(grads[0], self);
        ct_tensor_release(self);
        NEED_OK(out[1]);
    }
    if (ct_node_needs(n, 0)) {
        ct_tensor *other;
        if (ct_saved_unpack(n, &n->saved_args[1], &other) != 0) return -1;
        out[0] = ct_mul(grads[0], other);
        ct_tensor_release(other);
        NEED_OK(out[0]);
    }
    return 0;
}

static int ct_d_div(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
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

static int ct_d_mul_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_mul_scalar(grads[0], sarg(n, 1)));
    return 0;
}

static int ct_d_div_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_div_scalar(grads[0], sarg(n, 1)));
    return 0;
}

static int ct_d_neg(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    NEED_OK(out[0] = ct_neg(grads[0]));
    return 0;
}

static int ct_d_relu(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    out[0] = ct_threshold_backward(grads[0], result, ct_int(0));
    ct_tensor_release(result);
    NEED_OK(out[0]);
    return 0;
}

static int ct_d_sum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    NEED_OK(out[0] = ct_expand(grads[0], meta(n, 0)->sizes, meta(n, 0)->ndim, false));
    return 0;
}

static int ct_d_sum_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* sum_backward(grad, self sizes, dim, keepdim) */
    const ct_tensor_meta *m = meta(n, 0);
    const ct_value *dims = &n->args[1];
    bool keepdim = n->args[2].u.b;
    ct_tensor *g = ct_tensor_retain(grads[0]);
    if (!keepdim && m->ndim > 0 && dims->tag == CT_TAG_INTLIST && dims->u.list.len > 0) {
        if (dims->u.list.len == 1) {
            ct_tensor *u = ct_unsqueeze(g, dims->u.list.data[0]);
            ct_tensor_release(g);
            g = u;
        } else {
            bool mask[CT_MAX_DIMS] = {false};
            for (int64_t i = 0; i < dims->u.list.len; i++) {
                int64_t d = dims->u.list.data[i];
                mask[d < 0 ? d + m->ndim : d] = true;
            }
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
    NEED_OK(out[0]);
    return 0;
}

static int ct_d_log_softmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    out[0] = ct__log_softmax_backward_data(grads[0], result, iarg(n, 1), meta(n, 0)->dtype);
    ct_tensor_release(result);
    NEED_OK(out[0]);
    return 0;
}

static int ct_d_nll_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *target = NULL, *weight = NULL, *total_weight = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) == 0 && ct_saved_unpack(n, &n->saved_args[1], &target) == 0 &&
        ct_saved_unpack(n, &n->saved_args[2], &weight) == 0 && ct_saved_unpack(n, &n->saved_rets[1], &total_weight) == 0) {
        out[0] = ct_nll_loss_backward(grads[0], self, target, weight, iarg(n, 3), iarg(n, 4), total_weight);
        rc = out[0] ? 0 : -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(target);
    ct_tensor_release(weight);
    ct_tensor_release(total_weight);
    return rc;
}

/* masked_fill: self: grad.masked_fill(mask, 0); mask: non_differentiable */
static int ct_d_masked_fill(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *mask;
    if (ct_saved_unpack(n, &n->saved_args[1], &mask) != 0) return -1;
    out[0] = ct_masked_fill(grads[0], mask, ct_int(0));
    ct_tensor_release(mask);
    NEED_OK(out[0]);
    return 0;
}

/* ---- the table (src/autograd/derivatives.def) ---- */

#define ALWAYS 0xFFFFFFFFu
#define SV(i, need) [i] = (need)
#define SAVES(...) {__VA_ARGS__}
static const ct_deriv table[] = {
#define CT_DERIV(op, name, diff, sa, sr, nd, formula) {CT_OPID_##op, name, diff, sa, sr, nd, formula},
#include "autograd/derivatives.def"
#undef CT_DERIV
};

/* written once, by ct_derivatives_index in the start-up, before any autograd kernel can run */
static const ct_deriv *by_op_[CT_OPID_COUNT];

void ct_derivatives_index(void) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) by_op_[table[i].opid] = &table[i];
}

const ct_deriv *ct_deriv_for(const ct_op *op) {
    if (op->id < 0 || op->id >= CT_OPID_COUNT || ct_builtin_ops[op->id] != op) return NULL;
    return by_op_[op->id];
}
