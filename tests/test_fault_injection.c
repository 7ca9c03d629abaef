/* Allocation failures at every step of a representative workload (SQLite-style): the N-th
 * allocation fails for N = 1, 2, ...; each run must either succeed or fail with an error, and
 * never crash or leak (live tensors, storages and nodes return to where they were; ASan checks
 * the rest in the sanitizer build). */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/testing.h"
#include "harness.h"

/* linear + relu + cross_entropy forward and backward under a logging mode */
static int workload(void) {
    int rc = -1;
    ct_module *model = NULL;
    ct_tensor *x = NULL, *t = NULL, *logits = NULL, *loss = NULL;
    ct_op_logger *log = ct_op_logger_new();
    if (!log) return -1;
    ct_manual_seed(3);
    ct_module *m1 = ct_nn_linear(6, 5, true), *m2 = ct_nn_relu(), *m3 = ct_nn_linear(5, 3, true);
    if (!m1 || !m2 || !m3) {
        ct_module_free(m1);
        ct_module_free(m2);
        ct_module_free(m3);
        goto done;
    }
    ct_module *mods[3] = {m1, m2, m3};
    model = ct_nn_sequential(mods, 3);
    if (!model) goto done;
    int64_t xs[2] = {4, 6}, ts[1] = {4};
    x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    t = ct_randint(0, 3, ts, 1, CT_DTYPE_UNDEFINED);
    if (!x || !t) goto done;
    if (ct_op_logger_push(log) != 0) goto done;
    logits = ct_module_forward(model, x);
    loss = logits ? ct_cross_entropy(logits, t, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int brc = loss ? ct_backward(loss, NULL, false) : -1;
    ct_op_logger_pop(log);
    if (!loss || brc != 0) goto done;
    char *repr = ct_tensor_repr(loss);
    if (!repr) goto done;
    ct_free(repr);
    rc = 0;
done:
    ct_tensor_release(loss);
    ct_tensor_release(logits);
    ct_tensor_release(x);
    ct_tensor_release(t);
    ct_module_free(model);
    ct_op_logger_free(log);
    return rc;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    /* one clean run first: it creates the lazily built tables */
    CHECK_INT_EQ(workload(), 0);
    int64_t t0 = ct_testing_live_tensors(), s0 = ct_testing_live_storages(), n0 = ct_testing_live_nodes();
    int64_t before = ct_testing_alloc_count();
    CHECK_INT_EQ(workload(), 0);
    int64_t per_run = ct_testing_alloc_count() - before;
    CHECK(per_run > 50);
    int failures = 0, successes = 0;
    for (int64_t n = 1; n <= per_run + 5; n++) {
        ct_error_clear();
        ct_testing_fail_alloc_after(n);
        int rc = workload();
        ct_testing_fail_alloc_after(0);
        if (rc == 0) {
            successes++;
        } else {
            failures++;
            CHECK_MSG(ct_error_code() != CT_OK, "allocation %lld failed without an error set", (long long)n);
        }
        CHECK_MSG(ct_testing_live_tensors() == t0 && ct_testing_live_storages() == s0 && ct_testing_live_nodes() == n0,
                  "allocation %lld: leaked %lld tensors, %lld storages, %lld nodes", (long long)n,
                  (long long)(ct_testing_live_tensors() - t0), (long long)(ct_testing_live_storages() - s0),
                  (long long)(ct_testing_live_nodes() - n0));
        CHECK_MSG(ct_dispatch_mode_stack_len() == 0, "allocation %lld: a mode was left on the stack", (long long)n);
    }
    printf("workload: %lld allocations; %d runs failed cleanly, %d succeeded\n", (long long)per_run, failures, successes);
    CHECK(failures > 0);
    ct_error_clear();
    return ct_test_finish("test_fault_injection");
}
