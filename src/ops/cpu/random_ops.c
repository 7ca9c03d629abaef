/* Random factories and in-place fills (TensorFactories.cpp, DistributionTemplates.h):
 * randn = empty + normal_, rand = empty + uniform_, randint = empty + random_, all through
 * the dispatcher, with the numbers drawn by src/random/ exactly as PyTorch draws them. */
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
            return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "\"normal_kernel_cpu\" not implemented for '%s'", ct_dtype_name(dt));
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "\"check_uniform_bounds\" not implemented for '%s'", ct_dtype_name(dt));
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
