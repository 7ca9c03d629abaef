/* The tensor API: creation, views sharing storage, reference counting, metadata, element
 * access, dtype conversions, and bad input (NULL, negative sizes, bad dtype, bad index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"

static void creation_and_views(void) {
    double v[6] = {1, 2, 3, 4, 5, 6};
    int64_t s[2] = {2, 3};
    ct_tensor *t = ct_tensor_from_doubles(v, s, 2, CT_FLOAT32);
    CHECK(t != NULL);
    CHECK_INT_EQ(ct_tensor_ndim(t), 2);
    CHECK_INT_EQ(ct_tensor_numel(t), 6);
    CHECK_INT_EQ(ct_tensor_strides(t)[0], 3);
    CHECK(ct_tensor_is_contiguous(t));
    CHECK_INT_EQ(ct_tensor_size(t, -1), 3);
    CHECK_INT_EQ(ct_tensor_size(t, 2), -1);
    CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* a view shares storage and version counter */
    ct_tensor *tt = ct_t(t);
    CHECK(ct_tensor_shares_storage(t, tt));
    CHECK(!ct_tensor_is_contiguous(tt));
    int64_t idx[2] = {2, 1};
    double x;
    CHECK_INT_EQ(ct_tensor_get(tt, idx, &x), 0);
    CHECK(x == 6.0);
    int64_t bad[2] = {3, 0};
    CHECK_INT_EQ(ct_tensor_get(tt, bad, &x), -1);
    CHECK_ERROR(CT_ERR_INDEX, "index 3 is out of bounds for dimension 0 with size 3");
    CHECK_INT_EQ(ct_fill_(tt, ct_double(2.0)), 0);
    CHECK_INT_EQ(ct_tensor_version(t), 1);
    CHECK_INT_EQ(ct_tensor_item(t, &x), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "a Tensor with 6 elements cannot be converted to Scalar");
    /* reference counts: the view keeps its base alive (DifferentiableViewMeta::base_) */
    CHECK_INT_EQ(ct_tensor_refcount(t), 2);
    ct_tensor_release(tt);
    CHECK_INT_EQ(ct_tensor_refcount(t), 1);
    ct_tensor_retain(t);
    CHECK_INT_EQ(ct_tensor_refcount(t), 2);
    ct_tensor_release(t);
    ct_tensor_release(t);
    ct_tensor_release(NULL);
    /* sizes as PyTorch prints them */
    int64_t s3[3] = {2, 600, 1};
    ct_tensor *z = ct_zeros(s3, 3, CT_DTYPE_UNDEFINED);
    char buf[64];
    ct_tensor_format_size(z, buf, sizeof buf);
    CHECK_STR_EQ(buf, "torch.Size([2, 600, 1])");
    ct_tensor_release(z);
    /* half and bfloat16 round to nearest even */
    CHECK_INT_EQ(ct_float_to_half(1.0f), 0x3c00);
    CHECK_INT_EQ(ct_float_to_half(65520.0f), 0x7c00);
    CHECK(ct_half_to_float(0x3555) == 0.333251953125f);
    CHECK_INT_EQ(ct_float_to_bfloat16(1.0f), 0x3f80);
    CHECK(isnan(ct_bfloat16_to_float(ct_float_to_bfloat16(NAN))));
    CHECK_STR_EQ(ct_dtype_name(CT_BFLOAT16), "BFloat16");
    CHECK_STR_EQ(ct_dtype_type_meta_name(CT_INT64), "long int");
    CHECK_INT_EQ(ct_dtype_promote(CT_FLOAT16, CT_BFLOAT16), CT_FLOAT32);
}

static void bad_input(void) {
    int64_t s[2] = {2, 3}, neg[2] = {2, -1};
    CHECK(ct_tensor_from_data(NULL, s, 2, CT_FLOAT32) == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_VALUE);
    ct_error_clear();
    double v[6] = {0};
    CHECK(ct_tensor_from_doubles(v, neg, 2, CT_FLOAT32) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
    CHECK(ct_tensor_from_doubles(v, s, 2, (ct_dtype)9) == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_TYPE);
    ct_error_clear();
    int64_t many[CT_MAX_DIMS + 1];
    for (int i = 0; i <= CT_MAX_DIMS; i++) many[i] = 1;
    CHECK(ct_zeros(many, CT_MAX_DIMS + 1, CT_DTYPE_UNDEFINED) == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_RUNTIME);
    ct_error_clear();
    /* NULL tensors */
    CHECK_INT_EQ(ct_tensor_ndim(NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_ndim: tensor is NULL");
    CHECK(ct_tensor_sizes(NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_sizes: tensor is NULL");
    CHECK_INT_EQ(ct_tensor_numel(NULL), -1);
    ct_error_clear();
    CHECK_INT_EQ(ct_tensor_dtype(NULL), CT_DTYPE_UNDEFINED);
    ct_error_clear();
    CHECK(ct_tensor_data_ptr(NULL) == NULL);
    ct_error_clear();
    CHECK(ct_tensor_repr(NULL) == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_VALUE);
    ct_error_clear();
    double x;
    CHECK_INT_EQ(ct_tensor_item(NULL, &x), -1);
    ct_error_clear();
    CHECK_INT_EQ(ct_tensor_to_doubles(NULL, &x, 1), -1);
    ct_error_clear();
    /* typed ops with NULL tensors: PyTorch's argument-parser TypeError */
    CHECK(ct_t(NULL) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "t(): argument 'input' (position 1) must be Tensor, not NoneType");
    CHECK(ct_add(NULL, NULL, ct_int(1)) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "add(): argument 'input' (position 1) must be Tensor, not NoneType");
    CHECK_INT_EQ(ct_fill_(NULL, ct_int(0)), -1);
    CHECK_ERROR(CT_ERR_TYPE, "fill_(): argument 'input' (position 1) must be Tensor, not NoneType");
    /* a bad dtype for a factory */
    CHECK(ct_zeros(s, 2, (ct_dtype)9) == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_TYPE);
    ct_error_clear();
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    creation_and_views();
    bad_input();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    return ct_test_finish("test_tensor_api");
}
