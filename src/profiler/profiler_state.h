/* The profiler object and the recorder's entry points (internal). */
#ifndef CT_PROFILER_STATE_H
#define CT_PROFILER_STATE_H

#include "ctorch/profiler.h"
#include "profiler/profiler_impl.h"

#define CT_PROF_MAX_DEPTH 512

/* Append-only memory for recorded inputs: chunks never move, so events can point into them. */
typedef struct ct_prof_chunk {
    struct ct_prof_chunk *next;
    size_t used, cap;
    unsigned char data[];
} ct_prof_chunk;

struct ct_profiler {
    ct_prof_chunk *arena;
    bool record_shapes;
    bool recording;
    bool finalized;       /* duplicate-node merging done */
    ct_prof_events evs;
    int64_t stack[CT_PROF_MAX_DEPTH];
    int depth;
    uint64_t thread_id;
    int64_t overhead_ns;
    int64_t raw_events;
    int64_t start_ns, stop_ns;
};

extern _Thread_local ct_profiler *ct_tls_profiler;
int64_t ct_prof_now_ns(void);
void ct_profiler_install_observer(void);
/* Turns every event's raw inputs into the strings reports print (record_shapes). 0 or -1. */
int ct_prof_format_inputs(ct_profiler *p);
void ct_prof_arena_free(ct_profiler *p);
/* Opens a user range (record_function) on this thread's profiler; NULL if none records. */
void *ct_record_user_scope_begin(const char *name);

#endif
