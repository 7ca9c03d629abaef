/* CompositeImplicitAutograd bodies of to.dtype, to.dtype_layout and to.device, and Tensor.to with a
 * tensor's own options for the callers outside them (ops/convert.h: the composite bodies that take
 * a dtype, autograd's engine and formulas), as TensorConversions.cpp holds them. */
#include "dispatch/call_impl.h"
#include "ops/builtin.h"
#include "ops/convert.h"
#include "ops/kernel_util.h"

/* Tensor.to(options, non_blocking=false, copy=false): the to.dtype_layout overload, with the
 * options a tensor's own options() carry (dtype, strided layout, cpu device). */
ct_tensor *ct_to_options(ct_tensor *self, ct_dtype dt) {
    const ct_op *op = ct_builtin(CT_OPID_to_dtype_layout);
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
    if (!op || ct_dispatch_call(op, a, r) != 0) return NULL;
    return r[0].u.t;
}

ct_tensor *ct_scalar_tensor_options(ct_scalar s, ct_dtype dt) {
    ct_value a[5];
    a[0] = s;
    a[1] = ct_int(dt);
    a[2] = ct_int(0); /* torch.strided */
    a[3].tag = CT_TAG_DEVICE;
    a[3].u.i = 0; /* cpu */
    a[4] = ct_none();
    ct_value r[1] = {ct_none()};
    if (ct_dispatch_call(ct_builtin(CT_OPID_scalar_tensor), a, r) != 0) return NULL;
    return r[0].u.t;
}

/* at::_to_copy as to_impl calls it: the options the overload was given (to.dtype has none but the
 * dtype), non_blocking as given, and pin_memory None unless given (the public ct__to_copy passes
 * False, as Python's bindings do for a user's call), so a mode sees the call PyTorch makes. */
static ct_tensor *to_copy_from_to(ct_tensor *self, ct_dtype dt, const ct_value *layout, const ct_value *device,
                                  const ct_value *pin_memory, bool non_blocking, int64_t mf) {
    const ct_op *op = ct_builtin(CT_OPID__to_copy);
    ct_value a[7] = {ct_tensor_value(self), ct_int(dt), *layout, *device, *pin_memory, ct_bool(non_blocking),
                     mf == CT_PRESERVE_FORMAT ? ct_none() : ct_int(mf)};
    ct_value r[1] = {ct_none()};
    if (!op || ct_call(op, a, r) != 0) return NULL;
    return r[0].u.t;
}

/* to_will_alias: same dtype, no copy requested, preserve format -> self itself */
static int to_impl(ct_tensor *self, ct_dtype dt, const ct_value *layout, const ct_value *device, const ct_value *pin_memory,
                   bool non_blocking, bool copy, const ct_value *memfmt, ct_value *rets) {
    int64_t mf = memfmt->tag == CT_TAG_INT ? memfmt->u.i : CT_PRESERVE_FORMAT;
    if (dt == self->dtype && !copy && (mf == CT_PRESERVE_FORMAT || (mf == CT_CONTIGUOUS_FORMAT && ct_tensor_is_contiguous(self))))
        return ct_ret_self(rets, self);
    return ct_ret(rets, 0, to_copy_from_to(self, dt, layout, device, pin_memory, non_blocking, mf));
}

/* to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) */
int ct_k_to_dtype(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ct_check_dtype_arg((ct_dtype)ARG_I(1), "to") != 0) return -1;
    const ct_value none = ct_none();
    return to_impl(ARG_T(0), (ct_dtype)ARG_I(1), &none, &none, &none, ARG_B(2), ARG_B(3), &args[4], rets);
}

/* to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False,
 * MemoryFormat? memory_format=None): Tensor.type('torch.DoubleTensor') and Tensor.to(device, dtype) */
int ct_k_to_device(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    const ct_value none = ct_none();
    return to_impl(ARG_T(0), (ct_dtype)ARG_I(2), &none, &args[1], &none, ARG_B(3), ARG_B(4), &args[5], rets);
}

/* to.dtype_layout(Tensor(a) self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format) */
int ct_k_to_dtype_layout(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    return to_impl(self, ct_arg_dtype(&args[1], self->dtype), &args[2], &args[3], &args[4], ARG_B(5), ARG_B(6), &args[7],
                   rets);
}
