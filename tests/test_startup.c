/* The explicit start-up (ctorch/init.h, Note [Start-up] in src/core/startup.h): before ct_init()
 * the entry points that need the operators refuse with its error and start nothing, the ones
 * that need nothing of it work, and a seed given before it is kept; ct_init() run by two
 * threads at once and again afterwards starts the library once, and everything works after it.
 * (Also built with ThreadSanitizer by the test command.) */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"

#define NOT_STARTED " ct_init() has not been called (a program calls it once, before any other ctorch call that needs the operators)"

static char want[256];
static const char *not_started(const char *who) {
    snprintf(want, sizeof want, "%s:%s", who, NOT_STARTED);
    return want;
}

static int handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    return ct_call(op, args, rets);
}

static ct_subclass *wrapper_class;
static int wrapper_dispatch(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)cls_data;
    (void)op;
    (void)args;
    (void)rets;
    return -1;
}

/* Before ct_init(): nothing may start the library, so each of these leaves it unstarted. */
static void before_init(void) {
    static const double v[2] = {1.5, -2.0};
    const int64_t n = 2;
    /* what needs nothing of the start-up works */
    ct_tensor *a = ct_tensor_from_doubles(v, &n, 1, CT_FLOAT32);
    CHECK(a != NULL);
    CHECK_STR_EQ(ct_dtype_python_name(CT_FLOAT32), "torch.float32");
    char ks[256];
    ct_keyset_format(ct_tensor_keyset(a), ks, sizeof ks);
    CHECK_STR_EQ(ks, "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
    char *list = ct_tensor_tolist(a);
    CHECK_STR_EQ(list, "[1.5, -2.0]");
    ct_free(list);
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    CHECK(!ct_is_grad_enabled());
    CHECK_INT_EQ(ct_grad_mode_exit(&g), 0);
    int h = ct_dispatch_mode_push(handler, NULL);
    CHECK(h > 0);
    CHECK_INT_EQ(ct_dispatch_mode_pop(h), 0);
    ct_manual_seed(1234); /* kept: the start-up seeds the default generator only when nothing did */

    /* the typed wrappers: the op's slot is still empty */
    CHECK(ct_add(a, a, ct_int(1)) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("aten::add.Tensor"));
    CHECK(ct_zeros((int64_t[]){2}, 1, CT_DTYPE_UNDEFINED) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("aten::zeros"));
    CHECK(ct_cross_entropy(a, a, NULL, -100, CT_REDUCTION_MEAN, 0.0) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("aten::cross_entropy_loss"));
    /* the registry */
    CHECK(ct_op_find("aten::add.Tensor") == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_op_find"));
    CHECK_INT_EQ(ct_op_count(), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_op_count"));
    CHECK(ct_op_at(0) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_op_at"));
    CHECK(ct_op_define("startup_test::f(Tensor self) -> Tensor", "test_startup.c") == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_op_define"));
    CHECK_INT_EQ(ct_register_fallback(CT_KEY_Python, NULL, "test_startup.c"), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_register_fallback"));
    /* what the start-up's hooks serve */
    CHECK_INT_EQ(ct_tensor_set_requires_grad(a, true), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("autograd"));
    CHECK(!ct_tensor_requires_grad(a));
    CHECK(ct_profiler_start(false) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_profiler_start"));
    wrapper_class = ct_subclass_new("StartupWrapper", wrapper_dispatch, NULL, NULL);
    CHECK(wrapper_class != NULL);
    CHECK(ct_subclass_make_wrapper(wrapper_class, (int64_t[]){2}, NULL, 1, 0, CT_FLOAT32, false, NULL) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_subclass_make_wrapper"));
    CHECK(ct_subclass_make_dense(wrapper_class, a) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_subclass_make_dense"));
    CHECK(ct_backends_cpu_capability() == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, not_started("ct_backends_cpu_capability"));
    ct_tensor_release(a);
}

/* ---- ct_init() from two threads at once ---- */

static pthread_barrier_t together;
typedef struct starter {
    int rc, add_rc;
    float sum;
} starter;

static void *start_and_add(void *p) {
    starter *s = p;
    pthread_barrier_wait(&together);
    s->rc = ct_init();
    static const double v[2] = {1.5, -2.0};
    const int64_t n = 2;
    ct_tensor *a = ct_tensor_from_doubles(v, &n, 1, CT_FLOAT32);
    ct_tensor *r = a ? ct_add(a, a, ct_int(1)) : NULL;
    s->add_rc = r ? 0 : -1;
    s->sum = r ? ((const float *)ct_tensor_data_ptr(r))[0] + ((const float *)ct_tensor_data_ptr(r))[1] : 0;
    ct_tensor_release(r);
    ct_tensor_release(a);
    return NULL;
}

static void two_threads_at_once(void) {
    pthread_t th[2];
    starter s[2];
    memset(s, 0, sizeof s);
    pthread_barrier_init(&together, NULL, 2);
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, start_and_add, &s[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&together);
    for (int i = 0; i < 2; i++) {
        CHECK_INT_EQ(s[i].rc, 0);
        CHECK_INT_EQ(s[i].add_rc, 0);
        CHECK_MSG(s[i].sum == -1.0f, "thread %d: 2 * (1.5 + -2.0) = %g", i, (double)s[i].sum);
    }
}

/* After it: everything refused before works, and a second call changes nothing. */
static void after_init(void) {
    int count = ct_op_count();
    CHECK(count > 100);
    const ct_op *add = ct_op_find("aten::add.Tensor");
    CHECK(add != NULL && ct_op_at(0) != NULL);
    CHECK_INT_EQ(ct_init(), 0);
    CHECK_INT_EQ(ct_op_count(), count); /* nothing defined twice */
    CHECK(ct_op_find("aten::add.Tensor") == add);
    /* the seed given before ct_init() was kept */
    CHECK_MSG(ct_generator_initial_seed(ct_default_generator()) == 1234, "initial_seed %llu",
              (unsigned long long)ct_generator_initial_seed(ct_default_generator()));
    ct_tensor *r1 = ct_rand((int64_t[]){3}, 1, CT_DTYPE_UNDEFINED);
    ct_manual_seed(1234);
    ct_tensor *r2 = ct_rand((int64_t[]){3}, 1, CT_DTYPE_UNDEFINED);
    CHECK(r1 && r2 && memcmp(ct_tensor_data_ptr(r1), ct_tensor_data_ptr(r2), 3 * sizeof(float)) == 0);
    ct_tensor_release(r1);
    ct_tensor_release(r2);
    const char *cap = ct_backends_cpu_capability();
    CHECK(cap && (strcmp(cap, "AVX512") == 0 || strcmp(cap, "AVX2") == 0 || strcmp(cap, "NO AVX") == 0));
    static const double v[2] = {1.5, -2.0};
    const int64_t n = 2;
    ct_tensor *a = ct_tensor_from_doubles(v, &n, 1, CT_FLOAT32);
    CHECK_INT_EQ(ct_tensor_set_requires_grad(a, true), 0);
    ct_tensor *w = ct_subclass_make_dense(wrapper_class, a);
    CHECK(w != NULL);
    ct_tensor_release(w);
    ct_profiler *p = ct_profiler_start(false);
    CHECK(p != NULL);
    ct_tensor *y = ct_mul(a, a);
    CHECK(y != NULL && ct_tensor_grad_fn(y) != NULL);
    ct_tensor_release(y);
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    CHECK(ct_profiler_num_events(p) > 0);
    ct_profiler_free(p);
    ct_tensor_release(a);
    ct_subclass_free(wrapper_class);
}

int main(void) {
    int64_t live0 = ct_testing_live_tensors();
    before_init();
    two_threads_at_once();
    after_init();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    return ct_test_finish("test_startup");
}
