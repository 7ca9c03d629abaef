/* The generic autograd kernel (VariableType) and the autograd backend fallback.
 * Graph recording arrives with the autograd engine; for now the kernel routes the call
 * exactly as PyTorch's generated kernels do: exclude the autograd keys (and, for functional
 * ops, ADInplaceOrView) and redispatch below autograd. */
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "ops/kernels.h"

CT_KERNEL(ct_k_autograd) {
    ct_key_guard g;
    /* AutoDispatchBelowAutograd for in-place/view ops (their ADInplaceOrView kernel must run),
     * AutoDispatchBelowADInplaceOrView for functional ops. */
    ct_key_guard_exclude(&g, (op->inplace || op->view) ? CT_AUTOGRAD_KEYSET : CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    return rc;
}

CT_KERNEL(ct_k_autograd_fallback) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    return rc;
}

/* detach's manual autograd kernel (VariableTypeManual.cpp). */
CT_KERNEL(ct_k_autograd_detach) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    return rc;
}
