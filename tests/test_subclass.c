/* The wrapper-subclass API (ctorch/subclass.h) with a subclass of the test's own: its key set,
 * the handler's view of each op (unwrap, run, rewrap), autograd above it (gradients come back
 * wrapped), the order PyTorch gives a dispatch mode and a subclass (mode first), errors from a
 * handler, payload ownership, and bad input. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/subclass.h"
#include "ctorch/testing.h"
#include "harness.h"

typedef struct cls_state {
    ct_subclass *cls;
    char seen[64][64];
    int n;
    int released;
    bool fail_next;
} cls_state;

static cls_state S;

static void release_payload(void *p) {
    S.released++;
    ct_tensor_release(p);
}

static ct_tensor *wrap(ct_tensor *elem, bool requires_grad) {
    ct_tensor *w = ct_subclass_make_wrapper(S.cls, ct_tensor_sizes(elem), NULL, ct_tensor_ndim(elem), 0,
                                            ct_tensor_dtype(elem), requires_grad, elem);
    if (w) ct_tensor_retain(elem);
    return w;
}

/* __torch_dispatch__: unwrap, run, record the op, rewrap */
static int handler(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets) {
    cls_state *s = cls_data;
    if (s->fail_next) {
        s->fail_next = false;
        return ct_error_set(CT_ERR_RUNTIME, "Passthrough refuses %s", ct_op_name(op));
    }
    ct_value inner[16];
    int na = ct_op_num_args(op), nr = ct_op_num_returns(op);
    for (int i = 0; i < na; i++) {
        inner[i] = args[i];
        if (args[i].tag == CT_TAG_TENSOR && ct_tensor_subclass(args[i].u.t) == s->cls)
            inner[i] = ct_tensor_value(ct_tensor_subclass_payload(args[i].u.t));
    }
    ct_value out[4];
    for (int i = 0; i < nr; i++) out[i] = ct_none();
    if (ct_call(op, inner, out) != 0) return -1;
    if (s->n < 64) snprintf(s->seen[s->n++], 64, "%s", ct_op_name(op));
    for (int i = 0; i < nr; i++) {
        if (out[i].tag == CT_TAG_TENSOR) {
            rets[i] = ct_tensor_value(wrap(out[i].u.t, false));
            ct_tensor_release(out[i].u.t);
        } else {
            rets[i] = out[i];
        }
    }
    return 0;
}

static int mode_seen;
static int count_mode(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    mode_seen++;
    return ct_call(op, args, rets); /* reaches the subclass with the mode popped */
}

static bool seen(const char *name) {
    for (int i = 0; i < S.n; i++)
        if (!strcmp(S.seen[i], name)) return true;
    return false;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    /* bad input */
    CHECK(ct_subclass_new(NULL, handler, NULL, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_subclass_new: name and handler are required");
    CHECK(ct_subclass_new("X", NULL, NULL, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_subclass_new: name and handler are required");
    int64_t two = 2;
    CHECK(ct_subclass_make_wrapper(NULL, &two, NULL, 1, 0, CT_FLOAT32, false, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_subclass_make_wrapper: class is NULL");

    S.cls = ct_subclass_new("Passthrough", handler, &S, release_payload);
    CHECK(S.cls && !strcmp(ct_subclass_name(S.cls), "Passthrough"));
    CHECK(ct_subclass_make_wrapper(S.cls, &two, NULL, 1, 0, (ct_dtype)99, false, NULL) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "ct_subclass_make_wrapper: invalid dtype 99");
    int64_t neg = -1;
    CHECK(ct_subclass_make_wrapper(S.cls, &neg, NULL, 1, 0, CT_FLOAT32, false, NULL) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");

    /* key set, identity */
    double v[2] = {1.5, -2.0};
    ct_tensor *e = ct_tensor_from_doubles(v, &two, 1, CT_FLOAT32);
    ct_tensor *w = wrap(e, true);
    CHECK(w != NULL);
    char ks[256];
    ct_keyset_format(ct_tensor_keyset(w), ks, sizeof ks);
    CHECK_STR_EQ(ks, "DispatchKeySet(CPU, Python, ADInplaceOrView, AutogradCPU, AutocastCPU, PythonTLSSnapshot)");
    CHECK(ct_tensor_subclass(w) == S.cls && ct_tensor_subclass(e) == NULL);
    CHECK(ct_tensor_subclass_payload(w) == e);

    /* autograd above the subclass: y = w * w; y.sum().backward() */
    ct_tensor *y = ct_mul(w, w);
    CHECK(y && ct_tensor_subclass(y) == S.cls);
    CHECK_STR_EQ(ct_node_name(ct_tensor_grad_fn(y)), "MulBackward0");
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    CHECK(s && ct_backward(s, NULL, false) == 0);
    ct_tensor *g = ct_tensor_grad(w);
    CHECK_MSG(g && ct_tensor_subclass(g) == S.cls, "the gradient comes back as the subclass");
    double gv[2] = {0, 0};
    CHECK(g && ct_tensor_to_doubles(ct_tensor_subclass_payload(g), gv, 2) == 0);
    CHECK(gv[0] == 3.0 && gv[1] == -4.0); /* d(w*w)/dw = 2w */
    CHECK(seen("aten::mul.Tensor") && seen("aten::sum") && seen("aten::ones_like") && seen("aten::expand"));

    /* a dispatch mode comes first; calling the op again reaches the subclass */
    S.n = 0;
    mode_seen = 0;
    int h = ct_dispatch_mode_push(count_mode, NULL);
    CHECK(h > 0);
    ct_tensor *n = ct_neg(w);
    CHECK_INT_EQ(ct_dispatch_mode_pop(h), 0);
    CHECK(n && ct_tensor_subclass(n) == S.cls);
    CHECK_INT_EQ(mode_seen, 1);
    CHECK_INT_EQ(S.n, 1);
    CHECK_STR_EQ(S.seen[0], "aten::neg");

    /* an error in the handler comes back to the caller, nothing leaks */
    S.fail_next = true;
    CHECK(ct_neg(w) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Passthrough refuses aten::neg");

    ct_tensor *all[] = {y, s, n, w};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_tensor_release(all[i]);
    ct_tensor_release(e);
    /* every wrapper released its payload */
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK(S.released >= 5);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    ct_subclass_free(S.cls);
    return ct_test_finish("test_subclass");
}
