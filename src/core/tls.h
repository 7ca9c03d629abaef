/* Thread-local dispatcher state: the included/excluded key sets, grad and inference mode, what
 * observes the calls and the mode depths. Core state, as c10/core/impl/LocalDispatchKeySet,
 * GradMode and InferenceMode are: a new tensor reads inference mode here. Defined in core/tls.c. */
#ifndef CT_TLS_H
#define CT_TLS_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/keys.h"

/* What an observer needs: one bit each, tested together on the call path. */
enum {
    CT_OBSERVE_TRACE_PRINT = 1 << 0,
    CT_OBSERVE_TRACE_COLLECT = 1 << 1,
    CT_OBSERVE_PROFILER = 1 << 2
};

typedef struct ct_tls {
    /* Note [TLS stored XOR defaults]: zero-initialised memory means PyTorch's defaults
     * (included {BackendSelect, ADInplaceOrView}, excluded the Autocast keys). */
    ct_keyset included_xor;
    ct_keyset excluded_xor;
    int observe;            /* CT_OBSERVE_* bits for this thread */
    int trace_depth;        /* DispatchTraceNestingGuard */
    bool grad_disabled;     /* GradMode (zero = enabled) */
    bool inference_mode;    /* InferenceMode */
    int function_modes;     /* depth of this thread's function-mode stack (0: none active) */
    int dispatch_modes;     /* depth of this thread's dispatch-mode stack (TorchDispatchModeTLS), kept by modes */
} ct_tls;

extern _Thread_local ct_tls ct_tls_state;
extern int ct_global_observe; /* process-wide CT_OBSERVE_* bits (trace printing) */

#define CT_DEFAULT_INCLUDED                                                                       \
    (CT_FUNCTIONALITY_BIT(CT_KEY_BackendSelect) | CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView))
#define CT_DEFAULT_EXCLUDED                                                                       \
    (CT_FUNCTIONALITY_BIT(CT_KEY_AutocastCPU) | CT_FUNCTIONALITY_BIT(CT_KEY_AutocastXPU) |        \
     CT_FUNCTIONALITY_BIT(CT_KEY_AutocastIPU) | CT_FUNCTIONALITY_BIT(CT_KEY_AutocastHPU) |        \
     CT_FUNCTIONALITY_BIT(CT_KEY_AutocastXLA) | CT_FUNCTIONALITY_BIT(CT_KEY_AutocastMPS) |        \
     CT_FUNCTIONALITY_BIT(CT_KEY_AutocastCUDA) | CT_FUNCTIONALITY_BIT(CT_KEY_AutocastPrivateUse1))

/* DispatchKeySet(FULL_AFTER, k) for a functionality key k, as a constant expression. */
#define CT_FULL_AFTER(k) ((CT_FUNCTIONALITY_BIT(k) - 1) | CT_FUNCTIONALITY_BIT(CT_KEY_PythonDispatcher))
#define CT_AUTOGRAD_KEYSET                                                                        \
    (CT_FUNCTIONALITY_BIT(CT_KEY_AutogradFunctionality) | CT_FUNCTIONALITY_BIT(CT_KEY_AutogradOther) | \
     CT_FUNCTIONALITY_BIT(CT_KEY_AutogradNestedTensor))
#define CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW (CT_AUTOGRAD_KEYSET | CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView))
#define CT_AFTER_AUTOGRAD_KEYSET CT_FULL_AFTER(CT_KEY_AutogradOther)
#define CT_AFTER_ADINPLACEORVIEW_KEYSET CT_FULL_AFTER(CT_KEY_ADInplaceOrView)

static inline ct_keyset ct_tls_included_raw(const ct_tls *t) {
    return t->included_xor ^ CT_DEFAULT_INCLUDED;
}
static inline ct_keyset ct_tls_excluded_raw(const ct_tls *t) {
    return t->excluded_xor ^ CT_DEFAULT_EXCLUDED;
}

#endif
