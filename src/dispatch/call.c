/* Dispatcher::call and Dispatcher::redispatch, and the observers hanging off them.
 *
 * Note [One branch when nothing observes]
 *   The fast path reads one thread-local word and one global word; only when either has a
 *   CT_OBSERVE_* bit set does a call take the observed path, which records the decision
 *   (trace), opens a profiler event, or both. */
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/trace.h"
#include "dispatch/call_impl.h"
#include "dispatch/observe.h"
#include "dispatch/op_impl.h"
#include "dispatch/registry.h"
#include "dispatch/tls.h"

_Thread_local ct_tls ct_tls_state;
int ct_global_observe;
ct_call_observer ct_profiler_observer;

#define CT_UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline ct_keyset extract_keys(const ct_op *op, const ct_value *args) {
    ct_keyset ks = 0;
    uint32_t m = op->dispatch_args;
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        const ct_value *v = &args[i];
        if (v->tag == CT_TAG_TENSOR)
            ks |= v->u.t->keys;
        else if (v->tag == CT_TAG_GENERATOR) /* CPUGeneratorImpl carries DispatchKeySet(CPU) */
            ks |= CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU);
    }
    return ks;
}

static inline ct_keyset compute_keyset(const ct_op *op, ct_keyset args_ks, const ct_tls *tls) {
    ct_keyset inc = tls->included_xor ^ CT_DEFAULT_INCLUDED;
    ct_keyset exc = tls->excluded_xor ^ CT_DEFAULT_EXCLUDED;
    return ct_keyset_sub(args_ks | inc, exc) & op->non_fallthrough;
}

static int call_observed(const ct_op *op, ct_value *args, ct_value *rets);
static int redispatch_traced(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets);

/* ct_call (check.c) is this after checking its arguments against the schema. */
int ct_dispatch_call(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    if (CT_UNLIKELY(tls->observe | ct_global_observe)) return call_observed(op, args, rets);
    ct_keyset ks = compute_keyset(op, extract_keys(op, args), tls);
    return op->fns[ct_slot_index(ks)](op, ks, args, rets);
}

int ct_redispatch(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    if (CT_UNLIKELY(!op || !args || !rets)) /* a caller's mistake, not a NULL dereference */
        return ct_error_set(CT_ERR_VALUE, "ct_redispatch: %s is NULL", !op ? "op" : !args ? "args" : "rets");
    if (CT_UNLIKELY((ct_tls_state.observe | ct_global_observe) & (CT_OBSERVE_TRACE_PRINT | CT_OBSERVE_TRACE_COLLECT)))
        return redispatch_traced(op, ks, args, rets);
    return op->fns[ct_slot_index(ks)](op, ks, args, rets);
}

ct_keyset ct_dispatch_keyset_for(const ct_op *op, const ct_value *args) {
    if (!op || !args) return 0;
    return compute_keyset(op, extract_keys(op, args), &ct_tls_state);
}

void ct_values_release(ct_value *vals, int n) {
    for (int i = 0; i < n; i++) {
        if (vals[i].tag == CT_TAG_TENSOR) ct_tensor_release(vals[i].u.t);
        vals[i] = ct_none();
    }
}

/* ---- thread-local sets ---- */

ct_keyset ct_tls_included(void) { return ct_tls_included_raw(&ct_tls_state); }
ct_keyset ct_tls_excluded(void) { return ct_tls_excluded_raw(&ct_tls_state); }

void ct_key_guard_include(ct_key_guard *g, ct_keyset ks) {
    ct_tls *t = &ct_tls_state;
    g->saved_included = t->included_xor;
    g->saved_excluded = t->excluded_xor;
    t->included_xor = (ct_tls_included_raw(t) | ks) ^ CT_DEFAULT_INCLUDED;
}

void ct_key_guard_exclude(ct_key_guard *g, ct_keyset ks) {
    ct_tls *t = &ct_tls_state;
    g->saved_included = t->included_xor;
    g->saved_excluded = t->excluded_xor;
    t->excluded_xor = (ct_tls_excluded_raw(t) | ks) ^ CT_DEFAULT_EXCLUDED;
}

void ct_key_guard_pop(ct_key_guard *g) {
    ct_tls *t = &ct_tls_state;
    t->included_xor = g->saved_included;
    t->excluded_xor = g->saved_excluded;
}

void ct_tls_set_included(ct_dispatch_key k, bool on) {
    ct_tls *t = &ct_tls_state;
    ct_keyset cur = ct_tls_included_raw(t);
    cur = on ? (cur | ct_keyset_of(k)) : ct_keyset_sub(cur, ct_keyset_of(k));
    t->included_xor = cur ^ CT_DEFAULT_INCLUDED;
}

void ct_tls_set_excluded(ct_dispatch_key k, bool on) {
    ct_tls *t = &ct_tls_state;
    ct_keyset cur = ct_tls_excluded_raw(t);
    cur = on ? (cur | ct_keyset_of(k)) : ct_keyset_sub(cur, ct_keyset_of(k));
    t->excluded_xor = cur ^ CT_DEFAULT_EXCLUDED;
}

/* ---- the decision trace ---- */

static int print_level;  /* 0 off, 1 PyTorch's lines, 2 full decisions */
static FILE *trace_stream;

typedef struct collector {
    bool on;
    ct_dispatch_record *recs;
    size_t n, cap;
    bool oom;
} collector;
static _Thread_local collector coll;

static void refresh_global_observe(void) {
    if (print_level > 0)
        ct_global_observe |= CT_OBSERVE_TRACE_PRINT;
    else
        ct_global_observe &= ~CT_OBSERVE_TRACE_PRINT;
}

void ct_trace_set_print(int level) {
    print_level = level < 0 ? 0 : level > 2 ? 2 : level;
    refresh_global_observe();
}
int ct_trace_print_level(void) { return print_level; }
void ct_trace_set_stream(FILE *f) { trace_stream = f; }

int ct_trace_begin(void) {
    if (coll.on) return ct_error_set(CT_ERR_RUNTIME, "ct_trace_begin: this thread is already collecting");
    memset(&coll, 0, sizeof coll);
    coll.on = true;
    ct_tls_state.observe |= CT_OBSERVE_TRACE_COLLECT;
    return 0;
}

int ct_trace_end(ct_dispatch_record **out, size_t *n) {
    if (!coll.on) return ct_error_set(CT_ERR_RUNTIME, "ct_trace_end: ct_trace_begin was not called");
    ct_tls_state.observe &= ~CT_OBSERVE_TRACE_COLLECT;
    bool oom = coll.oom;
    coll.on = false;
    if (out) *out = coll.recs;
    else ct_free(coll.recs);
    if (n) *n = coll.n;
    coll.recs = NULL;
    if (oom) return ct_error_set(CT_ERR_NOMEM, "ct_trace_end: some records were dropped (out of memory)");
    return 0;
}

static void collect(const ct_dispatch_record *r) {
    if (coll.n == coll.cap) {
        size_t ncap = coll.cap ? coll.cap * 2 : 256;
        ct_dispatch_record *nr = ct_realloc(coll.recs, ncap * sizeof *nr);
        if (!nr) {
            coll.oom = true;
            return;
        }
        coll.recs = nr;
        coll.cap = ncap;
    }
    coll.recs[coll.n++] = *r;
}

size_t ct_trace_format(const ct_dispatch_record *r, bool full, char *buf, size_t size) {
    size_t len = 0;
#define OUT(...)                                                                                  \
    do {                                                                                          \
        int n_ = snprintf(buf ? buf + (len < size ? len : size) : NULL,                           \
                          buf && len < size ? size - len : 0, __VA_ARGS__);                       \
        if (n_ > 0) len += (size_t)n_;                                                            \
    } while (0)
    for (int i = 0; i < r->depth; i++) OUT(" ");
    OUT("%s op=[%s], key=[%s]\n", r->kind == CT_HOP_CALL ? "[call]" : "[redispatch]", ct_op_name(r->op),
        ct_key_name(r->key));
    if (full) {
        char ks[1024];
        if (r->kind == CT_HOP_CALL) {
            for (int i = 0; i < r->n_tensor_args; i++) {
                ct_keyset_format(r->arg_keys[i], ks, sizeof ks);
                for (int d = 0; d < r->depth; d++) OUT(" ");
                OUT("    arg %s: %s\n", ct_op_arg_name(r->op, r->arg_index[i]), ks);
            }
            for (int d = 0; d < r->depth; d++) OUT(" ");
            ct_keyset_format(r->tls_included, ks, sizeof ks);
            OUT("    tls included: %s\n", ks);
            for (int d = 0; d < r->depth; d++) OUT(" ");
            ct_keyset_format(r->tls_excluded, ks, sizeof ks);
            OUT("    tls excluded: %s\n", ks);
            for (int d = 0; d < r->depth; d++) OUT(" ");
            ct_keyset_format(r->merged, ks, sizeof ks);
            OUT("    merged (args | included) - excluded: %s\n", ks);
        } else {
            for (int d = 0; d < r->depth; d++) OUT(" ");
            ct_keyset_format(r->merged, ks, sizeof ks);
            OUT("    key set passed on: %s\n", ks);
        }
        for (int d = 0; d < r->depth; d++) OUT(" ");
        ct_keyset_format(r->dispatch, ks, sizeof ks);
        OUT("    after fallthrough mask: %s\n", ks);
        for (int d = 0; d < r->depth; d++) OUT(" ");
        OUT("    ran: %s -> %s%s (%s)\n", ct_key_name(r->key), ct_slot_kind_name(r->slot),
            r->slot == CT_SLOT_MISSING ? " (error)" : "", r->where && *r->where ? r->where : "-");
    }
#undef OUT
    return len;
}

static void emit(const ct_dispatch_record *r) {
    if (ct_global_observe & CT_OBSERVE_TRACE_PRINT) {
        char line[8192];
        size_t n = ct_trace_format(r, print_level >= 2, line, sizeof line);
        FILE *f = trace_stream ? trace_stream : stderr;
        fwrite(line, 1, n < sizeof line ? n : sizeof line - 1, f);
    }
    if (ct_tls_state.observe & CT_OBSERVE_TRACE_COLLECT) collect(r);
}

static void fill_slot(ct_dispatch_record *r, const ct_op *op, ct_keyset ks) {
    int slot = ct_slot_index(ks);
    r->dispatch = ks;
    r->key = ct_key_of_slot(slot);
    if (ks == 0) r->key = CT_KEY_Undefined;
    r->slot = (ct_slot_kind)op->meta[slot].kind;
    r->where = op->meta[slot].where;
}

static int call_observed(const ct_op *op, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    ct_keyset args_ks = extract_keys(op, args);
    ct_keyset ks = compute_keyset(op, args_ks, tls);
    int observe = tls->observe | ct_global_observe;
    bool tracing = (observe & (CT_OBSERVE_TRACE_PRINT | CT_OBSERVE_TRACE_COLLECT)) != 0;
    if (tracing) {
        ct_dispatch_record r;
        memset(&r, 0, sizeof r);
        r.kind = CT_HOP_CALL;
        r.op = op;
        r.depth = ++tls->trace_depth; /* DispatchTraceNestingGuard: raised before printing */
        uint32_t m = op->dispatch_args;
        while (m && r.n_tensor_args < CT_TRACE_MAX_ARGS) {
            int i = __builtin_ctz(m);
            m &= m - 1;
            if (args[i].tag == CT_TAG_TENSOR) {
                r.arg_index[r.n_tensor_args] = i;
                r.arg_keys[r.n_tensor_args++] = args[i].u.t->keys;
            } else if (args[i].tag == CT_TAG_GENERATOR) {
                r.arg_index[r.n_tensor_args] = i;
                r.arg_keys[r.n_tensor_args++] = CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU);
            }
        }
        r.tls_included = ct_tls_included_raw(tls);
        r.tls_excluded = ct_tls_excluded_raw(tls);
        r.merged = ct_keyset_sub(args_ks | r.tls_included, r.tls_excluded);
        fill_slot(&r, op, ks);
        emit(&r);
    }
    void *pctx = NULL;
    if ((observe & CT_OBSERVE_PROFILER) && ct_profiler_observer.enter)
        pctx = ct_profiler_observer.enter(op, args, ks);
    int rc = op->fns[ct_slot_index(ks)](op, ks, args, rets);
    if (pctx) ct_profiler_observer.exit(pctx, op, args, rets, rc);
    if (tracing) tls->trace_depth--;
    return rc;
}

static int redispatch_traced(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tls *tls = &ct_tls_state;
    ct_dispatch_record r;
    memset(&r, 0, sizeof r);
    r.kind = CT_HOP_REDISPATCH;
    r.op = op;
    r.depth = ++tls->trace_depth;
    r.merged = ks;
    fill_slot(&r, op, ks);
    emit(&r);
    int rc = op->fns[ct_slot_index(ks)](op, ks, args, rets);
    tls->trace_depth--;
    return rc;
}
