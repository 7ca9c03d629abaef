/* The binary family's aliases (CompositeImplicitAutograd, as PyTorch defines them): greater,
 * greater_equal, less, less_equal and not_equal are gt, ge, lt, le and ne; arctan2 is atan2;
 * divide and true_divide are div; each in its functional, in-place and out= forms, calling its
 * operator through the dispatcher (a dispatch mode sees aten.gt.Tensor for torch.greater). Also
 * float_power's out= forms: pow's out= over the operands in float64, into an out of float64. */
#include <math.h>
#include <string.h>

#include "ctorch/dispatch.h"
#include "ops/cpu/binary_impl.h"

#define ALIAS_TT(id, target)                                                                                     \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_ret(rets, 0, target(ARG_T(0), ARG_T(1)));                                                        \
    }
#define ALIAS_TS(id, target)                                                                                     \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return ct_ret(rets, 0, target(ARG_T(0), args[1]));                                                         \
    }
#define ALIAS_TT_(id, target)                                                                                    \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return target(ARG_T(0), ARG_T(1)) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                                 \
    }
#define ALIAS_TS_(id, target)                                                                                    \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return target(ARG_T(0), args[1]) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));                                  \
    }
#define ALIAS_TT_OUT(id, target)                                                                                 \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return target(ARG_T(0), ARG_T(1), ARG_T(2)) != 0 ? -1 : ct_ret_self(rets, ARG_T(2));                       \
    }
#define ALIAS_TS_OUT(id, target)                                                                                 \
    int ct_k_##id(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                                \
        (void)op, (void)ks;                                                                                        \
        return target(ARG_T(0), args[1], ARG_T(2)) != 0 ? -1 : ct_ret_self(rets, ARG_T(2));                        \
    }

#define COMPARISON_ALIAS(al, name)                                                                               \
    ALIAS_TS(al##_scalar, ct_##name##_scalar)                                                                    \
    ALIAS_TT(al##_tensor, ct_##name##_tensor)                                                                    \
    ALIAS_TS_OUT(al##_scalar_out, ct_##name##_scalar_out)                                                        \
    ALIAS_TT_OUT(al##_tensor_out, ct_##name##_tensor_out)                                                        \
    ALIAS_TS_(al##__scalar, ct_##name##__scalar)                                                                 \
    ALIAS_TT_(al##__tensor, ct_##name##__tensor)

COMPARISON_ALIAS(greater, gt)
COMPARISON_ALIAS(greater_equal, ge)
COMPARISON_ALIAS(less, lt)
COMPARISON_ALIAS(less_equal, le)
COMPARISON_ALIAS(not_equal, ne)

ALIAS_TT(arctan2, ct_atan2)
ALIAS_TT_OUT(arctan2_out, ct_atan2_out)
ALIAS_TT_(arctan2_, ct_atan2_)

ALIAS_TT(divide_tensor, ct_div)
ALIAS_TS(divide_scalar, ct_div_scalar)
ALIAS_TT_OUT(divide_out, ct_div_out)
ALIAS_TT_(divide__tensor, ct_div_)
ALIAS_TS_(divide__scalar, ct_div__scalar)
ALIAS_TT(true_divide_tensor, ct_div)
ALIAS_TS(true_divide_scalar, ct_div_scalar)
ALIAS_TT_OUT(true_divide_out, ct_div_out)
ALIAS_TT_(true_divide__tensor, ct_div_)
ALIAS_TS_(true_divide__scalar, ct_div__scalar)

static const char *mode_of(const ct_value *v) { return v->tag == CT_TAG_NONE ? NULL : v->u.s; }

int ct_k_divide_tensor_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_ret(rets, 0, ct_div_tensor_mode(ARG_T(0), ARG_T(1), mode_of(&args[2])));
}
int ct_k_divide_scalar_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_ret(rets, 0, ct_div_scalar_mode(ARG_T(0), args[1], mode_of(&args[2])));
}
int ct_k_divide_out_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_div_out_mode(ARG_T(0), ARG_T(1), mode_of(&args[2]), ARG_T(3)) != 0 ? -1 : ct_ret_self(rets, ARG_T(3));
}
int ct_k_divide__tensor_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_div__tensor_mode(ARG_T(0), ARG_T(1), mode_of(&args[2])) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}
int ct_k_divide__scalar_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    return ct_div__scalar_mode(ARG_T(0), args[1], mode_of(&args[2])) != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}

/* float_power's out= forms: the out must be float64 ("the output given to float_power has dtype
 * Float but the operation's result requires dtype Double"), then pow's out= in float64 */
static int float_power_out_check(const ct_tensor *out) {
    if (out->dtype != CT_FLOAT64)
        return ct_error_set(CT_ERR_RUNTIME, "the output given to float_power has dtype %s but the operation's result requires dtype Double",
                            ct_dtype_name(out->dtype));
    return 0;
}
static ct_tensor *as_double(ct_tensor *t) { return ct_to_dtype(t, CT_FLOAT64, false, false, CT_MEMORY_FORMAT_NONE); }

int ct_k_float_power_tensor_tensor_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (float_power_out_check(ARG_T(2)) != 0) return -1;
    ct_tensor *a = as_double(ARG_T(0)), *b = a ? as_double(ARG_T(1)) : NULL;
    int rc = b ? ct_pow_tensor_tensor_out(a, b, ARG_T(2)) : -1;
    ct_tensor_release(a);
    ct_tensor_release(b);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(2));
}
int ct_k_float_power_scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (float_power_out_check(ARG_T(2)) != 0) return -1;
    ct_tensor *b = as_double(ARG_T(1));
    int rc = b ? ct_pow_scalar_out(ct_double(ct_scalar_to_double(args[0])), b, ARG_T(2)) : -1;
    ct_tensor_release(b);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(2));
}
int ct_k_float_power_tensor_scalar_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    if (float_power_out_check(ARG_T(2)) != 0) return -1;
    ct_tensor *a = as_double(ARG_T(0));
    int rc = a ? ct_pow_tensor_scalar_out(a, ct_double(ct_scalar_to_double(args[1])), ARG_T(2)) : -1;
    ct_tensor_release(a);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(2));
}

/* ---- isclose (CompositeImplicitAutograd, TensorCompare.cpp) ----
 * self == other, or'ed with both NaN under equal_nan, then with |self - other| finite and at most
 * atol + |rtol * other| (bool operands in the default dtype). */

int ct_k_isclose(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op, (void)ks;
    ct_tensor *self = ARG_T(0), *other = ARG_T(1);
    double rtol = args[2].u.d, atol = args[3].u.d;
    bool equal_nan = args[4].u.b;
    if (self->dtype != other->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "%s did not match %s", ct_dtype_name(self->dtype), ct_dtype_name(other->dtype));
    if (!(rtol >= 0)) return ct_error_set(CT_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got %g", rtol);
    if (!(atol >= 0)) return ct_error_set(CT_ERR_RUNTIME, "atol must be greater than or equal to zero, but got %g", atol);
    ct_tensor *close = ct_eq_tensor(self, other);
    if (!close) return -1;
    ct_tensor *t[8] = {NULL};
    int rc = 0;
    if (equal_nan && ct_dtype_is_floating(self->dtype)) {
        t[0] = ct_isnan(self);
        t[1] = t[0] ? ct_isnan(other) : NULL;
        rc = t[1] && ct___iand___tensor(t[0], t[1]) == 0 && ct___ior___tensor(close, t[0]) == 0 ? 0 : -1;
    }
    if (rc == 0 && (rtol != 0 || atol != 0)) {
        ct_tensor *cs = self->dtype == CT_BOOL ? ct_to_dtype(self, ct_default_dtype(), false, false, CT_MEMORY_FORMAT_NONE)
                                               : ct_tensor_retain(self);
        ct_tensor *co = other->dtype == CT_BOOL ? ct_to_dtype(other, ct_default_dtype(), false, false, CT_MEMORY_FORMAT_NONE)
                                                : ct_tensor_retain(other);
        t[2] = cs, t[3] = co;
        ct_tensor *ro = cs && co ? ct_mul_scalar(co, ct_double(rtol)) : NULL;
        ct_tensor *aro = ct_abs(ro);
        ct_tensor *allowed = aro ? ct_add_scalar(aro, ct_double(atol), ct_int(1)) : NULL;
        ct_tensor *diff = allowed ? ct_sub(cs, co, ct_int(1)) : NULL;
        ct_tensor *actual = ct_abs(diff);
        ct_tensor *fin = ct_isfinite(actual);
        ct_tensor *le = fin ? ct_le_tensor(actual, allowed) : NULL;
        rc = le && ct___iand___tensor(fin, le) == 0 && ct___ior___tensor(close, fin) == 0 ? 0 : -1;
        ct_tensor_release(ro);
        ct_tensor_release(aro);
        ct_tensor_release(allowed);
        ct_tensor_release(diff);
        ct_tensor_release(actual);
        ct_tensor_release(fin);
        ct_tensor_release(le);
    }
    for (int i = 0; i < 8; i++) ct_tensor_release(t[i]);
    if (rc != 0) {
        ct_tensor_release(close);
        return -1;
    }
    return ct_ret(rets, 0, close);
}
