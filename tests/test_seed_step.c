/* The seed training step (MLP 16->32->4, ReLU, cross_entropy) against PyTorch 2.6's recording
 * (../shared/reference/torch-2.6/seed_step_golden.json): parameters after manual_seed bit for
 * bit, the forward and backward dispatch-mode logs op for op (detach entries included), logits,
 * loss and gradients within rtol 1e-5 / atol 1e-6, the batch bit for bit, the SGD step's
 * dispatch-mode log (record-function ops and four add_) and the updated parameters, and the
 * grad_fn graph's structure. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "step_tracer.h"
#include "util/json.h"

/* An ordered logger with phases, like the golden script's Ordered mode. */
typedef struct phased {
    const char *phase;
    ct_op_logger *fwd, *bwd;
} phased;

static const char *seed_what(int seed, const char *phase) {
    static char buf[64];
    snprintf(buf, sizeof buf, "seed %d %s", seed, phase);
    return buf;
}

/* compares a tensor with a nested JSON list (row-major), bitwise or within tolerance */
static int flatten(cJSON *v, double *out, int max) {
    if (cJSON_IsNumber(v)) {
        if (max > 0) out[0] = cJSON_GetNumberValue(v);
        return 1;
    }
    int n = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, v) n += flatten(e, out + n, max - n);
    return n;
}

static void compare(const char *what, int seed, ct_tensor *t, cJSON *want, bool bitwise) {
    static double w[4096], g[4096];
    int n = flatten(want, w, 4096);
    CHECK_MSG(t && ct_tensor_numel(t) == n, "seed %d %s: size", seed, what);
    if (!t || ct_tensor_numel(t) != n) return;
    ct_tensor_to_doubles(t, g, n);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (bitwise ? (float)g[i] != (float)w[i] : !ct_test_close(g[i], w[i], 1e-5, 1e-6)) bad++;
    }
    CHECK_MSG(bad == 0, "seed %d %s: %d of %d values differ", seed, what, bad, n);
}

static void walk(const ct_node *fn, uint32_t nr, int depth, char **buf, size_t *len) {
    char line[256];
    int k = 0;
    for (int i = 0; i < depth; i++) k += snprintf(line + k, sizeof line - (size_t)k, "  ");
    if (!fn) {
        snprintf(line + k, sizeof line - (size_t)k, "None %u\n", nr);
    } else {
        ct_tensor *v = ct_node_variable(fn);
        char shape[64] = "";
        if (v) {
            const int64_t *s = ct_tensor_sizes(v);
            if (ct_tensor_ndim(v) == 1) snprintf(shape, sizeof shape, " [%lld]", (long long)s[0]);
            else snprintf(shape, sizeof shape, " [%lld, %lld]", (long long)s[0], (long long)s[1]);
        }
        snprintf(line + k, sizeof line - (size_t)k, "%s %u%s\n", ct_node_py_name(fn), nr, shape);
    }
    size_t l = strlen(line);
    *buf = realloc(*buf, *len + l + 1);
    memcpy(*buf + *len, line, l + 1);
    *len += l;
    if (!fn) return;
    for (int i = 0; i < ct_node_num_next(fn); i++) {
        uint32_t inr;
        const ct_node *next = ct_node_next(fn, i, &inr);
        walk(next, inr, depth + 1, buf, len);
    }
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_shared("reference/torch-2.6/seed_step_golden.json"));
    CHECK_MSG(root != NULL, "seed_step_golden.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_seed_step");
    cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    int64_t live0 = ct_testing_live_tensors();
    for (int seed = 0; seed < 3; seed++) {
        char key[8];
        snprintf(key, sizeof key, "%d", seed);
        cJSON *rec = cJSON_GetObjectItemCaseSensitive(seeds, key);
        ct_module *model = ct_example_make_model((uint64_t)seed);
        ct_tensor *x = NULL, *y = NULL;
        CHECK_INT_EQ(ct_example_make_batch((uint64_t)seed + 1, &x, &y), 0);
        compare("x", seed, x, cJSON_GetObjectItemCaseSensitive(rec, "x"), true);
        compare("y", seed, y, cJSON_GetObjectItemCaseSensitive(rec, "y"), true);
        ct_tensor *params[4];
        CHECK_INT_EQ(ct_module_parameters(model, params, 4), 4);
        cJSON *init = cJSON_GetObjectItemCaseSensitive(rec, "params_init");
        for (int i = 0; i < 4; i++) compare("params_init", seed, params[i], cJSON_GetArrayItem(init, i), true);

        ct_op_logger *fwd = ct_op_logger_new(), *bwd = ct_op_logger_new();
        ct_op_logger_push(fwd);
        ct_tensor *logits = ct_module_forward(model, x);
        ct_tensor *loss = ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0);
        ct_op_logger_pop(fwd);
        CHECK_MSG(loss != NULL, "loss: %s", ct_error_message());
        ct_op_logger_push(bwd);
        CHECK_MSG(ct_backward(loss, NULL, false) == 0, "backward: %s", ct_error_message());
        ct_op_logger_pop(bwd);
        cJSON *logs = cJSON_GetObjectItemCaseSensitive(rec, "dispatch_mode_log");
        CHECK_OP_LOG(seed_what(seed, "forward"), fwd, cJSON_GetObjectItemCaseSensitive(logs, "forward"));
        CHECK_OP_LOG(seed_what(seed, "backward"), bwd, cJSON_GetObjectItemCaseSensitive(logs, "backward"));
        compare("logits", seed, logits, cJSON_GetObjectItemCaseSensitive(rec, "logits"), false);
        double lv;
        ct_tensor_item(loss, &lv);
        CHECK_MSG(ct_test_close(lv, cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rec, "loss")), 1e-5, 1e-6),
                  "seed %d loss %.9g", seed, lv);
        cJSON *grads = cJSON_GetObjectItemCaseSensitive(rec, "grads");
        for (int i = 0; i < 4; i++) compare("grad", seed, ct_tensor_grad(params[i]), cJSON_GetArrayItem(grads, i), false);

        /* the optimizer phase: SGD(lr=0.1).step() under the same kind of logger */
        ct_optimizer *opt = ct_sgd_new(params, 4, ct_sgd_defaults(0.1));
        ct_op_logger *optl = ct_op_logger_new();
        ct_op_logger_push(optl);
        CHECK_MSG(opt && ct_optimizer_step(opt) == 0, "step: %s", ct_error_message());
        ct_op_logger_pop(optl);
        CHECK_OP_LOG(seed_what(seed, "optimizer"), optl, cJSON_GetObjectItemCaseSensitive(logs, "optimizer"));
        cJSON *after = cJSON_GetObjectItemCaseSensitive(rec, "params_after");
        for (int i = 0; i < 4; i++) compare("params_after", seed, params[i], cJSON_GetArrayItem(after, i), false);
        ct_op_logger_free(optl);
        ct_optimizer_free(opt);

        if (seed == 0) {
            char *golden = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/seed_graph.txt"), NULL);
            char *buf = NULL;
            size_t len = 0;
            walk(ct_tensor_grad_fn(loss), 0, 0, &buf, &len);
            char *repr = ct_node_repr(ct_tensor_grad_fn(loss));
            char *cut = repr ? strstr(repr, " object at") : NULL;
            if (cut) strcpy(cut, ">");
            char full[4096];
            snprintf(full, sizeof full, "%s%s\n", buf ? buf : "", repr ? repr : "");
            CHECK_STR_EQ(full, golden);
            free(buf);
            ct_free(repr);
            free(golden);
            /* sequence numbers rise in forward order; AccumulateGrad's is UINT64_MAX */
            ct_node *nll = ct_tensor_grad_fn(loss);
            uint32_t nr;
            ct_node *lsm = ct_node_next(nll, 0, &nr);
            CHECK(ct_node_sequence_nr(lsm) < ct_node_sequence_nr(nll));
        }
        ct_op_logger_free(fwd);
        ct_op_logger_free(bwd);
        ct_tensor_release(logits);
        ct_tensor_release(loss);
        ct_tensor_release(x);
        ct_tensor_release(y);
        ct_module_free(model);
    }
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_seed_step");
}
