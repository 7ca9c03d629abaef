/* The activations with a vectorised float32 loop (internal): the numbering shared by
 * src/ops/cpu/nn_act.c and its per-capability loops (vec/nnact_vec.c). */
#ifndef CT_NNACT_VEC_H
#define CT_NNACT_VEC_H

typedef enum ct_nnv_op { CT_NNV_SILU, CT_NNV_SOFTPLUS, CT_NNV_LEAKY_RELU, CT_NNV_HARDTANH } ct_nnv_op;

#endif
