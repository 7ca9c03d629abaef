/* torch.optim.SGD options against PyTorch 2.6 (tests/golden/torch-2.6/sgd_options.json from
 * tests/golden/record/sgd_options.py): parameters after each of three steps, the dispatch-mode
 * log of a step and of zero_grad(set_to_none=False), and the option errors. */
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

static double num(cJSON *o, const char *k, double dflt) {
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return v ? (cJSON_IsBool(v) ? (double)cJSON_IsTrue(v) : cJSON_GetNumberValue(v)) : dflt;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/sgd_options.json"));
    CHECK_MSG(root != NULL, "sgd_options.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_sgd");
    int64_t live0 = ct_testing_live_tensors();
    ct_generator *g = ct_generator_new();
    ct_generator_manual_seed(g, 1);
    int64_t xs[2] = {8, 16}, ys[1] = {8};
    ct_tensor *x = ct_randn_generator(xs, 2, g, CT_DTYPE_UNDEFINED);
    ct_tensor *y = ct_randint_generator(0, 4, ys, 1, g, CT_DTYPE_UNDEFINED);
    ct_generator_release(g);
    cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    cJSON *cfg;
    int nconf = 0;
    cJSON_ArrayForEach(cfg, configs) {
        const char *name = cfg->string;
        nconf++;
        cJSON *o = cJSON_GetObjectItemCaseSensitive(cfg, "options");
        ct_sgd_options opts = ct_sgd_defaults(num(o, "lr", 0.1));
        opts.momentum = num(o, "momentum", 0);
        opts.dampening = num(o, "dampening", 0);
        opts.weight_decay = num(o, "weight_decay", 0);
        opts.nesterov = num(o, "nesterov", 0) != 0;
        opts.maximize = num(o, "maximize", 0) != 0;
        bool keep = strcmp(name, "zero_grad_keep") == 0;
        ct_manual_seed(0);
        ct_module *mods[3] = {ct_nn_linear(16, 32, true), ct_nn_relu(), ct_nn_linear(32, 4, true)};
        ct_module *model = ct_nn_sequential(mods, 3);
        ct_tensor *params[4];
        ct_module_parameters(model, params, 4);
        ct_optimizer *opt = ct_sgd_new(params, 4, opts);
        CHECK_MSG(opt != NULL, "%s: %s", name, ct_error_message());
        for (int step = 0; step < 3 && opt; step++) {
            ct_tensor *logits = ct_module_forward(model, x);
            ct_tensor *loss = ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0);
            CHECK_INT_EQ(ct_backward(loss, NULL, false), 0);
            if (step == 1) {
                ct_op_logger *l = ct_op_logger_new();
                ct_op_logger_push(l);
                CHECK_INT_EQ(ct_optimizer_step(opt), 0);
                ct_op_logger_pop(l);
                CHECK_OP_LOG(name, l, cJSON_GetObjectItemCaseSensitive(cfg, "step_log"));
                ct_op_logger_free(l);
            } else {
                CHECK_INT_EQ(ct_optimizer_step(opt), 0);
            }
            cJSON *want = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cfg, "params"), step);
            for (int i = 0; i < 4; i++) {
                cJSON *wp = cJSON_GetArrayItem(want, i);
                int n = cJSON_GetArraySize(wp), bad = 0;
                double *v = malloc(sizeof(double) * (size_t)n);
                ct_tensor_to_doubles(params[i], v, n);
                for (int k = 0; k < n; k++)
                    if (!ct_test_close(v[k], cJSON_GetNumberValue(cJSON_GetArrayItem(wp, k)), 1e-5, 1e-6)) bad++;
                CHECK_MSG(bad == 0, "%s step %d param %d: %d values differ", name, step, i, bad);
                free(v);
            }
            if (keep) {
                ct_op_logger *l = ct_op_logger_new();
                ct_op_logger_push(l);
                CHECK_INT_EQ(ct_optimizer_zero_grad(opt, false), 0);
                ct_op_logger_pop(l);
                if (step == 1) CHECK_OP_LOG("zero_grad", l, cJSON_GetObjectItemCaseSensitive(root, "zero_grad_log"));
                ct_op_logger_free(l);
                CHECK(ct_tensor_grad(params[0]) != NULL);
            } else {
                CHECK_INT_EQ(ct_optimizer_zero_grad(opt, true), 0);
                CHECK(ct_tensor_grad(params[0]) == NULL);
            }
            ct_tensor_release(logits);
            ct_tensor_release(loss);
        }
        ct_optimizer_free(opt);
        ct_module_free(model);
    }
    CHECK_INT_EQ(nconf, 8);
    /* option errors */
    cJSON *errs = cJSON_GetObjectItemCaseSensitive(root, "errors");
    int64_t three = 3;
    ct_tensor *p = ct_randn(&three, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(p, true);
    struct {
        const char *tag;
        ct_sgd_options o;
    } bad[4];
    bad[0].tag = "lr";
    bad[0].o = ct_sgd_defaults(-0.1);
    bad[1].tag = "momentum";
    bad[1].o = ct_sgd_defaults(0.1);
    bad[1].o.momentum = -1;
    bad[2].tag = "weight_decay";
    bad[2].o = ct_sgd_defaults(0.1);
    bad[2].o.weight_decay = -1;
    bad[3].tag = "nesterov";
    bad[3].o = ct_sgd_defaults(0.1);
    bad[3].o.nesterov = true;
    for (int i = 0; i < 4; i++) {
        CHECK(ct_sgd_new(&p, 1, bad[i].o) == NULL);
        cJSON *e = cJSON_GetObjectItemCaseSensitive(errs, bad[i].tag);
        CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(e, 1)));
    }
    ct_tensor *two = ct_wrapped_number(ct_int(2));
    ct_tensor *nl = ct_mul(p, two);
    CHECK(ct_sgd_new(&nl, 1, ct_sgd_defaults(0.1)) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "non_leaf"), 1)));
    CHECK(ct_optimizer_step(NULL) == -1);
    ct_error_clear();
    ct_tensor_release(nl);
    ct_tensor_release(two);
    ct_tensor_release(p);
    ct_tensor_release(x);
    ct_tensor_release(y);
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_sgd");
}
