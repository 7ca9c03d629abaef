/* Every derivative formula against finite differences in float64, as torch.autograd.gradcheck
 * does (central differences, eps 1e-6, atol 1e-5, rtol 1e-3). The scalar checked is
 * sum(f(inputs) * R) with fixed random R, so the whole vector-Jacobian product is exercised.
 * The test also fails if a formula in src/autograd/derivatives.def has no case here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/formulas.h"
#include "autograd/node.h"
#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "ops/builtin.h"
#include "harness.h"

#define MAXIN 4
typedef ct_tensor *(*apply_fn)(ct_tensor **in);

typedef struct gcase {
    const char *op; /* the operator whose formula is checked */
    int nin;
    int64_t shapes[MAXIN][4];
    int ndims[MAXIN];
    bool positive[MAXIN]; /* inputs kept away from 0 (denominators, relu kinks) */
    apply_fn f;
} gcase;

static ct_tensor *clone_(ct_tensor *t) { return ct_clone(t, CT_MEMORY_FORMAT_NONE); }

/* ---- the functions ---- */
static ct_tensor *f_addmm(ct_tensor **in) { return ct_addmm(in[0], in[1], in[2], ct_double(2.0), ct_double(0.5)); }
static ct_tensor *f_mm(ct_tensor **in) { return ct_mm(in[0], in[1]); }
static ct_tensor *f_t(ct_tensor **in) { return ct_t(in[0]); }
static ct_tensor *f_transpose(ct_tensor **in) { return ct_transpose(in[0], 0, 2); }
static ct_tensor *f_permute(ct_tensor **in) {
    int64_t d[3] = {2, 0, 1};
    return ct_permute(in[0], d, 3);
}
static ct_tensor *f_view(ct_tensor **in) {
    int64_t s[2] = {2, 6};
    return ct_view(in[0], s, 2);
}
static ct_tensor *f_unsafe_view(ct_tensor **in) {
    int64_t s[1] = {12};
    return ct__unsafe_view(in[0], s, 1);
}
static ct_tensor *f_reshape_alias(ct_tensor **in) {
    int64_t s[2] = {4, 3}, st[2] = {3, 1};
    return ct__reshape_alias(in[0], s, 2, st, 2);
}
static ct_tensor *f_expand(ct_tensor **in) {
    int64_t s[3] = {2, 3, 4};
    return ct_expand(in[0], s, 3, false);
}
static ct_tensor *f_alias(ct_tensor **in) { return ct_alias(in[0]); }
static ct_tensor *f_unsqueeze(ct_tensor **in) { return ct_unsqueeze(in[0], 1); }
static ct_tensor *f_squeeze_dim(ct_tensor **in) { return ct_squeeze_dim(in[0], 1); }
static ct_tensor *f_squeeze_dim_(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_squeeze_dim_(c, 1) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_slice_neg(ct_tensor **in) {
    int64_t start = -4, end = 5;
    return ct_slice(in[0], 1, &start, &end, 2);
}
static ct_tensor *f_slice_open(ct_tensor **in) { return ct_slice(in[0], 0, NULL, NULL, 1); }
static ct_tensor *f_clone(ct_tensor **in) { return clone_(in[0]); }
static ct_tensor *f_to_copy(ct_tensor **in) { return ct__to_copy(in[0], CT_FLOAT64, false, CT_MEMORY_FORMAT_NONE); }
static ct_tensor *f_add(ct_tensor **in) { return ct_add(in[0], in[1], ct_double(2.0)); }
static ct_tensor *f_sub(ct_tensor **in) { return ct_sub(in[0], in[1], ct_int(3)); }
static ct_tensor *inplace2(ct_tensor **in, int (*op)(ct_tensor *, ct_tensor *, ct_scalar), ct_scalar alpha) {
    ct_tensor *c = clone_(in[0]);
    if (c && op(c, in[1], alpha) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_add_(ct_tensor **in) { return inplace2(in, ct_add_, ct_double(-0.5)); }
static ct_tensor *f_sub_(ct_tensor **in) { return inplace2(in, ct_sub_, ct_int(2)); }
static ct_tensor *f_mul(ct_tensor **in) { return ct_mul(in[0], in[1]); }
static ct_tensor *f_div(ct_tensor **in) { return ct_div(in[0], in[1]); }
static ct_tensor *f_add_scalar(ct_tensor **in) { return ct_add_scalar(in[0], ct_double(1.5), ct_int(1)); }
static ct_tensor *f_mul_scalar(ct_tensor **in) { return ct_mul_scalar(in[0], ct_double(-2.5)); }
static ct_tensor *f_mul_scalar_(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_mul_scalar_(c, ct_double(3.0)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_div_scalar(ct_tensor **in) { return ct_div_scalar(in[0], ct_double(4.0)); }
static ct_tensor *f_neg(ct_tensor **in) { return ct_neg(in[0]); }
static ct_tensor *f_add__scalar(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_add__scalar(c, ct_double(1.5), ct_double(-2.0)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_sub_scalar(ct_tensor **in) { return ct_sub_scalar(in[0], ct_double(0.5), ct_int(3)); }
static ct_tensor *f_sub__scalar(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_sub__scalar(c, ct_int(2), ct_double(0.5)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_rsub_tensor(ct_tensor **in) { return ct_rsub_tensor(in[0], in[1], ct_double(-1.5)); }
static ct_tensor *f_rsub_scalar(ct_tensor **in) { return ct_rsub_scalar(in[0], ct_double(2.0), ct_int(3)); }
/* bounds chosen away from the inputs' values, so the difference quotients do not cross a kink */
static ct_tensor *f_clamp(ct_tensor **in) {
    ct_scalar lo = ct_double(-0.2537), hi = ct_double(0.3119);
    return ct_clamp(in[0], &lo, &hi);
}
static ct_tensor *f_clamp_lo(ct_tensor **in) {
    ct_scalar lo = ct_double(-0.2537);
    return ct_clamp(in[0], &lo, NULL);
}
static ct_tensor *f_clamp_(ct_tensor **in) {
    ct_scalar hi = ct_double(0.3119);
    ct_tensor *c = clone_(in[0]);
    if (c && ct_clamp_(c, NULL, &hi) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_clamp_min(ct_tensor **in) { return ct_clamp_min(in[0], ct_double(0.1013)); }
static ct_tensor *f_clamp_max(ct_tensor **in) { return ct_clamp_max(in[0], ct_double(-0.1013)); }
static ct_tensor *f_relu(ct_tensor **in) { return ct_relu(in[0]); }
static ct_tensor *f_sum(ct_tensor **in) { return ct_sum(in[0], CT_DTYPE_UNDEFINED); }
static ct_tensor *f_sum_dim(ct_tensor **in) {
    int64_t d[2] = {0, 2};
    return ct_sum_dim(in[0], d, 2, false, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_sum_dim_keep(ct_tensor **in) {
    int64_t d[1] = {-1};
    return ct_sum_dim(in[0], d, 1, true, CT_DTYPE_UNDEFINED);
}
/* the reductions (formulas_reduce.c) */
static ct_tensor *f_mean(ct_tensor **in) { return ct_mean(in[0], CT_DTYPE_UNDEFINED); }
static ct_tensor *f_mean_dim(ct_tensor **in) {
    int64_t d[2] = {-1, 0};
    return ct_mean_dim(in[0], d, 2, false, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_var(ct_tensor **in) {
    int64_t d[1] = {1};
    ct_scalar c = ct_int(0);
    return ct_var_correction(in[0], d, 1, &c, false);
}
static ct_tensor *f_var_all(ct_tensor **in) { return ct_var_correction(in[0], NULL, 0, NULL, false); }
static ct_tensor *f_std(ct_tensor **in) {
    int64_t d[2] = {0, 2};
    ct_scalar c = ct_double(1.5);
    return ct_std_correction(in[0], d, 2, &c, true);
}
static ct_tensor *both(int rc, ct_tensor *a, ct_tensor *b) { /* a + b of a two-result op */
    ct_tensor *r = rc == 0 ? ct_add(a, b, ct_double(0.5)) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(b);
    return r;
}
static ct_tensor *f_var_mean(ct_tensor **in) {
    int64_t d[1] = {-1};
    ct_tensor *a = NULL, *b = NULL;
    int rc = ct_var_mean_correction(in[0], d, 1, NULL, false, &a, &b);
    return both(rc, a, b);
}
static ct_tensor *f_std_mean(ct_tensor **in) {
    ct_tensor *a = NULL, *b = NULL;
    int rc = ct_std_mean_correction(in[0], NULL, 0, NULL, false, &a, &b);
    return both(rc, a, b);
}
static ct_tensor *f_prod(ct_tensor **in) { return ct_prod(in[0], CT_DTYPE_UNDEFINED); }
static ct_tensor *f_prod_dim(ct_tensor **in) { return ct_prod_dim_int(in[0], 1, false, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_nansum(ct_tensor **in) {
    int64_t d[1] = {0};
    return ct_nansum(in[0], d, 1, true, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_amax(ct_tensor **in) {
    int64_t d[1] = {1};
    return ct_amax(in[0], d, 1, false);
}
static ct_tensor *f_amin(ct_tensor **in) { return ct_amin(in[0], NULL, 0, true); }
static ct_tensor *f_max_all(ct_tensor **in) { return ct_max(in[0]); }
static ct_tensor *f_min_all(ct_tensor **in) { return ct_min(in[0]); }
static ct_tensor *f_max_dim(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    ct_max_dim(in[0], -1, false, &v, &ix);
    ct_tensor_release(ix);
    return v;
}
static ct_tensor *f_min_dim(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    ct_min_dim(in[0], 0, true, &v, &ix);
    ct_tensor_release(ix);
    return v;
}
static ct_tensor *f_logsumexp(ct_tensor **in) {
    int64_t d[1] = {1};
    return ct_logsumexp(in[0], d, 1, false);
}
static ct_tensor *f_cumsum(ct_tensor **in) { return ct_cumsum(in[0], 1, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_cumsum_(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_cumsum_(c, 0, CT_DTYPE_UNDEFINED) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_cumprod(ct_tensor **in) { return ct_cumprod(in[0], -1, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_logcumsumexp(ct_tensor **in) { return ct_logcumsumexp(in[0], 0); }
static ct_tensor *f_log_softmax(ct_tensor **in) { return ct__log_softmax(in[0], 1, false); }
static ct_tensor *nll(ct_tensor **in, int64_t reduction) {
    double t[5] = {0, 2, 1, 2, 0}, w[3] = {0.5, 2.0, 1.25};
    int64_t n = 5, c = 3;
    ct_tensor *target = ct_tensor_from_doubles(t, &n, 1, CT_INT64), *weight = ct_tensor_from_doubles(w, &c, 1, CT_FLOAT64);
    ct_tensor *out = NULL, *tw = NULL;
    ct_nll_loss_forward(in[0], target, weight, reduction, 1, &out, &tw);
    ct_tensor_release(tw);
    ct_tensor_release(target);
    ct_tensor_release(weight);
    return out;
}
static ct_tensor *f_nll_mean(ct_tensor **in) { return nll(in, 1); }
static ct_tensor *f_nll_sum(ct_tensor **in) { return nll(in, 2); }
static ct_tensor *f_nll_none(ct_tensor **in) { return nll(in, 0); }

/* masked_fill with a fixed mask broadcast over rows */
static ct_tensor *mask_2x3(void) {
    double m[3] = {1, 0, 1};
    int64_t n = 3;
    ct_tensor *md = ct_tensor_from_doubles(m, &n, 1, CT_BOOL);
    return md;
}
static ct_tensor *f_masked_fill(ct_tensor **in) {
    ct_tensor *m = mask_2x3();
    ct_tensor *r = ct_masked_fill(in[0], m, ct_double(0.25));
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_masked_fill_(ct_tensor **in) {
    ct_tensor *m = mask_2x3(), *c = ct_mul_scalar(in[0], ct_int(2)); /* a non-leaf to modify */
    if (c && ct_masked_fill_(c, m, ct_int(-1)) != 0) {
        ct_tensor_release(c);
        c = NULL;
    }
    ct_tensor_release(m);
    return c;
}
static ct_tensor *f_slice(ct_tensor **in) {
    int64_t s = 1, e = 5;
    return ct_slice(in[0], 1, &s, &e, 2);
}
static ct_tensor *f_select(ct_tensor **in) { return ct_select(in[0], 1, -2); }
static ct_tensor *f_select_backward(ct_tensor **in) {
    int64_t sizes[3] = {2, 4, 3};
    return ct_select_backward(in[0], sizes, 3, 1, 2);
}
static ct_tensor *f_slice_backward(ct_tensor **in) {
    int64_t sizes[2] = {3, 7};
    return ct_slice_backward(in[0], sizes, 2, 1, 1, 6, 2);
}
/* pieces 0 and 2 used, piece 1 unused: its gradient is undefined and becomes zeros */
static ct_tensor *use_pieces(ct_tensor **p, int64_t n) {
    ct_tensor *a = n == 3 ? ct_mul_scalar(p[0], ct_double(2.0)) : NULL;
    ct_tensor *r = a ? ct_add(a, p[2], ct_int(1)) : NULL;
    ct_tensor_release(a);
    for (int64_t i = 0; i < n; i++) ct_tensor_release(p[i]);
    ct_free(p);
    return r;
}
static ct_tensor *f_split(ct_tensor **in) {
    ct_tensor **p = NULL;
    int64_t n = 0;
    if (ct_split(in[0], 2, 1, &p, &n) != 0) return NULL;
    return use_pieces(p, n);
}
static ct_tensor *f_unbind(ct_tensor **in) {
    ct_tensor **p = NULL;
    int64_t n = 0;
    if (ct_unbind_int(in[0], -1, &p, &n) != 0) return NULL;
    return use_pieces(p, n);
}
static ct_tensor *f_chunk(ct_tensor **in) {
    ct_tensor **p = NULL;
    int64_t n = 0;
    if (ct_chunk(in[0], 3, 1, &p, &n) != 0) return NULL;
    return use_pieces(p, n);
}
static ct_tensor *f_split_with_sizes(ct_tensor **in) {
    ct_tensor **p = NULL;
    int64_t n = 0, sz[3] = {2, 3, 2};
    if (ct_split_with_sizes(in[0], sz, 3, 0, &p, &n) != 0) return NULL;
    ct_tensor *a = ct_sum_dim(p[0], NULL, 0, false, CT_DTYPE_UNDEFINED), *b = ct_sum_dim(p[2], NULL, 0, false, CT_DTYPE_UNDEFINED);
    ct_tensor *r = a && b ? ct_sub(a, b, ct_int(1)) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(b);
    for (int64_t i = 0; i < n; i++) ct_tensor_release(p[i]);
    ct_free(p);
    return r;
}
static ct_tensor *f_cat(ct_tensor **in) { return ct_cat(in, 3, 1); }
static ct_tensor *f_stack(ct_tensor **in) { return ct_stack(in, 2, 1); }
static ct_tensor *f_tril(ct_tensor **in) { return ct_tril(in[0], -1); }
static ct_tensor *f_bmm(ct_tensor **in) { return ct_bmm(in[0], in[1]); }
static ct_tensor *f_bmm_transposed(ct_tensor **in) {
    ct_tensor *t = ct_transpose(in[1], 1, 2);
    ct_tensor *r = t ? ct_bmm(in[0], t) : NULL;
    ct_tensor_release(t);
    return r;
}
static ct_tensor *f_dot(ct_tensor **in) { return ct_dot(in[0], in[1]); }
static ct_tensor *f_mv(ct_tensor **in) { return ct_mv(in[0], in[1]); }
static ct_tensor *index_tensor(void) {
    double v[5] = {3, 0, 3, 5, 1};
    int64_t n = 5;
    return ct_tensor_from_doubles(v, &n, 1, CT_INT64);
}
static ct_tensor *f_embedding(ct_tensor **in) {
    ct_tensor *idx = index_tensor();
    int64_t s2[2] = {1, 5};
    ct_tensor *i2 = ct_view(idx, s2, 2); /* the reshape/view path */
    ct_tensor *r = ct_embedding(in[0], i2, -1, false, false);
    ct_tensor_release(i2);
    ct_tensor_release(idx);
    return r;
}
static ct_tensor *f_embedding_dense_backward(ct_tensor **in) {
    ct_tensor *idx = index_tensor();
    ct_tensor *r = ct_embedding_dense_backward(in[0], idx, 7, 3, false); /* padding_idx 3 */
    ct_tensor_release(idx);
    return r;
}
static ct_tensor *layer_norm(ct_tensor **in, bool bias) {
    int64_t ns[1] = {4};
    ct_tensor *out = NULL, *mean = NULL, *rstd = NULL;
    ct_native_layer_norm(in[0], ns, 1, in[1], bias ? in[2] : NULL, 1e-5, &out, &mean, &rstd);
    ct_tensor_release(mean);
    ct_tensor_release(rstd);
    return out;
}
static ct_tensor *f_layer_norm(ct_tensor **in) { return layer_norm(in, true); }
static ct_tensor *f_layer_norm_nobias(ct_tensor **in) { return layer_norm(in, false); }
/* ---- normalization ---- */
static ct_tensor *bn_first(int rc, ct_tensor *out, ct_tensor *a, ct_tensor *b) {
    ct_tensor_release(a);
    ct_tensor_release(b);
    return rc == 0 ? out : NULL;
}
/* running statistics of 3 channels in x's dtype: mean 0.25, var 1.5 */
static void bn_stats(ct_tensor *x, ct_tensor **rm, ct_tensor **rv) {
    int64_t c = 3;
    *rm = ct_full(&c, 1, ct_double(0.25), ct_tensor_dtype(x));
    *rv = ct_full(&c, 1, ct_double(1.5), ct_tensor_dtype(x));
}
static ct_tensor *f_native_batch_norm(ct_tensor **in) { /* training without running statistics */
    ct_tensor *o = NULL, *m = NULL, *s = NULL;
    int rc = ct_native_batch_norm(in[0], in[1], in[2], NULL, NULL, true, 0.1, 1e-5, &o, &m, &s);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_native_batch_norm_eval(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL, *rm, *rv;
    bn_stats(in[0], &rm, &rv);
    int rc = ct_native_batch_norm(in[0], in[1], in[2], rm, rv, false, 0.1, 1e-5, &o, &m, &s);
    ct_tensor_release(rm);
    ct_tensor_release(rv);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_native_batch_norm_2d(ct_tensor **in) { /* N x C: the channels-last kernels */
    ct_tensor *o = NULL, *m = NULL, *s = NULL;
    int rc = ct_native_batch_norm(in[0], in[1], NULL, NULL, NULL, true, 0.1, 1e-5, &o, &m, &s);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_bn_legit(ct_tensor **in) { /* the running statistics are updated in place: fresh ones */
    ct_tensor *o = NULL, *m = NULL, *s = NULL, *rm, *rv;
    bn_stats(in[0], &rm, &rv);
    int rc = ct__native_batch_norm_legit(in[0], in[1], in[2], rm, rv, true, 0.1, 1e-5, &o, &m, &s);
    ct_tensor_release(rm);
    ct_tensor_release(rv);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_bn_legit_no_stats(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL;
    int rc = ct__native_batch_norm_legit_no_stats(in[0], in[1], in[2], true, 0.1, 1e-5, &o, &m, &s);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_bn_legit_no_training(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL, *rm, *rv;
    bn_stats(in[0], &rm, &rv);
    int rc = ct__native_batch_norm_legit_no_training(in[0], in[1], in[2], rm, rv, 0.1, 1e-5, &o, &m, &s);
    ct_tensor_release(rm);
    ct_tensor_release(rv);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_bn_legit_functional(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL, *rm, *rv, *rm2 = NULL, *rv2 = NULL;
    bn_stats(in[0], &rm, &rv);
    int rc = ct__native_batch_norm_legit_functional(in[0], in[1], in[2], rm, rv, true, 0.1, 1e-5, &o, &m, &s, &rm2, &rv2);
    ct_tensor_release(rm);
    ct_tensor_release(rv);
    ct_tensor_release(rm2);
    ct_tensor_release(rv2);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_native_group_norm(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL;
    int rc = ct_native_group_norm(in[0], in[1], in[2], 2, 4, 3, 2, 1e-5, &o, &m, &s);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_native_group_norm_noaffine(ct_tensor **in) {
    ct_tensor *o = NULL, *m = NULL, *s = NULL;
    int rc = ct_native_group_norm(in[0], NULL, NULL, 3, 2, 4, 1, 1e-5, &o, &m, &s);
    return bn_first(rc, o, m, s);
}
static ct_tensor *f_native_dropout_eval(ct_tensor **in) { /* train false: the identity, scale 1 */
    ct_tensor *o = NULL, *m = NULL;
    int rc = ct_native_dropout(in[0], 0.4, 0, &o, &m);
    ct_tensor_release(m);
    return rc == 0 ? o : NULL;
}
static ct_tensor *f_native_dropout_p0(ct_tensor **in) { /* p 0 in training: every element kept, scale 1 */
    ct_tensor *o = NULL, *m = NULL;
    int rc = ct_native_dropout(in[0], 0.0, 1, &o, &m);
    ct_tensor_release(m);
    return rc == 0 ? o : NULL;
}
static ct_tensor *f_upsample_nearest2d(ct_tensor **in) {
    const int64_t os[2] = {5, 3};
    return ct_upsample_nearest2d(in[0], os, 2, NULL, NULL);
}
static ct_tensor *f_upsample_nearest2d_backward(ct_tensor **in) {
    const int64_t os[2] = {5, 3}, is[4] = {1, 2, 2, 2};
    return ct_upsample_nearest2d_backward(in[0], os, 2, is, 4, NULL, NULL);
}
static ct_tensor *f_upsample_bilinear2d(ct_tensor **in) {
    const int64_t os[2] = {4, 5};
    const double sh = 1.5;
    return ct_upsample_bilinear2d(in[0], os, 2, false, &sh, NULL);
}
static ct_tensor *f_upsample_bilinear2d_ac(ct_tensor **in) {
    const int64_t os[2] = {3, 4};
    return ct_upsample_bilinear2d(in[0], os, 2, true, NULL, NULL);
}
static ct_tensor *f_upsample_bilinear2d_backward(ct_tensor **in) {
    const int64_t os[2] = {4, 5}, is[4] = {1, 1, 3, 2};
    return ct_upsample_bilinear2d_backward(in[0], os, 2, is, 4, false, NULL, NULL);
}
static ct_tensor *f_native_dropout_backward(ct_tensor **in) {
    int64_t n = 6;
    ct_tensor *mask = ct_ones(&n, 1, CT_BOOL), *zero = ct_zeros(&n, 1, CT_BOOL);
    ct_tensor *r = NULL;
    if (mask && zero) { /* elements 1 and 4 dropped */
        ct_tensor *s1 = ct_select(mask, 0, 1), *s4 = ct_select(mask, 0, 4);
        if (s1 && s4 && ct_fill_(s1, ct_bool(false)) == 0 && ct_fill_(s4, ct_bool(false)) == 0)
            r = ct_native_dropout_backward(in[0], mask, 2.5);
        ct_tensor_release(s1);
        ct_tensor_release(s4);
    }
    ct_tensor_release(mask);
    ct_tensor_release(zero);
    return r;
}
static ct_tensor *f_upsample_nearest1d(ct_tensor **in) {
    const int64_t os[1] = {5};
    return ct_upsample_nearest1d(in[0], os, 1, NULL);
}
static ct_tensor *f_upsample_nearest1d_backward(ct_tensor **in) {
    const int64_t os[1] = {5}, is[3] = {1, 2, 3};
    return ct_upsample_nearest1d_backward(in[0], os, 1, is, 3, NULL);
}
static ct_tensor *f_upsample_nearest3d(ct_tensor **in) { /* a 4-d input viewed as 1 x 1 x 2 x 2 x 3 */
    const int64_t os[3] = {3, 2, 4}, s5[5] = {1, 1, 2, 2, 3};
    ct_tensor *v = ct_view(in[0], s5, 5);
    ct_tensor *r = v ? ct_upsample_nearest3d(v, os, 3, NULL, NULL, NULL) : NULL;
    ct_tensor_release(v);
    return r;
}
static ct_tensor *f_upsample_nearest3d_backward(ct_tensor **in) {
    const int64_t os[3] = {3, 2, 4}, is[5] = {1, 1, 2, 2, 3}, s5[5] = {1, 1, 3, 2, 4};
    ct_tensor *v = ct_view(in[0], s5, 5);
    ct_tensor *r = v ? ct_upsample_nearest3d_backward(v, os, 3, is, 5, NULL, NULL, NULL) : NULL;
    ct_tensor_release(v);
    return r;
}
static ct_tensor *f_pdist(ct_tensor **in) { return ct_pdist(in[0], 2.0); }
static ct_tensor *f_pdist_p3(ct_tensor **in) { return ct_pdist(in[0], 3.0); }
static ct_tensor *f_pdist_p1(ct_tensor **in) { return ct__pdist_forward(in[0], 1.0); }
static ct_tensor *f_gelu(ct_tensor **in) { return ct_gelu(in[0], "none"); }
static ct_tensor *f_gelu_tanh(ct_tensor **in) { return ct_gelu(in[0], "tanh"); }
static ct_tensor *f_softmax(ct_tensor **in) { return ct__softmax(in[0], 1, false); }
static ct_tensor *f_safe_softmax(ct_tensor **in) {
    /* a row of -inf gives zeros; the gradient flows through the others */
    ct_tensor *m = mask_2x3();
    ct_tensor *x = ct_masked_fill(in[0], m, ct_double(-INFINITY));
    ct_tensor *r = x ? ct__safe_softmax(x, 0, CT_DTYPE_UNDEFINED) : NULL;
    ct_tensor_release(x);
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_where(ct_tensor **in) {
    ct_tensor *m = mask_2x3();
    ct_tensor *r = ct_where(m, in[0], in[1]);
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_div__scalar(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_div__scalar(c, ct_double(-4.0)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
/* a random in-place op with a fixed generator, so every evaluation draws the same numbers */
static ct_tensor *random_inplace(ct_tensor **in, bool bern) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    ct_generator *g = ct_generator_new();
    ct_generator_manual_seed(g, 7);
    int rc = c ? (bern ? ct_bernoulli__float(c, 0.5, g) : ct_exponential_(c, 2.0, g)) : -1;
    ct_generator_release(g);
    if (rc != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    /* keep the input in the graph (y = noise + 0 * x has gradient 0 from the noise) */
    return c;
}
static ct_tensor *f_bernoulli_(ct_tensor **in) { return random_inplace(in, true); }
static ct_tensor *f_exponential_(ct_tensor **in) { return random_inplace(in, false); }
static ct_tensor *f_sqrt(ct_tensor **in) { return ct_sqrt(in[0]); }
static ct_tensor *f_reciprocal(ct_tensor **in) { return ct_reciprocal(in[0]); }
/* the unary math family: functional and in-place; inputs moved into each domain by a first op */
static ct_tensor *f_u_exp(ct_tensor **in) { return ct_exp(in[0]); }
static ct_tensor *f_u_exp_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_exp_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_exp2(ct_tensor **in) { return ct_exp2(in[0]); }
static ct_tensor *f_u_exp2_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_exp2_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_expm1(ct_tensor **in) { return ct_expm1(in[0]); }
static ct_tensor *f_u_expm1_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_expm1_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_log(ct_tensor **in) { return ct_log(in[0]); }
static ct_tensor *f_u_log_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_log_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_log2(ct_tensor **in) { return ct_log2(in[0]); }
static ct_tensor *f_u_log2_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_log2_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_log10(ct_tensor **in) { return ct_log10(in[0]); }
static ct_tensor *f_u_log10_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_log10_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_log1p(ct_tensor **in) { return ct_log1p(in[0]); }
static ct_tensor *f_u_log1p_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_log1p_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_sin(ct_tensor **in) { return ct_sin(in[0]); }
static ct_tensor *f_u_sin_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sin_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_cos(ct_tensor **in) { return ct_cos(in[0]); }
static ct_tensor *f_u_cos_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_cos_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_tan(ct_tensor **in) {
    ct_tensor *x = ct_mul_scalar(in[0], ct_double(0.2));
    ct_tensor *r = x ? ct_tan(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_tan_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_double(0.2));
    if (c && ct_tan_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_asin(ct_tensor **in) {
    ct_tensor *x = ct_mul_scalar(in[0], ct_double(0.2));
    ct_tensor *r = x ? ct_asin(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_asin_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_double(0.2));
    if (c && ct_asin_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_acos(ct_tensor **in) {
    ct_tensor *x = ct_mul_scalar(in[0], ct_double(0.2));
    ct_tensor *r = x ? ct_acos(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_acos_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_double(0.2));
    if (c && ct_acos_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_atan(ct_tensor **in) { return ct_atan(in[0]); }
static ct_tensor *f_u_atan_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_atan_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_sinh(ct_tensor **in) { return ct_sinh(in[0]); }
static ct_tensor *f_u_sinh_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sinh_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_cosh(ct_tensor **in) { return ct_cosh(in[0]); }
static ct_tensor *f_u_cosh_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_cosh_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_tanh(ct_tensor **in) { return ct_tanh(in[0]); }
static ct_tensor *f_u_tanh_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_tanh_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_asinh(ct_tensor **in) { return ct_asinh(in[0]); }
static ct_tensor *f_u_acosh(ct_tensor **in) {
    ct_tensor *x = ct_add_scalar(in[0], ct_int(1), ct_int(1));
    ct_tensor *r = x ? ct_acosh(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_atanh(ct_tensor **in) {
    ct_tensor *x = ct_mul_scalar(in[0], ct_double(0.2));
    ct_tensor *r = x ? ct_atanh(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_sigmoid(ct_tensor **in) { return ct_sigmoid(in[0]); }
static ct_tensor *f_u_sigmoid_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sigmoid_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_logit(ct_tensor **in) {
    ct_tensor *x = ct_sigmoid(in[0]);
    ct_tensor *r = x ? ct_logit(x, NULL) : NULL;
    ct_tensor_release(x);
    return r;
}
/* sigmoid(x) copied: sigmoid saves its result, which logit_ must not overwrite */
static ct_tensor *u_sigmoid_copy(ct_tensor *x) {
    ct_tensor *s = ct_sigmoid(x), *c = s ? ct_mul_scalar(s, ct_int(1)) : NULL;
    ct_tensor_release(s);
    return c;
}
static ct_tensor *f_u_logit_(ct_tensor **in) {
    ct_tensor *c = u_sigmoid_copy(in[0]);
    if (c && ct_logit_(c, NULL) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_erf(ct_tensor **in) { return ct_erf(in[0]); }
static ct_tensor *f_u_erf_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_erf_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_erfc(ct_tensor **in) { return ct_erfc(in[0]); }
static ct_tensor *f_u_erfc_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_erfc_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_erfinv(ct_tensor **in) {
    ct_tensor *x = ct_mul_scalar(in[0], ct_double(0.2));
    ct_tensor *r = x ? ct_erfinv(x) : NULL;
    ct_tensor_release(x);
    return r;
}
static ct_tensor *f_u_erfinv_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_double(0.2));
    if (c && ct_erfinv_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_sqrt_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sqrt_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_rsqrt(ct_tensor **in) { return ct_rsqrt(in[0]); }
static ct_tensor *f_u_rsqrt_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_rsqrt_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_reciprocal_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_reciprocal_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_lgamma(ct_tensor **in) { return ct_lgamma(in[0]); }
static ct_tensor *f_u_lgamma_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_lgamma_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_deg2rad(ct_tensor **in) { return ct_deg2rad(in[0]); }
static ct_tensor *f_u_deg2rad_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_deg2rad_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_rad2deg(ct_tensor **in) { return ct_rad2deg(in[0]); }
static ct_tensor *f_u_rad2deg_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_rad2deg_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_abs(ct_tensor **in) { return ct_abs(in[0]); }
static ct_tensor *f_u_abs_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_abs_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_neg_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_neg_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_sign(ct_tensor **in) { return ct_sign(in[0]); }
static ct_tensor *f_u_sign_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sign_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_sgn(ct_tensor **in) { return ct_sgn(in[0]); }
static ct_tensor *f_u_sgn_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_sgn_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_floor(ct_tensor **in) { return ct_floor(in[0]); }
static ct_tensor *f_u_floor_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_floor_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_ceil(ct_tensor **in) { return ct_ceil(in[0]); }
static ct_tensor *f_u_ceil_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_ceil_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_trunc(ct_tensor **in) { return ct_trunc(in[0]); }
static ct_tensor *f_u_trunc_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_trunc_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_round(ct_tensor **in) { return ct_round(in[0]); }
static ct_tensor *f_u_round_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_round_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_frac(ct_tensor **in) { return ct_frac(in[0]); }
static ct_tensor *f_u_frac_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_frac_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_nan_to_num(ct_tensor **in) { return ct_nan_to_num(in[0], NULL, NULL, NULL); }
static ct_tensor *f_u_nan_to_num_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_nan_to_num_(c, NULL, NULL, NULL) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_u_round_decimals(ct_tensor **in) { return ct_round_decimals(in[0], 1); }
static ct_tensor *f_u_round__decimals(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_round__decimals(c, 1) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_lerp(ct_tensor **in) { return ct_lerp_scalar(in[0], in[1], ct_double(0.3)); }
static ct_tensor *f_lerp_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_lerp_scalar_(c, in[1], ct_double(0.7)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_addcmul(ct_tensor **in) { return ct_addcmul(in[0], in[1], in[2], ct_double(0.5)); }
static ct_tensor *f_addcmul_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_addcmul_(c, in[1], in[2], ct_double(-1.5)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_addcdiv(ct_tensor **in) { return ct_addcdiv(in[0], in[1], in[2], ct_double(0.5)); }
static ct_tensor *f_addcdiv_(ct_tensor **in) {
    ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));
    if (c && ct_addcdiv_(c, in[1], in[2], ct_double(-2.0)) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_vector_norm(ct_tensor **in) { return ct_linalg_vector_norm(in[0], ct_int(2), NULL, 0, false, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_vector_norm_dim(ct_tensor **in) {
    int64_t d[1] = {1};
    return ct_linalg_vector_norm(in[0], ct_double(2.0), d, 1, false, CT_DTYPE_UNDEFINED);
}
static ct_tensor *flash(ct_tensor **in, bool causal) {
    ct_tensor *o = NULL, *lse = NULL;
    ct__scaled_dot_product_flash_attention_for_cpu(in[0], in[1], in[2], 0.0, causal, NULL, NULL, &o, &lse);
    ct_tensor_release(lse);
    return o;
}
static ct_tensor *f_flash(ct_tensor **in) { return flash(in, false); }
static ct_tensor *f_flash_causal(ct_tensor **in) { return flash(in, true); }
#define S1(a) {a}
/* the binary family: the Scalar arguments fixed, an in-place form on a copy of its input */
static ct_tensor *copy_of(ct_tensor *t) { return ct_mul_scalar(t, ct_int(1)); }
static ct_tensor *f_pow_ts(ct_tensor **in) { return ct_pow_tensor_scalar(in[0], ct_double(2.5)); }
static ct_tensor *f_pow_ts2(ct_tensor **in) { return ct_pow_tensor_scalar(in[0], ct_int(2)); }
static ct_tensor *f_pow__ts(ct_tensor **in) {
    ct_tensor *c = copy_of(in[0]);
    if (c && ct_pow__scalar(c, ct_double(-1.5)) != 0) ct_tensor_release(c), c = NULL;
    return c;
}
static ct_tensor *f_pow_tt(ct_tensor **in) { return ct_pow_tensor_tensor(in[0], in[1]); }
static ct_tensor *f_pow__tt(ct_tensor **in) {
    ct_tensor *c = copy_of(in[0]);
    if (c && ct_pow__tensor(c, in[1]) != 0) ct_tensor_release(c), c = NULL;
    return c;
}
static ct_tensor *f_pow_s(ct_tensor **in) { return ct_pow_scalar(ct_double(2.5), in[0]); }
#define GC_TT(name, call)                                                                                        \
    static ct_tensor *name(ct_tensor **in) { return call; }
#define GC_TT_(name, inplace_call)                                                                               \
    static ct_tensor *name(ct_tensor **in) {                                                                     \
        ct_tensor *c = copy_of(in[0]);                                                                           \
        if (c && inplace_call != 0) ct_tensor_release(c), c = NULL;                                              \
        return c;                                                                                                \
    }
GC_TT(f_fmod_t, ct_fmod_tensor(in[0], in[1]))
GC_TT(f_fmod_s, ct_fmod_scalar(in[0], ct_double(0.7)))
GC_TT_(f_fmod__t, ct_fmod__tensor(c, in[1]))
GC_TT_(f_fmod__s, ct_fmod__scalar(c, ct_double(0.7)))
GC_TT(f_rem_t, ct_remainder_tensor(in[0], in[1]))
GC_TT(f_rem_s, ct_remainder_scalar(in[0], ct_double(0.7)))
GC_TT_(f_rem__t, ct_remainder__tensor(c, in[1]))
GC_TT_(f_rem__s, ct_remainder__scalar(c, ct_double(0.7)))
GC_TT(f_atan2, ct_atan2(in[0], in[1]))
GC_TT_(f_atan2_, ct_atan2_(c, in[1]))
GC_TT_(f_mul__t, ct_mul_(c, in[1]))
GC_TT_(f_div__t, ct_div_(c, in[1]))
GC_TT(f_maximum, ct_maximum(in[0], in[1]))
GC_TT(f_minimum, ct_minimum(in[0], in[1]))
GC_TT(f_fmax, ct_fmax(in[0], in[1]))
GC_TT(f_fmin, ct_fmin(in[0], in[1]))
GC_TT(f_div_mode, ct_div_tensor_mode(in[0], in[1], NULL))
GC_TT(f_div_trunc, ct_div_tensor_mode(in[0], in[1], "trunc"))
GC_TT_(f_div__mode, ct_div__tensor_mode(c, in[1], NULL))
GC_TT(f_copysign_t, ct_copysign_tensor(in[0], in[1]))
GC_TT(f_copysign_s, ct_copysign_scalar(in[0], ct_double(-1.0)))
GC_TT_(f_copysign__t, ct_copysign__tensor(c, in[1]))
GC_TT_(f_copysign__s, ct_copysign__scalar(c, ct_double(-1.0)))
GC_TT(f_hypot, ct_hypot(in[0], in[1]))
GC_TT_(f_hypot_, ct_hypot_(c, in[1]))
GC_TT(f_logaddexp, ct_logaddexp(in[0], in[1]))
GC_TT(f_xlogy_t, ct_xlogy_tensor(in[0], in[1]))
GC_TT(f_xlogy_ss, ct_xlogy_scalar_self(ct_double(1.5), in[0]))
GC_TT(f_xlogy_so, ct_xlogy_scalar_other(in[0], ct_double(2.5)))
GC_TT_(f_xlogy__t, ct_xlogy__tensor(c, in[1]))
GC_TT_(f_xlogy__so, ct_xlogy__scalar_other(c, ct_double(2.5)))
#define GC_CMP(c_)                                                                                               \
    GC_TT_(f_##c_##__s, ct_##c_##__scalar(c, ct_double(0.3)))                                                    \
    GC_TT_(f_##c_##__t, ct_##c_##__tensor(c, in[1]))
GC_CMP(eq)
GC_CMP(ne)
GC_CMP(lt)
GC_CMP(le)
GC_CMP(gt)
GC_CMP(ge)


/* ---- the shape ops, indexing, sorting, activations and losses (second families) ---- */
static ct_tensor *f_flip(ct_tensor **in) {
    int64_t d[2] = {0, -1};
    return ct_flip(in[0], d, 2);
}
static ct_tensor *f_roll(ct_tensor **in) {
    int64_t sh[2] = {1, -2}, d[2] = {0, 1};
    return ct_roll(in[0], sh, 2, d, 2);
}
static ct_tensor *f_repeat(ct_tensor **in) {
    int64_t r[3] = {2, 1, 3};
    return ct_repeat(in[0], r, 3);
}
static ct_tensor *f_diagonal(ct_tensor **in) { return ct_diagonal(in[0], 1, 0, 1); }
static ct_tensor *f_diagonal_backward(ct_tensor **in) {
    int64_t sz[2] = {3, 4};
    return ct_diagonal_backward(in[0], sz, 2, 0, 0, 1);
}
static ct_tensor *f_triu(ct_tensor **in) { return ct_triu(in[0], -1); }
static ct_tensor *f_squeeze_all(ct_tensor **in) { return ct_squeeze(in[0]); }
static ct_tensor *f_squeeze_dims(ct_tensor **in) {
    int64_t d[2] = {0, 2};
    return ct_squeeze_dims(in[0], d, 2);
}
static ct_tensor *f_squeeze_all_(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    if (c && ct_squeeze_(c) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_squeeze_dims_(ct_tensor **in) {
    int64_t d[1] = {-1};
    ct_tensor *c = clone_(in[0]);
    if (c && ct_squeeze_dims_(c, d, 1) != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *index_2(void) {
    int64_t ix[3] = {2, 0, 2}, sz[1] = {3};
    return ct_tensor_new_int64(ix, sz, 1, (ct_tensor_options){0});
}
static ct_tensor *f_index_tensor(ct_tensor **in) {
    ct_tensor *ix = index_2();
    ct_tensor *idx[2] = {NULL, ix};
    ct_tensor *r = ix ? ct_index_tensor(in[0], idx, 2) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *put(ct_tensor **in, int which) {
    int64_t u[2] = {0, 2}, sz[1] = {2};
    ct_tensor *ix = ct_tensor_new_int64(u, sz, 1, (ct_tensor_options){0}); /* distinct rows */
    ct_tensor *idx[1] = {ix}, *r = NULL;
    if (!ix) return NULL;
    if (which == 0) {
        r = ct_index_put(in[0], idx, 1, in[1], false);
    } else {
        r = clone_(in[0]);
        int rc = !r ? -1 : which == 1 ? ct_index_put_(r, idx, 1, in[1], true) : ct__index_put_impl_(r, idx, 1, in[1], true, false);
        if (rc != 0) {
            ct_tensor_release(r);
            r = NULL;
        }
    }
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_index_put(ct_tensor **in) { return put(in, 0); }
static ct_tensor *f_index_put_(ct_tensor **in) { return put(in, 1); }
static ct_tensor *f_index_put_impl_(ct_tensor **in) { return put(in, 2); }
static ct_tensor *first_of_two(int rc, ct_tensor *v, ct_tensor *ix) {
    ct_tensor_release(ix);
    if (rc != 0) {
        ct_tensor_release(v);
        return NULL;
    }
    return v;
}
static ct_tensor *f_sort(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_sort(in[0], -1, true, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_sort_stable(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_sort_stable(in[0], 1, 0, false, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_topk(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_topk(in[0], 2, -1, true, true, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_kthvalue(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_kthvalue(in[0], 2, 1, true, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_median(ct_tensor **in) { return ct_median(in[0]); }
static ct_tensor *f_median_dim(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_median_dim(in[0], 0, false, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_nanmedian(ct_tensor **in) { return ct_nanmedian(in[0]); }
static ct_tensor *f_nanmedian_dim(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_nanmedian_dim(in[0], -1, true, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_mode(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_mode(in[0], -1, false, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_cummax(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_cummax(in[0], 1, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_cummin(ct_tensor **in) {
    ct_tensor *v = NULL, *ix = NULL;
    int rc = ct_cummin(in[0], 0, &v, &ix);
    return first_of_two(rc, v, ix);
}
static ct_tensor *f_softplus(ct_tensor **in) { return ct_softplus(in[0], ct_double(2.0), ct_int(20)); }
static ct_tensor *f_silu(ct_tensor **in) { return ct_silu(in[0]); }
static ct_tensor *f_mish(ct_tensor **in) { return ct_mish(in[0]); }
static ct_tensor *f_hardtanh(ct_tensor **in) { return ct_hardtanh(in[0], ct_double(-0.7), ct_double(0.9)); }
static ct_tensor *f_leaky_relu(ct_tensor **in) { return ct_leaky_relu(in[0], ct_double(0.05)); }
static ct_tensor *f_elu(ct_tensor **in) { return ct_elu(in[0], ct_double(1.3), ct_double(1.1), ct_double(0.9)); }
static ct_tensor *f_celu(ct_tensor **in) { return ct_celu(in[0], ct_double(0.8)); }
static ct_tensor *f_hardsigmoid(ct_tensor **in) { return ct_hardsigmoid(in[0]); }
static ct_tensor *f_hardswish(ct_tensor **in) { return ct_hardswish(in[0]); }
static ct_tensor *f_log_sigmoid_forward(ct_tensor **in) {
    ct_tensor *o = NULL, *b = NULL;
    int rc = ct_log_sigmoid_forward(in[0], &o, &b);
    return first_of_two(rc, o, b);
}
static ct_tensor *f_threshold(ct_tensor **in) { return ct_threshold(in[0], ct_double(0.3), ct_double(-2.0)); }
static ct_tensor *f_softshrink(ct_tensor **in) { return ct_softshrink(in[0], ct_double(0.4)); }
static ct_tensor *f_hardshrink(ct_tensor **in) { return ct_hardshrink(in[0], ct_double(0.4)); }
/* the in-place activations, on a non-leaf copy of the input */
#define INPLACE_ACT(name, call)                                                                                  \
    static ct_tensor *name(ct_tensor **in) {                                                                     \
        ct_tensor *c = ct_mul_scalar(in[0], ct_int(1));                                                          \
        if (c && (call) != 0) {                                                                                  \
            ct_tensor_release(c);                                                                                \
            return NULL;                                                                                         \
        }                                                                                                        \
        return c;                                                                                                \
    }
INPLACE_ACT(f_hardtanh_, ct_hardtanh_(c, ct_double(-0.7), ct_double(0.9)))
INPLACE_ACT(f_leaky_relu_, ct_leaky_relu_(c, ct_double(0.05)))
INPLACE_ACT(f_elu_, ct_elu_(c, ct_double(1.3), ct_double(1.0), ct_double(1.0)))
INPLACE_ACT(f_celu_, ct_celu_(c, ct_double(0.8)))
INPLACE_ACT(f_threshold_, ct_threshold_(c, ct_double(0.3), ct_double(-2.0)))
INPLACE_ACT(f_relu_, ct_relu_(c))
INPLACE_ACT(f_silu_, ct_silu_(c))
INPLACE_ACT(f_mish_, ct_mish_(c))
INPLACE_ACT(f_hardsigmoid_, ct_hardsigmoid_(c))
INPLACE_ACT(f_hardswish_, ct_hardswish_(c))
static ct_tensor *f_mse_loss(ct_tensor **in) { return ct_mse_loss(in[0], in[1], 1); }
static ct_tensor *f_smooth_l1_loss(ct_tensor **in) { return ct_smooth_l1_loss(in[0], in[1], 2, 0.7); }
static ct_tensor *f_huber_loss(ct_tensor **in) { return ct_huber_loss(in[0], in[1], 0, 0.6); }
/* convolution and pooling (formulas_conv.c) */
static ct_tensor *f_conv2d_groups(ct_tensor **in) {
    int64_t st[2] = {2, 1}, pad[2] = {1, 0}, dil[1] = {1}, op[1] = {0};
    return ct_convolution(in[0], in[1], in[2], st, 2, pad, 2, dil, 1, false, op, 1, 2);
}
static ct_tensor *f_conv1d_dilated(ct_tensor **in) {
    int64_t st[1] = {1}, pad[1] = {2}, dil[1] = {2}, op[1] = {0};
    return ct_convolution(in[0], in[1], NULL, st, 1, pad, 1, dil, 1, false, op, 1, 1);
}
static ct_tensor *f_conv_transpose2d(ct_tensor **in) {
    int64_t st[1] = {2}, pad[1] = {1}, dil[1] = {1}, op[1] = {1};
    return ct_convolution(in[0], in[1], in[2], st, 1, pad, 1, dil, 1, true, op, 1, 1);
}
static ct_tensor *f_im2col(ct_tensor **in) {
    int64_t k[2] = {2, 3}, d[2] = {1, 1}, p[2] = {1, 0}, s[2] = {1, 2};
    return ct_im2col(in[0], k, 2, d, 2, p, 2, s, 2);
}
static ct_tensor *f_col2im(ct_tensor **in) {
    int64_t o[2] = {4, 4}, k[2] = {2, 2}, d[2] = {1, 1}, p[2] = {0, 0}, s[2] = {1, 1};
    return ct_col2im(in[0], o, 2, k, 2, d, 2, p, 2, s, 2);
}
static ct_tensor *first_of(int rc, ct_tensor *a, ct_tensor *b) {
    ct_tensor_release(b);
    if (rc != 0) {
        ct_tensor_release(a);
        return NULL;
    }
    return a;
}
static ct_tensor *f_max_pool2d(ct_tensor **in) {
    int64_t k[2] = {3, 2}, s[2] = {2, 1}, p[2] = {1, 1}, d[1] = {1};
    ct_tensor *o = NULL, *i = NULL;
    int rc = ct_max_pool2d_with_indices(in[0], k, 2, s, 2, p, 2, d, 1, true, &o, &i);
    return first_of(rc, o, i);
}
static ct_tensor *f_max_pool3d(ct_tensor **in) {
    int64_t k[1] = {2}, s[1] = {1}, p[1] = {0}, d[3] = {1, 2, 1};
    ct_tensor *o = NULL, *i = NULL;
    int rc = ct_max_pool3d_with_indices(in[0], k, 1, s, 1, p, 1, d, 3, false, &o, &i);
    return first_of(rc, o, i);
}
static ct_tensor *f_avg_pool2d(ct_tensor **in) {
    int64_t k[2] = {3, 2}, s[2] = {2, 1}, p[2] = {1, 1};
    return ct_avg_pool2d(in[0], k, 2, s, 2, p, 2, true, false, NULL);
}
static ct_tensor *f_avg_pool3d(ct_tensor **in) {
    int64_t k[1] = {2}, s[1] = {1}, p[1] = {1}, div = 3;
    return ct_avg_pool3d(in[0], k, 1, s, 1, p, 1, false, true, &div);
}
static ct_tensor *f_adaptive_avg_pool2d(ct_tensor **in) {
    int64_t o[2] = {3, 2};
    return ct__adaptive_avg_pool2d(in[0], o, 2);
}
static ct_tensor *f_adaptive_avg_pool3d(ct_tensor **in) {
    int64_t o[3] = {2, 1, 3};
    return ct__adaptive_avg_pool3d(in[0], o, 3);
}
static ct_tensor *f_adaptive_max_pool2d(ct_tensor **in) {
    int64_t sz[2] = {2, 3};
    ct_tensor *o = NULL, *i = NULL;
    int rc = ct_adaptive_max_pool2d(in[0], sz, 2, &o, &i);
    return first_of(rc, o, i);
}
static ct_tensor *f_avg_pool2d_backward(ct_tensor **in) {
    int64_t k[2] = {3, 2}, s[2] = {2, 1}, p[2] = {1, 1};
    return ct_avg_pool2d_backward(in[0], in[1], k, 2, s, 2, p, 2, true, false, NULL);
}
static ct_tensor *f_avg_pool3d_backward(ct_tensor **in) {
    int64_t k[1] = {2}, s[1] = {1}, p[1] = {1}, div = 3;
    return ct_avg_pool3d_backward(in[0], in[1], k, 1, s, 1, p, 1, false, true, &div);
}
static ct_tensor *f_adaptive_avg_pool2d_backward(ct_tensor **in) { return ct__adaptive_avg_pool2d_backward(in[0], in[1]); }
static ct_tensor *f_adaptive_avg_pool3d_backward(ct_tensor **in) { return ct__adaptive_avg_pool3d_backward(in[0], in[1]); }

/* probabilities: both inputs through sigmoid, so every value lies in (0, 1) */
static ct_tensor *f_binary_cross_entropy(ct_tensor **in) {
    ct_tensor *p = ct_sigmoid(in[0]), *t = p ? ct_sigmoid(in[1]) : NULL;
    ct_tensor *r = t ? ct_binary_cross_entropy(p, t, NULL, 1) : NULL;
    ct_tensor_release(p);
    ct_tensor_release(t);
    return r;
}


/* ---- scatter, gather, masked_scatter, the *_scatter inverses, padding, tensor clamps, fills ---- */
static ct_tensor *idx_of(const int64_t *v, const int64_t *sz, int nd) { return ct_tensor_new_int64(v, sz, nd, (ct_tensor_options){0}); }
static ct_tensor *sc_index(void) { /* [2, 3] into dim 0 of a [3, 3] */
    static const int64_t v[6] = {2, 0, 1, 0, 0, 2}, sz[2] = {2, 3};
    return idx_of(v, sz, 2);
}
static ct_tensor *done_inplace(ct_tensor *c, int rc) {
    if (rc != 0) {
        ct_tensor_release(c);
        return NULL;
    }
    return c;
}
static ct_tensor *f_scatter_src(ct_tensor **in) {
    static const int64_t v[6] = {2, 0, 1, 1, 2, 0}, sz[2] = {2, 3}; /* distinct targets per column */
    ct_tensor *ix = idx_of(v, sz, 2), *r = ix ? ct_scatter_src(in[0], 0, ix, in[1]) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_scatter__src(ct_tensor **in) {
    static const int64_t v[2] = {1, 0}, sz[2] = {1, 2};
    ct_tensor *ix = idx_of(v, sz, 2), *c = ix ? clone_(in[0]) : NULL;
    ct_tensor *r = c ? done_inplace(c, ct_scatter__src(c, 0, ix, in[1])) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_scatter_value(ct_tensor **in) {
    ct_tensor *ix = sc_index(), *r = ix ? ct_scatter_value(in[0], 0, ix, ct_double(0.5)) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_scatter__value(ct_tensor **in) {
    ct_tensor *ix = sc_index(), *c = ix ? clone_(in[0]) : NULL;
    ct_tensor *r = c ? done_inplace(c, ct_scatter__value(c, 0, ix, ct_int(2))) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_scatter_add(ct_tensor **in) {
    ct_tensor *ix = sc_index(), *r = ix ? ct_scatter_add(in[0], 0, ix, in[1]) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *f_scatter_add_(ct_tensor **in) {
    ct_tensor *ix = sc_index(), *c = ix ? clone_(in[0]) : NULL;
    ct_tensor *r = c ? done_inplace(c, ct_scatter_add_(c, 0, ix, in[1])) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *sc_reduce(ct_tensor **in, const char *reduce, bool include_self, bool inplace) {
    static const int64_t v[6] = {2, 0, 2, 2, 0, 2}, sz[2] = {2, 3}; /* two sources into some targets, none into others */
    ct_tensor *ix = idx_of(v, sz, 2), *r = NULL;
    if (ix && !inplace) r = ct_scatter_reduce_two(in[0], 0, ix, in[1], reduce, include_self);
    if (ix && inplace) {
        ct_tensor *c = clone_(in[0]);
        r = c ? done_inplace(c, ct_scatter_reduce__two(c, 0, ix, in[1], reduce, include_self)) : NULL;
    }
    ct_tensor_release(ix);
    return r;
}
/* each reduction, with and without self, summed into one output so one case checks them all */
static ct_tensor *f_scatter_reduce_two(ct_tensor **in) {
    static const char *reds[5] = {"sum", "prod", "mean", "amax", "amin"};
    ct_tensor *acc = NULL;
    for (int k = 0; k < 10; k++) {
        ct_tensor *r = sc_reduce(in, reds[k / 2], k % 2 == 0, false);
        if (!r) {
            ct_tensor_release(acc);
            return NULL;
        }
        ct_tensor *s = acc ? ct_add(acc, r, ct_double((double)(k + 1))) : ct_tensor_retain(r);
        ct_tensor_release(acc);
        ct_tensor_release(r);
        acc = s;
        if (!acc) return NULL;
    }
    return acc;
}
static ct_tensor *f_scatter_reduce__two(ct_tensor **in) { return sc_reduce(in, "prod", false, true); }
static ct_tensor *f_gather(ct_tensor **in) {
    static const int64_t v[4] = {2, 2, 0, 1}, sz[2] = {2, 2};
    ct_tensor *ix = idx_of(v, sz, 2), *r = ix ? ct_gather(in[0], 1, ix, false) : NULL;
    ct_tensor_release(ix);
    return r;
}
static ct_tensor *mask_of(int n) {
    double v[6] = {1, 0, 1, 1, 0, 0};
    int64_t sz[1] = {n};
    ct_tensor *d = ct_tensor_from_doubles(v, sz, 1, CT_FLOAT64);
    ct_tensor *m = d ? ct_to_dtype(d, CT_BOOL, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor_release(d);
    return m;
}
static ct_tensor *f_masked_scatter(ct_tensor **in) {
    ct_tensor *m = mask_of(3), *r = m ? ct_masked_scatter(in[0], m, in[1]) : NULL;
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_masked_scatter_(ct_tensor **in) {
    ct_tensor *m = mask_of(3), *c = m ? clone_(in[0]) : NULL;
    ct_tensor *r = c ? done_inplace(c, ct_masked_scatter_(c, m, in[1])) : NULL;
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_select_scatter(ct_tensor **in) { return ct_select_scatter(in[0], in[1], 1, -1); }
static ct_tensor *f_slice_scatter(ct_tensor **in) {
    int64_t st = 1;
    return ct_slice_scatter(in[0], in[1], 0, &st, NULL, 2);
}
static ct_tensor *f_diagonal_scatter(ct_tensor **in) { return ct_diagonal_scatter(in[0], in[1], -1, 0, 1); }
/* src only: PyTorch's formula for self (as_strided_scatter_backward) keeps grad inside the written
 * region and zeros elsewhere, the opposite of the derivative, and ctorch gives what PyTorch gives
 * (OpInfo as_strided_scatter compares it); finite differences cannot check it */
static ct_tensor *f_as_strided_scatter(ct_tensor **in) {
    int64_t sz[2] = {2, 2}, st[2] = {1, 3}, off = 1, s33[2] = {3, 3};
    ct_tensor *self = ct_zeros(s33, 2, CT_FLOAT64);
    ct_tensor *r = self ? ct_as_strided_scatter(self, in[0], sz, 2, st, 2, &off) : NULL;
    ct_tensor_release(self);
    return r;
}
static ct_tensor *f_constant_pad_nd(ct_tensor **in) {
    int64_t p[4] = {1, -1, 0, 2};
    return ct_constant_pad_nd(in[0], p, 4, ct_double(0.25));
}
static const int64_t pad1[2] = {2, 1}, pad2[4] = {1, 2, 2, 0}, pad3[6] = {1, 0, 0, 1, 1, 1};
static ct_tensor *f_reflection_pad1d(ct_tensor **in) { return ct_reflection_pad1d(in[0], pad1, 2); }
static ct_tensor *f_reflection_pad2d(ct_tensor **in) { return ct_reflection_pad2d(in[0], pad2, 4); }
static ct_tensor *f_reflection_pad3d(ct_tensor **in) { return ct_reflection_pad3d(in[0], pad3, 6); }
static ct_tensor *f_replication_pad1d(ct_tensor **in) { return ct_replication_pad1d(in[0], pad1, 2); }
static ct_tensor *f_replication_pad2d(ct_tensor **in) { return ct_replication_pad2d(in[0], pad2, 4); }
static ct_tensor *f_replication_pad3d(ct_tensor **in) { return ct_replication_pad3d(in[0], pad3, 6); }
/* the backward ops: in[0] the output gradient, in[1] self (its gradient is zeros) */
static ct_tensor *f_reflection_pad1d_backward(ct_tensor **in) { return ct_reflection_pad1d_backward(in[0], in[1], pad1, 2); }
static ct_tensor *f_reflection_pad2d_backward(ct_tensor **in) { return ct_reflection_pad2d_backward(in[0], in[1], pad2, 4); }
static ct_tensor *f_reflection_pad3d_backward(ct_tensor **in) { return ct_reflection_pad3d_backward(in[0], in[1], pad3, 6); }
static ct_tensor *f_replication_pad1d_backward(ct_tensor **in) { return ct_replication_pad1d_backward(in[0], in[1], pad1, 2); }
static ct_tensor *f_replication_pad2d_backward(ct_tensor **in) { return ct_replication_pad2d_backward(in[0], in[1], pad2, 4); }
static ct_tensor *f_replication_pad3d_backward(ct_tensor **in) { return ct_replication_pad3d_backward(in[0], in[1], pad3, 6); }
static ct_tensor *f_clamp_tensor(ct_tensor **in) { return ct_clamp_tensor(in[0], in[1], in[2]); }
static ct_tensor *f_clamp__tensor(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    return c ? done_inplace(c, ct_clamp__tensor(c, in[1], NULL)) : NULL;
}
static ct_tensor *f_clamp_min_tensor(ct_tensor **in) { return ct_clamp_min_tensor(in[0], in[1]); }
static ct_tensor *f_clamp_max_tensor(ct_tensor **in) { return ct_clamp_max_tensor(in[0], in[1]); }
/* fills: a product with the input keeps the result's dependence on self visible */
static ct_tensor *times(ct_tensor *a, ct_tensor *b) {
    ct_tensor *r = a ? ct_mul(a, b) : NULL;
    ct_tensor_release(a);
    return r;
}
static ct_tensor *f_fill_scalar(ct_tensor **in) { return times(ct_fill_scalar(in[0], ct_double(1.5)), in[1]); }
static ct_tensor *f_fill_tensor(ct_tensor **in) { return times(ct_fill_tensor(in[0], in[1]), in[2]); }
static ct_tensor *f_fill__tensor(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    return times(c ? done_inplace(c, ct_fill__tensor(c, in[1])) : NULL, in[2]);
}
static ct_tensor *f_fill__scalar(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    return times(c ? done_inplace(c, ct_fill_(c, ct_double(2.0))) : NULL, in[1]);
}
static ct_tensor *f_masked_fill_tensor(ct_tensor **in) {
    ct_tensor *m = mask_of(3), *r = m ? ct_masked_fill_tensor(in[0], m, in[1]) : NULL;
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_masked_fill__tensor(ct_tensor **in) {
    ct_tensor *m = mask_of(3), *c = m ? clone_(in[0]) : NULL;
    ct_tensor *r = c ? done_inplace(c, ct_masked_fill__tensor(c, m, in[1])) : NULL;
    ct_tensor_release(m);
    return r;
}
static ct_tensor *f_copy_(ct_tensor **in) {
    ct_tensor *c = clone_(in[0]);
    return c ? done_inplace(c, ct_copy_(c, in[1], false)) : NULL;
}
/* the composites family: norm_backward's orders, glu, the logits loss, soft margin */
static ct_tensor *f_vector_norm_p1(ct_tensor **in) { return ct_linalg_vector_norm(in[0], ct_int(1), NULL, 0, false, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_vector_norm_p3(ct_tensor **in) {
    int64_t d = 1;
    return ct_linalg_vector_norm(in[0], ct_double(3.0), &d, 1, true, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_vector_norm_p15(ct_tensor **in) { return ct_linalg_vector_norm(in[0], ct_double(1.5), NULL, 0, false, CT_DTYPE_UNDEFINED); }
static ct_tensor *f_vector_norm_p05(ct_tensor **in) {
    int64_t d = 0;
    return ct_linalg_vector_norm(in[0], ct_double(0.5), &d, 1, false, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_vector_norm_inf(ct_tensor **in) {
    int64_t d = -1;
    return ct_linalg_vector_norm(in[0], ct_double(INFINITY), &d, 1, false, CT_DTYPE_UNDEFINED);
}
static ct_tensor *f_norm_dim(ct_tensor **in) {
    int64_t d = 1;
    ct_scalar p = ct_double(2.5);
    return ct_norm_ScalarOpt_dim(in[0], &p, &d, 1, false);
}
static ct_tensor *f_norm_dim_none(ct_tensor **in) {
    int64_t d = 0;
    return ct_norm_ScalarOpt_dim(in[0], NULL, &d, 1, true);
}
INPLACE_ACT(f_clamp_min_, ct_clamp_min_(c, ct_double(0.1)))
static ct_tensor *f_glu(ct_tensor **in) { return ct_glu(in[0], 1); }
static ct_tensor *f_glu0(ct_tensor **in) { return ct_glu(in[0], 0); }
/* weight and pos_weight are constants (not differentiable in PyTorch either) */
static ct_tensor *f_bce_logits(ct_tensor **in) {
    double wv[4] = {0.5, 1.0, 1.5, 2.0}, pv[4] = {2.0, 0.5, 1.0, 3.0};
    int64_t s4[1] = {4};
    ct_tensor *w = ct_tensor_from_doubles(wv, s4, 1, CT_FLOAT64), *pw = w ? ct_tensor_from_doubles(pv, s4, 1, CT_FLOAT64) : NULL;
    ct_tensor *t = pw ? ct_sigmoid(in[1]) : NULL;
    ct_tensor *r = t ? ct_binary_cross_entropy_with_logits(in[0], t, w, pw, 1) : NULL;
    ct_tensor_release(w);
    ct_tensor_release(pw);
    ct_tensor_release(t);
    return r;
}
static ct_tensor *f_bce_logits_plain(ct_tensor **in) { return ct_binary_cross_entropy_with_logits(in[0], in[1], NULL, NULL, 2); }
static ct_tensor *f_soft_margin(ct_tensor **in) {
    double tv[6] = {1, -1, -1, 1, 1, -1};
    int64_t s[2] = {2, 3};
    ct_tensor *t = ct_tensor_from_doubles(tv, s, 2, CT_FLOAT64);
    ct_tensor *r = t ? ct_soft_margin_loss(in[0], t, 1) : NULL;
    ct_tensor_release(t);
    return r;
}

static const gcase cases[] = {
    {"aten::flip", 1, {{2, 3, 4}}, {3}, {0}, f_flip},
    {"aten::roll", 1, {{3, 4}}, {2}, {0}, f_roll},
    {"aten::repeat", 1, {{2, 3}}, {2}, {0}, f_repeat},
    {"aten::diagonal", 1, {{3, 4}}, {2}, {0}, f_diagonal},
    {"aten::diagonal_backward", 1, {{3}}, {1}, {0}, f_diagonal_backward},
    {"aten::triu", 1, {{3, 4}}, {2}, {0}, f_triu},
    {"aten::squeeze", 1, {{3, 1, 4}}, {3}, {0}, f_squeeze_all},
    {"aten::squeeze.dims", 1, {{1, 3, 1}}, {3}, {0}, f_squeeze_dims},
    {"aten::squeeze_", 1, {{3, 1, 4}}, {3}, {0}, f_squeeze_all_},
    {"aten::squeeze_.dims", 1, {{3, 4, 1}}, {3}, {0}, f_squeeze_dims_},
    {"aten::index.Tensor", 1, {{2, 4}}, {2}, {0}, f_index_tensor},
    {"aten::index_put", 2, {{3, 4}, {2, 4}}, {2, 2}, {0}, f_index_put},
    {"aten::index_put_", 2, {{3, 4}, {4}}, {2, 1}, {0}, f_index_put_},
    {"aten::_index_put_impl_", 2, {{3, 4}, {2, 4}}, {2, 2}, {0}, f_index_put_impl_},
    {"aten::sort", 1, {{3, 5}}, {2}, {0}, f_sort},
    {"aten::sort.stable", 1, {{4, 3}}, {2}, {0}, f_sort_stable},
    {"aten::topk", 1, {{3, 5}}, {2}, {0}, f_topk},
    {"aten::kthvalue", 1, {{3, 5}}, {2}, {0}, f_kthvalue},
    {"aten::median", 1, {{3, 5}}, {2}, {0}, f_median},
    {"aten::median.dim", 1, {{4, 3}}, {2}, {0}, f_median_dim},
    {"aten::nanmedian", 1, {{2, 5}}, {2}, {0}, f_nanmedian},
    {"aten::nanmedian.dim", 1, {{3, 4}}, {2}, {0}, f_nanmedian_dim},
    {"aten::mode", 1, {{3, 4}}, {2}, {0}, f_mode},
    {"aten::cummax", 1, {{3, 5}}, {2}, {0}, f_cummax},
    {"aten::cummin", 1, {{4, 3}}, {2}, {0}, f_cummin},
    {"aten::softplus", 1, {{3, 4}}, {2}, {0}, f_softplus},
    {"aten::silu", 1, {{3, 4}}, {2}, {0}, f_silu},
    {"aten::mish", 1, {{3, 4}}, {2}, {0}, f_mish},
    {"aten::hardtanh", 1, {{3, 4}}, {2}, {0}, f_hardtanh},
    {"aten::hardtanh_", 1, {{3, 4}}, {2}, {0}, f_hardtanh_},
    {"aten::leaky_relu", 1, {{3, 4}}, {2}, {0}, f_leaky_relu},
    {"aten::leaky_relu_", 1, {{3, 4}}, {2}, {0}, f_leaky_relu_},
    {"aten::elu", 1, {{3, 4}}, {2}, {0}, f_elu},
    {"aten::elu_", 1, {{3, 4}}, {2}, {0}, f_elu_},
    {"aten::celu", 1, {{3, 4}}, {2}, {0}, f_celu},
    {"aten::celu_", 1, {{3, 4}}, {2}, {0}, f_celu_},
    {"aten::hardsigmoid", 1, {{3, 4}}, {2}, {0}, f_hardsigmoid},
    {"aten::hardswish", 1, {{3, 4}}, {2}, {0}, f_hardswish},
    {"aten::silu_", 1, {{3, 4}}, {2}, {0}, f_silu_},
    {"aten::mish_", 1, {{3, 4}}, {2}, {0}, f_mish_},
    {"aten::hardsigmoid_", 1, {{3, 4}}, {2}, {0}, f_hardsigmoid_},
    {"aten::hardswish_", 1, {{3, 4}}, {2}, {0}, f_hardswish_},
    {"aten::log_sigmoid_forward", 1, {{3, 4}}, {2}, {0}, f_log_sigmoid_forward},
    {"aten::threshold", 1, {{3, 4}}, {2}, {0}, f_threshold},
    {"aten::threshold_", 1, {{3, 4}}, {2}, {0}, f_threshold_},
    {"aten::relu_", 1, {{3, 4}}, {2}, {true}, f_relu_},
    {"aten::softshrink", 1, {{3, 4}}, {2}, {0}, f_softshrink},
    {"aten::hardshrink", 1, {{3, 4}}, {2}, {0}, f_hardshrink},
    {"aten::mse_loss", 2, {{3, 4}, {3, 4}}, {2, 2}, {0}, f_mse_loss},
    {"aten::smooth_l1_loss", 2, {{3, 4}, {3, 4}}, {2, 2}, {0}, f_smooth_l1_loss},
    {"aten::huber_loss", 2, {{3, 4}, {3, 4}}, {2, 2}, {0}, f_huber_loss},
    {"aten::binary_cross_entropy", 2, {{3, 4}, {3, 4}}, {2, 2}, {0}, f_binary_cross_entropy},
    {"aten::addmm", 3, {{4}, {3, 5}, {5, 4}}, {1, 2, 2}, {0}, f_addmm},
    {"aten::mm", 2, {{3, 5}, {5, 4}}, {2, 2}, {0}, f_mm},
    {"aten::t", 1, {{3, 4}}, {2}, {0}, f_t},
    {"aten::transpose.int", 1, {{2, 3, 4}}, {3}, {0}, f_transpose},
    {"aten::permute", 1, {{2, 3, 4}}, {3}, {0}, f_permute},
    {"aten::view", 1, {{3, 4}}, {2}, {0}, f_view},
    {"aten::_unsafe_view", 1, {{3, 4}}, {2}, {0}, f_unsafe_view},
    {"aten::_reshape_alias", 1, {{3, 4}}, {2}, {0}, f_reshape_alias},
    {"aten::expand", 1, {{3, 1}}, {2}, {0}, f_expand},
    {"aten::alias", 1, {{3}}, {1}, {0}, f_alias},
    {"aten::unsqueeze", 1, {{3, 4}}, {2}, {0}, f_unsqueeze},
    {"aten::squeeze.dim", 1, {{3, 1, 4}}, {3}, {0}, f_squeeze_dim},
    {"aten::squeeze_.dim", 1, {{3, 1, 4}}, {3}, {0}, f_squeeze_dim_},
    {"aten::slice.Tensor", 1, {{3, 6}}, {2}, {0}, f_slice_neg},
    {"aten::slice.Tensor", 1, {{3, 2}}, {2}, {0}, f_slice_open},
    {"aten::clone", 1, {{2, 3}}, {2}, {0}, f_clone},
    {"aten::_to_copy", 1, {{2, 3}}, {2}, {0}, f_to_copy},
    {"aten::add.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_add},
    {"aten::add_.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_add_},
    {"aten::sub.Tensor", 2, {{2, 3}, {2, 1}}, {2, 2}, {0}, f_sub},
    {"aten::sub_.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_sub_},
    {"aten::mul.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_mul},
    {"aten::div.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {false, true}, f_div},
    {"aten::add.Scalar", 1, {{4}}, {1}, {0}, f_add_scalar},
    {"aten::mul.Scalar", 1, {{4}}, {1}, {0}, f_mul_scalar},
    {"aten::mul_.Scalar", 1, {{4}}, {1}, {0}, f_mul_scalar_},
    {"aten::div.Scalar", 1, {{4}}, {1}, {0}, f_div_scalar},
    {"aten::neg", 1, {{2, 2}}, {2}, {0}, f_neg},
    {"aten::add_.Scalar", 1, {{4}}, {1}, {0}, f_add__scalar},
    {"aten::sub.Scalar", 1, {{4}}, {1}, {0}, f_sub_scalar},
    {"aten::sub_.Scalar", 1, {{4}}, {1}, {0}, f_sub__scalar},
    {"aten::rsub.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_rsub_tensor},
    {"aten::rsub.Scalar", 1, {{4}}, {1}, {0}, f_rsub_scalar},
    {"aten::clamp", 1, {{3, 4}}, {2}, {0}, f_clamp},
    {"aten::clamp", 1, {{3, 4}}, {2}, {0}, f_clamp_lo},
    {"aten::clamp_", 1, {{3, 4}}, {2}, {0}, f_clamp_},
    {"aten::clamp_min", 1, {{3, 4}}, {2}, {0}, f_clamp_min},
    {"aten::clamp_max", 1, {{3, 4}}, {2}, {0}, f_clamp_max},
    {"aten::relu", 1, {{3, 3}}, {2}, {true}, f_relu},
    {"aten::sum", 1, {{2, 3}}, {2}, {0}, f_sum},
    {"aten::sum.dim_IntList", 1, {{2, 3, 4}}, {3}, {0}, f_sum_dim},
    {"aten::sum.dim_IntList", 1, {{2, 3}}, {2}, {0}, f_sum_dim_keep},
    {"aten::mean", 1, {{2, 3}}, {2}, {0}, f_mean},
    {"aten::mean.dim", 1, {{2, 3, 4}}, {3}, {0}, f_mean_dim},
    {"aten::var.correction", 1, {{3, 4}}, {2}, {0}, f_var},
    {"aten::var.correction", 1, {{3, 4}}, {2}, {0}, f_var_all},
    {"aten::std.correction", 1, {{3, 2, 4}}, {3}, {0}, f_std},
    {"aten::var_mean.correction", 1, {{3, 4}}, {2}, {0}, f_var_mean},
    {"aten::std_mean.correction", 1, {{3, 4}}, {2}, {0}, f_std_mean},
    {"aten::prod", 1, {{2, 3}}, {2}, {0}, f_prod},
    {"aten::prod.dim_int", 1, {{2, 3, 2}}, {3}, {0}, f_prod_dim},
    {"aten::nansum", 1, {{3, 4}}, {2}, {0}, f_nansum},
    {"aten::amax", 1, {{3, 4}}, {2}, {0}, f_amax},
    {"aten::amin", 1, {{3, 4}}, {2}, {0}, f_amin},
    {"aten::max", 1, {{3, 4}}, {2}, {0}, f_max_all},
    {"aten::min", 1, {{3, 4}}, {2}, {0}, f_min_all},
    {"aten::max.dim", 1, {{3, 4}}, {2}, {0}, f_max_dim},
    {"aten::min.dim", 1, {{3, 4}}, {2}, {0}, f_min_dim},
    {"aten::logsumexp", 1, {{3, 4}}, {2}, {0}, f_logsumexp},
    {"aten::cumsum", 1, {{3, 4}}, {2}, {0}, f_cumsum},
    {"aten::cumsum_", 1, {{3, 4}}, {2}, {0}, f_cumsum_},
    {"aten::cumprod", 1, {{3, 4}}, {2}, {0}, f_cumprod},
    {"aten::logcumsumexp", 1, {{3, 4}}, {2}, {0}, f_logcumsumexp},
    {"aten::_log_softmax", 1, {{4, 5}}, {2}, {0}, f_log_softmax},
    {"aten::nll_loss_forward", 1, {{5, 3}}, {2}, {0}, f_nll_mean},
    {"aten::nll_loss_forward", 1, {{5, 3}}, {2}, {0}, f_nll_sum},
    {"aten::nll_loss_forward", 1, {{5, 3}}, {2}, {0}, f_nll_none},
    {"aten::masked_fill.Scalar", 1, {{2, 3}}, {2}, {0}, f_masked_fill},
    {"aten::masked_fill_.Scalar", 1, {{2, 3}}, {2}, {0}, f_masked_fill_},
    {"aten::slice.Tensor", 1, {{3, 7}}, {2}, {0}, f_slice},
    {"aten::select.int", 1, {{2, 4, 3}}, {3}, {0}, f_select},
    {"aten::select_backward", 1, {{2, 3}}, {2}, {0}, f_select_backward},
    {"aten::slice_backward", 1, {{3, 3}}, {2}, {0}, f_slice_backward},
    {"aten::split.Tensor", 1, {{2, 6}}, {2}, {0}, f_split},
    {"aten::split_with_sizes", 1, {{7, 2}}, {2}, {0}, f_split_with_sizes},
    {"aten::unbind.int", 1, {{2, 3}}, {2}, {0}, f_unbind},
    {"aten::chunk", 1, {{2, 7}}, {2}, {0}, f_chunk},
    {"aten::cat", 3, {{2, 3}, {2, 1}, {2, 2}}, {2, 2, 2}, {0}, f_cat},
    {"aten::stack", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_stack},
    {"aten::tril", 1, {{2, 3, 4}}, {3}, {0}, f_tril},
    {"aten::bmm", 2, {{2, 3, 4}, {2, 4, 5}}, {3, 3}, {0}, f_bmm},
    {"aten::bmm", 2, {{3, 9, 8}, {3, 6, 8}}, {3, 3}, {0}, f_bmm_transposed},
    {"aten::dot", 2, {{5}, {5}}, {1, 1}, {0}, f_dot},
    {"aten::mv", 2, {{3, 4}, {4}}, {2, 1}, {0}, f_mv},
    {"aten::embedding", 1, {{7, 3}}, {2}, {0}, f_embedding},
    {"aten::embedding_dense_backward", 1, {{5, 3}}, {2}, {0}, f_embedding_dense_backward},
    {"aten::native_layer_norm", 3, {{3, 4}, {4}, {4}}, {2, 1, 1}, {0}, f_layer_norm},
    {"aten::native_layer_norm", 2, {{2, 3, 4}, {4}}, {3, 1}, {0}, f_layer_norm_nobias},
    {"aten::native_batch_norm", 3, {{4, 3, 2}, {3}, {3}}, {3, 1, 1}, {0, 1}, f_native_batch_norm},
    {"aten::native_batch_norm", 3, {{2, 3, 2, 2}, {3}, {3}}, {4, 1, 1}, {0}, f_native_batch_norm_eval},
    {"aten::native_batch_norm", 2, {{5, 3}, {3}}, {2, 1}, {0, 1}, f_native_batch_norm_2d},
    {"aten::_native_batch_norm_legit", 3, {{4, 3, 2}, {3}, {3}}, {3, 1, 1}, {0, 1}, f_bn_legit},
    {"aten::_native_batch_norm_legit.no_stats", 3, {{3, 3, 3}, {3}, {3}}, {3, 1, 1}, {0}, f_bn_legit_no_stats},
    {"aten::_native_batch_norm_legit_no_training", 3, {{4, 3}, {3}, {3}}, {2, 1, 1}, {0}, f_bn_legit_no_training},
    {"aten::_native_batch_norm_legit_functional", 3, {{4, 3, 2}, {3}, {3}}, {3, 1, 1}, {0, 1}, f_bn_legit_functional},
    {"aten::native_group_norm", 3, {{2, 4, 3}, {4}, {4}}, {3, 1, 1}, {0, 1}, f_native_group_norm},
    {"aten::native_group_norm", 1, {{3, 2, 4}}, {3}, {0}, f_native_group_norm_noaffine},
    {"aten::native_dropout", 1, {{3, 4}}, {2}, {0}, f_native_dropout_eval},
    {"aten::native_dropout", 1, {{2, 5}}, {2}, {0}, f_native_dropout_p0},
    {"aten::native_dropout_backward", 1, {{6}}, {1}, {0}, f_native_dropout_backward},
    {"aten::upsample_nearest2d", 1, {{1, 2, 2, 2}}, {4}, {0}, f_upsample_nearest2d},
    {"aten::upsample_nearest2d_backward", 1, {{1, 2, 5, 3}}, {4}, {0}, f_upsample_nearest2d_backward},
    {"aten::upsample_nearest1d", 1, {{1, 2, 3}}, {3}, {0}, f_upsample_nearest1d},
    {"aten::upsample_nearest1d_backward", 1, {{1, 2, 5}}, {3}, {0}, f_upsample_nearest1d_backward},
    {"aten::upsample_nearest3d", 1, {{1, 2, 2, 3}}, {4}, {0}, f_upsample_nearest3d},
    {"aten::upsample_nearest3d_backward", 1, {{1, 3, 2, 4}}, {4}, {0}, f_upsample_nearest3d_backward},
    {"aten::_pdist_forward", 1, {{4, 3}}, {2}, {0}, f_pdist},
    {"aten::_pdist_forward", 1, {{3, 5}}, {2}, {0}, f_pdist_p3},
    {"aten::_pdist_forward", 1, {{4, 2}}, {2}, {0}, f_pdist_p1},
    {"aten::upsample_bilinear2d", 1, {{1, 2, 3, 2}}, {4}, {0}, f_upsample_bilinear2d},
    {"aten::upsample_bilinear2d", 1, {{2, 1, 2, 3}}, {4}, {0}, f_upsample_bilinear2d_ac},
    {"aten::upsample_bilinear2d_backward", 1, {{1, 1, 4, 5}}, {4}, {0}, f_upsample_bilinear2d_backward},
    {"aten::gelu", 1, {{3, 4}}, {2}, {0}, f_gelu},
    {"aten::gelu", 1, {{3, 4}}, {2}, {0}, f_gelu_tanh},
    {"aten::_softmax", 1, {{3, 5}}, {2}, {0}, f_softmax},
    {"aten::_safe_softmax", 1, {{2, 3}}, {2}, {0}, f_safe_softmax},
    {"aten::where.self", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_where},
    {"aten::div_.Scalar", 1, {{4}}, {1}, {0}, f_div__scalar},
    {"aten::bernoulli_.float", 1, {{6}}, {1}, {0}, f_bernoulli_},
    {"aten::exponential_", 1, {{6}}, {1}, {0}, f_exponential_},
    {"aten::sqrt", 1, {{2, 3}}, {2}, {true}, f_sqrt},
    {"aten::reciprocal", 1, {{2, 3}}, {2}, {true}, f_reciprocal},
    {"aten::exp", 1, {{2, 3}}, {2}, {0}, f_u_exp},
    {"aten::exp_", 1, {{2, 3}}, {2}, {0}, f_u_exp_},
    {"aten::exp2", 1, {{2, 3}}, {2}, {0}, f_u_exp2},
    {"aten::exp2_", 1, {{2, 3}}, {2}, {0}, f_u_exp2_},
    {"aten::expm1", 1, {{2, 3}}, {2}, {0}, f_u_expm1},
    {"aten::expm1_", 1, {{2, 3}}, {2}, {0}, f_u_expm1_},
    {"aten::log", 1, {{2, 3}}, {2}, {true}, f_u_log},
    {"aten::log_", 1, {{2, 3}}, {2}, {true}, f_u_log_},
    {"aten::log2", 1, {{2, 3}}, {2}, {true}, f_u_log2},
    {"aten::log2_", 1, {{2, 3}}, {2}, {true}, f_u_log2_},
    {"aten::log10", 1, {{2, 3}}, {2}, {true}, f_u_log10},
    {"aten::log10_", 1, {{2, 3}}, {2}, {true}, f_u_log10_},
    {"aten::log1p", 1, {{2, 3}}, {2}, {true}, f_u_log1p},
    {"aten::log1p_", 1, {{2, 3}}, {2}, {true}, f_u_log1p_},
    {"aten::sin", 1, {{2, 3}}, {2}, {0}, f_u_sin},
    {"aten::sin_", 1, {{2, 3}}, {2}, {0}, f_u_sin_},
    {"aten::cos", 1, {{2, 3}}, {2}, {0}, f_u_cos},
    {"aten::cos_", 1, {{2, 3}}, {2}, {0}, f_u_cos_},
    {"aten::tan", 1, {{2, 3}}, {2}, {0}, f_u_tan},
    {"aten::tan_", 1, {{2, 3}}, {2}, {0}, f_u_tan_},
    {"aten::asin", 1, {{2, 3}}, {2}, {0}, f_u_asin},
    {"aten::asin_", 1, {{2, 3}}, {2}, {0}, f_u_asin_},
    {"aten::acos", 1, {{2, 3}}, {2}, {0}, f_u_acos},
    {"aten::acos_", 1, {{2, 3}}, {2}, {0}, f_u_acos_},
    {"aten::atan", 1, {{2, 3}}, {2}, {0}, f_u_atan},
    {"aten::atan_", 1, {{2, 3}}, {2}, {0}, f_u_atan_},
    {"aten::sinh", 1, {{2, 3}}, {2}, {0}, f_u_sinh},
    {"aten::sinh_", 1, {{2, 3}}, {2}, {0}, f_u_sinh_},
    {"aten::cosh", 1, {{2, 3}}, {2}, {0}, f_u_cosh},
    {"aten::cosh_", 1, {{2, 3}}, {2}, {0}, f_u_cosh_},
    {"aten::tanh", 1, {{2, 3}}, {2}, {0}, f_u_tanh},
    {"aten::tanh_", 1, {{2, 3}}, {2}, {0}, f_u_tanh_},
    {"aten::asinh", 1, {{2, 3}}, {2}, {0}, f_u_asinh},
    {"aten::acosh", 1, {{2, 3}}, {2}, {true}, f_u_acosh},
    {"aten::atanh", 1, {{2, 3}}, {2}, {0}, f_u_atanh},
    {"aten::sigmoid", 1, {{2, 3}}, {2}, {0}, f_u_sigmoid},
    {"aten::sigmoid_", 1, {{2, 3}}, {2}, {0}, f_u_sigmoid_},
    {"aten::logit", 1, {{2, 3}}, {2}, {0}, f_u_logit},
    {"aten::logit_", 1, {{2, 3}}, {2}, {0}, f_u_logit_},
    {"aten::erf", 1, {{2, 3}}, {2}, {0}, f_u_erf},
    {"aten::erf_", 1, {{2, 3}}, {2}, {0}, f_u_erf_},
    {"aten::erfc", 1, {{2, 3}}, {2}, {0}, f_u_erfc},
    {"aten::erfc_", 1, {{2, 3}}, {2}, {0}, f_u_erfc_},
    {"aten::erfinv", 1, {{2, 3}}, {2}, {0}, f_u_erfinv},
    {"aten::erfinv_", 1, {{2, 3}}, {2}, {0}, f_u_erfinv_},
    {"aten::sqrt_", 1, {{2, 3}}, {2}, {true}, f_u_sqrt_},
    {"aten::rsqrt", 1, {{2, 3}}, {2}, {true}, f_u_rsqrt},
    {"aten::rsqrt_", 1, {{2, 3}}, {2}, {true}, f_u_rsqrt_},
    {"aten::reciprocal_", 1, {{2, 3}}, {2}, {true}, f_u_reciprocal_},
    {"aten::lgamma", 1, {{2, 3}}, {2}, {true}, f_u_lgamma},
    {"aten::lgamma_", 1, {{2, 3}}, {2}, {true}, f_u_lgamma_},
    {"aten::deg2rad", 1, {{2, 3}}, {2}, {0}, f_u_deg2rad},
    {"aten::deg2rad_", 1, {{2, 3}}, {2}, {0}, f_u_deg2rad_},
    {"aten::rad2deg", 1, {{2, 3}}, {2}, {0}, f_u_rad2deg},
    {"aten::rad2deg_", 1, {{2, 3}}, {2}, {0}, f_u_rad2deg_},
    {"aten::abs", 1, {{2, 3}}, {2}, {0}, f_u_abs},
    {"aten::abs_", 1, {{2, 3}}, {2}, {0}, f_u_abs_},
    {"aten::neg_", 1, {{2, 3}}, {2}, {0}, f_u_neg_},
    {"aten::sign", 1, {{2, 3}}, {2}, {0}, f_u_sign},
    {"aten::sign_", 1, {{2, 3}}, {2}, {0}, f_u_sign_},
    {"aten::sgn", 1, {{2, 3}}, {2}, {0}, f_u_sgn},
    {"aten::sgn_", 1, {{2, 3}}, {2}, {0}, f_u_sgn_},
    {"aten::floor", 1, {{2, 3}}, {2}, {0}, f_u_floor},
    {"aten::floor_", 1, {{2, 3}}, {2}, {0}, f_u_floor_},
    {"aten::ceil", 1, {{2, 3}}, {2}, {0}, f_u_ceil},
    {"aten::ceil_", 1, {{2, 3}}, {2}, {0}, f_u_ceil_},
    {"aten::trunc", 1, {{2, 3}}, {2}, {0}, f_u_trunc},
    {"aten::trunc_", 1, {{2, 3}}, {2}, {0}, f_u_trunc_},
    {"aten::round", 1, {{2, 3}}, {2}, {0}, f_u_round},
    {"aten::round_", 1, {{2, 3}}, {2}, {0}, f_u_round_},
    {"aten::frac", 1, {{2, 3}}, {2}, {0}, f_u_frac},
    {"aten::frac_", 1, {{2, 3}}, {2}, {0}, f_u_frac_},
    {"aten::nan_to_num", 1, {{2, 3}}, {2}, {0}, f_u_nan_to_num},
    {"aten::nan_to_num_", 1, {{2, 3}}, {2}, {0}, f_u_nan_to_num_},
    {"aten::round.decimals", 1, {{2, 3}}, {2}, {0}, f_u_round_decimals},
    {"aten::round_.decimals", 1, {{2, 3}}, {2}, {0}, f_u_round__decimals},
    {"aten::lerp.Scalar", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_lerp},
    {"aten::lerp_.Scalar", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_lerp_},
    {"aten::addcmul", 3, {{2, 3}, {3}, {2, 1}}, {2, 1, 2}, {0}, f_addcmul},
    {"aten::addcmul_", 3, {{2, 3}, {2, 3}, {3}}, {2, 2, 1}, {0}, f_addcmul_},
    {"aten::addcdiv", 3, {{2, 3}, {3}, {2, 3}}, {2, 1, 2}, {false, false, true}, f_addcdiv},
    {"aten::addcdiv_", 3, {{2, 3}, {2, 3}, {2, 3}}, {2, 2, 2}, {false, false, true}, f_addcdiv_},
    {"aten::linalg_vector_norm", 1, {{2, 3}}, {2}, {0}, f_vector_norm},
    {"aten::linalg_vector_norm", 1, {{2, 3, 2}}, {3}, {0}, f_vector_norm_dim},
    {"aten::linalg_vector_norm", 1, {{2, 3}}, {2}, {1}, f_vector_norm_p1},
    {"aten::linalg_vector_norm", 1, {{2, 3}}, {2}, {0}, f_vector_norm_p3},
    {"aten::linalg_vector_norm", 1, {{2, 3}}, {2}, {1}, f_vector_norm_p15},
    {"aten::linalg_vector_norm", 1, {{3, 2}}, {2}, {1}, f_vector_norm_p05},
    {"aten::linalg_vector_norm", 1, {{2, 4}}, {2}, {0}, f_vector_norm_inf},
    {"aten::norm.ScalarOpt_dim", 1, {{2, 3}}, {2}, {1}, f_norm_dim},
    {"aten::norm.ScalarOpt_dim", 1, {{2, 3}}, {2}, {0}, f_norm_dim_none},
    {"aten::clamp_min_", 1, {{3, 4}}, {2}, {0}, f_clamp_min_},
    {"aten::glu", 1, {{2, 4}}, {2}, {0}, f_glu},
    {"aten::glu", 1, {{4, 3}}, {2}, {0}, f_glu0},
    {"aten::binary_cross_entropy_with_logits", 2, {{3, 4}, {3, 4}}, {2, 2}, {0}, f_bce_logits},
    {"aten::binary_cross_entropy_with_logits", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_bce_logits_plain},
    {"aten::soft_margin_loss", 1, {{2, 3}}, {2}, {0}, f_soft_margin},
    {"aten::_scaled_dot_product_flash_attention_for_cpu", 3, {{1, 2, 3, 4}, {1, 2, 5, 4}, {1, 2, 5, 4}}, {4, 4, 4}, {0}, f_flash},
    {"aten::_scaled_dot_product_flash_attention_for_cpu", 3, {{2, 1, 4, 3}, {2, 1, 4, 3}, {2, 1, 4, 3}}, {4, 4, 4}, {0}, f_flash_causal},
    {"aten::pow.Tensor_Scalar", 1, {{2, 3}}, {2}, {true}, f_pow_ts},
    {"aten::pow.Tensor_Scalar", 1, {{2, 3}}, {2}, {0}, f_pow_ts2},
    {"aten::pow_.Scalar", 1, {{4}}, {1}, {true}, f_pow__ts},
    {"aten::pow.Tensor_Tensor", 2, {{2, 3}, {3}}, {2, 1}, {true, false}, f_pow_tt},
    {"aten::pow_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {true, false}, f_pow__tt},
    {"aten::pow.Scalar", 1, {{2, 3}}, {2}, {0}, f_pow_s},
    {"aten::fmod.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_fmod_t},
    {"aten::fmod.Scalar", 1, {{4}}, {1}, {0}, f_fmod_s},
    {"aten::fmod_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {false, true}, f_fmod__t},
    {"aten::fmod_.Scalar", 1, {{4}}, {1}, {0}, f_fmod__s},
    {"aten::remainder.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_rem_t},
    {"aten::remainder.Scalar", 1, {{4}}, {1}, {0}, f_rem_s},
    {"aten::remainder_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {false, true}, f_rem__t},
    {"aten::remainder_.Scalar", 1, {{4}}, {1}, {0}, f_rem__s},
    {"aten::atan2", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_atan2},
    {"aten::atan2_", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_atan2_},
    /* in place: self's saved value is its clone from before the op (original_self) */
    {"aten::mul_.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_mul__t},
    {"aten::div_.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_div__t},
    {"aten::maximum", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_maximum},
    {"aten::minimum", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_minimum},
    {"aten::fmax", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_fmax},
    {"aten::fmin", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_fmin},
    {"aten::div.Tensor_mode", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_div_mode},
    {"aten::div.Tensor_mode", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_div_trunc},
    {"aten::div_.Tensor_mode", 2, {{2, 3}, {2, 3}}, {2, 2}, {false, true}, f_div__mode},
    {"aten::copysign.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_copysign_t},
    {"aten::copysign.Scalar", 1, {{4}}, {1}, {0}, f_copysign_s},
    {"aten::copysign_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_copysign__t},
    {"aten::copysign_.Scalar", 1, {{4}}, {1}, {0}, f_copysign__s},
    {"aten::hypot", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_hypot},
    {"aten::hypot_", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_hypot_},
    {"aten::logaddexp", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_logaddexp},
    {"aten::xlogy.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {false, true}, f_xlogy_t},
    {"aten::xlogy.Scalar_Self", 1, {{4}}, {1}, {true}, f_xlogy_ss},
    {"aten::xlogy.Scalar_Other", 1, {{4}}, {1}, {0}, f_xlogy_so},
    {"aten::xlogy_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {false, true}, f_xlogy__t},
    {"aten::xlogy_.Scalar_Other", 1, {{4}}, {1}, {0}, f_xlogy__so},
    {"aten::eq_.Scalar", 1, {{4}}, {1}, {0}, f_eq__s},
    {"aten::eq_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_eq__t},
    {"aten::ne_.Scalar", 1, {{4}}, {1}, {0}, f_ne__s},
    {"aten::ne_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_ne__t},
    {"aten::lt_.Scalar", 1, {{4}}, {1}, {0}, f_lt__s},
    {"aten::lt_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_lt__t},
    {"aten::le_.Scalar", 1, {{4}}, {1}, {0}, f_le__s},
    {"aten::le_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_le__t},
    {"aten::gt_.Scalar", 1, {{4}}, {1}, {0}, f_gt__s},
    {"aten::gt_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_gt__t},
    {"aten::ge_.Scalar", 1, {{4}}, {1}, {0}, f_ge__s},
    {"aten::ge_.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_ge__t},
    {"aten::convolution", 3, {{2, 4, 5, 4}, {4, 2, 3, 2}, {4}}, {4, 4, 1}, {0}, f_conv2d_groups},
    {"aten::convolution", 2, {{2, 2, 7}, {3, 2, 3}}, {3, 3}, {0}, f_conv1d_dilated},
    {"aten::convolution", 3, {{1, 2, 3, 3}, {2, 3, 3, 3}, {3}}, {4, 4, 1}, {0}, f_conv_transpose2d},
    {"aten::im2col", 1, {{1, 2, 4, 5}}, {4}, {0}, f_im2col},
    {"aten::col2im", 1, {{1, 8, 9}}, {3}, {0}, f_col2im},
    {"aten::max_pool2d_with_indices", 1, {{2, 2, 5, 4}}, {4}, {0}, f_max_pool2d},
    {"aten::max_pool3d_with_indices", 1, {{2, 3, 5, 3}}, {4}, {0}, f_max_pool3d},
    {"aten::avg_pool2d", 1, {{2, 2, 5, 4}}, {4}, {0}, f_avg_pool2d},
    {"aten::avg_pool3d", 1, {{2, 3, 3, 4}}, {4}, {0}, f_avg_pool3d},
    {"aten::_adaptive_avg_pool2d", 1, {{2, 2, 5, 5}}, {4}, {0}, f_adaptive_avg_pool2d},
    {"aten::_adaptive_avg_pool3d", 1, {{2, 3, 3, 4}}, {4}, {0}, f_adaptive_avg_pool3d},
    {"aten::adaptive_max_pool2d", 1, {{2, 2, 5, 5}}, {4}, {0}, f_adaptive_max_pool2d},
    /* the backward ops' own derivatives (create_graph): grad_output pooled again, zeros for self */
    {"aten::avg_pool2d_backward", 2, {{2, 2, 3, 5}, {2, 2, 5, 4}}, {4, 4}, {0}, f_avg_pool2d_backward},
    {"aten::avg_pool3d_backward", 2, {{2, 4, 4, 5}, {2, 3, 3, 4}}, {4, 4}, {0}, f_avg_pool3d_backward},
    {"aten::_adaptive_avg_pool2d_backward", 2, {{2, 2, 3, 2}, {2, 2, 5, 5}}, {4, 4}, {0}, f_adaptive_avg_pool2d_backward},
    {"aten::_adaptive_avg_pool3d_backward", 2, {{1, 2, 1, 3}, {1, 3, 3, 4}}, {4, 4}, {0}, f_adaptive_avg_pool3d_backward},
    {"aten::scatter.src", 2, {{3, 3}, {2, 3}}, {2, 2}, {0}, f_scatter_src},
    {"aten::scatter_.src", 2, {{2, 3}, {1, 2}}, {2, 2}, {0}, f_scatter__src},
    {"aten::scatter.value", 1, {{3, 3}}, {2}, {0}, f_scatter_value},
    {"aten::scatter_.value", 1, {{3, 3}}, {2}, {0}, f_scatter__value},
    {"aten::scatter_add", 2, {{3, 3}, {2, 3}}, {2, 2}, {0}, f_scatter_add},
    {"aten::scatter_add_", 2, {{3, 3}, {2, 3}}, {2, 2}, {0}, f_scatter_add_},
    {"aten::scatter_reduce.two", 2, {{3, 3}, {2, 3}}, {2, 2}, {0}, f_scatter_reduce_two},
    {"aten::scatter_reduce_.two", 2, {{3, 3}, {2, 3}}, {2, 2}, {0}, f_scatter_reduce__two},
    {"aten::gather", 1, {{2, 3}}, {2}, {0}, f_gather},
    {"aten::masked_scatter", 2, {{2, 3}, {5}}, {2, 1}, {0}, f_masked_scatter},
    {"aten::masked_scatter_", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_masked_scatter_},
    {"aten::select_scatter", 2, {{2, 3}, {2}}, {2, 1}, {0}, f_select_scatter},
    {"aten::slice_scatter", 2, {{4, 2}, {2, 2}}, {2, 2}, {0}, f_slice_scatter},
    {"aten::diagonal_scatter", 2, {{3, 3}, {2}}, {2, 1}, {0}, f_diagonal_scatter},
    {"aten::as_strided_scatter", 1, {{2, 2}}, {2}, {0}, f_as_strided_scatter},
    {"aten::constant_pad_nd", 1, {{2, 3}}, {2}, {0}, f_constant_pad_nd},
    {"aten::reflection_pad1d", 1, {{2, 4}}, {2}, {0}, f_reflection_pad1d},
    {"aten::reflection_pad2d", 1, {{1, 3, 3}}, {3}, {0}, f_reflection_pad2d},
    {"aten::reflection_pad3d", 1, {{1, 2, 2, 3}}, {4}, {0}, f_reflection_pad3d},
    {"aten::replication_pad1d", 1, {{2, 3}}, {2}, {0}, f_replication_pad1d},
    {"aten::replication_pad2d", 1, {{1, 2, 3}}, {3}, {0}, f_replication_pad2d},
    {"aten::replication_pad3d", 1, {{1, 2, 2, 2}}, {4}, {0}, f_replication_pad3d},
    {"aten::reflection_pad1d_backward", 2, {{2, 7}, {2, 4}}, {2, 2}, {0}, f_reflection_pad1d_backward},
    {"aten::reflection_pad2d_backward", 2, {{1, 5, 6}, {1, 3, 3}}, {3, 3}, {0}, f_reflection_pad2d_backward},
    {"aten::reflection_pad3d_backward", 2, {{1, 4, 3, 4}, {1, 2, 2, 3}}, {4, 4}, {0}, f_reflection_pad3d_backward},
    {"aten::replication_pad1d_backward", 2, {{2, 6}, {2, 3}}, {2, 2}, {0}, f_replication_pad1d_backward},
    {"aten::replication_pad2d_backward", 2, {{1, 4, 6}, {1, 2, 3}}, {3, 3}, {0}, f_replication_pad2d_backward},
    {"aten::replication_pad3d_backward", 2, {{1, 4, 3, 3}, {1, 2, 2, 2}}, {4, 4}, {0}, f_replication_pad3d_backward},
    {"aten::clamp.Tensor", 3, {{2, 3}, {3}, {2, 1}}, {2, 1, 2}, {0}, f_clamp_tensor},
    {"aten::clamp_.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_clamp__tensor},
    {"aten::clamp_min.Tensor", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_clamp_min_tensor},
    {"aten::clamp_max.Tensor", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_clamp_max_tensor},
    {"aten::fill.Scalar", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_fill_scalar},
    {"aten::fill.Tensor", 3, {{2, 3}, {}, {2, 3}}, {2, 0, 2}, {0}, f_fill_tensor},
    {"aten::fill_.Tensor", 3, {{2, 3}, {}, {2, 3}}, {2, 0, 2}, {0}, f_fill__tensor},
    {"aten::fill_.Scalar", 2, {{2, 3}, {2, 3}}, {2, 2}, {0}, f_fill__scalar},
    {"aten::masked_fill.Tensor", 2, {{2, 3}, {}}, {2, 0}, {0}, f_masked_fill_tensor},
    {"aten::masked_fill_.Tensor", 2, {{2, 3}, {}}, {2, 0}, {0}, f_masked_fill__tensor},
    {"aten::copy_", 2, {{2, 3}, {3}}, {2, 1}, {0}, f_copy_},
};

static double eval(apply_fn f, ct_tensor **in, const double *r, int64_t nr) {
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    ct_tensor *out = f(in);
    ct_grad_mode_exit(&g);
    if (!out) return NAN;
    double *v = malloc(sizeof(double) * (size_t)(nr ? nr : 1));
    ct_tensor_to_doubles(out, v, nr);
    double s = 0;
    for (int64_t i = 0; i < nr; i++) s += v[i] * r[i];
    free(v);
    ct_tensor_release(out);
    return s;
}

static void run_case(const gcase *c) {
    ct_tensor *in[MAXIN] = {NULL};
    for (int i = 0; i < c->nin; i++) {
        in[i] = ct_randn(c->shapes[i], c->ndims[i], CT_FLOAT64);
        if (c->positive[i]) {
            /* |x| + 0.5: away from zero */
            int64_t n = ct_tensor_numel(in[i]);
            double *p = ct_tensor_data_ptr(in[i]);
            for (int64_t k = 0; k < n; k++) p[k] = fabs(p[k]) + 0.5;
        }
        ct_tensor_set_requires_grad(in[i], true);
    }
    ct_tensor *out = c->f(in);
    CHECK_MSG(out != NULL, "%s: forward failed: %s", c->op, ct_error_message());
    if (!out) goto done;
    int64_t nr = ct_tensor_numel(out);
    double *r = malloc(sizeof(double) * (size_t)(nr ? nr : 1));
    for (int64_t i = 0; i < nr; i++) r[i] = cos((double)i * 0.7 + 0.3);
    /* analytic: backward with R as the output gradient */
    ct_tensor *R = ct_tensor_from_doubles(r, ct_tensor_sizes(out), ct_tensor_ndim(out), CT_FLOAT64);
    CHECK_MSG(ct_backward(out, R, false) == 0, "%s: backward failed: %s", c->op, ct_error_message());
    ct_tensor_release(R);
    ct_tensor_release(out);
    /* numeric: central differences on every input element */
    for (int i = 0; i < c->nin; i++) {
        ct_tensor *g = ct_tensor_grad(in[i]);
        CHECK_MSG(g != NULL, "%s: input %d got no gradient", c->op, i);
        if (!g) continue;
        int64_t n = ct_tensor_numel(in[i]);
        double *p = ct_tensor_data_ptr(in[i]);
        double *ga = malloc(sizeof(double) * (size_t)n);
        ct_tensor_to_doubles(g, ga, n);
        int bad = 0;
        for (int64_t k = 0; k < n; k++) {
            double save = p[k], eps = 1e-6;
            p[k] = save + eps;
            double fp = eval(c->f, in, r, nr);
            p[k] = save - eps;
            double fm = eval(c->f, in, r, nr);
            p[k] = save;
            double num = (fp - fm) / (2 * eps);
            if (!(fabs(num - ga[k]) <= 1e-5 + 1e-3 * fabs(num))) {
                if (bad < 3) fprintf(stderr, "  %s input %d [%lld]: analytic %.10g numeric %.10g\n", c->op, i, (long long)k, ga[k], num);
                bad++;
            }
        }
        CHECK_MSG(bad == 0, "%s: input %d: %d of %lld gradient entries differ from finite differences", c->op, i, bad,
                  (long long)n);
        free(ga);
    }
    free(r);
done:
    for (int i = 0; i < c->nin; i++) ct_tensor_release(in[i]);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    ct_manual_seed(1234);
    int64_t live0 = ct_testing_live_tensors();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
    /* every formula in the derivative table has a case */
    for (int id = 0; id < CT_OPID_COUNT; id++) {
        const ct_op *op = ct_builtin((ct_opid)id);
        const ct_deriv *d = ct_deriv_for(op);
        /* no formula, or PyTorch's not_implemented ones (asinh_, floor_divide: their failing
         * backward is checked by the binary and unary tables): nothing to check */
        if (!d || !d->formula || d->formula == ct_d_inplace_not_implemented || d->formula == ct_d_not_implemented) continue;
        bool covered = false;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (strcmp(cases[i].op, ct_op_name(op)) == 0) covered = true;
        CHECK_MSG(covered, "%s (%s) has a formula but no finite-difference case", ct_op_name(op), d->name);
    }
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    return ct_test_finish("test_gradcheck");
}
