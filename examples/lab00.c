/* Lab 00 - trace the dispatcher over linear(x, W, b), part by part.
 *
 * The lab asks a student to run torch.nn.functional.linear(x, W, b) at the shape of a small
 * language model's head (x 2x64, W 600x64, b 600) and to watch every dispatcher decision:
 *
 *   A  the baseline call: sizes [2, 600], grad_fn AddmmBackward0
 *   B  the dispatch key sets of the tensors (float32, float16; no_grad, inference_mode)
 *   C  a dispatch mode's log of linear, a function mode's view of the same call, and the
 *      decision trace (what PyTorch can only print with TORCH_SHOW_DISPATCH_TRACE in a debug
 *      build; here it is collected in memory)
 *   D  addmm called directly: with W.T made inside the mode, and made before it
 *   E  the profiler over forward + backward, with input shapes
 *   F  the report, plus the stretch parts (float16, no_grad vs inference_mode, linear vs
 *      (x @ W.T) + b, a mode kept open over backward)
 *
 * Every statement in REPORT.md is printed next to the log that backs it, and the sentences
 * that interpret the logs are built from what the logs contain. */
#include "lab00.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/profiler.h"
#include "ctorch/trace.h"
#include "util/json.h"

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
    char **names = ct_calloc(n ? n : 1, sizeof(char *));
    for (size_t i = 0; names && i < n; i++) {
        names[i] = ct_strdup(ct_op_logger_get(lg, i));
        if (!names[i]) {
            for (size_t j = 0; j < i; j++) ct_free(names[j]);
            ct_free(names);
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
    for (size_t i = 0; l->names && i < l->n; i++) ct_free(l->names[i]);
    ct_free(l->names);
    l->names = NULL;
    l->n = 0;
}

static bool oplog_has(const oplog *l, const char *name) {
    for (size_t i = 0; i < l->n; i++)
        if (l->names[i] && strcmp(l->names[i], name) == 0) return true;
    return false;
}

/* ['aten.t.default', 'aten.addmm.default'] as Python prints the list */
static void oplog_print_list(FILE *f, const oplog *l) {
    fputc('[', f);
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s'%s'", i ? ", " : "", l->names[i] ? l->names[i] : "?");
    fputc(']', f);
}

static void oplog_print_lines(FILE *f, const oplog *l) {
    for (size_t i = 0; i < l->n; i++) fprintf(f, "%s\n", l->names[i] ? l->names[i] : "?");
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

/* the first hop of `kind` for op `name` at or after index *from; its index or -1 */
static long trace_find(const trace *t, size_t from, ct_hop_kind kind, const char *name) {
    for (size_t i = from; i < t->n; i++)
        if (t->r[i].kind == kind && strcmp(ct_op_name(t->r[i].op), name) == 0) return (long)i;
    return -1;
}

static void tensor_keys(const ct_tensor *t, char *buf, size_t size) {
    if (t) ct_keyset_format(ct_tensor_keyset(t), buf, size);
    else snprintf(buf, size, "(error: %s)", ct_error_message());
}

/* the lines of a profiler table whose name column is exactly `name` */
static void table_rows_named(FILE *f, const char *table, const char *name) {
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
        }
        p = e ? e + 1 : NULL;
    }
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

static int mkdir_p(const char *path) {
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static int write_out(const char *dir, const char *name, const char *content) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ct_json_write_file_atomic(path, content) != 0) {
        fprintf(stderr, "ctorch lab00: cannot write %s: %s\n", path, ct_error_message());
        return -1;
    }
    return 0;
}

/* ---- the lab ------------------------------------------------------------------------------ */

typedef struct lab {
    uint64_t seed;
    ct_tensor *x, *W, *b;
    /* A */
    char y_size[64], y_grad_fn[128], y_row[256];
    /* B */
    char ks_x[256], ks_x_detached[256], ks_f16[256], ks_f32[256], ks_i64[256], ks_nograd[256], ks_infer[256];
    char tls_default_in[256], tls_default_ex[512], tls_nograd_in[256], tls_nograd_ex[512], tls_infer_in[256],
        tls_infer_ex[1024];
    /* C */
    oplog linear_log;
    char **fn_names;
    size_t fn_n;
    trace linear_trace, linear_trace_mode;
    /* D */
    oplog addmm_T_log, addmm_pre_log;
    /* E */
    char *table, *table_shapes, *table_shapes_all;
    int64_t prof_events;
    double prof_overhead_ns;
    ct_tensor *wt;   /* D: W.T made before the mode */
    ct_tensor *h[3]; /* stretch: float16 copies of x, W, b */
    /* stretch */
    char ks_half[256];
    oplog half_log, nograd_log, infer_log, matmul_log, backward_log;
    trace nograd_trace, infer_trace;
    bool nograd_has_grad_fn;
    FILE *err; /* where a failed step is named (may be NULL) */
} lab;

static void lab_free(lab *L) {
    ct_tensor *ts[] = {L->x, L->W, L->b, L->wt, L->h[0], L->h[1], L->h[2]};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
    oplog *logs[] = {&L->linear_log, &L->addmm_T_log, &L->addmm_pre_log, &L->half_log, &L->nograd_log,
                     &L->infer_log, &L->matmul_log, &L->backward_log};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) oplog_free(logs[i]);
    for (size_t i = 0; L->fn_names && i < L->fn_n; i++) ct_free(L->fn_names[i]);
    ct_free(L->fn_names);
    trace *traces[] = {&L->linear_trace, &L->linear_trace_mode, &L->nograd_trace, &L->infer_trace};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) ct_free(traces[i]->r);
    ct_free(L->table);
    ct_free(L->table_shapes);
    ct_free(L->table_shapes_all);
}

#define NEED(p)                                                                                   \
    do {                                                                                          \
        if (!(p)) {                                                                               \
            if (L->err) fprintf(L->err, "ctorch lab00: %s failed: %s\n", #p, ct_error_message()); \
            goto fail;                                                                            \
        }                                                                                         \
    } while (0)

/* torch.manual_seed(seed); x = randn(2, 64); W = randn(600, 64); b = randn(600), all
 * requires_grad=True; y = linear(x, W, b) */
static int part_a(lab *L) {
    ct_manual_seed(L->seed);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *y = NULL;
    cJSON *arr = NULL;
    char *s = NULL;
    NEED(L->x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED));
    NEED(L->W = ct_randn(ws, 2, CT_DTYPE_UNDEFINED));
    NEED(L->b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED));
    NEED(ct_tensor_set_requires_grad(L->x, true) == 0);
    NEED(ct_tensor_set_requires_grad(L->W, true) == 0);
    NEED(ct_tensor_set_requires_grad(L->b, true) == 0);
    NEED(y = ct_linear(L->x, L->W, L->b));
    ct_tensor_format_size(y, L->y_size, sizeof L->y_size);
    const ct_node *fn = ct_tensor_grad_fn(y);
    char *repr = fn ? ct_node_repr(fn) : NULL;
    NEED(!fn || repr);
    snprintf(L->y_grad_fn, sizeof L->y_grad_fn, "%s", repr ? repr : "None");
    ct_free(repr);
    /* y[0, :4].tolist(): Python floats, printed as repr() prints them */
    double all[1200];
    NEED(ct_tensor_to_doubles(y, all, 1200) == 0);
    NEED(arr = cJSON_CreateArray());
    bool ok = true;
    for (int i = 0; i < 4; i++) ok &= ct_json_add(arr, NULL, cJSON_CreateNumber(all[i]));
    NEED(ok);
    NEED(s = ct_json_dumps(arr, -1));
    snprintf(L->y_row, sizeof L->y_row, "%s", s);
    ct_free(s);
    cJSON_Delete(arr);
    ct_tensor_release(y);
    return 0;
fail:
    cJSON_Delete(arr);
    ct_tensor_release(y);
    return -1;
}

/* x._dispatch_key_set() and friends, and the thread-local sets under each grad mode */
static int part_b(lab *L) {
    int64_t one = 1;
    ct_tensor *d = NULL, *t16 = NULL, *t32 = NULL, *t64 = NULL, *tng = NULL, *tinf = NULL;
    tensor_keys(L->x, L->ks_x, sizeof L->ks_x);
    NEED(d = ct_detach(L->x));
    tensor_keys(d, L->ks_x_detached, sizeof L->ks_x_detached);
    NEED(t16 = ct_empty(&one, 1, CT_FLOAT16, CT_MEMORY_FORMAT_NONE));
    tensor_keys(t16, L->ks_f16, sizeof L->ks_f16);
    NEED(t32 = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE));
    tensor_keys(t32, L->ks_f32, sizeof L->ks_f32);
    NEED(t64 = ct_empty(&one, 1, CT_INT64, CT_MEMORY_FORMAT_NONE));
    tensor_keys(t64, L->ks_i64, sizeof L->ks_i64);
    ct_keyset_format(ct_tls_included(), L->tls_default_in, sizeof L->tls_default_in);
    ct_keyset_format(ct_tls_excluded(), L->tls_default_ex, sizeof L->tls_default_ex);
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    tng = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    ct_keyset_format(ct_tls_included(), L->tls_nograd_in, sizeof L->tls_nograd_in);
    ct_keyset_format(ct_tls_excluded(), L->tls_nograd_ex, sizeof L->tls_nograd_ex);
    ct_grad_mode_exit(&g);
    NEED(tng);
    tensor_keys(tng, L->ks_nograd, sizeof L->ks_nograd);
    ct_inference_mode_enter(&g);
    tinf = ct_empty(&one, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    ct_keyset_format(ct_tls_included(), L->tls_infer_in, sizeof L->tls_infer_in);
    ct_keyset_format(ct_tls_excluded(), L->tls_infer_ex, sizeof L->tls_infer_ex);
    ct_grad_mode_exit(&g);
    NEED(tinf);
    tensor_keys(tinf, L->ks_infer, sizeof L->ks_infer);
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

static ct_tensor *run_linear(lab *L) {
    return ct_linear(L->x, L->W, L->b);
}

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
    L->fn_names = ct_calloc(L->fn_n ? L->fn_n : 1, sizeof(char *));
    bool names_ok = L->fn_names != NULL;
    for (size_t i = 0; names_ok && i < L->fn_n; i++) names_ok = (L->fn_names[i] = ct_strdup(ct_function_logger_get(fl, i))) != NULL;
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

static ct_tensor *run_addmm_pre(lab *L) {
    return ct_addmm(L->b, L->x, L->wt, ct_int(1), ct_int(1));
}

/* addmm(b, x, W.T) directly: the transpose inside the mode, then made before it */
static int part_d(lab *L) {
    NEED(logged(&L->addmm_T_log, run_addmm_T, L) == 0);
    NEED(L->wt = ct_numpy_T(L->W));
    NEED(logged(&L->addmm_pre_log, run_addmm_pre, L) == 0);
    return 0;
fail:
    return -1;
}

/* with profile(record_shapes=True): y = linear(x, W, b); y.sum().backward() */
static int part_e(lab *L) {
    ct_tensor *y = NULL, *s = NULL;
    ct_profiler *p = ct_profiler_start(true);
    NEED(p);
    y = ct_linear(L->x, L->W, L->b);
    s = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    int brc = s ? ct_backward(s, NULL, false) : -1;
    if (ct_profiler_stop(p) != 0) brc = -1;
    NEED(brc == 0);
    NEED(L->table = ct_profiler_table(p, "cpu_time_total", 10, false));
    NEED(L->table_shapes = ct_profiler_table(p, "cpu_time_total", 10, true));
    NEED(L->table_shapes_all = ct_profiler_table(p, "cpu_time_total", -1, true));
    L->prof_events = (int64_t)ct_profiler_num_events(p);
    int64_t raw = ct_profiler_raw_event_count(p);
    L->prof_overhead_ns = raw > 0 ? (double)ct_profiler_overhead_ns(p) / (double)raw : 0.0;
    ct_profiler_free(p);
    ct_tensor_release(y);
    ct_tensor_release(s);
    return 0;
fail:
    ct_profiler_free(p);
    ct_tensor_release(y);
    ct_tensor_release(s);
    return -1;
}

static ct_tensor *run_linear_half(lab *L) {
    return ct_linear(L->h[0], L->h[1], L->h[2]);
}

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

static int stretch(lab *L) {
    /* start the backward stretch from fresh leaves, as after zero_grad(set_to_none=True) */
    ct_tensor_set_grad(L->x, NULL);
    ct_tensor_set_grad(L->W, NULL);
    ct_tensor_set_grad(L->b, NULL);
    ct_tensor *src[3] = {L->x, L->W, L->b};
    for (int i = 0; i < 3; i++) {
        /* x.detach().half() */
        ct_tensor *d = ct_detach(src[i]);
        L->h[i] = d ? ct_to_dtype(d, CT_FLOAT16, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor_release(d);
        NEED(L->h[i]);
    }
    tensor_keys(L->h[0], L->ks_half, sizeof L->ks_half);
    NEED(logged(&L->half_log, run_linear_half, L) == 0);
    NEED(logged(&L->nograd_log, run_linear_no_grad, L) == 0);
    NEED(collect(&L->nograd_trace, run_linear_no_grad, L) == 0);
    NEED(logged(&L->infer_log, run_linear_inference, L) == 0);
    NEED(collect(&L->infer_trace, run_linear_inference, L) == 0);
    NEED(logged(&L->matmul_log, run_matmul_add, L) == 0);
    NEED(logged(&L->backward_log, run_linear_backward, L) == 0);
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
            CTORCH_PYTORCH_VERSION, (unsigned long long)L->seed);
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

static char *make_report(const lab *L, const char *timestamp) {
    text t;
    if (text_open(&t) != 0) return NULL;
    FILE *f = t.f;

    /* facts the interpretation rests on, read from the logs */
    const trace *lt = &L->linear_trace;
    long lin = trace_find(lt, 0, CT_HOP_CALL, "aten::linear");
    long am = trace_find(lt, 0, CT_HOP_CALL, "aten::addmm");
    long amr = am >= 0 ? trace_find(lt, (size_t)am, CT_HOP_REDISPATCH, "aten::addmm") : -1;
    const char *lin_key = lin >= 0 ? ct_key_name(lt->r[lin].key) : "?";
    const char *am_key = am >= 0 ? ct_key_name(lt->r[am].key) : "?";
    const char *amr_key = amr >= 0 ? ct_key_name(lt->r[amr].key) : "?";
    char am_set[256] = "?";
    if (am >= 0) ct_keyset_format(lt->r[am].dispatch, am_set, sizeof am_set);
    bool addmm_inner_mm_add = false; /* does addmm's CPU kernel dispatch mm or add? */
    for (size_t i = amr >= 0 ? (size_t)amr + 1 : lt->n; i < lt->n && lt->r[i].depth > lt->r[amr].depth; i++) {
        const char *n = ct_op_name(lt->r[i].op);
        if (!strcmp(n, "aten::mm") || !strcmp(n, "aten::add") || !strcmp(n, "aten::matmul")) addmm_inner_mm_add = true;
    }
    const trace *nt = &L->nograd_trace, *it = &L->infer_trace;
    long ng_am = trace_find(nt, 0, CT_HOP_CALL, "aten::addmm");
    long in_am = trace_find(it, 0, CT_HOP_CALL, "aten::addmm");
    const char *ng_key = ng_am >= 0 ? ct_key_name(nt->r[ng_am].key) : "?";
    const char *in_key = in_am >= 0 ? ct_key_name(it->r[in_am].key) : "?";
    bool fn_saw_linear = false;
    for (size_t i = 0; i < L->fn_n; i++) fn_saw_linear |= strcmp(L->fn_names[i], "linear") == 0;
    bool prof_linear = strstr(L->table_shapes_all, " aten::linear  ") != NULL;
    bool prof_addmm_bw = strstr(L->table_shapes_all, " AddmmBackward0  ") != NULL;
    bool mode_saw_linear = oplog_has(&L->linear_log, "aten.linear.default");
    const char *grad_fn_name = strncmp(L->y_grad_fn, "<AddmmBackward0", 15) == 0 ? "AddmmBackward0" : L->y_grad_fn;

    fprintf(f, "# Lab 00 - tracing the dispatcher over `linear(x, W, b)`\n\n");
    fprintf(f, "Written by `ctorch lab00` on %s.\n\n", timestamp);
    fprintf(f, "## Versions\n\n");
    fprintf(f, "- ctorch %s (sources %.16s...), built by %s (%s), BLAS: %s\n", CTORCH_VERSION_STRING,
            CTORCH_SOURCE_HASH, CTORCH_COMPILER, *CTORCH_BUILD_TYPE ? CTORCH_BUILD_TYPE : "default build type",
            CTORCH_BLAS_NAME);
    fprintf(f, "- follows PyTorch %s: op names, overloads, dispatch keys, key-set printouts, autograd node names,\n"
               "  profiler tables and random numbers are PyTorch 2.6's; its reference run of this lab printed\n"
               "  `torch 2.6.0+debian`.\n",
            CTORCH_PYTORCH_VERSION);
    fprintf(f, "- seed %llu (`torch.manual_seed`), x: 2x64, W: 600x64, b: 600, all float32 with requires_grad=True.\n\n",
            (unsigned long long)L->seed);

    fprintf(f, "## Part A - the baseline call\n\n");
    fprintf(f, "`y = linear(x, W, b)`; `print(y.shape, y.grad_fn)` and the first values:\n\n```\n%s %s\ny[0,:4] %s\n```\n\n",
            L->y_size, L->y_grad_fn, L->y_row);
    fprintf(f, "`linear` was written, yet the node is `%s`: the call became an `addmm` below the autograd layer.\n\n",
            grad_fn_name);

    fprintf(f, "## Part B - dispatch key sets\n\n```\n");
    fprintf(f, "x (float32, requires_grad=True)         %s\n", L->ks_x);
    fprintf(f, "x.detach() (requires_grad=False)        %s\n", L->ks_x_detached);
    fprintf(f, "torch.empty(1)                          %s\n", L->ks_f32);
    fprintf(f, "torch.empty(1, dtype=torch.float16)     %s\n", L->ks_f16);
    fprintf(f, "torch.empty(1, dtype=torch.int64)       %s\n", L->ks_i64);
    fprintf(f, "torch.empty(1) made under no_grad       %s\n", L->ks_nograd);
    fprintf(f, "torch.empty(1) made under inference_mode %s\n", L->ks_infer);
    fprintf(f, "```\n\nThe thread-local sets the dispatcher merges with the tensors' keys:\n\n```\n");
    fprintf(f, "default         include %s\n                exclude %s\n", L->tls_default_in, L->tls_default_ex);
    fprintf(f, "no_grad         include %s\n                exclude %s\n", L->tls_nograd_in, L->tls_nograd_ex);
    fprintf(f, "inference_mode  include %s\n                exclude %s\n", L->tls_infer_in, L->tls_infer_ex);
    fprintf(f, "```\n\n");
    fprintf(f, "requires_grad does not change the key set: every float tensor carries AutogradCPU, and the\n"
               "autograd kernel decides whether to record. no_grad only flips the grad-mode flag (the sets stay\n"
               "as they are); inference_mode excludes the autograd keys (PyTorch prints the excluded autograd\n"
               "functionality without a backend, so it shows as AutogradOther/AutogradNestedTensor) and tensors\n"
               "made inside it lack ADInplaceOrView and AutogradCPU.\n\n");

    fprintf(f, "## Part C - a dispatch mode logs every op\n\n");
    fprintf(f, "`with LogDispatch() as logger: y = linear(x, W, b)` (forward only):\n\n```\n");
    oplog_print_lines(f, &L->linear_log);
    fprintf(f, "```\n\nA function mode (TorchFunctionMode) sees the public call before it decomposes:\n\n```\n");
    for (size_t i = 0; i < L->fn_n; i++) fprintf(f, "%s\n", L->fn_names[i]);
    fprintf(f, "```\n\nThe decision trace of the same call (PyTorch's `TORCH_SHOW_DISPATCH_TRACE` format; the full\n"
               "form, with every argument's key set, the TLS sets, the merged set and the kernel, is in trace.log):\n\n");
    short_trace_block(f, lt);
    fprintf(f, "\n");

    fprintf(f, "## Part D - addmm called directly\n\n```\n");
    fprintf(f, "linear(x, W, b):                       ");
    oplog_print_list(f, &L->linear_log);
    fprintf(f, "\naddmm(b, x, W.T), W.T inside the mode:  ");
    oplog_print_list(f, &L->addmm_T_log);
    fprintf(f, "\naddmm(b, x, Wt), Wt = W.T made before:  ");
    oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, "\n```\n\n");
    size_t nl = L->linear_log.n, nT = L->addmm_T_log.n, np = L->addmm_pre_log.n;
    fprintf(f, "The difference: `linear` logs %zu ops. Calling `addmm` with `W.T` written inside the mode logs %zu\n"
               "(%s), because `W.T` is `numpy_T`, which becomes a `permute` that the mode sees%s. With the\n"
               "transpose made before the mode the direct call logs %zu (%s): ",
            nl, nT, nT < nl ? "fewer" : nT == nl ? "as many" : "more",
            oplog_has(&L->addmm_T_log, "aten.permute.default") ? "" : " (no permute was logged here)", np,
            np < nl ? "fewer" : np == nl ? "as many" : "more");
    oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, ". Calling `addmm` skips `linear`'s rewrite only when nothing else is left to do.\n\n");

    fprintf(f, "## Part E - the profiler over forward and backward\n\n");
    fprintf(f, "`with profile(record_shapes=True): y = linear(x, W, b); y.sum().backward()`, then\n"
               "`key_averages().table(sort_by=\"cpu_time_total\", row_limit=10)`:\n\n```\n%s```\n\n",
            L->table);
    fprintf(f, "Grouped by input shape (`key_averages(group_by_input_shape=True)`, same sort and limit):\n\n```\n%s```\n\n",
            L->table_shapes);
    fprintf(f, "The rows to point out (from the grouped table without a row limit):\n\n```\n");
    table_header(f, L->table_shapes_all);
    table_rows_named(f, L->table_shapes_all, "aten::linear");
    table_rows_named(f, L->table_shapes_all, "aten::addmm");
    table_rows_named(f, L->table_shapes_all, "autograd::engine::evaluate_function: AddmmBackward0");
    table_rows_named(f, L->table_shapes_all, "AddmmBackward0");
    fprintf(f, "```\n\n");
    fprintf(f, "- forward: `aten::linear` with input shapes `[[2, 64], [600, 64], [600]]` (x, W, b) contains\n"
               "  `aten::t` and `aten::addmm` (`[[600], [2, 64], [64, 600], [], []]`: b, x, W.t(), beta, alpha).\n"
               "- backward: `AddmmBackward0` (input `[[2, 600]]`, the incoming gradient) inside\n"
               "  `autograd::engine::evaluate_function: AddmmBackward0`; its two `aten::mm` compute the\n"
               "  gradients of x and W.\n");
    fprintf(f, "- %lld events were recorded; the profiler's own cost was about %.0f ns per event on this run.\n"
               "  Times differ from PyTorch's; the rows, names, shapes and counts are what to compare.\n\n",
            (long long)L->prof_events, L->prof_overhead_ns);

    fprintf(f, "## Stretch\n\n");
    fprintf(f, "float16 (`x.detach().half()` and so on):\n\n```\nkey set     %s\nlinear log  ",
            L->ks_half);
    oplog_print_list(f, &L->half_log);
    fprintf(f, "\n```\n\n");
    fprintf(f, "no_grad against inference_mode:\n\n```\nno_grad linear log         ");
    oplog_print_list(f, &L->nograd_log);
    fprintf(f, "   (y.grad_fn is %s)\ninference_mode linear log  ", L->nograd_has_grad_fn ? "set" : "None");
    oplog_print_list(f, &L->infer_log);
    fprintf(f, "\n```\n\nThe decision trace under no_grad:\n\n");
    short_trace_block(f, nt);
    fprintf(f, "\nand under inference_mode:\n\n");
    short_trace_block(f, it);
    fprintf(f, "\n`linear` against `(x @ W.T) + b`:\n\n```\nlinear(x, W, b)  ");
    oplog_print_list(f, &L->linear_log);
    fprintf(f, "\n(x @ W.T) + b    ");
    oplog_print_list(f, &L->matmul_log);
    fprintf(f, "\n```\n\nThe same result by a different decomposition: three ops, the bias added by a separate `add`.\n\n");
    fprintf(f, "A mode kept open over `y.sum().backward()`:\n\n```\n");
    oplog_print_list(f, &L->backward_log);
    fprintf(f, "\n```\n\n");

    fprintf(f, "## Interpretation\n\n");
    fprintf(f, "The call to `linear` was decomposed into ");
    for (size_t i = 0; i < L->linear_log.n; i++) {
        const char *n = L->linear_log.names[i];
        char shortname[128];
        snprintf(shortname, sizeof shortname, "%s", strncmp(n, "aten.", 5) == 0 ? n + 5 : n);
        char *dot = strchr(shortname, '.');
        if (dot) *dot = '\0';
        fprintf(f, "%s`%s`", i == 0 ? "" : i + 1 == L->linear_log.n ? " + " : ", ", shortname);
    }
    fprintf(f, ": the dispatch mode logged exactly those ops, while the function mode%s saw the\n"
               "call as `linear` before it decomposed. ",
            prof_linear ? " and the profiler (`aten::linear`)" : "");
    fprintf(f, "The autograd key routed first, then the CPU key: `aten::addmm` was called with key `%s` and\n"
               "redispatched to `%s`, because the autograd key sits above the CPU key in the dispatch key order, so\n"
               "from the keys left to choose from, `%s`, the dispatcher picks %s first. ",
            am_key, amr_key, am_set, am_key);
    fprintf(f, "The autograd kernel recorded the graph and excluded the autograd keys before redispatching, so\n"
               "the CPU kernel (%s) did the arithmetic. ",
            CTORCH_BLAS_NAME);
    fprintf(f, "The backward was recorded as `%s`%s.\n\n", grad_fn_name,
            prof_addmm_bw ? ", which the profiler shows running in backward inside "
                            "`autograd::engine::evaluate_function: AddmmBackward0`"
                          : "");

    fprintf(f, "## Where the lab's expectations differ from PyTorch\n\n");
    fprintf(f, "Each point is backed by the output printed above (or in trace.log).\n\n");
    fprintf(f, "1. **No Half key for float16** (Part B). The lab expects `CPU + AutogradCPU + Half`; PyTorch 2.x\n"
               "   prints `%s` for float16 and `%s` for float32. The dtype is not a dispatch key: the CPU kernel\n"
               "   chooses the float16 loop inside.\n",
            L->ks_f16, L->ks_f32);
    fprintf(f, "2. **A dispatch mode never sees `aten.linear`** (Part C). The lab expects `aten.linear.default`\n"
               "   first; the mode logged %s. `linear` is CompositeImplicitAutograd: its kernel runs in the\n"
               "   AutogradCPU slot (the trace's first hop is `[call] op=[aten::linear], key=[%s]`), above the\n"
               "   Python key where a mode listens, so the mode only sees what `linear` calls. The function mode\n"
               "   %s it and the profiler %s it. (Under inference_mode the autograd keys are excluded, the\n"
               "   Python key is reached first, and the mode logs %s.)\n",
            mode_saw_linear ? "it" : "`t` and `addmm` only", lin_key, fn_saw_linear ? "sees" : "does not see",
            prof_linear ? "shows" : "does not show", L->infer_log.n ? L->infer_log.names[0] : "nothing");
    fprintf(f, "3. **`W.T` adds a permute** (Part D). The lab expects `['aten.addmm.default']` for\n"
               "   `addmm(b, x, W.T)`; with `W.T` inside the mode PyTorch logs ");
    oplog_print_list(f, &L->addmm_T_log);
    fprintf(f, ". The \"fewer ops\" claim\n   holds only with the transpose made before the mode: ");
    oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, ".\n");
    fprintf(f, "4. **Under no_grad AutogradCPU still routes the call** (Stretch). The lab expects the autograd key\n"
               "   to disappear; the no_grad trace still starts `aten::addmm` at `key=[%s]` - the autograd kernel\n"
               "   runs, sees grad mode off and records nothing (y.grad_fn is %s). inference_mode is what removes\n"
               "   the key: there `aten::addmm` is called at `key=[%s]`.\n",
            ng_key, L->nograd_has_grad_fn ? "set" : "None", in_key);
    fprintf(f, "5. **float16 linear needs no `_to_copy`** (Pitfalls). On CPU, PyTorch 2.6 has float16 `addmm`,\n"
               "   and the log is ");
    oplog_print_list(f, &L->half_log);
    fprintf(f, ", the same as float32.\n");
    fprintf(f, "6. **A mode does see backward** (Pitfalls). The lab says LogDispatch captures only the forward;\n"
               "   that is only because its `with` block ends before `backward()`. Kept open (Stretch), the mode\n"
               "   logged %zu ops instead of %zu: the backward kernels (%s)%s.\n",
            L->backward_log.n, L->linear_log.n,
            oplog_has(&L->backward_log, "aten.mm.default") ? "`ones_like`, `expand`, `mm`, `sum.dim_IntList`, ..."
                                                           : "none with a matrix product",
            oplog_has(&L->backward_log, "aten.detach.default")
                ? " and the `detach` calls AccumulateGrad makes when it stores a new `.grad`"
                : "");
    fprintf(f, "7. **`addmm` is one kernel** (Part A). The lab describes `linear -> addmm -> matmul + add`; below\n"
               "   `[redispatch] op=[aten::addmm], key=[%s]` the trace shows %s: the CPU kernel copies the\n"
               "   bias into the output (`expand`, `copy_`) and accumulates the product onto it in one gemm\n"
               "   with beta and alpha (%s).\n",
            amr_key, addmm_inner_mm_add ? "an inner mm/add" : "no `aten::mm`, `aten::matmul` or `aten::add`",
            CTORCH_BLAS_NAME);
    return text_close(&t);
}

static char *make_manifest(const lab *L, const char *timestamp, const char *command) {
    cJSON *m = cJSON_CreateObject();
    if (!m) return NULL;
    bool ok = ct_json_add(m, "lab", cJSON_CreateString("00-dispatcher-trace"));
    ok &= ct_json_add(m, "ctorch_version", cJSON_CreateString(CTORCH_VERSION_STRING));
    ok &= ct_json_add(m, "pytorch_version_followed", cJSON_CreateString(CTORCH_PYTORCH_VERSION));
    /* the generator's seed (torch.initial_seed()) as an exact integer: a double would round
     * seeds above 2^53 */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)L->seed);
    ok &= ct_json_add(m, "seed", cJSON_CreateRaw(seed));
    ok &= ct_json_add(m, "timestamp_utc", cJSON_CreateString(timestamp));
    ok &= ct_json_add(m, "source_hash", cJSON_CreateString(CTORCH_SOURCE_HASH));
    ok &= ct_json_add(m, "compiler", cJSON_CreateString(CTORCH_COMPILER));
    ok &= ct_json_add(m, "compiler_flags", cJSON_CreateString(CTORCH_C_FLAGS));
    ok &= ct_json_add(m, "build_type", cJSON_CreateString(CTORCH_BUILD_TYPE));
    ok &= ct_json_add(m, "blas", cJSON_CreateString(CTORCH_BLAS_NAME));
    ok &= ct_json_add(m, "json_library", cJSON_CreateString(CTORCH_JSON_NAME));
    if (command) ok &= ct_json_add(m, "command", cJSON_CreateString(command));
    cJSON *files = cJSON_CreateArray();
    if (files) {
        ok &= ct_json_add(files, NULL, cJSON_CreateString("trace.log"));
        ok &= ct_json_add(files, NULL, cJSON_CreateString("REPORT.md"));
        ok &= ct_json_add(files, NULL, cJSON_CreateString("manifest.json"));
    }
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

int ct_example_lab00_render(uint64_t seed, const char *command, const char *timestamp, FILE *progress,
                            FILE *errors, char *files[3]) {
    files[0] = files[1] = files[2] = NULL;
    if (!timestamp) return ct_error_set(CT_ERR_VALUE, "ct_example_lab00_render: timestamp is NULL");
    lab L;
    memset(&L, 0, sizeof L);
    L.seed = seed;
    L.err = errors;
    int rc = -1;
    struct {
        const char *name;
        int (*fn)(lab *);
    } parts[] = {{"A baseline linear(x, W, b)", part_a},
                 {"B dispatch key sets", part_b},
                 {"C dispatch-mode log, function-mode view, decision trace", part_c},
                 {"D addmm directly", part_d},
                 {"E profiler over forward + backward", part_e},
                 {"stretch: float16, no_grad vs inference_mode, (x @ W.T) + b, backward", stretch}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (progress) fprintf(progress, "lab00: part %s\n", parts[i].name);
        if (parts[i].fn(&L) != 0) goto done;
    }
    files[0] = make_trace_log(&L);
    files[1] = files[0] ? make_report(&L, timestamp) : NULL;
    files[2] = files[1] ? make_manifest(&L, timestamp, command) : NULL;
    if (!files[2]) {
        if (errors) fprintf(errors, "ctorch lab00: writing the report failed: %s\n", ct_error_message());
        for (int i = 0; i < 3; i++) {
            free(files[i]);
            files[i] = NULL;
        }
        goto done;
    }
    rc = 0;
done:
    lab_free(&L);
    return rc;
}

int ct_example_lab00(const char *out_dir, uint64_t seed, const char *command, FILE *progress) {
    if (!out_dir || !*out_dir) {
        fprintf(stderr, "ctorch lab00: --out needs a folder\n");
        return 2;
    }
    /* the folder first: an unwritable --out fails before any work */
    if (mkdir_p(out_dir) != 0) {
        fprintf(stderr, "ctorch lab00: cannot create the output folder '%s': %s\n", out_dir, strerror(errno));
        return 2;
    }
    if (access(out_dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "ctorch lab00: the output folder '%s' is not writable: %s\n", out_dir, strerror(errno));
        return 2;
    }
    char timestamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(timestamp, sizeof timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *files[3];
    if (ct_example_lab00_render(seed, command, timestamp, progress, stderr, files) != 0) return 1;
    int rc = 2;
    if (write_out(out_dir, "trace.log", files[0]) != 0) goto done;
    if (write_out(out_dir, "REPORT.md", files[1]) != 0) goto done;
    if (write_out(out_dir, "manifest.json", files[2]) != 0) goto done;
    if (progress) fprintf(progress, "lab00: wrote %s/trace.log, %s/REPORT.md, %s/manifest.json\n", out_dir, out_dir, out_dir);
    rc = 0;
done:
    for (int i = 0; i < 3; i++) free(files[i]);
    return rc;
}
