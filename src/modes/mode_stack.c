/* The mode stacks (mode_stack.h): one implementation of push, pop, look-up and stashing for
 * both kinds, and the public functions of ctorch/mode.h that are about the stacks, each a
 * one-line use of it. What a mode does with a call is in dispatch_mode.c (dispatch modes and the
 * Python key) and function_mode.c (function modes). */
#include <limits.h>
#include <stdatomic.h>

#include "core/error_impl.h"
#include "ctorch/error.h"
#include "modes/modes_impl.h"
#include "modes/mode_stack.h"

_Thread_local ct_mode_stack ct_mode_stacks[CT_MODE_KIND_COUNT]; /* Note [Mode handles], Note [Mode stack bound] */

/* how messages name each kind, and its public pop */
static const char *const kind_name[CT_MODE_KIND_COUNT] = {[CT_MODE_DISPATCH] = "dispatch", [CT_MODE_FUNCTION] = "function"};
static const char *const pop_name[CT_MODE_KIND_COUNT] = {[CT_MODE_DISPATCH] = "ct_dispatch_mode_pop",
                                                         [CT_MODE_FUNCTION] = "ct_function_mode_pop"};

static atomic_int handle_counter; /* Note [Mode handles]: process-wide, so a handle names one push */

static int handle_next(void) {
    for (;;) {
        int h = atomic_fetch_add_explicit(&handle_counter, 1, memory_order_relaxed) + 1;
        if (h > 0) return h;
        /* wrapped: start again from 1 (only the thread that sees the wrap resets it) */
        int expected = h - 1;
        atomic_compare_exchange_strong(&handle_counter, &expected, 0);
    }
}

/* Pushes e with a new handle. Returns the handle, or -1 with a RecursionError when the stack
 * is full (Note [Mode stack bound]). */
static int push(ct_mode_kind kind, ct_mode_entry e) {
    ct_mode_stack *s = &ct_mode_stacks[kind];
    if (s->len + s->stashed >= CT_MAX_MODES)
        return ct_error_set(CT_ERR_RECURSION,
                            "maximum recursion depth exceeded\n(more than %d %s modes nested on this thread: a handler "
                            "that enters a mode on every call recurses without end)",
                            CT_MAX_MODES, kind_name[kind]);
    e.handle = handle_next();
    s->entry[s->len++] = e;
    ct_mode_stack_changed(kind);
    return e.handle;
}

static int find(const ct_mode_stack *s, int handle) {
    for (int i = s->len - 1; i >= 0; i--)
        if (s->entry[i].handle == handle) return i;
    return -1;
}

/* Pops the innermost entry when `handle` names it. -1 with a RuntimeError otherwise (the stack
 * is empty, `handle` names an entry below the innermost, or no entry of this stack at all), and
 * nothing is popped. */
static int pop(ct_mode_kind kind, int handle) {
    ct_mode_stack *s = &ct_mode_stacks[kind];
    const char *who = pop_name[kind], *k = kind_name[kind];
    if (s->len == 0) return ct_error_set(CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    int at = handle > 0 ? find(s, handle) : -1;
    if (at < 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "%s: handle %d names no %s mode active on this thread (a handle names one push, of one kind "
                            "of mode, on one thread)",
                            who, handle, k);
    if (at != s->len - 1)
        return ct_error_set(CT_ERR_RUNTIME,
                            "%s: %s mode %d is not the innermost %s mode (%d is); modes are exited in reverse order of "
                            "entering",
                            who, k, handle, k, s->entry[s->len - 1].handle);
    s->len--;
    ct_mode_stack_changed(kind);
    return 0;
}

/* The entry at position i (0 = outermost): its handle, or 0 when i is no position of the stack. */
static int at(ct_mode_kind kind, int i, ct_mode_entry *out) {
    const ct_mode_stack *s = &ct_mode_stacks[kind];
    if (i < 0 || i >= s->len) return 0;
    *out = s->entry[i];
    return out->handle;
}

static bool same(const ct_mode_entry *a, const ct_mode_entry *b) {
    return a->fn.dispatch == b->fn.dispatch && a->ud == b->ud;
}

bool ct_mode_is_active(ct_mode_kind kind, ct_mode_entry e) {
    const ct_mode_stack *s = &ct_mode_stacks[kind];
    for (int i = 0; i < s->len; i++)
        if (same(&s->entry[i], &e)) return true;
    return false;
}

int ct_mode_pop_entry(ct_mode_kind kind, ct_mode_entry e, const char *who) {
    ct_mode_stack *s = &ct_mode_stacks[kind];
    for (int i = s->len - 1; i >= 0; i--) {
        if (!same(&s->entry[i], &e)) continue;
        if (i != s->len - 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s: it is not the innermost %s mode (%d entered after it are still active); exit modes "
                                "in the reverse order of entering them",
                                who, kind_name[kind], s->len - 1 - i);
        s->len--;
        ct_mode_stack_changed(kind);
        return 0;
    }
    return ct_error_set(CT_ERR_RUNTIME, "%s: it is not an active %s mode on this thread", who, kind_name[kind]);
}

/* ---- dispatch modes (ctorch/mode.h) ---- */

int ct_dispatch_mode_push(ct_dispatch_mode_fn fn, void *ud) {
    if (!fn) return ct_error_set(CT_ERR_VALUE, "ct_dispatch_mode_push: handler is NULL");
    return push(CT_MODE_DISPATCH, (ct_mode_entry){.fn.dispatch = fn, .ud = ud});
}

int ct_dispatch_mode_pop(int handle) { return pop(CT_MODE_DISPATCH, handle); }

int ct_dispatch_mode_stack_len(void) { return ct_mode_stacks[CT_MODE_DISPATCH].len; }

int ct_dispatch_mode_at(int i, ct_dispatch_mode_fn *fn, void **ud) {
    ct_mode_entry e;
    int h = at(CT_MODE_DISPATCH, i, &e);
    if (h && fn) *fn = e.fn.dispatch;
    if (h && ud) *ud = e.ud;
    return h;
}

int ct_dispatch_mode_top(ct_dispatch_mode_fn *fn, void **ud) {
    return ct_dispatch_mode_at(ct_mode_stacks[CT_MODE_DISPATCH].len - 1, fn, ud);
}

bool ct_dispatch_mode_is_active(ct_dispatch_mode_fn fn, void *ud) {
    return ct_mode_is_active(CT_MODE_DISPATCH, (ct_mode_entry){.fn.dispatch = fn, .ud = ud});
}

int ct_dispatch_mode_run_without(int (*body)(void *ctx), void *ctx) {
    if (!body) return ct_error_set(CT_ERR_VALUE, "ct_dispatch_mode_run_without: body is NULL");
    /* StashTorchDispatchStackGuard: every mode off for the body, each back after it, in order
     * and with its handle (counted as stashed: Note [Mode stack bound]) */
    ct_mode_stack *s = &ct_mode_stacks[CT_MODE_DISPATCH];
    ct_mode_entry saved[CT_MAX_MODES];
    int n = s->len;
    for (int i = 0; i < n; i++) saved[i] = s->entry[i];
    s->stashed += n;
    s->len = 0;
    ct_mode_stack_changed(CT_MODE_DISPATCH);
    int rc = body(ctx);
    /* anything the body left entered goes back on top of the saved modes, as pushed */
    ct_mode_entry left[CT_MAX_MODES];
    int nl = s->len;
    for (int i = 0; i < nl; i++) left[i] = s->entry[i];
    for (int i = 0; i < n; i++) s->entry[i] = saved[i];
    for (int i = 0; i < nl; i++) s->entry[n + i] = left[i];
    s->stashed -= n;
    s->len = n + nl;
    ct_mode_stack_changed(CT_MODE_DISPATCH);
    return rc;
}

/* ---- function modes (ctorch/mode.h) ---- */

int ct_function_mode_push(ct_function_mode_fn fn, void *ud) {
    if (!fn) return ct_error_set(CT_ERR_VALUE, "ct_function_mode_push: handler is NULL");
    return push(CT_MODE_FUNCTION, (ct_mode_entry){.fn.function = fn, .ud = ud});
}

int ct_function_mode_pop(int handle) { return pop(CT_MODE_FUNCTION, handle); }

int ct_function_mode_stack_len(void) { return ct_mode_stacks[CT_MODE_FUNCTION].len; }

int ct_function_mode_at(int i, ct_function_mode_fn *fn, void **ud) {
    ct_mode_entry e;
    int h = at(CT_MODE_FUNCTION, i, &e);
    if (h && fn) *fn = e.fn.function;
    if (h && ud) *ud = e.ud;
    return h;
}

int ct_function_mode_top(ct_function_mode_fn *fn, void **ud) {
    return ct_function_mode_at(ct_mode_stacks[CT_MODE_FUNCTION].len - 1, fn, ud);
}

int ct_function_mode_top_handle(void) { return ct_function_mode_top(NULL, NULL); }

bool ct_function_mode_is_active(ct_function_mode_fn fn, void *ud) {
    return ct_mode_is_active(CT_MODE_FUNCTION, (ct_mode_entry){.fn.function = fn, .ud = ud});
}

int ct_function_mode_pop_checked(ct_function_mode_fn fn, void *ud, const char *who) {
    return ct_mode_pop_entry(CT_MODE_FUNCTION, (ct_mode_entry){.fn.function = fn, .ud = ud}, who);
}

int ct_function_mode_run_top(int (*body)(void *ctx, ct_function_mode_fn fn, void *ud), void *ctx) {
    if (!body) return ct_error_set(CT_ERR_VALUE, "ct_function_mode_run_top: body is NULL");
    if (ct_mode_stacks[CT_MODE_FUNCTION].len == 0) return ct_error_set(CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    ct_mode_entry m = ct_mode_take(CT_MODE_FUNCTION);
    int rc = body(ctx, m.fn.function, m.ud);
    ct_mode_restore(CT_MODE_FUNCTION, m);
    return rc;
}
