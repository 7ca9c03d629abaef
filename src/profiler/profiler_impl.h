/* The profiler's event list (internal): what the recorder collects and what the aggregation,
 * table, CSV/JSON and Chrome-trace writers read. */
#ifndef CT_PROFILER_IMPL_H
#define CT_PROFILER_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/kernels.h"

/* Registers the kernels of the record_function operators (record_function_ops.cpp). Run once
 * by the start-up (src/profiler/register.c). */
void ct_profiler_register(void);
CT_KERNEL(ct_k_record_function_enter_new); /* profiler::_record_function_enter_new */
CT_KERNEL(ct_k_record_function_exit);      /* profiler::_record_function_exit._RecordFunction */

/* RecordScope of the range (at::RecordScope). */
typedef enum ct_prof_scope {
    CT_SCOPE_FUNCTION = 0,          /* a dispatcher call (aten::addmm) or an internal range (detach) */
    CT_SCOPE_BACKWARD_FUNCTION = 1, /* autograd::engine::evaluate_function: X and the node X */
    CT_SCOPE_USER_SCOPE = 3         /* record_function ranges */
} ct_prof_scope;

/* One recorded range, like torch.autograd.profiler_util.FunctionEvent. Times in nanoseconds
 * on CLOCK_MONOTONIC; strings owned by the profiler. */
typedef struct ct_prof_event {
    char *name;             /* "aten::addmm", "autograd::engine::evaluate_function: AddmmBackward0" */
    bool owns_name;         /* name is the profiler's (else it points at a name that lives forever) */
    int64_t start_ns, end_ns;
    int64_t parent;         /* index of the enclosing event on the same thread, -1 for top level */
    uint64_t thread_id;     /* OS thread id */
    ct_prof_scope scope;
    int64_t sequence_nr;    /* -1 when none */
    int64_t fwd_thread_id;  /* backward ranges: the forward thread's profiler id; 0 otherwise */
    bool has_inputs;        /* record_shapes was on and the range had inputs */
    const unsigned char *raw_inputs; /* the inputs as recorded (profiler arena), formatted later */
    uint32_t raw_len;
    /* record_shapes, as the profiler prints them; NULL when not recorded */
    char *input_shapes;     /* str(evt.input_shapes): "[[600], [2, 64], [64, 600], [], []]" */
    char *input_types;      /* JSON list: ["float", "float", "Scalar", "ScalarList", ""] */
    char *input_strides;    /* JSON list of lists */
    char *concrete_inputs;  /* JSON list of strings: ["", "", "1", "[64, 600]"] */
    bool removed;           /* merged into its parent by _remove_dup_nodes */
} ct_prof_event;

typedef struct ct_prof_events {
    ct_prof_event *ev;
    size_t n, cap;
} ct_prof_events;

#endif
