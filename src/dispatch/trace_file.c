/* Trace files: every dispatcher hop streamed to a JSON Lines file (docs/trace-format.md).
 *
 * Note [Bounded trace memory]
 *   A hop is built as a cJSON tree, printed by ct_json_dumps (Python's json.dumps layout) and
 *   the tree and text are freed before the hop's kernel runs; the text is copied into one
 *   buffer of fixed size, written to the file (unbuffered by stdio) whenever the next record
 *   would not fit. So however many hops a program makes, the writer holds the buffer plus one
 *   record. Tensors are named by ids given on first sight (a field of the tensor), so no
 *   tensor is kept alive and no table grows with the program. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "dispatch/trace_file.h"
#include "random/rng.h"
#include "util/json.h"

#define CT_TRACE_DEFAULT_BUFFER (64 * 1024)
#define CT_TRACE_MIN_BUFFER (4 * 1024)
#define CT_TRACE_PHASE_MAX 32

typedef struct writer {
    pthread_mutex_t mu;
    atomic_bool open;
    FILE *f;
    char *path;
    char *buf;
    size_t cap, len;
    uint64_t next_hop;
    int err_no; /* the first failed write's errno, 0 if none */
    uint64_t lost; /* records that could not be built (out of memory) */
    ct_trace_file_stats st;
} writer;

static writer W = {PTHREAD_MUTEX_INITIALIZER, false, NULL, NULL, NULL, 0, 0, 0, 0, 0, {0, 0, 0, 0, 0, 0}};
static atomic_llong origin_ns; /* the monotonic clock when the file was opened */
static atomic_ullong next_tensor_id;

typedef struct thread_state {
    char phase[CT_TRACE_PHASE_MAX];
    const char *node;    /* the backward node being run, NULL outside backward */
    uint64_t node_seq;
    int node_has_seq;
    long tid;            /* 0 until first asked */
} thread_state;
static _Thread_local thread_state ts;

/* Note [A record whole or lost]
 *   A record is a cJSON tree; when memory runs out while it is built, a member would be
 *   missing from the line written. Every member goes in through ADD (ct_json_add), which
 *   notes a failure in tree_bad; emit_object then counts the record as lost instead of
 *   writing it, and ct_trace_file_close reports lost records as an error: the file is complete
 *   or the program is told it is not. */
static _Thread_local bool tree_bad;
#define ADD(obj, key, item) (tree_bad |= !ct_json_add((obj), (key), (item)))

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static long thread_id(void) {
    if (!ts.tid) ts.tid = (long)syscall(SYS_gettid);
    return ts.tid;
}

/* ---- phases and backward nodes (thread-local) ------------------------------------------- */

void ct_trace_set_phase(const char *phase) {
    if (!phase) {
        ts.phase[0] = '\0';
        return;
    }
    snprintf(ts.phase, sizeof ts.phase, "%s", phase);
}

const char *ct_trace_phase(void) { return ts.phase; }

void ct_trace_node_enter(ct_trace_node_scope *s, const char *node_name, uint64_t seq, int has_seq) {
    s->prev_name = ts.node;
    s->prev_seq = ts.node_seq;
    s->prev_has_seq = ts.node_has_seq;
    ts.node = node_name;
    ts.node_seq = seq;
    ts.node_has_seq = has_seq;
}

void ct_trace_node_exit(const ct_trace_node_scope *s) {
    ts.node = s->prev_name;
    ts.node_seq = s->prev_seq;
    ts.node_has_seq = s->prev_has_seq;
}


/* ---- writing ------------------------------------------------------------------------------ */

static void write_all(const char *p, size_t n) {
    if (W.err_no) return;
    if (n && fwrite(p, 1, n, W.f) != n) W.err_no = errno ? errno : EIO;
}

static void flush_locked(void) {
    if (W.len) {
        write_all(W.buf, W.len);
        W.st.flushes++;
        W.len = 0;
    }
}

/* Appends head then body (body may be NULL) and a newline as one record. */
static void append_locked(const char *head, size_t hn, const char *body, size_t bn) {
    size_t n = hn + bn + 1;
    if (W.len + n > W.cap) flush_locked();
    if (n > W.cap) { /* a record longer than the buffer goes straight to the file */
        write_all(head, hn);
        write_all(body, bn);
        write_all("\n", 1);
        W.st.flushes++;
    } else {
        memcpy(W.buf + W.len, head, hn);
        if (bn) memcpy(W.buf + W.len + hn, body, bn);
        W.buf[W.len + hn + bn] = '\n';
        W.len += n;
        if (W.len > W.st.buffer_high_water) W.st.buffer_high_water = W.len;
    }
    W.st.records++;
    W.st.bytes += n;
    if (n > W.st.largest_record) W.st.largest_record = n;
}

/* Writes one record whose members after "type" (and "i" for a hop) are in obj: the text
 * ct_json_dumps makes of obj, with the leading members spliced in after its "{". */
static void emit_object(const char *type, bool numbered, cJSON *obj) {
    bool bad = tree_bad || !obj;
    tree_bad = false;
    char *s = bad ? NULL : ct_json_dumps(obj, -1);
    cJSON_Delete(obj);
    if (!s) { /* out of memory: the record is lost (Note [A record whole or lost]) */
        pthread_mutex_lock(&W.mu);
        if (W.open) W.lost++;
        pthread_mutex_unlock(&W.mu);
        return;
    }
    const char *body = s + 1; /* after "{" */
    bool empty = strcmp(s, "{}") == 0;
    pthread_mutex_lock(&W.mu);
    if (W.open) {
        char head[96];
        int hn;
        if (numbered)
            hn = snprintf(head, sizeof head, "{\"type\": \"%s\", \"i\": %" PRIu64 "%s", type, W.next_hop++, empty ? "" : ", ");
        else
            hn = snprintf(head, sizeof head, "{\"type\": \"%s\"%s", type, empty ? "" : ", ");
        append_locked(head, (size_t)hn, body, strlen(body));
    }
    pthread_mutex_unlock(&W.mu);
    ct_free(s);
}

/* ---- one hop ------------------------------------------------------------------------------ */

static void add_keyset(cJSON *o, const char *name, ct_keyset ks) {
    char buf[1024];
    ct_keyset_format(ks, buf, sizeof buf);
    ADD(o, name, cJSON_CreateString(buf));
}

static void add_int(cJSON *o, const char *name, int64_t v) {
    /* cJSON numbers are doubles: integers beyond 2^53 go in as raw JSON text */
    if (v > -9007199254740992LL && v < 9007199254740992LL) {
        ADD(o, name, cJSON_CreateNumber((double)v));
    } else {
        char t[24];
        snprintf(t, sizeof t, "%" PRId64, v);
        ADD(o, name, cJSON_CreateRaw(t));
    }
}

static cJSON *int_item(int64_t v) {
    if (v > -9007199254740992LL && v < 9007199254740992LL) return cJSON_CreateNumber((double)v);
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, v);
    return cJSON_CreateRaw(t);
}

/* A Python float that JSON cannot hold (inf, -inf, nan) is written as str(float) gives it. */
static cJSON *double_item(double d) {
    if (d != d) return cJSON_CreateString("nan");
    if (d > 1.7976931348623157e308) return cJSON_CreateString("inf");
    if (d < -1.7976931348623157e308) return cJSON_CreateString("-inf");
    return cJSON_CreateNumber(d);
}

static cJSON *int_list(const int64_t *v, int64_t n) {
    cJSON *a = cJSON_CreateArray();
    for (int64_t i = 0; a && i < n; i++) ADD(a, NULL, int_item(v[i]));
    return a;
}

static const char *dtype_name(ct_dtype d) {
    const char *n = ct_dtype_python_name(d); /* "torch.float32" */
    return strncmp(n, "torch.", 6) == 0 ? n + 6 : n;
}

static uint64_t tensor_id(ct_tensor *t) {
    uint64_t id = atomic_load_explicit(&t->trace_id, memory_order_relaxed);
    if (id) return id;
    uint64_t mine = atomic_fetch_add_explicit(&next_tensor_id, 1, memory_order_relaxed) + 1;
    if (atomic_compare_exchange_strong_explicit(&t->trace_id, &id, mine, memory_order_relaxed, memory_order_relaxed))
        return mine;
    return id; /* another thread named it first */
}

/* A non-tensor argument as str() of the Python value prints it, "torch." dropped: ints,
 * floats, bools and lists as JSON, dtypes "float32", layouts "strided", memory formats
 * "contiguous_format", devices "cpu", custom class objects "ScriptObject <class>". */
static cJSON *scalar_item(const ct_arg *a, const ct_value *v) {
    switch (v->tag) {
    case CT_TAG_NONE: return cJSON_CreateNull();
    case CT_TAG_INT:
        if (a->type == CT_TY_SCALARTYPE) return cJSON_CreateString(dtype_name((ct_dtype)v->u.i));
        if (a->type == CT_TY_LAYOUT && v->u.i == 0) return cJSON_CreateString("strided");
        if (a->type == CT_TY_MEMFMT) {
            static const char *const names[] = {"contiguous_format", "preserve_format", "channels_last",
                                                "channels_last_3d"};
            if (v->u.i >= 0 && v->u.i < 4) return cJSON_CreateString(names[v->u.i]);
        }
        return int_item(v->u.i);
    case CT_TAG_DOUBLE: return double_item(v->u.d);
    case CT_TAG_BOOL: return cJSON_CreateBool(v->u.b);
    case CT_TAG_INTLIST: return int_list(v->u.list.data, v->u.list.len);
    case CT_TAG_STRING: return cJSON_CreateString(v->u.s ? v->u.s : "");
    case CT_TAG_DEVICE: return cJSON_CreateString(v->u.i == 0 ? "cpu" : "unknown");
    case CT_TAG_GENERATOR: return cJSON_CreateString("Generator");
    case CT_TAG_OBJECT: { /* a custom class object, as str() of a torch.ScriptObject */
        char t[256];
        snprintf(t, sizeof t, "ScriptObject <%s>", a->type_text);
        return cJSON_CreateString(t);
    }
    case CT_TAG_TENSOR:
    case CT_TAG_TENSORLIST: break;
    }
    return cJSON_CreateNull();
}

static void tensor_fields(cJSON *o, ct_tensor *t) {
    add_keyset(o, "keys", t->keys);
    ADD(o, "dtype", cJSON_CreateString(dtype_name(t->dtype)));
    ADD(o, "shape", int_list(t->sizes, t->ndim));
    ADD(o, "stride", int_list(t->strides, t->ndim));
    add_int(o, "id", (int64_t)tensor_id(t));
}

static cJSON *args_array(const ct_op *op, const ct_value *args) {
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; arr && i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        const ct_value *v = &args[i];
        cJSON *o = cJSON_CreateObject();
        if (!o) {
            tree_bad = true;
            break;
        }
        ADD(o, "name", cJSON_CreateString(a->name));
        if (v->tag == CT_TAG_TENSOR && v->u.t) {
            tensor_fields(o, v->u.t);
        } else if (v->tag == CT_TAG_TENSORLIST) {
            /* a Tensor[]: the union of its tensors' key sets (what dispatch sees) and each tensor */
            ct_keyset ks = 0;
            cJSON *items = cJSON_CreateArray();
            ADD(o, "tensors", items);
            if (tree_bad) items = NULL;
            for (int64_t k = 0; k < v->u.tlist.len; k++) {
                ct_tensor *t = v->u.tlist.items[k];
                if (!t) { /* a None item of a Tensor?[] */
                    if (items) ADD(items, NULL, cJSON_CreateNull());
                    continue;
                }
                cJSON *e = items ? cJSON_CreateObject() : NULL;
                if (!e) {
                    tree_bad = true;
                    break;
                }
                ks |= t->keys;
                tensor_fields(e, t);
                ADD(items, NULL, e);
            }
            add_keyset(o, "keys", ks);
        } else if (v->tag == CT_TAG_GENERATOR) {
            /* CPUGeneratorImpl carries DispatchKeySet(CPU) (see extract_keys in call.c) */
            add_keyset(o, "keys", CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU));
            ADD(o, "value", scalar_item(a, v));
        } else {
            ADD(o, "value", scalar_item(a, v));
        }
        ADD(arr, NULL, o);
    }
    return arr;
}

static void write_hop(const ct_dispatch_record *r, const ct_value *args, const char *hop) {
    if (!atomic_load_explicit(&W.open, memory_order_acquire)) return;
    int64_t t = now_ns() - atomic_load_explicit(&origin_ns, memory_order_relaxed);
    const ct_op *op = r->op;
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        emit_object("hop", true, NULL); /* counted as lost */
        return;
    }
    bool call = r->kind == CT_HOP_CALL;
    ADD(o, "hop", cJSON_CreateString(hop));
    ADD(o, "depth", cJSON_CreateNumber(r->depth));
    ADD(o, "op", cJSON_CreateString(op->base_name));
    ADD(o, "overload", cJSON_CreateString(*op->overload ? op->overload : "default"));
    ADD(o, "key", cJSON_CreateString(ct_key_name(r->key)));
    ADD(o, "kernel", cJSON_CreateString(ct_slot_kind_name(r->slot)));
    ADD(o, "where", cJSON_CreateString(r->where ? r->where : ""));
    ADD(o, "args", args_array(op, args));
    if (call) {
        add_keyset(o, "tls_included", r->tls_included);
        add_keyset(o, "tls_excluded", r->tls_excluded);
    }
    add_keyset(o, "merged", r->merged);
    add_keyset(o, "dispatch", r->dispatch);
    bool grad = !ct_tls_state.grad_disabled;
    ADD(o, "grad_enabled", cJSON_CreateBool(grad));
    /* sequenceNumberForRunningRecordFunction: a call that autograd keys take part in, with
     * grad mode on, carries the number the node it creates will get */
    if (call && grad && (r->dispatch & CT_AUTOGRAD_KEYSET)) add_int(o, "seq", (int64_t)ct_tls_state.sequence_nr);
    if (ts.node) {
        ADD(o, "node", cJSON_CreateString(ts.node));
        if (ts.node_has_seq) add_int(o, "backward_of", (int64_t)ts.node_seq);
    }
    if (ts.phase[0]) ADD(o, "phase", cJSON_CreateString(ts.phase));
    add_int(o, "thread", thread_id());
    add_int(o, "t_ns", t);
    emit_object("hop", true, o);
}

void ct_trace_file_hop(const ct_dispatch_record *r, const ct_value *args) {
    write_hop(r, args, r->kind == CT_HOP_CALL ? "call" : "redispatch");
}

void ct_trace_file_direct(const ct_op *op, const ct_value *args, ct_dispatch_key key, const char *where) {
    if (!atomic_load_explicit(&W.open, memory_order_acquire)) return;
    ct_dispatch_record r;
    memset(&r, 0, sizeof r);
    r.kind = CT_HOP_REDISPATCH; /* no TLS sets or sequence number: nothing was dispatched */
    r.depth = ct_tls_state.trace_depth + 1;
    r.op = op;
    r.key = key;
    r.slot = CT_SLOT_KERNEL;
    r.where = where;
    write_hop(&r, args, "direct");
}

/* torch.manual_seed while a trace file is open: a seed record where it happened */
static void seed_observer(uint64_t seed) {
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        emit_object("seed", false, NULL); /* counted as lost */
        return;
    }
    char t[24];
    snprintf(t, sizeof t, "%" PRIu64, seed);
    ADD(o, "seed", cJSON_CreateRaw(t));
    add_int(o, "thread", thread_id());
    add_int(o, "t_ns", now_ns() - atomic_load_explicit(&origin_ns, memory_order_relaxed));
    emit_object("seed", false, o);
}

/* ---- opening and closing ------------------------------------------------------------------ */

/* The command line from /proc/self/cmdline, arguments joined by spaces; NULL if unreadable. */
static char *command_line(void) {
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f) return NULL;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (n == 0) return NULL;
    while (n > 0 && buf[n - 1] == '\0') n--;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0') buf[i] = ' ';
    buf[n] = '\0';
    char *copy = ct_strdup(buf);
    if (!copy) tree_bad = true; /* the header would say "program": null */
    return copy;
}

static cJSON *header(const ct_trace_file_options *opts) {
    cJSON *h = cJSON_CreateObject();
    if (!h) return NULL;
    ADD(h, "schema", cJSON_CreateString(CT_TRACE_SCHEMA));
    ADD(h, "version", cJSON_CreateNumber(CT_TRACE_SCHEMA_VERSION));
    ADD(h, "recorder", cJSON_CreateString("ctorch"));
    ADD(h, "view", cJSON_CreateString("dispatcher"));
    ADD(h, "ctorch_version", cJSON_CreateString(CTORCH_VERSION_STRING));
    ADD(h, "pytorch_version", cJSON_CreateString(CTORCH_PYTORCH_VERSION));
    if (opts && opts->has_seed) {
        char t[24];
        snprintf(t, sizeof t, "%" PRIu64, opts->seed);
        ADD(h, "seed", cJSON_CreateRaw(t));
    } else {
        ADD(h, "seed", cJSON_CreateNull());
    }
    char *cmd = opts && opts->program ? NULL : command_line();
    const char *program = opts && opts->program ? opts->program : cmd;
    if (program) ADD(h, "program", cJSON_CreateString(program));
    else ADD(h, "program", cJSON_CreateNull());
    ct_free(cmd);
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    ADD(h, "started_utc", cJSON_CreateString(when));
    return h;
}

static void refresh_observe(bool on) {
    if (on) atomic_fetch_or_explicit(&ct_global_observe, CT_OBSERVE_TRACE_FILE, memory_order_relaxed);
    else atomic_fetch_and_explicit(&ct_global_observe, ~CT_OBSERVE_TRACE_FILE, memory_order_relaxed);
}

int ct_trace_file_open(const char *path, const ct_trace_file_options *opts) {
    if (!path) return ct_error_set(CT_ERR_VALUE, "ct_trace_file_open: path is NULL");
    size_t cap = opts && opts->buffer_bytes ? opts->buffer_bytes : CT_TRACE_DEFAULT_BUFFER;
    if (cap < CT_TRACE_MIN_BUFFER) cap = CT_TRACE_MIN_BUFFER;
    pthread_mutex_lock(&W.mu);
    bool busy = W.open;
    pthread_mutex_unlock(&W.mu);
    if (busy) return ct_error_set(CT_ERR_RUNTIME, "ct_trace_file_open: a trace file is already open ('%s')", W.path);
    char *buf = ct_malloc(cap);
    char *p = ct_strdup(path);
    cJSON *h = header(opts);
    bool h_bad = tree_bad;
    tree_bad = false;
    if (!buf || !p || !h || h_bad) {
        ct_free(buf);
        ct_free(p);
        cJSON_Delete(h);
        return ct_error_set(CT_ERR_NOMEM, "ct_trace_file_open: out of memory");
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        int e = errno;
        ct_free(buf);
        ct_free(p);
        cJSON_Delete(h);
        return ct_error_set(CT_ERR_IO, "[Errno %d] %s: '%s'", e, strerror(e), path);
    }
    setvbuf(f, NULL, _IONBF, 0); /* the trace's own buffer is the only one */
    pthread_mutex_lock(&W.mu);
    if (W.open) { /* another thread opened one meanwhile */
        pthread_mutex_unlock(&W.mu);
        fclose(f);
        ct_free(buf);
        ct_free(p);
        cJSON_Delete(h);
        return ct_error_set(CT_ERR_RUNTIME, "ct_trace_file_open: a trace file is already open");
    }
    W.f = f;
    W.path = p;
    W.buf = buf;
    W.cap = cap;
    W.len = 0;
    W.next_hop = 0;
    W.err_no = 0;
    W.lost = 0;
    memset(&W.st, 0, sizeof W.st);
    W.st.buffer_bytes = cap;
    atomic_store(&origin_ns, now_ns());
    atomic_store_explicit(&W.open, true, memory_order_release);
    pthread_mutex_unlock(&W.mu);
    emit_object("header", false, h);
    atomic_store(&ct_manual_seed_observer, seed_observer);
    refresh_observe(true);
    return 0;
}

int ct_trace_file_close(void) {
    pthread_mutex_lock(&W.mu);
    if (!W.open) {
        pthread_mutex_unlock(&W.mu);
        return ct_error_set(CT_ERR_RUNTIME, "ct_trace_file_close: no trace file is open");
    }
    refresh_observe(false);
    atomic_store(&ct_manual_seed_observer, (ct_seed_observer_fn)NULL);
    flush_locked();
    if (fclose(W.f) != 0 && !W.err_no) W.err_no = errno ? errno : EIO;
    int e = W.err_no;
    uint64_t lost = W.lost;
    char *path = W.path;
    atomic_store_explicit(&W.open, false, memory_order_release);
    ct_free(W.buf);
    W.buf = NULL;
    W.f = NULL;
    W.path = NULL;
    W.cap = W.len = 0;
    pthread_mutex_unlock(&W.mu);
    int rc = 0;
    if (e) rc = ct_error_set(CT_ERR_IO, "[Errno %d] %s: '%s'", e, strerror(e), path);
    else if (lost)
        rc = ct_error_set(CT_ERR_NOMEM, "ct_trace_file_close: %llu records could not be recorded (out of memory): '%s' is incomplete",
                          (unsigned long long)lost, path);
    ct_free(path);
    return rc;
}

bool ct_trace_file_is_open(void) { return atomic_load_explicit(&W.open, memory_order_acquire); }

int ct_trace_file_stats_get(ct_trace_file_stats *out) {
    if (!out) return ct_error_set(CT_ERR_VALUE, "ct_trace_file_stats_get: out is NULL");
    pthread_mutex_lock(&W.mu);
    bool open = W.open;
    if (open) *out = W.st;
    else memset(out, 0, sizeof *out);
    pthread_mutex_unlock(&W.mu);
    return open ? 0 : ct_error_set(CT_ERR_RUNTIME, "ct_trace_file_stats_get: no trace file is open");
}

static void close_at_exit(void) {
    if (ct_trace_file_is_open() && ct_trace_file_close() != 0)
        fprintf(stderr, "ctorch warning: CTORCH_TRACE_FILE: %s\n", ct_error_message());
}

void ct_trace_file_open_from_env(void) {
    const char *path = getenv("CTORCH_TRACE_FILE");
    if (!path || !*path) return;
    if (ct_trace_file_open(path, NULL) != 0) {
        fprintf(stderr, "ctorch warning: CTORCH_TRACE_FILE: cannot open a trace file: %s\n", ct_error_message());
        return;
    }
    atexit(close_at_exit);
}
