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
#define MAX_SRC_COLUMN_WIDTH 75
#define DEFAULT_COLUMN_WIDTH 12

static bool stack_rows(const ct_prof_rows *rows) {
    for (size_t i = 0; i < rows->n; i++)
        if (rows->rows[i].n_stack) return true;
    return false;
}
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

/* profiler_util._format_memory: "4.00 Kb", "-1.50 Mb", "4 b" */
static void format_memory(char *out, int64_t nbytes) {
    const double KB = 1024.0, MB = 1024.0 * KB, GB = 1024.0 * MB;
    double a = fabs((double)nbytes);
    char num[NUMBUF];
    if (a >= GB || a >= MB || a >= KB) {
        double unit = a >= GB ? GB : a >= MB ? MB : KB;
        ct_prof_fmt_fixed(num, (double)nbytes * 1.0 / unit, 2);
        snprintf(out, NUMBUF + 4, "%s %s", num, a >= GB ? "Gb" : a >= MB ? "Mb" : "Kb");
    } else {
        snprintf(out, NUMBUF + 4, "%lld b", (long long)nbytes);
    }
}

/* _build_table's trim_path: the end of a long entry, its first three characters made "..." */
static void src_cell(ct_strbuf *b, const char *path, size_t width, bool last) {
    size_t len = ct_prof_u8_len(path);
    const char *s = path;
    bool dots = false;
    if (len > width) {
        s = path + ct_prof_u8_prefix(path, len - width);
        if (width > 3) {
            dots = true;
            s += ct_prof_u8_prefix(s, 3);
        }
    }
    size_t shown = (dots ? 3 : 0) + ct_prof_u8_len(s);
    if (dots) ct_sb_puts(b, "...");
    ct_sb_puts(b, s);
    if (shown < width) ct_sb_repeat(b, ' ', width - shown); /* "{: <W}" */
    ct_sb_repeat(b, ' ', SPACING_SIZE);
    (void)last;
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

    /* Name, the times, CPU Mem and Self CPU Mem with profile_memory, # of Calls, Input Shapes
     * when shapes were recorded, Source Location when rows have stacks */
    bool mem = rows->profile_memory;
    size_t src_w = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < R[i].n_stack; f++) {
            size_t l = ct_prof_u8_len(R[i].stack[f]);
            if (l > src_w) src_w = l;
        }
    bool has_stack = src_w > 0 || stack_rows(rows);
    src_w += 4;
    if (src_w > MAX_SRC_COLUMN_WIDTH) src_w = MAX_SRC_COLUMN_WIDTH;
    const char *headers[10];
    size_t widths[10], ncols = 0;
    static const char *const time_headers[] = {"Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"};
    headers[ncols] = "Name";
    widths[ncols++] = name_w;
    for (int c = 0; c < 5; c++) {
        headers[ncols] = time_headers[c];
        widths[ncols++] = DEFAULT_COLUMN_WIDTH;
    }
    if (mem) {
        headers[ncols] = "CPU Mem";
        widths[ncols++] = DEFAULT_COLUMN_WIDTH;
        headers[ncols] = "Self CPU Mem";
        widths[ncols++] = DEFAULT_COLUMN_WIDTH;
    }
    headers[ncols] = "# of Calls";
    widths[ncols++] = DEFAULT_COLUMN_WIDTH;
    if (has_shapes) {
        headers[ncols] = "Input Shapes";
        widths[ncols++] = shapes_w;
    }
    if (has_stack) {
        headers[ncols] = "Source Location";
        widths[ncols++] = src_w;
    }
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
    for (size_t c = 0; c < ncols; c++) {
        if (has_stack && c == ncols - 1) src_cell(&b, headers[c], widths[c], true);
        else cell(&b, headers[c], strlen(headers[c]), widths[c]);
    }
    ct_sb_write(&b, "\n", 1);
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
        char v_mem[NUMBUF + 4], v_self_mem[NUMBUF + 4];
        format_memory(v_mem, r->cpu_memory_usage);
        format_memory(v_self_mem, r->self_cpu_memory_usage);
        const char *vals[8] = {v_self_pct, v_self, v_total_pct, v_total, v_avg, v_mem, v_self_mem, v_count};
        for (size_t c = 0; c < 8; c++) {
            if (!mem && (c == 5 || c == 6)) continue;
            cell(&b, vals[c], strlen(vals[c]), DEFAULT_COLUMN_WIDTH);
        }
        if (has_shapes) {
            const char *s = r->input_shapes ? r->input_shapes : "";
            cell(&b, s, ct_prof_u8_prefix(s, shapes_w), shapes_w);
        }
        if (has_stack) {
            src_cell(&b, r->n_stack ? r->stack[0] : "", src_w, true);
            ct_sb_write(&b, "\n", 1);
            /* the other frames on lines of their own, then an empty line of cells */
            for (size_t f = 1; f <= r->n_stack; f++) {
                for (size_t c = 0; c + 1 < ncols; c++) cell(&b, "", 0, widths[c]);
                src_cell(&b, f < r->n_stack ? r->stack[f] : "", src_w, true);
                ct_sb_write(&b, "\n", 1);
            }
            if (r->n_stack == 0) {
                for (size_t c = 0; c + 1 < ncols; c++) cell(&b, "", 0, widths[c]);
                src_cell(&b, "", src_w, true);
                ct_sb_write(&b, "\n", 1);
            }
            continue;
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
