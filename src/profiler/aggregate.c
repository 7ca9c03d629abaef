/* The profiler's aggregation: PyTorch 2.6's EventList._remove_dup_nodes and key_averages
 * (torch/autograd/profiler_util.py). See aggregate.h for the contract; the comments here say
 * which PyTorch step each piece mirrors and why the arithmetic is written the way it is. The
 * reports on the rows are in report*.c. */
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
#include "util/grow.h"
#include "util/hindex.h"
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

/* ---- stable sorting of index arrays -------------------------------------------------------- */

/* Bottom-up merge sort of idx[0..n): stable, like Python's sort. -1 on CT_ERR_NOMEM. */
int ct_prof_stable_sort(size_t *idx, size_t n, ct_prof_idx_cmp cmp, const void *ctx) {
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
    if (ct_prof_stable_sort(order, evs->n, cmp_event_time, evs->ev) != 0) {
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

/* The grouping key of key_averages' get_key: (name, node_id, device_type, is_legacy,
 * is_user_annotation[, str(input_shapes)]); node, device and legacy are the same for every
 * CPU event here. */
typedef struct group_key {
    const char *name;
    bool user;
    const char *shapes; /* NULL when not grouping by shape */
} group_key;

static uint64_t group_hash(const group_key *k) {
    uint64_t h = ct_hash_str2(k->name, NULL) ^ (k->user ? 0x55u : 0xAAu);
    return k->shapes ? h ^ (ct_hash_str2(k->shapes, NULL) * 0x100000001B3ull) : h;
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
    size_t rows_cap = 0, user_cap = 0;
    bool *row_user = NULL;
    size_t *order = time_order(evs);
    double *total = ct_malloc(n * sizeof *total);
    double *hi = ct_malloc(n * sizeof *hi);
    double *lo = ct_malloc(n * sizeof *lo);
    bool *has_child = ct_calloc(n, sizeof *has_child);
    ct_hindex table = {0}; /* group key -> row; reserved for every event: it never grows */
    if (!order || !total || !hi || !lo || !has_child || ct_hindex_reserve(&table, n, NULL, NULL) != 0) goto done;

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
        size_t s = ct_hindex_first(&table, group_hash(&key));
        size_t r = (size_t)-1;
        for (uint32_t e; (e = table.slots[s]) != 0; s = ct_hindex_next(&table, s)) {
            const ct_prof_row *c = &rows.rows[e - 1];
            if (row_user[e - 1] == key.user && strcmp(c->key, key.name) == 0 &&
                (!key.shapes || strcmp(c->input_shapes, key.shapes) == 0)) {
                r = e - 1;
                break;
            }
        }
        if (r == (size_t)-1) {
            if (ct_grow(rows.rows, rows_cap, rows.n + 1, 16) != 0 || ct_grow(row_user, user_cap, rows.n + 1, 16) != 0)
                goto done;
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
            ct_hindex_put(&table, s, r);
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
    ct_hindex_free(&table);
    return rc;
}

int ct_prof_key_averages(const ct_prof_events *evs, bool group_by_input_shape, ct_prof_rows *out) {
    return ct_prof_key_averages_since(evs, 0, group_by_input_shape, out);
}
