/* native_dropout and native_dropout_backward (Dropout.cpp's CPU kernels). In training (train true
 * or None) the mask is a bool tensor filled by bernoulli_(1 - p) from the CPU generator, as
 * PyTorch draws it, and the output input * mask * (1 / (1 - p)) (0 when p is 1); otherwise the
 * mask is all true and the output a clone. Every step goes through the dispatcher. */
#include "ops/kernel_util.h"

/* native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor) */
int ct_k_native_dropout(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0);
    const double p = args[1].u.d;
    const bool train = args[2].tag == CT_TAG_NONE || ARG_B(2);
    if (input->numel == 0) {
        ct_tensor *m = ct_empty_like(input, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
        if (!m) return -1;
        rets[0] = ct_tensor_value(ct_tensor_retain(input));
        rets[1] = ct_tensor_value(m);
        return 0;
    }
    ct_tensor *mask = NULL, *out = NULL;
    if (train) {
        const double p1m = 1. - p;
        const double scale = p1m == 0 ? 0. : 1. / p1m;
        mask = ct_empty_like(input, CT_BOOL, CT_CONTIGUOUS_FORMAT);
        if (mask && ct_bernoulli__float(mask, p1m, NULL) == 0) {
            out = ct_mul(input, mask);
            if (out && ct_mul_scalar_(out, ct_double(scale)) != 0) {
                ct_tensor_release(out);
                out = NULL;
            }
        }
    } else {
        mask = ct_ones_like(input, CT_BOOL, CT_MEMORY_FORMAT_NONE);
        out = mask ? ct_clone(input, CT_MEMORY_FORMAT_NONE) : NULL;
    }
    if (!out) {
        ct_tensor_release(mask);
        return -1;
    }
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(mask);
    return 0;
}

/* native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor:
 * grad_output * mask * scale */
int ct_k_native_dropout_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *a = ct_mul(ARG_T(0), ARG_T(1));
    ct_tensor *r = a ? ct_mul_scalar(a, ct_double(args[2].u.d)) : NULL;
    ct_tensor_release(a);
    return ct_ret(rets, 0, r);
}
