/* A small test harness: every check counts, and a test exits non-zero if any failed. */
#ifndef CT_TEST_HARNESS_H
#define CT_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int ct_test_checks;
extern int ct_test_failures;

void ct_test_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        ct_test_checks++;                                                                         \
        if (!(cond)) ct_test_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond);                 \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                      \
    do {                                                                                          \
        ct_test_checks++;                                                                         \
        if (!(cond)) ct_test_fail(__FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)

#define CHECK_INT_EQ(a, b)                                                                        \
    do {                                                                                          \
        long long a_ = (long long)(a), b_ = (long long)(b);                                       \
        ct_test_checks++;                                                                         \
        if (a_ != b_) ct_test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, a_, b_); \
    } while (0)

#define CHECK_STR_EQ(a, b)                                                                        \
    do {                                                                                          \
        const char *a_ = (a), *b_ = (b);                                                          \
        ct_test_checks++;                                                                         \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                    \
            ct_test_fail(__FILE__, __LINE__, "%s == %s:\n   got: [%s]\n  want: [%s]", #a, #b,      \
                         a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                 \
    } while (0)

/* Checks that the last ctorch call failed with `kind` and exactly `msg`, then clears the error. */
#define CHECK_ERROR(kind, msg) ct_test_check_error(__FILE__, __LINE__, (kind), (msg))
void ct_test_check_error(const char *file, int line, int kind, const char *msg);

/* Checks that a dispatch-mode log equals a recorded JSON list of names, op for op; on a
 * difference prints both. `what` names the log in the message. */
struct ct_op_logger;
struct cJSON;
#define CHECK_OP_LOG(what, logger, want) ct_test_check_op_log(__FILE__, __LINE__, (what), (logger), (want))
void ct_test_check_op_log(const char *file, int line, const char *what, struct ct_op_logger *l, const struct cJSON *want);

/* A program run by ct_test_run_program: its exit status (-1 if it did not exit normally) and
 * what it wrote to stdout and stderr (never NULL). */
typedef struct ct_test_run {
    int status;
    char *out, *err;
} ct_test_run;
/* Runs exe with argv[0] = argv0 and args (NULL-terminated, at most 30), no shell in between, so
 * any byte but NUL reaches the program as given; stdout and stderr go through files in work_dir. */
ct_test_run ct_test_run_program(const char *exe, const char *argv0, const char *const *args, const char *work_dir);
void ct_test_run_free(ct_test_run *r);

/* Prints the summary and returns the process exit code (0 only if every check passed). */
int ct_test_finish(const char *name);

/* Reads a whole file (NUL-terminated, free()). NULL if it cannot be read. */
char *ct_test_read_file(const char *path, size_t *len);
/* CT_SHARED_DIR "/" rel (static buffer, overwritten by the next call). */
const char *ct_test_shared(const char *rel);
/* CT_SOURCE_DIR "/" rel (static buffer, overwritten by the next call). */
const char *ct_test_source(const char *rel);
/* In a JSON text of the form {"key": [n, n, ...], ...}: parses the integer array under key into
 * out (at most max). Returns the count, or -1 if the key is missing. */
int ct_test_json_uint_array(const char *json, const char *key, uint64_t *out, int max);
/* True if |a-b| <= atol + rtol*|b| (torch.allclose's rule). */
int ct_test_close(double a, double b, double rtol, double atol);

#endif
