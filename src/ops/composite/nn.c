/* Composite bodies of the neural-network ops (Embedding.cpp, layer_norm.cpp, SoftMax.cpp,
 * Dropout.cpp, TensorCompare.cpp, Scalar.cpp, BinaryOps.cpp). CompositeImplicitAutograd ones
 * (embedding_backward, layer_norm, softmax.int, dropout, where.Scalar, item) run in the
 * Autograd and CPU slots, so autograd records and modes see their constituents;
 * CompositeExplicitAutograd ones (embedding, _safe_softmax, div_.Scalar) run below autograd
 * and carry their own derivative. Every constituent goes through the dispatcher. */
#include <math.h>
#include <string.h>

#include "ops/api_call.h"
#include "ops/convert.h"
#include "ops/kernel_util.h"

/* embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False,
 * bool sparse=False): index_select along dim 0, viewed back to indices' shape + [D] */
int ct_k_embedding(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *weight = ARG_T(0), *indices = ARG_T(1);
    if (weight->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "'weight' must be 2-D");
    if (indices->dtype != CT_INT64 && indices->dtype != CT_INT32)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding)",
                            ct_dtype_message_type(indices->dtype));
    if (indices->ndim == 1) return ct_ret(rets, 0, ct_index_select(weight, 0, indices));
    int64_t size[CT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < indices->ndim; i++) size[n++] = indices->sizes[i];
    size[n++] = weight->sizes[1];
    int64_t flat = -1;
    ct_tensor *r = ct_reshape(indices, &flat, 1);
    ct_tensor *sel = r ? ct_index_select(weight, 0, r) : NULL;
    ct_tensor *out = sel ? ct_view(sel, size, n) : NULL;
    ct_tensor_release(r);
    ct_tensor_release(sel);
    return ct_ret(rets, 0, out);
}

/* embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, SymInt padding_idx,
 * bool scale_grad_by_freq, bool sparse) */
int ct_k_embedding_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ARG_B(5))
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: sparse embedding gradients (sparse=True) are not supported");
    return ct_ret(rets, 0, ct_embedding_dense_backward(ARG_T(0), ARG_T(1), ARG_I(2), ARG_I(3), ARG_B(4)));
}

/* layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
 * float eps=1e-05, bool cudnn_enable=True): the first output of native_layer_norm */
int ct_k_layer_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *out = NULL, *mean = NULL, *rstd = NULL;
    if (ct_native_layer_norm(ARG_T(0), args[1].u.list.data, args[1].u.list.len, ARG_OPT_T(2), ARG_OPT_T(3), args[4].u.d, &out,
                             &mean, &rstd) != 0)
        return -1;
    ct_tensor_release(mean);
    ct_tensor_release(rstd);
    return ct_ret(rets, 0, out);
}

/* softmax.int(Tensor self, int dim, ScalarType? dtype=None): _softmax of self, converted first
 * when a dtype is given with input.toType(dtype) (to.dtype_layout with the tensor's options, as
 * log_softmax does) */
int ct_k_softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (args[2].tag == CT_TAG_INT) {
        ct_tensor *c = ct_to_options(self, (ct_dtype)args[2].u.i);
        if (!c) return -1;
        ct_tensor *r = ct__softmax(c, ARG_I(1), false);
        ct_tensor_release(c);
        return ct_ret(rets, 0, r);
    }
    return ct_ret(rets, 0, ct__softmax(self, ARG_I(1), false));
}

/* _safe_softmax(Tensor self, int dim, ScalarType? dtype=None): softmax, with rows that are
 * all -inf set to 0 instead of NaN */
int ct_k__safe_softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_dtype dt = args[2].tag == CT_TAG_INT ? (ct_dtype)args[2].u.i : CT_DTYPE_UNDEFINED;
    ct_tensor *out = ct_softmax(self, ARG_I(1), dt);
    if (!out) return -1;
    ct_tensor *neg_inf = ct_scalar_tensor(ct_double(-INFINITY), out->dtype);
    ct_tensor *masked = neg_inf ? ct_eq_tensor(self, neg_inf) : NULL;
    ct_tensor *rows = masked ? ct_all_dim(masked, ARG_I(1), true) : NULL;
    ct_tensor *zero = rows ? ct_scalar_tensor(ct_double(0.0), out->dtype) : NULL;
    ct_tensor *r = zero ? ct_where(rows, zero, out) : NULL;
    ct_tensor_release(out);
    ct_tensor_release(neg_inf);
    ct_tensor_release(masked);
    ct_tensor_release(rows);
    ct_tensor_release(zero);
    return ct_ret(rets, 0, r);
}

/* dropout(Tensor input, float p, bool train): on the CPU the fused kernel is never acceptable,
 * so _dropout_impl: input itself when p == 0, not training or empty; input * 0 for p == 1;
 * otherwise input * (empty_like(input).bernoulli_(1 - p).div_(1 - p)) */
int ct_k_dropout(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0);
    double p = args[1].u.d;
    bool train = ARG_B(2);
    if (!(p >= 0 && p <= 1)) return ct_error_set(CT_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got %g", p);
    if (p == 0 || !train || input->numel == 0) return ct_ret_self(rets, input);
    if (p == 1) {
        ct_tensor *z = ct_zeros(NULL, 0, input->dtype);
        ct_tensor *r = z ? ct_mul(input, z) : NULL;
        ct_tensor_release(z);
        return ct_ret(rets, 0, r);
    }
    /* at::empty_like(input): every option None, as C++ leaves them (the typed wrapper passes
     * pin_memory=False, as the Python binding does) */
    ct_value ea[6] = {ct_tensor_value(input)}, er[1] = {ct_none()};
    if (ct_op_fill_defaults(ct_builtin(CT_OPID_empty_like), ea, 1) != 0 || ct_api_call(CT_OPID_empty_like, ea, er) != 0)
        return -1;
    ct_tensor *noise = er[0].u.t;
    ct_tensor *r = NULL;
    if (ct_bernoulli__float(noise, 1 - p, NULL) == 0 && ct_div__scalar(noise, ct_double(1 - p)) == 0) r = ct_mul(input, noise);
    ct_tensor_release(noise);
    return ct_ret(rets, 0, r);
}

/* where.Scalar(Tensor condition, Scalar self, Scalar other): both as 0-dim tensors of their
 * result type (other first), then where.self */
int ct_k_where_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_scalar a = args[1], b = args[2];
    /* result_type(Scalar, Scalar) */
    ct_dtype rt;
    if (a.tag == CT_TAG_DOUBLE || b.tag == CT_TAG_DOUBLE) rt = ct_default_dtype();
    else if (a.tag == CT_TAG_INT || b.tag == CT_TAG_INT) rt = CT_INT64;
    else rt = CT_BOOL;
    ct_tensor *other = ct_scalar_tensor_options(b, rt);
    ct_tensor *self = other ? ct_scalar_tensor_options(a, rt) : NULL;
    ct_tensor *r = self ? ct_where(ARG_T(0), self, other) : NULL;
    ct_tensor_release(other);
    ct_tensor_release(self);
    return ct_ret(rets, 0, r);
}

/* where.ScalarOther(Tensor condition, Tensor self, Scalar other): other as a 0-dim tensor of the
 * result type (scalar_tensor, first), then self converted to it (a no-op for its own dtype) */
int ct_k_where_scalarother(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(1);
    ct_dtype rt = ct_result_type_scalar(self, args[2]);
    ct_tensor *other = ct_scalar_tensor_options(args[2], rt);
    ct_tensor *sc = other ? ct_to_dtype(self, rt, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor *r = sc ? ct_where(ARG_T(0), sc, other) : NULL;
    ct_tensor_release(other);
    ct_tensor_release(sc);
    return ct_ret(rets, 0, r);
}

/* where.ScalarSelf(Tensor condition, Scalar self, Tensor other): self as a 0-dim tensor of the
 * result type first, then other converted to it */
int ct_k_where_scalarself(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *other = ARG_T(2);
    ct_dtype rt = ct_result_type_scalar(other, args[1]);
    ct_tensor *self = ct_scalar_tensor_options(args[1], rt);
    ct_tensor *oc = self ? ct_to_dtype(other, rt, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor *r = oc ? ct_where(ARG_T(0), self, oc) : NULL;
    ct_tensor_release(oc);
    ct_tensor_release(self);
    return ct_ret(rets, 0, r);
}

/* item(Tensor self) -> Scalar: _local_scalar_dense of a one-element tensor */
int ct_k_item(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->numel != 1)
        return ct_error_set(CT_ERR_RUNTIME, "a Tensor with %lld elements cannot be converted to Scalar", (long long)self->numel);
    ct_scalar s;
    if (ct__local_scalar_dense(self, &s) != 0) return -1;
    rets[0] = s;
    return 0;
}

/* div_.Scalar(Tensor(a!) self, Scalar other): self.div_(wrapped_scalar_tensor(other)) */
int ct_k_div__scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_div_(ARG_T(0), w);
    ct_tensor_release(w);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}
