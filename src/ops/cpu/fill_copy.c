/* fill_, zero_, copy_, clone, contiguous, resolve_conj, resolve_neg. */
#include <string.h>

#include "ops/kernel_util.h"

typedef struct conv_ctx {
    ct_dtype dst, src;
} conv_ctx;

static void convert_elem(char **p, void *vctx) {
    conv_ctx *c = vctx;
    if (c->dst == c->src) {
        memcpy(p[0], p[1], ct_dtype_size(c->dst));
    } else if (c->dst == CT_INT64 && c->src == CT_BOOL) {
        *(int64_t *)p[0] = *(uint8_t *)p[1] != 0;
    } else {
        ct_store_from_double(p[0], c->dst, ct_load_as_double(p[1], c->src));
    }
}

/* Copies src (broadcast to dst's shape, any dtype) into dst. The checks are copy_impl's
 * TensorIterator's, in its order: dst's internal overlap, then the shapes. */
static int copy_into(ct_tensor *dst, const ct_tensor *src) {
    if (ct_assert_no_internal_overlap(dst) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(dst->sizes, dst->ndim, src->sizes, src->ndim, shape, &n) != 0) return -1;
    if (ct_check_output_shape(dst, shape, n) != 0) return -1;
    if (dst->numel == 0) return 0;
    if (dst->dtype == src->dtype && ct_tensor_is_contiguous(dst) && ct_tensor_is_contiguous(src) &&
        src->numel == dst->numel) {
        memmove(ct_tensor_data_ptr(dst), ct_tensor_data_ptr(src), (size_t)dst->numel * ct_dtype_size(dst->dtype));
        return 0;
    }
    int64_t strides[2][CT_MAX_DIMS];
    memcpy(strides[0], dst->strides, sizeof(int64_t) * (size_t)dst->ndim);
    ct_broadcast_strides(src, dst->sizes, dst->ndim, strides[1]);
    char *bases[2] = {ct_tensor_data_ptr(dst), ct_tensor_data_ptr(src)};
    size_t es[2] = {ct_dtype_size(dst->dtype), ct_dtype_size(src->dtype)};
    conv_ctx c = {dst->dtype, src->dtype};
    ct_for_each(dst->sizes, dst->ndim, 2, bases, strides, es, convert_elem, &c);
    return 0;
}

int ct_copy_into(ct_tensor *dst, const ct_tensor *src) { return copy_into(dst, src); }

typedef struct fill_ctx {
    unsigned char bytes[8];
    size_t size;
} fill_ctx;

static void fill_elem(char **p, void *vctx) {
    fill_ctx *c = vctx;
    memcpy(p[0], c->bytes, c->size);
}

static int fill_value(ct_tensor *self, ct_scalar v) {
    /* fill_kernel converts the value with Scalar::to<scalar_t>(), which checks the range */
    if (ct_scalar_check_convert(v, self->dtype) != 0) return -1;
    fill_ctx c;
    c.size = ct_dtype_size(self->dtype);
    if (self->dtype == CT_INT64 && v.tag == CT_TAG_INT) {
        memcpy(c.bytes, &v.u.i, 8);
    } else {
        ct_store_from_double(c.bytes, self->dtype, ct_scalar_to_double(v));
    }
    if (self->numel == 0) return 0;
    if (ct_tensor_is_contiguous(self)) {
        char *p = ct_tensor_data_ptr(self);
        for (int64_t i = 0; i < self->numel; i++) memcpy(p + (size_t)i * c.size, c.bytes, c.size);
        return 0;
    }
    int64_t strides[1][CT_MAX_DIMS];
    memcpy(strides[0], self->strides, sizeof(int64_t) * (size_t)self->ndim);
    char *bases[1] = {ct_tensor_data_ptr(self)};
    ct_for_each(self->sizes, self->ndim, 1, bases, strides, &c.size, fill_elem, &c);
    return 0;
}

/* fill_.Scalar(Tensor(a!) self, Scalar value) */
CT_KERNEL(ct_k_fill_) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (fill_value(self, args[1]) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* zero_(Tensor(a!) self): fills directly (no fill_ event, as PyTorch's CPU zero_) */
CT_KERNEL(ct_k_zero_) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (fill_value(self, ct_int(0)) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) */
CT_KERNEL(ct_k_copy_) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (copy_into(self, ARG_T(1)) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* clone(Tensor self, *, MemoryFormat? memory_format=None) */
CT_KERNEL(ct_k_clone) {
    (void)op;
    (void)ks;
    ct_tensor *src = ARG_T(0);
    int64_t mf = args[1].tag == CT_TAG_INT ? args[1].u.i : CT_PRESERVE_FORMAT;
    ct_tensor *self;
    if (mf == CT_PRESERVE_FORMAT) {
        if (ct_is_non_overlapping_and_dense(src))
            self = ct_empty_strided(src->sizes, src->ndim, src->strides, src->ndim, src->dtype);
        else
            self = ct_empty_like(src, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    } else {
        self = ct_empty_like(src, src->dtype, (ct_memory_format)mf);
    }
    if (!self) return -1;
    if (ct_copy_(self, src, false) != 0) {
        ct_tensor_release(self);
        return -1;
    }
    return ct_ret(rets, 0, self);
}

/* contiguous(Tensor(a) self, *, MemoryFormat memory_format=0): self if already contiguous */
CT_KERNEL(ct_k_contiguous) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (args[1].u.i == CT_PRESERVE_FORMAT)
        return ct_error_set(CT_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
    if (ct_tensor_is_contiguous(self)) return ct_ret_self(rets, self);
    return ct_ret(rets, 0, ct_clone(self, CT_CONTIGUOUS_FORMAT));
}

/* resolve_conj / resolve_neg: real tensors never carry the conjugate or negative bit,
 * so both return self. */
CT_KERNEL(ct_k_resolve_conj) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}

CT_KERNEL(ct_k_resolve_neg) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}
