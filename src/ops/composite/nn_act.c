/* The composite activations and losses, as PyTorch's CompositeImplicitAutograd (and, for celu,
 * CompositeExplicitAutograd) kernels decompose them: relu6 -> hardtanh(0, 6), selu and celu ->
 * elu, log_sigmoid -> log_sigmoid_forward's output, l1_loss -> (self - target).abs() reduced,
 * kl_div -> xlogy(target, target) - target * self (log_target: exp(target) * (target - self))
 * reduced. */
#include "ops/kernel_util.h"

#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

int ct_k_relu6(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_hardtanh(ARG_T(0), ct_int(0), ct_int(6)));
}

int ct_k_relu6_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ct_hardtanh_(ARG_T(0), ct_int(0), ct_int(6)) != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

int ct_k_selu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_elu(ARG_T(0), ct_double(SELU_ALPHA), ct_double(SELU_SCALE), ct_int(1)));
}

int ct_k_selu_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ct_elu_(ARG_T(0), ct_double(SELU_ALPHA), ct_double(SELU_SCALE), ct_int(1)) != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

static int celu_alpha(const ct_value *a, double *inv) {
    double alpha = ct_scalar_to_double(*a);
    if (alpha == 0) return ct_error_set(CT_ERR_RUNTIME, "ZeroDivisionError: alpha cannot be 0 for CELU");
    *inv = 1.0 / alpha;
    return 0;
}

int ct_k_celu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    double inv = 0;
    if (celu_alpha(&args[1], &inv) != 0) return -1;
    return ct_ret(rets, 0, ct_elu(ARG_T(0), args[1], ct_double(1.0), ct_double(inv)));
}

int ct_k_celu_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    double inv = 0;
    if (celu_alpha(&args[1], &inv) != 0) return -1;
    if (ct_elu_(ARG_T(0), args[1], ct_double(1.0), ct_double(inv)) != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

int ct_k_log_sigmoid(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *out = NULL, *buf = NULL;
    if (ct_log_sigmoid_forward(ARG_T(0), &out, &buf) != 0) return -1;
    ct_tensor_release(buf);
    return ct_ret(rets, 0, out);
}

/* the loss reduced as apply_loss_reduction does (0 none, 1 mean, 2 sum); takes loss */
static int loss_reduction(ct_tensor *loss, int64_t reduction, ct_value *rets) {
    if (!loss) return -1;
    if (reduction == 0) return ct_ret(rets, 0, loss);
    ct_tensor *r = reduction == 1 ? ct_mean(loss, CT_DTYPE_UNDEFINED) : ct_sum(loss, CT_DTYPE_UNDEFINED);
    ct_tensor_release(loss);
    return ct_ret(rets, 0, r);
}

/* kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False); the right
 * operand first, as PyTorch's GCC build evaluates it */
int ct_k_kl_div(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1), *a, *b, *out;
    if (!ct_dtype_is_floating(self->dtype) || !ct_dtype_is_floating(target->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "kl_div: Integral inputs not supported.");
    if (ARG_B(3)) {
        a = ct_sub(target, self, ct_int(1));
        b = a ? ct_exp(target) : NULL;
        out = b ? ct_mul(b, a) : NULL;
    } else {
        a = ct_mul(target, self);
        b = a ? ct_xlogy_tensor(target, target) : NULL;
        out = b ? ct_sub(b, a, ct_int(1)) : NULL;
    }
    ct_tensor_release(a);
    ct_tensor_release(b);
    return loss_reduction(out, ARG_I(2), rets);
}

/* l1_loss(Tensor self, Tensor target, int reduction=1) */
int ct_k_l1_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *d = ct_sub(ARG_T(0), ARG_T(1), ct_int(1));
    ct_tensor *a = d ? ct_abs(d) : NULL;
    ct_tensor_release(d);
    if (!a) return -1;
    int64_t reduction = ARG_I(2);
    if (reduction == 0) return ct_ret(rets, 0, a);
    ct_tensor *r = reduction == 1 ? ct_mean(a, CT_DTYPE_UNDEFINED) : ct_sum(a, CT_DTYPE_UNDEFINED);
    ct_tensor_release(a);
    return ct_ret(rets, 0, r);
}
