/* Lab 00's small helpers: text buffers, op logs, decision traces, key-set lists, profiler
 * tables and trees as the report reads them. */
#include "lab00_impl.h"

int lab00_text_open(text *t) {
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : -1;
}

/* the text, or NULL (CT_ERR_NOMEM) when a write to it failed */
char *lab00_text_close(text *t) {
    bool bad = !t->f || ferror(t->f);
    if (t->f && fclose(t->f) != 0) bad = true;
    t->f = NULL;
    if (bad) {
        free(t->buf);
        t->buf = NULL;
        ct_error_set(CT_ERR_NOMEM, "out of memory writing the lab's text");
    }
    return t->buf;
}

/* copies the logger's names (all or none); 0 or -1 (CT_ERR_NOMEM) */
int lab00_oplog_take(oplog *l, ct_op_logger *lg) {
    size_t n = ct_op_logger_count(lg);
    char **names = calloc(n ? n : 1, sizeof(char *));
    for (size_t i = 0; names && i < n; i++) {
        names[i] = strdup(ct_op_logger_get(lg, i));
        if (!names[i]) {
            for (size_t j = 0; j < i; j++) free(names[j]);
            free(names);
            names = NULL;
        }
    }
    ct_op_logger_clear(lg);
    if (!names) return -1;
    l->names = names;
    l->n = n;
    return 0;
}

void lab00_oplog_free(oplog *l) {
    for (size_t i = 0; l->names && i < l->n; i++) free(l->names[i]);
    free(l->names);
    l->names = NULL;
    l->n = 0;
}

bool lab00_oplog_has(const oplog *l, const char *name) {
    for (size_t i = 0; i < l->n; i++)
        if (l->names[i] && strcmp(l->names[i], name) == 0) return true;
    return false;
}

size_t lab00_oplog_count(const oplog *l, const char *name) {
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) n += l->names[i] && strcmp(l->names[i], name) == 0;
    return n;
}

/* ['aten.t.default', 'aten.addmm.default'] as Python prints the list */
void lab00_oplog_print_list(FILE *f, const oplog *l) {
    fputc('[', f);
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s'%s'", i ? ", " : "", l->names[i] ? l->names[i] : "?");
    fputc(']', f);
}

/* the same text, to compare with a recorded line */
char *lab00_oplog_list_string(const oplog *l) {
    text t;
    if (lab00_text_open(&t) != 0) return NULL;
    lab00_oplog_print_list(t.f, l);
    return lab00_text_close(&t);
}

void lab00_oplog_print_lines(FILE *f, const oplog *l) {
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s\n", l->names[i] ? l->names[i] : "?");
}

/* "aten.addmm.default" -> "addmm"; "aten.sum.dim_IntList" -> "sum.dim_IntList" */
void lab00_short_name(const char *n, char *buf, size_t size) {
    snprintf(buf, size, "%s", strncmp(n, "aten.", 5) == 0 ? n + 5 : n);
    size_t len = strlen(buf);
    if (len > 8 && strcmp(buf + len - 8, ".default") == 0) buf[len - 8] = '\0';
}

/* "`t` + `addmm`" */
void lab00_oplog_print_plus(FILE *f, const oplog *l) {
    for (size_t i = 0; i < l->n; i++) {
        char s[128];
        lab00_short_name(l->names[i], s, sizeof s);
        fprintf(f, "%s`%s`", i ? " + " : "", s);
    }
    if (l->n == 0) fprintf(f, "nothing");
}

void lab00_trace_print(FILE *f, const trace *t, bool full) {
    char line[8192];
    for (size_t i = 0; i < t->n; i++) {
        size_t k = ct_trace_format(&t->r[i], full, line, sizeof line);
        fwrite(line, 1, k < sizeof line ? k : sizeof line - 1, f);
    }
}

/* the first hop of `kind` for op `name` at or after index from; its index or -1 */
long lab00_trace_find(const trace *t, size_t from, ct_hop_kind kind, const char *name) {
    for (size_t i = from; i < t->n; i++)
        if (t->r[i].kind == kind && strcmp(ct_op_name(t->r[i].op), name) == 0) return (long)i;
    return -1;
}

/* "CPU, ADInplaceOrView" for a key set, "no key" for an empty one */
void lab00_keys_list(ct_keyset ks, char *buf, size_t size) {
    char full[1024];
    ct_keyset_format(ks, full, sizeof full);
    const char *p = strchr(full, '(');
    size_t len = p ? strlen(p + 1) : 0;
    if (len > 0 && p[len] == ')') len--;
    if (len == 0) snprintf(buf, size, "no key");
    else snprintf(buf, size, "%.*s", (int)len, p + 1);
}

/* the keys of a that b lacks (functionality bits; a per-backend key keeps its backend) */
ct_keyset lab00_ks_minus(ct_keyset a, ct_keyset b) { return ct_keyset_sub(a, b); }

bool lab00_ks_empty_funct(ct_keyset ks) { return (ks >> CT_NUM_BACKENDS) == 0; }

/* the lines of a profiler table whose name column is exactly `name` */
int lab00_table_rows_named(FILE *f, const char *table, const char *name) {
    int n = 0;
    const char *p = table;
    while (p && *p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        /* the name is right-aligned in the first column and followed by two spaces */
        size_t nl = strlen(name);
        size_t i = 0;
        while (i < len && p[i] == ' ') i++;
        if (i + nl + 2 <= len && memcmp(p + i, name, nl) == 0 && p[i + nl] == ' ' && p[i + nl + 1] == ' ') {
            fwrite(p, 1, len, f);
            fputc('\n', f);
            n++;
        }
        p = e ? e + 1 : NULL;
    }
    return n;
}

/* the table's header (its first three lines) */
void lab00_table_header(FILE *f, const char *table) {
    const char *p = table;
    for (int i = 0; i < 3 && p && *p; i++) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p + 1) : strlen(p);
        fwrite(p, 1, len, f);
        p = e ? e + 1 : NULL;
    }
}

void lab00_tree_parse(tree *t, const char *s) {
    size_t cap = 0;
    t->l = NULL;
    t->n = 0;
    for (const char *p = s; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t sp = 0;
        while (sp < len && p[sp] == ' ') sp++;
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            tree_line *nl = realloc(t->l, cap * sizeof *nl);
            if (!nl) return;
            t->l = nl;
        }
        tree_line *tl = &t->l[t->n++];
        tl->depth = (int)(sp / 2);
        const char *body = p + sp;
        size_t blen = len - sp;
        const char *sep = NULL;
        for (size_t i = 0; i + 2 < blen; i++)
            if (body[i] == ' ' && body[i + 1] == ' ' && body[i + 2] == '[') {
                sep = body + i;
                break;
            }
        size_t nlen = sep ? (size_t)(sep - body) : blen;
        snprintf(tl->name, sizeof tl->name, "%.*s", (int)nlen, body);
        snprintf(tl->shapes, sizeof tl->shapes, "%.*s", sep ? (int)(blen - nlen - 2) : 0, sep ? sep + 2 : "");
        p = e ? e + 1 : NULL;
    }
}

/* the first event named `name` at `depth` (-1: any depth) at or after index from; -1 if none */
long lab00_tree_find(const tree *t, size_t from, const char *name, int depth) {
    for (size_t i = from; i < t->n; i++)
        if (strcmp(t->l[i].name, name) == 0 && (depth < 0 || t->l[i].depth == depth)) return (long)i;
    return -1;
}

/* "`aten::t` [[600, 64]], `aten::addmm` [[600], ...]": the children of event i */
int lab00_tree_children(FILE *f, const tree *t, long i) {
    int n = 0;
    if (i < 0) return 0;
    for (size_t k = (size_t)i + 1; k < t->n && t->l[k].depth > t->l[i].depth; k++) {
        if (t->l[k].depth != t->l[i].depth + 1) continue;
        fprintf(f, "%s`%s`%s%s", n ? ", " : "", t->l[k].name, *t->l[k].shapes ? " " : "", t->l[k].shapes);
        n++;
    }
    return n;
}

/* the product shape of mm's inputs "[[m, k], [k, n]]" as "(m, n)"; false if not that form */
bool lab00_mm_product(const char *shapes, char *buf, size_t size) {
    long m, k1, k2, n;
    if (sscanf(shapes, "[[%ld, %ld], [%ld, %ld]]", &m, &k1, &k2, &n) != 4 || k1 != k2) return false;
    snprintf(buf, size, "(%ld, %ld)", m, n);
    return true;
}
