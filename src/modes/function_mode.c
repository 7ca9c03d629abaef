/* What a function mode (TorchFunctionMode) does with a call: public calls are offered to the
 * top function mode, popped while its handler runs, before anything is dispatched
 * (torch/csrc/utils/python_arg_parser.cpp, handle_torch_function). The stack is mode_stack.c's. */
#include <stdint.h>
#include <string.h>

#include "core/error_impl.h"
#include "dispatch/call_impl.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "modes/function_impl.h"
#include "modes/modes_impl.h"
#include "modes/mode_stack.h"
#include "ops/api_call.h"

const char *ct_function_name(const ct_function *f) { return f ? f->name : ""; }
int ct_function_num_args(const ct_function *f) { return f ? f->nargs : 0; }
int ct_function_num_returns(const ct_function *f) { return f ? f->nrets : 0; }
const ct_op *ct_function_op(const ct_function *f) { return f ? f->op : NULL; }

/* From a typed wrapper (ct_function_invoke): the values have the schema's types already (Note
 * [Checked and unchecked calls] in dispatch/check.c). */
static int run_impl(const ct_function *f, ct_value *args, ct_value *rets) {
    if (f->op) return ct_dispatch_call(f->op, args, rets);
    return f->impl(args, rets);
}

static int offer_to_mode(const ct_function *f, ct_value *args, ct_value *rets);

int ct_function_call(const ct_function *f, ct_value *args, ct_value *rets) {
    if (!f) return ct_error_set(CT_ERR_VALUE, "ct_function_call: function is NULL");
    if ((!args && f->nargs > 0) || (!rets && f->nrets > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_function_call: %s is NULL", !args && f->nargs > 0 ? "args" : "rets");
    /* Note [Ret slots start as None] in dispatch/call.c: a failure releases rets */
    for (int i = 0; i < f->nrets; i++) rets[i] = ct_none();
    /* the values may be a handler's own (a number where the schema has a tensor): checked as
     * ct_call checks them, before any handler or kernel reads them; the C bodies check theirs */
    if (ct_tls_state.function_modes == 0) return f->op ? ct_call(f->op, args, rets) : f->impl(args, rets);
    if (f->op && ct_call_check(f->op, args, rets) < 0) return -1;
    return offer_to_mode(f, args, rets);
}

/* dispatch_on_mode for torch functions: pop the mode while its handler runs. The values have
 * the schema's types (checked or typed by the caller); rets are None. */
static int offer_to_mode(const ct_function *f, ct_value *args, ct_value *rets) {
    ct_mode_entry m = ct_mode_take(CT_MODE_FUNCTION);
    uint64_t errors = ct_error_serial();
    int rc = m.fn.function(m.ud, f, args, rets);
    ct_mode_restore(CT_MODE_FUNCTION, m); /* with its handle; always has room (Note [Mode stack bound]) */
    if (rc != 0) {
        ct_values_release(rets, f->nrets);
        /* Note [A handler that fails without an error] in dispatch_mode.c */
        /* the torch function's name: torch.nn.linear for an op in python_module nn, as PyTorch's */
        const char *module = f->op ? f->op->python_module : NULL;
        if (ct_error_serial() == errors)
            ct_error_set(CT_ERR_TYPE,
                         "Multiple dispatch failed for 'torch.%s%s%s'; all __torch_function__ handlers returned "
                         "NotImplemented:\n\n  - mode object <function mode handler %p, data %p>\n\n(the handler returned "
                         "-1 without setting an error)",
                         module ? module : "", module ? "." : "", f->name, (void *)(uintptr_t)m.fn.function, m.ud);
        return -1;
    }
    return 0;
}

/* Note [Function descriptors of operators]
 *   An operator offered to the function modes is described by a ct_function built on the
 *   caller's stack for that one call (its torch function name, "addmm" for aten::addmm, points
 *   into the operator, which lives for the process). No table is kept, so there is nothing to
 *   build, guard or go stale: an operator defined after a function mode first ran is offered
 *   like any other. A handler may keep ct_function_name(f) but not f itself. */
static ct_function op_function(const ct_op *op) {
    const char *colon = strstr(op->base_name, "::");
    ct_function f = {colon ? colon + 2 : op->base_name, op, NULL, op->nargs, op->nrets};
    return f;
}

/* The front door's hook (Note [One front door] in dispatch/front_door.h): the caller checked or
 * typed the values, so they are not checked again. */
int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_function f = op_function(op);
    for (int i = 0; i < f.nrets; i++) rets[i] = ct_none(); /* Note [Ret slots start as None] */
    return offer_to_mode(&f, args, rets);
}

int ct_function_invoke(const ct_function *f, ct_value *args, ct_value *rets) {
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_function_call(f, args, rets);
    return run_impl(f, args, rets);
}
