/* at::sum_to (ATen/ExpandUtils.h): a broadcast result summed back to the shape it was broadcast
 * from, for the backward formulas and the engine's validate_outputs. */
#include "ctorch/ops_generated.h"
#include "ops/sum_to.h"

ct_tensor *ct_sum_to(ct_tensor *t, const int64_t *shape, int ndim) {
    if (ndim == 0) return ct_sum(t, CT_DTYPE_UNDEFINED);
    int64_t dims[CT_MAX_DIMS];
    int nd = 0, leading = t->ndim - ndim;
    for (int i = 0; i < leading; i++) dims[nd++] = i;
    for (int i = leading; i < t->ndim; i++)
        if (shape[i - leading] == 1 && t->sizes[i] != 1) dims[nd++] = i;
    ct_tensor *r = ct_tensor_retain(t);
    if (nd > 0) {
        ct_tensor *s = ct_sum_dim(r, dims, nd, true, CT_DTYPE_UNDEFINED);
        ct_tensor_release(r);
        r = s;
    }
    if (r && leading > 0) {
        ct_tensor *v = ct_view(r, shape, ndim);
        ct_tensor_release(r);
        r = v;
    }
    return r;
}
