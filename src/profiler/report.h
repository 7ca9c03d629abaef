/* What the profiler's reports share (internal): Python's text and number formatting, the
 * stable sort, and the order, count and total of the rows a report shows. */
#ifndef CT_PROFILER_REPORT_H
#define CT_PROFILER_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "profiler/aggregate.h"

/* Number buffers: "%.3f" of the largest double has 309 integer digits. */
#define NUMBUF 400

/* Python's len() of a UTF-8 string: its code points. */
size_t ct_prof_u8_len(const char *s);
/* Bytes taken by the first ncp code points of s (s[:ncp] in Python). */
size_t ct_prof_u8_prefix(const char *s, size_t ncp);
/* "%.{prec}f" in the C locale's spelling, as Python formats it. */
void ct_prof_fmt_fixed(char *out, double v, int prec);
/* profiler_util._format_time: "1.234ms", "12.345us", "1.234s". */
void ct_prof_format_time(char *out, double us);
/* repr() of a float. */
void ct_prof_py_repr(char *out, double v);
/* time * 100.0 / total as _build_table computes it; *is_nan when total is 0. */
int ct_prof_time_share(double time_us, double total_us, double *pct, bool *is_nan);
/* FunctionEventAvg.cpu_time: 1.0 * total / count (0 for no events). */
double ct_prof_row_avg(const ct_prof_row *r);

/* Negative when a must come before b; 0 keeps their relative order. */
typedef int (*ct_prof_idx_cmp)(size_t a, size_t b, const void *ctx);
/* Stable merge sort of idx[0..n), like Python's sort. -1 on CT_ERR_NOMEM. */
int ct_prof_stable_sort(size_t *idx, size_t n, ct_prof_idx_cmp cmp, const void *ctx);

/* The rows' order for sort_by (ct_free), or NULL with the error (fn names the caller). */
size_t *ct_prof_row_order(const ct_prof_rows *rows, const char *sort_by, const char *fn);
/* The rows' self times added in `order` (the table's "Self CPU time total"). */
double ct_prof_self_total(const ct_prof_rows *rows, const size_t *order);
/* Whether any row has input shapes (the table then has the shapes column). */
bool ct_prof_rows_have_shapes(const ct_prof_rows *rows);
/* The order, the rows shown and the total the percentages divide by; the order (ct_free) or
 * NULL with the error. */
size_t *ct_prof_report_rows(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *fn,
                            size_t *shown, double *sum_self);

#endif
