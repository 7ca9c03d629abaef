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
#include "lab00_impl.h"

static void lab_free(lab *L) {
    ct_tensor *ts[] = {L->x, L->W, L->b, L->y, L->wt, L->h[0], L->h[1], L->h[2]};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
    oplog *logs[] = {&L->linear_log, &L->addmm_T_log, &L->addmm_pre_log, &L->half_log, &L->nograd_log,
                     &L->infer_log, &L->matmul_log, &L->backward_log};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) lab00_oplog_free(logs[i]);
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
    lab00_reference_free(&L->ref);
}

static void add_file(lab *L, const char *name) {
    for (int i = 0; i < L->nfiles; i++)
        if (strcmp(L->files[i], name) == 0) return;
    if (L->nfiles < MAX_FILES) L->files[L->nfiles++] = name;
}

/* L->out_dir/name into buf. Should the name not fit (it cannot, after the check above), buf
 * is left empty, which no call can open: never a shorter name that exists. */
void lab00_out_path(const lab *L, const char *name, char *buf, size_t size) {
    if ((size_t)snprintf(buf, size, "%s/%s", L->out_dir, name) >= size) buf[0] = '\0';
}

static int write_out(lab *L, const char *name, const char *content) {
    char path[4096];
    lab00_out_path(L, name, path, sizeof path);
    if (ct_json_write_file_atomic(path, content) != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", path, ct_error_message());
        return -1;
    }
    add_file(L, name);
    return 0;
}

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
    lab00_out_path(L, name, path, sizeof path);
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
    lab00_out_path(L, name, path, sizeof path);
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
    int rc = y ? lab00_oplog_take(out, lg) : -1;
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
        lab00_out_path(L, "linear.jsonl", a, sizeof a);
        lab00_out_path(L, "addmm.jsonl", b, sizeof b);
        text t;
        NEED(lab00_text_open(&t) == 0);
        ct_diff_options o = {CT_TR_VIEW_HOPS, false, false, false, false, 3, "linear.jsonl", "addmm.jsonl"};
        ct_error_clear();
        L->diff_rc = ct_trace_diff(a, b, &o, t.f, &L->diff_sum, L->diff_err, sizeof L->diff_err);
        L->diff_text = lab00_text_close(&t);
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
    lab00_out_path(L, "trace.json", path, sizeof path);
    /* written into the lab's own staging folder: a failure is an error of the run */
    NEED(ct_profiler_export_chrome_trace(p, path) == 0);
    L->chrome_written = true;
    add_file(L, "trace.json");
    lab00_out_path(L, "stacks.txt", path, sizeof path);
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
    lab00_out_path(L, "linear_graph.dot", dp, sizeof dp);
    lab00_out_path(L, "linear_graph.svg", sp, sizeof sp);
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
        lab00_stage_remove(stage);
        return 1;
    }
    L->seed = opt->seed;
    L->own_generator = opt->own_generator;
    L->out_dir = stage;
    L->err = err;
    L->draw_svg = opt->draw_svg;
    if (lab00_reference_load(&L->ref, opt->reference_dir, opt->recordings_dir) != 0) {
        if (err) fprintf(err, "ctorch lab00: reading the recordings failed: %s\n", ct_error_message());
        lab_free(L);
        free(L);
        lab00_stage_remove(stage);
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
    trace_log = lab00_make_trace_log(L);
    if (trace_log) add_file(L, "trace.log");
    add_file(L, "REPORT.md");
    report = lab00_make_report(L, timestamp, opt->command);
    manifest = lab00_make_manifest(L, timestamp, opt->command);
    if (!trace_log || !report || !manifest) {
        if (err) fprintf(err, "ctorch lab00: writing the report failed: %s\n", ct_error_message());
        goto done;
    }
    rc = 2;
    if (write_out(L, "trace.log", trace_log) != 0) goto done;
    if (write_out(L, "REPORT.md", report) != 0) goto done;
    if (write_out(L, "manifest.json", manifest) != 0) goto done;
    if (lab00_publish(L, out_dir) != 0) goto done;
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
    lab00_stage_remove(stage);
    return rc;
}
