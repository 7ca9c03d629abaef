/* This capability's kernel table (Note [CPU capabilities] in vec_kernels.h). */
#include "ops/cpu/vec/vec_impl.h"

#define CT_VEC_STR_(x) #x
#define CT_VEC_STR(x) CT_VEC_STR_(x)

#define PW(op) {CT_VEC(ct_vec_##op##_f32), CT_VEC(ct_vec_##op##_f64), CT_VEC(ct_vec_##op##_i64)}
#define PW_FLOAT(op) {CT_VEC(ct_vec_##op##_f32), CT_VEC(ct_vec_##op##_f64), 0}

const ct_vec_kernels CT_VEC(ct_vec_kernels) = {
    .name = CT_VEC_STR(CT_CPU_CAP),
    .pointwise =
        {
            [CT_VOP_ADD] = PW(add),
            [CT_VOP_ADD1] = PW(add1),
            [CT_VOP_SUB1] = PW(sub1),
            [CT_VOP_MUL] = PW(mul),
            [CT_VOP_DIV] = PW_FLOAT(div),
            [CT_VOP_NEG] = PW(neg),
            [CT_VOP_CLAMP_MIN] = PW(clamp_min),
            [CT_VOP_THRESHOLD_BW] = PW(threshold_bw),
        },
    .copy_same = {CT_VEC(ct_vec_copy_1), CT_VEC(ct_vec_copy_2), CT_VEC(ct_vec_copy_4), CT_VEC(ct_vec_copy_8)},
    .f32_from_f64 = CT_VEC(ct_vec_f32_from_f64),
    .f64_from_f32 = CT_VEC(ct_vec_f64_from_f32),
    .fill = CT_VEC(ct_vec_fill),
    .cascade_sum = CT_VEC(ct_vec_cascade_sum),
    .layer_norm_rows_f32 = CT_VEC(ct_vec_layer_norm_rows_f32),
    .layer_norm_bw_row_f32 = CT_VEC(ct_vec_layer_norm_bw_row_f32),
    .softmax_bw_lastdim_f32 = CT_VEC(ct_vec_softmax_bw_lastdim_f32),
    .softmax_bw_dim_f32 = CT_VEC(ct_vec_softmax_bw_dim_f32),
    .softmax_lastdim_f32 = CT_VEC(ct_vec_softmax_lastdim_f32),
    .softmax_dim_f32 = CT_VEC(ct_vec_softmax_dim_f32),
    .log_softmax_lastdim_f32 = CT_VEC(ct_vec_log_softmax_lastdim_f32),
    .log_softmax_dim_f32 = CT_VEC(ct_vec_log_softmax_dim_f32),
    .log_softmax_bw_dim_f32 = CT_VEC(ct_vec_log_softmax_bw_dim_f32),
    .log_softmax_bw_lastdim_f32 = CT_VEC(ct_vec_log_softmax_bw_lastdim_f32),
    .gelu_f32 = CT_VEC(ct_vec_gelu_f32),
    .gelu_bw_f32 = CT_VEC(ct_vec_gelu_bw_f32),
    .norm2_f32 = CT_VEC(ct_vec_norm2_f32),
    .lerp_f32 = CT_VEC(ct_vec_lerp_f32),
    .addcmul_f32 = CT_VEC(ct_vec_addcmul_f32),
    .addcdiv_f32 = CT_VEC(ct_vec_addcdiv_f32),
    .unary_f32 = CT_VEC(ct_vec_unary_f32),
    .nnact_f32 = CT_VEC(ct_vec_nnact_f32),
    .binary_f32 = CT_VEC(ct_vec_binary_f32),
    .sgemm_small = CT_VEC(ct_vec_sgemm_small),
    .bn_apply_f32 = CT_VEC(ct_vec_bn_apply_f32),
    .bn_apply_cl_f32 = CT_VEC(ct_vec_bn_apply_cl_f32),
    .bn_terms_f32 = CT_VEC(ct_vec_bn_terms_f32),
    .bn_bw_plane_f32 = CT_VEC(ct_vec_bn_bw_plane_f32),
    .bn_bw_dx_f32 = CT_VEC(ct_vec_bn_bw_dx_f32),
    .bn_cl_accum_f32 = CT_VEC(ct_vec_bn_cl_accum_f32),
    .bn_cl_bw_accum_f32 = CT_VEC(ct_vec_bn_cl_bw_accum_f32),
    .bn_cl_bw_dx_f32 = CT_VEC(ct_vec_bn_cl_bw_dx_f32),
    .gn_group_f32 = CT_VEC(ct_vec_gn_group_f32),
    .gn_plane_grads_f32 = CT_VEC(ct_vec_gn_plane_grads_f32),
    .gn_input_bw_f32 = CT_VEC(ct_vec_gn_input_bw_f32),
    .gn_params_bw_f32 = CT_VEC(ct_vec_gn_params_bw_f32),
    .linear_weights_f32 = CT_VEC(ct_vec_linear_weights_f32),
    .bilinear_plane_f32 = CT_VEC(ct_vec_bilinear_plane_f32),
    .bilinear_plane_bw_f32 = CT_VEC(ct_vec_bilinear_plane_bw_f32),
};
