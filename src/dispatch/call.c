/* Dispatcher::call and Dispatcher::redispatch, and the observers hanging off them.
 *
 * Note [One branch when nothing observes]
 *   The fast path reads one thread-local word and one global word; only when either has a
 *   CT_OBSERVE_* bit set does a call take the observed path, which records the decision
 *   (trace), opens a profiler event, or both. */
#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/trace.h"
#include "dispatch/call_impl.h"
#include "dispatch/dispatch_keys.h"
#include "dispatch/front_door.h"
#include "dispatch/observe.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "dispatch/trace_impl.h"

ct_call_observer ct_profiler_observer;
ct_range_observer ct_range_observer_hooks;
ct_front_door ct_front_door_hooks;

#define CT_UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline ct_keyset extract_keys(const ct_op *op, const ct_value *args) {
    ct_keyset ks = 0;
    uint32_t m = op->dispatch_args;
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        ct_keyset aks;
        if (ct_dispatch_arg_keys(&args[i], &aks)) ks |= aks;
    }
    return ks;
}

static inline ct_keyset compute_keyset(const ct_op *op, ct_keyset args_ks, const ct_tls *tls) {
    return ct_dispatch_keyset(op, args_ks, tls->included_xor ^ CT_DEFAULT_INCLUDED, tls->excluded_xor ^ CT_DEFAULT_EXCLUDED);
}

static int call_observed(const ct_op *op, ct_value *args, ct_value *rets);

/* ct_call (check.c) is this after checking its arguments against the schema. */
int ct_dispatch_call(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    /* Note [Ret slots start as None]: a kernel that fails before writing its ret slots, and a
     * handler's caller that releases them after a failure, must find None there, never what
     * a caller's stack held. Whoever fills a ret array sets it to None first: the boxed call
     * (ct_call, check.c) for its caller's array, the typed wrappers and every internal caller
     * for their own, and the mode, function-mode and subclass callers before a handler runs;
     * so the dispatcher's hot path does not do it again. */
    if (CT_UNLIKELY(tls->observe | ct_global_observe_bits())) return call_observed(op, args, rets);
    ct_keyset ks = compute_keyset(op, extract_keys(op, args), tls);
    return ct_op_kernel(op, ct_slot_index(ks))(op, ks, args, rets);
}

int ct_redispatch(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    if (CT_UNLIKELY(!op || !args || !rets)) /* a caller's mistake, not a NULL dereference */
        return ct_error_set(CT_ERR_VALUE, "ct_redispatch: %s is NULL", !op ? "op" : !args ? "args" : "rets");
    return ct_redispatch_unchecked(op, ks, args, rets);
}

ct_keyset ct_dispatch_keyset_for(const ct_op *op, const ct_value *args) {
    if (!op || !args) return 0;
    return compute_keyset(op, extract_keys(op, args), &ct_tls_state);
}

void ct_values_release(ct_value *vals, int n) {
    for (int i = 0; i < n; i++) {
        if (vals[i].tag == CT_TAG_TENSOR) {
            ct_tensor_release(vals[i].u.t);
        } else if (vals[i].tag == CT_TAG_TENSORLIST) { /* an owned Tensor[] return */
            for (int64_t k = 0; k < vals[i].u.tlist.len; k++)
                if (vals[i].u.tlist.items[k]) ct_tensor_release(vals[i].u.tlist.items[k]);
            ct_free(vals[i].u.tlist.items);
        }
        vals[i] = ct_none();
    }
}

int ct_tensor_list_new(ct_tensor *const *items, int64_t len, ct_value *out) {
    if (!out || len < 0 || (len > 0 && !items)) return ct_error_set(CT_ERR_VALUE, "ct_tensor_list_new: bad arguments");
    for (int64_t k = 0; k < len; k++)
        if (!items[k]) return ct_error_set(CT_ERR_VALUE, "ct_tensor_list_new: item %lld is NULL (a Tensor[] holds tensors only)", (long long)k);
    ct_tensor **v = ct_malloc((size_t)(len > 0 ? len : 1) * sizeof *v);
    if (!v) return -1;
    for (int64_t k = 0; k < len; k++) v[k] = ct_tensor_retain(items[k]);
    *out = ct_tensor_list_value(v, len);
    return 0;
}

/* ---- thread-local sets ---- */

ct_keyset ct_tls_included(void) { return ct_tls_included_raw(&ct_tls_state); }
ct_keyset ct_tls_excluded(void) { return ct_tls_excluded_raw(&ct_tls_state); }

/* Note [Checked guards]
 *   The guards of the public API (ct_key_guard_* here, the grad-mode guards of
 *   autograd/grad_mode.c) each restore what they saved, which is right only when they are left
 *   in reverse order of entering: a guard exited early would undo what the ones entered after
 *   it changed, and their exits would restore a state that is no longer current, leaving the
 *   thread with grad mode off or a key excluded for good. So every public guard takes the next
 *   place in this thread's guard count (ct_tls.guard_depth) when entered, and exiting one that
 *   is not the innermost is refused with an error, changing nothing. The library's own kernels
 *   change the sets through ct_tls_sets_exclude / ct_tls_sets_restore (dispatch/call_impl.h),
 *   strictly nested by construction, and stay out of the count. */

static void key_guard_enter(ct_key_guard *g, ct_tls *t) {
    g->saved_included = t->included_xor;
    g->saved_excluded = t->excluded_xor;
    g->depth = ++t->guard_depth;
}

void ct_key_guard_include(ct_key_guard *g, ct_keyset ks) {
    if (!g) {
        ct_error_set(CT_ERR_VALUE, "%s: guard is NULL", "ct_key_guard_include");
        return;
    }
    ct_tls *t = &ct_tls_state;
    key_guard_enter(g, t);
    t->included_xor = (ct_tls_included_raw(t) | ks) ^ CT_DEFAULT_INCLUDED;
}

void ct_key_guard_exclude(ct_key_guard *g, ct_keyset ks) {
    if (!g) {
        ct_error_set(CT_ERR_VALUE, "%s: guard is NULL", "ct_key_guard_exclude");
        return;
    }
    ct_tls *t = &ct_tls_state;
    key_guard_enter(g, t);
    t->excluded_xor = (ct_tls_excluded_raw(t) | ks) ^ CT_DEFAULT_EXCLUDED;
}

int ct_guard_check_innermost(int depth, const char *who) {
    if (depth == ct_tls_state.guard_depth) return 0;
    if (depth > ct_tls_state.guard_depth)
        return ct_error_set(CT_ERR_RUNTIME, "%s: the guard was not entered on this thread, or guards entered before it "
                                            "were already exited", who);
    return ct_error_set(CT_ERR_RUNTIME,
                        "%s: the guard is not the innermost one (%d guards entered after it are still active); exit "
                        "guards in the reverse order of entering them",
                        who, ct_tls_state.guard_depth - depth);
}

int ct_key_guard_pop(ct_key_guard *g) {
    if (!g) return ct_error_set(CT_ERR_VALUE, "ct_key_guard_pop: guard is NULL");
    if (g->depth == 0) return 0; /* popped already */
    if (ct_guard_check_innermost(g->depth, "ct_key_guard_pop") != 0) return -1;
    ct_tls *t = &ct_tls_state;
    t->included_xor = g->saved_included;
    t->excluded_xor = g->saved_excluded;
    t->guard_depth--;
    g->depth = 0;
    return 0;
}

void ct_tls_set_included(ct_dispatch_key k, bool on) {
    ct_tls *t = &ct_tls_state;
    ct_keyset cur = ct_tls_included_raw(t);
    cur = on ? (cur | ct_keyset_of(k)) : ct_keyset_sub(cur, ct_keyset_of(k));
    t->included_xor = cur ^ CT_DEFAULT_INCLUDED;
}

void ct_tls_set_excluded(ct_dispatch_key k, bool on) {
    ct_tls *t = &ct_tls_state;
    ct_keyset cur = ct_tls_excluded_raw(t);
    cur = on ? (cur | ct_keyset_of(k)) : ct_keyset_sub(cur, ct_keyset_of(k));
    t->excluded_xor = cur ^ CT_DEFAULT_EXCLUDED;
}

static int call_observed(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    int observe = tls->observe | ct_global_observe_bits();
    bool tracing = (observe & CT_OBSERVE_TRACE_ANY) != 0;
    ct_keyset ks;
    int slot;
    if (tracing) {
        ++tls->trace_depth; /* DispatchTraceNestingGuard: raised before printing */
        ct_trace_dispatch d = ct_trace_call(op, args, tls); /* the same key set, derived once */
        ks = d.ks;
        slot = d.slot;
    } else {
        ks = compute_keyset(op, extract_keys(op, args), tls);
        slot = ct_slot_index(ks);
    }
    ct_kernel_fn k = ct_op_kernel(op, slot);
    int rc = (observe & CT_OBSERVE_PROFILER) && ct_profiler_observer.around
                 ? ct_profiler_observer.around(op, ks, k, args, rets)
                 : k(op, ks, args, rets);
    if (tracing) tls->trace_depth--;
    return rc;
}

int ct_redispatch_traced(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    int slot = ct_slot_index(ks);
    ++tls->trace_depth;
    ct_trace_redispatch(op, ks, slot, args, tls);
    int rc = ct_op_kernel(op, slot)(op, ks, args, rets);
    tls->trace_depth--;
    return rc;
}
