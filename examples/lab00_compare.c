/* Lab 00: the run compared with PyTorch's recordings (Note [A report built from the run] in
 * lab00.c): op logs, key sets, graph nodes, profiler tables, inputs and y; and the Versions line
 * that says what was the same and what differed. */
#include "lab00_impl.h"

const char *const lab00_cmp_what[CMP_COUNT] = {
    "op names and overloads in the dispatch-mode and function-mode logs",
    "key-set printouts",
    "autograd node names, node by node",
    "profiler tables: column titles, and PyTorch's recorded rows by name, input shapes and number of calls",
    "random numbers: x, W and b, bit for bit",
    "y's size",
    "y's first values, bit for bit"};

route lab00_route_of(const trace *t, const char *op) {
    route r;
    memset(&r, 0, sizeof r);
    r.call = lab00_trace_find(t, 0, CT_HOP_CALL, op);
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
        bool have = k < 3 ? lab00_ref_keyset(R, k, it[k].rec, sizeof it[k].rec)
                          : lab00_ref_after(R->keys, prefixes[k], it[k].rec, sizeof it[k].rec);
        it[k].cmp = have ? strcmp(it[k].rec, it[k].mine) == 0 : -1;
    }
}

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
int lab00_compare_run(const lab *L, checks *C) {
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
        char *mine = lab00_oplog_list_string(logs[k].log);
        if (!mine) return -1;
        int same = lab00_ref_list_cmp(R->lab, logs[k].prefix, mine, rec, sizeof rec);
        if (same >= 0) tally_add(&C->t[CMP_OPS], same, "the dispatch-mode log of %s (ctorch %s, PyTorch %s)", logs[k].label, mine, rec);
        free(mine);
    }
    char *fl = lab00_fn_list_string(L);
    if (!fl) return -1;
    int fsame = lab00_ref_list_cmp(R->keys, "function mode: ", fl, rec, sizeof rec);
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
    if (lab00_ref_after(R->lab, "torch.Size(", rec_line, sizeof rec_line) && lab00_ref_after(R->lab, "y[0,:4] [", rec_vals, sizeof rec_vals)) {
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
void lab00_versions_line(FILE *f, const checks *C) {
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
            if (cls == 0) fprintf(f, "%s (%d of %d)", lab00_cmp_what[k], t->same, t->total);
            else if (cls == 1) fprintf(f, "%s (%d of %d the same; differing: %s)", lab00_cmp_what[k], t->same, t->total, t->differ);
            else fprintf(f, "%s (%s)", lab00_cmp_what[k], t->why_not);
        }
        if (n) fprintf(f, ".\n");
    }
}
