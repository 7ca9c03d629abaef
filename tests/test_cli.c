/*
 * The ctorch program's command line, and the --seed values it shares with the example programs.
 *
 *   - `ctorch --help` lists the commands; for each one `ctorch NAME --help`, `-h` and
 *     `ctorch help NAME` exit 0 and print its usage line (also with --help after other
 *     arguments); `ctorch --version` names ctorch's version and the PyTorch it follows;
 *   - unknown options, missing or surplus values, extra arguments and bad --seed values exit 2
 *     with the exact message on stderr and nothing on stdout, for every command;
 *   - --seed against PyTorch 2.6 (tests/golden/torch-2.6/seed_range.json, recorded by
 *     tests/golden/record/seed_range.py): argparse's verdict on 36 texts and manual_seed's on
 *     the ints, initial_seed() and the first draws for 15 seeds at and inside the edges of
 *     [-2^63, 2^64 - 1], and `ctorch lab00 --seed S` end to end (y[0,:4] in REPORT.md, the
 *     seed in the manifest and the trace) for S = 0, 2^64 - 1, -1 and -2^63;
 *   - the example programs read SEED the same way and refuse what they cannot use.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build_info.h"
#include "ctorch/ctorch.h"
#include "harness.h"
#include "seed_arg.h"
#include "step_tracer.h"
#include "util/json.h"

static char work_dir[512];

/* ---- running the program -------------------------------------------------------------------- */

typedef ct_test_run run_result;

static void run_free(run_result *r) { ct_test_run_free(r); }

/* Runs build/bin/PROG with args (NULL-terminated, without argv[0]). */
static run_result run_program(const char *prog, const char *const *args) {
    char exe[600];
    snprintf(exe, sizeof exe, "%s/bin/%s", CT_BINARY_DIR, prog);
    return ct_test_run_program(exe, prog, args, work_dir);
}

static run_result run_ctorch(const char *const *args) { return run_program("ctorch", args); }

static void describe(char *buf, size_t n, const char *const *args) {
    size_t o = (size_t)snprintf(buf, n, "ctorch");
    for (int i = 0; args[i] && o < n; i++) o += (size_t)snprintf(buf + o, n - o, " [%s]", args[i]);
}

/* Runs the program and checks a usage error: exit 2, nothing on stdout, and stderr exactly
 * "ctorch[ CMD]: MSG\nTry 'ctorch[ CMD] --help' for more information.\n" (cmd NULL: the
 * program's own). */
static void expect_usage_error(const char *const *args, const char *cmd, const char *msg) {
    char what[600], want[1200];
    describe(what, sizeof what, args);
    snprintf(want, sizeof want, "ctorch%s%s: %s\nTry 'ctorch%s%s --help' for more information.\n", cmd ? " " : "",
             cmd ? cmd : "", msg, cmd ? " " : "", cmd ? cmd : "");
    run_result r = run_ctorch(args);
    CHECK_MSG(r.status == 2, "%s: exit status %d, want 2", what, r.status);
    CHECK_MSG(r.out[0] == '\0', "%s: printed on stdout:\n%s", what, r.out);
    CHECK_MSG(strcmp(r.err, want) == 0, "%s: stderr\n   got: [%s]\n  want: [%s]", what, r.err, want);
    run_free(&r);
}

/* ---- help and version ------------------------------------------------------------------------ */

#define MAX_COMMANDS 32

/* The command names `ctorch --help` lists: the first word of each line indented by two spaces
 * between "commands:" and the next blank line. */
static int listed_commands(const char *help, char names[][32]) {
    const char *p = strstr(help, "\ncommands:\n");
    int n = 0;
    if (!p) return 0;
    for (p += strlen("\ncommands:\n"); *p && *p != '\n'; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        if (p[0] != ' ' || p[1] != ' ' || p[2] == ' ') continue; /* a continuation line */
        size_t len = strcspn(p + 2, " \n");
        if (n < MAX_COMMANDS && len < 32) snprintf(names[n++], 32, "%.*s", (int)len, p + 2);
    }
    return n;
}

static void expect_help(const char *const *args, const char *cmd) {
    char what[600], head[128];
    describe(what, sizeof what, args);
    snprintf(head, sizeof head, "usage: ctorch %s", cmd);
    run_result r = run_ctorch(args);
    CHECK_MSG(r.status == 0, "%s: exit status %d, want 0 (stderr: %s)", what, r.status, r.err);
    CHECK_MSG(strncmp(r.out, head, strlen(head)) == 0 && (r.out[strlen(head)] == ' ' || r.out[strlen(head)] == '\n'),
              "%s: stdout does not start with [%s]:\n%s", what, head, r.out);
    CHECK_MSG(strstr(r.out, "\noptions:\n") && strstr(r.out, "  -h, --help "), "%s: no options list:\n%s", what, r.out);
    CHECK_MSG(r.err[0] == '\0', "%s: stderr: %s", what, r.err);
    run_free(&r);
}

static void test_help_and_version(const cJSON *golden) {
    static const char *const required[] = {"keys", "dump", "ops", "trace", "diff", "lab00", "step", "gpt", "help"};
    char names[MAX_COMMANDS][32];
    const char *help_args[] = {"--help", NULL}, *h_args[] = {"-h", NULL}, *help_cmd[] = {"help", NULL};
    run_result r = run_ctorch(help_args);
    CHECK_INT_EQ(r.status, 0);
    CHECK_MSG(strncmp(r.out, "usage: ctorch ", 14) == 0, "ctorch --help:\n%s", r.out);
    int n = listed_commands(r.out, names);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        int found = 0;
        for (int k = 0; k < n; k++) found |= strcmp(names[k], required[i]) == 0;
        CHECK_MSG(found, "ctorch --help does not list '%s'", required[i]);
    }
    /* -h and `ctorch help` print the same text */
    run_result r2 = run_ctorch(h_args), r3 = run_ctorch(help_cmd);
    CHECK_STR_EQ(r2.out, r.out);
    CHECK_STR_EQ(r3.out, r.out);
    CHECK(r2.status == 0 && r3.status == 0);
    run_free(&r2);
    run_free(&r3);
    /* with no command at all: the same list on stderr, exit 2 */
    const char *none[] = {NULL};
    r2 = run_ctorch(none);
    CHECK_INT_EQ(r2.status, 2);
    CHECK_STR_EQ(r2.err, r.out);
    CHECK(r2.out[0] == '\0');
    run_free(&r2);
    run_free(&r);

    int helps = 0;
    for (int k = 0; k < n; k++) {
        const char *a1[] = {names[k], "--help", NULL}, *a2[] = {names[k], "-h", NULL}, *a3[] = {"help", names[k], NULL};
        expect_help(a1, names[k]);
        expect_help(a2, names[k]);
        expect_help(a3, names[k]);
        helps += 3;
    }
    /* --help wins wherever it stands (it used to be taken for an operator's name) */
    const char *d1[] = {"dump", "aten::addmm", "--help", NULL}, *d2[] = {"dump", "--help", "aten::addmm", NULL};
    const char *d3[] = {"step", "--seed", "3", "--help", NULL}, *d4[] = {"dump", "--help", NULL};
    expect_help(d1, "dump");
    expect_help(d2, "dump");
    expect_help(d3, "step");
    run_result d = run_ctorch(d4);
    CHECK_MSG(!strstr(d.out, "computed dispatch table"), "ctorch dump --help dumped an operator:\n%s", d.out);
    run_free(&d);
    helps += 3;

    /* --version: ctorch's version and the PyTorch it follows, which is the release the goldens
     * were recorded with, then the run's CPU capability and BLAS */
    const char *v[] = {"--version", NULL}, *vs[] = {"-V", NULL};
    char want[512];
    const char *core = ct_backends_blas_core();
    snprintf(want, sizeof want, "ctorch %s\nfollows PyTorch %s\nCPU capability: %s\nBLAS: %s%s%s%s\n", CTORCH_VERSION_STRING,
             CTORCH_PYTORCH_VERSION, ct_backends_cpu_capability(), ct_build_config()->blas, core ? " (core " : "", core ? core : "",
             core ? ")" : "");
    r = run_ctorch(v);
    r2 = run_ctorch(vs);
    CHECK_INT_EQ(r.status, 0);
    CHECK_STR_EQ(r.out, want);
    CHECK_STR_EQ(r2.out, want);
    CHECK(r.err[0] == '\0');
    const char *torch = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(golden, "torch"));
    CHECK_MSG(torch && strncmp(torch, CTORCH_PYTORCH_VERSION, strlen(CTORCH_PYTORCH_VERSION)) == 0,
              "follows PyTorch %s, the goldens were recorded with %s", CTORCH_PYTORCH_VERSION, torch ? torch : "?");
    run_free(&r);
    run_free(&r2);
    printf("help: %d commands listed, %d help runs\n", n, helps);
}

/* ---- usage errors ------------------------------------------------------------------------------ */

static void test_usage_errors(const cJSON *golden) {
    int runs = 0;
    /* the program's own options and commands */
    const char *a[][4] = {{"--bogus", NULL}, {"-x", NULL}, {"bogus", NULL}, {"--version=1", NULL}, {"--seed", "1", "step", NULL}};
    const char *msg[] = {"unrecognized option '--bogus'", "unrecognized option '-x'", "unknown command 'bogus'",
                         "option '--version' takes no value", "unrecognized option '--seed'"};
    for (int i = 0; i < 5; i++, runs++) expect_usage_error(a[i], NULL, msg[i]);

    /* every command: an unknown long and short option, --help with a value, an extra argument */
    static const struct {
        const char *name, *args_ok[3]; /* arguments that make a valid call, before the extra one */
    } cmds[] = {{"keys", {NULL}},  {"dump", {"aten::add.Tensor", NULL}}, {"ops", {NULL}}, {"trace", {NULL}},
                {"diff", {"a.jsonl", "b.jsonl", NULL}}, {"lab00", {NULL}}, {"step", {"--seed", "1", NULL}},
                {"help", {"step", NULL}}, {"gpt", {"--tied", NULL}}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *n = cmds[i].name;
        const char *u1[] = {n, "--bogus", NULL}, *u2[] = {n, "-q", NULL}, *u3[] = {n, "--help=yes", NULL};
        expect_usage_error(u1, n, "unrecognized option '--bogus'");
        expect_usage_error(u2, n, "unrecognized option '-q'");
        expect_usage_error(u3, n, "option '--help' takes no value");
        const char *extra[8] = {n};
        int k = 1;
        for (int j = 0; cmds[i].args_ok[j]; j++) extra[k++] = cmds[i].args_ok[j];
        extra[k++] = "surplus";
        extra[k] = NULL;
        expect_usage_error(extra, n, "unexpected argument 'surplus'");
        runs += 4;
    }
    /* options that need a value, and commands that need an argument */
    const char *m1[] = {"step", "--seed", NULL}, *m2[] = {"step", "--json-out", NULL}, *m3[] = {"lab00", "--out", NULL};
    const char *m4[] = {"dump", NULL}, *m5[] = {"help", "bogus", NULL}, *m6[] = {"lab00", "--seed", NULL};
    expect_usage_error(m1, "step", "option '--seed' needs a value");
    expect_usage_error(m2, "step", "option '--json-out' needs a value");
    expect_usage_error(m3, "lab00", "option '--out' needs a value");
    expect_usage_error(m6, "lab00", "option '--seed' needs a value");
    expect_usage_error(m4, "dump", "which operator? (e.g. ctorch dump aten::addmm)");
    expect_usage_error(m5, "help", "unknown command 'bogus'");
    runs += 6;
    /* python: only its options come before the code (the rest is the code's; tests/python/cli_python.py
     * runs each way of naming the code) */
    const char *p1[] = {"python", "-c", NULL}, *p2[] = {"python", "--bogus", "x.py", NULL}, *p3[] = {"python", "-q", NULL};
    expect_usage_error(p1, "python", "argument expected for the -c option");
    expect_usage_error(p2, "python", "unrecognized option '--bogus'");
    expect_usage_error(p3, "python", "unrecognized option '-q'");
    runs += 3;

    /* every text argparse refuses, and every int manual_seed refuses, for both commands */
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(golden, "parse")) {
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "text"));
        const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "error"));
        const char *seed_err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "seed_error"));
        if (!text || (!err && !seed_err)) continue;
        char want[512];
        if (err) snprintf(want, sizeof want, "%s", err); /* "argument --seed: invalid int value: '...'" */
        else
            snprintf(want, sizeof want,
                     "argument --seed: %s; torch.manual_seed takes an int from -9223372036854775808 to 18446744073709551615",
                     seed_err);
        const char *s1[] = {"step", "--seed", text, NULL}, *s2[] = {"lab00", "--seed", text, NULL};
        expect_usage_error(s1, "step", want);
        expect_usage_error(s2, "lab00", want);
        runs += 2;
    }
    /* the step also seeds a generator with seed + 1, which PyTorch refuses for 2^64 - 1 */
    const cJSON *so = cJSON_GetObjectItemCaseSensitive(golden, "step_batch_overflow");
    const char *so_msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(so, "message"));
    char want[512];
    snprintf(want, sizeof want,
             "argument --seed: %s (from make_batch(seed + 1) with seed 18446744073709551615); torch.manual_seed takes "
             "an int from -9223372036854775808 to 18446744073709551615",
             so_msg ? so_msg : "?");
    const char *sm[] = {"step", "--seed=18446744073709551615", NULL};
    expect_usage_error(sm, "step", want);
    runs++;
    printf("usage errors: %d runs, each exit 2 with its message\n", runs);
}

/* ---- --seed against PyTorch ------------------------------------------------------------------- */

static uint64_t u64(const cJSON *j) {
    const char *s = cJSON_GetStringValue(j);
    return s ? strtoull(s, NULL, 10) : 0;
}

static void test_seed_parse(const cJSON *golden) {
    int cases = 0, accepted = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(golden, "parse")) {
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "text"));
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(c, "value");
        const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "error"));
        const char *seed_err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "seed_error"));
        const cJSON *initial = cJSON_GetObjectItemCaseSensitive(c, "initial_seed");
        if (!text) continue;
        cases++;
        ct_example_seed s = {12345, true};
        int rc = ct_example_seed_parse(text, &s);
        if (err) {
            char got[600];
            snprintf(got, sizeof got, "argument --seed: %s", ct_error_message());
            CHECK_MSG(rc == -1 && ct_error_code() == CT_ERR_VALUE && strcmp(got, err) == 0,
                      "[%s]: want ValueError [%s], got rc %d %s [%s]", text, err, rc,
                      ct_error_kind_name(ct_error_code()), got);
        } else if (seed_err) {
            CHECK_MSG(rc == -1 && ct_error_code() == CT_ERR_RUNTIME && strcmp(ct_error_message(), seed_err) == 0,
                      "[%s]: want RuntimeError [%s], got rc %d [%s]", text, seed_err, rc, ct_error_message());
        } else {
            char back[CT_EXAMPLE_SEED_TEXT_MAX];
            CHECK_MSG(rc == 0, "[%s] refused: %s", text, ct_error_message());
            CHECK_MSG(s.value == u64(initial), "[%s]: seeds the generator with %llu, PyTorch with %s", text,
                      (unsigned long long)s.value, cJSON_GetStringValue(initial));
            /* the int itself, as Python prints it */
            CHECK_STR_EQ(ct_example_seed_format(s, back), cJSON_GetStringValue(value));
            accepted++;
        }
        ct_error_clear();
    }
    CHECK_INT_EQ(cases, 36);
    CHECK(ct_example_seed_parse(NULL, NULL) == -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_example_seed_parse: text is NULL");

    /* seed + 1 (the step's batch seed) across the edges */
    static const struct {
        const char *seed, *sum; /* sum NULL: overflow */
    } adds[] = {{"0", "1"},
                {"-1", "0"},
                {"-2", "-1"},
                {"18446744073709551614", "18446744073709551615"},
                {"18446744073709551615", NULL},
                {"-9223372036854775808", "-9223372036854775807"},
                {"9223372036854775807", "9223372036854775808"}};
    for (size_t i = 0; i < sizeof adds / sizeof adds[0]; i++) {
        ct_example_seed a, b, want;
        char got[CT_EXAMPLE_SEED_TEXT_MAX];
        CHECK(ct_example_seed_parse(adds[i].seed, &a) == 0);
        int rc = ct_example_seed_add(a, 1, &b);
        if (!adds[i].sum) {
            CHECK_INT_EQ(rc, -1);
            CHECK_ERROR(CT_ERR_RUNTIME, "Overflow when unpacking long");
            continue;
        }
        CHECK(rc == 0 && ct_example_seed_parse(adds[i].sum, &want) == 0);
        CHECK_MSG(b.value == want.value && b.negative == want.negative, "%s + 1: got %s", adds[i].seed,
                  ct_example_seed_format(b, got));
    }
    uint64_t step_seed = 7;
    CHECK(ct_example_step_seed("-1", &step_seed) == 0 && step_seed == UINT64_MAX);
    CHECK(ct_example_step_seed("18446744073709551614", &step_seed) == 0 && step_seed == UINT64_MAX - 1);
    CHECK(ct_example_step_seed("18446744073709551615", &step_seed) == -1);
    ct_error_clear();
    printf("--seed texts: %d against argparse and manual_seed, %d accepted\n", cases, accepted);
}

/* Compares the bits of n values of t (float32 or int64) with the decimal strings in want. */
static int same_bits(ct_tensor *t, const cJSON *want, int64_t n) {
    if (!t || cJSON_GetArraySize(want) != n) return 0;
    const void *data = ct_tensor_data_ptr(t);
    for (int64_t i = 0; i < n; i++) {
        uint64_t w = u64(cJSON_GetArrayItem(want, (int)i)), got;
        if (ct_tensor_dtype(t) == CT_FLOAT32) {
            uint32_t u;
            memcpy(&u, (const char *)data + 4 * i, 4);
            got = u;
        } else {
            int64_t v;
            memcpy(&v, (const char *)data + 8 * i, 8);
            got = (uint64_t)v;
        }
        if (got != w) return 0;
    }
    return 1;
}

static void test_seed_draws(const cJSON *golden) {
    int seeds = 0;
    const cJSON *rec;
    cJSON_ArrayForEach(rec, cJSON_GetObjectItemCaseSensitive(golden, "seeds")) {
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "seed"));
        ct_example_seed s;
        CHECK_MSG(text && ct_example_seed_parse(text, &s) == 0, "seed %s refused", text ? text : "?");
        if (!text) continue;
        ct_manual_seed(s.value);
        CHECK_MSG(ct_generator_initial_seed(ct_default_generator()) == u64(cJSON_GetObjectItemCaseSensitive(rec, "initial_seed")),
                  "seed %s: initial_seed differs", text);
        int64_t four = 4, twenty = 20, three = 3;
        ct_tensor *r4 = ct_rand(&four, 1, CT_DTYPE_UNDEFINED);
        ct_tensor *n20 = ct_randn(&twenty, 1, CT_DTYPE_UNDEFINED);
        ct_tensor *n3 = ct_randn(&three, 1, CT_DTYPE_UNDEFINED);
        ct_tensor *ri = ct_randint(0, INT64_C(1) << 40, &three, 1, CT_INT64);
        CHECK_MSG(same_bits(r4, cJSON_GetObjectItemCaseSensitive(rec, "rand4"), 4), "seed %s: rand(4) differs", text);
        CHECK_MSG(same_bits(n20, cJSON_GetObjectItemCaseSensitive(rec, "randn20"), 20), "seed %s: randn(20) differs", text);
        CHECK_MSG(same_bits(n3, cJSON_GetObjectItemCaseSensitive(rec, "randn3"), 3), "seed %s: randn(3) differs", text);
        CHECK_MSG(same_bits(ri, cJSON_GetObjectItemCaseSensitive(rec, "randint"), 3), "seed %s: randint differs", text);
        ct_tensor_release(r4);
        ct_tensor_release(n20);
        ct_tensor_release(n3);
        ct_tensor_release(ri);
        seeds++;
    }
    CHECK_INT_EQ(seeds, 15);
    printf("seeds: %d, initial_seed and 30 draws each equal PyTorch's\n", seeds);
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

/* `ctorch lab00 --seed S` end to end at the edges of the range */
static void test_lab_seeds(const cJSON *golden) {
    static const char *const edges[] = {"0", "18446744073709551615", "-1", "-9223372036854775808"};
    int runs = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        const cJSON *rec = NULL, *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(golden, "seeds")) {
            const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "seed"));
            if (s && strcmp(s, edges[i]) == 0) rec = r;
        }
        CHECK_MSG(rec != NULL, "no recording for seed %s", edges[i]);
        if (!rec) continue;
        char out[600], path[700], seed_opt[64];
        snprintf(out, sizeof out, "%s/lab", work_dir);
        snprintf(seed_opt, sizeof seed_opt, "--seed=%s", edges[i]);
        const char *args[] = {"lab00", "--out", out, seed_opt, NULL};
        run_result res = run_ctorch(args);
        CHECK_MSG(res.status == 0, "lab00 %s: exit %d: %s", seed_opt, res.status, res.err);
        run_free(&res);
        runs++;

        /* y[0,:4] as PyTorch computed it from the same draws (rtol 1e-5, as test_lab00) */
        snprintf(path, sizeof path, "%s/REPORT.md", out);
        char *report = ct_test_read_file(path, NULL);
        double got[4], want[4];
        const char *row = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "lab_y_row"));
        char want_line[256];
        snprintf(want_line, sizeof want_line, "y[0,:4] %s", row ? row : "");
        CHECK_MSG(report && y_values(report, got) == 0 && y_values(want_line, want) == 0, "lab00 %s: no y[0,:4]", seed_opt);
        for (int k = 0; k < 4 && report; k++)
            CHECK_MSG(ct_test_close(got[k], want[k], 1e-5, 1e-6), "lab00 %s: y[0,%d] = %.9g, PyTorch %.9g", seed_opt, k,
                      got[k], want[k]);
        /* the generator's seed, exact, in the report, the trace and the manifest; the command
         * as given */
        const char *initial = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "initial_seed"));
        char line[1024];
        snprintf(line, sizeof line, "- seed %s (`torch.manual_seed`)", initial ? initial : "?");
        CHECK_MSG(report && strstr(report, line), "lab00 %s: REPORT.md lacks [%s]", seed_opt, line);
        free(report);
        snprintf(path, sizeof path, "%s/trace.log", out);
        char *trace = ct_test_read_file(path, NULL);
        snprintf(line, sizeof line, ", seed %s)\n", initial ? initial : "?");
        CHECK_MSG(trace && strstr(trace, line), "lab00 %s: trace.log lacks [%s]", seed_opt, line);
        free(trace);
        snprintf(path, sizeof path, "%s/manifest.json", out);
        char *manifest = ct_test_read_file(path, NULL);
        snprintf(line, sizeof line, "\"seed\": %s,\n", initial ? initial : "?");
        CHECK_MSG(manifest && strstr(manifest, line), "lab00 %s: manifest.json lacks [%s]", seed_opt, line);
        snprintf(line, sizeof line, "\"command\": \"ctorch lab00 --out %s --seed %s\"", out, edges[i]);
        CHECK_MSG(manifest && strstr(manifest, line), "lab00 %s: manifest.json lacks [%s]", seed_opt, line);
        free(manifest);
    }
    /* the step runs at the low edge and at -1 (its batch generator then gets seed 0) */
    const char *s1[] = {"step", "--seed", "-1", NULL}, *s2[] = {"step", "--seed=-9223372036854775808", NULL};
    run_result a = run_ctorch(s1), b = run_ctorch(s2);
    cJSON *ja = ct_json_parse(a.out, strlen(a.out)), *jb = ct_json_parse(b.out, strlen(b.out));
    CHECK_MSG(a.status == 0 && ja, "step --seed -1: exit %d: %s", a.status, a.err);
    CHECK_MSG(b.status == 0 && jb, "step --seed -2^63: exit %d: %s", b.status, b.err);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ja, "traced_step_matches")));
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    run_free(&a);
    run_free(&b);
    printf("lab00 at the seed edges: %d runs\n", runs);
}

/* The example programs read their SEED with the same reader and refuse what they cannot use. */
static void test_example_programs(void) {
    const char *bad[] = {"x", NULL}, *over[] = {"18446744073709551615", NULL}, *extra[] = {"0", "1", NULL};
    const char *neg[] = {"-1", NULL}, *step_neg[] = {"step", "--seed", "-1", NULL};
    run_result r = run_program("example_step_tracer", bad);
    CHECK_INT_EQ(r.status, 2);
    CHECK_STR_EQ(r.err, "example_step_tracer: SEED: invalid int value: 'x'\n");
    run_free(&r);
    r = run_program("example_step_tracer", over);
    CHECK_INT_EQ(r.status, 2);
    CHECK_STR_EQ(r.err, "example_step_tracer: SEED: Overflow when unpacking long (from make_batch(seed + 1) with seed "
                        "18446744073709551615)\n");
    run_free(&r);
    r = run_program("example_step_tracer", extra);
    CHECK_INT_EQ(r.status, 2);
    CHECK_STR_EQ(r.err, "usage: example_step_tracer [SEED]\n");
    run_free(&r);
    /* a negative seed: what the command prints */
    run_result a = run_program("example_step_tracer", neg), b = run_ctorch(step_neg);
    CHECK(a.status == 0 && b.status == 0);
    CHECK_STR_EQ(a.out, b.out);
    run_free(&a);
    run_free(&b);
    const char *lab_bad[] = {"unused", "-9223372036854775809", NULL}, *lab_extra[] = {"a", "1", "2", "3", NULL};
    r = run_program("example_lab00", lab_bad);
    CHECK_INT_EQ(r.status, 2);
    CHECK_STR_EQ(r.err, "example_lab00: SEED: Overflow when unpacking long\n");
    run_free(&r);
    r = run_program("example_lab00", lab_extra);
    CHECK_INT_EQ(r.status, 2);
    CHECK_STR_EQ(r.err, "usage: example_lab00 [OUT_DIR] [SEED] [REFERENCE_DIR]\n");
    run_free(&r);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    snprintf(work_dir, sizeof work_dir, "%s/test_cli.d", CT_BINARY_DIR);
    mkdir(work_dir, 0777);
    cJSON *golden = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/seed_range.json"));
    CHECK_MSG(golden != NULL, "seed_range.json: %s", ct_error_message());
    if (!golden) return ct_test_finish("test_cli");
    test_help_and_version(golden);
    test_usage_errors(golden);
    test_seed_parse(golden);
    test_seed_draws(golden);
    test_lab_seeds(golden);
    test_example_programs();
    cJSON_Delete(golden);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
    return ct_test_finish("test_cli");
}
