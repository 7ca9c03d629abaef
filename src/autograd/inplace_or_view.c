/* The ADInplaceOrView kernels (ADInplaceOrViewType_*.cpp, VariableTypeManual.cpp): in-place
 * ops bump the version counter their tensor shares with its views; view ops record their
 * base (as_view); detach makes its result a non-differentiable view via
 * shallow_copy_and_detach, which under a dispatch mode logs a second aten.detach. */
#include "dispatch/call_impl.h"
#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
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

int ct_k_adinplace_or_view(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls_sets g = ct_tls_sets_exclude(CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch_unchecked(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_tls_sets_restore(g);
    if (rc != 0) return rc;
    if (op->mutates) {
        /* VariableVersion::bump: an inference tensor has no version counter to bump, and may
         * change only inside inference mode. As in PyTorch the kernel has already run. */
        for (int i = 0; i < op->nargs; i++) {
            if (!op->args[i].alias_write || args[i].tag != CT_TAG_TENSOR) continue;
            if (ct_tensor_is_inference(args[i].u.t) && !ct_tls_state.inference_mode) {
                ct_values_release(rets, op->nrets);
                return ct_error_set(CT_ERR_RUNTIME,
                                    "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                                    "make a clone to get a normal tensor before doing inplace update.See "
                                    "https://github.com/pytorch/rfcs/pull/17 for more details.");
            }
        }
        /* increment_version of every written argument (self of an in-place op, out of an out= op) */
        for (int i = 0; i < op->nargs; i++) {
            if (!op->args[i].alias_write) continue;
            if (args[i].tag == CT_TAG_TENSOR) ct_tensor_bump_version(args[i].u.t);
            else if (args[i].tag == CT_TAG_TENSORLIST)
                for (int64_t k = 0; k < args[i].u.tlist.len; k++) ct_tensor_bump_version(args[i].u.tlist.items[k]);
        }
    } else if (op->view && args[0].tag == CT_TAG_TENSOR) {
        for (int r = 0; r < op->nrets; r++) {
            int bad = 0;
            if (rets[r].tag == CT_TAG_TENSOR) {
                bad = as_view(args[0].u.t, rets[r].u.t);
            } else if (rets[r].tag == CT_TAG_TENSORLIST) { /* split: every piece is a view of self */
                for (int64_t k = 0; k < rets[r].u.tlist.len && !bad; k++)
                    bad = as_view(args[0].u.t, rets[r].u.tlist.items[k]);
            }
            if (bad) {
                ct_values_release(rets, op->nrets);
                return -1;
            }
        }
    }
    return 0;
}

/* make_variable_non_differentiable_view(self, detach(self)) */
int ct_k_adinplace_detach(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls_sets g = ct_tls_sets_exclude(CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch_unchecked(op, ks & CT_AFTER_ADINPLACEORVIEW_KEYSET, args, rets);
    ct_tls_sets_restore(g);
    if (rc != 0) return rc;
    ct_tensor *r = ct_shallow_copy_and_detach_consume(rets[0].u.t);
    rets[0] = ct_none();
    if (!r) return -1;
    ct_tensor_share_version(r, args[0].u.t);
    rets[0] = ct_tensor_value(r);
    return 0;
}
