/* The reduction family's template (internal): a reduction seen as rows, one per output element.
 *
 * Note [Reduction rows]
 *   A reduction of self over some dimensions gives one output element per position of the kept
 *   dimensions; the elements it reduces are that position's "row": the reduced dimensions'
 *   elements in their logical (row-major) order. ct_rrows_plan lays the rows out once (the kept
 *   and the reduced dimensions with their byte strides, neighbouring reduced dimensions that walk
 *   memory as one merged, so a reduction over a contiguous tensor's last dimensions is one
 *   strided run per row), and ct_rrows_run calls an op's row function for every output element,
 *   split over the intra-op threads with ct_parallel_for (outputs in pieces of at least a grain's
 *   worth of elements). The row function reads its row through ct_rrow_at (or, where rlen_inner
 *   is the whole row, directly with rstride) and writes output o of a contiguous result: every
 *   op of the family (amax, max.dim, prod, any, var, logsumexp, count_nonzero, ...) is one such
 *   function, and the ops differ in nothing else. A row's order is the input's logical order,
 *   which is the order PyTorch's TensorIterator reduces a single row in, except where PyTorch
 *   vectorises a float accumulation (prod), which ctorch does in double and rounds once. */
#ifndef CT_REDUCE_ROWS_H
#define CT_REDUCE_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor_impl.h"
#include "ctorch/dispatch.h"

typedef struct ct_rrows {
    const ct_tensor *self;
    const char *data; /* self's first element */
    int nkept, nred;
    int64_t kshape[CT_MAX_DIMS], kstride[CT_MAX_DIMS]; /* kept dims, outermost first, byte strides */
    int64_t rshape[CT_MAX_DIMS], rstride[CT_MAX_DIMS]; /* reduced dims after merging */
    int64_t nout, rlen;                                /* output elements, elements per row */
    int oshape_n;
    int64_t oshape[CT_MAX_DIMS]; /* the result's shape (keepdim's 1s included) */
    bool mask[CT_MAX_DIMS];      /* the reduced dimensions of self */
} ct_rrows;

/* The dims of a reduction: dims an int list (NULL or empty: every dimension when empty_all), each
 * wrapped (PyTorch's IndexError) and unique ("dim 0 appears multiple times in the list of dims").
 * 0, or -1 with the error set. */
int ct_rrows_mask(const ct_tensor *self, const int64_t *dims, int64_t ndims, bool empty_all, bool *mask);
/* The dims argument at args[i] (int[1]?, int[], int?, int), as ct_rrows_mask takes it. */
int ct_rrows_mask_arg(const ct_tensor *self, const ct_value *arg, bool empty_all, bool *mask);
/* Lays out the rows of self reduced over mask. */
void ct_rrows_plan(ct_rrows *p, const ct_tensor *self, const bool *mask, bool keepdim);

/* The row function: output o, its row starting at base. */
typedef void (*ct_rrow_fn)(const ct_rrows *p, const char *base, int64_t o, void *ctx);
/* Calls fn for every output element (in parallel where there is a grain's work). */
int ct_rrows_run(const ct_rrows *p, ct_rrow_fn fn, void *ctx);

/* The column function: ncols outputs o0, o0 + 1, ... whose rows start at base, base + es, ...
 * (neighbouring columns of a contiguous innermost kept dimension), each row's element r at
 * + r * rstride[0]: a reduction over dim 0 of a row-major matrix reads whole rows at a time. */
#define CT_RROWS_COLUMNS 256
typedef void (*ct_rcol_fn)(const ct_rrows *p, const char *base, int64_t o0, int64_t ncols, void *ctx);
/* Whether p's outputs can be taken as columns (one reduced run, strided; the innermost kept
 * dimension contiguous). */
bool ct_rrows_columnar(const ct_rrows *p);
/* ct_rrows_run by blocks of at most CT_RROWS_COLUMNS columns, where ct_rrows_columnar; else rows. */
int ct_rrows_run_cols(const ct_rrows *p, ct_rrow_fn row, ct_rcol_fn col, void *ctx);

/* Element r of the row at base. */
static inline const char *ct_rrow_at(const ct_rrows *p, const char *base, int64_t r) {
    if (p->nred == 1) return base + r * p->rstride[0];
    int64_t off = 0;
    for (int d = p->nred - 1; d >= 0; d--) {
        off += (r % p->rshape[d]) * p->rstride[d];
        r /= p->rshape[d];
    }
    return base + off;
}

/* An element as an int64 (exact for int64; any other integral or bool dtype converted). */
static inline int64_t ct_rload_i64(const char *ptr, ct_dtype dt) {
    if (dt == CT_INT64) {
        int64_t v;
        __builtin_memcpy(&v, ptr, sizeof v);
        return v;
    }
    return (int64_t)ct_load_as_double(ptr, dt);
}

#endif
