/* Sorting and selection along one dimension (Sorting.cpp, cpu/SortingKernel.cpp, TopKImpl.h):
 * sort and sort.stable, argsort and argsort.stable, msort, topk, kthvalue, median and nanmedian
 * (over everything and over a dim), mode, cummax and cummin.
 *
 * Each row along dim is read as (key, index) pairs and ordered as PyTorch's CPU kernel orders it
 * (sort_algo.c): sort with stable=False by the C++ library's introsort (so equal keys land where
 * PyTorch's do), stable=True by a merge sort; topk by nth_element and a sort of the first k-1
 * (partial_sort when k * 64 <= n); kthvalue by PyTorch's quick select; median by nth_element under
 * (value, index); mode by the introsort and the longest run of equal values. NaN is the largest value. The values written are the selected elements' own
 * bytes. Rows are split over the intra-op threads with ct_parallel_for. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/sort_algo.h"
#include "ops/kernel_util.h"

typedef enum row_kind { ROW_SORT, ROW_TOPK, ROW_KTH, ROW_MEDIAN, ROW_NANMEDIAN, ROW_CUMMAX, ROW_CUMMIN, ROW_MODE } row_kind;

typedef struct row_job {
    const ct_tensor *self;
    ct_tensor *values, *indices; /* contiguous, self's shape with dim of size m */
    int dim;
    int64_t n, m, inner, k;
    row_kind kind;
    bool flag; /* sort: descending; topk: largest */
    bool flag2; /* sort: stable; topk: sorted */
} row_job;

static bool median_less_f(const ct_kv *a, const ct_kv *b) { return a->f < b->f || (a->f == b->f && a->i < b->i); }
static bool median_less_i(const ct_kv *a, const ct_kv *b) { return a->k < b->k || (a->k == b->k && a->i < b->i); }
static bool nanmedian_less_f(const ct_kv *a, const ct_kv *b) {
    return a->f < b->f || (a->f == b->f && a->i < b->i) || (isnan(b->f) && !isnan(a->f));
}

static bool plain_less_f(const ct_kv *a, const ct_kv *b) { return a->f < b->f; }

static int row_chunk(void *vjob, int64_t begin, int64_t end) {
    const row_job *j = vjob;
    const ct_tensor *self = j->self;
    const ct_dtype dt = self->dtype;
    const size_t es = ct_dtype_size(dt);
    const bool fl = ct_dtype_is_floating(dt);
    const char *in = (const char *)self->storage->data;
    char *vo = ct_tensor_data_ptr(j->values);
    int64_t *io = ct_tensor_data_ptr(j->indices);
    const int64_t n = j->n, m = j->m, stride = self->ndim ? self->strides[j->dim] : 1;
    ct_kv *a = ct_malloc((size_t)(2 * n + 1) * sizeof *a);
    if (!a) return -1;
    for (int64_t row = begin; row < end; row++) {
        const int64_t o = row / j->inner, i = row % j->inner;
        const int64_t base = self->ndim ? ct_dim_offset(self, j->dim, o, i, 0) : self->storage_offset;
        for (int64_t t = 0; t < n; t++) {
            const char *p = in + (size_t)(base + t * stride) * es;
            a[t].i = t;
            if (fl) {
                a[t].f = ct_elem_load(p, dt);
                a[t].k = 0;
            } else {
                a[t].f = 0;
                if (dt == CT_INT64) memcpy(&a[t].k, p, sizeof a[t].k);
                else a[t].k = (int64_t)ct_elem_load(p, dt);
            }
        }
        int64_t first = 0; /* the element written first */
        switch (j->kind) {
        case ROW_SORT: {
            ct_kv_less less = j->flag ? (fl ? ct_kv_desc_f : ct_kv_desc_i) : (fl ? ct_kv_asc_f : ct_kv_asc_i);
            if (j->flag2) ct_kv_stable_sort(a, n, a + n, less);
            else ct_kv_introsort(a, n, less);
            break;
        }
        case ROW_TOPK: {
            ct_kv_less less = j->flag ? (fl ? ct_kv_desc_f : ct_kv_desc_i) : (fl ? ct_kv_asc_f : ct_kv_asc_i);
            if (j->k == 0) break;
            if (j->k * 64 <= n) {
                ct_kv_partial_sort(a, j->k, n, less);
            } else {
                ct_kv_nth_element(a, j->k - 1, n, less);
                if (j->flag2) ct_kv_introsort(a, j->k - 1, less);
            }
            break;
        }
        case ROW_KTH:
            ct_kv_quick_select(a, n, j->k - 1, fl ? ct_kv_desc_f : ct_kv_desc_i);
            first = j->k - 1;
            break;
        case ROW_MEDIAN:
        case ROW_NANMEDIAN: {
            int64_t nnan = 0, at = -1;
            for (int64_t t = 0; t < n && fl; t++) {
                if (!isnan(a[t].f)) continue;
                if (at < 0) at = t;
                nnan++;
            }
            if (j->kind == ROW_MEDIAN && at >= 0) {
                first = at;
                break;
            }
            first = j->kind == ROW_MEDIAN ? (n - 1) / 2 : (n - nnan - 1) / 2;
            ct_kv_less less = !fl ? median_less_i : j->kind == ROW_MEDIAN ? median_less_f : nanmedian_less_f;
            ct_kv_nth_element(a, first, n, less);
            break;
        }
        case ROW_MODE: {
            /* the rows sorted by value alone (introsort), then the first value of the largest run,
             * with the index its run ends at */
            ct_kv_introsort(a, n, fl ? plain_less_f : ct_kv_asc_i);
            int64_t run = 0, best = 0;
            for (int64_t t = 0; t < n; t++) {
                run++;
                if (t == n - 1 || (fl ? a[t].f != a[t + 1].f : a[t].k != a[t + 1].k)) {
                    if (run > best) {
                        best = run;
                        first = t;
                    }
                    run = 0;
                }
            }
            break;
        }
        case ROW_CUMMAX:
        case ROW_CUMMIN: {
            /* the running extreme: a NaN, or a value at least as large (small), takes over */
            int64_t best = 0;
            for (int64_t t = 0; t < n; t++) {
                const ct_kv *x = &a[t], *b = &a[best];
                bool take;
                if (fl) take = isnan(x->f) || (!isnan(b->f) && (j->kind == ROW_CUMMAX ? x->f >= b->f : x->f <= b->f));
                else take = j->kind == ROW_CUMMAX ? x->k >= b->k : x->k <= b->k;
                if (take) best = t;
                a[n + t] = a[best];
            }
            first = n;
            break;
        }
        }
        /* the outputs of this row: m elements from a[first] on */
        char *vrow = vo + (size_t)(o * m * j->inner + i) * es;
        int64_t *irow = io + o * m * j->inner + i;
        for (int64_t t = 0; t < m; t++) {
            const ct_kv *e = &a[first + t];
            memcpy(vrow + (size_t)(t * j->inner) * es, in + (size_t)(base + e->i * stride) * es, es);
            irow[t * j->inner] = e->i;
        }
    }
    ct_free(a);
    return 0;
}

/* runs kind over the rows of self along dim (wrapped; any dim of a 0-d self), m outputs a row */
static int run_rows(ct_tensor *self, int64_t dim, row_kind kind, int64_t m, int64_t k, bool flag, bool flag2, ct_tensor **values,
                    ct_tensor **indices) {
    int64_t sizes[CT_MAX_DIMS];
    int nd = self->ndim;
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)nd);
    const bool drop = m < 0; /* a reduction without keepdim: dim dropped (the same contiguous layout) */
    if (drop) m = 1;
    if (nd) sizes[dim] = m;
    if (drop && nd) {
        memmove(sizes + dim, sizes + dim + 1, sizeof(int64_t) * (size_t)(nd - dim - 1));
        nd--;
    }
    *values = ct_tensor_alloc(sizes, nd, self->dtype, false);
    *indices = *values ? ct_tensor_alloc(sizes, nd, CT_INT64, false) : NULL;
    if (!*indices) goto fail;
    row_job j = {self, *values, *indices, (int)dim, self->ndim ? self->sizes[dim] : 1, m, 1, k, kind, flag, flag2};
    int64_t outer = 1;
    if (self->ndim) ct_dim_outer_inner(self, (int)dim, &outer, &j.inner);
    if ((*values)->numel == 0 || self->numel == 0) return 0;
    int64_t grain = CT_GRAIN_SIZE / (j.n > 0 ? j.n : 1);
    if (ct_parallel_for(0, outer * j.inner, grain < 1 ? 1 : grain, row_chunk, &j) != 0) goto fail;
    return 0;
fail:
    ct_tensor_release(*values);
    ct_tensor_release(*indices);
    *values = *indices = NULL;
    return -1;
}

static int ret2(ct_value *rets, ct_tensor *v, ct_tensor *ix) {
    rets[0] = ct_tensor_value(v);
    rets[1] = ct_tensor_value(ix);
    return 0;
}

/* a 0-d self: its element and index 0 */
static int scalar_pair(ct_tensor *self, ct_value *rets) {
    ct_tensor *v, *ix;
    if (run_rows(self, 0, ROW_CUMMAX, 1, 0, false, false, &v, &ix) != 0) return -1;
    return ret2(rets, v, ix);
}

static int do_sort(ct_tensor *self, bool stable, int64_t dim_arg, bool descending, ct_value *rets) {
    int64_t dim;
    if (ct_wrap_dim(dim_arg, self->ndim, &dim) != 0) return -1;
    ct_tensor *v, *ix;
    if (run_rows(self, dim, ROW_SORT, self->ndim ? self->sizes[dim] : 1, 0, descending, stable, &v, &ix) != 0) return -1;
    return ret2(rets, v, ix);
}

/* sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) */
int ct_k_sort_stable(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return do_sort(ARG_T(0), !ARG_IS_NONE(1) && ARG_B(1), ARG_I(2), ARG_B(3), rets);
}

/* sort(Tensor self, int dim=-1, bool descending=False): sort.stable with stable=False */
int ct_k_sort(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return do_sort(ARG_T(0), false, ARG_I(1), ARG_B(2), rets);
}

/* argsort(Tensor self, int dim=-1, bool descending=False): sort's indices */
int ct_k_argsort(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *v = NULL, *ix = NULL;
    if (ct_sort(ARG_T(0), ARG_I(1), ARG_B(2), &v, &ix) != 0) return -1;
    ct_tensor_release(v);
    return ct_ret(rets, 0, ix);
}

/* argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False): sort.stable's indices */
int ct_k_argsort_stable(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *v = NULL, *ix = NULL;
    if (ct_sort_stable(ARG_T(0), ARG_B(1) ? 1 : 0, ARG_I(2), ARG_B(3), &v, &ix) != 0) return -1;
    ct_tensor_release(v);
    return ct_ret(rets, 0, ix);
}

/* msort(Tensor self): the values of sort along dim 0 */
int ct_k_msort(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *v = NULL, *ix = NULL;
    if (ct_sort(ARG_T(0), 0, false, &v, &ix) != 0) return -1;
    ct_tensor_release(ix);
    return ct_ret(rets, 0, v);
}

/* topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) */
int ct_k_topk(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim, k = ARG_I(1);
    if (ct_wrap_dim(ARG_I(2), self->ndim, &dim) != 0) return -1;
    if (k < 0 || k > (self->ndim ? self->sizes[dim] : 1)) return ct_error_set(CT_ERR_RUNTIME, "selected index k out of range");
    if (self->ndim == 0) return scalar_pair(self, rets);
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"topk_cpu\" not implemented for 'Bool'");
    ct_tensor *v, *ix;
    if (run_rows(self, dim, ROW_TOPK, k, k, ARG_B(3), ARG_B(4), &v, &ix) != 0) return -1;
    return ret2(rets, v, ix);
}

/* one output a row: m = -1 drops dim */
static int reduce_rows(ct_tensor *self, int64_t dim, bool keepdim, row_kind kind, int64_t k, ct_value *rets) {
    ct_tensor *v, *ix;
    if (run_rows(self, dim, kind, keepdim ? 1 : -1, k, false, false, &v, &ix) != 0) return -1;
    return ret2(rets, v, ix);
}

/* kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) */
int ct_k_kthvalue(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim, k = ARG_I(1);
    if (ct_wrap_dim(ARG_I(2), self->ndim, &dim) != 0) return -1;
    if (k < 1 || k > (self->ndim ? self->sizes[dim] : 1))
        return ct_error_set(CT_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %lld", (long long)dim);
    if (self->ndim == 0) return scalar_pair(self, rets);
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"kthvalue_cpu\" not implemented for 'Bool'");
    return reduce_rows(self, dim, ARG_B(3), ROW_KTH, k, rets);
}

/* median.dim / nanmedian.dim(Tensor self, int dim, bool keepdim=False) */
static int median_dim(ct_value *args, ct_value *rets, row_kind kind) {
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (self->ndim && self->sizes[dim] == 0)
        return ct_error_set(CT_ERR_INDEX, "%s(): Expected reduction dim %lld to have non-zero size.",
                            kind == ROW_MEDIAN ? "median" : "nanmedian", (long long)dim);
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"median_out\" not implemented for 'Bool'");
    return reduce_rows(self, dim, ARG_B(2), kind, 0, rets);
}

int ct_k_median_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return median_dim(args, rets, ROW_MEDIAN);
}

int ct_k_nanmedian_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return median_dim(args, rets, ROW_NANMEDIAN);
}

/* median / nanmedian(Tensor self): the lower middle value of every element (NaN for none) */
static int median_all(ct_value *args, ct_value *rets, row_kind kind) {
    ct_tensor *self = ARG_T(0);
    if (self->numel == 0) {
        ct_tensor *r = ct_tensor_alloc(NULL, 0, self->dtype, false);
        if (!r) return -1;
        ct_elem_store(ct_tensor_data_ptr(r), self->dtype, NAN);
        return ct_ret(rets, 0, r);
    }
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"median_cpu\" not implemented for 'Bool'");
    int64_t n = self->numel;
    ct_tensor *flat = ct_reshape(self, &n, 1);
    if (!flat) return -1;
    ct_tensor *v, *ix;
    int rc = run_rows(flat, 0, kind, -1, 0, false, false, &v, &ix);
    ct_tensor_release(flat);
    if (rc != 0) return -1;
    ct_tensor_release(ix);
    return ct_ret(rets, 0, v);
}

int ct_k_median(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return median_all(args, rets, ROW_MEDIAN);
}

int ct_k_nanmedian(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return median_all(args, rets, ROW_NANMEDIAN);
}

/* cummax / cummin(Tensor self, int dim) */
static int cum_extreme(ct_value *args, ct_value *rets, row_kind kind) {
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (self->ndim == 0) return scalar_pair(self, rets); /* any dim */
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    ct_tensor *v, *ix;
    if (run_rows(self, dim, kind, self->ndim ? self->sizes[dim] : 1, 0, false, false, &v, &ix) != 0) return -1;
    return ret2(rets, v, ix);
}

int ct_k_cummax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return cum_extreme(args, rets, ROW_CUMMAX);
}

int ct_k_cummin(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return cum_extreme(args, rets, ROW_CUMMIN);
}

/* mode(Tensor self, int dim=-1, bool keepdim=False) */
int ct_k_mode(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (self->ndim == 0) return scalar_pair(self, rets);
    if (self->sizes[dim] == 0)
        return ct_error_set(CT_ERR_INDEX, "mode(): Expected reduction dim %lld to have non-zero size.", (long long)dim);
    return reduce_rows(self, dim, ARG_B(2), ROW_MODE, 0, rets);
}
