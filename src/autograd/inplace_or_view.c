/* The ADInplaceOrView kernels (ADInplaceOrViewType_*.cpp, VariableTypeManual.cpp): in-place
 * ops bump the version counter their tensor shares with its views; view ops record their
 * base (as_view); detach makes its result a non-differentiable view via
 * shallow_copy_and_detach, which under a dispatch mode logs a second aten.detach. */
#include "autograd/node.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "ops/kernels.h"

/* as_view(base, output): the output remembers the tensor its storage belongs to. */
static int as_view(ct_tensor *self, ct_tensor *out) {
    if (out == self) return 0;
    ct_autograd_meta *m = ct_tensor_autograd_meta(out);
    if (!m) return -1;
    ct_tensor *base = self->autograd && self->autograd->is_view ? self->autograd->base : self;
    m->is_view = true;
    ct_tensor_release(m->base);
    m->base = ct_tensor_retain(base);
    return 0;
}

CT_KERNEL(ct_k_adinplace_or_view) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    if (rc != 0) return rc;
    if (op->inplace) {
        /* VariableVersion::bump: an inference tensor has no version counter to bump, and may
         * change only inside inference mode. As in PyTorch the kernel has already run. */
        if (ct_tensor_is_inference(args[0].u.t) && !ct_tls_state.inference_mode) {
            ct_values_release(rets, op->nrets);
            return ct_error_set(CT_ERR_RUNTIME,
                                "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                                "clone to get a normal tensor before doing inplace update.See "
                                "https://github.com/pytorch/rfcs/pull/17 for more details.");
        }
        ct_tensor_bump_version(args[0].u.t);
    } else if (op->view && args[0].tag == CT_TAG_TENSOR) {
        for (int r = 0; r < op->nrets; r++)
            if (rets[r].tag == CT_TAG_TENSOR && as_view(args[0].u.t, rets[r].u.t) != 0) {
                ct_values_release(rets, op->nrets);
                return -1;
            }
    }
    return 0;
}

/* make_variable_non_differentiable_view(self, detach(self)) */
CT_KERNEL(ct_k_adinplace_detach) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    if (rc != 0) return rc;
    ct_tensor *out = rets[0].u.t;
    ct_tensor *r = ct_shallow_copy_and_detach(out);
    ct_tensor_release(out);
    rets[0] = ct_none();
    if (!r) return -1;
    ct_tensor_share_version(r, args[0].u.t);
    rets[0] = ct_tensor_value(r);
    return 0;
}
