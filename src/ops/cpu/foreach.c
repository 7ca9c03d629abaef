/* The foreach ops clip_grad_norm_ reaches, in the slow (per-tensor) form CPU PyTorch runs
 * (ForeachOpsKernels.cpp): _foreach_norm.Scalar is linalg_vector_norm of each tensor and
 * _foreach_mul_.Tensor is mul_ of each by a 0-dim tensor, each through the dispatcher. */
#include "core/alloc.h"
#include "ops/kernel_util.h"

/* check_foreach_api_restrictions */
static int check_list(const ct_value *v) {
    if (v->u.tlist.len == 0) return ct_error_set(CT_ERR_RUNTIME, "Tensor list must have at least one tensor.");
    return 0;
}

/* _foreach_norm.Scalar(Tensor[] self, Scalar ord=2, ScalarType? dtype=None) -> Tensor[] */
int ct_k__foreach_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (check_list(&args[0]) != 0) return -1;
    int64_t n = args[0].u.tlist.len;
    ct_tensor **out = ct_calloc((size_t)n, sizeof *out);
    if (!out) return -1;
    ct_dtype dt = args[2].tag == CT_TAG_INT ? (ct_dtype)args[2].u.i : CT_DTYPE_UNDEFINED;
    for (int64_t i = 0; i < n; i++) {
        out[i] = ct_linalg_vector_norm(args[0].u.tlist.items[i], args[1], NULL, 0, false, dt);
        if (!out[i]) {
            for (int64_t k = 0; k < i; k++) ct_tensor_release(out[k]);
            ct_free(out);
            return -1;
        }
    }
    rets[0] = ct_tensor_list_value(out, n);
    return 0;
}

/* _foreach_mul_.Tensor(Tensor(a!)[] self, Tensor other) -> () */
int ct_k__foreach_mul_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *scalar = ARG_T(1);
    if (!(scalar->ndim == 0 && scalar->numel == 1))
        return ct_error_set(CT_ERR_RUNTIME, "scalar tensor expected to be 0 dim but it has %d dimensions and %lld elements.",
                            scalar->ndim, (long long)scalar->numel);
    if (check_list(&args[0]) != 0) return -1;
    for (int64_t i = 0; i < args[0].u.tlist.len; i++)
        if (ct_mul_(args[0].u.tlist.items[i], scalar) != 0) return -1;
    (void)rets;
    return 0;
}
