/* The reduction family over rows (Note [Reduction rows] in reduce_rows.h): amax, amin, aminmax,
 * max, min, max.dim, min.dim, argmax, argmin, prod, nansum, any, all, count_nonzero, logsumexp, var and std (with
 * var_mean and std_mean), and mean (sum, then a division, as PyTorch's CPU mean.dim is). Each op
 * is its checks (PyTorch's messages), its result dtype and one row function.
 *
 * Orders: the extremes compare in the row's order, the first of equal values winning and the
 * first NaN propagating (max.dim's and argmax's index is the first); var and std accumulate
 * Welford's mean and M2 in double (WelfordOps<scalar_t, double>), except a float32/float64
 * reduction to one element, which is PyTorch's two passes (std_var_all_cpu: the float mean of
 * self.mean(), then the squared deviations summed in double); mean is sum's cascade divided in
 * the result's dtype, so its float32 bits are PyTorch's; prod and logsumexp accumulate in double
 * and round once (PyTorch's float kernels work in float: the last bit can differ). */
#include <math.h>
#include <string.h>

#include "ops/cpu/reduce_rows.h"
#include "ops/kernel_util.h"

static ct_tensor *alloc_out(const ct_rrows *p, ct_dtype dt) { return ct_tensor_alloc(p->oshape, p->oshape_n, dt, false); }

/* the first reduced dimension of size 0, or -1 */
static int64_t zero_reduced_dim(const ct_tensor *self, const bool *mask) {
    for (int d = 0; d < self->ndim; d++)
        if (mask[d] && self->sizes[d] == 0) return d;
    return -1;
}

/* ---- extremes: amax, amin, aminmax, max, min, max.dim, min.dim, argmax, argmin ---- */

typedef struct extreme_ctx {
    bool want_max;
    char *vals;    /* the values, in self's dtype, or NULL */
    int64_t *idx;  /* the indices, or NULL */
} extreme_ctx;

/* The first index of the extreme of n contiguous floats: the extreme over two vectors of 4 lanes
 * (GCC's and Clang's vector extensions, so the baseline build runs it 4 floats a step), a NaN
 * anywhere making the answer the first NaN; then its first occurrence. */
typedef float ct_f4_ __attribute__((vector_size(16)));
typedef int32_t ct_i4_ __attribute__((vector_size(16)));

#define EXTREME_F32(NAME, CMP)                                                                       \
    static int64_t NAME(const float *x, int64_t n, bool need_index, float *value) {                  \
        float best = x[0];                                                                           \
        int nan = x[0] != x[0];                                                                      \
        int64_t i = 1;                                                                               \
        if (n >= 16) {                                                                               \
            ct_f4_ m0, m1;                                                                           \
            ct_i4_ nn = {0, 0, 0, 0};                                                                \
            memcpy(&m0, x, 16);                                                                      \
            memcpy(&m1, x + 4, 16);                                                                  \
            for (i = 8; i + 8 <= n; i += 8) {                                                        \
                ct_f4_ a, b;                                                                         \
                memcpy(&a, x + i, 16);                                                               \
                memcpy(&b, x + i + 4, 16);                                                           \
                const ct_i4_ ka = a CMP m0, kb = b CMP m1;                                           \
                m0 = (ct_f4_)(((ct_i4_)m0 & ~ka) | ((ct_i4_)a & ka));                                \
                m1 = (ct_f4_)(((ct_i4_)m1 & ~kb) | ((ct_i4_)b & kb));                                \
                nn |= (a != a) | (b != b);                                                           \
            }                                                                                        \
            float r[8];                                                                              \
            memcpy(r, &m0, 16);                                                                      \
            memcpy(r + 4, &m1, 16);                                                                  \
            best = r[0];                                                                             \
            for (int l = 1; l < 8; l++) best = r[l] CMP best ? r[l] : best;                          \
            nan = (nn[0] | nn[1] | nn[2] | nn[3] | (r[0] != r[0])) != 0;                             \
        }                                                                                            \
        for (; i < n; i++) {                                                                         \
            best = x[i] CMP best ? x[i] : best;                                                      \
            nan |= x[i] != x[i];                                                                     \
        }                                                                                            \
        if (!need_index) { /* amax: the value alone (a NaN when there is one) */                    \
            *value = nan ? NAN : best;                                                               \
            return -1;                                                                               \
        }                                                                                            \
        int64_t k = 0;                                                                               \
        if (!nan) { /* the first block of 4 holding the extreme, 4 comparisons a step */            \
            const ct_f4_ bv = {best, best, best, best};                                              \
            for (; k + 4 <= n; k += 4) {                                                             \
                ct_f4_ a;                                                                            \
                memcpy(&a, x + k, 16);                                                               \
                const ct_i4_ eq = a == bv;                                                           \
                if (eq[0] | eq[1] | eq[2] | eq[3]) break;                                            \
            }                                                                                        \
        }                                                                                            \
        for (; k < n; k++)                                                                           \
            if (nan ? x[k] != x[k] : x[k] == best) return k;                                         \
        return 0;                                                                                    \
    }
EXTREME_F32(max_index_f32, >)
EXTREME_F32(min_index_f32, <)

/* the index of the extreme (need_index), or -1 with the extreme in *value */
static int64_t extreme_f32(const float *x, int64_t n, bool want_max, bool need_index, float *value) {
    return want_max ? max_index_f32(x, n, need_index, value) : min_index_f32(x, n, need_index, value);
}

static int64_t extreme_index_f32(const float *x, int64_t n, bool want_max) {
    float unused;
    return extreme_f32(x, n, want_max, true, &unused);
}

/* ncols neighbouring columns at once (Note [Reduction rows]): float32, 4 columns a step */
#define EXTREME_COL_F32(NAME, CMP)                                                                   \
    static void NAME(const ct_rrows *p, const char *base, float *m, int32_t *ix, int64_t nc) {       \
        memcpy(m, base, sizeof(float) * (size_t)nc);                                                 \
        memset(ix, 0, sizeof(int32_t) * (size_t)nc);                                                 \
        for (int64_t r = 1; r < p->rlen; r++) {                                                      \
            const float *x = (const float *)(base + r * p->rstride[0]);                              \
            const ct_i4_ rv = {(int32_t)r, (int32_t)r, (int32_t)r, (int32_t)r};                      \
            int64_t k = 0;                                                                           \
            for (; k + 4 <= nc; k += 4) {                                                            \
                ct_f4_ v, mv;                                                                        \
                ct_i4_ iv;                                                                           \
                memcpy(&v, x + k, 16);                                                               \
                memcpy(&mv, m + k, 16);                                                              \
                memcpy(&iv, ix + k, 16);                                                             \
                const ct_i4_ take = (v CMP mv) | ((v != v) & (mv == mv));                           \
                mv = (ct_f4_)(((ct_i4_)mv & ~take) | ((ct_i4_)v & take));                            \
                iv = (iv & ~take) | (rv & take);                                                     \
                memcpy(m + k, &mv, 16);                                                              \
                memcpy(ix + k, &iv, 16);                                                             \
            }                                                                                        \
            for (; k < nc; k++) {                                                                    \
                const float v = x[k];                                                                \
                const bool take = (v CMP m[k]) || (v != v && m[k] == m[k]);                          \
                m[k] = take ? v : m[k];                                                              \
                ix[k] = take ? (int32_t)r : ix[k];                                                   \
            }                                                                                        \
        }                                                                                            \
    }
EXTREME_COL_F32(max_cols_f32, >)
EXTREME_COL_F32(min_cols_f32, <)

static void extreme_col_f32(const ct_rrows *p, const char *base, int64_t o0, int64_t nc, void *vctx) {
    const extreme_ctx *c = vctx;
    float m[CT_RROWS_COLUMNS];
    int32_t ix[CT_RROWS_COLUMNS];
    if (c->want_max) max_cols_f32(p, base, m, ix, nc);
    else min_cols_f32(p, base, m, ix, nc);
    if (c->vals) memcpy(c->vals + (size_t)o0 * sizeof(float), m, sizeof(float) * (size_t)nc);
    if (c->idx)
        for (int64_t k = 0; k < nc; k++) c->idx[o0 + k] = ix[k];
}

static void extreme_row(const ct_rrows *p, const char *base, int64_t o, void *vctx) {
    const extreme_ctx *c = vctx;
    const ct_dtype dt = p->self->dtype;
    const size_t es = ct_dtype_size(dt);
    int64_t best = 0;
    const char *bp = ct_rrow_at(p, base, 0);
    if (dt == CT_FLOAT32 && p->nred == 1 && p->rstride[0] == 4) {
        if (!c->idx) { /* the value alone */
            float v;
            extreme_f32((const float *)base, p->rlen, c->want_max, false, &v);
            memcpy(c->vals + (size_t)o * es, &v, es);
            return;
        }
        best = extreme_index_f32((const float *)base, p->rlen, c->want_max);
        bp = base + best * 4;
    } else if (ct_dtype_is_floating(dt)) {
        double bv = ct_elem_load(bp, dt);
        for (int64_t r = 1; r < p->rlen && !isnan(bv); r++) {
            const char *q = ct_rrow_at(p, base, r);
            double v = ct_elem_load(q, dt);
            if (isnan(v) || (c->want_max ? v > bv : v < bv)) {
                bv = v;
                best = r;
                bp = q;
            }
        }
    } else {
        int64_t bv = ct_rload_i64(bp, dt);
        for (int64_t r = 1; r < p->rlen; r++) {
            const char *q = ct_rrow_at(p, base, r);
            int64_t v = ct_rload_i64(q, dt);
            if (c->want_max ? v > bv : v < bv) {
                bv = v;
                best = r;
                bp = q;
            }
        }
    }
    if (c->vals) memcpy(c->vals + (size_t)o * es, bp, es);
    if (c->idx) c->idx[o] = best;
}

/* Runs the extreme rows of self over mask into new values (vals_out) and/or indices tensors. */
static int extremes(ct_tensor *self, const bool *mask, bool keepdim, bool want_max, ct_tensor **vals_out,
                    ct_tensor **idx_out) {
    ct_rrows p;
    ct_rrows_plan(&p, self, mask, keepdim);
    ct_tensor *v = vals_out ? alloc_out(&p, self->dtype) : NULL;
    ct_tensor *ix = idx_out ? alloc_out(&p, CT_INT64) : NULL;
    if ((vals_out && !v) || (idx_out && !ix)) {
        ct_tensor_release(v);
        ct_tensor_release(ix);
        return -1;
    }
    extreme_ctx c = {want_max, v ? ct_tensor_data_ptr(v) : NULL, ix ? ct_tensor_data_ptr(ix) : NULL};
    const bool cols_f32 = self->dtype == CT_FLOAT32 && p.rlen < INT32_MAX; /* the row index in 32 bits */
    if (p.rlen > 0 && ct_rrows_run_cols(&p, extreme_row, cols_f32 ? extreme_col_f32 : NULL, &c) != 0) {
        ct_tensor_release(v);
        ct_tensor_release(ix);
        return -1;
    }
    if (vals_out) *vals_out = v;
    if (idx_out) *idx_out = ix;
    return 0;
}

/* amax / amin(Tensor self, int[1] dim=[], bool keepdim=False) */
static int amax_amin(ct_value *args, ct_value *rets, bool want_max) {
    ct_tensor *self = ARG_T(0);
    const char *name = want_max ? "amax" : "amin";
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    if (self->numel == 0) {
        if (args[1].tag != CT_TAG_INTLIST || args[1].u.list.len == 0)
            return ct_error_set(CT_ERR_RUNTIME,
                                "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                                "dim with the 'dim' argument.",
                                name);
        int64_t z = zero_reduced_dim(self, mask);
        if (z >= 0) return ct_error_set(CT_ERR_INDEX, "%s(): Expected reduction dim %lld to have non-zero size.", name, (long long)z);
    }
    ct_tensor *v = NULL;
    if (extremes(self, mask, ARG_B(2), want_max, &v, NULL) != 0) return -1;
    return ct_ret(rets, 0, v);
}

int ct_k_amax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return amax_amin(args, rets, true);
}

int ct_k_amin(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return amax_amin(args, rets, false);
}

/* max / min(Tensor self): over every element, NaN propagating */
static int max_min_all(ct_value *args, ct_value *rets, bool want_max) {
    ct_tensor *self = ARG_T(0);
    if (self->numel == 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                            "with the 'dim' argument.",
                            want_max ? "max" : "min");
    bool mask[CT_MAX_DIMS];
    ct_rrows_mask(self, NULL, 0, true, mask);
    ct_tensor *v = NULL;
    if (extremes(self, mask, false, want_max, &v, NULL) != 0) return -1;
    return ct_ret(rets, 0, v);
}

int ct_k_max(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_min_all(args, rets, true);
}

int ct_k_min(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_min_all(args, rets, false);
}

/* max.dim / min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices) */
static int max_min_dim(ct_value *args, ct_value *rets, bool want_max) {
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], false, mask) != 0) return -1;
    int64_t z = zero_reduced_dim(self, mask);
    if (z >= 0)
        return ct_error_set(CT_ERR_INDEX, "%s(): Expected reduction dim %lld to have non-zero size.", want_max ? "max" : "min",
                            (long long)z);
    ct_tensor *v = NULL, *ix = NULL;
    if (extremes(self, mask, ARG_B(2), want_max, &v, &ix) != 0) return -1;
    rets[0] = ct_tensor_value(v);
    rets[1] = ct_tensor_value(ix);
    return 0;
}

int ct_k_max_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_min_dim(args, rets, true);
}

int ct_k_min_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return max_min_dim(args, rets, false);
}

/* argmax / argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor */
static int arg_extreme(ct_value *args, ct_value *rets, bool want_max) {
    ct_tensor *self = ARG_T(0);
    const char *name = want_max ? "argmax" : "argmin";
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    if (ARG_IS_NONE(1) && self->numel == 0)
        return ct_error_set(CT_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.", name);
    int64_t z = zero_reduced_dim(self, mask);
    if (z >= 0) return ct_error_set(CT_ERR_INDEX, "%s(): Expected reduction dim %lld to have non-zero size.", name, (long long)z);
    if (self->dtype == CT_BOOL && self->numel > 0)
        return ct_error_set(CT_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Bool'", name);
    /* dim=None: the flattened tensor, its shape kept as 1s only with keepdim */
    ct_tensor *ix = NULL;
    if (extremes(self, mask, ARG_B(2), want_max, NULL, &ix) != 0) return -1;
    return ct_ret(rets, 0, ix);
}

int ct_k_argmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return arg_extreme(args, rets, true);
}

int ct_k_argmin(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return arg_extreme(args, rets, false);
}

/* aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max) */
int ct_k_aminmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    if (self->numel == 0) {
        if (ARG_IS_NONE(1))
            return ct_error_set(CT_ERR_RUNTIME, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
        int64_t z = zero_reduced_dim(self, mask);
        if (z >= 0) return ct_error_set(CT_ERR_INDEX, "aminmax: Expected reduction dim %lld to have non-zero size.", (long long)z);
    }
    ct_tensor *mn = NULL, *mx = NULL;
    if (extremes(self, mask, ARG_B(2), false, &mn, NULL) != 0) return -1;
    if (extremes(self, mask, ARG_B(2), true, &mx, NULL) != 0) {
        ct_tensor_release(mn);
        return -1;
    }
    rets[0] = ct_tensor_value(mn);
    rets[1] = ct_tensor_value(mx);
    return 0;
}

/* ---- folds: prod, any, all, count_nonzero, logsumexp ---- */

typedef enum fold_kind { FOLD_PROD, FOLD_NANSUM, FOLD_ANY, FOLD_ALL, FOLD_COUNT, FOLD_LOGSUMEXP } fold_kind;

typedef struct fold_ctx {
    fold_kind kind;
    ct_dtype in_dt;  /* what the elements are converted to first (the dtype= argument), or self's */
    ct_dtype out_dt;
    char *out;
} fold_ctx;

/* v converted to dt and back, as an input cast to dt would hold it */
static double as_dtype(double v, ct_dtype dt) {
    char tmp[16] = {0};
    ct_elem_store(tmp, dt, v);
    return ct_elem_load(tmp, dt);
}

/* float32 in and out, a contiguous row: prod in 8 double lanes, logsumexp in PyTorch's float steps
 * (x - max and exp in float, the sum in double) */
static bool fold_row_f32(const ct_rrows *p, const char *base, float *out, fold_kind kind) {
    const float *x = (const float *)base;
    const int64_t n = p->rlen;
    if (kind == FOLD_PROD) {
        double acc[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        int64_t i = 0;
        for (; i + 8 <= n; i += 8)
            for (int l = 0; l < 8; l++) acc[l] *= x[i + l];
        for (; i < n; i++) acc[0] *= x[i];
        for (int l = 1; l < 8; l++) acc[0] *= acc[l];
        *out = (float)acc[0];
        return true;
    }
    if (kind == FOLD_LOGSUMEXP && n > 0) {
        float m = x[extreme_index_f32(x, n, true)];
        if (isinf(m)) m = 0.0f;
        double s = 0.0;
        for (int64_t i = 0; i < n; i++) s += expf(x[i] - m);
        *out = logf((float)s) + m;
        return true;
    }
    return false;
}

static void fold_col_f32(const ct_rrows *p, const char *base, int64_t o0, int64_t nc, void *vctx) {
    const fold_ctx *c = vctx;
    float *out = (float *)c->out + o0;
    double acc[CT_RROWS_COLUMNS];
    float m[CT_RROWS_COLUMNS];
    if (c->kind == FOLD_PROD) {
        for (int64_t k = 0; k < nc; k++) acc[k] = 1.0;
        for (int64_t r = 0; r < p->rlen; r++) {
            const float *x = (const float *)(base + r * p->rstride[0]);
            for (int64_t k = 0; k < nc; k++) acc[k] *= x[k];
        }
        for (int64_t k = 0; k < nc; k++) out[k] = (float)acc[k];
        return;
    }
    /* logsumexp: the maxima (NaN propagating), then the sums */
    const float *x0 = (const float *)base;
    for (int64_t k = 0; k < nc; k++) m[k] = x0[k];
    for (int64_t r = 1; r < p->rlen; r++) {
        const float *x = (const float *)(base + r * p->rstride[0]);
        for (int64_t k = 0; k < nc; k++) m[k] = (x[k] > m[k] || (x[k] != x[k])) && m[k] == m[k] ? x[k] : m[k];
    }
    for (int64_t k = 0; k < nc; k++) {
        if (isinf(m[k])) m[k] = 0.0f;
        acc[k] = 0.0;
    }
    for (int64_t r = 0; r < p->rlen; r++) {
        const float *x = (const float *)(base + r * p->rstride[0]);
        for (int64_t k = 0; k < nc; k++) acc[k] += expf(x[k] - m[k]);
    }
    for (int64_t k = 0; k < nc; k++) out[k] = logf((float)acc[k]) + m[k];
}

static void fold_row(const ct_rrows *p, const char *base, int64_t o, void *vctx) {
    const fold_ctx *c = vctx;
    const ct_dtype dt = p->self->dtype;
    char *out = c->out + (size_t)o * ct_dtype_size(c->out_dt);
    if (dt == CT_FLOAT32 && c->out_dt == CT_FLOAT32 && c->in_dt == CT_FLOAT32 && p->nred == 1 && p->rstride[0] == 4 &&
        fold_row_f32(p, base, (float *)out, c->kind))
        return;
    switch (c->kind) {
    case FOLD_PROD:
        if (ct_dtype_is_integral(c->out_dt, true)) {
            uint64_t acc = 1; /* int64 products wrap around as PyTorch's do */
            for (int64_t r = 0; r < p->rlen; r++) acc *= (uint64_t)ct_rload_i64(ct_rrow_at(p, base, r), dt);
            int64_t v = (int64_t)acc;
            memcpy(out, &v, sizeof v);
        } else {
            double acc = 1.0;
            const bool cast = c->in_dt != dt;
            for (int64_t r = 0; r < p->rlen; r++) {
                double v = ct_elem_load(ct_rrow_at(p, base, r), dt);
                acc *= cast ? as_dtype(v, c->in_dt) : v;
            }
            ct_elem_store(out, c->out_dt, acc);
        }
        break;
    case FOLD_NANSUM:
        if (ct_dtype_is_integral(c->out_dt, true)) {
            uint64_t acc = 0;
            for (int64_t r = 0; r < p->rlen; r++) acc += (uint64_t)ct_rload_i64(ct_rrow_at(p, base, r), dt);
            int64_t v = (int64_t)acc;
            memcpy(out, &v, sizeof v);
        } else {
            double acc = 0.0;
            for (int64_t r = 0; r < p->rlen; r++) {
                double v = as_dtype(ct_elem_load(ct_rrow_at(p, base, r), dt), c->in_dt);
                if (!isnan(v)) acc += v;
            }
            ct_elem_store(out, c->out_dt, acc);
        }
        break;
    case FOLD_ANY:
    case FOLD_ALL: {
        bool any = false, all = true;
        for (int64_t r = 0; r < p->rlen; r++) {
            bool nz = ct_elem_load(ct_rrow_at(p, base, r), dt) != 0.0;
            any |= nz;
            all &= nz;
            if (c->kind == FOLD_ANY ? any : !all) break;
        }
        ct_elem_store(out, c->out_dt, c->kind == FOLD_ANY ? any : all);
        break;
    }
    case FOLD_COUNT: {
        int64_t n = 0;
        for (int64_t r = 0; r < p->rlen; r++) n += ct_elem_load(ct_rrow_at(p, base, r), dt) != 0.0;
        memcpy(out, &n, sizeof n);
        break;
    }
    case FOLD_LOGSUMEXP: {
        /* PyTorch's steps, each rounded to the dtype: maxes = amax (infinite ones taken as 0),
         * exp(self - maxes) summed, log, + maxes */
        const ct_dtype t = c->in_dt;
        double m = -INFINITY;
        for (int64_t r = 0; r < p->rlen; r++) {
            double v = as_dtype(ct_elem_load(ct_rrow_at(p, base, r), dt), t);
            if (isnan(v) || v > m) m = v;
            if (isnan(m)) break;
        }
        if (p->rlen == 0 || isinf(m)) m = 0.0;
        double s = 0.0;
        for (int64_t r = 0; r < p->rlen; r++) {
            double d = as_dtype(as_dtype(ct_elem_load(ct_rrow_at(p, base, r), dt), t) - m, t);
            s += as_dtype(exp(d), t);
        }
        ct_elem_store(out, c->out_dt, as_dtype(as_dtype(log(as_dtype(s, t)), t) + m, t));
        break;
    }
    }
}

static int fold(ct_tensor *self, const bool *mask, bool keepdim, fold_kind kind, ct_dtype in_dt, ct_dtype out_dt,
                ct_value *rets) {
    ct_rrows p;
    ct_rrows_plan(&p, self, mask, keepdim);
    ct_tensor *out = alloc_out(&p, out_dt);
    if (!out) return -1;
    fold_ctx c = {kind, in_dt, out_dt, ct_tensor_data_ptr(out)};
    const bool f32 = self->dtype == CT_FLOAT32 && in_dt == CT_FLOAT32 && out_dt == CT_FLOAT32 &&
                     (kind == FOLD_PROD || kind == FOLD_LOGSUMEXP);
    if (ct_rrows_run_cols(&p, fold_row, f32 ? fold_col_f32 : NULL, &c) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

/* sum's and prod's result dtype: the dtype= argument, else integral (and bool) inputs give int64 */
static ct_dtype int_to_long(const ct_tensor *self, const ct_value *dtype_arg) {
    if (dtype_arg->tag == CT_TAG_INT) return (ct_dtype)dtype_arg->u.i;
    return ct_dtype_is_integral(self->dtype, true) ? CT_INT64 : self->dtype;
}

/* prod(Tensor self, *, ScalarType? dtype=None) */
int ct_k_prod(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    ct_rrows_mask(self, NULL, 0, true, mask);
    ct_dtype out_dt = int_to_long(self, &args[1]);
    return fold(self, mask, false, FOLD_PROD, out_dt, out_dt, rets);
}

/* prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) */
int ct_k_prod_dim_int(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], false, mask) != 0) return -1;
    ct_dtype out_dt = int_to_long(self, &args[3]);
    return fold(self, mask, ARG_B(2), FOLD_PROD, out_dt, out_dt, rets);
}

/* nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None): sum's dtypes,
 * the NaNs left out (accumulated in double and rounded once, where PyTorch's float32 is its cascade) */
int ct_k_nansum(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    ct_dtype out_dt = int_to_long(self, &args[3]);
    return fold(self, mask, ARG_B(2), FOLD_NANSUM, out_dt, out_dt, rets);
}

/* any/all over a mask: bool results, uint8 for a uint8 input (PyTorch keeps that legacy type) */
static int any_all(ct_tensor *self, const ct_value *dims, bool keepdim, bool want_any, ct_value *rets) {
    bool mask[CT_MAX_DIMS]; /* None reduces every dimension, an empty list none */
    if (ct_rrows_mask_arg(self, dims, false, mask) != 0) return -1;
    return fold(self, mask, keepdim, want_any ? FOLD_ANY : FOLD_ALL, self->dtype, self->dtype == CT_UINT8 ? CT_UINT8 : CT_BOOL,
                rets);
}

int ct_k_any(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value none = ct_none();
    return any_all(ARG_T(0), &none, false, true, rets);
}

int ct_k_all(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value none = ct_none();
    return any_all(ARG_T(0), &none, false, false, rets);
}

int ct_k_any_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return any_all(ARG_T(0), &args[1], ARG_B(2), true, rets);
}

int ct_k_all_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return any_all(ARG_T(0), &args[1], ARG_B(2), false, rets);
}

int ct_k_any_dims(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return any_all(ARG_T(0), &args[1], ARG_B(2), true, rets);
}

int ct_k_all_dims(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return any_all(ARG_T(0), &args[1], ARG_B(2), false, rets);
}

/* count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor (int64) */
int ct_k_count_nonzero_dim_IntList(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    return fold(self, mask, false, FOLD_COUNT, self->dtype, CT_INT64, rets);
}

/* count_nonzero(Tensor self, int? dim=None): the dim_IntList overload, through the dispatcher */
int ct_k_count_nonzero(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    int64_t d = ARG_IS_NONE(1) ? 0 : ARG_I(1);
    return ct_ret(rets, 0, ct_count_nonzero_dim_IntList(ARG_T(0), &d, ARG_IS_NONE(1) ? 0 : 1));
}

/* logsumexp(Tensor self, int[1] dim, bool keepdim=False): integral inputs in the default dtype */
int ct_k_logsumexp(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    ct_dtype dt = ct_dtype_is_integral(self->dtype, true) ? ct_default_dtype() : self->dtype;
    return fold(self, mask, ARG_B(2), FOLD_LOGSUMEXP, dt, dt, rets);
}

/* ---- mean: sum, then a division ---- */

/* mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) */
int ct_k_mean_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_dtype dt = args[3].tag == CT_TAG_INT ? (ct_dtype)args[3].u.i : self->dtype;
    if (!ct_dtype_is_floating(dt))
        return ct_error_set(CT_ERR_RUNTIME,
                            "mean(): could not infer output dtype. %s dtype must be either a floating point or complex dtype. Got: %s",
                            args[3].tag == CT_TAG_INT ? "Optional" : "Input", ct_dtype_name(dt));
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    int64_t n = 1;
    for (int d = 0; d < self->ndim; d++)
        if (mask[d]) n *= self->sizes[d];
    /* the 16-bit floats are summed and divided in float32, then converted */
    const ct_dtype sum_dt = ct_dtype_is_reduced_floating(dt) ? CT_FLOAT32 : dt;
    ct_tensor *x = self->dtype == sum_dt ? ct_tensor_retain(self) : ct_to_dtype(self, sum_dt, false, false, CT_MEMORY_FORMAT_NONE);
    if (!x) return -1;
    const ct_value *dims = &args[1];
    ct_tensor *s = dims->tag == CT_TAG_INTLIST ? ct_sum_dim(x, dims->u.list.data, dims->u.list.len, ARG_B(2), sum_dt)
                                               : ct_sum_dim(x, NULL, 0, ARG_B(2), sum_dt);
    ct_tensor_release(x);
    if (!s) return -1;
    char *data = ct_tensor_data_ptr(s);
    for (int64_t i = 0; i < s->numel; i++) {
        if (sum_dt == CT_FLOAT32) ((float *)data)[i] = ((float *)data)[i] / (float)n;
        else ct_elem_store(data + (size_t)i * ct_dtype_size(sum_dt), sum_dt,
                           ct_elem_load(data + (size_t)i * ct_dtype_size(sum_dt), sum_dt) / (double)n);
    }
    if (sum_dt != dt) {
        ct_tensor *r = ct_to_dtype(s, dt, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(s);
        s = r;
    }
    return ct_ret(rets, 0, s);
}

/* mean(Tensor self, *, ScalarType? dtype=None): mean.dim over every dimension */
int ct_k_mean(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    static const int64_t no_dims[1] = {0};
    ct_dtype dt = args[1].tag == CT_TAG_INT ? (ct_dtype)args[1].u.i : CT_DTYPE_UNDEFINED;
    return ct_ret(rets, 0, ct_mean_dim(ARG_T(0), no_dims, 0, false, dt));
}

/* ---- var and std ---- */

typedef struct welford_ctx {
    double correction;
    bool take_sqrt;
    ct_dtype dt;
    char *var, *mean; /* mean NULL for var/std alone */
} welford_ctx;

static void welford_row(const ct_rrows *p, const char *base, int64_t o, void *vctx) {
    const welford_ctx *c = vctx;
    const ct_dtype dt = p->self->dtype;
    double mean = 0.0, m2 = 0.0;
    for (int64_t r = 0; r < p->rlen; r++) {
        double v = ct_elem_load(ct_rrow_at(p, base, r), dt);
        double delta = v - mean;
        mean += delta / (double)(r + 1);
        m2 += delta * (v - mean);
    }
    double dof = (double)p->rlen - c->correction;
    double var = m2 / (dof > 0 ? dof : 0.0);
    if (p->rlen == 0) var = mean = NAN;
    const size_t es = ct_dtype_size(c->dt);
    ct_elem_store(c->var + (size_t)o * es, c->dt, c->take_sqrt ? sqrt(var) : var);
    if (c->mean) ct_elem_store(c->mean + (size_t)o * es, c->dt, mean);
}

/* std_var_all_cpu: the float/double reduction to one element */
static int var_all(ct_tensor *self, double correction, bool take_sqrt, ct_tensor *out) {
    ct_tensor *m = ct_mean(self, CT_DTYPE_UNDEFINED);
    if (!m) return -1;
    const double mean = ct_elem_load(ct_tensor_data_ptr(m), m->dtype);
    ct_tensor_release(m);
    double s = 0.0;
    if (ct_tensor_is_contiguous(self)) {
        const char *x = ct_tensor_data_ptr(self);
        if (self->dtype == CT_FLOAT32)
            for (int64_t i = 0; i < self->numel; i++) {
                const double dx = (double)((const float *)x)[i] - mean;
                s += dx * dx;
            }
        else
            for (int64_t i = 0; i < self->numel; i++) {
                const double dx = ((const double *)x)[i] - mean;
                s += dx * dx;
            }
    } else {
        for (int64_t i = 0; i < self->numel; i++) {
            double dx = ct_elem_load(ct_tensor_elem_ptr(self, i), self->dtype) - mean;
            s += dx * dx;
        }
    }
    double dof = (double)self->numel - correction;
    double var = s / (dof > 0 ? dof : 0.0);
    ct_elem_store(ct_tensor_data_ptr(out), out->dtype, take_sqrt ? sqrt(var) : var);
    return 0;
}

/* var/std(.correction) and var_mean/std_mean(.correction): self, int[1]? dim, Scalar? correction, keepdim */
static int var_family(ct_value *args, ct_value *rets, bool take_sqrt, bool with_mean, const char *name) {
    ct_tensor *self = ARG_T(0);
    if (!ct_dtype_is_floating(self->dtype)) {
        if (with_mean) return ct_error_set(CT_ERR_RUNTIME, "%s only support floating point and complex dtypes", name);
        return ct_error_set(CT_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
    }
    bool mask[CT_MAX_DIMS];
    if (ct_rrows_mask_arg(self, &args[1], true, mask) != 0) return -1;
    const double correction = args[2].tag == CT_TAG_NONE ? 1.0 : ct_scalar_to_double(args[2]);
    ct_rrows p;
    ct_rrows_plan(&p, self, mask, ARG_B(3));
    ct_tensor *var = alloc_out(&p, self->dtype), *mean = with_mean ? alloc_out(&p, self->dtype) : NULL;
    if (!var || (with_mean && !mean)) {
        ct_tensor_release(var);
        ct_tensor_release(mean);
        return -1;
    }
    int rc;
    if (!with_mean && p.nout == 1 && p.rlen > 0 && (self->dtype == CT_FLOAT32 || self->dtype == CT_FLOAT64)) {
        rc = var_all(self, correction, take_sqrt, var);
    } else {
        welford_ctx c = {correction, take_sqrt, self->dtype, ct_tensor_data_ptr(var), mean ? ct_tensor_data_ptr(mean) : NULL};
        rc = ct_rrows_run(&p, welford_row, &c);
    }
    if (rc != 0) {
        ct_tensor_release(var);
        ct_tensor_release(mean);
        return -1;
    }
    rets[0] = ct_tensor_value(var);
    if (with_mean) rets[1] = ct_tensor_value(mean);
    return 0;
}

int ct_k_var_correction(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return var_family(args, rets, false, false, "var");
}

int ct_k_std_correction(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return var_family(args, rets, true, false, "std");
}

int ct_k_var_mean_correction(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return var_family(args, rets, false, true, "var_mean");
}

int ct_k_std_mean_correction(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return var_family(args, rets, true, true, "std_mean");
}
