/* The profiler's aggregation and reports: PyTorch 2.6's EventList._remove_dup_nodes,
 * key_averages and _build_table (torch/autograd/profiler_util.py). See aggregate.h for the
 * contract; the comments here say which PyTorch step each piece mirrors and why the arithmetic
 * is written the way it is. */
#include "profiler/aggregate.h"
#include "util/pyfloat.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "util/json.h"
#include "util/strbuf.h"

/* ---- names ------------------------------------------------------------------------------- */

/* profiler_util._filter_name: utility ranges _parse_kineto_results never turns into events. */
static bool filtered_name(const char *name) {
    static const char *const names[] = {
        "[memory]", "[OutOfMemory]", "profiler::_record_function_enter", "profiler::_record_function_enter_new",
        "profiler::_record_function_exit", "aten::is_leaf", "aten::output_nr", "aten::_version",
    };
    if (!name) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) return true;
    return false;
}

/* profiler_util._rewrite_name(name, with_wildcard=True): the FunctionEvent's name, which
 * _remove_dup_nodes compares and key_averages groups by. */
static const char *event_name(const ct_prof_event *e) {
    if (!e->name) return "";
    if (strncmp(e->name, "ProfilerStep#", 13) == 0) return "ProfilerStep*";
    return e->name;
}

/* Python's len() of a UTF-8 string: its code points (continuation bytes do not count). */
static size_t u8_len(const char *s) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

/* Bytes taken by the first ncp code points of s (s[:ncp] in Python). */
static size_t u8_prefix(const char *s, size_t ncp) {
    size_t cps = 0, i = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (cps == ncp) break;
            cps++;
        }
    }
    return i;
}

/* ---- a growing string -------------------------------------------------------------------- */

/* ---- numbers as Python prints them --------------------------------------------------------- */

/* Number buffers: "%.3f" of the largest double has 309 integer digits. */
#define NUMBUF 400

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
static void fmt_fixed(char *out, double v, int prec) {
    if (isnan(v)) {
        strcpy(out, "nan");
        return;
    }
    snprintf(out, NUMBUF, "%.*f", prec, v);
    dot_decimal_point(out);
}

/* profiler_util._format_time: seconds from 1e6 us, milliseconds from 1e3 us, else us. */
static void format_time(char *out, double us) {
    char num[NUMBUF];
    const char *unit = "us";
    if (us >= 1000.0 * 1000.0) {
        fmt_fixed(num, us / (1000.0 * 1000.0), 3);
        unit = "s";
    } else if (us >= 1000.0) {
        fmt_fixed(num, us / 1000.0, 3);
        unit = "ms";
    } else {
        fmt_fixed(num, us, 3);
    }
    snprintf(out, NUMBUF + 4, "%s%s", num, unit);
}

/* repr(float) */
static void py_repr(char *out, double v) { ct_py_float_repr(v, out); }

/* A percentage as _format_time_share computes it: time * 100.0 / total, and NaN (with
 * PyTorch's assertion that the time is 0) when the total is 0. Returns 0 with *pct set and
 * *is_nan telling the NaN case, or -1 (CT_ERR_RUNTIME) where PyTorch's assert fails. */
static int time_share(double time_us, double total_us, double *pct, bool *is_nan) {
    if (total_us == 0) {
        if (time_us != 0) {
            char r[64];
            py_repr(r, time_us);
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
static double row_avg(const ct_prof_row *r) {
    return r->count == 0 ? 0.0 : r->cpu_time_total_us / (double)r->count;
}

/* ---- stable sorting of index arrays -------------------------------------------------------- */

/* Negative when a must come before b; 0 keeps their relative order. */
typedef int (*idx_cmp)(size_t a, size_t b, const void *ctx);

/* Bottom-up merge sort of idx[0..n): stable, like Python's sort. -1 on CT_ERR_NOMEM. */
static int stable_sort(size_t *idx, size_t n, idx_cmp cmp, const void *ctx) {
    if (n < 2) return 0;
    size_t *tmp = ct_malloc(n * sizeof *tmp);
    if (!tmp) return -1;
    size_t *src = idx, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = cmp(src[j], src[i], ctx) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        size_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != idx) memcpy(idx, src, n * sizeof *idx);
    ct_free(tmp);
    return 0;
}

/* _parse_kineto_results sorts the events by [start_us, -end_us] (stable). */
static int cmp_event_time(size_t a, size_t b, const void *ctx) {
    const ct_prof_event *ev = ctx;
    if (ev[a].start_ns != ev[b].start_ns) return ev[a].start_ns < ev[b].start_ns ? -1 : 1;
    if (ev[a].end_ns != ev[b].end_ns) return ev[a].end_ns > ev[b].end_ns ? -1 : 1;
    return 0;
}

/* The indices of evs in PyTorch's event order (ct_free), or NULL with CT_ERR_NOMEM. */
static size_t *time_order(const ct_prof_events *evs) {
    size_t *order = ct_malloc((evs->n ? evs->n : 1) * sizeof *order);
    if (!order) return NULL;
    for (size_t i = 0; i < evs->n; i++) order[i] = i;
    if (stable_sort(order, evs->n, cmp_event_time, evs->ev) != 0) {
        ct_free(order);
        return NULL;
    }
    return order;
}

/* ---- checking the event list --------------------------------------------------------------- */

static int check_parents(const ct_prof_events *evs, const char *fn) {
    if (!evs) return ct_error_set(CT_ERR_VALUE, "%s: the event list is NULL", fn);
    if (evs->n && !evs->ev) return ct_error_set(CT_ERR_VALUE, "%s: the event list has no events array", fn);
    for (size_t i = 0; i < evs->n; i++) {
        int64_t p = evs->ev[i].parent;
        if (p < -1 || p >= (int64_t)evs->n || p == (int64_t)i)
            return ct_error_set(CT_ERR_VALUE, "%s: event %zu has parent %lld (of %zu events)", fn, i, (long long)p,
                                evs->n);
    }
    return 0;
}

/* Whether the parent links form a cycle (ok[] is scratch, n bytes): each walk up stops at the
 * first event already known to reach the top, so the whole check is linear. */
static bool has_cycle(const ct_prof_events *evs, unsigned char *ok) {
    size_t n = evs->n;
    memset(ok, 0, n);
    for (size_t i = 0; i < n; i++) {
        int64_t p = (int64_t)i;
        size_t steps = 0;
        while (p != -1 && !ok[p]) {
            if (++steps > n) return true;
            p = evs->ev[p].parent;
        }
        for (p = (int64_t)i; p != -1 && !ok[p]; p = evs->ev[p].parent) ok[p] = 1;
    }
    return false;
}

/* ---- _remove_dup_nodes --------------------------------------------------------------------- */

int ct_prof_remove_dup_nodes(ct_prof_events *evs) {
    static const char fn[] = "ct_prof_remove_dup_nodes";
    if (check_parents(evs, fn) != 0) return -1;
    size_t n = evs->n;
    if (n == 0) return 0;
    ct_prof_event *ev = evs->ev;

    /* Everything is allocated before anything changes, so a failure leaves the list as it was. */
    int rc = -1;
    size_t *order = NULL, *nchild = NULL;
    int64_t *first = NULL, *last = NULL, *next = NULL;
    unsigned char *ok = ct_malloc(n);
    if (!ok) goto done;
    if (has_cycle(evs, ok)) {
        ct_error_set(CT_ERR_VALUE, "%s: the events' parents form a cycle", fn);
        goto done;
    }
    order = time_order(evs);
    nchild = ct_calloc(n, sizeof *nchild);
    first = ct_malloc(n * sizeof *first);
    last = ct_malloc(n * sizeof *last);
    next = ct_malloc(n * sizeof *next);
    if (!order || !nchild || !first || !last || !next) goto done;

    /* Filtered names never became FunctionEvents, so _populate_cpu_children nested their
     * children in the nearest enclosing event that did: the nearest kept ancestor. */
    for (size_t i = 0; i < n; i++)
        if (filtered_name(ev[i].name)) ev[i].removed = true;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].removed) continue;
        int64_t p = ev[i].parent;
        while (p != -1 && ev[p].removed) p = ev[p].parent;
        ev[i].parent = p;
    }

    /* cpu_children lists, each in event order (the order _populate_cpu_children appends in). */
    for (size_t i = 0; i < n; i++) first[i] = last[i] = next[i] = -1;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        int64_t p = ev[i].parent;
        if (ev[i].removed || p == -1) continue;
        if (last[p] == -1) first[p] = (int64_t)i;
        else next[last[p]] = (int64_t)i;
        last[p] = (int64_t)i;
        nchild[p]++;
    }

    /* The passes of _remove_dup_nodes. Within a pass PyTorch re-parents at once and drops the
     * merged events at the end of the pass; a merged event has no children left by then and is
     * never looked at again in that pass, so marking it removed at once is the same. Its
     * parent takes over its children list as is (`cpu_parent.cpu_children =
     * self[idx].cpu_children`), which keeps them in event order. */
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t k = 0; k < n; k++) {
            size_t e = order[k];
            int64_t p = ev[e].parent;
            if (ev[e].removed || p == -1 || nchild[p] != 1) continue;
            if (strcmp(event_name(&ev[p]), event_name(&ev[e])) != 0) continue;
            for (int64_t c = first[e]; c != -1; c = next[c]) ev[c].parent = p;
            first[p] = first[e];
            last[p] = last[e];
            nchild[p] = nchild[e];
            first[e] = last[e] = -1;
            nchild[e] = 0;
            ev[e].removed = true;
            changed = true;
        }
    }
    rc = 0;
done:
    ct_free(ok);
    ct_free(order);
    ct_free(nchild);
    ct_free(first);
    ct_free(last);
    ct_free(next);
    return rc;
}

/* ---- key_averages ---------------------------------------------------------------------------- */

void ct_prof_rows_free(ct_prof_rows *rows) {
    if (!rows) return;
    for (size_t i = 0; i < rows->n; i++) {
        ct_free(rows->rows[i].key);
        ct_free(rows->rows[i].input_shapes);
    }
    ct_free(rows->rows);
    rows->rows = NULL;
    rows->n = 0;
}

static uint64_t fnv1a(uint64_t h, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    return h;
}

/* The grouping key of key_averages' get_key: (name, node_id, device_type, is_legacy,
 * is_user_annotation[, str(input_shapes)]); node, device and legacy are the same for every
 * CPU event here. */
typedef struct group_key {
    const char *name;
    bool user;
    const char *shapes; /* NULL when not grouping by shape */
} group_key;

static uint64_t group_hash(const group_key *k) {
    uint64_t h = fnv1a(14695981039346656037ULL, k->name);
    h = (h ^ (k->user ? 0x55u : 0xAAu)) * 1099511628211ULL;
    if (k->shapes) h = fnv1a(h ^ 0xFFu, k->shapes);
    return h;
}

int ct_prof_key_averages_since(const ct_prof_events *evs, int64_t trace_start_ns, bool group_by_input_shape,
                               ct_prof_rows *out) {
    static const char fn[] = "ct_prof_key_averages";
    if (!out) return ct_error_set(CT_ERR_VALUE, "%s: out is NULL", fn);
    out->rows = NULL;
    out->n = 0;
    if (check_parents(evs, fn) != 0) return -1;
    size_t n = evs->n;
    if (n == 0) return 0;
    const ct_prof_event *ev = evs->ev;

    int rc = -1;
    ct_prof_rows rows = {NULL, 0};
    size_t rows_cap = 0;
    bool *row_user = NULL;
    size_t *order = time_order(evs);
    double *total = ct_malloc(n * sizeof *total);
    double *hi = ct_malloc(n * sizeof *hi);
    double *lo = ct_malloc(n * sizeof *lo);
    bool *has_child = ct_calloc(n, sizeof *has_child);
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    size_t *table = ct_calloc(slots, sizeof *table); /* row index + 1; 0 is empty */
    if (!order || !total || !hi || !lo || !has_child || !table) goto done;

    /* FunctionEvent.cpu_time_total = time_range.end - time_range.start, where
     * _parse_kineto_results made both ends rel_ns / 1000 (int / int: the correctly rounded
     * quotient, which is what dividing the exact double by 1000.0 gives below 2^53 ns). */
    for (size_t i = 0; i < n; i++) {
        double s = (double)(ev[i].start_ns - trace_start_ns) / 1000.0;
        double e = (double)(ev[i].end_ns - trace_start_ns) / 1000.0;
        total[i] = e - s;
    }

    /* self_cpu_time_total = cpu_time_total - sum(child.cpu_time_total for child in cpu_children).
     * Python's sum() starts from the int 0 (0 + x is x, or 0.0 for -0.0) and continues with
     * Neumaier's compensated summation, adding the compensation at the end when it is
     * non-zero and finite (CPython 3.12+ builtin_sum_impl). Children add up in event order. */
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (ev[i].removed) continue;
        int64_t p = ev[i].parent;
        for (size_t steps = 0; p != -1 && ev[p].removed && steps < n; steps++) p = ev[p].parent;
        if (p == -1 || ev[p].removed) continue;
        double x = total[i];
        if (!has_child[p]) {
            hi[p] = 0.0 + x;
            lo[p] = 0.0;
            has_child[p] = true;
        } else {
            double t = hi[p] + x;
            if (fabs(hi[p]) >= fabs(x)) lo[p] += (hi[p] - t) + x;
            else lo[p] += (x - t) + hi[p];
            hi[p] = t;
        }
    }

    /* FunctionEventAvg.add, event by event in event order: each sum starts from the int 0. */
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (ev[i].removed) continue;
        double children = 0.0;
        if (has_child[i]) {
            children = hi[i];
            if (lo[i] != 0 && isfinite(lo[i])) children += lo[i];
        }
        double self = has_child[i] ? total[i] - children : total[i];
        group_key key = {event_name(&ev[i]), ev[i].scope == CT_SCOPE_USER_SCOPE,
                         group_by_input_shape ? (ev[i].input_shapes ? ev[i].input_shapes : "[]") : NULL};
        size_t s = (size_t)group_hash(&key) & (slots - 1);
        size_t r = (size_t)-1;
        while (table[s]) {
            const ct_prof_row *c = &rows.rows[table[s] - 1];
            if (row_user[table[s] - 1] == key.user && strcmp(c->key, key.name) == 0 &&
                (!key.shapes || strcmp(c->input_shapes, key.shapes) == 0)) {
                r = table[s] - 1;
                break;
            }
            s = (s + 1) & (slots - 1);
        }
        if (r == (size_t)-1) {
            if (rows.n == rows_cap) {
                size_t cap = rows_cap ? rows_cap * 2 : 16;
                ct_prof_row *nr = ct_realloc(rows.rows, cap * sizeof *nr);
                if (!nr) goto done;
                rows.rows = nr;
                bool *nu = ct_realloc(row_user, cap * sizeof *nu);
                if (!nu) goto done;
                row_user = nu;
                rows_cap = cap;
            }
            ct_prof_row *nrow = &rows.rows[rows.n];
            memset(nrow, 0, sizeof *nrow);
            nrow->key = ct_strdup(key.name);
            if (nrow->key && key.shapes) nrow->input_shapes = ct_strdup(key.shapes);
            if (!nrow->key || (key.shapes && !nrow->input_shapes)) {
                ct_free(nrow->key);
                goto done;
            }
            row_user[rows.n] = key.user;
            r = rows.n++;
            table[s] = r + 1;
        }
        ct_prof_row *row = &rows.rows[r];
        row->count++;
        row->cpu_time_total_us += total[i];
        row->self_cpu_time_total_us += self;
    }
    rc = 0;
done:
    if (rc == 0) *out = rows;
    else ct_prof_rows_free(&rows);
    ct_free(row_user);
    ct_free(order);
    ct_free(total);
    ct_free(hi);
    ct_free(lo);
    ct_free(has_child);
    ct_free(table);
    return rc;
}

int ct_prof_key_averages(const ct_prof_events *evs, bool group_by_input_shape, ct_prof_rows *out) {
    return ct_prof_key_averages_since(evs, 0, group_by_input_shape, out);
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
    case SORT_CPU_AVG: kx = row_avg(x), ky = row_avg(y); break;
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
static size_t *row_order(const ct_prof_rows *rows, const char *sort_by, const char *fn) {
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
    if (attr != SORT_NONE && attr != SORT_CONSTANT && stable_sort(order, rows->n, cmp_row, &ctx) != 0) {
        ct_free(order);
        return NULL;
    }
    return order;
}

/* sum_self_cpu_time_total: starts from the int 0 and adds in the table's order. */
static double self_total(const ct_prof_rows *rows, const size_t *order) {
    double sum = 0.0;
    for (size_t k = 0; k < rows->n; k++) sum += rows->rows[order[k]].self_cpu_time_total_us;
    return sum;
}

/* _build_table's has_input_shapes: some row has a non-empty shapes list. */
static bool rows_have_shapes(const ct_prof_rows *rows) {
    for (size_t i = 0; i < rows->n; i++) {
        const char *s = rows->rows[i].input_shapes;
        if (s && *s && strcmp(s, "[]") != 0) return true;
    }
    return false;
}

/* ---- the table ------------------------------------------------------------------------------- */

#define MAX_NAME_COLUMN_WIDTH 55
#define MAX_SHAPES_COLUMN_WIDTH 80
#define DEFAULT_COLUMN_WIDTH 12
#define SPACING_SIZE 2

/* One "{: >width}" cell holding s[0..len) then suffix, and the two spaces after it (text
 * longer than width stays whole, as with str.format). */
static void cell_with(ct_strbuf *b, const char *s, size_t len, const char *suffix, size_t width) {
    size_t cps = u8_len(suffix);
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
    fmt_fixed(out, pct, 2);
    strcat(out, "%");
}

char *ct_prof_table(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *header) {
    static const char fn[] = "ct_prof_table";
    if (!rows) {
        ct_error_set(CT_ERR_VALUE, "%s: rows is NULL", fn);
        return NULL;
    }
    if (rows->n == 0) return ct_strdup(""); /* `if len(events) == 0: return ""`, before sorting */
    size_t *order = row_order(rows, sort_by, fn);
    if (!order) return NULL;
    const ct_prof_row *R = rows->rows;
    size_t n = rows->n;

    bool has_shapes = rows_have_shapes(rows);
    size_t name_w = 0, shapes_w = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = u8_len(R[i].key);
        if (l > name_w) name_w = l;
        l = R[i].input_shapes ? u8_len(R[i].input_shapes) : 0;
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
    double sum_self = self_total(rows, order);

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
        bool cut = u8_len(r->key) >= MAX_NAME_COLUMN_WIDTH - 3;
        if (cut) name_len = u8_prefix(r->key, MAX_NAME_COLUMN_WIDTH - 3);
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0) {
            failed = true;
            break;
        }
        char v_self_pct[NUMBUF + 4], v_self[NUMBUF + 4], v_total_pct[NUMBUF + 4], v_total[NUMBUF + 4],
            v_avg[NUMBUF + 4], v_count[32];
        pct_text(v_self_pct, self_pct, self_nan);
        format_time(v_self, r->self_cpu_time_total_us);
        pct_text(v_total_pct, total_pct, total_nan);
        format_time(v_total, r->cpu_time_total_us);
        format_time(v_avg, row_avg(r));
        snprintf(v_count, sizeof v_count, "%lld", (long long)r->count);

        cell_with(&b, r->key, name_len, cut ? "..." : "", widths[0]);
        const char *vals[6] = {v_self_pct, v_self, v_total_pct, v_total, v_avg, v_count};
        for (size_t c = 0; c < 6; c++) cell(&b, vals[c], strlen(vals[c]), widths[c + 1]);
        if (has_shapes) {
            const char *s = r->input_shapes ? r->input_shapes : "";
            cell(&b, s, u8_prefix(s, shapes_w), shapes_w);
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
    format_time(total_text, sum_self);
    ct_sb_puts(&b, "Self CPU time total: ");
    ct_sb_puts(&b, total_text);
    ct_sb_write(&b, "\n", 1);
    return ct_sb_finish(&b);
}

/* ---- CSV and JSON ------------------------------------------------------------------------------ */

/* What the CSV and JSON writers share with the table: the order, the rows shown and the total
 * the percentages divide by. Returns the order (ct_free) or NULL with the error. */
static size_t *report_rows(const ct_prof_rows *rows, const char *sort_by, int row_limit, const char *fn,
                           size_t *shown, double *sum_self) {
    size_t *order = row_order(rows, sort_by, fn);
    if (!order) return NULL;
    *shown = row_limit < 0 || (size_t)row_limit > rows->n ? rows->n : (size_t)row_limit;
    *sum_self = self_total(rows, order);
    return order;
}

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
    py_repr(r, v);
    ct_sb_puts(b, r);
}

static void csv_percent(ct_strbuf *b, double pct, bool is_nan) {
    if (is_nan) ct_sb_puts(b, "NaN");
    else csv_number(b, pct);
}

char *ct_prof_rows_csv(const ct_prof_rows *rows, const char *sort_by, int row_limit) {
    size_t shown;
    double sum_self;
    size_t *order = report_rows(rows, sort_by, row_limit, "ct_prof_rows_csv", &shown, &sum_self);
    if (!order) return NULL;
    bool has_shapes = rows_have_shapes(rows);
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_puts(&b, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls");
    ct_sb_puts(&b, has_shapes ? ",Input Shapes\n" : "\n");
    for (size_t k = 0; k < shown; k++) {
        const ct_prof_row *r = &rows->rows[order[k]];
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0) {
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
        csv_number(&b, row_avg(r));
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

/* Adds a number, or null for a NaN percentage; false when memory ran out. */
static bool json_num(cJSON *obj, const char *name, double v, bool is_null) {
    return (is_null ? cJSON_AddNullToObject(obj, name) : cJSON_AddNumberToObject(obj, name, v)) != NULL;
}

char *ct_prof_rows_json(const ct_prof_rows *rows, const char *sort_by, int row_limit) {
    size_t shown;
    double sum_self;
    size_t *order = report_rows(rows, sort_by, row_limit, "ct_prof_rows_json", &shown, &sum_self);
    if (!order) return NULL;
    char *text = NULL;
    cJSON *arr = cJSON_CreateArray();
    if (!arr) goto nomem;
    for (size_t k = 0; k < shown; k++) {
        const ct_prof_row *r = &rows->rows[order[k]];
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0)
            goto done;
        cJSON *obj = cJSON_CreateObject();
        if (!obj) goto nomem;
        if (!cJSON_AddItemToArray(arr, obj)) {
            cJSON_Delete(obj);
            goto nomem;
        }
        if (!cJSON_AddStringToObject(obj, "name", r->key)) goto nomem;
        if (r->input_shapes && !cJSON_AddStringToObject(obj, "input_shapes", r->input_shapes)) goto nomem;
        if (!json_num(obj, "count", (double)r->count, false) ||
            !json_num(obj, "self_cpu_time_total_us", r->self_cpu_time_total_us, false) ||
            !json_num(obj, "cpu_time_total_us", r->cpu_time_total_us, false) ||
            !json_num(obj, "cpu_time_avg_us", row_avg(r), false) ||
            !json_num(obj, "self_cpu_percent", self_pct, self_nan) ||
            !json_num(obj, "cpu_total_percent", total_pct, total_nan))
            goto nomem;
    }
    text = ct_json_dumps(arr, 2);
    goto done;
nomem:
    ct_error_set(CT_ERR_NOMEM, "ct_prof_rows_json: out of memory");
done:
    cJSON_Delete(arr);
    ct_free(order);
    return text;
}
