/* The loops each capability build exports, collected into its table by vec/table.c (internal to
 * the kernel files). */
#ifndef CT_VEC_IMPL_H
#define CT_VEC_IMPL_H

#include <math.h>

#include "ops/cpu/vec/vec_kernels.h"

/* A product feeding an addition where PyTorch's GCC build fuses it (-ffp-contract=fast): one
 * multiply-add wherever the level has FMA (AVX2, AVX512), a multiply and an add at DEFAULT. The
 * kernel files are built with -ffp-contract=off, so nothing else is fused. */
#if defined(__FMA__)
#define MADD(a, b, c) fmaf((a), (b), (c))
#else
#define MADD(a, b, c) ((a) * (b) + (c))
#endif

#define CT_VEC_LOOP(name) void CT_VEC(name)(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx)

/* pointwise_vec.c */
CT_VEC_LOOP(ct_vec_add_f32);
CT_VEC_LOOP(ct_vec_add_f64);
CT_VEC_LOOP(ct_vec_add_i64);
CT_VEC_LOOP(ct_vec_add1_f32);
CT_VEC_LOOP(ct_vec_add1_f64);
CT_VEC_LOOP(ct_vec_add1_i64);
CT_VEC_LOOP(ct_vec_sub1_f32);
CT_VEC_LOOP(ct_vec_sub1_f64);
CT_VEC_LOOP(ct_vec_sub1_i64);
CT_VEC_LOOP(ct_vec_mul_f32);
CT_VEC_LOOP(ct_vec_mul_f64);
CT_VEC_LOOP(ct_vec_mul_i64);
CT_VEC_LOOP(ct_vec_div_f32);
CT_VEC_LOOP(ct_vec_div_f64);
CT_VEC_LOOP(ct_vec_neg_f32);
CT_VEC_LOOP(ct_vec_neg_f64);
CT_VEC_LOOP(ct_vec_neg_i64);
CT_VEC_LOOP(ct_vec_clamp_min_f32);
CT_VEC_LOOP(ct_vec_clamp_min_f64);
CT_VEC_LOOP(ct_vec_clamp_min_i64);
CT_VEC_LOOP(ct_vec_threshold_bw_f32);
CT_VEC_LOOP(ct_vec_threshold_bw_f64);
CT_VEC_LOOP(ct_vec_threshold_bw_i64);

/* copy_vec.c */
CT_VEC_LOOP(ct_vec_copy_1);
CT_VEC_LOOP(ct_vec_copy_2);
CT_VEC_LOOP(ct_vec_copy_4);
CT_VEC_LOOP(ct_vec_copy_8);
CT_VEC_LOOP(ct_vec_f32_from_f64);
CT_VEC_LOOP(ct_vec_f64_from_f32);
CT_VEC_LOOP(ct_vec_fill);

/* sum_vec.c */
CT_VEC_LOOP(ct_vec_cascade_sum);
float CT_VEC(ct_vec_norm2_f32)(const float *x, int64_t n);

/* binary_vec.c */
void CT_VEC(ct_vec_binary_f32)(ct_vec_bin_op op, const float *a, const float *b, int64_t b_step, int64_t n, void *out);

/* optim_vec.c */
void CT_VEC(ct_vec_lerp_f32)(const float *a, const float *b, float w, int64_t n, float *o);
void CT_VEC(ct_vec_addcmul_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o);
void CT_VEC(ct_vec_addcdiv_f32)(const float *s, const float *t1, const float *t2, float v, int64_t n, float *o);

/* unary_vec.c */
bool CT_VEC(ct_vec_unary_f32)(int op, const float *x, int64_t n, float *y);
/* nnact_vec.c */
void CT_VEC(ct_vec_nnact_f32)(int op, const float *x, int64_t n, const float *par, float *y);

/* gelu_vec.c */
void CT_VEC(ct_vec_gelu_f32)(const float *x, int64_t n, float *y);
void CT_VEC(ct_vec_gelu_bw_f32)(const float *dy, const float *x, int64_t n, float *dx);

/* norm_vec.c */
void CT_VEC(ct_vec_layer_norm_rows_f32)(const float *x, const float *gamma, const float *beta, int64_t M, int64_t N,
                                        float eps, float *y, float *mean, float *rstd);
void CT_VEC(ct_vec_layer_norm_bw_row_f32)(const float *dy, const float *x, float mean, float rstd, const float *gamma,
                                          int64_t N, float *dx, float *acc_gamma, float *acc_beta);

/* softmax_vec.c */
void CT_VEC(ct_vec_softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi);
void CT_VEC(ct_vec_softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, float *gi);
void CT_VEC(ct_vec_softmax_lastdim_f32)(const float *x, int64_t n, float *y);
void CT_VEC(ct_vec_softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t begin, int64_t end, float *y);
void CT_VEC(ct_vec_log_softmax_lastdim_f32)(const float *x, int64_t n, float *y);
void CT_VEC(ct_vec_log_softmax_dim_f32)(const float *x, int64_t len, int64_t inner, int64_t size, float *scratch, float *y);
void CT_VEC(ct_vec_log_softmax_bw_dim_f32)(const float *g, const float *y, int64_t len, int64_t inner, int64_t size,
                                           float *scratch, float *gi);
void CT_VEC(ct_vec_log_softmax_bw_lastdim_f32)(const float *g, const float *y, int64_t n, float *gi);

/* gemm_vec.c */
bool CT_VEC(ct_vec_sgemm_small)(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                                int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);

/* bnorm_vec.c */
void CT_VEC(ct_vec_bn_apply_f32)(const float *x, int64_t n, float alpha, float beta, float *y);
void CT_VEC(ct_vec_bn_apply_cl_f32)(const float *x, const float *alpha, const float *beta, int64_t C, float *y);
void CT_VEC(ct_vec_bn_terms_f32)(int64_t C, const float *mean, const float *invstd, const float *w, const float *b,
                                 float *alpha, float *beta);
void CT_VEC(ct_vec_bn_bw_plane_f32)(const float *x, const float *dy, float mean, int64_t n, float *sum, float *dotp);
void CT_VEC(ct_vec_bn_bw_dx_f32)(const float *x, const float *dy, int64_t n, float mean, float k, float grad_mean,
                                 float invstd, float w, float *dx);
void CT_VEC(ct_vec_bn_cl_accum_f32)(const float *x, const float *mean, int64_t C, float *buf);
void CT_VEC(ct_vec_bn_cl_bw_accum_f32)(const float *x, const float *dy, const float *mean, int64_t C, float *sum,
                                       float *dotp);
void CT_VEC(ct_vec_bn_cl_bw_dx_f32)(const float *x, const float *dy, const float *mean, const float *invstd,
                                    const float *sum, const float *dotp, const float *w, float nf, int64_t C, float *dx);

/* gnorm_vec.c (and norm_vec.c's moments) */
void CT_VEC(ct_vec_row_moments_f32)(const float *x, int64_t N, float *mean, float *var);
void CT_VEC(ct_vec_gn_group_f32)(const float *x, const float *gamma, const float *beta, int64_t D, int64_t HxW, double eps,
                                 float *y, float *mean, float *rstd);
void CT_VEC(ct_vec_gn_plane_grads_f32)(const float *dy, const float *x, int64_t n, float *ds, float *db);
void CT_VEC(ct_vec_gn_input_bw_f32)(const float *dy, const float *x, const float *ds, const float *db, const float *gamma,
                                    int64_t D, int64_t HxW, float mean, float rstd, float *dx);
void CT_VEC(ct_vec_gn_params_bw_f32)(const float *ds, const float *db, const float *mean, const float *rstd, int64_t N,
                                     int64_t C, int64_t G, float *dgamma, float *dbeta);

/* resample_vec.c */
void CT_VEC(ct_vec_linear_weights_f32)(int64_t in, int64_t out, bool align_corners, float scale, int64_t *i0, int64_t *i1,
                                       float *l0, float *l1);
void CT_VEC(ct_vec_bilinear_plane_f32)(const float *x, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                                       const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1, const float *wl0,
                                       const float *wl1, bool combined, float *y);
void CT_VEC(ct_vec_bilinear_plane_bw_f32)(const float *g, int64_t W, int64_t OH, int64_t OW, const int64_t *h0, const int64_t *h1,
                                          const float *hl0, const float *hl1, const int64_t *w0, const int64_t *w1,
                                          const float *wl0, const float *wl1, float *gi);

#endif
