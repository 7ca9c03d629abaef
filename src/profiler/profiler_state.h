/* The profiler object and the recorder's entry points (internal). */
#ifndef CT_PROFILER_STATE_H
#define CT_PROFILER_STATE_H

#include "ctorch/profiler.h"
#include "profiler/profiler_impl.h"

#define CT_PROF_MAX_DEPTH 512

struct ct_profiler {
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
/* Opens a user range (record_function) on this thread's profiler; NULL if none records. */
void *ct_record_user_scope_begin(const char *name);

#endif
