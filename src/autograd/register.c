/* Autograd's registrations, run once by the start-up after every other layer's (PyTorch's
 * gen_variable_type.py and gen_inplace_or_view_type.py see every native function): the
 * derivative index, the manual kernels (VariableTypeManual.cpp), the generic VariableType and
 * ADInplaceOrView kernels, the autograd fallbacks, and core's metadata hooks. */
#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "dispatch/op_impl.h"
#include "ops/builtin.h"

/* Kernels written for one op (VariableTypeManual.cpp), and the VariableType kernels PyTorch
 * registers for the CompositeImplicitAutograd ops linear, matmul, narrow and chunk (derivatives.yaml entries
 * used by nested tensors; the composite kernel still fills AutogradCPU, as the precedence
 * rules say), and for silu_backward and mish_backward, which have a CPU kernel besides their
 * composite one (so the autograd kernel fills AutogradCPU). */
static const struct {
    ct_opid id;
    ct_dispatch_key key;
    ct_kernel_fn fn;
} manual[] = {
    {CT_OPID_detach, CT_KEY_Autograd, ct_k_autograd_detach},
    {CT_OPID_detach, CT_KEY_ADInplaceOrView, ct_k_adinplace_detach},
    {CT_OPID_detach_, CT_KEY_Autograd, ct_k_autograd_detach_},
    {CT_OPID_linear, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_matmul, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_narrow, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_narrow, CT_KEY_ADInplaceOrView, ct_k_adinplace_or_view},
    {CT_OPID_chunk, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_chunk, CT_KEY_ADInplaceOrView, ct_k_adinplace_or_view},
    {CT_OPID_silu_backward, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_mish_backward, CT_KEY_Autograd, ct_k_autograd},
    {CT_OPID_max_pool2d, CT_KEY_Autograd, ct_k_autograd},
};

static void register_generic(ct_opid id) {
    const ct_op *op = ct_builtin_ops[id];
    if (!op || op->regs[CT_KEY_CompositeImplicitAutograd].present) return;
    /* VariableType: every non-composite op has an autograd kernel (gen_variable_type.py). */
    if (!op->regs[CT_KEY_Autograd].present)
        ct_register_kernel(op, CT_KEY_Autograd, ct_k_autograd, CT_HERE);
    /* ADInplaceOrViewType: every in-place, out= and view op (gen_inplace_or_view_type.py). */
    if ((op->mutates || op->view) && !op->regs[CT_KEY_ADInplaceOrView].present && !ct_builtin_no_adinplace(id))
        ct_register_kernel(op, CT_KEY_ADInplaceOrView, ct_k_adinplace_or_view, CT_HERE);
}

void ct_autograd_register(void) {
    ct_derivatives_index();
    ct_autograd_install_meta_hooks();
    ct_register_fallback(CT_KEY_AutogradCPU, ct_k_autograd_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_AutogradOther, ct_k_autograd_fallback, CT_HERE);
    for (size_t i = 0; i < sizeof manual / sizeof manual[0]; i++)
        ct_register_kernel(ct_builtin_ops[manual[i].id], manual[i].key, manual[i].fn, CT_HERE);
    for (int id = 0; id < CT_OPID_COUNT; id++) register_generic((ct_opid)id);
}
