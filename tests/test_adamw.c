/* torch.optim.AdamW and torch.nn.utils.clip_grad_norm_ against PyTorch 2.6
 * (tests/golden/torch-2.6/adamw_clip.json from tests/golden/record/adamw_clip.py): parameters after
 * each of three steps for every CPU option (amsgrad, maximize, weight decay, eps, betas, param
 * groups), the dispatch-mode log of a step and of zero_grad(set_to_none=False), the option
 * errors; clip_grad_norm_'s total norm, clipped gradients and log for several norms, a
 * parameter without a gradient, no gradients at all, and the non-finite error. */
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

static double num(const cJSON *o, const char *k, double dflt) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!v || cJSON_IsNull(v)) return dflt;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    if (cJSON_IsString(v) && strcmp(v->valuestring, "inf") == 0) return INFINITY; /* JSON has no infinity */
    return cJSON_GetNumberValue(v);
}

static ct_module *make_model(void) {
    ct_manual_seed(0);
    ct_module *mods[3] = {ct_nn_linear(16, 32, true), ct_nn_relu(), ct_nn_linear(32, 4, true)};
    return ct_nn_sequential(mods, 3);
}

static int backward(ct_module *model, ct_tensor *x, ct_tensor *y) {
    ct_tensor *logits = ct_module_forward(model, x);
    ct_tensor *loss = logits ? ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int rc = loss ? ct_backward(loss, NULL, false) : -1;
    ct_tensor_release(logits);
    ct_tensor_release(loss);
    return rc;
}

static void check_values(const char *what, ct_tensor *t, const cJSON *want, double rtol, double atol) {
    int n = cJSON_GetArraySize(want), bad = 0;
    CHECK_MSG(t && ct_tensor_numel(t) == n, "%s: %lld values, PyTorch %d", what, t ? (long long)ct_tensor_numel(t) : -1LL, n);
    if (!t || ct_tensor_numel(t) != n) return;
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    ct_tensor_to_doubles(t, v, n);
    for (int k = 0; k < n; k++)
        if (!ct_test_close(v[k], cJSON_GetNumberValue(cJSON_GetArrayItem(want, k)), rtol, atol)) bad++;
    CHECK_MSG(bad == 0, "%s: %d of %d values differ", what, bad, n);
    free(v);
}

static void run_config(const char *name, const cJSON *cfg, ct_tensor *x, ct_tensor *y) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(cfg, "options");
    ct_adamw_options opts = ct_adamw_defaults();
    opts.lr = num(o, "lr", opts.lr);
    opts.eps = num(o, "eps", opts.eps);
    opts.weight_decay = num(o, "weight_decay", opts.weight_decay);
    opts.amsgrad = num(o, "amsgrad", 0) != 0;
    opts.maximize = num(o, "maximize", 0) != 0;
    const cJSON *betas = cJSON_GetObjectItemCaseSensitive(o, "betas");
    if (betas) {
        opts.beta1 = cJSON_GetNumberValue(cJSON_GetArrayItem(betas, 0));
        opts.beta2 = cJSON_GetNumberValue(cJSON_GetArrayItem(betas, 1));
    }
    ct_module *model = make_model();
    ct_tensor *params[4];
    ct_module_parameters(model, params, 4);
    ct_optimizer *opt;
    if (strcmp(name, "groups") == 0) {
        /* [{"params": [w1, w2], "weight_decay": 0.1}, {"params": [b1, b2], "weight_decay": 0.0, "lr": 0.05}] */
        ct_tensor *g0[2] = {params[0], params[2]}, *g1[2] = {params[1], params[3]};
        ct_adamw_group groups[2] = {{g0, 2, opts}, {g1, 2, opts}};
        groups[0].options.weight_decay = 0.1;
        groups[1].options.weight_decay = 0.0;
        groups[1].options.lr = 0.05;
        opt = ct_adamw_new_groups(groups, 2, opts);
        CHECK(opt && ct_optimizer_num_groups(opt) == 2);
    } else {
        opt = ct_adamw_new(params, 4, opts);
    }
    CHECK_MSG(opt != NULL, "%s: %s", name, ct_error_message());
    bool keep = strcmp(name, "zero_grad_keep") == 0;
    for (int step = 0; step < 3 && opt; step++) {
        CHECK_INT_EQ(backward(model, x, y), 0);
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
        const cJSON *want = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cfg, "params"), step);
        for (int i = 0; i < 4; i++) {
            char what[128];
            snprintf(what, sizeof what, "%s step %d param %d", name, step, i);
            check_values(what, params[i], cJSON_GetArrayItem(want, i), 1e-5, 1e-6);
        }
        if (keep) {
            ct_op_logger *l = ct_op_logger_new();
            ct_op_logger_push(l);
            CHECK_INT_EQ(ct_optimizer_zero_grad(opt, false), 0);
            ct_op_logger_pop(l);
            if (step == 1) CHECK_OP_LOG("zero_grad", l, cJSON_GetObjectItemCaseSensitive(cfg, "zero_grad_log"));
            ct_op_logger_free(l);
            CHECK(ct_tensor_grad(params[0]) != NULL);
        } else {
            CHECK_INT_EQ(ct_optimizer_zero_grad(opt, true), 0);
            CHECK(ct_tensor_grad(params[0]) == NULL);
        }
    }
    ct_optimizer_free(opt);
    ct_module_free(model);
}

static void run_clip(const char *name, const cJSON *c, ct_tensor *x, ct_tensor *y) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "options");
    ct_module *model = make_model();
    CHECK_INT_EQ(backward(model, x, y), 0);
    ct_tensor *params[4];
    ct_module_parameters(model, params, 4);
    if (strcmp(name, "skip_no_grad") == 0) ct_tensor_set_grad(params[1], NULL);
    ct_op_logger *l = ct_op_logger_new();
    ct_op_logger_push(l);
    ct_tensor *total = ct_nn_clip_grad_norm_(params, 4, num(o, "max_norm", 1.0), num(o, "norm_type", 2.0), false);
    ct_op_logger_pop(l);
    CHECK_MSG(total != NULL, "%s: %s", name, ct_error_message());
    const cJSON *log = cJSON_GetObjectItemCaseSensitive(c, "log");
    if (cJSON_IsArray(log)) CHECK_OP_LOG(name, l, log);
    ct_op_logger_free(l);
    double t = NAN;
    if (total) ct_tensor_item(total, &t);
    CHECK_MSG(ct_test_close(t, num(c, "total", 0), 1e-6, 1e-7), "%s: total norm %.9g, PyTorch %.9g", name, t, num(c, "total", 0));
    const cJSON *grads = cJSON_GetObjectItemCaseSensitive(c, "grads");
    for (int i = 0; i < 4; i++) {
        const cJSON *w = cJSON_GetArrayItem(grads, i);
        char what[128];
        snprintf(what, sizeof what, "clip %s grad %d", name, i);
        if (cJSON_IsNull(w)) CHECK_MSG(ct_tensor_grad(params[i]) == NULL, "%s: a gradient appeared", what);
        else check_values(what, ct_tensor_grad(params[i]), w, 1e-5, 1e-7);
    }
    ct_tensor_release(total);
    ct_module_free(model);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/adamw_clip.json"));
    CHECK_MSG(root != NULL, "adamw_clip.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_adamw");
    int64_t live0 = ct_testing_live_tensors();
    ct_generator *g = ct_generator_new();
    ct_generator_manual_seed(g, 1);
    int64_t xs[2] = {8, 16}, ys[1] = {8};
    ct_tensor *x = ct_randn_generator(xs, 2, g, CT_DTYPE_UNDEFINED);
    ct_tensor *y = ct_randint_generator(0, 4, ys, 1, g, CT_DTYPE_UNDEFINED);
    ct_generator_release(g);

    const cJSON *cfg;
    int nconf = 0;
    cJSON_ArrayForEach(cfg, cJSON_GetObjectItemCaseSensitive(root, "configs")) {
        run_config(cfg->string, cfg, x, y);
        nconf++;
    }
    CHECK_INT_EQ(nconf, 8);

    const cJSON *clip = cJSON_GetObjectItemCaseSensitive(root, "clip");
    const char *clips[5] = {"default", "no_clipping", "inf_norm", "l1_norm", "skip_no_grad"};
    for (int i = 0; i < 5; i++) run_clip(clips[i], cJSON_GetObjectItemCaseSensitive(clip, clips[i]), x, y);
    /* no gradient at all: torch.tensor(0.0), which logs lift_fresh */
    {
        int64_t two = 2;
        ct_tensor *p = ct_zeros(&two, 1, CT_DTYPE_UNDEFINED);
        ct_tensor_set_requires_grad(p, true);
        ct_op_logger *l = ct_op_logger_new();
        ct_op_logger_push(l);
        ct_tensor *total = ct_nn_clip_grad_norm_(&p, 1, 1.0, 2.0, false);
        ct_op_logger_pop(l);
        const cJSON *ng = cJSON_GetObjectItemCaseSensitive(clip, "no_grads");
        CHECK_INT_EQ(ct_op_logger_count(l), cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ng, "log")) - 1); /* its zeros() is ours */
        CHECK_STR_EQ(ct_op_logger_get(l, 0), "aten.lift_fresh.default");
        double t = -1;
        CHECK(total && ct_tensor_item(total, &t) == 0 && t == num(ng, "total", -2));
        ct_op_logger_free(l);
        ct_tensor_release(total);
        ct_tensor_release(p);
    }
    /* a non-finite norm with error_if_nonfinite */
    {
        ct_module *model = make_model();
        CHECK_INT_EQ(backward(model, x, y), 0);
        ct_tensor *params[4];
        ct_module_parameters(model, params, 4);
        float *g0 = ct_tensor_data_ptr(ct_tensor_grad(params[0]));
        g0[0] = INFINITY;
        CHECK(ct_nn_clip_grad_norm_(params, 4, 1.0, 2.0, true) == NULL);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(clip, "nonfinite_error");
        CHECK_ERROR(CT_ERR_RUNTIME, cJSON_GetStringValue(cJSON_GetArrayItem(e, 1)));
        ct_module_free(model);
    }

    /* option errors */
    const cJSON *errs = cJSON_GetObjectItemCaseSensitive(root, "errors");
    int64_t three = 3;
    ct_tensor *p = ct_randn(&three, 1, CT_DTYPE_UNDEFINED), *q = ct_randn(&three, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(p, true);
    ct_tensor_set_requires_grad(q, true);
    struct {
        const char *tag;
        ct_adamw_options o;
    } bad[5];
    for (int i = 0; i < 5; i++) bad[i].o = ct_adamw_defaults();
    bad[0].tag = "lr";
    bad[0].o.lr = -0.1;
    bad[1].tag = "eps";
    bad[1].o.eps = -1e-8;
    bad[2].tag = "beta0";
    bad[2].o.beta1 = 1.0;
    bad[3].tag = "beta1";
    bad[3].o.beta2 = -0.5;
    bad[4].tag = "weight_decay";
    bad[4].o.weight_decay = -0.01;
    for (int i = 0; i < 5; i++) {
        CHECK(ct_adamw_new(&p, 1, bad[i].o) == NULL);
        CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, bad[i].tag), 1)));
    }
    CHECK(ct_adamw_new(NULL, 0, ct_adamw_defaults()) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "empty"), 1)));
    ct_tensor *two = ct_wrapped_number(ct_int(2));
    ct_tensor *nl = ct_mul(p, two);
    CHECK(ct_adamw_new(&nl, 1, ct_adamw_defaults()) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "non_leaf"), 1)));
    ct_tensor *pq[2] = {p, q}, *qq[1] = {q};
    ct_adamw_group groups[2] = {{pq, 2, ct_adamw_defaults()}, {qq, 1, ct_adamw_defaults()}};
    CHECK(ct_adamw_new_groups(groups, 2, ct_adamw_defaults()) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "two_groups"), 1)));
    ct_tensor_release(nl);
    ct_tensor_release(two);
    ct_tensor_release(p);
    ct_tensor_release(q);
    ct_tensor_release(x);
    ct_tensor_release(y);
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_adamw");
}
