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
 * freed with ct_free. A profiler records the thread that started it.
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
/* Stops recording (leaving the with block). Returns 0, or -1: CT_ERR_NOMEM when memory ran out
 * while recording (a range, its name or its inputs could not be kept), in which case the
 * recording is incomplete and every report below fails with the same error rather than show
 * part of it (recording still stops). */
CT_API int ct_profiler_stop(ct_profiler *p);
CT_API void ct_profiler_free(ct_profiler *p);

/* prof.key_averages(group_by_input_shape).table(sort_by=..., row_limit=...): PyTorch's layout.
 * sort_by may be NULL (no sorting), "cpu_time_total", "self_cpu_time_total", "count", ... */
CT_API char *ct_profiler_table(ct_profiler *p, const char *sort_by, int row_limit, bool group_by_input_shape);
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
 * "outer;...;name value" with the value in whole microseconds. PyTorch's frames are Python's
 * (with_stack=True); a C program has none to offer cheaply, so ctorch's frames are the ranges
 * that enclose the range (aten::linear;aten::addmm), which is what a flame graph of ops shows.
 * metric: "self_cpu_time_total" (NULL: the default, as PyTorch's) or "cpu_time_total";
 * anything else is CT_ERR_VALUE. Spaces in names become '_' and ';' becomes ','. 0 or -1. */
CT_API int ct_profiler_export_stacks(ct_profiler *p, const char *path, const char *metric);
/* The same text as a string (ct_free), or NULL. */
CT_API char *ct_profiler_stacks(ct_profiler *p, const char *metric);
/* With on, ct_profiler_table ends with the profiler's own cost under "Self CPU time total":
 *   Profiler overhead (estimated): 62.380us over 66 ranges, 945ns each (timed on 66 of them)
 * (ct_profiler_overhead_ns; and the ranges dropped, if any). Off by default, so the table is
 * PyTorch's byte for byte. 0, or -1 (CT_ERR_VALUE) when p is NULL. */
CT_API int ct_profiler_set_overhead_footer(ct_profiler *p, bool on);

/* Number of events recorded (after PyTorch's filtering and duplicate-node merging). */
CT_API size_t ct_profiler_num_events(ct_profiler *p);
/* What recording cost: nanoseconds spent inside the profiler's hooks (measured on the first 64
 * ranges and every 64th after them, and scaled to all of them), and ranges recorded. */
CT_API int64_t ct_profiler_overhead_ns(const ct_profiler *p);
CT_API int64_t ct_profiler_raw_event_count(const ct_profiler *p);

/* Memory is bounded: a profiler records at most max_events ranges (56 bytes each, plus their
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
CT_API int ct_record_function_exit(ct_record_function *rf);

#ifdef __cplusplus
}
#endif
#endif
