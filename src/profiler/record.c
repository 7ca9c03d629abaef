/* RecordFunction ranges (until the profiler records them, they cost one branch). */
#include "profiler/record.h"

void *ct_record_function_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op) {
    (void)name;
    (void)inputs;
    (void)n_inputs;
    (void)op;
    return NULL;
}

void *ct_record_function_begin_seq(const char *name, const ct_value *inputs, int n_inputs, int64_t seq,
                                   uint64_t fwd_thread) {
    (void)name;
    (void)inputs;
    (void)n_inputs;
    (void)seq;
    (void)fwd_thread;
    return NULL;
}

void ct_record_function_end(void *handle) { (void)handle; }
