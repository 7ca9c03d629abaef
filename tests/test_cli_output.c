/*
 * What the ctorch program's commands write where, and the arguments they refuse:
 *
 *   - results on stdout, progress and notes on stderr: `ctorch gpt --out DIR` prints only the
 *     program's JSON (valid JSON, equal to DIR/summary.json), `ctorch gpt`, `ctorch step` (also
 *     with --trace and --json-out) print only JSON, `ctorch lab00` and `ctorch trace --out`
 *     print nothing on stdout, keys/dump/ops nothing on stderr;
 *   - a path too long for the names built from it (`lab00 --out`, `--reference`, `gpt --out`)
 *     is refused in one line on stderr with exit status 2 before anything is written, and a
 *     long path that fits is used whole (the manifest's command is not cut short);
 *   - `ctorch dump NAME` for a name without that overload lists the operators of that name;
 *     `ctorch diff A DIR` says DIR is a directory;
 *   - every count option refuses zero or a negative value where it cannot use one, and every
 *     number option a non-number, an overflow and a missing value, with exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "util/json.h"

static char work_dir[512];

static ct_test_run run_ctorch(const char *const *args) {
    char exe[600];
    snprintf(exe, sizeof exe, "%s/bin/ctorch", CT_BINARY_DIR);
    return ct_test_run_program(exe, "ctorch", args, work_dir);
}

static void describe(char *buf, size_t n, const char *const *args) {
    size_t o = (size_t)snprintf(buf, n, "ctorch");
    for (int i = 0; args[i] && o < n; i++) o += (size_t)snprintf(buf + o, n - o, " [%.60s]", args[i]);
}

/* stdout is one JSON document (with its newline) */
static cJSON *json_out(const ct_test_run *r, const char *what) {
    cJSON *j = ct_json_parse(r->out, strlen(r->out));
    CHECK_MSG(j != NULL, "%s: stdout is not JSON (%s):\n%.400s", what, ct_error_message(), r->out);
    ct_error_clear();
    return j;
}

/* ---- results on stdout, notes on stderr -------------------------------------------------------- */

static void test_streams(void) {
    char dir[700], path[800], json_path[800], trace_path[800];
    snprintf(dir, sizeof dir, "%s/gpt", work_dir);
    const char *gpt_out[] = {"gpt", "--steps", "2", "--out", dir, NULL};
    ct_test_run r = run_ctorch(gpt_out);
    CHECK_MSG(r.status == 0, "gpt --out: exit %d: %s", r.status, r.err);
    cJSON *j = json_out(&r, "gpt --out");
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *summary = ct_test_read_file(path, NULL);
    CHECK_MSG(summary && strlen(r.out) == strlen(summary) + 1 && strncmp(r.out, summary, strlen(summary)) == 0,
              "gpt --out: stdout is not summary.json");
    CHECK_MSG(strstr(r.err, "gpt: wrote ") != NULL, "gpt --out: no note on stderr: [%s]", r.err);
    free(summary);
    cJSON_Delete(j);
    ct_test_run_free(&r);

    snprintf(json_path, sizeof json_path, "%s/gpt.json", work_dir);
    const char *gpt[] = {"gpt", "--steps", "1", "--json-out", json_path, NULL};
    r = run_ctorch(gpt);
    CHECK_MSG(r.status == 0 && r.err[0] == '\0', "gpt: exit %d, stderr [%s]", r.status, r.err);
    cJSON_Delete(json_out(&r, "gpt --json-out"));
    ct_test_run_free(&r);

    snprintf(trace_path, sizeof trace_path, "%s/step.jsonl", work_dir);
    const char *step[] = {"step", "--seed", "1", "--trace", trace_path, "--json-out", json_path, NULL};
    r = run_ctorch(step);
    CHECK_MSG(r.status == 0 && r.err[0] == '\0', "step: exit %d, stderr [%s]", r.status, r.err);
    cJSON_Delete(json_out(&r, "step --trace --json-out"));
    ct_test_run_free(&r);

    /* a --seed text longer than a fixed buffer (int() takes any number of leading zeros) is
     * recorded whole in the trace file's header */
    char long_seed[120], want[200];
    memset(long_seed, '0', 100);
    snprintf(long_seed + 100, sizeof long_seed - 100, "7");
    const char *step_long[] = {"step", "--seed", long_seed, "--trace", trace_path, NULL};
    r = run_ctorch(step_long);
    CHECK_MSG(r.status == 0, "step --seed 0...07: exit %d: %s", r.status, r.err);
    ct_test_run_free(&r);
    char *header = ct_test_read_file(trace_path, NULL);
    snprintf(want, sizeof want, "\"program\": \"ctorch step --seed %s --trace (traced_step)\"", long_seed);
    CHECK_MSG(header && strstr(header, want), "the trace file's header does not hold the whole --seed text");
    free(header);

    snprintf(dir, sizeof dir, "%s/lab", work_dir);
    const char *lab[] = {"lab00", "--out", dir, NULL};
    r = run_ctorch(lab);
    CHECK_MSG(r.status == 0, "lab00: exit %d: %s", r.status, r.err);
    CHECK_MSG(r.out[0] == '\0', "lab00: printed on stdout:\n%.400s", r.out);
    CHECK_MSG(strstr(r.err, "lab00: part A ") && strstr(r.err, "lab00: wrote "), "lab00: no progress on stderr: [%.400s]", r.err);
    ct_test_run_free(&r);

    const char *trace[] = {"trace", "--out", trace_path, NULL};
    r = run_ctorch(trace);
    CHECK_MSG(r.status == 0 && r.out[0] == '\0' && r.err[0] == '\0', "trace --out: exit %d, stdout [%.200s], stderr [%s]", r.status,
              r.out, r.err);
    ct_test_run_free(&r);

    const char *const *plain[] = {(const char *[]){"keys", NULL}, (const char *[]){"dump", "aten::addmm", NULL},
                                  (const char *[]){"ops", NULL}, (const char *[]){"trace", NULL},
                                  (const char *[]){"diff", trace_path, trace_path, NULL}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        char what[700];
        describe(what, sizeof what, plain[i]);
        r = run_ctorch(plain[i]);
        CHECK_MSG(r.status == 0 && r.out[0] != '\0' && r.err[0] == '\0', "%s: exit %d, stderr [%s]", what, r.status, r.err);
        ct_test_run_free(&r);
    }
    printf("streams: gpt (--out, --json-out), step, lab00, trace and 5 plain commands\n");
}

/* ---- long paths ------------------------------------------------------------------------------ */

/* work_dir/long/ddd.../ddd... of exactly len bytes (components of at most 200) */
static void long_path(char *buf, size_t size, size_t len) {
    size_t o = (size_t)snprintf(buf, size, "%s/long", work_dir);
    while (o < len && o + 1 < size) {
        buf[o++] = '/';
        for (int k = 0; k < 200 && o < len && o + 1 < size; k++) buf[o++] = 'd';
        if (buf[o - 1] == '/') buf[o - 1] = 'e'; /* no empty component at the end */
    }
    buf[o] = '\0';
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static void expect_path_refused(const char *const *args, const char *cmd, const char *what_dir, const char *created) {
    char what[700], want[300];
    describe(what, sizeof what, args);
    ct_test_run r = run_ctorch(args);
    snprintf(want, sizeof want, "ctorch %s: %s is too long: ", cmd, what_dir);
    CHECK_MSG(r.status == 2, "%s: exit %d, want 2 (stderr %.300s)", what, r.status, r.err);
    CHECK_MSG(strncmp(r.err, want, strlen(want)) == 0 && strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
              "%s: stderr is not one line starting [%s]: [%.600s]", what, want, r.err);
    CHECK_MSG(r.out[0] == '\0', "%s: stdout [%.200s]", what, r.out);
    CHECK_MSG(!exists(created), "%s: created %s", what, created);
    ct_test_run_free(&r);
}

static void test_long_paths(void) {
    static char path[8192], ref[8192];
    int refused = 0;
    /* 4070 bytes: a folder the system takes, but its staging folder's files would pass 4095 */
    long_path(path, sizeof path, 4070);
    const char *lab[] = {"lab00", "--out", path, NULL}, *gpt[] = {"gpt", "--steps", "1", "--out", path, NULL};
    expect_path_refused(lab, "lab00", "the output folder's name", path);
    expect_path_refused(gpt, "gpt", "the output folder's name", path);
    refused += 2;
    long_path(ref, sizeof ref, 4085);
    char unused[700];
    snprintf(unused, sizeof unused, "%s/unused", work_dir);
    const char *lab_ref[] = {"lab00", "--out", unused, "--reference", ref, NULL};
    expect_path_refused(lab_ref, "lab00", "the reference folder's name", unused);
    refused++;
    /* 1500 bytes: written whole, the command in the manifest too */
    long_path(path, sizeof path, 1500);
    const char *fits[] = {"lab00", "--out", path, NULL};
    ct_test_run r = run_ctorch(fits);
    CHECK_MSG(r.status == 0, "lab00 --out (1500 bytes): exit %d: %.400s", r.status, r.err);
    ct_test_run_free(&r);
    char file[8300], want[8300];
    snprintf(file, sizeof file, "%s/manifest.json", path);
    char *manifest = ct_test_read_file(file, NULL);
    snprintf(want, sizeof want, "\"command\": \"ctorch lab00 --out %s --seed 42\"", path);
    CHECK_MSG(manifest && strstr(manifest, want), "manifest.json does not record the whole --out");
    free(manifest);
    printf("long paths: %d refused before anything was written, 1 of 1500 bytes used whole\n", refused);
}

/* ---- dump and diff name what is wrong -------------------------------------------------------- */

static void test_names(void) {
    /* the operators called aten::add, from the registry */
    ct_op_find("aten::add.Tensor");
    char list[2048] = "";
    size_t o = 0;
    int n = 0;
    for (int i = 0; i < ct_op_count(); i++)
        if (strcmp(ct_op_base_name(ct_op_at(i)), "aten::add") == 0)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", n++ ? ", " : "", ct_op_name(ct_op_at(i)));
    CHECK_MSG(n >= 2 && strstr(list, "aten::add.Tensor") && strstr(list, "aten::add.Scalar"), "the registry's add: [%s]", list);
    static const struct {
        const char *name, *missing; /* what the error quotes */
    } cases[] = {{"aten::add", "aten::add"}, {"aten::add.Bogus", "aten::add.Bogus"}, {"add", "add"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[] = {"dump", cases[i].name, NULL};
        char want[2300];
        snprintf(want, sizeof want, "ctorch dump: Could not find schema for %s. The operators of that name are: %s\n", cases[i].missing,
                 list);
        ct_test_run r = run_ctorch(args);
        CHECK_MSG(r.status == 1 && r.out[0] == '\0', "dump %s: exit %d", cases[i].name, r.status);
        CHECK_MSG(strcmp(r.err, want) == 0, "dump %s:\n   got: [%s]\n  want: [%s]", cases[i].name, r.err, want);
        ct_test_run_free(&r);
    }
    const char *none[] = {"dump", "aten::no_such_op", NULL};
    ct_test_run r = run_ctorch(none);
    CHECK_STR_EQ(r.err, "ctorch dump: Could not find schema for aten::no_such_op. No operator has that name ('ctorch ops' lists them all).\n");
    ct_test_run_free(&r);

    char trace_path[800];
    snprintf(trace_path, sizeof trace_path, "%s/step.jsonl", work_dir);
    const char *d1[] = {"diff", trace_path, work_dir, NULL}, *d2[] = {"diff", work_dir, trace_path, NULL};
    for (int k = 0; k < 2; k++) {
        char want[700];
        snprintf(want, sizeof want, "ctorch diff: %s: is a directory, not a trace file\n", work_dir);
        r = run_ctorch(k ? d2 : d1);
        CHECK_MSG(r.status == 2 && strcmp(r.err, want) == 0, "diff with a directory: exit %d, stderr [%s]", r.status, r.err);
        ct_test_run_free(&r);
    }
    printf("names: 4 dumps of missing operators, 2 diffs of a directory\n");
}

/* ---- option values ----------------------------------------------------------------------------- */

static void expect_usage(const char *const *args, const char *cmd, const char *msg) {
    char what[700], want[1000];
    describe(what, sizeof what, args);
    snprintf(want, sizeof want, "ctorch %s: %s\nTry 'ctorch %s --help' for more information.\n", cmd, msg, cmd);
    ct_test_run r = run_ctorch(args);
    CHECK_MSG(r.status == 2 && r.out[0] == '\0', "%s: exit %d, stdout [%.100s]", what, r.status, r.out);
    CHECK_MSG(strcmp(r.err, want) == 0, "%s:\n   got: [%s]\n  want: [%s]", what, r.err, want);
    ct_test_run_free(&r);
}

static void test_option_values(void) {
    static const struct {
        const char *opt, *least, *what;
    } ints[] = {{"n-layer", "0", "a number of blocks"}, {"n-head", "1", "a number of heads"}, {"d-model", "1", "a width"},
                {"vocab", "1", "a vocabulary size"},   {"block", "1", "a context length"},   {"batch", "1", "a batch size"},
                {"steps", "1", "a number of steps"},   {"generate", "0", "a number of tokens"}};
    int runs = 0;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        char opt[64], msg[256];
        snprintf(opt, sizeof opt, "--%s", ints[i].opt);
        const char *bad[] = {"-1", "0", "x", "", "1.5", "99999999999999999999", NULL};
        for (int k = 0; bad[k]; k++) {
            long v = strtol(bad[k], NULL, 10);
            bool is_int = *bad[k] && strspn(bad[k], "-0123456789") == strlen(bad[k]) && strlen(bad[k]) < 19;
            if (is_int && v >= strtol(ints[i].least, NULL, 10)) continue; /* a value it can use */
            if (is_int)
                snprintf(msg, sizeof msg, "argument --%s: invalid value: '%s' (%s, %s or more)", ints[i].opt, bad[k], ints[i].what,
                         ints[i].least);
            else snprintf(msg, sizeof msg, "argument --%s: invalid int value: '%s'", ints[i].opt, bad[k]);
            const char *args[] = {"gpt", opt, bad[k], NULL};
            expect_usage(args, "gpt", msg);
            runs++;
        }
        snprintf(msg, sizeof msg, "option '--%s' needs a value", ints[i].opt);
        const char *missing[] = {"gpt", opt, NULL};
        expect_usage(missing, "gpt", msg);
        runs++;
    }
    const char *clip_bad[] = {"-1", "nan", "inf", "-inf", NULL};
    for (int k = 0; clip_bad[k]; k++) {
        char msg[256];
        snprintf(msg, sizeof msg, "argument --clip: invalid value: '%s' (a finite number, 0 or more)", clip_bad[k]);
        const char *args[] = {"gpt", "--clip", clip_bad[k], NULL};
        expect_usage(args, "gpt", msg);
        runs++;
    }
    const char *floats[] = {"dropout", "lr", "clip", NULL};
    for (int k = 0; floats[k]; k++) {
        char opt[64], msg[256];
        snprintf(opt, sizeof opt, "--%s", floats[k]);
        snprintf(msg, sizeof msg, "argument --%s: invalid float value: 'x'", floats[k]);
        const char *args[] = {"gpt", opt, "x", NULL}, *over[] = {"gpt", opt, "1e999", NULL};
        expect_usage(args, "gpt", msg);
        snprintf(msg, sizeof msg, "argument --%s: invalid float value: '1e999'", floats[k]);
        expect_usage(over, "gpt", msg);
        runs += 2;
    }
    const char *out_empty[] = {"gpt", "--out", "", NULL};
    expect_usage(out_empty, "gpt", "argument --out: a folder is needed, not ''");
    const char *ctx[] = {"diff", "--context", "-1", "a", "b", NULL}, *ctx2[] = {"diff", "--context", "x", "a", "b", NULL};
    expect_usage(ctx, "diff", "argument --context: invalid value: '-1' (a number of records, 0 or more)");
    expect_usage(ctx2, "diff", "argument --context: invalid value: 'x' (a number of records, 0 or more)");
    runs += 3;
    printf("option values: %d refused with exit 2\n", runs);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    snprintf(work_dir, sizeof work_dir, "%s/test_cli_output.d", CT_BINARY_DIR);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
    mkdir(work_dir, 0777);
    test_streams();
    test_long_paths();
    test_names();
    test_option_values();
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
    return ct_test_finish("test_cli_output");
}
