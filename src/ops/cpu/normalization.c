/* native_layer_norm and native_layer_norm_backward (layer_norm.cpp, cpu/layer_norm_kernel.cpp).
 * float32 runs PyTorch's float kernel, operation for operation, in src/ops/cpu/vec/norm_vec.c
 * (Note [Layer norm order]): the same bits at every CPU capability; rows are split over the
 * threads as the kernel's parallel_for(0, M, 1) splits them, and the backward's weight and bias
 * gradients are summed as PyTorch sums them (Note [Layer norm's two-pass gradients]), so they
 * are PyTorch's at the same thread count. Other types compute in
 * double and round once to the tensor's type (mean and rstd first, as the kernel keeps them in
 * its accumulate type). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

static bool same_shape(const ct_tensor *t, const int64_t *shape, int64_t n) {
    if (t->ndim != n) return false;
    for (int64_t i = 0; i < n; i++)
        if (t->sizes[i] != shape[i]) return false;
    return true;
}

/* _check_layer_norm_inputs: M rows of N elements. 0, or -1 with PyTorch's message. */
static int check_inputs(const ct_tensor *input, const int64_t *ns, int64_t nn, const ct_tensor *weight,
                        const ct_tensor *bias, int64_t *M, int64_t *N) {
    char a[256], b[256];
    ct_format_shape(ns, (int)nn, b, sizeof b);
    if (nn < 1)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = %s",
                            b);
    if (weight && !same_shape(weight, ns, nn)) {
        ct_format_shape(weight->sizes, weight->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected weight to be of same shape as normalized_shape, but got weight of shape %s and normalized_shape = %s",
                            a, b);
    }
    if (bias && !same_shape(bias, ns, nn)) {
        ct_format_shape(bias->sizes, bias->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected bias to be of same shape as normalized_shape, but got bias of shape %s and normalized_shape = %s",
                            a, b);
    }
    bool ok = input->ndim >= nn;
    for (int64_t i = 0; ok && i < nn; i++) ok = input->sizes[input->ndim - nn + i] == ns[i];
    if (!ok) {
        char tail[512] = "";
        size_t len = 0;
        for (int64_t i = 0; i < nn && len < sizeof tail; i++)
            len += (size_t)snprintf(tail + len, sizeof tail - len, ", %lld", (long long)ns[i]);
        ct_format_shape(input->sizes, input->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "Given normalized_shape=%s, expected input with shape [*%s], but got input of size%s", b,
                            tail, a);
    }
    int axis = input->ndim - (int)nn;
    *M = 1;
    *N = 1;
    for (int i = 0; i < axis; i++) *M *= input->sizes[i];
    for (int i = axis; i < input->ndim; i++) *N *= input->sizes[i];
    return 0;
}

static int check_floating(const ct_tensor *t, const char *kernel) {
    if (!ct_dtype_is_floating(t->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(t->dtype));
    return 0;
}

/* The elements of t in logical order as doubles (NULL t: NULL). */
static double *load_all(const ct_tensor *t, bool *fail) {
    if (!t) return NULL;
    double *v = ct_to_double_buffer(t);
    if (!v) *fail = true;
    return v;
}

/* float32 throughout: PyTorch's float kernel (Note [Layer norm order]) */
static bool all_f32(const ct_tensor *a, const ct_tensor *b, const ct_tensor *c) {
    return a->dtype == CT_FLOAT32 && (!b || b->dtype == CT_FLOAT32) && (!c || c->dtype == CT_FLOAT32);
}

static inline float *f32_data(const ct_tensor *t) { return (float *)t->storage->data + t->storage_offset; }

/* mean and rstd keep the input's leading dimensions, with 1 for each normalized one */
static int stat_shape(const ct_tensor *input, int64_t nn, int64_t *shape) {
    int axis = input->ndim - (int)nn;
    for (int i = 0; i < input->ndim; i++) shape[i] = i < axis ? input->sizes[i] : 1;
    return input->ndim;
}

/* Note [Layer norm's two-pass gradients]
 *   LayerNormBackwardKernelImplInternal sums the weight and bias gradients in two passes: a
 *   zeroed buffer of one row of N per thread (get_num_threads() of them), rows split by
 *   parallel_for(0, M, 1), each thread adding its rows' dy*(x-mean)*rstd and dy into its own
 *   buffer row; then, per column, 0 plus the threads' rows in order. With one thread that is
 *   0 + (the rows' sum); with two, (0 + the first half's) + the second half's, which can differ
 *   in the last bit. */

/* The float32 rows of both passes (ct_parallel_for jobs): the inputs, the outputs, and the
 * backward's per-thread accumulators (acc: threads rows of N for dgamma, then as many for dbeta). */
typedef struct ln_job {
    const ct_vec_kernels *vk;
    int64_t N;
    float eps;
    const float *x, *gamma, *beta, *dy, *mean_in, *rstd_in; /* mean_in, rstd_in: the saved stats */
    float *y, *mean, *rstd; /* forward: its outputs; backward: dx, dgamma, dbeta (each may be NULL) */
    float *acc_g, *acc_b;   /* backward: threads x N each, or NULL */
    int threads;
} ln_job;

static int ln_rows(void *vjob, int64_t begin, int64_t end) {
    const ln_job *j = vjob;
    const int64_t N = j->N;
    j->vk->layer_norm_rows_f32(j->x + begin * N, j->gamma, j->beta, end - begin, N, j->eps, j->y + begin * N,
                               j->mean + begin, j->rstd + begin);
    return 0;
}

static int ln_bw_rows(void *vjob, int64_t begin, int64_t end) {
    const ln_job *j = vjob;
    const int64_t N = j->N, t = ct_get_thread_num();
    float *ag = j->acc_g ? j->acc_g + t * N : NULL, *ab = j->acc_b ? j->acc_b + t * N : NULL;
    for (int64_t i = begin; i < end; i++)
        j->vk->layer_norm_bw_row_f32(j->dy + i * N, j->x + i * N, j->mean_in[i], j->rstd_in[i], j->gamma, N,
                                     j->y ? j->y + i * N : NULL, ag, ab);
    return 0;
}

/* the second pass: columns [begin, end) of the threads' rows into dgamma and dbeta */
static int ln_bw_columns(void *vjob, int64_t begin, int64_t end) {
    const ln_job *j = vjob;
    const int64_t N = j->N;
    for (int64_t c = begin; c < end; c++) {
        float g = 0.0f, b = 0.0f;
        for (int t = 0; t < j->threads; t++) {
            if (j->acc_g) g += j->acc_g[t * N + c];
            if (j->acc_b) b += j->acc_b[t * N + c];
        }
        if (j->acc_g) j->mean[c] = g;
        if (j->acc_b) j->rstd[c] = b;
    }
    return 0;
}

/* native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps)
 *   -> (Tensor, Tensor, Tensor) */
int ct_k_native_layer_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_OPT_T(2), *bias = ARG_OPT_T(3);
    const int64_t *ns = args[1].u.list.data;
    int64_t nn = args[1].u.list.len, M, N;
    double eps = args[4].u.d;
    /* layer_norm_cpu: parameters of another dtype than the input's (is_mixed_type, the first
     * given parameter decides) are allowed only as float32 parameters of a float16 or bfloat16
     * input (check_mixed_data_type), before the shapes are checked; mean and rstd are then float32 */
    const ct_tensor *param = weight ? weight : bias;
    bool mixed = param && param->dtype != input->dtype;
    if (mixed) {
        if ((weight && weight->dtype != CT_FLOAT32) || (bias && bias->dtype != CT_FLOAT32))
            return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
        if (!ct_dtype_is_reduced_floating(input->dtype))
            return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): all inputs must share same datatype.");
    }
    if (check_inputs(input, ns, nn, weight, bias, &M, &N) != 0) return -1;
    if (check_floating(input, "LayerNormKernelImpl") != 0) return -1;
    int64_t ss[CT_MAX_DIMS];
    int sn = stat_shape(input, nn, ss);
    const ct_dtype stat_dt = mixed ? CT_FLOAT32 : input->dtype;
    ct_tensor *y = ct_tensor_alloc(input->sizes, input->ndim, input->dtype, false);
    ct_tensor *mean = ct_tensor_alloc(ss, sn, stat_dt, false);
    ct_tensor *rstd = ct_tensor_alloc(ss, sn, stat_dt, false);
    bool fail = !y || !mean || !rstd;
    if (!fail && N > 0 && all_f32(input, weight, bias)) { /* N == 0: the general path below */
        float *own[3] = {NULL, NULL, NULL};
        ln_job j = {ct_vec(), N, (float)eps, ct_float_elements(input, &own[0]), NULL, NULL, NULL, NULL, NULL, f32_data(y),
                    f32_data(mean), f32_data(rstd), NULL, NULL, 0};
        fail = !j.x || (weight && !(j.gamma = ct_float_elements(weight, &own[1]))) ||
               (bias && !(j.beta = ct_float_elements(bias, &own[2])));
        if (!fail) ct_parallel_for(0, M, 1, ln_rows, &j);
        for (int k = 0; k < 3; k++) ct_free(own[k]);
        goto done;
    }
    double *x = fail ? NULL : load_all(input, &fail);
    double *g = fail ? NULL : load_all(weight, &fail);
    double *b = fail ? NULL : load_all(bias, &fail);
    for (int64_t i = 0; !fail && i < M; i++) {
        const double *xr = x + i * N;
        double mu = 0, var = 0;
        for (int64_t j = 0; j < N; j++) mu += xr[j];
        mu /= (double)N;
        for (int64_t j = 0; j < N; j++) var += (xr[j] - mu) * (xr[j] - mu);
        var /= (double)N;
        /* the kernel keeps mean and rstd in its accumulate type */
        double r = 1.0 / sqrt(var + eps);
        ct_store_from_double(ct_tensor_elem_ptr(mean, i), mean->dtype, mu);
        ct_store_from_double(ct_tensor_elem_ptr(rstd, i), rstd->dtype, r);
        double mu_s = ct_load_as_double(ct_tensor_elem_ptr(mean, i), mean->dtype);
        double r_s = ct_load_as_double(ct_tensor_elem_ptr(rstd, i), rstd->dtype);
        for (int64_t j = 0; j < N; j++) {
            double v = (xr[j] - mu_s) * r_s;
            if (g) v *= g[j];
            if (b) v += b[j];
            ct_store_from_double(ct_tensor_elem_ptr(y, i * N + j), y->dtype, v);
        }
    }
    ct_free(x);
    ct_free(g);
    ct_free(b);
done:
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

/* native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean,
 *   Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
 * dx = a*dy*g + b*x + c with a = rstd, b = (db*mean - ds) * a^3 / N, c = -b*mean - db*a/N,
 * ds = sum(dy*g*x), db = sum(dy*g); dgamma = sum over rows of dy*(x - mean)*rstd; dbeta = sum of dy */
int ct_k_native_layer_norm_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *dy = ARG_T(0), *input = ARG_T(1), *mean = ARG_T(3), *rstd = ARG_T(4);
    ct_tensor *weight = ARG_OPT_T(5), *bias = ARG_OPT_T(6);
    const int64_t *ns = args[2].u.list.data;
    int64_t nn = args[2].u.list.len, M, N;
    const int64_t *mask = args[7].u.list.data;
    if (args[7].u.list.len != 3) return ct_error_set(CT_ERR_RUNTIME, "native_layer_norm_backward: output_mask needs 3 values");
    if (check_inputs(input, ns, nn, weight, bias, &M, &N) != 0) return -1;
    if (check_floating(input, "LayerNormBackwardKernelImpl") != 0) return -1;
    ct_tensor *dx = NULL, *dg = NULL, *dbeta = NULL;
    bool fail = false;
    if (mask[0]) fail = !(dx = ct_tensor_alloc(input->sizes, input->ndim, input->dtype, false));
    if (mask[1] && !fail) {
        /* dgamma / dbeta have weight's (bias's) shape; without weight, normalized_shape */
        fail = !(dg = ct_tensor_alloc(weight ? weight->sizes : ns, weight ? weight->ndim : (int)nn, input->dtype, true));
    }
    if (mask[2] && !fail) fail = !(dbeta = ct_tensor_alloc(bias ? bias->sizes : ns, bias ? bias->ndim : (int)nn, input->dtype, true));
    if (!fail && N > 0 && all_f32(input, weight, dy) && mean->dtype == CT_FLOAT32 && rstd->dtype == CT_FLOAT32) {
        /* Note [Layer norm's two-pass gradients] */
        float *own[5] = {NULL, NULL, NULL, NULL, NULL};
        const int threads = ct_get_num_threads();
        ln_job j = {ct_vec(), N, 0.0f, ct_float_elements(input, &own[0]), NULL, NULL, NULL, NULL, NULL, dx ? f32_data(dx) : NULL,
                    dg ? f32_data(dg) : NULL, dbeta ? f32_data(dbeta) : NULL, NULL, NULL, threads};
        fail = !j.x || (weight && !(j.gamma = ct_float_elements(weight, &own[1]))) || !(j.dy = ct_float_elements(dy, &own[2])) ||
               !(j.mean_in = ct_float_elements(mean, &own[3])) || !(j.rstd_in = ct_float_elements(rstd, &own[4]));
        if (!fail && dg) fail = !(j.acc_g = ct_calloc((size_t)threads * (size_t)N, sizeof(float)));
        if (!fail && dbeta) fail = !(j.acc_b = ct_calloc((size_t)threads * (size_t)N, sizeof(float)));
        if (!fail) ct_parallel_for(0, M, 1, ln_bw_rows, &j);
        if (!fail && (dg || dbeta)) ct_parallel_for(0, N, 1, ln_bw_columns, &j);
        for (int k = 0; k < 5; k++) ct_free(own[k]);
        ct_free(j.acc_g);
        ct_free(j.acc_b);
        goto done;
    }
    double *x = fail ? NULL : load_all(input, &fail);
    double *g = fail ? NULL : load_all(weight, &fail);
    double *d = fail ? NULL : load_all(dy, &fail);
    double *mu = fail ? NULL : load_all(mean, &fail);
    double *rs = fail ? NULL : load_all(rstd, &fail);
    double *acc_g = NULL, *acc_b = NULL;
    if (!fail && (dg || dbeta)) {
        acc_g = ct_calloc((size_t)(N ? N : 1), sizeof(double));
        acc_b = ct_calloc((size_t)(N ? N : 1), sizeof(double));
        fail = !acc_g || !acc_b;
    }
    for (int64_t i = 0; !fail && i < M; i++) {
        const double *xr = x + i * N, *dr = d + i * N;
        double a = rs[i];
        if (acc_g)
            for (int64_t j = 0; j < N; j++) {
                acc_g[j] += dr[j] * (a * xr[j] - a * mu[i]);
                acc_b[j] += dr[j];
            }
        if (dx) {
            double ds = 0, db = 0;
            for (int64_t j = 0; j < N; j++) {
                double gv = g ? g[j] : 1.0;
                ds += dr[j] * gv * xr[j];
                db += dr[j] * gv;
            }
            double scale = 1.0 / (double)N;
            double bb = (db * mu[i] - ds) * a * a * a * scale;
            double cc = -bb * mu[i] - db * a * scale;
            for (int64_t j = 0; j < N; j++) {
                double gv = g ? g[j] : 1.0;
                ct_store_from_double(ct_tensor_elem_ptr(dx, i * N + j), dx->dtype, a * dr[j] * gv + bb * xr[j] + cc);
            }
        }
    }
    for (int64_t j = 0; !fail && j < N; j++) {
        if (dg) ct_store_from_double(ct_tensor_elem_ptr(dg, j), dg->dtype, acc_g[j]);
        if (dbeta) ct_store_from_double(ct_tensor_elem_ptr(dbeta, j), dbeta->dtype, acc_b[j]);
    }
    ct_free(x);
    ct_free(g);
    ct_free(d);
    ct_free(mu);
    ct_free(rs);
    ct_free(acc_g);
    ct_free(acc_b);
done:
    if (fail) {
        ct_tensor_release(dx);
        ct_tensor_release(dg);
        ct_tensor_release(dbeta);
        return -1;
    }
    rets[0] = ct_tensor_value(dx);
    rets[1] = ct_tensor_value(dg);
    rets[2] = ct_tensor_value(dbeta);
    return 0;
}
