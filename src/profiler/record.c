/* The profiler's recorder: RecordFunction ranges from the dispatcher (every ct_call), the
 * autograd engine, the Python-key fallback and record_function, kept per profiling thread.
 *
 * Note [Profiler recording]
 *   A range is recorded as a 64-byte ct_prof_raw in chunks of 1024 that never move (no
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
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
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

int64_t ct_prof_now_ns(void) {
    if (fake_clock) return fake_ns += 1000;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- names ---- */

static bool name_equal(const char *s, const char *a, size_t la, const char *b) {
    if (la && strncmp(s, a, la) != 0) return false;
    return strcmp(s + la, b ? b : "") == 0;
}

static uint64_t name_hash_of(const void *ctx, uint32_t i) { return ct_hash_str2(((char *const *)ctx)[i], NULL); }

static const char *intern_name_slow(ct_prof_thread *t, const char *prefix, size_t la, const char *name);
/* The thread's copy of prefix + name, made once per distinct name; NULL when out of memory.
 * prefix, when not NULL, lives as long as the process (record.h), so its address stands for
 * its text; name may be temporary. */
static const char *intern_name(ct_prof_thread *t, const char *prefix, const char *name) {
    /* a name often comes back with the same pointers (a record_function name, a frame's text):
     * look there first, and still compare the name's text (a freed name's address can be
     * reused). Two ways, the newer first: names made in one buffer each time alternate between
     * texts at one address. */
    size_t mi = (((uintptr_t)name >> 3) ^ ((uintptr_t)prefix >> 5)) & 63;
    const char *b = name ? name : "";
    for (int w = 0; w < 2; w++) {
        const struct ct_prof_name_memo *m = &t->name_memo[mi][w];
        if (m->copy && m->name == name && m->prefix == prefix && strcmp(m->copy + m->prefix_len, b) == 0)
            return m->copy;
    }
    size_t la = prefix ? strlen(prefix) : 0;
    const char *s = intern_name_slow(t, prefix, la, name);
    if (s) {
        t->name_memo[mi][1] = t->name_memo[mi][0];
        t->name_memo[mi][0] = (struct ct_prof_name_memo){.prefix = prefix, .name = name, .copy = s, .prefix_len = la};
    }
    return s;
}

/* intern_name for a name that lives as long as the process (a backward node's name is a literal
 * or an entry of the derivatives table): its address stands for its text, so the thread keeps a
 * table keyed by the two addresses, which never forgets a pair (a memo of a few ways a set missed
 * every step in a build where three of the step's names met in one set). */
static size_t literal_slot(const char *prefix, const char *name, size_t mask) {
    uint64_t key = ((uint64_t)(uintptr_t)name ^ ((uint64_t)(uintptr_t)prefix << 1)) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(key >> 32) & mask;
}

static __attribute__((noinline)) const char *intern_literal_slow(ct_prof_thread *t, const char *prefix,
                                                                 const char *name) {
    const char *s = intern_name_slow(t, prefix, prefix ? strlen(prefix) : 0, name);
    if (!s) return NULL;
    if ((t->literals_n + 1) * 2 > t->literals_cap) { /* grow and rehash; without memory, just no entry */
        size_t cap = t->literals_cap ? t->literals_cap * 2 : 64;
        struct ct_prof_literal *nt = ct_calloc(cap, sizeof *nt);
        if (!nt) return s;
        for (size_t k = 0; k < t->literals_cap; k++) {
            const struct ct_prof_literal *e = &t->literals[k];
            if (!e->copy) continue;
            size_t h = literal_slot(e->prefix, e->name, cap - 1);
            while (nt[h].copy) h = (h + 1) & (cap - 1);
            nt[h] = *e;
        }
        ct_free(t->literals);
        t->literals = nt;
        t->literals_cap = cap;
    }
    size_t h = literal_slot(prefix, name, t->literals_cap - 1);
    while (t->literals[h].copy) h = (h + 1) & (t->literals_cap - 1);
    t->literals[h] = (struct ct_prof_literal){.prefix = prefix, .name = name, .copy = s};
    t->literals_n++;
    return s;
}

static inline const char *intern_literal(ct_prof_thread *t, const char *prefix, const char *name) {
    if (__builtin_expect(t->literals_cap != 0, 1)) {
        const size_t mask = t->literals_cap - 1;
        for (size_t h = literal_slot(prefix, name, mask);; h = (h + 1) & mask) {
            const struct ct_prof_literal *e = &t->literals[h];
            if (__builtin_expect(e->name == name && e->prefix == prefix && e->copy != NULL, 1)) return e->copy;
            if (!e->copy) break;
        }
    }
    return intern_literal_slow(t, prefix, name);
}

static const char *intern_name_slow(ct_prof_thread *t, const char *prefix, size_t la, const char *name) {
    if (ct_grow(t->names, t->names_cap, t->names_n + 1, 64) != 0 ||
        ct_hindex_reserve(&t->names_ix, t->names_n + 1, name_hash_of, t->names) != 0)
        return NULL;
    size_t h = ct_hindex_first(&t->names_ix, ct_hash_str2(prefix, name));
    for (uint32_t e; (e = t->names_ix.slots[h]) != 0; h = ct_hindex_next(&t->names_ix, h))
        if (name_equal(t->names[e - 1], prefix, la, name)) return t->names[e - 1];
    size_t lb = name ? strlen(name) : 0;
    char *s = ct_malloc(la + lb + 1);
    if (!s) return NULL;
    if (la) memcpy(s, prefix, la);
    if (lb) memcpy(s + la, name, lb);
    s[la + lb] = '\0';
    t->names[t->names_n] = s;
    ct_hindex_put(&t->names_ix, h, t->names_n++);
    return s;
}

/* ---- ranges (Note [Profiler recording]) ---- */

static ct_prof_raw *raw_slot(ct_prof_thread *t, size_t i) {
    size_t c = i >> CT_PROF_RAW_CHUNK_SHIFT;
    if (c == t->raw_chunks) {
        if (ct_grow(t->raw, t->raw_chunks_cap, t->raw_chunks + 1, 16) != 0) return NULL;
        ct_prof_raw *chunk = ct_malloc(sizeof(ct_prof_raw) << CT_PROF_RAW_CHUNK_SHIFT);
        if (!chunk) return NULL;
        t->raw[t->raw_chunks++] = chunk;
    }
    return ct_prof_raw_at(t, i);
}

static void thread_free(ct_prof_thread *t) {
    for (size_t c = 0; c < t->raw_chunks; c++) ct_free(t->raw[c]);
    ct_free(t->raw);
    for (size_t i = 0; i < t->names_n; i++) ct_free(t->names[i]);
    ct_free(t->names);
    ct_free(t->literals);
    ct_hindex_free(&t->names_ix);
    ct_free(t->mem);
    ct_prof_chunk *c = t->arena;
    while (c) {
        ct_prof_chunk *next = c->next;
        ct_free(c);
        c = next;
    }
    ct_free(t);
}

void ct_prof_recording_free(ct_profiler *p) {
    ct_prof_thread *t = p->threads;
    while (t) {
        ct_prof_thread *next = t->next;
        thread_free(t);
        t = next;
    }
    p->threads = NULL;
    p->threads_tail = &p->threads;
    p->n_threads = 0;
}

/* Note [Profiler threads]
 *   Each recording thread writes its own buffer (ct_prof_thread), so recording takes no lock.
 *   Without all_threads only the starting thread records, through ct_tls_profiler, and stops
 *   the profiler itself: nothing is shared. With all_threads the profiler is published in
 *   g_profiler; a thread's first event registers a buffer for it (under g_lock), and every hook
 *   on a thread other than the starting one brackets its work with its own busy flag (a slot
 *   of g_busy, one cache line each): it sets the flag, then reads g_profiler (both sequentially
 *   consistent). The stop clears g_profiler, then waits until every flag is down: a hook
 *   either saw the profiler gone or is waited for, so once the stop returns no thread touches
 *   the buffers and the reports read them freely. Ranges still open are closed at the stop.
 *   Threads beyond CT_PROF_BUSY_SLOTS share the last slot as a counter. The limit on ranges is
 *   handed to threads in blocks (one atomic operation per block), so it holds over all of them. */
#define CT_PROF_BUSY_SLOTS 255
typedef struct busy_slot {
    atomic_int busy;
    char pad[64 - sizeof(atomic_int)];
} busy_slot;
static busy_slot g_busy[CT_PROF_BUSY_SLOTS + 1];
static atomic_int g_next_slot;
static _Atomic(ct_profiler *) g_profiler;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int tls_slot = -1;
static _Thread_local ct_prof_thread *tls_buf;
static _Thread_local uint64_t tls_gen;
static atomic_ullong g_gen;

#define ALLOWANCE_BLOCK 256

static uint64_t os_tid(void) { return (uint64_t)syscall(SYS_gettid); }

ct_prof_thread *ct_prof_thread_new(ct_profiler *p) {
    ct_prof_thread *t = ct_calloc(1, sizeof *t);
    if (!t) return NULL;
    t->tid = os_tid();
    t->open[0] = -1;
    *p->threads_tail = t;
    p->threads_tail = &t->next;
    p->n_threads++;
    return t;
}

int ct_prof_global_start(ct_profiler *p) {
    pthread_mutex_lock(&g_lock);
    if (atomic_load(&g_profiler)) {
        pthread_mutex_unlock(&g_lock);
        return ct_error_set(CT_ERR_RUNTIME, "Profiler is already enabled.");
    }
    atomic_store(&g_profiler, p);
    atomic_fetch_or(&ct_global_observe, CT_OBSERVE_PROFILER);
    pthread_mutex_unlock(&g_lock);
    return 0;
}

void ct_prof_global_stop(ct_profiler *p) {
    pthread_mutex_lock(&g_lock);
    if (atomic_load(&g_profiler) == p) {
        atomic_store(&g_profiler, NULL);
        atomic_fetch_and(&ct_global_observe, ~CT_OBSERVE_PROFILER);
    }
    pthread_mutex_unlock(&g_lock);
    for (int s = 0; s <= CT_PROF_BUSY_SLOTS; s++)
        while (atomic_load(&g_busy[s].busy) != 0) sched_yield();
}

void ct_prof_close_open(ct_profiler *p) {
    for (ct_prof_thread *t = p->threads; t; t = t->next)
        for (; t->depth > 0; t->depth--) ct_prof_raw_at(t, (size_t)t->open[t->depth])->end_ns = p->stop_ticks;
}

/* this thread's buffer for p (all_threads; called with the busy flag up and p published) */
static ct_prof_thread *register_thread(ct_profiler *p) {
    pthread_mutex_lock(&g_lock);
    ct_prof_thread *t = atomic_load(&g_profiler) == p ? ct_prof_thread_new(p) : NULL;
    pthread_mutex_unlock(&g_lock);
    if (t) {
        tls_buf = t;
        tls_gen = p->gen;
    }
    return t;
}

uint64_t ct_prof_next_gen(void) { return atomic_fetch_add(&g_gen, 1) + 1; }

/* The buffer a hook on this thread records into, or NULL; *guard tells whether the busy flag
 * is up (release it with leave()). */
static inline ct_prof_thread *enter(ct_profiler **pp, int *guard) {
    ct_profiler *p = ct_tls_profiler;
    *guard = -1;
    if (__builtin_expect(p != NULL, 0)) {
        if (!atomic_load_explicit(&p->recording, memory_order_relaxed)) return NULL;
        *pp = p;
        return p->threads;
    }
    if (__builtin_expect(atomic_load_explicit(&g_profiler, memory_order_relaxed) == NULL, 1)) return NULL;
    int s = tls_slot;
    if (s < 0) {
        s = atomic_fetch_add(&g_next_slot, 1);
        if (s > CT_PROF_BUSY_SLOTS) s = CT_PROF_BUSY_SLOTS;
        tls_slot = s;
    }
    if (s == CT_PROF_BUSY_SLOTS) atomic_fetch_add(&g_busy[s].busy, 1);
    else atomic_store(&g_busy[s].busy, 1);
    *guard = s;
    p = atomic_load(&g_profiler);
    if (!p || !atomic_load_explicit(&p->recording, memory_order_relaxed)) goto none;
    ct_prof_thread *t = tls_buf;
    if (!t || tls_gen != p->gen) t = register_thread(p);
    if (!t) goto none;
    *pp = p;
    return t;
none:
    if (s == CT_PROF_BUSY_SLOTS) atomic_fetch_sub_explicit(&g_busy[s].busy, 1, memory_order_release);
    else atomic_store_explicit(&g_busy[s].busy, 0, memory_order_release);
    *guard = -1;
    return NULL;
}

static inline void leave(int guard) {
    if (__builtin_expect(guard < 0, 1)) return;
    if (guard == CT_PROF_BUSY_SLOTS) atomic_fetch_sub_explicit(&g_busy[guard].busy, 1, memory_order_release);
    else atomic_store_explicit(&g_busy[guard].busy, 0, memory_order_release);
}

/* may this thread record one more range? (the limit, over every thread) */
static bool take_one(ct_profiler *p, ct_prof_thread *t) {
    if (!p->cfg.all_threads) /* one thread: exact, whenever the limit changes */
        return (long long)t->n_raw < atomic_load_explicit(&p->max_events, memory_order_relaxed);
    if (t->allowance > 0) {
        t->allowance--;
        return true;
    }
    long long cur = atomic_load_explicit(&p->taken, memory_order_relaxed), k;
    do {
        long long lim = atomic_load_explicit(&p->max_events, memory_order_relaxed);
        if (cur >= lim) return false;
        k = lim - cur < ALLOWANCE_BLOCK ? lim - cur : ALLOWANCE_BLOCK;
    } while (!atomic_compare_exchange_weak(&p->taken, &cur, cur + k));
    t->allowance = k - 1;
    return true;
}

#define SAMPLE_MASK 63 /* the first 64 ranges, then every 64th, time their own hooks */

static inline void count(atomic_llong *c) {
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

/* A new range's fields, its parent the thread's innermost open range; the start time is set last,
 * by the caller (the range starts when the hook is done). */
static inline void init_event(ct_prof_raw *e, const ct_prof_thread *t, const char *name, ct_prof_scope scope,
                              int64_t seq, int fwd_tid, bool sampled) {
    e->name = name;
    e->end_ns = 0;
    e->parent = t->open[t->depth];
    e->scope = (uint8_t)scope;
    e->sequence_nr = seq;
    e->fwd_thread = (uint8_t)fwd_tid;
    e->sampled = sampled;
    e->has_inputs = false;
    e->pushed_frame = 0;
    e->inputs = NULL;
    e->inputs_len = 0;
    e->frame = t->frame;
}

static __attribute__((noinline)) int64_t push_event(ct_profiler *p, ct_prof_thread *t, const char *name,
                                                   ct_prof_scope scope, int64_t seq, int fwd_tid,
                                                   const ct_value *inputs, int n_inputs) {
    int64_t nrec = atomic_load_explicit(&t->raw_events, memory_order_relaxed);
    bool sample = nrec <= SAMPLE_MASK || (nrec & SAMPLE_MASK) == 0;
    int64_t t_in = sample ? ct_prof_ticks() : 0;
    ct_prof_raw *e = NULL;
    bool fits = t->depth < CT_PROF_MAX_DEPTH && take_one(p, t);
    if (fits && name) e = raw_slot(t, t->n_raw);
    if (!e) {
        count(fits ? &t->lost : &t->dropped); /* lost: no memory for the range or its name */
        return -1;
    }
    init_event(e, t, name, scope, seq, fwd_tid, sample);
    if (p->cfg.record_shapes && inputs) ct_prof_record_inputs(t, e, inputs, n_inputs);
    int32_t idx = (int32_t)t->n_raw++;
    t->open[++t->depth] = idx;
    count(&t->raw_events);
    int64_t now = ct_prof_ticks(); /* the range starts when the hook is done */
    e->start_ns = now;
    if (sample) t->sampled_ns += now - t_in; /* ticks, scaled when read */
    return idx;
}

static __attribute__((noinline)) void pop_event(ct_prof_thread *t, int64_t idx, int64_t now) {
    if (idx < 0 || (size_t)idx >= t->n_raw) return;
    ct_prof_raw *e = ct_prof_raw_at(t, (size_t)idx);
    e->end_ns = now;
    /* close anything left open inside (an error path) and this range */
    while (t->depth > 0) {
        int32_t top = t->open[t->depth--];
        if (top == idx) break;
        ct_prof_raw_at(t, (size_t)top)->end_ns = now;
    }
    if (e->sampled) {
        t->sampled_ns += ct_prof_ticks() - now;
        t->sampled_events++;
    }
    /* back to the frame before this range's own (also past frames of ranges left open inside) */
    if (e->pushed_frame && e->frame) t->frame = e->frame->up;
}

/* Note [Profiler fast path]
 *   Most ranges need none of push_event's cases: they are not in the timed sample, open no new
 *   chunk (a chunk starts at a multiple of 1024, so at a sampled range), are not too deep or
 *   over the limit, record no inputs, and their profiler records one thread only (no blocks of
 *   the limit to take: ct_profiler.plain). Both conditions on the range's number are one test:
 *   a range numbered 64 or more whose number is not a multiple of 64. Such a range is written
 *   by push_fast, inline in the hook, with the same fields push_event writes (init_event); it
 *   changes nothing before it knows the range is one of these, so any other range goes to
 *   push_event (the dispatcher's hook then runs the call on the general path). The closing
 *   edge likewise finishes a range on top of the stack inline (the usual case: ranges close
 *   in order), with the same effect as pop_event, which does the rest. The timed sample (Note
 *   [Profiler cost]) runs the general path, so ct_profiler_overhead_ns(), which scales it to
 *   every range, errs high by what the inline path saves. */

/* The fast case of push_event (Note [Profiler fast path]) for a range named `name` (not NULL):
 * the range's handle (its index + 1), or 0, having changed nothing, when push_event must record
 * it. */
static inline uintptr_t push_fast(ct_profiler *p, ct_prof_thread *t, const char *name, ct_prof_scope scope,
                                  int64_t seq, int fwd_tid) {
    size_t n = t->n_raw;
    int d = t->depth;
    if (__builtin_expect(n <= SAMPLE_MASK || (n & SAMPLE_MASK) == 0 || d >= CT_PROF_MAX_DEPTH || !p->plain ||
                             (long long)n >= atomic_load_explicit(&p->max_events, memory_order_relaxed),
                         0))
        return 0;
    ct_prof_raw *e = ct_prof_raw_at(t, n);
    init_event(e, t, name, scope, seq, fwd_tid, false);
    t->n_raw = n + 1;
    t->open[d + 1] = (int32_t)n;
    t->depth = d + 1;
    count(&t->raw_events);
    e->start_ns = ct_prof_ticks(); /* the range starts when the hook is done */
    return (uintptr_t)n + 1;
}

/* handles are event indices + 1, so NULL means "nothing recorded" */
static void *handle_of(int64_t idx) { return idx < 0 ? NULL : (void *)(intptr_t)(idx + 1); }

/* A range's handle (NULL when not recorded), through push_fast when it can. */
static inline void *push_range(ct_profiler *p, ct_prof_thread *t, const char *name, ct_prof_scope scope,
                               int64_t seq, int fwd_tid, const ct_value *inputs, int n_inputs) {
    uintptr_t h = name ? push_fast(p, t, name, scope, seq, fwd_tid) : 0;
    if (__builtin_expect(h != 0, 1)) return (void *)h;
    return handle_of(push_event(p, t, name, scope, seq, fwd_tid, inputs, n_inputs));
}

static inline void pop_range(ct_prof_thread *t, int64_t idx) {
    int64_t now = ct_prof_ticks(); /* the range ends when the hook starts */
    int d = t->depth;
    if (__builtin_expect(t->open[d] == idx, 1)) { /* idx >= 0, open[0] = -1 */
        ct_prof_raw *e = ct_prof_raw_at(t, (size_t)idx);
        if (__builtin_expect(!e->sampled && !e->pushed_frame, 1)) {
            e->end_ns = now;
            t->depth = d - 1;
            return;
        }
    }
    pop_event(t, idx, now);
}

/* Note [Profiler fast path]: each hook first tries the thread that started the profiler
 * (enter()'s first case: its own buffer, no busy flag), and leaves every other case to a
 * *_shared function that goes through enter() and leave(). */
static __attribute__((noinline)) void *begin_shared(const char *name, const ct_value *inputs, int n_inputs) {
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    if (!t) return NULL;
    void *h = push_range(p, t, name, CT_SCOPE_FUNCTION, -1, 0, inputs, n_inputs);
    leave(g);
    return h;
}

void *ct_record_function_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op) {
    (void)op;
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(p == NULL, 0)) return begin_shared(name, inputs, n_inputs);
    if (!atomic_load_explicit(&p->recording, memory_order_relaxed)) return NULL;
    return push_range(p, p->threads, name, CT_SCOPE_FUNCTION, -1, 0, inputs, n_inputs);
}

static inline void *seq_range(ct_profiler *p, ct_prof_thread *t, const char *prefix, const char *name,
                              const ct_value *inputs, int n_inputs, int64_t seq) {
    bool has_seq = seq >= 0 && (uint64_t)seq != UINT64_MAX;
    /* the forward thread's profiler id: threads are numbered from 1 as RecordFunction does */
    return push_range(p, t, intern_literal(t, prefix, name), CT_SCOPE_BACKWARD_FUNCTION, has_seq ? seq : -1,
                      has_seq ? 1 : 0, inputs, n_inputs);
}

static __attribute__((noinline)) void *begin_seq_shared(const char *prefix, const char *name,
                                                        const ct_value *inputs, int n_inputs, int64_t seq) {
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    if (!t) return NULL;
    void *h = seq_range(p, t, prefix, name, inputs, n_inputs, seq);
    leave(g);
    return h;
}

void *ct_record_function_begin_seq(const char *prefix, const char *name, const ct_value *inputs, int n_inputs,
                                   int64_t seq, uint64_t fwd_thread) {
    (void)fwd_thread;
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(p == NULL, 0)) return begin_seq_shared(prefix, name, inputs, n_inputs, seq);
    if (!atomic_load_explicit(&p->recording, memory_order_relaxed)) return NULL;
    return seq_range(p, p->threads, prefix, name, inputs, n_inputs, seq);
}

/* A located range's frame, "file(line): func", pushed for what runs inside it. */
static const ct_prof_frame *push_frame(ct_prof_thread *t, const char *file, int line, const char *func) {
    char num[16];
    snprintf(num, sizeof num, "(%d): ", line);
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_puts(&b, file);
    ct_sb_puts(&b, num);
    ct_sb_puts(&b, func ? func : "");
    char *s = ct_sb_finish(&b);
    const char *text = s ? intern_name(t, NULL, s) : NULL;
    ct_free(s);
    ct_prof_frame *f = text ? (ct_prof_frame *)ct_prof_arena_take(t, sizeof *f) : NULL;
    if (!f) return NULL;
    f->text = text;
    f->up = t->frame;
    t->frame = f;
    return f;
}

void *ct_record_user_scope_begin(const char *name, const char *file, int line, const char *func) {
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    if (!t) return NULL;
    const ct_prof_frame *f = file && p->cfg.with_stack ? push_frame(t, file, line, func) : NULL;
    int64_t idx = push_event(p, t, intern_name(t, NULL, name), CT_SCOPE_USER_SCOPE, -1, 0, NULL, 0);
    if (idx >= 0 && f) ct_prof_raw_at(t, (size_t)idx)->pushed_frame = 1;
    else if (f) t->frame = f->up;
    leave(g);
    return handle_of(idx);
}

static __attribute__((noinline)) void end_shared(void *handle) {
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    if (!t) return;
    pop_range(t, (int64_t)(intptr_t)handle - 1);
    leave(g);
}

static inline void end_range(void *handle) {
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(p == NULL, 0)) {
        end_shared(handle);
        return;
    }
    if (atomic_load_explicit(&p->recording, memory_order_relaxed)) pop_range(p->threads, (int64_t)(intptr_t)handle - 1);
}

void ct_record_function_end(void *handle) {
    if (handle) end_range(handle);
}

/* ---- profile_memory: the storages' allocations (core/alloc.h's reporter) ---- */

void ct_prof_on_memory(int64_t bytes);
void ct_prof_on_memory(int64_t bytes) {
    int64_t now = ct_prof_ticks();
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    if (!t) return;
    if (p->cfg.profile_memory) {
        if (t->n_mem == t->mem_cap) {
            size_t cap = t->mem_cap ? t->mem_cap * 2 : 256;
            ct_prof_mem *nm = (long long)cap <= atomic_load_explicit(&p->max_events, memory_order_relaxed)
                                  ? ct_realloc(t->mem, cap * sizeof *nm)
                                  : NULL;
            if (nm) {
                t->mem = nm;
                t->mem_cap = cap;
            }
        }
        if (t->n_mem < t->mem_cap) t->mem[t->n_mem++] = (ct_prof_mem){now, bytes};
        else count(&t->dropped);
    }
    leave(g);
}

/* ---- the dispatcher observer (Dispatcher::callWithDispatchKeySlowPath) ---- */

/* sequenceNumberForRunningRecordFunction: only when autograd keys take part and grad mode is on */
static inline int64_t call_seq(ct_keyset ks) {
    return (ks & CT_AUTOGRAD_KEYSET) && !ct_tls_state.grad_disabled ? (int64_t)ct_sequence_number_peek() : -1;
}

static inline void *call_range(ct_profiler *p, ct_prof_thread *t, const ct_op *op, const ct_value *args,
                               ct_keyset ks) {
    return push_range(p, t, op->base_name, CT_SCOPE_FUNCTION, call_seq(ks), 0, args, op->nargs);
}

static __attribute__((noinline)) int call_shared(const ct_op *op, ct_keyset ks, ct_kernel_fn k, ct_value *args,
                                                 ct_value *rets) {
    ct_profiler *p;
    int g;
    ct_prof_thread *t = enter(&p, &g);
    void *h = t ? call_range(p, t, op, args, ks) : NULL;
    if (t) leave(g);
    int rc = k(op, ks, args, rets);
    ct_record_function_end(h);
    return rc;
}

/* The dispatcher's hook (ct_call_observer.around): the call's range around its kernel. The
 * range's end looks the profiler up again, as ct_record_function_end does: the kernel may have
 * stopped it. */
static int on_call(const ct_op *op, ct_keyset ks, ct_kernel_fn k, ct_value *args, ct_value *rets) {
    if (op->unobserved) return k(op, ks, args, rets);
    ct_profiler *p = ct_tls_profiler;
    if (__builtin_expect(p != NULL, 1) && atomic_load_explicit(&p->recording, memory_order_relaxed)) {
        /* a registered op always has its base name */
        uintptr_t h = push_fast(p, p->threads, op->base_name, CT_SCOPE_FUNCTION, call_seq(ks), 0);
        if (__builtin_expect(h != 0, 1)) {
            int rc = k(op, ks, args, rets);
            end_range((void *)h);
            return rc;
        }
    }
    return call_shared(op, ks, k, args, rets); /* also a profiler not recording: enter() says so */
}

/* Written once, by the start-up (src/profiler/register.c), before any profiler can start. */
void ct_profiler_install_observer(void) {
    ct_profiler_observer.around = on_call;
    ct_alloc_reporter = ct_prof_on_memory;
}
