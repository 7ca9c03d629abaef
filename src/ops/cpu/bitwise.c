/* The bitwise ops (bitwise_and/or/xor, the shifts, bitwise_not's in-place and out= forms) and
 * the operator overloads PyTorch defines over them (__and__, __iand__, __lshift__, ...), through
 * the binary template (Note [The binary template] in binary.c): integral and bool dtypes only
 * (the shifts: integral), with PyTorch's "\"bitwise_and_cpu\" not implemented for 'Float'". A
 * shift by a negative count or by the dtype's width or more gives 0 (left) or the sign (right),
 * as PyTorch's kernels do. */
#include <string.h>

#include "ops/cpu/binary_impl.h"

#define BITWISE(name, fn)                                                                                        \
    CT_BIN_TT(name##_tensor, fn)                                                                                 \
    CT_BIN_TT_(name##__tensor, fn)                                                                               \
    CT_BIN_TT_OUT(name##_tensor_out, fn)                                                                         \
    CT_BIN_FWD_NEW(name##_scalar, ct_##name##_tensor, 1)                                                         \
    CT_BIN_FWD_INPLACE(name##__scalar, ct_##name##__tensor)                                                      \
    CT_BIN_FWD_OUT(name##_scalar_out, ct_##name##_tensor_out, 1)                                                 \
    CT_BIN_FWD_NEW(name##_scalar_tensor, ct_##name##_tensor, 0)                                                  \
    CT_BIN_AUTOGEN_OUT(name##_scalar_tensor_out, ct_##name##_scalar_tensor(args[0], ARG_T(1)), 2)

BITWISE(bitwise_and, CT_BIN_BITWISE_AND)
BITWISE(bitwise_or, CT_BIN_BITWISE_OR)
BITWISE(bitwise_xor, CT_BIN_BITWISE_XOR)

#define SHIFT(name, fn)                                                                                          \
    CT_BIN_TT(name##_tensor, fn)                                                                                 \
    CT_BIN_TT_(name##__tensor, fn)                                                                               \
    CT_BIN_TT_OUT(name##_tensor_out, fn)                                                                         \
    CT_BIN_FWD_NEW(name##_tensor_scalar, ct_##name##_tensor, 1)                                                  \
    CT_BIN_FWD_INPLACE(name##__tensor_scalar, ct_##name##__tensor)                                               \
    CT_BIN_FWD_OUT(name##_tensor_scalar_out, ct_##name##_tensor_out, 1)                                          \
    CT_BIN_FWD_NEW(name##_scalar_tensor, ct_##name##_tensor, 0)                                                  \
    CT_BIN_AUTOGEN_OUT(name##_scalar_tensor_out, ct_##name##_scalar_tensor(args[0], ARG_T(1)), 2)

SHIFT(bitwise_left_shift, CT_BIN_LSHIFT)
SHIFT(bitwise_right_shift, CT_BIN_RSHIFT)

/* __lshift__ / __rshift__ and their in-place forms have CPU kernels of their own (the shift
 * over self and other, a Scalar as a wrapped number); their out= forms are
 * CompositeExplicitAutograd: the functional form, copied into out */
CT_BIN_TT(__lshift___tensor, CT_BIN_LSHIFT)
CT_BIN_TS(__lshift___scalar, CT_BIN_LSHIFT, -1)
CT_BIN_TT_(__ilshift___tensor, CT_BIN_LSHIFT)
CT_BIN_TS(__ilshift___scalar, CT_BIN_LSHIFT, 0)
CT_BIN_TT(__rshift___tensor, CT_BIN_RSHIFT)
CT_BIN_TS(__rshift___scalar, CT_BIN_RSHIFT, -1)
CT_BIN_TT_(__irshift___tensor, CT_BIN_RSHIFT)
CT_BIN_TS(__irshift___scalar, CT_BIN_RSHIFT, 0)

int ct_k___lshift___tensor_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_out_from_result(ct___lshift___tensor(ARG_T(0), ARG_T(1)), ARG_T(2), rets);
}
int ct_k___lshift___scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_out_from_result(ct___lshift___scalar(ARG_T(0), args[1]), ARG_T(2), rets);
}
int ct_k___rshift___tensor_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_out_from_result(ct___rshift___tensor(ARG_T(0), ARG_T(1)), ARG_T(2), rets);
}
int ct_k___rshift___scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_out_from_result(ct___rshift___scalar(ARG_T(0), args[1]), ARG_T(2), rets);
}

/* __and__, __or__, __xor__ and their in-place forms (CompositeImplicitAutograd): the bitwise
 * op, dispatched */
#define DUNDER(d, name)                                                                                          \
    int ct_k___##d##___tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                    \
        (void)op, (void)ks;                                                                                        \
        return ct_ret(rets, 0, ct_##name##_tensor(ARG_T(0), ARG_T(1)));                                            \
    }                                                                                                              \
    int ct_k___##d##___scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                    \
        (void)op, (void)ks;                                                                                        \
        return ct_ret(rets, 0, ct_##name##_scalar(ARG_T(0), args[1]));                                             \
    }                                                                                                              \
    int ct_k___i##d##___tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                   \
        (void)op, (void)ks;                                                                                        \
        return ct_##name##__tensor(ARG_T(0), ARG_T(1)) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                    \
    }                                                                                                              \
    int ct_k___i##d##___scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                   \
        (void)op, (void)ks;                                                                                        \
        return ct_##name##__scalar(ARG_T(0), args[1]) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                     \
    }
DUNDER(and, bitwise_and)
DUNDER(or, bitwise_or)
DUNDER(xor, bitwise_xor)

/* bitwise_not.out and bitwise_not_: ~x for integers (x ^ -1), not x for bool */
static int bitwise_not_into(ct_tensor *self, ct_tensor *out, ct_value *rets) {
    if (!ct_dtype_is_integral(self->dtype, true))
        return ct_error_set(CT_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for '%s'", ct_dtype_name(self->dtype));
    ct_tensor *ones = ct_wrap_scalar(self->dtype == CT_BOOL ? ct_bool(true) : ct_int(-1));
    if (!ones) return -1;
    int rc = ct_bin_run(CT_BIN_BITWISE_XOR, self, ones, out, rets);
    ct_tensor_release(ones);
    return rc;
}
int ct_k_bitwise_not_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return bitwise_not_into(ARG_T(0), ARG_T(1), rets);
}
int ct_k_bitwise_not_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return bitwise_not_into(ARG_T(0), ARG_T(0), rets);
}
