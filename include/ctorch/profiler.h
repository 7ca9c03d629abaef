/*
 * ctorch/profiler.h - the profiler (torch.profiler.profile / torch.autograd.profiler.profile).
 *
 * While a profiler records on a thread, every dispatcher call (never a redispatch) is an event
 * named like PyTorch's (aten::linear, aten::addmm, ...), so composite ops contain their
 * constituents; the autograd engine adds "autograd::engine::evaluate_function: <Node>" with the
 * node's own range inside; record_function ranges (ct_record_function_enter) are user ranges.
 * With record_shapes, each event keeps its inputs' shapes, types, strides and scalar values as
 * PyTorch prints them. Forward ops that ran with autograd keys carry the autograd sequence
 * number that links them to their backward node.
 *
 * Reports: key_averages tables laid out exactly like PyTorch's, the same rows as CSV and JSON,
 * the event tree, and a Chrome trace in the Kineto shape (docs/profiler.md has the schema).
 *
 * Ownership: a ct_profiler is owned by the caller (ct_profiler_free). Strings returned are to be
 * freed with ct_free. A profiler records the thread that started it, as torch.profiler.profile
 * does (its RecordFunction callbacks are thread-local: a threading.Thread started inside the
 * with block is not recorded); with all_threads it records every thread that runs ops while it
 * is on, as PyTorch's global (on-demand) profiler state does. Start and stop a profiler on the
 * same thread.
 */
#ifndef CTORCH_PROFILER_H
#define CTORCH_PROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_profiler ct_profiler;

/* Starts recording this thread (with torch.profiler.profile(record_shapes=...):). At most one
 * profiler records a thread at a time. New profiler or NULL with an error. */
CT_API ct_profiler *ct_profiler_start(bool record_shapes);

/* torch.profiler.profile's options. */
typedef struct ct_profiler_config {
    bool record_shapes;  /* inputs' shapes, types, strides, scalar values */
    bool profile_memory; /* storage allocations and frees: the "CPU Mem" / "Self CPU Mem" columns */
    bool with_stack;     /* source frames of located ranges (CT_RECORD_FUNCTION): "Source Location" */
    bool all_threads;    /* every thread's ops, not only the starting thread's (at most one such
                            profiler at a time: "Profiler is already enabled." otherwise) */
} ct_profiler_config;
/* Starts a profiler with these options (NULL: all off). New profiler or NULL with an error. */
CT_API ct_profiler *ct_profiler_start_config(const ct_profiler_config *config);
/* Stops recording (leaving the with block). Returns 0, or -1: CT_ERR_NOMEM when memory ran out
 * while recording (a range, its name or its inputs could not be kept), in which case the
 * recording is incomplete and every report below fails with the same error rather than show
 * part of it (recording still stops). */
CT_API int ct_profiler_stop(ct_profiler *p);
CT_API void ct_profiler_free(ct_profiler *p);

/* prof.key_averages(group_by_input_shape).table(sort_by=..., row_limit=...): PyTorch's layout.
 * sort_by may be NULL (no sorting), "cpu_time_total", "self_cpu_time_total", "count", ... */
CT_API char *ct_profiler_table(ct_profiler *p, const char *sort_by, int row_limit, bool group_by_input_shape);
/* key_averages(group_by_input_shape, group_by_stack_n).table(...): rows also keyed by the first
 * group_by_stack_n source frames (with_stack), shown in PyTorch's "Source Location" column. */
CT_API char *ct_profiler_table_ex(ct_profiler *p, const char *sort_by, int row_limit, bool group_by_input_shape,
                                  int group_by_stack_n);
/* The same rows as CSV / JSON (docs/profiler.md). */
CT_API char *ct_profiler_table_csv(ct_profiler *p, const char *sort_by, int row_limit, bool group_by_input_shape);
CT_API char *ct_profiler_table_json(ct_profiler *p, const char *sort_by, int row_limit, bool group_by_input_shape);
/* The event tree: one line per event, "  " per depth, name, then "  " and the input shapes when
 * recorded (the format of the recorded reference trees). */
CT_API char *ct_profiler_tree(ct_profiler *p);
/* prof.export_chrome_trace(path): writes the trace atomically. 0 or -1 (CT_ERR_IO). */
CT_API int ct_profiler_export_chrome_trace(ct_profiler *p, const char *path);
/* The trace as a string (ct_free). */
CT_API char *ct_profiler_chrome_trace(ct_profiler *p, const char *trace_name);

/* prof.export_stacks(path, metric): the collapsed-stack format flame-graph tools read
 * (flamegraph.pl, speedscope, Perfetto): one line per range whose metric is at least 1 us,
 * "outer;...;inner value" with the value in whole microseconds. With with_stack and located
 * ranges (CT_RECORD_FUNCTION), PyTorch's lines: the ranges that have source frames, their
 * frames outermost first ("file(line):_func", ' ', ';', tab and newline as '_'). Otherwise
 * (PyTorch writes nothing then) the frames are the ranges that enclose the range
 * (aten::linear;aten::addmm), which is what a flame graph of ops shows.
 * metric: "self_cpu_time_total" (NULL: the default, as PyTorch's), PyTorch's device metrics
 * "self_cuda_time_total", "self_xpu_time_total", "self_privateuse1_time_total" (no range has
 * device time here: nothing is written, as PyTorch writes nothing for them on a CPU run), or
 * ctorch's "cpu_time_total"; anything else is PyTorch's ValueError ("metric should be one of:
 * [...]"). Spaces in names become '_' and ';' becomes ','. 0 or -1. */
CT_API int ct_profiler_export_stacks(ct_profiler *p, const char *path, const char *metric);
/* The same text as a string (ct_free), or NULL. */
CT_API char *ct_profiler_stacks(ct_profiler *p, const char *metric);
/* With on, ct_profiler_table ends with the profiler's own cost under "Self CPU time total":
 *   Profiler overhead (estimated): 62.380us over 66 ranges, 945ns each (timed on 66 of them)
 *   Profiler start: 1.234us, stop: 0.456us
 * (ct_profiler_overhead_ns, ct_profiler_get_stats; and the ranges dropped, if any). PyTorch
 * 2.6's table prints nothing about overhead (its footer is "Self CPU time total" alone; the
 * profiler's own cost is kept apart, in prof._stats), so this is off by default and the table
 * is PyTorch's byte for byte. 0, or -1 (CT_ERR_VALUE) when p is NULL. */
CT_API int ct_profiler_set_overhead_footer(ct_profiler *p, bool on);

/* torch.autograd.profiler.profile._stats (_ProfilerStats), measured on this run. */
typedef struct ct_profiler_stats {
    int64_t profiler_enable_call_duration_ns;  /* ct_profiler_start's own time */
    int64_t profiler_disable_call_duration_ns; /* ct_profiler_stop's own time */
    int64_t profiling_window_duration_ns;      /* start to stop */
    int64_t number_of_events;                  /* ranges recorded, every thread */
    int64_t number_of_threads;                 /* threads that recorded */
    int64_t overhead_ns;                       /* ct_profiler_overhead_ns */
} ct_profiler_stats;
/* Fills *out. 0, or -1 (CT_ERR_VALUE: p or out NULL). */
CT_API int ct_profiler_get_stats(const ct_profiler *p, ct_profiler_stats *out);

/* Number of events recorded (after PyTorch's filtering and duplicate-node merging). */
CT_API size_t ct_profiler_num_events(ct_profiler *p);

/* One event of prof.function_events (torch.autograd.profiler_util.FunctionEvent). Strings are
 * owned by the profiler and live until ct_profiler_free. */
typedef struct ct_profiler_event_info {
    const char *name;          /* "aten::addmm", "autograd::engine::evaluate_function: AddmmBackward0" */
    int64_t parent;            /* index of the enclosing event (cpu_parent), -1 at top level */
    int64_t start_ns, end_ns;  /* CLOCK_MONOTONIC */
    uint64_t thread_id;
    int64_t sequence_nr;       /* -1 when none */
    const char *input_shapes;  /* str(evt.input_shapes), "[[600], [2, 64]]"; NULL without record_shapes */
} ct_profiler_event_info;

/* Event i (0 <= i < ct_profiler_num_events(p)), in start order (parents before children): the
 * same events the tables and the tree show. Returns 0, or -1 with an error (profiler still
 * recording, NULL argument, or an IndexError for i out of range). */
CT_API int ct_profiler_event(ct_profiler *p, size_t i, ct_profiler_event_info *out);
/* What recording cost: nanoseconds spent inside the profiler's hooks (measured on the first 64
 * ranges and every 64th after them, and scaled to all of them), and ranges recorded. */
CT_API int64_t ct_profiler_overhead_ns(const ct_profiler *p);
CT_API int64_t ct_profiler_raw_event_count(const ct_profiler *p);

/* Memory is bounded: a profiler records at most max_events ranges (64 bytes each, plus their
 * inputs with record_shapes), CT_PROFILER_DEFAULT_MAX_EVENTS unless set; ranges past the limit,
 * or nested deeper than 512, are not recorded and are counted. Reports then cover the ranges
 * recorded. */
#define CT_PROFILER_DEFAULT_MAX_EVENTS ((size_t)1 << 20)
#define CT_PROFILER_MAX_EVENTS_LIMIT ((size_t)1 << 31)
/* Sets p's limit (0 records nothing more); ranges already recorded stay. 0, or -1
 * (CT_ERR_VALUE) when p is NULL or max_events is over CT_PROFILER_MAX_EVENTS_LIMIT. */
CT_API int ct_profiler_set_max_events(ct_profiler *p, size_t max_events);
/* Ranges not recorded because of the limit or the nesting depth. */
CT_API int64_t ct_profiler_dropped_events(const ct_profiler *p);

/* with torch.profiler.record_function(name): dispatches profiler::_record_function_enter_new
 * (seen by dispatch modes) and opens a user range; exit dispatches
 * profiler::_record_function_exit._RecordFunction and closes it. */
typedef struct ct_record_function ct_record_function;
CT_API ct_record_function *ct_record_function_enter(const char *name);
/* The same range, located at file:line in func: under a with_stack profiler it is a source
 * frame "file(line): func" of itself and of every event inside it (PyTorch's evt.stack,
 * innermost first). file may be NULL (no frame). CT_RECORD_FUNCTION(name) locates it where
 * the macro is written. */
CT_API ct_record_function *ct_record_function_enter_at(const char *name, const char *file, int line,
                                                       const char *func);
#define CT_RECORD_FUNCTION(name) ct_record_function_enter_at((name), __FILE__, __LINE__, __func__)
CT_API int ct_record_function_exit(ct_record_function *rf);

#ifdef __cplusplus
}
#endif
#endif
