/* The diff of two trace files behind `ctorch diff` and Lab 00's report (trace_diff.h).
 *
 * The records are aligned by what identifies a hop (its kind, op, overload and key; for a
 * dispatch-mode view, op and overload) with Myers' O(ND) difference algorithm, after taking off
 * the common beginning and end. Aligned records are then compared on every field both files
 * have: the decision (kernel, key sets, TLS sets), the arguments (key sets, dtypes, shapes,
 * strides, values), grad mode, phase and the autograd links. Thread ids, times and tensor ids
 * (unless --ids) differ from run to run and are not compared. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctorch/trace.h"
#include "trace_diff.h"
#include "trace_read.h"

/* more differences than this and the alignment gives up (memory grows as its square) */
#define CT_DIFF_MAX_D 4000

typedef enum { E_SAME, E_CHANGED, E_ONLY_A, E_ONLY_B } edit_kind;
typedef struct edit {
    edit_kind kind;
    long a, b; /* record indexes, -1 when absent */
} edit;

typedef struct edits {
    edit *e;
    size_t n, cap;
    bool failed;
} edits;

static void push(edits *E, edit_kind k, long a, long b) {
    if (E->failed) return;
    if (E->n == E->cap) {
        size_t nc = E->cap ? E->cap * 2 : 256;
        edit *ne = realloc(E->e, nc * sizeof *ne);
        if (!ne) {
            E->failed = true;
            return;
        }
        E->e = ne;
        E->cap = nc;
    }
    E->e[E->n++] = (edit){k, a, b};
}

static void reverse(edit *e, size_t n) {
    for (size_t i = 0; i < n / 2; i++) {
        edit t = e[i];
        e[i] = e[n - 1 - i];
        e[n - 1 - i] = t;
    }
}

/* Myers' greedy algorithm over a[0..n) and b[0..m) (alignment ids), keeping V of every step to
 * walk back; the edits for this middle part are appended, offsets added. Returns 0, or 1 when
 * more than CT_DIFF_MAX_D differences were found (nothing appended), -1 without memory. */
static int myers(const int *a, long n, const int *b, long m, long ao, long bo, edits *E) {
    long max = n + m;
    if (max == 0) return 0;
    long dmax = max < CT_DIFF_MAX_D ? max : CT_DIFF_MAX_D;
    long **hist = calloc((size_t)dmax + 1, sizeof *hist);
    if (!hist) return -1;
    long found = -1;
    for (long d = 0; d <= dmax && found < 0; d++) {
        long *V = malloc((size_t)(2 * d + 1) * sizeof *V); /* V[k + d], k = -d..d */
        if (!V) {
            for (long i = 0; i < d; i++) free(hist[i]);
            free(hist);
            return -1;
        }
        hist[d] = V;
        const long *P = d ? hist[d - 1] : NULL; /* k = -(d-1)..(d-1) at P[k + d - 1] */
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (d == 0) x = 0;
            else if (k == -d || (k != d && P[k - 1 + d - 1] < P[k + 1 + d - 1])) x = P[k + 1 + d - 1]; /* down: b */
            else x = P[k - 1 + d - 1] + 1;                                                       /* right: a */
            long y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                x++;
                y++;
            }
            V[k + d] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
    }
    if (found < 0) {
        for (long i = 0; i <= dmax; i++) free(hist[i]);
        free(hist);
        return 1;
    }
    size_t start = E->n;
    long x = n, y = m;
    for (long d = found; d > 0; d--) {
        const long *P = hist[d - 1];
        long k = x - y;
        bool down = k == -d || (k != d && P[k - 1 + d - 1] < P[k + 1 + d - 1]);
        long pk = down ? k + 1 : k - 1;
        long px = P[pk + d - 1], py = px - pk;
        long mx = down ? px : px + 1, my = down ? py + 1 : py;
        while (x > mx && y > my) {
            x--;
            y--;
            push(E, E_SAME, ao + x, bo + y);
        }
        if (down) push(E, E_ONLY_B, -1, bo + py);
        else push(E, E_ONLY_A, ao + px, -1);
        x = px;
        y = py;
    }
    while (x > 0 && y > 0) {
        x--;
        y--;
        push(E, E_SAME, ao + x, bo + y);
    }
    reverse(E->e + start, E->n - start);
    for (long i = 0; i <= found; i++) free(hist[i]);
    free(hist);
    return E->failed ? -1 : 0;
}

/* The whole alignment: common beginning, the middle by Myers (or, past CT_DIFF_MAX_D
 * differences, all of A's middle then all of B's), common end. *gave_up says which. */
static int align(const ct_tr_file *A, const ct_tr_file *B, edits *E, bool *gave_up) {
    long n = (long)A->n, m = (long)B->n, pre = 0, suf = 0;
    while (pre < n && pre < m && A->recs[pre].align == B->recs[pre].align) pre++;
    while (suf < n - pre && suf < m - pre && A->recs[n - 1 - suf].align == B->recs[m - 1 - suf].align) suf++;
    for (long i = 0; i < pre; i++) push(E, E_SAME, i, i);
    long mn = n - pre - suf, mm = m - pre - suf;
    int *a = malloc((size_t)(mn + 1) * sizeof *a), *b = malloc((size_t)(mm + 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (long i = 0; i < mn; i++) a[i] = A->recs[pre + i].align;
    for (long i = 0; i < mm; i++) b[i] = B->recs[pre + i].align;
    int rc = myers(a, mn, b, mm, pre, pre, E);
    free(a);
    free(b);
    *gave_up = rc == 1;
    if (rc == 1) {
        for (long i = 0; i < mn; i++) push(E, E_ONLY_A, pre + i, -1);
        for (long i = 0; i < mm; i++) push(E, E_ONLY_B, -1, pre + i);
    } else if (rc < 0) {
        return -1;
    }
    for (long i = 0; i < suf; i++) push(E, E_SAME, n - suf + i, m - suf + i);
    for (size_t i = 0; i < E->n; i++)
        if (E->e[i].kind == E_SAME && A->recs[E->e[i].a].hash != B->recs[E->e[i].b].hash) E->e[i].kind = E_CHANGED;
    return E->failed ? -1 : 0;
}

/* ---- field-level differences ---------------------------------------------------------------- */

typedef struct field_diff {
    char field[160];
    cJSON *a, *b; /* borrowed from the detail trees; NULL when absent */
} field_diff;

/* Members of a and b that differ, in a's order then b's extras; args compared one by one. */
static int field_diffs(const cJSON *a, const cJSON *b, field_diff *out, int max) {
    int n = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, a) {
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
        if (strcmp(x->string, "args") == 0 && cJSON_IsArray(y)) {
            int na = cJSON_GetArraySize(x), nb = cJSON_GetArraySize(y);
            for (int i = 0; i < na || i < nb; i++) {
                const cJSON *u = cJSON_GetArrayItem(x, i), *v = cJSON_GetArrayItem(y, i);
                const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u ? u : v, "name"));
                if (!u || !v) {
                    if (n < max) {
                        snprintf(out[n].field, sizeof out[n].field, "args[%d] %s", i, name ? name : "?");
                        out[n].a = (cJSON *)u;
                        out[n].b = (cJSON *)v;
                    }
                    n++;
                    continue;
                }
                const cJSON *f;
                cJSON_ArrayForEach(f, u) {
                    const cJSON *g = cJSON_GetObjectItemCaseSensitive(v, f->string);
                    if (!g || !cJSON_Compare(f, g, true)) {
                        if (n < max) {
                            snprintf(out[n].field, sizeof out[n].field, "args[%d] %s.%s", i, name ? name : "?", f->string);
                            out[n].a = (cJSON *)f;
                            out[n].b = (cJSON *)g;
                        }
                        n++;
                    }
                }
                cJSON_ArrayForEach(f, v) {
                    if (cJSON_GetObjectItemCaseSensitive(u, f->string)) continue;
                    if (n < max) {
                        snprintf(out[n].field, sizeof out[n].field, "args[%d] %s.%s", i, name ? name : "?", f->string);
                        out[n].a = NULL;
                        out[n].b = (cJSON *)f;
                    }
                    n++;
                }
            }
            continue;
        }
        if (!y || !cJSON_Compare(x, y, true)) {
            if (n < max) {
                snprintf(out[n].field, sizeof out[n].field, "%s", x->string);
                out[n].a = (cJSON *)x;
                out[n].b = (cJSON *)y;
            }
            n++;
        }
    }
    cJSON_ArrayForEach(x, b) {
        if (cJSON_GetObjectItemCaseSensitive(a, x->string)) continue;
        if (n < max) {
            snprintf(out[n].field, sizeof out[n].field, "%s", x->string);
            out[n].a = NULL;
            out[n].b = (cJSON *)x;
        }
        n++;
    }
    return n;
}

static char *show(const cJSON *v) {
    if (!v) return strdup("(absent)");
    char *s = ct_json_dumps(v, -1);
    char *r = strdup(s ? s : "?");
    ct_free(s);
    return r;
}

/* For two printed key sets, the keys one has and the other lacks: "  (+Python, -AutogradCPU)";
 * "" for anything else. */
static void keyset_change(const cJSON *a, const cJSON *b, char *buf, size_t n) {
    buf[0] = '\0';
    const char *sa = cJSON_GetStringValue(a), *sb = cJSON_GetStringValue(b);
    const char *pre = "DispatchKeySet(";
    size_t pl = strlen(pre);
    if (!sa || !sb || strncmp(sa, pre, pl) != 0 || strncmp(sb, pre, pl) != 0) return;
    size_t len = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *from = pass ? sa : sb, *other = pass ? sb : sa; /* +: in b only; -: in a only */
        const char *p = from + pl;
        while (*p && *p != ')') {
            const char *e = p;
            while (*e && *e != ',' && *e != ')') e++;
            size_t kl = (size_t)(e - p);
            bool found = false;
            for (const char *q = other + pl; *q && *q != ')' && !found;) {
                const char *qe = q;
                while (*qe && *qe != ',' && *qe != ')') qe++;
                found = (size_t)(qe - q) == kl && strncmp(q, p, kl) == 0;
                q = *qe == ',' ? qe + 2 : qe;
            }
            if (!found && len + kl + 8 < n)
                len += (size_t)snprintf(buf + len, n - len, "%s%c%.*s", len ? ", " : "  (", pass ? '-' : '+', (int)kl, p);
            p = *e == ',' ? e + 2 : e;
        }
    }
    if (len && len + 2 < n) snprintf(buf + len, n - len, ")");
}

/* ---- output ------------------------------------------------------------------------------------ */

typedef struct out_style {
    bool color;
    const char *red, *green, *yellow, *cyan, *bold, *reset;
} out_style;

/* set when a header value could not be shown (out of memory): the text is then incomplete and
 * print_text fails rather than print "?" */
static _Thread_local bool show_failed;

static const char *hdr(const cJSON *h, const char *k, char *buf, size_t n) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, k);
    if (!v || cJSON_IsNull(v)) snprintf(buf, n, "-");
    else if (cJSON_IsString(v)) snprintf(buf, n, "%s", v->valuestring);
    else {
        char *s = ct_json_dumps(v, -1);
        snprintf(buf, n, "%s", s ? s : "?");
        if (!s) show_failed = true;
        ct_free(s);
    }
    return buf;
}

static void describe_file(FILE *o, const char *mark, const ct_tr_file *f, const out_style *st) {
    char v1[64], v2[64], seed[32], prog[512];
    fprintf(o, "%s%s %s%s  ", st->bold, mark, f->path, st->reset);
    if (f->pytorch)
        fprintf(o, "(PyTorch %s, a dispatch mode's view", hdr(f->header, "pytorch_version", v2, sizeof v2));
    else
        fprintf(o, "(ctorch %s following PyTorch %s", hdr(f->header, "ctorch_version", v1, sizeof v1),
                hdr(f->header, "pytorch_version", v2, sizeof v2));
    fprintf(o, "; seed %s; program: %s)\n", hdr(f->header, "seed", seed, sizeof seed), hdr(f->header, "program", prog, sizeof prog));
}

static void record_line(FILE *o, const out_style *st, char mark, const ct_tr_file *A, const ct_tr_file *B,
                        const ct_tr_strings *S, const edit *e) {
    const char *col = mark == '-' ? st->red : mark == '+' ? st->green : mark == '~' ? st->yellow : "";
    const ct_tr_rec *r = e->a >= 0 ? &A->recs[e->a] : &B->recs[e->b];
    char na[24] = "", nb[24] = "";
    if (e->a >= 0) snprintf(na, sizeof na, "%ld", e->a + 1);
    if (e->b >= 0) snprintf(nb, sizeof nb, "%ld", e->b + 1);
    fprintf(o, "%s%c %7s %7s  ", col, mark, na, nb);
    for (int d = 1; d < r->depth && d < 40; d++) fputc(' ', o);
    fprintf(o, "%s%s\n", ct_tr_string(S, r->label), *col ? st->reset : "");
}

typedef struct summary {
    size_t same, changed, only_a, only_b;
    long first; /* index into the edits of the first difference, -1 if none */
} summary;

static summary summarize(const edits *E) {
    summary s = {0, 0, 0, 0, -1};
    for (size_t i = 0; i < E->n; i++) {
        switch (E->e[i].kind) {
        case E_SAME: s.same++; break;
        case E_CHANGED: s.changed++; break;
        case E_ONLY_A: s.only_a++; break;
        case E_ONLY_B: s.only_b++; break;
        }
        if (E->e[i].kind != E_SAME && s.first < 0) s.first = (long)i;
    }
    return s;
}

static const char *what_of(ct_tr_view v) {
    return v == CT_TR_VIEW_MODE ? "ops at the Python key" : v == CT_TR_VIEW_CALLS ? "calls" : "hops";
}

/* the header fields that differ, as "seed 42 | 7" items */
static void header_differences(FILE *o, const ct_tr_file *A, const ct_tr_file *B, const out_style *st) {
    static const char *const keys[] = {"recorder", "ctorch_version", "pytorch_version", "seed", "program"};
    bool any = false;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char a[512], b[512];
        hdr(A->header, keys[i], a, sizeof a);
        hdr(B->header, keys[i], b, sizeof b);
        if (strcmp(a, b) == 0) continue;
        fprintf(o, "%s%s %s: %s | %s", any ? "; " : "headers differ (not compared): ", st->cyan, keys[i], a, b);
        fputs(st->reset, o);
        any = true;
    }
    if (any) fputc('\n', o);
}

static int print_text(FILE *o, ct_tr_file *A, ct_tr_file *B, const ct_tr_strings *S, const edits *E, ct_tr_view view,
                       unsigned fields, int context, bool all, bool gave_up, const out_style *st) {
    show_failed = false;
    describe_file(o, "---", A, st);
    describe_file(o, "+++", B, st);
    header_differences(o, A, B, st);
    if (show_failed) return -1;
    fprintf(o, "compared: %s, aligned by %s; ", what_of(view),
            view == CT_TR_VIEW_MODE ? "op and overload" : "call/redispatch, op, overload and key");
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{CT_TR_F_KERNEL, "kernel"},   {CT_TR_F_SETS, "merged/dispatch key sets"}, {CT_TR_F_TLS, "TLS sets"},
                 {CT_TR_F_ARGS, "arguments"}, {CT_TR_F_GRAD, "grad mode"},                 {CT_TR_F_PHASE, "phase"},
                 {CT_TR_F_AUTOGRAD, "autograd links"}, {CT_TR_F_IDS, "tensor ids"}};
    bool first = true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (fields & names[i].bit) {
            fprintf(o, "%s%s", first ? "then " : ", ", names[i].name);
            first = false;
        }
    fprintf(o, "\n");
    if (gave_up)
        fprintf(o, "more than %d differences: the middle of the traces is shown unaligned\n", CT_DIFF_MAX_D);
    /* hunks: differences with `context` equal records around them */
    long n = (long)E->n;
    long shown_to = -1;
    for (long i = 0; i < n; i++) {
        bool diff = E->e[i].kind != E_SAME;
        if (!all && !diff) continue;
        long from = all ? i : (i - context > shown_to + 1 ? i - context : shown_to + 1);
        if (from < 0) from = 0;
        long to = i;
        if (!all) {
            /* extend over differences closer than 2 * context */
            long last_diff = i;
            for (long j = i + 1; j < n && j <= last_diff + 2 * context + 1; j++)
                if (E->e[j].kind != E_SAME) last_diff = j;
            to = last_diff + context < n - 1 ? last_diff + context : n - 1;
            /* which records of each file the hunk shows, as unified diff's "-start,count" */
            long a0 = -1, a1 = -1, b0 = -1, b1 = -1;
            for (long j = from; j <= to; j++) {
                const edit *e = &E->e[j];
                if (e->a >= 0 && a0 < 0) a0 = e->a;
                if (e->a >= 0) a1 = e->a;
                if (e->b >= 0 && b0 < 0) b0 = e->b;
                if (e->b >= 0) b1 = e->b;
            }
            fprintf(o, "%s@@ A ", st->cyan);
            if (a0 >= 0) fprintf(o, "%ld-%ld", a0 + 1, a1 + 1);
            else fprintf(o, "none");
            fprintf(o, ", B ");
            if (b0 >= 0) fprintf(o, "%ld-%ld", b0 + 1, b1 + 1);
            else fprintf(o, "none");
            fprintf(o, " @@%s\n", st->reset);
        }
        for (long j = from; j <= to; j++) {
            const edit *e = &E->e[j];
            char mark = e->kind == E_SAME ? ' ' : e->kind == E_CHANGED ? '~' : e->kind == E_ONLY_A ? '-' : '+';
            record_line(o, st, mark, A, B, S, e);
            if (e->kind == E_CHANGED) {
                cJSON *da = ct_tr_details(A, (size_t)e->a, fields), *db = ct_tr_details(B, (size_t)e->b, fields);
                if (!da || !db) { /* out of memory: the changed fields cannot be shown */
                    cJSON_Delete(da);
                    cJSON_Delete(db);
                    return -1;
                }
                field_diff fd[32];
                int k = da && db ? field_diffs(da, db, fd, 32) : 0;
                for (int q = 0; q < k && q < 32; q++) {
                    char *sa = show(fd[q].a), *sb = show(fd[q].b);
                    char sets[512];
                    keyset_change(fd[q].a, fd[q].b, sets, sizeof sets);
                    fprintf(o, "%s                     %s: %s -> %s%s%s\n", st->yellow, fd[q].field, sa, sb, sets, st->reset);
                    free(sa);
                    free(sb);
                }
                if (k > 32) fprintf(o, "                     ... and %d more fields\n", k - 32);
                cJSON_Delete(da);
                cJSON_Delete(db);
            }
        }
        shown_to = to;
        i = to;
    }
    return 0;
}

static cJSON *side_json(const ct_tr_file *f, const ct_tr_strings *S, long i) {
    if (i < 0) return cJSON_CreateNull();
    const ct_tr_rec *r = &f->recs[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", (double)(i + 1));
    cJSON_AddNumberToObject(o, "line", (double)r->line);
    cJSON_AddNumberToObject(o, "depth", r->depth);
    cJSON_AddStringToObject(o, "record", ct_tr_string(S, r->label));
    return o;
}

static cJSON *file_json(const ct_tr_file *f) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", f->path);
    cJSON_AddItemToObject(o, "header", cJSON_Duplicate(f->header, true));
    cJSON_AddNumberToObject(o, "records", (double)f->n);
    return o;
}

static char *make_json(ct_tr_file *A, ct_tr_file *B, const ct_tr_strings *S, const edits *E, ct_tr_view view,
                       unsigned fields, bool gave_up) {
    summary s = summarize(E);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "a", file_json(A));
    cJSON_AddItemToObject(r, "b", file_json(B));
    cJSON_AddStringToObject(r, "view", ct_tr_view_name(view));
    cJSON *fl = cJSON_AddArrayToObject(r, "compared");
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{CT_TR_F_ARGS, "args"},          {CT_TR_F_KERNEL, "kernel"}, {CT_TR_F_TLS, "tls"},
                 {CT_TR_F_SETS, "key_sets"},      {CT_TR_F_GRAD, "grad_enabled"}, {CT_TR_F_PHASE, "phase"},
                 {CT_TR_F_AUTOGRAD, "autograd"}, {CT_TR_F_IDS, "ids"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (fields & names[i].bit) cJSON_AddItemToArray(fl, cJSON_CreateString(names[i].name));
    cJSON_AddBoolToObject(r, "same", s.first < 0);
    cJSON_AddBoolToObject(r, "aligned", !gave_up);
    cJSON *sm = cJSON_AddObjectToObject(r, "summary");
    cJSON_AddNumberToObject(sm, "a_records", (double)A->n);
    cJSON_AddNumberToObject(sm, "b_records", (double)B->n);
    cJSON_AddNumberToObject(sm, "same", (double)s.same);
    cJSON_AddNumberToObject(sm, "changed", (double)s.changed);
    cJSON_AddNumberToObject(sm, "only_a", (double)s.only_a);
    cJSON_AddNumberToObject(sm, "only_b", (double)s.only_b);
    cJSON *diffs = cJSON_AddArrayToObject(r, "differences");
    for (size_t i = 0; i < E->n; i++) {
        const edit *e = &E->e[i];
        if (e->kind == E_SAME) continue;
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "kind", e->kind == E_CHANGED ? "changed" : e->kind == E_ONLY_A ? "only_a" : "only_b");
        cJSON_AddItemToObject(d, "a", side_json(A, S, e->a));
        cJSON_AddItemToObject(d, "b", side_json(B, S, e->b));
        if (e->kind == E_CHANGED) {
            cJSON *da = ct_tr_details(A, (size_t)e->a, fields), *db = ct_tr_details(B, (size_t)e->b, fields);
            field_diff fd[64];
            int k = da && db ? field_diffs(da, db, fd, 64) : 0;
            cJSON *fs = cJSON_AddArrayToObject(d, "fields");
            for (int q = 0; q < k && q < 64; q++) {
                cJSON *f = cJSON_CreateObject();
                cJSON_AddStringToObject(f, "field", fd[q].field);
                cJSON_AddItemToObject(f, "a", fd[q].a ? cJSON_Duplicate(fd[q].a, true) : cJSON_CreateNull());
                cJSON_AddItemToObject(f, "b", fd[q].b ? cJSON_Duplicate(fd[q].b, true) : cJSON_CreateNull());
                cJSON_AddItemToArray(fs, f);
            }
            cJSON_Delete(da);
            cJSON_Delete(db);
        }
        cJSON_AddItemToArray(diffs, d);
    }
    char *text = ct_json_dumps(r, 2);
    cJSON_Delete(r);
    return text;
}

static void print_summary(FILE *o, const ct_tr_file *A, const ct_tr_file *B, const edits *E, ct_tr_view view,
                          const out_style *st) {
    summary s = summarize(E);
    const char *w = what_of(view);
    if (s.first < 0) {
        fprintf(o, "%ssame%s: %zu %s in each, every one equal\n", st->bold, st->reset, A->n, w);
        return;
    }
    const edit *f = &E->e[s.first];
    fprintf(o, "%sdifferent%s: %zu %s in A, %zu in B; %zu aligned (%zu equal, %zu changed), %zu only in A, %zu only in B; "
               "first difference: ",
            st->bold, st->reset, A->n, w, B->n, s.same + s.changed, s.same, s.changed, s.only_a, s.only_b);
    if (f->kind == E_CHANGED)
        fprintf(o, "A %ld (line %ld) and B %ld (line %ld) differ\n", f->a + 1, A->recs[f->a].line, f->b + 1, B->recs[f->b].line);
    else if (f->kind == E_ONLY_A)
        fprintf(o, "A %ld (line %ld) is only in A\n", f->a + 1, A->recs[f->a].line);
    else
        fprintf(o, "B %ld (line %ld) is only in B\n", f->b + 1, B->recs[f->b].line);
}

/* ---- the comparison ----------------------------------------------------------------------------- */

int ct_trace_diff(const char *a_path, const char *b_path, const ct_diff_options *opt, FILE *out, ct_diff_summary *sum,
                  char *err, size_t errsize) {
    if (sum) memset(sum, 0, sizeof *sum);
    ct_tr_file A, B;
    if (ct_tr_open(&A, a_path, err, errsize) != 0) return 2;
    if (ct_tr_open(&B, b_path, err, errsize) != 0) {
        ct_tr_close(&A);
        return 2;
    }
    if (opt->a_label) A.path = opt->a_label;
    if (opt->b_label) B.path = opt->b_label;
    int rc = 2;
    ct_tr_strings *S = ct_tr_strings_new();
    edits E = {NULL, 0, 0, false};
    int view = opt->view;
    if (view < 0) view = A.mode_view || B.mode_view ? CT_TR_VIEW_MODE : CT_TR_VIEW_HOPS;
    if ((A.mode_view || B.mode_view) && view != CT_TR_VIEW_MODE) {
        snprintf(err, errsize, "%s holds only what a dispatch mode saw: compare it with --view mode",
                 A.mode_view ? A.path : B.path);
        goto done;
    }
    unsigned fields = A.provides & B.provides;
    if (!opt->ids) fields &= ~(unsigned)CT_TR_F_IDS;
    if (!S) {
        snprintf(err, errsize, "out of memory");
        goto done;
    }
    if (ct_tr_load(&A, S, (ct_tr_view)view, fields, err, errsize) != 0 ||
        ct_tr_load(&B, S, (ct_tr_view)view, fields, err, errsize) != 0)
        goto done;
    if (view == CT_TR_VIEW_MODE) {
        const ct_tr_file *empty = !A.mode_view && A.n == 0 && B.n > 0 ? &A : !B.mode_view && B.n == 0 && A.n > 0 ? &B : NULL;
        if (empty) {
            snprintf(err, errsize,
                     "%s has no hop at the Python key, so nothing a dispatch mode would see: record the program with a "
                     "dispatch mode pushed (docs/guide.md, \"Diffing two runs\")",
                     empty->path);
            goto done;
        }
    }
    bool gave_up = false;
    if (align(&A, &B, &E, &gave_up) != 0) {
        snprintf(err, errsize, "out of memory aligning the traces");
        goto done;
    }
    summary s = summarize(&E);
    if (opt->json) {
        char *text = make_json(&A, &B, S, &E, (ct_tr_view)view, fields, gave_up);
        if (!text) {
            snprintf(err, errsize, "out of memory writing JSON");
            goto done;
        }
        fprintf(out, "%s\n", text);
        ct_free(text);
    } else {
        out_style st = {false, "", "", "", "", "", ""};
        if (opt->color) st = (out_style){true, "\033[31m", "\033[32m", "\033[33m", "\033[36m", "\033[1m", "\033[0m"};
        if (print_text(out, &A, &B, S, &E, (ct_tr_view)view, fields, opt->context, opt->all, gave_up, &st) != 0) {
            snprintf(err, errsize, "out of memory showing the differences");
            goto done;
        }
        print_summary(out, &A, &B, &E, (ct_tr_view)view, &st);
    }
    if (sum) {
        sum->a_records = A.n;
        sum->b_records = B.n;
        sum->same = s.same;
        sum->changed = s.changed;
        sum->only_a = s.only_a;
        sum->only_b = s.only_b;
    }
    rc = s.first < 0 ? 0 : 1;
done:
    free(E.e);
    ct_tr_strings_free(S);
    ct_tr_close(&A);
    ct_tr_close(&B);
    return rc;
}
