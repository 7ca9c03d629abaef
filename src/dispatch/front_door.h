/* The library's front door (internal): how every call from outside enters it.
 *
 * Note [One front door]
 *   A call from C and a call from Python enter the same way: offered to the thread's function
 *   modes (TorchFunctionMode) when any is active, then handed to the dispatcher. The typed
 *   wrappers (ct_add, ...; ops/api_call.h) take this door with values boxed from typed C
 *   parameters; a language binding takes it through ct_op_invoke_parsed with values its own
 *   parser has already matched to the schema (Python's ctpy_parse, which raises PyTorch's
 *   TypeErrors); a program's hand-built values take it through ct_op_invoke, which checks them
 *   first. So the schema is checked once per call, by whoever built the values, and never again
 *   inside (Note [Checked and unchecked calls] in check.c).
 *
 *   The function modes live above the dispatcher (modes/function_mode.c), so the door reaches
 *   them through ct_front_door_hooks, which the modes fill at start-up (ct_modes_register); no
 *   call can come through before that (the typed wrappers refuse before ct_init(), and every
 *   other caller holds an operator, which only the started registry hands out). */
#ifndef CT_FRONT_DOOR_H
#define CT_FRONT_DOOR_H

#include "core/tls.h"
#include "dispatch/call_impl.h"

typedef struct ct_front_door {
    /* Offers op's call to the innermost function mode (the modes' ct_function_mode_call_op):
     * the values have the schema's types, rets are anything (set to None first). */
    int (*function_mode_call)(const ct_op *op, ct_value *args, ct_value *rets);
} ct_front_door;
extern ct_front_door ct_front_door_hooks; /* written once, at start-up (dispatch/call.c holds it) */

/* The door itself: values with the schema's types, op not NULL. */
static inline int ct_enter(const ct_op *op, ct_value *args, ct_value *rets) {
    if (__builtin_expect(ct_tls_state.function_modes != 0, 0)) return ct_front_door_hooks.function_mode_call(op, args, rets);
    return ct_dispatch_call(op, args, rets);
}

#endif
