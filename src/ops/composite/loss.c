/* CompositeImplicitAutograd bodies of log_softmax.int, nll_loss, nll_loss_nd,
 * cross_entropy_loss (LossNLL.cpp, Loss.cpp, SoftMax.cpp) and to.dtype / to.dtype_layout
 * (TensorConversions.cpp). */
#include "ops/convert.h"
#include "ops/kernel_util.h"

/* Tensor.to(options, non_blocking=false, copy=false): the to.dtype_layout overload, with the
 * options a tensor's own options() carry (dtype, strided layout, cpu device). */
ct_tensor *ct_to_options(ct_tensor *self, ct_dtype dt) {
    const ct_op *op = ct_op_find("aten::to.dtype_layout");
    ct_value a[8];
    a[0] = ct_tensor_value(self);
    a[1] = ct_int(dt);
    a[2] = ct_int(0); /* torch.strided */
    a[3].tag = CT_TAG_DEVICE;
    a[3].u.i = 0; /* cpu */
    a[4] = ct_none();
    a[5] = ct_bool(false);
    a[6] = ct_bool(false);
    a[7] = ct_none();
    ct_value r[1] = {ct_none()};
    if (!op || ct_call(op, a, r) != 0) return NULL;
    return r[0].u.t;
}

/* to_will_alias: same dtype, no copy requested, preserve format -> self itself */
static int to_impl(ct_tensor *self, ct_dtype dt, bool copy, const ct_value *memfmt, ct_value *rets) {
    int64_t mf = memfmt->tag == CT_TAG_INT ? memfmt->u.i : CT_PRESERVE_FORMAT;
    if (dt == self->dtype && !copy && (mf == CT_PRESERVE_FORMAT || (mf == CT_CONTIGUOUS_FORMAT && ct_tensor_is_contiguous(self))))
        return ct_ret_self(rets, self);
    return ct_ret(rets, 0, ct__to_copy(self, dt, false, mf == CT_PRESERVE_FORMAT ? CT_MEMORY_FORMAT_NONE : (ct_memory_format)mf));
}

/* to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) */
CT_KERNEL(ct_k_to_dtype) {
    (void)op;
    (void)ks;
    if (ct_check_dtype_arg((ct_dtype)ARG_I(1), "to") != 0) return -1;
    return to_impl(ARG_T(0), (ct_dtype)ARG_I(1), ARG_B(3), &args[4], rets);
}

/* to.dtype_layout(Tensor(a) self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format) */
CT_KERNEL(ct_k_to_dtype_layout) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    return to_impl(self, ct_arg_dtype(&args[1], self->dtype), ARG_B(6), &args[7], rets);
}

/* log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) */
CT_KERNEL(ct_k_log_softmax) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *converted = args[2].tag == CT_TAG_INT ? ct_to_options(self, (ct_dtype)args[2].u.i) : ct_tensor_retain(self);
    if (!converted) return -1;
    ct_tensor *r = ct__log_softmax(converted, ARG_I(1), false);
    ct_tensor_release(converted);
    return ct_ret(rets, 0, r);
}

/* nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt ignore_index=-100) */
CT_KERNEL(ct_k_nll_loss) {
    (void)op;
    (void)ks;
    ct_tensor *output = NULL, *total_weight = NULL;
    if (ct_nll_loss_forward(ARG_T(0), ARG_T(1), ARG_OPT_T(2), ARG_I(3), ARG_I(4), &output, &total_weight) != 0) return -1;
    ct_tensor_release(total_weight);
    return ct_ret(rets, 0, output);
}

/* nll_loss_nd: checks, then nll_loss for 1-D and 2-D input */
CT_KERNEL(ct_k_nll_loss_nd) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1);
    if (self->ndim < 1) return ct_error_set(CT_ERR_VALUE, "Expected 1 or more dimensions (got %d)", self->ndim);
    if (self->ndim != 1 && (target->ndim == 0 || self->sizes[0] != target->sizes[0]))
        return ct_error_set(CT_ERR_VALUE, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                            (long long)self->sizes[0], (long long)(target->ndim ? target->sizes[0] : 0));
    if (self->ndim > 2)
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "ctorch: nll_loss for inputs of more than 2 dimensions is not implemented yet");
    return ct_ret(rets, 0, ct_nll_loss(self, target, ARG_OPT_T(2), ARG_I(3), ARG_I(4)));
}

/* cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1,
 *                    SymInt ignore_index=-100, float label_smoothing=0.) */
CT_KERNEL(ct_k_cross_entropy_loss) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1);
    double smoothing = args[5].u.d;
    bool same_shape = self->ndim == target->ndim;
    for (int i = 0; same_shape && i < self->ndim; i++) same_shape = self->sizes[i] == target->sizes[i];
    if (same_shape)
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "ctorch: cross_entropy with class-probability targets is not implemented yet");
    if (smoothing > 0.0) {
        if (smoothing > 1.0) return ct_error_set(CT_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", smoothing);
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "ctorch: cross_entropy with label_smoothing is not implemented yet");
    }
    int64_t class_dim = self->ndim == 1 ? 0 : 1;
    ct_tensor *lsm = ct_log_softmax(self, class_dim, self->dtype);
    if (!lsm) return -1;
    ct_tensor *r = ct_nll_loss_nd(lsm, target, ARG_OPT_T(2), ARG_I(3), ARG_I(4));
    ct_tensor_release(lsm);
    return ct_ret(rets, 0, r);
}
