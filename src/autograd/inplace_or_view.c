/* The generic ADInplaceOrView kernel (ADInplaceOrViewType): bumps the version counter of the
 * tensor an in-place op wrote. */
#include "core/tensor_impl.h"
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "ops/kernels.h"

CT_KERNEL(ct_k_adinplace_or_view) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    if (rc == 0 && op->inplace && args[0].tag == CT_TAG_TENSOR && args[0].u.t->storage) args[0].u.t->storage->version++;
    return rc;
}

CT_KERNEL(ct_k_adinplace_detach) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    return rc;
}
