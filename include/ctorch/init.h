/*
 * ctorch/init.h - starting the library: a program calls ct_init() once, before anything else.
 *
 *     int main(void) {
 *         if (ct_init() != 0) { fprintf(stderr, "%s\n", ct_error_message()); return 1; }
 *         ...
 *
 * ct_init() defines the operators and registers every kernel, fallback and hook (what PyTorch's
 * static initialisers and TORCH_LIBRARY blocks do when libtorch is loaded), and sets up the
 * tables the calls read: the dispatch-table layout of the keys, the CPU capability
 * (CTORCH_CPU_CAPABILITY is read here), the default generator's seed, the derivative index, and
 * the trace environment (CTORCH_SHOW_DISPATCH_TRACE, CTORCH_TRACE_FILE). It runs once per
 * process: a second call, or a call from another thread at the same time, waits until the first
 * has finished and returns what it returned.
 *
 * Before it, the functions that need the operators or what the start-up registers return their
 * error ("...: ct_init() has not been called ...", CT_ERR_RUNTIME), never starting the library
 * themselves: the typed wrappers (ct_add, ...), ct_op_find / ct_op_at / ct_op_count,
 * ct_op_define, ct_register_fallback, ct_op_enter, making a tensor require grad, the profiler's
 * start, wrapper subclasses' constructors and ct_backends_cpu_capability. What needs none of
 * it works before it (errors, dtypes, key sets, allocation, JSON and text, tensor accessors,
 * grad mode, the mode stacks, generators). A thread that calls ctorch while another runs
 * ct_init() must call ct_init() itself first (it then waits for the start-up to finish).
 */
#ifndef CTORCH_INIT_H
#define CTORCH_INIT_H

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the library (once per process; thread-safe, idempotent). Returns 0, or -1 with the
 * error set when the start-up could not complete (an allocation failed); the start-up is not
 * retried, and every later call returns the same. */
CT_API int ct_init(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_INIT_H */
