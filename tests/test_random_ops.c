/* Random operators through the dispatcher, bit for bit against PyTorch 2.6:
 * the lab's inputs (manual_seed(42); randn(2,64); randn(600,64); randn(600)) and the seed
 * script's make_batch (explicit generator, randn(8,16), randint(0,4,(8,))). */
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void compare_bits(const char *name, ct_tensor *t, const uint64_t *want, int n) {
    CHECK_MSG(t != NULL, "%s: %s", name, ct_error_message());
    if (!t) return;
    CHECK_INT_EQ(ct_tensor_numel(t), n);
    const float *p = ct_tensor_data_ptr(t);
    int bad = 0;
    for (int i = 0; i < n && i < ct_tensor_numel(t); i++)
        if (fbits(p[i]) != (uint32_t)want[i]) bad++;
    CHECK_MSG(bad == 0, "%s: %d of %d values differ from PyTorch", name, bad, n);
}

static void lab_inputs(void) {
    char *json = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/lab_randn.json"), NULL);
    CHECK(json != NULL);
    if (!json) return;
    static uint64_t want[600 * 64];
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    ct_tensor *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED);
    ct_tensor *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    int n = ct_test_json_uint_array(json, "x", want, 600 * 64);
    compare_bits("x = randn(2, 64)", x, want, n);
    n = ct_test_json_uint_array(json, "W", want, 600 * 64);
    compare_bits("W = randn(600, 64)", w, want, n);
    n = ct_test_json_uint_array(json, "b", want, 600 * 64);
    compare_bits("b = randn(600)", b, want, n);
    ct_tensor_release(x);
    ct_tensor_release(w);
    ct_tensor_release(b);
    free(json);
}

static void make_batch(void) {
    cJSON *root = ct_json_parse_file(ct_test_shared("reference/torch-2.6/seed_step_golden.json"));
    CHECK_MSG(root != NULL, "seed_step_golden.json: %s", ct_error_message());
    if (!root) return;
    cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    for (int s = 0; s < 3; s++) {
        char key[8];
        snprintf(key, sizeof key, "%d", s);
        cJSON *rec = cJSON_GetObjectItemCaseSensitive(seeds, key);
        cJSON *gx = cJSON_GetObjectItemCaseSensitive(rec, "x"), *gy = cJSON_GetObjectItemCaseSensitive(rec, "y");
        /* make_batch(seed + 1): torch.Generator().manual_seed(seed + 1) */
        ct_generator *g = ct_generator_new();
        CHECK_INT_EQ(ct_generator_manual_seed(g, (uint64_t)s + 1), 0);
        int64_t xs[2] = {8, 16}, ys[1] = {8};
        ct_tensor *x = ct_randn_generator(xs, 2, g, CT_DTYPE_UNDEFINED);
        ct_tensor *y = ct_randint_generator(0, 4, ys, 1, g, CT_DTYPE_UNDEFINED);
        CHECK(x && y);
        if (x && y) {
            CHECK_INT_EQ(ct_tensor_dtype(y), CT_INT64);
            const float *xp = ct_tensor_data_ptr(x);
            const int64_t *yp = ct_tensor_data_ptr(y);
            int bad = 0;
            for (int r = 0; r < 8; r++) {
                cJSON *row = cJSON_GetArrayItem(gx, r);
                for (int c = 0; c < 16; c++)
                    if (fbits(xp[r * 16 + c]) != fbits((float)cJSON_GetNumberValue(cJSON_GetArrayItem(row, c)))) bad++;
                if (yp[r] != (int64_t)cJSON_GetNumberValue(cJSON_GetArrayItem(gy, r))) bad++;
            }
            CHECK_MSG(bad == 0, "make_batch(%d): %d values differ", s + 1, bad);
        }
        ct_tensor_release(x);
        ct_tensor_release(y);
        ct_generator_release(g);
    }
    cJSON_Delete(root);
}

static void sanity_values(void) {
    /* values quoted by PyTorch's own docs and tests: seed 0 randn(5), rand(3), randint(0,10,(5,)) */
    ct_manual_seed(0);
    int64_t five = 5, three = 3;
    ct_tensor *r = ct_randn(&five, 1, CT_DTYPE_UNDEFINED);
    double v[5];
    ct_tensor_to_doubles(r, v, 5);
    CHECK(ct_test_close(v[0], 1.5410, 0, 1e-4) && ct_test_close(v[4], -1.0845, 0, 1e-4));
    ct_tensor_release(r);
    ct_manual_seed(0);
    r = ct_rand(&three, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_to_doubles(r, v, 3);
    CHECK(ct_test_close(v[0], 0.4963, 0, 1e-4) && ct_test_close(v[2], 0.0885, 0, 1e-4));
    ct_tensor_release(r);
    ct_manual_seed(0);
    r = ct_randint(0, 10, &five, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_to_doubles(r, v, 5);
    CHECK(v[0] == 4 && v[1] == 9 && v[2] == 3 && v[3] == 0 && v[4] == 3);
    ct_tensor_release(r);
}

static void bad_input(void) {
    int64_t two = 2;
    CHECK(ct_randn(&two, 1, CT_INT64) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "\"normal_kernel_cpu\" not implemented for 'Long'");
    ct_tensor *t = ct_empty(&two, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    CHECK_INT_EQ(ct_normal_(t, 0.0, -1.0, NULL), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std -1");
    int64_t hi = 3;
    CHECK_INT_EQ(ct_random_(t, 5, &hi, NULL), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=5 >= to=3");
    int64_t neg = -1;
    CHECK(ct_randn(&neg, 1, CT_DTYPE_UNDEFINED) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");
    ct_tensor_release(t);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    lab_inputs();
    make_batch();
    sanity_values();
    bad_input();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    return ct_test_finish("test_random_ops");
}
