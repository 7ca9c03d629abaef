/* Backward formulas of the sorting and selection family (derivatives.yaml and FunctionsManual.cpp):
 * sort, sort.stable, topk, kthvalue, median.dim and nanmedian.dim (value_selecting_reduction_backward:
 * the gradient put back at the selected indices along dim, zeros elsewhere), cummax and cummin
 * (cummaxmin_backward: the gradient summed into the selected indices); median and nanmedian over
 * everything share the reductions' evenly_distribute_backward (ct_d_max_all). The scatter is done
 * here element by element, accumulated in double and rounded to the gradient's dtype once. */
#include <math.h>
#include <string.h>

#include "autograd/formulas.h"
#include "core/alloc.h"
#include "ops/kernel_util.h"

/* zeros of self's shape with grad added at indices along the dim argument dim_arg (an
 * unreduced dim put back first unless keepdim) */
static int scatter_back(ct_node *n, ct_tensor *grad, int dim_arg, bool keepdim, ct_tensor **out) {
    ct_tensor *indices = NULL;
    if (ct_saved_unpack(n, &n->saved_rets[1], &indices) != 0) return -1;
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const int64_t d0 = ct_f_iarg(n, dim_arg);
    int64_t dim = 0;
    if (ct_wrap_dim(d0, m->ndim, &dim) != 0) {
        ct_tensor_release(indices);
        return -1;
    }
    ct_tensor *g = NULL, *ix = NULL;
    if (keepdim || m->ndim == 0) {
        g = ct_tensor_retain(grad);
        ix = ct_tensor_retain(indices);
    } else {
        g = ct_unsqueeze(grad, dim);
        ix = g ? ct_unsqueeze(indices, dim) : NULL;
    }
    ct_tensor_release(indices);
    ct_tensor *r = g && ix ? ct_zeros(m->sizes, m->ndim, g->dtype) : NULL;
    double *acc = r ? ct_calloc((size_t)(r->numel > 0 ? r->numel : 1), sizeof(double)) : NULL;
    if (acc) {
        int64_t rstrides[CT_MAX_DIMS];
        ct_contiguous_strides(r->sizes, r->ndim, rstrides);
        for (int64_t i = 0; i < g->numel; i++) {
            int64_t rem = i, off = 0, at;
            memcpy(&at, ct_tensor_elem_ptr(ix, i), sizeof at);
            for (int d = g->ndim - 1; d >= 0; d--) {
                int64_t c = rem % g->sizes[d];
                rem /= g->sizes[d];
                off += (d == dim ? at : c) * rstrides[d];
            }
            acc[off] += ct_elem_load(ct_tensor_elem_ptr(g, i), g->dtype);
        }
        char *o = ct_tensor_data_ptr(r);
        const size_t es = ct_dtype_size(r->dtype);
        for (int64_t i = 0; i < r->numel; i++) ct_elem_store(o + (size_t)i * es, r->dtype, acc[i]);
        ct_free(acc);
    } else {
        ct_tensor_release(r);
        r = NULL;
    }
    ct_tensor_release(g);
    ct_tensor_release(ix);
    CT_F_NEED(out[0] = r);
    return 0;
}

/* sort(self, dim, descending), topk(self, k, dim, ...), cummax(self, dim): every position kept */
int ct_d_sort(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return scatter_back(n, grads[0], 1, true, out); }
int ct_d_sort_stable(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return scatter_back(n, grads[0], 2, true, out); }
int ct_d_topk(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return scatter_back(n, grads[0], 2, true, out); }
int ct_d_cummax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) { return scatter_back(n, grads[0], 1, true, out); }
/* kthvalue(self, k, dim, keepdim), median.dim / nanmedian.dim(self, dim, keepdim) */
int ct_d_kthvalue(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return scatter_back(n, grads[0], 2, n->args[3].u.b, out);
}
int ct_d_median_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return scatter_back(n, grads[0], 1, n->args[2].u.b, out);
}
