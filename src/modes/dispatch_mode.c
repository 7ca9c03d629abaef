/* What a dispatch mode does with a call: the Python, PythonTLSSnapshot and PythonDispatcher
 * fallbacks (aten/src/ATen/core/PythonFallbackKernel.cpp, torch/csrc/utils/python_arg_parser.cpp
 * dispatch_on_mode). The stack itself (TorchDispatchModeTLS) is mode_stack.c's. */
#include <stdint.h>
#include <string.h>

#include "dispatch/call_impl.h"
#include "core/error_impl.h"
#include "ctorch/error.h"

#include "dispatch/op_impl.h"
#include "ops/builtin.h"
#include "core/tls.h"
#include "dispatch/trace_file.h"
#include "modes/modes_impl.h"
#include "modes/mode_stack.h"
#include "ops/kernels.h"
#include "dispatch/observe.h"
#include "dispatch/py_interpreter.h"

/* tls_on_entry (PythonFallbackKernel.cpp): the TLS as it was when the call entered the
 * PythonTLSSnapshot key, restored before a mode or subclass handler runs. */
static _Thread_local struct {
    bool set;
    ct_keyset included_xor, excluded_xor;
} tls_on_entry;

/* The innermost mode's handler, the mode off the stack while it runs
 * (StashTorchDispatchModeGuard). Inline in its two callers: the Python fallback and the
 * interpreter's detach. */
static inline int dispatch_on_mode(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_mode_entry m = ct_mode_take(CT_MODE_DISPATCH);
    uint64_t errors = ct_error_serial();
    /* a failure releases rets: they must hold None, not the caller's garbage, when the handler
     * fails before filling them (Note [Ret slots start as None] in dispatch/call.c) */
    for (int i = 0; i < op->nrets; i++) rets[i] = ct_none();
    int rc = m.fn.dispatch(m.ud, op, args, rets);
    ct_mode_restore(CT_MODE_DISPATCH, m); /* with its handle; always has room (Note [Mode stack bound]) */
    if (__builtin_expect(rc != 0, 0)) {
        ct_values_release(rets, op->nrets);
        /* Note [A handler that fails without an error]: -1 without an error is C's way of
         * returning NotImplemented; say so as PyTorch does, naming the handler, rather than
         * failing with no message */
        if (ct_error_serial() == errors)
            ct_error_set(CT_ERR_TYPE,
                         "Multiple dispatch failed for 'torch._ops.%s'; all __torch_dispatch__ handlers returned "
                         "NotImplemented:\n\n  - mode object <dispatch mode handler %p, data %p>\n\n(the handler returned "
                         "-1 without setting an error)",
                         op->python_name, (void *)(uintptr_t)m.fn.dispatch, m.ud);
        return -1;
    }
    return 0;
}

int ct_k_python_tls_snapshot_fallback(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    bool set_here = false;
    if (!tls_on_entry.set) { /* MaybeSetTLSOnEntryGuard */
        tls_on_entry.set = true;
        tls_on_entry.included_xor = ct_tls_state.included_xor;
        tls_on_entry.excluded_xor = ct_tls_state.excluded_xor;
        set_here = true;
    }
    int rc = ct_redispatch_unchecked(op, ks & CT_FULL_AFTER(CT_KEY_PythonTLSSnapshot), args, rets);
    if (set_here) tls_on_entry.set = false;
    return rc;
}

int ct_k_python_dispatcher_fallback(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    return ct_redispatch_unchecked(op, ks & CT_FULL_AFTER(CT_KEY_PythonDispatcher), args, rets);
}

/* every key of higher priority than Python, except PythonDispatcher */
#define CT_AFTER_PYTHON_KEYSET                                                                    \
    (ct_keyset_full() ^ (CT_FULL_AFTER(CT_KEY_Python) | CT_FUNCTIONALITY_BIT(CT_KEY_Python)))

int ct_k_python_fallback(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls *t = &ct_tls_state;
    ct_keyset saved_inc = t->included_xor, saved_exc = t->excluded_xor;
    if (tls_on_entry.set) { /* ForceDispatchKeyGuard(tls_on_entry) */
        t->included_xor = tls_on_entry.included_xor;
        t->excluded_xor = tls_on_entry.excluded_xor;
    }
    t->excluded_xor = (ct_tls_excluded_raw(t) | CT_AFTER_PYTHON_KEYSET) ^ CT_DEFAULT_EXCLUDED;
    int rc;
    if (ct_mode_stacks[CT_MODE_DISPATCH].len > 0) {
        void *rec = ct_record_range_begin("PythonDispatchMode", args, op->nargs, op);
        rc = dispatch_on_mode(op, args, rets);
        ct_record_range_end(rec);
    } else {
        ct_tensor *sub = NULL;
        for (int i = 0; i < op->nargs && !sub; i++) {
            if (args[i].tag == CT_TAG_TENSOR && args[i].u.t->subclass) sub = args[i].u.t;
            if (args[i].tag == CT_TAG_TENSORLIST)
                for (int64_t k = 0; k < args[i].u.tlist.len && !sub; k++)
                    if (args[i].u.tlist.items[k] && args[i].u.tlist.items[k]->subclass) sub = args[i].u.tlist.items[k];
        }
        if (sub) {
            void *rec = ct_record_range_begin("PythonSubclass", args, op->nargs, op);
            rc = ct_py_interpreter_hooks.subclass_dispatch(sub, op, args, rets);
            ct_record_range_end(rec);
        } else {
            /* no mode and no wrapper argument (e.g. a factory while only Python is included):
             * drop the Python key and carry on */
            ct_tls_set_excluded(CT_KEY_Python, true);
            rc = ct_redispatch_unchecked(op, ct_keyset_sub(ks, ct_keyset_of(CT_KEY_Python)), args, rets);
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
    /* the handler sees this detach without a dispatcher hop: a trace file records it all the same */
    if (ct_global_observe_bits() & CT_OBSERVE_TRACE_FILE)
        ct_trace_file_direct(detach, args, CT_KEY_Python, "shallow_copy_and_detach (PyInterpreter::detach)");
    int rc = ct_mode_stacks[CT_MODE_DISPATCH].len > 0 ? dispatch_on_mode(detach, args, rets) : ct_py_interpreter_hooks.subclass_dispatch(t, detach, args, rets);
    if (set_here) tls_on_entry.set = false;
    if (rc != 0) return -1;
    if (rets[0].tag != CT_TAG_TENSOR) return ct_error_set(CT_ERR_RUNTIME, "detach returned no tensor");
    *out = rets[0].u.t;
    return 0;
}
