/* Backward formulas of the shape and batched-product ops (FunctionsManual.cpp:
 * slice_backward_wrapper, split_with_sizes_backward, cat_tensors_backward,
 * stack_tensors_backward; derivatives.yaml for tril and bmm). */
#include <string.h>

#include "autograd/formulas.h"
#include "core/alloc.h"

/* slice: slice_backward(grad, self.sizes(), dim, start or 0, end or INT64_MAX, step) */
CT_FORMULA(ct_d_slice) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t start = n->args[2].tag == CT_TAG_NONE ? 0 : n->args[2].u.i;
    int64_t end = n->args[3].tag == CT_TAG_NONE ? INT64_MAX : n->args[3].u.i;
    CT_F_NEED(out[0] = ct_slice_backward(grads[0], m->sizes, m->ndim, ct_f_iarg(n, 1), start, end, ct_f_iarg(n, 4)));
    return 0;
}

/* select.int: select_backward(grad, self.sizes(), dim, index) */
CT_FORMULA(ct_d_select) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_select_backward(grads[0], m->sizes, m->ndim, ct_f_iarg(n, 1), ct_f_iarg(n, 2)));
    return 0;
}

/* select_backward: grad_output: grad.select(dim, index) */
CT_FORMULA(ct_d_select_backward) {
    CT_F_NEED(out[0] = ct_select(grads[0], ct_f_iarg(n, 2), ct_f_iarg(n, 3)));
    return 0;
}

/* slice_backward: grad_output: grad.slice(dim, start, end, step) */
CT_FORMULA(ct_d_slice_backward) {
    int64_t start = ct_f_iarg(n, 3), end = ct_f_iarg(n, 4);
    CT_F_NEED(out[0] = ct_slice(grads[0], ct_f_iarg(n, 2), &start, &end, ct_f_iarg(n, 5)));
    return 0;
}

/* split_with_sizes_backward: undefined gradients become zeros, then one cat */
static ct_tensor *split_with_sizes_backward(ct_node *n, ct_tensor *const *grads, const int64_t *split_sizes, int64_t dim) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int k = n->n_inputs;
    ct_tensor **all = ct_calloc((size_t)(k ? k : 1), sizeof *all);
    if (!all) return NULL;
    ct_tensor *r = NULL;
    int ok = 1;
    for (int j = 0; j < k && ok; j++) {
        if (grads[j]) {
            all[j] = ct_tensor_retain(grads[j]);
        } else {
            int64_t sz[CT_MAX_DIMS];
            memcpy(sz, m->sizes, sizeof(int64_t) * (size_t)m->ndim);
            sz[dim] = split_sizes[j];
            all[j] = ct_zeros(sz, m->ndim, m->dtype);
            ok = all[j] != NULL;
        }
    }
    if (ok) r = ct_cat(all, k, dim);
    for (int j = 0; j < k; j++) ct_tensor_release(all[j]);
    ct_free(all);
    return r;
}

/* split.Tensor: split_backward(grads, split_size, dim, self.sizes(), self.options()) */
CT_FORMULA(ct_d_split) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t dim = ct_f_iarg(n, 2);
    if (dim < 0) dim += m->ndim;
    int64_t split_size = ct_f_iarg(n, 1), k = n->n_inputs;
    int64_t *sizes = ct_malloc(sizeof(int64_t) * (size_t)(k ? k : 1));
    if (!sizes) return -1;
    for (int64_t j = 0; j < k; j++) sizes[j] = split_size;
    if (k > 0) sizes[k - 1] = split_size - (split_size * k - m->sizes[dim]);
    out[0] = split_with_sizes_backward(n, grads, sizes, dim);
    ct_free(sizes);
    return out[0] ? 0 : -1;
}

CT_FORMULA(ct_d_split_with_sizes) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t dim = ct_f_iarg(n, 2);
    if (dim < 0) dim += m->ndim;
    CT_F_NEED(out[0] = split_with_sizes_backward(n, grads, n->args[1].u.list.data, dim));
    return 0;
}

/* cat: cat_tensors_backward(grad, sizes, dtypes, dim): a narrow of grad per input (an empty
 * 1-D input gets zeros({0})) */
CT_FORMULA(ct_d_cat) {
    (void)out;
    int64_t len = n->list_len[0];
    const ct_tensor_meta *metas = n->list_meta[0];
    int64_t dim = ct_f_iarg(n, 1);
    for (int64_t i = 0; i < len; i++) /* legacy_cat_wrap_dim */
        if (!(metas[i].ndim == 1 && metas[i].sizes[0] == 0)) {
            if (dim < 0) dim += metas[i].ndim;
            break;
        }
    int e = n->edge_of_arg[0];
    int64_t acc = 0;
    for (int64_t i = 0; i < len; i++) {
        if (metas[i].ndim == 1 && metas[i].sizes[0] == 0) {
            int64_t zero = 0;
            CT_F_NEED(n->list_grads[e + i] = ct_zeros(&zero, 1, grads[0]->dtype));
            continue;
        }
        int64_t size = metas[i].sizes[dim];
        acc += size;
        CT_F_NEED(n->list_grads[e + i] = ct_narrow(grads[0], dim, acc - size, size));
    }
    return 0;
}

/* stack: stack_tensors_backward(grad, dim, dtypes): grad.select(dim, i) per input */
CT_FORMULA(ct_d_stack) {
    (void)out;
    int e = n->edge_of_arg[0];
    for (int64_t i = 0; i < n->list_len[0]; i++)
        CT_F_NEED(n->list_grads[e + i] = ct_select(grads[0], ct_f_iarg(n, 1), i));
    return 0;
}

/* tril: grad.tril(diagonal) */
CT_FORMULA(ct_d_tril) {
    CT_F_NEED(out[0] = ct_tril(grads[0], ct_f_iarg(n, 1)));
    return 0;
}

/* bmm: self: grad.bmm(mat2.transpose(1, 2)); mat2: self.transpose(1, 2).bmm(grad)
 * (computed in the order of Note [Formula order]: mat2, then self) */
CT_FORMULA(ct_d_bmm) {
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        ct_tensor *st = ct_transpose(self, 1, 2);
        ct_tensor_release(self);
        out[1] = st ? ct_bmm(st, grads[0]) : NULL;
        ct_tensor_release(st);
        CT_F_NEED(out[1]);
    }
    if (ct_node_needs(n, 0)) {
        ct_tensor *mat2;
        if (ct_saved_unpack(n, &n->saved_args[1], &mat2) != 0) return -1;
        ct_tensor *mt = ct_transpose(mat2, 1, 2);
        ct_tensor_release(mat2);
        out[0] = mt ? ct_bmm(grads[0], mt) : NULL;
        ct_tensor_release(mt);
        CT_F_NEED(out[0]);
    }
    return 0;
}
