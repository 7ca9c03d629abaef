/*
 * profiler/aggregate.h - the profiler's aggregation and reports (internal): PyTorch 2.6's
 * EventList._remove_dup_nodes, EventList.key_averages and EventList.table (_build_table in
 * torch/autograd/profiler_util.py), byte for byte for CPU-only events without memory, stacks,
 * flops or node ids; plus the same rows as CSV and JSON.
 *
 * Times. The recorder stores integer nanoseconds. PyTorch turns them into microseconds per
 * event as rel_start_ns / 1000 and rel_end_ns / 1000 (doubles, relative to the trace start;
 * torch.autograd.profiler.profile._parse_kineto_results), and an event's cpu_time_total is
 * end_us - start_us. Everything after that is double arithmetic whose order decides the last
 * printed digit when a value sits on a rounding tie (1234.5 us prints as 1.234ms or 1.235ms
 * depending on the bits), so this file reproduces it operation for operation:
 *   - self time = total - sum(children's totals), where Python's sum() of floats (3.12+) is
 *     Neumaier-compensated and starts from the int 0;
 *   - FunctionEventAvg adds totals and self times event by event, in event order;
 *   - the table's "Self CPU time total" adds the rows' self times in the table's (sorted) order;
 *   - percentages are time * 100.0 / total, averages 1.0 * total / count.
 * For the rounding to be PyTorch's, start_ns/end_ns must be measured from the trace start
 * (ct_prof_key_averages_since subtracts it; ct_prof_key_averages takes the times as they are).
 *
 * Event order. PyTorch sorts the events by (start, -end), stably, before it builds the tree;
 * _remove_dup_nodes and key_averages walk that order, and children add up in it. Both
 * functions here walk the events in that order whatever order the list is in (already sorted,
 * as the recorder appends at range start, it is the list's own order).
 *
 * Names. As in _parse_kineto_results, events whose name _filter_name drops ("[memory]",
 * "[OutOfMemory]", "profiler::_record_function_enter", "profiler::_record_function_enter_new",
 * "profiler::_record_function_exit", "aten::is_leaf", "aten::output_nr", "aten::_version") do
 * not exist for the aggregation, and _rewrite_name(with_wildcard=True) shows every
 * "ProfilerStep#<anything>" as "ProfilerStep*" (C++ demangling, the other half of
 * _rewrite_name, does not apply to ctorch's names).
 *
 * Errors: functions returning int give 0 or -1, those returning a string give it or NULL; on
 * failure the thread's error is set (CT_ERR_VALUE for bad arguments, CT_ERR_NOMEM) and the
 * outputs are left empty. Nothing aborts.
 */
#ifndef CT_PROFILER_AGGREGATE_H
#define CT_PROFILER_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profiler/profiler_impl.h"

/* EventList._remove_dup_nodes, after the filtering of _parse_kineto_results:
 *   1. events with a filtered name are marked removed;
 *   2. every event whose parent is removed gets the nearest ancestor that is not (as
 *      _populate_cpu_children would have nested it had the removed event never existed);
 *   3. walking the events in (start, -end) order, an event whose parent has the same
 *      (rewritten) name and exactly one child, this event, is marked removed and its children
 *      are re-parented to that parent; passes repeat until one removes nothing.
 * Only `removed` and `parent` change. Events already marked removed are treated as absent, so
 * running it twice changes nothing. Parents must be -1 or the index of another event, without
 * cycles: otherwise CT_ERR_VALUE and nothing changes. Returns 0, or -1 (CT_ERR_VALUE: evs NULL
 * or a bad parent; CT_ERR_NOMEM, with the events untouched). */
int ct_prof_remove_dup_nodes(ct_prof_events *evs);

/* One row of key_averages(): a FunctionEventAvg. Strings owned by the row set. */
typedef struct ct_prof_row {
    char *key;                     /* the (rewritten) event name */
    char *input_shapes;            /* NULL unless grouped by shape: then str(input_shapes) of the
                                      group's events ("[]" when none were recorded) */
    int64_t count;                 /* number of events */
    double cpu_time_total_us;      /* sum of the events' end_us - start_us */
    double self_cpu_time_total_us; /* sum of the events' self times */
    int64_t cpu_memory_usage;      /* profile_memory: sum of the events' bytes */
    int64_t self_cpu_memory_usage; /* sum of each event's bytes minus its children's */
    const char **stack;            /* group_by_stack_n: the first event's first n frames (the
                                      strings are the events'), else NULL */
    size_t n_stack;
} ct_prof_row;

typedef struct ct_prof_rows {
    ct_prof_row *rows;
    size_t n;
    bool profile_memory;           /* the table shows "CPU Mem" and "Self CPU Mem" */
} ct_prof_rows;

/* EventList.key_averages(group_by_input_shapes): one row per key in order of first occurrence
 * (events in (start, -end) order; removed ones skipped). The key is the rewritten name and
 * whether the event is a user annotation (scope CT_SCOPE_USER_SCOPE: a record_function range
 * and an op of the same name are two rows, as in PyTorch), plus the input shapes string when
 * grouping (NULL counts as "[]"). A child is an event whose parent is this one; should the
 * parent be removed (ct_prof_remove_dup_nodes not run), the nearest kept ancestor counts.
 * Run ct_prof_remove_dup_nodes first to get PyTorch's rows. On success *out holds the rows
 * (free with ct_prof_rows_free; n may be 0); on failure *out is empty. Returns 0 or -1
 * (CT_ERR_VALUE: evs or out NULL, a parent index out of range; CT_ERR_NOMEM). */
int ct_prof_key_averages(const ct_prof_events *evs, bool group_by_input_shape, ct_prof_rows *out);
/* The same with every time taken relative to trace_start_ns (the profiler's start), which is
 * what PyTorch divides by 1000: use it when the events hold absolute clock readings. */
int ct_prof_key_averages_since(const ct_prof_events *evs, int64_t trace_start_ns, bool group_by_input_shape,
                               ct_prof_rows *out);
/* The same, keyed also by the first group_by_stack_n frames of the events' stacks
 * (key_averages(group_by_stack_n=n)); the rows keep those frames for "Source Location". */
int ct_prof_key_averages_ex(const ct_prof_events *evs, int64_t trace_start_ns, bool group_by_input_shape,
                            int group_by_stack_n, ct_prof_rows *out);
/* Frees the rows' strings and array and empties *rows. NULL is a no-op. */
void ct_prof_rows_free(ct_prof_rows *rows);

/* EventList.table(sort_by, row_limit, header) on key_averages() rows: _build_table's text
 * with max_name_column_width=55 and max_shapes_column_width=80, "\n" after every line.
 *   rows     no rows give "" (as in PyTorch, sort_by is then not even looked at);
 *   sort_by  NULL: rows in their order. Otherwise, after PyTorch's replace("cuda", "device"),
 *            ("xpu", "device"), ("privateuse1", "device"), the FunctionEventAvg attribute to
 *            sort by, descending, ties kept in row order (sorted(..., reverse=True) is
 *            stable): "cpu_time_total", "self_cpu_time_total", "cpu_time" (the average),
 *            "count", "key" (the name, compared by code point); and the attributes that are
 *            the same for every CPU-only row (so the order stays): "device_time_total",
 *            "self_device_time_total", "device_time", "cpu_memory_usage",
 *            "self_cpu_memory_usage", "device_memory_usage", "self_device_memory_usage",
 *            "flops", "node_id", "is_async", "is_remote", "is_legacy".
 *            Other attributes FunctionEventAvg has (input_shapes, scope, stack, the *_str
 *            strings, ...): CT_ERR_NOT_IMPLEMENTED. Anything else: CT_ERR_VALUE with Python's
 *            AttributeError message, "'FunctionEventAvg' object has no attribute 'X'" (X
 *            after the replacements; ctorch has no AttributeError kind).
 *   row_limit  rows printed at most; negative: all (0 prints none). Percentages and the total
 *            still count every row.
 *   header   NULL: none; else a line of '=' as wide as the table, then the header line.
 * Names of 52 or more characters are cut to 52 plus "..." (even a 52-character name, which
 * would fit: PyTorch tests len >= 55 - 3); input shapes are cut to the column width without
 * a mark. Widths count Unicode code points of the UTF-8 strings, as Python's len() does.
 * When the self times add up to exactly 0 but a shown row's time is not 0, PyTorch's
 * _format_time_share assertion fails: CT_ERR_RUNTIME "Expected time_us == 0 but got <repr>".
 * Returns a string for ct_free, or NULL (CT_ERR_VALUE: rows NULL, a row without key; the
 * sort_by errors above; CT_ERR_NOMEM). */
char *ct_prof_table(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *header);

/* The rows of ct_prof_table(rows, sort_by, row_limit, ...), same order, same count, as CSV:
 *   Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg[,CPU Mem,Self CPU Mem],# of Calls[,Input Shapes]
 * (the table's column names; the memory ones, in bytes, with profile_memory; Input Shapes when
 * the table has that column), then one line per
 * row: the full name (never cut), the percentages as numbers without the "%" (time * 100.0 /
 * total, "NaN" where the table prints NaN), the times in microseconds, the count, the full
 * shapes string. Numbers are the shortest decimal that reads back as the same double (Python's
 * repr: "534.465", "1e-05", "2.0"). Fields holding a comma, a double quote, CR or LF are
 * quoted RFC 4180 style (quotes doubled). Lines end in "\n". With no rows, the header line
 * alone. Errors as ct_prof_table, except that sort_by is checked even when there are no
 * rows. Returns a string for ct_free or NULL. */
char *ct_prof_rows_csv(const ct_prof_rows *rows, const char *sort_by, int row_limit);

/* The same rows as a JSON array (ct_json_dumps, indent 2), one object per row:
 *   {"name": ..., "input_shapes": ... (only for rows grouped by shape), "count": ...,
 *    "self_cpu_time_total_us": ..., "cpu_time_total_us": ..., "cpu_time_avg_us": ...,
 *    "self_cpu_percent": ..., "cpu_total_percent": ...,
 *    "cpu_memory_usage": ..., "self_cpu_memory_usage": ... (bytes, only with profile_memory)}
 * times in microseconds and percentages (0-100) as full-precision numbers, a percentage null
 * where the table prints NaN. With no rows, "[]". Errors as ct_prof_rows_csv. Returns a string
 * for ct_free or NULL. */
char *ct_prof_rows_json(const ct_prof_rows *rows, const char *sort_by, int row_limit);

#endif
