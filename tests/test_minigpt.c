/* MiniGPT against PyTorch 2.6: every run recorded by tests/golden/record/minigpt_runs.py
 * (seeds 0-2 with the default options, --attention sdpa, --dropout 0 and --tied; other option
 * combinations for seed 0) is run by the C program with the recorded configuration and
 * compared with the recording:
 *   - the op log of each phase (forward, backward, optimizer), op for op and in order,
 *     detach entries and the optimizer's profiler ops included, and the per-phase counts;
 *   - the parameter count and the sampled tokens, exactly;
 *   - the losses of every step, the first logits and the head's weights after training: the
 *     same floats where this run's conditions are the recording's (conditions.json beside the
 *     recordings: CPU capability, the BLAS's kernel set, no forced OPENBLAS_CORETYPE); under other
 *     conditions, whose float32 bits differ for PyTorch too, and for sdpa without dropout (the
 *     flash kernel), losses within rtol 1e-5 and the rest within rtol 1e-4 / atol 1e-6;
 *   - the configuration echoed in the JSON.
 * It also checks the JSON and summary texts are what json.dumps writes, that bad options fail
 * with PyTorch's errors, and that nothing leaks.
 *
 * `test_minigpt 2` (the test test_minigpt_2threads) instead trains the runs recorded with two
 * intra-op threads (minigpt_runs.py --threads 2, in tests/golden/torch-2.6/minigpt-2threads/) at
 * two threads and compares them in the same way; the rest is thread-independent and runs once. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "minigpt.h"
#include "util/json.h"

static double num(const cJSON *o, const char *k) { return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k)); }

static void args_from_config(const cJSON *cfg, ct_gpt_args *a) {
    ct_gpt_args_defaults(a);
    double seed = num(cfg, "seed"); /* the recorded seeds are small ints, exact in a double */
    a->seed_negative = seed < 0;
    a->seed = seed < 0 ? (uint64_t)(int64_t)seed : (uint64_t)seed;
    a->sdpa = strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "attention")), "sdpa") == 0;
    a->dropout = num(cfg, "dropout");
    a->n_layer = (int64_t)num(cfg, "n_layer");
    a->n_head = (int64_t)num(cfg, "n_head");
    a->d_model = (int64_t)num(cfg, "d_model");
    a->vocab = (int64_t)num(cfg, "vocab");
    a->block = (int64_t)num(cfg, "block");
    a->batch = (int64_t)num(cfg, "batch");
    a->tied = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cfg, "tied"));
    a->steps = (int64_t)num(cfg, "steps");
    a->lr = num(cfg, "lr");
    a->clip = num(cfg, "clip");
    a->generate = (int64_t)num(cfg, "generate");
}

static void compare_names(const char *run, const char *what, const cJSON *got, const cJSON *want) {
    int ng = cJSON_GetArraySize(got), nw = cJSON_GetArraySize(want);
    int n = ng < nw ? ng : nw, first = -1;
    for (int i = 0; i < n && first < 0; i++)
        if (strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(got, i)), cJSON_GetStringValue(cJSON_GetArrayItem(want, i))) != 0) first = i;
    if (first < 0 && ng != nw) first = n;
    CHECK_MSG(first < 0, "%s: %s log: %d ops, PyTorch %d; first difference at %d: ctorch %s, PyTorch %s", run, what, ng, nw, first,
              first >= 0 && first < ng ? cJSON_GetStringValue(cJSON_GetArrayItem(got, first)) : "(end)",
              first >= 0 && first < nw ? cJSON_GetStringValue(cJSON_GetArrayItem(want, first)) : "(end)");
}

static void compare_counts(const char *run, const char *what, const cJSON *got, const cJSON *want) {
    CHECK_MSG(cJSON_GetArraySize(got) == cJSON_GetArraySize(want), "%s: %s counts: %d names, PyTorch %d", run, what,
              cJSON_GetArraySize(got), cJSON_GetArraySize(want));
    const cJSON *w, *g = got ? got->child : NULL;
    cJSON_ArrayForEach(w, want) {
        /* same names in the same (sorted) order, same counts */
        CHECK_MSG(g && strcmp(g->string, w->string) == 0 && cJSON_GetNumberValue(g) == cJSON_GetNumberValue(w),
                  "%s: %s count of %s: ctorch %s=%g, PyTorch %g", run, what, w->string, g ? g->string : "(none)",
                  g ? cJSON_GetNumberValue(g) : 0.0, cJSON_GetNumberValue(w));
        g = g ? g->next : NULL;
    }
}

/* Returns the largest relative difference seen. */
static double compare_floats(const char *run, const char *what, const cJSON *got, const cJSON *want, double rtol, double atol) {
    double worst = 0;
    CHECK_MSG(cJSON_GetArraySize(got) == cJSON_GetArraySize(want), "%s: %s: %d values, PyTorch %d", run, what,
              cJSON_GetArraySize(got), cJSON_GetArraySize(want));
    for (int i = 0; i < cJSON_GetArraySize(want) && i < cJSON_GetArraySize(got); i++) {
        double g = cJSON_GetNumberValue(cJSON_GetArrayItem(got, i)), w = cJSON_GetNumberValue(cJSON_GetArrayItem(want, i));
        CHECK_MSG(fabs(g - w) <= atol + rtol * fabs(w), "%s: %s[%d]: ctorch %.9g, PyTorch %.9g", run, what, i, g, w);
        double rel = w != 0 ? fabs(g - w) / fabs(w) : fabs(g - w);
        if (rel > worst || isnan(rel)) worst = rel;
    }
    return worst;
}

static double worst_loss_rel; /* over every recorded run */

static void compare_exact(const char *run, const char *what, const cJSON *got, const cJSON *want) {
    char *g = ct_json_dumps(got, -1), *w = ct_json_dumps(want, -1);
    CHECK_MSG(g && w && strcmp(g, w) == 0, "%s: %s:\n   ctorch  %s\n   PyTorch %s", run, what, g ? g : "?", w ? w : "?");
    ct_free(g);
    ct_free(w);
}

static int run_count;
static int run_threads = 1;                                    /* the intra-op threads of the runs */
static const char *rec_dir = "tests/golden/torch-2.6/minigpt"; /* their recordings */

/* Whether this run's conditions are those the recordings were made under (conditions.json). */
static bool recorded_conditions(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/conditions.json", rec_dir);
    cJSON *c = ct_json_parse_file(ct_test_source(path));
    CHECK_MSG(c != NULL, "conditions.json: %s", ct_error_message());
    if (!c) return false;
    const char *cap = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "cpu_capability"));
    const char *core = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "blas_core"));
    const char *forced = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "OPENBLAS_CORETYPE"));
    const char *here_core = ct_backends_blas_core(), *here_forced = getenv("OPENBLAS_CORETYPE");
    bool same = cap && strcmp(cap, ct_backends_cpu_capability()) == 0 && (core && here_core ? strcmp(core, here_core) == 0 : core == here_core) &&
                (forced && here_forced ? strcmp(forced, here_forced) == 0 : forced == here_forced);
    printf("this run: CPU capability %s, BLAS core %s, OPENBLAS_CORETYPE %s; recorded: %s, %s, %s -> %s\n",
           ct_backends_cpu_capability(), here_core ? here_core : "none", here_forced ? here_forced : "unset", cap ? cap : "?",
           core ? core : "none", forced ? forced : "unset", same ? "the same floats required" : "tolerances");
    cJSON_Delete(c);
    return same;
}

static bool exact_floats;
static int exact_runs;

static void run_recording(const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", rec_dir, file);
    cJSON *want = ct_json_parse_file(ct_test_source(path));
    CHECK_MSG(want != NULL, "%s: %s", file, ct_error_message());
    if (!want) return;
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(want, "config");
    ct_gpt_args a;
    args_from_config(cfg, &a);
    a.threads = run_threads;
    /* sdpa without dropout trains through the CPU flash kernel, which ctorch computes in double
     * (docs/experiments.md): its values agree to rounding, not bit for bit */
    const bool exact = exact_floats && !(a.sdpa && a.dropout == 0.0);
    char *json = NULL, *summary = NULL;
    int rc = ct_example_minigpt(&a, &json, &summary, NULL);
    CHECK_MSG(rc == 0, "%s: the run failed: %s", file, ct_error_message());
    cJSON *got = rc == 0 ? ct_json_parse(json, strlen(json)) : NULL;
    if (got) {
        run_count++;
        exact_runs += exact;
        const char *phases[3] = {"forward", "backward", "optimizer"};
        for (int p = 0; p < 3; p++) {
            compare_names(file, phases[p], cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(got, "log"), phases[p]),
                          cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(want, "log"), phases[p]));
            compare_counts(file, phases[p], cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(got, "ops"), phases[p]),
                           cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(want, "ops"), phases[p]));
        }
        compare_exact(file, "n_params", cJSON_GetObjectItemCaseSensitive(got, "n_params"), cJSON_GetObjectItemCaseSensitive(want, "n_params"));
        compare_exact(file, "generated", cJSON_GetObjectItemCaseSensitive(got, "generated"),
                      cJSON_GetObjectItemCaseSensitive(want, "generated"));
        double wl = compare_floats(file, "losses", cJSON_GetObjectItemCaseSensitive(got, "losses"),
                                   cJSON_GetObjectItemCaseSensitive(want, "losses"), exact ? 0.0 : 1e-5, 0.0);
        if (wl > worst_loss_rel || isnan(wl)) worst_loss_rel = wl;
        compare_floats(file, "logits_first", cJSON_GetObjectItemCaseSensitive(got, "logits_first"),
                       cJSON_GetObjectItemCaseSensitive(want, "logits_first"), exact ? 0.0 : 1e-4, exact ? 0.0 : 1e-6);
        compare_floats(file, "head_weight_after", cJSON_GetObjectItemCaseSensitive(got, "head_weight_after"),
                       cJSON_GetObjectItemCaseSensitive(want, "head_weight_after"), exact ? 0.0 : 1e-4, exact ? 0.0 : 1e-6);
        /* the configuration as vars(args) (json_out is where the recording went) */
        cJSON *gc = cJSON_GetObjectItemCaseSensitive(got, "config");
        const cJSON *w;
        cJSON_ArrayForEach(w, cfg) {
            if (strcmp(w->string, "json_out") == 0) continue;
            compare_exact(file, w->string, cJSON_GetObjectItemCaseSensitive(gc, w->string), w);
        }
        /* the summary is json.dumps(..., indent=1) of four of the keys */
        cJSON *s = ct_json_parse(summary, strlen(summary));
        CHECK_MSG(s && cJSON_GetArraySize(s) == 4 && strncmp(summary, "{\n \"ops\": {\n  \"forward\": {\n   \"aten.", 33) == 0,
                  "%s: the summary is not minigpt.py's", file);
        cJSON_Delete(s);
    }
    cJSON_Delete(got);
    cJSON_Delete(want);
    ct_free(json);
    ct_free(summary);
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    if (argc > 1) {
        run_threads = atoi(argv[1]);
        if (run_threads != 2) {
            fprintf(stderr, "usage: test_minigpt [2]  (the runs recorded at two threads)\n");
            return 2;
        }
        rec_dir = "tests/golden/torch-2.6/minigpt-2threads";
    }
    int64_t live0 = ct_testing_live_tensors();
    DIR *d = opendir(ct_test_source(rec_dir));
    CHECK_MSG(d != NULL, "cannot list %s", rec_dir);
    char *files[64];
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 64)
        if (strncmp(e->d_name, "seed", 4) == 0 && strstr(e->d_name, ".json")) files[n++] = strdup(e->d_name);
    if (d) closedir(d);
    qsort(files, (size_t)n, sizeof *files, cmp_names);
    exact_floats = recorded_conditions();
    for (int i = 0; i < n; i++) {
        run_recording(files[i]);
        free(files[i]);
    }
    /* the acceptance set: seeds 0-2 x {default, sdpa, dropout0, tied} */
    CHECK_MSG(run_count >= 12, "only %d recorded runs compared", run_count);
    printf("%d recorded runs at %d thread(s): op logs, counts, parameter counts and tokens equal; losses within a relative %.3g of "
           "PyTorch's; %d runs required to give the same floats\n",
           run_count, run_threads, worst_loss_rel, exact_runs);
    if (run_threads != 1) {
        CHECK_INT_EQ(ct_testing_live_tensors(), live0);
        CHECK_INT_EQ(ct_testing_live_nodes(), 0);
        return ct_test_finish("test_minigpt_2threads");
    }

    /* the default run prints the JSON as json.dumps(out, indent=2): the config block verbatim */
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    a.steps = 1;
    a.generate = 1;
    char *json = NULL, *summary = NULL;
    CHECK_INT_EQ(ct_example_minigpt(&a, &json, &summary, NULL), 0);
    static const char head[] =
        "{\n  \"config\": {\n    \"seed\": 0,\n    \"json_out\": null,\n    \"attention\": \"manual\",\n"
        "    \"dropout\": 0.1,\n    \"n_layer\": 2,\n    \"n_head\": 4,\n    \"d_model\": 64,\n    \"vocab\": 600,\n"
        "    \"block\": 32,\n    \"batch\": 4,\n    \"tied\": false,\n    \"steps\": 1,\n    \"lr\": 0.003,\n"
        "    \"clip\": 1.0,\n    \"generate\": 1\n  },\n";
    CHECK_MSG(json && strncmp(json, head, strlen(head)) == 0, "the JSON does not start as minigpt.py's:\n%.400s", json ? json : "(null)");
    ct_free(json);
    ct_free(summary);

    /* misuse gets PyTorch's errors (tests/golden/torch-2.6/minigpt_errors.json), and no crash */
    cJSON *errs = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/minigpt_errors.json"));
    CHECK_MSG(errs != NULL, "minigpt_errors.json: %s", ct_error_message());
    const cJSON *c;
    int nerr = 0;
    cJSON_ArrayForEach(c, errs) {
        ct_gpt_args bad;
        ct_gpt_args_defaults(&bad);
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(c, "args");
        for (int i = 0; i + 1 < cJSON_GetArraySize(args); i += 2) {
            const char *k = cJSON_GetStringValue(cJSON_GetArrayItem(args, i));
            double v = strtod(cJSON_GetStringValue(cJSON_GetArrayItem(args, i + 1)), NULL);
            if (strcmp(k, "--dropout") == 0) bad.dropout = v;
            else if (strcmp(k, "--lr") == 0) bad.lr = v;
            else if (strcmp(k, "--n-head") == 0) bad.n_head = (int64_t)v;
            else if (strcmp(k, "--steps") == 0) bad.steps = (int64_t)v;
            else CHECK_MSG(false, "%s: unknown option %s in minigpt_errors.json", c->string, k);
        }
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(c, "error");
        const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "type"));
        int kind = strcmp(type, "ValueError") == 0 ? CT_ERR_VALUE : CT_ERR_RUNTIME;
        CHECK_MSG(ct_example_minigpt(&bad, &json, &summary, NULL) != 0, "%s: no error", c->string);
        CHECK_ERROR(kind, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message")));
        nerr++;
    }
    CHECK(nerr >= 3);
    cJSON_Delete(errs);

    /* the report: every file, and a REPORT.md built from this run and the recording */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/test_minigpt_report", CT_BINARY_DIR);
    ct_gpt_args r;
    ct_gpt_args_defaults(&r);
    CHECK_INT_EQ(ct_example_minigpt_report(&r, dir, ct_test_source("tests/golden/torch-2.6/minigpt"), NULL, NULL), 0);
    const char *files_[6] = {"minigpt.json", "summary.json", "profile.txt", "trace.log", "loss.svg", "REPORT.md"};
    for (int i = 0; i < 6; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", dir, files_[i]);
        FILE *f = fopen(p, "rb");
        CHECK_MSG(f != NULL, "the report has no %s", files_[i]);
        if (!f) continue;
        char *text = calloc(1, 1 << 20);
        size_t len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
        fclose(f);
        CHECK_MSG(len > 0, "%s is empty", files_[i]);
        if (i == 5 && text) {
            CHECK_MSG(strstr(text, "the forward log is equal op for op (150 ops); the backward log is equal op for op (239 ops); "
                                   "the optimizer log is equal op for op (402 ops)") &&
                          strstr(text, "the sampled tokens are identical") && strstr(text, "179544 parameters"),
                      "REPORT.md does not state the comparison:\n%s", text);
        }
        if (i == 4 && text) CHECK_MSG(strncmp(text, "<svg ", 5) == 0 && strstr(text, "<polyline"), "loss.svg is not a plot");
        if (i == 3 && text) CHECK_MSG(strstr(text, "[call] op=[aten::embedding], key=[AutogradCPU]") != NULL, "trace.log has no embedding call");
        free(text);
    }
    /* no attention head: refused, not a division by zero */
    ct_gpt_args zero;
    ct_gpt_args_defaults(&zero);
    zero.n_head = 0;
    ct_gpt_config zc = ct_gpt_config_from_args(&zero);
    CHECK(ct_gpt_new(&zc) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "MiniGPT needs at least one attention head, got n_head=0");
    /* an unwritable folder fails cleanly */
    CHECK_INT_EQ(ct_example_minigpt_report(&r, "/proc/ctorch-cannot-write-here", NULL, NULL, NULL), 2);

    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    return ct_test_finish("test_minigpt");
}
