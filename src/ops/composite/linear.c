/* CompositeImplicitAutograd bodies of linear and matmul (Linear.cpp, LinearAlgebra.cpp).
 * They run in the AutogradCPU and CPU slots and call their constituents through the
 * dispatcher, so autograd records t/addmm (never "linear") and modes see t/addmm. */
#include <string.h>

#include "ops/kernel_util.h"

/* _flatten_nd_linear: fold the leading dims, addmm, view back. */
static ct_tensor *flatten_nd_linear(ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
    int64_t flattened = 1;
    for (int i = 0; i < input->ndim - 1; i++) flattened *= input->sizes[i];
    int64_t shape2[2] = {flattened, input->sizes[input->ndim - 1]};
    ct_tensor *inp = ct_reshape(input, shape2, 2);
    ct_tensor *wt = inp ? ct_t(weight) : NULL;
    ct_tensor *res = wt ? ct_addmm(bias, inp, wt, ct_int(1), ct_int(1)) : NULL;
    ct_tensor *out = NULL;
    if (res) {
        int64_t sizes[CT_MAX_DIMS];
        int n = 0;
        for (int i = 0; i < input->ndim - 1; i++) sizes[n++] = input->sizes[i];
        sizes[n++] = res->sizes[1];
        out = ct_view(res, sizes, n);
    }
    ct_tensor_release(inp);
    ct_tensor_release(wt);
    ct_tensor_release(res);
    return out;
}

/* linear(Tensor input, Tensor weight, Tensor? bias=None) */
int ct_k_linear(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_T(1), *bias = ARG_OPT_T(2);
    if (input->ndim == 0 || weight->ndim == 0)
        return ct_error_set(CT_ERR_RUNTIME, "both arguments to linear need to be at least 1D, but they are %dD and %dD",
                            input->ndim, weight->ndim);
    if (input->ndim == 2 && bias) {
        /* the fused op */
        ct_tensor *wt = ct_t(weight);
        if (!wt) return -1;
        ct_tensor *r = ct_addmm(bias, input, wt, ct_int(1), ct_int(1));
        ct_tensor_release(wt);
        return ct_ret(rets, 0, r);
    }
    if (bias && ct_tensor_is_contiguous(input) && (input->ndim == 3 || bias->ndim == 1))
        return ct_ret(rets, 0, flatten_nd_linear(input, weight, bias));
    ct_tensor *wt = ct_t(weight);
    if (!wt) return -1;
    ct_tensor *out = ct_matmul(input, wt);
    ct_tensor_release(wt);
    if (!out) return -1;
    if (bias) {
        /* subclass-like bias (or any, under a dispatch mode): the out-of-place add */
        if (ct_is_tensor_subclass_like(bias)) {
            ct_tensor *o2 = ct_add(out, bias, ct_int(1));
            ct_tensor_release(out);
            return ct_ret(rets, 0, o2);
        }
        if (ct_add_(out, bias, ct_int(1)) != 0) {
            ct_tensor_release(out);
            return -1;
        }
    }
    return ct_ret(rets, 0, out);
}

/* Tensor::requires_grad(), read from the tensor's autograd metadata (ops sit below autograd) */
static bool requires_grad(const ct_tensor *t) { return t->autograd && (t->autograd->requires_grad || t->autograd->grad_fn); }

/* should_fold: fold the larger operand's batch into a matrix and call mm (or mv) rather than
 * bmm, when that costs no extra copy, or when the smaller operand requires grad (a smaller
 * gradient in backward). */
static bool should_fold(const ct_tensor *tensor1, const ct_tensor *tensor2) {
    bool tensor1_larger = tensor1->ndim >= tensor2->ndim;
    int dim_t1 = tensor1_larger ? tensor1->ndim : tensor2->ndim;
    int dim_t2 = tensor1_larger ? tensor2->ndim : tensor1->ndim;
    if (!(dim_t1 >= 3 && dim_t2 <= 2)) return false;
    bool t2_requires_grad = requires_grad(tensor1_larger ? tensor2 : tensor1);
    if (t2_requires_grad) return true;
    if (tensor1->ndim == 2) return false;
    /* t1 = tensor1, or tensor2.mT(): its sizes and strides with the last two swapped */
    const ct_tensor *big = tensor1_larger ? tensor1 : tensor2;
    int64_t shape[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    memcpy(shape, big->sizes, sizeof(int64_t) * (size_t)dim_t1);
    memcpy(strides, big->strides, sizeof(int64_t) * (size_t)dim_t1);
    if (!tensor1_larger) {
        int64_t t = shape[dim_t1 - 1];
        shape[dim_t1 - 1] = shape[dim_t1 - 2];
        shape[dim_t1 - 2] = t;
        t = strides[dim_t1 - 1];
        strides[dim_t1 - 1] = strides[dim_t1 - 2];
        strides[dim_t1 - 2] = t;
    }
    if (big->numel == 0) return true;
    for (int i = 0; i < dim_t1 - 2; i++)
        if (strides[i] != strides[i + 1] * shape[i + 1]) return false;
    return true;
}

/* the folded case: reshape the larger operand to a matrix, mm / mv, _unsafe_view back */
static ct_tensor *matmul_fold(ct_tensor *tensor1, ct_tensor *tensor2) {
    bool transpose = tensor2->ndim > tensor1->ndim;
    ct_tensor *t1 = transpose ? ct_transpose(tensor2, -2, -1) : ct_tensor_retain(tensor1);
    ct_tensor *t2 = !transpose ? ct_tensor_retain(tensor2) : tensor1->ndim == 2 ? ct_t(tensor1) : ct_tensor_retain(tensor1);
    ct_tensor *out = NULL, *folded = NULL, *p = NULL;
    if (!t1 || !t2) goto done;
    int64_t output_shape[CT_MAX_DIMS];
    int n = 0;
    int64_t folded_dim1 = 1;
    for (int i = 0; i < t1->ndim - 1; i++) {
        output_shape[n++] = t1->sizes[i];
        folded_dim1 *= t1->sizes[i];
    }
    bool t2_is_matrix = t2->ndim == 2;
    if (t2_is_matrix) output_shape[n++] = t2->sizes[1];
    int64_t fs[2] = {folded_dim1, t1->sizes[t1->ndim - 1]};
    folded = ct_reshape(t1, fs, 2);
    if (!folded) goto done;
    if (t2_is_matrix) {
        p = ct_mm(folded, t2);
        ct_tensor *o = p ? ct__unsafe_view(p, output_shape, n) : NULL;
        if (o && transpose) {
            ct_tensor *mt = ct_transpose(o, -2, -1);
            out = mt ? ct_contiguous(mt, CT_CONTIGUOUS_FORMAT) : NULL;
            ct_tensor_release(mt);
            ct_tensor_release(o);
        } else {
            out = o;
        }
    } else {
        p = ct_mv(folded, t2);
        out = p ? ct__unsafe_view(p, output_shape, n) : NULL;
    }
done:
    ct_tensor_release(t1);
    ct_tensor_release(t2);
    ct_tensor_release(folded);
    ct_tensor_release(p);
    return out;
}

/* the batched case: broadcast the batch dimensions, expand, fold them into one, bmm,
 * _unsafe_view to the output shape */
static ct_tensor *matmul_batched(ct_tensor *tensor1, ct_tensor *tensor2) {
    int d1 = tensor1->ndim, d2 = tensor2->ndim;
    int64_t n = d1 > 1 ? tensor1->sizes[d1 - 2] : 1;
    int64_t m1 = tensor1->sizes[d1 - 1];
    int nb1 = d1 - 2 > 0 ? d1 - 2 : 0;
    int64_t m2 = d2 > 1 ? tensor2->sizes[d2 - 2] : tensor2->sizes[0];
    int64_t p = d2 > 1 ? tensor2->sizes[d2 - 1] : 1;
    int nb2 = d2 - 2 > 0 ? d2 - 2 : 0;
    if (d1 == 3 && d2 == 3 && tensor1->sizes[0] != tensor2->sizes[0]) {
        if (tensor1->sizes[0] == 1 && (requires_grad(tensor1) || ct_is_tensor_subclass_like(tensor1))) {
            ct_tensor *s = ct_squeeze_dim(tensor1, 0);
            ct_tensor *r = s ? ct_matmul(s, tensor2) : NULL;
            ct_tensor_release(s);
            return r;
        }
        if (tensor2->sizes[0] == 1 && (requires_grad(tensor2) || ct_is_tensor_subclass_like(tensor2))) {
            ct_tensor *s = ct_squeeze_dim(tensor2, 0);
            ct_tensor *r = s ? ct_matmul(tensor1, s) : NULL;
            ct_tensor_release(s);
            return r;
        }
    }
    int64_t output_shape[CT_MAX_DIMS];
    int no;
    if (ct_broadcast_shapes(tensor1->sizes, nb1, tensor2->sizes, nb2, output_shape, &no) != 0) return NULL;
    int64_t ebp = 1;
    for (int i = 0; i < no; i++) ebp *= output_shape[i];
    int64_t e1[CT_MAX_DIMS], e2[CT_MAX_DIMS];
    memcpy(e1, output_shape, sizeof(int64_t) * (size_t)no);
    memcpy(e2, output_shape, sizeof(int64_t) * (size_t)no);
    e1[no] = n;
    e1[no + 1] = m1;
    bool vector_rhs = d2 == 1;
    int ne2 = no;
    e2[ne2++] = m2;
    if (!vector_rhs) e2[ne2++] = p;
    ct_tensor *x1 = NULL, *t1e = NULL, *x2 = NULL, *t2e = NULL, *prod = NULL, *sq = NULL, *out = NULL;
    x1 = ct_expand(tensor1, e1, no + 2, false);
    int64_t r1[3] = {ebp, n, m1};
    t1e = x1 ? ct_reshape(x1, r1, 3) : NULL;
    x2 = t1e ? ct_expand(tensor2, e2, ne2, false) : NULL;
    if (x2) {
        if (vector_rhs) {
            int64_t r2[2] = {ebp, m2};
            ct_tensor *r = ct_reshape(x2, r2, 2);
            t2e = r ? ct_unsqueeze(r, 2) : NULL;
            ct_tensor_release(r);
        } else {
            int64_t r2[3] = {ebp, m2, p};
            t2e = ct_reshape(x2, r2, 3);
        }
    }
    if (d1 > 1) output_shape[no++] = n;
    if (d2 > 1) output_shape[no++] = p;
    prod = t2e ? ct_bmm(t1e, t2e) : NULL;
    if (prod) {
        if (vector_rhs) {
            sq = ct_squeeze_dim(prod, -1);
            out = sq ? ct__unsafe_view(sq, output_shape, no) : NULL;
        } else {
            out = ct__unsafe_view(prod, output_shape, no);
        }
    }
    ct_tensor_release(x1);
    ct_tensor_release(t1e);
    ct_tensor_release(x2);
    ct_tensor_release(t2e);
    ct_tensor_release(prod);
    ct_tensor_release(sq);
    return out;
}

/* matmul(Tensor self, Tensor other): _matmul_impl without out= */
int ct_k_matmul(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *t1 = ARG_T(0), *t2 = ARG_T(1);
    int d1 = t1->ndim, d2 = t2->ndim;
    if (d1 == 0 || d2 == 0)
        return ct_error_set(CT_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", d1, d2);
    if (d1 == 1 && d2 == 1) return ct_ret(rets, 0, ct_dot(t1, t2));
    if (d1 == 2 && d2 == 1) return ct_ret(rets, 0, ct_mv(t1, t2));
    if (d1 == 1 && d2 == 2) {
        /* tensor1.unsqueeze(0).mm(tensor2).squeeze_(0) */
        ct_tensor *u = ct_unsqueeze(t1, 0);
        ct_tensor *p = u ? ct_mm(u, t2) : NULL;
        ct_tensor_release(u);
        if (!p) return -1;
        if (ct_squeeze_dim_(p, 0) != 0) {
            ct_tensor_release(p);
            return -1;
        }
        return ct_ret(rets, 0, p);
    }
    if (d1 == 2 && d2 == 2) return ct_ret(rets, 0, ct_mm(t1, t2));
    if (should_fold(t1, t2)) return ct_ret(rets, 0, matmul_fold(t1, t2));
    return ct_ret(rets, 0, matmul_batched(t1, t2));
}
