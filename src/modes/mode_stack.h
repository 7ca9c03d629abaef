/* The per-thread mode stacks of dispatch modes and function modes: one implementation for both
 * kinds (internal). mode_stack.c holds the checked operations and the public push, pop and
 * look-up functions of both kinds; a handler's hop (take the mode off, run it, put it back) is
 * inline here, for the call path of dispatch_mode.c and function_mode.c.
 *
 * Note [Mode handles]
 *   ct_dispatch_mode_push and ct_function_mode_push hand back a handle that names one push of
 *   one kind on one thread: handles come from one process-wide counter shared by both kinds, so
 *   a function mode's handle, or a handle from another thread, never matches an entry of this
 *   thread's dispatch-mode stack, and popping with it fails instead of popping the wrong mode.
 *   (The counter wraps after 2^31 - 1 pushes; a clash would need an entry still on a stack
 *   after that many pushes.)
 *
 * Note [Mode stack bound]
 *   The stack has CT_MAX_MODES slots. While a handler runs, its mode is off the stack
 *   (stashed) and comes back when the handler returns, on top of whatever the handler left
 *   there. So that putting it back can never overflow, a push is refused once the entries on
 *   the stack plus the ones stashed by running handlers fill every slot: that is what a
 *   handler re-entering its own mode on every call reaches, and the error is PyTorch's
 *   answer to that recursion, a RecursionError.
 *
 * Note [Mode depths in the thread's state]
 *   Code below modes reads how many modes of each kind are active from ct_tls_state (core), not
 *   from the stacks: the dispatcher's "any function mode?" check, autograd's "is a dispatch mode
 *   active?", and the Python keys a dispatch mode adds to the include set. Every change of a
 *   stack's length goes through ct_mode_stack_changed, which keeps them in step. */
#ifndef CT_MODE_STACK_H
#define CT_MODE_STACK_H

#include <stdbool.h>

#include "core/tls.h"
#include "ctorch/mode.h"

typedef enum ct_mode_kind { CT_MODE_DISPATCH, CT_MODE_FUNCTION, CT_MODE_KIND_COUNT } ct_mode_kind;

typedef struct ct_mode_entry {
    union {
        ct_dispatch_mode_fn dispatch;
        ct_function_mode_fn function;
    } fn;
    void *ud;
    int handle;
} ct_mode_entry;

typedef struct ct_mode_stack {
    ct_mode_entry entry[CT_MAX_MODES];
    int len;
    int stashed; /* entries taken off by handlers that are running (Note [Mode stack bound]) */
} ct_mode_stack;

/* This thread's stacks, one per kind (defined in mode_stack.c). */
extern _Thread_local ct_mode_stack ct_mode_stacks[CT_MODE_KIND_COUNT];

/* Python and PythonTLSSnapshot: included while a dispatch mode is on the stack
 * (TorchDispatchModeTLS's push_onto_stack / pop_stack) */
#define CT_PYTHON_MODE_KEYS (CT_FUNCTIONALITY_BIT(CT_KEY_Python) | CT_FUNCTIONALITY_BIT(CT_KEY_PythonTLSSnapshot))

/* After any change of kind's stack length (Note [Mode depths in the thread's state]). With a
 * constant kind, as every caller passes, only that kind's branch is compiled in. */
static inline void ct_mode_stack_changed(ct_mode_kind kind) {
    ct_tls *t = &ct_tls_state;
    int len = ct_mode_stacks[kind].len;
    if (kind == CT_MODE_DISPATCH) {
        t->dispatch_modes = len;
        ct_keyset inc = ct_tls_included_raw(t);
        t->included_xor = (len > 0 ? inc | CT_PYTHON_MODE_KEYS : inc & ~CT_PYTHON_MODE_KEYS) ^ CT_DEFAULT_INCLUDED;
    } else {
        t->function_mode_depth = len;
        t->function_modes = t->function_modes_off ? 0 : len; /* Note [Function modes inside the engine] */
    }
}

/* For a handler: takes the innermost entry of kind's stack off (stashing it) / puts it back,
 * with its handle. The stack must not be empty for the first; the second always has room
 * (Note [Mode stack bound]). */
static inline ct_mode_entry ct_mode_take(ct_mode_kind kind) {
    ct_mode_stack *s = &ct_mode_stacks[kind];
    s->stashed++;
    ct_mode_entry e = s->entry[--s->len];
    ct_mode_stack_changed(kind);
    return e;
}
static inline void ct_mode_restore(ct_mode_kind kind, ct_mode_entry e) {
    ct_mode_stack *s = &ct_mode_stacks[kind];
    s->stashed--;
    s->entry[s->len++] = e;
    ct_mode_stack_changed(kind);
}

/* Whether (fn, ud) is on kind's stack (compared through the union's dispatch member). */
bool ct_mode_is_active(ct_mode_kind kind, ct_mode_entry e);
/* Pops the innermost entry of kind's stack when it is (fn, ud); otherwise fails naming `who`
 * and pops nothing. */
int ct_mode_pop_entry(ct_mode_kind kind, ct_mode_entry e, const char *who);

#endif
