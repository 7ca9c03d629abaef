/* Backward formulas of the scatter and padding family (derivatives.yaml: scatter.src,
 * scatter.value, scatter_add, scatter_reduce.two, gather, masked_scatter, select_scatter,
 * slice_scatter, diagonal_scatter, constant_pad_nd, reflection_pad*d and replication_pad*d with
 * their backward ops, clamp.Tensor, clamp_min.Tensor, clamp_max.Tensor, fill, masked_fill.Tensor;
 * FunctionsManual.cpp: scatter_reduce_backward, clamp_backward, clamp_backward_min_max,
 * masked_fill_backward, constant_pad_nd_backward). Each calls ops in the order PyTorch's
 * generated code does (Note [Formula order]); where C++ leaves the order of a call's arguments
 * open, GCC's (the last argument first) is PyTorch's. */
#include <string.h>

#include "autograd/formulas.h"
#include "ops/kernel_util.h"

#define UNPACK(var_, slot_)                                                                                                  \
    ct_tensor *var_ = NULL;                                                                                                  \
    if (ct_saved_unpack(n, &(slot_), &var_) != 0) return -1

/* ---- scatter, scatter_add, gather ----------------------------------------------------------- */

/* scatter.src: self: grad.scatter(dim, index, 0); src: grad.gather(dim, index) */
int ct_d_scatter_src(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    UNPACK(index, n->saved_args[2]);
    int64_t dim = ct_f_iarg(n, 1);
    int rc = 0;
    if (ct_node_needs(n, 0) && !(out[0] = ct_scatter_value(grads[0], dim, index, ct_int(0)))) rc = -1;
    if (rc == 0 && ct_node_needs(n, 3) && !(out[3] = ct_gather(grads[0], dim, index, false))) rc = -1;
    ct_tensor_release(index);
    return rc;
}

/* scatter.value: self: grad.scatter(dim, index, 0) */
int ct_d_scatter_value(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    UNPACK(index, n->saved_args[2]);
    out[0] = ct_scatter_value(grads[0], ct_f_iarg(n, 1), index, ct_int(0));
    ct_tensor_release(index);
    CT_F_NEED(out[0]);
    return 0;
}

/* scatter_add: self: grad; src: grad.gather(dim, index) */
int ct_d_scatter_add(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    if (ct_node_needs(n, 3)) {
        UNPACK(index, n->saved_args[2]);
        out[3] = ct_gather(grads[0], ct_f_iarg(n, 1), index, false);
        ct_tensor_release(index);
        CT_F_NEED(out[3]);
    }
    return 0;
}

/* gather: self: gather_backward(grad, self, dim, index, sparse_grad) */
int ct_d_gather(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    UNPACK(self, n->saved_args[0]);
    ct_tensor *index = NULL;
    if (ct_saved_unpack(n, &n->saved_args[2], &index) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    out[0] = ct_gather_backward(grads[0], self, ct_f_iarg(n, 1), index, n->args[3].u.b);
    ct_tensor_release(self);
    ct_tensor_release(index);
    CT_F_NEED(out[0]);
    return 0;
}

/* ---- scatter_reduce.two --------------------------------------------------------------------- */

/* a tiny arena: every intermediate released at the end */
typedef struct keep {
    ct_tensor *t[40];
    int n;
    bool failed;
} keep;

static ct_tensor *K(keep *k, ct_tensor *t) {
    if (!t) k->failed = true;
    else if (k->n < 40) k->t[k->n++] = t;
    return t;
}
static void keep_release(keep *k) {
    for (int i = 0; i < k->n; i++) ct_tensor_release(k->t[i]);
}

/* scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result) */
int ct_d_scatter_reduce(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    int64_t dim = ct_f_iarg(n, 1);
    const char *reduce = n->args[4].u.s;
    bool include_self = n->args[5].u.b;
    keep k = {{0}, 0, false};
    ct_tensor *self = NULL, *index = NULL, *src = NULL, *result = NULL;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    K(&k, self);
    if (ct_saved_unpack(n, &n->saved_args[2], &index) != 0) goto fail;
    K(&k, index);
    if (ct_saved_unpack(n, &n->saved_args[3], &src) != 0) goto fail;
    K(&k, src);
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) goto fail;
    K(&k, result);
    ct_tensor *gself = NULL, *gsrc = NULL;
    if (strcmp(reduce, "sum") == 0) {
        gself = ct_tensor_retain(grad);
        K(&k, gself);
        gsrc = K(&k, ct_gather(grad, dim, index, false));
    } else if (strcmp(reduce, "prod") == 0) {
        ct_tensor *self_zero = K(&k, ct_eq_scalar(self, ct_int(0)));
        ct_tensor *masked_self = k.failed ? NULL : K(&k, ct_masked_fill(self, self_zero, ct_int(1)));
        ct_tensor *msr = k.failed ? NULL : K(&k, ct_scatter_reduce_two(masked_self, dim, index, src, reduce, include_self));
        ct_tensor *gm = k.failed ? NULL : K(&k, ct_mul(grad, msr));
        gself = k.failed ? NULL : K(&k, ct_div(gm, masked_self));
        ct_tensor *src_zero = k.failed ? NULL : K(&k, ct_eq_scalar(src, ct_int(0)));
        ct_tensor *zl = k.failed ? NULL : K(&k, ct_zeros_like(self, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
        ct_tensor *szf = k.failed ? NULL : K(&k, ct_to_dtype(src_zero, self->dtype, false, false, CT_MEMORY_FORMAT_NONE));
        ct_tensor *cnt = k.failed ? NULL : K(&k, ct_scatter_add(zl, dim, index, szf));
        ct_tensor *nz = k.failed ? NULL : K(&k, ct_gather(cnt, dim, index, false));
        ct_tensor *one = k.failed ? NULL : K(&k, ct_eq_scalar(nz, ct_int(1)));
        ct_tensor *single = k.failed ? NULL : K(&k, ct_bitwise_and_tensor(src_zero, one));
        ct_tensor *masked_src = k.failed ? NULL : K(&k, ct_masked_fill(src, single, ct_int(1)));
        ct_tensor *msrc_r = k.failed ? NULL : K(&k, ct_scatter_reduce_two(self, dim, index, masked_src, reduce, include_self));
        /* where(single, (grad * msrc_r).gather(), (grad * result).gather() / src.masked_fill(src_zero, 1)):
         * the last argument first, and within it the divisor first */
        ct_tensor *den = k.failed ? NULL : K(&k, ct_masked_fill(src, src_zero, ct_int(1)));
        ct_tensor *gr = k.failed ? NULL : K(&k, ct_mul(grad, result));
        ct_tensor *grg = k.failed ? NULL : K(&k, ct_gather(gr, dim, index, false));
        ct_tensor *other = k.failed ? NULL : K(&k, ct_div(grg, den));
        ct_tensor *gm2 = k.failed ? NULL : K(&k, ct_mul(grad, msrc_r));
        ct_tensor *gm2g = k.failed ? NULL : K(&k, ct_gather(gm2, dim, index, false));
        gsrc = k.failed ? NULL : K(&k, ct_where(single, gm2g, other));
    } else if (strcmp(reduce, "mean") == 0) {
        ct_tensor *N0 = K(&k, include_self ? ct_ones_like(grad, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE)
                                           : ct_zeros_like(grad, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
        ct_tensor *os = k.failed ? NULL : K(&k, ct_ones_like(src, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
        ct_tensor *N = k.failed ? NULL : K(&k, ct_scatter_add(N0, dim, index, os));
        ct_tensor *z = k.failed ? NULL : K(&k, ct_eq_scalar(N, ct_int(0)));
        if (!k.failed && ct_masked_fill_(N, z, ct_int(1)) != 0) k.failed = true;
        gself = k.failed ? NULL : K(&k, ct_div(grad, N));
        ct_tensor *Ns = k.failed ? NULL : K(&k, ct_gather(N, dim, index, false));
        ct_tensor *gg = k.failed ? NULL : K(&k, ct_gather(grad, dim, index, false));
        gsrc = k.failed ? NULL : K(&k, ct_div(gg, Ns));
    } else if (strcmp(reduce, "amax") == 0 || strcmp(reduce, "amin") == 0) {
        ct_tensor *value = K(&k, ct_gather(result, dim, index, false));
        ct_tensor *e1 = k.failed ? NULL : K(&k, ct_eq_tensor(self, result));
        ct_tensor *sir = k.failed ? NULL : K(&k, ct_to_dtype(e1, self->dtype, false, false, CT_MEMORY_FORMAT_NONE));
        ct_tensor *e2 = k.failed ? NULL : K(&k, ct_eq_tensor(src, value));
        ct_tensor *srr = k.failed ? NULL : K(&k, ct_to_dtype(e2, self->dtype, false, false, CT_MEMORY_FORMAT_NONE));
        ct_tensor *Nd = k.failed ? NULL : K(&k, ct_scatter_add(sir, dim, index, srr));
        ct_tensor *gd = k.failed ? NULL : K(&k, ct_div(grad, Nd));
        ct_tensor *e3 = k.failed ? NULL : K(&k, ct_eq_tensor(self, result));
        gself = k.failed ? NULL : K(&k, ct_mul(e3, gd));
        ct_tensor *gdg = k.failed ? NULL : K(&k, ct_gather(gd, dim, index, false));
        ct_tensor *e4 = k.failed ? NULL : K(&k, ct_eq_tensor(src, value));
        gsrc = k.failed ? NULL : K(&k, ct_mul(e4, gdg));
    } else {
        ct_error_set(CT_ERR_RUNTIME, "ctorch: scatter_reduce's backward for reduce=%s", reduce); /* the forward refused it */
        goto fail;
    }
    if (k.failed) goto fail;
    if (!include_self) {
        gself = K(&k, ct_scatter_value(gself, dim, index, ct_int(0)));
        if (k.failed) goto fail;
    }
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(gself);
    if (ct_node_needs(n, 3)) out[3] = ct_tensor_retain(gsrc);
    keep_release(&k);
    return 0;
fail:
    keep_release(&k);
    return -1;
}

/* ---- masked_scatter, the view-replay inverses ----------------------------------------------- */

/* masked_scatter: self: grad.masked_fill(mask, 0); source: masked_scatter_backward(grad, mask, source.sizes()) */
int ct_d_masked_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    UNPACK(mask, n->saved_args[1]);
    int rc = 0;
    if (ct_node_needs(n, 0) && !(out[0] = ct_masked_fill(grads[0], mask, ct_int(0)))) rc = -1;
    if (rc == 0 && ct_node_needs(n, 2)) {
        const ct_tensor_meta *m = ct_f_meta(n, 2);
        if (!(out[2] = ct_masked_scatter_backward(grads[0], mask, m->sizes, m->ndim))) rc = -1;
    }
    ct_tensor_release(mask);
    return rc;
}

/* the zeros standing for src: at::zeros(src.sizes(), grad.options()) */
static ct_tensor *zeros_for_src(ct_node *n, const ct_tensor *grad) {
    const ct_tensor_meta *m = ct_f_meta(n, 1);
    return ct_zeros(m->sizes, m->ndim, grad->dtype);
}

/* select_scatter: self: select_scatter(grad, zeros(src), dim, index); src: grad.select(dim, index) */
int ct_d_select_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    int64_t dim = ct_f_iarg(n, 2), index = ct_f_iarg(n, 3);
    if (ct_node_needs(n, 0)) {
        ct_tensor *z = zeros_for_src(n, grads[0]);
        CT_F_NEED(z);
        out[0] = ct_select_scatter(grads[0], z, dim, index);
        ct_tensor_release(z);
        CT_F_NEED(out[0]);
    }
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = ct_select(grads[0], dim, index));
    return 0;
}

/* slice_scatter: self: slice_scatter(grad, zeros(src), dim, start, end, step); src: grad.slice(dim, start, end, step) */
int ct_d_slice_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    int64_t dim = ct_f_iarg(n, 2), step = ct_f_iarg(n, 5);
    const int64_t *start = n->args[3].tag == CT_TAG_NONE ? NULL : &n->args[3].u.i;
    const int64_t *end = n->args[4].tag == CT_TAG_NONE ? NULL : &n->args[4].u.i;
    if (ct_node_needs(n, 0)) {
        ct_tensor *z = zeros_for_src(n, grads[0]);
        CT_F_NEED(z);
        out[0] = ct_slice_scatter(grads[0], z, dim, start, end, step);
        ct_tensor_release(z);
        CT_F_NEED(out[0]);
    }
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = ct_slice(grads[0], dim, start, end, step));
    return 0;
}

/* diagonal_scatter: self: diagonal_scatter(grad, zeros(src), offset, dim1, dim2); src: grad.diagonal(offset, dim1, dim2) */
int ct_d_diagonal_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    int64_t off = ct_f_iarg(n, 2), d1 = ct_f_iarg(n, 3), d2 = ct_f_iarg(n, 4);
    if (ct_node_needs(n, 0)) {
        ct_tensor *z = zeros_for_src(n, grads[0]);
        CT_F_NEED(z);
        out[0] = ct_diagonal_scatter(grads[0], z, off, d1, d2);
        ct_tensor_release(z);
        CT_F_NEED(out[0]);
    }
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = ct_diagonal(grads[0], off, d1, d2));
    return 0;
}

/* as_strided_scatter, for a contiguous self and src as PyTorch supports it (Note [as_strided_scatter
 * backward support]): self: as_strided_scatter_backward, zeros of self's shape holding grad's
 * elements of the written region and nothing else; src: grad.contiguous().as_strided(size,
 * stride, storage_offset) */
int ct_d_as_strided_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_value *size = &n->args[2], *stride = &n->args[3];
    const int64_t *off = n->args[4].tag == CT_TAG_NONE ? NULL : &n->args[4].u.i;
    ct_tensor *g = ct_contiguous(grads[0], CT_CONTIGUOUS_FORMAT);
    CT_F_NEED(g);
    ct_tensor *slice = ct_as_strided(g, size->u.list.data, size->u.list.len, stride->u.list.data, stride->u.list.len, off);
    int rc = slice ? 0 : -1;
    if (rc == 0 && ct_node_needs(n, 0)) {
        const ct_tensor_meta *m = ct_f_meta(n, 0);
        ct_tensor *z = ct_new_zeros(g, m->sizes, m->ndim, CT_DTYPE_UNDEFINED);
        out[0] = z ? ct_as_strided_scatter(z, slice, size->u.list.data, size->u.list.len, stride->u.list.data, stride->u.list.len, off)
                   : NULL;
        ct_tensor_release(z);
        if (!out[0]) rc = -1;
    }
    if (rc == 0 && ct_node_needs(n, 1) && !(out[1] = ct_clone(slice, CT_MEMORY_FORMAT_NONE))) rc = -1;
    ct_tensor_release(slice);
    ct_tensor_release(g);
    return rc;
}

/* ---- padding -------------------------------------------------------------------------------- */

/* constant_pad_nd: constant_pad_nd_backward(grad, pad) = constant_pad_nd(grad, -pad, 0) */
int ct_d_constant_pad_nd(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_value *pad = &n->args[1];
    int64_t neg[2 * CT_MAX_DIMS];
    int64_t np = pad->u.list.len;
    if (np > 2 * CT_MAX_DIMS) return ct_error_set(CT_ERR_RUNTIME, "ctorch: pad too long");
    for (int64_t i = 0; i < np; i++) neg[i] = -pad->u.list.data[i];
    CT_F_NEED(out[0] = ct_constant_pad_nd(grads[0], neg, np, ct_int(0)));
    return 0;
}

typedef ct_tensor *(*pad_bw_fn)(ct_tensor *, ct_tensor *, const int64_t *, int64_t);
typedef ct_tensor *(*pad_fw_fn)(ct_tensor *, const int64_t *, int64_t);

static int pad_d(ct_node *n, ct_tensor *const *grads, ct_tensor **out, pad_bw_fn bw) {
    UNPACK(self, n->saved_args[0]);
    out[0] = bw(grads[0], self, n->args[1].u.list.data, n->args[1].u.list.len);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}

/* *_backward: grad_output: the pad of grad; self: zeros_like(self) */
static int pad_bw_d(ct_node *n, ct_tensor *const *grads, ct_tensor **out, pad_fw_fn fw) {
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = fw(grads[0], n->args[2].u.list.data, n->args[2].u.list.len));
    if (ct_node_needs(n, 1)) {
        UNPACK(self, n->saved_args[1]);
        out[1] = ct_zeros_like(self, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(self);
        CT_F_NEED(out[1]);
    }
    return 0;
}

#define PAD_FORMULAS(kind, k)                                                                     \
    int ct_d_##kind##_pad##k##d(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {          \
        return pad_d(n, grads, out, ct_##kind##_pad##k##d_backward);                             \
    }                                                                                             \
    int ct_d_##kind##_pad##k##d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { \
        return pad_bw_d(n, grads, out, ct_##kind##_pad##k##d);                                   \
    }

PAD_FORMULAS(reflection, 1)
PAD_FORMULAS(reflection, 2)
PAD_FORMULAS(reflection, 3)
PAD_FORMULAS(replication, 1)
PAD_FORMULAS(replication, 2)
PAD_FORMULAS(replication, 3)

/* ---- clamp.Tensor, clamp_min.Tensor, clamp_max.Tensor --------------------------------------- */

static ct_tensor *saved_opt(ct_node *n, int i, bool *failed) {
    ct_tensor *t = NULL;
    if (ct_saved_unpack(n, &n->saved_args[i], &t) != 0) *failed = true;
    return t;
}

/* ClampBackward0: min, max: clamp_backward_min_max(grad, self, min, max, mask); self: clamp_backward(grad, self, min, max) */
int ct_d_clamp_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *grad = grads[0];
    bool failed = false;
    keep k = {{0}, 0, false};
    ct_tensor *self = saved_opt(n, 0, &failed);
    K(&k, self);
    ct_tensor *lo = ct_node_needs(n, 1) || ct_node_needs(n, 0) ? saved_opt(n, 1, &failed) : NULL;
    if (lo) K(&k, lo);
    ct_tensor *hi = ct_node_needs(n, 2) || ct_node_needs(n, 0) ? saved_opt(n, 2, &failed) : NULL;
    if (hi) K(&k, hi);
    if (failed || k.failed) goto fail;
    if (ct_node_needs(n, 1) || ct_node_needs(n, 2)) {
        ct_tensor *zero = K(&k, ct_f_scalar_like(0.0, grad));
        if (k.failed) goto fail;
        if (lo && hi) {
            if (ct_node_needs(n, 1)) {
                ct_tensor *a = K(&k, ct_lt_tensor(self, lo));
                ct_tensor *b = k.failed ? NULL : K(&k, ct_lt_tensor(lo, hi));
                ct_tensor *m = k.failed ? NULL : K(&k, ct_logical_and(a, b));
                if (!k.failed) out[1] = ct_where(m, grad, zero);
                if (!out[1]) goto fail;
            }
            if (ct_node_needs(n, 2)) {
                ct_tensor *a = K(&k, ct_gt_tensor(self, hi));
                ct_tensor *b = k.failed ? NULL : K(&k, ct_lt_tensor(hi, lo));
                ct_tensor *m = k.failed ? NULL : K(&k, ct_logical_or(a, b));
                if (!k.failed) out[2] = ct_where(m, grad, zero);
                if (!out[2]) goto fail;
            }
        } else if (lo && ct_node_needs(n, 1)) {
            ct_tensor *m = K(&k, ct_lt_tensor(self, lo));
            if (!k.failed) out[1] = ct_where(m, grad, zero);
            if (!out[1]) goto fail;
        } else if (hi && ct_node_needs(n, 2)) {
            ct_tensor *m = K(&k, ct_gt_tensor(self, hi));
            if (!k.failed) out[2] = ct_where(m, grad, zero);
            if (!out[2]) goto fail;
        }
    }
    if (ct_node_needs(n, 0)) {
        if (!lo && !hi) {
            out[0] = ct_tensor_retain(grad);
        } else {
            ct_tensor *zero = K(&k, ct_f_scalar_like(0.0, grad));
            ct_tensor *m = NULL;
            if (lo && hi) {
                ct_tensor *a = k.failed ? NULL : K(&k, ct_ge_tensor(self, lo));
                ct_tensor *b = k.failed ? NULL : K(&k, ct_le_tensor(self, hi));
                m = k.failed ? NULL : K(&k, ct_logical_and(a, b));
            } else if (lo) {
                m = k.failed ? NULL : K(&k, ct_ge_tensor(self, lo));
            } else {
                m = k.failed ? NULL : K(&k, ct_le_tensor(self, hi));
            }
            if (!k.failed) out[0] = ct_where(m, grad, zero);
            if (!out[0]) goto fail;
        }
    }
    keep_release(&k);
    return 0;
fail:
    keep_release(&k);
    return -1;
}

/* clamp_min.Tensor: min: where(self < min, grad, 0); self: where(self >= min, grad, 0).
 * clamp_max.Tensor: max: where(self > max, grad, 0); self: where(self <= max, grad, 0). */
static int clamp_one(ct_node *n, ct_tensor *const *grads, ct_tensor **out, bool is_min) {
    ct_tensor *grad = grads[0];
    UNPACK(self, n->saved_args[0]);
    ct_tensor *bound = NULL;
    if (ct_saved_unpack(n, &n->saved_args[1], &bound) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    int rc = 0;
    for (int which = 1; which >= 0 && rc == 0; which--) {
        if (!ct_node_needs(n, which)) continue;
        /* where(mask, grad, scalar_tensor(0)): the zero first (the last argument) */
        ct_tensor *zero = ct_f_scalar_like(0.0, grad);
        ct_tensor *m = !zero ? NULL
                       : which == 1 ? (is_min ? ct_lt_tensor(self, bound) : ct_gt_tensor(self, bound))
                                    : (is_min ? ct_ge_tensor(self, bound) : ct_le_tensor(self, bound));
        out[which] = m ? ct_where(m, grad, zero) : NULL;
        ct_tensor_release(m);
        ct_tensor_release(zero);
        if (!out[which]) rc = -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(bound);
    return rc;
}
int ct_d_clamp_min_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return clamp_one(n, grads, out, true); }
int ct_d_clamp_max_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return clamp_one(n, grads, out, false); }

/* copy_: CopyBackwards (torch/csrc/autograd/functions/tensor.cpp): self: zeros_like(grad);
 * src: grad.to(src's dtype) (the engine sums it to src's shape) */
int ct_d_copy_(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_CONTIGUOUS_FORMAT));
    if (ct_node_needs(n, 1)) {
        ct_dtype d = ct_f_meta(n, 1)->dtype;
        out[1] = d == grads[0]->dtype ? ct_tensor_retain(grads[0]) : ct_to_dtype(grads[0], d, false, false, CT_MEMORY_FORMAT_NONE);
        CT_F_NEED(out[1]);
    }
    return 0;
}

/* ---- fill, masked_fill.Tensor --------------------------------------------------------------- */

/* fill.Scalar, fill_.Scalar: self: zeros_like(grad) */
int ct_d_fill_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    return 0;
}

/* fill.Tensor, fill_.Tensor: self: zeros_like(grad); value: grad.sum() */
int ct_d_fill_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = ct_sum(grads[0], CT_DTYPE_UNDEFINED));
    return 0;
}

/* masked_fill.Tensor: self: grad.masked_fill(mask, 0); value: masked_fill_backward(grad, mask):
 * where(mask, grad, 0).sum() for subclass-like tensors, grad.masked_select(mask).sum() otherwise */
int ct_d_masked_fill_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    UNPACK(mask, n->saved_args[1]);
    int rc = 0;
    if (ct_node_needs(n, 0) && !(out[0] = ct_masked_fill(grads[0], mask, ct_int(0)))) rc = -1;
    if (rc == 0 && ct_node_needs(n, 2)) {
        ct_tensor *sel;
        if (ct_is_tensor_subclass_like(grads[0]) || ct_is_tensor_subclass_like(mask)) {
            ct_tensor *zero = ct_f_scalar_like(0.0, grads[0]);
            sel = zero ? ct_where(mask, grads[0], zero) : NULL;
            ct_tensor_release(zero);
        } else {
            sel = ct_masked_select(grads[0], mask);
        }
        out[2] = sel ? ct_sum(sel, CT_DTYPE_UNDEFINED) : NULL;
        ct_tensor_release(sel);
        if (!out[2]) rc = -1;
    }
    ct_tensor_release(mask);
    return rc;
}
