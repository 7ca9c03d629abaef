/* The modes' registrations, run once by the start-up: the fallbacks of the Python keys (defined in
 * dispatch_mode.c), as PythonFallbackKernel.cpp registers them (TORCH_LIBRARY_IMPL(_, Python, m) { m.fallback(...) }),
 * and the front door's way to the function modes (Note [One front door] in dispatch/front_door.h). */
#include "dispatch/op_impl.h"
#include "dispatch/py_interpreter.h"
#include "dispatch/front_door.h"
#include "modes/modes_impl.h"

void ct_modes_register(void) {
    ct_py_interpreter_hooks.detach = ct_python_detach;
    ct_front_door_hooks.function_mode_call = ct_function_mode_call_op;
    ct_register_fallback(CT_KEY_Python, ct_k_python_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_PythonTLSSnapshot, ct_k_python_tls_snapshot_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_PythonDispatcher, ct_k_python_dispatcher_fallback, CT_HERE);
}
