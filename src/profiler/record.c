/* The profiler's recorder: RecordFunction ranges from the dispatcher (every ct_call), the
 * autograd engine, the Python-key fallback and record_function, kept per profiling thread.
 *
 * Note [Profiler recording]
 *   A range is recorded as a 56-byte ct_prof_raw in chunks of 1024 that never move (no
 *   reallocation and copying as the list grows); its name is an immortal string (an op's name,
 *   a literal) or a copy kept once per distinct name, so recording a range allocates nothing
 *   but a new chunk every 1024 ranges. Recording stops at max_events ranges (a million unless
 *   ct_profiler_set_max_events says otherwise) and counts what it drops, so a profiler left on
 *   holds bounded memory. The first report turns the ranges into ct_prof_event, formats the
 *   recorded inputs and merges duplicate nodes.
 *
 * Note [Profiler cost]
 *   Each edge of a range reads the clock once: the opening hook as its last act (the range
 *   starts when the hook is done), the closing hook as its first. What the hooks cost is measured
 *   on a sample: the first 64 ranges and every 64th after them also read the clock on entry to
 *   the opening hook and on exit from the closing one, and ct_profiler_overhead_ns() scales the sample's time to every range
 *   recorded, so the cost of profiling is shown rather than hidden in the numbers it produces. */
#include <inttypes.h>
#include <pthread.h>
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
#include "ctorch/testing.h"
#include "dispatch/observe.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "profiler/profiler_state.h"
#include "profiler/record.h"
#include "util/grow.h"
#include "util/strbuf.h"

_Thread_local ct_profiler *ct_tls_profiler;

/* Note [Profiler clock]
 *   Ranges are stamped with the CPU's time-stamp counter where there is one (x86: rdtsc costs
 *   a third of a clock_gettime call here), as PyTorch's profiler does (c10::getApproximateTime),
 *   and converted to CLOCK_MONOTONIC nanoseconds when the events are built, from the pairs of
 *   (counter, clock) readings taken at start and stop. Elsewhere the ticks are nanoseconds. */
/* ct_testing_profiler_fake_clock: every clock reads one counter on this thread */
static _Thread_local bool fake_clock;
static _Thread_local int64_t fake_ns;

void ct_testing_profiler_fake_clock(bool on) {
    fake_clock = on;
    fake_ns = 1000000000;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
int64_t ct_prof_ticks(void) {
    if (__builtin_expect(fake_clock, 0)) return fake_ns += 1000;
    return (int64_t)__rdtsc();
}
#else
int64_t ct_prof_ticks(void) { return ct_prof_now_ns(); }
#endif

int64_t ct_prof_real_ns(void) {
    if (fake_clock) return INT64_C(1700000000000000000) + fake_ns; /* in step with the counter */
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    return (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec;
}

double ct_prof_ns_per_tick(const ct_profiler *p) {
    int64_t t1 = p->recording ? ct_prof_ticks() : p->stop_ticks;
    int64_t n1 = p->recording ? ct_prof_now_ns() : p->stop_ns;
    if (t1 <= p->start_ticks || n1 <= p->start_ns) return 1.0;
    return (double)(n1 - p->start_ns) / (double)(t1 - p->start_ticks);
}

static int64_t ticks_to_ns(const ct_profiler *p, double scale, int64_t t) {
    return p->start_ns + (int64_t)((double)(t - p->start_ticks) * scale + 0.5);
}

int64_t ct_prof_now_ns(void) {
    if (fake_clock) return fake_ns += 1000;
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

enum { RAW_TENSOR = 1, RAW_INT, RAW_DOUBLE, RAW_BOOL, RAW_LIST, RAW_STRING, RAW_OTHER, RAW_TENSORLIST };
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
        case CT_TAG_TENSORLIST: {
            sz += 8;
            for (int64_t k = 0; k < in[i].u.tlist.len && k < RAW_MAX_LIST; k++) sz += 1 + 16 * (size_t)in[i].u.tlist.items[k]->ndim;
            break;
        }
        default: break;
        }
    }
    return sz;
}

static void record_inputs(ct_profiler *p, ct_prof_raw *e, const ct_value *in, int n) {
    size_t sz = raw_size(in, n);
    unsigned char *w = arena_take(p, sz ? sz : 1);
    if (!w) { /* out of memory: the recording is incomplete (ct_profiler_stop says so) */
        p->lost++;
        return;
    }
    e->inputs = w;
    e->inputs_len = (uint32_t)sz;
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
        case CT_TAG_TENSORLIST: { /* each element's sizes and strides */
            int64_t len = v->u.tlist.len < RAW_MAX_LIST ? v->u.tlist.len : RAW_MAX_LIST;
            *w++ = RAW_TENSORLIST;
            memcpy(w, &len, 8);
            w += 8;
            for (int64_t k = 0; k < len; k++) {
                const ct_tensor *t = v->u.tlist.items[k];
                *w++ = (unsigned char)t->ndim;
                memcpy(w, t->sizes, 8 * (size_t)t->ndim);
                w += 8 * (size_t)t->ndim;
                memcpy(w, t->strides, 8 * (size_t)t->ndim);
                w += 8 * (size_t)t->ndim;
            }
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
        case RAW_TENSORLIST: { /* as PyTorch shows a TensorList: a list of shapes / strides */
            int64_t len;
            memcpy(&len, r, 8);
            r += 8;
            ct_sb_puts(&shapes, "[");
            ct_sb_puts(&strides, "[");
            for (int64_t k = 0; k < len; k++) {
                int nd = *r++;
                if (k) {
                    ct_sb_puts(&shapes, ", ");
                    ct_sb_puts(&strides, ", ");
                }
                put_raw_list(&shapes, r, nd);
                put_raw_list(&strides, r + 8 * nd, nd);
                r += 16 * (size_t)nd;
            }
            ct_sb_puts(&shapes, "]");
            ct_sb_puts(&strides, "]");
            ct_sb_puts(&types, "\"TensorList\"");
            ct_sb_puts(&concrete, "\"\"");
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
    if (!e->input_shapes || !e->input_types || !e->input_strides || !e->concrete_inputs) {
        /* all four or none: a later report formats them again from the start */
        char **all[4] = {&e->input_shapes, &e->input_types, &e->input_strides, &e->concrete_inputs};
        for (int i = 0; i < 4; i++) {
            ct_free(*all[i]);
            *all[i] = NULL;
        }
        return -1;
    }
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

/* ---- names ---- */

static bool name_equal(const char *s, const char *a, size_t la, const char *b) {
    if (la && strncmp(s, a, la) != 0) return false;
    return strcmp(s + la, b ? b : "") == 0;
}

static uint64_t name_hash_of(const void *ctx, uint32_t i) { return ct_hash_str2(((char *const *)ctx)[i], NULL); }

/* The profiler's copy of prefix + name, made once per distinct name; NULL when out of memory. */
static const char *intern_name(ct_profiler *p, const char *prefix, const char *name) {
    if (ct_grow(p->names, p->names_cap, p->names_n + 1, 64) != 0 ||
        ct_hindex_reserve(&p->names_ix, p->names_n + 1, name_hash_of, p->names) != 0)
        return NULL;
    size_t la = prefix ? strlen(prefix) : 0;
    size_t h = ct_hindex_first(&p->names_ix, ct_hash_str2(prefix, name));
    for (uint32_t e; (e = p->names_ix.slots[h]) != 0; h = ct_hindex_next(&p->names_ix, h))
        if (name_equal(p->names[e - 1], prefix, la, name)) return p->names[e - 1];
    size_t lb = name ? strlen(name) : 0;
    char *s = ct_malloc(la + lb + 1);
    if (!s) return NULL;
    if (la) memcpy(s, prefix, la);
    if (lb) memcpy(s + la, name, lb);
    s[la + lb] = '\0';
    p->names[p->names_n] = s;
    ct_hindex_put(&p->names_ix, h, p->names_n++);
    return s;
}

/* ---- ranges (Note [Profiler recording]) ---- */

static ct_prof_raw *raw_slot(ct_profiler *p, size_t i) {
    size_t c = i >> CT_PROF_RAW_CHUNK_SHIFT;
    if (c == p->raw_chunks) {
        if (ct_grow(p->raw, p->raw_chunks_cap, p->raw_chunks + 1, 16) != 0) return NULL;
        ct_prof_raw *chunk = ct_malloc(sizeof(ct_prof_raw) << CT_PROF_RAW_CHUNK_SHIFT);
        if (!chunk) return NULL;
        p->raw[p->raw_chunks++] = chunk;
    }
    return ct_prof_raw_at(p, i);
}

void ct_prof_recording_free(ct_profiler *p) {
    for (size_t c = 0; c < p->raw_chunks; c++) ct_free(p->raw[c]);
    ct_free(p->raw);
    p->raw = NULL;
    p->raw_chunks = p->raw_chunks_cap = p->n_raw = 0;
    for (size_t i = 0; i < p->names_n; i++) ct_free(p->names[i]);
    ct_free(p->names);
    ct_hindex_free(&p->names_ix);
    p->names = NULL;
    p->names_n = p->names_cap = 0;
    ct_prof_chunk *c = p->arena;
    while (c) {
        ct_prof_chunk *next = c->next;
        ct_free(c);
        c = next;
    }
    p->arena = NULL;
}

int ct_prof_build_events(ct_profiler *p) {
    ct_prof_events *evs = &p->evs;
    if (evs->ev) return 0;
    double scale = ct_prof_ns_per_tick(p); /* Note [Profiler clock] */
    evs->ev = ct_calloc(p->n_raw ? p->n_raw : 1, sizeof *evs->ev);
    if (!evs->ev) return -1;
    evs->cap = p->n_raw;
    for (size_t i = 0; i < p->n_raw; i++) {
        const ct_prof_raw *r = ct_prof_raw_at(p, i);
        ct_prof_event *e = &evs->ev[i];
        e->name = (char *)r->name;
        e->owns_name = false;
        e->start_ns = ticks_to_ns(p, scale, r->start_ns);
        e->end_ns = ticks_to_ns(p, scale, r->end_ns);
        e->parent = r->parent;
        e->thread_id = p->thread_id;
        e->scope = (ct_prof_scope)r->scope;
        e->sequence_nr = r->sequence_nr;
        e->fwd_thread_id = r->fwd_thread;
        e->has_inputs = r->has_inputs;
        e->raw_inputs = r->inputs;
        e->raw_len = r->inputs_len;
    }
    evs->n = p->n_raw;
    return 0;
}

#define SAMPLE_MASK 63 /* the first 64 ranges, then every 64th, time their own hooks */

static int64_t push_event(ct_profiler *p, const char *name, ct_prof_scope scope, int64_t seq, int fwd_tid,
                          const ct_value *inputs, int n_inputs) {
    bool sample = p->raw_events <= SAMPLE_MASK || (p->raw_events & SAMPLE_MASK) == 0;
    int64_t t_in = sample ? ct_prof_ticks() : 0;
    ct_prof_raw *e = NULL;
    bool fits = p->depth < CT_PROF_MAX_DEPTH && p->n_raw < p->max_events;
    if (fits && name) e = raw_slot(p, p->n_raw);
    if (!e) {
        if (fits) p->lost++; /* no memory for the range or its name */
        else p->dropped++;
        return -1;
    }
    e->name = name;
    e->end_ns = 0;
    e->parent = p->depth > 0 ? p->stack[p->depth - 1] : -1;
    e->scope = (uint8_t)scope;
    e->sequence_nr = seq;
    e->fwd_thread = (uint8_t)fwd_tid;
    e->sampled = sample;
    e->has_inputs = false;
    e->inputs = NULL;
    e->inputs_len = 0;
    if (p->record_shapes && inputs) record_inputs(p, e, inputs, n_inputs);
    int32_t idx = (int32_t)p->n_raw++;
    p->stack[p->depth++] = idx;
    p->raw_events++;
    int64_t t = ct_prof_ticks(); /* the range starts when the hook is done */
    e->start_ns = t;
    if (sample) p->sampled_ns += t - t_in; /* ticks, scaled when read */
    return idx;
}

static void pop_event(ct_profiler *p, int64_t idx) {
    int64_t t = ct_prof_ticks();
    if (idx < 0 || (size_t)idx >= p->n_raw) return;
    ct_prof_raw *e = ct_prof_raw_at(p, (size_t)idx);
    e->end_ns = t;
    /* close anything left open inside (an error path) and this range */
    while (p->depth > 0) {
        int32_t top = p->stack[--p->depth];
        if (top == idx) break;
        ct_prof_raw_at(p, (size_t)top)->end_ns = t;
    }
    if (e->sampled) {
        p->sampled_ns += ct_prof_ticks() - t;
        p->sampled_events++;
    }
}

/* handles are event indices + 1, so NULL means "nothing recorded" */
static void *handle_of(int64_t idx) { return idx < 0 ? NULL : (void *)(intptr_t)(idx + 1); }

void *ct_record_function_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op) {
    (void)op;
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(!p || !p->recording, 1)) return NULL;
    return handle_of(push_event(p, name, CT_SCOPE_FUNCTION, -1, 0, inputs, n_inputs));
}

void *ct_record_function_begin_seq(const char *prefix, const char *name, const ct_value *inputs, int n_inputs,
                                   int64_t seq, uint64_t fwd_thread) {
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(!p || !p->recording, 1)) return NULL;
    (void)fwd_thread;
    bool has_seq = seq >= 0 && (uint64_t)seq != UINT64_MAX;
    /* the forward thread's profiler id: threads are numbered from 1 as RecordFunction does */
    return handle_of(push_event(p, intern_name(p, prefix, name), CT_SCOPE_BACKWARD_FUNCTION, has_seq ? seq : -1,
                                has_seq ? 1 : 0, inputs, n_inputs));
}

void *ct_record_user_scope_begin(const char *name) {
    ct_profiler *p = ct_tls_profiler;
    if (!p || !p->recording) return NULL;
    return handle_of(push_event(p, intern_name(p, NULL, name), CT_SCOPE_USER_SCOPE, -1, 0, NULL, 0));
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
    return handle_of(push_event(p, op->base_name, CT_SCOPE_FUNCTION, seq, 0, args, op->nargs));
}

static void on_return(void *ctx, const ct_op *op, const ct_value *args, const ct_value *rets, int rc) {
    (void)op;
    (void)args;
    (void)rets;
    (void)rc;
    ct_record_function_end(ctx);
}

static void install_observer(void) {
    ct_profiler_observer.enter = on_call;
    ct_profiler_observer.exit = on_return;
}
/* Written once (any thread may start a profiler first); a thread reads the observer only after
 * it has started a profiler itself, so after this once has run for it. */
void ct_profiler_install_observer(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_observer);
}
