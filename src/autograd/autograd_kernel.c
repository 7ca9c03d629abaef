/* The generic autograd kernel: what PyTorch's gen_variable_type.py emits for each op
 * (VariableType_*.cpp), driven by the derivative table instead of generated code.
 *
 *   1. compute_requires_grad over the differentiable inputs (grad mode on, any requires grad)
 *   2. if so, make the node (taking a sequence number), set its next edges, save inputs
 *   3. redispatch below autograd: functional ops exclude autograd and ADInplaceOrView
 *      (AutoDispatchBelowADInplaceOrView), in-place and view ops only autograd
 *      (AutoDispatchBelowAutograd) so their ADInplaceOrView kernel runs
 *   4. set_history on the outputs (rebase_history for in-place), then save outputs */
#include <stdio.h>
#include <string.h>

#include "dispatch/call_impl.h"
#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "core/alloc.h"
#include "ctorch/error.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "ops/kernel_util.h"
#include "ops/kernels.h"
#include "dispatch/observe.h"

static uint32_t tensor_args(const ct_op *op) {
    uint32_t m = 0;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].type == CT_TY_TENSOR || op->args[i].type == CT_TY_TENSORLIST) m |= 1u << i;
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
        } else if (v->tag == CT_TAG_TENSORLIST) {
            /* the elements' geometry (to_args_sizes / to_args_scalartypes) */
            int64_t len = v->u.tlist.len;
            n->list_meta[i] = ct_calloc((size_t)(len ? len : 1), sizeof *n->list_meta[i]);
            if (!n->list_meta[i]) return -1;
            for (int64_t k = 0; k < len; k++)
                if (v->u.tlist.items[k]) ct_meta_of(&n->list_meta[i][k], v->u.tlist.items[k]);
            n->args[i] = ct_none();
        } else if (v->tag == CT_TAG_INTLIST) {
            memcpy(n->list_store + pos, v->u.list.data, (size_t)v->u.list.len * sizeof(int64_t));
            n->args[i] = ct_intlist(n->list_store + pos, v->u.list.len);
            pos += v->u.list.len;
        } else if (v->tag == CT_TAG_STRING) {
            n->strings[i] = ct_strdup(v->u.s);
            if (!n->strings[i]) return -1;
            n->args[i] = ct_string(n->strings[i]);
        } else if (v->tag == CT_TAG_GENERATOR || v->tag == CT_TAG_OBJECT) {
            n->args[i] = ct_none(); /* not needed by any formula, and not owned */
        } else {
            n->args[i] = *v;
        }
    }
    return 0;
}

static int check_inplace(const ct_op *op, ct_tensor *self, bool requires_grad) {
    (void)op;
    if (!requires_grad || !self || !self->autograd) return 0;
    /* check_inplace (VariableTypeUtils.h): a view first (a leaf that requires grad may itself be
     * a view, of a base that does not), then a leaf */
    if (self->autograd->is_view) {
        if (ct_tensor_requires_grad(self) && ct_tensor_is_leaf(self->autograd->base))
            return ct_error_set(CT_ERR_RUNTIME, "a view of a leaf Variable that requires grad is being used in an in-place operation.");
        /* an input that requires grad written into a view: PyTorch rebases the view's base onto
         * CopySlices whether or not the base required grad before */
        return ct_error_set(CT_ERR_UNSUPPORTED,
                            "ctorch: in-place modification of a view by an op whose inputs require grad is not supported yet (PyTorch records CopySlices here)");
    }
    if (ct_tensor_is_leaf(self) && self->autograd->requires_grad)
        return ct_error_set(CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    return 0;
}

/* The out= overload of a differentiable function (exp.out of exp, round.decimals_out of
 * round.decimals) refuses inputs that require grad, as PyTorch's generated kernels do; an out=
 * overload of a function without a derivative (signbit.out) runs below autograd. 0 or -1. */
static int check_out_overload(const ct_op *op, const ct_value *args) {
    int out_arg = -1;
    bool values_out = false; /* sort.values, topk.values: two outputs, values and indices */
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].alias_write && op->args[i].kwarg_only) {
            if (strcmp(op->args[i].name, "out") == 0) out_arg = i;
            else if (strcmp(op->args[i].name, "values") == 0 && strcmp(op->overload, "values") == 0) values_out = true;
        }
    if (out_arg < 0 && !values_out) return 0;
    bool any = false;
    for (int i = 0; i < op->nargs; i++)
        if (!op->args[i].alias_write && args[i].tag == CT_TAG_TENSOR && ct_tensor_requires_grad(args[i].u.t)) any = true;
    if (!any || !ct_is_grad_enabled()) return 0;
    /* the functional: the overload of the same name whose arguments are the out= overload's
     * without its outputs (sub.Tensor of sub.out, div.Tensor_mode of div.out_mode, xlogy.Tensor
     * of xlogy.OutTensor), as PyTorch's code generator pairs them */
    const ct_op *fn = NULL;
    for (int i = 0, n = ct_op_count(); i < n && !fn; i++) {
        const ct_op *c = ct_op_at(i);
        if (c == op || c->mutates || strcmp(c->base_name, op->base_name) != 0) continue;
        bool same = true;
        int j = 0;
        for (int k = 0; k < op->nargs && same; k++) {
            if (op->args[k].alias_write && op->args[k].kwarg_only) continue;
            same = j < c->nargs && strcmp(c->args[j].name, op->args[k].name) == 0 &&
                   strcmp(c->args[j].type_text, op->args[k].type_text) == 0;
            j++;
        }
        if (same && j == c->nargs) fn = c;
    }
    if (!fn || !ct_deriv_for(fn)) return 0;
    const char *base = strstr(op->base_name, "::");
    return ct_error_set(CT_ERR_RUNTIME,
                        "%s(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.",
                        base ? base + 2 : op->base_name);
}

/* gen_variable_type.py's DONT_REQUIRE_DERIVATIVE, for the in-place ops ctorch has: their generated
 * kernels neither check the tensor they write (no check_inplace) nor record anything */
static bool dont_require_derivative(const ct_op *op) {
    static const char *const names[] = {"aten::logical_and_", "aten::logical_or_", "aten::logical_xor_",
                                        "aten::logical_not_", "aten::__iand__",   "aten::__ior__",
                                        "aten::__ixor__",     "aten::__ilshift__", "aten::__irshift__", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(op->base_name, names[i]) == 0) return true;
    return false;
}

int ct_k_autograd(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    const ct_deriv *d = ct_deriv_for(op);
    if (!d && op->mutates && !op->inplace && check_out_overload(op, args) != 0) return -1;
    uint32_t diff = d ? d->diff_args : tensor_args(op);
    bool any = ct_any_requires_grad(args, diff, op->nargs);
    if (op->inplace && args[0].tag == CT_TAG_TENSOR && !(any && !d && dont_require_derivative(op)) &&
        check_inplace(op, args[0].u.t, any) != 0)
        return -1;
    if (op->nargs > 0 && op->args[0].alias_write && args[0].tag == CT_TAG_TENSORLIST) /* _foreach_*_ */
        for (int64_t k = 0; k < args[0].u.tlist.len; k++)
            if (check_inplace(op, args[0].u.tlist.items[k], any) != 0) return -1;
    ct_node *node = NULL;
    if (any && d) {
        if (!d->formula)
            return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: the derivative for '%s' is not implemented yet", op->name);
        /* the node receives one gradient per differentiable output (add_input_metadata); a
         * Tensor[] output's count is known once the op has run */
        int n_inputs = 0;
        for (int r = 0; r < op->nrets; r++)
            n_inputs += !(d->nondiff_rets >> r & 1u) && op->rets[r].type != CT_TY_TENSORLIST;
        node = ct_node_new_formula(d, op, args, n_inputs);
        if (!node) return -1;
        if (copy_args(node, op, args) != 0) {
            ct_node_release(node);
            return -1;
        }
        for (int i = 0; i < op->nargs; i++) {
            int e = node->edge_of_arg[i];
            if (e < 0) continue;
            int erc = 0;
            if (args[i].tag == CT_TAG_TENSOR) erc = ct_gradient_edge(args[i].u.t, &node->next[e]);
            else if (args[i].tag == CT_TAG_TENSORLIST)
                for (int64_t k = 0; k < args[i].u.tlist.len && erc == 0; k++)
                    if (args[i].u.tlist.items[k]) erc = ct_gradient_edge(args[i].u.tlist.items[k], &node->next[e + k]);
            if (erc != 0) {
                ct_node_release(node);
                return -1;
            }
        }
        /* save an argument when a gradient that needs it will be computed */
        for (int i = 0; i < op->nargs; i++) {
            uint32_t when = d->save_when[i];
            if (!when || (args[i].tag != CT_TAG_TENSOR && args[i].tag != CT_TAG_TENSORLIST)) continue;
            bool needed = false;
            for (int j = 0; j < op->nargs && !needed; j++)
                if ((when >> j & 1u) && ct_node_needs(node, j)) needed = true;
            if (!needed) continue;
            if (args[i].tag == CT_TAG_TENSORLIST) { /* a saved Tensor?[] (index's indices): each item */
                int64_t len = args[i].u.tlist.len;
                node->saved_lists[i] = ct_calloc((size_t)(len ? len : 1), sizeof *node->saved_lists[i]);
                int src = node->saved_lists[i] ? 0 : -1;
                for (int64_t k = 0; k < len && src == 0; k++)
                    if (args[i].u.tlist.items[k]) src = ct_saved_save(&node->saved_lists[i][k], args[i].u.tlist.items[k], false);
                if (src != 0) {
                    ct_node_release(node);
                    return -1;
                }
                continue;
            }
            /* an in-place op saves a clone of the self it is about to overwrite (original_self:
             * sin_ saves self.clone(), dispatched, as PyTorch's generated code does) */
            ct_tensor *keep = op->inplace && i == 0 ? ct_clone(args[i].u.t, CT_MEMORY_FORMAT_NONE) : ct_tensor_retain(args[i].u.t);
            int src = keep ? ct_saved_save(&node->saved_args[i], keep, false) : -1;
            ct_tensor_release(keep);
            if (src != 0) {
                ct_node_release(node);
                return -1;
            }
        }
    }
    ct_tls_sets g = ct_tls_sets_exclude((op->mutates || op->view) ? CT_AUTOGRAD_KEYSET : CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch_unchecked(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_tls_sets_restore(g);
    if (rc != 0 || !node) {
        ct_node_release(node);
        return rc;
    }
    uint32_t nondiff = d->nondiff_rets, output_nr = 0;
    for (int r = 0; r < op->nrets; r++) {
        if (nondiff >> r & 1u) continue;
        if (rets[r].tag == CT_TAG_TENSORLIST) {
            /* flatten_tensor_args(result): each element is an output of the node */
            int64_t len = rets[r].u.tlist.len;
            if (ct_node_set_num_inputs(node, (int)(output_nr + len)) != 0) goto fail;
            for (int64_t k = 0; k < len; k++) {
                ct_tensor *out = rets[r].u.tlist.items[k];
                uint32_t nr = output_nr++;
                if (ct_dtype_is_floating(out->dtype) && ct_set_history(out, node, nr) != 0) goto fail;
            }
            continue;
        }
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
int ct_k_autograd_fallback(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls_sets g = ct_tls_sets_exclude(CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);
    int rc = ct_redispatch_unchecked(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_tls_sets_restore(g);
    return rc;
}

/* detach_'s manual autograd kernel (VariableTypeManual.cpp): a "detach_" range; self loses its
 * history and stops requiring grad; nothing below autograd runs. */
int ct_k_autograd_detach_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    void *rec = ct_record_range_begin("detach_", args, 1, NULL);
    ct_tensor *self = args[0].u.t;
    int rc = 0;
    if (self->autograd && self->autograd->is_view) {
        rc = ct_error_set(CT_ERR_RUNTIME,
                          "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                          "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                          "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                          "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
    } else if (self->autograd) {
        ct_autograd_meta *m = self->autograd;
        m->requires_grad = false;
        ct_node_release(m->grad_fn);
        m->grad_fn = NULL;
        m->output_nr = 0;
    }
    ct_record_range_end(rec);
    return rc != 0 ? rc : ct_ret_self(rets, self);
}

/* detach's manual autograd kernel (VariableTypeManual.cpp): a "detach" range, then below
 * autograd; the result has no history. */
int ct_k_autograd_detach(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    void *rec = ct_record_range_begin("detach", args, 1, NULL);
    ct_tls_sets g = ct_tls_sets_exclude(CT_AUTOGRAD_KEYSET);
    int rc = ct_redispatch_unchecked(op, ks & CT_AFTER_AUTOGRAD_KEYSET, args, rets);
    ct_tls_sets_restore(g);
    ct_record_range_end(rec);
    return rc;
}
