/* The CompositeImplicitAutograd forms of var, std, var_mean and std_mean (ReduceOps.cpp): the
 * unbiased= overloads are their .correction overload with correction 1 (unbiased) or 0, called
 * through the dispatcher as PyTorch calls it, so a dispatch mode sees aten::var.correction. */
#include "ops/api_call.h"
#include "ops/kernel_util.h"

/* the .correction overload of id with (self, dim or None, unbiased, keepdim) */
static int by_correction(ct_opid id, ct_tensor *self, const ct_value *dim, bool unbiased, bool keepdim, int nrets,
                         ct_value *rets) {
    ct_value a[4] = {ct_tensor_value(self), dim ? *dim : ct_none(), ct_int(unbiased ? 1 : 0), ct_bool(keepdim)};
    ct_value r[2] = {ct_none(), ct_none()};
    if (ct_api_call(id, a, r) != 0) return -1;
    for (int i = 0; i < nrets; i++) rets[i] = r[i];
    return 0;
}

int ct_k_var(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_var_correction, ARG_T(0), NULL, ARG_B(1), false, 1, rets);
}

int ct_k_var_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_var_correction, ARG_T(0), &args[1], ARG_B(2), ARG_B(3), 1, rets);
}

int ct_k_std(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_std_correction, ARG_T(0), NULL, ARG_B(1), false, 1, rets);
}

int ct_k_std_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_std_correction, ARG_T(0), &args[1], ARG_B(2), ARG_B(3), 1, rets);
}

int ct_k_var_mean(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_var_mean_correction, ARG_T(0), NULL, ARG_B(1), false, 2, rets);
}

int ct_k_var_mean_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_var_mean_correction, ARG_T(0), &args[1], ARG_B(2), ARG_B(3), 2, rets);
}

int ct_k_std_mean(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_std_mean_correction, ARG_T(0), NULL, ARG_B(1), false, 2, rets);
}

int ct_k_std_mean_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return by_correction(CT_OPID_std_mean_correction, ARG_T(0), &args[1], ARG_B(2), ARG_B(3), 2, rets);
}
