/* Whether the library has started (internal). The start-up itself is ct_init() (the library
 * layer, src/library/init.c); what lives here is only the flag it sets and the error that the
 * entry points needing it give before it, so that every layer can ask without naming a layer
 * above its own.
 *
 * Note [Start-up]
 *   ctorch starts when the program calls ct_init() (include/ctorch/ctorch.h), as a Lua host calls
 *   luaL_openlibs: the ctorch command's main, the Python module's PyInit__C, the examples, the
 *   tests and the benchmarks each call it first. It runs once per process (pthread_once) and in
 *   one order, written in src/library/init.c: the key tables, the CPU capability and the default
 *   generator, then each layer's registration (ops, modes, subclass, profiler, then autograd with
 *   its derivative index, as VariableType is made from every kernel), then the trace environment;
 *   ct_library_ready is set last, with release order.
 *
 *   No file below the library calls ct_init(), on any path: a lower layer cannot name it (the
 *   layers check, tools/layers), so the start-up can never re-enter itself (pthread_once called
 *   from its own routine blocks for ever in glibc) and no call path carries a "started yet?"
 *   call. Code the start-up runs may call ct_builtin() and the typed wrappers (they only read
 *   the table) and the registry's public functions (ct_library_started() is true on the thread
 *   that runs the start-up while it runs).
 *
 *   Before ct_init() a public function that needs what the start-up builds returns its error
 *   (ct_error_not_started: CT_ERR_RUNTIME, "<who>: ct_init() has not been called ...") and never
 *   starts the library itself (SQLite lets its public functions initialise, which here would be
 *   a call from every layer into the library's; only the library may start it):
 *     - the operators: the typed wrappers (ct_add, ...) and the front door (ct_op_enter) find
 *       the built-in table's slot NULL until the start-up fills it, and test the pointer they
 *       load anyway (no extra load on the hot path); the registry's ct_op_find, ct_op_at,
 *       ct_op_count, ct_op_define and ct_register_fallback test the flag (every other registry
 *       call takes an operator, which only they hand out);
 *     - what the start-up's hooks serve: autograd metadata (ct_tensor_set_requires_grad and
 *       whatever makes a tensor require grad), the profiler (ct_profiler_start*), wrapper
 *       subclasses (ct_subclass_make_wrapper, ct_subclass_make_dense), the CPU capability's name
 *       (ct_backends_cpu_capability).
 *   What needs nothing the start-up builds works before it: errors, dtypes, key sets, the
 *   allocator and its counters, JSON and text, tensors' accessors and printing, guards, grad
 *   mode, the mode stacks (a mode pushed before ct_init() sees the calls made after it), the
 *   trace switches, generators (ct_manual_seed before ct_init() is kept: the start-up seeds the
 *   default generator only when nothing has). */
#ifndef CT_STARTUP_H
#define CT_STARTUP_H

#include <stdatomic.h>
#include <stdbool.h>

/* Set (release) by ct_init() once the start-up has run; read (acquire) by ct_library_started. */
extern atomic_bool ct_library_ready;
/* True on the thread that runs the start-up, while it runs (set by ct_init()). */
extern _Thread_local bool ct_library_starting;

static inline bool ct_library_started(void) {
    return __builtin_expect(atomic_load_explicit(&ct_library_ready, memory_order_acquire), 1) || ct_library_starting;
}

/* Sets CT_ERR_RUNTIME "<who>: ct_init() has not been called ..." and returns -1. */
int ct_error_not_started(const char *who);

#endif
