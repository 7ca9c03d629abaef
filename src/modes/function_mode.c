/* Function modes (TorchFunctionMode): public calls are offered to the top function mode,
 * popped while its handler runs, before anything is dispatched
 * (torch/csrc/utils/python_arg_parser.cpp, handle_torch_function). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/error_impl.h"
#include "dispatch/call_impl.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "modes/function_impl.h"
#include "modes/modes_impl.h"
#include "ops/api_call.h"

typedef struct fmode_entry {
    ct_function_mode_fn fn;
    void *ud;
    int handle; /* what ct_function_mode_push returned for it */
} fmode_entry;

static _Thread_local struct {
    fmode_entry stack[CT_MAX_MODES];
    int len;
    int last_handle; /* handles are this thread's push count, 1, 2, ... (wrapping to 1) */
} fmodes;

static void stack_push(fmode_entry e) {
    fmodes.stack[fmodes.len++] = e;
    ct_tls_state.function_modes = fmodes.len;
}

static fmode_entry stack_pop(void) {
    fmode_entry e = fmodes.stack[--fmodes.len];
    ct_tls_state.function_modes = fmodes.len;
    return e;
}

int ct_function_mode_push(ct_function_mode_fn fn, void *ud) {
    if (!fn) return ct_error_set(CT_ERR_VALUE, "ct_function_mode_push: handler is NULL");
    if (fmodes.len == CT_MAX_MODES) return ct_error_set(CT_ERR_RUNTIME, "ct_function_mode_push: too many nested modes (%d)", CT_MAX_MODES);
    ct_library_ensure();
    fmodes.last_handle = fmodes.last_handle == INT_MAX ? 1 : fmodes.last_handle + 1;
    stack_push((fmode_entry){fn, ud, fmodes.last_handle});
    return fmodes.last_handle;
}

int ct_function_mode_pop(int handle) {
    if (fmodes.len == 0) return ct_error_set(CT_ERR_RUNTIME, "trying to pop from empty function mode stack");
    int top = fmodes.stack[fmodes.len - 1].handle;
    if (handle != top)
        return ct_error_set(CT_ERR_RUNTIME,
                            "ct_function_mode_pop: function mode %d is not the innermost function mode (%d is); modes are "
                            "exited in reverse order of entering",
                            handle, top);
    stack_pop();
    return 0;
}

int ct_function_mode_stack_len(void) { return fmodes.len; }

int ct_function_mode_top_handle(void) { return fmodes.len ? fmodes.stack[fmodes.len - 1].handle : 0; }

bool ct_function_mode_is_active(ct_function_mode_fn fn, void *ud) {
    for (int i = 0; i < fmodes.len; i++)
        if (fmodes.stack[i].fn == fn && fmodes.stack[i].ud == ud) return true;
    return false;
}

int ct_function_mode_pop_checked(ct_function_mode_fn fn, void *ud, const char *who) {
    for (int i = fmodes.len - 1; i >= 0; i--) {
        if (fmodes.stack[i].fn != fn || fmodes.stack[i].ud != ud) continue;
        if (i != fmodes.len - 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s: it is not the innermost function mode (%d entered after it are still active); exit "
                                "modes in the reverse order of entering them",
                                who, fmodes.len - 1 - i);
        stack_pop();
        return 0;
    }
    return ct_error_set(CT_ERR_RUNTIME, "%s: it is not an active function mode on this thread", who);
}

const char *ct_function_name(const ct_function *f) { return f ? f->name : ""; }
int ct_function_num_args(const ct_function *f) { return f ? f->nargs : 0; }
int ct_function_num_returns(const ct_function *f) { return f ? f->nrets : 0; }

/* The values come from a public call (a typed wrapper) or are the ones a handler received:
 * they are not checked again (Note [Checked and unchecked calls] in dispatch/check.c). */
static int run_impl(const ct_function *f, ct_value *args, ct_value *rets) {
    if (f->op) return ct_dispatch_call(f->op, args, rets);
    return f->impl(args, rets);
}

int ct_function_call(const ct_function *f, ct_value *args, ct_value *rets) {
    if (!f) return ct_error_set(CT_ERR_VALUE, "ct_function_call: function is NULL");
    if ((!args && f->nargs > 0) || (!rets && f->nrets > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_function_call: %s is NULL", !args && f->nargs > 0 ? "args" : "rets");
    /* Note [Ret slots start as None] in dispatch/call.c: a failure releases rets */
    for (int i = 0; i < f->nrets; i++) rets[i] = ct_none();
    if (fmodes.len == 0) return run_impl(f, args, rets);
    /* dispatch_on_mode for torch functions: pop the mode while its handler runs */
    fmode_entry m = stack_pop();
    uint64_t errors = ct_error_serial();
    int rc = m.fn(m.ud, f, args, rets);
    stack_push(m); /* with its handle */
    if (rc != 0) {
        ct_values_release(rets, f->nrets);
        /* Note [A handler that fails without an error] in dispatch_mode.c */
        if (ct_error_serial() == errors)
            ct_error_set(CT_ERR_TYPE,
                         "Multiple dispatch failed for 'torch.%s'; all __torch_function__ handlers returned "
                         "NotImplemented:\n\n  - mode object <function mode handler %p, data %p>\n\n(the handler returned "
                         "-1 without setting an error)",
                         f->name, (void *)(uintptr_t)m.fn, m.ud);
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

int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_function f = op_function(op);
    return ct_function_call(&f, args, rets);
}

int ct_op_invoke(const ct_op *op, ct_value *args, ct_value *rets) {
    if (!op) return ct_error_set(CT_ERR_VALUE, "ct_op_invoke: op is NULL");
    if ((!args && op->nargs > 0) || (!rets && op->nrets > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_op_invoke: args or rets is NULL");
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_function_mode_call_op(op, args, rets);
    return ct_call(op, args, rets);
}

int ct_function_invoke(const ct_function *f, ct_value *args, ct_value *rets) {
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_function_call(f, args, rets);
    return run_impl(f, args, rets);
}
