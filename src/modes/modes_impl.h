/* Dispatch modes, the Python-key fallbacks and function modes (internal). */
#ifndef CT_MODES_IMPL_H
#define CT_MODES_IMPL_H

#include "core/tensor_impl.h"
#include "ctorch/mode.h"
#include "ops/kernels.h"

/* Registers the Python, PythonTLSSnapshot and PythonDispatcher fallbacks (PythonFallbackKernel.cpp).
 * Run once by the start-up (src/modes/register.c). */
void ct_modes_register(void);
/* Sends a public call through the active function modes (src/modes/function_mode.c). */
int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets);
CT_KERNEL(ct_k_python_fallback);
CT_KERNEL(ct_k_python_tls_snapshot_fallback);
CT_KERNEL(ct_k_python_dispatcher_fallback);

/* pyinterpreter()->detach(self): aten::detach sent to the top dispatch mode (popped while it
 * runs) or, with no mode, to the handler of t's wrapper subclass. *out: new reference. */
int ct_python_detach(ct_tensor *t, ct_tensor **out);
/* Runs op on the top dispatch mode, popped while its handler runs (dispatch_on_mode). */
int ct_dispatch_on_mode(const ct_op *op, ct_value *args, ct_value *rets);

#endif
