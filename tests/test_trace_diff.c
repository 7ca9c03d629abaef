/* `ctorch diff A B` over trace files written by `ctorch trace --out`, `ctorch step --trace` and
 * PyTorch's recordings (tests/golden/record/linear_traces.py, seed_step_trace.py):
 *   - linear vs addmm(b, x, W.T): linear's hops only in A, numpy_T/permute's only in B, addmm
 *     aligned and equal;
 *   - float32 vs float16: every hop aligned, only the arguments' dtypes differ;
 *   - grad vs no_grad: the same route, grad mode and the sequence numbers differ; vs
 *     inference_mode: other keys (CPU instead of AutogradCPU), TLS sets;
 *   - two seeds: the same (exit 0), the headers' seeds shown;
 *   - ctorch vs PyTorch 2.6: the seed step and six linear variants are the same, argument for
 *     argument; an altered recording is reported at the exact record and line; PyTorch 1.13's
 *     recording differs where 1.13 differs from 2.6;
 *   - old and newer schema versions, files that are not traces, usage errors: exit 2 with a
 *     message; colours only when asked for (stdout is a file here); --json and the text agree. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctorch/init.h"
#include "ctorch/trace.h"
#include "harness.h"
#include "util/json.h"

static char dir[] = "/tmp/ctorch-diff-XXXXXX";

typedef ct_test_run result;

static void result_free(result *r) { ct_test_run_free(r); }

/* build/bin/ctorch with args (NULL-terminated), stdout and stderr captured */
static result ctorch(const char *const *args) {
    char exe[600];
    snprintf(exe, sizeof exe, "%s/bin/ctorch", CT_BINARY_DIR);
    return ct_test_run_program(exe, "ctorch", args, dir);
}

static const char *path(const char *name) {
    static char p[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static const char *golden(const char *name) {
    static char p[2][600];
    static int k;
    k = (k + 1) % 2;
    snprintf(p[k], sizeof p[k], "%s/tests/golden/%s", CT_SOURCE_DIR, name);
    return p[k];
}

/* `ctorch trace --out DIR/name ARGS...` */
static void record(const char *name, const char *const *more) {
    const char *args[16] = {"trace", "--out", path(name)};
    int n = 3;
    for (int i = 0; more[i]; i++) args[n++] = more[i];
    args[n] = NULL;
    result r = ctorch(args);
    CHECK_MSG(r.status == 0, "ctorch trace --out %s: %d %s", name, r.status, r.err);
    result_free(&r);
}

/* `ctorch diff --json A B`, parsed; *status gets the exit status */
static cJSON *diff_json(const char *a, const char *b, const char *view, int *status) {
    const char *args[8] = {"diff", "--json", a, b, NULL};
    if (view) {
        args[2] = "--view";
        args[3] = view;
        args[4] = a;
        args[5] = b;
        args[6] = NULL;
    }
    result r = ctorch(args);
    *status = r.status;
    cJSON *j = ct_json_parse(r.out, strlen(r.out));
    CHECK_MSG(j != NULL, "diff --json %s %s: not JSON: %s%s", a, b, r.out, r.err);
    result_free(&r);
    return j;
}

static const cJSON *get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }
static double num(const cJSON *o, const char *k) {
    const cJSON *v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}
static const char *str(const cJSON *o, const char *k) { return cJSON_GetStringValue(get(o, k)); }

/* the differences of one kind, and whether every changed field's name is in allowed */
static int count_kind(const cJSON *j, const char *kind) {
    int n = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, get(j, "differences")) n += strcmp(str(d, "kind"), kind) == 0;
    return n;
}

static bool only_fields(const cJSON *j, const char *const *allowed) {
    const cJSON *d, *f;
    cJSON_ArrayForEach(d, get(j, "differences")) cJSON_ArrayForEach(f, get(d, "fields")) {
        const char *name = str(f, "field");
        const char *dot = strrchr(name, '.');
        const char *tail = dot ? dot + 1 : name;
        bool ok = false;
        for (int i = 0; allowed[i]; i++) ok |= strcmp(tail, allowed[i]) == 0;
        if (!ok) {
            printf("unexpected field %s\n", name);
            return false;
        }
    }
    return true;
}

/* the record text of difference i, side "a" or "b" */
static const char *rec_of(const cJSON *j, int i, const char *side) {
    return str(get(cJSON_GetArrayItem(get(j, "differences"), i), side), "record");
}

static void test_linear_vs_addmm(void) {
    int st;
    cJSON *j = diff_json(path("linear.jsonl"), path("addmm.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_STR_EQ(str(j, "view"), "hops");
    CHECK(cJSON_IsFalse(get(j, "same")));
    /* linear and its t (4 hops + transpose) only in A; numpy_T and permute (4 hops) only in B */
    CHECK_INT_EQ(count_kind(j, "only_a"), 5);
    CHECK_INT_EQ(count_kind(j, "only_b"), 4);
    CHECK_INT_EQ(count_kind(j, "changed"), 0);
    CHECK_STR_EQ(rec_of(j, 0, "a"), "[call] aten::linear  AutogradCPU  (math kernel)");
    CHECK_INT_EQ(num(get(cJSON_GetArrayItem(get(j, "differences"), 0), "a"), "line"), 2);
    const cJSON *d;
    bool permute = false;
    cJSON_ArrayForEach(d, get(j, "differences")) {
        const char *b = str(get(d, "b"), "record");
        permute |= b && strcmp(b, "[call] aten::permute  AutogradCPU  (autograd kernel)") == 0;
    }
    CHECK(permute);
    /* addmm's hops are aligned and equal: the same decision whether W.T is a t or a permute */
    CHECK_INT_EQ(num(get(j, "summary"), "same"), 8);
    cJSON_Delete(j);

    /* the text form: the same records, a summary line, no colour on a file */
    const char *args[] = {"diff", path("linear.jsonl"), path("addmm.jsonl"), NULL};
    result r = ctorch(args);
    CHECK_INT_EQ(r.status, 1);
    CHECK(strstr(r.out, "\n-       1          [call] aten::linear  AutogradCPU  (math kernel)\n") != NULL);
    CHECK(strstr(r.out, "\n+               2   [call] aten::permute  AutogradCPU  (autograd kernel)\n") != NULL);
    CHECK(strstr(r.out, "\n        7       6   [call] aten::addmm  AutogradCPU  (autograd kernel)\n") != NULL);
    CHECK(strstr(r.out, "different: 13 hops in A, 12 in B; 8 aligned (8 equal, 0 changed), 5 only in A, 4 only in B; "
                        "first difference: A 1 (line 2) is only in A\n") != NULL);
    CHECK(!strchr(r.out, '\033'));
    result_free(&r);
    const char *colored[] = {"diff", "--color", "always", path("linear.jsonl"), path("addmm.jsonl"), NULL};
    r = ctorch(colored);
    CHECK(strstr(r.out, "\033[31m-       1 ") != NULL && strstr(r.out, "\033[32m+  ") != NULL);
    result_free(&r);
    /* --view calls aligns call hops only */
    j = diff_json(path("linear.jsonl"), path("addmm.jsonl"), "calls", &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(num(get(j, "summary"), "a_records"), 10);
    cJSON_Delete(j);
}

static void test_dtypes(void) {
    int st;
    cJSON *j = diff_json(path("linear.jsonl"), path("f16.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(count_kind(j, "only_a") + count_kind(j, "only_b"), 0);
    CHECK_INT_EQ(count_kind(j, "changed"), 13);
    const char *allowed[] = {"dtype", NULL};
    CHECK(only_fields(j, allowed));
    const cJSON *f = cJSON_GetArrayItem(get(cJSON_GetArrayItem(get(j, "differences"), 0), "fields"), 0);
    CHECK_STR_EQ(str(f, "field"), "args[0] input.dtype");
    CHECK_STR_EQ(str(f, "a"), "float32");
    CHECK_STR_EQ(str(f, "b"), "float16");
    cJSON_Delete(j);
}

static void test_grad_modes(void) {
    int st;
    /* no_grad: the autograd key still routes every call; only the grad-mode flag and the
     * sequence numbers (recorded with grad mode on only) differ */
    cJSON *j = diff_json(path("linear.jsonl"), path("no_grad.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(count_kind(j, "only_a") + count_kind(j, "only_b"), 0);
    CHECK_INT_EQ(count_kind(j, "changed"), 13);
    const char *allowed[] = {"grad_enabled", "seq", NULL};
    CHECK(only_fields(j, allowed));
    cJSON_Delete(j);
    /* inference_mode: the calls go to CPU and ADInplaceOrView; linear's first hop differs */
    j = diff_json(path("no_grad.jsonl"), path("inference.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_STR_EQ(rec_of(j, 0, "a"), "[call] aten::linear  AutogradCPU  (math kernel)");
    bool cpu_linear = false, tls = false;
    const cJSON *d, *f;
    cJSON_ArrayForEach(d, get(j, "differences")) {
        const char *b = str(get(d, "b"), "record");
        cpu_linear |= b && strcmp(b, "[call] aten::linear  CPU  (math kernel)") == 0;
        cJSON_ArrayForEach(f, get(d, "fields")) tls |= strcmp(str(f, "field"), "tls_included") == 0 &&
                                                   strcmp(str(f, "b"), "DispatchKeySet(BackendSelect)") == 0;
    }
    CHECK(cpu_linear && tls);
    cJSON_Delete(j);
    const char *args[] = {"diff", path("no_grad.jsonl"), path("inference.jsonl"), NULL};
    result r = ctorch(args);
    CHECK(strstr(r.out, "tls_included: \"DispatchKeySet(BackendSelect, ADInplaceOrView)\" -> "
                        "\"DispatchKeySet(BackendSelect)\"  (-ADInplaceOrView)\n") != NULL);
    result_free(&r);
}

static void test_seeds(void) {
    int st;
    cJSON *j = diff_json(path("linear.jsonl"), path("seed7.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 0);
    CHECK(cJSON_IsTrue(get(j, "same")));
    CHECK_INT_EQ(num(get(j, "summary"), "same"), 13);
    CHECK_INT_EQ(num(get(get(j, "b"), "header"), "seed"), 7);
    cJSON_Delete(j);
    const char *args[] = {"diff", path("linear.jsonl"), path("seed7.jsonl"), NULL};
    result r = ctorch(args);
    CHECK_INT_EQ(r.status, 0);
    CHECK(strstr(r.out, "headers differ (not compared):  seed: 42 | 7;") != NULL);
    CHECK(strstr(r.out, "same: 13 hops in each, every one equal\n") != NULL);
    result_free(&r);
}

/* a copy of src with record `line` (1-based) passed through edit() */
static void alter(const char *src, const char *dst, int line, void (*edit)(cJSON *rec)) {
    char *text = ct_test_read_file(src, NULL);
    FILE *f = fopen(dst, "w");
    CHECK(text && f);
    if (!text || !f) return;
    int k = 0;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (++k == line) {
            cJSON *rec = ct_json_parse(p, n);
            edit(rec);
            char *s = ct_json_dumps(rec, -1);
            fprintf(f, "%s\n", s);
            ct_free(s);
            cJSON_Delete(rec);
        } else {
            fprintf(f, "%.*s\n", (int)n, p);
        }
        if (!e) break;
        p = e + 1;
    }
    fclose(f);
    free(text);
}

static void to_float64(cJSON *rec) {
    cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(rec, "args"), 0);
    cJSON_ReplaceItemInObjectCaseSensitive(a, "dtype", cJSON_CreateString("float64"));
}
static void to_mul(cJSON *rec) { cJSON_ReplaceItemInObjectCaseSensitive(rec, "op", cJSON_CreateString("aten::mul")); }
static void to_version0(cJSON *rec) { cJSON_ReplaceItemInObjectCaseSensitive(rec, "version", cJSON_CreateNumber(0)); }
static void to_version_next(cJSON *rec) {
    cJSON_ReplaceItemInObjectCaseSensitive(rec, "version", cJSON_CreateNumber(CT_TRACE_SCHEMA_VERSION + 1));
}

static void test_against_pytorch(void) {
    int st;
    /* the seed step: 43 ops, every argument equal */
    const char *step[] = {"step", "--seed", "0", "--trace", path("step0.jsonl"), NULL};
    result r = ctorch(step);
    CHECK_INT_EQ(r.status, 0);
    result_free(&r);
    const char *pt = golden("torch-2.6/seed_step_trace_seed0.jsonl");
    cJSON *j = diff_json(path("step0.jsonl"), pt, NULL, &st);
    CHECK_INT_EQ(st, 0);
    CHECK_STR_EQ(str(j, "view"), "mode");
    CHECK_INT_EQ(num(get(j, "summary"), "same"), 43);
    CHECK_INT_EQ(num(get(j, "summary"), "a_records"), 43);
    const cJSON *c;
    int ncompared = 0;
    cJSON_ArrayForEach(c, get(j, "compared")) ncompared++;
    CHECK_INT_EQ(ncompared, 3); /* args, grad_enabled, phase: what both recorders write */
    cJSON_Delete(j);

    /* altered recordings are reported where they were altered: record 20 (line 21) */
    alter(pt, path("pt_dtype.jsonl"), 21, to_float64);
    j = diff_json(path("step0.jsonl"), path("pt_dtype.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(num(get(j, "summary"), "changed"), 1);
    const cJSON *d0 = cJSON_GetArrayItem(get(j, "differences"), 0);
    CHECK_STR_EQ(str(d0, "kind"), "changed");
    CHECK_INT_EQ(num(get(d0, "b"), "index"), 20);
    CHECK_INT_EQ(num(get(d0, "b"), "line"), 21);
    CHECK_INT_EQ(num(get(d0, "a"), "index"), 20);
    CHECK_STR_EQ(str(cJSON_GetArrayItem(get(d0, "fields"), 0), "b"), "float64");
    cJSON_Delete(j);
    alter(pt, path("pt_op.jsonl"), 31, to_mul);
    j = diff_json(path("step0.jsonl"), path("pt_op.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(count_kind(j, "only_a"), 1);
    CHECK_INT_EQ(count_kind(j, "only_b"), 1);
    const cJSON *d;
    cJSON_ArrayForEach(d, get(j, "differences")) {
        if (strcmp(str(d, "kind"), "only_b") == 0) {
            CHECK_INT_EQ(num(get(d, "b"), "line"), 31);
            CHECK(strncmp(str(get(d, "b"), "record"), "aten::mul  Python", 17) == 0);
        } else {
            CHECK_INT_EQ(num(get(d, "a"), "index"), 30);
        }
    }
    cJSON_Delete(j);
    const char *args[] = {"diff", path("step0.jsonl"), path("pt_op.jsonl"), NULL};
    r = ctorch(args);
    CHECK(strstr(r.out, "first difference: A 30 (line ") != NULL);
    result_free(&r);

    /* PyTorch 1.13 differs from 2.6 (and so from ctorch): ones_like's options, record_function */
    j = diff_json(path("step0.jsonl"), golden("torch-1.13/seed_step_trace_seed0.jsonl"), NULL, &st);
    CHECK_INT_EQ(st, 1);
    CHECK_INT_EQ(count_kind(j, "changed"), 1);
    d0 = cJSON_GetArrayItem(get(j, "differences"), 0);
    CHECK_STR_EQ(str(get(d0, "a"), "record"), "[redispatch] aten::ones_like  Python  (backend fallback)");
    CHECK_INT_EQ(num(get(d0, "a"), "index"), 10);
    bool enter = false;
    cJSON_ArrayForEach(d, get(j, "differences")) {
        const char *b = str(get(d, "b"), "record");
        enter |= b && strcmp(b, "profiler::_record_function_enter  Python") == 0;
    }
    CHECK(enter);
    cJSON_Delete(j);

    /* Lab 00's calls, recorded with PyTorch 2.6 under a dispatch mode */
    static const struct {
        const char *name, *args[5];
    } v[] = {{"linear_backward", {"--backward", NULL}},
             {"addmm", {"--call", "addmm", NULL}},
             {"matmul_add", {"--call", "matmul_add", NULL}},
             {"linear_float16", {"--dtype", "float16", NULL}},
             {"linear_no_grad", {"--grad-mode", "no_grad", NULL}},
             {"linear_inference_mode", {"--grad-mode", "inference_mode", NULL}}};
    static const int ops[] = {19, 2, 3, 2, 2, 1};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char name[128], g[128];
        snprintf(name, sizeof name, "mode_%s.jsonl", v[i].name);
        snprintf(g, sizeof g, "torch-2.6/linear_trace_%s.jsonl", v[i].name);
        const char *more[8] = {"--mode"};
        int n = 1;
        for (int k = 0; v[i].args[k]; k++) more[n++] = v[i].args[k];
        more[n] = NULL;
        record(name, more);
        j = diff_json(path(name), golden(g), NULL, &st);
        CHECK_MSG(st == 0, "%s: ctorch and PyTorch differ", v[i].name);
        CHECK_INT_EQ(num(get(j, "summary"), "same"), ops[i]);
        cJSON_Delete(j);
    }
    /* a ctorch trace without a mode has no Python-key hops to compare */
    const char *nomode[] = {"diff", path("linear.jsonl"), golden("torch-2.6/linear_trace_addmm.jsonl"), NULL};
    r = ctorch(nomode);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "has no hop at the Python key") != NULL);
    result_free(&r);
    const char *hops[] = {"diff", "--view", "hops", path("linear.jsonl"), golden("torch-2.6/linear_trace_addmm.jsonl"), NULL};
    r = ctorch(hops);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "holds only what a dispatch mode saw: compare it with --view mode") != NULL);
    result_free(&r);
}

static void test_bad_files(void) {
    char want[1200];
    alter(path("linear.jsonl"), path("old.jsonl"), 1, to_version0);
    const char *a1[] = {"diff", path("old.jsonl"), path("linear.jsonl"), NULL};
    result r = ctorch(a1);
    CHECK_INT_EQ(r.status, 2);
    snprintf(want, sizeof want,
             "ctorch diff: %s: trace schema version 0 is older than version %d, the one this ctorch reads; record the "
             "trace again with this ctorch (docs/trace-format.md lists what changed)\n",
             path("old.jsonl"), CT_TRACE_SCHEMA_VERSION);
    CHECK_STR_EQ(r.err, want);
    CHECK(r.out[0] == '\0');
    result_free(&r);
    alter(path("linear.jsonl"), path("new.jsonl"), 1, to_version_next);
    const char *a2[] = {"diff", path("linear.jsonl"), path("new.jsonl"), NULL};
    r = ctorch(a2);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "is newer than version") != NULL);
    result_free(&r);
    /* not a trace; a broken line; a missing file */
    FILE *f = fopen(path("notes.txt"), "w");
    fprintf(f, "hello\n");
    fclose(f);
    const char *a3[] = {"diff", path("notes.txt"), path("linear.jsonl"), NULL};
    r = ctorch(a3);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "line 1 is not a ctorch-trace header") != NULL);
    result_free(&r);
    char *text = ct_test_read_file(path("linear.jsonl"), NULL);
    f = fopen(path("broken.jsonl"), "w");
    fprintf(f, "%s{\"type\": \"hop\", \"op\": \n", text);
    fclose(f);
    free(text);
    const char *a4[] = {"diff", path("linear.jsonl"), path("broken.jsonl"), NULL};
    r = ctorch(a4);
    CHECK_INT_EQ(r.status, 2);
    snprintf(want, sizeof want, "ctorch diff: %s:15: Invalid JSON", path("broken.jsonl"));
    CHECK_MSG(strncmp(r.err, want, strlen(want)) == 0, "got: %s", r.err);
    result_free(&r);
    const char *a5[] = {"diff", path("linear.jsonl"), path("missing.jsonl"), NULL};
    r = ctorch(a5);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "missing.jsonl: cannot read it: No such file or directory") != NULL);
    result_free(&r);
    /* usage */
    const char *u1[] = {"diff", path("linear.jsonl"), NULL};
    r = ctorch(u1);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "two trace files are needed") != NULL);
    result_free(&r);
    const char *u2[] = {"diff", "--view", "all", "a", "b", NULL};
    r = ctorch(u2);
    CHECK_INT_EQ(r.status, 2);
    CHECK(strstr(r.err, "argument --view: invalid choice: 'all'") != NULL);
    result_free(&r);
}

/* the recorder writes the schema version this ctorch reads (raise both together) */
static void test_recorder_version(void) {
    char p[600];
    snprintf(p, sizeof p, "%s/tools/trace_torch.py", CT_SOURCE_DIR);
    char *py = ct_test_read_file(p, NULL);
    char want[64];
    snprintf(want, sizeof want, "\nSCHEMA_VERSION = %d ", CT_TRACE_SCHEMA_VERSION);
    CHECK(py && strstr(py, want) != NULL);
    CHECK(py && strstr(py, "\nSCHEMA = \"" CT_TRACE_SCHEMA "\"\n") != NULL);
    free(py);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    CHECK(mkdtemp(dir) != NULL);
    const char *none[] = {NULL}, *f16[] = {"--dtype", "float16", NULL}, *ng[] = {"--grad-mode", "no_grad", NULL},
               *inf[] = {"--grad-mode", "inference_mode", NULL}, *s7[] = {"--seed", "7", NULL},
               *am[] = {"--call", "addmm", NULL};
    record("linear.jsonl", none);
    record("addmm.jsonl", am);
    record("f16.jsonl", f16);
    record("no_grad.jsonl", ng);
    record("inference.jsonl", inf);
    record("seed7.jsonl", s7);
    test_linear_vs_addmm();
    test_dtypes();
    test_grad_modes();
    test_seeds();
    test_against_pytorch();
    test_bad_files();
    test_recorder_version();
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT_EQ(system(cmd), 0);
    return ct_test_finish("test_trace_diff");
}
