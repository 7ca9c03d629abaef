/* The binary family's one kernel template (internal): pow, fmod, remainder, atan2, minimum/maximum,
 * fmin/fmax, the rounding divisions, copysign, hypot, logaddexp, xlogy, the comparisons, the
 * logical and the bitwise ops all run through ct_bin_run (binary.c), which does what
 * TensorIterator's binary builders do for them (broadcasting, type promotion with wrapped
 * numbers, the in-place and out= checks, the casts to the common dtype) and then one strided
 * loop over the common dtype, generic over the dtype table. The entry points are in binary.c
 * (math), compare.c (comparisons, logical ops, equal) and bitwise.c (bitwise ops and shifts). */
#ifndef CT_BINARY_IMPL_H
#define CT_BINARY_IMPL_H

#include "ops/kernel_util.h"

typedef enum ct_bin_fn {
    CT_BIN_POW, CT_BIN_POW_SCALAR, /* pow(a, b); pow(a, exponent) with a Scalar exponent (ct_bin_pow_scalar) */
    CT_BIN_FMOD, CT_BIN_REMAINDER, CT_BIN_ATAN2,
    CT_BIN_MINIMUM, CT_BIN_MAXIMUM, CT_BIN_FMIN, CT_BIN_FMAX,
    CT_BIN_DIV_FLOOR, CT_BIN_DIV_TRUNC, CT_BIN_DIV_TRUE,
    CT_BIN_COPYSIGN, CT_BIN_HYPOT, CT_BIN_LOGADDEXP, CT_BIN_XLOGY,
    CT_BIN_EQ, CT_BIN_NE, CT_BIN_LT, CT_BIN_LE, CT_BIN_GT, CT_BIN_GE,
    CT_BIN_LOGICAL_AND, CT_BIN_LOGICAL_OR, CT_BIN_LOGICAL_XOR,
    CT_BIN_BITWISE_AND, CT_BIN_BITWISE_OR, CT_BIN_BITWISE_XOR, CT_BIN_LSHIFT, CT_BIN_RSHIFT,
    CT_BIN_COUNT
} ct_bin_fn;

/* out = f(a, b). out: NULL for a new tensor, self for the in-place form (a), the out= tensor
 * otherwise; with an out, rets gets it back. 0, or -1 with PyTorch's error. */
int ct_bin_run(ct_bin_fn f, ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_value *rets);

/* The kernel forms every family shares, as ops.def registers them: a Tensor-Tensor kernel
 * (functional, in place, out=), a CPU kernel with a Scalar other (the wrapped number taking
 * part in promotion as TensorIterator's binary_op over wrapped_scalar_tensor), and a
 * CompositeExplicitAutograd Scalar overload that calls its Tensor overload through the
 * dispatcher with the wrapped number (target: the typed wrapper, ct_<id>). */
#define CT_BIN_TT(id, fn)                                                                                        \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_bin_run(fn, ARG_T(0), ARG_T(1), NULL, rets);                                                     \
    }
#define CT_BIN_TT_(id, fn)                                                                                       \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_bin_run(fn, ARG_T(0), ARG_T(1), ARG_T(0), rets);                                                 \
    }
#define CT_BIN_TT_OUT(id, fn)                                                                                    \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_bin_run(fn, ARG_T(0), ARG_T(1), ARG_T(2), rets);                                                 \
    }
/* a CPU kernel with a Scalar other; out_arg: -1 (new), 0 (in place) or the out= argument */
#define CT_BIN_TS(id, fn, out_arg)                                                                               \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        ct_tensor *w_ = ct_wrap_scalar(args[1]);                                                                   \
        if (!w_) return -1;                                                                                        \
        int rc_ = ct_bin_run(fn, ARG_T(0), w_, (out_arg) < 0 ? NULL : ARG_T((out_arg) < 0 ? 0 : (out_arg)), rets); \
        ct_tensor_release(w_);                                                                                     \
        return rc_;                                                                                                \
    }
/* CompositeExplicitAutograd Scalar overloads: the Tensor overload, dispatched, with the number
 * wrapped (scalar_arg: which argument is the Scalar) */
#define CT_BIN_FWD_NEW(id, target, scalar_arg)                                                                   \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        ct_tensor *w_ = ct_wrap_scalar(args[scalar_arg]);                                                          \
        if (!w_) return -1;                                                                                        \
        ct_tensor *r_ = (scalar_arg) == 0 ? target(w_, ARG_T(1)) : target(ARG_T(0), w_);                          \
        ct_tensor_release(w_);                                                                                     \
        return ct_ret(rets, 0, r_);                                                                                \
    }
#define CT_BIN_FWD_INPLACE(id, target)                                                                           \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        ct_tensor *w_ = ct_wrap_scalar(args[1]);                                                                   \
        if (!w_) return -1;                                                                                        \
        int rc_ = target(ARG_T(0), w_);                                                                            \
        ct_tensor_release(w_);                                                                                     \
        return rc_ != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                                                        \
    }
#define CT_BIN_FWD_OUT(id, target, scalar_arg)                                                                   \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        ct_tensor *w_ = ct_wrap_scalar(args[scalar_arg]);                                                          \
        if (!w_) return -1;                                                                                        \
        int rc_ = (scalar_arg) == 0 ? target(w_, ARG_T(1), ARG_T(2)) : target(ARG_T(0), w_, ARG_T(2));              \
        ct_tensor_release(w_);                                                                                     \
        return rc_ != 0 ? -1 : ct_ret_self(rets, ARG_T(2));                                                        \
    }

/* an out= overload PyTorch's generator writes (`autogen`): the functional (call), then its result
 * into out (ct_out_from_result: resized, dtype checked, copied); out_arg: out's argument */
#define CT_BIN_AUTOGEN_OUT(id, call, out_arg)                                                                    \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_out_from_result(call, ARG_T(out_arg), rets);                                                     \
    }

#endif
