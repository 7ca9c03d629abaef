/* Random factories and in-place fills (TensorFactories.cpp, DistributionTemplates.h):
 * randn = empty + normal_, rand = empty + uniform_, randint = empty + random_, all through
 * the dispatcher, with the numbers drawn by src/random/ exactly as PyTorch draws them. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"
#include "random/rng.h"

/* Fills a tensor from a contiguous buffer of values generated in iteration order. For a
 * non-contiguous tensor TensorIterator walks memory order (dimensions sorted by stride), so
 * the values land in that order too. */
typedef int (*gen_fn)(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous);

static int fill_random(ct_tensor *self, ct_generator *g, gen_fn f, const void *params) {
    int64_t n = self->numel;
    if (n == 0) return 0;
    bool contig = ct_tensor_is_contiguous(self);
    if (contig) return f(g, ct_tensor_data_ptr(self), n, self->dtype, params, true);
    size_t es = ct_dtype_size(self->dtype);
    char *buf = ct_malloc((size_t)n * es);
    if (!buf) return -1;
    if (f(g, buf, n, self->dtype, params, false) != 0) {
        ct_free(buf);
        return -1;
    }
    /* memory order: dims sorted by decreasing stride (stable) */
    int nd = self->ndim, perm[CT_MAX_DIMS];
    for (int i = 0; i < nd; i++) perm[i] = i;
    for (int i = 1; i < nd; i++) {
        int p = perm[i], j = i - 1;
        while (j >= 0 && self->strides[perm[j]] < self->strides[p]) {
            perm[j + 1] = perm[j];
            j--;
        }
        perm[j + 1] = p;
    }
    int64_t idx[CT_MAX_DIMS] = {0};
    char *base = (char *)self->storage->data;
    for (int64_t k = 0; k < n; k++) {
        int64_t off = self->storage_offset;
        for (int d = 0; d < nd; d++) off += idx[d] * self->strides[d];
        memcpy(base + (size_t)off * es, buf + (size_t)k * es, es);
        for (int d = nd - 1; d >= 0; d--) {
            int dim = perm[d];
            if (++idx[dim] < self->sizes[dim]) break;
            idx[dim] = 0;
        }
    }
    ct_free(buf);
    return 0;
}

typedef struct two_doubles {
    double a, b;
} two_doubles;

static int gen_normal(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous) {
    const two_doubles *p = params;
    return ct_rng_normal(g, buf, n, dt, p->a, p->b, contiguous);
}

static int gen_uniform(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous) {
    (void)contiguous;
    const two_doubles *p = params;
    return ct_rng_uniform(g, buf, n, dt, p->a, p->b);
}

typedef struct int_range {
    int64_t base;
    uint64_t range;
} int_range;

static int gen_random(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous) {
    (void)contiguous;
    const int_range *p = params;
    return ct_rng_random_from_to(g, buf, n, dt, p->base, p->range);
}

static ct_generator *gen_arg(const ct_value *v) { return v->tag == CT_TAG_GENERATOR ? v->u.g : NULL; }

/* normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) */
int ct_k_normal_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    two_doubles p = {args[1].u.d, args[2].u.d};
    if (ct_rng_normal_check(p.b) != 0) return -1;
    if (fill_random(self, gen_arg(&args[3]), gen_normal, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) */
int ct_k_uniform_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    two_doubles p = {args[1].u.d, args[2].u.d};
    if (ct_rng_uniform_bounds(self->dtype, &p.a, &p.b) != 0) return -1;
    if (fill_random(self, gen_arg(&args[3]), gen_uniform, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) */
int ct_k_random_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int_range p;
    int64_t to = args[2].tag == CT_TAG_INT ? args[2].u.i : 0;
    if (ct_rng_random_bounds(self->dtype, args[1].u.i, args[2].tag == CT_TAG_INT ? &to : NULL, &p.base, &p.range) != 0)
        return -1;
    if (fill_random(self, gen_arg(&args[3]), gen_random, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* random_.to(Tensor(a!) self, int to, *, Generator? generator=None): random_from_to from 0 */
int ct_k_random__to(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int_range p;
    int64_t to = args[1].u.i;
    if (ct_rng_random_bounds(self->dtype, 0, &to, &p.base, &p.range) != 0) return -1;
    if (fill_random(self, gen_arg(&args[2]), gen_random, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* random_(Tensor(a!) self, *, Generator? generator=None): uniform_int_distribution over the dtype's
 * whole range (a floating type's integers up to 2^digits, an integral type's from 0 to its max, a
 * bool's two values), the words drawn as random_.from(0, None) draws them */
int ct_k_random__default(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int_range p;
    if (ct_rng_random_bounds(self->dtype, 0, NULL, &p.base, &p.range) != 0) return -1;
    if (fill_random(self, gen_arg(&args[1]), gen_random, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

static int factory_then(const ct_value *size, ct_dtype dt, int (*fill)(ct_tensor *, ct_generator *, const void *),
                        ct_generator *g, const void *params, ct_value *rets) {
    ct_tensor *t = ct_empty(size->u.list.data, size->u.list.len, dt, CT_MEMORY_FORMAT_NONE);
    if (!t) return -1;
    if (fill(t, g, params) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

static int fill_normal01(ct_tensor *t, ct_generator *g, const void *params) {
    (void)params;
    return ct_normal_(t, 0.0, 1.0, g);
}
static int fill_uniform01(ct_tensor *t, ct_generator *g, const void *params) {
    (void)params;
    return ct_uniform_(t, 0.0, 1.0, g);
}
static int fill_randint(ct_tensor *t, ct_generator *g, const void *params) {
    const int64_t *lh = params;
    return ct_random_(t, lh[0], &lh[1], g);
}

static int check_float_factory(const char *name, ct_dtype dt) {
    if (!ct_dtype_is_floating(dt)) {
        if (strcmp(name, "randn") == 0)
            return ct_error_set(CT_ERR_RUNTIME, "\"normal_kernel_cpu\" not implemented for '%s'", ct_dtype_name(dt));
        return ct_error_set(CT_ERR_RUNTIME, "\"check_uniform_bounds\" not implemented for '%s'", ct_dtype_name(dt));
    }
    return 0;
}

int ct_k_randn(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[1], ct_default_dtype());
    if (check_float_factory("randn", dt) != 0) return -1;
    return factory_then(&args[0], dt, fill_normal01, NULL, NULL, rets);
}

int ct_k_randn_generator(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[2], ct_default_dtype());
    if (check_float_factory("randn", dt) != 0) return -1;
    return factory_then(&args[0], dt, fill_normal01, gen_arg(&args[1]), NULL, rets);
}

int ct_k_rand(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[1], ct_default_dtype());
    if (check_float_factory("rand", dt) != 0) return -1;
    return factory_then(&args[0], dt, fill_uniform01, NULL, NULL, rets);
}

int ct_k_rand_generator(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_dtype dt = ct_arg_dtype(&args[2], ct_default_dtype());
    if (check_float_factory("rand", dt) != 0) return -1;
    return factory_then(&args[0], dt, fill_uniform01, gen_arg(&args[1]), NULL, rets);
}

int ct_k_randint(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    int64_t lh[2] = {args[0].u.i, args[1].u.i};
    return factory_then(&args[2], ct_arg_dtype(&args[3], CT_INT64), fill_randint, NULL, lh, rets);
}

int ct_k_randint_generator(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    int64_t lh[2] = {args[0].u.i, args[1].u.i};
    return factory_then(&args[2], ct_arg_dtype(&args[4], CT_INT64), fill_randint, gen_arg(&args[3]), lh, rets);
}

/* randint(SymInt high, SymInt[] size, *, dtype=4, ...) (and .generator): randint.low from 0 */
int ct_k_randint_high(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    int64_t lh[2] = {0, args[0].u.i};
    return factory_then(&args[1], ct_arg_dtype(&args[2], CT_INT64), fill_randint, NULL, lh, rets);
}

int ct_k_randint_high_generator(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    int64_t lh[2] = {0, args[0].u.i};
    return factory_then(&args[1], ct_arg_dtype(&args[3], CT_INT64), fill_randint, gen_arg(&args[2]), lh, rets);
}

/* rand_like / randn_like / randint_like: empty_like(self, options, memory_format), then the
 * fill; options start at args[first] (dtype, layout, device, pin_memory, memory_format) */
static int like_then(const ct_op *op, ct_value *args, int first, int (*fill)(ct_tensor *, ct_generator *, const void *),
                     const void *params, ct_value *rets) {
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    ct_tensor *t = ct_empty_like(self, ct_arg_dtype(&args[first], CT_DTYPE_UNDEFINED),
                                 args[first + 4].tag == CT_TAG_INT ? (ct_memory_format)args[first + 4].u.i
                                                                   : CT_MEMORY_FORMAT_NONE);
    if (!t) return -1;
    if (fill(t, NULL, params) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

int ct_k_rand_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return like_then(op, args, 1, fill_uniform01, NULL, rets);
}

int ct_k_randn_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return like_then(op, args, 1, fill_normal01, NULL, rets);
}

int ct_k_randint_like(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    int64_t lh[2] = {0, args[1].u.i};
    return like_then(op, args, 2, fill_randint, lh, rets);
}

int ct_k_randint_like_low_dtype(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    int64_t lh[2] = {args[1].u.i, args[2].u.i};
    return like_then(op, args, 3, fill_randint, lh, rets);
}

/* ---- bernoulli_, exponential_, multinomial ---- */

typedef struct one_double {
    double v;
} one_double;

static int gen_bernoulli(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous) {
    (void)contiguous;
    return ct_rng_bernoulli(g, buf, n, dt, ((const one_double *)params)->v);
}

static int gen_exponential(ct_generator *g, void *buf, int64_t n, ct_dtype dt, const void *params, bool contiguous) {
    (void)contiguous;
    return ct_rng_exponential(g, buf, n, dt, ((const one_double *)params)->v);
}

/* bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) */
int ct_k_bernoulli__float(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    one_double p = {args[1].u.d};
    if (!(0 <= p.v && p.v <= 1)) return ct_error_set(CT_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", p.v);
    if (ct_assert_no_internal_overlap(self) != 0) return -1;
    if (fill_random(self, gen_arg(&args[2]), gen_bernoulli, &p) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) */
int ct_k_exponential_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    one_double l = {args[1].u.d};
    if (!(l.v > 0.0)) return ct_error_set(CT_ERR_RUNTIME, "exponential_ expects lambda > 0.0, but found lambda=%g", l.v);
    if (!ct_dtype_is_floating(self->dtype)) /* exponential_impl_, before the kernel's dispatch */
        return ct_error_set(CT_ERR_RUNTIME,
                            "Exponential distribution is a continuous probability distribution. dtype must be a floating "
                            "point but you specified %s",
                            ct_dtype_name(self->dtype));
    if (self->numel == 0) return ct_ret_self(rets, self);
    if (fill_random(self, gen_arg(&args[2]), gen_exponential, &l) != 0) return -1;
    return ct_ret_self(rets, self);
}

/* multinomial with replacement (multinomial_with_replacement_apply): a normalised cumulative
 * distribution per row in the input's type, then a binary search for each uniform double */
static int multinomial_replacement(ct_tensor *self, int64_t n_sample, ct_generator *g, ct_tensor *result) {
    int64_t ncat = self->sizes[self->ndim - 1], ndist = self->ndim > 1 ? self->sizes[0] : 1;
    double *cum = ct_malloc(sizeof(double) * (size_t)ncat);
    if (!cum) return -1;
    bool is_f64 = self->dtype == CT_FLOAT64;
    int64_t *out = ct_tensor_data_ptr(result);
    int rc = 0;
    g = ct_rng_lock(g);
    for (int64_t i = 0; i < ndist && rc == 0; i++) {
        /* the running sum and the division in the scalar type (float for float32) */
        double sum = 0;
        for (int64_t j = 0; j < ncat; j++) {
            double v = ct_load_as_double(ct_tensor_elem_ptr(self, i * ncat + j), self->dtype);
            if (!(v >= 0)) {
                rc = ct_error_set(CT_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
                break;
            }
            if (!isfinite(v)) {
                rc = ct_error_set(CT_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
                break;
            }
            sum = is_f64 ? sum + v : (double)((float)sum + (float)v);
            cum[j] = sum;
        }
        if (rc != 0) break;
        if (!(sum > 0)) {
            rc = ct_error_set(CT_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
            break;
        }
        for (int64_t j = 0; j < ncat; j++) cum[j] = is_f64 ? cum[j] / sum : (double)((float)cum[j] / (float)sum);
        for (int64_t s = 0; s < n_sample; s++) {
            double u = (double)(ct_rng_next64_locked(g) & ((UINT64_C(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
            cum[ncat - 1] = 1;
            int64_t left = 0, right = ncat;
            while (right - left > 0) {
                int64_t mid = left + (right - left) / 2;
                if (cum[mid] < u) left = mid + 1;
                else right = mid;
            }
            out[i * n_sample + s] = left;
        }
    }
    ct_rng_unlock(g);
    ct_free(cum);
    return rc;
}

/* multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None)
 * Without replacement or for one sample: argmax (or top-k) of self / q with q ~ Exp(1), drawn
 * by exponential_ into a tensor like self. */
int ct_k_multinomial(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t n_sample = ARG_I(1);
    bool replacement = ARG_B(2);
    ct_generator *g = gen_arg(&args[3]);
    if (!(self->ndim > 0 && self->ndim <= 2)) return ct_error_set(CT_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s", ct_dtype_name(self->dtype));
    if (n_sample <= 0) return ct_error_set(CT_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
    int64_t ncat = self->sizes[self->ndim - 1];
    if (!replacement && n_sample > ncat)
        return ct_error_set(CT_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    if (ncat > (1 << 24)) return ct_error_set(CT_ERR_RUNTIME, "number of categories cannot exceed 2^24");
    int64_t shape[2];
    int nd;
    if (self->ndim == 1) {
        shape[0] = n_sample;
        nd = 1;
    } else {
        shape[0] = self->sizes[0];
        shape[1] = n_sample;
        nd = 2;
    }
    ct_tensor *result = ct_tensor_alloc(shape, nd, CT_INT64, false);
    if (!result) return -1;
    if (result->numel == 0) return ct_ret(rets, 0, result);
    if (!replacement || n_sample == 1) {
        /* the sanity checks: every element finite-or-less-than-inf and >= 0, no all-zero row */
        int64_t rows = self->ndim > 1 ? self->sizes[0] : 1;
        bool valid = true, zero_row = false;
        for (int64_t r = 0; r < rows; r++) {
            double sum = 0;
            for (int64_t j = 0; j < ncat; j++) {
                double v = ct_load_as_double(ct_tensor_elem_ptr(self, r * ncat + j), self->dtype);
                if (!(v < INFINITY && v >= 0)) valid = false;
                sum += v;
            }
            if (sum == 0) zero_row = true;
        }
        if (!valid) {
            ct_tensor_release(result);
            return ct_error_set(CT_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
        }
        if (zero_row) {
            ct_tensor_release(result);
            return ct_error_set(CT_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
        }
        ct_tensor *q = ct_empty_like(self, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
        int rc = q ? ct_exponential_(q, 1.0, g) : -1;
        ct_tensor *ratio = rc == 0 ? ct_div(self, q) : NULL;
        ct_tensor_release(q);
        if (!ratio) {
            ct_tensor_release(result);
            return -1;
        }
        /* argmax over the last dimension, or the indices of the n_sample largest, in order */
        int64_t *out = ct_tensor_data_ptr(result);
        bool *taken = ct_calloc((size_t)ncat, sizeof(bool));
        if (!taken) {
            ct_tensor_release(ratio);
            ct_tensor_release(result);
            return -1;
        }
        for (int64_t r = 0; r < rows; r++) {
            memset(taken, 0, (size_t)ncat);
            for (int64_t s = 0; s < n_sample; s++) {
                int64_t best = -1;
                double bv = 0;
                for (int64_t j = 0; j < ncat; j++) {
                    if (taken[j]) continue;
                    double v = ct_load_as_double(ct_tensor_elem_ptr(ratio, r * ncat + j), ratio->dtype);
                    if (best < 0 || (!isnan(bv) && (isnan(v) || v > bv))) {
                        best = j;
                        bv = v;
                    }
                }
                taken[best] = true;
                out[r * n_sample + s] = best;
            }
        }
        ct_free(taken);
        ct_tensor_release(ratio);
        return ct_ret(rets, 0, result);
    }
    if (multinomial_replacement(self, n_sample, g, result) != 0) {
        ct_tensor_release(result);
        return -1;
    }
    return ct_ret(rets, 0, result);
}
