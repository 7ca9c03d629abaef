/* Backward formulas (torch/csrc/autograd/FunctionsManual.cpp and derivatives.yaml): the one set
 * of helpers they share, and every formula derivatives.def names, by family (internal). Each
 * formula has the ct_formula_fn signature (autograd/node.h) and is a plain function definition,
 * so tools that index C (ctags, cscope) find it by its name.
 *
 * A formula for an op with a Tensor[] argument stores the gradient of element k of argument a
 * in n->list_grads[n->edge_of_arg[a] + k] (see ct_node_needs_elem).
 *
 * Note [Formula order]
 *   Each formula calls ops through the dispatcher in the order PyTorch's generated Node::apply
 *   does, so a dispatch mode or the profiler sees the same backward ops. The generated apply()
 *   computes the inputs' gradients in the alphabetical order of their argument names
 *   (load_derivatives.py sorts them): addmm does mat1, mat2, self; div and mul do other before
 *   self; mm does mat2 before self. */
#ifndef CT_FORMULAS_H
#define CT_FORMULAS_H

#include <stdbool.h>

#include "autograd/node.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"

/* ---- the helpers ---- */

/* The node's saved argument i: an int, a Scalar, a Scalar as a double (an int one converted),
 * the tensor argument's metadata (sizes, strides, dtype). */
static inline int64_t ct_f_iarg(const ct_node *n, int i) { return n->args[i].u.i; }
static inline ct_scalar ct_f_sarg(const ct_node *n, int i) { return n->args[i]; }
static inline double ct_f_darg(const ct_node *n, int i) {
    return n->args[i].tag == CT_TAG_DOUBLE ? n->args[i].u.d : (double)n->args[i].u.i;
}
static inline const ct_tensor_meta *ct_f_meta(const ct_node *n, int i) { return &n->arg_meta[i]; }

/* The dimensions of an ndim-dimensional input that a reduction over the int list dims removed
 * (negative ones counted from the end), as a mask: what unsqueeze_multiple puts back. */
static inline void ct_f_dim_mask(const ct_value *dims, int ndim, bool mask[CT_MAX_DIMS]) {
    for (int i = 0; i < CT_MAX_DIMS; i++) mask[i] = false;
    for (int64_t i = 0; i < dims->u.list.len; i++) {
        int64_t d = dims->u.list.data[i];
        mask[d < 0 ? d + ndim : d] = true;
    }
}

/* at::scalar_tensor(v, like.options()) (formulas_math.c) */
ct_tensor *ct_f_scalar_like(double v, const ct_tensor *like);

/* Fails the formula: the caller releases whatever was already produced. */
#define CT_F_NEED(expr)                                                                           \
    do {                                                                                          \
        if (!(expr)) return -1;                                                                   \
    } while (0)

/* ---- the formulas ---- */

/* matrix products and arithmetic: formulas_math.c */
int ct_d_addmm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_to_copy(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_add(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sub(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_rsub_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_rsub_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp_min(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp_max(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mul(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_div(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mul_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_div_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_neg(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_relu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sum(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sum_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* the reductions: formulas_reduce.c */
int ct_d_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mean_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_var(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_std(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_var_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_std_mean(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_nansum(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_amax(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_amin(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_max_all(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_max_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_prod(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_prod_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_logsumexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cumsum(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cumprod(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_logcumsumexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* sorting and selection: formulas_sort.c */
int ct_d_sort(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sort_stable(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_topk(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_kthvalue(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_median_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cummax(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* the activations and pointwise losses: formulas_nnact.c */
int ct_d_softplus(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_silu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mish(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hardtanh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hardtanh_result(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_leaky_relu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_leaky_relu_result(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_elu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_elu_result(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_celu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_celu_result(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hardsigmoid(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hardswish(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_threshold(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_threshold_result(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_softshrink(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hardshrink(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_log_sigmoid(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mse_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_smooth_l1_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_huber_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_binary_cross_entropy(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* the shape ops: formulas_shapeops.c */
int ct_d_flip(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_roll(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_repeat(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_triu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_diagonal(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_diagonal_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_squeeze(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_squeeze_dims(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* advanced indexing: index, index_put: formulas_index.c */
int ct_d_index(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_index_put(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* the unary math family: formulas_unary.c */
int ct_d_exp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_exp2(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_expm1(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_log(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_log2(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_log10(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_log1p(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sin(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cos(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_tan(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_asin(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_acos(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_atan(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sinh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cosh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_tanh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_asinh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_acosh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_atanh(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sigmoid(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_logit(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_erf(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_erfc(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_erfinv(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_rsqrt(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_lgamma(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_deg2rad(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_rad2deg(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_abs(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_nan_to_num(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_inplace_not_implemented(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* the binary family: pow, fmod, remainder, atan2, minimum/maximum, fmin/fmax, div with a rounding
 * mode, copysign, hypot, logaddexp, xlogy, the in-place comparisons: formulas_binary.c */
int ct_d_pow_tensor_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_pow_tensor_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_pow_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_fmod_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_remainder_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_atan2(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_maximum(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_minimum(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_fmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_fmin(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_div_tensor_mode(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_copysign_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_copysign_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_hypot(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_logaddexp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_xlogy_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_xlogy_scalar_self(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_xlogy_scalar_other(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_compare_scalar_(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_compare_tensor_(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* views, shape ops and the batched product: formulas_shape.c */
int ct_d_t(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_transpose(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_permute(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reshape_to_self(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_expand(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_identity(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_not_implemented(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_unsqueeze(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_squeeze_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_slice(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_select(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_select_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_slice_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_split(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_split_with_sizes(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_unbind(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_cat(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_stack(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_tril(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_bmm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* neural-network and pointwise ops: formulas_nn.c */
int ct_d_log_softmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_nll_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_masked_fill(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_embedding(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_embedding_dense_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_layer_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_gelu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_softmax(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_where(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_zeros_like(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_sqrt(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reciprocal(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_lerp(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_addcmul(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_addcdiv(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_linalg_vector_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_dot(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_mv(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_flash_attention(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* convolution and pooling: formulas_conv.c */
int ct_d_convolution(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_im2col(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_col2im(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_max_pool2d_with_indices(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_max_pool3d_with_indices(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_avg_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_avg_pool3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_adaptive_avg_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_adaptive_avg_pool3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_adaptive_max_pool2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_avg_pool2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_avg_pool3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_adaptive_avg_pool2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_adaptive_avg_pool3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
/* scatter, gather, masked_scatter, the view-replay inverses, padding, clamp.Tensor, fill,
 * masked_fill.Tensor: formulas_scatter.c */
int ct_d_scatter_src(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_scatter_value(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_scatter_add(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_gather(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_scatter_reduce(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_masked_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_select_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_slice_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_diagonal_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_constant_pad_nd(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad1d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad1d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_reflection_pad3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad1d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad1d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_replication_pad3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp_min_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_clamp_max_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_fill_scalar(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_fill_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_masked_fill_tensor(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_as_strided_scatter(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_copy_(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
/* the composites family: formulas_composite.c */
int ct_d_norm_ScalarOpt_dim(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_glu(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_soft_margin_loss(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_binary_cross_entropy_with_logits(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
/* formulas_norm.c */
int ct_d_native_batch_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_batch_norm_no_stats(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_batch_norm_no_training(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_group_norm(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_dropout(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_native_dropout_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_bilinear2d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest1d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_pdist_forward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest1d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest3d(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_nearest3d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);
int ct_d_upsample_bilinear2d_backward(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

#endif
