/* Dispatch modes, the Python-key fallbacks and function modes (internal). */
#ifndef CT_MODES_IMPL_H
#define CT_MODES_IMPL_H

#include "core/tensor_impl.h"
#include "ctorch/mode.h"
#include "ops/kernels.h"

/* Registers the Python, PythonTLSSnapshot and PythonDispatcher fallbacks (PythonFallbackKernel.cpp).
 * Run once by the start-up (src/modes/register.c). */
void ct_modes_register(void);
/* Offers a call to the innermost function mode, its values of the schema's types (the front
 * door's hook: src/modes/function_mode.c; only while a function mode is active). */
int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets);
CT_KERNEL(ct_k_python_fallback);
CT_KERNEL(ct_k_python_tls_snapshot_fallback);
CT_KERNEL(ct_k_python_dispatcher_fallback);

/* pyinterpreter()->detach(self): aten::detach sent to the top dispatch mode (popped while it
 * runs) or, with no mode, to the handler of t's wrapper subclass. *out: new reference. */
int ct_python_detach(ct_tensor *t, ct_tensor **out);
/* Pops the function mode (fn, ud) when it is the innermost one on this thread's stack;
 * otherwise fails, naming `who` ("ct_function_logger_pop"), and pops nothing: exiting a mode
 * that is not the innermost would leave the ones above it running with the wrong mode beneath
 * (dispatch modes do this with the handle ct_dispatch_mode_push returned). */
int ct_function_mode_pop_checked(ct_function_mode_fn fn, void *ud, const char *who);
/* Whether the mode (fn, ud) is on this thread's dispatch / function mode stack. */
bool ct_dispatch_mode_is_active(ct_dispatch_mode_fn fn, void *ud);
bool ct_function_mode_is_active(ct_function_mode_fn fn, void *ud);

#endif
