/* The profiler's rows as CSV (the table's columns, RFC 4180). */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "profiler/aggregate.h"
#include "profiler/report.h"
#include "util/pyfloat.h"
#include "util/strbuf.h"

/* RFC 4180: a field with a comma, a double quote, CR or LF goes in quotes, quotes doubled. */
static void csv_field(ct_strbuf *b, const char *s) {
    if (!strpbrk(s, ",\"\r\n")) {
        ct_sb_puts(b, s);
        return;
    }
    ct_sb_write(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"') ct_sb_write(b, "\"\"", 2);
        else ct_sb_write(b, p, 1);
    }
    ct_sb_write(b, "\"", 1);
}

static void csv_number(ct_strbuf *b, double v) {
    char r[64];
    ct_prof_py_repr(r, v);
    ct_sb_puts(b, r);
}

static void csv_percent(ct_strbuf *b, double pct, bool is_nan) {
    if (is_nan) ct_sb_puts(b, "NaN");
    else csv_number(b, pct);
}

char *ct_prof_rows_csv(const ct_prof_rows *rows, const char *sort_by, int row_limit) {
    size_t shown;
    double sum_self;
    size_t *order = ct_prof_report_rows(rows, sort_by, row_limit, "ct_prof_rows_csv", &shown, &sum_self);
    if (!order) return NULL;
    bool has_shapes = ct_prof_rows_have_shapes(rows);
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_puts(&b, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls");
    ct_sb_puts(&b, has_shapes ? ",Input Shapes\n" : "\n");
    for (size_t k = 0; k < shown; k++) {
        const ct_prof_row *r = &rows->rows[order[k]];
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (ct_prof_time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            ct_prof_time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0) {
            ct_free(order);
            ct_free(b.buf);
            return NULL;
        }
        char count[32];
        snprintf(count, sizeof count, "%lld", (long long)r->count);
        csv_field(&b, r->key);
        ct_sb_write(&b, ",", 1);
        csv_percent(&b, self_pct, self_nan);
        ct_sb_write(&b, ",", 1);
        csv_number(&b, r->self_cpu_time_total_us);
        ct_sb_write(&b, ",", 1);
        csv_percent(&b, total_pct, total_nan);
        ct_sb_write(&b, ",", 1);
        csv_number(&b, r->cpu_time_total_us);
        ct_sb_write(&b, ",", 1);
        csv_number(&b, ct_prof_row_avg(r));
        ct_sb_write(&b, ",", 1);
        ct_sb_puts(&b, count);
        if (has_shapes) {
            ct_sb_write(&b, ",", 1);
            csv_field(&b, r->input_shapes ? r->input_shapes : "");
        }
        ct_sb_write(&b, "\n", 1);
    }
    ct_free(order);
    return ct_sb_finish(&b);
}
