/* The profiler object and the recorder's entry points (internal). */
#ifndef CT_PROFILER_STATE_H
#define CT_PROFILER_STATE_H

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

/* What recording keeps of a range (Note [Profiler recording] in record.c); turned into
 * ct_prof_event when a report is first asked for. */
typedef struct ct_prof_raw {
    const char *name;             /* immortal (an op's name, a literal) or the profiler's name table */
    int64_t start_ns, end_ns;     /* ticks (Note [Profiler clock] in record.c) */
    int64_t sequence_nr;          /* -1 when none */
    const unsigned char *inputs;  /* record_shapes: the inputs as recorded (arena), NULL if none */
    uint32_t inputs_len;
    int32_t parent;               /* index of the enclosing range, -1 at top level */
    uint8_t scope;                /* ct_prof_scope */
    uint8_t fwd_thread;           /* forward thread's profiler id (0 or 1) */
    uint8_t has_inputs;
    uint8_t sampled;              /* this range's hooks are timed (Note [Profiler cost]) */
} ct_prof_raw;

#define CT_PROF_RAW_CHUNK_SHIFT 10 /* 1024 ranges (56 KiB) per chunk */

struct ct_profiler {
    ct_prof_chunk *arena;
    ct_prof_raw **raw;            /* chunks of 1 << CT_PROF_RAW_CHUNK_SHIFT ranges */
    size_t raw_chunks, raw_chunks_cap;
    size_t n_raw;                 /* ranges recorded */
    size_t max_events;
    int64_t dropped;              /* ranges not recorded: over max_events or nested too deep */
    int64_t lost;                 /* ranges or their inputs not recorded for want of memory: the
                                   * recording is incomplete, so stop and every report fail */
    char **names;                 /* owned copies of names that are not immortal, in order made */
    size_t names_n, names_cap;
    ct_hindex names_ix;           /* name -> its copy */
    bool record_shapes;
    bool recording;
    bool finalized;               /* events built, inputs formatted, duplicate nodes merged */
    ct_prof_events evs;           /* built from raw by the first report */
    int32_t stack[CT_PROF_MAX_DEPTH];
    int depth;
    uint64_t thread_id;
    int64_t sampled_ns, sampled_events; /* hook time (ticks) of the timed sample of ranges */
    int64_t raw_events;
    bool overhead_footer;         /* ct_profiler_table adds the profiler's own cost under the total */
    int64_t start_ns, stop_ns;    /* CLOCK_MONOTONIC */
    int64_t start_ticks, stop_ticks;
};

extern _Thread_local ct_profiler *ct_tls_profiler;
int64_t ct_prof_now_ns(void);
/* CLOCK_REALTIME in nanoseconds (a fixed time under ct_testing_profiler_fake_clock). */
int64_t ct_prof_real_ns(void);
/* The clock ranges are stamped with, and nanoseconds per tick of it for p. */
int64_t ct_prof_ticks(void);
double ct_prof_ns_per_tick(const ct_profiler *p);
void ct_profiler_install_observer(void);
static inline ct_prof_raw *ct_prof_raw_at(ct_profiler *p, size_t i) {
    return &p->raw[i >> CT_PROF_RAW_CHUNK_SHIFT][i & (((size_t)1 << CT_PROF_RAW_CHUNK_SHIFT) - 1)];
}
/* Builds p->evs from the recorded ranges. 0 or -1 (CT_ERR_NOMEM). */
int ct_prof_build_events(ct_profiler *p);
/* Turns every event's raw inputs into the strings reports print (record_shapes). 0 or -1. */
int ct_prof_format_inputs(ct_profiler *p);
/* Frees the recorded ranges, the input arena and the name table. */
void ct_prof_recording_free(ct_profiler *p);
/* Opens a user range (record_function) on this thread's profiler; NULL if none records. */
void *ct_record_user_scope_begin(const char *name);

#endif
