/* What every typed wrapper (ct_addmm, ...) does after boxing its arguments (internal). */
#ifndef CT_API_CALL_H
#define CT_API_CALL_H

#include "ctorch/error.h"
#include "core/tls.h"
#include "dispatch/call_impl.h"
#include "ops/builtin.h"

/* Public calls are seen by function modes first (like TorchFunctionMode), then dispatched. The
 * modes install the call at start-up; a function mode can only be active after
 * ct_function_mode_push, which starts the library, so the hook is set when it is read. */
typedef struct ct_api_hooks {
    int (*function_mode_call)(const ct_op *op, ct_value *args, ct_value *rets);
} ct_api_hooks;
extern ct_api_hooks ct_api_call_hooks; /* written once, at start-up (src/ops/builtin.c holds it) */

static inline int ct_api_call(ct_opid id, ct_value *args, ct_value *rets) {
    const ct_op *op = ct_builtin(id);
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_api_call_hooks.function_mode_call(op, args, rets);
    return ct_dispatch_call(op, args, rets); /* unchecked: the wrapper built args from typed parameters */
}

static inline ct_tensor *ct_api_take_tensor(ct_value *r) {
    if (r[0].tag == CT_TAG_TENSOR) return r[0].u.t;
    ct_error_set(CT_ERR_RUNTIME, "internal error: kernel returned no tensor");
    return NULL;
}

#endif
