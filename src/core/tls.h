/* Thread-local dispatcher state: the included/excluded key sets, grad and inference mode, what
 * observes the calls and the mode depths. Core state, as c10/core/impl/LocalDispatchKeySet,
 * GradMode and InferenceMode are: a new tensor reads inference mode here. Defined in core/tls.c. */
#ifndef CT_TLS_H
#define CT_TLS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctorch/keys.h"

/* What an observer needs: one bit each, tested together on the call path. */
enum {
    CT_OBSERVE_TRACE_PRINT = 1 << 0,
    CT_OBSERVE_TRACE_COLLECT = 1 << 1,
    CT_OBSERVE_PROFILER = 1 << 2,
    CT_OBSERVE_TRACE_FILE = 1 << 3
};
/* The observers that want every hop's decision record (call and redispatch). */
#define CT_OBSERVE_TRACE_ANY (CT_OBSERVE_TRACE_PRINT | CT_OBSERVE_TRACE_COLLECT | CT_OBSERVE_TRACE_FILE)

typedef struct ct_tls {
    /* Note [TLS stored XOR defaults]: zero-initialised memory means PyTorch's defaults
     * (included {BackendSelect, ADInplaceOrView}, excluded the Autocast keys). */
    ct_keyset included_xor;
    ct_keyset excluded_xor;
    int observe;            /* CT_OBSERVE_* bits for this thread */
    int trace_depth;        /* DispatchTraceNestingGuard */
    bool grad_disabled;     /* GradMode (zero = enabled) */
    bool inference_mode;    /* InferenceMode */
    int function_modes;     /* what public calls read: the function-mode stack's depth, or 0 while the
                               modes are suspended (the fast "any function mode?" check) */
    int function_mode_depth; /* the function-mode stack's depth, kept by modes */
    int function_modes_off;  /* > 0 while function modes are suspended (inside the autograd engine) */
    int dispatch_modes;     /* depth of this thread's dispatch-mode stack (TorchDispatchModeTLS), kept by modes */
    int guard_depth;        /* scoped guards entered through the public API and not yet exited (grad-mode and
                               key-set guards alike: Note [Checked guards] in dispatch/call.c) */
    uint64_t sequence_nr;   /* at::sequence_number: the number the next autograd node gets (kept
                               here, below autograd, so the trace file can read it) */
} ct_tls;

extern _Thread_local ct_tls ct_tls_state;
/* process-wide CT_OBSERVE_* bits (trace printing): set by any thread, read on every call with a
 * relaxed load (a plain load on x86-64 and AArch64) */
extern atomic_int ct_global_observe;
static inline int ct_global_observe_bits(void) {
    return atomic_load_explicit(&ct_global_observe, memory_order_relaxed);
}

#define CT_DEFAULT_INCLUDED                                                                       \
    (CT_FUNCTIONALITY_BIT(CT_KEY_BackendSelect) | CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView))
#define CT_DEFAULT_EXCLUDED CT_AUTOCAST_KEYSET

static inline ct_keyset ct_tls_included_raw(const ct_tls *t) {
    return t->included_xor ^ CT_DEFAULT_INCLUDED;
}
static inline ct_keyset ct_tls_excluded_raw(const ct_tls *t) {
    return t->excluded_xor ^ CT_DEFAULT_EXCLUDED;
}

/* Note [Function modes inside the engine]: PyTorch's backward formulas are C++ and never reach a
 * TorchFunctionMode, so the autograd engine suspends function modes while it runs nodes (the
 * dispatch modes still see every op, as PyTorch's do). Nested suspensions count. */
static inline void ct_tls_function_modes_suspend(void) {
    ct_tls_state.function_modes_off++;
    ct_tls_state.function_modes = 0;
}
static inline void ct_tls_function_modes_resume(void) {
    if (--ct_tls_state.function_modes_off == 0) ct_tls_state.function_modes = ct_tls_state.function_mode_depth;
}

#endif
