/* `ctorch lab00 --out DIR` against the lab's own acceptance list
 * (../shared/seeds/lab00-dispatcher-trace.md) and PyTorch 2.6's run of it
 * (../shared/reference/torch-2.6/lab00.out):
 *   - the trace shows aten.t and aten.addmm for linear, and aten.linear in the function-mode
 *     and profiler views;
 *   - a direct addmm with a pre-transposed weight logs fewer ops than linear;
 *   - the profiler tables show forward and backward rows, with input shapes [[2, 64], [600, 64], [600]];
 *   - the interpretation says the autograd key sits above the CPU key;
 *   - manifest.json parses and has every field;
 *   - y[0,:4] equals PyTorch's within 1e-5 relative;
 *   - the report embeds linear's graph, shows the diff of linear against addmm(b, x, W.T) and
 *     links trace.json, a Chrome trace; manifest.json lists exactly the files written;
 *   - the source hash is that of the sources as they are (computed at build time);
 * plus: an unwritable --out exits with 2. tests/test_lab00_prose.c checks that the prose
 * follows a run whose registrations or key sets differ. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "util/json.h"

static int run(const char *cmdline) {
    int st = system(cmdline);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

/* the lines of the section "## <title>" in trace.log, up to the next blank line */
static int section_lines(const char *log, const char *title, char lines[][128], int max) {
    char head[256];
    snprintf(head, sizeof head, "## %s\n", title);
    const char *p = strstr(log, head);
    if (!p) return -1;
    p += strlen(head);
    int n = 0;
    while (*p && *p != '\n') {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (n < max) snprintf(lines[n], 128, "%.*s", (int)len, p);
        n++;
        p = e ? e + 1 : p + len;
    }
    return n;
}

/* the four numbers after "y[0,:4] [" */
static int y_values(const char *s, double out[4]) {
    const char *p = s ? strstr(s, "y[0,:4] [") : NULL;
    if (!p) return -1;
    p += strlen("y[0,:4] [");
    for (int i = 0; i < 4; i++) {
        char *end;
        out[i] = strtod(p, &end);
        if (end == p) return -1;
        p = end;
        while (*p == ',' || *p == ' ') p++;
    }
    return 0;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    char dir[] = "/tmp/ctorch-lab00-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char out[512], cmd[2400];
    snprintf(out, sizeof out, "%s/experiments/25-dispatcher-trace", dir); /* created by the command */
    snprintf(cmd, sizeof cmd, "'%s/bin/ctorch' lab00 --out '%s' > '%s/stdout.txt' 2>&1", CT_BINARY_DIR, out, dir);
    CHECK_INT_EQ(run(cmd), 0);

    char path[700];
    snprintf(path, sizeof path, "%s/trace.log", out);
    char *log = ct_test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/REPORT.md", out);
    char *report = ct_test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/manifest.json", out);
    char *manifest = ct_test_read_file(path, NULL);
    CHECK_MSG(log && report && manifest, "the three files are written");
    if (!log || !report || !manifest) return ct_test_finish("test_lab00");

    /* the trace shows aten.t and aten.addmm for linear */
    char lines[32][128];
    int nl = section_lines(log, "dispatch-mode log: linear(x, W, b)", lines, 32);
    CHECK_INT_EQ(nl, 2);
    CHECK_STR_EQ(lines[0], "aten.t.default");
    CHECK_STR_EQ(lines[1], "aten.addmm.default");
    CHECK(strstr(log, " [call] op=[aten::linear], key=[AutogradCPU]\n") != NULL);
    CHECK(strstr(log, "  [call] op=[aten::addmm], key=[AutogradCPU]\n   [redispatch] op=[aten::addmm], key=[CPU]\n") != NULL);
    CHECK(strstr(log, "tls included: DispatchKeySet(BackendSelect, ADInplaceOrView)") != NULL);
    /* ... and aten.linear in the function-mode and profiler views */
    CHECK(strstr(report, "sees the public calls before any decomposition:\n\n```\nlinear\n```") != NULL);
    CHECK(strstr(report, " aten::linear  ") != NULL);

    /* a direct addmm with a pre-transposed weight shows fewer ops */
    char lines2[32][128];
    int nd = section_lines(log, "dispatch-mode log: addmm(b, x, Wt), Wt = W.T made before the mode", lines2, 32);
    CHECK_INT_EQ(nd, 1);
    CHECK(nd >= 1 && nd < nl);
    CHECK_STR_EQ(lines2[0], "aten.addmm.default");
    char lines3[32][128];
    int nt = section_lines(log, "dispatch-mode log: addmm(b, x, W.T), W.T inside the mode", lines3, 32);
    CHECK_INT_EQ(nt, 2);
    CHECK_STR_EQ(lines3[0], "aten.permute.default");
    CHECK(strstr(report, "addmm(b, x, Wt), Wt = W.T made before:  ['aten.addmm.default']") != NULL);

    /* the profiler table: forward and backward rows, input shapes */
    CHECK(strstr(report, "Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls") != NULL);
    const char *fwd = strstr(report, " aten::linear  ");
    CHECK(fwd && strstr(report, "[[2, 64], [600, 64], [600]]  \n") != NULL);
    const char *bwd_row = strstr(report, "                                         AddmmBackward0  ");
    CHECK(bwd_row != NULL);
    CHECK(strstr(report, "autograd::engine::evaluate_function: AddmmBackward0  ") != NULL);
    CHECK(strstr(report, "[[600], [2, 64], [64, 600], [], []]") != NULL);
    CHECK(strstr(report, "Self CPU time total: ") != NULL);
    /* the row limit is honoured: 10 rows between the second and third separators */
    const char *t0 = strstr(report, "key_averages().table(sort_by=\"cpu_time_total\", row_limit=10)`:\n\n```\n");
    CHECK(t0 != NULL);
    if (t0) {
        int seps = 0, rows = 0;
        for (const char *p = strchr(t0, '\n') + 5; *p && seps < 3; p = strchr(p, '\n') + 1) {
            if (*p == '-') seps++;
            else if (seps == 2) rows++;
            if (!strchr(p, '\n')) break;
        }
        CHECK_INT_EQ(rows, 10);
    }

    /* the interpretation */
    const char *interp = strstr(report, "## Interpretation\n");
    CHECK(interp && strstr(interp, "`aten::addmm` was called with key `AutogradCPU` and redispatched to `CPU`: of the keys left "
                                   "to choose from, `DispatchKeySet(CPU, AutogradCPU)`, the dispatcher took `AutogradCPU` "
                                   "first because it sits above\n`CPU` in the dispatch key order") != NULL);
    CHECK(interp && strstr(interp, "decomposed into `t` + `addmm`") != NULL);
    CHECK(interp && strstr(interp, "`AddmmBackward0`") != NULL);
    const char *diff = strstr(report, "## Where the lab's expectations differ from PyTorch\n");
    CHECK(diff && strstr(diff, "No Half key") && strstr(diff, "does not see `aten.linear`") &&
          strstr(diff, "still routes the call") && strstr(diff, "adds a permute"));
    CHECK(strstr(report, "torch.Size([2, 600]) <AddmmBackward0 object at 0x") != NULL);
    CHECK(strstr(report, "torch.empty(1) made under inference_mode DispatchKeySet(CPU, AutocastCPU)") != NULL);
    CHECK(strstr(report, "torch.empty(1, dtype=torch.float16)     DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)") != NULL);

    /* y equals PyTorch's within 1e-5 relative */
    char *ref = ct_test_read_file(ct_test_shared("reference/torch-2.6/lab00.out"), NULL);
    double got[4], want[4];
    CHECK_INT_EQ(y_values(report, got), 0);
    CHECK_INT_EQ(y_values(ref, want), 0);
    for (int i = 0; i < 4; i++) CHECK_MSG(ct_test_close(got[i], want[i], 1e-5, 0.0), "y[0,%d] %.9g vs %.9g", i, got[i], want[i]);
    free(ref);

    /* manifest.json parses and has every field */
    cJSON *m = ct_json_parse(manifest, strlen(manifest));
    CHECK(m != NULL);
    const char *fields[] = {"ctorch_version", "pytorch_version_followed", "seed", "timestamp_utc", "source_hash",
                            "compiler", "compiler_flags", "blas"};
    for (size_t i = 0; m && i < sizeof fields / sizeof fields[0]; i++) {
        cJSON *v = cJSON_GetObjectItemCaseSensitive(m, fields[i]);
        CHECK_MSG(v && (cJSON_IsNumber(v) || (cJSON_IsString(v) && *cJSON_GetStringValue(v))) , "manifest field %s", fields[i]);
    }
    if (m) {
        CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "pytorch_version_followed")), "2.6.0");
        CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "seed")) == 42);
        const char *ts = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "timestamp_utc"));
        int Y, M, D, h, mi, s;
        char z = 0;
        CHECK(ts && strlen(ts) == 20 && sscanf(ts, "%4d-%2d-%2dT%2d:%2d:%2d%c", &Y, &M, &D, &h, &mi, &s, &z) == 7 && z == 'Z');
        const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "source_hash"));
        CHECK(hash && strlen(hash) == 64);
    }
    cJSON_Delete(m);

    /* the files: what manifest.json lists is exactly what the folder holds (nothing half-written) */
    snprintf(cmd, sizeof cmd, "ls -A '%s' > '%s/ls.txt'", out, dir);
    CHECK_INT_EQ(run(cmd), 0);
    snprintf(path, sizeof path, "%s/ls.txt", dir);
    char *ls = ct_test_read_file(path, NULL);
    int listed = 0, present = 0;
    for (const char *p = ls; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) present++;
    cJSON *m2 = ct_json_parse(manifest, strlen(manifest));
    const cJSON *files = m2 ? cJSON_GetObjectItemCaseSensitive(m2, "files") : NULL;
    const cJSON *it;
    cJSON_ArrayForEach(it, files) {
        char wantf[256];
        snprintf(wantf, sizeof wantf, "%s\n", cJSON_GetStringValue(it));
        bool found = false;
        for (const char *p = ls; p && (p = strstr(p, wantf)) != NULL; p++)
            if (p == ls || p[-1] == '\n') found = true;
        CHECK_MSG(found, "manifest lists %s and the folder has it", cJSON_GetStringValue(it));
        listed++;
    }
    CHECK_INT_EQ(listed, present);
    const char *expected[] = {"REPORT.md", "trace.log", "manifest.json", "linear.jsonl", "addmm.jsonl", "trace.json", "stacks.txt",
                              "linear_graph.dot"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        char wantf[64];
        snprintf(wantf, sizeof wantf, "%s\n", expected[i]);
        CHECK_MSG(ls && strstr(ls, wantf), "%s written", expected[i]);
    }
    free(ls);
    cJSON_Delete(m2);

    /* the report shows the graph (SVG when Graphviz drew it), the diff and links trace.json */
    bool have_dot = run("command -v dot > /dev/null 2>&1") == 0;
    if (have_dot) {
        CHECK(strstr(report, "![linear's backward graph](linear_graph.svg)") != NULL);
        snprintf(path, sizeof path, "%s/linear_graph.svg", out);
        char *svg = ct_test_read_file(path, NULL);
        CHECK(svg && strstr(svg, "<svg") && strstr(svg, "AddmmBackward0") && strstr(svg, "AccumulateGrad"));
        free(svg);
    } else {
        CHECK(strstr(report, "so only [linear_graph.dot](linear_graph.dot) was written") != NULL);
    }
    snprintf(path, sizeof path, "%s/linear_graph.dot", out);
    char *dot = ct_test_read_file(path, NULL);
    CHECK(dot && strstr(dot, "digraph") && strstr(dot, "AddmmBackward0") && strstr(dot, "(600, 64)"));
    free(dot);
    CHECK(strstr(report, "[trace.json](trace.json), to open in Perfetto") != NULL);
    snprintf(path, sizeof path, "%s/trace.json", out);
    char *tj = ct_test_read_file(path, NULL);
    cJSON *chrome = tj ? ct_json_parse(tj, strlen(tj)) : NULL;
    CHECK_MSG(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(chrome, "traceEvents")), "trace.json is a Chrome trace");
    CHECK(tj && strstr(tj, "\"aten::linear\"") && strstr(tj, "\"aten::mm\""));
    cJSON_Delete(chrome);
    free(tj);
    const char *diffsec = strstr(report, "## linear against addmm(b, x, W.T), hop by hop\n");
    CHECK(diffsec && strstr(diffsec, "--- linear.jsonl") && strstr(diffsec, "+++ addmm.jsonl"));
    CHECK(diffsec && strstr(diffsec, "-       1          [call] aten::linear  AutogradCPU  (math kernel)"));
    CHECK(diffsec && strstr(diffsec, "+               1  [call] aten::numpy_T  AutogradCPU  (math kernel)"));
    CHECK(diffsec && strstr(diffsec, "different: 13 hops in A, 12 in B; 8 aligned (8 equal, 0 changed)"));
    CHECK(diffsec && strstr(diffsec, "5 of linear's 13 hops have no counterpart in addmm's trace"));
    /* the backward log is one op per line, not one long line */
    const char *bl = strstr(report, "(one op per line):\n\n```\naten.t.default\naten.addmm.default\naten.sum.default\n");
    CHECK(bl != NULL);
    /* the cited Pitfalls are the lab's */
    CHECK(strstr(report, "(Pitfalls)") == NULL && strstr(report, "(the lab's Pitfalls section)") != NULL);
    /* Part E says how many runs came before the profiled one */
    CHECK(strstr(report, "Forward and backward ran 2 times before the profiled run") != NULL);

    /* the source hash is the sources' hash now, not when the build was configured */
    snprintf(cmd, sizeof cmd, "cmake -DSOURCE_DIR='%s' -DOUT='%s/hash.c' -P '%s/tools/cmake/source_hash.cmake'", CT_SOURCE_DIR,
             dir, CT_SOURCE_DIR);
    CHECK_INT_EQ(run(cmd), 0);
    snprintf(path, sizeof path, "%s/hash.c", dir);
    char *hashc = ct_test_read_file(path, NULL);
    cJSON *m3 = ct_json_parse(manifest, strlen(manifest));
    const char *mh = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m3, "source_hash"));
    CHECK_MSG(hashc && mh && strstr(hashc, mh), "manifest's source_hash %s is the sources' hash", mh ? mh : "(none)");
    free(hashc);
    cJSON_Delete(m3);

    /* a second run with another seed replaces the files; y changes */
    snprintf(cmd, sizeof cmd, "'%s/bin/ctorch' lab00 --out '%s' --seed 7 > /dev/null 2>&1", CT_BINARY_DIR, out);
    CHECK_INT_EQ(run(cmd), 0);
    snprintf(path, sizeof path, "%s/REPORT.md", out);
    char *report7 = ct_test_read_file(path, NULL);
    double got7[4];
    CHECK(report7 && y_values(report7, got7) == 0 && got7[0] != got[0]);

    /* the run's files change together or not at all: with manifest.json made unwritable (a
     * folder in its place), a run with another seed fails and leaves trace.log, REPORT.md and
     * the folder's listing as the seed-7 run left them */
    snprintf(path, sizeof path, "%s/trace.log", out);
    char *log7 = ct_test_read_file(path, NULL);
    snprintf(cmd, sizeof cmd, "rm '%s/manifest.json' && mkdir '%s/manifest.json' && ls -A '%s' > '%s/ls7.txt'", out, out,
             out, dir);
    CHECK_INT_EQ(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s/bin/ctorch' lab00 --out '%s' --seed 9 > /dev/null 2> '%s/err9.txt'", CT_BINARY_DIR, out, dir);
    CHECK_INT_EQ(run(cmd), 2);
    snprintf(path, sizeof path, "%s/REPORT.md", out);
    char *report9 = ct_test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/trace.log", out);
    char *log9 = ct_test_read_file(path, NULL);
    CHECK_MSG(report7 && report9 && strcmp(report7, report9) == 0, "REPORT.md changed although manifest.json could not be written");
    CHECK_MSG(log7 && log9 && strcmp(log7, log9) == 0, "trace.log changed although manifest.json could not be written");
    snprintf(path, sizeof path, "%s/err9.txt", dir);
    char *err9 = ct_test_read_file(path, NULL);
    CHECK_MSG(err9 && strstr(err9, "manifest.json") && strstr(err9, "Is a directory"), "error text: %s", err9 ? err9 : "(none)");
    snprintf(cmd, sizeof cmd, "ls -A '%s' | cmp -s - '%s/ls7.txt'", out, dir);
    CHECK_MSG(run(cmd) == 0, "no temporary file or folder is left after the failed run");
    free(err9);
    free(log7);
    free(log9);
    free(report9);
    free(report7);

    /* an unwritable --out: a clear error and exit code 2 */
    snprintf(path, sizeof path, "%s/stdout.txt/sub", dir); /* below a regular file */
    snprintf(cmd, sizeof cmd, "'%s/bin/ctorch' lab00 --out '%s' > '%s/err.txt' 2>&1", CT_BINARY_DIR, path, dir);
    CHECK_INT_EQ(run(cmd), 2);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *err = ct_test_read_file(path, NULL);
    CHECK_MSG(err && strstr(err, "ctorch lab00: cannot create the output folder") && strstr(err, "Not a directory"),
              "error text: %s", err ? err : "(none)");
    free(err);
    snprintf(cmd, sizeof cmd, "'%s/bin/ctorch' lab00 --seed x > /dev/null 2>&1", CT_BINARY_DIR);
    CHECK_INT_EQ(run(cmd), 2);

    free(log);
    free(report);
    free(manifest);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT_EQ(run(cmd), 0);
    return ct_test_finish("test_lab00");
}
