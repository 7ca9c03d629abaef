/* The generic autograd kernel: what PyTorch's gen_variable_type.py emits for each op
 * (VariableType_*.cpp), driven by the derivative table instead of generated code.
 *
 *   1. compute_requires_grad over the differentiable inputs (grad mode on, any requires grad)
 *   2. if so, make the node (taking a sequence number), set its next edges, save inputs
 *   3. redispatch below autograd: functional ops exclude autograd and ADInplaceOrView
 *      (AutoDispatchBelowADInplaceOrView), in-place and view ops only autograd
 *      (AutoDispatchBelowAutograd) so their ADInplaceOrView kernel runs
 *   4. set_history on the outputs (rebase_history for in-place), then save outputs */
#include <string.h>

#include "autograd/node.h"
#include "core/alloc.h"
#include "ctorch/error.h"
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "ops/kernels.h"
#include "profiler/record.h"

static uint32_t tensor_args(const ct_op *op) {
    uint32_t m = 0;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].type == CT_TY_TENSOR) m |= 1u << i;
    return m;
}

/* Copies the op's non-tensor arguments into the node (lists into node-owned memory). */
static int copy_args(ct_node *n, const ct_op *op, const ct_value *args) {
    int64_t total = 0;
    for (int i = 0; i < op->nargs; i++)
        if (args[i].tag == CT_TAG_INTLIST) total += args[i].u.list.len;
    n->args = ct_calloc((size_t)(op->nargs ? op->nargs : 1), sizeof *n->args);
    n->arg_meta = ct_calloc((size_t)(op->nargs ? op->nargs : 1), sizeof *n->arg_meta);
    n->list_store = total ? ct_malloc((size_t)total * sizeof(int64_t)) : NULL;
    if (!n->args || !n->arg_meta || (total && !n->list_store)) return -1;
    int64_t pos = 0;
    for (int i = 0; i < op->nargs; i++) {
        const ct_value *v = &args[i];
        if (v->tag == CT_TAG_TENSOR) {
            ct_meta_of(&n->arg_meta[i], v->u.t);
            n->args[i] = ct_none();
        } else if (v->tag == CT_TAG_INTLIST && v->u.list.len == 0) {
            /* an empty list (sum(dim=[])): no storage, and no offset into a NULL one */
            static const int64_t no_ints[1] = {0};
            n->args[i] = ct_intlist(no_ints, 0);
        } else if (v->tag == CT_TAG_INTLIST) {
            memcpy(n->list_store + pos, v->u.list.data, (size_t)v->u.list.len * sizeof(int64_t));
            n->args[i] = ct_intlist(n->list_store + pos, v->u.list.len);
            pos += v->u.list.len;
        } else if (v->tag == CT_TAG_STRING || v->tag == CT_TAG_GENERATOR || v->tag == CT_TAG_OBJECT) {
            n->args[i] = ct_none(); /* not needed by any formula, and not owned */
        } else {
            n->args[i] = *v;
        }
    }
    return 0;
}

static int check_inplace(const ct_op *op, ct_tensor *self, bool requires_grad) {
    (void)op;
    if (!requires_grad || !self->autograd) return 0;
    if (ct_tensor_is_leaf(self) && self->autograd->requires_grad)
        return ct_error_set(CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    if (self->autograd->is_view && ct_tensor_requires_grad(self->autograd->base))
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED,
                            "ctorch: in-place modification of a view of a tensor that requires grad is not supported yet (PyTorch records CopySlices here)");
    return 0;
}

CT_KERNEL(ct_k_autograd) {
    const ct_deriv *d = ct_deriv_for(op);
    uint32_t diff = d ? d->diff_args : tensor_args(op);
    bool any = ct_any_requires_grad(args, diff, op->nargs);
    if (op->inplace && args[0].tag == CT_TAG_TENSOR && check_inplace(op, args[0].u.t, any) != 0) return -1;
    ct_node *node = NULL;
    if (any && d) {
        if (!d->formula)
            return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "ctorch: the derivative for '%s' is not implemented yet", op->name);
        /* the node receives one gradient per differentiable output (add_input_metadata) */
        int n_inputs = 0;
        for (int r = 0; r < op->nrets; r++) n_inputs += !(d->nondiff_rets >> r & 1u);
        node = ct_node_new_formula(d, op, n_inputs);
        if (!node) return -1;
        if (copy_args(node, op, args) != 0) {
            ct_node_release(node);
            return -1;
        }
        for (int i = 0; i < op->nargs; i++) {
            int e = node->edge_of_arg[i];
            if (e >= 0 && args[i].tag == CT_TAG_TENSOR && ct_gradient_edge(args[i].u.t, &node->next[e]) != 0) {
                ct_node_release(node);
                return -1;
            }
        }
        /* save an argument when a gradient that needs it will be computed */
        for (int i = 0; i < op->nargs; i++) {
            uint32_t when = d->save_when[i];
            if (!when || args[i].tag != CT_TAG_TENSOR) continue;
            bool needed = false;
            for (int j = 0; j < op->nargs && !needed; j++)
                if ((when >> j & 1u) && ct_node_needs(node, j)) needed = true;
            if (needed && ct_saved_save(&node->saved_args[i], args[i].u.t, false) != 0) {
                ct_node_release(node);
                return -1;
            }
        }
    }
    ct_key_guard g;
    ct_key_guard_exclude(&g, (op->inplace || op->view) ? CT_AUTOGRAD_KEYSET : CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    if (rc != 0 || !node) {
        ct_node_release(node);
        return rc;
    }
    uint32_t nondiff = d->nondiff_rets, output_nr = 0;
    for (int r = 0; r < op->nrets; r++) {
        if (nondiff >> r & 1u) continue;
        uint32_t nr = output_nr++;
        if (rets[r].tag != CT_TAG_TENSOR) continue;
        ct_tensor *out = rets[r].u.t;
        if (!ct_dtype_is_floating(out->dtype)) continue;
        if (ct_set_history(out, node, nr) != 0) goto fail;
    }
    for (int r = 0; r < op->nrets; r++) {
        if ((d->save_rets >> r & 1u) && rets[r].tag == CT_TAG_TENSOR &&
            ct_saved_save(&node->saved_rets[r], rets[r].u.t, true) != 0)
            goto fail;
    }
    ct_node_release(node);
    return 0;
fail:
    ct_node_release(node);
    ct_values_release(rets, op->nrets);
    return -1;
}

/* The autograd fallback (VariableFallbackKernel.cpp) for operators without an autograd
 * kernel, e.g. user-defined ones: route below autograd; outputs get no history. */
CT_KERNEL(ct_k_autograd_fallback) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    return rc;
}

/* detach's manual autograd kernel (VariableTypeManual.cpp): a "detach" range, then below
 * autograd; the result has no history. */
CT_KERNEL(ct_k_autograd_detach) {
    void *rec = ct_record_function_begin("detach", args, 1, NULL);
    ct_key_guard g;
    ct_key_guard_exclude(&g, CT_AUTOGRAD_KEYSET);
    int rc = ct_redispatch(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_key_guard_pop(&g);
    ct_record_function_end(rec);
    return rc;
}
