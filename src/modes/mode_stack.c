/* The mode stacks' shared parts: handles, the checked push and the checked pops (mode_stack.h). */
#include <limits.h>
#include <stdatomic.h>

#include "core/error_impl.h"
#include "ctorch/error.h"
#include "modes/mode_stack.h"

static atomic_int handle_counter; /* Note [Mode handles]: process-wide, so a handle names one push */

int ct_mode_handle_next(void) {
    for (;;) {
        int h = atomic_fetch_add_explicit(&handle_counter, 1, memory_order_relaxed) + 1;
        if (h > 0) return h;
        /* wrapped: start again from 1 (only the thread that sees the wrap resets it) */
        int expected = h - 1;
        atomic_compare_exchange_strong(&handle_counter, &expected, 0);
    }
}

int ct_mode_stack_push(ct_mode_stack *s, ct_mode_entry e, const char *what) {
    if (s->len + s->stashed >= CT_MAX_MODES)
        return ct_error_set(CT_ERR_RECURSION,
                            "maximum recursion depth exceeded\n(more than %d %s modes nested on this thread: a handler "
                            "that enters a mode on every call recurses without end)",
                            CT_MAX_MODES, what);
    e.handle = ct_mode_handle_next();
    s->entry[s->len++] = e;
    return e.handle;
}

static int find(const ct_mode_stack *s, int handle) {
    for (int i = s->len - 1; i >= 0; i--)
        if (s->entry[i].handle == handle) return i;
    return -1;
}

int ct_mode_stack_pop(ct_mode_stack *s, int handle, const char *who, const char *kind) {
    if (s->len == 0) return ct_error_set(CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    int at = handle > 0 ? find(s, handle) : -1;
    if (at < 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "%s: handle %d names no %s mode active on this thread (a handle names one push, of one kind "
                            "of mode, on one thread)",
                            who, handle, kind);
    if (at != s->len - 1)
        return ct_error_set(CT_ERR_RUNTIME,
                            "%s: %s mode %d is not the innermost %s mode (%d is); modes are exited in reverse order of "
                            "entering",
                            who, kind, handle, kind, s->entry[s->len - 1].handle);
    s->len--;
    return 0;
}

static bool same(const ct_mode_entry *a, const ct_mode_entry *b) {
    return a->fn.dispatch == b->fn.dispatch && a->ud == b->ud;
}

bool ct_mode_stack_contains(const ct_mode_stack *s, ct_mode_entry e) {
    for (int i = 0; i < s->len; i++)
        if (same(&s->entry[i], &e)) return true;
    return false;
}

int ct_mode_stack_pop_entry(ct_mode_stack *s, ct_mode_entry e, const char *who, const char *kind) {
    for (int i = s->len - 1; i >= 0; i--) {
        if (!same(&s->entry[i], &e)) continue;
        if (i != s->len - 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s: it is not the innermost %s mode (%d entered after it are still active); exit modes "
                                "in the reverse order of entering them",
                                who, kind, s->len - 1 - i);
        s->len--;
        return 0;
    }
    return ct_error_set(CT_ERR_RUNTIME, "%s: it is not an active %s mode on this thread", who, kind);
}
