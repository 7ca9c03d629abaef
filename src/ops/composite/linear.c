/* CompositeImplicitAutograd bodies of linear and matmul (Linear.cpp, LinearAlgebra.cpp).
 * They run in the AutogradCPU and CPU slots and call their constituents through the
 * dispatcher, so autograd records t/addmm (never "linear") and modes see t/addmm. */
#include <string.h>

#include "ops/kernel_util.h"

/* _flatten_nd_linear: fold the leading dims, addmm, view back. */
static ct_tensor *flatten_nd_linear(ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
    int64_t flattened = 1;
    for (int i = 0; i < input->ndim - 1; i++) flattened *= input->sizes[i];
    int64_t shape2[2] = {flattened, input->sizes[input->ndim - 1]};
    ct_tensor *inp = ct_reshape(input, shape2, 2);
    ct_tensor *wt = inp ? ct_t(weight) : NULL;
    ct_tensor *res = wt ? ct_addmm(bias, inp, wt, ct_int(1), ct_int(1)) : NULL;
    ct_tensor *out = NULL;
    if (res) {
        int64_t sizes[CT_MAX_DIMS];
        int n = 0;
        for (int i = 0; i < input->ndim - 1; i++) sizes[n++] = input->sizes[i];
        sizes[n++] = res->sizes[1];
        out = ct_view(res, sizes, n);
    }
    ct_tensor_release(inp);
    ct_tensor_release(wt);
    ct_tensor_release(res);
    return out;
}

/* linear(Tensor input, Tensor weight, Tensor? bias=None) */
int ct_k_linear(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_T(1), *bias = ARG_OPT_T(2);
    if (input->ndim == 0 || weight->ndim == 0)
        return ct_error_set(CT_ERR_RUNTIME, "both arguments to linear need to be at least 1D, but they are %dD and %dD",
                            input->ndim, weight->ndim);
    if (input->ndim == 2 && bias) {
        /* the fused op */
        ct_tensor *wt = ct_t(weight);
        if (!wt) return -1;
        ct_tensor *r = ct_addmm(bias, input, wt, ct_int(1), ct_int(1));
        ct_tensor_release(wt);
        return ct_ret(rets, 0, r);
    }
    if (bias && ct_tensor_is_contiguous(input) && (input->ndim == 3 || bias->ndim == 1))
        return ct_ret(rets, 0, flatten_nd_linear(input, weight, bias));
    ct_tensor *wt = ct_t(weight);
    if (!wt) return -1;
    ct_tensor *out = ct_matmul(input, wt);
    ct_tensor_release(wt);
    if (!out) return -1;
    if (bias) {
        /* subclass-like bias (or any, under a dispatch mode): the out-of-place add */
        if (ct_is_tensor_subclass_like(bias)) {
            ct_tensor *o2 = ct_add(out, bias, ct_int(1));
            ct_tensor_release(out);
            return ct_ret(rets, 0, o2);
        }
        if (ct_add_(out, bias, ct_int(1)) != 0) {
            ct_tensor_release(out);
            return -1;
        }
    }
    return ct_ret(rets, 0, out);
}

/* matmul(Tensor self, Tensor other): the dimension cases of _matmul_impl that ctorch has. */
int ct_k_matmul(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *t1 = ARG_T(0), *t2 = ARG_T(1);
    int d1 = t1->ndim, d2 = t2->ndim;
    if (d1 == 0 || d2 == 0)
        return ct_error_set(CT_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", d1, d2);
    if (d1 == 2 && d2 == 2) return ct_ret(rets, 0, ct_mm(t1, t2));
    if (d1 >= 3 && d2 == 2) {
        /* fold the batch of t1 into its leading matrix dimension: reshape, mm, _unsafe_view */
        int64_t folded = 1;
        int64_t out_shape[CT_MAX_DIMS];
        int n = 0;
        for (int i = 0; i < d1 - 1; i++) {
            folded *= t1->sizes[i];
            out_shape[n++] = t1->sizes[i];
        }
        out_shape[n++] = t2->sizes[1];
        int64_t s2[2] = {folded, t1->sizes[d1 - 1]};
        ct_tensor *f = ct_reshape(t1, s2, 2);
        if (!f) return -1;
        ct_tensor *p = ct_mm(f, t2);
        ct_tensor_release(f);
        if (!p) return -1;
        ct_tensor *r = ct__unsafe_view(p, out_shape, n);
        ct_tensor_release(p);
        return ct_ret(rets, 0, r);
    }
    if (d1 == 1 && d2 == 2) {
        /* tensor1.unsqueeze(0).mm(tensor2).squeeze_(0) */
        ct_tensor *u = ct_unsqueeze(t1, 0);
        ct_tensor *p = u ? ct_mm(u, t2) : NULL;
        ct_tensor_release(u);
        if (!p) return -1;
        if (ct_squeeze_dim_(p, 0) != 0) {
            ct_tensor_release(p);
            return -1;
        }
        return ct_ret(rets, 0, p);
    }
    return ct_error_set(CT_ERR_NOT_IMPLEMENTED,
                        "ctorch: matmul of a %dD and a %dD tensor is not implemented yet (2D@2D, ND@2D and 1D@2D are)", d1, d2);
}
