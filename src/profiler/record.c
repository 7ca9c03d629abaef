/* The profiler's recorder: RecordFunction ranges from the dispatcher (every ct_call), the
 * autograd engine, the Python-key fallback and record_function, kept per profiling thread.
 *
 * Note [Profiler cost]
 *   Each hook measures the time it spends itself (two clock reads per event); the sum is
 *   ct_profiler_overhead_ns(), reported in the docs and by bench/bench_dispatch, so the cost of
 *   profiling is shown rather than hidden inside the numbers it produces. */
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "autograd/node.h"
#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/profiler.h"
#include "dispatch/observe.h"
#include "dispatch/op_impl.h"
#include "dispatch/tls.h"
#include "profiler/profiler_state.h"
#include "profiler/record.h"
#include "util/strbuf.h"

_Thread_local ct_profiler *ct_tls_profiler;

int64_t ct_prof_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- input formatting (record_shapes) ---- */

/* Python's repr of a float as PyTorch's "Concrete Inputs" shows it */
static void put_double(ct_strbuf *b, double d) {
    char num[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(num, sizeof num, "%.*g", prec, d);
        if (strtod(num, NULL) == d) break;
    }
    if (!strpbrk(num, ".eni")) strcat(num, ".0");
    ct_sb_puts(b, num);
}

/* ---- recording inputs: a compact copy now, strings at report time (Note [Profiler cost]) ---- */

enum { RAW_TENSOR = 1, RAW_INT, RAW_DOUBLE, RAW_BOOL, RAW_LIST, RAW_STRING, RAW_OTHER };
#define RAW_MAX_LIST 64

static unsigned char *arena_take(ct_profiler *p, size_t n) {
    ct_prof_chunk *c = p->arena;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 60000 ? n : 60000;
        ct_prof_chunk *nc = ct_malloc(sizeof *nc + cap);
        if (!nc) return NULL;
        nc->next = c;
        nc->used = 0;
        nc->cap = cap;
        p->arena = c = nc;
    }
    unsigned char *r = c->data + c->used;
    c->used += n;
    return r;
}

void ct_prof_arena_free(ct_profiler *p) {
    ct_prof_chunk *c = p->arena;
    while (c) {
        ct_prof_chunk *next = c->next;
        ct_free(c);
        c = next;
    }
    p->arena = NULL;
}

static size_t raw_size(const ct_value *in, int n) {
    size_t sz = 0;
    for (int i = 0; i < n; i++) {
        sz += 1;
        switch (in[i].tag) {
        case CT_TAG_TENSOR: sz += 2 + 16 * (size_t)in[i].u.t->ndim; break;
        case CT_TAG_INT:
        case CT_TAG_DOUBLE: sz += 8; break;
        case CT_TAG_BOOL: sz += 1; break;
        case CT_TAG_INTLIST: sz += 8 + 8 * (size_t)(in[i].u.list.len < RAW_MAX_LIST ? in[i].u.list.len : RAW_MAX_LIST); break;
        default: break;
        }
    }
    return sz;
}

static void record_inputs(ct_profiler *p, ct_prof_event *e, const ct_value *in, int n) {
    size_t sz = raw_size(in, n);
    unsigned char *w = arena_take(p, sz ? sz : 1);
    if (!w) return; /* out of memory: the event keeps no shapes */
    e->raw_inputs = w;
    e->raw_len = (uint32_t)sz;
    e->has_inputs = true;
    for (int i = 0; i < n; i++) {
        const ct_value *v = &in[i];
        switch (v->tag) {
        case CT_TAG_TENSOR: {
            const ct_tensor *t = v->u.t;
            *w++ = RAW_TENSOR;
            *w++ = (unsigned char)t->dtype;
            *w++ = (unsigned char)t->ndim;
            memcpy(w, t->sizes, 8 * (size_t)t->ndim);
            w += 8 * (size_t)t->ndim;
            memcpy(w, t->strides, 8 * (size_t)t->ndim);
            w += 8 * (size_t)t->ndim;
            break;
        }
        case CT_TAG_INT: *w++ = RAW_INT; memcpy(w, &v->u.i, 8); w += 8; break;
        case CT_TAG_DOUBLE: *w++ = RAW_DOUBLE; memcpy(w, &v->u.d, 8); w += 8; break;
        case CT_TAG_BOOL: *w++ = RAW_BOOL; *w++ = v->u.b; break;
        case CT_TAG_INTLIST: {
            int64_t len = v->u.list.len < RAW_MAX_LIST ? v->u.list.len : RAW_MAX_LIST;
            *w++ = RAW_LIST;
            memcpy(w, &len, 8);
            w += 8;
            memcpy(w, v->u.list.data, 8 * (size_t)len);
            w += 8 * (size_t)len;
            break;
        }
        case CT_TAG_STRING: *w++ = RAW_STRING; break;
        default: *w++ = RAW_OTHER; break;
        }
    }
}

static void put_raw_list(ct_strbuf *b, const unsigned char *r, int64_t n) {
    char num[32];
    ct_sb_puts(b, "[");
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        memcpy(&v, r + 8 * i, 8);
        snprintf(num, sizeof num, "%s%" PRId64, i ? ", " : "", v);
        ct_sb_puts(b, num);
    }
    ct_sb_puts(b, "]");
}

/* the strings PyTorch's profiler shows: Input Shapes / Input Dims, Input type, Input Strides,
 * Concrete Inputs */
static int format_raw(ct_prof_event *e) {
    ct_strbuf shapes = CT_STRBUF_INIT, types = CT_STRBUF_INIT, strides = CT_STRBUF_INIT, concrete = CT_STRBUF_INIT;
    ct_sb_puts(&shapes, "[");
    ct_sb_puts(&types, "[");
    ct_sb_puts(&strides, "[");
    ct_sb_puts(&concrete, "[");
    const unsigned char *r = e->raw_inputs, *end = r + e->raw_len;
    for (int i = 0; r < end; i++) {
        const char *sep = i ? ", " : "";
        ct_sb_puts(&shapes, sep);
        ct_sb_puts(&types, sep);
        ct_sb_puts(&strides, sep);
        ct_sb_puts(&concrete, sep);
        int tag = *r++;
        switch (tag) {
        case RAW_TENSOR: {
            ct_dtype dt = (ct_dtype)(signed char)*r++;
            int nd = *r++;
            put_raw_list(&shapes, r, nd);
            put_raw_list(&strides, r + 8 * nd, nd);
            r += 16 * (size_t)nd;
            ct_sb_puts(&types, "\"");
            ct_sb_puts(&types, ct_dtype_type_meta_name(dt));
            ct_sb_puts(&types, "\"");
            ct_sb_puts(&concrete, "\"\"");
            break;
        }
        case RAW_INT:
        case RAW_DOUBLE:
        case RAW_BOOL: {
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, "\"Scalar\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"");
            char num[32];
            if (tag == RAW_INT) {
                int64_t v;
                memcpy(&v, r, 8);
                r += 8;
                snprintf(num, sizeof num, "%" PRId64, v);
                ct_sb_puts(&concrete, num);
            } else if (tag == RAW_BOOL) {
                ct_sb_puts(&concrete, *r++ ? "True" : "False");
            } else {
                double d;
                memcpy(&d, r, 8);
                r += 8;
                put_double(&concrete, d);
            }
            ct_sb_puts(&concrete, "\"");
            break;
        }
        case RAW_LIST: {
            int64_t len;
            memcpy(&len, r, 8);
            r += 8;
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, "\"ScalarList\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"");
            put_raw_list(&concrete, r, len);
            ct_sb_puts(&concrete, "\"");
            r += 8 * (size_t)len;
            break;
        }
        default:
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, tag == RAW_STRING ? "\"String\"" : "\"\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"\"");
            break;
        }
    }
    ct_sb_puts(&shapes, "]");
    ct_sb_puts(&types, "]");
    ct_sb_puts(&strides, "]");
    ct_sb_puts(&concrete, "]");
    e->input_shapes = ct_sb_finish(&shapes);
    e->input_types = ct_sb_finish(&types);
    e->input_strides = ct_sb_finish(&strides);
    e->concrete_inputs = ct_sb_finish(&concrete);
    if (!e->input_shapes || !e->input_types || !e->input_strides || !e->concrete_inputs) return -1;
    return 0;
}

int ct_prof_format_inputs(ct_profiler *p) {
    for (size_t i = 0; i < p->evs.n; i++) {
        ct_prof_event *e = &p->evs.ev[i];
        if (e->has_inputs && !e->input_shapes && format_raw(e) != 0)
            return ct_error_set(CT_ERR_NOMEM, "profiler: out of memory formatting inputs");
    }
    return 0;
}

/* ---- ranges ---- */

static int64_t push_event(ct_profiler *p, const char *name, bool copy_name, ct_prof_scope scope, int64_t seq,
                          int64_t fwd_tid, const ct_value *inputs, int n_inputs) {
    int64_t t0 = ct_prof_now_ns();
    if (p->depth == CT_PROF_MAX_DEPTH) return -1;
    ct_prof_events *evs = &p->evs;
    if (evs->n == evs->cap) {
        size_t ncap = evs->cap ? evs->cap * 2 : 1024;
        ct_prof_event *ne = ct_realloc(evs->ev, ncap * sizeof *ne);
        if (!ne) return -1;
        evs->ev = ne;
        evs->cap = ncap;
    }
    ct_prof_event *e = &evs->ev[evs->n];
    memset(e, 0, sizeof *e);
    e->name = copy_name ? ct_strdup(name) : (char *)name;
    if (!e->name) return -1;
    e->owns_name = copy_name;
    e->parent = p->depth > 0 ? p->stack[p->depth - 1] : -1;
    e->thread_id = p->thread_id;
    e->scope = scope;
    e->sequence_nr = seq;
    e->fwd_thread_id = fwd_tid;
    if (p->record_shapes && inputs) record_inputs(p, e, inputs, n_inputs);
    int64_t idx = (int64_t)evs->n++;
    p->stack[p->depth++] = idx;
    p->raw_events++;
    int64_t t1 = ct_prof_now_ns();
    e->start_ns = t1; /* the range starts when the hook is done */
    p->overhead_ns += t1 - t0;
    return idx;
}

static void pop_event(ct_profiler *p, int64_t idx) {
    int64_t t0 = ct_prof_now_ns();
    if (idx < 0 || (size_t)idx >= p->evs.n) return;
    p->evs.ev[idx].end_ns = t0;
    /* close anything left open inside (an error path) and this range */
    while (p->depth > 0) {
        int64_t top = p->stack[--p->depth];
        if (top == idx) break;
        p->evs.ev[top].end_ns = t0;
    }
    p->overhead_ns += ct_prof_now_ns() - t0;
}

/* handles are event indices + 1, so NULL means "nothing recorded" */
static void *handle_of(int64_t idx) { return idx < 0 ? NULL : (void *)(intptr_t)(idx + 1); }

void *ct_record_function_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op) {
    (void)op;
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(!p || !p->recording, 1)) return NULL;
    return handle_of(push_event(p, name, true, CT_SCOPE_FUNCTION, -1, 0, inputs, n_inputs));
}

void *ct_record_function_begin_seq(const char *name, const ct_value *inputs, int n_inputs, int64_t seq,
                                   uint64_t fwd_thread) {
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(!p || !p->recording, 1)) return NULL;
    (void)fwd_thread;
    bool has_seq = seq >= 0 && (uint64_t)seq != UINT64_MAX;
    /* the forward thread's profiler id: threads are numbered from 1 as RecordFunction does */
    return handle_of(push_event(p, name, true, CT_SCOPE_BACKWARD_FUNCTION, has_seq ? seq : -1, has_seq ? 1 : 0,
                                inputs, n_inputs));
}

void *ct_record_user_scope_begin(const char *name) {
    ct_profiler *p = ct_tls_profiler;
    if (!p || !p->recording) return NULL;
    return handle_of(push_event(p, name, true, CT_SCOPE_USER_SCOPE, -1, 0, NULL, 0));
}

void ct_record_function_end(void *handle) {
    ct_profiler *p = ct_tls_profiler;
    if (!handle || !p) return;
    pop_event(p, (int64_t)(intptr_t)handle - 1);
}

/* ---- the dispatcher observer (Dispatcher::callWithDispatchKeySlowPath) ---- */

static void *on_call(const ct_op *op, const ct_value *args, ct_keyset ks) {
    ct_profiler *p = ct_tls_profiler;
    if (!p || !p->recording || op->unobserved) return NULL;
    /* sequenceNumberForRunningRecordFunction: only when autograd keys take part and grad mode is on */
    int64_t seq = -1;
    if ((ks & CT_AUTOGRAD_KEYSET) && !ct_tls_state.grad_disabled) seq = (int64_t)ct_sequence_number_peek();
    return handle_of(push_event(p, op->base_name, false, CT_SCOPE_FUNCTION, seq, 0, args, op->nargs));
}

static void on_return(void *ctx, const ct_op *op, const ct_value *args, const ct_value *rets, int rc) {
    (void)op;
    (void)args;
    (void)rets;
    (void)rc;
    ct_record_function_end(ctx);
}

/* Written once for the process (pthread_once), never again: a thread reads the observer only
 * after its own profiler start has passed through the once, which orders the write before
 * the read, so starting a profiler on one thread no longer races with another's calls. */
static pthread_once_t observer_once = PTHREAD_ONCE_INIT;
static void install_observer_once(void) {
    ct_profiler_observer.enter = on_call;
    ct_profiler_observer.exit = on_return;
}

void ct_profiler_install_observer(void) { pthread_once(&observer_once, install_observer_once); }
