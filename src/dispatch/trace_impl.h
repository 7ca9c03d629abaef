/* The decision trace's recording hooks (internal): the dispatcher calls them on its observed
 * path, after raising tls->trace_depth (DispatchTraceNestingGuard). */
#ifndef CT_TRACE_IMPL_H
#define CT_TRACE_IMPL_H

#include "ctorch/dispatch.h"
#include "core/tls.h"

/* A call: args_ks is the union of the dispatch arguments' key sets, ks the set the table was
 * indexed by. */
void ct_trace_call(const ct_op *op, const ct_value *args, ct_keyset args_ks, ct_keyset ks, const ct_tls *tls);
/* A redispatch: ks is the set passed on; args the boxed arguments (for the trace file). */
void ct_trace_redispatch(const ct_op *op, ct_keyset ks, const ct_value *args, const ct_tls *tls);

/* Reads CTORCH_SHOW_DISPATCH_TRACE (0, 1 or full) once, at start-up. */
void ct_trace_init_from_env(void);

#endif
