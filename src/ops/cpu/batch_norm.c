/* Batch norm (Normalization.cpp, cpu/batch_norm_kernel.cpp): native_batch_norm,
 * _native_batch_norm_legit (and .no_stats), _native_batch_norm_legit_no_training,
 * _native_batch_norm_legit_functional and native_batch_norm_backward.
 *
 * float32 follows PyTorch's float kernels operation for operation (Note [Batch norm order] in
 * vec/bnorm_vec.c): the statistics of a contiguous input are summed per channel in double,
 * images in order (batch_norm_cpu_collect_stats_contiguous_impl); an input with one element per
 * channel and image (N x C) takes the channels-last kernels, whose per-thread buffers depend on
 * the thread count as PyTorch's do. The running statistics are updated in place:
 *   running_mean = momentum * mean + (1 - momentum) * running_mean,
 *   running_var = momentum * var_sum / (n - 1) + (1 - momentum) * running_var,
 * for float32 with momentum rounded to float: the mean's update in float, the variance's with the
 * unbiased variance (var_sum / (n - 1) in float) as a double, the sum in double, as PyTorch 2.6
 * computes them (measured).
 * float64 runs the same arithmetic in double; float16 and bfloat16 compute in float and round
 * once (PyTorch's reduced-type kernels also keep float, in another summation order). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* the elements of t (contiguous order) as floats or doubles; NULL t: NULL */
typedef struct bn_buf {
    float *f;
    double *d;
    bool borrowed; /* f is a contiguous float32 tensor's own data */
} bn_buf;

static int load_as(const ct_tensor *t, bool dbl, bool borrow, bn_buf *b) {
    b->f = NULL;
    b->d = NULL;
    b->borrowed = false;
    if (!t || t->numel == 0) return 0;
    if (!dbl && borrow && t->dtype == CT_FLOAT32 && ct_is_contiguous_nn(t)) {
        b->f = (float *)t->storage->data + t->storage_offset;
        b->borrowed = true;
        return 0;
    }
    if (dbl) b->d = ct_to_double_buffer(t);
    else b->f = ct_to_float_buffer(t);
    return (dbl ? (void *)b->d : (void *)b->f) ? 0 : -1;
}

/* a read-only view of t's elements (its own data when it is contiguous float32) */
static int load(const ct_tensor *t, bool dbl, bn_buf *b) { return load_as(t, dbl, true, b); }

static void unload(bn_buf *b) {
    if (!b->borrowed) ct_free(b->f);
    ct_free(b->d);
}

/* writes n values of buffer b into the contiguous tensor t (of any floating dtype) */
static void store(ct_tensor *t, const bn_buf *b, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        ct_store_from_double(ct_tensor_elem_ptr(t, i), t->dtype, b->d ? b->d[i] : (double)b->f[i]);
}

static int check_mixed(const ct_tensor *input, ct_tensor *const *params, int np, bool *mixed) {
    *mixed = false;
    for (int i = 0; i < np; i++)
        if (params[i] && params[i]->dtype != input->dtype) *mixed = true;
    if (!*mixed) return 0;
    for (int i = 0; i < np; i++)
        if (params[i] && params[i]->dtype != CT_FLOAT32)
            return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
    if (!ct_dtype_is_reduced_floating(input->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "mixed dtype (CPU): all inputs must share same datatype.");
    return 0;
}

static int check_floating(const ct_tensor *t, const char *kernel) {
    if (!ct_dtype_is_floating(t->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_name(t->dtype));
    return 0;
}

/* ---- the forward ---- */

typedef struct bn_fwd {
    const ct_vec_kernels *vk;
    int64_t n_batch, C, image, N; /* N = n_batch * image, the values per channel */
    bool dbl;
    const float *xf;
    const double *xd;
    float *meanf, *varsumf, *alphaf, *betaf, *yf;
    double *meand, *varsumd, *alphad, *betad, *yd;
    float *buf; /* channels-last: threads x C */
    int threads;
} bn_fwd;

/* batch_norm_cpu_collect_stats_contiguous_impl: channels [begin, end) */
static int stats_contig(void *ctx, int64_t begin, int64_t end) {
    const bn_fwd *j = ctx;
    for (int64_t c = begin; c < end; c++) {
        double sum = 0;
        for (int64_t n = 0; n < j->n_batch; n++) {
            const int64_t o = (n * j->C + c) * j->image;
            if (j->dbl)
                for (int64_t i = 0; i < j->image; i++) sum += j->xd[o + i];
            else
                for (int64_t i = 0; i < j->image; i++) sum += (double)j->xf[o + i];
        }
        double vs = 0;
        if (j->dbl) {
            const double m = sum / (double)j->N;
            j->meand[c] = m;
            for (int64_t n = 0; n < j->n_batch; n++) {
                const double *x = j->xd + (n * j->C + c) * j->image;
                for (int64_t i = 0; i < j->image; i++) vs += (x[i] - m) * (x[i] - m);
            }
            j->varsumd[c] = vs;
        } else {
            const float m = (float)(sum / (double)j->N);
            j->meanf[c] = m;
            for (int64_t n = 0; n < j->n_batch; n++) {
                const float *x = j->xf + (n * j->C + c) * j->image;
                for (int64_t i = 0; i < j->image; i++) {
                    const float d = x[i] - m;
                    vs += (double)(d * d);
                }
            }
            j->varsumf[c] = (float)vs;
        }
    }
    return 0;
}

/* channels-last statistics, first pass: rows [begin, end) into this thread's buffer row */
static int cl_rows_sum(void *ctx, int64_t begin, int64_t end) {
    const bn_fwd *j = ctx;
    float *b = j->buf + (int64_t)ct_get_thread_num() * j->C;
    for (int64_t i = begin; i < end; i++) j->vk->bn_cl_accum_f32(j->xf + i * j->C, NULL, j->C, b);
    return 0;
}

static int cl_rows_var(void *ctx, int64_t begin, int64_t end) {
    const bn_fwd *j = ctx;
    float *b = j->buf + (int64_t)ct_get_thread_num() * j->C;
    for (int64_t i = begin; i < end; i++) j->vk->bn_cl_accum_f32(j->xf + i * j->C, j->meanf, j->C, b);
    return 0;
}

/* batch_norm_cpu_collect_stats_channels_last_impl (float) */
static int stats_channels_last_f32(bn_fwd *j) {
    const int64_t C = j->C, N = j->N;
    if (N > j->threads) {
        j->buf = ct_calloc((size_t)j->threads * (size_t)C, sizeof(float));
        if (!j->buf) return -1;
        ct_parallel_for(0, N, 1, cl_rows_sum, j);
        for (int64_t c = 0; c < C; c++) {
            double s = 0;
            for (int t = 0; t < j->threads; t++) s += (double)j->buf[t * C + c];
            j->meanf[c] = (float)(s / (double)N);
        }
        memset(j->buf, 0, (size_t)j->threads * (size_t)C * sizeof(float));
        ct_parallel_for(0, N, 1, cl_rows_var, j);
        for (int64_t c = 0; c < C; c++) {
            double s = 0;
            for (int t = 0; t < j->threads; t++) s += (double)j->buf[t * C + c];
            j->varsumf[c] = (float)s;
        }
        ct_free(j->buf);
        j->buf = NULL;
        return 0;
    }
    for (int64_t c = 0; c < C; c++) {
        double s = 0;
        for (int64_t t = 0; t < N; t++) s += (double)j->xf[t * C + c];
        j->meanf[c] = (float)(s / (double)N);
    }
    for (int64_t c = 0; c < C; c++) {
        double s = 0;
        for (int64_t t = 0; t < N; t++) {
            const float d = j->xf[t * C + c] - j->meanf[c];
            s += (double)(d * d);
        }
        j->varsumf[c] = (float)s;
    }
    return 0;
}

/* y = x * alpha + beta: planes [begin, end) of n_batch * C */
static int apply_planes(void *ctx, int64_t begin, int64_t end) {
    const bn_fwd *j = ctx;
    for (int64_t p = begin; p < end; p++) {
        const int64_t c = p % j->C, o = p * j->image;
        if (j->dbl)
            for (int64_t i = 0; i < j->image; i++) j->yd[o + i] = j->xd[o + i] * j->alphad[c] + j->betad[c];
        else j->vk->bn_apply_f32(j->xf + o, j->image, j->alphaf[c], j->betaf[c], j->yf + o);
    }
    return 0;
}

static int apply_rows(void *ctx, int64_t begin, int64_t end) {
    const bn_fwd *j = ctx;
    for (int64_t i = begin; i < end; i++) {
        if (j->dbl)
            for (int64_t c = 0; c < j->C; c++) j->yd[i * j->C + c] = j->xd[i * j->C + c] * j->alphad[c] + j->betad[c];
        else j->vk->bn_apply_cl_f32(j->xf + i * j->C, j->alphaf, j->betaf, j->C, j->yf + i * j->C);
    }
    return 0;
}

static int bn_forward(ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_tensor *rm, ct_tensor *rv, bool train,
                          double momentum, double eps, ct_tensor **out, ct_tensor **save_mean, ct_tensor **save_invstd) {
    *out = *save_mean = *save_invstd = NULL;
    if (!input) return ct_error_set(CT_ERR_VALUE, "native_batch_norm: input must be a tensor, not None");
    ct_tensor *params[4] = {weight, bias, rm, rv};
    bool mixed;
    if (check_mixed(input, params, 4, &mixed) != 0) return -1;
    if (check_floating(input, "batch_norm") != 0) return -1;
    if (input->ndim < 2)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)",
                            input->ndim ? input->ndim : 1, input->ndim ? input->ndim - 1 : 0);
    const int64_t C = input->sizes[1];
    for (int i = 0; i < 4; i++)
        if (params[i] && params[i]->numel != C) {
            static const char *const names[4] = {"weight", "bias", "running_mean", "running_var"};
            return ct_error_set(CT_ERR_RUNTIME, "%s should contain %lld elements not %lld", names[i], (long long)C,
                                (long long)params[i]->numel);
        }
    if (!train && (!rm || !rv))
        return ct_error_set(CT_ERR_RUNTIME, "running_%s must be defined in evaluation mode", !rm ? "mean" : "var");
    const ct_dtype stat_dt = mixed ? CT_FLOAT32 : input->dtype;
    const int64_t zero = 0, statn = train ? C : 0;
    ct_tensor *y = ct_tensor_alloc(input->sizes, input->ndim, input->dtype, false);
    ct_tensor *sm = ct_tensor_alloc(train ? &C : &zero, 1, stat_dt, false);
    ct_tensor *si = ct_tensor_alloc(train ? &C : &zero, 1, stat_dt, false);
    if (!y || !sm || !si) goto fail;
    (void)statn;
    bn_fwd j;
    memset(&j, 0, sizeof j);
    j.vk = ct_vec();
    j.dbl = input->dtype == CT_FLOAT64;
    j.C = C;
    j.n_batch = input->sizes[0];
    j.image = 1;
    for (int d = 2; d < input->ndim; d++) j.image *= input->sizes[d];
    j.N = j.n_batch * j.image;
    j.threads = ct_get_num_threads();
    if (input->numel > 0) {
        bn_buf x, w, b, m, v, tmp;
        memset(&tmp, 0, sizeof tmp);
        int rc = load(input, j.dbl, &x);
        rc |= load(weight, j.dbl, &w);
        rc |= load(bias, j.dbl, &b);
        rc |= load(rm, j.dbl, &m);
        rc |= load(rv, j.dbl, &v);
        /* mean, var_sum, alpha, beta, invstd, y */
        const size_t per = (size_t)(C ? C : 1);
        const size_t yn = y->dtype == CT_FLOAT32 ? 0 : (size_t)input->numel; /* float32 y is written in place */
        if (j.dbl) tmp.d = ct_malloc(sizeof(double) * (5 * per + yn));
        else tmp.f = ct_malloc(sizeof(float) * (5 * per + yn));
        if (rc != 0 || !(tmp.d || tmp.f)) {
            unload(&x), unload(&w), unload(&b), unload(&m), unload(&v), unload(&tmp);
            goto fail;
        }
        j.xf = x.f;
        j.xd = x.d;
        if (j.dbl) {
            j.meand = tmp.d, j.varsumd = tmp.d + per, j.alphad = tmp.d + 2 * per, j.betad = tmp.d + 3 * per;
            j.yd = tmp.d + 5 * per;
        } else {
            j.meanf = tmp.f, j.varsumf = tmp.f + per, j.alphaf = tmp.f + 2 * per, j.betaf = tmp.f + 3 * per;
            j.yf = y->dtype == CT_FLOAT32 ? (float *)y->storage->data : tmp.f + 5 * per;
        }
        double *invd = j.dbl ? tmp.d + 4 * per : NULL;
        float *invf = j.dbl ? NULL : tmp.f + 4 * per;
        const bool cl = j.image == 1;
        if (train) {
            if (cl && !j.dbl) rc = stats_channels_last_f32(&j);
            else ct_parallel_for(0, C, 1, stats_contig, &j);
            if (rc == 0) {
                /* batch_norm_cpu_update_stats_template: InvStd of var_sum / n, the running averages */
                const float mf = (float)momentum;
                for (int64_t c = 0; c < C; c++) {
                    const double mean = j.dbl ? j.meand[c] : (double)j.meanf[c];
                    const double vs = j.dbl ? j.varsumd[c] : (double)j.varsumf[c];
                    const double var = j.dbl ? vs / (double)j.N : (double)(float)(j.varsumf[c] / (float)j.N);
                    double inv = 0;
                    if (var != 0 || eps != 0) inv = 1.0 / sqrt(var + eps);
                    if (j.dbl) invd[c] = inv;
                    else invf[c] = (float)inv;
                    /* the running averages: momentum_ = (param_t)momentum; the unbiased variance is an
                     * accscalar_t (double) holding var_sum / (n - 1) computed in float */
                    if (rm) {
                        const double r = j.dbl ? momentum * mean + (1 - momentum) * m.d[c]
                                               : (double)(mf * j.meanf[c] + (1.0f - mf) * m.f[c]);
                        ct_store_from_double(ct_tensor_elem_ptr(rm, c), rm->dtype, r);
                    }
                    if (rv) {
                        const double r = j.dbl ? momentum * (vs / (double)(j.N - 1)) + (1 - momentum) * v.d[c]
                                               : (double)mf * (double)(j.varsumf[c] / (float)(j.N - 1)) +
                                                     (double)((1.0f - mf) * v.f[c]);
                        ct_store_from_double(ct_tensor_elem_ptr(rv, c), rv->dtype, r);
                    }
                }
            }
        } else {
            /* the running statistics: invstd = 1 / sqrt(var + eps) in the input's type */
            for (int64_t c = 0; c < C; c++) {
                if (j.dbl) {
                    j.meand[c] = m.d[c];
                    invd[c] = 1.0 / sqrt(v.d[c] + eps);
                } else {
                    j.meanf[c] = m.f[c];
                    invf[c] = 1.0f / sqrtf(v.f[c] + (float)eps);
                }
            }
        }
        if (rc == 0 && !mixed && ct_dtype_is_reduced_floating(input->dtype)) {
            /* float16 / bfloat16: the terms read the statistics as stored, in the input's type */
            for (int64_t c = 0; c < C; c++) {
                unsigned char tmp8[8];
                ct_store_from_double(tmp8, input->dtype, j.meanf[c]);
                j.meanf[c] = (float)ct_load_as_double(tmp8, input->dtype);
                ct_store_from_double(tmp8, input->dtype, invf[c]);
                invf[c] = (float)ct_load_as_double(tmp8, input->dtype);
            }
        }
        if (rc == 0) {
            /* batch_norm_cpu_collect_linear_and_constant_terms */
            if (j.dbl)
                for (int64_t c = 0; c < C; c++) {
                    const double wv = w.d ? w.d[c] : 1.0, bv = b.d ? b.d[c] : 0.0;
                    j.alphad[c] = invd[c] * wv;
                    j.betad[c] = bv - j.meand[c] * j.alphad[c];
                }
            else j.vk->bn_terms_f32(C, j.meanf, invf, w.f, b.f, j.alphaf, j.betaf);
            if (cl) ct_parallel_for(0, j.N, 1, apply_rows, &j);
            else ct_parallel_for(0, j.n_batch * C, 1, apply_planes, &j);
            bn_buf yb = {j.yf, j.yd, false};
            if (y->dtype != CT_FLOAT32) store(y, &yb, input->numel);
            if (train) {
                bn_buf mb = {j.meanf, j.meand, false}, ib = {invf, invd, false};
                store(sm, &mb, C);
                store(si, &ib, C);
            }
        }
        unload(&x), unload(&w), unload(&b), unload(&m), unload(&v), unload(&tmp);
        if (rc != 0) goto fail;
    } else if (train) {
        /* no values: mean 0 and invstd of a zero variance; the running stats keep
         * momentum * NaN updates as the kernel's division by zero gives */
        for (int64_t c = 0; c < C; c++) {
            ct_store_from_double(ct_tensor_elem_ptr(sm, c), sm->dtype, NAN);
            ct_store_from_double(ct_tensor_elem_ptr(si, c), si->dtype, NAN);
        }
    }
    *out = y;
    *save_mean = sm;
    *save_invstd = si;
    return 0;
fail:
    ct_tensor_release(y);
    ct_tensor_release(sm);
    ct_tensor_release(si);
    return -1;
}

static int ret3(ct_value *rets, int rc, ct_tensor *a, ct_tensor *b, ct_tensor *c) {
    if (rc != 0) return -1;
    rets[0] = ct_tensor_value(a);
    rets[1] = ct_tensor_value(b);
    rets[2] = ct_tensor_value(c);
    return 0;
}

/* native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor) */
int ct_k_native_batch_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *y, *m, *s;
    int rc = bn_forward(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), ARG_OPT_T(3), ARG_OPT_T(4), ARG_B(5), args[6].u.d,
                                   args[7].u.d, &y, &m, &s);
    return ret3(rets, rc, y, m, s);
}

/* _native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean,
 *   Tensor(b!) running_var, bool training, float momentum, float eps) */
int ct_k__native_batch_norm_legit(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    return ct_k_native_batch_norm(op, ks, args, rets);
}

/* _native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training,
 *   float momentum, float eps) */
int ct_k__native_batch_norm_legit_no_stats(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *y, *m, *s;
    int rc = bn_forward(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), NULL, NULL, ARG_B(3), args[4].u.d, args[5].u.d,
                                   &y, &m, &s);
    return ret3(rets, rc, y, m, s);
}

/* _native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias,
 *   Tensor running_mean, Tensor running_var, float momentum, float eps): CompositeExplicitAutograd,
 *   _native_batch_norm_legit with training false */
int ct_k__native_batch_norm_legit_no_training(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *y, *m, *s;
    int rc = bn_forward(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), ARG_T(3), ARG_T(4), false, args[5].u.d,
                                   args[6].u.d, &y, &m, &s);
    return ret3(rets, rc, y, m, s);
}

/* _native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias,
 *   Tensor running_mean, Tensor running_var, bool training, float momentum, float eps)
 *   -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out):
 *   the running statistics updated in copies */
int ct_k__native_batch_norm_legit_functional(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *rm = ct_clone(ARG_T(3), CT_MEMORY_FORMAT_NONE);
    ct_tensor *rv = rm ? ct_clone(ARG_T(4), CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor *y, *m, *s;
    int rc = rv ? bn_forward(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), rm, rv, ARG_B(5), args[6].u.d, args[7].u.d,
                                        &y, &m, &s)
                : -1;
    if (rc != 0) {
        ct_tensor_release(rm);
        ct_tensor_release(rv);
        return -1;
    }
    ret3(rets, 0, y, m, s);
    rets[3] = ct_tensor_value(rm);
    rets[4] = ct_tensor_value(rv);
    return 0;
}

/* ---- the backward ---- */

typedef struct bn_bwd {
    const ct_vec_kernels *vk;
    int64_t n_batch, C, image, N;
    bool dbl, train;
    const float *xf, *dyf, *wf, *meanf, *invf;
    const double *xd, *dyd, *wd, *meand, *invd;
    float *dxf, *gwf, *gbf;
    double *dxd, *gwd, *gbd;
    float *sumb, *dotb; /* channels-last: threads x C each */
} bn_bwd;

/* batch_norm_cpu_backward_contiguous_impl: channels [begin, end) */
static int bw_contig(void *ctx, int64_t begin, int64_t end) {
    const bn_bwd *j = ctx;
    const int64_t img = j->image;
    for (int64_t c = begin; c < end; c++) {
        double sum = 0, dotp = 0;
        if (j->dbl) {
            const double w = j->wd ? j->wd[c] : 1.0, mean = j->meand[c], inv = j->invd[c];
            for (int64_t n = 0; n < j->n_batch; n++) {
                const int64_t o = (n * j->C + c) * img;
                double s = 0, d = 0;
                for (int64_t i = 0; i < img; i++) {
                    s += j->dyd[o + i];
                    d += (j->xd[o + i] - mean) * j->dyd[o + i];
                }
                sum += s;
                dotp += d;
            }
            if (j->dxd) {
                const double k = dotp * inv * inv / (double)j->N, gm = sum / (double)j->N;
                for (int64_t n = 0; n < j->n_batch; n++) {
                    const int64_t o = (n * j->C + c) * img;
                    for (int64_t i = 0; i < img; i++)
                        j->dxd[o + i] = j->train ? (j->dyd[o + i] - gm - (j->xd[o + i] - mean) * k) * inv * w
                                                 : j->dyd[o + i] * inv * w;
                }
            }
            if (j->gwd) j->gwd[c] = dotp * inv;
            if (j->gbd) j->gbd[c] = sum;
            continue;
        }
        const float w = j->wf ? j->wf[c] : 1.0f, mean = j->meanf[c], inv = j->invf[c];
        for (int64_t n = 0; n < j->n_batch; n++) {
            const int64_t o = (n * j->C + c) * img;
            float s, d;
            j->vk->bn_bw_plane_f32(j->xf + o, j->dyf + o, mean, img, &s, &d);
            sum += (double)s;
            dotp += (double)d;
        }
        if (j->dxf) {
            const float k = (float)dotp * inv * inv / (float)j->N;
            const float gm = (float)(sum / (double)j->N);
            for (int64_t n = 0; n < j->n_batch; n++) {
                const int64_t o = (n * j->C + c) * img;
                if (j->train) j->vk->bn_bw_dx_f32(j->xf + o, j->dyf + o, img, mean, k, gm, inv, w, j->dxf + o);
                else
                    for (int64_t i = 0; i < img; i++) j->dxf[o + i] = j->dyf[o + i] * inv * w;
            }
        }
        if (j->gwf) j->gwf[c] = (float)(dotp * (double)inv);
        if (j->gbf) j->gbf[c] = (float)sum;
    }
    return 0;
}

static int cl_bw_rows(void *ctx, int64_t begin, int64_t end) {
    const bn_bwd *j = ctx;
    const int64_t t = ct_get_thread_num(), C = j->C;
    for (int64_t i = begin; i < end; i++)
        j->vk->bn_cl_bw_accum_f32(j->xf + i * C, j->dyf + i * C, j->meanf, C, j->sumb + t * C, j->dotb + t * C);
    return 0;
}

static int cl_bw_dx(void *ctx, int64_t begin, int64_t end) {
    const bn_bwd *j = ctx;
    const int64_t C = j->C;
    for (int64_t i = begin; i < end; i++) {
        if (j->train)
            j->vk->bn_cl_bw_dx_f32(j->xf + i * C, j->dyf + i * C, j->meanf, j->invf, j->sumb, j->dotb, j->wf, (float)j->N, C,
                                   j->dxf + i * C);
        else
            for (int64_t c = 0; c < C; c++) j->dxf[i * C + c] = j->dyf[i * C + c] * j->invf[c] * (j->wf ? j->wf[c] : 1.0f);
    }
    return 0;
}

/* batch_norm_cpu_backward_channels_last_impl (float) */
static int bw_channels_last_f32(bn_bwd *j) {
    const int threads = ct_get_num_threads();
    const int64_t C = j->C;
    j->sumb = ct_calloc((size_t)threads * 2 * (size_t)(C ? C : 1), sizeof(float));
    if (!j->sumb) return -1;
    j->dotb = j->sumb + (int64_t)threads * C;
    ct_parallel_for(0, j->N, 1, cl_bw_rows, j);
    for (int64_t c = 0; c < C; c++) {
        double s = 0, d = 0;
        for (int t = 0; t < threads; t++) s += (double)j->sumb[t * C + c];
        for (int t = 0; t < threads; t++) d += (double)j->dotb[t * C + c];
        j->sumb[c] = (float)s;
        j->dotb[c] = (float)d;
    }
    if (j->dxf) ct_parallel_for(0, j->N, 1, cl_bw_dx, j);
    for (int64_t c = 0; c < C; c++) {
        if (j->gwf) j->gwf[c] = j->dotb[c] * j->invf[c];
        if (j->gbf) j->gbf[c] = j->sumb[c];
    }
    ct_free(j->sumb);
    j->sumb = j->dotb = NULL;
    return 0;
}

static int bn_backward(ct_tensor *dy, ct_tensor *input, ct_tensor *weight, ct_tensor *rm, ct_tensor *rv, ct_tensor *save_mean,
                           ct_tensor *save_invstd, bool train, double eps, const bool mask[3], ct_tensor **gi, ct_tensor **gw,
                           ct_tensor **gb) {
    *gi = *gw = *gb = NULL;
    if (!dy || !input) return ct_error_set(CT_ERR_VALUE, "native_batch_norm_backward: grad_out and input must be tensors");
    ct_tensor *params[5] = {weight, rm, rv, save_mean, save_invstd};
    bool mixed;
    if (check_mixed(input, params, 5, &mixed) != 0) return -1;
    if (check_floating(input, "batch_norm_backward_cpu") != 0) return -1;
    if (input->ndim < 2) return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    const int64_t C = input->sizes[1];
    ct_tensor *mean_t = train ? save_mean : rm, *var_t = train ? save_invstd : rv;
    if (!mean_t || !var_t || mean_t->numel != C || var_t->numel != C || (weight && weight->numel != C))
        return ct_error_set(CT_ERR_RUNTIME, "native_batch_norm_backward: expected %s of %lld elements",
                            train ? "save_mean and save_invstd" : "running_mean and running_var", (long long)C);
    if (dy->numel != input->numel)
        return ct_error_set(CT_ERR_RUNTIME, "native_batch_norm_backward: grad_out has %lld elements, input %lld",
                            (long long)dy->numel, (long long)input->numel);
    const ct_dtype pdt = mixed ? CT_FLOAT32 : input->dtype;
    ct_tensor *dx = mask[0] ? ct_tensor_alloc(input->sizes, input->ndim, input->dtype, false) : NULL;
    ct_tensor *dw = mask[1] ? ct_tensor_alloc(&C, 1, pdt, false) : NULL;
    ct_tensor *db = mask[2] ? ct_tensor_alloc(&C, 1, pdt, false) : NULL;
    if ((mask[0] && !dx) || (mask[1] && !dw) || (mask[2] && !db)) goto fail;
    bn_bwd j;
    memset(&j, 0, sizeof j);
    j.vk = ct_vec();
    j.dbl = input->dtype == CT_FLOAT64;
    j.train = train;
    j.C = C;
    j.n_batch = input->sizes[0];
    j.image = 1;
    for (int d = 2; d < input->ndim; d++) j.image *= input->sizes[d];
    j.N = j.n_batch * j.image;
    bn_buf x, g, w, m, v, out;
    memset(&out, 0, sizeof out);
    int rc = load(input, j.dbl, &x);
    rc |= load(dy, j.dbl, &g);
    rc |= load(weight, j.dbl, &w);
    rc |= load(mean_t, j.dbl, &m);
    rc |= load_as(var_t, j.dbl, false, &v); /* overwritten with invstd in eval */
    const size_t per = (size_t)(C ? C : 1);
    const size_t dxn = dx && dx->dtype != CT_FLOAT32 ? (size_t)input->numel : 0; /* float32 dx is written in place */
    if (j.dbl) out.d = ct_calloc(2 * per + dxn + 1, sizeof(double));
    else out.f = ct_calloc(2 * per + dxn + 1, sizeof(float));
    if (rc != 0 || !(out.d || out.f)) {
        unload(&x), unload(&g), unload(&w), unload(&m), unload(&v), unload(&out);
        goto fail;
    }
    if (!train) { /* invstd of the running variance: 1 / sqrt(var + eps) in double, rounded */
        for (int64_t c = 0; c < C; c++) {
            if (j.dbl) v.d[c] = 1.0 / sqrt(v.d[c] + eps);
            else v.f[c] = (float)(1.0 / sqrt((double)v.f[c] + eps));
        }
    }
    if (j.dbl) {
        j.xd = x.d, j.dyd = g.d, j.wd = w.d, j.meand = m.d, j.invd = v.d;
        j.gwd = dw ? out.d : NULL, j.gbd = db ? out.d + per : NULL, j.dxd = dx ? out.d + 2 * per : NULL;
    } else {
        j.xf = x.f, j.dyf = g.f, j.wf = w.f, j.meanf = m.f, j.invf = v.f;
        j.gwf = dw ? out.f : NULL, j.gbf = db ? out.f + per : NULL, j.dxf = dx ? (dx->dtype == CT_FLOAT32 ? (float *)dx->storage->data : out.f + 2 * per) : NULL;
    }
    if (input->numel > 0) {
        if (j.image == 1 && !j.dbl) rc = bw_channels_last_f32(&j);
        else ct_parallel_for(0, C, 1, bw_contig, &j);
    }
    if (rc == 0) {
        if (dx && dx->dtype != CT_FLOAT32) {
            bn_buf b = {j.dxf, j.dxd, false};
            store(dx, &b, input->numel);
        }
        if (dw) {
            bn_buf b = {j.gwf, j.gwd, false};
            store(dw, &b, C);
        }
        if (db) {
            bn_buf b = {j.gbf, j.gbd, false};
            store(db, &b, C);
        }
    }
    unload(&x), unload(&g), unload(&w), unload(&m), unload(&v), unload(&out);
    if (rc != 0) goto fail;
    *gi = dx;
    *gw = dw;
    *gb = db;
    return 0;
fail:
    ct_tensor_release(dx);
    ct_tensor_release(dw);
    ct_tensor_release(db);
    return -1;
}

/* native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean,
 *   Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps,
 *   bool[3] output_mask) -> (Tensor, Tensor, Tensor) */
int ct_k_native_batch_norm_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (args[9].u.list.len != 3) return ct_error_set(CT_ERR_RUNTIME, "native_batch_norm_backward: output_mask needs 3 values");
    const int64_t *mk = args[9].u.list.data;
    bool mask[3] = {mk[0] != 0, mk[1] != 0, mk[2] != 0};
    ct_tensor *a, *b, *c;
    int rc = bn_backward(ARG_T(0), ARG_T(1), ARG_OPT_T(2), ARG_OPT_T(3), ARG_OPT_T(4), ARG_OPT_T(5), ARG_OPT_T(6),
                                    ARG_B(7), args[8].u.d, mask, &a, &b, &c);
    if (rc != 0) return -1;
    rets[0] = ct_tensor_value(a);
    rets[1] = ct_tensor_value(b);
    rets[2] = ct_tensor_value(c);
    return 0;
}
