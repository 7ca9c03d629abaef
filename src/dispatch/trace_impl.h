/* The decision trace's recording hooks (internal): the dispatcher calls them on its observed
 * path, after raising tls->trace_depth (DispatchTraceNestingGuard). */
#ifndef CT_TRACE_IMPL_H
#define CT_TRACE_IMPL_H

#include "ctorch/dispatch.h"
#include "core/tls.h"

/* The key set a call's table is indexed by, and its slot. */
typedef struct ct_trace_dispatch {
    ct_keyset ks;
    int slot;
} ct_trace_dispatch;

/* A call: records the hop and returns what the dispatcher would compute for it
 * (compute_keyset in call.c): the record reads every dispatch argument's key set anyway, so a
 * traced call derives its dispatch key set once, here. */
ct_trace_dispatch ct_trace_call(const ct_op *op, const ct_value *args, const ct_tls *tls);
/* A redispatch: ks is the set passed on and slot its table slot; args the boxed arguments (for
 * the trace file). */
void ct_trace_redispatch(const ct_op *op, ct_keyset ks, int slot, const ct_value *args, const ct_tls *tls);

/* Reads CTORCH_SHOW_DISPATCH_TRACE (0, 1 or full) once, at start-up. */
void ct_trace_init_from_env(void);

#endif
