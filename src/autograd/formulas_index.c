/* Backward formulas of advanced indexing (derivatives.yaml's index.Tensor, index_put and
 * _index_put_impl_): each saved Tensor?[] indices argument comes back item by item from the
 * node's saved_lists. */
#include "autograd/formulas.h"
#include "ops/kernel_util.h"

/* the saved indices of argument i as new references (NULL for a None item); 0 or -1 */
static int unpack_indices(ct_node *n, int i, ct_tensor **items, int64_t *len) {
    *len = n->list_len[i];
    for (int64_t k = 0; k < *len; k++) {
        items[k] = NULL;
        if (n->saved_lists[i] && ct_saved_unpack(n, &n->saved_lists[i][k], &items[k]) != 0) {
            for (int64_t j = 0; j < k; j++) ct_tensor_release(items[j]);
            return -1;
        }
    }
    return 0;
}

static void release_indices(ct_tensor **items, int64_t len) {
    for (int64_t k = 0; k < len; k++) ct_tensor_release(items[k]);
}

/* index.Tensor: self: index_backward(grad.new_zeros(self.sym_sizes(), self.options()), indices, grad),
 * which is _index_put_impl_(zeros, indices, grad, accumulate=true, unsafe=true) */
int ct_d_index(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *items[CT_MAX_DIMS * 2];
    int64_t len;
    if (n->list_len[1] > CT_MAX_DIMS * 2) return ct_error_set(CT_ERR_RUNTIME, "ctorch: too many indices saved");
    if (unpack_indices(n, 1, items, &len) != 0) return -1;
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    ct_tensor *z = ct_new_zeros(grads[0], m->sizes, m->ndim, m->dtype);
    /* index_backward: the out-of-place index_put for subclass-like tensors (a dispatch mode on) */
    bool subclass_like = ct_is_tensor_subclass_like(grads[0]);
    for (int64_t k = 0; k < len; k++) subclass_like = subclass_like || (items[k] && ct_is_tensor_subclass_like(items[k]));
    int rc = -1;
    if (z && subclass_like) {
        ct_tensor *r = ct_index_put(z, items, len, grads[0], true);
        ct_tensor_release(z);
        z = r;
        rc = r ? 0 : -1;
    } else if (z) {
        rc = ct__index_put_impl_(z, items, len, grads[0], true, true);
    }
    release_indices(items, len);
    if (rc != 0) {
        ct_tensor_release(z);
        return -1;
    }
    out[0] = z;
    return 0;
}

/* index_put (and index_put_, _index_put_impl_):
 *   self: accumulate ? grad : grad.index_put(indices, zeros_like(values), false)
 *   values: grad.index(indices) (the engine sums it to values' shape) */
int ct_d_index_put(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *items[CT_MAX_DIMS * 2];
    int64_t len;
    if (n->list_len[1] > CT_MAX_DIMS * 2) return ct_error_set(CT_ERR_RUNTIME, "ctorch: too many indices saved");
    if (unpack_indices(n, 1, items, &len) != 0) return -1;
    bool accumulate = n->args[3].u.b;
    int rc = 0;
    if (ct_node_needs(n, 0)) {
        if (accumulate) {
            out[0] = ct_tensor_retain(grads[0]);
        } else {
            ct_tensor *values;
            rc = ct_saved_unpack(n, &n->saved_args[2], &values);
            ct_tensor *z = rc == 0 ? ct_zeros_like(values, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE) : NULL;
            out[0] = z ? ct_index_put(grads[0], items, len, z, false) : NULL;
            ct_tensor_release(z);
            ct_tensor_release(values);
            if (!out[0]) rc = -1;
        }
    }
    if (rc == 0 && ct_node_needs(n, 2)) {
        out[2] = ct_index_tensor(grads[0], items, len);
        if (!out[2]) rc = -1;
    }
    release_indices(items, len);
    return rc;
}
