/* fill_, zero_, copy_, clone, contiguous, resolve_conj, resolve_neg. */
#include <string.h>

#include "ops/cpu/capability.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

typedef struct conv_ctx {
    ct_dtype dst, src;
    bool src_integral; /* an integer or bool source, read exactly */
} conv_ctx;

/* static_cast<dst>(src) (Note [Integer casts] in core/tensor_impl.h): an integer source goes to
 * an integer modulo 2^bits and to float32 and the 16-bit floats through float, as c10 converts
 * it; a float source through double. */
static inline void convert_elem(char *d, const char *s, const conv_ctx *c) {
    if (c->src_integral) {
        int64_t v = ct_elem_load_int64(s, c->src);
        if (c->dst == CT_FLOAT32 || c->dst == CT_FLOAT16 || c->dst == CT_BFLOAT16) ct_store_from_double(d, c->dst, (double)(float)v);
        else ct_elem_store_int64(d, c->dst, v);
    } else {
        ct_store_from_double(d, c->dst, ct_load_as_double(s, c->src));
    }
}

/* (dst, src) of different dtypes, element by element */
static void convert_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx) {
    const conv_ctx *c = ctx;
    for (int64_t j = 0; j < size1; j++) {
        char *d = data[0] + j * strides[2];
        const char *s = data[1] + j * strides[3];
        for (int64_t i = 0; i < size0; i++) convert_elem(d + i * strides[0], s + i * strides[1], c);
    }
}

static int size_index(size_t es) { return es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3; }

/* Copies src (broadcast to dst's shape, any dtype) into dst. The checks are copy_impl's
 * TensorIterator's, in its order: dst's internal overlap, then the shapes. The copy runs as
 * TensorIterator lays it out (Note [Iteration layout] in iter.h): contiguous rows move as
 * blocks, an expanded source (stride 0) is stored as repeated values, one dtype to another
 * converts as static_cast does. */
static int copy_into(ct_tensor *dst, const ct_tensor *src) {
    if (ct_assert_no_internal_overlap(dst) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(dst->sizes, dst->ndim, src->sizes, src->ndim, shape, &n) != 0) return -1;
    if (ct_check_output_shape(dst, shape, n) != 0) return -1;
    if (dst->numel == 0) return 0;
    const ct_tensor *ts[2] = {dst, src};
    ct_iter it;
    ct_iter_init(&it, dst->sizes, dst->ndim, ts, 2);
    const ct_vec_kernels *v = ct_vec();
    if (dst->dtype == src->dtype) {
        ct_iter_run(&it, v->copy_same[size_index(ct_dtype_size(dst->dtype))], NULL);
    } else if (dst->dtype == CT_FLOAT32 && src->dtype == CT_FLOAT64) {
        ct_iter_run(&it, v->f32_from_f64, NULL);
    } else if (dst->dtype == CT_FLOAT64 && src->dtype == CT_FLOAT32) {
        ct_iter_run(&it, v->f64_from_f32, NULL);
    } else {
        conv_ctx c = {dst->dtype, src->dtype, ct_dtype_is_integral(src->dtype, true)};
        ct_iter_run(&it, convert_loop, &c);
    }
    return 0;
}

int ct_copy_into(ct_tensor *dst, const ct_tensor *src) { return copy_into(dst, src); }

static int fill_value(ct_tensor *self, ct_scalar v) {
    /* fill_kernel converts the value with Scalar::to<scalar_t>(), which checks the range */
    if (ct_scalar_check_convert(v, self->dtype) != 0) return -1;
    ct_vec_fill f;
    memset(&f, 0, sizeof f);
    f.size = (int)ct_dtype_size(self->dtype);
    if (ct_dtype_is_integral(self->dtype, false) && v.tag == CT_TAG_INT) {
        ct_elem_store_int64(f.bytes, self->dtype, v.u.i); /* a negative value wraps into uint8 */
    } else {
        ct_store_from_double(f.bytes, self->dtype, ct_scalar_to_double(v));
    }
    if (self->numel == 0) return 0;
    const ct_tensor *ts[1] = {self};
    ct_iter it;
    ct_iter_init(&it, self->sizes, self->ndim, ts, 1);
    ct_iter_run(&it, ct_vec()->fill, &f);
    return 0;
}

/* fill_.Scalar(Tensor(a!) self, Scalar value) */
int ct_k_fill_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (fill_value(self, args[1]) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* zero_(Tensor(a!) self): fills directly (no fill_ event, as PyTorch's CPU zero_) */
int ct_k_zero_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (fill_value(self, ct_int(0)) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) */
int ct_k_copy_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (copy_into(self, ARG_T(1)) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* clone(Tensor self, *, MemoryFormat? memory_format=None) */
int ct_k_clone(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
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
int ct_k_contiguous(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
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
int ct_k_resolve_conj(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}

int ct_k_resolve_neg(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}
