/* The per-thread stack that dispatch modes and function modes each keep (internal).
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
 *   answer to that recursion, a RecursionError. */
#ifndef CT_MODE_STACK_H
#define CT_MODE_STACK_H

#include <stdbool.h>

#include "ctorch/mode.h"

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

/* A new handle (Note [Mode handles]). */
int ct_mode_handle_next(void);

/* Pushes e with a new handle; `what` names the stack in the error. Returns the handle, or -1
 * with a RecursionError when the stack is full. */
int ct_mode_stack_push(ct_mode_stack *s, ct_mode_entry e, const char *what);
/* Pops the innermost entry when `handle` names it. -1 with a RuntimeError otherwise (the stack
 * is empty, `handle` names an entry below the innermost, or no entry of this stack at all), and
 * nothing is popped. */
int ct_mode_stack_pop(ct_mode_stack *s, int handle, const char *who, const char *kind);
/* Pops the innermost entry that is (fn, ud) (compared through the union's dispatch member). */
int ct_mode_stack_pop_entry(ct_mode_stack *s, ct_mode_entry e, const char *who, const char *kind);
bool ct_mode_stack_contains(const ct_mode_stack *s, ct_mode_entry e);

/* For a handler: takes the innermost entry off (stashing it) / puts it back. The stack must
 * not be empty for the first; the second always has room (Note [Mode stack bound]). */
static inline ct_mode_entry ct_mode_stack_take(ct_mode_stack *s) {
    s->stashed++;
    return s->entry[--s->len];
}
static inline void ct_mode_stack_restore(ct_mode_stack *s, ct_mode_entry e) {
    s->stashed--;
    s->entry[s->len++] = e;
}

#endif
