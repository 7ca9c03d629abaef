/* The profiler's table: EventList.table (_build_table in torch/autograd/profiler_util.py),
 * byte for byte. */
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

/* ---- the table ------------------------------------------------------------------------------- */

#define MAX_NAME_COLUMN_WIDTH 55
#define MAX_SHAPES_COLUMN_WIDTH 80
#define DEFAULT_COLUMN_WIDTH 12
#define SPACING_SIZE 2

/* One "{: >width}" cell holding s[0..len) then suffix, and the two spaces after it (text
 * longer than width stays whole, as with str.format). */
static void cell_with(ct_strbuf *b, const char *s, size_t len, const char *suffix, size_t width) {
    size_t cps = ct_prof_u8_len(suffix);
    for (size_t i = 0; i < len; i++) cps += ((unsigned char)s[i] & 0xC0) != 0x80;
    if (cps < width) ct_sb_repeat(b, ' ', width - cps);
    ct_sb_write(b, s, len);
    ct_sb_puts(b, suffix);
    ct_sb_repeat(b, ' ', SPACING_SIZE);
}

static void cell(ct_strbuf *b, const char *s, size_t len, size_t width) { cell_with(b, s, len, "", width); }

static void cells(ct_strbuf *b, const char *const *vals, const size_t *widths, size_t ncols) {
    for (size_t c = 0; c < ncols; c++) cell(b, vals[c], strlen(vals[c]), widths[c]);
    ct_sb_write(b, "\n", 1);
}

static void pct_text(char *out, double pct, bool is_nan) {
    if (is_nan) {
        strcpy(out, "NaN");
        return;
    }
    ct_prof_fmt_fixed(out, pct, 2);
    strcat(out, "%");
}

char *ct_prof_table(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *header) {
    static const char fn[] = "ct_prof_table";
    if (!rows) {
        ct_error_set(CT_ERR_VALUE, "%s: rows is NULL", fn);
        return NULL;
    }
    if (rows->n == 0) return ct_strdup(""); /* `if len(events) == 0: return ""`, before sorting */
    size_t *order = ct_prof_row_order(rows, sort_by, fn);
    if (!order) return NULL;
    const ct_prof_row *R = rows->rows;
    size_t n = rows->n;

    bool has_shapes = ct_prof_rows_have_shapes(rows);
    size_t name_w = 0, shapes_w = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = ct_prof_u8_len(R[i].key);
        if (l > name_w) name_w = l;
        l = R[i].input_shapes ? ct_prof_u8_len(R[i].input_shapes) : 0;
        if (l > shapes_w) shapes_w = l;
    }
    name_w += 4;
    if (name_w > MAX_NAME_COLUMN_WIDTH) name_w = MAX_NAME_COLUMN_WIDTH;
    shapes_w += 4;
    if (shapes_w > MAX_SHAPES_COLUMN_WIDTH) shapes_w = MAX_SHAPES_COLUMN_WIDTH;

    static const char *const headers[] = {"Name",      "Self CPU %",   "Self CPU",   "CPU total %",
                                          "CPU total", "CPU time avg", "# of Calls", "Input Shapes"};
    size_t widths[8] = {name_w, 12, 12, 12, 12, 12, 12, shapes_w};
    size_t ncols = has_shapes ? 8 : 7;
    size_t line_length = 0;
    for (size_t c = 0; c < ncols; c++) line_length += widths[c] + SPACING_SIZE;
    line_length -= SPACING_SIZE;

    ct_strbuf b = CT_STRBUF_INIT;
    ct_strbuf sep = CT_STRBUF_INIT;
    for (size_t c = 0; c < ncols; c++) {
        ct_sb_repeat(&sep, '-', widths[c]);
        ct_sb_repeat(&sep, ' ', SPACING_SIZE);
    }
    ct_sb_write(&sep, "\n", 1);
    if (sep.failed) b.failed = true;
    double sum_self = ct_prof_self_total(rows, order);

    if (header) {
        ct_sb_repeat(&b, '=', line_length);
        ct_sb_write(&b, "\n", 1);
        ct_sb_puts(&b, header);
        ct_sb_write(&b, "\n", 1);
    }
    if (!sep.failed) ct_sb_write(&b, sep.buf, sep.len);
    cells(&b, headers, widths, ncols);
    if (!sep.failed) ct_sb_write(&b, sep.buf, sep.len);

    int shown = 0;
    bool failed = false;
    for (size_t k = 0; k < n && !failed; k++) {
        if (shown == row_limit) break;
        shown++;
        const ct_prof_row *r = &R[order[k]];
        /* evt.key cut at max_name_column_width - 3 when at least that long */
        size_t name_len = strlen(r->key);
        bool cut = ct_prof_u8_len(r->key) >= MAX_NAME_COLUMN_WIDTH - 3;
        if (cut) name_len = ct_prof_u8_prefix(r->key, MAX_NAME_COLUMN_WIDTH - 3);
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (ct_prof_time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            ct_prof_time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0) {
            failed = true;
            break;
        }
        char v_self_pct[NUMBUF + 4], v_self[NUMBUF + 4], v_total_pct[NUMBUF + 4], v_total[NUMBUF + 4],
            v_avg[NUMBUF + 4], v_count[32];
        pct_text(v_self_pct, self_pct, self_nan);
        ct_prof_format_time(v_self, r->self_cpu_time_total_us);
        pct_text(v_total_pct, total_pct, total_nan);
        ct_prof_format_time(v_total, r->cpu_time_total_us);
        ct_prof_format_time(v_avg, ct_prof_row_avg(r));
        snprintf(v_count, sizeof v_count, "%lld", (long long)r->count);

        cell_with(&b, r->key, name_len, cut ? "..." : "", widths[0]);
        const char *vals[6] = {v_self_pct, v_self, v_total_pct, v_total, v_avg, v_count};
        for (size_t c = 0; c < 6; c++) cell(&b, vals[c], strlen(vals[c]), widths[c + 1]);
        if (has_shapes) {
            const char *s = r->input_shapes ? r->input_shapes : "";
            cell(&b, s, ct_prof_u8_prefix(s, shapes_w), shapes_w);
        }
        ct_sb_write(&b, "\n", 1);
    }
    ct_free(order);
    if (failed) {
        ct_free(b.buf);
        ct_free(sep.buf);
        return NULL;
    }
    if (!sep.failed) ct_sb_write(&b, sep.buf, sep.len);
    ct_free(sep.buf);
    char total_text[NUMBUF + 4];
    ct_prof_format_time(total_text, sum_self);
    ct_sb_puts(&b, "Self CPU time total: ");
    ct_sb_puts(&b, total_text);
    ct_sb_write(&b, "\n", 1);
    return ct_sb_finish(&b);
}
