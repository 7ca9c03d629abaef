/* torch.tensor and factories with options, against PyTorch 2.6's recording
 * (tests/golden/torch-2.6/tensor_ctor.json, from tests/golden/record/tensor_ctor.py): each
 * call's dispatch-mode log (torch.tensor logs aten.lift_fresh only; ones/zeros only their own
 * op), the function-mode name, dtypes and leaf-ness, the requires_grad error of an integer
 * dtype, and Tensor.tolist() as Python prints it. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "util/json.h"

static cJSON *rec;

static cJSON *want(const char *key) { return cJSON_GetObjectItemCaseSensitive(rec, key); }

/* LOGGED(key, expr): evaluates expr under an op logger and compares the log with the
 * recording's `key`; yields expr's tensor */
static ct_op_logger *log_begin(void) {
    ct_op_logger *l = ct_op_logger_new();
    ct_op_logger_push(l);
    return l;
}
static ct_tensor *log_end(const char *key, ct_op_logger *l, ct_tensor *t) {
    ct_op_logger_pop(l);
    CHECK_MSG(t != NULL, "%s: %s", key, ct_error_message());
    CHECK_OP_LOG(key, l, want(key));
    ct_op_logger_free(l);
    return t;
}
static ct_op_logger *cur;
#define LOGGED(key, expr) (cur = log_begin(), log_end(key, cur, (expr)))

static int fm_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    cJSON *names = ud;
    cJSON_AddItemToArray(names, cJSON_CreateString(ct_function_name(f)));
    return ct_function_call(f, args, rets);
}

static void check_tolist(const char *key, ct_tensor *t) {
    char *got = ct_tensor_tolist(t);
    cJSON *w = cJSON_GetObjectItemCaseSensitive(want("tolist_str"), key);
    CHECK_STR_EQ(got, cJSON_GetStringValue(w));
    ct_free(got);
    ct_tensor_release(t);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    char *txt = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/tensor_ctor.json"), NULL);
    rec = txt ? cJSON_Parse(txt) : NULL;
    CHECK(rec != NULL);
    if (!rec) return ct_test_finish("test_factory");

    int64_t s3 = 3, s2x2[2] = {2, 2}, s2 = 2, s2x3[2] = {2, 3};
    ct_tensor *a = LOGGED("tensor_float", ct_tensor_new((double[]){1, 2, 3}, &s3, 1, (ct_tensor_options){0}));
    CHECK(a && ct_tensor_dtype(a) == CT_FLOAT32 && !ct_tensor_requires_grad(a));
    ct_tensor *b = LOGGED("tensor_int_2d", ct_tensor_new_int64((int64_t[]){1, 2, 3, 4}, s2x2, 2, (ct_tensor_options){0}));
    CHECK_STR_EQ(b ? ct_dtype_python_name(ct_tensor_dtype(b)) : NULL, cJSON_GetStringValue(want("tensor_int_2d_dtype")));
    ct_tensor *c = LOGGED("tensor_requires_grad",
                          ct_tensor_new((double[]){1, 2}, &s2, 1, (ct_tensor_options){.requires_grad = true}));
    CHECK(c && ct_tensor_requires_grad(c));
    CHECK(c && ct_tensor_is_leaf(c) == cJSON_IsTrue(want("tensor_requires_grad_is_leaf")));
    ct_tensor *d = LOGGED("tensor_dtype_f64", ct_tensor_new((double[]){1.5, 2.5}, &s2, 1, (ct_tensor_options){.dtype = CT_FLOAT64}));
    CHECK(d && ct_tensor_dtype(d) == CT_FLOAT64);
    ct_tensor *e = LOGGED("tensor_scalar", ct_tensor_new((double[]){2.5}, NULL, 0, (ct_tensor_options){0}));
    CHECK_INT_EQ(e ? ct_tensor_ndim(e) : -1, (int)cJSON_GetNumberValue(want("tensor_scalar_dim")));
    ct_tensor *f = LOGGED("ones_requires_grad", ct_ones_opts(s2x3, 2, (ct_tensor_options){.requires_grad = true}));
    CHECK(f && ct_tensor_requires_grad(f) && ct_tensor_is_leaf(f) && ct_tensor_dtype(f) == CT_FLOAT32);
    ct_tensor *g = LOGGED("zeros_f64_requires_grad",
                          ct_zeros_opts(&s2, 1, (ct_tensor_options){.dtype = CT_FLOAT64, .requires_grad = true}));
    CHECK(g && ct_tensor_requires_grad(g) && ct_tensor_dtype(g) == CT_FLOAT64);
    ct_tensor *list[] = {a, b, c, d, e, f, g};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) ct_tensor_release(list[i]);

    /* function modes see torch.tensor as "tensor" */
    cJSON *names = cJSON_CreateArray();
    const int fh = ct_function_mode_push(fm_handler, names);
    ct_tensor *h = ct_tensor_new((double[]){1}, &(int64_t){1}, 1, (ct_tensor_options){0});
    ct_function_mode_pop(fh);
    CHECK(h != NULL);
    ct_tensor_release(h);
    CHECK_MSG(cJSON_Compare(names, want("tensor_function_mode"), true), "function-mode names differ");
    cJSON_Delete(names);

    /* requires_grad on an integer dtype: PyTorch's error, after the op, and no tensor */
    cJSON *errs = want("errors");
    const char *msg = cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "tensor_int_requires_grad"), 1));
    CHECK(ct_tensor_new_int64((int64_t[]){1, 2}, &s2, 1, (ct_tensor_options){.requires_grad = true}) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);
    msg = cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(errs, "ones_int_requires_grad"), 1));
    CHECK(ct_ones_opts(&s2, 1, (ct_tensor_options){.dtype = CT_INT64, .requires_grad = true}) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, msg);
    CHECK(ct_tensor_new((double[]){1}, &s2, 1, (ct_tensor_options){.dtype = (ct_dtype)9}) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "tensor(): invalid dtype 9");

    /* tolist */
    check_tolist("f32_2d", ct_tensor_new((double[]){1.5, 2.0, 3.0, 4.25}, s2x2, 2, (ct_tensor_options){0}));
    check_tolist("f32_tenth", ct_tensor_new((double[]){0.1, -2.5e-5, 1e16}, &s3, 1, (ct_tensor_options){0}));
    check_tolist("f64_tenth", ct_tensor_new((double[]){0.1, 1.0 / 3}, &s2, 1, (ct_tensor_options){.dtype = CT_FLOAT64}));
    check_tolist("i64_2d", ct_tensor_new_int64((int64_t[]){1, 2, 3, -(INT64_C(1) << 62)}, s2x2, 2, (ct_tensor_options){0}));
    check_tolist("bool", ct_tensor_from_data((unsigned char[]){1, 0}, &s2, 1, CT_BOOL));
    check_tolist("scalar", ct_tensor_new((double[]){3.5}, NULL, 0, (ct_tensor_options){0}));
    check_tolist("empty", ct_tensor_new(NULL, &(int64_t){0}, 1, (ct_tensor_options){0}));
    check_tolist("i64_as_f32", ct_tensor_new_int64((int64_t[]){1, 2, 16777217}, &s3, 1, (ct_tensor_options){.dtype = CT_FLOAT32}));
    /* exact integers */
    ct_tensor *big = ct_tensor_new_int64((int64_t[]){INT64_MAX, -3}, &s2, 1, (ct_tensor_options){0});
    int64_t got[2] = {0};
    CHECK_INT_EQ(ct_tensor_to_int64s(big, got, 2), 0);
    CHECK(got[0] == INT64_MAX && got[1] == -3);
    CHECK_INT_EQ(ct_tensor_to_int64s(big, got, 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_to_int64s: buffer holds 1 values, tensor has 2");
    ct_tensor_release(big);
    ct_tensor *fl = ct_tensor_new((double[]){1}, NULL, 0, (ct_tensor_options){0});
    CHECK_INT_EQ(ct_tensor_to_int64s(fl, got, 2), -1);
    CHECK_ERROR(CT_ERR_TYPE, "ct_tensor_to_int64s: expected an integer or bool tensor, got Float");
    ct_tensor_release(fl);

    cJSON_Delete(rec);
    free(txt);
    return ct_test_finish("test_factory");
}
