/* scatter, scatter_add, scatter_reduce and gather (TensorAdvancedIndexing.cpp,
 * ScatterGatherChecks.h, ScatterGatherKernel.cpp), masked_scatter_ (IndexKernel.cpp), nonzero and
 * nonzero_static (TensorAdvancedIndexing.cpp), and the view-replay inverses select_scatter,
 * slice_scatter, diagonal_scatter, as_strided_scatter (TensorShape.cpp). Messages are PyTorch 2.6's.
 *
 * Note [Scatter order]
 *   The scatter-gather loop walks the index tensor one line along `dim` at a time: for every
 *   position of the other dimensions (the lines are split between threads), the positions along
 *   dim in ascending order. Every element a line writes has that line's coordinates outside dim,
 *   so two threads never write one element, and the elements a reduction combines into one
 *   target arrive in the order of their place along dim, as in PyTorch's CPU kernel: sums and
 *   products of floats come out bit for bit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/kernel_util.h"

/* ---- the loop ------------------------------------------------------------------------------- */

typedef enum sg_op { SG_GATHER, SG_ASSIGN, SG_ADD, SG_MUL, SG_MAX, SG_MIN } sg_op;

typedef struct sg_plan {
    sg_op op;
    ct_dtype dtype;
    size_t es;
    int ndim;                    /* of the index (at least 1) */
    int64_t dim;                 /* the scatter/gather dimension */
    int64_t sizes[CT_MAX_DIMS];  /* the index's sizes */
    int64_t istr[CT_MAX_DIMS];   /* the index's strides */
    int64_t tstr[CT_MAX_DIMS];   /* the written tensor's strides (self for scatter, out for gather) */
    int64_t sstr[CT_MAX_DIMS];   /* the read tensor's strides (src for scatter, self for gather) */
    int64_t bound;               /* self.size(dim) */
    char *t;                     /* the written tensor's data */
    const char *s;               /* the read tensor's data, NULL for a scalar value */
    const int64_t *idx;
    char value[16];              /* the scalar value in the dtype */
    int64_t lines;               /* index.numel() / index.size(dim) */
} sg_plan;

/* a Scalar stored as an element of dtype d (Scalar::to<scalar_t>) */
static void store_scalar(void *p, ct_dtype d, ct_scalar v) {
    if (v.tag == CT_TAG_BOOL) ct_elem_store_int64(p, d, v.u.b);
    else if (v.tag == CT_TAG_INT) ct_elem_store_int64(p, d, v.u.i);
    else ct_elem_store(p, d, v.u.d);
}

/* numeric_limits<T>::lowest() and max() of an integer dtype */
static int64_t int_lowest(ct_dtype d) {
    switch (d) {
    case CT_INT8: return INT8_MIN;
    case CT_INT16: return INT16_MIN;
    case CT_INT32: return INT32_MIN;
    case CT_INT64: return INT64_MIN;
    default: return 0;
    }
}
static int64_t int_max(ct_dtype d) {
    switch (d) {
    case CT_INT8: return INT8_MAX;
    case CT_INT16: return INT16_MAX;
    case CT_INT32: return INT32_MAX;
    case CT_INT64: return INT64_MAX;
    case CT_UINT8: return UINT8_MAX;
    default: return 1;
    }
}

static int64_t dsize(const ct_tensor *t, int d) { return t->ndim ? t->sizes[d] : 1; }
static int64_t dstride(const ct_tensor *t, int d) { return t->ndim ? t->strides[d] : 1; }

static inline void combine(char *t, const char *s, ct_dtype d, sg_op op) {
    switch (op) {
    case SG_GATHER:
    case SG_ASSIGN: memcpy(t, s, ct_dtype_size(d)); return;
    default: break;
    }
    if (d == CT_BOOL) {
        bool a = *(const uint8_t *)t, b = *(const uint8_t *)s;
        *(uint8_t *)t = op == SG_ADD || op == SG_MAX ? (a || b) : (a && b);
    } else if (ct_dtype_is_integral(d, false)) {
        int64_t a = ct_elem_load_int64(t, d), b = ct_elem_load_int64(s, d), r;
        if (op == SG_ADD) r = (int64_t)((uint64_t)a + (uint64_t)b);
        else if (op == SG_MUL) r = (int64_t)((uint64_t)a * (uint64_t)b);
        else if (op == SG_MAX) r = a > b ? a : b;
        else r = a < b ? a : b;
        ct_elem_store_int64(t, d, r);
    } else {
        double a = ct_elem_load(t, d), b = ct_elem_load(s, d), r;
        if (op == SG_ADD) r = a + b;
        else if (op == SG_MUL) r = a * b;
        else if (op == SG_MAX) r = isnan(b) ? b : (a > b ? a : b) ; /* NaN propagates (ReduceMaximum) */
        else r = isnan(b) ? b : (a < b ? a : b);
        if (op == SG_MAX || op == SG_MIN) {
            if (isnan(a)) r = a;
        }
        ct_elem_store(t, d, r);
    }
}

/* the byte offsets of line k in the index, the written and the read tensor */
static void line_offsets(const sg_plan *p, int64_t k, int64_t *io, int64_t *to, int64_t *so) {
    *io = *to = *so = 0;
    for (int d = p->ndim - 1; d >= 0; d--) {
        if (d == p->dim) continue;
        int64_t c = k % p->sizes[d];
        k /= p->sizes[d];
        *io += c * p->istr[d];
        *to += c * p->tstr[d];
        *so += c * p->sstr[d];
    }
}

/* one element: index value v at place j along dim, the line's bases tb (written) and sb (read) */
static inline void sg_elem(const sg_plan *p, char *tb, const char *sb, int64_t v, int64_t j, int64_t sstep) {
    const size_t es = p->es;
    if (p->op == SG_GATHER) {
        char *dst = tb + (size_t)(j * p->tstr[p->dim]) * es;
        const char *src = sb + (size_t)(v * p->sstr[p->dim]) * es;
        if (es == 4) memcpy(dst, src, 4);
        else if (es == 8) memcpy(dst, src, 8);
        else memcpy(dst, src, es);
        return;
    }
    char *dst = tb + (size_t)(v * p->tstr[p->dim]) * es;
    const char *src = sb + (size_t)(j * sstep) * es;
    const ct_dtype d = p->dtype;
    if (p->op == SG_ADD && d == CT_FLOAT32) *(float *)(void *)dst += *(const float *)(const void *)src;
    else if (p->op == SG_ADD && d == CT_FLOAT64) *(double *)(void *)dst += *(const double *)(const void *)src;
    else if (p->op == SG_ADD && d == CT_INT64)
        *(int64_t *)(void *)dst = (int64_t)((uint64_t) * (int64_t *)(void *)dst + (uint64_t) * (const int64_t *)(const void *)src);
    else combine(dst, src, d, p->op);
}

/* an index out of range stops the chunk with PyTorch's error (the loop hands it back) */
static int sg_bad(const sg_plan *p, int64_t v) {
    return ct_error_set(CT_ERR_RUNTIME, "index %lld is out of bounds for dimension %lld with size %lld", (long long)v,
                        (long long)p->dim, (long long)p->bound);
}

/* Lines [begin, end). When dim is the last dimension, one line after the other; otherwise the
 * lines that differ only in the last dimension (adjacent in memory) are walked together, place
 * by place along dim, as PyTorch's loop does: each target still sees its sources in the order
 * of their place along dim. */
static int sg_chunk(void *vctx, int64_t begin, int64_t end) {
    const sg_plan *p = vctx;
    const int64_t n = p->sizes[p->dim], is = p->istr[p->dim];
    const int64_t bound = p->bound;
    const size_t es = p->es;
    const int64_t sstep = p->s ? p->sstr[p->dim] : 0;
    const int last = p->ndim - 1;
    if (p->dim == last) {
        for (int64_t k = begin; k < end; k++) {
            int64_t io, to, so;
            line_offsets(p, k, &io, &to, &so);
            const int64_t *ip = p->idx + io;
            char *tb = p->t + (size_t)to * es;
            const char *sb = p->s ? p->s + (size_t)so * es : p->value;
            const int64_t ts = p->tstr[p->dim], ss = p->sstr[p->dim];
            int64_t j = 0;
            /* the common cases without the per-element dispatch */
#define SG_LINE(T, body)                                                                                              \
    do {                                                                                                              \
        T *t_ = (T *)(void *)tb;                                                                                      \
        const T *s_ = (const T *)(const void *)sb;                                                                    \
        for (; j < n; j++) {                                                                                          \
            int64_t v = ip[j * is];                                                                                   \
            if (v < 0 || v >= bound) break;                                                                           \
            body;                                                                                                     \
        }                                                                                                             \
    } while (0)
            if (p->op == SG_ADD && p->dtype == CT_FLOAT32) SG_LINE(float, t_[v * ts] += s_[j * sstep]);
            else if (p->op == SG_ADD && p->dtype == CT_FLOAT64) SG_LINE(double, t_[v * ts] += s_[j * sstep]);
            else if (p->op == SG_GATHER && es == 4) SG_LINE(uint32_t, t_[j * ts] = s_[v * ss]);
            else if (p->op == SG_GATHER && es == 8) SG_LINE(uint64_t, t_[j * ts] = s_[v * ss]);
#undef SG_LINE
            for (; j < n; j++) {
                int64_t v = ip[j * is];
                if (v < 0 || v >= bound) return sg_bad(p, v);
                sg_elem(p, tb, sb, v, j, sstep);
            }
        }
        return 0;
    }
    const int64_t w = p->sizes[last], il = p->istr[last], tl = p->tstr[last], sl = p->s ? p->sstr[last] : 0;
    for (int64_t k = begin; k < end;) {
        int64_t q0 = k % w, run = w - q0;
        if (run > end - k) run = end - k;
        int64_t io, to, so;
        line_offsets(p, k, &io, &to, &so);
        const int64_t *ip = p->idx + io;
        char *tb = p->t + (size_t)to * es;
        const char *sb = p->s ? p->s + (size_t)so * es : p->value;
        const int64_t ts = p->tstr[p->dim], ss = p->sstr[p->dim];
        for (int64_t j = 0; j < n; j++) {
            const int64_t *ij = ip + j * is;
            int64_t q = 0;
#define SG_RUN(T, body)                                                                                               \
    do {                                                                                                              \
        T *t_ = (T *)(void *)tb;                                                                                      \
        const T *s_ = (const T *)(const void *)sb;                                                                    \
        for (; q < run; q++) {                                                                                        \
            int64_t v = ij[q * il];                                                                                   \
            if (v < 0 || v >= bound) break;                                                                           \
            body;                                                                                                     \
        }                                                                                                             \
    } while (0)
            if (p->op == SG_ADD && p->dtype == CT_FLOAT32) SG_RUN(float, t_[q * tl + v * ts] += s_[q * sl + j * sstep]);
            else if (p->op == SG_ADD && p->dtype == CT_FLOAT64) SG_RUN(double, t_[q * tl + v * ts] += s_[q * sl + j * sstep]);
            else if (p->op == SG_GATHER && es == 4) SG_RUN(uint32_t, t_[q * tl + j * ts] = s_[q * sl + v * ss]);
            else if (p->op == SG_GATHER && es == 8) SG_RUN(uint64_t, t_[q * tl + j * ts] = s_[q * sl + v * ss]);
#undef SG_RUN
            for (; q < run; q++) {
                int64_t v = ij[q * il];
                if (v < 0 || v >= bound) return sg_bad(p, v);
                sg_elem(p, tb + (size_t)(q * tl) * es, sb + (size_t)(q * sl) * es, v, j, sstep);
            }
        }
        k += run;
    }
    return 0;
}

/* Runs the loop. For scatter: written = self (the output), read = src (NULL: value). For gather:
 * written = out (index's shape), read = self. The index is int64. 0, or -1 with the error set. */
static int sg_run(sg_op op, ct_tensor *self, int64_t dim, const ct_tensor *index, ct_tensor *written, const ct_tensor *read,
                  ct_scalar value) {
    if (index->numel == 0) return 0;
    sg_plan *p = ct_malloc(sizeof *p);
    if (!p) return -1;
    memset(p, 0, sizeof *p);
    p->op = op;
    p->dtype = written->dtype;
    p->es = ct_dtype_size(p->dtype);
    p->ndim = index->ndim ? index->ndim : 1;
    p->dim = dim;
    for (int d = 0; d < p->ndim; d++) {
        p->sizes[d] = dsize(index, d);
        p->istr[d] = dstride(index, d);
        p->tstr[d] = dstride(written, d);
        p->sstr[d] = read ? dstride(read, d) : 0;
    }
    p->bound = dsize(self, (int)dim);
    p->t = ct_tensor_data_ptr(written);
    p->s = read ? ct_tensor_data_ptr(read) : NULL;
    p->idx = ct_tensor_data_ptr(index);
    if (!read) store_scalar(p->value, p->dtype, value);
    p->lines = index->numel / p->sizes[dim];
    int64_t grain = p->sizes[dim] ? CT_GRAIN_SIZE / p->sizes[dim] : CT_GRAIN_SIZE;
    int rc = ct_parallel_for(0, p->lines, grain > 0 ? grain : 1, sg_chunk, p);
    ct_free(p);
    return rc;
}

/* ---- PyTorch's checks (ScatterGatherChecks.h) ------------------------------------------------ */

static int dtype_check(const char *method, const ct_tensor *self, const ct_tensor *index, const ct_tensor *src) {
    if (index->numel != 0 && index->dtype != CT_INT64)
        return ct_error_set(CT_ERR_RUNTIME, "%s(): Expected dtype int64 for index", method);
    if (src && self->dtype != src->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "%s(): Expected self.dtype to be equal to src.dtype", method);
    return 0;
}

static int gather_shape_check(const ct_tensor *self, int64_t dim, const ct_tensor *index) {
    int sd = self->ndim ? self->ndim : 1;
    if (sd != (index->ndim ? index->ndim : 1))
        return ct_error_set(CT_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
    for (int d = 0; d < sd; d++) {
        if (d == dim) continue;
        if (dsize(index, d) > dsize(self, d)) {
            char a[256], b[256];
            ct_format_shape(index->sizes, index->ndim, a, sizeof a);
            ct_format_shape(self->sizes, self->ndim, b, sizeof b);
            return ct_error_set(CT_ERR_RUNTIME,
                                "Size does not match at dimension %d expected index %s to be no larger than self %s apart from dimension %lld",
                                d, a, b, (long long)dim);
        }
    }
    return 0;
}

static int scatter_shape_check(const ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src) {
    if (index->numel == 0) return 0;
    int sd = self->ndim ? self->ndim : 1, id = index->ndim ? index->ndim : 1;
    if (sd != id) return ct_error_set(CT_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
    bool wrong = false;
    for (int d = 0; d < sd && !wrong; d++)
        if (d != dim && dsize(index, d) > dsize(self, d)) wrong = true;
    if (!wrong && src)
        for (int d = 0; d < sd && !wrong; d++) {
            int64_t w;
            if (src->ndim && ct_wrap_dim(d, src->ndim, &w) != 0) return -1; /* ensure_nonempty_size(src, d) */
            if (dsize(index, d) > dsize(src, d)) wrong = true;
        }
    char a[256], b[256], c[256];
    ct_format_shape(index->sizes, index->ndim, a, sizeof a);
    ct_format_shape(self->sizes, self->ndim, b, sizeof b);
    if (src) {
        if ((src->ndim ? src->ndim : 1) != id)
            return ct_error_set(CT_ERR_RUNTIME, "Index tensor must have the same number of dimensions as src tensor");
        ct_format_shape(src->sizes, src->ndim, c, sizeof c);
        if (wrong)
            return ct_error_set(CT_ERR_RUNTIME,
                                "Expected index %s to be no larger than self %s apart from dimension %lld and to be no larger size than src %s",
                                a, b, (long long)dim, c);
    } else if (wrong) {
        return ct_error_set(CT_ERR_RUNTIME, "Expected index %s to be no larger than self %s apart from dimension %lld", a, b,
                            (long long)dim);
    }
    return 0;
}

/* assert_no_overlap(out, other) of the meta functions (MemoryOverlap.cpp): two dense tensors of
 * one storage whose memory ranges meet; other layouts are "too hard" to tell and pass */
static int overlap_check(const ct_tensor *out, const ct_tensor *other) {
    if (!other || out->numel == 0 || other->numel == 0 || out->storage != other->storage) return 0;
    if (!ct_is_non_overlapping_and_dense(out) || !ct_is_non_overlapping_and_dense(other)) return 0;
    int64_t olo = out->storage_offset * (int64_t)ct_dtype_size(out->dtype);
    int64_t elo = other->storage_offset * (int64_t)ct_dtype_size(other->dtype);
    int64_t ohi = olo + out->numel * (int64_t)ct_dtype_size(out->dtype);
    int64_t ehi = elo + other->numel * (int64_t)ct_dtype_size(other->dtype);
    if (olo < ehi && elo < ohi)
        return ct_error_set(CT_ERR_RUNTIME,
                            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
                            "memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

/* The reduce argument of scatter(..., reduce=): "add" or "multiply" */
static int old_reduce(const char *r, sg_op *op) {
    if (r && strcmp(r, "add") == 0) *op = SG_ADD;
    else if (r && strcmp(r, "multiply") == 0) *op = SG_MUL;
    else return ct_error_set(CT_ERR_RUNTIME, "reduce argument must be either add or multiply.");
    return 0;
}

typedef enum new_reduce { NR_SUM, NR_PROD, NR_MEAN, NR_AMAX, NR_AMIN } new_reduce;

static int new_reduce_parse(const char *r, new_reduce *op) {
    /* get_operator_enum(reduce, use_new_options=true): the old "max" and "min" still mean amax and amin */
    static const char *const names[] = {"sum", "prod", "mean", "amax", "amin", "max", "min"};
    static const new_reduce ops[] = {NR_SUM, NR_PROD, NR_MEAN, NR_AMAX, NR_AMIN, NR_AMAX, NR_AMIN};
    for (int i = 0; i < 7; i++)
        if (r && strcmp(r, names[i]) == 0) {
            *op = ops[i];
            return 0;
        }
    return ct_error_set(CT_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin, got %s", r ? r : "");
}

/* ---- scatter (the shared body) ---------------------------------------------------------------- */

typedef struct scatter_args {
    const char *method;
    ct_tensor *self;
    int64_t dim;
    ct_tensor *index;
    ct_tensor *src;  /* NULL: value */
    ct_scalar value;
    sg_op op;
    bool has_reduce; /* scatter's reduce= given */
    const char *reduce;
} scatter_args;

/* the meta function's checks, then out = self (copied when out is not self), then the kernel */
static int scatter_into(scatter_args *a, ct_tensor *out) {
    int64_t dim;
    if (ct_wrap_dim(a->dim, a->self->ndim, &dim) != 0) return -1;
    a->dim = dim;
    if (dtype_check(a->method, a->self, a->index, a->src) != 0) return -1;
    if (scatter_shape_check(a->self, dim, a->index, a->src) != 0) return -1;
    if (out == a->self) {
        if (ct_assert_no_internal_overlap(out) != 0 || overlap_check(out, a->index) != 0 || overlap_check(out, a->src) != 0) return -1;
    }
    if (a->has_reduce && old_reduce(a->reduce, &a->op) != 0) return -1;
    if (!a->src && ct_scalar_check_convert(a->value, a->self->dtype) != 0) return -1;
    if (out != a->self && ct_copy_into(out, a->self) != 0) return -1;
    return sg_run(a->op, a->self, dim, a->index, out, a->src, a->value);
}

static int scatter_out_of_place(scatter_args *a, ct_value *rets) {
    ct_tensor *out = ct_empty(a->self->sizes, a->self->ndim, a->self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) return -1;
    if (scatter_into(a, out) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

static int scatter_in_place(scatter_args *a, ct_value *rets) {
    if (scatter_into(a, a->self) != 0) return -1;
    ct_bump_version(a->self);
    return ct_ret_self(rets, a->self);
}

static const char *str_arg(const ct_value *v) { return v->tag == CT_TAG_NONE ? NULL : v->u.s; }

#define SCATTER_ARGS(src_, has_value_, reduce_at_)                                                                           \
    scatter_args a = {"scatter", ARG_T(0), ARG_I(1), ARG_T(2), (src_), ct_none(), SG_ASSIGN, (reduce_at_) >= 0,              \
                      (reduce_at_) >= 0 ? str_arg(&args[(reduce_at_) >= 0 ? (reduce_at_) : 0]) : NULL};                        \
    if (has_value_) a.value = args[3];                                                                                        \
    (void)op;                                                                                                                 \
    (void)ks

/* scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor */
int ct_k_scatter_src(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, -1);
    return scatter_out_of_place(&a, rets);
}
/* scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor */
int ct_k_scatter_value(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(NULL, true, -1);
    return scatter_out_of_place(&a, rets);
}
/* scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor */
int ct_k_scatter_reduce(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, 4);
    return scatter_out_of_place(&a, rets);
}
/* scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor */
int ct_k_scatter_value_reduce(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(NULL, true, 4);
    return scatter_out_of_place(&a, rets);
}
int ct_k_scatter__src(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, -1);
    return scatter_in_place(&a, rets);
}
int ct_k_scatter__value(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(NULL, true, -1);
    return scatter_in_place(&a, rets);
}
int ct_k_scatter__reduce(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, 4);
    return scatter_in_place(&a, rets);
}
int ct_k_scatter__value_reduce(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(NULL, true, 4);
    return scatter_in_place(&a, rets);
}

/* scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor */
int ct_k_scatter_add(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, -1);
        a.op = SG_ADD;
    return scatter_out_of_place(&a, rets);
}
int ct_k_scatter_add_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    SCATTER_ARGS(ARG_T(3), false, -1);
        a.op = SG_ADD;
    return scatter_in_place(&a, rets);
}

/* ---- scatter_reduce.two ----------------------------------------------------------------------- */

/* scatter_reduce_two: out = self; without include_self the scattered-to elements start from the
 * reduction's identity (0, 1, -inf / lowest, inf / max); the reduction; for mean, the division by
 * the count of what was combined (self counting once with include_self), floor division for
 * integers. */
static int scatter_reduce_into(ct_value *args, ct_tensor *out) {
    ct_tensor *self = ARG_T(0), *index = ARG_T(2), *src = ARG_T(3);
    const char *reduce = str_arg(&args[4]);
    bool include_self = ARG_B(5);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (dtype_check("scatter", self, index, src) != 0) return -1;
    if (scatter_shape_check(self, dim, index, src) != 0) return -1;
    if (out == self && (ct_assert_no_internal_overlap(out) != 0 || overlap_check(out, index) != 0 || overlap_check(out, src) != 0))
        return -1;
    new_reduce r = NR_SUM;
    if (new_reduce_parse(reduce, &r) != 0) return -1;
    if (r == NR_MEAN && self->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
    if (out != self && ct_copy_into(out, self) != 0) return -1;
    if (index->numel == 0) return 0;
    ct_dtype d = self->dtype;
    if (!include_self) {
        ct_scalar init;
        bool fl = ct_dtype_is_floating(d);
        switch (r) {
        case NR_SUM:
        case NR_MEAN: init = ct_int(0); break;
        case NR_PROD: init = ct_int(1); break;
        case NR_AMAX:
            init = d == CT_BOOL ? ct_bool(false) : fl ? ct_double(-INFINITY) : ct_int(int_lowest(d));
            break;
        default:
            init = d == CT_BOOL ? ct_bool(true) : fl ? ct_double(INFINITY) : ct_int(int_max(d));
            break;
        }
        if (sg_run(SG_ASSIGN, self, dim, index, out, NULL, init) != 0) return -1;
    }
    static const sg_op ops[] = {SG_ADD, SG_MUL, SG_ADD, SG_MAX, SG_MIN};
    if (sg_run(ops[r], self, dim, index, out, src, ct_none()) != 0) return -1;
    if (r != NR_MEAN) return 0;
    /* count = (include_self ? ones : zeros).scatter_add_(dim, index, ones_like(src)); count[count == 0] = 1 */
    ct_tensor *count = ct_tensor_alloc(out->sizes, out->ndim, CT_INT64, true);
    if (!count) return -1;
    int64_t *cp = ct_tensor_data_ptr(count);
    for (int64_t i = 0; i < count->numel; i++) cp[i] = include_self;
    ct_tensor *ones_src = ct_tensor_alloc(src->sizes, src->ndim, CT_INT64, false);
    int rc = -1;
    if (ones_src) {
        int64_t *o1 = ct_tensor_data_ptr(ones_src);
        for (int64_t i = 0; i < ones_src->numel; i++) o1[i] = 1;
        rc = sg_run(SG_ADD, self, dim, index, count, ones_src, ct_none());
        ct_tensor_release(ones_src);
    }
    if (rc == 0) {
        /* out /= count, elementwise over out's logical positions */
        int64_t n = out->numel;
        for (int64_t i = 0; i < n; i++) {
            int64_t c = cp[i] ? cp[i] : 1;
            char *e = ct_tensor_elem_ptr(out, i);
            if (d == CT_BOOL) {
                rc = ct_error_set(CT_ERR_RUNTIME, "\"div_floor_cpu\" not implemented for 'Bool'");
                break;
            } else if (ct_dtype_is_integral(d, false)) {
                int64_t v = ct_elem_load_int64(e, d), q = v / c;
                if ((v % c != 0) && ((v < 0) != (c < 0))) q--;
                ct_elem_store_int64(e, d, q);
            } else {
                ct_elem_store(e, d, ct_elem_load(e, d) / (double)c);
            }
        }
    }
    ct_tensor_release(count);
    return rc;
}

/* scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor */
int ct_k_scatter_reduce_two(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *out = ct_empty(self->sizes, self->ndim, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) return -1;
    if (scatter_reduce_into(args, out) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

int ct_k_scatter_reduce__two(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (scatter_reduce_into(args, self) != 0) return -1;
    ct_bump_version(self);
    return ct_ret_self(rets, self);
}

/* ---- gather ---------------------------------------------------------------------------------- */

/* gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor:
 * out[i][j][k] = self[index[i][j][k]][j][k] (for dim 0), with PyTorch's shape checks */
int ct_k_gather(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *index = ARG_T(2);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (dtype_check("gather", self, index, NULL) != 0) return -1;
    if (index->numel > 0 && gather_shape_check(self, dim, index) != 0) return -1;
    ct_tensor *out = ct_tensor_alloc(index->sizes, index->ndim, self->dtype, false);
    if (!out) return -1;
    if (sg_run(SG_GATHER, self, dim, index, out, self, ct_none()) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

/* ---- masked_scatter_ ------------------------------------------------------------------------- */

/* masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source): the elements of self where the
 * mask (broadcast to self's shape) is true, in row-major order, take source's elements in its
 * row-major order */
int ct_k_masked_scatter_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1), *source = ARG_T(2);
    if (mask->dtype != CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "masked_scatter_ only supports boolean masks, but got mask with dtype %s",
                            ct_dtype_name(mask->dtype));
    if (self->dtype != source->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "masked_scatter: expected self and source to have same dtypes but got%s and %s",
                            ct_dtype_name(self->dtype), ct_dtype_name(source->dtype));
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(mask->sizes, mask->ndim, self->sizes, self->ndim, shape, &n) != 0) return -1;
    bool same = n == self->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == self->sizes[i];
    if (!same) {
        char a[256], b[256];
        ct_format_shape(mask->sizes, mask->ndim, a, sizeof a);
        ct_format_shape(self->sizes, self->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "expand(CPUBoolType{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
                            a, b, self->ndim, mask->ndim);
    }
    int64_t ms[CT_MAX_DIMS];
    ct_broadcast_strides(mask, self->sizes, self->ndim, ms);
    const uint8_t *mb = ct_tensor_data_ptr(mask);
    size_t es = ct_dtype_size(self->dtype);
    int64_t taken = 0, total = source->numel;
    for (int64_t i = 0; i < self->numel; i++) {
        int64_t rem = i, mo = 0;
        for (int d = self->ndim - 1; d >= 0; d--) {
            mo += (rem % self->sizes[d]) * ms[d];
            rem /= self->sizes[d];
        }
        if (!mb[mo]) continue;
        if (taken >= total) return ct_error_set(CT_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
        memcpy(ct_tensor_elem_ptr(self, i), ct_tensor_elem_ptr(source, taken), es);
        taken++;
    }
    ct_bump_version(self);
    return ct_ret_self(rets, self);
}

/* masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor (CompositeExplicitAutograd):
 * expand_outplace(self, mask), a contiguous clone of self, then masked_scatter_ */
int ct_k_masked_scatter(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *mask = ARG_T(1);
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(self->sizes, self->ndim, mask->sizes, mask->ndim, shape, &n) != 0) return -1;
    ct_tensor *es = ct_expand(self, shape, n, false);
    if (!es) return -1;
    ct_tensor *em = ct_expand(mask, shape, n, false);
    ct_tensor *r = em ? ct_clone(es, CT_CONTIGUOUS_FORMAT) : NULL;
    ct_tensor_release(es);
    int rc = r ? ct_masked_scatter_(r, em, ARG_T(2)) : -1;
    ct_tensor_release(em);
    if (rc != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}

/* masked_scatter_backward(Tensor grad_output, Tensor mask, SymInt[] sizes) -> Tensor
 * (CompositeExplicitAutograd): grad.masked_select(mask), padded with zeros to the source's
 * numel, viewed as sizes */
int ct_k_masked_scatter_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0), *mask = ARG_T(1);
    const int64_t *sizes = args[2].u.list.data;
    int64_t nd = args[2].u.list.len, numel = 1;
    for (int64_t i = 0; i < nd; i++) numel *= sizes[i];
    ct_tensor *sel = ct_masked_select(grad, mask);
    if (!sel) return -1;
    int64_t diff = numel - sel->numel;
    if (diff > 0) {
        ct_tensor *z = ct_zeros(&diff, 1, grad->dtype);
        ct_tensor *parts[2] = {sel, z};
        ct_tensor *c = z ? ct_cat(parts, 2, 0) : NULL;
        ct_tensor_release(z);
        ct_tensor_release(sel);
        if (!c) return -1;
        sel = c;
    }
    ct_tensor *v = ct_view(sel, sizes, nd);
    ct_tensor_release(sel);
    return ct_ret(rets, 0, v);
}

/* ---- nonzero --------------------------------------------------------------------------------- */

/* the coordinates of self's nonzero elements in row-major order, as a [count, ndim] int64 tensor;
 * with size >= 0 (nonzero_static) exactly `size` rows, the missing ones filled with fill_value */
static int nonzero_impl(const ct_tensor *self, int64_t size, int64_t fill, ct_value *rets) {
    int nd = self->ndim;
    ct_dtype d = self->dtype;
    int64_t count = 0;
    for (int64_t i = 0; i < self->numel; i++) count += ct_elem_load(ct_tensor_elem_ptr(self, i), d) != 0.0;
    int64_t rows = size >= 0 ? size : count;
    /* nonzero: at::empty({ndim, N}).t(), the coordinates of one element in one column;
     * nonzero_static: a contiguous [size, ndim] */
    int64_t shape[2] = {rows, nd}, strides[2] = {1, rows};
    if (size >= 0) {
        strides[0] = nd > 0 ? nd : 1;
        strides[1] = 1;
    }
    ct_tensor *out = ct_empty_strided(shape, 2, strides, 2, CT_INT64);
    if (!out) return -1;
    int64_t *o = ct_tensor_data_ptr(out);
    int64_t k = 0, c[CT_MAX_DIMS] = {0};
    for (int64_t i = 0; i < self->numel && k < rows; i++) {
        if (i) {
            for (int q = nd - 1; q >= 0; q--) {
                if (++c[q] < self->sizes[q]) break;
                c[q] = 0;
            }
        }
        double v = ct_elem_load(ct_tensor_elem_ptr(self, i), d);
        if (v == 0.0) continue;
        for (int q = 0; q < nd; q++) o[k * strides[0] + q * strides[1]] = c[q];
        k++;
    }
    for (; k < rows; k++)
        for (int q = 0; q < nd; q++) o[k * strides[0] + q * strides[1]] = fill;
    return ct_ret(rets, 0, out);
}

/* nonzero(Tensor self) -> Tensor */
int ct_k_nonzero(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return nonzero_impl(ARG_T(0), -1, 0, rets);
}

/* nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor */
int ct_k_nonzero_static(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    int64_t size = ARG_I(1);
    if (size < 0)
        return ct_error_set(CT_ERR_RUNTIME, "nonzero_static: 'size' must be an non-negative integer");
    return nonzero_impl(ARG_T(0), size, ARG_I(2), rets);
}

/* ---- the view-replay inverses (CompositeExplicitAutogradNonFunctional) ------------------------ */

/* clone_preserve_strides(self), a view of it made by make_view, src copied into the view */
typedef ct_tensor *(*view_fn)(ct_tensor *base, ct_value *args);

static int view_scatter(ct_value *args, view_fn make_view, const char *what, ct_value *rets) {
    ct_tensor *self = ARG_T(0), *src = ARG_T(1);
    ct_tensor *out = ct_is_non_overlapping_and_dense(self) ? ct_empty_strided(self->sizes, self->ndim, self->strides, self->ndim, self->dtype)
                                                           : ct_empty(self->sizes, self->ndim, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) return -1;
    if (ct_copy_into(out, self) != 0) goto fail;
    ct_tensor *v = make_view(out, args);
    if (!v) goto fail;
    bool same = v->ndim == src->ndim;
    for (int i = 0; same && i < v->ndim; i++) same = v->sizes[i] == src->sizes[i];
    if (!same) {
        char a[256], b[256];
        ct_format_shape(src->sizes, src->ndim, a, sizeof a);
        ct_format_shape(v->sizes, v->ndim, b, sizeof b);
        ct_tensor_release(v);
        ct_error_set(CT_ERR_RUNTIME, "expected src to have a size equal to the %s of self. src size = %s, %s size = %s", what, a, what, b);
        goto fail;
    }
    int rc = ct_copy_into(v, src);
    ct_tensor_release(v);
    if (rc != 0) goto fail;
    return ct_ret(rets, 0, out);
fail:
    ct_tensor_release(out);
    return -1;
}

static ct_tensor *select_view(ct_tensor *base, ct_value *args) { return ct_select(base, ARG_I(2), ARG_I(3)); }
static ct_tensor *slice_view(ct_tensor *base, ct_value *args) {
    return ct_slice(base, ARG_I(2), ARG_IS_NONE(3) ? NULL : &args[3].u.i, ARG_IS_NONE(4) ? NULL : &args[4].u.i, ARG_I(5));
}
static ct_tensor *diagonal_view(ct_tensor *base, ct_value *args) { return ct_diagonal(base, ARG_I(2), ARG_I(3), ARG_I(4)); }
static ct_tensor *as_strided_view(ct_tensor *base, ct_value *args) {
    return ct_as_strided(base, args[2].u.list.data, args[2].u.list.len, args[3].u.list.data, args[3].u.list.len,
                         ARG_IS_NONE(4) ? NULL : &args[4].u.i);
}

/* select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor */
int ct_k_select_scatter(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return view_scatter(args, select_view, "slice", rets);
}
/* slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor */
int ct_k_slice_scatter(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return view_scatter(args, slice_view, "slice", rets);
}
/* diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor */
int ct_k_diagonal_scatter(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return view_scatter(args, diagonal_view, "slice", rets);
}
/* as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor */
int ct_k_as_strided_scatter(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return view_scatter(args, as_strided_view, "slice", rets);
}
