/* native_group_norm and native_group_norm_backward (group_norm.cpp, cpu/group_norm_kernel.cpp).
 * float32 follows PyTorch's float kernel (Note [Group norm order] in vec/gnorm_vec.c); other
 * floating types compute in double and round once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/group_norm.h"
#include "ops/kernel_util.h"

/* check_group_norm_inputs; 0, or -1 with PyTorch's message (the bias message shows weight's
 * shape, as PyTorch 2.6's does: [0] without a weight) */
int ct_group_norm_check_inputs(const ct_tensor *input, const ct_tensor *weight, const ct_tensor *bias, int64_t C, int64_t group) {
    char a[256], b[256];
    if (group <= 0) return ct_error_set(CT_ERR_RUNTIME, "Expected num groups to be greater than 0, got %lld", (long long)group);
    ct_format_shape(input->sizes, input->ndim, b, sizeof b);
    if (C % group != 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%lld",
                            b, (long long)group);
    if (weight && (weight->ndim != 1 || weight->numel != C)) {
        ct_format_shape(weight->sizes, weight->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s",
                            a, b);
    }
    if (bias && (bias->ndim != 1 || bias->numel != C)) {
        if (weight) ct_format_shape(weight->sizes, weight->ndim, a, sizeof a);
        else snprintf(a, sizeof a, "[0]");
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape %s and input of shape %s",
                            a, b);
    }
    return 0;
}

static int check_floating(const ct_tensor *t, const char *kernel) {
    if (!ct_dtype_is_floating(t->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(t->dtype));
    return 0;
}

static int check_numel(int64_t numel, int64_t want, const char *what) {
    if (numel != want)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected %s to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)",
                            what);
    return 0;
}

static int check_mixed(const ct_tensor *x, const ct_tensor *a, const ct_tensor *b) {
    const ct_tensor *p[2] = {a, b};
    bool mixed = false;
    for (int i = 0; i < 2; i++)
        if (p[i] && p[i]->dtype != x->dtype) mixed = true;
    if (!mixed) return 0;
    for (int i = 0; i < 2; i++)
        if (p[i] && p[i]->dtype != CT_FLOAT32)
            return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
    if (!ct_dtype_is_reduced_floating(x->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): all inputs must share same datatype.");
    return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: native_group_norm with float32 parameters of a %s input is not implemented yet",
                        ct_dtype_name(x->dtype));
}

typedef struct gn_job {
    const ct_vec_kernels *vk;
    int64_t C, G, D, HxW;
    double eps;
    const float *x, *g, *b;
    float *y, *mean, *rstd;
} gn_job;

static int gn_groups(void *ctx, int64_t begin, int64_t end) {
    const gn_job *j = ctx;
    const int64_t inner = j->D * j->HxW;
    for (int64_t i = begin; i < end; i++) {
        const int64_t g = i % j->G;
        j->vk->gn_group_f32(j->x + i * inner, j->g ? j->g + g * j->D : NULL, j->b ? j->b + g * j->D : NULL, j->D, j->HxW, j->eps,
                            j->y + i * inner, j->mean + i, j->rstd + i);
    }
    return 0;
}

/* native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW,
 *   int group, float eps) -> (Tensor, Tensor, Tensor) */
int ct_k_native_group_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x = ARG_T(0), *weight = ARG_OPT_T(1), *bias = ARG_OPT_T(2);
    const int64_t N = ARG_I(3), C = ARG_I(4), HxW = ARG_I(5), G = ARG_I(6);
    const double eps = args[7].u.d;
    if (ct_group_norm_check_inputs(x, weight, bias, C, G) != 0) return -1;
    if (!ct_is_contiguous_nn(x))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    if (check_mixed(x, weight, bias) != 0) return -1;
    if (check_numel(x->numel, N * C * HxW, "X.numel() == N * C * HxW") != 0) return -1;
    if (check_floating(x, "GroupNormKernelImpl") != 0) return -1;
    const int64_t ss[2] = {N, G}, D = C / G;
    ct_tensor *y = ct_tensor_alloc(x->sizes, x->ndim, x->dtype, false);
    ct_tensor *mean = ct_tensor_alloc(ss, 2, x->dtype, false);
    ct_tensor *rstd = ct_tensor_alloc(ss, 2, x->dtype, false);
    bool fail = !y || !mean || !rstd;
    if (!fail && x->numel > 0 && x->dtype == CT_FLOAT32 && (!weight || weight->dtype == CT_FLOAT32) &&
        (!bias || bias->dtype == CT_FLOAT32)) {
        float *own[3] = {NULL, NULL, NULL};
        gn_job j = {ct_vec(), C, G, D, HxW, eps, ct_float_elements(x, &own[0]), NULL, NULL, (float *)y->storage->data,
                    (float *)mean->storage->data, (float *)rstd->storage->data};
        fail = !j.x || (weight && !(j.g = ct_float_elements(weight, &own[1]))) || (bias && !(j.b = ct_float_elements(bias, &own[2])));
        if (!fail) ct_parallel_for(0, N * G, 1, gn_groups, &j);
        for (int k = 0; k < 3; k++) ct_free(own[k]);
    } else if (!fail && x->numel > 0) {
        double *xv = ct_to_double_buffer(x), *gv = weight ? ct_to_double_buffer(weight) : NULL;
        double *bv = bias ? ct_to_double_buffer(bias) : NULL;
        fail = !xv || (weight && !gv) || (bias && !bv);
        const int64_t inner = D * HxW;
        for (int64_t i = 0; !fail && i < N * G; i++) {
            const double *xr = xv + i * inner;
            double m = 0, v = 0;
            for (int64_t k = 0; k < inner; k++) m += xr[k];
            m /= (double)inner;
            for (int64_t k = 0; k < inner; k++) v += (xr[k] - m) * (xr[k] - m);
            v /= (double)inner;
            const double r = 1.0 / sqrt(v + eps);
            ct_store_from_double(ct_tensor_elem_ptr(mean, i), mean->dtype, m);
            ct_store_from_double(ct_tensor_elem_ptr(rstd, i), rstd->dtype, r);
            const int64_t g = i % G;
            for (int64_t c = 0; c < D; c++) {
                const int64_t ch = g * D + c;
                const double sc = r * (gv ? gv[ch] : 1.0), bi = -sc * m + (bv ? bv[ch] : 0.0);
                for (int64_t k = 0; k < HxW; k++)
                    ct_store_from_double(ct_tensor_elem_ptr(y, i * inner + c * HxW + k), y->dtype, sc * xr[c * HxW + k] + bi);
            }
        }
        ct_free(xv);
        ct_free(gv);
        ct_free(bv);
    }
    if (fail) {
        ct_tensor_release(y);
        ct_tensor_release(mean);
        ct_tensor_release(rstd);
        return -1;
    }
    rets[0] = ct_tensor_value(y);
    rets[1] = ct_tensor_value(mean);
    rets[2] = ct_tensor_value(rstd);
    return 0;
}

typedef struct gn_bw_job {
    const ct_vec_kernels *vk;
    int64_t C, G, D, HxW;
    const float *dy, *x, *mean, *rstd, *g;
    float *ds, *db, *dx;
} gn_bw_job;

static int gn_bw_planes(void *ctx, int64_t begin, int64_t end) {
    const gn_bw_job *j = ctx;
    for (int64_t i = begin; i < end; i++)
        j->vk->gn_plane_grads_f32(j->dy + i * j->HxW, j->x + i * j->HxW, j->HxW, j->ds + i, j->db + i);
    return 0;
}

static int gn_bw_groups(void *ctx, int64_t begin, int64_t end) {
    const gn_bw_job *j = ctx;
    const int64_t inner = j->D * j->HxW;
    for (int64_t i = begin; i < end; i++) {
        const int64_t g = i % j->G;
        j->vk->gn_input_bw_f32(j->dy + i * inner, j->x + i * inner, j->ds + i * j->D, j->db + i * j->D, j->g ? j->g + g * j->D : NULL,
                               j->D, j->HxW, j->mean[i], j->rstd[i], j->dx + i * inner);
    }
    return 0;
}

/* native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight,
 *   SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor) */
int ct_k_native_group_norm_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *dy = ARG_T(0), *x = ARG_T(1), *mean = ARG_T(2), *rstd = ARG_T(3), *weight = ARG_OPT_T(4);
    const int64_t N = ARG_I(5), C = ARG_I(6), HxW = ARG_I(7), G = ARG_I(8);
    if (args[9].u.list.len != 3) return ct_error_set(CT_ERR_RUNTIME, "native_group_norm_backward: output_mask needs 3 values");
    const int64_t *mask = args[9].u.list.data;
    if (G <= 0 || C % G != 0) return ct_group_norm_check_inputs(x, weight, NULL, C, G);
    if (check_mixed(x, mean, rstd) != 0) return -1;
    /* dgamma and dbeta are empty_like(gamma), made before the kernel's checks: without a weight
     * PyTorch 2.6 fails there */
    if ((mask[1] || mask[2]) && !weight) return ct_error_set(CT_ERR_RUNTIME, "tensor does not have a device");
    if (check_numel(dy->numel, N * C * HxW, "dY.numel() == N * C * HxW") != 0 ||
        check_numel(x->numel, N * C * HxW, "X.numel() == N * C * HxW") != 0 ||
        check_numel(mean->numel, N * G, "mean.numel() == N * group") != 0 ||
        check_numel(rstd->numel, N * G, "rstd.numel() == N * group") != 0 ||
        check_numel(weight ? weight->numel : C, C, "!gamma.defined() || gamma.numel() == C") != 0)
        return -1;
    if (check_floating(x, "GroupNormBackwardKernelImpl") != 0) return -1;
    const int64_t D = C / G;
    ct_tensor *dx = mask[0] ? ct_tensor_alloc(x->sizes, x->ndim, x->dtype, false) : NULL;
    ct_tensor *dg = mask[1] ? ct_tensor_alloc(&C, 1, x->dtype, false) : NULL;
    ct_tensor *dbt = mask[2] ? ct_tensor_alloc(&C, 1, x->dtype, false) : NULL;
    bool fail = (mask[0] && !dx) || (mask[1] && !dg) || (mask[2] && !dbt);
    const bool f32 = x->dtype == CT_FLOAT32 && dy->dtype == CT_FLOAT32 && mean->dtype == CT_FLOAT32 &&
                     rstd->dtype == CT_FLOAT32 && (!weight || weight->dtype == CT_FLOAT32);
    if (!fail && x->numel > 0 && f32) {
        float *own[5] = {NULL, NULL, NULL, NULL, NULL};
        gn_bw_job j = {ct_vec(), C, G, D, HxW, ct_float_elements(dy, &own[0]), ct_float_elements(x, &own[1]),
                       ct_float_elements(mean, &own[2]), ct_float_elements(rstd, &own[3]), NULL, NULL, NULL,
                       dx ? (float *)dx->storage->data : NULL};
        fail = !j.dy || !j.x || !j.mean || !j.rstd || (weight && !(j.g = ct_float_elements(weight, &own[4])));
        if (!fail) fail = !(j.ds = ct_malloc(sizeof(float) * 2 * (size_t)(N * C)));
        if (!fail) {
            j.db = j.ds + N * C;
            ct_parallel_for(0, N * C, 1, gn_bw_planes, &j);
            if (dx) ct_parallel_for(0, N * G, 1, gn_bw_groups, &j);
            if (dg || dbt)
                j.vk->gn_params_bw_f32(j.ds, j.db, j.mean, j.rstd, N, C, G, dg ? (float *)dg->storage->data : NULL,
                                       dbt ? (float *)dbt->storage->data : NULL);
        }
        ct_free(j.ds);
        for (int k = 0; k < 5; k++) ct_free(own[k]);
    } else if (!fail && x->numel > 0) {
        double *d = ct_to_double_buffer(dy), *xv = ct_to_double_buffer(x), *mv = ct_to_double_buffer(mean);
        double *rv = ct_to_double_buffer(rstd), *gv = weight ? ct_to_double_buffer(weight) : NULL;
        double *ds = ct_calloc((size_t)(2 * N * C + 1), sizeof(double));
        fail = !d || !xv || !mv || !rv || (weight && !gv) || !ds;
        double *db = fail ? NULL : ds + N * C;
        for (int64_t p = 0; !fail && p < N * C; p++)
            for (int64_t k = 0; k < HxW; k++) {
                ds[p] += d[p * HxW + k] * xv[p * HxW + k];
                db[p] += d[p * HxW + k];
            }
        const double s = 1.0 / (double)(D * HxW);
        for (int64_t i = 0; !fail && dx && i < N * G; i++) {
            const int64_t g = i % G;
            double dsv = 0, dbv = 0;
            for (int64_t c = 0; c < D; c++) {
                const double gm = gv ? gv[g * D + c] : 1.0;
                dsv += ds[i * D + c] * gm;
                dbv += db[i * D + c] * gm;
            }
            const double c2 = (dbv * mv[i] - dsv) * rv[i] * rv[i] * rv[i] * s, c3 = -c2 * mv[i] - dbv * rv[i] * s;
            for (int64_t c = 0; c < D; c++) {
                const double c1 = rv[i] * (gv ? gv[g * D + c] : 1.0);
                for (int64_t k = 0; k < HxW; k++) {
                    const int64_t o = (i * D + c) * HxW + k;
                    ct_store_from_double(ct_tensor_elem_ptr(dx, o), dx->dtype, c1 * d[o] + c2 * xv[o] + c3);
                }
            }
        }
        for (int64_t c = 0; !fail && c < C; c++) {
            double ag = 0, ab = 0;
            const int64_t g = c / D;
            for (int64_t n = 0; n < N; n++) {
                ag += (ds[n * C + c] - db[n * C + c] * mv[n * G + g]) * rv[n * G + g];
                ab += db[n * C + c];
            }
            if (dg) ct_store_from_double(ct_tensor_elem_ptr(dg, c), dg->dtype, ag);
            if (dbt) ct_store_from_double(ct_tensor_elem_ptr(dbt, c), dbt->dtype, ab);
        }
        ct_free(d);
        ct_free(xv);
        ct_free(mv);
        ct_free(rv);
        ct_free(gv);
        ct_free(ds);
    } else if (!fail) { /* no elements: zero gradients of the parameters */
        for (int64_t c = 0; c < C; c++) {
            if (dg) ct_store_from_double(ct_tensor_elem_ptr(dg, c), dg->dtype, 0);
            if (dbt) ct_store_from_double(ct_tensor_elem_ptr(dbt, c), dbt->dtype, 0);
        }
    }
    if (fail) {
        ct_tensor_release(dx);
        ct_tensor_release(dg);
        ct_tensor_release(dbt);
        return -1;
    }
    rets[0] = ct_tensor_value(dx);
    rets[1] = ct_tensor_value(dg);
    rets[2] = ct_tensor_value(dbt);
    return 0;
}
