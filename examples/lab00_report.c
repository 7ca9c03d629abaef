/* Lab 00's outputs: trace.log, REPORT.md (every sentence built from the run and its
 * comparisons) and manifest.json. */
#include "lab00_impl.h"

/* ---- the outputs -------------------------------------------------------------------------- */

char *lab00_make_trace_log(const lab *L) {
    text t;
    if (lab00_text_open(&t) != 0) return NULL;
    FILE *f = t.f;
    fprintf(f, "# Lab 00 trace log (ctorch %s, following PyTorch %s, seed %llu)\n\n", CTORCH_VERSION_STRING,
            ct_build_config()->pytorch_version, (unsigned long long)L->seed);
    fprintf(f, "## dispatch-mode log: linear(x, W, b)\n");
    lab00_oplog_print_lines(f, &L->linear_log);
    fprintf(f, "\n## dispatch-mode log: addmm(b, x, W.T), W.T inside the mode\n");
    lab00_oplog_print_lines(f, &L->addmm_T_log);
    fprintf(f, "\n## dispatch-mode log: addmm(b, x, Wt), Wt = W.T made before the mode\n");
    lab00_oplog_print_lines(f, &L->addmm_pre_log);
    fprintf(f, "\n## dispatch-mode log: (x @ W.T) + b\n");
    lab00_oplog_print_lines(f, &L->matmul_log);
    fprintf(f, "\n## dispatch-mode log: linear under no_grad\n");
    lab00_oplog_print_lines(f, &L->nograd_log);
    fprintf(f, "\n## dispatch-mode log: linear under inference_mode\n");
    lab00_oplog_print_lines(f, &L->infer_log);
    fprintf(f, "\n## dispatch-mode log: linear in float16\n");
    lab00_oplog_print_lines(f, &L->half_log);
    fprintf(f, "\n## dispatch-mode log: linear, then y.sum().backward(), with the mode still open\n");
    lab00_oplog_print_lines(f, &L->backward_log);
    fprintf(f, "\n## decision trace (PyTorch's TORCH_SHOW_DISPATCH_TRACE format): linear(x, W, b)\n");
    lab00_trace_print(f, &L->linear_trace, false);
    fprintf(f, "\n## decision trace, full form: linear(x, W, b)\n");
    fprintf(f, "# per hop: each tensor argument's key set, the thread-local include/exclude sets, the merged\n"
               "# set, the set left after masking out fallthrough keys, the winning key and what ran.\n");
    lab00_trace_print(f, &L->linear_trace, true);
    fprintf(f, "\n## decision trace, full form: linear(x, W, b) with a dispatch mode pushed\n");
    lab00_trace_print(f, &L->linear_trace_mode, true);
    fprintf(f, "\n## decision trace, full form: linear under no_grad\n");
    lab00_trace_print(f, &L->nograd_trace, true);
    fprintf(f, "\n## decision trace, full form: linear under inference_mode\n");
    lab00_trace_print(f, &L->infer_trace, true);
    return lab00_text_close(&t);
}

/* the PyTorch-format lines of a trace, as a code block */
static void short_trace_block(FILE *f, const trace *t) {
    fprintf(f, "```\n");
    lab00_trace_print(f, t, false);
    fprintf(f, "```\n");
}

/* The recording's line `prefix` (a list of op names) into rec and whether ctorch's list `mine`
 * is the same: 1 the same, 0 different, -1 no such line (or no recording). */
int lab00_ref_list_cmp(const char *txt, const char *prefix, const char *mine, char *rec, size_t size) {
    if (!lab00_ref_after(txt, prefix, rec, size)) return -1;
    return mine && strcmp(mine, rec) == 0;
}

/* "PyTorch 2.6's recording of X (`lab00.out`, line `p`) logged [...]: the same ops." */
static void compare_log_sentence(FILE *f, const lab *L, const char *prefix, const oplog *l, const char *what) {
    char rec[1024];
    char *mine = lab00_oplog_list_string(l);
    int same = lab00_ref_list_cmp(L->ref.lab, prefix, mine, rec, sizeof rec);
    free(mine);
    if (same < 0) return;
    fprintf(f, "PyTorch 2.6's recording of %s (`lab00.out`, line `%s`) logged %s: %s.", what, prefix, rec,
            same ? "the same ops" : "a different list from ctorch's");
}

/* the function mode's log as Python prints the list: "['linear']" */
char *lab00_fn_list_string(const lab *L) {
    text t;
    if (lab00_text_open(&t) != 0) return NULL;
    fputc('[', t.f);
    for (size_t i = 0; i < L->fn_n; i++) fprintf(t.f, "%s'%s'", i ? ", " : "", L->fn_names[i]);
    fputc(']', t.f);
    return lab00_text_close(&t);
}

char *lab00_make_report(const lab *L, const char *timestamp, const char *command) {
    checks *C = calloc(1, sizeof *C);
    if (!C) {
        ct_error_set(CT_ERR_NOMEM, "out of memory writing the report");
        return NULL;
    }
    if (lab00_compare_run(L, C) != 0) {
        free(C);
        return NULL;
    }
    text t;
    if (lab00_text_open(&t) != 0) {
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
    route mr = maker ? lab00_route_of(lt, maker) : lab00_route_of(lt, "");
    long lin = lab00_trace_find(lt, 0, CT_HOP_CALL, "aten::linear");
    const char *lin_key = lin >= 0 ? ct_key_name(lt->r[lin].key) : NULL;
    bool fn_saw_linear = false;
    for (size_t i = 0; i < L->fn_n; i++) fn_saw_linear |= strcmp(L->fn_names[i], "linear") == 0;
    bool prof_linear = strstr(L->table_shapes_all, " aten::linear  ") != NULL;
    bool mode_saw_linear = lab00_oplog_has(&L->linear_log, "aten.linear.default");
    tree pt;
    lab00_tree_parse(&pt, L->prof_tree);

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
    lab00_versions_line(f, C);
    char torch_version[128];
    if (lab00_ref_after(R->lab, "torch ", torch_version, sizeof torch_version))
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
        lab00_short_name(maker_py, sn, sizeof sn);
        if (strcmp(maker, "aten::linear") == 0)
            fprintf(f, "`y.grad_fn` is `%s`, made by `aten::linear` itself (its call at key `%s` in "
                       "[linear.jsonl](linear.jsonl) carries the node's sequence number, %llu).\n\n",
                    L->y_node, L->node_key, (unsigned long long)L->y_seq);
        else
            fprintf(f, "`linear` was written, yet `y.grad_fn` is `%s`: the node was made by `%s`, %s. In\n"
                       "[linear.jsonl](linear.jsonl), the trace file of this call, the `[call] %s` at key `%s`\n"
                       "carries the node's sequence number, %llu, and its autograd kernel is what recorded the node.\n\n",
                    L->y_node, sn,
                    lab00_oplog_has(&L->linear_log, maker_py) ? "one of the ops `linear` was decomposed into"
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
        lab00_keys_list(lab00_ks_minus(L->ks_x, L->ks_x_detached), buf, sizeof buf);
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
            ct_keyset lacks = lab00_ks_minus(L->ks_f32, others[k].ks), extra = lab00_ks_minus(others[k].ks, L->ks_f32);
            if (!lab00_ks_empty_funct(lacks)) {
                lab00_keys_list(lacks, buf, sizeof buf);
                fprintf(f, " it lacks %s", buf);
            }
            if (!lab00_ks_empty_funct(extra)) {
                lab00_keys_list(extra, buf, sizeof buf);
                fprintf(f, "%s has %s besides", lab00_ks_empty_funct(lacks) ? " it" : " and", buf);
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
    ct_keyset inc_gone = lab00_ks_minus(L->tls_default_in, L->tls_infer_in), exc_new = lab00_ks_minus(L->tls_infer_ex, L->tls_default_ex);
    if (lab00_ks_empty_funct(inc_gone) && lab00_ks_empty_funct(exc_new)) {
        fprintf(f, "inference_mode leaves both sets as they are");
    } else {
        fprintf(f, "inference_mode");
        if (!lab00_ks_empty_funct(inc_gone)) {
            lab00_keys_list(inc_gone, buf, sizeof buf);
            fprintf(f, " takes %s out of the include set", buf);
        }
        if (!lab00_ks_empty_funct(exc_new)) {
            lab00_keys_list(exc_new, buf, sizeof buf);
            fprintf(f, "%s adds %s to the exclude set", lab00_ks_empty_funct(inc_gone) ? "" : " and", buf);
            if (ct_keyset_has(L->tls_infer_ex, CT_KEY_AutogradOther) && !ct_keyset_has(L->tls_infer_ex, CT_KEY_AutogradCPU))
                fprintf(f, " (the autograd functionality without a backend bit, which prints as AutogradOther and\n"
                           "AutogradNestedTensor)");
        }
    }
    ct_keyset lost = lab00_ks_minus(L->ks_f32, L->ks_infer);
    if (!lab00_ks_empty_funct(lost)) {
        lab00_keys_list(lost, buf, sizeof buf);
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
    lab00_oplog_print_lines(f, &L->linear_log);
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
        char *fl = lab00_fn_list_string(L);
        int same = lab00_ref_list_cmp(R->keys, "function mode: ", fl, rec, sizeof rec);
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
    lab00_oplog_print_list(f, &L->linear_log);
    fprintf(f, "\naddmm(b, x, W.T), W.T inside the mode:  ");
    lab00_oplog_print_list(f, &L->addmm_T_log);
    fprintf(f, "\naddmm(b, x, Wt), Wt = W.T made before:  ");
    lab00_oplog_print_list(f, &L->addmm_pre_log);
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
    lab00_oplog_print_list(f, &L->addmm_pre_log);
    fprintf(f, "), %s `linear`", np < nl ? "fewer than" : np == nl ? "as many as" : "more than");
    /* the ops of linear's log the direct call does not make */
    size_t extra = 0;
    for (size_t i = 0; i < nl; i++)
        if (!lab00_oplog_has(&L->addmm_pre_log, L->linear_log.names[i])) {
            char s[128];
            lab00_short_name(L->linear_log.names[i], s, sizeof s);
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
    lab00_table_header(f, L->table_shapes_all);
    lab00_table_rows_named(f, L->table_shapes_all, "aten::linear");
    if (maker && strcmp(maker, "aten::linear") != 0) {
        char base[96];
        snprintf(base, sizeof base, "%.*s", (int)strcspn(maker, "."), maker);
        lab00_table_rows_named(f, L->table_shapes_all, base);
    }
    if (L->have_node) {
        lab00_table_rows_named(f, L->table_shapes_all, evaluate);
        lab00_table_rows_named(f, L->table_shapes_all, node_row);
    }
    fprintf(f, "```\n\n");
    long top = lab00_tree_find(&pt, 0, "aten::linear", 0);
    if (top >= 0) {
        fprintf(f, "- forward: `aten::linear` (input shapes `%s`) contains ", pt.l[top].shapes);
        if (lab00_tree_children(f, &pt, top) == 0) fprintf(f, "no other op");
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
    long ev = L->have_node ? lab00_tree_find(&pt, 0, evaluate, 0) : -1;
    long nd = ev >= 0 ? lab00_tree_find(&pt, (size_t)ev, L->y_node, 1) : -1;
    if (nd >= 0) {
        fprintf(f, "- backward: `%s` (input `%s`, the incoming gradient) inside `%s` runs ", L->y_node, pt.l[nd].shapes, evaluate);
        if (lab00_tree_children(f, &pt, nd) == 0) fprintf(f, "no op");
        fprintf(f, ".");
        int mms = 0;
        for (size_t k = (size_t)nd + 1; k < pt.n && pt.l[k].depth > pt.l[nd].depth; k++) {
            if (pt.l[k].depth != pt.l[nd].depth + 1 || strcmp(pt.l[k].name, "aten::mm") != 0) continue;
            char prod[64];
            if (!lab00_mm_product(pt.l[k].shapes, prod, sizeof prod)) continue;
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
    lab00_oplog_print_list(f, &L->half_log);
    char *hl = lab00_oplog_list_string(&L->half_log), *ll = lab00_oplog_list_string(&L->linear_log);
    bool half_same = hl && ll && strcmp(hl, ll) == 0;
    fprintf(f, "\n```\n\nThe float16 tensor's key set is %s float32's, and its log is %s float32's.", 
            L->ks_half == L->ks_f32 ? "the same as" : "not the same as", half_same ? "the same as" : "not the same as");
    fputc(' ', f);
    compare_log_sentence(f, L, "half linear: ", &L->half_log, "float16 `linear`");
    fprintf(f, "\n\nno_grad against inference_mode:\n\n```\nno_grad linear log         ");
    lab00_oplog_print_list(f, &L->nograd_log);
    fprintf(f, "   (y.grad_fn is %s)\ninference_mode linear log  ", L->nograd_has_grad_fn ? "set" : "None");
    lab00_oplog_print_list(f, &L->infer_log);
    fprintf(f, "\n```\n\n");
    compare_log_sentence(f, L, "no_grad linear: ", &L->nograd_log, "`linear` under no_grad");
    fprintf(f, "\n\nThe decision trace under no_grad:\n\n");
    short_trace_block(f, &L->nograd_trace);
    fprintf(f, "\nand under inference_mode:\n\n");
    short_trace_block(f, &L->infer_trace);
    fprintf(f, "\n`linear` against `(x @ W.T) + b`:\n\n```\nlinear(x, W, b)  ");
    lab00_oplog_print_list(f, &L->linear_log);
    fprintf(f, "\n(x @ W.T) + b    ");
    lab00_oplog_print_list(f, &L->matmul_log);
    fprintf(f, "\n```\n\n`(x @ W.T) + b` logged %zu op%s against `linear`'s %zu", L->matmul_log.n, L->matmul_log.n == 1 ? "" : "s",
            L->linear_log.n);
    if (lab00_oplog_has(&L->matmul_log, "aten.add.Tensor") && !lab00_oplog_has(&L->linear_log, "aten.add.Tensor"))
        fprintf(f, ": the bias is added by a separate `add`, where `linear`'s log has none");
    if (L->matmul_compared && L->matmul_max_diff == 0)
        fprintf(f, "; the two results are equal, element for element");
    else if (L->matmul_compared)
        fprintf(f, "; the two results differ by at most %.2g relative", L->matmul_max_diff);
    fprintf(f, ". ");
    compare_log_sentence(f, L, "matmul+add: ", &L->matmul_log, "`(x @ W.T) + b`");
    fprintf(f, "\n\nA mode kept open over `y.sum().backward()` (one op per line):\n\n```\n");
    lab00_oplog_print_lines(f, &L->backward_log);
    fprintf(f, "```\n\n");

    /* ---- interpretation ---- */
    fprintf(f, "## Interpretation\n\n");
    fprintf(f, "The call to `linear` was decomposed into ");
    lab00_oplog_print_plus(f, &L->linear_log);
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
        bool r16 = lab00_ref_keyset(R, 1, rec16, sizeof rec16), r32 = lab00_ref_keyset(R, 2, rec32, sizeof rec32);
        fprintf(f, "%d. **No Half key for float16** (Part B). The lab expects `CPU + AutogradCPU + Half`; ctorch prints\n"
                   "   `%s` for float16 and `%s` for float32",
                ++item, s_f16, s_f32);
        if (r16 && r32)
            fprintf(f, ", and PyTorch 2.6's recording printed `%s` (%s) and `%s` (%s)", rec16,
                    strcmp(rec16, s_f16) == 0 ? "the same" : "not the same", rec32, strcmp(rec32, s_f32) == 0 ? "the same" : "not the same");
        if (L->ks_f16 == L->ks_f32) {
            fprintf(f, ". The two key sets are the same: the dtype is not a dispatch key.\n");
        } else {
            ct_keyset lacks = lab00_ks_minus(L->ks_f32, L->ks_f16), more = lab00_ks_minus(L->ks_f16, L->ks_f32);
            fprintf(f, ". Here the two key sets differ");
            if (!lab00_ks_empty_funct(lacks)) {
                lab00_keys_list(lacks, buf, sizeof buf);
                fprintf(f, ": float16's lacks %s", buf);
            }
            if (!lab00_ks_empty_funct(more)) {
                lab00_keys_list(more, buf, sizeof buf);
                fprintf(f, "%s has %s besides", lab00_ks_empty_funct(lacks) ? ": float16's" : " and", buf);
            }
            fprintf(f, ".\n");
        }
    }
    /* 2: the mode and aten.linear */
    if (!mode_saw_linear) {
        fprintf(f, "%d. **A dispatch mode does not see `aten.linear`** (Part C). The lab expects `aten.linear.default`\n"
                   "   first; the mode logged ",
                ++item);
        lab00_oplog_print_list(f, &L->linear_log);
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
    if (lab00_oplog_has(&L->addmm_T_log, "aten.permute.default")) {
        fprintf(f, "%d. **`W.T` adds a permute** (Part D). The lab expects `['aten.addmm.default']` for\n"
                   "   `addmm(b, x, W.T)`; with `W.T` inside the mode ctorch logged ",
                ++item);
        lab00_oplog_print_list(f, &L->addmm_T_log);
        fprintf(f, ". With the transpose made before the mode the log is ");
        lab00_oplog_print_list(f, &L->addmm_pre_log);
        fprintf(f, ". ");
        compare_log_sentence(f, L, "addmm: ", &L->addmm_T_log, "`addmm(b, x, W.T)`");
        fprintf(f, "\n");
    }
    /* 4: no_grad keeps AutogradCPU in the route */
    const trace *nt = &L->nograd_trace, *it = &L->infer_trace;
    route nr = lab00_route_of(nt, maker ? maker : "aten::linear"), ir = lab00_route_of(it, maker ? maker : "aten::linear");
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
    if (!lab00_oplog_has(&L->half_log, "aten._to_copy.default")) {
        fprintf(f, "%d. **float16 linear needs no `_to_copy`** (the lab's Pitfalls section). The float16 log is ", ++item);
        lab00_oplog_print_list(f, &L->half_log);
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
        size_t detaches = lab00_oplog_count(&L->backward_log, "aten.detach.default");
        int shown = 0;
        for (size_t i = L->linear_log.n; i < L->backward_log.n && shown < 6; i++) {
            if (detaches && strcmp(L->backward_log.names[i], "aten.detach.default") == 0) continue;
            bool earlier = false;
            for (size_t k = L->linear_log.n; k < i && !earlier; k++) earlier = strcmp(L->backward_log.names[k], L->backward_log.names[i]) == 0;
            if (earlier) continue;
            char s[128];
            lab00_short_name(L->backward_log.names[i], s, sizeof s);
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
    long am = lab00_trace_find(lt, 0, CT_HOP_CALL, "aten::addmm");
    route ar = lab00_route_of(lt, "aten::addmm");
    if (am < 0) {
        fprintf(f, "%d. **No `addmm` here** (Part A). The lab describes `linear -> addmm -> matmul + add`; this run's\n"
                   "   decision trace has no `aten::addmm`: `linear` became ",
                ++item);
        lab00_oplog_print_plus(f, &L->linear_log);
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
    return lab00_text_close(&t);
}

char *lab00_make_manifest(const lab *L, const char *timestamp, const char *command) {
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
