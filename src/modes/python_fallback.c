/* The Python, PythonTLSSnapshot and PythonDispatcher backend fallbacks
 * (PythonFallbackKernel.cpp). In ctorch the "Python" handlers are C callbacks. */
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "ops/kernels.h"

CT_KERNEL(ct_k_python_tls_snapshot_fallback) {
    return ct_redispatch(op, ks & CT_FULL_AFTER(CT_KEY_PythonTLSSnapshot), args, rets);
}

CT_KERNEL(ct_k_python_dispatcher_fallback) {
    return ct_redispatch(op, ks & CT_FULL_AFTER(CT_KEY_PythonDispatcher), args, rets);
}

/* No mode and no wrapper argument: drop the Python key and carry on (pythonFallback). */
CT_KERNEL(ct_k_python_fallback) {
    ct_key_guard g;
    ct_key_guard_exclude(&g, ct_keyset_of(CT_KEY_Python));
    int rc = ct_redispatch(op, ct_keyset_sub(ks, ct_keyset_of(CT_KEY_Python)), args, rets);
    ct_key_guard_pop(&g);
    return rc;
}
