/* The error-kind table (Note [The error-kind table] in include/ctorch/error.h): every kind's
 * name and exception as ct_error_kind_name / ct_error_kind_exception give them, each exception
 * one of Python's own classes (or the binding's NotImplementedInCtorch, which must be none of
 * them), and a failed allocation the exception PyTorch 2.6 raises for it, with its message
 * (tests/golden/torch-2.6/error_kinds.json, recorded by tests/golden/record/error_kinds.py). */
#include <stdio.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/json.h"
#include "harness.h"

static const struct {
    ct_error_kind kind;
    const char *name, *exception;
} kinds[] = {
#define KIND_(e, name, exception) {e, name, exception},
    CT_ERROR_KIND_TABLE(KIND_)
#undef KIND_
};
#define N_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

static void check_table(const cJSON *builtins) {
    CHECK_INT_EQ(N_KINDS, CT_ERR_KIND_COUNT);
    for (int i = 0; i < N_KINDS; i++) {
        CHECK_INT_EQ(kinds[i].kind, i);
        CHECK_STR_EQ(ct_error_kind_name(kinds[i].kind), kinds[i].name);
        for (int j = 0; j < i; j++) CHECK_MSG(strcmp(kinds[i].name, kinds[j].name) != 0, "two kinds named %s", kinds[i].name);
        const char *exc = ct_error_kind_exception(kinds[i].kind);
        if (kinds[i].kind == CT_OK) {
            CHECK(exc == NULL);
            continue;
        }
        CHECK_STR_EQ(exc, kinds[i].exception);
        bool builtin = exc && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(builtins, exc));
        if (kinds[i].kind == CT_ERR_UNSUPPORTED)
            CHECK_MSG(exc && !builtin && strcmp(exc, "NotImplementedInCtorch") == 0,
                      "CT_ERR_UNSUPPORTED is the binding's own NotImplementedInCtorch, not %s", exc ? exc : "(null)");
        else
            CHECK_MSG(builtin, "%s: %s is no exception class of Python's", kinds[i].name, exc ? exc : "(null)");
    }
    /* a value that is no kind */
    CHECK_STR_EQ(ct_error_kind_name(CT_ERR_KIND_COUNT), "Error");
    CHECK_STR_EQ(ct_error_kind_name((ct_error_kind)-1), "Error");
    CHECK_STR_EQ(ct_error_kind_exception(CT_ERR_KIND_COUNT), "RuntimeError");
}

/* an allocation no allocator can make: the exception and message PyTorch's CPU allocator gives
 * (the recording asked for 2^50 bytes, this asks for 2^63) */
static void check_out_of_memory(const cJSON *oom) {
    CHECK_MSG(cJSON_IsObject(oom), "the recording has no failed allocation");
    if (!cJSON_IsObject(oom)) return;
    int64_t size = INT64_C(1) << 60;
    ct_tensor *t = ct_empty(&size, 1, CT_INT64, CT_MEMORY_FORMAT_NONE);
    CHECK(t == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_NOMEM);
    CHECK_STR_EQ(ct_error_kind_exception(ct_error_code()), cJSON_GetStringValue(cJSON_GetObjectItem(oom, "type")));
    const char *rec = cJSON_GetStringValue(cJSON_GetObjectItem(oom, "message"));
    const char *at = rec ? strstr(rec, "1125899906842624") : NULL;
    CHECK(at != NULL);
    if (at) {
        char want[512];
        snprintf(want, sizeof want, "%.*s%s%s", (int)(at - rec), rec, "9223372036854775808", at + strlen("1125899906842624"));
        CHECK_STR_EQ(ct_error_message(), want);
    }
    ct_error_clear();
    ct_tensor_release(t);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *rec = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/error_kinds.json"));
    CHECK_MSG(rec != NULL, "error_kinds.json: %s", ct_error_message());
    if (!rec) return ct_test_finish("test_error_kinds");
    check_table(cJSON_GetObjectItemCaseSensitive(rec, "builtins"));
    check_out_of_memory(cJSON_GetObjectItemCaseSensitive(rec, "oom"));
    cJSON_Delete(rec);
    return ct_test_finish("test_error_kinds");
}
