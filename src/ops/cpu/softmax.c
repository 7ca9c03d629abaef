/* _softmax and _softmax_backward_data (SoftMax.cpp, cpu/SoftMaxKernel.cpp). In float32 they run
 * PyTorch's float kernels' operations in their order (src/ops/cpu/vec/softmax_vec.c: Note
 * [Softmax backward order], Note [Softmax over a dimension]), split over the threads as
 * PyTorch's parallel_for splits them, so the forward over a leading dimension, whose bits depend
 * on the split, is PyTorch's at the same thread count. Otherwise, as the log-softmax kernels in
 * softmax_loss.c, values are computed in double and rounded once to the result type; PyTorch's
 * float kernels accumulate in float, so the last bit can differ. */
#include <math.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* The float32 kernels' rows (dim last) or columns (another dim) of a contiguous [outer, len,
 * inner], split over the threads: a job for ct_parallel_for. */
typedef struct sm_job {
    const ct_vec_kernels *vk;
    const float *x, *g; /* forward: x; backward: grad and output (x) */
    float *y;
    int64_t len, inner;
} sm_job;

static int softmax_rows(void *vjob, int64_t begin, int64_t end) {
    const sm_job *j = vjob;
    for (int64_t o = begin; o < end; o++) j->vk->softmax_lastdim_f32(j->x + o * j->len, j->len, j->y + o * j->len);
    return 0;
}

static int softmax_columns(void *vjob, int64_t begin, int64_t end) {
    const sm_job *j = vjob;
    j->vk->softmax_dim_f32(j->x, j->len, j->inner, begin, end, j->y);
    return 0;
}

static int softmax_bw_rows(void *vjob, int64_t begin, int64_t end) {
    const sm_job *j = vjob;
    for (int64_t o = begin; o < end; o++)
        j->vk->softmax_bw_lastdim_f32(j->g + o * j->len, j->x + o * j->len, j->len, j->y + o * j->len);
    return 0;
}

static int softmax_bw_columns(void *vjob, int64_t begin, int64_t end) {
    const sm_job *j = vjob;
    for (int64_t c = begin; c < end; c++) {
        const int64_t base = c / j->inner * j->len * j->inner + c % j->inner;
        j->vk->softmax_bw_dim_f32(j->g + base, j->x + base, j->len, j->inner, j->y + base);
    }
    return 0;
}

/* A row kernel's grain: GRAIN_SIZE / (16 * dim_size) rows, at least 1 (SoftMaxKernel.cpp). */
static int64_t row_grain(int64_t len) {
    int64_t g = CT_GRAIN_SIZE / (16 * len);
    return g > 1 ? g : 1;
}

/* float32 softmax backward in PyTorch's kernel order; gi is contiguous */
static int softmax_bw_f32(const ct_tensor *g, const ct_tensor *out, int d, ct_tensor *gi) {
    if (g->numel == 0) return 0; /* nothing to compute (and no data to point into) */
    float *gown = NULL, *yown = NULL;
    const float *gf = ct_float_elements(g, &gown), *yf = gf ? ct_float_elements(out, &yown) : NULL;
    if (!gf || !yf) {
        ct_free(gown);
        return -1;
    }
    int64_t outer, inner;
    ct_dim_outer_inner(g, d, &outer, &inner);
    sm_job j = {ct_vec(), yf, gf, (float *)gi->storage->data + gi->storage_offset, g->sizes[d], inner};
    if (d == g->ndim - 1) ct_parallel_for(0, outer, row_grain(j.len), softmax_bw_rows, &j);
    else ct_parallel_for(0, outer * inner, row_grain(j.len), softmax_bw_columns, &j);
    ct_free(gown);
    ct_free(yown);
    return 0;
}

/* The double path's columns: one (o, in) pair each, over the threads */
typedef struct sm_any_job {
    const ct_tensor *a, *b; /* forward: self; backward: grad, output */
    ct_tensor *r;
    int d;
    int64_t inner, len;
} sm_any_job;

static int softmax_any_columns(void *vjob, int64_t begin, int64_t end) {
    const sm_any_job *j = vjob;
    const ct_tensor *self = j->a;
    const int d = j->d;
    for (int64_t c = begin; c < end; c++) {
        const int64_t o = c / j->inner, in = c % j->inner;
        /* max, exp(x - max), sum, times 1 / sum */
        double mx = -INFINITY;
        for (int64_t k = 0; k < j->len; k++) {
            double v = ct_elem_ld(self, ct_dim_offset(self, d, o, in, k));
            if (v > mx || isnan(v)) mx = v;
        }
        double sum = 0;
        for (int64_t k = 0; k < j->len; k++) sum += exp(ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx);
        for (int64_t k = 0; k < j->len; k++)
            ct_elem_st(j->r, ct_dim_offset(j->r, d, o, in, k), exp(ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx) / sum);
    }
    return 0;
}

static int softmax_bw_any_columns(void *vjob, int64_t begin, int64_t end) {
    const sm_any_job *j = vjob;
    const ct_tensor *g = j->a, *out = j->b;
    const int d = j->d;
    for (int64_t c = begin; c < end; c++) {
        const int64_t o = c / j->inner, in = c % j->inner;
        double sum = 0;
        for (int64_t k = 0; k < j->len; k++) sum += ct_elem_ld(g, ct_dim_offset(g, d, o, in, k)) * ct_elem_ld(out, ct_dim_offset(out, d, o, in, k));
        for (int64_t k = 0; k < j->len; k++)
            ct_elem_st(j->r, ct_dim_offset(j->r, d, o, in, k),
                       (ct_elem_ld(g, ct_dim_offset(g, d, o, in, k)) - sum) * ct_elem_ld(out, ct_dim_offset(out, d, o, in, k)));
    }
    return 0;
}

/* _softmax(Tensor self, int dim, bool half_to_float) -> Tensor */
int ct_k__softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    bool half_to_float = ARG_B(2);
    if (half_to_float) return ct_error_set(CT_ERR_RUNTIME, "softmax with half to float conversion is not supported on CPU");
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                            dim == self->ndim - 1 || self->ndim == 0 ? "softmax_lastdim_kernel_impl" : "softmax_kernel_impl",
                            ct_dtype_name(self->dtype));
    ct_dtype out_dt = self->dtype;
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, out_dt, false);
    if (!out) return -1;
    if (self->numel == 0) return ct_ret(rets, 0, out);
    if (self->ndim == 0) {
        ct_elem_st(out, 0, 1.0);
        return ct_ret(rets, 0, out);
    }
    int d = (int)dim;
    int64_t outer, inner, len = self->sizes[d];
    ct_dim_outer_inner(self, d, &outer, &inner);
    if (self->dtype == CT_FLOAT32) { /* PyTorch's float kernels (softmax_vec.c), on input.contiguous() */
        float *own = NULL;
        const float *xf = ct_float_elements(self, &own);
        if (!xf) {
            ct_tensor_release(out);
            return -1;
        }
        sm_job j = {ct_vec(), xf, NULL, (float *)out->storage->data + out->storage_offset, len, inner};
        if (d == self->ndim - 1) { /* softmax_lastdim_kernel: rows, a grain of GRAIN_SIZE / (16 * len) */
            ct_parallel_for(0, outer, row_grain(len), softmax_rows, &j);
        } else { /* softmax_kernel: columns, a grain of 0 (every thread a piece, however few the columns) */
            ct_parallel_for(0, outer * inner, 0, softmax_columns, &j);
        }
        ct_free(own);
        return ct_ret(rets, 0, out);
    }
    sm_any_job j = {self, NULL, out, d, inner, len};
    ct_parallel_for(0, outer * inner, row_grain(len), softmax_any_columns, &j);
    return ct_ret(rets, 0, out);
}

/* _softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype):
 * grad_input = (grad_output - sum(grad_output * output, dim)) * output */
int ct_k__softmax_backward_data(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0), *out = ARG_T(1), *gi;
    int64_t dim;
    if (ct_softmax_backward_setup(args, "_softmax_backward_data", &dim, &gi) != 0) return -1;
    if (g->numel == 0) return ct_ret(rets, 0, gi);
    if (g->ndim == 0) {
        double gv = ct_elem_ld(g, g->storage_offset), ov = ct_elem_ld(out, out->storage_offset);
        ct_elem_st(gi, 0, (gv - gv * ov) * ov);
        return ct_ret(rets, 0, gi);
    }
    int d = (int)dim;
    if (g->dtype == CT_FLOAT32 && out->dtype == CT_FLOAT32 && gi->dtype == CT_FLOAT32) {
        if (softmax_bw_f32(g, out, d, gi) != 0) {
            ct_tensor_release(gi);
            return -1;
        }
        return ct_ret(rets, 0, gi);
    }
    int64_t outer, inner, len = g->sizes[d];
    ct_dim_outer_inner(g, d, &outer, &inner);
    sm_any_job j = {g, out, gi, d, inner, len};
    ct_parallel_for(0, outer * inner, row_grain(len), softmax_bw_any_columns, &j);
    return ct_ret(rets, 0, gi);
}
