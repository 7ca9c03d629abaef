/* Small programs run under a logging dispatch mode, against PyTorch 2.6's recordings
 * (tests/golden/torch-2.6/mode_cases.json from tests/golden/record/mode_cases.py): the ordered
 * op log must be identical, forward values and gradients equal within rtol 1e-5, atol 1e-6.
 * Each case below is the C twin of the Python function of the same name. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

#define MAXL 8

typedef struct run {
    ct_op_logger *log;
    ct_tensor *out;
    ct_tensor *leaves[MAXL];
    int nleaves;
    ct_tensor *keep[16]; /* other tensors to release at the end */
    int nkeep;
} run;

static ct_tensor *keep(run *r, ct_tensor *t) {
    if (r->nkeep < 16) r->keep[r->nkeep++] = t;
    return t;
}

static ct_tensor *randn_(int n, ...) {
    int64_t s[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) s[i] = va_arg(ap, int64_t);
    va_end(ap);
    return ct_randn(s, n, CT_DTYPE_UNDEFINED);
}

/* rg(*sizes): randn(...).requires_grad_() registered as a leaf of the run */
static ct_tensor *leaf(run *r, ct_tensor *t) {
    ct_tensor_set_requires_grad(t, true);
    r->leaves[r->nleaves++] = t;
    return t;
}
#define RG(r, ...) leaf(r, randn_(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), __VA_ARGS__))
#define PLAIN(r, ...) keep(r, randn_(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), __VA_ARGS__))

static void on(run *r) { ct_op_logger_push(r->log); }
static void off(run *r) { ct_op_logger_pop(r->log); }

/* y.sum().backward() */
static void sum_backward(run *r, ct_tensor *y) {
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    CHECK_MSG(s && ct_backward(s, NULL, false) == 0, "backward: %s", ct_error_message());
    ct_tensor_release(s);
    (void)r;
}

static ct_tensor *scalar_mul(ct_tensor *x, double v) {
    ct_tensor *w = ct_wrapped_number(ct_double(v));
    ct_tensor *r = ct_mul(x, w);
    ct_tensor_release(w);
    return r;
}

static ct_tensor *scalar_div(ct_tensor *x, double v) {
    ct_tensor *w = ct_wrapped_number(ct_double(v));
    ct_tensor *r = ct_div(x, w);
    ct_tensor_release(w);
    return r;
}

static void linear_3d(run *r) {
    ct_tensor *x = RG(r, 2, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    r->out = ct_linear(x, W, b);
    sum_backward(r, r->out);
    off(r);
}

static void linear_no_bias(run *r) {
    ct_tensor *x = RG(r, 4, 8), *W = RG(r, 5, 8);
    on(r);
    r->out = ct_linear(x, W, NULL);
    sum_backward(r, r->out);
    off(r);
}

static void linear_1d(run *r) {
    ct_tensor *x = RG(r, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    r->out = ct_linear(x, W, b);
    sum_backward(r, r->out);
    off(r);
}

static void linear_inference_mode(run *r) {
    ct_tensor *x = PLAIN(r, 4, 8), *W = PLAIN(r, 5, 8), *b = PLAIN(r, 5);
    ct_grad_mode_guard g;
    ct_inference_mode_enter(&g);
    on(r);
    r->out = ct_linear(x, W, b);
    off(r);
    ct_grad_mode_exit(&g);
}

static void relu_cross_entropy(run *r) {
    ct_tensor *x = PLAIN(r, 6, 8);
    ct_tensor *W1 = RG(r, 16, 8), *b1 = RG(r, 16), *W2 = RG(r, 4, 16), *b2 = RG(r, 4);
    int64_t six = 6;
    ct_tensor *t = keep(r, ct_randint(0, 4, &six, 1, CT_DTYPE_UNDEFINED));
    on(r);
    ct_tensor *h1 = ct_linear(x, W1, b1);
    ct_tensor *h = ct_relu(h1);
    ct_tensor *logits = ct_linear(h, W2, b2);
    r->out = ct_cross_entropy_loss(logits, t, NULL, 1, -100, 0.0);
    CHECK_MSG(r->out && ct_backward(r->out, NULL, false) == 0, "%s", ct_error_message());
    off(r);
    ct_tensor_release(h1);
    ct_tensor_release(h);
    ct_tensor_release(logits);
}

static void second_backward_accumulates(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    ct_tensor *y0 = ct_linear(x, W, b);
    sum_backward(r, y0);
    ct_tensor_release(y0);
    on(r);
    r->out = ct_linear(x, W, b);
    sum_backward(r, r->out);
    off(r);
}

static void retain_graph(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    ct_tensor *l = ct_linear(x, W, b);
    ct_tensor *h = ct_relu(l);
    r->out = ct_sum(h, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(r->out, NULL, true), 0);
    CHECK_MSG(ct_backward(r->out, NULL, false) == 0, "%s", ct_error_message());
    off(r);
    ct_tensor_release(l);
    ct_tensor_release(h);
}

static void numpy_T_addmm(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    ct_tensor *wt = ct_numpy_T(W);
    r->out = ct_addmm(b, x, wt, ct_int(1), ct_int(1));
    sum_backward(r, r->out);
    off(r);
    ct_tensor_release(wt);
}

static void matmul_3d_2d(run *r) {
    ct_tensor *x = RG(r, 2, 3, 8), *W = RG(r, 8, 5);
    on(r);
    r->out = ct_matmul(x, W);
    sum_backward(r, r->out);
    off(r);
}

static void matmul_1d_2d(run *r) {
    ct_tensor *v = RG(r, 8), *W = RG(r, 8, 5);
    on(r);
    r->out = ct_matmul(v, W);
    sum_backward(r, r->out);
    off(r);
}

static void matmul_t_add(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    ct_tensor *wt = ct_numpy_T(W);
    ct_tensor *p = ct_matmul(x, wt);
    r->out = ct_add(p, b, ct_int(1));
    sum_backward(r, r->out);
    off(r);
    ct_tensor_release(wt);
    ct_tensor_release(p);
}

static void sum_dim(run *r) {
    ct_tensor *x = RG(r, 4, 6);
    int64_t one = 1;
    on(r);
    r->out = ct_sum_dim(x, &one, 1, false, CT_DTYPE_UNDEFINED);
    sum_backward(r, r->out);
    off(r);
}

static void mul_div_sub_broadcast(run *r) {
    ct_tensor *a = RG(r, 3, 4), *c = RG(r, 4);
    on(r);
    ct_tensor *m = ct_mul(a, c), *d = ct_div(a, c);
    ct_tensor *s = ct_sub(m, d, ct_int(1));
    r->out = ct_sum(s, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(r->out, NULL, false), 0);
    off(r);
    ct_tensor_release(m);
    ct_tensor_release(d);
    ct_tensor_release(s);
}

static void log_softmax_nll_weighted(run *r) {
    ct_tensor *x = RG(r, 5, 3);
    int64_t five = 5, three = 3;
    ct_tensor *t = keep(r, ct_randint(0, 3, &five, 1, CT_DTYPE_UNDEFINED));
    ct_tensor *w = keep(r, ct_rand(&three, 1, CT_DTYPE_UNDEFINED));
    on(r);
    ct_tensor *ls = ct_log_softmax(x, 1, CT_DTYPE_UNDEFINED);
    r->out = ct_nll_loss_nd(ls, t, w, 1, 1);
    CHECK_MSG(r->out && ct_backward(r->out, NULL, false) == 0, "%s", ct_error_message());
    off(r);
    ct_tensor_release(ls);
}

static void detach_and_clone(run *r) {
    ct_tensor *x = RG(r, 3, 4);
    on(r);
    ct_tensor *d = ct_detach(x), *c = ct_clone(x, CT_MEMORY_FORMAT_NONE);
    ct_tensor *s = ct_add(c, d, ct_int(1));
    r->out = ct_sum(s, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(r->out, NULL, false), 0);
    off(r);
    ct_tensor_release(d);
    ct_tensor_release(c);
    ct_tensor_release(s);
}

static void view_reshape(run *r) {
    ct_tensor *x = RG(r, 4, 6);
    int64_t s1[2] = {2, 12}, s2[2] = {3, 8};
    on(r);
    ct_tensor *v = ct_view(x, s1, 2), *rs = ct_reshape(v, s2, 2);
    r->out = ct_t(rs);
    sum_backward(r, r->out);
    off(r);
    ct_tensor_release(v);
    ct_tensor_release(rs);
}

static void to_float64(run *r) {
    ct_tensor *x = RG(r, 3, 4);
    on(r);
    r->out = ct_to_dtype(x, CT_FLOAT64, false, false, CT_MEMORY_FORMAT_NONE);
    sum_backward(r, r->out);
    off(r);
}

static void expand_backward(run *r) {
    ct_tensor *b = RG(r, 3, 1);
    int64_t s[2] = {3, 4};
    on(r);
    r->out = ct_expand(b, s, 2, false);
    sum_backward(r, r->out);
    off(r);
}

static void neg_mul_scalar(run *r) {
    ct_tensor *x = RG(r, 5);
    on(r);
    ct_tensor *n = ct_neg(x), *m = scalar_mul(n, 3.0), *d = scalar_div(x, 2.0);
    ct_tensor *s = ct_add(m, d, ct_int(1));
    r->out = ct_sum(s, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(r->out, NULL, false), 0);
    off(r);
    ct_tensor_release(n);
    ct_tensor_release(m);
    ct_tensor_release(d);
    ct_tensor_release(s);
}

static void no_grad_then_backward(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    ct_tensor *z = ct_linear(x, W, b);
    ct_grad_mode_exit(&g);
    r->out = ct_linear(x, W, b);
    ct_tensor *p = ct_mul(r->out, z);
    sum_backward(r, p);
    off(r);
    ct_tensor_release(z);
    ct_tensor_release(p);
}

static void multi_root_backward(run *r) {
    ct_tensor *x = RG(r, 3, 8), *W = RG(r, 5, 8), *b = RG(r, 5);
    on(r);
    r->out = ct_linear(x, W, b);
    ct_tensor *a = ct_sum(r->out, CT_DTYPE_UNDEFINED);
    ct_tensor *sq = ct_mul(r->out, r->out);
    ct_tensor *c = ct_sum(sq, CT_DTYPE_UNDEFINED);
    ct_tensor *roots[2] = {a, c};
    CHECK_MSG(ct_autograd_backward(roots, NULL, 2, false) == 0, "%s", ct_error_message());
    off(r);
    ct_tensor_release(a);
    ct_tensor_release(sq);
    ct_tensor_release(c);
}

static void multi_root_leaf_and_grads(run *r) {
    ct_tensor *x = RG(r, 4), *w = RG(r, 4);
    on(r);
    r->out = ct_mul(x, w);
    int64_t four = 4;
    ct_tensor *g1 = ct_ones(&four, 1, CT_DTYPE_UNDEFINED), *g2 = ct_full(&four, 1, ct_double(2.0), CT_DTYPE_UNDEFINED);
    ct_tensor *roots[2] = {r->out, x}, *grads[2] = {g1, g2};
    CHECK_MSG(ct_autograd_backward(roots, grads, 2, false) == 0, "%s", ct_error_message());
    off(r);
    ct_tensor_release(g1);
    ct_tensor_release(g2);
}

typedef struct scenario {
    const char *name;
    void (*fn)(run *);
} scenario;

static const scenario scenarios[] = {
    {"linear_3d", linear_3d},
    {"linear_no_bias", linear_no_bias},
    {"linear_1d", linear_1d},
    {"linear_inference_mode", linear_inference_mode},
    {"relu_cross_entropy", relu_cross_entropy},
    {"second_backward_accumulates", second_backward_accumulates},
    {"retain_graph", retain_graph},
    {"numpy_T_addmm", numpy_T_addmm},
    {"matmul_3d_2d", matmul_3d_2d},
    {"matmul_1d_2d", matmul_1d_2d},
    {"matmul_t_add", matmul_t_add},
    {"sum_dim", sum_dim},
    {"mul_div_sub_broadcast", mul_div_sub_broadcast},
    {"log_softmax_nll_weighted", log_softmax_nll_weighted},
    {"detach_and_clone", detach_and_clone},
    {"view_reshape", view_reshape},
    {"to_float64", to_float64},
    {"expand_backward", expand_backward},
    {"neg_mul_scalar", neg_mul_scalar},
    {"no_grad_then_backward", no_grad_then_backward},
    {"multi_root_backward", multi_root_backward},
    {"multi_root_leaf_and_grads", multi_root_leaf_and_grads},
};

static void compare_values(const char *what, const char *name, ct_tensor *t, cJSON *want) {
    if (!want || cJSON_IsNull(want)) {
        CHECK_MSG(t == NULL, "%s %s: PyTorch has none, ctorch has a tensor", name, what);
        return;
    }
    CHECK_MSG(t != NULL, "%s %s: missing", name, what);
    if (!t) return;
    int n = cJSON_GetArraySize(want);
    CHECK_MSG(ct_tensor_numel(t) == n, "%s %s: %lld values, PyTorch %d", name, what, (long long)ct_tensor_numel(t), n);
    if (ct_tensor_numel(t) != n) return;
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    ct_tensor_to_doubles(t, v, n);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (!ct_test_close(v[i], cJSON_GetNumberValue(cJSON_GetArrayItem(want, i)), 1e-5, 1e-6)) bad++;
    CHECK_MSG(bad == 0, "%s %s: %d of %d values differ", name, what, bad, n);
    free(v);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/mode_cases.json"));
    CHECK_MSG(root != NULL, "mode_cases.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_mode_cases");
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int64_t live0 = ct_testing_live_tensors();
    CHECK_INT_EQ(cJSON_GetArraySize(cases), (int)(sizeof scenarios / sizeof scenarios[0]));
    for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
        const scenario *sc = &scenarios[k];
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, sc->name);
        CHECK_MSG(want != NULL, "%s: not recorded", sc->name);
        if (!want) continue;
        run r;
        memset(&r, 0, sizeof r);
        r.log = ct_op_logger_new();
        ct_manual_seed(0);
        sc->fn(&r);
        CHECK_MSG(ct_dispatch_mode_stack_len() == 0, "%s left a mode on the stack", sc->name);
        /* the log */
        cJSON *wl = cJSON_GetObjectItemCaseSensitive(want, "log");
        int n = cJSON_GetArraySize(wl);
        bool same = (size_t)n == ct_op_logger_count(r.log);
        for (int i = 0; same && i < n; i++)
            same = strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(wl, i)), ct_op_logger_get(r.log, (size_t)i)) == 0;
        if (!same) {
            char *got = ct_op_logger_format(r.log);
            char *exp = cJSON_PrintUnformatted(wl);
            CHECK_MSG(same, "%s: op log differs\n   got: %s\n  want: %s", sc->name, got, exp);
            ct_free(got);
            cJSON_free(exp);
        } else {
            CHECK(same);
        }
        compare_values("output", sc->name, r.out, cJSON_GetObjectItemCaseSensitive(want, "out"));
        cJSON *grads = cJSON_GetObjectItemCaseSensitive(want, "grads");
        CHECK_INT_EQ(cJSON_GetArraySize(grads), r.nleaves);
        for (int i = 0; i < r.nleaves; i++)
            compare_values("grad", sc->name, ct_tensor_grad(r.leaves[i]), cJSON_GetArrayItem(grads, i));
        ct_tensor_release(r.out);
        for (int i = 0; i < r.nleaves; i++) ct_tensor_release(r.leaves[i]);
        for (int i = 0; i < r.nkeep; i++) ct_tensor_release(r.keep[i]);
        ct_op_logger_free(r.log);
    }
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    cJSON_Delete(root);
    return ct_test_finish("test_mode_cases");
}
