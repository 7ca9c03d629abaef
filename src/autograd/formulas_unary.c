/* Backward formulas of the unary math family (derivatives.yaml): exp, exp2, expm1, log, log2,
 * log10, log1p, the trigonometric and hyperbolic functions and their inverses, sigmoid, logit,
 * erf, erfc, erfinv, rsqrt, lgamma, deg2rad, rad2deg, abs and nan_to_num (sqrt, reciprocal and
 * neg are in formulas_nn.c and formulas_math.c; sign, sgn and the rounding ops take zeros_like,
 * frac the identity). Each calls ops through the dispatcher in the order PyTorch's generated
 * code does (Note [Formula order] in formulas.h), so a dispatch mode sees PyTorch's backward ops.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "autograd/formulas.h"
#include "ctorch/dispatch.h"
#include "dispatch/front_door.h"
#include "dispatch/op_impl.h"

#define F_PI 3.14159265358979323846
#define F_LN2 0.693147180559945309417232121458176568
#define F_LN10 2.30258509299404568401799145468436421

/* self.pow(k) for k = 2 or 3 */
static ct_tensor *f_pow(ct_tensor *t, int k) { return ct_pow_tensor_scalar(t, ct_int(k)); }

/* t - s (sub.Scalar) */
static ct_tensor *f_sub_scalar(ct_tensor *t, double s) { return ct_sub_scalar(t, ct_double(s), ct_int(1)); }

/* t != inf (ne.Scalar) */
static ct_tensor *f_ne_inf(ct_tensor *t) { return ct_ne_scalar(t, ct_double(INFINITY)); }

/* the saved self (argument 0) or result (output 0) */
static ct_tensor *saved_self(ct_node *n) {
    ct_tensor *t;
    return ct_saved_unpack(n, &n->saved_args[0], &t) == 0 ? t : NULL;
}
static ct_tensor *saved_result(ct_node *n) {
    ct_tensor *t;
    return ct_saved_unpack(n, &n->saved_rets[0], &t) == 0 ? t : NULL;
}

/* releases up to four intermediates and stores the gradient (NULL: the error is set) */
static int finish(ct_tensor **out, ct_tensor *g, ct_tensor *a, ct_tensor *b, ct_tensor *c, ct_tensor *d) {
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(c);
    ct_tensor_release(d);
    out[0] = g;
    return g ? 0 : -1;
}

/* exp: grad * result */
int ct_d_exp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n);
    return finish(out, r ? ct_mul(grads[0], r) : NULL, r, NULL, NULL, NULL);
}

/* exp2: grad * result * M_LN2 */
int ct_d_exp2(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n), *m = r ? ct_mul(grads[0], r) : NULL;
    return finish(out, m ? ct_mul_scalar(m, ct_double(F_LN2)) : NULL, r, m, NULL, NULL);
}

/* expm1: grad * (result + 1) */
int ct_d_expm1(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n), *a = r ? ct_add_scalar(r, ct_int(1), ct_int(1)) : NULL;
    return finish(out, a ? ct_mul(grads[0], a) : NULL, r, a, NULL, NULL);
}

/* log: grad / self */
int ct_d_log(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n);
    return finish(out, s ? ct_div(grads[0], s) : NULL, s, NULL, NULL, NULL);
}

/* log2 / log10: grad / (self * M_LN2), grad / (self * M_LN10) */
static int log_base(ct_node *n, ct_tensor *const *grads, ct_tensor **out, double ln) {
    ct_tensor *s = saved_self(n), *m = s ? ct_mul_scalar(s, ct_double(ln)) : NULL;
    return finish(out, m ? ct_div(grads[0], m) : NULL, s, m, NULL, NULL);
}
int ct_d_log2(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return log_base(n, grads, out, F_LN2); }
int ct_d_log10(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return log_base(n, grads, out, F_LN10); }

/* log1p: log1p_backward(grad, self) = grad / (self + 1) */
int ct_d_log1p(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *a = s ? ct_add_scalar(s, ct_int(1), ct_int(1)) : NULL;
    return finish(out, a ? ct_div(grads[0], a) : NULL, s, a, NULL, NULL);
}

/* sin: grad * self.cos() */
int ct_d_sin(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *c = s ? ct_cos(s) : NULL;
    return finish(out, c ? ct_mul(grads[0], c) : NULL, s, c, NULL, NULL);
}

/* cos: grad * -self.sin() */
int ct_d_cos(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *sn = s ? ct_sin(s) : NULL, *ng = sn ? ct_neg(sn) : NULL;
    return finish(out, ng ? ct_mul(grads[0], ng) : NULL, s, sn, ng, NULL);
}

/* tan: grad * (1 + result.pow(2)) */
int ct_d_tan(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n), *p = r ? f_pow(r, 2) : NULL, *a = p ? ct_add_scalar(p, ct_int(1), ct_int(1)) : NULL;
    return finish(out, a ? ct_mul(grads[0], a) : NULL, r, p, a, NULL);
}

/* asin: grad * (-self * self + 1).rsqrt(); acos: grad * -((-self * self + 1).rsqrt()) */
static int asin_acos(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool acos_) {
    ct_tensor *s = saved_self(n), *ns = s ? ct_neg(s) : NULL, *m = ns ? ct_mul(ns, s) : NULL;
    ct_tensor *a = m ? ct_add_scalar(m, ct_int(1), ct_int(1)) : NULL, *r = a ? ct_rsqrt(a) : NULL;
    ct_tensor_release(ns);
    ct_tensor_release(m);
    if (acos_) {
        ct_tensor *nr = r ? ct_neg(r) : NULL;
        return finish(out, nr ? ct_mul(grads[0], nr) : NULL, s, a, r, nr);
    }
    return finish(out, r ? ct_mul(grads[0], r) : NULL, s, a, r, NULL);
}
int ct_d_asin(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return asin_acos(n, grads, out, false); }
int ct_d_acos(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return asin_acos(n, grads, out, true); }

/* atan: grad / (self * self + 1) */
int ct_d_atan(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *m = s ? ct_mul(s, s) : NULL, *a = m ? ct_add_scalar(m, ct_int(1), ct_int(1)) : NULL;
    return finish(out, a ? ct_div(grads[0], a) : NULL, s, m, a, NULL);
}

/* sinh: grad * self.cosh(); cosh: grad * self.sinh() */
int ct_d_sinh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *c = s ? ct_cosh(s) : NULL;
    return finish(out, c ? ct_mul(grads[0], c) : NULL, s, c, NULL, NULL);
}
int ct_d_cosh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *c = s ? ct_sinh(s) : NULL;
    return finish(out, c ? ct_mul(grads[0], c) : NULL, s, c, NULL, NULL);
}

/* tanh: tanh_backward(grad, result); sigmoid: sigmoid_backward(grad, result) */
int ct_d_tanh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n);
    return finish(out, r ? ct_tanh_backward(grads[0], r) : NULL, r, NULL, NULL, NULL);
}
int ct_d_sigmoid(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n);
    return finish(out, r ? ct_sigmoid_backward(grads[0], r) : NULL, r, NULL, NULL, NULL);
}

/* asinh: grad * (self.pow(2) + 1).rsqrt() */
int ct_d_asinh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *p = s ? f_pow(s, 2) : NULL, *a = p ? ct_add_scalar(p, ct_int(1), ct_int(1)) : NULL;
    ct_tensor *r = a ? ct_rsqrt(a) : NULL;
    ct_tensor_release(p);
    return finish(out, r ? ct_mul(grads[0], r) : NULL, s, a, r, NULL);
}

/* acosh: grad * (self * self - 1).rsqrt() */
int ct_d_acosh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *m = s ? ct_mul(s, s) : NULL, *a = m ? f_sub_scalar(m, 1.0) : NULL;
    ct_tensor *r = a ? ct_rsqrt(a) : NULL;
    ct_tensor_release(m);
    return finish(out, r ? ct_mul(grads[0], r) : NULL, s, a, r, NULL);
}

/* atanh: grad * 1 / (1 - self.pow(2)), where 1 - t is empty_like(t).fill_(1).sub_(t) */
int ct_d_atanh(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *p = s ? f_pow(s, 2) : NULL;
    ct_tensor *one = p ? ct_empty_like(p, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE) : NULL;
    if (one && (ct_fill_(one, ct_int(1)) != 0 || ct_sub_(one, p, ct_int(1)) != 0)) {
        ct_tensor_release(one);
        one = NULL;
    }
    ct_tensor *g1 = one ? ct_mul_scalar(grads[0], ct_int(1)) : NULL;
    ct_tensor_release(p);
    return finish(out, g1 ? ct_div(g1, one) : NULL, s, one, g1, NULL);
}

/* logit: logit_backward(grad, self, eps) */
int ct_d_logit(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n);
    double eps = n->args[1].tag == CT_TAG_NONE ? 0.0 : ct_f_darg(n, 1);
    return finish(out, s ? ct_logit_backward(grads[0], s, n->args[1].tag == CT_TAG_NONE ? NULL : &eps) : NULL, s, NULL, NULL, NULL);
}

/* erf: 2 / sqrt(pi) * exp(-(self.pow(2))) * grad; erfc: the same with -2 / sqrt(pi) */
static int erf_erfc(ct_node *n, ct_tensor *const *grads, ct_tensor **out, double k) {
    ct_tensor *s = saved_self(n), *p = s ? f_pow(s, 2) : NULL, *ng = p ? ct_neg(p) : NULL, *e = ng ? ct_exp(ng) : NULL;
    ct_tensor *m = e ? ct_mul_scalar(e, ct_double(k)) : NULL;
    ct_tensor_release(p);
    return finish(out, m ? ct_mul(m, grads[0]) : NULL, s, ng, e, m);
}
int ct_d_erf(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return erf_erfc(n, grads, out, 2.0 / sqrt(F_PI)); }
int ct_d_erfc(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return erf_erfc(n, grads, out, -2.0 / sqrt(F_PI)); }

/* erfinv: 0.5 * sqrt(pi) * exp(self.erfinv().pow(2)) * grad */
int ct_d_erfinv(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *ei = s ? ct_erfinv(s) : NULL, *p = ei ? f_pow(ei, 2) : NULL, *e = p ? ct_exp(p) : NULL;
    ct_tensor *m = e ? ct_mul_scalar(e, ct_double(0.5 * sqrt(F_PI))) : NULL;
    ct_tensor_release(s);
    return finish(out, m ? ct_mul(m, grads[0]) : NULL, ei, p, e, m);
}

/* rsqrt: -0.5 * grad * result.pow(3) */
int ct_d_rsqrt(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *r = saved_result(n), *p = r ? f_pow(r, 3) : NULL, *a = p ? ct_mul_scalar(grads[0], ct_double(-0.5)) : NULL;
    return finish(out, a ? ct_mul(a, p) : NULL, r, p, a, NULL);
}

/* lgamma: grad * digamma(self) */
int ct_d_lgamma(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *d = s ? ct_digamma(s) : NULL;
    return finish(out, d ? ct_mul(grads[0], d) : NULL, s, d, NULL, NULL);
}

/* deg2rad: grad * (pi / 180); rad2deg: grad * (180 / pi) */
int ct_d_deg2rad(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    return finish(out, ct_mul_scalar(grads[0], ct_double(F_PI / 180.0)), NULL, NULL, NULL, NULL);
}
int ct_d_rad2deg(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    return finish(out, ct_mul_scalar(grads[0], ct_double(180.0 / F_PI)), NULL, NULL, NULL, NULL);
}

/* abs: grad * self.sgn() */
int ct_d_abs(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *sg = s ? ct_sgn(s) : NULL;
    return finish(out, sg ? ct_mul(grads[0], sg) : NULL, s, sg, NULL, NULL);
}

/* nan_to_num: grad * at::isfinite(self), which is (self == self) * (self.abs() != inf) */
int ct_d_nan_to_num(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *s = saved_self(n), *a = s ? ct_abs(s) : NULL, *ne = a ? f_ne_inf(a) : NULL;
    ct_tensor *eq = ne ? ct_eq_tensor(s, s) : NULL, *fin = eq ? ct_mul(eq, ne) : NULL;
    ct_tensor_release(s);
    return finish(out, fin ? ct_mul(grads[0], fin) : NULL, a, ne, eq, fin);
}

/* asinh_, acosh_, atanh_: derivatives.yaml marks their in-place forms not implemented (the node,
 * AsinhBackward1, ..., exists; its backward raises) */
int ct_d_inplace_not_implemented(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)grads;
    (void)out;
    const char *base = strstr(n->op->base_name, "::");
    base = base ? base + 2 : n->op->base_name;
    char name[64];
    snprintf(name, sizeof name, "%s", base);
    size_t len = strlen(name);
    if (len > 0 && name[len - 1] == '_') name[len - 1] = '\0'; /* asinh_ -> asinh */
    return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "the derivative for 'inplace version of %s' is not implemented.", name);
}
