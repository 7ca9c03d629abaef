/* F.cross_entropy in each form PyTorch 2.6 has, and the misuse errors of cross_entropy and SGD,
 * against tests/golden/torch-2.6/cross_entropy_cases.json (recorded by
 * tests/golden/record/cross_entropy_cases.py): the forward and backward dispatch-mode logs op for
 * op, the loss and the input's gradient within rtol 1e-5 / atol 1e-6, and for misuse the
 * exception's kind and exact message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

static const int64_t TARGET[6] = {0, 2, 1, 2, 3, 0};

static ct_tensor *ints(const int64_t *v, int64_t n) {
    return ct_tensor_from_data(v, &n, 1, CT_INT64);
}

/* the inputs of a case, drawn in the recorder's order after manual_seed(0) */
typedef enum { IDX, IDX_W, PROB, PROB_W, ONE_D } maker;

static void make(maker m, ct_tensor **x, ct_tensor **y, ct_tensor **w) {
    ct_manual_seed(0);
    int64_t xs[2] = {6, 4}, four = 4, five = 5;
    *w = NULL;
    if (m == ONE_D) {
        *x = ct_randn(&five, 1, CT_DTYPE_UNDEFINED);
        int64_t three = 3;
        *y = ct_tensor_from_data(&three, NULL, 0, CT_INT64);
        return;
    }
    *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    if (m == PROB || m == PROB_W) *y = ct_rand(xs, 2, CT_DTYPE_UNDEFINED);
    else *y = ints(TARGET, 6);
    if (m == IDX_W || m == PROB_W) *w = ct_rand(&four, 1, CT_DTYPE_UNDEFINED);
}

static maker maker_of(const char *name) {
    if (!strncmp(name, "one_d", 5)) return ONE_D;
    bool prob = !strncmp(name, "prob", 4), weight = strstr(name, "weight") != NULL;
    return prob ? (weight ? PROB_W : PROB) : (weight ? IDX_W : IDX);
}

static void check_values(const char *name, const char *what, ct_tensor *t, cJSON *want) {
    int n = cJSON_GetArraySize(want);
    CHECK_MSG(t && ct_tensor_numel(t) == n, "%s %s: %d values expected", name, what, n);
    if (!t || ct_tensor_numel(t) != n) return;
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    ct_tensor_to_doubles(t, v, n);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += !ct_test_close(v[i], cJSON_GetNumberValue(cJSON_GetArrayItem(want, i)), 1e-5, 1e-6);
    CHECK_MSG(bad == 0, "%s %s: %d of %d values differ (first: %.9g vs %.9g)", name, what, bad, n, v[0],
              cJSON_GetNumberValue(cJSON_GetArrayItem(want, 0)));
    free(v);
}

static void run_case(const char *name, cJSON *rec) {
    cJSON *kw = cJSON_GetObjectItemCaseSensitive(rec, "kw");
    ct_reduction red = CT_REDUCTION_MEAN;
    const char *rs = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(kw, "reduction"));
    if (rs) red = !strcmp(rs, "sum") ? CT_REDUCTION_SUM : !strcmp(rs, "none") ? CT_REDUCTION_NONE : CT_REDUCTION_MEAN;
    cJSON *ii = cJSON_GetObjectItemCaseSensitive(kw, "ignore_index");
    cJSON *ls = cJSON_GetObjectItemCaseSensitive(kw, "label_smoothing");
    int64_t ignore = ii ? (int64_t)cJSON_GetNumberValue(ii) : -100;
    double smoothing = ls ? cJSON_GetNumberValue(ls) : 0.0;

    ct_tensor *x, *y, *w;
    make(maker_of(name), &x, &y, &w);
    ct_tensor_set_requires_grad(x, true);
    ct_op_logger *f = ct_op_logger_new(), *b = ct_op_logger_new();
    ct_op_logger_push(f);
    ct_tensor *loss = ct_cross_entropy(x, y, w, ignore, red, smoothing);
    ct_op_logger_pop(f);
    CHECK_MSG(loss != NULL, "%s: %s", name, ct_error_message());
    if (loss) {
        ct_op_logger_push(b);
        ct_tensor *root = ct_tensor_ndim(loss) == 0 ? ct_tensor_retain(loss) : ct_sum(loss, CT_DTYPE_UNDEFINED);
        CHECK_MSG(root && ct_backward(root, NULL, false) == 0, "%s backward: %s", name, ct_error_message());
        ct_tensor_release(root);
        ct_op_logger_pop(b);
        char what[96];
        snprintf(what, sizeof what, "%s forward", name);
        CHECK_OP_LOG(what, f, cJSON_GetObjectItemCaseSensitive(rec, "fwd"));
        snprintf(what, sizeof what, "%s backward", name);
        CHECK_OP_LOG(what, b, cJSON_GetObjectItemCaseSensitive(rec, "bwd"));
        check_values(name, "loss", loss, cJSON_GetObjectItemCaseSensitive(rec, "out"));
        check_values(name, "grad", ct_tensor_grad(x), cJSON_GetObjectItemCaseSensitive(rec, "grad"));
    }
    /* the same loss without a mode (the non-subclass branches) gives the same values */
    ct_tensor *x2 = ct_detach(x);
    ct_tensor *loss2 = ct_cross_entropy(x2, y, w, ignore, red, smoothing);
    check_values(name, "loss without a mode", loss2, cJSON_GetObjectItemCaseSensitive(rec, "out"));
    ct_tensor_release(loss2);
    ct_tensor_release(x2);
    ct_op_logger_free(f);
    ct_op_logger_free(b);
    ct_tensor_release(loss);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_tensor_release(w);
}

static int kind_of(const char *py) {
    if (!strcmp(py, "RuntimeError")) return CT_ERR_RUNTIME;
    if (!strcmp(py, "ValueError")) return CT_ERR_VALUE;
    if (!strcmp(py, "IndexError")) return CT_ERR_INDEX;
    if (!strcmp(py, "TypeError")) return CT_ERR_TYPE;
    return -1;
}

/* one misuse: fn must fail with the recorded kind and message */
static void expect_error(cJSON *cases, const char *name, bool failed) {
    cJSON *rec = cJSON_GetObjectItemCaseSensitive(cases, name);
    CHECK_MSG(rec != NULL, "%s: not recorded", name);
    if (!rec) return;
    CHECK_MSG(failed, "%s: no error (PyTorch: %s)", name,
              cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "message")));
    if (!failed) return;
    ct_test_check_error(__FILE__, __LINE__, kind_of(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "error"))),
                        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "message")));
}

static bool ce_fails(const int64_t *t, int64_t nt, ct_dtype tdt, const int64_t *tshape, int tnd, bool prob_target,
                     ct_tensor *weight, int64_t ignore, double smoothing) {
    ct_manual_seed(0);
    int64_t xs[2] = {6, 4};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *y;
    if (prob_target) {
        y = ct_rand(tshape, tnd, CT_DTYPE_UNDEFINED);
    } else if (t) {
        ct_tensor *y64 = ints(t, nt);
        y = tdt == CT_INT64 ? ct_tensor_retain(y64) : ct_to_dtype(y64, tdt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(y64);
    } else {
        y = ct_zeros(tshape, tnd, tdt);
    }
    ct_tensor *loss = ct_cross_entropy(x, y, weight, ignore, CT_REDUCTION_MEAN, smoothing);
    bool failed = loss == NULL;
    ct_tensor_release(loss);
    ct_tensor_release(x);
    ct_tensor_release(y);
    return failed;
}

static void misuse(cJSON *cases) {
    const int64_t big[6] = {0, 2, 1, 5, 3, 0}, neg[6] = {0, 2, -1, 2, 3, 0};
    int64_t s62[2] = {6, 2}, s64[2] = {6, 4}, s63[2] = {6, 3}, three = 3;
    expect_error(cases, "float_index_target", ce_fails(TARGET, 6, CT_FLOAT32, NULL, 0, false, NULL, -100, 0));
    expect_error(cases, "target_too_big", ce_fails(big, 6, CT_INT64, NULL, 0, false, NULL, -100, 0));
    expect_error(cases, "target_negative", ce_fails(neg, 6, CT_INT64, NULL, 0, false, NULL, -100, 0));
    expect_error(cases, "smooth_target_too_big", ce_fails(big, 6, CT_INT64, NULL, 0, false, NULL, -100, 0.1));
    expect_error(cases, "batch_mismatch", ce_fails(TARGET, 5, CT_INT64, NULL, 0, false, NULL, -100, 0));
    expect_error(cases, "smooth_batch_mismatch", ce_fails(TARGET, 5, CT_INT64, NULL, 0, false, NULL, -100, 0.1));
    expect_error(cases, "multi_target", ce_fails(NULL, 0, CT_INT64, s62, 2, false, NULL, -100, 0));
    expect_error(cases, "prob_int_target", ce_fails(NULL, 0, CT_INT64, s64, 2, false, NULL, -100, 0));
    expect_error(cases, "prob_ignore_index", ce_fails(NULL, 0, CT_FLOAT32, s64, 2, true, NULL, 1, 0));
    expect_error(cases, "smoothing_too_big", ce_fails(TARGET, 6, CT_INT64, NULL, 0, false, NULL, -100, 1.5));
    expect_error(cases, "prob_smoothing_too_big", ce_fails(NULL, 0, CT_FLOAT32, s64, 2, true, NULL, -100, 1.5));
    expect_error(cases, "prob_shape_mismatch", ce_fails(NULL, 0, CT_FLOAT32, s63, 2, true, NULL, -100, 0));
    ct_tensor *w3 = ct_ones(&three, 1, CT_DTYPE_UNDEFINED);
    expect_error(cases, "weight_wrong_size", ce_fails(TARGET, 6, CT_INT64, NULL, 0, false, w3, -100, 0));
    expect_error(cases, "prob_weight_wrong_size", ce_fails(NULL, 0, CT_FLOAT32, s64, 2, true, w3, -100, 0));
    ct_tensor_release(w3);
    /* a 0-d input and a 0-d int target have the same shape: the class-probability checks apply */
    double one = 1.0;
    int64_t zero = 0;
    ct_tensor *x0 = ct_tensor_from_doubles(&one, NULL, 0, CT_FLOAT32), *y0 = ct_tensor_from_data(&zero, NULL, 0, CT_INT64);
    ct_tensor *l0 = ct_cross_entropy(x0, y0, NULL, -100, CT_REDUCTION_MEAN, 0);
    expect_error(cases, "scalar_input", l0 == NULL);
    ct_tensor_release(l0);
    ct_tensor_release(x0);
    ct_tensor_release(y0);

    /* SGD */
    ct_manual_seed(0);
    ct_tensor *w = ct_randn(&three, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(w, true);
    ct_tensor *w2 = ct_mul_scalar(w, ct_int(2));
    ct_optimizer *o = ct_sgd_new(&w2, 1, ct_sgd_defaults(0.1));
    expect_error(cases, "sgd_non_leaf", o == NULL);
    ct_optimizer_free(o);
    ct_sgd_options opts = ct_sgd_defaults(-0.1);
    expect_error(cases, "sgd_negative_lr", (o = ct_sgd_new(&w, 1, opts)) == NULL);
    ct_optimizer_free(o);
    opts = ct_sgd_defaults(0.1);
    opts.momentum = -0.5;
    expect_error(cases, "sgd_negative_momentum", (o = ct_sgd_new(&w, 1, opts)) == NULL);
    ct_optimizer_free(o);
    opts = ct_sgd_defaults(0.1);
    opts.weight_decay = -1.0;
    expect_error(cases, "sgd_negative_weight_decay", (o = ct_sgd_new(&w, 1, opts)) == NULL);
    ct_optimizer_free(o);
    opts = ct_sgd_defaults(0.1);
    opts.nesterov = true;
    expect_error(cases, "sgd_nesterov_no_momentum", (o = ct_sgd_new(&w, 1, opts)) == NULL);
    ct_optimizer_free(o);
    opts.momentum = 0.9;
    opts.dampening = 0.1;
    expect_error(cases, "sgd_nesterov_dampening", (o = ct_sgd_new(&w, 1, opts)) == NULL);
    ct_optimizer_free(o);
    expect_error(cases, "sgd_empty", (o = ct_sgd_new(&w, 0, ct_sgd_defaults(0.1))) == NULL);
    ct_optimizer_free(o);
    ct_tensor_release(w2);
    ct_tensor_release(w);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/cross_entropy_cases.json"));
    CHECK_MSG(root != NULL, "cross_entropy_cases.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_cross_entropy");
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int64_t live0 = ct_testing_live_tensors();
    int ran = 0;
    cJSON *c;
    cJSON_ArrayForEach(c, cases) {
        if (cJSON_GetObjectItemCaseSensitive(c, "error")) continue;
        run_case(c->string, c);
        ran++;
    }
    CHECK_INT_EQ(ran, 23);
    misuse(cases);
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_cross_entropy");
}
