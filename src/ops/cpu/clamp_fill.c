/* The Tensor overloads of clamp (TensorCompare.cpp: clamp.Tensor, clamp_min.Tensor,
 * clamp_max.Tensor and their in-place forms), the functional copy and fill (Copy.cpp, Fill.cpp),
 * fill_.Tensor and masked_fill.Tensor / masked_fill_.Tensor (Indexing.cpp). Messages are
 * PyTorch 2.6's.
 *
 * The clamps build one iterator over self and the bounds, promoted to their common dtype (a
 * 0-dim bound takes part as a lower category, as TensorIterator's type promotion has it), and
 * return max(min(x, hi)...) as std::min(std::max(x, lo), hi): a NaN anywhere gives NaN. */
#include <math.h>
#include <string.h>

#include "ops/api_call.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

/* ---- clamp.Tensor ---------------------------------------------------------------------------- */

typedef struct clamp_ctx {
    ct_dtype d;
    bool has_lo, has_hi;
} clamp_ctx;

static void clamp_elem(char **p, void *vctx) {
    const clamp_ctx *c = vctx;
    const char *lo = c->has_lo ? p[2] : NULL, *hi = c->has_hi ? p[c->has_lo ? 3 : 2] : NULL;
    if (ct_dtype_is_integral(c->d, false)) {
        int64_t x = ct_elem_load_int64(p[1], c->d);
        if (lo) {
            int64_t l = ct_elem_load_int64(lo, c->d);
            x = x < l ? l : x;
        }
        if (hi) {
            int64_t h = ct_elem_load_int64(hi, c->d);
            x = h < x ? h : x;
        }
        ct_elem_store_int64(p[0], c->d, x);
    } else {
        double x = ct_elem_load(p[1], c->d);
        double l = lo ? ct_elem_load(lo, c->d) : 0, h = hi ? ct_elem_load(hi, c->d) : 0;
        if (lo && hi && (isnan(l) || isnan(h))) x = NAN;
        else {
            if (lo) x = isnan(x) || isnan(l) ? (isnan(x) ? x : l) : (x < l ? l : x);
            if (hi) x = isnan(x) || isnan(h) ? (isnan(x) ? x : h) : (h < x ? h : x);
        }
        ct_elem_store(p[0], c->d, x);
    }
}

/* self clamped to [lo, hi] (either may be NULL); into self when in_place */
static int clamp_tensor(ct_tensor *self, ct_tensor *lo, ct_tensor *hi, bool in_place, const char *kname, ct_value *rets) {
    if (!lo && !hi) return ct_error_set(CT_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
    ct_tensor *ins[3];
    int nin = 0;
    ins[nin++] = self;
    if (lo) ins[nin++] = lo;
    if (hi) ins[nin++] = hi;
    int64_t shape[CT_MAX_DIMS];
    int nd = self->ndim;
    memcpy(shape, self->sizes, sizeof(int64_t) * (size_t)nd);
    for (int i = 1; i < nin; i++) {
        int64_t tmp[CT_MAX_DIMS];
        int nt;
        if (ct_broadcast_shapes(shape, nd, ins[i]->sizes, ins[i]->ndim, tmp, &nt) != 0) return -1;
        memcpy(shape, tmp, sizeof(int64_t) * (size_t)nt);
        nd = nt;
    }
    ct_dtype common = ct_result_type_n(ins, nin);
    if (in_place) {
        if (ct_assert_no_internal_overlap(self) != 0 || ct_check_output_shape(self, shape, nd) != 0) return -1;
        if (!ct_dtype_can_cast(common, self->dtype))
            return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(common),
                                ct_dtype_name(self->dtype));
    }
    /* one bound: maximum / minimum, which take bool (logical or / and) */
    if (common == CT_BOOL && lo && hi) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for 'Bool'", kname);
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, in_place ? self : NULL, ins, nin, common, true) != 0) return -1;
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(shape, nd, common, (const ct_tensor *const *)k.in, nin);
        if (!out) return ct_iter_cast_end(&k, -1);
    }
    if (out->numel) {
        int64_t strides[4][CT_MAX_DIMS];
        char *bases[4];
        size_t es[4];
        ct_broadcast_strides(out, shape, nd, strides[0]);
        bases[0] = ct_tensor_data_ptr(out);
        es[0] = ct_dtype_size(common);
        for (int i = 0; i < nin; i++) {
            ct_broadcast_strides(k.in[i], shape, nd, strides[i + 1]);
            bases[i + 1] = ct_tensor_data_ptr(k.in[i]);
            es[i + 1] = ct_dtype_size(common);
        }
        clamp_ctx c = {common, lo != NULL, hi != NULL};
        ct_for_each(shape, nd, nin + 1, bases, strides, es, clamp_elem, &c);
    }
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!in_place) ct_tensor_release(out);
        return -1;
    }
    if (in_place) {
        ct_bump_version(self);
        return ct_ret_self(rets, self);
    }
    return ct_ret(rets, 0, out);
}

/* clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor */
int ct_k_clamp_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return clamp_tensor(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), false, "clamp_cpu", rets);
}
int ct_k_clamp__tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return clamp_tensor(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), true, "clamp_cpu", rets);
}
/* clamp_min.Tensor(Tensor self, Tensor min) -> Tensor */
int ct_k_clamp_min_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return clamp_tensor(ARG_T(0), ARG_T(1), NULL, false, "clamp_min_cpu", rets);
}
/* clamp_max.Tensor(Tensor self, Tensor max) -> Tensor */
int ct_k_clamp_max_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return clamp_tensor(ARG_T(0), NULL, ARG_T(1), false, "clamp_max_cpu", rets);
}

/* ---- copy, fill ------------------------------------------------------------------------------ */

/* copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor (CompositeExplicitAutogradNonFunctional):
 * self.clone().copy_(src) */
int ct_k_copy(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *r = ct_clone(ARG_T(0), CT_MEMORY_FORMAT_NONE);
    if (!r) return -1;
    if (ct_copy_(r, ARG_T(1), ARG_B(2)) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}

/* fill.Scalar(Tensor self, Scalar value) -> Tensor (CompositeExplicitAutograd): empty_like(self).fill_(value) */
int ct_k_fill_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *r = ct_empty_like(ARG_T(0), CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    if (!r) return -1;
    if (ct_fill_(r, args[1]) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}

static int fill_from_tensor(ct_tensor *self, ct_tensor *value) {
    if (value->ndim != 0)
        return ct_error_set(CT_ERR_RUNTIME, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.",
                            value->ndim);
    if (value->storage == self->storage) { /* a view of self: cloned first */
        ct_tensor *c = ct_clone(value, CT_MEMORY_FORMAT_NONE);
        if (!c) return -1;
        int rc = ct_copy_(self, c, false);
        ct_tensor_release(c);
        return rc;
    }
    return ct_copy_(self, value, false);
}

/* fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!): self.copy_(value) for a 0-dim value */
int ct_k_fill__tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (fill_from_tensor(self, ARG_T(1)) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* fill.Tensor(Tensor self, Tensor value) -> Tensor: empty_like(self).fill_(value) */
int ct_k_fill_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *r = ct_empty_like(ARG_T(0), CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    if (!r) return -1;
    if (ct_fill__tensor(r, ARG_T(1)) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}

/* ---- masked_fill.Tensor ---------------------------------------------------------------------- */

/* the 0-dim value tensor's element as a Scalar (value.item()) */
static int item_of(const ct_tensor *v, ct_scalar *out) {
    const void *p = ct_tensor_data_ptr(v);
    if (v->dtype == CT_BOOL) *out = ct_bool(*(const uint8_t *)p != 0);
    else if (ct_dtype_is_integral(v->dtype, false)) *out = ct_int(ct_elem_load_int64(p, v->dtype));
    else *out = ct_double(ct_elem_load(p, v->dtype));
    return 0;
}

/* masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value): masked_fill_.Scalar with value.item() */
int ct_k_masked_fill__tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *value = ARG_T(2);
    if (value->ndim != 0)
        return ct_error_set(CT_ERR_RUNTIME, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                            value->ndim);
    ct_scalar v;
    item_of(value, &v);
    ct_value a[3] = {ct_tensor_value(self), args[1], v};
    ct_value r[1] = {ct_none()};
    if (ct_k_masked_fill_(op, ks, a, r) != 0) return -1;
    rets[0] = r[0];
    return 0;
}

/* masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor (CompositeExplicitAutograd):
 * expand_outplace(mask, self), a contiguous clone, masked_fill_.Tensor */
int ct_k_masked_fill_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1);
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(mask->sizes, mask->ndim, self->sizes, self->ndim, shape, &n) != 0) return -1;
    bool same = n == self->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == self->sizes[i];
    ct_tensor *expanded = same ? ct_tensor_retain(self) : ct_expand(self, shape, n, false);
    if (!expanded) return -1;
    ct_tensor *r = ct_clone(expanded, CT_CONTIGUOUS_FORMAT);
    ct_tensor_release(expanded);
    if (!r) return -1;
    if (ct_masked_fill__tensor(r, mask, ARG_T(2)) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}
