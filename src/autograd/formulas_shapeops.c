/* Backward formulas of the copying shape ops and the squeezes (derivatives.yaml: flip, roll,
 * repeat, triu, diagonal, diagonal_backward, squeeze,
 * squeeze.dims; FunctionsManual.cpp: repeat_backward, unsqueeze_to). */
#include "autograd/formulas.h"
#include "core/alloc.h"

/* flip: grad.flip(dims) */
int ct_d_flip(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_value *dims = &n->args[1];
    CT_F_NEED(out[0] = ct_flip(grads[0], dims->u.list.data, dims->u.list.len));
    return 0;
}

/* roll: grad.roll(-shifts, dims) */
int ct_d_roll(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_value *shifts = &n->args[1], *dims = &n->args[2];
    int64_t ns = shifts->u.list.len;
    int64_t *neg = ct_malloc(sizeof(int64_t) * (size_t)(ns > 0 ? ns : 1));
    if (!neg) return -1;
    for (int64_t i = 0; i < ns; i++) neg[i] = -shifts->u.list.data[i];
    out[0] = ct_roll(grads[0], neg, ns, dims->u.list.data, dims->u.list.len);
    ct_free(neg);
    CT_F_NEED(out[0]);
    return 0;
}

/* repeat: repeat_backward(grad, repeats, self sizes): zeros when a repeat is 0; the leading
 * dimensions repeat added summed away one at a time (sum(0)); then one reshape to (repeat, size)
 * for each dimension repeated more than once (size alone otherwise) and one sum over the
 * repeats, both skipped when no dimension is repeated */
int ct_d_repeat(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const ct_value *rep = &n->args[1];
    int64_t nr = rep->u.list.len, lead = nr - m->ndim;
    for (int64_t i = 0; i < nr; i++)
        if (rep->u.list.data[i] == 0) {
            CT_F_NEED(out[0] = ct_zeros(m->sizes, m->ndim, grads[0]->dtype));
            return 0;
        }
    if (2 * m->ndim > CT_MAX_DIMS) /* the (repeat, size) pairs' view */
        return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
    ct_tensor *g = ct_tensor_retain(grads[0]);
    for (int64_t i = 0; i < lead && g; i++) {
        int64_t d0 = 0;
        ct_tensor *s = ct_sum_dim(g, &d0, 1, false, CT_DTYPE_UNDEFINED);
        ct_tensor_release(g);
        g = s;
    }
    int64_t size[CT_MAX_DIMS], sum_dims[CT_MAX_DIMS];
    int ns = 0, nd = 0;
    for (int64_t d = 0; d < m->ndim; d++) {
        const int64_t r = rep->u.list.data[d + lead];
        if (r != 1) {
            size[ns++] = r;
            sum_dims[nd++] = ns - 1;
        }
        size[ns++] = m->sizes[d];
    }
    if (g && nd > 0) {
        ct_tensor *r = ct_reshape(g, size, ns);
        ct_tensor *s = r ? ct_sum_dim(r, sum_dims, nd, false, CT_DTYPE_UNDEFINED) : NULL;
        ct_tensor_release(r);
        ct_tensor_release(g);
        g = s;
    }
    out[0] = g;
    CT_F_NEED(out[0]);
    return 0;
}

/* triu: grad.triu(diagonal) */
int ct_d_triu(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_triu(grads[0], ct_f_iarg(n, 1)));
    return 0;
}

/* diagonal: diagonal_backward(grad, self.sizes(), offset, dim1, dim2) */
int ct_d_diagonal(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_diagonal_backward(grads[0], m->sizes, m->ndim, ct_f_iarg(n, 1), ct_f_iarg(n, 2),
                                            ct_f_iarg(n, 3)));
    return 0;
}

/* diagonal_backward: grad.diagonal(offset, dim1, dim2) */
int ct_d_diagonal_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_diagonal(grads[0], ct_f_iarg(n, 2), ct_f_iarg(n, 3), ct_f_iarg(n, 4)));
    return 0;
}

/* unsqueeze_to: the size-1 dims of self (those marked in mask, or all) put back in order */
static int unsqueeze_to(const ct_tensor_meta *m, const bool *mask, ct_tensor *grad, ct_tensor **out) {
    ct_tensor *g = ct_tensor_retain(grad);
    for (int d = 0; d < m->ndim; d++) {
        if (m->sizes[d] != 1 || (mask && !mask[d])) continue;
        ct_tensor *u = ct_unsqueeze(g, d);
        ct_tensor_release(g);
        if (!u) return -1;
        g = u;
    }
    out[0] = g;
    return 0;
}

/* squeeze: unsqueeze_to(grad, self.sizes()) */
int ct_d_squeeze(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    return unsqueeze_to(ct_f_meta(n, 0), NULL, grads[0], out);
}

/* squeeze.dims: unsqueeze_to(grad, dim, self.sizes()) */
int ct_d_squeeze_dims(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    const ct_value *dims = &n->args[1];
    bool mask[CT_MAX_DIMS] = {false};
    for (int64_t i = 0; i < dims->u.list.len; i++) {
        int64_t d = dims->u.list.data[i];
        if (m->ndim == 0) continue;
        if (d < 0) d += m->ndim;
        mask[d] = true;
    }
    return unsqueeze_to(m, mask, grads[0], out);
}
