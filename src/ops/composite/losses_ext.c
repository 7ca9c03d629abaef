/* The losses and distances of Loss.cpp and Distance.cpp over ctorch's operators:
 * CompositeImplicitAutograd hinge_embedding_loss, margin_ranking_loss, cosine_embedding_loss,
 * triplet_margin_loss, poisson_nll_loss, cosine_similarity, pairwise_distance (each calls the
 * operators PyTorch 2.6's body calls, in its order, GCC's evaluation order of C++ operands
 * included: the right operand of a binary operator first, so a dispatch mode sees the same log),
 * and the CompositeExplicitAutograd binary_cross_entropy_with_logits, soft_margin_loss and
 * soft_margin_loss_backward, whose derivatives are their own (formulas_composite.c); clamp_min_,
 * the in-place clamp_min those bodies use; norm.ScalarOpt_dim, the CPU kernel at::norm (and so
 * pairwise_distance) reaches, linalg_vector_norm's. */
#include <math.h>
#include <string.h>

#include "core/tls.h"

#include "ops/builtin.h"
#include "ops/kernel_util.h"

/* Temporaries of a body, released together. */
typedef struct temps {
    ct_tensor *t[40];
    int n;
    bool failed;
} temps;

static ct_tensor *keep(temps *T, ct_tensor *t) {
    if (t && T->n == (int)(sizeof T->t / sizeof T->t[0])) {
        ct_tensor_release(t);
        ct_error_set(CT_ERR_RUNTIME, "internal error: too many temporaries in a composite body");
        t = NULL;
    }
    if (!t) T->failed = true;
    else T->t[T->n++] = t;
    return t;
}

/* the value of an in-place call on t: t itself (kept), or NULL when it failed */
static ct_tensor *inplace(temps *T, ct_tensor *t, int rc) {
    if (rc != 0) T->failed = true;
    return rc == 0 ? t : NULL;
}

static void temps_release(temps *T) {
    for (int i = 0; i < T->n; i++) ct_tensor_release(T->t[i]);
    T->n = 0;
}

/* the tensor to return: a new reference to t */
static ct_tensor *result_of(temps *T, ct_tensor *t) {
    ct_tensor *r = (!T->failed && t) ? ct_tensor_retain(t) : NULL;
    temps_release(T);
    return r;
}

/* apply_loss_reduction: mean() for 1, sum() for 2, the tensor itself otherwise */
static ct_tensor *reduce(temps *T, ct_tensor *t, int64_t reduction) {
    if (!t) return NULL;
    if (reduction == 1) return keep(T, ct_mean(t, CT_DTYPE_UNDEFINED));
    if (reduction == 2) return keep(T, ct_sum(t, CT_DTYPE_UNDEFINED));
    return t;
}

/* C++'s `scalar - tensor` (TensorOperators.h): empty_like(t).fill_(scalar).sub_(t) */
static ct_tensor *scalar_minus(temps *T, ct_scalar s, ct_tensor *t) {
    ct_tensor *e = keep(T, ct_empty_like(t, CT_DTYPE_UNDEFINED, CT_PRESERVE_FORMAT));
    if (!e || !inplace(T, e, ct_fill_(e, s))) return NULL;
    return inplace(T, e, ct_sub_(e, t, ct_int(1)));
}

/* clamp_min_(Tensor(a!) self, Scalar min): clamp_min's result written back into self */
int ct_k_clamp_min_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tensor *self = ARG_T(0);
    ct_value r[1] = {ct_none()};
    if (ct_k_clamp_min(op, ks, args, r) != 0) return -1;
    ct_tensor *res = r[0].u.t;
    int rc = 0;
    if (!ct_dtype_can_cast(res->dtype, self->dtype))
        rc = ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(res->dtype),
                          ct_dtype_name(self->dtype));
    else
        rc = ct_copy_into(self, res);
    ct_tensor_release(res);
    if (rc != 0) return -1;
    ct_bump_version(self);
    return ct_ret_self(rets, self);
}

/* norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False): norm's meta
 * check, then linalg_vector_norm's kernel (impl_func_norm), p 2 when None */
int ct_k_norm_ScalarOpt_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tensor *self = ARG_T(0);
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                            ct_dtype_name(self->dtype));
    ct_value a[5] = {args[0], args[1].tag == CT_TAG_NONE ? ct_double(2.0) : args[1], args[2], args[3], ct_none()};
    (void)op;
    return ct_k_linalg_vector_norm(ct_builtin(CT_OPID_linalg_vector_norm), ks, a, rets);
}

/* hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) */
int ct_k_hinge_embedding_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1);
    temps T = {.n = 0, .failed = false};
    ct_tensor *zeros = keep(&T, ct_zeros_like(self, CT_DTYPE_UNDEFINED, CT_CONTIGUOUS_FORMAT));
    ct_tensor *mc = zeros ? scalar_minus(&T, ct_double(args[2].u.d), self) : NULL;
    mc = mc ? inplace(&T, mc, ct_clamp_min_(mc, ct_int(0))) : NULL;
    ct_tensor *ne1 = mc ? keep(&T, ct_ne_scalar(target, ct_int(1))) : NULL;
    ct_tensor *om = ne1 ? keep(&T, ct_where(ne1, mc, zeros)) : NULL;
    ct_tensor *ne2 = om ? keep(&T, ct_ne_scalar(target, ct_int(-1))) : NULL;
    ct_tensor *os = ne2 ? keep(&T, ct_where(ne2, self, zeros)) : NULL;
    ct_tensor *out = os ? keep(&T, ct_add(om, os, ct_int(1))) : NULL;
    return ct_ret(rets, 0, result_of(&T, reduce(&T, out, ARG_I(3))));
}

/* margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1):
 * (-target * (input1 - input2) + margin).clamp_min_(0) */
int ct_k_margin_ranking_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    temps T = {.n = 0, .failed = false};
    ct_tensor *diff = keep(&T, ct_sub(ARG_T(0), ARG_T(1), ct_int(1)));
    ct_tensor *nt = diff ? keep(&T, ct_neg(ARG_T(2))) : NULL;
    ct_tensor *prod = nt ? keep(&T, ct_mul(nt, diff)) : NULL;
    ct_tensor *out = prod ? keep(&T, ct_add_scalar(prod, ct_double(args[3].u.d), ct_int(1))) : NULL;
    out = out ? inplace(&T, out, ct_clamp_min_(out, ct_int(0))) : NULL;
    return ct_ret(rets, 0, result_of(&T, reduce(&T, out, ARG_I(4))));
}

/* cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) */
int ct_k_cosine_embedding_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input1 = ARG_T(0), *input2 = ARG_T(1), *target = ARG_T(2);
    int64_t targ_dim = target->ndim;
    if (targ_dim != 1 && targ_dim != 0)
        return ct_error_set(CT_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
    if ((targ_dim == 1 && input1->ndim != 2) || (targ_dim == 0 && input1->ndim != 1)) {
        char b1[256], b2[256];
        ct_format_shape(input1->sizes, input1->ndim, b1, sizeof b1);
        ct_format_shape(input2->sizes, input2->ndim, b2, sizeof b2);
        return ct_error_set(CT_ERR_RUNTIME, "%s target tensor expects %s input tensors, but found inputs with sizes %s and %s.",
                            targ_dim == 1 ? "1D" : "0D", targ_dim == 1 ? "2D" : "1D", b1, b2);
    }
    const double eps = (double)1e-12f; /* Loss.cpp's constexpr float EPSILON */
    temps T = {.n = 0, .failed = false};
    ct_tensor *p12 = keep(&T, ct_mul(input1, input2));
    ct_tensor *prod_sum = p12 ? keep(&T, ct_sum_dim(p12, &targ_dim, 1, false, CT_DTYPE_UNDEFINED)) : NULL;
    ct_tensor *p11 = prod_sum ? keep(&T, ct_mul(input1, input1)) : NULL;
    ct_tensor *s11 = p11 ? keep(&T, ct_sum_dim(p11, &targ_dim, 1, false, CT_DTYPE_UNDEFINED)) : NULL;
    ct_tensor *mag1 = s11 ? keep(&T, ct_add_scalar(s11, ct_double(eps), ct_int(1))) : NULL;
    ct_tensor *p22 = mag1 ? keep(&T, ct_mul(input2, input2)) : NULL;
    ct_tensor *s22 = p22 ? keep(&T, ct_sum_dim(p22, &targ_dim, 1, false, CT_DTYPE_UNDEFINED)) : NULL;
    ct_tensor *mag2 = s22 ? keep(&T, ct_add_scalar(s22, ct_double(eps), ct_int(1))) : NULL;
    ct_tensor *denom = mag2 ? keep(&T, ct_mul(mag1, mag2)) : NULL;
    denom = denom ? inplace(&T, denom, ct_sqrt_(denom)) : NULL;
    ct_tensor *cos = denom ? keep(&T, ct_div(prod_sum, denom)) : NULL;
    ct_tensor *zeros = cos ? keep(&T, ct_zeros_like(cos, CT_DTYPE_UNDEFINED, CT_CONTIGUOUS_FORMAT)) : NULL;
    ct_tensor *pos = zeros ? scalar_minus(&T, ct_int(1), cos) : NULL;
    ct_tensor *neg = pos ? keep(&T, ct_sub_scalar(cos, ct_double(args[3].u.d), ct_int(1))) : NULL;
    neg = neg ? inplace(&T, neg, ct_clamp_min_(neg, ct_int(0))) : NULL;
    ct_tensor *e1 = neg ? keep(&T, ct_eq_scalar(target, ct_int(1))) : NULL;
    ct_tensor *op_ = e1 ? keep(&T, ct_where(e1, pos, zeros)) : NULL;
    ct_tensor *e2 = op_ ? keep(&T, ct_eq_scalar(target, ct_int(-1))) : NULL;
    ct_tensor *on = e2 ? keep(&T, ct_where(e2, neg, zeros)) : NULL;
    ct_tensor *out = on ? keep(&T, ct_add(op_, on, ct_int(1))) : NULL;
    return ct_ret(rets, 0, result_of(&T, reduce(&T, out, ARG_I(4))));
}

/* pairwise_distance: norm(x1 - x2 + eps, p, the innermost dimension of the broadcast, keepdim) */
static ct_tensor *pairwise_distance(ct_tensor *x1, ct_tensor *x2, double p, double eps, bool keepdim) {
    int64_t output_dim = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
    int64_t innermost_dim = output_dim - 1;
    temps T = {.n = 0, .failed = false};
    ct_tensor *d = keep(&T, ct_sub(x1, x2, ct_int(1)));
    ct_tensor *de = d ? keep(&T, ct_add_scalar(d, ct_double(eps), ct_int(1))) : NULL;
    ct_scalar ps = ct_double(p);
    ct_tensor *r = de ? keep(&T, ct_norm_ScalarOpt_dim(de, &ps, &innermost_dim, 1, keepdim)) : NULL;
    return result_of(&T, r);
}

/* pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, bool keepdim=False) */
int ct_k_pairwise_distance(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, pairwise_distance(ARG_T(0), ARG_T(1), args[2].u.d, args[3].u.d, ARG_B(4)));
}

/* triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2.,
 * float eps=1e-06, bool swap=False, int reduction=1) */
int ct_k_triplet_margin_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *anchor = ARG_T(0), *positive = ARG_T(1), *negative = ARG_T(2);
    if (!(anchor->ndim == positive->ndim && positive->ndim == negative->ndim))
        return ct_error_set(CT_ERR_RUNTIME,
                            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
                            "got: anchor %dD, positive %dD, and negative %dD inputs",
                            anchor->ndim, positive->ndim, negative->ndim);
    double margin = args[3].u.d, p = args[4].u.d, eps = args[5].u.d;
    temps T = {.n = 0, .failed = false};
    ct_tensor *dist_pos = keep(&T, pairwise_distance(anchor, positive, p, eps, false));
    ct_tensor *dist_neg = dist_pos ? keep(&T, pairwise_distance(anchor, negative, p, eps, false)) : NULL;
    if (dist_neg && ARG_B(6)) {
        ct_tensor *dist_swap = keep(&T, pairwise_distance(positive, negative, p, eps, false));
        dist_neg = dist_swap ? keep(&T, ct_minimum(dist_neg, dist_swap)) : NULL;
    }
    ct_tensor *a = dist_neg ? keep(&T, ct_add_scalar(dist_pos, ct_double(margin), ct_int(1))) : NULL;
    ct_tensor *s = a ? keep(&T, ct_sub(a, dist_neg, ct_int(1))) : NULL;
    ct_tensor *out = s ? keep(&T, ct_clamp_min(s, ct_int(0))) : NULL;
    return ct_ret(rets, 0, result_of(&T, reduce(&T, out, ARG_I(7))));
}

/* poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) */
int ct_k_poisson_nll_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *target = ARG_T(1);
    temps T = {.n = 0, .failed = false};
    ct_tensor *loss;
    if (ARG_B(2)) { /* exp(input) - target * input */
        ct_tensor *ti = keep(&T, ct_mul(target, input));
        ct_tensor *e = ti ? keep(&T, ct_exp(input)) : NULL;
        loss = e ? keep(&T, ct_sub(e, ti, ct_int(1))) : NULL;
    } else { /* input - target * log(input + eps) */
        ct_tensor *ie = keep(&T, ct_add_scalar(input, ct_double(args[4].u.d), ct_int(1)));
        ct_tensor *l = ie ? keep(&T, ct_log(ie)) : NULL;
        ct_tensor *tl = l ? keep(&T, ct_mul(target, l)) : NULL;
        loss = tl ? keep(&T, ct_sub(input, tl, ct_int(1))) : NULL;
    }
    if (loss && ARG_B(3)) { /* + (target * log(target) - target + 0.5 * log(2 * pi * target)) where target > 1 */
        ct_tensor *tp = keep(&T, ct_mul_scalar(target, ct_double(2 * 3.14159265358979323846)));
        ct_tensor *ltp = tp ? keep(&T, ct_log(tp)) : NULL;
        ct_tensor *half = ltp ? keep(&T, ct_mul_scalar(ltp, ct_double(0.5))) : NULL;
        ct_tensor *lt = half ? keep(&T, ct_log(target)) : NULL;
        ct_tensor *tlt = lt ? keep(&T, ct_mul(target, lt)) : NULL;
        ct_tensor *d = tlt ? keep(&T, ct_sub(tlt, target, ct_int(1))) : NULL;
        ct_tensor *st = d ? keep(&T, ct_add(d, half, ct_int(1))) : NULL;
        ct_tensor *le = st ? keep(&T, ct_le_scalar(target, ct_int(1))) : NULL;
        ct_tensor *mf = le ? keep(&T, ct_masked_fill(st, le, ct_int(0))) : NULL;
        loss = mf ? inplace(&T, loss, ct_add_(loss, mf, ct_int(1))) : NULL;
    }
    return ct_ret(rets, 0, result_of(&T, reduce(&T, loss, ARG_I(5))));
}

/* cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08): each input over its norm
 * (norms cloned, clamped to eps without grad), multiplied, summed over dim */
int ct_k_cosine_similarity(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x1_ = ARG_T(0), *x2_ = ARG_T(1);
    int64_t dim = ARG_I(2);
    double eps = args[3].u.d;
    ct_tensor *pair[2] = {x1_, x2_};
    ct_dtype common = ct_result_type(pair, 2);
    if (!ct_dtype_is_floating(common))
        return ct_error_set(CT_ERR_RUNTIME, "expected common dtype to be floating point, yet common dtype is %s",
                            ct_dtype_name(common));
    temps T = {.n = 0, .failed = false};
    ct_tensor *x1 = ct_dtype_is_floating(x1_->dtype) ? x1_ : keep(&T, ct_to_dtype(x1_, common, false, false, CT_MEMORY_FORMAT_NONE));
    ct_tensor *x2 = !x1 ? NULL : ct_dtype_is_floating(x2_->dtype) ? x2_ : keep(&T, ct_to_dtype(x2_, common, false, false, CT_MEMORY_FORMAT_NONE));
    if (x2 && !(x1->ndim == x2->ndim && memcmp(x1->sizes, x2->sizes, sizeof(int64_t) * (size_t)x1->ndim) == 0)) {
        /* expand_outplace: both expanded to the broadcast shape */
        int64_t shape[CT_MAX_DIMS];
        int n;
        if (ct_broadcast_shapes(x1->sizes, x1->ndim, x2->sizes, x2->ndim, shape, &n) != 0) {
            T.failed = true;
        } else {
            x1 = keep(&T, ct_expand(x1, shape, n, false));
            x2 = x1 ? keep(&T, ct_expand(x2, shape, n, false)) : NULL;
        }
    }
    ct_tensor *n1 = x2 && !T.failed ? keep(&T, ct_linalg_vector_norm(x1, ct_int(2), &dim, 1, true, CT_DTYPE_UNDEFINED)) : NULL;
    ct_tensor *c1 = n1 ? keep(&T, ct_clone(n1, CT_MEMORY_FORMAT_NONE)) : NULL;
    ct_tensor *n2 = c1 ? keep(&T, ct_linalg_vector_norm(x2, ct_int(2), &dim, 1, true, CT_DTYPE_UNDEFINED)) : NULL;
    ct_tensor *c2 = n2 ? keep(&T, ct_clone(n2, CT_MEMORY_FORMAT_NONE)) : NULL;
    if (c2) {
        /* at::NoGradGuard: GradMode off for the two clamps */
        bool was_disabled = ct_tls_state.grad_disabled;
        ct_tls_state.grad_disabled = true;
        int rc = ct_clamp_min_(c1, ct_double(eps));
        if (rc == 0) rc = ct_clamp_min_(c2, ct_double(eps));
        ct_tls_state.grad_disabled = was_disabled;
        if (rc != 0) T.failed = true;
    }
    ct_tensor *q2 = c2 && !T.failed ? keep(&T, ct_div(x2, c2)) : NULL;
    ct_tensor *q1 = q2 ? keep(&T, ct_div(x1, c1)) : NULL;
    ct_tensor *m = q1 ? keep(&T, ct_mul(q1, q2)) : NULL;
    ct_tensor *r = m ? keep(&T, ct_sum_dim(m, &dim, 1, false, CT_DTYPE_UNDEFINED)) : NULL;
    return ct_ret(rets, 0, result_of(&T, r));
}

/* binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
 * Tensor? pos_weight=None, int reduction=1): with log_sigmoid(input) as l,
 * (1 - target) * input - l * (1 + (pos_weight - 1) * target), times weight */
int ct_k_binary_cross_entropy_with_logits(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *target = ARG_T(1), *weight = ARG_OPT_T(2), *pos_weight = ARG_OPT_T(3);
    temps T = {.n = 0, .failed = false};
    ct_tensor *ls = keep(&T, ct_log_sigmoid(input));
    if (ls && pos_weight) {
        ct_tensor *pm = keep(&T, ct_sub_scalar(pos_weight, ct_int(1), ct_int(1)));
        ct_tensor *lw = pm ? keep(&T, ct_mul(pm, target)) : NULL;
        lw = lw ? inplace(&T, lw, ct_add__scalar(lw, ct_int(1), ct_int(1))) : NULL;
        ls = lw ? inplace(&T, ls, ct_mul_(ls, lw)) : NULL;
    }
    ct_tensor *loss = ls ? keep(&T, ct_rsub_scalar(target, ct_int(1), ct_int(1))) : NULL;
    loss = loss ? inplace(&T, loss, ct_mul_(loss, input)) : NULL;
    loss = loss ? inplace(&T, loss, ct_sub_(loss, ls, ct_int(1))) : NULL;
    if (loss && weight) loss = inplace(&T, loss, ct_mul_(loss, weight));
    return ct_ret(rets, 0, result_of(&T, reduce(&T, loss, ARG_I(4))));
}

/* soft_margin_loss(Tensor self, Tensor target, int reduction=1): log1p(exp(-input * target)) (input
 * first: a target that does not broadcast is tensor b of the message, as in PyTorch 2.6) */
int ct_k_soft_margin_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    temps T = {.n = 0, .failed = false};
    ct_tensor *ni = keep(&T, ct_neg(ARG_T(0)));
    ct_tensor *p = ni ? keep(&T, ct_mul(ni, ARG_T(1))) : NULL;
    ct_tensor *e = p ? keep(&T, ct_exp(p)) : NULL;
    ct_tensor *out = e ? keep(&T, ct_log1p(e)) : NULL;
    return ct_ret(rets, 0, result_of(&T, reduce(&T, out, ARG_I(2))));
}

/* soft_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction):
 * z = exp(-target * input); target * z * -norm / (1 + z) * grad_output, norm 1/numel for mean */
int ct_k_soft_margin_loss_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0), *input = ARG_T(1), *target = ARG_T(2);
    double norm = ARG_I(3) == 1 ? 1.0 / (double)input->numel : 1.0;
    temps T = {.n = 0, .failed = false};
    ct_tensor *nt = keep(&T, ct_neg(target));
    ct_tensor *p = nt ? keep(&T, ct_mul(nt, input)) : NULL;
    ct_tensor *z = p ? keep(&T, ct_exp(p)) : NULL;
    ct_tensor *gi = z ? keep(&T, ct_mul(target, z)) : NULL;
    gi = gi ? inplace(&T, gi, ct_mul_scalar_(gi, ct_double(-norm))) : NULL;
    z = gi ? inplace(&T, z, ct_add__scalar(z, ct_int(1), ct_int(1))) : NULL;
    gi = z ? inplace(&T, gi, ct_div_(gi, z)) : NULL;
    gi = gi ? inplace(&T, gi, ct_mul_(gi, grad)) : NULL;
    return ct_ret(rets, 0, result_of(&T, gi));
}
