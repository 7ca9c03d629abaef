/* The profiler object and the recorder's entry points (internal). */
#ifndef CT_PROFILER_STATE_H
#define CT_PROFILER_STATE_H

#include <stdatomic.h>

#include "ctorch/profiler.h"
#include "profiler/profiler_impl.h"
#include "util/hindex.h"

#define CT_PROF_MAX_DEPTH 512

/* Append-only memory for recorded inputs: chunks never move, so events can point into them. */
typedef struct ct_prof_chunk {
    struct ct_prof_chunk *next;
    size_t used, cap;
    unsigned char data[];
} ct_prof_chunk;

struct ct_prof_frame;

/* What recording keeps of a range (Note [Profiler recording] in record.c); turned into
 * ct_prof_event when a report is first asked for. */
typedef struct ct_prof_raw {
    const char *name;             /* immortal (an op's name, a literal) or the thread's name table */
    int64_t start_ns, end_ns;     /* ticks (Note [Profiler clock] in record.c) */
    int64_t sequence_nr;          /* -1 when none */
    const unsigned char *inputs;  /* record_shapes: the inputs as recorded (arena), NULL if none */
    const struct ct_prof_frame *frame; /* with_stack: the innermost located range's frame, or NULL */
    uint32_t inputs_len;
    int32_t parent;               /* index of the enclosing range on its thread, -1 at top level */
    uint8_t scope;                /* ct_prof_scope */
    uint8_t fwd_thread;           /* forward thread's profiler id (0 or 1) */
    uint8_t has_inputs;
    uint8_t sampled;              /* this range's hooks are timed (Note [Profiler cost]) */
    uint8_t pushed_frame;         /* a located range: its end pops its frame */
} ct_prof_raw;

_Static_assert(sizeof(ct_prof_raw) == 64, "a range is one cache line");

#define CT_PROF_RAW_CHUNK_SHIFT 10 /* 1024 ranges (64 KiB) per chunk */

/* A with_stack frame: "file(line): func" (interned), and the frame that encloses it. */
typedef struct ct_prof_frame {
    const char *text;
    const struct ct_prof_frame *up;
} ct_prof_frame;

/* profile_memory: a storage allocated (bytes > 0) or freed (bytes < 0) on a recording thread. */
typedef struct ct_prof_mem {
    int64_t ticks;
    int64_t bytes;
} ct_prof_mem;

/* One recording thread's buffer (Note [Profiler threads] in record.c): written only by its
 * thread while the profiler records, read by reports after the stop. */
typedef struct ct_prof_thread {
    struct ct_prof_thread *next;  /* the profiler's threads, in the order they first recorded */
    uint64_t tid;                 /* OS thread id (the Chrome trace's tid) */
    ct_prof_chunk *arena;
    ct_prof_raw **raw;            /* chunks of 1 << CT_PROF_RAW_CHUNK_SHIFT ranges */
    size_t raw_chunks, raw_chunks_cap;
    size_t n_raw;                 /* ranges recorded */
    int64_t allowance;            /* ranges this thread may still record before asking the pool */
    char **names;                 /* owned copies of names that are not immortal, in order made */
    size_t names_n, names_cap;
    ct_hindex names_ix;           /* name -> its copy */
    struct ct_prof_name_memo {    /* the last copies found for a (prefix, name) pair of pointers */
        const char *prefix, *name, *copy;
        size_t prefix_len;
    } name_memo[64][2];
    struct ct_prof_literal {      /* (prefix, name) pointers -> copy, for names that live as long as the
                                   * process; open addressing, an empty slot has no copy */
        const char *prefix, *name, *copy;
    } *literals;
    size_t literals_n, literals_cap; /* cap: 0 or a power of two, at most half full */
    int32_t open[CT_PROF_MAX_DEPTH + 1]; /* open[1..depth]: the open ranges, innermost last; open[0] = -1
                                          * (so open[depth] is the next range's parent) */
    int depth;
    const ct_prof_frame *frame;   /* with_stack: the innermost located range's frame, or NULL */
    ct_prof_mem *mem;             /* profile_memory records, in time order */
    size_t n_mem, mem_cap;
    int64_t sampled_ns, sampled_events; /* hook time (ticks) of the timed sample of ranges */
    atomic_llong raw_events;      /* ranges recorded (read while recording: relaxed) */
    atomic_llong dropped;         /* ranges (and memory records) not recorded: over the limit or nested too deep */
    atomic_llong lost;            /* ranges or their inputs not recorded for want of memory: the
                                   * recording is incomplete, so the stop and every report fail */
} ct_prof_thread;

struct ct_profiler {
    ct_profiler_config cfg;
    bool plain;                   /* neither record_shapes nor all_threads (Note [Profiler fast path]) */
    atomic_bool recording;
    uint64_t gen;                 /* unique per profiler: a thread's buffer belongs to this one */
    ct_prof_thread *threads, **threads_tail; /* the starting thread's first */
    int n_threads;
    atomic_llong taken;           /* ranges handed out to threads (all_threads) */
    atomic_llong max_events;
    bool finalized;               /* events built, inputs formatted, duplicate nodes merged */
    ct_prof_events evs;           /* built from raw by the first report */
    bool overhead_footer;         /* ct_profiler_table adds the profiler's own cost under the total */
    int64_t start_ns, stop_ns;    /* CLOCK_MONOTONIC */
    int64_t start_ticks, stop_ticks;
    int64_t start_call_ns, stop_call_ns; /* what starting and stopping took */
};

extern _Thread_local ct_profiler *ct_tls_profiler;
int64_t ct_prof_now_ns(void);
/* CLOCK_REALTIME in nanoseconds (a fixed time under ct_testing_profiler_fake_clock). */
int64_t ct_prof_real_ns(void);
/* The clock ranges are stamped with, and nanoseconds per tick of it for p. */
int64_t ct_prof_ticks(void);
double ct_prof_ns_per_tick(const ct_profiler *p);
void ct_profiler_install_observer(void);
static inline ct_prof_raw *ct_prof_raw_at(ct_prof_thread *t, size_t i) {
    return &t->raw[i >> CT_PROF_RAW_CHUNK_SHIFT][i & (((size_t)1 << CT_PROF_RAW_CHUNK_SHIFT) - 1)];
}
/* Makes this thread's buffer for p (the starting thread's, at start). NULL when out of memory. */
ct_prof_thread *ct_prof_thread_new(ct_profiler *p);
/* all_threads: publishes p to every thread (0, or -1 when another records everywhere) and
 * withdraws it, waiting for hooks in flight on other threads. */
int ct_prof_global_start(ct_profiler *p);
void ct_prof_global_stop(ct_profiler *p);
/* A number no other profiler of this process has. */
uint64_t ct_prof_next_gen(void);
/* Every thread's open ranges closed at the stop. */
void ct_prof_close_open(ct_profiler *p);
/* Builds p->evs from the recorded ranges. 0 or -1 (CT_ERR_NOMEM). */
int ct_prof_build_events(ct_profiler *p);
/* A recorded tick as CLOCK_MONOTONIC nanoseconds, given ct_prof_ns_per_tick(p)
 * (Note [Profiler clock] in record.c). */
static inline int64_t ct_prof_ticks_to_ns(const ct_profiler *p, double scale, int64_t t) {
    return p->start_ns + (int64_t)((double)(t - p->start_ticks) * scale + 0.5);
}
/* The results, built once recording has stopped (Note [Results read while recording] in
 * profiler.c: a profiler still recording has none, and callers check p->recording). 0 or -1. */
int ct_prof_finalize(ct_profiler *p);
/* n bytes of t's arena (they never move), or NULL when out of memory. */
unsigned char *ct_prof_arena_take(ct_prof_thread *t, size_t n);
/* record_shapes: copies the n inputs into t's arena for e (no shapes kept when out of memory). */
void ct_prof_record_inputs(ct_prof_thread *t, ct_prof_raw *e, const ct_value *in, int n);
/* Turns every event's raw inputs into the strings reports print (record_shapes). 0 or -1. */
int ct_prof_format_inputs(ct_profiler *p);
/* Frees the recorded ranges, the input arena and the name table. */
void ct_prof_recording_free(ct_profiler *p);
/* Opens a user range (record_function) on this thread's profiler; NULL if none records. With
 * file set and with_stack on, the range is a source frame for what runs inside it. */
void *ct_record_user_scope_begin(const char *name, const char *file, int line, const char *func);

#endif
