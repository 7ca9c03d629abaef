/* What every typed wrapper (ct_addmm, ...) does after boxing its arguments (internal). */
#ifndef CT_API_CALL_H
#define CT_API_CALL_H

#include "ctorch/error.h"
#include "dispatch/call_impl.h"
#include "dispatch/registry.h"
#include "dispatch/tls.h"

/* Public calls are seen by function modes first (like TorchFunctionMode), then dispatched.
 * Defined in src/modes/function_mode.c. */
int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets);

static inline int ct_api_call(ct_opid id, ct_value *args, ct_value *rets) {
    const ct_op *op = ct_builtin(id);
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_function_mode_call_op(op, args, rets);
    return ct_dispatch_call(op, args, rets); /* unchecked: the wrapper built args from typed parameters */
}

static inline ct_tensor *ct_api_take_tensor(ct_value *r) {
    if (r[0].tag == CT_TAG_TENSOR) return r[0].u.t;
    ct_error_set(CT_ERR_RUNTIME, "internal error: kernel returned no tensor");
    return NULL;
}

#endif
