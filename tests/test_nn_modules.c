/* torch.nn modules against PyTorch 2.6 (tests/golden/torch-2.6/nn_modules.json from
 * tests/golden/record/nn_modules.py): MiniGPT's named_parameters (names, order, shapes; a tied
 * head listed once), Embedding's initial weights and forward, LayerNorm with and without bias,
 * GELU(tanh), Dropout in train and eval, train()/eval() on every descendant, reprs, and the
 * errors of misuse. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/nn.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "minigpt.h"
#include "util/json.h"

static void check_values(const char *what, ct_tensor *t, const cJSON *want, double rtol, double atol) {
    int n = cJSON_GetArraySize(want), bad = 0;
    CHECK_MSG(t && ct_tensor_numel(t) == n, "%s: wrong size", what);
    if (!t || ct_tensor_numel(t) != n) return;
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    ct_tensor_to_doubles(t, v, n);
    for (int k = 0; k < n; k++)
        if (!ct_test_close(v[k], cJSON_GetNumberValue(cJSON_GetArrayItem(want, k)), rtol, atol)) bad++;
    CHECK_MSG(bad == 0, "%s: %d of %d values differ", what, bad, n);
    free(v);
}

static const char *err_msg(const cJSON *root, const char *tag) {
    return cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "errors"), tag), 1));
}

static void check_repr(const cJSON *root, const char *tag, ct_module *m) {
    char *r = ct_module_repr(m);
    CHECK_STR_EQ(r, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "reprs"), tag)));
    ct_free(r);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/nn_modules.json"));
    CHECK_MSG(root != NULL, "nn_modules.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_nn_modules");
    int64_t live0 = ct_testing_live_tensors();

    /* MiniGPT's named_parameters, untied and tied */
    for (int tied = 0; tied < 2; tied++) {
        ct_gpt_args a;
        ct_gpt_args_defaults(&a);
        a.tied = tied;
        ct_gpt_config c = ct_gpt_config_from_args(&a);
        ct_manual_seed(0);
        ct_module *m = ct_gpt_new(&c);
        CHECK(m != NULL);
        ct_named_tensor *named = NULL;
        int n = m ? ct_module_named_parameters(m, &named) : -1;
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(root, tied ? "named_parameters_tied" : "named_parameters");
        CHECK_INT_EQ(n, cJSON_GetArraySize(want));
        int64_t total = 0;
        for (int i = 0; i < n && i < cJSON_GetArraySize(want); i++) {
            const cJSON *w = cJSON_GetArrayItem(want, i);
            CHECK_STR_EQ(named[i].name, cJSON_GetStringValue(cJSON_GetArrayItem(w, 0)));
            const cJSON *shape = cJSON_GetArrayItem(w, 1);
            CHECK_INT_EQ(ct_tensor_ndim(named[i].tensor), cJSON_GetArraySize(shape));
            for (int d = 0; d < cJSON_GetArraySize(shape) && d < ct_tensor_ndim(named[i].tensor); d++)
                CHECK_INT_EQ(ct_tensor_sizes(named[i].tensor)[d], (int64_t)cJSON_GetNumberValue(cJSON_GetArrayItem(shape, d)));
            total += ct_tensor_numel(named[i].tensor);
        }
        CHECK_INT_EQ(total, (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(root, tied ? "n_params_tied" : "n_params")));
        if (tied && m) /* one tensor, two modules */
            CHECK(ct_module_get_parameter(ct_module_get_child(m, "head"), "weight") ==
                  ct_module_get_parameter(ct_module_get_child(m, "tok_emb"), "weight"));
        ct_named_tensors_free(named, n);
        ct_module_free(m);
    }

    double xv[24];
    for (int i = 0; i < 24; i++) xv[i] = (double)(float)((float)i / 7.0f - 1.0f);
    int64_t xs[3] = {2, 3, 4};
    ct_tensor *x = ct_tensor_from_doubles(xv, xs, 3, CT_FLOAT32);

    /* Embedding: normal_ weights, forward */
    ct_manual_seed(0);
    ct_module *emb = ct_nn_embedding(10, 4);
    check_values("embedding weight", ct_module_get_parameter(emb, "weight"), cJSON_GetObjectItemCaseSensitive(root, "embedding_weight"), 0, 0);
    double iv[4] = {3, 0, 9, 3};
    int64_t is[2] = {2, 2};
    ct_tensor *idx = ct_tensor_from_doubles(iv, is, 2, CT_INT64);
    ct_tensor *e = ct_module_forward(emb, idx);
    check_values("embedding forward", e, cJSON_GetObjectItemCaseSensitive(root, "embedding_forward"), 0, 0);
    check_repr(root, "embedding", emb);

    /* LayerNorm with its affine parameters changed, and without bias */
    int64_t four = 4;
    ct_module *ln = ct_nn_layer_norm(&four, 1, 1e-5, true, true);
    {
        ct_grad_mode_guard g;
        ct_no_grad_enter(&g);
        ct_tensor *w = ct_wrapped_number(ct_double(1.5)), *b = ct_wrapped_number(ct_double(0.25));
        ct_mul_(ct_module_get_parameter(ln, "weight"), w);
        ct_add_(ct_module_get_parameter(ln, "bias"), b, ct_int(1));
        ct_tensor_release(w);
        ct_tensor_release(b);
        ct_grad_mode_exit(&g);
    }
    ct_tensor *y = ct_module_forward(ln, x);
    check_values("layer_norm forward", y, cJSON_GetObjectItemCaseSensitive(root, "layer_norm_forward"), 1e-5, 1e-6);
    check_repr(root, "layer_norm", ln);
    ct_module *ln_nb = ct_nn_layer_norm(&four, 1, 1e-5, true, false);
    ct_named_tensor *named = NULL;
    int nn = ct_module_named_parameters(ln_nb, &named);
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, "layer_norm_no_bias_names");
    CHECK_INT_EQ(nn, cJSON_GetArraySize(names));
    if (nn > 0) CHECK_STR_EQ(named[0].name, cJSON_GetStringValue(cJSON_GetArrayItem(names, 0)));
    ct_named_tensors_free(named, nn);
    ct_tensor *y2 = ct_module_forward(ln_nb, x);
    check_values("layer_norm without bias", y2, cJSON_GetObjectItemCaseSensitive(root, "layer_norm_no_bias_forward"), 1e-5, 1e-6);
    check_repr(root, "layer_norm_no_bias", ln_nb);

    /* GELU(tanh), Dropout */
    ct_module *gelu = ct_nn_gelu("tanh"), *gelu_none = ct_nn_gelu(NULL);
    ct_tensor *gy = ct_module_forward(gelu, x);
    check_values("gelu tanh", gy, cJSON_GetObjectItemCaseSensitive(root, "gelu_tanh_forward"), 1e-6, 1e-7);
    check_repr(root, "gelu_tanh", gelu);
    check_repr(root, "gelu", gelu_none);
    ct_module *drop = ct_nn_dropout(0.25);
    ct_manual_seed(5);
    ct_tensor *dy = ct_module_forward(drop, x);
    check_values("dropout (train)", dy, cJSON_GetObjectItemCaseSensitive(root, "dropout_train_forward"), 0, 0);
    ct_module_eval(drop);
    ct_tensor *de = ct_module_forward(drop, x);
    CHECK((de == x) == cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "dropout_eval_is_input")));
    check_repr(root, "dropout", drop);

    /* train() / eval() reach every descendant */
    ct_module *mods[3] = {ct_nn_linear(4, 4, true), ct_nn_gelu(NULL), ct_nn_dropout(0.1)};
    ct_module *seq = ct_nn_sequential(mods, 3);
    ct_module_eval(seq);
    const cJSON *ef = cJSON_GetObjectItemCaseSensitive(root, "eval_flags");
    CHECK(ct_module_is_training(seq) == cJSON_IsTrue(cJSON_GetArrayItem(ef, 0)));
    for (int i = 0; i < 3; i++) CHECK(ct_module_is_training(ct_module_child_at(seq, i)) == cJSON_IsTrue(cJSON_GetArrayItem(ef, i + 1)));
    ct_module_train(seq, true);
    const cJSON *tf = cJSON_GetObjectItemCaseSensitive(root, "train_flags");
    for (int i = 0; i < 3; i++) CHECK(ct_module_is_training(ct_module_child_at(seq, i)) == cJSON_IsTrue(cJSON_GetArrayItem(tf, i + 1)));

    /* misuse */
    CHECK(ct_nn_dropout(1.5) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, err_msg(root, "dropout_p"));
    CHECK(ct_nn_dropout(-0.1) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, err_msg(root, "dropout_negative_p"));
    ct_module *bad_gelu = ct_nn_gelu("erf");
    CHECK(bad_gelu && ct_module_forward(bad_gelu, x) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, err_msg(root, "gelu_approximate"));
    int64_t three = 3;
    ct_module *ln3 = ct_nn_layer_norm(&three, 1, 1e-5, true, true);
    CHECK(ct_module_forward(ln3, x) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, err_msg(root, "layer_norm_shape"));
    double ten = 10, onef = 1;
    int64_t one = 1;
    ct_tensor *i10 = ct_tensor_from_doubles(&ten, &one, 1, CT_INT64), *if1 = ct_tensor_from_doubles(&onef, &one, 1, CT_FLOAT32);
    CHECK(ct_module_forward(emb, i10) == NULL);
    CHECK_ERROR(CT_ERR_INDEX, err_msg(root, "embedding_out_of_range"));
    CHECK(ct_module_forward(emb, if1) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, err_msg(root, "embedding_float_indices"));
    ct_module *list = ct_nn_module_list();
    ct_module_list_append(list, ct_nn_relu());
    CHECK(ct_module_forward(list, x) == NULL);
    CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, err_msg(root, "module_list_forward"));
    CHECK(ct_module_register_module(list, "a.b", ct_nn_relu()) == -1);
    CHECK_ERROR(CT_ERR_KEY, "module name can't contain \".\", got: a.b");

    ct_tensor *all[] = {x, idx, e, y, y2, gy, dy, de, i10, if1};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_tensor_release(all[i]);
    ct_module *mall[] = {emb, ln, ln_nb, gelu, gelu_none, drop, seq, bad_gelu, ln3, list};
    for (size_t i = 0; i < sizeof mall / sizeof mall[0]; i++) ct_module_free(mall[i]);
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_nn_modules");
}
