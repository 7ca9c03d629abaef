/* Lab 00 - trace the dispatcher over linear(x, W, b), part by part.
 *
 * The lab asks a student to run torch.nn.functional.linear(x, W, b) at the shape of a small
 * language model's head (x 2x64, W 600x64, b 600) and to watch every dispatcher decision:
 *
 *   A  the baseline call: its size and grad_fn (the call is written to a trace file)
 *   B  the dispatch key sets of the tensors (float32, float16; no_grad, inference_mode)
 *   C  a dispatch mode's log of linear, a function mode's view of the same call, and the
 *      decision trace (what PyTorch can only print with TORCH_SHOW_DISPATCH_TRACE in a debug
 *      build; here it is collected in memory)
 *   D  addmm called directly: with W.T made inside the mode, and made before it; its trace
 *      file, diffed against Part A's
 *   E  the profiler over forward + backward, with input shapes, after a warm-up, its own
 *      cost in the table's footer, its Chrome trace and its stacks for a flame graph
 *   F  the report, plus the stretch parts (float16, no_grad vs inference_mode, linear vs
 *      (x @ W.T) + b, a mode kept open over backward) and the picture of linear's graph
 *
 * Note [A report built from the run]
 *   Every sentence of REPORT.md that states a fact about the run is built from what this run
 *   recorded: the logs, the decision traces, the trace files, the profiler's tree and rows, the
 *   tensors' key sets, the autograd graph. What PyTorch does is taken from its recordings of the
 *   same lab (lab00.out and key_sets_and_modes.out in the reference folder, and the project's
 *   own tests/golden/torch-2.6/lab00_report.json: linear's backward graph and the inputs' bits),
 *   read and compared when the report is written (compare_run, before the first line, so that
 *   the Versions line claims as matching PyTorch only what this run's comparisons found equal and
 *   names what differed); without a recording its comparisons are left out and the report says
 *   so. A sentence whose fact did not hold in this run is replaced by one saying what did
 *   happen: the kernel said to have computed y is the one at the end of its op's chain of
 *   redispatches, a comparison of two facts states each. tests/test_lab00_prose.c runs the lab
 *   with linear decomposed differently (t + mm + add, and with the bias added in place), with a
 *   backward node renamed, with float16's key set changed, with the thread's key sets changed
 *   and without recordings, and checks that the prose follows. */
#include "lab00.h"
#include "files.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/json.h"
#include "ctorch/mode.h"
#include "ctorch/profiler.h"
#include "ctorch/trace.h"
#include "lab00_checks.h"
#include "render.h"
#include "trace_diff.h"
#include "trace_read.h"
#include "ctorch/file_set.h"

#define WARMUP_RUNS 2

/* ---- small helpers ------------------------------------------------------------------------ */

/* A growing text (open_memstream). */
typedef struct text {
    char *buf;
    size_t len;
    FILE *f;
} text;

static int text_open(text *t) {
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : -1;
}

/* the text, or NULL (CT_ERR_NOMEM) when a write to it failed */
static char *text_close(text *t) {
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

/* A captured dispatch-mode log: the op names, in order. */
typedef struct oplog {
    char **names;
    size_t n;
} oplog;

/* copies the logger's names (all or none); 0 or -1 (CT_ERR_NOMEM) */
static int oplog_take(oplog *l, ct_op_logger *lg) {
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

static void oplog_free(oplog *l) {
    for (size_t i = 0; l->names && i < l->n; i++) free(l->names[i]);
    free(l->names);
    l->names = NULL;
    l->n = 0;
}

static bool oplog_has(const oplog *l, const char *name) {
    for (size_t i = 0; i < l->n; i++)
        if (l->names[i] && strcmp(l->names[i], name) == 0) return true;
    return false;
}

static size_t oplog_count(const oplog *l, const char *name) {
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) n += l->names[i] && strcmp(l->names[i], name) == 0;
    return n;
}

/* ['aten.t.default', 'aten.addmm.default'] as Python prints the list */
static void oplog_print_list(FILE *f, const oplog *l) {
    fputc('[', f);
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s'%s'", i ? ", " : "", l->names[i] ? l->names[i] : "?");
    fputc(']', f);
}

/* the same text, to compare with a recorded line */
static char *oplog_list_string(const oplog *l) {
    text t;
    if (text_open(&t) != 0) return NULL;
    oplog_print_list(t.f, l);
    return text_close(&t);
}

static void oplog_print_lines(FILE *f, const oplog *l) {
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s\n", l->names[i] ? l->names[i] : "?");
}

/* "aten.addmm.default" -> "addmm"; "aten.sum.dim_IntList" -> "sum.dim_IntList" */
static void short_name(const char *n, char *buf, size_t size) {
    snprintf(buf, size, "%s", strncmp(n, "aten.", 5) == 0 ? n + 5 : n);
    size_t len = strlen(buf);
    if (len > 8 && strcmp(buf + len - 8, ".default") == 0) buf[len - 8] = '\0';
}

/* "`t` + `addmm`" */
static void oplog_print_plus(FILE *f, const oplog *l) {
    for (size_t i = 0; i < l->n; i++) {
        char s[128];
        short_name(l->names[i], s, sizeof s);
        fprintf(f, "%s`%s`", i ? " + " : "", s);
    }
    if (l->n == 0) fprintf(f, "nothing");
}

/* A collected decision trace. */
typedef struct trace {
    ct_dispatch_record *r;
    size_t n;
} trace;

static void trace_print(FILE *f, const trace *t, bool full) {
    char line[8192];
    for (size_t i = 0; i < t->n; i++) {
        size_t k = ct_trace_format(&t->r[i], full, line, sizeof line);
        fwrite(line, 1, k < sizeof line ? k : sizeof line - 1, f);
    }
}

/* the first hop of `kind` for op `name` at or after index from; its index or -1 */
static long trace_find(const trace *t, size_t from, ct_hop_kind kind, const char *name) {
    for (size_t i = from; i < t->n; i++)
        if (t->r[i].kind == kind && strcmp(ct_op_name(t->r[i].op), name) == 0) return (long)i;
    return -1;
}

/* "CPU, ADInplaceOrView" for a key set, "no key" for an empty one */
static void keys_list(ct_keyset ks, char *buf, size_t size) {
    char full[1024];
    ct_keyset_format(ks, full, sizeof full);
    const char *p = strchr(full, '(');
    size_t len = p ? strlen(p + 1) : 0;
    if (len > 0 && p[len] == ')') len--;
    if (len == 0) snprintf(buf, size, "no key");
    else snprintf(buf, size, "%.*s", (int)len, p + 1);
}

/* the keys of a that b lacks (functionality bits; a per-backend key keeps its backend) */
static ct_keyset ks_minus(ct_keyset a, ct_keyset b) { return ct_keyset_sub(a, b); }
static bool ks_empty_funct(ct_keyset ks) { return (ks >> CT_NUM_BACKENDS) == 0; }

/* the lines of a profiler table whose name column is exactly `name` */
static int table_rows_named(FILE *f, const char *table, const char *name) {
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
static void table_header(FILE *f, const char *table) {
    const char *p = table;
    for (int i = 0; i < 3 && p && *p; i++) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p + 1) : strlen(p);
        fwrite(p, 1, len, f);
        p = e ? e + 1 : NULL;
    }
}

/* ---- the profiler's event tree ("  " per depth, name, "  " and the input shapes) ---------- */

typedef struct tree_line {
    int depth;
    char name[192];
    char shapes[192];
} tree_line;

typedef struct tree {
    tree_line *l;
    size_t n;
} tree;

static void tree_parse(tree *t, const char *s) {
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
static long tree_find(const tree *t, size_t from, const char *name, int depth) {
    for (size_t i = from; i < t->n; i++)
        if (strcmp(t->l[i].name, name) == 0 && (depth < 0 || t->l[i].depth == depth)) return (long)i;
    return -1;
}

/* "`aten::t` [[600, 64]], `aten::addmm` [[600], ...]": the children of event i */
static int tree_children(FILE *f, const tree *t, long i) {
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
static bool mm_product(const char *shapes, char *buf, size_t size) {
    long m, k1, k2, n;
    if (sscanf(shapes, "[[%ld, %ld], [%ld, %ld]]", &m, &k1, &k2, &n) != 4 || k1 != k2) return false;
    snprintf(buf, size, "(%ld, %ld)", m, n);
    return true;
}

/* ---- PyTorch's recordings of this lab, read when the report is written -------------------- */

typedef struct reference {
    char dir[CT_EXAMPLE_PATH_MAX];
    char *lab;  /* lab00.out */
    char *keys; /* key_sets_and_modes.out */
    bool have_seed;
    unsigned long long lab_seed; /* the torch.manual_seed(N) of lab00.py, which lab00.out ran */
    char rec_dir[1024];
    cJSON *rec; /* lab00_report.json, the project's recording of what lab00.out lacks */
} reference;

static char *read_whole(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    text t;
    if (text_open(&t) != 0) {
        fclose(f);
        return NULL;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, t.f);
    fclose(f);
    return text_close(&t);
}

/* Reads what is there of the recordings; a missing file leaves its comparisons out. 0, or -1
 * when memory ran out reading one (the run fails rather than report less). */
static int reference_load(reference *R, const char *dir, const char *rec_dir) {
    memset(R, 0, sizeof *R);
    if (!dir || !*dir) return 0;
    /* the folder's length was checked when the lab started (REFERENCE_NAME_ROOM) */
    snprintf(R->dir, sizeof R->dir, "%s", dir);
    char p[CT_EXAMPLE_PATH_MAX];
    snprintf(p, sizeof p, "%s/lab00.out", dir);
    R->lab = read_whole(p);
    snprintf(p, sizeof p, "%s/key_sets_and_modes.out", dir);
    R->keys = read_whole(p);
    snprintf(p, sizeof p, "%s/lab00.py", dir);
    char *script = read_whole(p);
    const char *ms = script ? strstr(script, "torch.manual_seed(") : NULL;
    if (ms) {
        char *end;
        R->lab_seed = strtoull(ms + 18, &end, 10);
        R->have_seed = end != ms + 18 && *end == ')';
    }
    free(script);
    if (!rec_dir || !*rec_dir) return 0;
    snprintf(R->rec_dir, sizeof R->rec_dir, "%s", rec_dir);
    snprintf(p, sizeof p, "%s/lab00_report.json", rec_dir);
    ct_error_clear();
    R->rec = ct_json_parse_file(p);
    if (!R->rec && ct_error_code() == CT_ERR_NOMEM) return -1;
    ct_error_clear();
    return 0;
}

static void reference_free(reference *R) {
    free(R->lab);
    free(R->keys);
    cJSON_Delete(R->rec);
}

/* the rest of the first line of text starting with prefix, into buf; false if none */
static bool ref_after(const char *txt, const char *prefix, char *buf, size_t size) {
    if (!txt) return false;
    size_t pl = strlen(prefix);
    for (const char *p = txt; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len >= pl && memcmp(p, prefix, pl) == 0) {
            snprintf(buf, size, "%.*s", (int)(len - pl), p + pl);
            return true;
        }
        p = e ? e + 1 : NULL;
    }
    return false;
}

/* the k-th (0-based) line of lab00.out that is a key set: x, float16, float32 in its order */
static bool ref_keyset(const reference *R, int k, char *buf, size_t size) {
    if (!R->lab) return false;
    int seen = 0;
    for (const char *p = R->lab; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (strncmp(p, "DispatchKeySet(", 15) == 0 && seen++ == k) {
            snprintf(buf, size, "%.*s", (int)len, p);
            return true;
        }
        p = e ? e + 1 : NULL;
    }
    return false;
}

/* ---- the lab ------------------------------------------------------------------------------ */

#define MAX_FILES 12

typedef struct lab {
    uint64_t seed;
    bool own_generator; /* draw from a generator of the lab's own instead of the default one */
    const char *out_dir; /* where the parts write: a staging folder inside the output folder */
    reference ref;
    ct_tensor *x, *W, *b, *y;
    /* files written into out_dir, in order */
    const char *files[MAX_FILES];
    int nfiles;
    /* A */
    char y_size[64], y_grad_fn[128], y_node[64], y_row[256];
    double y_vals[4];
    uint64_t y_seq;
    bool have_node;
    char node_op[96];   /* the op whose autograd kernel made y.grad_fn, from linear.jsonl */
    char node_key[64];
    bool traced;        /* linear.jsonl and addmm.jsonl were written */
    char trace_note[512];
    /* B */
    ct_keyset ks_x, ks_x_detached, ks_f16, ks_f32, ks_i64, ks_nograd, ks_infer;
    ct_keyset tls_default_in, tls_default_ex, tls_nograd_in, tls_nograd_ex, tls_infer_in, tls_infer_ex;
    bool nograd_grad_enabled; /* torch.is_grad_enabled() inside no_grad */
    /* C */
    oplog linear_log;
    char **fn_names;
    size_t fn_n;
    trace linear_trace, linear_trace_mode;
    /* D */
    oplog addmm_T_log, addmm_pre_log;
    char *diff_text;
    int diff_rc;
    ct_diff_summary diff_sum;
    char diff_err[512];
    /* E */
    char *table, *table_shapes, *table_all, *table_shapes_all, *prof_tree;
    int64_t prof_events;
    double prof_overhead_ns;
    bool chrome_written, stacks_written;
    char chrome_err[512];
    ct_tensor *wt;   /* D: W.T made before the mode */
    ct_tensor *h[3]; /* stretch: float16 copies of x, W, b */
    /* stretch */
    ct_keyset ks_half;
    oplog half_log, nograd_log, infer_log, matmul_log, backward_log;
    trace nograd_trace, infer_trace;
    bool nograd_has_grad_fn;
    double matmul_max_diff;
    bool matmul_compared;
    /* the graph */
    char *dot;
    int render_rc;
    char render_why[512];
    FILE *err;     /* where a failed step is named (may be NULL) */
    bool draw_svg; /* run Graphviz on linear_graph.dot */
} lab;

static void lab_free(lab *L) {
    ct_tensor *ts[] = {L->x, L->W, L->b, L->y, L->wt, L->h[0], L->h[1], L->h[2]};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
    oplog *logs[] = {&L->linear_log, &L->addmm_T_log, &L->addmm_pre_log, &L->half_log, &L->nograd_log,
                     &L->infer_log, &L->matmul_log, &L->backward_log};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) oplog_free(logs[i]);
    for (size_t i = 0; L->fn_names && i < L->fn_n; i++) free(L->fn_names[i]);
    free(L->fn_names);
    trace *traces[] = {&L->linear_trace, &L->linear_trace_mode, &L->nograd_trace, &L->infer_trace};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) ct_free(traces[i]->r);
    ct_free(L->table);
    ct_free(L->table_shapes);
    ct_free(L->table_all);
    ct_free(L->table_shapes_all);
    ct_free(L->prof_tree);
    ct_free(L->dot);
    free(L->diff_text);
    reference_free(&L->ref);
}

static void add_file(lab *L, const char *name) {
    for (int i = 0; i < L->nfiles; i++)
        if (strcmp(L->files[i], name) == 0) return;
    if (L->nfiles < MAX_FILES) L->files[L->nfiles++] = name;
}

/* The room a name in the output folder takes after the folder's own: the staging folder
 * (".lab00.XXXXXX"), the slash, and the longest name the lab writes (linear_graph.svg; 40
 * leaves room to grow), checked when the lab starts so that out_path never cuts one short. */
#define OUT_NAME_ROOM (sizeof "/.lab00.XXXXXX/" - 1 + 40)
/* the same for the reference folder: its longest name is /key_sets_and_modes.out */
#define REFERENCE_NAME_ROOM (sizeof "/key_sets_and_modes.out" - 1)

/* L->out_dir/name into buf. Should the name not fit (it cannot, after the check above), buf
 * is left empty, which no call can open: never a shorter name that exists. */
static void out_path(const lab *L, const char *name, char *buf, size_t size) {
    if ((size_t)snprintf(buf, size, "%s/%s", L->out_dir, name) >= size) buf[0] = '\0';
}

static int write_out(lab *L, const char *name, const char *content) {
    char path[4096];
    out_path(L, name, path, sizeof path);
    if (ct_json_write_file_atomic(path, content) != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", path, ct_error_message());
        return -1;
    }
    add_file(L, name);
    return 0;
}

#define NEED(p)                                                                                   \
    do {                                                                                          \
        if (!(p)) {                                                                               \
            if (L->err) fprintf(L->err, "ctorch lab00: %s failed: %s\n", #p, ct_error_message()); \
            goto fail;                                                                            \
        }                                                                                         \
    } while (0)

/* Opens out_dir/name as a trace file: 1; 0 when one is open already (CTORCH_TRACE_FILE): then
 * the lab's own trace files are not written and the report says why; -1 when it cannot be
 * opened (the staging folder is the lab's own: that is an error, not a note for the report). */
static int trace_open(lab *L, const char *name, const char *program) {
    if (ct_trace_file_is_open()) {
        snprintf(L->trace_note, sizeof L->trace_note,
                 "a trace file was already open when the lab ran (CTORCH_TRACE_FILE), so the lab did not write its own");
        return 0;
    }
    char path[4096];
    out_path(L, name, path, sizeof path);
    ct_trace_file_options o = {program, true, L->seed, 0};
    if (ct_trace_file_open(path, &o) != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: %s could not be written: %s\n", name, ct_error_message());
        return -1;
    }
    return 1;
}

/* 0, or -1 when the file could not be completed (records dropped, a write failed) */
static int trace_close(lab *L, const char *name) {
    if (ct_trace_file_close() != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: %s could not be written: %s\n", name, ct_error_message());
        return -1;
    }
    add_file(L, name);
    return 0;
}

/* In linear.jsonl: the last call whose autograd kernel ran with sequence number seq, i.e. the
 * op that created the node numbered seq. */
static int node_maker(lab *L, const char *name, uint64_t seq) {
    char path[4096];
    out_path(L, name, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) return ct_error_set(CT_ERR_IO, "[Errno %d] %s: '%s'", errno, strerror(errno), path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int found = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        cJSON *r = ct_json_parse(line, (size_t)n);
        if (!r && ct_error_code() == CT_ERR_NOMEM) { /* the file is ours: only memory can fail */
            found = -1;
            break;
        }
        if (!r) continue;
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "seq");
        const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "kernel"));
        const char *hop = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "hop"));
        if (cJSON_IsNumber(s) && (uint64_t)s->valuedouble == seq && kernel && strcmp(kernel, "autograd kernel") == 0 &&
            hop && strcmp(hop, "call") == 0) {
            const char *op = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "op"));
            const char *ov = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "overload"));
            const char *key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "key"));
            if (ov && strcmp(ov, "default") != 0) snprintf(L->node_op, sizeof L->node_op, "%s.%s", op, ov);
            else snprintf(L->node_op, sizeof L->node_op, "%s", op ? op : "?");
            snprintf(L->node_key, sizeof L->node_key, "%s", key ? key : "?");
            found = 1;
        }
        cJSON_Delete(r);
    }
    free(line);
    fclose(f);
    return found;
}

/* torch.manual_seed(seed); x = randn(2, 64); W = randn(600, 64); b = randn(600), all
 * requires_grad=True; y = linear(x, W, b), written to linear.jsonl */
static int part_a(lab *L) {
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    cJSON *arr = NULL;
    char *s = NULL;
    double *all = NULL;
    ct_generator *gen = NULL; /* NULL: the default generator */
    if (L->own_generator) {
        NEED(gen = ct_generator_new());
        ct_generator_manual_seed(gen, L->seed);
    } else {
        ct_manual_seed(L->seed);
    }
    L->x = ct_randn_generator(xs, 2, gen, CT_DTYPE_UNDEFINED);
    L->W = L->x ? ct_randn_generator(ws, 2, gen, CT_DTYPE_UNDEFINED) : NULL;
    L->b = L->W ? ct_randn_generator(bs, 1, gen, CT_DTYPE_UNDEFINED) : NULL;
    ct_generator_release(gen);
    NEED(L->x && L->W && L->b);
    NEED(ct_tensor_set_requires_grad(L->x, true) == 0);
    NEED(ct_tensor_set_requires_grad(L->W, true) == 0);
    NEED(ct_tensor_set_requires_grad(L->b, true) == 0);
    int tracing = trace_open(L, "linear.jsonl", "Lab 00 Part A: y = linear(x, W, b)");
    NEED(tracing >= 0);
    L->y = ct_linear(L->x, L->W, L->b);
    if (tracing) {
        int crc = trace_close(L, "linear.jsonl");
        NEED(crc == 0);
        L->traced = true;
    }
    NEED(L->y);
    ct_tensor_format_size(L->y, L->y_size, sizeof L->y_size);
    const ct_node *fn = ct_tensor_grad_fn(L->y);
    char *repr = fn ? ct_node_repr(fn) : NULL;
    NEED(!fn || repr);
    snprintf(L->y_grad_fn, sizeof L->y_grad_fn, "%s", repr ? repr : "None");
    ct_free(repr);
    if (fn) {
        L->have_node = true;
        snprintf(L->y_node, sizeof L->y_node, "%s", ct_node_py_name(fn));
        L->y_seq = ct_node_sequence_nr(fn);
        if (L->traced) {
            int found = node_maker(L, "linear.jsonl", L->y_seq);
            NEED(found >= 0);
            if (!found) L->node_op[0] = '\0';
        }
    }
    /* y[0, :4].tolist(): Python floats, printed as repr() prints them */
    int64_t numel = ct_tensor_numel(L->y);
    all = malloc(sizeof(double) * (size_t)(numel > 0 ? numel : 1));
    NEED(all && ct_tensor_to_doubles(L->y, all, numel) == 0);
    NEED(arr = cJSON_CreateArray());
    bool ok = true;
    for (int i = 0; i < 4 && i < numel; i++) {
        L->y_vals[i] = all[i];
        ok &= ct_json_add(arr, NULL, cJSON_CreateNumber(all[i]));
    }
    NEED(ok);
    NEED(s = ct_json_dumps(arr, -1));
    snprintf(L->y_row, sizeof L->y_row, "%s", s);
    ct_free(s);
    cJSON_Delete(arr);
    free(all);
    return 0;
fail:
    cJSON_Delete(arr);
    free(all);
    return -1;
}

/* x._dispatch_key_set() and friends, and the thread-local sets under each grad mode */
static int part_b(lab *L) {
    int64_t one = 1;
    ct_tensor *d = NULL, *t16 = NULL, *t32 = NULL, *t64 = NULL, *tng = NULL, *tinf = NULL;
    L->ks_x = ct_tensor_keyset(L->x);
    NEED(d = ct_detach(L->x));
    L->ks_x_detached = ct_tensor_keyset(d);
    NEED(t16 = ct_empty(&one, 1, CT_FLOAT16, CT_MEMORY_FORMAT_NONE));
    L->ks_f16 = ct_tensor_keyset(t16);
    NEED(t32 = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE));
    L->ks_f32 = ct_tensor_keyset(t32);
    NEED(t64 = ct_empty(&one, 1, CT_INT64, CT_MEMORY_FORMAT_NONE));
    L->ks_i64 = ct_tensor_keyset(t64);
    L->tls_default_in = ct_tls_included();
    L->tls_default_ex = ct_tls_excluded();
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    tng = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    L->tls_nograd_in = ct_tls_included();
    L->tls_nograd_ex = ct_tls_excluded();
    L->nograd_grad_enabled = ct_is_grad_enabled();
    ct_grad_mode_exit(&g);
    NEED(tng);
    L->ks_nograd = ct_tensor_keyset(tng);
    ct_inference_mode_enter(&g);
    tinf = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    L->tls_infer_in = ct_tls_included();
    L->tls_infer_ex = ct_tls_excluded();
    ct_grad_mode_exit(&g);
    NEED(tinf);
    L->ks_infer = ct_tensor_keyset(tinf);
    int rc = 0;
    goto done;
fail:
    rc = -1;
done:;
    ct_tensor *all[] = {d, t16, t32, t64, tng, tinf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_tensor_release(all[i]);
    return rc;
}

/* the decision trace of fn: every record or an error (a trace whose records could not be
 * handed out, or whose ring overwrote some, is not the whole route) */
static int collect(trace *t, ct_tensor *(*fn)(lab *), lab *L) {
    if (ct_trace_begin() != 0) return -1;
    ct_tensor *y = fn(L);
    int rc = ct_trace_end(&t->r, &t->n);
    ct_trace_stats st;
    if (rc == 0 && ct_trace_get_stats(&st) == 0 && (st.overwritten || st.key_sets_lost))
        rc = ct_error_set(CT_ERR_RUNTIME, "the decision trace lost records (ring too small)");
    ct_tensor_release(y);
    return y && rc == 0 ? 0 : -1;
}

static ct_tensor *run_linear(lab *L) { return ct_linear(L->x, L->W, L->b); }

/* runs fn under a fresh LogDispatch-like mode and keeps the log */
static int logged(oplog *out, ct_tensor *(*fn)(lab *), lab *L) {
    ct_op_logger *lg = ct_op_logger_new();
    if (!lg || ct_op_logger_push(lg) != 0) {
        ct_op_logger_free(lg);
        return -1;
    }
    ct_tensor *y = fn(L);
    ct_op_logger_pop(lg);
    int rc = y ? oplog_take(out, lg) : -1;
    ct_op_logger_free(lg);
    ct_tensor_release(y);
    return rc;
}

/* with LogDispatch() as logger: y = linear(x, W, b); the function-mode view; the decision trace */
static int part_c(lab *L) {
    NEED(logged(&L->linear_log, run_linear, L) == 0);
    ct_function_logger *fl = ct_function_logger_new();
    if (fl && ct_function_logger_push(fl) != 0) {
        ct_function_logger_free(fl);
        fl = NULL;
    }
    NEED(fl);
    ct_tensor *y = ct_linear(L->x, L->W, L->b);
    ct_function_logger_pop(fl);
    L->fn_n = ct_function_logger_count(fl);
    L->fn_names = calloc(L->fn_n ? L->fn_n : 1, sizeof(char *));
    bool names_ok = L->fn_names != NULL;
    for (size_t i = 0; names_ok && i < L->fn_n; i++) names_ok = (L->fn_names[i] = strdup(ct_function_logger_get(fl, i))) != NULL;
    ct_function_logger_free(fl);
    ct_tensor_release(y);
    NEED(y && names_ok);
    NEED(collect(&L->linear_trace, run_linear, L) == 0);
    /* the same call with a dispatch mode on: the Python key joins the route */
    ct_op_logger *lg = ct_op_logger_new();
    if (lg && ct_op_logger_push(lg) != 0) {
        ct_op_logger_free(lg);
        lg = NULL;
    }
    NEED(lg);
    int rc = collect(&L->linear_trace_mode, run_linear, L);
    ct_op_logger_pop(lg);
    ct_op_logger_free(lg);
    NEED(rc == 0);
    return 0;
fail:
    return -1;
}

static ct_tensor *run_addmm_T(lab *L) {
    ct_tensor *wt = ct_numpy_T(L->W); /* W.T */
    ct_tensor *y = wt ? ct_addmm(L->b, L->x, wt, ct_int(1), ct_int(1)) : NULL;
    ct_tensor_release(wt);
    return y;
}

static ct_tensor *run_addmm_pre(lab *L) { return ct_addmm(L->b, L->x, L->wt, ct_int(1), ct_int(1)); }

/* addmm(b, x, W.T) directly: the transpose inside the mode, then made before it; its trace
 * file, diffed against linear's */
static int part_d(lab *L) {
    NEED(logged(&L->addmm_T_log, run_addmm_T, L) == 0);
    NEED(L->wt = ct_numpy_T(L->W));
    NEED(logged(&L->addmm_pre_log, run_addmm_pre, L) == 0);
    int tracing = L->traced ? trace_open(L, "addmm.jsonl", "Lab 00 Part D: y2 = addmm(b, x, W.T)") : 0;
    NEED(tracing >= 0);
    if (tracing) {
        ct_tensor *y2 = run_addmm_T(L);
        int crc = trace_close(L, "addmm.jsonl");
        ct_tensor_release(y2);
        NEED(y2 && crc == 0);
    } else {
        L->traced = false;
    }
    if (L->traced) {
        char a[4096], b[4096];
        out_path(L, "linear.jsonl", a, sizeof a);
        out_path(L, "addmm.jsonl", b, sizeof b);
        text t;
        NEED(text_open(&t) == 0);
        ct_diff_options o = {CT_TR_VIEW_HOPS, false, false, false, false, 3, "linear.jsonl", "addmm.jsonl"};
        ct_error_clear();
        L->diff_rc = ct_trace_diff(a, b, &o, t.f, &L->diff_sum, L->diff_err, sizeof L->diff_err);
        L->diff_text = text_close(&t);
        /* the files are the lab's own: a diff that ran out of memory is an error, not a note */
        NEED(L->diff_text && !(L->diff_rc == 2 && ct_error_code() == CT_ERR_NOMEM));
    }
    return 0;
fail:
    return -1;
}

/* y = linear(x, W, b); y.sum().backward() */
static int forward_backward(lab *L) {
    ct_tensor *y = ct_linear(L->x, L->W, L->b);
    ct_tensor *s = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    int rc = s ? ct_backward(s, NULL, false) : -1;
    ct_tensor_release(y);
    ct_tensor_release(s);
    return rc;
}

static void clear_grads(lab *L) {
    ct_tensor_set_grad(L->x, NULL);
    ct_tensor_set_grad(L->W, NULL);
    ct_tensor_set_grad(L->b, NULL);
}

/* with profile(record_shapes=True): y = linear(x, W, b); y.sum().backward(), after
 * WARMUP_RUNS unprofiled runs, as a profiling schedule skips its first steps */
static int part_e(lab *L) {
    ct_profiler *p = NULL;
    for (int i = 0; i < WARMUP_RUNS; i++) {
        NEED(forward_backward(L) == 0);
        clear_grads(L);
    }
    p = ct_profiler_start(true);
    NEED(p);
    NEED(ct_profiler_set_overhead_footer(p, true) == 0);
    int brc = forward_backward(L);
    if (ct_profiler_stop(p) != 0) brc = -1; /* events lost while recording: no report of them */
    NEED(brc == 0);
    NEED(L->table = ct_profiler_table(p, "cpu_time_total", 10, false));
    NEED(L->table_shapes = ct_profiler_table(p, "cpu_time_total", 10, true));
    NEED(L->table_all = ct_profiler_table(p, "cpu_time_total", -1, false));
    NEED(L->table_shapes_all = ct_profiler_table(p, "cpu_time_total", -1, true));
    NEED(L->prof_tree = ct_profiler_tree(p));
    L->prof_events = (int64_t)ct_profiler_num_events(p);
    int64_t raw = ct_profiler_raw_event_count(p);
    L->prof_overhead_ns = raw > 0 ? (double)ct_profiler_overhead_ns(p) / (double)raw : 0.0;
    char path[4096];
    out_path(L, "trace.json", path, sizeof path);
    /* written into the lab's own staging folder: a failure is an error of the run */
    NEED(ct_profiler_export_chrome_trace(p, path) == 0);
    L->chrome_written = true;
    add_file(L, "trace.json");
    out_path(L, "stacks.txt", path, sizeof path);
    NEED(ct_profiler_export_stacks(p, path, "self_cpu_time_total") == 0);
    L->stacks_written = true;
    add_file(L, "stacks.txt");
    ct_profiler_free(p);
    return 0;
fail:
    ct_profiler_free(p);
    return -1;
}

static ct_tensor *run_linear_half(lab *L) { return ct_linear(L->h[0], L->h[1], L->h[2]); }

static ct_tensor *run_linear_no_grad(lab *L) {
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    ct_tensor *y = ct_linear(L->x, L->W, L->b);
    L->nograd_has_grad_fn = y && ct_tensor_grad_fn(y) != NULL;
    ct_grad_mode_exit(&g);
    return y;
}

static ct_tensor *run_linear_inference(lab *L) {
    ct_grad_mode_guard g;
    ct_inference_mode_enter(&g);
    ct_tensor *y = ct_linear(L->x, L->W, L->b);
    ct_grad_mode_exit(&g);
    return y;
}

static ct_tensor *run_matmul_add(lab *L) {
    ct_tensor *wt = ct_numpy_T(L->W);
    ct_tensor *m = wt ? ct_matmul(L->x, wt) : NULL;
    ct_tensor *y = m ? ct_add(m, L->b, ct_int(1)) : NULL;
    ct_tensor_release(wt);
    ct_tensor_release(m);
    return y;
}

/* the mode stays open over y.sum().backward() */
static ct_tensor *run_linear_backward(lab *L) {
    ct_tensor *y = ct_linear(L->x, L->W, L->b);
    ct_tensor *s = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    int rc = s ? ct_backward(s, NULL, false) : -1;
    ct_tensor_release(s);
    if (rc != 0) {
        ct_tensor_release(y);
        return NULL;
    }
    return y;
}

/* the largest |a - b| / max(|b|, 1e-30) over two tensors of the same size */
static bool max_rel_diff(ct_tensor *a, ct_tensor *b, double *out) {
    int64_t n = ct_tensor_numel(a);
    if (n <= 0 || n != ct_tensor_numel(b)) return false;
    double *u = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n);
    bool ok = u && v && ct_tensor_to_doubles(a, u, n) == 0 && ct_tensor_to_doubles(b, v, n) == 0;
    double m = 0;
    for (int64_t i = 0; ok && i < n; i++) {
        double d = fabs(u[i] - v[i]) / fmax(fabs(v[i]), 1e-30);
        if (d > m) m = d;
    }
    free(u);
    free(v);
    *out = m;
    return ok;
}

static int stretch(lab *L) {
    /* start the backward stretch from fresh leaves, as after zero_grad(set_to_none=True) */
    clear_grads(L);
    ct_tensor *src[3] = {L->x, L->W, L->b};
    for (int i = 0; i < 3; i++) {
        /* x.detach().half() */
        ct_tensor *d = ct_detach(src[i]);
        L->h[i] = d ? ct_to_dtype(d, CT_FLOAT16, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor_release(d);
        NEED(L->h[i]);
    }
    L->ks_half = ct_tensor_keyset(L->h[0]);
    NEED(logged(&L->half_log, run_linear_half, L) == 0);
    NEED(logged(&L->nograd_log, run_linear_no_grad, L) == 0);
    NEED(collect(&L->nograd_trace, run_linear_no_grad, L) == 0);
    NEED(logged(&L->infer_log, run_linear_inference, L) == 0);
    NEED(collect(&L->infer_trace, run_linear_inference, L) == 0);
    NEED(logged(&L->matmul_log, run_matmul_add, L) == 0);
    ct_tensor *ym = run_matmul_add(L);
    NEED(ym);
    L->matmul_compared = max_rel_diff(ym, L->y, &L->matmul_max_diff);
    ct_tensor_release(ym);
    NEED(logged(&L->backward_log, run_linear_backward, L) == 0);
    return 0;
fail:
    return -1;
}

/* linear's backward graph, from Part A's y: linear_graph.dot, and .svg when Graphviz is here */
static int draw_graph(lab *L) {
    if (!L->have_node) return 0;
    const ct_tensor *ts[] = {L->x, L->W, L->b, L->y};
    const char *ns[] = {"x", "W", "b", "y"};
    ct_graph_dot_options o = {true, false, ts, ns, 4};
    NEED(L->dot = ct_autograd_graph_dot(L->y, &o));
    if (write_out(L, "linear_graph.dot", L->dot) != 0) return -1;
    char dp[4096], sp[4096];
    out_path(L, "linear_graph.dot", dp, sizeof dp);
    out_path(L, "linear_graph.svg", sp, sizeof sp);
    if (!L->draw_svg) {
        L->render_rc = -1;
        snprintf(L->render_why, sizeof L->render_why, "the SVG was not asked for");
        return 0;
    }
    L->render_rc = ct_example_render_dot(dp, sp, "svg", L->render_why, sizeof L->render_why);
    if (L->render_rc == 0) add_file(L, "linear_graph.svg");
    return 0;
fail:
    return -1;
}

/* ---- the outputs -------------------------------------------------------------------------- */

static char *make_trace_log(const lab *L) {
    text t;
    if (text_open(&t) != 0) return NULL;
    FILE *f = t.f;
    fprintf(f, "# Lab 00 trace log (ctorch %s, following PyTorch %s, seed %llu)\n\n", CTORCH_VERSION_STRING,
            ct_build_config()->pytorch_version, (unsigned long long)L->seed);
    fprintf(f, "## dispatch-mode log: linear(x, W, b)\n");
    oplog_print_lines(f, &L->linear_log);
    fprintf(f, "\n## dispatch-mode log: addmm(b, x, W.T), W.T inside the mode\n");
    oplog_print_lines(f, &L->addmm_T_log);
    fprintf(f, "\n## dispatch-mode log: addmm(b, x, Wt), Wt = W.T made before the mode\n");
    oplog_print_lines(f, &L->addmm_pre_log);
    fprintf(f, "\n## dispatch-mode log: (x @ W.T) + b\n");
    oplog_print_lines(f, &L->matmul_log);
    fprintf(f, "\n## dispatch-mode log: linear under no_grad\n");
    oplog_print_lines(f, &L->nograd_log);
    fprintf(f, "\n## dispatch-mode log: linear under inference_mode\n");
    oplog_print_lines(f, &L->infer_log);
    fprintf(f, "\n## dispatch-mode log: linear in float16\n");
    oplog_print_lines(f, &L->half_log);
    fprintf(f, "\n## dispatch-mode log: linear, then y.sum().backward(), with the mode still open\n");
    oplog_print_lines(f, &L->backward_log);
    fprintf(f, "\n## decision trace (PyTorch's TORCH_SHOW_DISPATCH_TRACE format): linear(x, W, b)\n");
    trace_print(f, &L->linear_trace, false);
    fprintf(f, "\n## decision trace, full form: linear(x, W, b)\n");
    fprintf(f, "# per hop: each tensor argument's key set, the thread-local include/exclude sets, the merged\n"
               "# set, the set left after masking out fallthrough keys, the winning key and what ran.\n");
    trace_print(f, &L->linear_trace, true);
    fprintf(f, "\n## decision trace, full form: linear(x, W, b) with a dispatch mode pushed\n");
    trace_print(f, &L->linear_trace_mode, true);
    fprintf(f, "\n## decision trace, full form: linear under no_grad\n");
    trace_print(f, &L->nograd_trace, true);
    fprintf(f, "\n## decision trace, full form: linear under inference_mode\n");
    trace_print(f, &L->infer_trace, true);
    return text_close(&t);
}

/* the PyTorch-format lines of a trace, as a code block */
static void short_trace_block(FILE *f, const trace *t) {
    fprintf(f, "```\n");
    trace_print(f, t, false);
    fprintf(f, "```\n");
}

/* The recording's line `prefix` (a list of op names) into rec and whether ctorch's list `mine`
 * is the same: 1 the same, 0 different, -1 no such line (or no recording). */
static int ref_list_cmp(const char *txt, const char *prefix, const char *mine, char *rec, size_t size) {
    if (!ref_after(txt, prefix, rec, size)) return -1;
    return mine && strcmp(mine, rec) == 0;
}

/* "PyTorch 2.6's recording of X (`lab00.out`, line `p`) logged [...]: the same ops." */
static void compare_log_sentence(FILE *f, const lab *L, const char *prefix, const oplog *l, const char *what) {
    char rec[1024];
    char *mine = oplog_list_string(l);
    int same = ref_list_cmp(L->ref.lab, prefix, mine, rec, sizeof rec);
    free(mine);
    if (same < 0) return;
    fprintf(f, "PyTorch 2.6's recording of %s (`lab00.out`, line `%s`) logged %s: %s.", what, prefix, rec,
            same ? "the same ops" : "a different list from ctorch's");
}

/* the function mode's log as Python prints the list: "['linear']" */
static char *fn_list_string(const lab *L) {
    text t;
    if (text_open(&t) != 0) return NULL;
    fputc('[', t.f);
    for (size_t i = 0; i < L->fn_n; i++) fprintf(t.f, "%s'%s'", i ? ", " : "", L->fn_names[i]);
    fputc(']', t.f);
    return text_close(&t);
}

/* The route of a trace's first call of op: the call, then every redispatch of the same op one
 * level further down, to the kernel that finally ran (the end of the chain, which made the
 * output). */
#define ROUTE_MAX 8
typedef struct route {
    long call;                      /* -1: the op was not called */
    long hop[ROUTE_MAX];            /* the redispatches, in order */
    int nhops;
    const char *call_key;
    char dispatch[512];             /* the key set the call was indexed by */
    char passed[512];               /* the key set the first redispatch got */
    ct_keyset passed_ks;
    long last;                      /* the hop whose kernel ran last: the call itself or the last redispatch */
} route;

static route route_of(const trace *t, const char *op) {
    route r;
    memset(&r, 0, sizeof r);
    r.call = trace_find(t, 0, CT_HOP_CALL, op);
    r.last = r.call;
    if (r.call < 0) return r;
    r.call_key = ct_key_name(t->r[r.call].key);
    ct_keyset_format(t->r[r.call].dispatch, r.dispatch, sizeof r.dispatch);
    for (size_t i = (size_t)r.call + 1; i < t->n && r.nhops < ROUTE_MAX; i++) {
        const ct_dispatch_record *prev = &t->r[r.last], *h = &t->r[i];
        if (h->kind != CT_HOP_REDISPATCH || h->op != prev->op || h->depth != prev->depth + 1) break;
        r.hop[r.nhops++] = (long)i;
        r.last = (long)i;
    }
    if (r.nhops) {
        r.passed_ks = t->r[r.hop[0]].merged;
        ct_keyset_format(r.passed_ks, r.passed, sizeof r.passed);
    }
    return r;
}

/* ---- the run against PyTorch's recordings -------------------------------------------------- */

/* What kinds of fact the report compares with PyTorch; the Versions line sums them up. */
enum { CMP_OPS, CMP_KEYS, CMP_NODES, CMP_TABLES, CMP_INPUTS, CMP_SIZE, CMP_VALUES, CMP_COUNT };
static const char *const cmp_what[CMP_COUNT] = {
    "op names and overloads in the dispatch-mode and function-mode logs",
    "key-set printouts",
    "autograd node names, node by node",
    "profiler tables: column titles, and PyTorch's recorded rows by name, input shapes and number of calls",
    "random numbers: x, W and b, bit for bit",
    "y's size",
    "y's first values, bit for bit"};

typedef struct tally {
    int same, total;
    char differ[2048]; /* what differed, "; "-separated */
    char why_not[256]; /* why nothing was compared ("" when something was) */
} tally;

static void tally_add(tally *t, bool same, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void tally_add(tally *t, bool same, const char *fmt, ...) {
    t->total++;
    if (same) {
        t->same++;
        return;
    }
    size_t len = strlen(t->differ);
    if (len && len + 3 < sizeof t->differ) {
        memcpy(t->differ + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->differ + len, sizeof t->differ - len, fmt, ap);
    va_end(ap);
}

/* adds `total` comparisons of which `same` matched; `differ` names the others */
static void tally_merge(tally *t, int same, int total, const char *differ) {
    t->same += same;
    t->total += total;
    if (same == total || !*differ) return;
    size_t len = strlen(t->differ);
    snprintf(t->differ + len, sizeof t->differ - len, "%s%s", len ? "; " : "", differ);
}

/* one key-set printout of Part B and PyTorch's line for it */
typedef struct ks_item {
    const char *label;
    char mine[1024];
    char rec[1024];
    int cmp; /* 1 the same, 0 different, -1 not recorded */
} ks_item;

#define KS_ITEMS 8
static void keyset_items(const lab *L, ks_item it[KS_ITEMS]) {
    const reference *R = &L->ref;
    static const char *const labels[KS_ITEMS] = {"x", "torch.empty(1, dtype=torch.float16)", "torch.empty(1)",
                                                 "the default exclude set", "the no_grad exclude set",
                                                 "the inference_mode exclude set", "a tensor made under inference_mode",
                                                 "an int64 tensor"};
    static const char *const prefixes[KS_ITEMS] = {NULL, NULL, NULL, "exclude default: ", "exclude no_grad: ",
                                                   "exclude inference_mode: ", "inference tensor keys: ", "int64 keys: "};
    const ct_keyset ks[KS_ITEMS] = {L->ks_x, L->ks_f16, L->ks_f32, L->tls_default_ex, L->tls_nograd_ex, L->tls_infer_ex,
                                    L->ks_infer, L->ks_i64};
    for (int k = 0; k < KS_ITEMS; k++) {
        it[k].label = labels[k];
        ct_keyset_format(ks[k], it[k].mine, sizeof it[k].mine);
        bool have = k < 3 ? ref_keyset(R, k, it[k].rec, sizeof it[k].rec)
                          : ref_after(R->keys, prefixes[k], it[k].rec, sizeof it[k].rec);
        it[k].cmp = have ? strcmp(it[k].rec, it[k].mine) == 0 : -1;
    }
}

/* Part A against lab00.out's first lines */
typedef struct out_cmp {
    bool have;            /* the recording printed y.shape, y.grad_fn and y[0,:4] */
    char size[128];       /* PyTorch's "torch.Size([2, 600])" */
    char node[96];        /* PyTorch's node name */
    bool size_same, node_same;
    bool values_compared; /* the recording's seed is this run's */
    int nv;
    double worst;         /* the largest relative difference of the first nv values */
} out_cmp;

typedef struct checks {
    bool any;           /* some recording was read */
    tally t[CMP_COUNT];
    out_cmp out;
    ks_item ks[KS_ITEMS];
    bool graph_compared;
    int graph_same, graph_nodes;
    char graph_diff[2048];
    int ntables;        /* recorded tables compared (0, 1 or 2) */
    int rows, rows_same;
    bool titles_same[2];
    char rows_diff[2048];
} checks;

static int compare_tables(const lab *L, checks *C) {
    const char *pos = L->ref.lab;
    const char *mine_text[2] = {L->table_all, L->table_shapes_all};
    for (int k = 0; k < 2 && pos; k++) {
        ct_lab_prof_table ref, mine;
        int rc = ct_lab_prof_table_read(&pos, &ref);
        if (rc <= 0) return rc < 0 ? ct_error_set(CT_ERR_NOMEM, "out of memory reading the recorded table") : 0;
        const char *mp = mine_text[k];
        int mrc = ct_lab_prof_table_read(&mp, &mine);
        if (mrc <= 0) {
            ct_lab_prof_table_free(&ref);
            return mrc < 0 ? ct_error_set(CT_ERR_NOMEM, "out of memory reading the profiler's table") : 0;
        }
        C->ntables++;
        C->titles_same[k] = strcmp(ref.titles, mine.titles) == 0;
        tally_add(&C->t[CMP_TABLES], C->titles_same[k], "the column titles of the table %s input shapes", k ? "with" : "without");
        int same = 0;
        char diff[1024];
        ct_lab_prof_compare(&mine, &ref, &same, diff, sizeof diff);
        C->rows += ref.n;
        C->rows_same += same;
        if (*diff) {
            size_t len = strlen(C->rows_diff);
            snprintf(C->rows_diff + len, sizeof C->rows_diff - len, "%s%s", len ? "; " : "", diff);
        }
        tally_merge(&C->t[CMP_TABLES], same, ref.n, diff);
        ct_lab_prof_table_free(&ref);
        ct_lab_prof_table_free(&mine);
    }
    return 0;
}

/* Everything this run compares with PyTorch, before a word of the report is written, so that
 * the Versions line can say what matched. 0, or -1 with the error set (memory). */
static int compare_run(const lab *L, checks *C) {
    const reference *R = &L->ref;
    memset(C, 0, sizeof *C);
    C->any = R->lab || R->keys || R->rec;
    /* op names: every log the recordings have a line for */
    const struct {
        const char *prefix, *label;
        const oplog *log;
    } logs[] = {{"linear: ", "`linear`", &L->linear_log},
                {"addmm: ", "`addmm(b, x, W.T)`", &L->addmm_T_log},
                {"matmul+add: ", "`(x @ W.T) + b`", &L->matmul_log},
                {"no_grad linear: ", "`linear` under no_grad", &L->nograd_log},
                {"half linear: ", "float16 `linear`", &L->half_log}};
    char rec[1024];
    for (size_t k = 0; k < sizeof logs / sizeof logs[0]; k++) {
        char *mine = oplog_list_string(logs[k].log);
        if (!mine) return -1;
        int same = ref_list_cmp(R->lab, logs[k].prefix, mine, rec, sizeof rec);
        if (same >= 0) tally_add(&C->t[CMP_OPS], same, "the dispatch-mode log of %s (ctorch %s, PyTorch %s)", logs[k].label, mine, rec);
        free(mine);
    }
    char *fl = fn_list_string(L);
    if (!fl) return -1;
    int fsame = ref_list_cmp(R->keys, "function mode: ", fl, rec, sizeof rec);
    if (fsame >= 0) tally_add(&C->t[CMP_OPS], fsame, "the function-mode log of `linear` (ctorch %s, PyTorch %s)", fl, rec);
    free(fl);
    /* key sets */
    keyset_items(L, C->ks);
    for (int k = 0; k < KS_ITEMS; k++)
        if (C->ks[k].cmp >= 0) tally_add(&C->t[CMP_KEYS], C->ks[k].cmp, "%s", C->ks[k].label);
    /* node names */
    const cJSON *rg = R->rec ? cJSON_GetObjectItemCaseSensitive(R->rec, "graph") : NULL;
    const ct_node *root = ct_tensor_grad_fn(L->y);
    if (rg && root) {
        ct_lab_graph mine, ref;
        if (ct_lab_graph_walk(root, &mine) != 0) return -1;
        if (ct_lab_graph_from_json(rg, &ref) == 0) {
            ct_lab_graph_compare(&mine, &ref, &C->graph_same, &C->graph_nodes, C->graph_diff, sizeof C->graph_diff);
            C->graph_compared = true;
            tally_merge(&C->t[CMP_NODES], C->graph_same, C->graph_nodes, C->graph_diff);
            ct_lab_graph_free(&ref);
        }
        ct_lab_graph_free(&mine);
    } else {
        snprintf(C->t[CMP_NODES].why_not, sizeof C->t[CMP_NODES].why_not, "%s",
                 !root ? "y has no grad_fn" : "no recording of PyTorch's graph (lab00_report.json) was read");
    }
    /* profiler tables */
    if (R->lab && compare_tables(L, C) != 0) return -1;
    /* random numbers: only when the recording drew with this run's seed */
    const cJSON *rseed = R->rec ? cJSON_GetObjectItemCaseSensitive(R->rec, "seed") : NULL;
    const cJSON *rin = R->rec ? cJSON_GetObjectItemCaseSensitive(R->rec, "inputs") : NULL;
    if (cJSON_IsNumber(rseed) && cJSON_IsObject(rin)) {
        if ((unsigned long long)rseed->valuedouble != (unsigned long long)L->seed) {
            snprintf(C->t[CMP_INPUTS].why_not, sizeof C->t[CMP_INPUTS].why_not,
                     "PyTorch's inputs were recorded with seed %.0f, this run drew them with seed %llu", rseed->valuedouble,
                     (unsigned long long)L->seed);
        } else {
            const char *names[3] = {"x", "W", "b"};
            const ct_tensor *ts[3] = {L->x, L->W, L->b};
            for (int k = 0; k < 3; k++) {
                const char *want = cJSON_GetStringValue(
                    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rin, names[k]), "checksum"));
                uint64_t sum = 0;
                if (!want || !ct_lab_bits_checksum(ts[k], &sum)) continue;
                char got[32];
                snprintf(got, sizeof got, "0x%016llx", (unsigned long long)sum);
                tally_add(&C->t[CMP_INPUTS], strcmp(got, want) == 0, "%s", names[k]);
            }
        }
    } else {
        snprintf(C->t[CMP_INPUTS].why_not, sizeof C->t[CMP_INPUTS].why_not,
                 "no recording of PyTorch's inputs (lab00_report.json) was read");
    }
    /* y: its size, y.grad_fn's name, its first values */
    out_cmp *o = &C->out;
    char rec_line[512], rec_vals[512];
    if (ref_after(R->lab, "torch.Size(", rec_line, sizeof rec_line) && ref_after(R->lab, "y[0,:4] [", rec_vals, sizeof rec_vals)) {
        o->have = true;
        const char *close = strstr(rec_line, ") <");
        snprintf(o->size, sizeof o->size, "torch.Size(%.*s)", close ? (int)(close - rec_line) : 0, rec_line);
        const char *rn = strchr(rec_line, '<');
        if (rn) snprintf(o->node, sizeof o->node, "%.*s", (int)strcspn(rn + 1, " >"), rn + 1);
        o->size_same = strcmp(o->size, L->y_size) == 0;
        o->node_same = strcmp(o->node, L->have_node ? L->y_node : "None") == 0;
        tally_add(&C->t[CMP_SIZE], o->size_same, "ctorch %s, PyTorch %s", L->y_size, o->size);
        o->values_compared = R->have_seed && R->lab_seed == (unsigned long long)L->seed;
        if (o->values_compared) {
            double rv;
            for (const char *p = rec_vals; o->nv < 4;) {
                char *end;
                rv = strtod(p, &end);
                if (end == p) break;
                o->worst = fmax(o->worst, fabs(L->y_vals[o->nv] - rv) / fmax(fabs(rv), 1e-30));
                o->nv++;
                p = end;
                while (*p == ',' || *p == ' ') p++;
            }
            tally_add(&C->t[CMP_VALUES], o->worst == 0, "y's first %d values, by at most %.2g relative", o->nv, o->worst);
        } else if (R->have_seed) {
            snprintf(C->t[CMP_VALUES].why_not, sizeof C->t[CMP_VALUES].why_not,
                     "the recording drew its inputs with seed %llu, this run with seed %llu", R->lab_seed,
                     (unsigned long long)L->seed);
        } else {
            snprintf(C->t[CMP_VALUES].why_not, sizeof C->t[CMP_VALUES].why_not, "the recording's seed is not known");
        }
    }
    if (!C->t[CMP_TABLES].total && !*C->t[CMP_TABLES].why_not)
        snprintf(C->t[CMP_TABLES].why_not, sizeof C->t[CMP_TABLES].why_not, "no recorded table was read");
    return 0;
}

/* "ctorch is built to follow PyTorch 2.6.0. Compared with ...: the same: ...; different: ..." */
static void versions_line(FILE *f, const checks *C) {
    fprintf(f, "- ctorch is built to follow PyTorch %s", ct_build_config()->pytorch_version);
    if (!C->any) {
        fprintf(f, ".\n");
        return;
    }
    fprintf(f, ". What this run compared with PyTorch 2.6's recordings (each part below shows the comparison):\n");
    const char *heads[3] = {"the same", "different", "not compared"};
    for (int h = 0; h < 3; h++) {
        int n = 0;
        for (int k = 0; k < CMP_COUNT; k++) {
            const tally *t = &C->t[k];
            int cls = t->total == 0 ? 2 : t->same == t->total ? 0 : 1;
            if (cls != h || (cls == 2 && !*t->why_not)) continue;
            fprintf(f, "%s", n++ ? ";\n    " : "  - ");
            if (n == 1) fprintf(f, "%s: ", heads[h]);
            if (cls == 0) fprintf(f, "%s (%d of %d)", cmp_what[k], t->same, t->total);
            else if (cls == 1) fprintf(f, "%s (%d of %d the same; differing: %s)", cmp_what[k], t->same, t->total, t->differ);
            else fprintf(f, "%s (%s)", cmp_what[k], t->why_not);
        }
        if (n) fprintf(f, ".\n");
    }
}

static char *make_report(const lab *L, const char *timestamp, const char *command) {
    checks *C = calloc(1, sizeof *C);
    if (!C) {
        ct_error_set(CT_ERR_NOMEM, "out of memory writing the report");
        return NULL;
    }
    if (compare_run(L, C) != 0) {
        free(C);
        return NULL;
    }
    text t;
    if (text_open(&t) != 0) {
        free(C);
        return NULL;
    }
    FILE *f = t.f;
    const reference *R = &L->ref;
    char buf[2048];

    /* the op behind y.grad_fn ("aten::addmm"), its dispatch-mode name ("aten.addmm.default") */
    const char *maker = L->node_op[0] ? L->node_op : NULL;
    char maker_py[128] = "";
    if (maker) {
        const ct_op *op = ct_op_find(maker);
        snprintf(maker_py, sizeof maker_py, "%s", op ? ct_op_python_name(op) : "");
        ct_error_clear();
    }
    const trace *lt = &L->linear_trace;
    route mr = maker ? route_of(lt, maker) : route_of(lt, "");
    long lin = trace_find(lt, 0, CT_HOP_CALL, "aten::linear");
    const char *lin_key = lin >= 0 ? ct_key_name(lt->r[lin].key) : NULL;
    bool fn_saw_linear = false;
    for (size_t i = 0; i < L->fn_n; i++) fn_saw_linear |= strcmp(L->fn_names[i], "linear") == 0;
    bool prof_linear = strstr(L->table_shapes_all, " aten::linear  ") != NULL;
    bool mode_saw_linear = oplog_has(&L->linear_log, "aten.linear.default");
    tree pt;
    tree_parse(&pt, L->prof_tree);

    fprintf(f, "# Lab 00 - tracing the dispatcher over `linear(x, W, b)`\n\n");
    fprintf(f, "Written by `%s` on %s, with ", command && *command ? command : "ct_example_lab00", timestamp);
    for (int i = 0, k = 0; i < L->nfiles; i++)
        if (strcmp(L->files[i], "REPORT.md") != 0) fprintf(f, "%s[%s](%s)", k++ ? ", " : "", L->files[i], L->files[i]);
    fprintf(f, " and [manifest.json](manifest.json) (which lists them all).\n\n");

    /* ---- versions ---- */
    fprintf(f, "## Versions\n\n");
    fprintf(f, "- ctorch %s (sources %.16s...), built by %s (%s), BLAS: %s\n", CTORCH_VERSION_STRING,
            ct_build_config()->source_hash, ct_build_config()->compiler,
            *ct_build_config()->build_type ? ct_build_config()->build_type : "default build type", ct_build_config()->blas);
    versions_line(f, C);
    char torch_version[128];
    if (ref_after(R->lab, "torch ", torch_version, sizeof torch_version))
        fprintf(f, "- PyTorch's own run of this lab, recorded in `lab00.out` (the folder of PyTorch 2.6's recordings\n"
                   "  that manifest.json names), printed `torch %s`; the comparisons below read that recording, and\n"
                   "  `key_sets_and_modes.out` beside it, as this report was written%s.\n",
                torch_version, R->rec ? ", and the project's own recording `lab00_report.json` (the graph's nodes and the inputs' bits)" : "");
    else
        fprintf(f, "- No recording of this lab under PyTorch was found (%s), so %s.\n",
                *R->dir ? "the folder given has no lab00.out" : "no folder was given",
                R->rec ? "only the comparisons with the project's own recording (`lab00_report.json`) are made"
                       : "this report makes no comparison\n  with PyTorch's output and claims no match with it");
    char xsz[64], wsz[64], bsz[64];
    ct_tensor_format_size(L->x, xsz, sizeof xsz);
    ct_tensor_format_size(L->W, wsz, sizeof wsz);
    ct_tensor_format_size(L->b, bsz, sizeof bsz);
    fprintf(f, "- seed %llu (`torch.manual_seed`); x: %s, W: %s, b: %s, %s, requires_grad=%s.\n\n",
            (unsigned long long)L->seed, xsz, wsz, bsz, ct_dtype_python_name(ct_tensor_dtype(L->x)),
            ct_tensor_requires_grad(L->x) && ct_tensor_requires_grad(L->W) && ct_tensor_requires_grad(L->b) ? "True"
                                                                                                         : "False");

    /* ---- A ---- */
    fprintf(f, "## Part A - the baseline call\n\n");
    fprintf(f, "`y = linear(x, W, b)`; `print(y.shape, y.grad_fn)` and the first values:\n\n```\n%s %s\ny[0,:4] %s\n```\n\n",
            L->y_size, L->y_grad_fn, L->y_row);
    if (!L->have_node) {
        fprintf(f, "`y.grad_fn` is None: no autograd node was recorded for this call.\n\n");
    } else if (maker) {
        char sn[128];
        short_name(maker_py, sn, sizeof sn);
        if (strcmp(maker, "aten::linear") == 0)
            fprintf(f, "`y.grad_fn` is `%s`, made by `aten::linear` itself (its call at key `%s` in "
                       "[linear.jsonl](linear.jsonl) carries the node's sequence number, %llu).\n\n",
                    L->y_node, L->node_key, (unsigned long long)L->y_seq);
        else
            fprintf(f, "`linear` was written, yet `y.grad_fn` is `%s`: the node was made by `%s`, %s. In\n"
                       "[linear.jsonl](linear.jsonl), the trace file of this call, the `[call] %s` at key `%s`\n"
                       "carries the node's sequence number, %llu, and its autograd kernel is what recorded the node.\n\n",
                    L->y_node, sn,
                    oplog_has(&L->linear_log, maker_py) ? "one of the ops `linear` was decomposed into"
                                                        : "an op called inside `linear` that the dispatch mode did not log",
                    maker, L->node_key, (unsigned long long)L->y_seq);
    } else {
        fprintf(f, "`y.grad_fn` is `%s` (sequence number %llu); %s, so which op made it is not shown here.\n\n", L->y_node,
                (unsigned long long)L->y_seq, L->traced ? "no call in linear.jsonl carries that number" : L->trace_note);
    }
    const out_cmp *oc = &C->out;
    if (oc->have) {
        fprintf(f, "PyTorch 2.6's recording printed `%s` and `<%s ...>`: ", oc->size, oc->node);
        if (oc->size_same && oc->node_same) fprintf(f, "the same size and node");
        else if (oc->size_same) fprintf(f, "the same size, but a different node (here `%s`)", L->have_node ? L->y_node : "None");
        else if (oc->node_same) fprintf(f, "the same node, but a different size (here `%s`)", L->y_size);
        else fprintf(f, "a different size and node (here `%s` and `%s`)", L->y_size, L->have_node ? L->y_node : "None");
        if (!oc->values_compared && R->have_seed)
            fprintf(f, "; its values are not compared: the recording drew its inputs with seed %llu, this run with seed %llu.\n\n",
                    R->lab_seed, (unsigned long long)L->seed);
        else if (!oc->values_compared)
            fprintf(f, "; its values are not compared: the recording's seed is not known (no lab00.py beside it).\n\n");
        else if (oc->worst == 0)
            fprintf(f, "; its first %d values are ctorch's, bit for bit.\n\n", oc->nv);
        else
            fprintf(f, "; its first %d values differ from ctorch's by at most %.2g relative.\n\n", oc->nv, oc->worst);
    }

    /* ---- B ---- */
    char s_x[512], s_xd[512], s_f32[512], s_f16[512], s_i64[512], s_ng[512], s_inf[512];
    ct_keyset_format(L->ks_x, s_x, sizeof s_x);
    ct_keyset_format(L->ks_x_detached, s_xd, sizeof s_xd);
    ct_keyset_format(L->ks_f32, s_f32, sizeof s_f32);
    ct_keyset_format(L->ks_f16, s_f16, sizeof s_f16);
    ct_keyset_format(L->ks_i64, s_i64, sizeof s_i64);
    ct_keyset_format(L->ks_nograd, s_ng, sizeof s_ng);
    ct_keyset_format(L->ks_infer, s_inf, sizeof s_inf);
    char di[512], de[1024], ni[512], ne[1024], ii[512], ie[1024];
    ct_keyset_format(L->tls_default_in, di, sizeof di);
    ct_keyset_format(L->tls_default_ex, de, sizeof de);
    ct_keyset_format(L->tls_nograd_in, ni, sizeof ni);
    ct_keyset_format(L->tls_nograd_ex, ne, sizeof ne);
    ct_keyset_format(L->tls_infer_in, ii, sizeof ii);
    ct_keyset_format(L->tls_infer_ex, ie, sizeof ie);
    fprintf(f, "## Part B - dispatch key sets\n\nWhat ctorch prints (`torch._C._dispatch_keys`):\n\n```\n");
    fprintf(f, "x (float32, requires_grad=True)         %s\n", s_x);
    fprintf(f, "x.detach() (requires_grad=False)        %s\n", s_xd);
    fprintf(f, "torch.empty(1)                          %s\n", s_f32);
    fprintf(f, "torch.empty(1, dtype=torch.float16)     %s\n", s_f16);
    fprintf(f, "torch.empty(1, dtype=torch.int64)       %s\n", s_i64);
    fprintf(f, "torch.empty(1) made under no_grad       %s\n", s_ng);
    fprintf(f, "torch.empty(1) made under inference_mode %s\n", s_inf);
    fprintf(f, "```\n\nThe thread-local sets the dispatcher merges with the tensors' keys:\n\n```\n");
    fprintf(f, "default         include %s\n                exclude %s\n", di, de);
    fprintf(f, "no_grad         include %s\n                exclude %s\n", ni, ne);
    fprintf(f, "inference_mode  include %s\n                exclude %s\n", ii, ie);
    fprintf(f, "```\n\n");
    /* what the printouts show, compared key by key */
    if (L->ks_x == L->ks_x_detached)
        fprintf(f, "x and x.detach() have the same key set: requires_grad is not part of it. ");
    else {
        keys_list(ks_minus(L->ks_x, L->ks_x_detached), buf, sizeof buf);
        fprintf(f, "x and x.detach() have different key sets (x has %s besides). ", buf);
    }
    if (L->ks_f32 == L->ks_f16 && L->ks_f32 == L->ks_i64) {
        fprintf(f, "float32, float16 and int64 tensors have the same key set: the dtype is not a dispatch key. ");
    } else {
        const struct {
            const char *name;
            ct_keyset ks;
        } others[] = {{"A float16", L->ks_f16}, {"An int64", L->ks_i64}};
        for (size_t k = 0; k < 2; k++) {
            if (others[k].ks == L->ks_f32) {
                fprintf(f, "%s tensor has float32's key set. ", others[k].name);
                continue;
            }
            fprintf(f, "%s tensor's key set differs from float32's:", others[k].name);
            ct_keyset lacks = ks_minus(L->ks_f32, others[k].ks), extra = ks_minus(others[k].ks, L->ks_f32);
            if (!ks_empty_funct(lacks)) {
                keys_list(lacks, buf, sizeof buf);
                fprintf(f, " it lacks %s", buf);
            }
            if (!ks_empty_funct(extra)) {
                keys_list(extra, buf, sizeof buf);
                fprintf(f, "%s has %s besides", ks_empty_funct(lacks) ? " it" : " and", buf);
            }
            fprintf(f, ". ");
        }
    }
    bool has_autograd_cpu = ct_keyset_has(L->ks_f32, CT_KEY_AutogradCPU);
    fprintf(f, "A float32 tensor %s `AutogradCPU`", has_autograd_cpu ? "carries" : "does not carry");
    if (has_autograd_cpu) {
        int n = 0;
        for (size_t i = 0; i < L->linear_trace.n; i++) {
            const ct_dispatch_record *r = &L->linear_trace.r[i];
            if (r->kind != CT_HOP_CALL || r->key != CT_KEY_AutogradCPU) continue;
            fprintf(f, "%s`%s`", n++ ? ", " : "; in Part C's decision trace the calls dispatched at it are ", ct_op_name(r->op));
        }
        if (!n) fprintf(f, ", yet no call of Part C's decision trace was dispatched at it");
    }
    fprintf(f, ". ");
    if (L->tls_nograd_in == L->tls_default_in && L->tls_nograd_ex == L->tls_default_ex)
        fprintf(f, "no_grad leaves both thread-local sets as they are (%s). ",
                L->nograd_grad_enabled ? "and grad mode read True inside it" : "it turns grad mode off: `torch.is_grad_enabled()` is False inside");
    else
        fprintf(f, "no_grad changes the thread-local sets. ");
    ct_keyset inc_gone = ks_minus(L->tls_default_in, L->tls_infer_in), exc_new = ks_minus(L->tls_infer_ex, L->tls_default_ex);
    if (ks_empty_funct(inc_gone) && ks_empty_funct(exc_new)) {
        fprintf(f, "inference_mode leaves both sets as they are");
    } else {
        fprintf(f, "inference_mode");
        if (!ks_empty_funct(inc_gone)) {
            keys_list(inc_gone, buf, sizeof buf);
            fprintf(f, " takes %s out of the include set", buf);
        }
        if (!ks_empty_funct(exc_new)) {
            keys_list(exc_new, buf, sizeof buf);
            fprintf(f, "%s adds %s to the exclude set", ks_empty_funct(inc_gone) ? "" : " and", buf);
            if (ct_keyset_has(L->tls_infer_ex, CT_KEY_AutogradOther) && !ct_keyset_has(L->tls_infer_ex, CT_KEY_AutogradCPU))
                fprintf(f, " (the autograd functionality without a backend bit, which prints as AutogradOther and\n"
                           "AutogradNestedTensor)");
        }
    }
    ct_keyset lost = ks_minus(L->ks_f32, L->ks_infer);
    if (!ks_empty_funct(lost)) {
        keys_list(lost, buf, sizeof buf);
        fprintf(f, "; a tensor made inside it lacks %s.\n\n", buf);
    } else {
        fprintf(f, "; a tensor made inside it has the same keys as one made outside.\n\n");
    }
    const ks_item *ki = C->ks;
    bool any_ks = false;
    for (int k = 0; k < KS_ITEMS; k++) any_ks |= ki[k].cmp >= 0;
    if (any_ks) {
        fprintf(f, "Against PyTorch 2.6's recordings:");
        for (int k = 0; k < KS_ITEMS; k++)
            if (ki[k].cmp >= 0) fprintf(f, " %s: %s;", ki[k].label, ki[k].cmp ? "the same" : "different (below)");
        fprintf(f, " (each `the same` means ctorch printed exactly PyTorch's line).\n\n");
        for (int k = 0; k < KS_ITEMS; k++)
            if (ki[k].cmp == 0) fprintf(f, "- %s: ctorch `%s`, PyTorch 2.6 `%s`\n", ki[k].label, ki[k].mine, ki[k].rec);
        fprintf(f, "\n");
    }

    /* ---- C ---- */
    fprintf(f, "## Part C - a dispatch mode logs every op\n\n");
    fprintf(f, "`with LogDispatch() as logger: y = linear(x, W, b)` (forward only):\n\n```\n");
    oplog_print_lines(f, &L->linear_log);
    fprintf(f, "```\n\n");
    fprintf(f, "The mode logged %zu op%s. ", L->linear_log.n, L->linear_log.n == 1 ? "" : "s");
    compare_log_sentence(f, L, "linear: ", &L->linear_log, "`linear`");
    if (fn_saw_linear && !mode_saw_linear)
        fprintf(f, "\n\nA function mode (TorchFunctionMode) sees the public calls before any decomposition:\n\n```\n");
    else
        fprintf(f, "\n\nA function mode (TorchFunctionMode) over the same call logged:\n\n```\n");
    for (size_t i = 0; i < L->fn_n; i++) fprintf(f, "%s\n", L->fn_names[i]);
    fprintf(f, "```\n\n");
    {
        char rec[1024];
        char *fl = fn_list_string(L);
        int same = ref_list_cmp(R->keys, "function mode: ", fl, rec, sizeof rec);
        if (same >= 0)
            fprintf(f, "PyTorch 2.6's recording of the function mode over `linear` (`key_sets_and_modes.out`, line\n"
                       "`function mode: `) logged %s: %s.\n\n",
                    rec, same ? "the same calls" : "a different list from ctorch's");
        free(fl);
    }
    fprintf(f, "The decision trace of the same call, one line per hop in the form PyTorch's debug builds print\n"
               "with `TORCH_SHOW_DISPATCH_TRACE` (its release builds print nothing, so no recording of PyTorch's\n"
               "trace is compared here; the full form, with every argument's key set, the TLS sets, the merged set\n"
               "and the kernel, is in trace.log, and every field of every hop is in [linear.jsonl](linear.jsonl)):\n\n");
    short_trace_block(f, lt);
    fprintf(f, "\n");

    /* ---- D ---- */
    fprintf(f, "## Part D - addmm called directly\n\n```\n");
    fprintf(f, "linear(x, W, b):                       ");
    oplog_print_list(f, &L->linear_log);
    fprintf(f, "\naddmm(b, x, W.T), W.T inside the mode:  ");
    oplog_print_list(f, &L->addmm_T_log);
    fprintf(f, "\naddmm(b, x, Wt), Wt = W.T made before:  ");
    oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, "\n```\n\n");
    size_t nl = L->linear_log.n, nT = L->addmm_T_log.n, np = L->addmm_pre_log.n;
    fprintf(f, "`linear` logged %zu op%s. `addmm(b, x, W.T)` with `W.T` written inside the mode logged %zu", nl,
            nl == 1 ? "" : "s", nT);
    if (nT > 0 && strcmp(L->addmm_T_log.names[0], "aten.permute.default") == 0) {
        fprintf(f, ", the first a `permute`");
        if (L->diff_text && strstr(L->diff_text, "[call] aten::numpy_T "))
            fprintf(f, ": `W.T` is `numpy_T` (its trace file below has the call), which becomes a `permute` the mode sees");
    }
    fprintf(f, ". With the transpose made before the mode, the direct call logged %zu (", np);
    oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, "), %s `linear`", np < nl ? "fewer than" : np == nl ? "as many as" : "more than");
    /* the ops of linear's log the direct call does not make */
    size_t extra = 0;
    for (size_t i = 0; i < nl; i++)
        if (!oplog_has(&L->addmm_pre_log, L->linear_log.names[i])) {
            char s[128];
            short_name(L->linear_log.names[i], s, sizeof s);
            fprintf(f, "%s`%s`", extra++ ? ", " : ": `linear`'s log also has ", s);
        }
    fprintf(f, ". ");
    compare_log_sentence(f, L, "addmm: ", &L->addmm_T_log, "`addmm(b, x, W.T)`");
    fprintf(f, "\n\n");

    /* ---- the diff ---- */
    fprintf(f, "## linear against addmm(b, x, W.T), hop by hop\n\n");
    if (L->diff_text && L->diff_rc != 2) {
        fprintf(f, "Both calls were written to trace files without a mode (Part A's [linear.jsonl](linear.jsonl),\n"
                   "Part D's [addmm.jsonl](addmm.jsonl)); `ctorch diff linear.jsonl addmm.jsonl` aligns their hops and\n"
                   "compares every decision and argument of the aligned ones:\n\n```\n%s```\n\n",
                L->diff_text);
        const ct_diff_summary *s = &L->diff_sum;
        fprintf(f, "%zu of linear's %zu hops have no counterpart in addmm's trace and %zu of addmm's %zu none in\n"
                   "linear's; the %zu aligned hops %s.\n\n",
                s->only_a, s->a_records, s->only_b, s->b_records, s->same + s->changed,
                s->changed == 0 ? "made the same decisions with the same arguments"
                                : "include some whose decision or arguments differ (marked ~ above)");
    } else {
        fprintf(f, "Not shown: %s.\n\n", L->diff_text ? L->diff_err : L->trace_note);
    }

    /* ---- E ---- */
    fprintf(f, "## Part E - the profiler over forward and backward\n\n");
    fprintf(f, "Forward and backward ran %d times before the profiled run, as a profiling schedule's warm-up\n"
               "steps do, so that the one-time work of a process's first run is not in the table.\n"
               "Then `with profile(record_shapes=True): y = linear(x, W, b); y.sum().backward()` and\n"
               "`key_averages().table(sort_by=\"cpu_time_total\", row_limit=10)`:\n\n```\n%s```\n\n",
            WARMUP_RUNS, L->table);
    fprintf(f, "Grouped by input shape (`key_averages(group_by_input_shape=True)`, same sort and limit):\n\n```\n%s```\n\n",
            L->table_shapes);
    char evaluate[160] = "", node_row[96] = "";
    if (L->have_node) {
        snprintf(evaluate, sizeof evaluate, "autograd::engine::evaluate_function: %s", L->y_node);
        snprintf(node_row, sizeof node_row, "%s", L->y_node);
    }
    fprintf(f, "The rows to point out (from the grouped table without a row limit):\n\n```\n");
    table_header(f, L->table_shapes_all);
    table_rows_named(f, L->table_shapes_all, "aten::linear");
    if (maker && strcmp(maker, "aten::linear") != 0) {
        char base[96];
        snprintf(base, sizeof base, "%.*s", (int)strcspn(maker, "."), maker);
        table_rows_named(f, L->table_shapes_all, base);
    }
    if (L->have_node) {
        table_rows_named(f, L->table_shapes_all, evaluate);
        table_rows_named(f, L->table_shapes_all, node_row);
    }
    fprintf(f, "```\n\n");
    long top = tree_find(&pt, 0, "aten::linear", 0);
    if (top >= 0) {
        fprintf(f, "- forward: `aten::linear` (input shapes `%s`) contains ", pt.l[top].shapes);
        if (tree_children(f, &pt, top) == 0) fprintf(f, "no other op");
        fprintf(f, ".\n");
    } else {
        fprintf(f, "- forward: the profiler recorded no `aten::linear` at the top level.\n");
    }
    /* the node between y.grad_fn and W's AccumulateGrad, the one that turns W.t()'s gradient into W's */
    char wt_whose[256] = "W.t()'s shape: the gradient of W.t()";
    const ct_node *root = ct_tensor_grad_fn(L->y);
    for (int i = 0; root && i < ct_node_num_next(root); i++) {
        uint32_t nr;
        const ct_node *m = ct_node_next(root, i, &nr);
        const ct_node *acc = m && ct_node_num_next(m) == 1 ? ct_node_next(m, 0, &nr) : NULL;
        if (acc && ct_node_variable(acc) == L->W)
            snprintf(wt_whose, sizeof wt_whose, "W.t()'s shape: the gradient of W.t(), which %s turns into W's", ct_node_py_name(m));
    }
    long ev = L->have_node ? tree_find(&pt, 0, evaluate, 0) : -1;
    long nd = ev >= 0 ? tree_find(&pt, (size_t)ev, L->y_node, 1) : -1;
    if (nd >= 0) {
        fprintf(f, "- backward: `%s` (input `%s`, the incoming gradient) inside `%s` runs ", L->y_node, pt.l[nd].shapes, evaluate);
        if (tree_children(f, &pt, nd) == 0) fprintf(f, "no op");
        fprintf(f, ".");
        int mms = 0;
        for (size_t k = (size_t)nd + 1; k < pt.n && pt.l[k].depth > pt.l[nd].depth; k++) {
            if (pt.l[k].depth != pt.l[nd].depth + 1 || strcmp(pt.l[k].name, "aten::mm") != 0) continue;
            char prod[64];
            if (!mm_product(pt.l[k].shapes, prod, sizeof prod)) continue;
            const char *whose = NULL;
            char s1[64], s2[64], s3[64];
            snprintf(s1, sizeof s1, "(%lld, %lld)", (long long)ct_tensor_sizes(L->x)[0], (long long)ct_tensor_sizes(L->x)[1]);
            snprintf(s2, sizeof s2, "(%lld, %lld)", (long long)ct_tensor_sizes(L->W)[0], (long long)ct_tensor_sizes(L->W)[1]);
            snprintf(s3, sizeof s3, "(%lld, %lld)", (long long)ct_tensor_sizes(L->W)[1], (long long)ct_tensor_sizes(L->W)[0]);
            if (strcmp(prod, s1) == 0) whose = "x's shape: x's gradient";
            else if (strcmp(prod, s2) == 0) whose = "W's shape: W's gradient";
            else if (strcmp(prod, s3) == 0) whose = wt_whose;
            fprintf(f, " %s `aten::mm` %s makes a %s matrix%s%s.", mms++ ? "The next" : "Its first", pt.l[k].shapes, prod,
                    whose ? ", " : "", whose ? whose : "");
        }
        fprintf(f, "\n");
    } else if (L->have_node) {
        fprintf(f, "- backward: the profiler recorded no `%s` inside `%s`.\n", L->y_node, evaluate);
    }
    fprintf(f, "- %lld events were recorded; the profiler's own cost was about %.0f ns per event on this run.\n"
               "  The times are this machine's; the rows, names, shapes and counts are what is compared with PyTorch.\n",
            (long long)L->prof_events, L->prof_overhead_ns);
    if (C->ntables > 0) {
        fprintf(f, "- Against PyTorch 2.6's %d recorded table%s (`lab00.out`: the top 10 rows by PyTorch's own times, without\n"
                   "  and with input shapes): the column titles are %s; of the %d recorded rows, %d %s in ctorch's tables\n"
                   "  (without a row limit) with the same number of calls",
                C->ntables, C->ntables == 1 ? "" : "s",
                C->ntables == 2 ? (C->titles_same[0] && C->titles_same[1] ? "the same in both"
                                   : C->titles_same[0] || C->titles_same[1] ? "the same in one of them" : "different in both")
                                : (C->titles_same[0] ? "the same" : "different"),
                C->rows, C->rows_same, C->rows_same == 1 ? "is" : "are");
        if (C->rows_same < C->rows) fprintf(f, "; the others: %s", C->rows_diff);
        fprintf(f, ".\n");
    }
    if (L->chrome_written)
        fprintf(f, "\nThe same profiled run as a Chrome trace: [trace.json](trace.json), to open in Perfetto\n"
                   "(https://ui.perfetto.dev) or `chrome://tracing`.");
    else
        fprintf(f, "\nThe Chrome trace could not be written: %s.", L->chrome_err);
    if (L->stacks_written)
        fprintf(f, " Its self times as collapsed stacks (`export_stacks`, one line per op nested in the ops\n"
                   "around it) are in [stacks.txt](stacks.txt), for a flame graph (`flamegraph.pl stacks.txt`).");
    fprintf(f, "\n\n");

    /* ---- the graph ---- */
    fprintf(f, "## linear's backward graph\n\n");
    if (L->dot) {
        int nodes = 0, accs = 0, saved = 0;
        for (const char *p = L->dot; (p = strstr(p, "[label=\"")) != NULL; p += 8) {
            const char *e = strchr(p, ']');
            const char *fill = strstr(p, "fillcolor");
            if (fill && fill < e) saved += strstr(p, "orange") && strstr(p, "orange") < e;
            else nodes++;
            accs += strncmp(p + 8, "AccumulateGrad", 14) == 0;
        }
        if (L->render_rc == 0)
            fprintf(f, "![linear's backward graph](linear_graph.svg)\n\n");
        else
            fprintf(f, "%s, so only [linear_graph.dot](linear_graph.dot) was written (`dot -Tsvg linear_graph.dot -o\n"
                       "linear_graph.svg` draws it).\n\n",
                    L->render_why);
        fprintf(f, "Drawn from Part A's `y.grad_fn` by `ct_autograd_graph_dot` ([linear_graph.dot](linear_graph.dot)) in\n"
                   "torchviz's colours: y in green, %d node%s, %d of them AccumulateGrad with its leaf in blue, and %d\n"
                   "tensor%s the nodes saved for backward in orange. ",
                nodes, nodes == 1 ? "" : "s", accs, saved, saved == 1 ? "" : "s");
        if (!C->graph_compared)
            fprintf(f, "The node names are not compared with PyTorch's: %s.\n\n", C->t[CMP_NODES].why_not);
        else if (C->graph_same == C->graph_nodes)
            fprintf(f, "Against PyTorch 2.6's recording of the same graph (`lab00_report.json`): all %d nodes have\n"
                       "PyTorch's names, each at the same place in the graph.\n\n",
                    C->graph_nodes);
        else
            fprintf(f, "Against PyTorch 2.6's recording of the same graph (`lab00_report.json`): %d of the %d nodes %s\n"
                       "PyTorch's names at the same place in the graph; the others: %s.\n\n",
                    C->graph_same, C->graph_nodes, C->graph_same == 1 ? "has" : "have", C->graph_diff);
    } else {
        fprintf(f, "No graph: y has no grad_fn.\n\n");
    }

    /* ---- stretch ---- */
    fprintf(f, "## Stretch\n\n");
    char s_half[512];
    ct_keyset_format(L->ks_half, s_half, sizeof s_half);
    fprintf(f, "float16 (`x.detach().half()` and so on):\n\n```\nkey set     %s\nlinear log  ", s_half);
    oplog_print_list(f, &L->half_log);
    char *hl = oplog_list_string(&L->half_log), *ll = oplog_list_string(&L->linear_log);
    bool half_same = hl && ll && strcmp(hl, ll) == 0;
    fprintf(f, "\n```\n\nThe float16 tensor's key set is %s float32's, and its log is %s float32's.", 
            L->ks_half == L->ks_f32 ? "the same as" : "not the same as", half_same ? "the same as" : "not the same as");
    fputc(' ', f);
    compare_log_sentence(f, L, "half linear: ", &L->half_log, "float16 `linear`");
    fprintf(f, "\n\nno_grad against inference_mode:\n\n```\nno_grad linear log         ");
    oplog_print_list(f, &L->nograd_log);
    fprintf(f, "   (y.grad_fn is %s)\ninference_mode linear log  ", L->nograd_has_grad_fn ? "set" : "None");
    oplog_print_list(f, &L->infer_log);
    fprintf(f, "\n```\n\n");
    compare_log_sentence(f, L, "no_grad linear: ", &L->nograd_log, "`linear` under no_grad");
    fprintf(f, "\n\nThe decision trace under no_grad:\n\n");
    short_trace_block(f, &L->nograd_trace);
    fprintf(f, "\nand under inference_mode:\n\n");
    short_trace_block(f, &L->infer_trace);
    fprintf(f, "\n`linear` against `(x @ W.T) + b`:\n\n```\nlinear(x, W, b)  ");
    oplog_print_list(f, &L->linear_log);
    fprintf(f, "\n(x @ W.T) + b    ");
    oplog_print_list(f, &L->matmul_log);
    fprintf(f, "\n```\n\n`(x @ W.T) + b` logged %zu op%s against `linear`'s %zu", L->matmul_log.n, L->matmul_log.n == 1 ? "" : "s",
            L->linear_log.n);
    if (oplog_has(&L->matmul_log, "aten.add.Tensor") && !oplog_has(&L->linear_log, "aten.add.Tensor"))
        fprintf(f, ": the bias is added by a separate `add`, where `linear`'s log has none");
    if (L->matmul_compared && L->matmul_max_diff == 0)
        fprintf(f, "; the two results are equal, element for element");
    else if (L->matmul_compared)
        fprintf(f, "; the two results differ by at most %.2g relative", L->matmul_max_diff);
    fprintf(f, ". ");
    compare_log_sentence(f, L, "matmul+add: ", &L->matmul_log, "`(x @ W.T) + b`");
    fprintf(f, "\n\nA mode kept open over `y.sum().backward()` (one op per line):\n\n```\n");
    oplog_print_lines(f, &L->backward_log);
    fprintf(f, "```\n\n");

    /* ---- interpretation ---- */
    fprintf(f, "## Interpretation\n\n");
    fprintf(f, "The call to `linear` was decomposed into ");
    oplog_print_plus(f, &L->linear_log);
    fprintf(f, ": %s", mode_saw_linear ? "the dispatch mode logged `linear` itself and " : "the dispatch mode logged exactly those ops, ");
    if (fn_saw_linear || prof_linear)
        fprintf(f, "while %s%s%s saw the call as `linear`. ", fn_saw_linear ? "the function mode" : "",
                fn_saw_linear && prof_linear ? " and " : "", prof_linear ? "the profiler (`aten::linear`)" : "");
    else
        fprintf(f, "and neither the function mode nor the profiler saw `linear`. ");
    if (maker && mr.call >= 0 && mr.nhops > 0) {
        const ct_dispatch_record *c = &lt->r[mr.call], *h1 = &lt->r[mr.hop[0]], *last = &lt->r[mr.last];
        ct_dispatch_key higher = ct_keyset_highest(ct_keyset_of(c->key) | ct_keyset_of(h1->key));
        fprintf(f, "`%s` was called with key `%s` and redispatched to `%s`", maker, mr.call_key, ct_key_name(h1->key));
        for (int k = 1; k < mr.nhops; k++) fprintf(f, ", then to `%s`", ct_key_name(lt->r[mr.hop[k]].key));
        if (higher == c->key)
            fprintf(f, ": of the keys left to choose from, `%s`, the dispatcher took `%s` first because it sits above\n"
                       "`%s` in the dispatch key order. ",
                    mr.dispatch, mr.call_key, ct_key_name(h1->key));
        else
            fprintf(f, ". ");
        if (c->slot == CT_SLOT_AUTOGRAD && !ct_keyset_has(mr.passed_ks, c->key))
            fprintf(f, "The autograd kernel recorded the graph and passed the call on with `%s`, without the autograd\n"
                       "key; ",
                    mr.passed);
        else
            fprintf(f, "The `%s` slot ran its %s and passed the call on with `%s`; ", mr.call_key, ct_slot_kind_name(c->slot), mr.passed);
        for (int k = 0; k + 1 < mr.nhops; k++) {
            const ct_dispatch_record *h = &lt->r[mr.hop[k]];
            fprintf(f, "the `%s` %s (registered at `%s`) passed it on, ", ct_key_name(h->key), ct_slot_kind_name(h->slot),
                    h->where ? h->where : "?");
        }
        fprintf(f, "the `%s` %s (registered at `%s`), the last hop of the call, computed the output. ", ct_key_name(last->key),
                ct_slot_kind_name(last->slot), last->where ? last->where : "?");
    } else if (maker) {
        fprintf(f, "`%s` was not routed from one key to another in the decision trace. ", maker);
    }
    if (L->have_node)
        fprintf(f, "The backward was recorded as `%s`%s.\n\n", L->y_node,
                nd >= 0 ? ", which the profiler shows running inside `autograd::engine::evaluate_function`" : "");
    else
        fprintf(f, "No backward was recorded.\n\n");

    /* ---- the lab's expectations ---- */
    fprintf(f, "## Where the lab's expectations differ from PyTorch\n\n");
    if (R->lab)
        fprintf(f, "Each point is checked against this run's output above (or trace.log) and, where it says so,\n"
                   "against PyTorch 2.6's recording.\n\n");
    else
        fprintf(f, "Each point is checked against this run's output above (or trace.log); without PyTorch's\n"
                   "recording, none is compared with PyTorch's own output.\n\n");
    int item = 0;
    /* 1: the Half key */
    if (strstr(s_f16, "Half") == NULL) {
        char rec16[512] = "", rec32[512] = "";
        bool r16 = ref_keyset(R, 1, rec16, sizeof rec16), r32 = ref_keyset(R, 2, rec32, sizeof rec32);
        fprintf(f, "%d. **No Half key for float16** (Part B). The lab expects `CPU + AutogradCPU + Half`; ctorch prints\n"
                   "   `%s` for float16 and `%s` for float32",
                ++item, s_f16, s_f32);
        if (r16 && r32)
            fprintf(f, ", and PyTorch 2.6's recording printed `%s` (%s) and `%s` (%s)", rec16,
                    strcmp(rec16, s_f16) == 0 ? "the same" : "not the same", rec32, strcmp(rec32, s_f32) == 0 ? "the same" : "not the same");
        if (L->ks_f16 == L->ks_f32) {
            fprintf(f, ". The two key sets are the same: the dtype is not a dispatch key.\n");
        } else {
            ct_keyset lacks = ks_minus(L->ks_f32, L->ks_f16), more = ks_minus(L->ks_f16, L->ks_f32);
            fprintf(f, ". Here the two key sets differ");
            if (!ks_empty_funct(lacks)) {
                keys_list(lacks, buf, sizeof buf);
                fprintf(f, ": float16's lacks %s", buf);
            }
            if (!ks_empty_funct(more)) {
                keys_list(more, buf, sizeof buf);
                fprintf(f, "%s has %s besides", ks_empty_funct(lacks) ? ": float16's" : " and", buf);
            }
            fprintf(f, ".\n");
        }
    }
    /* 2: the mode and aten.linear */
    if (!mode_saw_linear) {
        fprintf(f, "%d. **A dispatch mode does not see `aten.linear`** (Part C). The lab expects `aten.linear.default`\n"
                   "   first; the mode logged ",
                ++item);
        oplog_print_list(f, &L->linear_log);
        if (lin_key) {
            fprintf(f, ". `linear`'s first hop is `[call] op=[aten::linear], key=[%s]`, run by its %s", lin_key,
                    ct_slot_kind_name(lt->r[lin].slot));
            if (ct_keyset_highest(ct_keyset_of(CT_KEY_Python) | ct_keyset_of(lt->r[lin].key)) == lt->r[lin].key &&
                lt->r[lin].key != CT_KEY_Python)
                fprintf(f, "; a mode listens at the Python key, below it, so it sees only what `linear` calls.");
            else
                fprintf(f, ".");
        } else {
            fprintf(f, ".");
        }
        fprintf(f, " The function mode %s it and the profiler %s it.", fn_saw_linear ? "sees" : "does not see",
                prof_linear ? "shows" : "does not show");
        if (L->infer_log.n)
            fprintf(f, " Under inference_mode the mode's log starts with `%s`.", L->infer_log.names[0]);
        fputc(' ', f);
        compare_log_sentence(f, L, "linear: ", &L->linear_log, "`linear`");
        fprintf(f, "\n");
    }
    /* 3: W.T and permute */
    if (oplog_has(&L->addmm_T_log, "aten.permute.default")) {
        fprintf(f, "%d. **`W.T` adds a permute** (Part D). The lab expects `['aten.addmm.default']` for\n"
                   "   `addmm(b, x, W.T)`; with `W.T` inside the mode ctorch logged ",
                ++item);
        oplog_print_list(f, &L->addmm_T_log);
        fprintf(f, ". With the transpose made before the mode the log is ");
        oplog_print_list(f, &L->addmm_pre_log);
        fprintf(f, ". ");
        compare_log_sentence(f, L, "addmm: ", &L->addmm_T_log, "`addmm(b, x, W.T)`");
        fprintf(f, "\n");
    }
    /* 4: no_grad keeps AutogradCPU in the route */
    const trace *nt = &L->nograd_trace, *it = &L->infer_trace;
    route nr = route_of(nt, maker ? maker : "aten::linear"), ir = route_of(it, maker ? maker : "aten::linear");
    if (nr.call >= 0 && strncmp(nr.call_key, "Autograd", 8) == 0) {
        fprintf(f, "%d. **Under no_grad the autograd key still routes the call** (Stretch). The lab expects the\n"
                   "   autograd key to disappear; under no_grad `%s` is still called at `key=[%s]`",
                ++item, maker ? maker : "aten::linear", nr.call_key);
        if (nt->r[nr.call].slot == CT_SLOT_AUTOGRAD && !L->nograd_has_grad_fn && !L->nograd_grad_enabled)
            fprintf(f, " - the autograd\n   kernel runs, sees grad mode off and records nothing (y.grad_fn is None).");
        else
            fprintf(f, ", run by its %s (y.grad_fn is %s).", ct_slot_kind_name(nt->r[nr.call].slot),
                    L->nograd_has_grad_fn ? "set" : "None");
        if (ir.call >= 0) fprintf(f, " Under inference_mode it is called at `key=[%s]`.", ir.call_key);
        fprintf(f, "\n");
    }
    /* 5: float16 and _to_copy (the lab's Pitfalls section) */
    if (!oplog_has(&L->half_log, "aten._to_copy.default")) {
        fprintf(f, "%d. **float16 linear needs no `_to_copy`** (the lab's Pitfalls section). The float16 log is ", ++item);
        oplog_print_list(f, &L->half_log);
        fprintf(f, ", %s float32's. ", half_same ? "the same as" : "not the same as");
        compare_log_sentence(f, L, "half linear: ", &L->half_log, "float16 `linear`");
        fprintf(f, "\n");
    }
    /* 6: a mode sees backward (the lab's Pitfalls section) */
    if (L->backward_log.n > L->linear_log.n) {
        fprintf(f, "%d. **A mode does see backward** (the lab's Pitfalls section). The lab says LogDispatch captures\n"
                   "   only the forward; that is only because its `with` block ends before `backward()`. Kept open\n"
                   "   (Stretch), the mode logged %zu ops instead of %zu, among them ",
                ++item, L->backward_log.n, L->linear_log.n);
        /* the kinds of op the backward added, in order of first appearance (detach counted apart) */
        size_t detaches = oplog_count(&L->backward_log, "aten.detach.default");
        int shown = 0;
        for (size_t i = L->linear_log.n; i < L->backward_log.n && shown < 6; i++) {
            if (detaches && strcmp(L->backward_log.names[i], "aten.detach.default") == 0) continue;
            bool earlier = false;
            for (size_t k = L->linear_log.n; k < i && !earlier; k++) earlier = strcmp(L->backward_log.names[k], L->backward_log.names[i]) == 0;
            if (earlier) continue;
            char s[128];
            short_name(L->backward_log.names[i], s, sizeof s);
            fprintf(f, "%s`%s`", shown++ ? ", " : "", s);
        }
        if (detaches) {
            /* where the profiled run of Part E made its detaches: inside AccumulateGrad nodes? */
            int acc = 0, acc_detach = 0;
            for (size_t i = 0; i < pt.n; i++) {
                if (strcmp(pt.l[i].name, "torch::autograd::AccumulateGrad") != 0) continue;
                acc++;
                for (size_t k = i + 1; k < pt.n && pt.l[k].depth > pt.l[i].depth; k++)
                    if (pt.l[k].depth == pt.l[i].depth + 1 && strcmp(pt.l[k].name, "aten::detach") == 0) {
                        acc_detach++;
                        break;
                    }
            }
            fprintf(f, " and %zu `detach`", detaches);
            if (acc && acc_detach == acc)
                fprintf(f, " (in Part E's profiled run each of the %d `AccumulateGrad` nodes calls `aten::detach` as it\n"
                           "   stores its leaf's new `.grad`)", acc);
        }
        fprintf(f, ".\n");
    }
    /* 7: addmm as one kernel, or no addmm at all */
    long am = trace_find(lt, 0, CT_HOP_CALL, "aten::addmm");
    route ar = route_of(lt, "aten::addmm");
    if (am < 0) {
        fprintf(f, "%d. **No `addmm` here** (Part A). The lab describes `linear -> addmm -> matmul + add`; this run's\n"
                   "   decision trace has no `aten::addmm`: `linear` became ",
                ++item);
        oplog_print_plus(f, &L->linear_log);
        fprintf(f, ".\n");
    } else if (ar.last >= 0) {
        /* the kernel at the end of addmm's route, and what it called */
        const ct_dispatch_record *ah = &lt->r[ar.last];
        size_t from = (size_t)ar.last + 1;
        bool inner = false;
        char found[256] = "";
        for (size_t i = from; i < lt->n && lt->r[i].depth > ah->depth; i++) {
            const char *n = ct_op_name(lt->r[i].op);
            if (!strcmp(n, "aten::mm") || !strcmp(n, "aten::add.Tensor") || !strcmp(n, "aten::matmul")) {
                inner = true;
                snprintf(found, sizeof found, "%s", n);
            }
        }
        fprintf(f, "%d. **`addmm` is %s** (Part A). The lab describes `linear -> addmm -> matmul + add`; below\n"
                   "   `[%s] op=[aten::addmm], key=[%s]` the trace shows ",
                ++item, inner ? "not one kernel here" : "one kernel", ah->kind == CT_HOP_CALL ? "call" : "redispatch",
                ct_key_name(ah->key));
        if (inner) fprintf(f, "`%s` among the ops it calls.\n", found);
        else {
            fprintf(f, "no `aten::mm`, `aten::matmul` or `aten::add`, only ");
            size_t shown = 0;
            for (size_t i = from; i < lt->n && lt->r[i].depth > ah->depth; i++)
                if (lt->r[i].depth == ah->depth + 1 && lt->r[i].kind == CT_HOP_CALL)
                    fprintf(f, "%s`%s`", shown++ ? ", " : "", ct_op_name(lt->r[i].op));
            if (!shown) fprintf(f, "nothing");
            fprintf(f, ": the kernel registered at `%s` makes no further dispatcher call for the product, which\n"
                       "   it computes itself.\n",
                    ah->where ? ah->where : "?");
        }
    }
    if (item == 0) fprintf(f, "This run agrees with every expectation of the lab checked here.\n");
    free(hl);
    free(ll);
    free(pt.l);
    free(C);
    return text_close(&t);
}

static char *make_manifest(const lab *L, const char *timestamp, const char *command) {
    cJSON *m = cJSON_CreateObject();
    if (!m) return NULL;
    bool ok = ct_json_add(m, "lab", cJSON_CreateString("00-dispatcher-trace"));
    ok &= ct_json_add(m, "ctorch_version", cJSON_CreateString(CTORCH_VERSION_STRING));
    ok &= ct_json_add(m, "pytorch_version_followed", cJSON_CreateString(ct_build_config()->pytorch_version));
    /* the generator's seed (torch.initial_seed()) as an exact integer: a double would round
     * seeds above 2^53 */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)L->seed);
    ok &= ct_json_add(m, "seed", cJSON_CreateRaw(seed));
    ok &= ct_json_add(m, "timestamp_utc", cJSON_CreateString(timestamp));
    ok &= ct_json_add(m, "source_hash", cJSON_CreateString(ct_build_config()->source_hash));
    ok &= ct_json_add(m, "compiler", cJSON_CreateString(ct_build_config()->compiler));
    ok &= ct_json_add(m, "compiler_flags", cJSON_CreateString(ct_build_config()->c_flags));
    ok &= ct_json_add(m, "build_type", cJSON_CreateString(ct_build_config()->build_type));
    ok &= ct_json_add(m, "blas", cJSON_CreateString(ct_build_config()->blas));
    ok &= ct_json_add(m, "json_library", cJSON_CreateString(ct_build_config()->json_library));
    if (command) ok &= ct_json_add(m, "command", cJSON_CreateString(command));
    if (L->ref.lab) ok &= ct_json_add(m, "pytorch_recording", cJSON_CreateString(L->ref.dir));
    if (L->ref.rec) ok &= ct_json_add(m, "project_recording", cJSON_CreateString(L->ref.rec_dir));
    cJSON *files = cJSON_CreateArray();
    for (int i = 0; files && i < L->nfiles; i++) ok &= ct_json_add(files, NULL, cJSON_CreateString(L->files[i]));
    if (files) ok &= ct_json_add(files, NULL, cJSON_CreateString("manifest.json"));
    ok &= ct_json_add(m, "files", files);
    char *s = ok ? ct_json_dumps(m, 2) : NULL;
    cJSON_Delete(m);
    if (!s) {
        if (!ok) ct_error_set(CT_ERR_NOMEM, "out of memory building manifest.json");
        return NULL;
    }
    size_t n = strlen(s);
    char *out = malloc(n + 2);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\n';
        out[n + 1] = '\0';
    } else {
        ct_error_set(CT_ERR_NOMEM, "out of memory building manifest.json");
    }
    ct_free(s);
    return out;
}

const char *ct_example_lab00_default_reference(void) {
#ifdef CTORCH_REFERENCE_DIR
    return CTORCH_REFERENCE_DIR;
#else
    return "";
#endif
}

const char *ct_example_lab00_default_recordings(void) {
#ifdef CTORCH_RECORDINGS_DIR
    return CTORCH_RECORDINGS_DIR;
#else
    return "";
#endif
}

/* Removes the staging folder and whatever the parts left in it. */
static void stage_remove(const char *stage) {
    DIR *d = opendir(stage);
    if (d) {
        struct dirent *e;
        char p[CT_EXAMPLE_PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            /* a name that does not fit is left alone (its cut-short namesake is another file) */
            if ((size_t)snprintf(p, sizeof p, "%s/%s", stage, e->d_name) < sizeof p) unlink(p);
        }
        closedir(d);
    }
    rmdir(stage);
}

/* the whole file at path (binary-safe), its length in *len; NULL with errno set */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The run's files change together or not at all (Note [Several files together] in
 * util/atomic_file.h): the parts wrote them into the staging folder; each is prepared beside
 * its target in out_dir, then all are renamed in place. A failure anywhere leaves out_dir as
 * it was. */
static int publish(const lab *L, const char *out_dir) {
    ct_file_set *set = ct_file_set_new();
    if (!set) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", out_dir, ct_error_message());
        return -1;
    }
    int rc = 0;
    char from[4096], to[4096];
    for (int i = 0; i < L->nfiles && rc == 0; i++) {
        out_path(L, L->files[i], from, sizeof from);
        size_t len = 0;
        char *body = NULL;
        if ((size_t)snprintf(to, sizeof to, "%s/%s", out_dir, L->files[i]) >= sizeof to) { /* checked at the start */
            if (L->err) fprintf(L->err, "ctorch lab00: the name of %s in the output folder is too long\n", L->files[i]);
            rc = -1;
        } else if (!(body = slurp(from, &len))) {
            if (L->err) fprintf(L->err, "ctorch lab00: cannot read back %s: %s\n", from, strerror(errno));
            rc = -1;
        } else if (ct_file_set_add(set, to, body, len) != 0) {
            if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", to, ct_error_message());
            rc = -1;
        }
        free(body);
    }
    if (rc == 0 && ct_file_set_commit(set) != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write the files in %s (none was changed): %s\n", out_dir, ct_error_message());
        rc = -1;
    }
    ct_file_set_free(set);
    return rc;
}

int ct_example_lab00(const char *out_dir, uint64_t seed, const char *command, const char *reference_dir, FILE *progress) {
    return ct_example_lab00_on(out_dir, seed, false, command, reference_dir, progress);
}

int ct_example_lab00_on(const char *out_dir, uint64_t seed, bool own_generator, const char *command,
                        const char *reference_dir, FILE *progress) {
    ct_example_lab00_options o = {out_dir, seed, own_generator, command, reference_dir, NULL, true, progress, stderr,
                                  reference_dir ? ct_example_lab00_default_recordings() : NULL};
    return ct_example_lab00_run(&o);
}

int ct_example_lab00_run(const ct_example_lab00_options *opt) {
    const char *out_dir = opt->out_dir;
    FILE *err = opt->errors;
    if (!out_dir || !*out_dir) {
        if (err) fprintf(err, "ctorch lab00: --out needs a folder\n");
        return 2;
    }
    /* the names first: one too long for the paths the lab builds is refused before anything
     * is made */
    if (ct_example_check_path(err, "ctorch lab00", "the output folder's name", out_dir, OUT_NAME_ROOM) != 0) return 2;
    if (opt->reference_dir &&
        ct_example_check_path(err, "ctorch lab00", "the reference folder's name", opt->reference_dir, REFERENCE_NAME_ROOM) != 0)
        return 2;
    /* the folder first: an unwritable --out fails before any work */
    if (ct_example_mkdir_p(out_dir) != 0) {
        if (err) fprintf(err, "ctorch lab00: cannot create the output folder '%s': %s\n", out_dir, strerror(errno));
        return 2;
    }
    if (access(out_dir, W_OK | X_OK) != 0) {
        if (err) fprintf(err, "ctorch lab00: the output folder '%s' is not writable: %s\n", out_dir, strerror(errno));
        return 2;
    }
    char stage[4096];
    if ((size_t)snprintf(stage, sizeof stage, "%s/.lab00.XXXXXX", out_dir) >= sizeof stage || !mkdtemp(stage)) {
        if (err) fprintf(err, "ctorch lab00: cannot create a staging folder in '%s': %s\n", out_dir, strerror(errno));
        return 2;
    }
    lab *L = calloc(1, sizeof *L);
    if (!L) {
        if (err) fprintf(err, "ctorch lab00: out of memory\n");
        stage_remove(stage);
        return 1;
    }
    L->seed = opt->seed;
    L->own_generator = opt->own_generator;
    L->out_dir = stage;
    L->err = err;
    L->draw_svg = opt->draw_svg;
    if (reference_load(&L->ref, opt->reference_dir, opt->recordings_dir) != 0) {
        if (err) fprintf(err, "ctorch lab00: reading the recordings failed: %s\n", ct_error_message());
        lab_free(L);
        free(L);
        stage_remove(stage);
        return 1;
    }
    int rc = 1;
    char *trace_log = NULL, *report = NULL, *manifest = NULL;
    char timestamp[32];
    if (opt->timestamp) {
        snprintf(timestamp, sizeof timestamp, "%s", opt->timestamp);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(timestamp, sizeof timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }

    struct {
        const char *name;
        int (*fn)(lab *);
    } parts[] = {{"A baseline linear(x, W, b), written to linear.jsonl", part_a},
                 {"B dispatch key sets", part_b},
                 {"C dispatch-mode log, function-mode view, decision trace", part_c},
                 {"D addmm directly, addmm.jsonl and the diff", part_d},
                 {"E profiler over forward + backward, trace.json, stacks.txt", part_e},
                 {"stretch: float16, no_grad vs inference_mode, (x @ W.T) + b, backward", stretch},
                 {"linear's backward graph", draw_graph}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (opt->progress) fprintf(opt->progress, "lab00: part %s\n", parts[i].name);
        if (parts[i].fn(L) != 0) goto done;
    }
    trace_log = make_trace_log(L);
    if (trace_log) add_file(L, "trace.log");
    add_file(L, "REPORT.md");
    report = make_report(L, timestamp, opt->command);
    manifest = make_manifest(L, timestamp, opt->command);
    if (!trace_log || !report || !manifest) {
        if (err) fprintf(err, "ctorch lab00: writing the report failed: %s\n", ct_error_message());
        goto done;
    }
    rc = 2;
    if (write_out(L, "trace.log", trace_log) != 0) goto done;
    if (write_out(L, "REPORT.md", report) != 0) goto done;
    if (write_out(L, "manifest.json", manifest) != 0) goto done;
    if (publish(L, out_dir) != 0) goto done;
    if (opt->progress) {
        fprintf(opt->progress, "lab00: wrote");
        for (int i = 0; i < L->nfiles; i++) fprintf(opt->progress, " %s/%s", out_dir, L->files[i]);
        fprintf(opt->progress, "\n");
    }
    rc = 0;
done:
    free(trace_log);
    free(report);
    free(manifest);
    lab_free(L);
    free(L);
    stage_remove(stage);
    return rc;
}
