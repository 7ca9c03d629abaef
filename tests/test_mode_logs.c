/* Ordered dispatch-mode logs against PyTorch 2.6's (../shared/reference/torch-2.6/lab00.out,
 * key_sets_and_modes.out, seed_step_golden.json and tests/golden/torch-2.6/mode_cases.json). */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

/* Finds `prefix` in text and returns the rest of that line (static buffer). */
static const char *golden_line(const char *text, const char *prefix) {
    static char line[8192];
    const char *p = strstr(text, prefix);
    if (!p) return NULL;
    p += strlen(prefix);
    size_t n = strcspn(p, "\n");
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

static void check_log(const char *name, ct_op_logger *l, const char *want) {
    char *got = ct_op_logger_format(l);
    CHECK_MSG(want != NULL, "%s: golden line missing", name);
    if (want) CHECK_MSG(got && strcmp(got, want) == 0, "%s:\n   got: %s\n  want: %s", name, got ? got : "(null)", want);
    ct_free(got);
}

typedef struct lab {
    ct_tensor *x, *w, *b;
} lab;

static lab lab_inputs(ct_dtype dt) {
    lab l;
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    l.x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    l.w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED);
    l.b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    if (dt != CT_FLOAT32) {
        ct_tensor *x = ct_to_dtype(l.x, dt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor *w = ct_to_dtype(l.w, dt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor *b = ct_to_dtype(l.b, dt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(l.x);
        ct_tensor_release(l.w);
        ct_tensor_release(l.b);
        l.x = x;
        l.w = w;
        l.b = b;
    } else {
        ct_tensor_set_requires_grad(l.x, true);
        ct_tensor_set_requires_grad(l.w, true);
        ct_tensor_set_requires_grad(l.b, true);
    }
    return l;
}

static void lab_free(lab *l) {
    ct_tensor_release(l->x);
    ct_tensor_release(l->w);
    ct_tensor_release(l->b);
}

static void lab00_logs(void) {
    char *txt = ct_test_read_file(ct_test_shared("reference/torch-2.6/lab00.out"), NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    lab l = lab_inputs(CT_FLOAT32);
    ct_op_logger *log = ct_op_logger_new();

    /* linear(x, W, b) */
    ct_op_logger_push(log);
    ct_tensor *y = ct_linear(l.x, l.w, l.b);
    ct_op_logger_pop(log);
    CHECK_MSG(y != NULL, "linear: %s", ct_error_message());
    check_log("linear", log, golden_line(txt, "linear: "));
    ct_tensor_release(y);

    /* torch.addmm(b, x, W.T): .T inside the mode is numpy_T -> permute */
    ct_op_logger_clear(log);
    ct_op_logger_push(log);
    ct_tensor *wt = ct_numpy_T(l.w);
    y = ct_addmm(l.b, l.x, wt, ct_int(1), ct_int(1));
    ct_op_logger_pop(log);
    check_log("addmm", log, golden_line(txt, "addmm: "));
    ct_tensor_release(y);
    ct_tensor_release(wt);

    /* (x @ W.T) + b */
    ct_op_logger_clear(log);
    ct_op_logger_push(log);
    wt = ct_numpy_T(l.w);
    ct_tensor *p = ct_matmul(l.x, wt);
    y = ct_add(p, l.b, ct_int(1));
    ct_op_logger_pop(log);
    check_log("matmul+add", log, golden_line(txt, "matmul+add: "));
    ct_tensor_release(y);
    ct_tensor_release(p);
    ct_tensor_release(wt);

    /* under no_grad the autograd key still routes: the same ops */
    ct_op_logger_clear(log);
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    ct_op_logger_push(log);
    y = ct_linear(l.x, l.w, l.b);
    ct_op_logger_pop(log);
    ct_grad_mode_exit(&g);
    check_log("no_grad linear", log, golden_line(txt, "no_grad linear: "));
    CHECK(ct_tensor_grad_fn(y) == NULL);
    ct_tensor_release(y);

    /* float16 */
    lab h = lab_inputs(CT_FLOAT16);
    ct_op_logger_clear(log);
    ct_op_logger_push(log);
    y = ct_linear(h.x, h.w, h.b);
    ct_op_logger_pop(log);
    CHECK_MSG(y != NULL, "half linear: %s", ct_error_message());
    check_log("half linear", log, golden_line(txt, "half linear: "));
    ct_tensor_release(y);
    lab_free(&h);

    ct_op_logger_free(log);
    lab_free(&l);
    free(txt);
}

static void fwd_bwd_log(void) {
    char *txt = ct_test_read_file(ct_test_shared("reference/torch-2.6/key_sets_and_modes.out"), NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    lab l = lab_inputs(CT_FLOAT32);
    /* the recording ran forward+backward once (under the profiler) before the logged run, so
     * the leaves already have .grad and AccumulateGrad adds into it (add_) */
    ct_tensor *y = ct_linear(l.x, l.w, l.b);
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(s, NULL, false), 0);
    ct_tensor_release(s);
    ct_tensor_release(y);

    ct_op_logger *log = ct_op_logger_new();
    ct_op_logger_push(log);
    y = ct_linear(l.x, l.w, l.b);
    s = ct_sum(y, CT_DTYPE_UNDEFINED);
    int rc = ct_backward(s, NULL, false);
    ct_op_logger_pop(log);
    CHECK_MSG(rc == 0, "backward: %s", ct_error_message());
    check_log("fwd+bwd under mode", log, golden_line(txt, "fwd+bwd under mode: "));
    ct_op_logger_free(log);
    /* grad_fn chain: AddmmBackward0 -> (AccumulateGrad, AccumulateGrad, TBackward0) */
    ct_node *fn = ct_tensor_grad_fn(y);
    CHECK_STR_EQ(ct_node_py_name(fn), "AddmmBackward0");
    CHECK_INT_EQ(ct_node_num_next(fn), 3);
    uint32_t nr;
    CHECK_STR_EQ(ct_node_py_name(ct_node_next(fn, 0, &nr)), "AccumulateGrad");
    CHECK_STR_EQ(ct_node_py_name(ct_node_next(fn, 1, &nr)), "AccumulateGrad");
    CHECK_STR_EQ(ct_node_py_name(ct_node_next(fn, 2, &nr)), "TBackward0");
    CHECK(ct_node_variable(ct_node_next(fn, 0, &nr)) == l.b);
    ct_tensor_release(s);
    ct_tensor_release(y);
    lab_free(&l);
    free(txt);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    lab00_logs();
    fwd_bwd_log();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    CHECK_INT_EQ(ct_testing_live_nodes(), 0);
    return ct_test_finish("test_mode_logs");
}
