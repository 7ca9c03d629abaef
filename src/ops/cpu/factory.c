/* Factory functions (TensorFactories.cpp): empty, empty_strided, empty_like, zeros, ones, full,
 * *_like, scalar_tensor, and the BackendSelect kernel they share. */
#include <string.h>

#include "dispatch/call_impl.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "ops/kernel_util.h"

/* RegisterBackendSelect: computes the backend from the options (always CPU here) and
 * redispatches. Factories without tensor arguments redispatch to {CPU} alone; ops with
 * tensor arguments merge their key sets with the TLS, masked to keys below BackendSelect. */
int ct_k_backend_select(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    if (ct_check_options(op, args) != 0) return -1;
    ct_keyset dk = ct_keyset_of(CT_KEY_CPU);
    if (op->dispatch_args) {
        for (int i = 0; i < op->nargs; i++)
            if ((op->dispatch_args >> i & 1u) && args[i].tag == CT_TAG_TENSOR) dk |= args[i].u.t->keys;
        ct_keyset inc = ct_tls_included(), exc = ct_tls_excluded();
        dk = ct_keyset_sub(dk | inc, exc) & ct_keyset_full_after(CT_KEY_BackendSelect);
    }
    (void)ks;
    return ct_redispatch_unchecked(op, dk, args, rets);
}

/* empty.memory_format(SymInt[] size, *, dtype, layout, device, pin_memory, memory_format) */
int ct_k_empty(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    /* empty_generic: check_size_nonnegative, computeStorageNbytesContiguous, then restriding */
    int64_t nbytes = 0;
    ct_dtype dt = ct_arg_dtype(&args[1], ct_default_dtype());
    if (ct_storage_nbytes_contiguous(args[0].u.list.data, args[0].u.list.len, ct_dtype_size(dt), &nbytes) != 0) return -1;
    if (args[5].tag == CT_TAG_INT && args[5].u.i == CT_PRESERVE_FORMAT)
        return ct_error_set(CT_ERR_RUNTIME, "unsupported memory format Preserve"); /* empty_tensor_restride */
    return ct_ret(rets, 0, ct_tensor_alloc(args[0].u.list.data, (int)args[0].u.list.len, dt, false));
}

/* empty_strided(SymInt[] size, SymInt[] stride, *, dtype, layout, device, pin_memory) */
int ct_k_empty_strided(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    const int64_t *size = args[0].u.list.data, *stride = args[1].u.list.data;
    int64_t n = args[0].u.list.len;
    /* empty_strided_generic: check_size_nonnegative, then computeStorageNbytes */
    int64_t numel;
    if (ct_check_sizes(size, n, &numel) != 0) return -1;
    if (args[1].u.list.len != n)
        return ct_error_set(CT_ERR_RUNTIME, "dimensionality of sizes (%lld) must match dimensionality of strides (%lld)",
                            (long long)n, (long long)args[1].u.list.len);
    /* storage must reach the furthest element: 1 + sum((size-1)*stride), computed unsigned
     * (so a negative stride on a dimension of size > 1 overflows); nothing when empty */
    int64_t extent = numel == 0 ? 0 : 1;
    for (int64_t i = 0; i < n && numel > 0; i++) {
        if (stride[i] < 0 && size[i] > 1) {
            char sb[256], stb[256];
            ct_format_shape(size, (int)n, sb, sizeof sb);
            ct_format_shape(stride, (int)n, stb, sizeof stb);
            return ct_error_set(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s", sb, stb);
        }
        extent += (size[i] - 1) * stride[i];
    }
    ct_dtype dt = ct_arg_dtype(&args[2], ct_default_dtype());
    ct_storage *s = ct_storage_new(extent * (int64_t)ct_dtype_size(dt), false);
    if (!s) return -1;
    /* TensorImpl::set_sizes_and_strides replaces a negative stride (possible only where the
     * size is 0 or 1) by the contiguous one: 1 innermost, else the next stride times
     * max(next size, 1) */
    int64_t st[CT_MAX_DIMS];
    for (int64_t i = n - 1; i >= 0 && n <= CT_MAX_DIMS; i--)
        st[i] = stride[i] >= 0 ? stride[i] : i == n - 1 ? 1 : st[i + 1] * (size[i + 1] > 1 ? size[i + 1] : 1);
    ct_tensor *t = ct_tensor_make(s, 0, size, n <= CT_MAX_DIMS ? st : stride, (int)n, dt);
    ct_storage_release(s);
    return ct_ret(rets, 0, t);
}

/* empty_like(Tensor self, *, dtype, layout, device, pin_memory, memory_format):
 * preserve_format (the default) keeps the strides of a dense tensor via empty_strided;
 * an explicit format (or a non-dense self) allocates contiguously via empty. */
int ct_k_empty_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    ct_dtype dt = ct_arg_dtype(&args[1], self->dtype);
    int64_t mf = args[5].tag == CT_TAG_INT ? args[5].u.i : CT_PRESERVE_FORMAT;
    if (mf == CT_PRESERVE_FORMAT && ct_is_non_overlapping_and_dense(self))
        return ct_ret(rets, 0, ct_empty_strided(self->sizes, self->ndim, self->strides, self->ndim, dt));
    return ct_ret(rets, 0, ct_empty(self->sizes, self->ndim, dt, mf == CT_PRESERVE_FORMAT ? CT_CONTIGUOUS_FORMAT : (ct_memory_format)mf));
}

/* infer_full_options: without a dtype, full() takes the fill value's type */
static ct_dtype full_dtype(const ct_value *dtype_arg, ct_scalar fill) {
    if (dtype_arg->tag == CT_TAG_INT) return (ct_dtype)dtype_arg->u.i;
    if (fill.tag == CT_TAG_BOOL) return CT_BOOL;
    if (fill.tag == CT_TAG_INT) return CT_INT64;
    return ct_default_dtype();
}

static int fill_result(ct_tensor *t, ct_scalar v, ct_value *rets) {
    if (!t) return -1;
    if (ct_fill_(t, v) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

/* full(SymInt[] size, Scalar fill_value, *, dtype, layout, device, pin_memory) = empty + fill_ */
int ct_k_full(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = full_dtype(&args[2], args[1]);
    return fill_result(ct_empty(args[0].u.list.data, args[0].u.list.len, dt, CT_MEMORY_FORMAT_NONE), args[1], rets);
}

/* zeros(size, ...) = empty + zero_ */
int ct_k_zeros(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *t = ct_empty(args[0].u.list.data, args[0].u.list.len, ct_arg_dtype(&args[1], ct_default_dtype()), CT_MEMORY_FORMAT_NONE);
    if (!t) return -1;
    if (ct_zero_(t) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

/* ones(size, ...) is native::full(size, 1.): empty + fill_ */
int ct_k_ones(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[1], ct_default_dtype());
    return fill_result(ct_empty(args[0].u.list.data, args[0].u.list.len, dt, CT_MEMORY_FORMAT_NONE), ct_double(1.0), rets);
}

static ct_tensor *like(const ct_value *args) {
    ct_tensor *self = ARG_T(0);
    return ct_empty_like(self, ct_arg_dtype(&args[1], CT_DTYPE_UNDEFINED),
                         args[5].tag == CT_TAG_INT ? (ct_memory_format)args[5].u.i : CT_MEMORY_FORMAT_NONE);
}

int ct_k_zeros_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *t = like(args);
    if (!t) return -1;
    if (ct_zero_(t) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

int ct_k_ones_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return fill_result(like(args), ct_double(1.0), rets);
}

/* full_like(Tensor self, Scalar fill_value, *, dtype, layout, device, pin_memory, memory_format) */
int ct_k_full_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    ct_tensor *t = ct_empty_like(self, ct_arg_dtype(&args[2], CT_DTYPE_UNDEFINED),
                                 args[6].tag == CT_TAG_INT ? (ct_memory_format)args[6].u.i : CT_MEMORY_FORMAT_NONE);
    return fill_result(t, args[1], rets);
}

/* scalar_tensor(Scalar s, *, dtype, ...): PyTorch's CPU fast path allocates and fills
 * directly, without dispatching. */
int ct_k_scalar_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[1], ct_default_dtype());
    ct_tensor *t = ct_tensor_alloc(NULL, 0, dt, false);
    if (!t) return -1;
    ct_store_from_double(t->storage->data, dt, ct_scalar_to_double(args[0]));
    return ct_ret(rets, 0, t);
}

/* new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, dtype, layout, device, pin_memory):
 * empty_strided with self's options */
int ct_k_new_empty_strided(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    return ct_ret(rets, 0, ct_empty_strided(args[1].u.list.data, args[1].u.list.len, args[2].u.list.data,
                                            args[2].u.list.len, ct_arg_dtype(&args[3], self->dtype)));
}

/* new_zeros(Tensor self, SymInt[] size, *, dtype, layout, device, pin_memory): zeros with self's
 * options (what index's backward starts from) */
int ct_k_new_zeros(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *t = ct_empty(args[1].u.list.data, args[1].u.list.len, ct_arg_dtype(&args[2], ARG_T(0)->dtype), CT_MEMORY_FORMAT_NONE);
    if (!t) return -1;
    if (ct_zero_(t) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}
