/*
 * ctorch/mode.h - dispatch modes (TorchDispatchMode) and function modes (TorchFunctionMode).
 *
 * A dispatch mode is a C callback on a per-thread stack. Pushing the first mode adds Python and
 * PythonTLSSnapshot to the thread's include set, so every op reaches the Python key, below
 * Autograd: the mode sees aten ops after composite decomposition and autograd (t and addmm for
 * linear), backward ops included. Its handler runs with the mode popped (calls it makes reach
 * the next mode down, or the kernels) and with every key above Python excluded. In ctorch the
 * "Python" key's handlers are C callbacks; the key keeps PyTorch's name so traces line up.
 *
 * A function mode sees public ctorch calls (ct_linear, ct_relu, ct_cross_entropy, ...) before the
 * dispatcher, like TorchFunctionMode sees torch.* calls, again with the mode popped while its
 * handler runs.
 */
#ifndef CTORCH_MODE_H
#define CTORCH_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/dispatch.h"
#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dispatch modes ---- */

/* __torch_dispatch__(func, types, args): args holds ct_op_num_args(op) borrowed values; the
 * handler fills rets (new references), usually by calling ct_call(op, args, rets) itself.
 * Returns 0 or -1 with an error set. */
typedef int (*ct_dispatch_mode_fn)(void *ud, const ct_op *op, ct_value *args, ct_value *rets);

/* Slots of each per-thread mode stack (Note [Mode stack bound] in src/modes/mode_stack.h). */
#define CT_MAX_MODES 64

/* Pushes a mode on this thread's stack (enters it). Returns the mode's handle (> 0) to give to
 * ct_dispatch_mode_pop, or -1 with an error: a ValueError for a NULL handler, a RecursionError
 * (CT_ERR_RECURSION) when this thread's modes, counting those whose handlers are running, would
 * exceed CT_MAX_MODES. A handle names this one push: no other push, of either kind of mode, on
 * any thread, gets the same handle. */
CT_API int ct_dispatch_mode_push(ct_dispatch_mode_fn fn, void *ud);
/* Pops (exits) the innermost mode, which must be the one `handle` names. Returns 0, or -1 with a
 * RuntimeError when the stack is empty, another mode is innermost, or `handle` names no dispatch
 * mode on this thread's stack (a function mode's handle, one from another thread, one already
 * popped); nothing is popped then. */
CT_API int ct_dispatch_mode_pop(int handle);
CT_API int ct_dispatch_mode_stack_len(void);
/* The innermost dispatch mode: returns its handle and fills *fn / *ud (either may be NULL), or
 * returns 0 when no mode is active. While a handler runs its own mode is off the stack. */
CT_API int ct_dispatch_mode_top(ct_dispatch_mode_fn *fn, void **ud);
/* Runs body(ctx) with every dispatch mode of this thread off (PyTorch's
 * StashTorchDispatchStackGuard, which _make_subclass takes around its detach) and puts them back
 * afterwards, with their handles, beneath whatever body left entered. Returns body's result. */
CT_API int ct_dispatch_mode_run_without(int (*body)(void *ctx), void *ctx);
/* The mode at position i of the stack (0 = outermost), as ct_dispatch_mode_top; 0 when i is not
 * a position of the stack. */
CT_API int ct_dispatch_mode_at(int i, ct_dispatch_mode_fn *fn, void **ud);

/* ---- function modes ---- */

typedef struct ct_function ct_function;
/* __torch_function__(func, types, args): func is the public function called; proceed with
 * ct_function_call(func, args, rets). */
typedef int (*ct_function_mode_fn)(void *ud, const ct_function *func, ct_value *args, ct_value *rets);

/* Pushes a function mode on this thread's stack (enters it). Returns the mode's handle (> 0) to
 * give to ct_function_mode_pop, or -1 with an error, as ct_dispatch_mode_push. */
CT_API int ct_function_mode_push(ct_function_mode_fn fn, void *ud);
/* Pops (exits) the innermost function mode, which must be the one `handle` names. Returns 0, or
 * -1 with a RuntimeError as ct_dispatch_mode_pop (nothing is popped then). */
CT_API int ct_function_mode_pop(int handle);
CT_API int ct_function_mode_stack_len(void);
/* The innermost function mode, as ct_dispatch_mode_top. */
CT_API int ct_function_mode_top(ct_function_mode_fn *fn, void **ud);
CT_API int ct_function_mode_at(int i, ct_function_mode_fn *fn, void **ud);
/* Runs body(ctx, fn, ud) with the innermost function mode (fn, ud) off the stack and puts it
 * back afterwards, with its handle, on top of whatever body left there: what a language
 * binding's own torch-function protocol does around a mode's handler (PyTorch's
 * _pop_mode_temporarily). Returns body's result, or -1 with a RuntimeError when no function
 * mode is active (body is not run). */
CT_API int ct_function_mode_run_top(int (*body)(void *ctx, ct_function_mode_fn fn, void *ud), void *ctx);
/* The innermost function mode's handle, 0 when none is active (for a binding whose exit pops
 * whatever is innermost, as torch.overrides' _pop_mode does). */
CT_API int ct_function_mode_top_handle(void);
/* The function's public name: "linear", "relu", "cross_entropy", "addmm", ... */
CT_API const char *ct_function_name(const ct_function *func);
/* Its argument count (args arrays passed to handlers have this many values). */
CT_API int ct_function_num_args(const ct_function *func);
CT_API int ct_function_num_returns(const ct_function *func);
/* The operator the function runs (aten::add.Tensor for "add"), or NULL for a function with a C
 * body of its own ("tensor", "cross_entropy"), whose arguments follow its own convention. */
CT_API const ct_op *ct_function_op(const ct_function *func);
/* Runs the function (lower function modes first). */
CT_API int ct_function_call(const ct_function *func, ct_value *args, ct_value *rets);
/* An operator called through the front door (ct_op_invoke, ct_op_invoke_parsed and the typed
 * wrappers: ctorch/dispatch.h) reaches the function modes as the function named by its base
 * name. */

/* ---- built-in modes ---- */

/* Each built-in mode object (logger, counter) is for one thread at a time. Its pop checks that
 * it is this thread's innermost mode of its kind (otherwise -1, a RuntimeError, and nothing is
 * popped); its free refuses an object still on this thread's mode stack (sets a RuntimeError
 * and leaves it valid, to be popped and then freed). */

/* A logging dispatch mode: records str(func) of every op it sees, in order
 * ("aten.t.default", "aten.addmm.default", ...). */
typedef struct ct_op_logger ct_op_logger;
CT_API ct_op_logger *ct_op_logger_new(void);
CT_API void ct_op_logger_free(ct_op_logger *l);
/* Enters / exits the mode. */
CT_API int ct_op_logger_push(ct_op_logger *l);
CT_API int ct_op_logger_pop(ct_op_logger *l);
CT_API size_t ct_op_logger_count(const ct_op_logger *l);
CT_API const char *ct_op_logger_get(const ct_op_logger *l, size_t i);
CT_API void ct_op_logger_clear(ct_op_logger *l);
/* The log as "['aten.t.default', 'aten.addmm.default']" (Python's str of the list; ct_free). */
CT_API char *ct_op_logger_format(const ct_op_logger *l);

/* A function-mode logger: records ct_function_name of every public call. */
typedef struct ct_function_logger ct_function_logger;
CT_API ct_function_logger *ct_function_logger_new(void);
CT_API void ct_function_logger_free(ct_function_logger *l);
CT_API int ct_function_logger_push(ct_function_logger *l);
CT_API int ct_function_logger_pop(ct_function_logger *l);
CT_API size_t ct_function_logger_count(const ct_function_logger *l);
CT_API const char *ct_function_logger_get(const ct_function_logger *l, size_t i);

/* A counting dispatch mode with named phases: counts[phase][str(func)] += 1. */
typedef struct ct_op_counter ct_op_counter;
CT_API ct_op_counter *ct_op_counter_new(void);
CT_API void ct_op_counter_free(ct_op_counter *c);
CT_API int ct_op_counter_push(ct_op_counter *c);
CT_API int ct_op_counter_pop(ct_op_counter *c);
/* Sets the phase the following ops are counted under (copied; created on first use). */
CT_API int ct_op_counter_set_phase(ct_op_counter *c, const char *phase);
/* Count of `name` in `phase` (0 if none). */
CT_API int64_t ct_op_counter_get(const ct_op_counter *c, const char *phase, const char *name);
/* Total count of a phase, or of all phases when phase is NULL. */
CT_API int64_t ct_op_counter_total(const ct_op_counter *c, const char *phase);
/* Distinct names in a phase, sorted; *names receives an array of borrowed strings (ct_free the
 * array). Returns the count, or -1. */
CT_API int ct_op_counter_names(const ct_op_counter *c, const char *phase, const char ***names);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_MODE_H */
