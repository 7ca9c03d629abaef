/* Dispatch modes and the Python, PythonTLSSnapshot and PythonDispatcher fallbacks
 * (c10/core/impl/TorchDispatchModeTLS.cpp, aten/src/ATen/core/PythonFallbackKernel.cpp,
 * torch/csrc/utils/python_arg_parser.cpp dispatch_on_mode). */
#include <stdint.h>
#include <string.h>

#include "core/error_impl.h"
#include "ctorch/error.h"

#include "dispatch/op_impl.h"
#include "dispatch/registry.h"
#include "dispatch/tls.h"
#include "modes/modes_impl.h"
#include "ops/kernels.h"
#include "profiler/record.h"

typedef struct mode_entry {
    ct_dispatch_mode_fn fn;
    void *ud;
} mode_entry;

static _Thread_local struct {
    mode_entry stack[CT_MAX_MODES];
    int len;
} modes;

/* tls_on_entry (PythonFallbackKernel.cpp): the TLS as it was when the call entered the
 * PythonTLSSnapshot key, restored before a mode or subclass handler runs. */
static _Thread_local struct {
    bool set;
    ct_keyset included_xor, excluded_xor;
} tls_on_entry;

static void set_python_keys_included(bool on) {
    ct_tls_set_included(CT_KEY_Python, on);
    ct_tls_set_included(CT_KEY_PythonTLSSnapshot, on);
}

int ct_dispatch_mode_push(ct_dispatch_mode_fn fn, void *ud) {
    if (!fn) return ct_error_set(CT_ERR_VALUE, "ct_dispatch_mode_push: handler is NULL");
    if (modes.len == CT_MAX_MODES) return ct_error_set(CT_ERR_RUNTIME, "ct_dispatch_mode_push: too many nested modes (%d)", CT_MAX_MODES);
    ct_registry_init();
    if (modes.len == 0) set_python_keys_included(true);
    modes.stack[modes.len].fn = fn;
    modes.stack[modes.len].ud = ud;
    modes.len++;
    return 0;
}

int ct_dispatch_mode_pop(void) {
    if (modes.len == 0) return ct_error_set(CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    modes.len--;
    if (modes.len == 0) set_python_keys_included(false);
    return 0;
}

int ct_dispatch_mode_stack_len(void) { return modes.len; }

bool ct_dispatch_mode_is_active(ct_dispatch_mode_fn fn, void *ud) {
    for (int i = 0; i < modes.len; i++)
        if (modes.stack[i].fn == fn && modes.stack[i].ud == ud) return true;
    return false;
}

int ct_dispatch_mode_pop_checked(ct_dispatch_mode_fn fn, void *ud, const char *who) {
    for (int i = modes.len - 1; i >= 0; i--) {
        if (modes.stack[i].fn != fn || modes.stack[i].ud != ud) continue;
        if (i != modes.len - 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s: it is not the innermost dispatch mode (%d entered after it are still active); exit "
                                "modes in the reverse order of entering them",
                                who, modes.len - 1 - i);
        return ct_dispatch_mode_pop();
    }
    return ct_error_set(CT_ERR_RUNTIME, "%s: it is not an active dispatch mode on this thread", who);
}

int ct_dispatch_on_mode(const ct_op *op, ct_value *args, ct_value *rets) {
    /* StashTorchDispatchModeGuard: the mode is popped while its own handler runs */
    mode_entry m = modes.stack[modes.len - 1];
    ct_dispatch_mode_pop();
    uint64_t errors = ct_error_serial();
    int rc = m.fn(m.ud, op, args, rets);
    ct_dispatch_mode_push(m.fn, m.ud);
    if (rc != 0) {
        ct_values_release(rets, op->nrets);
        /* Note [A handler that fails without an error]: -1 without an error is C's way of
         * returning NotImplemented; say so as PyTorch does, naming the handler, rather than
         * failing with no message */
        if (ct_error_serial() == errors)
            ct_error_set(CT_ERR_TYPE,
                         "Multiple dispatch failed for 'torch._ops.%s'; all __torch_dispatch__ handlers returned "
                         "NotImplemented:\n\n  - mode object <dispatch mode handler %p, data %p>\n\n(the handler returned "
                         "-1 without setting an error)",
                         op->python_name, (void *)(uintptr_t)m.fn, m.ud);
        return -1;
    }
    return 0;
}

CT_KERNEL(ct_k_python_tls_snapshot_fallback) {
    bool set_here = false;
    if (!tls_on_entry.set) { /* MaybeSetTLSOnEntryGuard */
        tls_on_entry.set = true;
        tls_on_entry.included_xor = ct_tls_state.included_xor;
        tls_on_entry.excluded_xor = ct_tls_state.excluded_xor;
        set_here = true;
    }
    int rc = ct_redispatch(op, ks & CT_FULL_AFTER(CT_KEY_PythonTLSSnapshot), args, rets);
    if (set_here) tls_on_entry.set = false;
    return rc;
}

CT_KERNEL(ct_k_python_dispatcher_fallback) {
    return ct_redispatch(op, ks & CT_FULL_AFTER(CT_KEY_PythonDispatcher), args, rets);
}

/* every key of higher priority than Python, except PythonDispatcher */
#define CT_AFTER_PYTHON_KEYSET                                                                    \
    (ct_keyset_full() ^ (CT_FULL_AFTER(CT_KEY_Python) | CT_FUNCTIONALITY_BIT(CT_KEY_Python)))

CT_KERNEL(ct_k_python_fallback) {
    ct_tls *t = &ct_tls_state;
    ct_keyset saved_inc = t->included_xor, saved_exc = t->excluded_xor;
    if (tls_on_entry.set) { /* ForceDispatchKeyGuard(tls_on_entry) */
        t->included_xor = tls_on_entry.included_xor;
        t->excluded_xor = tls_on_entry.excluded_xor;
    }
    t->excluded_xor = (ct_tls_excluded_raw(t) | CT_AFTER_PYTHON_KEYSET) ^ CT_DEFAULT_EXCLUDED;
    int rc;
    if (modes.len > 0) {
        void *rec = ct_record_function_begin("PythonDispatchMode", args, op->nargs, op);
        rc = ct_dispatch_on_mode(op, args, rets);
        ct_record_function_end(rec);
    } else {
        ct_tensor *sub = NULL;
        for (int i = 0; i < op->nargs && !sub; i++)
            if (args[i].tag == CT_TAG_TENSOR && args[i].u.t->subclass) sub = args[i].u.t;
        if (sub) {
            void *rec = ct_record_function_begin("PythonSubclass", args, op->nargs, op);
            rc = ct_subclass_dispatch(sub, op, args, rets);
            ct_record_function_end(rec);
        } else {
            /* no mode and no wrapper argument (e.g. a factory while only Python is included):
             * drop the Python key and carry on */
            ct_tls_set_excluded(CT_KEY_Python, true);
            rc = ct_redispatch(op, ct_keyset_sub(ks, ct_keyset_of(CT_KEY_Python)), args, rets);
        }
    }
    t->included_xor = saved_inc;
    t->excluded_xor = saved_exc;
    return rc;
}

int ct_python_detach(ct_tensor *t, ct_tensor **out) {
    *out = NULL;
    const ct_op *detach = ct_builtin(CT_OPID_detach);
    ct_value args[1] = {ct_tensor_value(t)}, rets[1] = {ct_none()};
    bool set_here = false;
    if (!tls_on_entry.set) {
        tls_on_entry.set = true;
        tls_on_entry.included_xor = ct_tls_state.included_xor;
        tls_on_entry.excluded_xor = ct_tls_state.excluded_xor;
        set_here = true;
    }
    int rc = modes.len > 0 ? ct_dispatch_on_mode(detach, args, rets) : ct_subclass_dispatch(t, detach, args, rets);
    if (set_here) tls_on_entry.set = false;
    if (rc != 0) return -1;
    if (rets[0].tag != CT_TAG_TENSOR) return ct_error_set(CT_ERR_RUNTIME, "detach returned no tensor");
    *out = rets[0].u.t;
    return 0;
}
