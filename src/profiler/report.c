/* What the profiler's reports share (profiler/report.h): Python's text and number formatting,
 * and the order of the rows (_build_table's sort), the rows shown and the total the
 * percentages divide by. */
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

/* Python's len() of a UTF-8 string: its code points (continuation bytes do not count). */
size_t ct_prof_u8_len(const char *s) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

/* Bytes taken by the first ncp code points of s (s[:ncp] in Python). */
size_t ct_prof_u8_prefix(const char *s, size_t ncp) {
    size_t cps = 0, i = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (cps == ncp) break;
            cps++;
        }
    }
    return i;
}

/* ---- numbers as Python prints them --------------------------------------------------------- */

/* printf writes the locale's decimal point; Python always writes '.'. */
static void dot_decimal_point(char *s) {
    const char *dp = localeconv()->decimal_point;
    if (!dp || strcmp(dp, ".") == 0 || !*dp) return;
    size_t dl = strlen(dp);
    char *hit = strstr(s, dp);
    if (!hit) return;
    *hit = '.';
    memmove(hit + 1, hit + dl, strlen(hit + dl) + 1);
}

/* f"{v:.{prec}f}": printf and Python both round the exact binary value correctly (half to
 * even on exact ties), so the digits agree; only NaN differs (glibc may write "-nan"). */
void ct_prof_fmt_fixed(char *out, double v, int prec) {
    if (isnan(v)) {
        strcpy(out, "nan");
        return;
    }
    snprintf(out, NUMBUF, "%.*f", prec, v);
    dot_decimal_point(out);
}

/* profiler_util._format_time: seconds from 1e6 us, milliseconds from 1e3 us, else us. */
void ct_prof_format_time(char *out, double us) {
    char num[NUMBUF];
    const char *unit = "us";
    if (us >= 1000.0 * 1000.0) {
        ct_prof_fmt_fixed(num, us / (1000.0 * 1000.0), 3);
        unit = "s";
    } else if (us >= 1000.0) {
        ct_prof_fmt_fixed(num, us / 1000.0, 3);
        unit = "ms";
    } else {
        ct_prof_fmt_fixed(num, us, 3);
    }
    snprintf(out, NUMBUF + 4, "%s%s", num, unit);
}

/* repr(float) */
void ct_prof_py_repr(char *out, double v) { ct_py_float_repr(v, out); }

/* A percentage as _format_time_share computes it: time * 100.0 / total, and NaN (with
 * PyTorch's assertion that the time is 0) when the total is 0. Returns 0 with *pct set and
 * *is_nan telling the NaN case, or -1 (CT_ERR_RUNTIME) where PyTorch's assert fails. */
int ct_prof_time_share(double time_us, double total_us, double *pct, bool *is_nan) {
    if (total_us == 0) {
        if (time_us != 0) {
            char r[64];
            ct_prof_py_repr(r, time_us);
            return ct_error_set(CT_ERR_RUNTIME, "Expected time_us == 0 but got %s", r);
        }
        *is_nan = true;
        *pct = NAN;
        return 0;
    }
    *is_nan = false;
    *pct = time_us * 100.0 / total_us;
    return 0;
}

/* FormattedTimesMixin.cpu_time: 0.0 without calls, else 1.0 * cpu_time_total / count. */
double ct_prof_row_avg(const ct_prof_row *r) {
    return r->count == 0 ? 0.0 : r->cpu_time_total_us / (double)r->count;
}

/* ---- sorting rows (_build_table's sorted(..., key=getattr(evt, sort_by), reverse=True)) ---- */

typedef enum sort_attr {
    SORT_NONE,
    SORT_CPU_TOTAL,
    SORT_SELF_CPU_TOTAL,
    SORT_CPU_AVG,
    SORT_COUNT,
    SORT_KEY,
    SORT_CONSTANT, /* the same value on every row: the order stays */
} sort_attr;

/* str.replace(old, new) for every occurrence, as a new string (ct_free) or NULL. */
static char *replace_all(const char *s, const char *old, const char *rep) {
    size_t ol = strlen(old), rl = strlen(rep), count = 0;
    for (const char *p = strstr(s, old); p; p = strstr(p + ol, old)) count++;
    char *out = ct_malloc(strlen(s) + count * (rl > ol ? rl - ol : 0) + 1);
    if (!out) return NULL;
    char *o = out;
    for (const char *p = s;;) {
        const char *hit = strstr(p, old);
        if (!hit) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(hit - p));
        o += hit - p;
        memcpy(o, rep, rl);
        o += rl;
        p = hit + ol;
    }
    return out;
}

/* The attribute sort_by names on a FunctionEventAvg, after _build_table's replacements. */
static int resolve_sort(const char *sort_by, const char *fn, sort_attr *attr) {
    *attr = SORT_NONE;
    if (!sort_by) return 0;
    char *a = replace_all(sort_by, "cuda", "device");
    char *b = a ? replace_all(a, "xpu", "device") : NULL;
    char *name = b ? replace_all(b, "privateuse1", "device") : NULL;
    ct_free(a);
    ct_free(b);
    if (!name) return -1;
    static const struct {
        const char *name;
        sort_attr attr;
    } known[] = {
        {"cpu_time_total", SORT_CPU_TOTAL}, {"self_cpu_time_total", SORT_SELF_CPU_TOTAL},
        {"cpu_time", SORT_CPU_AVG}, {"count", SORT_COUNT}, {"key", SORT_KEY},
        /* 0 (or -1, False) on every CPU-only row without memory or flops: the order stays */
        {"device_time_total", SORT_CONSTANT}, {"self_device_time_total", SORT_CONSTANT},
        {"device_time", SORT_CONSTANT}, {"cpu_memory_usage", SORT_CONSTANT},
        {"self_cpu_memory_usage", SORT_CONSTANT}, {"device_memory_usage", SORT_CONSTANT},
        {"self_device_memory_usage", SORT_CONSTANT}, {"flops", SORT_CONSTANT}, {"node_id", SORT_CONSTANT},
        {"is_async", SORT_CONSTANT}, {"is_remote", SORT_CONSTANT}, {"is_legacy", SORT_CONSTANT},
    };
    /* Attributes FunctionEventAvg has whose order these rows cannot reproduce. */
    static const char *const unsupported[] = {
        "input_shapes", "stack", "scope", "use_device", "cpu_children", "cpu_parent", "device_type",
        "cpu_time_str", "device_time_str", "cpu_time_total_str", "device_time_total_str",
        "self_cpu_time_total_str", "self_device_time_total_str", "add",
    };
    int rc = 0;
    bool found = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0] && !found; i++)
        if (strcmp(name, known[i].name) == 0) {
            *attr = known[i].attr;
            found = true;
        }
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0] && !found; i++)
        if (strcmp(name, unsupported[i]) == 0) {
            rc = ct_error_set(CT_ERR_NOT_IMPLEMENTED, "%s: sorting by '%s' is not supported", fn, name);
            found = true;
        }
    if (!found) rc = ct_error_set(CT_ERR_VALUE, "'FunctionEventAvg' object has no attribute '%s'", name);
    ct_free(name);
    return rc;
}

typedef struct sort_ctx {
    const ct_prof_row *rows;
    sort_attr attr;
} sort_ctx;

/* Descending; equal keys compare 0 so the stable sort keeps their order, which is what
 * sorted(reverse=True) guarantees. */
static int cmp_row(size_t a, size_t b, const void *vctx) {
    const sort_ctx *ctx = vctx;
    const ct_prof_row *x = &ctx->rows[a], *y = &ctx->rows[b];
    double kx = 0, ky = 0;
    switch (ctx->attr) {
    case SORT_CPU_TOTAL: kx = x->cpu_time_total_us, ky = y->cpu_time_total_us; break;
    case SORT_SELF_CPU_TOTAL: kx = x->self_cpu_time_total_us, ky = y->self_cpu_time_total_us; break;
    case SORT_CPU_AVG: kx = ct_prof_row_avg(x), ky = ct_prof_row_avg(y); break;
    case SORT_COUNT: return x->count > y->count ? -1 : x->count < y->count ? 1 : 0;
    case SORT_KEY: { /* str comparison is by code point: byte order of UTF-8 */
        int c = strcmp(x->key, y->key);
        return c > 0 ? -1 : c < 0 ? 1 : 0;
    }
    default: return 0;
    }
    return kx > ky ? -1 : kx < ky ? 1 : 0;
}

/* Checks rows and returns the row order the table uses (ct_free), or NULL with the error. */
size_t *ct_prof_row_order(const ct_prof_rows *rows, const char *sort_by, const char *fn) {
    if (!rows) {
        ct_error_set(CT_ERR_VALUE, "%s: rows is NULL", fn);
        return NULL;
    }
    if (rows->n && !rows->rows) {
        ct_error_set(CT_ERR_VALUE, "%s: rows has no rows array", fn);
        return NULL;
    }
    for (size_t i = 0; i < rows->n; i++)
        if (!rows->rows[i].key) {
            ct_error_set(CT_ERR_VALUE, "%s: row %zu has no key", fn, i);
            return NULL;
        }
    sort_attr attr;
    if (resolve_sort(sort_by, fn, &attr) != 0) return NULL;
    size_t *order = ct_malloc((rows->n ? rows->n : 1) * sizeof *order);
    if (!order) return NULL;
    for (size_t i = 0; i < rows->n; i++) order[i] = i;
    sort_ctx ctx = {rows->rows, attr};
    if (attr != SORT_NONE && attr != SORT_CONSTANT && ct_prof_stable_sort(order, rows->n, cmp_row, &ctx) != 0) {
        ct_free(order);
        return NULL;
    }
    return order;
}

/* sum_self_cpu_time_total: starts from the int 0 and adds in the table's order. */
double ct_prof_self_total(const ct_prof_rows *rows, const size_t *order) {
    double sum = 0.0;
    for (size_t k = 0; k < rows->n; k++) sum += rows->rows[order[k]].self_cpu_time_total_us;
    return sum;
}

/* _build_table's has_input_shapes: some row has a non-empty shapes list. */
bool ct_prof_rows_have_shapes(const ct_prof_rows *rows) {
    for (size_t i = 0; i < rows->n; i++) {
        const char *s = rows->rows[i].input_shapes;
        if (s && *s && strcmp(s, "[]") != 0) return true;
    }
    return false;
}


/* What the CSV and JSON writers share with the table: the order, the rows shown and the total
 * the percentages divide by. Returns the order (ct_free) or NULL with the error. */
size_t *ct_prof_report_rows(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *fn,
                           size_t *shown, double *sum_self) {
    size_t *order = ct_prof_row_order(rows, sort_by, fn);
    if (!order) return NULL;
    *shown = row_limit < 0 || (size_t)row_limit > rows->n ? rows->n : (size_t)row_limit;
    *sum_self = ct_prof_self_total(rows, order);
    return order;
}
