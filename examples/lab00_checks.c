/* The comparisons of Lab 00's report with PyTorch's recordings (lab00_checks.h). */
#include "lab00_checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"

/* appends printf text to buf (truncating, always terminated) */
static void cat(char *buf, size_t size, const char *fmt, ...) {
    size_t len = strlen(buf);
    if (len + 1 >= size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* ---- the backward graph ---- */

static int graph_push(ct_lab_graph *g, size_t *cap, const int *path, int depth, const char *name) {
    if (g->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        ct_lab_graph_entry *ne = realloc(g->e, nc * sizeof *ne);
        if (!ne) return ct_error_set(CT_ERR_NOMEM, "out of memory walking the backward graph");
        g->e = ne;
        *cap = nc;
    }
    ct_lab_graph_entry *e = &g->e[g->n++];
    memset(e, 0, sizeof *e);
    for (int k = 0; k < depth && k < CT_LAB_GRAPH_DEPTH; k++) e->path[k] = path[k];
    e->depth = depth;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "");
    return 0;
}

static int walk(const ct_node *n, int *path, int depth, ct_lab_graph *g, size_t *cap) {
    if (graph_push(g, cap, path, depth, n ? ct_node_py_name(n) : NULL) != 0) return -1;
    if (!n || depth >= CT_LAB_GRAPH_DEPTH) return 0;
    for (int i = 0; i < ct_node_num_next(n); i++) {
        uint32_t nr = 0;
        path[depth] = i;
        if (walk(ct_node_next(n, i, &nr), path, depth + 1, g, cap) != 0) return -1;
    }
    return 0;
}

int ct_lab_graph_walk(const ct_node *root, ct_lab_graph *g) {
    int path[CT_LAB_GRAPH_DEPTH + 1] = {0};
    size_t cap = 0;
    g->e = NULL;
    g->n = 0;
    if (walk(root, path, 0, g, &cap) != 0) {
        ct_lab_graph_free(g);
        return -1;
    }
    return 0;
}

int ct_lab_graph_from_json(const cJSON *list, ct_lab_graph *g) {
    size_t cap = 0;
    g->e = NULL;
    g->n = 0;
    if (!cJSON_IsArray(list)) return -1;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");
        int path[CT_LAB_GRAPH_DEPTH] = {0};
        int depth = 0;
        const cJSON *k;
        bool ok = cJSON_IsArray(p) && (cJSON_IsString(nm) || cJSON_IsNull(nm));
        cJSON_ArrayForEach(k, p) {
            if (!cJSON_IsNumber(k) || depth == CT_LAB_GRAPH_DEPTH) ok = false;
            else path[depth++] = (int)k->valuedouble;
        }
        if (!ok || graph_push(g, &cap, path, depth, cJSON_GetStringValue(nm)) != 0) {
            ct_lab_graph_free(g);
            return -1;
        }
    }
    return 0;
}

void ct_lab_graph_free(ct_lab_graph *g) {
    free(g->e);
    g->e = NULL;
    g->n = 0;
}

static const ct_lab_graph_entry *at_path(const ct_lab_graph *g, const ct_lab_graph_entry *like) {
    for (size_t i = 0; i < g->n; i++)
        if (g->e[i].depth == like->depth && memcmp(g->e[i].path, like->path, sizeof(int) * (size_t)like->depth) == 0)
            return &g->e[i];
    return NULL;
}

/* "grad_fn", "grad_fn.next_functions[2][0]", "grad_fn.next_functions[2][0].next_functions[0][0]" */
static void path_text(const ct_lab_graph_entry *e, char *buf, size_t size) {
    snprintf(buf, size, "grad_fn");
    for (int k = 0; k < e->depth; k++) cat(buf, size, ".next_functions[%d][0]", e->path[k]);
}

void ct_lab_graph_compare(const ct_lab_graph *mine, const ct_lab_graph *ref, int *same, int *nodes, char *diff,
                          size_t size) {
    *same = *nodes = 0;
    diff[0] = '\0';
    int shown = 0;
    char where[256];
    for (size_t i = 0; i < mine->n; i++) {
        const ct_lab_graph_entry *m = &mine->e[i], *r = at_path(ref, m);
        bool mn = m->name[0] != '\0', rn = r && r->name[0] != '\0';
        if (!mn && !rn) continue;
        (*nodes)++;
        if (mn && rn && strcmp(m->name, r->name) == 0) {
            (*same)++;
            continue;
        }
        path_text(m, where, sizeof where);
        if (mn && rn)
            cat(diff, size, "%s`%s` at `%s` where PyTorch has `%s`", shown++ ? "; " : "", m->name, where, r->name);
        else if (mn)
            cat(diff, size, "%s`%s` at `%s`, where PyTorch's graph has %s", shown++ ? "; " : "", m->name, where,
                r ? "a None edge" : "no edge");
        else
            cat(diff, size, "%sa None edge at `%s` where PyTorch has `%s`", shown++ ? "; " : "", where, r->name);
    }
    for (size_t i = 0; i < ref->n; i++) {
        const ct_lab_graph_entry *r = &ref->e[i];
        if (!r->name[0] || at_path(mine, r)) continue;
        (*nodes)++;
        path_text(r, where, sizeof where);
        cat(diff, size, "%sPyTorch's `%s` at `%s`, where ctorch's graph has no edge", shown++ ? "; " : "", r->name, where);
    }
}

/* ---- the random inputs ---- */

bool ct_lab_bits_checksum(const ct_tensor *t, uint64_t *out) {
    if (!t || ct_tensor_dtype(t) != CT_FLOAT32) return false;
    int64_t n = ct_tensor_numel(t);
    double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!v || ct_tensor_to_doubles(t, v, n) != 0) {
        free(v);
        return false;
    }
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++) {
        float f = (float)v[i]; /* exact: the values are float32's */
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        s += (uint64_t)(i + 1) * bits;
    }
    free(v);
    *out = s;
    return true;
}

/* ---- key_averages tables ---- */

typedef struct span {
    size_t start, len;
} span;

/* the next line at p: its length; *next the line after it (NULL at the end) */
static size_t line_at(const char *p, const char **next) {
    const char *e = strchr(p, '\n');
    *next = e ? e + 1 : NULL;
    return e ? (size_t)(e - p) : strlen(p);
}

static bool is_rule(const char *p, size_t len) { return len > 0 && p[0] == '-'; }

/* the columns of a rule "-----  -----  ": runs of '-' */
static int rule_spans(const char *p, size_t len, span *out, int max) {
    int n = 0;
    for (size_t i = 0; i < len && n < max;) {
        if (p[i] != '-') {
            i++;
            continue;
        }
        size_t s = i;
        while (i < len && p[i] == '-') i++;
        out[n++] = (span){s, i - s};
    }
    return n;
}

/* column c of the line, spaces trimmed */
static void cell(const char *p, size_t len, span c, char *buf, size_t size) {
    size_t s = c.start < len ? c.start : len, e = c.start + c.len < len ? c.start + c.len : len;
    while (s < e && p[s] == ' ') s++;
    while (e > s && p[e - 1] == ' ') e--;
    snprintf(buf, size, "%.*s", (int)(e - s), p + s);
}

int ct_lab_prof_table_read(const char **pos, ct_lab_prof_table *t) {
    memset(t, 0, sizeof *t);
    const char *p = *pos, *next;
    /* the first rule followed by a line of titles starting with "Name" */
    while (p && *p) {
        size_t len = line_at(p, &next);
        const char *title = next;
        const char *after = NULL;
        size_t tlen = title ? line_at(title, &after) : 0;
        char first[16];
        span sp[16];
        if (is_rule(p, len) && title && rule_spans(p, len, sp, 16) > 0) {
            cell(title, tlen, sp[0], first, sizeof first);
            if (strcmp(first, "Name") == 0) break;
        }
        p = next;
    }
    if (!p || !*p) return 0;
    size_t len = line_at(p, &next);
    span sp[16];
    int ncol = rule_spans(p, len, sp, 16);
    const char *title = next;
    size_t tlen = line_at(title, &next);
    snprintf(t->header, sizeof t->header, "%.*s", (int)tlen, title);
    int calls = -1, shapes = -1;
    for (int c = 0; c < ncol; c++) {
        char name[64];
        cell(title, tlen, sp[c], name, sizeof name);
        cat(t->titles, sizeof t->titles, "%s%s", c ? "|" : "", name);
        if (strcmp(name, "# of Calls") == 0) calls = c;
        if (strcmp(name, "Input Shapes") == 0) shapes = c;
    }
    t->has_shapes = shapes >= 0;
    p = next; /* the rule under the titles */
    if (p) line_at(p, &p);
    int cap = 0;
    while (p && *p) {
        len = line_at(p, &next);
        if (is_rule(p, len)) {
            p = next;
            break;
        }
        if (t->n == cap) {
            cap = cap ? 2 * cap : 32;
            ct_lab_prof_row *nr = realloc(t->rows, (size_t)cap * sizeof *nr);
            if (!nr) {
                ct_lab_prof_table_free(t);
                return -1;
            }
            t->rows = nr;
        }
        ct_lab_prof_row *r = &t->rows[t->n++];
        cell(p, len, sp[0], r->name, sizeof r->name);
        r->calls[0] = r->shapes[0] = '\0';
        if (calls >= 0) cell(p, len, sp[calls], r->calls, sizeof r->calls);
        if (shapes >= 0) cell(p, len, sp[shapes], r->shapes, sizeof r->shapes);
        p = next;
    }
    *pos = p;
    return 1;
}

void ct_lab_prof_table_free(ct_lab_prof_table *t) {
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

void ct_lab_prof_compare(const ct_lab_prof_table *mine, const ct_lab_prof_table *ref, int *same, char *diff,
                         size_t size) {
    *same = 0;
    diff[0] = '\0';
    int shown = 0;
    for (int i = 0; i < ref->n; i++) {
        const ct_lab_prof_row *r = &ref->rows[i], *m = NULL;
        for (int k = 0; k < mine->n && !m; k++)
            if (strcmp(mine->rows[k].name, r->name) == 0 && (!ref->has_shapes || strcmp(mine->rows[k].shapes, r->shapes) == 0))
                m = &mine->rows[k];
        if (m && strcmp(m->calls, r->calls) == 0) {
            (*same)++;
            continue;
        }
        cat(diff, size, "%s`%s`%s%s", shown++ ? "; " : "", r->name, ref->has_shapes ? " " : "", ref->has_shapes ? r->shapes : "");
        if (m) cat(diff, size, " %s call%s (PyTorch %s)", m->calls, strcmp(m->calls, "1") == 0 ? "" : "s", r->calls);
        else cat(diff, size, " (not in ctorch's table)");
    }
}
