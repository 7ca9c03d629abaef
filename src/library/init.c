/* The library's start-up, in one place: each layer registers what it owns, lowest first, once
 * per process (PyTorch does this with static initialisers and TORCH_LIBRARY blocks when
 * libtorch is loaded). Every entry point that needs the operators reaches here through
 * ct_library_ensure() (core/startup.h). */
#include <pthread.h>
#include <stdatomic.h>

#include "autograd/autograd_impl.h"
#include "core/keys_impl.h"
#include "core/startup.h"
#include "dispatch/trace_impl.h"
#include "modes/modes_impl.h"
#include "ops/builtin.h"
#include "profiler/profiler_impl.h"
#include "subclass/subclass_impl.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void start(void) {
    ct_keys_init();           /* core: the dispatch-table layout of the key order */
    ct_ops_register();        /* ops: the built-in operators, their CPU and composite kernels, the
                                 BackendSelect / ADInplaceOrView / Autocast fallthroughs */
    ct_modes_register();      /* modes: the Python, PythonTLSSnapshot and PythonDispatcher fallbacks */
    ct_subclass_register();   /* subclass: a wrapper's __torch_dispatch__ */
    ct_profiler_register();   /* profiler: the record_function operators' kernels */
    ct_autograd_register();   /* autograd, last as VariableType is generated from every kernel: the
                                 Autograd and ADInplaceOrView kernels, the autograd fallbacks, the
                                 tensor metadata hooks */
    ct_trace_init_from_env(); /* dispatch: CTORCH_SHOW_DISPATCH_TRACE */
    atomic_store_explicit(&ct_library_ready, true, memory_order_release);
}

void ct_library_init(void) { pthread_once(&once, start); }
