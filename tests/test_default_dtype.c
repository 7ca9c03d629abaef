/* ct_set_default_dtype (torch.set_default_dtype): a floating dtype becomes what the factories,
 * torch.tensor's inference and true division pick without a dtype, on every thread (PyTorch's
 * default is one for the process); another dtype is PyTorch's TypeError and leaves it alone. The
 * Python front-end's answers are compared with PyTorch 2.6's by python_cpu_only_api; this checks
 * the C API under it. */
#include <pthread.h>

#include "ctorch/ctorch.h"
#include "harness.h"

static void *zeros_dtype(void *out) {
    int64_t two = 2;
    ct_tensor *t = ct_zeros(&two, 1, CT_DTYPE_UNDEFINED);
    *(ct_dtype *)out = t ? ct_tensor_dtype(t) : CT_DTYPE_UNDEFINED;
    ct_tensor_release(t);
    return NULL;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0);
    CHECK_INT_EQ(ct_default_dtype(), CT_FLOAT32);
    ct_dtype got = CT_DTYPE_UNDEFINED;
    zeros_dtype(&got);
    CHECK_INT_EQ(got, CT_FLOAT32);

    CHECK_INT_EQ(ct_set_default_dtype(CT_FLOAT64), 0);
    CHECK_INT_EQ(ct_default_dtype(), CT_FLOAT64);
    zeros_dtype(&got);
    CHECK_INT_EQ(got, CT_FLOAT64);
    /* another thread sees it */
    pthread_t th;
    got = CT_DTYPE_UNDEFINED;
    CHECK_INT_EQ(pthread_create(&th, NULL, zeros_dtype, &got), 0);
    pthread_join(th, NULL);
    CHECK_INT_EQ(got, CT_FLOAT64);
    /* true division of integers takes it */
    ct_tensor *a = ct_tensor_from_data((const int64_t[]){1, 2}, (const int64_t[]){2}, 1, CT_INT64);
    ct_tensor *q = a ? ct_div(a, a) : NULL;
    CHECK(q != NULL);
    if (q) CHECK_INT_EQ(ct_tensor_dtype(q), CT_FLOAT64);
    ct_tensor_release(q);
    ct_tensor_release(a);

    /* a non-floating dtype: PyTorch's TypeError, the default unchanged */
    CHECK_INT_EQ(ct_set_default_dtype(CT_INT64), -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_TYPE);
    CHECK_STR_EQ(ct_error_message(), "only floating-point types are supported as the default type");
    CHECK_INT_EQ(ct_default_dtype(), CT_FLOAT64);
    CHECK_INT_EQ(ct_set_default_dtype(CT_BOOL), -1);
    CHECK_INT_EQ(ct_set_default_dtype(CT_FLOAT16), 0);
    CHECK_INT_EQ(ct_default_dtype(), CT_FLOAT16);
    CHECK_INT_EQ(ct_set_default_dtype(CT_FLOAT32), 0);
    zeros_dtype(&got);
    CHECK_INT_EQ(got, CT_FLOAT32);
    return ct_test_finish("test_default_dtype");
}
