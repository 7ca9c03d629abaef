/* Observers of Dispatcher::call (internal): the profiler's RecordFunction hooks. */
#ifndef CT_OBSERVE_H
#define CT_OBSERVE_H

#include <stdint.h>

#include "core/tls.h"
#include "ctorch/dispatch.h"

typedef struct ct_call_observer {
    /* Runs the kernel k of a ct_call (never of a redispatch) while the thread has
     * CT_OBSERVE_PROFILER set, inside whatever it records around it: returns k's result. One
     * hook around the call rather than one before and one after, so the range it opens is still
     * in hand when it closes. */
    int (*around)(const ct_op *op, ct_keyset ks, ct_kernel_fn k, ct_value *args, ct_value *rets);
} ct_call_observer;

extern ct_call_observer ct_profiler_observer;

/* RecordFunction ranges outside the dispatcher (at::RecordFunction sits in ATen, below
 * autograd; the profiler only adds the callbacks): the autograd engine's and detach's ranges,
 * the Python-key fallback's. Filled once by the profiler at start-up. */
typedef struct ct_range_observer {
    /* Opens a range named `name` (a literal) with the given inputs; `op` may be NULL. Returns a
     * handle for end, or NULL when nothing records on this thread. */
    void *(*begin)(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op);
    /* A backward range named prefix + name, with a sequence number and forward thread: prefix is
     * NULL or a literal, and name lives as long as the process too (a node's name). */
    void *(*begin_seq)(const char *prefix, const char *name, const ct_value *inputs, int n_inputs, int64_t seq,
                       uint64_t fwd_thread);
    void (*end)(void *handle);
} ct_range_observer;

extern ct_range_observer ct_range_observer_hooks;

/* Only a thread that a profiler observes (CT_OBSERVE_PROFILER, Note [One branch when nothing
 * observes] in call.c) calls the hooks: the same two words the dispatcher reads decide it. */
static inline bool ct_ranges_observed(void) {
    return ((ct_tls_state.observe | ct_global_observe_bits()) & CT_OBSERVE_PROFILER) != 0;
}
static inline void *ct_record_range_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op) {
    if (!ct_ranges_observed()) return NULL;
    return ct_range_observer_hooks.begin ? ct_range_observer_hooks.begin(name, inputs, n_inputs, op) : NULL;
}
static inline void *ct_record_range_begin_seq(const char *prefix, const char *name, const ct_value *inputs,
                                              int n_inputs, int64_t seq, uint64_t fwd_thread) {
    if (!ct_ranges_observed()) return NULL;
    return ct_range_observer_hooks.begin_seq
               ? ct_range_observer_hooks.begin_seq(prefix, name, inputs, n_inputs, seq, fwd_thread)
               : NULL;
}
static inline void ct_record_range_end(void *handle) {
    if (handle) ct_range_observer_hooks.end(handle);
}

#endif
