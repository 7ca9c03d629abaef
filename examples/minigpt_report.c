/* The MiniGPT experiment's report (what `ctorch gpt --out DIR` and the main job write):
 *
 *   minigpt.json   the program's JSON (minigpt.py's keys)
 *   summary.json   what the program prints
 *   profile.txt    the profiler's key_averages table of one training step
 *   trace.log      the dispatcher's decision trace of one training step (every hop, PyTorch's
 *                  TORCH_SHOW_DISPATCH_TRACE lines), with the full decision of its first hops
 *   loss.svg       the loss of every step, drawn here
 *   REPORT.md      what the run showed; every number in it is computed from this run
 *
 * The profiled and traced steps run on a fresh model built with the same seed and batch, after
 * the program, so watching them changes nothing in minigpt.json. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctorch/ctorch.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "ctorch/trace.h"
#include "files.h"
#include "minigpt.h"
#include "ctorch/json.h"
#include "ctorch/text.h"

#define WHO "ctorch gpt"

/* A fresh model, optimizer and first batch, as the program starts. */
typedef struct fresh {
    ct_module *model;
    ct_optimizer *opt;
    ct_tensor *x, *y;
} fresh;

static void fresh_free(fresh *f) {
    ct_tensor_release(f->x);
    ct_tensor_release(f->y);
    ct_optimizer_free(f->opt);
    ct_module_free(f->model);
    memset(f, 0, sizeof *f);
}

static int fresh_new(const ct_gpt_args *a, fresh *f) {
    memset(f, 0, sizeof *f);
    ct_gpt_config c = ct_gpt_config_from_args(a);
    ct_manual_seed(a->seed);
    f->model = ct_gpt_new(&c);
    f->opt = f->model ? ct_gpt_make_optimizer(f->model, a->lr, 0.1) : NULL;
    if (!f->opt || ct_gpt_make_batch(&c, a->batch, a->seed + 1, &f->x, &f->y) != 0) {
        fresh_free(f);
        return -1;
    }
    return 0;
}

/* ---- the profile ---- */

typedef struct profile_facts {
    char *table;
    size_t events;
    double overhead_ms;
    char top[5][96];     /* the top rows by self CPU time: name */
    double top_pct[5];   /* their share of self CPU time */
    int ntop;
} profile_facts;

static int profile_step(const ct_gpt_args *a, profile_facts *pf) {
    memset(pf, 0, sizeof *pf);
    fresh f;
    if (fresh_new(a, &f) != 0) return -1;
    ct_profiler *p = ct_profiler_start(false);
    double loss;
    int rc = p ? ct_gpt_train_step(f.model, f.opt, f.x, f.y, a->clip, &loss) : -1;
    if (p && ct_profiler_stop(p) != 0) rc = -1;
    if (rc == 0) {
        pf->table = ct_profiler_table(p, "self_cpu_time_total", 25, false);
        pf->events = ct_profiler_num_events(p);
        pf->overhead_ms = (double)ct_profiler_overhead_ns(p) / 1e6;
        /* the top rows, from the JSON form of the same table */
        char *js = ct_profiler_table_json(p, "self_cpu_time_total", 5, false);
        cJSON *rows = js ? ct_json_parse(js, strlen(js)) : NULL;
        const cJSON *row;
        cJSON_ArrayForEach(row, rows) {
            if (pf->ntop == 5) break;
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "name"));
            const cJSON *pct = cJSON_GetObjectItemCaseSensitive(row, "self_cpu_percent");
            if (!name) continue;
            snprintf(pf->top[pf->ntop], sizeof pf->top[0], "%s", name);
            pf->top_pct[pf->ntop] = pct ? cJSON_GetNumberValue(pct) : NAN;
            pf->ntop++;
        }
        cJSON_Delete(rows);
        ct_free(js);
        if (!pf->table) rc = -1;
    }
    ct_profiler_free(p);
    fresh_free(&f);
    return rc;
}

/* ---- the decision trace ---- */

typedef struct trace_facts {
    char *log;
    size_t hops, calls, redispatches, max_depth;
    size_t by_key[CT_KEY_COUNT];
} trace_facts;

#define FULL_HOPS 40 /* the first hops are also shown with their whole decision */

static int trace_step(const ct_gpt_args *a, trace_facts *tf) {
    memset(tf, 0, sizeof *tf);
    fresh f;
    if (fresh_new(a, &f) != 0) return -1;
    ct_dispatch_record *recs = NULL;
    size_t n = 0;
    double loss;
    int rc = ct_trace_begin();
    if (rc == 0) {
        rc = ct_gpt_train_step(f.model, f.opt, f.x, f.y, a->clip, &loss);
        if (ct_trace_end(&recs, &n) != 0) rc = -1;
    }
    fresh_free(&f);
    if (rc != 0) {
        ct_free(recs);
        return -1;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_printf(&b, "# The dispatcher's decisions over one MiniGPT training step (forward, backward, clip_grad_norm_,\n"
                     "# AdamW step, zero_grad) of a fresh model built with seed %llu: %zu hops.\n"
                     "# First the whole decision of the first %d hops, then every hop in PyTorch's\n"
                     "# TORCH_SHOW_DISPATCH_TRACE form.\n\n",
                 (unsigned long long)a->seed, n, FULL_HOPS);
    char line[8192];
    for (size_t i = 0; i < n && i < FULL_HOPS; i++) {
        size_t k = ct_trace_format(&recs[i], true, line, sizeof line);
        ct_sb_write(&b, line, k < sizeof line ? k : sizeof line - 1);
    }
    ct_sb_puts(&b, "\n# every hop\n");
    for (size_t i = 0; i < n; i++) {
        size_t k = ct_trace_format(&recs[i], false, line, sizeof line);
        ct_sb_write(&b, line, k < sizeof line ? k : sizeof line - 1);
        tf->hops++;
        if (recs[i].kind == CT_HOP_CALL) tf->calls++;
        else tf->redispatches++;
        if ((size_t)recs[i].depth > tf->max_depth) tf->max_depth = (size_t)recs[i].depth;
        if ((int)recs[i].key >= 0 && recs[i].key < CT_KEY_COUNT) tf->by_key[recs[i].key]++;
    }
    ct_free(recs);
    tf->log = ct_sb_finish(&b);
    return tf->log ? 0 : -1;
}

/* ---- the loss curve ---- */

/* Up to this many steps each gets a marker on the curve; past it, only the line. */
#define LOSS_MARKERS_MAX 100

/* A "nice" tick step (1, 2 or 5 times a power of ten) for a span. */
static double nice_step(double span, int target) {
    double raw = span / target, mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static char *loss_svg(const double *losses, int64_t n, const ct_gpt_args *a) {
    const double W = 640, H = 360, L = 70, R = 20, T = 40, B = 50;
    double lo = losses[0], hi = losses[0];
    for (int64_t i = 1; i < n; i++) {
        if (losses[i] < lo) lo = losses[i];
        if (losses[i] > hi) hi = losses[i];
    }
    if (hi - lo < 1e-9) {
        lo -= 0.5;
        hi += 0.5;
    }
    double step = nice_step(hi - lo, 5);
    double y0 = floor(lo / step) * step, y1 = ceil(hi / step) * step;
    double x_max = n > 1 ? (double)(n - 1) : 1.0;
#define PX(i) (L + (W - L - R) * (double)(i) / x_max)
#define PY(v) (T + (H - T - B) * (1 - ((v) - y0) / (y1 - y0)))
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_printf(&b,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n"
                 "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                 "<text x=\"%.0f\" y=\"22\" font-size=\"14\">MiniGPT training loss (seed %llu, %s attention, dropout %g%s)</text>\n",
                 W, H, W, H, L, (unsigned long long)a->seed, a->sdpa ? "sdpa" : "manual", a->dropout, a->tied ? ", tied" : "");
    /* axes, grid and ticks */
    for (double v = y0; v <= y1 + step / 2; v += step) {
        ct_sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(v), W - R, PY(v));
        ct_sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n", L - 6, PY(v) + 4, v);
    }
    /* the steps: a handful of ticks at nice numbers (0, 20, 40, ... for 100 steps), never one
     * label a step */
    int64_t xstep = n > 1 ? (int64_t)nice_step((double)(n - 1), 6) : 1;
    if (xstep < 1) xstep = 1;
    for (int64_t i = 0; i < n; i += xstep) {
        ct_sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", PX(i), H - B, PX(i), H - B + 5);
        ct_sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%lld</text>\n", PX(i), H - B + 18, (long long)i);
    }
    ct_sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
    ct_sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T, L, H - B);
    ct_sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">step</text>\n", (L + W - R) / 2, H - 10);
    ct_sb_printf(&b, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">cross-entropy loss</text>\n",
                 (T + H - B) / 2, (T + H - B) / 2);
    /* the curve and its points */
    ct_sb_puts(&b, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"");
    for (int64_t i = 0; i < n; i++) ct_sb_printf(&b, "%s%.1f,%.1f", i ? " " : "", PX(i), PY(losses[i]));
    ct_sb_puts(&b, "\"/>\n");
    /* a marker (with its value on hover) a step while they stay apart */
    for (int64_t i = 0; i < n && n <= LOSS_MARKERS_MAX; i++)
        ct_sb_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f77b4\"><title>step %lld: %.7g</title></circle>\n", PX(i),
                     PY(losses[i]), (long long)i, losses[i]);
    ct_sb_puts(&b, "</svg>\n");
#undef PX
#undef PY
    return ct_sb_finish(&b);
}

/* ---- the report ---- */

/* The recorded PyTorch run with these options in golden_dir, when there is one. */
static cJSON *recorded(const ct_gpt_args *a, const char *golden_dir, char *path, size_t size) {
    if (!golden_dir) return NULL;
    ct_gpt_args d;
    ct_gpt_args_defaults(&d);
    const char *variant = NULL;
    bool base = a->n_layer == d.n_layer && a->n_head == d.n_head && a->d_model == d.d_model && a->vocab == d.vocab &&
                a->block == d.block && a->batch == d.batch && a->steps == d.steps && a->lr == d.lr && a->clip == d.clip &&
                a->generate == d.generate;
    if (base && !a->sdpa && !a->tied && a->dropout == d.dropout) variant = "default";
    else if (base && a->sdpa && !a->tied && a->dropout == d.dropout) variant = "sdpa";
    else if (base && !a->sdpa && !a->tied && a->dropout == 0.0) variant = "dropout0";
    else if (base && !a->sdpa && a->tied && a->dropout == d.dropout) variant = "tied";
    if (!variant) return NULL;
    if ((size_t)snprintf(path, size, "%s/seed%llu-%s.json", golden_dir, (unsigned long long)a->seed, variant) >= size ||
        access(path, R_OK) != 0)
        return NULL; /* none: a name too long for path is no recording's */
    return ct_json_parse_file(path);
}

static const char *const PHASES[3] = {"forward", "backward", "optimizer"};

/* The loss curve in a few words and a short table: the first, last and lowest loss and a
 * handful of evenly spaced steps; every loss stays in minigpt.json. */
static void loss_summary(ct_strbuf *b, const cJSON *losses) {
    int n = cJSON_GetArraySize(losses), lowest = 0;
    double first = cJSON_GetNumberValue(cJSON_GetArrayItem(losses, 0));
    for (int i = 1; i < n; i++)
        if (cJSON_GetNumberValue(cJSON_GetArrayItem(losses, i)) < cJSON_GetNumberValue(cJSON_GetArrayItem(losses, lowest))) lowest = i;
    if (n == 1) {
        ct_sb_printf(b, "The loss of its one step was %.6f (loss.svg; `losses` in minigpt.json). ", first);
        return;
    }
    ct_sb_printf(b,
                 "The loss went from %.6f at step 0 to %.6f at step %d; the lowest was %.6f, at step %d (loss.svg; every "
                 "step's loss is `losses` in minigpt.json).\n\n| step | loss |\n|---:|---:|\n",
                 first, cJSON_GetNumberValue(cJSON_GetArrayItem(losses, n - 1)), n - 1,
                 cJSON_GetNumberValue(cJSON_GetArrayItem(losses, lowest)), lowest);
    /* the steps at a nice interval (as loss.svg's ticks: 0, 20, 40, ... for 130 steps), then the last */
    int every = (int)nice_step((double)(n - 1), 5);
    if (every < 1) every = 1;
    for (int i = 0; i < n; i += every) ct_sb_printf(b, "| %d | %.6f |\n", i, cJSON_GetNumberValue(cJSON_GetArrayItem(losses, i)));
    if ((n - 1) % every != 0) ct_sb_printf(b, "| %d | %.6f |\n", n - 1, cJSON_GetNumberValue(cJSON_GetArrayItem(losses, n - 1)));
    ct_sb_puts(b, "\n");
}

static char *make_report(const ct_gpt_args *a, const cJSON *out, const profile_facts *pf, const trace_facts *tf,
                         const char *golden_dir) {
    ct_strbuf b = CT_STRBUF_INIT;
    const cJSON *log = cJSON_GetObjectItemCaseSensitive(out, "log"), *ops = cJSON_GetObjectItemCaseSensitive(out, "ops");
    const cJSON *losses = cJSON_GetObjectItemCaseSensitive(out, "losses"), *gen = cJSON_GetObjectItemCaseSensitive(out, "generated");
    int nloss = cJSON_GetArraySize(losses);
    ct_sb_printf(&b, "# MiniGPT, traced, trained and sampled (ctorch, following PyTorch 2.6)\n\n");
    ct_sb_printf(&b,
                 "Command: `ctorch gpt --seed %llu%s --dropout %g --n-layer %lld --n-head %lld --d-model %lld --vocab %lld "
                 "--block %lld --batch %lld%s --steps %lld --lr %g --clip %g --generate %lld`.\n\n",
                 (unsigned long long)a->seed, a->sdpa ? " --attention sdpa" : "", a->dropout, (long long)a->n_layer,
                 (long long)a->n_head, (long long)a->d_model, (long long)a->vocab, (long long)a->block, (long long)a->batch,
                 a->tied ? " --tied" : "", (long long)a->steps, a->lr, a->clip, (long long)a->generate);
    ct_sb_printf(&b, "## The model and the run\n\n");
    ct_sb_printf(&b,
                 "A decoder-only transformer of %lld blocks (%lld heads, width %lld, %s attention), vocabulary %lld, context "
                 "%lld, %s: %.0f parameters. It was trained for %d steps on batches of %lld random token sequences with AdamW "
                 "(lr %g, betas (0.9, 0.95), weight decay 0.1 on the weight matrices, none on the rest) and gradient clipping "
                 "at %g, then sampled %lld tokens.\n\n",
                 (long long)a->n_layer, (long long)a->n_head, (long long)a->d_model, a->sdpa ? "scaled_dot_product_attention" : "hand-written",
                 (long long)a->vocab, (long long)a->block, a->tied ? "head tied to the token embedding" : "untied head",
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(out, "n_params")), nloss, (long long)a->batch, a->lr, a->clip,
                 (long long)a->generate);
    loss_summary(&b, losses);
    ct_sb_printf(&b, "The sampled tokens (after the 4 prompt tokens) are");
    for (int i = 4; i < cJSON_GetArraySize(gen); i++)
        ct_sb_printf(&b, "%s %.0f", i > 4 ? "," : "", cJSON_GetNumberValue(cJSON_GetArrayItem(gen, i)));
    ct_sb_printf(&b, "%s.\n\n", cJSON_GetArraySize(gen) <= 4 ? " none" : "");

    ct_sb_printf(&b, "## The traced step (a dispatch mode, per phase)\n\n");
    ct_sb_printf(&b, "| phase | ops | distinct | most frequent |\n|---|---:|---:|---|\n");
    for (int p = 0; p < 3; p++) {
        const cJSON *counts = cJSON_GetObjectItemCaseSensitive(ops, PHASES[p]);
        /* the three most frequent ops */
        const cJSON *best[3] = {NULL, NULL, NULL}, *c;
        cJSON_ArrayForEach(c, counts) {
            for (int k = 0; k < 3; k++) {
                if (!best[k] || cJSON_GetNumberValue(c) > cJSON_GetNumberValue(best[k])) {
                    for (int m = 2; m > k; m--) best[m] = best[m - 1];
                    best[k] = c;
                    break;
                }
            }
        }
        ct_sb_printf(&b, "| %s | %d | %d | ", PHASES[p], cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(log, PHASES[p])),
                     cJSON_GetArraySize(counts));
        for (int k = 0; k < 3 && best[k]; k++) ct_sb_printf(&b, "%s`%s` x%.0f", k ? ", " : "", best[k]->string, cJSON_GetNumberValue(best[k]));
        ct_sb_printf(&b, " |\n");
    }
    char path[CT_EXAMPLE_PATH_MAX];
    cJSON *want = recorded(a, golden_dir, path, sizeof path);
    if (want) {
        ct_sb_printf(&b, "\nAgainst PyTorch 2.6's run with the same options (`%s`):", path);
        for (int p = 0; p < 3; p++) {
            const cJSON *g = cJSON_GetObjectItemCaseSensitive(log, PHASES[p]);
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(want, "log"), PHASES[p]);
            int ng = cJSON_GetArraySize(g), nw = cJSON_GetArraySize(w), first = -1;
            for (int i = 0; i < ng && i < nw && first < 0; i++)
                if (strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(g, i)), cJSON_GetStringValue(cJSON_GetArrayItem(w, i))) != 0) first = i;
            if (first < 0 && ng != nw) first = ng < nw ? ng : nw;
            if (first < 0) ct_sb_printf(&b, " the %s log is equal op for op (%d ops);", PHASES[p], ng);
            else ct_sb_printf(&b, " the %s log differs first at op %d;", PHASES[p], first);
        }
        double worst = 0;
        const cJSON *wl = cJSON_GetObjectItemCaseSensitive(want, "losses");
        for (int i = 0; i < nloss && i < cJSON_GetArraySize(wl); i++) {
            double x = cJSON_GetNumberValue(cJSON_GetArrayItem(losses, i)), y = cJSON_GetNumberValue(cJSON_GetArrayItem(wl, i));
            if (fabs(x - y) / fabs(y) > worst) worst = fabs(x - y) / fabs(y);
        }
        char *gg = ct_json_dumps(gen, -1), *gw = ct_json_dumps(cJSON_GetObjectItemCaseSensitive(want, "generated"), -1);
        if (worst == 0) ct_sb_printf(&b, " the losses are PyTorch's, the same float32 values;");
        else ct_sb_printf(&b, " the losses differ by at most %.2g relative;", worst);
        ct_sb_printf(&b, " the sampled tokens are %s.", gg && gw && strcmp(gg, gw) == 0 ? "identical" : "not identical");
        const char *core = ct_backends_blas_core(), *forced = getenv("OPENBLAS_CORETYPE");
        ct_sb_printf(&b, " Float32 results depend on the CPU level and the BLAS's kernel set, PyTorch's too"
                         " (docs/experiments.md); this run's: CPU capability %s, BLAS kernels %s%s%s%s.\n",
                     ct_backends_cpu_capability(), core ? core : "built-in", forced ? " (forced by OPENBLAS_CORETYPE=" : "",
                     forced ? forced : "", forced ? ")" : "");
        ct_free(gg);
        ct_free(gw);
        cJSON_Delete(want);
    } else {
        ct_sb_printf(&b, "\nThere is no recorded PyTorch 2.6 run with these options to compare with.\n");
    }

    ct_sb_printf(&b, "\n## One step under the profiler (profile.txt)\n\n");
    ct_sb_printf(&b, "A fresh model (same seed and batch) took one training step with the profiler on: %zu events, %.2f ms "
                     "spent in the profiler's own hooks. By self CPU time the top rows are",
                 pf->events, pf->overhead_ms);
    for (int i = 0; i < pf->ntop; i++) ct_sb_printf(&b, "%s `%s` (%.1f%%)", i ? "," : "", pf->top[i], pf->top_pct[i]);
    ct_sb_printf(&b, ".\n\n");
    ct_sb_printf(&b, "## One step under the decision trace (trace.log)\n\n");
    ct_sb_printf(&b, "Another fresh step made %zu dispatcher hops: %zu calls and %zu redispatches, nested up to %zu deep. "
                     "The key that won:",
                 tf->hops, tf->calls, tf->redispatches, tf->max_depth);
    bool first = true;
    for (int k = 0; k < CT_KEY_COUNT; k++) {
        if (!tf->by_key[k]) continue;
        ct_sb_printf(&b, "%s %s %zu", first ? "" : ",", ct_key_name((ct_dispatch_key)k), tf->by_key[k]);
        first = false;
    }
    ct_sb_printf(&b, ".\n");
    return ct_sb_finish(&b);
}

int ct_example_minigpt_report(const ct_gpt_args *a_in, const char *out_dir, const char *golden_dir, FILE *progress,
                              FILE *result) {
    /* the longest name written in out_dir is "/summary.json" (and its atomic writer's sibling):
     * 40 bytes of room */
    if (ct_example_check_path(stderr, WHO, "the output folder's name", out_dir, 40) != 0) return 2;
    if (ct_example_mkdir_p(out_dir) != 0) {
        fprintf(stderr, WHO ": cannot create the output folder '%s': %s\n", out_dir, strerror(errno));
        return 2;
    }
    if (access(out_dir, W_OK | X_OK) != 0) {
        fprintf(stderr, WHO ": the output folder '%s' is not writable: %s\n", out_dir, strerror(errno));
        return 2;
    }
    ct_gpt_args a = *a_in;
    char json_path[CT_EXAMPLE_PATH_MAX];
    snprintf(json_path, sizeof json_path, "%s/minigpt.json", out_dir); /* fits: checked above */
    if (!a.json_out) a.json_out = json_path;
    char *json = NULL, *summary = NULL, *svg = NULL, *report = NULL, *with_nl = NULL;
    double *losses = NULL;
    cJSON *out = NULL;
    profile_facts pf;
    trace_facts tf;
    memset(&pf, 0, sizeof pf);
    memset(&tf, 0, sizeof tf);
    int rc = 1;
    if (progress) fprintf(progress, "gpt: the program (one traced step, %lld steps, sampling)\n", (long long)a.steps);
    if (ct_example_minigpt(&a, &json, &summary, &losses) != 0) goto fail;
    out = ct_json_parse(json, strlen(json));
    if (!out) goto fail;
    if (progress) fprintf(progress, "gpt: one step under the profiler\n");
    if (profile_step(&a, &pf) != 0) goto fail;
    if (progress) fprintf(progress, "gpt: one step under the decision trace\n");
    if (trace_step(&a, &tf) != 0) goto fail;
    svg = loss_svg(losses, a.steps > 1 ? a.steps : 1, &a);
    report = make_report(&a, out, &pf, &tf, golden_dir);
    with_nl = malloc(strlen(json) + 2);
    if (!svg || !report || !with_nl) goto fail;
    sprintf(with_nl, "%s\n", json);
    rc = 2;
    if (ct_json_write_file_atomic(a.json_out, with_nl) != 0) {
        fprintf(stderr, WHO ": cannot write %s: %s\n", a.json_out, ct_error_message());
        goto done;
    }
    if (ct_example_write_file(WHO, out_dir, "summary.json", summary) != 0) goto done;
    if (ct_example_write_file(WHO, out_dir, "profile.txt", pf.table) != 0) goto done;
    if (ct_example_write_file(WHO, out_dir, "trace.log", tf.log) != 0) goto done;
    if (ct_example_write_file(WHO, out_dir, "loss.svg", svg) != 0) goto done;
    if (ct_example_write_file(WHO, out_dir, "REPORT.md", report) != 0) goto done;
    if (progress)
        fprintf(progress, "gpt: wrote %s, %s/{summary.json,profile.txt,trace.log,loss.svg,REPORT.md}\n", a.json_out, out_dir);
    if (result) fprintf(result, "%s\n", summary);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, WHO ": %s: %s\n", ct_error_kind_name(ct_error_code()), ct_error_message());
done:
    cJSON_Delete(out);
    ct_free(json);
    ct_free(summary);
    free(losses);
    ct_free(svg);
    ct_free(report);
    free(with_nl);
    ct_free(pf.table);
    ct_free(tf.log);
    return rc;
}
