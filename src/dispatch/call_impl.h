/* The dispatcher's two entries (internal; Note [Checked and unchecked calls] in check.c). */
#ifndef CT_CALL_IMPL_H
#define CT_CALL_IMPL_H

#include "core/tls.h"
#include "ctorch/dispatch.h"
#include "dispatch/op_impl.h"

/* Dispatcher::call without checking anything: for callers whose values already have the
 * schema's types (the typed wrappers, kernels). Same contract as ct_call otherwise. */
int ct_dispatch_call(const ct_op *op, ct_value *args, ct_value *rets);

/* What ct_call checks before dispatching: op, args and rets not NULL, and every argument a
 * value of its schema type (None only where the schema allows it). 0; 1 when the values are
 * right but an int stands for a fixed-size int list (int[1] dim), which ct_call turns into the
 * list; or -1 with PyTorch's error for the same mistake through torch.ops. */
int ct_call_check(const ct_op *op, const ct_value *args, const ct_value *rets);

/* ct_redispatch while a decision trace is on (call.c). */
int ct_redispatch_traced(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets);

/* Dispatcher::redispatch for the library's own kernels, whose op, args and rets are never
 * NULL: ct_redispatch without its checks of them, inline in the kernel that hands the call on
 * (a hop under a dispatch mode, autograd or ADInplaceOrView is this and the next kernel). */
static inline int ct_redispatch_unchecked(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    if (__builtin_expect((ct_tls_state.observe | ct_global_observe_bits()) & CT_OBSERVE_TRACE_ANY, 0))
        return ct_redispatch_traced(op, ks, args, rets);
    return ct_op_kernel(op, ct_slot_index(ks))(op, ks, args, rets);
}

/* The library's own scoped change of the excluded set (ExcludeDispatchKeyGuard inside a kernel):
 * strictly nested by construction, so without the public guards' order check (Note [Checked
 * guards] in call.c). */
typedef struct ct_tls_sets {
    ct_keyset included_xor, excluded_xor;
} ct_tls_sets;
static inline ct_tls_sets ct_tls_sets_exclude(ct_keyset ks) {
    ct_tls *t = &ct_tls_state;
    ct_tls_sets saved = {t->included_xor, t->excluded_xor};
    t->excluded_xor = (ct_tls_excluded_raw(t) | ks) ^ CT_DEFAULT_EXCLUDED;
    return saved;
}
static inline void ct_tls_sets_restore(ct_tls_sets saved) {
    ct_tls_state.included_xor = saved.included_xor;
    ct_tls_state.excluded_xor = saved.excluded_xor;
}

/* 0 when `depth` is this thread's innermost public guard, else -1 with a RuntimeError naming
 * `who` (Note [Checked guards]). */
int ct_guard_check_innermost(int depth, const char *who);

#endif
