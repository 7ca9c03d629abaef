/* What every typed wrapper (ct_addmm, ...) does after boxing its arguments (internal). */
#ifndef CT_API_CALL_H
#define CT_API_CALL_H

#include "ctorch/error.h"
#include "core/tls.h"
#include "dispatch/call_impl.h"
#include "ops/builtin.h"

/* Public calls are seen by function modes first (like TorchFunctionMode), then dispatched. The
 * modes install the call at start-up; no call gets here before it (the op's slot is NULL until
 * then), so the hook is set when it is read. */
typedef struct ct_api_hooks {
    int (*function_mode_call)(const ct_op *op, ct_value *args, ct_value *rets);
} ct_api_hooks;
extern ct_api_hooks ct_api_call_hooks; /* written once, at start-up (src/ops/builtin.c holds it) */

/* The op's slot is NULL until ct_init() has run (Note [Start-up] in core/startup.h): the test of
 * the pointer loaded anyway is the only cost of refusing. */
static inline int ct_api_call(ct_opid id, ct_value *args, ct_value *rets) {
    const ct_op *op = ct_builtin(id);
    if (__builtin_expect(op == NULL, 0)) return ct_builtin_not_started(id);
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_api_call_hooks.function_mode_call(op, args, rets);
    return ct_dispatch_call(op, args, rets); /* unchecked: the wrapper built args from typed parameters */
}

static inline ct_tensor *ct_api_take_tensor(ct_value *r) {
    if (r[0].tag == CT_TAG_TENSOR) return r[0].u.t;
    ct_error_set(CT_ERR_RUNTIME, "internal error: kernel returned no tensor");
    return NULL;
}

#endif
