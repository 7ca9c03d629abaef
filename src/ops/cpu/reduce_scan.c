/* Scans along one dimension: cumsum, cumsum_, cumprod, _logcumsumexp and logcumsumexp
 * (ReduceOps.cpp, cpu/ReduceOpsKernel.cpp). As PyTorch's cpu_cum_base_kernel, the input is first
 * converted to the result's dtype, and each line is accumulated in at::acc_type<scalar_t, false>:
 * double for float32 and float64, float for the 16-bit floats, int64 for the integers (wrapping
 * around), each partial result rounded to the result's dtype as it is stored. The lines are split
 * over the intra-op threads with ct_parallel_for. */
#include <math.h>
#include <string.h>

#include "ctorch/parallel.h"
#include "ops/kernel_util.h"

typedef enum scan_kind { SCAN_SUM, SCAN_PROD, SCAN_LOGADDEXP } scan_kind;

typedef struct scan_job {
    const ct_tensor *self;
    ct_tensor *out; /* contiguous, self's shape */
    int dim;
    int64_t len, inner;
    scan_kind kind;
} scan_job;

/* _log_add_exp_helper */
static double log_add_exp(double x, double y) {
    double lo = isnan(y) ? y : (x < y ? x : y), hi = isnan(y) ? y : (x > y ? x : y);
    if (lo != hi || isfinite(lo)) return log1p(exp(lo - hi)) + hi;
    return x;
}

static int scan_chunk(void *vjob, int64_t begin, int64_t end) {
    const scan_job *j = vjob;
    const ct_tensor *self = j->self;
    const ct_dtype in_dt = self->dtype, dt = j->out->dtype;
    const size_t ies = ct_dtype_size(in_dt), oes = ct_dtype_size(dt);
    const char *in = (const char *)self->storage->data;
    char *out = ct_tensor_data_ptr(j->out);
    const bool integral = ct_dtype_is_integral(dt, true), reduced = ct_dtype_is_reduced_floating(dt);
    for (int64_t line = begin; line < end; line++) {
        const int64_t o = line / j->inner, i = line % j->inner;
        const int64_t base = ct_dim_offset(self, j->dim, o, i, 0);
        char *op = out + (size_t)((o * j->len) * j->inner + i) * oes;
        uint64_t iacc = j->kind == SCAN_PROD ? 1 : 0;
        double acc = j->kind == SCAN_PROD ? 1.0 : j->kind == SCAN_LOGADDEXP ? -INFINITY : 0.0;
        for (int64_t k = 0; k < j->len; k++) {
            const char *ip = in + (size_t)(base + k * self->strides[j->dim]) * ies;
            char *dst = op + (size_t)(k * j->inner) * oes;
            if (integral) {
                int64_t v = in_dt == CT_INT64 ? *(const int64_t *)ip : (int64_t)ct_elem_load(ip, in_dt);
                iacc = j->kind == SCAN_PROD ? iacc * (uint64_t)v : iacc + (uint64_t)v;
                int64_t r = (int64_t)iacc;
                if (dt == CT_INT64) memcpy(dst, &r, sizeof r);
                else ct_elem_store(dst, dt, (double)r);
                continue;
            }
            double v = ct_elem_load(ip, in_dt);
            if (in_dt != dt) { /* the input converted to the result's dtype */
                char tmp[16] = {0};
                ct_elem_store(tmp, dt, v);
                v = ct_elem_load(tmp, dt);
            }
            if (j->kind == SCAN_SUM) acc += v;
            else if (j->kind == SCAN_PROD) acc *= v;
            else acc = log_add_exp(v, acc);
            if (reduced) acc = (float)acc; /* a float accumulator */
            ct_elem_store(dst, dt, acc);
        }
    }
    return 0;
}

/* float32 to float32 over a contiguous self: blocks of up to 256 neighbouring lines (one line when
 * dim is the last), each partial result accumulated in double and rounded as it is stored */
#define SCAN_BLOCK 256
typedef struct scan_f32_job {
    const float *x;
    float *y;
    int64_t len, inner, nblocks;
    scan_kind kind;
} scan_f32_job;

static int scan_f32_chunk(void *vjob, int64_t begin, int64_t end) {
    const scan_f32_job *j = vjob;
    double acc[SCAN_BLOCK];
    for (int64_t u = begin; u < end; u++) {
        const int64_t o = u / j->nblocks, i0 = (u % j->nblocks) * SCAN_BLOCK;
        const int64_t nb = j->inner - i0 < SCAN_BLOCK ? j->inner - i0 : SCAN_BLOCK;
        const float *x = j->x + o * j->len * j->inner + i0;
        float *y = j->y + o * j->len * j->inner + i0;
        if (nb == 1) { /* one line: the accumulator in a register */
            double a = j->kind == SCAN_PROD ? 1.0 : 0.0;
            if (j->kind == SCAN_PROD)
                for (int64_t k = 0; k < j->len; k++) y[k * j->inner] = (float)(a *= x[k * j->inner]);
            else
                for (int64_t k = 0; k < j->len; k++) y[k * j->inner] = (float)(a += x[k * j->inner]);
            continue;
        }
        for (int64_t b = 0; b < nb; b++) acc[b] = j->kind == SCAN_PROD ? 1.0 : 0.0;
        for (int64_t k = 0; k < j->len; k++) {
            const float *xk = x + k * j->inner;
            float *yk = y + k * j->inner;
            if (j->kind == SCAN_PROD)
                for (int64_t b = 0; b < nb; b++) yk[b] = (float)(acc[b] *= xk[b]);
            else
                for (int64_t b = 0; b < nb; b++) yk[b] = (float)(acc[b] += xk[b]);
        }
    }
    return 0;
}

/* the scan of self along dim into a new tensor of dtype dt */
static ct_tensor *scan(ct_tensor *self, int64_t dim_arg, ct_dtype dt, scan_kind kind) {
    int64_t dim;
    if (ct_wrap_dim(dim_arg, self->ndim, &dim) != 0) return NULL;
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, dt, false);
    if (!out || self->numel == 0) return out;
    scan_job j = {self, out, (int)dim, self->ndim ? self->sizes[dim] : 1, 1, kind};
    int64_t outer = 1;
    if (self->ndim) ct_dim_outer_inner(self, (int)dim, &outer, &j.inner);
    if (self->dtype == CT_FLOAT32 && dt == CT_FLOAT32 && kind != SCAN_LOGADDEXP && ct_tensor_is_contiguous(self)) {
        scan_f32_job f = {ct_tensor_data_ptr(self), ct_tensor_data_ptr(out), j.len, j.inner, 0, kind};
        f.nblocks = (j.inner + SCAN_BLOCK - 1) / SCAN_BLOCK;
        int64_t g = CT_GRAIN_SIZE / (j.len * (j.inner < SCAN_BLOCK ? j.inner : SCAN_BLOCK));
        if (ct_parallel_for(0, outer * f.nblocks, g < 1 ? 1 : g, scan_f32_chunk, &f) != 0) {
            ct_tensor_release(out);
            return NULL;
        }
        return out;
    }
    int64_t grain = CT_GRAIN_SIZE / (j.len > 0 ? j.len : 1);
    if (ct_parallel_for(0, outer * j.inner, grain < 1 ? 1 : grain, scan_chunk, &j) != 0) {
        ct_tensor_release(out);
        return NULL;
    }
    return out;
}

static ct_dtype cum_dtype(const ct_tensor *self, const ct_value *dtype_arg) {
    if (dtype_arg->tag == CT_TAG_INT) return (ct_dtype)dtype_arg->u.i;
    return ct_dtype_is_integral(self->dtype, true) ? CT_INT64 : self->dtype;
}

/* cumsum / cumprod(Tensor self, int dim, *, ScalarType? dtype=None) */
int ct_k_cumsum(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, scan(ARG_T(0), ARG_I(1), cum_dtype(ARG_T(0), &args[2]), SCAN_SUM));
}

int ct_k_cumprod(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, scan(ARG_T(0), ARG_I(1), cum_dtype(ARG_T(0), &args[2]), SCAN_PROD));
}

/* cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None): the result in self's dtype */
int ct_k_cumsum_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"cumsum_out_cpu\" not implemented for 'Bool'");
    ct_tensor *r = scan(self, dim, self->dtype, SCAN_SUM);
    if (!r) return -1;
    int rc = ct_copy_into(self, r);
    ct_tensor_release(r);
    if (rc != 0) return -1;
    return ct_ret_self(rets, self);
}

/* _logcumsumexp(Tensor self, int dim): floating dtypes only */
int ct_k__logcumsumexp(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not implemented for '%s'", ct_dtype_name(self->dtype));
    return ct_ret(rets, 0, scan(self, dim, self->dtype, SCAN_LOGADDEXP));
}

/* logcumsumexp(Tensor self, int dim): _logcumsumexp, through the dispatcher */
int ct_k_logcumsumexp(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct__logcumsumexp(ARG_T(0), ARG_I(1)));
}
