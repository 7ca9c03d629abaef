/* The decision trace: what the dispatcher decided at each hop, printed (PyTorch's
 * TORCH_SHOW_DISPATCH_TRACE format, or the full decision) and/or collected per thread.
 *
 * Note [Compact trace records]
 *   A hop is recorded as a 56-byte ct_trace_rec: the op, the registration site that ran, and
 *   each key set (every argument's, the thread-local included and excluded sets, the merged set,
 *   the set after fallthrough masking) as a 16-bit index into a per-collection table of the
 *   distinct key sets seen (a program has a handful). Collected records go into a ring buffer
 *   of a fixed number of records allocated by ct_trace_begin, so collecting never allocates on
 *   the call path and never holds more than the ring: when it is full the oldest records are
 *   overwritten and counted (ct_trace_get_stats). ct_trace_end expands what the ring holds into
 *   the public ct_dispatch_record form. A key-set table that fills up (1024 distinct sets)
 *   stores further sets as "lost", also counted, rather than growing.
 *
 * Note [One emit point]
 *   Every record, call or redispatch, passes through emit(): the ring and printing hang off that
 *   one function, and the trace file (dispatch/trace_file.c) is written right after it, by the
 *   hop's one out-of-line writer (file_call, file_redispatch). The file writer gets the hop's key
 *   sets as they were, not through the key-set table (which may have run out of room), and the
 *   hop's arguments; it streams each hop out through its own fixed buffer, so a file holds any
 *   number of hops while memory stays flat, independent of the ring. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/trace.h"
#include "dispatch/dispatch_keys.h"
#include "dispatch/op_impl.h"
#include "core/tls.h"
#include "dispatch/trace_file.h"
#include "dispatch/trace_impl.h"
#include "util/hindex.h"

#define KS_LOST 0xFFFFu
#define KS_TABLE_CAP 1024u     /* distinct key sets a collection keeps */
#define KS_SCRATCH_CAP 32u     /* printing alone: the table is reset when nearly full */
#define KS_PER_RECORD 12u      /* CT_TRACE_MAX_ARGS + included, excluded, merged, dispatch */

typedef struct ct_trace_rec {
    const ct_op *op;
    const char *where;                    /* registration site of what ran */
    uint16_t arg_keys[CT_TRACE_MAX_ARGS]; /* key-set table indices */
    uint8_t arg_index[CT_TRACE_MAX_ARGS]; /* schema positions */
    uint16_t included, excluded, merged, dispatch;
    uint16_t depth;
    uint16_t slot_index;                  /* table slot that ran (its runtime key is the winner) */
    uint8_t kind;                         /* ct_hop_kind */
    uint8_t n_args;
    uint8_t slot;                         /* ct_slot_kind */
} ct_trace_rec;
_Static_assert(sizeof(ct_trace_rec) <= 64, "a trace record fits in a cache line");
_Static_assert(CT_NUM_RUNTIME_ENTRIES <= 0xFFFF && CT_TRACE_MAX_ARGS <= 8, "trace record field widths");

/* Key sets by index, found through the library's hash index (in fixed storage: no allocation
 * while recording), with a small direct-mapped memo in front (Note [Key-set memo]). */
#define KS_MEMO_BITS 6u
#define KS_MEMO_SIZE (1u << KS_MEMO_BITS)

typedef struct ks_memo {
    ct_keyset ks;
    uint16_t i;
} ks_memo;

typedef struct ks_table {
    ct_keyset *keys;
    ct_hindex ix;
    uint32_t n, cap;
    uint64_t lost;
    ks_memo memo[KS_MEMO_SIZE];
} ks_table;

/* Note [Key-set memo]
 *   A hop interns four to six key sets (each argument's, the thread-local included and
 *   excluded sets, the merged and dispatch sets), and a program has a handful of distinct
 *   ones, so most lookups ask for a set asked for just before. memo[] keeps, for each set seen,
 *   its index at the position the top bits of its multiplicative hash pick; a lookup compares
 *   one word there and only on a miss probes the hash index (and fills the position). Two sets
 *   that share a position take turns; the answer is the same, only slower.
 *   An empty memo must not answer for a set it never saw. Every position p is emptied to a set
 *   whose own position is not p: 0 (whose position is 0) everywhere but at 0, and 1 (position
 *   39) at 0. A set is only ever looked up at its own position, so an emptied one can never
 *   match. Sets the table has no room for (KS_LOST) are not memoised. */
static inline size_t ks_memo_pos(ct_keyset ks) {
    return (size_t)((ks * 0x9E3779B97F4A7C15ull) >> (64u - KS_MEMO_BITS));
}

static void ks_table_reset(ks_table *t, ct_keyset *keys, uint32_t *slots, uint32_t cap) {
    t->keys = keys;
    ct_hindex_init_fixed(&t->ix, slots, 2 * (size_t)cap);
    t->n = 0;
    t->cap = cap;
    t->lost = 0;
    for (size_t p = 0; p < KS_MEMO_SIZE; p++) {
        t->memo[p].ks = ks_memo_pos(0) == p ? 1 : 0;
        t->memo[p].i = KS_LOST;
    }
}

static __attribute__((noinline)) uint16_t ks_intern_slow(ks_table *t, ct_keyset ks, ks_memo *mo) {
    size_t s = ct_hindex_first(&t->ix, ks);
    uint16_t i;
    for (uint32_t e; (e = t->ix.slots[s]) != 0; s = ct_hindex_next(&t->ix, s))
        if (t->keys[e - 1] == ks) {
            i = (uint16_t)(e - 1);
            goto found;
        }
    if (t->n == t->cap) {
        t->lost++;
        return KS_LOST;
    }
    t->keys[t->n] = ks;
    ct_hindex_put(&t->ix, s, t->n);
    i = (uint16_t)t->n++;
found:
    mo->ks = ks;
    mo->i = i;
    return i;
}

static inline uint16_t ks_intern(ks_table *t, ct_keyset ks) {
    ks_memo *mo = &t->memo[ks_memo_pos(ks)];
    if (__builtin_expect(mo->ks == ks, 1)) return mo->i;
    return ks_intern_slow(t, ks, mo);
}

static ct_keyset ks_get(const ks_table *t, uint16_t i) { return i < t->n ? t->keys[i] : 0; }

/* ---- per-thread state ---- */

/* process-wide: any thread may set them while others print (relaxed: each is one word that is
 * read whole; the stream's own lock orders the lines) */
static atomic_int print_level;  /* 0 off, 1 PyTorch's lines, 2 full decisions */
static FILE *_Atomic trace_stream;

typedef struct collector {
    bool on;
    ct_trace_rec *ring;   /* cap records; the block also holds the key-set table */
    size_t cap;
    uint64_t total;       /* records emitted since ct_trace_begin */
    size_t pos;           /* where the next record goes */
    ks_table kt;
    size_t next_cap;      /* capacity for the next ct_trace_begin; 0 = default */
    ct_trace_stats last;  /* of the collection that ended last */
} collector;
static _Thread_local collector coll;

/* printing alone keeps no records, so its table is small and reset when nearly full */
typedef struct scratch_table {
    ct_keyset keys[KS_SCRATCH_CAP];
    uint32_t slots[2 * KS_SCRATCH_CAP];
    ks_table t;
} scratch_table;
static _Thread_local scratch_table scratch;

static ks_table *table_for_record(void) {
    if (coll.on) return &coll.kt;
    ks_table *t = &scratch.t;
    if (!t->keys || t->n + KS_PER_RECORD > t->cap) {
        ks_table_reset(t, scratch.keys, scratch.slots, KS_SCRATCH_CAP);
    }
    return t;
}

void ct_trace_set_print(int level) {
    level = level < 0 ? 0 : level > 2 ? 2 : level;
    atomic_store_explicit(&print_level, level, memory_order_relaxed);
    if (level > 0)
        atomic_fetch_or_explicit(&ct_global_observe, CT_OBSERVE_TRACE_PRINT, memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&ct_global_observe, ~CT_OBSERVE_TRACE_PRINT, memory_order_relaxed);
}
int ct_trace_print_level(void) { return atomic_load_explicit(&print_level, memory_order_relaxed); }
void ct_trace_set_stream(FILE *f) { atomic_store_explicit(&trace_stream, f, memory_order_relaxed); }

int ct_trace_set_capacity(size_t records) {
    if (records == 0 || records > CT_TRACE_MAX_CAPACITY)
        return ct_error_set(CT_ERR_VALUE, "ct_trace_set_capacity: capacity must be between 1 and %zu records (got %zu)",
                            (size_t)CT_TRACE_MAX_CAPACITY, records);
    coll.next_cap = records;
    return 0;
}

size_t ct_trace_capacity(void) { return coll.next_cap ? coll.next_cap : CT_TRACE_DEFAULT_CAPACITY; }

int ct_trace_begin(void) {
    if (coll.on) return ct_error_set(CT_ERR_RUNTIME, "ct_trace_begin: this thread is already collecting");
    size_t cap = ct_trace_capacity();
    /* one block: the ring, the key sets, the hash slots */
    size_t ring_bytes = cap * sizeof(ct_trace_rec);
    size_t keys_bytes = KS_TABLE_CAP * sizeof(ct_keyset);
    size_t slots_bytes = 2 * KS_TABLE_CAP * sizeof(uint32_t);
    char *block = ct_malloc(ring_bytes + keys_bytes + slots_bytes);
    if (!block) return -1;
    coll.ring = (ct_trace_rec *)block;
    coll.cap = cap;
    coll.total = 0;
    coll.pos = 0;
    ks_table_reset(&coll.kt, (ct_keyset *)(block + ring_bytes), (uint32_t *)(block + ring_bytes + keys_bytes),
                   KS_TABLE_CAP);
    coll.on = true;
    ct_tls_state.observe |= CT_OBSERVE_TRACE_COLLECT;
    return 0;
}

static void expand(const ct_trace_rec *c, const ks_table *t, ct_dispatch_record *r) {
    memset(r, 0, sizeof *r);
    r->kind = (ct_hop_kind)c->kind;
    r->depth = c->depth;
    r->op = c->op;
    r->n_tensor_args = c->n_args;
    for (int i = 0; i < c->n_args; i++) {
        r->arg_keys[i] = ks_get(t, c->arg_keys[i]);
        r->arg_index[i] = c->arg_index[i];
    }
    if (c->kind == CT_HOP_CALL) {
        r->tls_included = ks_get(t, c->included);
        r->tls_excluded = ks_get(t, c->excluded);
    }
    r->merged = ks_get(t, c->merged);
    r->dispatch = ks_get(t, c->dispatch);
    r->key = r->dispatch == 0 ? CT_KEY_Undefined : ct_key_of_slot(c->slot_index);
    r->slot = (ct_slot_kind)c->slot;
    r->where = c->where;
}

static void fill_stats(ct_trace_stats *s) {
    s->capacity = coll.cap;
    s->recorded = coll.total;
    s->retained = coll.total < coll.cap ? (size_t)coll.total : coll.cap;
    s->overwritten = coll.total - s->retained;
    s->key_sets_lost = coll.kt.lost;
}

int ct_trace_end(ct_dispatch_record **out, size_t *n) {
    if (!coll.on) return ct_error_set(CT_ERR_RUNTIME, "ct_trace_end: ct_trace_begin was not called");
    ct_tls_state.observe &= ~CT_OBSERVE_TRACE_COLLECT;
    coll.on = false;
    fill_stats(&coll.last);
    size_t kept = coll.last.retained;
    int rc = 0;
    if (out) {
        *out = NULL;
        ct_dispatch_record *recs = ct_malloc((kept ? kept : 1) * sizeof *recs);
        if (!recs) {
            kept = 0;
            rc = -1; /* CT_ERR_NOMEM set by ct_malloc */
        } else {
            /* oldest first: once the ring has wrapped, the oldest sits where the next would go */
            size_t first = coll.total > coll.cap ? coll.pos : 0;
            for (size_t i = 0; i < kept; i++) expand(&coll.ring[(first + i) % coll.cap], &coll.kt, &recs[i]);
            *out = recs;
        }
    }
    if (n) *n = kept;
    ct_free(coll.ring);
    coll.ring = NULL;
    coll.kt.keys = NULL;
    coll.kt.ix.slots = NULL;
    return rc;
}

int ct_trace_get_stats(ct_trace_stats *out) {
    if (!out) return ct_error_set(CT_ERR_VALUE, "ct_trace_get_stats: out is NULL");
    if (coll.on) fill_stats(out);
    else *out = coll.last;
    return 0;
}

/* ---- formatting ---- */

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

/* ---- recording (Note [One emit point]) ---- */

/* out of line: the line buffer stays out of the hop's frame */
static __attribute__((noinline)) void print_hop(const ct_trace_rec *c, const ks_table *t) {
    ct_dispatch_record r;
    expand(c, t, &r);
    char line[8192];
    size_t n = ct_trace_format(&r, ct_trace_print_level() >= 2, line, sizeof line);
    FILE *f = atomic_load_explicit(&trace_stream, memory_order_relaxed);
    if (!f) f = stderr;
    fwrite(line, 1, n < sizeof line ? n : sizeof line - 1, f);
}

/* Where a hop's record is built: straight in the ring's next record while collecting (no copy
 * afterwards), else in the caller's `local`. */
static inline ct_trace_rec *record_for_hop(ct_trace_rec *local) {
    return coll.on ? &coll.ring[coll.pos] : local;
}

/* The hop's record is complete: keep it (collecting) and print it. Inlined into both kinds of
 * hop; the trace file's full record is written by the caller after this. */
static inline __attribute__((always_inline)) void emit(const ct_trace_rec *c, const ks_table *t, int global) {
    if (coll.on) {
        coll.total++;
        if (++coll.pos == coll.cap) coll.pos = 0;
    }
    if (global & CT_OBSERVE_TRACE_PRINT) print_hop(c, t);
}

static inline void fill_slot(ct_trace_rec *c, const ct_op *op, int slot) {
    c->slot_index = (uint16_t)slot;
    c->slot = atomic_load_explicit(&op->meta[slot].kind, memory_order_relaxed);
    c->where = atomic_load_explicit(&op->meta[slot].where, memory_order_relaxed);
}

static inline uint16_t depth16(int d) {
    if ((unsigned)d <= 0xFFFFu) return (uint16_t)d;
    return d < 0 ? 0 : 0xFFFF;
}

/* The trace file's full record of a hop: what both kinds of hop share, from the compact one. */
static void full_record(ct_dispatch_record *r, const ct_trace_rec *c, const ct_op *op, ct_keyset ks) {
    memset(r, 0, sizeof *r);
    r->kind = (ct_hop_kind)c->kind;
    r->depth = c->depth;
    r->op = op;
    r->dispatch = ks;
    r->key = ks == 0 ? CT_KEY_Undefined : ct_key_of_slot(c->slot_index);
    r->slot = (ct_slot_kind)c->slot;
    r->where = c->where;
}

static __attribute__((noinline)) void file_call(const ct_trace_rec *c, const ct_op *op, const ct_value *args,
                                                 const ct_keyset *raw, ct_keyset inc, ct_keyset exc,
                                                 ct_keyset merged, ct_keyset ks) {
    ct_dispatch_record r;
    full_record(&r, c, op, ks);
    r.n_tensor_args = c->n_args;
    for (int i = 0; i < c->n_args; i++) {
        r.arg_keys[i] = raw[i];
        r.arg_index[i] = c->arg_index[i];
    }
    r.tls_included = inc;
    r.tls_excluded = exc;
    r.merged = merged;
    ct_trace_file_hop(&r, args);
}

static __attribute__((noinline)) void file_redispatch(const ct_trace_rec *c, const ct_op *op, const ct_value *args,
                                                       ct_keyset ks) {
    ct_dispatch_record r;
    full_record(&r, c, op, ks);
    r.merged = ks;
    ct_trace_file_hop(&r, args);
}

ct_trace_dispatch ct_trace_call(const ct_op *op, const ct_value *args, const ct_tls *tls) {
    ks_table *t = table_for_record();
    ct_trace_rec local, *c = record_for_hop(&local);
    c->op = op;
    c->kind = CT_HOP_CALL;
    c->depth = depth16(tls->trace_depth);
    /* the dispatch arguments' key sets: each one recorded (the first CT_TRACE_MAX_ARGS), all of
     * them in the union the dispatcher indexes its table by */
    ct_keyset raw[CT_TRACE_MAX_ARGS];
    ct_keyset args_ks = 0;
    int n = 0;
    uint32_t m = op->dispatch_args;
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        ct_keyset aks; /* a list shows the union of its tensors' key sets */
        if (!ct_dispatch_arg_keys(&args[i], &aks)) continue;
        args_ks |= aks;
        if (n < CT_TRACE_MAX_ARGS) {
            raw[n] = aks;
            c->arg_index[n] = (uint8_t)i;
            c->arg_keys[n++] = ks_intern(t, aks);
        }
    }
    c->n_args = (uint8_t)n;
    ct_keyset inc = ct_tls_included_raw(tls), exc = ct_tls_excluded_raw(tls);
    c->included = ks_intern(t, inc);
    c->excluded = ks_intern(t, exc);
    ct_keyset merged = ct_keyset_sub(args_ks | inc, exc);
    /* one tensor argument and no thread-local change: merged is that argument's set */
    c->merged = n == 1 && raw[0] == merged ? c->arg_keys[0] : ks_intern(t, merged);
    /* what the dispatcher's compute_keyset gives (call.c), from the same words */
    ct_keyset ks = ct_dispatch_keyset(op, args_ks, inc, exc);
    int slot = ct_slot_index(ks);
    c->dispatch = ks == merged ? c->merged : ks_intern(t, ks);
    fill_slot(c, op, slot);
    int global = ct_global_observe_bits();
    emit(c, t, global);
    if (global & CT_OBSERVE_TRACE_FILE) file_call(c, op, args, raw, inc, exc, merged, ks);
    return (ct_trace_dispatch){ks, slot};
}

void ct_trace_redispatch(const ct_op *op, ct_keyset ks, int slot, const ct_value *args, const ct_tls *tls) {
    ks_table *t = table_for_record();
    ct_trace_rec local, *c = record_for_hop(&local);
    c->op = op;
    c->kind = CT_HOP_REDISPATCH;
    c->depth = depth16(tls->trace_depth);
    c->n_args = 0;
    c->included = c->excluded = KS_LOST;
    c->merged = c->dispatch = ks_intern(t, ks);
    fill_slot(c, op, slot);
    int global = ct_global_observe_bits();
    emit(c, t, global);
    if (global & CT_OBSERVE_TRACE_FILE) file_redispatch(c, op, args, ks);
}
