/* The reduction family's rows (Note [Reduction rows] in reduce_rows.h): the plan of a reduction
 * and its loop over the output elements. */
#include <string.h>

#include "ctorch/parallel.h"
#include "ops/cpu/reduce_rows.h"
#include "ops/kernel_util.h"

int ct_rrows_mask(const ct_tensor *self, const int64_t *dims, int64_t ndims, bool empty_all, bool *mask) {
    memset(mask, 0, sizeof(bool) * CT_MAX_DIMS);
    if (ndims == 0) {
        if (empty_all)
            for (int d = 0; d < self->ndim; d++) mask[d] = true;
        return 0;
    }
    for (int64_t i = 0; i < ndims; i++) {
        int64_t d;
        if (ct_wrap_dim(dims[i], self->ndim, &d) != 0) return -1;
        if (self->ndim == 0) continue;
        if (mask[d]) return ct_error_set(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
        mask[d] = true;
    }
    return 0;
}

int ct_rrows_mask_arg(const ct_tensor *self, const ct_value *arg, bool empty_all, bool *mask) {
    if (arg->tag == CT_TAG_NONE) return ct_rrows_mask(self, NULL, 0, true, mask);
    if (arg->tag == CT_TAG_INT) return ct_rrows_mask(self, &arg->u.i, 1, empty_all, mask);
    return ct_rrows_mask(self, arg->u.list.data, arg->u.list.len, empty_all, mask);
}

void ct_rrows_plan(ct_rrows *p, const ct_tensor *self, const bool *mask, bool keepdim) {
    memset(p, 0, sizeof *p);
    p->self = self;
    const size_t es = ct_dtype_size(self->dtype);
    p->data = (const char *)self->storage->data + (size_t)self->storage_offset * es;
    p->nout = 1;
    p->rlen = 1;
    for (int d = 0; d < self->ndim; d++) {
        p->mask[d] = mask[d];
        const int64_t st = self->strides[d] * (int64_t)es;
        if (mask[d]) {
            if (keepdim) p->oshape[p->oshape_n++] = 1;
            p->rlen *= self->sizes[d];
            if (self->sizes[d] == 1) continue;
            /* merge with the previous reduced dimension when the two walk memory as one */
            if (p->nred > 0 && p->rstride[p->nred - 1] == st * self->sizes[d]) {
                p->rshape[p->nred - 1] *= self->sizes[d];
                p->rstride[p->nred - 1] = st;
            } else {
                p->rshape[p->nred] = self->sizes[d];
                p->rstride[p->nred++] = st;
            }
        } else {
            p->oshape[p->oshape_n++] = self->sizes[d];
            p->kshape[p->nkept] = self->sizes[d];
            p->kstride[p->nkept++] = st;
            p->nout *= self->sizes[d];
        }
    }
    if (p->nred == 0) { /* a row of one element (or none) */
        p->rshape[0] = 1;
        p->rstride[0] = 0;
        p->nred = 1;
    }
}

typedef struct rows_job {
    const ct_rrows *p;
    ct_rrow_fn fn;
    void *ctx;
} rows_job;

static int rows_chunk(void *vjob, int64_t begin, int64_t end) {
    const rows_job *j = vjob;
    const ct_rrows *p = j->p;
    for (int64_t o = begin; o < end; o++) {
        int64_t off = 0, q = o;
        for (int d = p->nkept - 1; d >= 0; d--) {
            off += (q % p->kshape[d]) * p->kstride[d];
            q /= p->kshape[d];
        }
        j->fn(p, p->data + off, o, j->ctx);
    }
    return 0;
}

int ct_rrows_run(const ct_rrows *p, ct_rrow_fn fn, void *ctx) {
    rows_job j = {p, fn, ctx};
    if (p->nout == 0) return 0;
    const int64_t per = p->rlen > 0 ? p->rlen : 1;
    int64_t grain = CT_GRAIN_SIZE / per;
    if (grain < 1) grain = 1;
    return ct_parallel_for(0, p->nout, grain, rows_chunk, &j);
}

bool ct_rrows_columnar(const ct_rrows *p) {
    const int64_t es = (int64_t)ct_dtype_size(p->self->dtype);
    return p->nred == 1 && p->nkept >= 1 && p->kstride[p->nkept - 1] == es && p->rstride[0] != es && p->rlen > 1 &&
           p->kshape[p->nkept - 1] > 1;
}

typedef struct cols_job {
    const ct_rrows *p;
    ct_rcol_fn fn;
    void *ctx;
    int64_t ncols, nblocks; /* the innermost kept dimension's size, its blocks per outer position */
} cols_job;

static int cols_chunk(void *vjob, int64_t begin, int64_t end) {
    const cols_job *j = vjob;
    const ct_rrows *p = j->p;
    const int64_t es = (int64_t)ct_dtype_size(p->self->dtype);
    for (int64_t u = begin; u < end; u++) {
        const int64_t q = u / j->nblocks, c0 = (u % j->nblocks) * CT_RROWS_COLUMNS;
        const int64_t n = j->ncols - c0 < CT_RROWS_COLUMNS ? j->ncols - c0 : CT_RROWS_COLUMNS;
        int64_t off = c0 * es, rem = q;
        for (int d = p->nkept - 2; d >= 0; d--) {
            off += (rem % p->kshape[d]) * p->kstride[d];
            rem /= p->kshape[d];
        }
        j->fn(p, p->data + off, q * j->ncols + c0, n, j->ctx);
    }
    return 0;
}

int ct_rrows_run_cols(const ct_rrows *p, ct_rrow_fn row, ct_rcol_fn col, void *ctx) {
    if (!col || !ct_rrows_columnar(p)) return ct_rrows_run(p, row, ctx);
    if (p->nout == 0) return 0;
    cols_job j = {p, col, ctx, p->kshape[p->nkept - 1], 0};
    j.nblocks = (j.ncols + CT_RROWS_COLUMNS - 1) / CT_RROWS_COLUMNS;
    const int64_t units = p->nout / j.ncols * j.nblocks;
    int64_t grain = CT_GRAIN_SIZE / (p->rlen * CT_RROWS_COLUMNS);
    if (grain < 1) grain = 1;
    return ct_parallel_for(0, units, grain, cols_chunk, &j);
}
