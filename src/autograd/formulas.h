/* Backward formulas defined outside derivatives.c, by family (internal). Each has the
 * ct_formula_fn signature and is named in src/autograd/derivatives.def.
 *
 * A formula for an op with a Tensor[] argument stores the gradient of element k of argument a
 * in n->list_grads[n->edge_of_arg[a] + k] (see ct_node_needs_elem). */
#ifndef CT_FORMULAS_H
#define CT_FORMULAS_H

#include "autograd/node.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"

static inline int64_t ct_f_iarg(const ct_node *n, int i) { return n->args[i].u.i; }
static inline const ct_tensor_meta *ct_f_meta(const ct_node *n, int i) { return &n->arg_meta[i]; }

/* Fails the formula: the caller releases whatever was already produced. */
#define CT_F_NEED(expr)                                                                           \
    do {                                                                                          \
        if (!(expr)) return -1;                                                                   \
    } while (0)

#define CT_FORMULA(name) int name(ct_node *n, ct_tensor *const *grads, ct_tensor **out)

/* shape: formulas_shape.c */
CT_FORMULA(ct_d_slice);
CT_FORMULA(ct_d_select);
CT_FORMULA(ct_d_select_backward);
CT_FORMULA(ct_d_slice_backward);
CT_FORMULA(ct_d_split);
CT_FORMULA(ct_d_split_with_sizes);
CT_FORMULA(ct_d_cat);
CT_FORMULA(ct_d_stack);
CT_FORMULA(ct_d_tril);
CT_FORMULA(ct_d_bmm);

/* neural-network and pointwise ops: formulas_nn.c */
CT_FORMULA(ct_d_embedding);
CT_FORMULA(ct_d_embedding_dense_backward);
CT_FORMULA(ct_d_native_layer_norm);
CT_FORMULA(ct_d_gelu);
CT_FORMULA(ct_d_softmax);
CT_FORMULA(ct_d_where);
CT_FORMULA(ct_d_zeros_like);
CT_FORMULA(ct_d_sqrt);
CT_FORMULA(ct_d_reciprocal);
CT_FORMULA(ct_d_lerp);
CT_FORMULA(ct_d_addcmul);
CT_FORMULA(ct_d_addcdiv);
CT_FORMULA(ct_d_linalg_vector_norm);
CT_FORMULA(ct_d_dot);
CT_FORMULA(ct_d_mv);
CT_FORMULA(ct_d_flash_attention);

#endif
