/* The training-step tracer against the seed script run under PyTorch 2.6
 * (../shared/reference/torch-2.6/seed_step_golden.json): for seeds 0, 1, 2 the printed JSON
 * equals the recorded `result` exactly, the LoggingTensor log equals `subclass_log` in order,
 * and the optimizer phase logs the profiler ops around the four add_. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/subclass.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "step_tracer.h"
#include "util/json.h"

/* structural equality: same keys in the same order, same values */
static bool json_equal(const cJSON *a, const cJSON *b, char *where, size_t wsize) {
    if (cJSON_IsObject(a) != cJSON_IsObject(b) || cJSON_IsArray(a) != cJSON_IsArray(b)) return false;
    if (cJSON_IsObject(a) || cJSON_IsArray(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if (cJSON_IsObject(a) && strcmp(x->string, y->string) != 0) {
                snprintf(where, wsize, "key %s vs %s", x->string, y->string);
                return false;
            }
            if (!json_equal(x, y, where, wsize)) {
                if (!*where && x->string) snprintf(where, wsize, "at %s", x->string);
                return false;
            }
        }
        return !x && !y;
    }
    if (cJSON_IsBool(a) || cJSON_IsBool(b)) return cJSON_IsTrue(a) == cJSON_IsTrue(b) && cJSON_IsBool(a) == cJSON_IsBool(b);
    if (cJSON_IsNumber(a)) return cJSON_IsNumber(b) && cJSON_GetNumberValue(a) == cJSON_GetNumberValue(b);
    if (cJSON_IsString(a)) return cJSON_IsString(b) && strcmp(cJSON_GetStringValue(a), cJSON_GetStringValue(b)) == 0;
    return cJSON_IsNull(a) && cJSON_IsNull(b);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_shared("reference/torch-2.6/seed_step_golden.json"));
    CHECK_MSG(root != NULL, "seed_step_golden.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_step");
    cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    int64_t live0 = ct_testing_live_tensors();
    for (int seed = 0; seed < 3; seed++) {
        char key[8];
        snprintf(key, sizeof key, "%d", seed);
        cJSON *rec = cJSON_GetObjectItemCaseSensitive(seeds, key);
        char *json = ct_example_step_json((uint64_t)seed);
        CHECK_MSG(json != NULL, "seed %d: %s", seed, ct_error_message());
        if (!json) continue;
        cJSON *got = ct_json_parse(json, strlen(json));
        char where[256] = "";
        bool eq = got && json_equal(got, cJSON_GetObjectItemCaseSensitive(rec, "result"), where, sizeof where);
        CHECK_MSG(eq, "seed %d: result differs (%s):\n%s", seed, where, json);
        /* json.dumps(result, indent=2) of the recorded object prints the same text */
        char *want_text = ct_json_dumps(cJSON_GetObjectItemCaseSensitive(rec, "result"), 2);
        CHECK_STR_EQ(json, want_text);
        ct_free(want_text);
        cJSON_Delete(got);
        ct_free(json);

        char **names;
        size_t n;
        CHECK_INT_EQ(ct_example_subclass_log((uint64_t)seed, &names, &n), 0);
        cJSON *sl = cJSON_GetObjectItemCaseSensitive(rec, "subclass_log");
        bool same = (int)n == cJSON_GetArraySize(sl);
        for (size_t i = 0; same && i < n; i++) same = strcmp(names[i], cJSON_GetStringValue(cJSON_GetArrayItem(sl, (int)i))) == 0;
        CHECK_MSG(same, "seed %d: subclass log differs (%zu entries)", seed, n);
        free(names);
    }
    /* the wrapper's key set */
    ct_logging_tensor_log *log = ct_logging_tensor_log_new();
    int64_t two = 2;
    ct_tensor *e = ct_zeros(&two, 1, CT_DTYPE_UNDEFINED);
    ct_tensor *w = ct_logging_tensor_new(log, e, false);
    char buf[256];
    ct_keyset_format(ct_tensor_keyset(w), buf, sizeof buf);
    CHECK_STR_EQ(buf, "DispatchKeySet(CPU, Python, ADInplaceOrView, AutogradCPU, AutocastCPU, PythonTLSSnapshot)");
    CHECK(ct_logging_tensor_elem(w) == e);
    CHECK(ct_logging_tensor_elem(e) == NULL);
    /* an op on the wrapper reaches the handler and comes back wrapped */
    ct_tensor *r = ct_neg(w);
    CHECK(r && ct_logging_tensor_elem(r) != NULL);
    CHECK_INT_EQ(ct_logging_tensor_log_count(log), 1);
    CHECK_STR_EQ(ct_logging_tensor_log_get(log, 0), "aten.neg.default");
    ct_tensor_release(r);
    ct_tensor_release(w);
    ct_tensor_release(e);
    ct_logging_tensor_log_free(log);
    CHECK(ct_logging_tensor_new(NULL, NULL, false) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "LoggingTensor: log and elem are required");

    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_step");
}
