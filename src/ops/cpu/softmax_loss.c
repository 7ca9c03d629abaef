/* _log_softmax, _log_softmax_backward_data, nll_loss_forward, nll_loss_backward (CPU), and
 * _to_copy. Values are computed in double and rounded once to the result type; PyTorch's
 * float kernels accumulate in float, so the last bit can differ. Exceptions, in float32: the
 * reductions of nll_loss_forward follow PyTorch's float cascade (the same bits), and
 * log_softmax and its backward run PyTorch's kernel order over the last dimension and, in
 * blocks of columns, over another one (src/ops/cpu/vec/softmax_vec.c: Note [Log softmax over a
 * dimension]). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

/* Contiguous float32/float64 operands: the same arithmetic as the general loops below (in double,
 * rounded once), reading and writing the rows directly. Element k of row (o, in) along a
 * dimension of length len with `inner` elements after it is at o*len*inner + in + k*inner. */
static bool dense_float(const ct_tensor *t) {
    return (t->dtype == CT_FLOAT32 || t->dtype == CT_FLOAT64) && ct_tensor_is_contiguous(t);
}

static inline double ldf(const void *base, bool f64, int64_t i) {
    return f64 ? ((const double *)base)[i] : (double)((const float *)base)[i];
}

static inline void stf(void *base, bool f64, int64_t i, double v) {
    if (f64) ((double *)base)[i] = v;
    else ((float *)base)[i] = (float)v;
}

/* The dense loops below, split over the threads by rows (the last dimension) or columns. */
typedef struct ls_job {
    const ct_vec_kernels *vk;
    const void *x, *g; /* forward: x = self; backward: g = grad, x = output */
    void *y;
    bool xf, gf, yf; /* float64 operands */
    int64_t len, inner;
} ls_job;

static int log_softmax_rows_f32(void *vjob, int64_t begin, int64_t end) {
    const ls_job *j = vjob;
    for (int64_t o = begin; o < end; o++)
        j->vk->log_softmax_lastdim_f32((const float *)j->x + o * j->len, j->len, (float *)j->y + o * j->len);
    return 0;
}

static int log_softmax_columns(void *vjob, int64_t begin, int64_t end) {
    const ls_job *j = vjob;
    const int64_t len = j->len, inner = j->inner;
    for (int64_t c = begin; c < end; c++) {
        const int64_t base = c / inner * len * inner + c % inner;
        double mx = -INFINITY;
        for (int64_t k = 0; k < len; k++) {
            double v = ldf(j->x, j->xf, base + k * inner);
            if (v > mx || isnan(v)) mx = v;
        }
        double sum = 0;
        for (int64_t k = 0; k < len; k++) sum += exp(ldf(j->x, j->xf, base + k * inner) - mx);
        double lse = log(sum);
        for (int64_t k = 0; k < len; k++) stf(j->y, j->yf, base + k * inner, ldf(j->x, j->xf, base + k * inner) - mx - lse);
    }
    return 0;
}

static int log_softmax_bw_rows_f32(void *vjob, int64_t begin, int64_t end) {
    const ls_job *j = vjob;
    for (int64_t o = begin; o < end; o++)
        j->vk->log_softmax_bw_lastdim_f32((const float *)j->g + o * j->len, (const float *)j->x + o * j->len, j->len,
                                          (float *)j->y + o * j->len);
    return 0;
}

static int log_softmax_bw_columns(void *vjob, int64_t begin, int64_t end) {
    const ls_job *j = vjob;
    const int64_t len = j->len, inner = j->inner;
    for (int64_t c = begin; c < end; c++) {
        const int64_t base = c / inner * len * inner + c % inner;
        double sum = 0;
        for (int64_t k = 0; k < len; k++) sum += ldf(j->g, j->gf, base + k * inner);
        for (int64_t k = 0; k < len; k++)
            stf(j->y, j->yf, base + k * inner, ldf(j->g, j->gf, base + k * inner) - exp(ldf(j->x, j->xf, base + k * inner)) * sum);
    }
    return 0;
}

/* float32 over another dimension: blocks of PyTorch's block columns (Note [Log softmax over a
 * dimension] in softmax_vec.c), items [begin, end) of outer x blocks per row */
typedef struct ls_block_job {
    const ct_vec_kernels *vk;
    const float *x, *g; /* forward: x = self; backward: g = grad, x = output */
    float *y;
    int64_t len, inner, block, blocks;
} ls_block_job;

static int log_softmax_blocks(void *vjob, int64_t begin, int64_t end, bool backward) {
    const ls_block_job *j = vjob;
    float *scratch = ct_malloc(sizeof(float) * 2 * (size_t)j->block);
    if (!scratch) return -1;
    for (int64_t i = begin; i < end; i++) {
        const int64_t first = i % j->blocks * j->block, size = j->inner - first < j->block ? j->inner - first : j->block;
        const int64_t at = i / j->blocks * j->len * j->inner + first;
        if (backward) j->vk->log_softmax_bw_dim_f32(j->g + at, j->x + at, j->len, j->inner, size, scratch, j->y + at);
        else j->vk->log_softmax_dim_f32(j->x + at, j->len, j->inner, size, scratch, j->y + at);
    }
    ct_free(scratch);
    return 0;
}

static int log_softmax_blocks_fw(void *vjob, int64_t begin, int64_t end) { return log_softmax_blocks(vjob, begin, end, false); }
static int log_softmax_blocks_bw(void *vjob, int64_t begin, int64_t end) { return log_softmax_blocks(vjob, begin, end, true); }

/* The float32 blocks over another dimension, split with a grain of 0: -1 when out of memory */
static int log_softmax_dim_f32(const void *x, const void *g, void *y, int64_t outer, int64_t len, int64_t inner, bool backward) {
    const ct_vec_kernels *vk = ct_vec();
    const int64_t lanes = vk == ct_vec_for(CT_CPU_AVX512) ? 16 : 8;
    int64_t block = 128 * 1024 / len / (int64_t)sizeof(float);
    block = (block > lanes ? block : lanes) / lanes * lanes;
    if (block > inner) block = inner;
    ls_block_job j = {vk, x, g, y, len, inner, block, (inner + block - 1) / block};
    return ct_parallel_for(0, outer * j.blocks, 0, backward ? log_softmax_blocks_bw : log_softmax_blocks_fw, &j);
}

/* GRAIN_SIZE / (16 * len) rows or columns, at least one (SoftMaxKernel.cpp's grain) */
static int64_t ls_grain(int64_t len) {
    int64_t g = CT_GRAIN_SIZE / (16 * len);
    return g > 1 ? g : 1;
}

/* _vec_log_softmax_lastdim's grain: the rows shared by all threads but one, fewer threads when
 * there are fewer than threads x GRAIN_SIZE "computations" (16 per element per vector lane),
 * one thread up to GRAIN_SIZE of them */
static int64_t ls_lastdim_grain(int64_t outer, int64_t len, int lanes) {
    const int threads = ct_get_num_threads();
    int64_t grain = (outer - 1) / (threads > 1 ? threads - 1 : 1);
    const int64_t computations = 16 * outer * len / lanes;
    if (computations < (int64_t)threads * CT_GRAIN_SIZE && computations > CT_GRAIN_SIZE) grain = (outer - 1) / (computations / CT_GRAIN_SIZE);
    else if (computations <= CT_GRAIN_SIZE) grain = outer;
    return grain;
}

static void log_softmax_dense(const ct_tensor *self, ct_tensor *out, int64_t outer, int64_t len, int64_t inner) {
    const ct_vec_kernels *vk = ct_vec();
    ls_job j = {vk, ct_tensor_data_ptr(self), NULL, ct_tensor_data_ptr(out), self->dtype == CT_FLOAT64, false,
                out->dtype == CT_FLOAT64, len, inner};
    if (!j.xf && !j.yf && inner == 1) { /* float32 over the last dimension: PyTorch's kernel order */
        const int lanes = vk == ct_vec_for(CT_CPU_AVX512) ? 16 : 8;
        ct_parallel_for(0, outer, ls_lastdim_grain(outer, len, lanes), log_softmax_rows_f32, &j);
        return;
    }
    /* float32 over another dimension: PyTorch's blocks (without scratch memory, the loop in double) */
    if (!j.xf && !j.yf && log_softmax_dim_f32(j.x, NULL, j.y, outer, len, inner, false) == 0) return;
    ct_parallel_for(0, outer * inner, ls_grain(len), log_softmax_columns, &j);
}

static void log_softmax_backward_dense(const ct_tensor *g, const ct_tensor *out, ct_tensor *gi, int64_t outer, int64_t len,
                                       int64_t inner) {
    ls_job j = {ct_vec(), ct_tensor_data_ptr(out), ct_tensor_data_ptr(g), ct_tensor_data_ptr(gi), out->dtype == CT_FLOAT64,
                g->dtype == CT_FLOAT64, gi->dtype == CT_FLOAT64, len, inner};
    if (!j.gf && !j.xf && !j.yf && inner == 1) { /* float32 over the last dimension: PyTorch's kernel order */
        ct_parallel_for(0, outer, ls_grain(len), log_softmax_bw_rows_f32, &j);
        return;
    }
    if (!j.gf && !j.xf && !j.yf && log_softmax_dim_f32(j.x, j.g, j.y, outer, len, inner, true) == 0) return;
    ct_parallel_for(0, outer * inner, ls_grain(len), log_softmax_bw_columns, &j);
}

/* _log_softmax(Tensor self, int dim, bool half_to_float) */
int ct_k__log_softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"log_softmax_lastdim_kernel_impl\" not implemented for '%s'", ct_dtype_name(self->dtype));
    bool half_to_float = ARG_B(2);
    if (half_to_float) return ct_error_set(CT_ERR_RUNTIME, "softmax with half to float conversion is not supported on CPU");
    ct_dtype out_dt = half_to_float ? CT_FLOAT32 : self->dtype;
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, out_dt, false);
    if (!out) return -1;
    if (self->ndim == 0) {
        ct_elem_st(out, 0, 0.0); /* log_softmax of a single value is 0 */
        return ct_ret(rets, 0, out);
    }
    if (self->numel == 0) return ct_ret(rets, 0, out); /* nothing to compute (and no data to point into) */
    int d = (int)dim;
    int64_t outer, inner, len = self->sizes[d];
    ct_dim_outer_inner(self, d, &outer, &inner);
    if (dense_float(self) && dense_float(out)) {
        log_softmax_dense(self, out, outer, len, inner);
        return ct_ret(rets, 0, out);
    }
    if (self->dtype == CT_FLOAT32 && out->dtype == CT_FLOAT32) { /* strided float32: a copy */
        float *xf = ct_to_float_buffer(self);
        if (!xf) {
            ct_tensor_release(out);
            return -1;
        }
        const ct_vec_kernels *vk = ct_vec();
        float *y = ct_tensor_data_ptr(out);
        int rc = 0;
        if (inner == 1)
            for (int64_t o = 0; o < outer; o++) vk->log_softmax_lastdim_f32(xf + o * len, len, y + o * len);
        else rc = log_softmax_dim_f32(xf, NULL, y, outer, len, inner, false);
        ct_free(xf);
        if (rc != 0) {
            ct_tensor_release(out);
            return -1;
        }
        return ct_ret(rets, 0, out);
    }
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t in = 0; in < inner; in++) {
            double mx = -INFINITY;
            for (int64_t k = 0; k < len; k++) {
                double v = ct_elem_ld(self, ct_dim_offset(self, d, o, in, k));
                if (v > mx || isnan(v)) mx = v;
            }
            double sum = 0;
            for (int64_t k = 0; k < len; k++) sum += exp(ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx);
            double lse = log(sum);
            for (int64_t k = 0; k < len; k++)
                ct_elem_st(out, ct_dim_offset(out, d, o, in, k), ct_elem_ld(self, ct_dim_offset(self, d, o, in, k)) - mx - lse);
        }
    }
    return ct_ret(rets, 0, out);
}

/* _log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype):
 * grad_input = grad_output - exp(output) * sum(grad_output, dim) */
int ct_k__log_softmax_backward_data(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0), *out = ARG_T(1), *gi;
    int64_t dim;
    if (ct_softmax_backward_setup(args, "_log_softmax_backward_data", &dim, &gi) != 0) return -1;
    if (g->ndim == 0) {
        ct_elem_st(gi, 0, ct_elem_ld(g, g->storage_offset) - exp(ct_elem_ld(out, out->storage_offset)) * ct_elem_ld(g, g->storage_offset));
        return ct_ret(rets, 0, gi);
    }
    if (g->numel == 0) return ct_ret(rets, 0, gi);
    int d = (int)dim;
    int64_t outer, inner, len = g->sizes[d];
    ct_dim_outer_inner(g, d, &outer, &inner);
    if (dense_float(g) && dense_float(out) && dense_float(gi)) {
        log_softmax_backward_dense(g, out, gi, outer, len, inner);
        return ct_ret(rets, 0, gi);
    }
    if (g->dtype == CT_FLOAT32 && out->dtype == CT_FLOAT32 && gi->dtype == CT_FLOAT32) {
        float *gf = ct_to_float_buffer(g), *of = gf ? ct_to_float_buffer(out) : NULL;
        if (!of) {
            ct_free(gf);
            ct_tensor_release(gi);
            return -1;
        }
        const ct_vec_kernels *vk = ct_vec();
        float *r = ct_tensor_data_ptr(gi);
        int rc = 0;
        if (inner == 1)
            for (int64_t o = 0; o < outer; o++) vk->log_softmax_bw_lastdim_f32(gf + o * len, of + o * len, len, r + o * len);
        else rc = log_softmax_dim_f32(of, gf, r, outer, len, inner, true);
        ct_free(gf);
        ct_free(of);
        if (rc != 0) {
            ct_tensor_release(gi);
            return -1;
        }
        return ct_ret(rets, 0, gi);
    }
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t in = 0; in < inner; in++) {
            double sum = 0;
            for (int64_t k = 0; k < len; k++) sum += ct_elem_ld(g, ct_dim_offset(g, d, o, in, k));
            for (int64_t k = 0; k < len; k++)
                ct_elem_st(gi, ct_dim_offset(gi, d, o, in, k),
                   ct_elem_ld(g, ct_dim_offset(g, d, o, in, k)) - exp(ct_elem_ld(out, ct_dim_offset(out, d, o, in, k))) * sum);
        }
    }
    return ct_ret(rets, 0, gi);
}

/* Shared argument checks of nll_loss_forward / nll_loss_backward (LossNLL.cpp). */
static int nll_check(const ct_tensor *self, const ct_tensor *target, const ct_tensor *weight, int64_t reduction,
                     int64_t *n_classes, int64_t *batch) {
    if (self->ndim < 1 || self->ndim > 2)
        return ct_error_set(CT_ERR_RUNTIME, "input tensor should be 1D or 2D");
    if (target->ndim > 1)
        return ct_error_set(CT_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
    bool no_batch_dim = self->ndim == 1 && target->ndim == 0;
    if (!no_batch_dim && self->sizes[0] != (target->ndim ? target->sizes[0] : 1)) {
        char a[256], b[256];
        ct_format_shape(self->sizes, self->ndim, a, sizeof a);
        ct_format_shape(target->sizes, target->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)", a, b);
    }
    if (reduction < 0 || reduction > 2) return ct_error_set(CT_ERR_VALUE, "%lld is not a valid value for reduction", (long long)reduction);
    *n_classes = self->sizes[self->ndim - 1];
    *batch = self->ndim == 2 ? self->sizes[0] : 1;
    if (target->numel < *batch) { /* a 1-D input of 0 classes with an empty 1-D target: no target to read */
        char a[256], b[256];
        ct_format_shape(self->sizes, self->ndim, a, sizeof a);
        ct_format_shape(target->sizes, target->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)", a, b);
    }
    if (weight && (weight->ndim != 1 || weight->numel != *n_classes)) {
        char b[256];
        ct_format_shape(weight->sizes, weight->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME,
                            "weight tensor should be defined either for all %lld classes or no classes but got weight tensor of shape: %s",
                            (long long)*n_classes, b);
    }
    /* nll_loss_forward_out_cpu dispatches on the target's type: Long, and Byte */
    if (target->dtype != CT_INT64 && target->dtype != CT_UINT8)
        return ct_error_set(CT_ERR_RUNTIME, "expected scalar type Long but found %s", ct_dtype_name(target->dtype));
    return 0;
}

static int64_t target_at(const ct_tensor *target, int64_t i) {
    int64_t off = target->storage_offset + (target->ndim ? i * target->strides[0] : 0);
    return ct_elem_load_int64((const char *)target->storage->data + (size_t)off * ct_dtype_size(target->dtype), target->dtype);
}

static double x_at(const ct_tensor *self, int64_t i, int64_t c) {
    int64_t off = self->storage_offset + c * self->strides[self->ndim - 1];
    if (self->ndim == 2) off += i * self->strides[0];
    return ct_elem_ld(self, off);
}

/* utils::CeilLog2 */
static int64_t ceil_log2_i64(int64_t x) {
    if (x <= 2) return 1;
    uint64_t v = (uint64_t)x - 1;
    int64_t last = 63;
    while (!(v >> last)) last--;
    return last + 1;
}

/* nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index)
 *   -> (Tensor output, Tensor total_weight) */
int ct_k_nll_loss_forward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1), *weight = ARG_OPT_T(2);
    int64_t reduction = ARG_I(3), ignore = ARG_I(4), C, N;
    if (nll_check(self, target, weight, reduction, &C, &N) != 0) return -1;
    bool none = reduction == 0 && self->ndim == 2;
    int64_t osz[1] = {N};
    ct_tensor *out = ct_tensor_alloc(osz, none ? 1 : 0, self->dtype, false);
    ct_tensor *tw = ct_tensor_alloc(NULL, 0, self->dtype, false);
    if (!out || !tw) {
        ct_tensor_release(out);
        ct_tensor_release(tw);
        return -1;
    }
    /* A float32 reduction follows LossNLL.cpp's float arithmetic: 8 levels of partial sums in
     * float, level j emptied into level j + 1 after every 2^(level_power*(j+1)) targets
     * (level_power = max(4, ceil(log2 N) / 8)), the levels added in order at the end, then one
     * division by the float total weight. */
    bool cascade = !none && self->dtype == CT_FLOAT32 && (!weight || weight->dtype == CT_FLOAT32);
    const int64_t levels = 8, lp = N > 0 && ceil_log2_i64(N) / levels > 4 ? ceil_log2_i64(N) / levels : 4;
    const int64_t lmask = ((int64_t)1 << lp) - 1;
    float wsum[8] = {0}, lsum[8] = {0};
    int64_t ignored = 0;
    double total_w = 0, total = 0;
    for (int64_t i = 0; i < N; i++) {
        int64_t t = target_at(target, i);
        if (cascade && t == ignore) {
            ignored++;
            continue;
        }
        if (cascade && t >= 0 && t < C) {
            float xv = (float)x_at(self, i, t);
            if (weight) {
                float wv = (float)ct_elem_ld(weight, weight->storage_offset + t * weight->strides[0]);
                lsum[0] -= xv * wv;
                wsum[0] += wv;
            } else {
                lsum[0] -= xv;
            }
            for (int64_t j = 0; j + 1 < levels; ++j) {
                if ((i & (lmask << (j * lp))) != 0) break;
                wsum[j + 1] += wsum[j];
                lsum[j + 1] += lsum[j];
                wsum[j] = 0;
                lsum[j] = 0;
            }
            continue;
        }
        if (t == ignore) {
            if (none) ct_elem_st(out, i, 0.0);
            continue;
        }
        if (t < 0 || t >= C) {
            ct_tensor_release(out);
            ct_tensor_release(tw);
            return ct_error_set(CT_ERR_INDEX, "Target %lld is out of bounds.", (long long)t);
        }
        double w = weight ? ct_elem_ld(weight, weight->storage_offset + t * weight->strides[0]) : 1.0;
        double v = -w * x_at(self, i, t);
        if (none) ct_elem_st(out, i, v);
        total += v;
        total_w += w;
    }
    if (cascade) {
        float tw_f = 0, out_f = 0;
        if (!weight) tw_f = (float)(N - ignored);
        else
            for (int64_t j = 0; j < levels; j++) tw_f += wsum[j];
        for (int64_t j = 0; j < levels; j++) out_f += lsum[j];
        if (reduction == 1) out_f /= tw_f;
        *(float *)out->storage->data = out_f;
        *(float *)tw->storage->data = tw_f;
        rets[0] = ct_tensor_value(out);
        rets[1] = ct_tensor_value(tw);
        return 0;
    }
    if (!none) ct_elem_st(out, 0, reduction == 1 ? total / total_w : total);
    ct_elem_st(tw, 0, none ? 0.0 : total_w);
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(tw);
    return 0;
}

/* nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction,
 *                   SymInt ignore_index, Tensor total_weight) -> Tensor */
int ct_k_nll_loss_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0), *self = ARG_T(1), *target = ARG_T(2), *weight = ARG_OPT_T(3), *tw = ARG_T(6);
    int64_t reduction = ARG_I(4), ignore = ARG_I(5), C, N;
    if (nll_check(self, target, weight, reduction, &C, &N) != 0) return -1;
    bool none = reduction == 0 && self->ndim == 2;
    ct_tensor *gi = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, false);
    if (!gi) return -1;
    /* the structured kernel's output is allocated directly, then zeroed through the dispatcher */
    if (ct_zero_(gi) != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    double total_w = ct_elem_ld(tw, tw->storage_offset);
    for (int64_t i = 0; i < N; i++) {
        int64_t t = target_at(target, i);
        if (t == ignore) continue;
        if (t < 0 || t >= C) {
            ct_tensor_release(gi);
            return ct_error_set(CT_ERR_INDEX, "Target %lld is out of bounds.", (long long)t);
        }
        double w = weight ? ct_elem_ld(weight, weight->storage_offset + t * weight->strides[0]) : 1.0;
        double go = none ? ct_elem_ld(g, g->storage_offset + i * (g->ndim ? g->strides[0] : 0)) : ct_elem_ld(g, g->storage_offset);
        double v = -w * go;
        if (reduction == 1) v /= total_w;
        int64_t off = gi->storage_offset + t * gi->strides[gi->ndim - 1] + (gi->ndim == 2 ? i * gi->strides[0] : 0);
        ct_elem_st(gi, off, v);
    }
    return ct_ret(rets, 0, gi);
}

/* _to_copy(Tensor self, *, dtype, layout, device, pin_memory, non_blocking, memory_format):
 * keeps a dense tensor's strides (empty_strided), then copy_ */
int ct_k__to_copy(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_tensor *self = ARG_T(0);
    ct_dtype dt = ct_arg_dtype(&args[1], self->dtype);
    int64_t mf = args[6].tag == CT_TAG_INT ? args[6].u.i : CT_PRESERVE_FORMAT;
    ct_tensor *r;
    if (mf == CT_PRESERVE_FORMAT && ct_is_non_overlapping_and_dense(self))
        r = ct_empty_strided(self->sizes, self->ndim, self->strides, self->ndim, dt);
    else
        r = ct_empty(self->sizes, self->ndim, dt, mf == CT_PRESERVE_FORMAT ? CT_CONTIGUOUS_FORMAT : (ct_memory_format)mf);
    if (!r) return -1;
    if (ct_copy_(r, self, false) != 0) {
        ct_tensor_release(r);
        return -1;
    }
    return ct_ret(rets, 0, r);
}
