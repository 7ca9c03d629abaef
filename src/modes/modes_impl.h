/* Dispatch modes, the Python-key fallbacks and function modes (internal). */
#ifndef CT_MODES_IMPL_H
#define CT_MODES_IMPL_H

#include "core/tensor_impl.h"
#include "ctorch/mode.h"

/* pyinterpreter()->detach(self): aten::detach sent to the top dispatch mode (popped while it
 * runs) or, with no mode, to the handler of t's wrapper subclass. *out: new reference. */
int ct_python_detach(ct_tensor *t, ct_tensor **out);
/* Runs op on the top dispatch mode, popped while its handler runs (dispatch_on_mode). */
int ct_dispatch_on_mode(const ct_op *op, ct_value *args, ct_value *rets);
/* Pops the mode (fn, ud) when it is the innermost one on this thread's stack; otherwise
 * fails, naming `who` ("ct_op_logger_pop"), and pops nothing: exiting a mode that is not the
 * innermost would leave the ones above it running with the wrong mode beneath. */
int ct_dispatch_mode_pop_checked(ct_dispatch_mode_fn fn, void *ud, const char *who);
/* The same for function modes (function_mode.c). */
int ct_function_mode_pop_checked(ct_function_mode_fn fn, void *ud, const char *who);
/* Whether the mode (fn, ud) is on this thread's dispatch / function mode stack. */
bool ct_dispatch_mode_is_active(ct_dispatch_mode_fn fn, void *ud);
bool ct_function_mode_is_active(ct_function_mode_fn fn, void *ud);
/* Runs op on the handler of the wrapper-subclass tensor `t` (src/subclass). */
int ct_subclass_dispatch(ct_tensor *t, const ct_op *op, ct_value *args, ct_value *rets);

#endif
