/* Backward formulas of the neural-network and pointwise ops (derivatives.yaml and
 * FunctionsManual.cpp): _log_softmax, nll_loss_forward, masked_fill, embedding,
 * native_layer_norm, gelu, softmax / _safe_softmax, where,
 * bernoulli_ / exponential_ (zeros), sqrt, reciprocal, lerp, addcmul, addcdiv,
 * dot, mv and the CPU flash attention. Each calls ops through the
 * dispatcher in the order of Note [Formula order] (formulas.h). */
#include <math.h>
#include <string.h>

#include "autograd/formulas.h"

int ct_d_log_softmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    out[0] = ct__log_softmax_backward_data(grads[0], result, ct_f_iarg(n, 1), ct_f_meta(n, 0)->dtype);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

int ct_d_nll_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self = NULL, *target = NULL, *weight = NULL, *total_weight = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) == 0 && ct_saved_unpack(n, &n->saved_args[1], &target) == 0 &&
        ct_saved_unpack(n, &n->saved_args[2], &weight) == 0 && ct_saved_unpack(n, &n->saved_rets[1], &total_weight) == 0) {
        out[0] = ct_nll_loss_backward(grads[0], self, target, weight, ct_f_iarg(n, 3), ct_f_iarg(n, 4), total_weight);
        rc = out[0] ? 0 : -1;
    }
    ct_tensor_release(self);
    ct_tensor_release(target);
    ct_tensor_release(weight);
    ct_tensor_release(total_weight);
    return rc;
}

/* masked_fill: self: grad.masked_fill(mask, 0); mask: non_differentiable */
int ct_d_masked_fill(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *mask;
    if (ct_saved_unpack(n, &n->saved_args[1], &mask) != 0) return -1;
    out[0] = ct_masked_fill(grads[0], mask, ct_int(0));
    ct_tensor_release(mask);
    CT_F_NEED(out[0]);
    return 0;
}

/* embedding: weight: embedding_backward(grad, indices, weight.size(0), padding_idx,
 * scale_grad_by_freq, sparse) */
int ct_d_embedding(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *indices;
    if (ct_saved_unpack(n, &n->saved_args[1], &indices) != 0) return -1;
    out[0] = ct_embedding_backward(grads[0], indices, ct_f_meta(n, 0)->sizes[0], ct_f_iarg(n, 2), n->args[3].u.b, n->args[4].u.b);
    ct_tensor_release(indices);
    CT_F_NEED(out[0]);
    return 0;
}

/* embedding_dense_backward: grad_output: embedding_dense_double_backward(grad, indices,
 * padding_idx) = grad.index_select(0, indices.reshape(-1)) (rows of padding_idx zeroed), viewed
 * as indices' shape + [-1] */
int ct_d_embedding_dense_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *indices;
    if (ct_saved_unpack(n, &n->saved_args[1], &indices) != 0) return -1;
    int64_t flat = -1;
    ct_tensor *r = ct_reshape(indices, &flat, 1);
    ct_tensor *gg = r ? ct_index_select(grads[0], 0, r) : NULL;
    ct_tensor_release(r);
    int64_t pad = ct_f_iarg(n, 3);
    if (gg && pad >= 0) {
        ct_tensor *eq = ct_eq_scalar(indices, ct_int(pad));
        int64_t s2[2] = {-1, 1};
        ct_tensor *m = eq ? ct_reshape(eq, s2, 2) : NULL;
        if (!m || ct_masked_fill_(gg, m, ct_int(0)) != 0) {
            ct_tensor_release(gg);
            gg = NULL;
        }
        ct_tensor_release(eq);
        ct_tensor_release(m);
    }
    if (gg) {
        int64_t size[CT_MAX_DIMS];
        int nd = ct_tensor_ndim(indices);
        memcpy(size, ct_tensor_sizes(indices), sizeof(int64_t) * (size_t)nd);
        size[nd++] = -1;
        out[0] = ct_view(gg, size, nd);
    }
    ct_tensor_release(gg);
    ct_tensor_release(indices);
    CT_F_NEED(out[0]);
    return 0;
}

/* native_layer_norm: input, weight, bias: native_layer_norm_backward(grad, input,
 * normalized_shape, result1, result2, weight, bias, grad_input_mask) */
int ct_d_native_layer_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (!grads[0]) return 0;
    ct_tensor *input = NULL, *weight = NULL, *bias = NULL, *mean = NULL, *rstd = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &input) == 0 && ct_saved_unpack(n, &n->saved_args[2], &weight) == 0 &&
        ct_saved_unpack(n, &n->saved_args[3], &bias) == 0 && ct_saved_unpack(n, &n->saved_rets[1], &mean) == 0 &&
        ct_saved_unpack(n, &n->saved_rets[2], &rstd) == 0) {
        bool mask[3] = {ct_node_needs(n, 0), ct_node_needs(n, 2), ct_node_needs(n, 3)};
        ct_tensor *gi = NULL, *gw = NULL, *gb = NULL;
        rc = ct_native_layer_norm_backward(grads[0], input, n->args[1].u.list.data, n->args[1].u.list.len, mean, rstd, weight, bias,
                                           mask, 3, &gi, &gw, &gb);
        if (rc == 0) {
            out[0] = gi;
            out[2] = gw;
            out[3] = gb;
        }
    }
    ct_tensor_release(input);
    ct_tensor_release(weight);
    ct_tensor_release(bias);
    ct_tensor_release(mean);
    ct_tensor_release(rstd);
    return rc;
}

/* gelu: self: gelu_backward(grad, self, approximate) */
int ct_d_gelu(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *self;
    if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
    const char *approx = n->args[1].tag == CT_TAG_STRING ? n->args[1].u.s : "none";
    out[0] = ct_gelu_backward(grads[0], self, approx);
    ct_tensor_release(self);
    CT_F_NEED(out[0]);
    return 0;
}

/* _softmax / _safe_softmax: self: _softmax_backward_data(grad, result, dim, self.scalar_type()) */
int ct_d_softmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    out[0] = ct__softmax_backward_data(grads[0], result, ct_f_iarg(n, 1), ct_f_meta(n, 0)->dtype);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

/* where.self: other: where(condition, 0, grad); self: where(condition, grad, 0) */
int ct_d_where(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *cond;
    if (ct_saved_unpack(n, &n->saved_args[0], &cond) != 0) return -1;
    int rc = 0;
    if (ct_node_needs(n, 2) && !(out[2] = ct_where_scalarself(cond, ct_int(0), grads[0]))) rc = -1;
    if (rc == 0 && ct_node_needs(n, 1) && !(out[1] = ct_where_scalarother(cond, grads[0], ct_int(0)))) rc = -1;
    ct_tensor_release(cond);
    return rc;
}

/* bernoulli_, exponential_: self: zeros_like(grad) */
int ct_d_zeros_like(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    (void)n;
    CT_F_NEED(out[0] = ct_zeros_like(grads[0], CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE));
    return 0;
}

/* sqrt: self: grad / (2 * result) */
int ct_d_sqrt(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    ct_tensor *two = ct_mul_scalar(result, ct_int(2));
    out[0] = two ? ct_div(grads[0], two) : NULL;
    ct_tensor_release(two);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

/* reciprocal: self: -grad * (result * result) */
int ct_d_reciprocal(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    ct_tensor *result;
    if (ct_saved_unpack(n, &n->saved_rets[0], &result) != 0) return -1;
    ct_tensor *sq = ct_mul(result, result);
    ct_tensor *ng = sq ? ct_neg(grads[0]) : NULL;
    out[0] = ng ? ct_mul(ng, sq) : NULL;
    ct_tensor_release(sq);
    ct_tensor_release(ng);
    ct_tensor_release(result);
    CT_F_NEED(out[0]);
    return 0;
}

/* lerp.Scalar: end: grad * weight; self: grad * (1 - weight) */
int ct_d_lerp(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    double w = ct_f_darg(n, 2);
    if (ct_node_needs(n, 1)) CT_F_NEED(out[1] = ct_mul_scalar(grads[0], n->args[2]));
    if (ct_node_needs(n, 0)) CT_F_NEED(out[0] = ct_mul_scalar(grads[0], ct_double(1 - w)));
    return 0;
}

/* addcmul: self: grad; tensor1: grad * (tensor2 * value); tensor2: grad * (tensor1 * value) */
int ct_d_addcmul(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    for (int a = 1; a <= 2; a++) {
        if (!ct_node_needs(n, a)) continue;
        ct_tensor *other;
        if (ct_saved_unpack(n, &n->saved_args[3 - a], &other) != 0) return -1;
        ct_tensor *ov = ct_mul_scalar(other, n->args[3]);
        out[a] = ov ? ct_mul(grads[0], ov) : NULL;
        ct_tensor_release(ov);
        ct_tensor_release(other);
        CT_F_NEED(out[a]);
    }
    return 0;
}

/* addcdiv: self: grad; tensor1: grad * (value / tensor2);
 * tensor2: -grad * (value * tensor1 / (tensor2 * tensor2)) */
int ct_d_addcdiv(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) out[0] = ct_tensor_retain(grads[0]);
    ct_tensor *t2 = NULL;
    if ((ct_node_needs(n, 1) || ct_node_needs(n, 2)) && ct_saved_unpack(n, &n->saved_args[2], &t2) != 0) return -1;
    int rc = 0;
    if (ct_node_needs(n, 1)) {
        /* Scalar / Tensor: tensor2.reciprocal() * value */
        ct_tensor *rcp = ct_reciprocal(t2);
        ct_tensor *q = rcp ? ct_mul_scalar(rcp, n->args[3]) : NULL;
        out[1] = q ? ct_mul(grads[0], q) : NULL;
        ct_tensor_release(rcp);
        ct_tensor_release(q);
        if (!out[1]) rc = -1;
    }
    if (rc == 0 && ct_node_needs(n, 2)) {
        ct_tensor *t1 = NULL;
        if (ct_saved_unpack(n, &n->saved_args[1], &t1) != 0) rc = -1;
        ct_tensor *sq = rc == 0 ? ct_mul(t2, t2) : NULL;
        ct_tensor *vt = sq ? ct_mul_scalar(t1, n->args[3]) : NULL;
        ct_tensor *q = vt ? ct_div(vt, sq) : NULL;
        ct_tensor *ng = q ? ct_neg(grads[0]) : NULL;
        out[2] = ng ? ct_mul(ng, q) : NULL;
        ct_tensor_release(t1);
        ct_tensor_release(sq);
        ct_tensor_release(vt);
        ct_tensor_release(q);
        ct_tensor_release(ng);
        if (!out[2]) rc = -1;
    }
    ct_tensor_release(t2);
    return rc;
}

/* dot: self: grad * tensor; tensor: grad * self */
int ct_d_dot(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    for (int a = 0; a <= 1; a++) {
        if (!ct_node_needs(n, a)) continue;
        ct_tensor *other;
        if (ct_saved_unpack(n, &n->saved_args[1 - a], &other) != 0) return -1;
        out[a] = ct_mul(grads[0], other);
        ct_tensor_release(other);
        CT_F_NEED(out[a]);
    }
    return 0;
}

/* mv: self: grad.ger(vec) = grad.reshape({size(0), 1}) * vec; vec: self.t().mv(grad) */
int ct_d_mv(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (ct_node_needs(n, 0)) {
        ct_tensor *vec;
        if (ct_saved_unpack(n, &n->saved_args[1], &vec) != 0) return -1;
        int64_t s[2] = {ct_tensor_sizes(grads[0])[0], 1};
        ct_tensor *col = ct_reshape(grads[0], s, 2);
        out[0] = col ? ct_mul(col, vec) : NULL;
        ct_tensor_release(col);
        ct_tensor_release(vec);
        CT_F_NEED(out[0]);
    }
    if (ct_node_needs(n, 1)) {
        ct_tensor *self;
        if (ct_saved_unpack(n, &n->saved_args[0], &self) != 0) return -1;
        ct_tensor *st = ct_t(self);
        out[1] = st ? ct_mv(st, grads[0]) : NULL;
        ct_tensor_release(st);
        ct_tensor_release(self);
        CT_F_NEED(out[1]);
    }
    return 0;
}

/* _scaled_dot_product_flash_attention_for_cpu: query, key, value:
 * _scaled_dot_product_flash_attention_for_cpu_backward(grad, query, key, value, output,
 * logsumexp, dropout_p, is_causal, attn_mask, scale) */
int ct_d_flash_attention(ct_node *n, ct_tensor *const *grads, ct_tensor **out) {
    if (!grads[0]) return 0;
    ct_tensor *q = NULL, *k = NULL, *v = NULL, *o = NULL, *lse = NULL, *mask = NULL;
    int rc = -1;
    if (ct_saved_unpack(n, &n->saved_args[0], &q) == 0 && ct_saved_unpack(n, &n->saved_args[1], &k) == 0 && ct_saved_unpack(n, &n->saved_args[2], &v) == 0 &&
        ct_saved_unpack(n, &n->saved_args[5], &mask) == 0 && ct_saved_unpack(n, &n->saved_rets[0], &o) == 0 && ct_saved_unpack(n, &n->saved_rets[1], &lse) == 0) {
        const double *scale = n->args[6].tag == CT_TAG_DOUBLE ? &n->args[6].u.d : NULL;
        ct_tensor *gq = NULL, *gk = NULL, *gv = NULL;
        rc = ct__scaled_dot_product_flash_attention_for_cpu_backward(grads[0], q, k, v, o, lse, n->args[3].u.d, n->args[4].u.b, mask,
                                                                     scale, &gq, &gk, &gv);
        if (rc == 0) {
            out[0] = gq;
            out[1] = gk;
            out[2] = gv;
        }
    }
    ct_tensor_release(q);
    ct_tensor_release(k);
    ct_tensor_release(v);
    ct_tensor_release(o);
    ct_tensor_release(lse);
    ct_tensor_release(mask);
    return rc;
}
