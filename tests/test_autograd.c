/* Autograd behaviour and misuse, against PyTorch 2.6: error messages (recorded with the
 * reference runtime), grad modes and inference-mode key sets, function modes, node metadata. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/testing.h"
#include "harness.h"

static ct_tensor *rg(int64_t n) {
    ct_tensor *t = ct_randn(&n, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(t, true);
    return t;
}

static const char *VERSION_HINT =
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True).";

static void misuse(void) {
    ct_manual_seed(0);
    /* backward twice without retain_graph */
    ct_tensor *x = rg(3);
    ct_tensor *h = ct_relu(x);
    ct_tensor *two = ct_wrapped_number(ct_int(2));
    ct_tensor *m = ct_mul(h, two);
    ct_tensor *y = ct_sum(m, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(y, NULL, false), 0);
    CHECK_INT_EQ(ct_backward(y, NULL, false), -1);
    CHECK_ERROR(CT_ERR_RUNTIME,
                "Trying to backward through the graph a second time (or directly access saved tensors after they "
                "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
                "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
                "or if you need to access saved tensors after calling backward.");
    ct_tensor_release(h);
    ct_tensor_release(m);
    ct_tensor_release(y);

    /* an in-place change of a saved output */
    ct_tensor *a = rg(3);
    h = ct_relu(a);
    ct_tensor *s = ct_sum(h, CT_DTYPE_UNDEFINED);
    ct_tensor *one = ct_wrapped_number(ct_int(1));
    CHECK_INT_EQ(ct_add_(h, one, ct_int(1)), 0);
    CHECK_INT_EQ(ct_backward(s, NULL, false), -1);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "one of the variables needed for gradient computation has been modified by an inplace operation: "
             "[torch.FloatTensor [3]], which is output 0 of ReluBackward0, is at version 1; expected version 0 instead.%s",
             VERSION_HINT);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);
    ct_tensor_release(h);
    ct_tensor_release(s);

    /* an in-place change of a saved input (a leaf that does not require grad) */
    int64_t xs[2] = {2, 3}, ws[2] = {3, 4};
    ct_tensor *xx = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(xx, true);
    ct_tensor *W = ct_randn(ws, 2, CT_DTYPE_UNDEFINED);
    ct_tensor *mm = ct_mm(xx, W);
    CHECK_INT_EQ(ct_add_(W, one, ct_int(1)), 0);
    s = ct_sum(mm, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(s, NULL, false), -1);
    snprintf(msg, sizeof msg,
             "one of the variables needed for gradient computation has been modified by an inplace operation: "
             "[torch.FloatTensor [3, 4]] is at version 1; expected version 0 instead.%s",
             VERSION_HINT);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);
    ct_tensor_release(s);
    ct_tensor_release(mm);

    /* an input that is only saved for a gradient nobody needs may change freely */
    ct_tensor *q = ct_mul(xx, one);
    mm = ct_mm(q, W);
    CHECK_INT_EQ(ct_add_(q, one, ct_int(1)), 0);
    s = ct_sum(mm, CT_DTYPE_UNDEFINED);
    CHECK_MSG(ct_backward(s, NULL, false) == 0, "%s", ct_error_message());
    ct_tensor_release(s);
    ct_tensor_release(mm);
    ct_tensor_release(q);

    /* backward on a non-scalar without a gradient, with a gradient of the wrong shape */
    ct_tensor *b = ct_mul(a, two);
    CHECK_INT_EQ(ct_backward(b, NULL, false), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
    int64_t four = 4;
    ct_tensor *g4 = ct_ones(&four, 1, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(b, g4, false), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "Mismatch in shape: grad_output[0] has a shape of torch.Size([4]) and output[0] has a shape of torch.Size([3]).");
    ct_tensor_release(g4);
    ct_tensor_release(b);

    /* requires_grad on int64, on a non-leaf; backward of something without grad */
    int64_t two_n = 2;
    ct_tensor *li = ct_zeros(&two_n, 1, CT_INT64);
    CHECK_INT_EQ(ct_tensor_set_requires_grad(li, true), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "only Tensors of floating point dtype can require gradients");
    ct_tensor *ls = ct_sum(li, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(ls, NULL, false), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "element 0 of tensors does not require grad and does not have a grad_fn");
    ct_tensor_release(ls);
    ct_tensor_release(li);
    b = ct_mul(a, two);
    CHECK_INT_EQ(ct_tensor_set_requires_grad(b, false), -1);
    CHECK_ERROR(CT_ERR_RUNTIME,
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
                "subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    ct_tensor_release(b);
    /* in-place on a leaf that requires grad */
    CHECK_INT_EQ(ct_add_(a, one, ct_int(1)), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    /* ... which is fine under no_grad (the optimizer's case) */
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    CHECK_INT_EQ(ct_add_(a, one, ct_int(1)), 0);
    ct_grad_mode_exit(&g);
    CHECK_INT_EQ(ct_tensor_version(a), 1); /* factories leave version 0; one add_ */
    CHECK_INT_EQ(ct_backward(NULL, NULL, false), -1);
    CHECK_ERROR(CT_ERR_VALUE, "backward: tensor 0 is NULL");

    ct_tensor_release(one);
    ct_tensor_release(two);
    ct_tensor_release(x);
    ct_tensor_release(a);
    ct_tensor_release(xx);
    ct_tensor_release(W);
}

static void grad_modes(void) {
    char buf[512];
    ct_tensor *x = rg(3);
    ct_grad_mode_guard g;
    /* no_grad: the exclude set is unchanged, no graph */
    ct_keyset exc0 = ct_tls_excluded();
    ct_no_grad_enter(&g);
    CHECK(!ct_is_grad_enabled());
    CHECK(ct_tls_excluded() == exc0);
    ct_tensor *y = ct_relu(x);
    CHECK(ct_tensor_grad_fn(y) == NULL && !ct_tensor_requires_grad(y));
    ct_grad_mode_exit(&g);
    ct_tensor_release(y);
    CHECK(ct_is_grad_enabled());
    /* inference mode: autograd keys excluded, new tensors without ADInplaceOrView/AutogradCPU */
    ct_inference_mode_enter(&g);
    CHECK(ct_is_inference_mode_enabled());
    ct_keyset_format(ct_tls_excluded(), buf, sizeof buf);
    char *ksm = ct_test_read_file(ct_test_shared("reference/torch-2.6/key_sets_and_modes.out"), NULL);
    char line[1024];
    snprintf(line, sizeof line, "exclude inference_mode: %s\n", buf);
    CHECK_MSG(ksm && strstr(ksm, line), "inference-mode exclude set: %s", buf);
    int64_t two = 2;
    ct_tensor *t = ct_randn(&two, 1, CT_DTYPE_UNDEFINED);
    ct_keyset_format(ct_tensor_keyset(t), buf, sizeof buf);
    CHECK_STR_EQ(buf, "DispatchKeySet(CPU, AutocastCPU)");
    snprintf(line, sizeof line, "inference tensor keys: %s\n", buf);
    CHECK(ksm && strstr(ksm, line));
    CHECK(ct_tensor_is_inference(t));
    y = ct_relu(x);
    CHECK(ct_tensor_grad_fn(y) == NULL);
    ct_tensor_release(y);
    ct_grad_mode_exit(&g);
    CHECK(!ct_is_inference_mode_enabled());
    CHECK_INT_EQ(ct_tensor_set_requires_grad(t, true), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
    ct_tensor_release(t);
    free(ksm);
    ct_tensor_release(x);
}

static void function_modes(void) {
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    ct_function_logger *fl = ct_function_logger_new();
    ct_function_logger_push(fl);
    ct_tensor *y = ct_linear(x, w, b);
    ct_function_logger_pop(fl);
    /* key_sets_and_modes.out: function mode: ['linear'] */
    CHECK_INT_EQ(ct_function_logger_count(fl), 1);
    CHECK_STR_EQ(ct_function_logger_get(fl, 0), "linear");
    ct_tensor_release(y);
    ct_function_logger_free(fl);
    /* the seed model: ['linear', 'relu', 'linear', 'cross_entropy'] */
    ct_manual_seed(0);
    ct_module *mods[3] = {ct_nn_linear(16, 32, true), ct_nn_relu(), ct_nn_linear(32, 4, true)};
    ct_module *model = ct_nn_sequential(mods, 3);
    int64_t is[2] = {8, 16}, ts[1] = {8};
    ct_tensor *in = ct_randn(is, 2, CT_DTYPE_UNDEFINED), *tg = ct_randint(0, 4, ts, 1, CT_DTYPE_UNDEFINED);
    fl = ct_function_logger_new();
    ct_function_logger_push(fl);
    ct_tensor *logits = ct_module_forward(model, in);
    ct_tensor *loss = ct_cross_entropy(logits, tg, NULL, -100, CT_REDUCTION_MEAN, 0.0);
    ct_function_logger_pop(fl);
    const char *want[] = {"linear", "relu", "linear", "cross_entropy"};
    CHECK_INT_EQ(ct_function_logger_count(fl), 4);
    for (int i = 0; i < 4; i++) CHECK_STR_EQ(ct_function_logger_get(fl, (size_t)i), want[i]);
    ct_function_logger_free(fl);
    CHECK_INT_EQ(ct_function_mode_pop(1), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "trying to pop from empty mode stack"); /* PyTorch says so for both stacks */
    CHECK_INT_EQ(ct_dispatch_mode_pop(1), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    ct_tensor_release(logits);
    ct_tensor_release(loss);
    ct_tensor_release(in);
    ct_tensor_release(tg);
    ct_module_free(model);
    ct_tensor_release(x);
    ct_tensor_release(w);
    ct_tensor_release(b);
}

static int nested_outer(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    ct_op_logger *inner = ud;
    /* while this handler runs, the outer mode is popped: the call reaches the inner logger */
    (void)inner;
    CHECK_INT_EQ(ct_dispatch_mode_stack_len(), 1);
    return ct_call(op, args, rets);
}

static void nested_modes(void) {
    ct_op_logger *inner = ct_op_logger_new();
    ct_tensor *x = rg(3);
    ct_op_logger_push(inner);
    int outer = ct_dispatch_mode_push(nested_outer, inner);
    CHECK(outer > 0);
    CHECK(ct_keyset_has(ct_tls_included(), CT_KEY_Python));
    ct_tensor *y = ct_relu(x);
    /* the inner logger cannot be exited while the outer mode is innermost: nothing is popped */
    CHECK_INT_EQ(ct_op_logger_pop(inner), -1);
    CHECK_INT_EQ(ct_dispatch_mode_stack_len(), 2);
    char msg[160];
    snprintf(msg, sizeof msg, "ct_dispatch_mode_pop: dispatch mode %d is not the innermost dispatch mode (%d is); modes are exited in "
             "reverse order of entering",
             outer - 1, outer);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);
    CHECK_INT_EQ(ct_dispatch_mode_pop(outer), 0);
    CHECK_INT_EQ(ct_dispatch_mode_pop(outer), -1); /* a handle pops once */
    CHECK_INT_EQ(ct_op_logger_pop(inner), 0);
    CHECK(!ct_keyset_has(ct_tls_included(), CT_KEY_Python));
    CHECK(!ct_keyset_has(ct_tls_included(), CT_KEY_PythonTLSSnapshot));
    /* the inner mode sees relu (and the detach of the saved output) */
    CHECK(ct_op_logger_count(inner) >= 1);
    CHECK_STR_EQ(ct_op_logger_get(inner, 0), "aten.relu.default");
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_op_logger_free(inner);
}

/* a CPU detach that hands back its input: ADInplaceOrView must copy it, since its caller holds
 * it too */
static int detach_returns_input(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_tensor_value(ct_tensor_retain(args[0].u.t));
    return 0;
}

/* detach: a new tensor over the same data, without history, whose version counter is its
 * input's (so an in-place change through it is seen by the graph that saved the input), also
 * when ADInplaceOrView keeps the header the kernel below it made (Note [A detached copy of a
 * tensor nobody else holds]) */
static void detach_shares_version(void) {
    ct_manual_seed(0);
    ct_tensor *x = rg(3);
    ct_tensor *y = ct_detach(x);
    CHECK(y != NULL && y != x);
    CHECK(!ct_tensor_requires_grad(y));
    CHECK(ct_tensor_grad_fn(y) == NULL);
    CHECK(ct_tensor_data_ptr(y) == ct_tensor_data_ptr(x));
    ct_tensor *yy = ct_detach(y); /* a detach of a detach: a third header, the same counter */
    CHECK(yy != NULL && yy != y && yy != x);
    int64_t v = ct_tensor_version(x);
    ct_tensor *two = ct_wrapped_number(ct_int(2));
    CHECK_INT_EQ(ct_mul_(yy, two), 0);
    CHECK_INT_EQ(ct_tensor_version(x), v + 1);
    CHECK_INT_EQ(ct_tensor_version(y), v + 1);

    ct_tensor *e = ct_sqrt(x); /* saves its output */
    ct_tensor *d = ct_detach(e);
    CHECK_INT_EQ(ct_mul_(d, two), 0);
    ct_tensor *s = ct_sum(e, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(s, NULL, false), -1);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "one of the variables needed for gradient computation has been modified by an inplace operation: "
             "[torch.FloatTensor [3]], which is output 0 of SqrtBackward0, is at version 1; expected version 0 instead.%s",
             VERSION_HINT);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);

    const ct_op *det = ct_op_find("aten::detach");
    CHECK_INT_EQ(ct_register_kernel(det, CT_KEY_CPU, detach_returns_input, CT_HERE), 0);
    ct_tensor *z = ct_detach(x);
    CHECK(z != NULL && z != x);
    CHECK(!ct_tensor_requires_grad(z));
    CHECK(ct_tensor_requires_grad(x));
    int64_t three = 3;
    ct_tensor *plain = ct_ones(&three, 1, CT_DTYPE_UNDEFINED); /* no autograd metadata */
    ct_tensor *z2 = ct_detach(plain);
    CHECK(z2 != NULL && z2 != plain);
    CHECK_INT_EQ(ct_deregister_kernel(det, CT_KEY_CPU), 0);
    ct_tensor_release(z2);
    ct_tensor_release(plain);
    ct_tensor_release(z);
    ct_tensor *ts[] = {x, y, yy, two, e, d, s};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
}

/* Tensor.data and its setter as PyTorch 2.6 has them (the values of tests/python/misuse_cases.py's
 * autograd.data_* cases, recorded there): a copy with its own version counter and no history;
 * the setter keeps autograd metadata and the version counter, and takes any geometry. */
static void tensor_data(void) {
    int64_t two = 2, three = 3, five[5] = {2, 2, 2, 2, 2};
    ct_tensor *x = ct_ones(&two, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(x, true);
    ct_tensor *d = ct_tensor_data(x);
    CHECK(d && !ct_tensor_requires_grad(d) && ct_tensor_is_leaf(d) && ct_tensor_grad_fn(d) == NULL);
    CHECK(ct_tensor_shares_storage(d, x));
    CHECK_INT_EQ(ct_mul_scalar_(d, ct_int(3)), 0);
    CHECK_INT_EQ(ct_tensor_version(x), 0);
    CHECK_INT_EQ(ct_tensor_version(d), 1);
    double v[2];
    CHECK_INT_EQ(ct_tensor_to_doubles(x, v, 2), 0);
    CHECK(v[0] == 3.0 && v[1] == 3.0);

    /* five dimensions in, then two again: the header's arrays go to a block and back */
    ct_tensor *big = ct_zeros(five, 5, CT_DTYPE_UNDEFINED), *small = ct_zeros(&three, 1, CT_FLOAT64);
    CHECK_INT_EQ(ct_tensor_set_data(x, big), 0);
    CHECK_INT_EQ(ct_tensor_ndim(x), 5);
    CHECK_INT_EQ(ct_tensor_set_data(x, small), 0);
    CHECK_INT_EQ(ct_tensor_ndim(x), 1);
    CHECK_INT_EQ(ct_tensor_sizes(x)[0], 3);
    CHECK(ct_tensor_dtype(x) == CT_FLOAT64 && ct_tensor_requires_grad(x) && ct_tensor_is_leaf(x));
    CHECK_INT_EQ(ct_tensor_version(x), 0);
    CHECK(ct_tensor_shares_storage(x, small));
    /* setting a tensor's data to itself changes nothing */
    CHECK_INT_EQ(ct_tensor_set_data(small, small), 0);
    ct_tensor *ints = ct_zeros(&three, 1, CT_INT64);
    CHECK_INT_EQ(ct_tensor_set_data(x, ints), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "data set to a tensor that requires gradients must be floating point or complex dtype");

    /* _base: a view's, through a view of a view; none for .data's copy */
    ct_tensor *a = ct_arange(ct_int(6), CT_FLOAT32);
    int64_t s23[2] = {2, 3};
    ct_tensor *av = ct_view(a, s23, 2), *row = ct_select(av, 0, 0), *rd = ct_tensor_data(row);
    CHECK(ct_tensor_base(row) == a && ct_tensor_base(av) == a && ct_tensor_base(a) == NULL && ct_tensor_base(rd) == NULL);
    ct_tensor *ts[] = {x, d, big, small, ints, a, av, row, rd};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) ct_tensor_release(ts[i]);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    misuse();
    grad_modes();
    function_modes();
    nested_modes();
    detach_shares_version();
    tensor_data();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    return ct_test_finish("test_autograd");
}
