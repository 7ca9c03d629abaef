/* embedding_dense_backward (Embedding.cpp, embedding_dense_backward_cpu): zeros of
 * [num_weights, D], then grad_weight[indices[i]] += grad[i] (scaled by 1 / count with
 * scale_grad_by_freq) in index order, skipping padding_idx, each an add in the grad's type. */
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

int ct_k_embedding_dense_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0), *indices = ARG_T(1);
    int64_t num_weights = ARG_I(2), padding_idx = ARG_I(3);
    bool scale_by_freq = ARG_B(4);
    if (indices->dtype != CT_INT64 && indices->dtype != CT_INT32)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_backward)",
                            ct_dtype_message_type(indices->dtype));
    if (grad->ndim == 0) return ct_error_set(CT_ERR_INDEX, "Dimension specified as -1 but tensor has no dimensions");
    int64_t d = grad->sizes[grad->ndim - 1];
    int64_t n = indices->numel;
    if (n * d != grad->numel)
        return ct_error_set(CT_ERR_RUNTIME, "shape '[%lld, %lld]' is invalid for input of size %lld", (long long)n, (long long)d,
                            (long long)grad->numel);
    int64_t shape[2] = {num_weights, d};
    ct_tensor *gw = ct_zeros(shape, 2, grad->dtype);
    if (!gw) return -1;
    int64_t *idx = ct_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    int64_t *counts = scale_by_freq ? ct_calloc((size_t)(num_weights ? num_weights : 1), sizeof(int64_t)) : NULL;
    if (!idx || (scale_by_freq && !counts)) {
        ct_free(idx);
        ct_free(counts);
        ct_tensor_release(gw);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) idx[i] = ct_elem_load_int64(ct_tensor_elem_ptr(indices, i), indices->dtype);
    for (int64_t i = 0; i < n; i++) {
        if (idx[i] < 0 || idx[i] >= num_weights) {
            long long bad = (long long)idx[i]; /* read before idx is freed */
            ct_free(idx);
            ct_free(counts);
            ct_tensor_release(gw);
            return ct_error_set(CT_ERR_INDEX, "index %lld is out of bounds for dimension 0 with size %lld", bad,
                                (long long)num_weights);
        }
        if (counts) counts[idx[i]]++;
    }
    char *w = ct_tensor_data_ptr(gw);
    size_t es = ct_dtype_size(grad->dtype);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = idx[i];
        if (k == padding_idx) continue;
        double scale = counts ? 1.0 / (double)counts[k] : 1.0;
        for (int64_t j = 0; j < d; j++) {
            /* grad_weight[k].add_(grad[i], scale): one rounding in the grad's type */
            char *dst = w + (size_t)(k * d + j) * es;
            double g = ct_load_as_double(ct_tensor_elem_ptr(grad, i * d + j), grad->dtype);
            ct_store_from_double(dst, grad->dtype, ct_load_as_double(dst, grad->dtype) + scale * g);
        }
    }
    ct_free(idx);
    ct_free(counts);
    return ct_ret(rets, 0, gw);
}
