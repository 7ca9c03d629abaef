/* ct_init(): the library's start-up, in one place and one order (Note [Start-up] in
 * core/startup.h). Each layer sets up what it owns, lowest first, once per process, as a Lua host
 * opens its libraries with luaL_openlibs (PyTorch does this with static initialisers and
 * TORCH_LIBRARY blocks when libtorch is loaded; in C nothing runs before main, and an object file
 * only a start-up refers to would not even be linked from a static library). Only programs call
 * it: no file of src/ below this one does, so the start-up cannot re-enter itself. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "autograd/autograd_impl.h"
#include "core/keys_impl.h"
#include "core/startup.h"
#include "ctorch/error.h"
#include "ctorch/init.h"
#include "dispatch/trace_impl.h"
#include "modes/modes_impl.h"
#include "ops/builtin.h"
#include "ops/cpu/capability.h"
#include "profiler/profiler_impl.h"
#include "random/rng.h"
#include "subclass/subclass_impl.h"

/* Note [The one pthread_once]: the start-up is the library's only routine run under
 * pthread_once. The tables that once had their own (key offsets, CPU capability, default
 * generator, derivative index) are set up here, in order, so nothing reads them before. The
 * allocator keeps two of its own (src/core/alloc.c, each with its reason): it serves calls made
 * before ct_init(). */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int start_rc;         /* what ct_init() returns: written by start, under once */
static char start_error[256]; /* why the start-up failed, for every later caller */

static void start(void) {
    ct_library_starting = true; /* this thread may use the registry while it starts it */
    ct_keys_init();             /* core: the dispatch-table layout of the key order */
    ct_cpu_capability_init();   /* ops: the CPU capability (CTORCH_CPU_CAPABILITY) and kernel table */
    ct_default_generator_init(); /* random: the default generator's seed, unless the program gave one */
    int rc = ct_ops_register(); /* ops: the built-in operators, their CPU and composite kernels, the
                                   BackendSelect / ADInplaceOrView / Autocast fallthroughs */
    ct_modes_register();        /* modes: the Python, PythonTLSSnapshot and PythonDispatcher fallbacks,
                                   the front door's function-mode hook */
    ct_subclass_register();     /* subclass: a wrapper's __torch_dispatch__ */
    ct_profiler_register();     /* profiler: the record_function operators' kernels, its observers */
    ct_autograd_register();     /* autograd, last as VariableType is generated from every kernel: the
                                   derivative index, the Autograd and ADInplaceOrView kernels, the
                                   autograd fallbacks, the tensor metadata hooks */
    ct_trace_init_from_env();   /* dispatch: CTORCH_SHOW_DISPATCH_TRACE, CTORCH_TRACE_FILE */
    ct_library_starting = false;
    if (rc != 0) {
        snprintf(start_error, sizeof start_error, "%s", ct_error_message());
        start_rc = -1;
        return;
    }
    atomic_store_explicit(&ct_library_ready, true, memory_order_release);
}

int ct_init(void) {
    pthread_once(&once, start);
    if (start_rc != 0) return ct_error_set(CT_ERR_RUNTIME, "ct_init: the start-up failed: %s", start_error);
    return 0;
}
