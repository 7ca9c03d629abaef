/* Backward formulas of the views, the shape ops and the batched product (derivatives.yaml for
 * the views, tril and bmm; FunctionsManual.cpp: permute_backwards, unsqueeze_to,
 * slice_backward_wrapper, split_with_sizes_backward, cat_tensors_backward,
 * stack_tensors_backward). */
#include <string.h>

#include "autograd/formulas.h"
#include "core/alloc.h"
#include "ops/sum_to.h"

int ct_d_t(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    CT_F_NEED(out[0] = ct_t(grads[0]));
    return 0;
}

int ct_d_transpose(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_transpose(grads[0], ct_f_iarg(n, 1), ct_f_iarg(n, 2)));
    return 0;
}

int ct_d_permute(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* permute_backwards: the inverse permutation */
    const ct_value *dims = &n->args[1];
    int64_t nd = dims->u.list.len, inv[CT_MAX_DIMS];
    for (int64_t i = 0; i < nd; i++) {
        int64_t d = dims->u.list.data[i];
        if (d < 0) d += nd;
        inv[d] = i;
    }
    CT_F_NEED(out[0] = ct_permute(grads[0], inv, nd));
    return 0;
}

int ct_d_reshape_to_self(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_reshape(grads[0], ct_f_meta(n, 0)->sizes, ct_f_meta(n, 0)->ndim));
    return 0;
}

int ct_d_expand(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_sum_to(grads[0], ct_f_meta(n, 0)->sizes, ct_f_meta(n, 0)->ndim));
    return 0;
}

int ct_d_identity(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

/* not_implemented(name) (FunctionsManual.cpp): the backward of an op PyTorch does not differentiate
 * yet fails, naming the op (its base name: aten::floor_divide_ for the in-place form) */
int ct_d_not_implemented(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)grads, (void)out;
    return ct_error_set(CT_ERR_RUNTIME, "derivative for %s is not implemented", ct_op_base_name(n->op));
}

int ct_d_unsqueeze(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_squeeze_dim(grads[0], ct_f_iarg(n, 1)));
    return 0;
}

int ct_d_squeeze_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    /* unsqueeze_to(grad, dim, self sizes) */
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t dim = ct_f_iarg(n, 1);
    if (m->ndim == 0) {
        out[0] = ct_tensor_retain(grads[0]);
        return 0;
    }
    if (dim < 0) dim += m->ndim;
    if (m->sizes[dim] == 1) CT_F_NEED(out[0] = ct_unsqueeze(grads[0], dim));
    else out[0] = ct_tensor_retain(grads[0]);
    return 0;
}

/* slice: slice_backward(grad, self.sizes(), dim, start or 0, end or INT64_MAX, step) */
int ct_d_slice(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t start = n->args[2].tag == CT_TAG_NONE ? 0 : n->args[2].u.i;
    int64_t end = n->args[3].tag == CT_TAG_NONE ? INT64_MAX : n->args[3].u.i;
    CT_F_NEED(out[0] = ct_slice_backward(grads[0], m->sizes, m->ndim, ct_f_iarg(n, 1), start, end, ct_f_iarg(n, 4)));
    return 0;
}

/* select.int: select_backward(grad, self.sizes(), dim, index) */
int ct_d_select(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    CT_F_NEED(out[0] = ct_select_backward(grads[0], m->sizes, m->ndim, ct_f_iarg(n, 1), ct_f_iarg(n, 2)));
    return 0;
}

/* select_backward: grad_output: grad.select(dim, index) */
int ct_d_select_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_select(grads[0], ct_f_iarg(n, 2), ct_f_iarg(n, 3)));
    return 0;
}

/* slice_backward: grad_output: grad.slice(dim, start, end, step) */
int ct_d_slice_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
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
int ct_d_split(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
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

int ct_d_split_with_sizes(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t dim = ct_f_iarg(n, 2);
    if (dim < 0) dim += m->ndim;
    CT_F_NEED(out[0] = split_with_sizes_backward(n, grads, n->args[1].u.list.data, dim));
    return 0;
}

/* unbind.int: unbind_backward(grads, dim): one stack of the pieces' gradients, an undefined one
 * as zeros({}) expanded to the shape of the first defined one */
int ct_d_unbind(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    const ct_tensor_meta *m = ct_f_meta(n, 0);
    int64_t dim = ct_f_iarg(n, 1);
    if (dim < 0) dim += m->ndim;
    int k = n->n_inputs;
    const ct_tensor *first = NULL;
    for (int j = 0; j < k && !first; j++) first = grads[j];
    if (!first) return 0;
    ct_tensor **all = ct_calloc((size_t)(k ? k : 1), sizeof *all);
    if (!all) return -1;
    int ok = 1;
    for (int j = 0; j < k && ok; j++) {
        if (grads[j]) {
            all[j] = ct_tensor_retain(grads[j]);
        } else {
            ct_tensor *z = ct_zeros(NULL, 0, first->dtype);
            all[j] = z ? ct_expand(z, first->sizes, first->ndim, false) : NULL;
            ct_tensor_release(z);
            ok = all[j] != NULL;
        }
    }
    out[0] = ok ? ct_stack(all, k, dim) : NULL;
    for (int j = 0; j < k; j++) ct_tensor_release(all[j]);
    ct_free(all);
    return out[0] ? 0 : -1;
}

/* cat: cat_tensors_backward(grad, sizes, dtypes, dim): a narrow of grad per input (an empty
 * 1-D input gets zeros({0})) */
int ct_d_cat(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
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
int ct_d_stack(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)out;
    int e = n->edge_of_arg[0];
    for (int64_t i = 0; i < n->list_len[0]; i++)
        CT_F_NEED(n->list_grads[e + i] = ct_select(grads[0], ct_f_iarg(n, 1), i));
    return 0;
}

/* tril: grad.tril(diagonal) */
int ct_d_tril(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    CT_F_NEED(out[0] = ct_tril(grads[0], ct_f_iarg(n, 1)));
    return 0;
}

/* bmm: self: grad.bmm(mat2.transpose(1, 2)); mat2: self.transpose(1, 2).bmm(grad)
 * (computed in the order of Note [Formula order]: mat2, then self) */
int ct_d_bmm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
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
