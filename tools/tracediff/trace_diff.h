/* The diff of two trace files (docs/trace-format.md): `ctorch diff` and Lab 00's report use it.
 *
 * Records are aligned by what identifies a hop (call/redispatch, op, overload, key; for a
 * dispatch-mode view, op and overload) with Myers' O(ND) algorithm after the common beginning
 * and end are taken off; aligned records are compared on every field both files have. */
#ifndef CT_TRACE_DIFF_H
#define CT_TRACE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct ct_diff_options {
    int view;    /* a ct_tr_view (trace_read.h), or -1: "mode" when either file is a
                  * dispatch-mode recording, else "hops" */
    bool ids;    /* compare tensor ids (renumbered in order of first sight) */
    bool json;   /* JSON instead of text */
    bool all;    /* every record, not only differences and their context */
    bool color;  /* ANSI colours in the text */
    int context; /* equal records shown around each difference */
    const char *a_label, *b_label; /* how the files are named in the output (NULL: their paths) */
} ct_diff_options;

typedef struct ct_diff_summary {
    size_t a_records, b_records; /* records compared in each file */
    size_t same, changed;        /* aligned records: equal, and with different fields */
    size_t only_a, only_b;
} ct_diff_summary;

/* Compares the trace files a and b and prints the comparison to out (text: both headers, the
 * hunks of differences, a summary line; or JSON). Returns 0 when they are the same, 1 when
 * they differ, 2 with a message in err when a file cannot be read, is not a trace, has another
 * schema version, or cannot be compared in the view asked for. sum (may be NULL) gets the
 * counts. */
int ct_trace_diff(const char *a, const char *b, const ct_diff_options *opt, FILE *out, ct_diff_summary *sum, char *err,
                  size_t errsize);

#endif
