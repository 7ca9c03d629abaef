#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctorch/error.h"
#include "ctorch/mode.h"
#include "util/json.h"

int ct_test_checks;
int ct_test_failures;

void ct_test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    ct_test_failures++;
    fprintf(stderr, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void ct_test_check_error(const char *file, int line, int kind, const char *msg) {
    ct_test_checks++;
    int got = (int)ct_error_code();
    const char *m = ct_error_message();
    if (got != kind || (msg && strcmp(m, msg) != 0))
        ct_test_fail(file, line, "expected %s: [%s]\n   got %s: [%s]", ct_error_kind_name((ct_error_kind)kind),
                     msg ? msg : "(any)", ct_error_kind_name((ct_error_kind)got), m);
    ct_error_clear();
}

int ct_test_finish(const char *name) {
    printf("%s: %d checks, %d failures\n", name, ct_test_checks, ct_test_failures);
    return ct_test_failures == 0 && ct_test_checks > 0 ? 0 : 1;
}

char *ct_test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        fclose(f);
        return NULL;
    }
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = '\0';
    if (len) *len = got;
    return buf;
}

const char *ct_test_shared(const char *rel) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", CT_SHARED_DIR, rel);
    return buf;
}

const char *ct_test_source(const char *rel) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", CT_SOURCE_DIR, rel);
    return buf;
}

int ct_test_json_uint_array(const char *json, const char *key, uint64_t *out, int max) {
    char pat[256];
    snprintf(pat, sizeof pat, "\"%s\": [", key);
    const char *p = strstr(json, pat);
    if (!p) return -1;
    p += strlen(pat);
    int n = 0;
    while (*p && *p != ']' && n < max) {
        char *end;
        out[n++] = strtoull(p, &end, 10);
        p = end;
        while (*p == ',' || *p == ' ' || *p == '\n') p++;
    }
    return n;
}

int ct_test_close(double a, double b, double rtol, double atol) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return fabs(a - b) <= atol + rtol * fabs(b);
}

void ct_test_check_op_log(const char *file, int line, const char *what, struct ct_op_logger *l, const struct cJSON *want) {
    ct_test_checks++;
    int n = cJSON_GetArraySize(want);
    bool same = want && (size_t)n == ct_op_logger_count(l);
    for (int i = 0; same && i < n; i++)
        same = strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(want, i)), ct_op_logger_get(l, (size_t)i)) == 0;
    if (same) return;
    char *got = ct_op_logger_format(l);
    char *exp = want ? cJSON_PrintUnformatted(want) : NULL;
    ct_test_fail(file, line, "%s log differs\n   got: %s\n  want: %s", what, got ? got : "?", exp ? exp : "(not recorded)");
    ct_free(got);
    if (exp) cJSON_free(exp);
}

ct_test_run ct_test_run_program(const char *exe, const char *argv0, const char *const *args, const char *work_dir) {
    ct_test_run r = {-1, NULL, NULL};
    char out[600], err[600];
    snprintf(out, sizeof out, "%s/stdout.txt", work_dir);
    snprintf(err, sizeof err, "%s/stderr.txt", work_dir);
    const char *argv[32] = {argv0};
    int n = 1;
    for (; args[n - 1] && n < 31; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(127);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    int st;
    if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st)) r.status = WEXITSTATUS(st);
    r.out = ct_test_read_file(out, NULL);
    r.err = ct_test_read_file(err, NULL);
    if (!r.out) r.out = calloc(1, 1);
    if (!r.err) r.err = calloc(1, 1);
    return r;
}

void ct_test_run_free(ct_test_run *r) {
    free(r->out);
    free(r->err);
}
