/* Built-in modes: an op logger and an op counter with phases (dispatch modes), and a function
 * logger (function mode). Each handler records, then runs the op as PyTorch's
 * `func(*args, **kwargs)` does. */
#include <stdlib.h>
#include <string.h>

#include "dispatch/call_impl.h"
#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/mode.h"
#include "dispatch/op_impl.h"
#include "modes/modes_impl.h"
#include "util/grow.h"

/* ---- a growable list of borrowed strings ---- */

typedef struct strlist {
    const char **v;
    size_t n, cap;
} strlist;

static int strlist_push(strlist *l, const char *s) {
    if (ct_grow(l->v, l->cap, l->n + 1, 64) != 0) return -1;
    l->v[l->n++] = s;
    return 0;
}

/* ---- op logger ---- */

static int logger_handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets);
static int function_logger_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets);
static int counter_handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets);

/* Note [A mode object that is still entered]
 *   Popping a built-in mode checks that it is this thread's innermost mode, and freeing one
 *   that is still on this thread's mode stack is refused (the error is set and the object
 *   stays valid, to be popped and freed), since the stack would otherwise call a handler with
 *   freed data. The objects are for one thread at a time. */
struct ct_op_logger {
    strlist log; /* op python names live as long as the ops: no copies needed */
    bool pushed;
    int handle;  /* of the mode while pushed */
};

ct_op_logger *ct_op_logger_new(void) { return ct_calloc(1, sizeof(ct_op_logger)); }

void ct_op_logger_free(ct_op_logger *l) {
    if (!l) return;
    if (ct_dispatch_mode_is_active(logger_handler, l)) {
        ct_error_set(CT_ERR_RUNTIME, "ct_op_logger_free: the logger is still an active dispatch mode; pop it first (it was "
                                     "not freed)");
        return;
    }
    ct_free((void *)l->log.v);
    ct_free(l);
}

static int logger_handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    ct_op_logger *l = ud;
    if (strlist_push(&l->log, op->python_name) != 0) return -1;
    return ct_dispatch_call(op, args, rets);
}

int ct_op_logger_push(ct_op_logger *l) {
    if (!l) return ct_error_set(CT_ERR_VALUE, "ct_op_logger_push: logger is NULL");
    if (l->handle) return ct_error_set(CT_ERR_RUNTIME, "ct_op_logger_push: the logger is already entered");
    int h = ct_dispatch_mode_push(logger_handler, l);
    if (h < 0) return -1;
    l->handle = h;
    return 0;
}

int ct_op_logger_pop(ct_op_logger *l) {
    if (!l) return ct_error_set(CT_ERR_VALUE, "ct_op_logger_pop: logger is NULL");
    if (!l->handle) return ct_error_set(CT_ERR_RUNTIME, "ct_op_logger_pop: it is not an active dispatch mode on this thread");
    if (ct_dispatch_mode_pop(l->handle) != 0) return -1; /* not the innermost: nothing is popped */
    l->handle = 0;
    return 0;
}

size_t ct_op_logger_count(const ct_op_logger *l) { return l ? l->log.n : 0; }
const char *ct_op_logger_get(const ct_op_logger *l, size_t i) { return l && i < l->log.n ? l->log.v[i] : NULL; }
void ct_op_logger_clear(ct_op_logger *l) {
    if (l) l->log.n = 0;
}

char *ct_op_logger_format(const ct_op_logger *l) {
    if (!l) {
        ct_error_set(CT_ERR_VALUE, "ct_op_logger_format: logger is NULL");
        return NULL;
    }
    size_t len = 3;
    for (size_t i = 0; i < l->log.n; i++) len += strlen(l->log.v[i]) + 4;
    char *s = ct_malloc(len);
    if (!s) return NULL;
    char *p = s;
    *p++ = '[';
    for (size_t i = 0; i < l->log.n; i++) {
        if (i) {
            *p++ = ',';
            *p++ = ' ';
        }
        *p++ = '\'';
        size_t k = strlen(l->log.v[i]);
        memcpy(p, l->log.v[i], k);
        p += k;
        *p++ = '\'';
    }
    *p++ = ']';
    *p = '\0';
    return s;
}

/* ---- function logger ---- */

struct ct_function_logger {
    strlist log;
};

ct_function_logger *ct_function_logger_new(void) { return ct_calloc(1, sizeof(ct_function_logger)); }

void ct_function_logger_free(ct_function_logger *l) {
    if (!l) return;
    if (ct_function_mode_is_active(function_logger_handler, l)) {
        ct_error_set(CT_ERR_RUNTIME, "ct_function_logger_free: the logger is still an active function mode; pop it first "
                                     "(it was not freed)");
        return;
    }
    ct_free((void *)l->log.v);
    ct_free(l);
}

static int function_logger_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    ct_function_logger *l = ud;
    if (strlist_push(&l->log, ct_function_name(f)) != 0) return -1;
    return ct_function_call(f, args, rets);
}

int ct_function_logger_push(ct_function_logger *l) {
    if (!l) return ct_error_set(CT_ERR_VALUE, "ct_function_logger_push: logger is NULL");
    return ct_function_mode_push(function_logger_handler, l) < 0 ? -1 : 0;
}

int ct_function_logger_pop(ct_function_logger *l) {
    if (!l) return ct_error_set(CT_ERR_VALUE, "ct_function_logger_pop: logger is NULL");
    return ct_function_mode_pop_checked(function_logger_handler, l, "ct_function_logger_pop");
}

size_t ct_function_logger_count(const ct_function_logger *l) { return l ? l->log.n : 0; }
const char *ct_function_logger_get(const ct_function_logger *l, size_t i) {
    return l && i < l->log.n ? l->log.v[i] : NULL;
}

/* ---- op counter with phases ---- */

typedef struct count_entry {
    const char *name;
    int64_t count;
} count_entry;

typedef struct phase {
    char *name;
    count_entry *e;
    size_t n, cap;
} phase;

struct ct_op_counter {
    phase *phases;
    size_t n, cap;
    size_t current;
    int handle; /* of the mode while pushed */
};

ct_op_counter *ct_op_counter_new(void) {
    ct_op_counter *c = ct_calloc(1, sizeof *c);
    if (c && ct_op_counter_set_phase(c, "forward") != 0) {
        ct_op_counter_free(c);
        return NULL;
    }
    return c;
}

void ct_op_counter_free(ct_op_counter *c) {
    if (!c) return;
    if (ct_dispatch_mode_is_active(counter_handler, c)) {
        ct_error_set(CT_ERR_RUNTIME, "ct_op_counter_free: the counter is still an active dispatch mode; pop it first (it "
                                     "was not freed)");
        return;
    }
    for (size_t i = 0; i < c->n; i++) {
        ct_free(c->phases[i].name);
        ct_free(c->phases[i].e);
    }
    ct_free(c->phases);
    ct_free(c);
}

static phase *find_phase(const ct_op_counter *c, const char *name) {
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->phases[i].name, name) == 0) return &c->phases[i];
    return NULL;
}

int ct_op_counter_set_phase(ct_op_counter *c, const char *name) {
    if (!c || !name) return ct_error_set(CT_ERR_VALUE, "ct_op_counter_set_phase: NULL argument");
    phase *p = find_phase(c, name);
    if (p) {
        c->current = (size_t)(p - c->phases);
        return 0;
    }
    if (ct_grow(c->phases, c->cap, c->n + 1, 4) != 0) return -1;
    char *copy = ct_strdup(name);
    if (!copy) return -1;
    memset(&c->phases[c->n], 0, sizeof c->phases[c->n]);
    c->phases[c->n].name = copy;
    c->current = c->n++;
    return 0;
}

static int counter_handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    ct_op_counter *c = ud;
    phase *p = &c->phases[c->current];
    size_t i;
    for (i = 0; i < p->n; i++)
        if (p->e[i].name == op->python_name) break;
    if (i == p->n) {
        if (ct_grow(p->e, p->cap, p->n + 1, 16) != 0) return -1;
        p->e[p->n].name = op->python_name;
        p->e[p->n].count = 0;
        p->n++;
    }
    p->e[i].count++;
    return ct_dispatch_call(op, args, rets);
}

int ct_op_counter_push(ct_op_counter *c) {
    if (!c) return ct_error_set(CT_ERR_VALUE, "ct_op_counter_push: counter is NULL");
    if (c->handle) return ct_error_set(CT_ERR_RUNTIME, "ct_op_counter_push: the counter is already entered");
    int h = ct_dispatch_mode_push(counter_handler, c);
    if (h < 0) return -1;
    c->handle = h;
    return 0;
}

int ct_op_counter_pop(ct_op_counter *c) {
    if (!c) return ct_error_set(CT_ERR_VALUE, "ct_op_counter_pop: counter is NULL");
    if (!c->handle) return ct_error_set(CT_ERR_RUNTIME, "ct_op_counter_pop: it is not an active dispatch mode on this thread");
    if (ct_dispatch_mode_pop(c->handle) != 0) return -1; /* not the innermost: nothing is popped */
    c->handle = 0;
    return 0;
}

int64_t ct_op_counter_get(const ct_op_counter *c, const char *phase_name, const char *name) {
    if (!c || !phase_name || !name) return 0;
    const phase *p = find_phase(c, phase_name);
    if (!p) return 0;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->e[i].name, name) == 0) return p->e[i].count;
    return 0;
}

int64_t ct_op_counter_total(const ct_op_counter *c, const char *phase_name) {
    if (!c) return 0;
    int64_t total = 0;
    for (size_t k = 0; k < c->n; k++) {
        if (phase_name && strcmp(c->phases[k].name, phase_name) != 0) continue;
        for (size_t i = 0; i < c->phases[k].n; i++) total += c->phases[k].e[i].count;
    }
    return total;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int ct_op_counter_names(const ct_op_counter *c, const char *phase_name, const char ***names) {
    if (!c || !phase_name || !names) return ct_error_set(CT_ERR_VALUE, "ct_op_counter_names: NULL argument");
    *names = NULL;
    const phase *p = find_phase(c, phase_name);
    size_t n = p ? p->n : 0;
    const char **v = ct_malloc((n ? n : 1) * sizeof *v);
    if (!v) return -1;
    for (size_t i = 0; i < n; i++) v[i] = p->e[i].name;
    qsort((void *)v, n, sizeof *v, cmp_str);
    *names = v;
    return (int)n;
}
