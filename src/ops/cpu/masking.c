/* Comparison, masking and indexing kernels the losses need: eq.Scalar, bitwise_not,
 * masked_fill_.Scalar (and the composite masked_fill.Scalar), masked_select (BinaryOps.cpp,
 * UnaryOps.cpp, TensorAdvancedIndexing.cpp); gather is with scatter (scatter.c). Messages are PyTorch 2.6's. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

/* out = f(self) elementwise into a new tensor of dtype `dt` laid out as TensorIterator would */
static int map_unary(ct_tensor *self, ct_dtype dt, ct_elem_fn f, void *ctx, ct_value *rets) {
    const ct_tensor *ins[1] = {self};
    ct_tensor *out = ct_iter_alloc_output(self->sizes, self->ndim, dt, ins, 1);
    if (!out) return -1;
    if (out->numel) {
        int64_t strides[2][CT_MAX_DIMS];
        memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
        memcpy(strides[1], self->strides, sizeof(int64_t) * (size_t)self->ndim);
        char *bases[2] = {ct_tensor_data_ptr(out), ct_tensor_data_ptr(self)};
        size_t es[2] = {ct_dtype_size(dt), ct_dtype_size(self->dtype)};
        ct_for_each(out->sizes, out->ndim, 2, bases, strides, es, f, ctx);
    }
    return ct_ret(rets, 0, out);
}

/* ---- eq.Scalar ------------------------------------------------------------------------------ */

typedef struct eq_ctx {
    ct_dtype a, common;
    int64_t vi;
    double vd;
} eq_ctx;

static void eq_elem(char **p, void *vctx) {
    const eq_ctx *c = vctx;
    bool r;
    if (ct_dtype_is_integral(c->common, false)) {
        r = ct_elem_load_int64(p[1], c->a) == c->vi;
    } else if (c->common == CT_BOOL) {
        r = (ct_load_as_double(p[1], c->a) != 0) == (c->vd != 0);
    } else {
        r = ct_load_as_double(p[1], c->a) == c->vd;
    }
    *(bool *)p[0] = r;
}

/* eq.Scalar(Tensor self, Scalar other) -> Tensor: a bool tensor. As TORCH_META_FUNC(eq) builds a
 * comparison over self and wrapped_scalar_tensor(other), both are brought to their common dtype
 * first (Note [TensorIterator's casts on the CPU]), so a floating self keeps its dtype and the
 * number is rounded to it. */
int ct_k_eq_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    ct_tensor *ins[2] = {ARG_T(0), w};
    ct_dtype common = ct_result_type2(ins[0], w);
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, NULL, ins, 2, common, false) != 0) {
        ct_tensor_release(w);
        return -1;
    }
    eq_ctx c;
    c.a = k.in[0]->dtype;
    c.common = common;
    const char *v = ct_tensor_data_ptr(k.in[1]);
    c.vi = ct_dtype_is_integral(common, false) ? ct_elem_load_int64(v, common) : 0;
    c.vd = ct_load_as_double(v, common);
    int rc = ct_iter_cast_end(&k, map_unary(k.in[0], CT_BOOL, eq_elem, &c, rets));
    ct_tensor_release(w); /* after the casts: k.in[1] is w itself when no cast was needed */
    return rc;
}

/* ---- bitwise_not ---------------------------------------------------------------------------- */

static void not_elem(char **p, void *vctx) {
    ct_dtype d = *(const ct_dtype *)vctx;
    if (d == CT_BOOL) *(bool *)p[0] = !*(const unsigned char *)p[1];
    else ct_elem_store_int64(p[0], d, ~ct_elem_load_int64(p[1], d));
}

/* bitwise_not(Tensor self) -> Tensor: logical not for bool, ~ for integers */
int ct_k_bitwise_not(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_dtype d = self->dtype;
    if (!ct_dtype_is_integral(d, true))
        return ct_error_set(CT_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for '%s'", ct_dtype_name(d));
    return map_unary(self, d, not_elem, &d, rets);
}

/* ---- masked_fill ---------------------------------------------------------------------------- */

typedef struct fill_ctx {
    ct_dtype d;
    double v;
    int64_t vi;
} fill_ctx;

/* 2-d loops over (self, mask), see Note [Iteration layout] in cpu/iter.h */
static void fill_f32_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx) {
    const float v = *(const float *)ctx;
    for (int64_t j = 0; j < size1; j++) {
        char *o = data[0] + j * strides[2];
        const char *m = data[1] + j * strides[3];
        for (int64_t i = 0; i < size0; i++)
            if (m[i * strides[1]]) *(float *)(void *)(o + i * strides[0]) = v;
    }
}

static void fill_any_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx) {
    const fill_ctx *c = ctx;
    for (int64_t j = 0; j < size1; j++) {
        char *o = data[0] + j * strides[2];
        const char *m = data[1] + j * strides[3];
        for (int64_t i = 0; i < size0; i++) {
            if (!m[i * strides[1]]) continue;
            if (ct_dtype_is_integral(c->d, false)) ct_elem_store_int64(o + i * strides[0], c->d, c->vi);
            else ct_store_from_double(o + i * strides[0], c->d, c->v);
        }
    }
}

/* masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value): a TensorIterator with self
 * as its (not resized) output, so the mask broadcasts to self's shape and no further; the value
 * is converted to self's dtype with a range check. */
int ct_k_masked_fill_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1);
    ct_scalar value = args[2];
    if (mask->dtype != CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                            ct_dtype_type_meta_name(mask->dtype));
    if (ct_assert_no_internal_overlap(self) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(self->sizes, self->ndim, mask->sizes, mask->ndim, shape, &n) != 0) return -1;
    if (ct_check_output_shape(self, shape, n) != 0) return -1;
    if (ct_scalar_check_convert(value, self->dtype) != 0) return -1;
    fill_ctx c = {self->dtype, ct_scalar_to_double(value), value.tag == CT_TAG_INT ? value.u.i : ct_double_to_int64(ct_scalar_to_double(value))};
    if (self->numel) {
        /* TensorIterator's layout (the mask broadcast with stride 0), then 2-d loops */
        const ct_tensor *ts[2] = {self, mask};
        ct_iter it;
        ct_iter_init(&it, self->sizes, self->ndim, ts, 2);
        if (c.d == CT_FLOAT32) {
            const float v = (float)c.v; /* the value in self's dtype, stored the same way */
            ct_iter_run(&it, fill_f32_loop, &v);
        } else {
            ct_iter_run(&it, fill_any_loop, &c);
        }
    }
    ct_bump_version(self);
    return ct_ret_self(rets, self);
}

/* masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) (CompositeExplicitAutograd):
 * self and mask expanded to their common shape, a contiguous clone, then masked_fill_. */
int ct_k_masked_fill(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1);
    int64_t shape[CT_MAX_DIMS];
    int n;
    /* expand_outplace(mask, self): the mask is tensor a in the message */
    if (ct_broadcast_shapes(mask->sizes, mask->ndim, self->sizes, self->ndim, shape, &n) != 0) return -1;
    bool same = n == self->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == self->sizes[i];
    ct_tensor *expanded = same ? ct_tensor_retain(self) : ct_expand(self, shape, n, false);
    if (!expanded) return -1;
    ct_tensor *r = ct_clone(expanded, CT_CONTIGUOUS_FORMAT);
    ct_tensor_release(expanded);
    if (!r) return -1;
    if (ct_masked_fill_(r, mask, args[2]) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}

/* ---- masked_select -------------------------------------------------------------------------- */

/* masked_select(Tensor self, Tensor mask) -> Tensor: the elements of self (broadcast with
 * mask) where mask is true, in row-major order, as a 1-D tensor. */
int ct_k_masked_select(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1);
    if (mask->dtype != CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "masked_select: expected BoolTensor for mask");
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(mask->sizes, mask->ndim, self->sizes, self->ndim, shape, &n) != 0) return -1;
    int64_t total = 1;
    for (int i = 0; i < n; i++) total *= shape[i];
    int64_t ss[CT_MAX_DIMS], ms[CT_MAX_DIMS];
    ct_broadcast_strides(self, shape, n, ss);
    ct_broadcast_strides(mask, shape, n, ms);
    /* two passes: count, then copy */
    int64_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        ct_tensor *out = NULL;
        if (pass == 1) {
            out = ct_empty(&count, 1, self->dtype, CT_MEMORY_FORMAT_NONE);
            if (!out) return -1;
        }
        size_t es = ct_dtype_size(self->dtype);
        const char *sb = ct_tensor_data_ptr(self), *mb = ct_tensor_data_ptr(mask);
        char *ob = out ? ct_tensor_data_ptr(out) : NULL;
        int64_t k = 0;
        for (int64_t i = 0; i < total; i++) {
            int64_t rem = i, so = 0, mo = 0;
            for (int d = n - 1; d >= 0; d--) {
                int64_t idx = rem % shape[d];
                rem /= shape[d];
                so += idx * ss[d];
                mo += idx * ms[d];
            }
            if (!mb[mo]) continue;
            if (ob) memcpy(ob + (size_t)k * es, sb + (size_t)so * es, es);
            k++;
        }
        if (pass == 0) count = k;
        else return ct_ret(rets, 0, out);
    }
    return -1;
}
