/* Backward formulas of the reduction family (derivatives.yaml and FunctionsManual.cpp): mean,
 * mean.dim, var/std (and var_mean/std_mean) with correction, prod, prod.dim_int, nansum, amax, amin,
 * max/min over everything and over a dim, cumsum, cumprod, logsumexp and logcumsumexp.
 *
 * One pattern serves them all: the gradient of a reduction's output is first given back the
 * reduced dimensions (restore_dims: unsqueeze_multiple, or unsqueeze for an int dim, unless
 * keepdim), then broadcast against self. Where the formula is arithmetic on tensors ctorch has
 * (mean, var, std, amax, prod without zeros) it calls the ops through the dispatcher in PyTorch's
 * order; where PyTorch's formula needs an op ctorch lacks (scatter_ for max.dim, flip for the
 * reversed cumsum, exp for logsumexp) the same values are computed here in double, element by
 * element, and rounded to the gradient's dtype once. */
#include <math.h>
#include <string.h>

#include "autograd/formulas.h"
#include "core/alloc.h"
#include "ops/kernel_util.h"

/* ---- the shared pattern ---- */

/* g with the reduced dimensions back as size 1 (unsqueeze_multiple), a new reference; dims is the
 * op's dim argument (int[]: empty or None meaning all, or one int) of an ndim-dimensional self */
static ct_tensor *restore_dims(ct_tensor *g, const ct_value *dims, int ndim, bool keepdim) {
    if (keepdim || ndim == 0 || dims->tag == CT_TAG_NONE) return ct_tensor_retain(g);
    if (dims->tag == CT_TAG_INT) return ct_unsqueeze(g, dims->u.i < 0 ? dims->u.i + ndim : dims->u.i);
    if (dims->u.list.len == 0) return ct_tensor_retain(g);
    bool mask[CT_MAX_DIMS];
    ct_f_dim_mask(dims, ndim, mask);
    ct_tensor *r = ct_tensor_retain(g);
    for (int i = 0; i < ndim && r; i++) {
        if (!mask[i]) continue;
        ct_tensor *u = ct_unsqueeze(r, i);
        ct_tensor_release(r);
        r = u;
    }
    return r;
}

static int64_t meta_numel(const ct_tensor_meta *m) {
    int64_t n = 1;
    for (int i = 0; i < m->ndim; i++) n *= m->sizes[i];
    return n;
}

/* restore_reduced_dims(t, dims, keepdim): t viewed with size 1 at the reduced dims (a view, as
 * amax's and amin's formula does it, where the others unsqueeze); dims an int list of an
 * ndim-dimensional input (empty: t is 0-dim, viewed as []) */
static ct_tensor *restore_view(ct_tensor *t, const ct_value *dims, int ndim, bool keepdim) {
    if (keepdim) return ct_tensor_retain(t);
    const int64_t nd = dims->tag == CT_TAG_INTLIST ? dims->u.list.len : 0;
    const int64_t total = t->ndim + nd;
    int64_t shape[CT_MAX_DIMS] = {0};
    (void)ndim;
    for (int64_t k = 0; k < nd; k++) {
        int64_t d = dims->u.list.data[k];
        shape[d < 0 ? d + total : d] = 1;
    }
    int64_t j = 0;
    for (int i = 0; i < t->ndim; i++) {
        while (shape[j] > 0) j++;
        shape[j++] = t->sizes[i];
    }
    return ct_view(t, shape, total);
}

/* _safe_size(sizes, dims): the number of elements a reduction over dims reduces (1 for none) */
static int64_t reduced_count(const ct_tensor_meta *m, const ct_value *dims) {
    if (dims->tag == CT_TAG_NONE) return meta_numel(m);
    if (m->ndim == 0) return 1; /* a 0-dim tensor's dims 0 and -1 reduce its one element */
    if (dims->tag == CT_TAG_INT) return m->ndim ? m->sizes[dims->u.i < 0 ? dims->u.i + m->ndim : dims->u.i] : 1;
    bool mask[CT_MAX_DIMS];
    ct_f_dim_mask(dims, m->ndim, mask);
    int64_t n = 1;
    for (int i = 0; i < m->ndim; i++)
        if (mask[i]) n *= m->sizes[i];
    return n;
}

static bool all_reduce(const ct_value *dims) {
    return dims->tag == CT_TAG_NONE || (dims->tag == CT_TAG_INTLIST && dims->u.list.len == 0);
}

/* a + b, taking both references (either may be NULL: the other is the sum) */
static ct_tensor *add_take(ct_tensor *a, ct_tensor *b) {
    if (!a) return b;
    if (!b) return a;
    ct_tensor *r = ct_add(a, b, ct_int(1));
    ct_tensor_release(a);
    ct_tensor_release(b);
    return r;
}

/* ---- mean ---- */

int ct_d_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* grad.expand(self.sizes()) / self.numel() */
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    ct_tensor *e = ct_expand(grads[0], m->sizes, m->ndim, false);
    CT_F_NEED(e);
    out[0] = ct_div_scalar(e, ct_int(meta_numel(m)));
    ct_tensor_release(e);
    CT_F_NEED(out[0]);
    return 0;
}

/* mean_backward(grad, sizes, dim, numel, keepdim): sum_backward / the reduced count */
static ct_tensor *mean_backward(ct_tensor *grad, const ct_tensor_meta *m, const ct_value *dims, bool keepdim) {
    ct_tensor *g = restore_dims(grad, dims, m->ndim, keepdim);
    ct_tensor *e = g ? ct_expand(g, m->sizes, m->ndim, false) : NULL;
    ct_tensor_release(g);
    if (!e) return NULL;
    ct_tensor *r = ct_div_scalar(e, ct_int(all_reduce(dims) ? meta_numel(m) : reduced_count(m, dims)));
    ct_tensor_release(e);
    return r;
}

int ct_d_mean_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = mean_backward(grads[0], ct_f_meta(n, 0), &n->args[1], n->args[2].u.b));
    return 0;
}

/* ---- var and std ---- */

static double correction_of(const ct_node *n) { return n->args[2].tag == CT_TAG_NONE ? 1.0 : ct_f_darg(n, 2); }

/* var_backward(grad, self, dim, correction, keepdim): (2 / dof) * grad * (self - self.mean(dim, true)) */
static ct_tensor *var_backward(ct_tensor *grad, ct_tensor *self, const ct_value *dims, double correction, bool keepdim) {
    ct_tensor *g, *mean;
    double dof;
    if (self->ndim == 0 || dims->tag == CT_TAG_NONE) {
        dof = (double)self->numel - correction;
        g = ct_tensor_retain(grad);
        mean = ct_mean(self, CT_DTYPE_UNDEFINED);
    } else {
        g = self->ndim > 1 ? restore_dims(grad, dims, self->ndim, keepdim) : ct_tensor_retain(grad);
        ct_tensor_meta m = {0};
        m.ndim = self->ndim;
        memcpy(m.sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
        dof = (double)reduced_count(&m, dims) - correction;
        mean = dims->tag == CT_TAG_INT ? ct_mean_dim(self, &dims->u.i, 1, true, CT_DTYPE_UNDEFINED)
                                       : ct_mean_dim(self, dims->u.list.data, dims->u.list.len, true, CT_DTYPE_UNDEFINED);
    }
    /* PyTorch's order: self - mean, then (2 / dof) * grad, then their product */
    ct_tensor *centred = g && mean ? ct_sub(self, mean, ct_int(1)) : NULL;
    ct_tensor *scaled = centred ? ct_mul_scalar(g, ct_double(2.0 / dof)) : NULL;
    ct_tensor *r = scaled ? ct_mul(scaled, centred) : NULL;
    ct_tensor_release(g);
    ct_tensor_release(mean);
    ct_tensor_release(scaled);
    ct_tensor_release(centred);
    return r;
}

/* std_backward(result, grad, self, dim, correction, keepdim): var_backward of
 * (grad / (result * 2)).masked_fill_(result == 0, 0) */
static ct_tensor *std_backward(ct_tensor *result, ct_tensor *grad, ct_tensor *self, const ct_value *dims, double correction,
                               bool keepdim) {
    ct_tensor *twice = ct_mul_scalar(result, ct_int(2));
    ct_tensor *q = twice ? ct_div(grad, twice) : NULL;
    ct_tensor *zero = q ? ct_zeros_like(result, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor *is0 = zero ? ct_eq_tensor(result, zero) : NULL;
    ct_tensor *gv = NULL;
    if (is0 && ct_masked_fill_(q, is0, ct_int(0)) == 0) gv = ct_tensor_retain(q);
    ct_tensor *r = gv ? var_backward(gv, self, dims, correction, keepdim) : NULL;
    ct_tensor_release(twice);
    ct_tensor_release(q);
    ct_tensor_release(zero);
    ct_tensor_release(is0);
    ct_tensor_release(gv);
    return r;
}

/* the var/std family: args (self, dim, correction, keepdim); std saves its result R(0) */
static int var_family_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool is_std, bool with_mean) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (is_std && grads[0] && ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    const ct_value *dims = &n->args[1];
    const bool keepdim = n->args[3].u.b;
    const double corr = correction_of(n);
    ct_tensor *gv = NULL, *gm = NULL;
    int rc = 0;
    if (grads[0]) {
        gv = is_std ? std_backward(result, grads[0], self, dims, corr, keepdim) : var_backward(grads[0], self, dims, corr, keepdim);
        if (!gv) rc = -1;
    }
    if (rc == 0 && with_mean && grads[1]) {
        gm = mean_backward(grads[1], ct_f_meta(n, 0), dims, keepdim);
        if (!gm) rc = -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(result);
    if (rc != 0) {
        ct_tensor_release(gv);
        ct_tensor_release(gm);
        return -1;
    }
    out[0] = add_take(gv, gm);
    if (!out[0]) {
        const ct_tensor_meta *m = ct_f_meta(n, 0);
        out[0] = ct_zeros(m->sizes, m->ndim, m->dtype);
    }
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_var(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return var_family_backward(n, grads, out, false, false); }
int ct_d_std(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return var_family_backward(n, grads, out, true, false); }
int ct_d_var_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return var_family_backward(n, grads, out, false, true); }
int ct_d_std_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return var_family_backward(n, grads, out, true, true); }

/* ---- element-wise helpers for the formulas computed here ---- */

/* a new contiguous tensor of self's shape and dtype dt whose elements are f(i), i the logical
 * index, with a, b, c (each broadcast to self's shape, may be NULL) read as doubles */
typedef double (*elem3_fn)(double a, double b, double c, void *ctx);
static ct_tensor *map3(const ct_tensor_meta *m, ct_dtype dt, ct_tensor *a, ct_tensor *b, ct_tensor *c, elem3_fn f, void *ctx) {
    ct_tensor *in[3] = {a, b, c}, *ex[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (!in[k]) continue;
        ex[k] = ct_expand(in[k], m->sizes, m->ndim, false);
        if (!ex[k]) goto fail;
    }
    ct_tensor *r = ct_tensor_alloc(m->sizes, m->ndim, dt, false);
    if (!r) goto fail;
    char *o = ct_tensor_data_ptr(r);
    for (int64_t i = 0; i < r->numel; i++) {
        double v[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            if (ex[k]) v[k] = ct_elem_load(ct_tensor_elem_ptr(ex[k], i), ex[k]->dtype);
        ct_elem_store(o + (size_t)i * ct_dtype_size(dt), dt, f(v[0], v[1], v[2], ctx));
    }
    for (int k = 0; k < 3; k++) ct_tensor_release(ex[k]);
    return r;
fail:
    for (int k = 0; k < 3; k++) ct_tensor_release(ex[k]);
    return NULL;
}

/* ---- nansum ---- */

static double not_nan_times(double g, double x, double unused, void *ctx) {
    (void)unused;
    (void)ctx;
    return isnan(x) ? 0.0 : g;
}

/* nansum_backward(grad, self, dim, keepdim): sum_backward(grad, ...) * self.isnan().logical_not() */
int ct_d_nansum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    ct_tensor *g = restore_dims(grads[0], &n->args[1], m->ndim, n->args[2].u.b);
    out[0] = g ? map3(m, m->dtype, g, self, NULL, not_nan_times, NULL) : NULL;
    ct_tensor_release(g);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}

/* ---- amax, amin, max, min ---- */

/* scale_grad_by_count(restore(grad), restore(result) == self, dim): (grad / mask.sum(dim, true)) * mask */
static int amax_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    const ct_value *dims = &n->args[1];
    const bool keepdim = n->args[2].u.b;
    /* the arguments as the compiler PyTorch is built with evaluates them: the mask first */
    ct_tensor *r = restore_view(result, dims, self->ndim, keepdim);
    ct_tensor *mask = r ? ct_eq_tensor(r, self) : NULL;
    ct_tensor *g = mask ? restore_view(grads[0], dims, self->ndim, keepdim) : NULL;
    ct_tensor *count = NULL;
    if (g) {
        if (dims->tag == CT_TAG_INTLIST && dims->u.list.len > 0) count = ct_sum_dim(mask, dims->u.list.data, dims->u.list.len, true, CT_DTYPE_UNDEFINED);
        else count = ct_sum_dim(mask, NULL, 0, true, CT_DTYPE_UNDEFINED);
    }
    ct_tensor *q = count ? ct_div(g, count) : NULL;
    out[0] = q ? ct_mul(q, mask) : NULL;
    ct_tensor_release(self);
    ct_tensor_release(result);
    ct_tensor_release(g);
    ct_tensor_release(r);
    ct_tensor_release(mask);
    ct_tensor_release(count);
    ct_tensor_release(q);
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_amax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return amax_backward(n, grads, out); }
int ct_d_amin(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return amax_backward(n, grads, out); }

/* evenly_distribute_backward(grad, self, result): the gradient shared by the elements equal to the
 * result (the NaNs when it is NaN) */
static double equal_mask(double x, double v, double unused, void *ctx) {
    (void)unused;
    (void)ctx;
    return isnan(v) ? isnan(x) : x == v;
}

int ct_d_max_all(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    ct_tensor *mask = map3(m, CT_BOOL, self, result, NULL, equal_mask, NULL);
    ct_tensor *count = mask ? ct_sum_dim(mask, NULL, 0, false, CT_DTYPE_UNDEFINED) : NULL;
    ct_tensor *share = count ? ct_div(grads[0], count) : NULL;
    out[0] = share ? ct_mul(mask, share) : NULL;
    ct_tensor_release(self);
    ct_tensor_release(result);
    ct_tensor_release(mask);
    ct_tensor_release(count);
    ct_tensor_release(share);
    CT_F_NEED(out[0]);
    return 0;
}

/* value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim):
 * zeros(sizes).scatter_(dim, indices, grad), the grad and indices given back dim first */
int ct_d_max_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *indices = NULL;
    if (ct_saved_unpack(n, &n->saved_rets[1], &indices) != 0) return -1;
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const bool keepdim = n->args[2].u.b;
    ct_tensor *g = restore_dims(grads[0], &n->args[1], m->ndim, keepdim);
    ct_tensor *ix = restore_dims(indices, &n->args[1], m->ndim, keepdim);
    ct_tensor_release(indices);
    ct_tensor *r = g && ix ? ct_zeros(m->sizes, m->ndim, g->dtype) : NULL;
    if (r && r->numel > 0) {
        int64_t dim = m->ndim ? (n->args[1].u.i < 0 ? n->args[1].u.i + m->ndim : n->args[1].u.i) : 0;
        int64_t rstrides[CT_MAX_DIMS];
        ct_contiguous_strides(r->sizes, r->ndim, rstrides);
        const size_t es = ct_dtype_size(r->dtype);
        char *o = ct_tensor_data_ptr(r);
        for (int64_t i = 0; i < g->numel; i++) {
            /* the position i of the restored grad, its dim replaced by the index */
            int64_t rem = i, off = 0;
            int64_t at;
            memcpy(&at, ct_tensor_elem_ptr(ix, i), sizeof at);
            for (int d = g->ndim - 1; d >= 0; d--) {
                int64_t c = rem % g->sizes[d];
                rem /= g->sizes[d];
                off += (d == dim ? at : c) * rstrides[d];
            }
            memcpy(o + (size_t)off * es, ct_tensor_elem_ptr(g, i), es);
        }
    }
    ct_tensor_release(g);
    ct_tensor_release(ix);
    CT_F_NEED(out[0] = r);
    return 0;
}

/* ---- prod ---- */

/* prod_backward(grad, self, result[, dim, keepdim]): grad * (result / self) where self has no zero;
 * else prod_safe_zeros_backward, each element's gradient grad times the product of the elements
 * before it (from the first) and of those after it (from the last) in its slice (the whole
 * flattened tensor for prod over everything, where two zeros or more give zeros as PyTorch's
 * first-order path does), computed here line by line */
static ct_tensor *prod_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, const ct_value *dims, bool keepdim) {
    if (self->ndim == 0) return ct_tensor_retain(grad);
    ct_tensor *g = restore_dims(grad, dims, self->ndim, keepdim);
    ct_tensor *res = restore_dims(result, dims, self->ndim, keepdim);
    if (!g || !res) {
        ct_tensor_release(g);
        ct_tensor_release(res);
        return NULL;
    }
    int64_t zeros = 0;
    for (int64_t i = 0; i < self->numel; i++) zeros += ct_elem_load(ct_tensor_elem_ptr(self, i), self->dtype) == 0.0;
    ct_tensor *r = NULL;
    const bool full = dims->tag != CT_TAG_INT;
    if (zeros == 0) {
        ct_tensor *q = ct_div(res, self);
        r = q ? ct_mul(g, q) : NULL;
        ct_tensor_release(q);
    } else if (full && zeros > 1) {
        r = ct_zeros_like(self, g->dtype, CT_MEMORY_FORMAT_NONE);
    } else {
        ct_tensor *ge = ct_expand(g, self->sizes, self->ndim, false);
        r = ge ? ct_tensor_alloc(self->sizes, self->ndim, g->dtype, false) : NULL;
        const int64_t dim = full ? 0 : (dims->u.i < 0 ? dims->u.i + self->ndim : dims->u.i);
        int64_t outer = 1, inner = 1, len = self->numel;
        if (!full) {
            ct_dim_outer_inner(self, (int)dim, &outer, &inner);
            len = self->sizes[dim];
        }
        double *left = r ? ct_malloc(sizeof(double) * (size_t)(2 * len + 1)) : NULL;
        if (r && !left) {
            ct_tensor_release(r);
            r = NULL;
        }
        const ct_dtype dt = r ? r->dtype : CT_FLOAT32;
        char *dst = r ? ct_tensor_data_ptr(r) : NULL;
        for (int64_t o = 0; r && o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                double *right = left + len;
#define PX(k) (full ? ct_elem_load(ct_tensor_elem_ptr(self, (k)), self->dtype) : ct_elem_ld(self, ct_dim_offset(self, (int)dim, o, i, (k))))
#define PG(k) (full ? ct_elem_load(ct_tensor_elem_ptr(ge, (k)), ge->dtype) : ct_elem_ld(ge, ct_dim_offset(ge, (int)dim, o, i, (k))))
                double acc = 1.0;
                for (int64_t k = 0; k < len; k++) { /* exclusive products, each rounded as cumprod stores it */
                    char t[16] = {0};
                    ct_elem_store(t, dt, acc);
                    left[k] = ct_elem_load(t, dt);
                    acc *= PX(k);
                }
                acc = 1.0;
                for (int64_t k = len - 1; k >= 0; k--) {
                    char t[16] = {0};
                    ct_elem_store(t, dt, acc);
                    right[k] = ct_elem_load(t, dt);
                    acc *= PX(k);
                }
                for (int64_t k = 0; k < len; k++) {
                    char t[16] = {0};
                    ct_elem_store(t, dt, left[k] * right[k]);
                    const double v = PG(k) * ct_elem_load(t, dt);
                    ct_elem_store(dst + (size_t)((o * len + k) * inner + i) * ct_dtype_size(dt), dt, v);
                }
#undef PX
#undef PG
            }
        ct_free(left);
        ct_tensor_release(ge);
    }
    ct_tensor_release(g);
    ct_tensor_release(res);
    return r;
}

static int prod_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, const ct_value *dims, bool keepdim) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = prod_backward(grads[0], self, result, dims, keepdim);
    ct_tensor_release(self);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_prod(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_value none = ct_none();
    return prod_formula(n, grads, out, &none, false);
}

int ct_d_prod_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return prod_formula(n, grads, out, &n->args[1], n->args[2].u.b);
}

/* ---- logsumexp ---- */

static double lse_grad(double g, double x, double r, void *ctx) {
    (void)ctx;
    return g * exp(x - r);
}

/* logsumexp_backward(grad, self, result, dim, keepdim): grad * (self - result).exp(), both given
 * back the reduced dims */
int ct_d_logsumexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    const bool keepdim = n->args[2].u.b;
    ct_tensor *g = restore_dims(grads[0], &n->args[1], self->ndim, keepdim);
    ct_tensor *r = restore_dims(result, &n->args[1], self->ndim, keepdim);
    out[0] = g && r ? map3(ct_f_meta(n, 0), result->dtype, g, self, r, lse_grad, NULL) : NULL;
    ct_tensor_release(self);
    ct_tensor_release(result);
    ct_tensor_release(g);
    ct_tensor_release(r);
    CT_F_NEED(out[0]);
    return 0;
}

/* ---- scans: cumsum, cumprod, logcumsumexp (line by line along dim) ---- */

typedef enum scan_grad { SG_CUMSUM, SG_CUMPROD, SG_LOGCUMSUMEXP } scan_grad;

/* the gradient of a scan of x (NULL for cumsum) along dim, given grad and the scan's result */
static ct_tensor *scan_backward(ct_tensor *grad, ct_tensor *x, ct_tensor *result, int64_t dim_arg, ct_dtype dt, scan_grad kind) {
    const int ndim = grad->ndim;
    const int64_t dim = ndim ? (dim_arg < 0 ? dim_arg + ndim : dim_arg) : 0;
    ct_tensor *r = ct_tensor_alloc(grad->sizes, ndim, dt, false);
    if (!r || r->numel == 0) return r;
    const int64_t len = ndim ? grad->sizes[dim] : 1;
    int64_t outer = 1, inner = 1;
    if (ndim) ct_dim_outer_inner(grad, (int)dim, &outer, &inner);
    double *gl = ct_malloc(sizeof(double) * (size_t)len * 3);
    if (!gl) {
        ct_tensor_release(r);
        return NULL;
    }
    double *xl = gl + len, *rl = gl + 2 * len;
    char *dst = ct_tensor_data_ptr(r);
    const size_t es = ct_dtype_size(dt);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            for (int64_t k = 0; k < len; k++) {
                gl[k] = ct_elem_ld(grad, ct_dim_offset(grad, (int)dim, o, i, k));
                if (x) xl[k] = ct_elem_ld(x, ct_dim_offset(x, (int)dim, o, i, k));
                if (result) rl[k] = ct_elem_ld(result, ct_dim_offset(result, (int)dim, o, i, k));
            }
            for (int64_t k = 0; k < len; k++) {
                double s = 0.0;
                if (kind == SG_CUMSUM) {
                    for (int64_t j = k; j < len; j++) s += gl[j];
                } else if (kind == SG_CUMPROD) {
                    /* cumprod_backward: before the line's first zero z1, the reversed cumsum of
                     * output * grad (up to z1) over self; at z1, the products of the elements
                     * after it up to the second zero times the grads, times output[z1 - 1];
                     * after it, 0 */
                    int64_t z1 = 0;
                    while (z1 < len && xl[z1] != 0.0) z1++;
                    if (k < z1) {
                        for (int64_t j = k; j < z1; j++) s += rl[j] * gl[j];
                        s /= xl[k];
                    } else if (k == z1) {
                        double p = 1.0;
                        for (int64_t j = z1; j < len; j++) {
                            if (j > z1) {
                                if (xl[j] == 0.0) break;
                                p *= xl[j];
                            }
                            s += p * gl[j];
                        }
                        s *= z1 > 0 ? rl[z1 - 1] : 1.0;
                    }
                } else {
                    for (int64_t j = k; j < len; j++) s += gl[j] * exp(xl[k] - rl[j]);
                }
                ct_elem_store(dst + (size_t)((o * len + k) * inner + i) * es, dt, s);
            }
        }
    ct_free(gl);
    return r;
}

int ct_d_cumsum(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* cumsum_backward(grad.to(self.scalar_type()), dim): the reversed cumsum */
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const int64_t dim = m->ndim ? (ct_f_iarg(n, 1) < 0 ? ct_f_iarg(n, 1) + m->ndim : ct_f_iarg(n, 1)) : 0;
    if (grads[0]->numel <= 1 || (m->ndim && m->sizes[dim] == 1)) {
        CT_F_NEED(out[0] = grads[0]->dtype == m->dtype ? ct_tensor_retain(grads[0])
                                                        : ct_to_dtype(grads[0], m->dtype, false, false, CT_MEMORY_FORMAT_NONE));
        return 0;
    }
    CT_F_NEED(out[0] = scan_backward(grads[0], NULL, NULL, ct_f_iarg(n, 1), m->dtype, SG_CUMSUM));
    return 0;
}

static int scan_formula(ct_node *n, ct_tensor *const *grads, ct_tensor **out, scan_grad kind) {
    ct_tensor *self = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = scan_backward(grads[0], self, result, ct_f_iarg(n, 1), ct_f_meta(n, 0)->dtype, kind);
    ct_tensor_release(self);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_cumprod(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* cumprod_backward's path for inputs with zeros masked_scatters the gradient in self's dtype
     * into one of grad's: PyTorch refuses a cumprod whose dtype= differs from self's there */
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    if (grads[0]->dtype != m->dtype) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        bool zero = false;
        for (int64_t i = 0; i < self->numel && !zero; i++) zero = ct_elem_load(ct_tensor_elem_ptr(self, i), self->dtype) == 0.0;
        ct_tensor_release(self);
        if (zero)
            return ct_error_set(CT_ERR_RUNTIME, "masked_scatter: expected self and source to have same dtypes but got%s and %s",
                                ct_dtype_name(m->dtype), ct_dtype_name(grads[0]->dtype));
    }
    return scan_formula(n, grads, out, SG_CUMPROD);
}
int ct_d_logcumsumexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return scan_formula(n, grads, out, SG_LOGCUMSUMEXP); }
