/* The comparisons (eq, ne, lt, le, gt, ge: Tensor and Scalar others, in place and out=), the
 * logical ops (logical_and/or/xor, logical_not's in-place and out= forms) and equal, through the
 * binary template (Note [The binary template] in binary.c). A comparison computes in the result
 * type of its operands and writes bool, or, in place or into an out= tensor, 1 and 0 of that
 * tensor's dtype: its output takes no part in the promotion (build_borrowing_comparison_op). */
#include <string.h>

#include "ops/cpu/binary_impl.h"

#define COMPARISON(name, fn)                                                                                     \
    CT_BIN_TT(name##_tensor, fn)                                                                                 \
    CT_BIN_TT_(name##__tensor, fn)                                                                               \
    CT_BIN_TT_OUT(name##_tensor_out, fn)                                                                         \
    CT_BIN_TS(name##__scalar, fn, 0)                                                                             \
    CT_BIN_TS(name##_scalar_out, fn, 2)

COMPARISON(ne, CT_BIN_NE)
COMPARISON(lt, CT_BIN_LT)
COMPARISON(le, CT_BIN_LE)
COMPARISON(gt, CT_BIN_GT)
COMPARISON(ge, CT_BIN_GE)
CT_BIN_TS(ne_scalar, CT_BIN_NE, -1)
CT_BIN_TS(lt_scalar, CT_BIN_LT, -1)
CT_BIN_TS(le_scalar, CT_BIN_LE, -1)
CT_BIN_TS(gt_scalar, CT_BIN_GT, -1)
CT_BIN_TS(ge_scalar, CT_BIN_GE, -1)
/* eq.Scalar and eq.Tensor have their kernels in masking.c and pointwise_ext.c */
CT_BIN_TT_(eq__tensor, CT_BIN_EQ)
CT_BIN_TT_OUT(eq_tensor_out, CT_BIN_EQ)
CT_BIN_TS(eq__scalar, CT_BIN_EQ, 0)
CT_BIN_TS(eq_scalar_out, CT_BIN_EQ, 2)

/* logical_and/or/xor (CompositeExplicitAutograd) are their out= kernels into a new bool
 * tensor (in place: into self) */
#define LOGICAL(name, fn, out_wrapper)                                                                           \
    CT_BIN_TT_OUT(name##_out, fn)                                                                                \
    int ct_k_##name(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                              \
        (void)op, (void)ks;                                                                                        \
        int64_t shape_[CT_MAX_DIMS];                                                                               \
        int n_;                                                                                                    \
        if (ct_broadcast_shapes(ARG_T(0)->sizes, ARG_T(0)->ndim, ARG_T(1)->sizes, ARG_T(1)->ndim, shape_, &n_) != 0) \
            return -1;                                                                                             \
        ct_tensor *r_ = ct_tensor_alloc(shape_, n_, CT_BOOL, false);                                               \
        if (!r_) return -1;                                                                                        \
        if (out_wrapper(ARG_T(0), ARG_T(1), r_) != 0) {                                                            \
            ct_tensor_release(r_);                                                                                 \
            return -1;                                                                                             \
        }                                                                                                          \
        return ct_ret(rets, 0, r_);                                                                                \
    }                                                                                                              \
    int ct_k_##name##_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                           \
        (void)op, (void)ks;                                                                                        \
        if (out_wrapper(ARG_T(0), ARG_T(1), ARG_T(0)) != 0) return -1;                                             \
        return ct_ret_self(rets, ARG_T(0));                                                                        \
    }

LOGICAL(logical_and, CT_BIN_LOGICAL_AND, ct_logical_and_out)
LOGICAL(logical_or, CT_BIN_LOGICAL_OR, ct_logical_or_out)
LOGICAL(logical_xor, CT_BIN_LOGICAL_XOR, ct_logical_xor_out)

/* logical_not.out: self == 0, written as out's dtype; logical_not_ is logical_not.out into self */
int ct_k_logical_not_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *zero = ct_wrap_scalar(ct_bool(false));
    if (!zero) return -1;
    int rc = ct_bin_run(CT_BIN_EQ, ARG_T(0), zero, ARG_T(1), rets);
    ct_tensor_release(zero);
    return rc;
}
int ct_k_logical_not_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (ct_logical_not_out(ARG_T(0), ARG_T(0)) != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

/* equal(Tensor self, Tensor other) -> bool: the same sizes and the same values (NaN is unequal) */
int ct_k_equal(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *a = ARG_T(0), *b = ARG_T(1);
    bool eq = a->ndim == b->ndim;
    for (int i = 0; eq && i < a->ndim; i++) eq = a->sizes[i] == b->sizes[i];
    for (int64_t i = 0; eq && i < a->numel; i++) {
        const char *pa = ct_tensor_elem_ptr(a, i), *pb = ct_tensor_elem_ptr(b, i);
        if (a->dtype == CT_INT64 && b->dtype == CT_INT64) eq = *(const int64_t *)pa == *(const int64_t *)pb;
        else eq = ct_elem_load(pa, a->dtype) == ct_elem_load(pb, b->dtype);
    }
    rets[0] = ct_bool(eq);
    return 0;
}
