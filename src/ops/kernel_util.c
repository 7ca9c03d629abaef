/* Helpers shared by kernels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tls.h"
#include "dispatch/op_impl.h"
#include "ops/kernel_util.h"

int ct_wrap_dim(int64_t dim, int64_t ndim, int64_t *out) {
    int64_t n = ndim > 0 ? ndim : 1; /* a 0-dim tensor accepts dims -1 and 0 */
    int64_t lo = -n, hi = n - 1;
    if (dim < lo || dim > hi)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                            (long long)lo, (long long)hi, (long long)dim);
    *out = dim < 0 ? dim + n : dim;
    return 0;
}

ct_dtype ct_arg_dtype(const ct_value *v, ct_dtype dflt) {
    return v->tag == CT_TAG_INT ? (ct_dtype)v->u.i : dflt;
}

int ct_check_dtype_arg(ct_dtype d, const char *op_name) {
    if (!ct_dtype_valid((int)d))
        return ct_error_set(CT_ERR_TYPE, "%s: ctorch has no dtype with ScalarType value %d (it supports float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8 and bool)",
                            op_name, (int)d);
    return 0;
}

/* c10::MemoryFormat: Contiguous 0, Preserve 1, ChannelsLast 2, ChannelsLast3d 3. The channels-
 * last formats need a 4-D (5-D) tensor, as empty_cpu's get_channels_last_strides_2d/3d check,
 * and ctorch does not lay tensors out that way at all. The rank is the first argument's: a
 * tensor (empty_like, clone) or a size list (empty). */
static int check_memory_format(const ct_op *op, const ct_value *args, int64_t mf) {
    if (mf == CT_CONTIGUOUS_FORMAT || mf == CT_PRESERVE_FORMAT) return 0;
    if (mf == 2 || mf == 3) {
        int64_t rank = op->nargs > 0 && args[0].tag == CT_TAG_TENSOR    ? ct_tensor_ndim(args[0].u.t)
                       : op->nargs > 0 && args[0].tag == CT_TAG_INTLIST ? args[0].u.list.len
                                                                         : -1;
        if (mf == 2 && rank != 4) return ct_error_set(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
        if (mf == 3 && rank != 5) return ct_error_set(CT_ERR_RUNTIME, "required rank 5 tensor to use channels_last_3d format");
        return ct_error_set(CT_ERR_UNSUPPORTED, "%s: ctorch supports only the contiguous and preserve memory formats",
                            op->name);
    }
    return ct_error_set(CT_ERR_RUNTIME, "%s: %lld is not a memory format (0 to 3)", op->name, (long long)mf);
}

int ct_check_options(const ct_op *op, const ct_value *args) {
    for (int i = 0; i < op->nargs; i++) {
        const ct_value *v = &args[i];
        if (v->tag == CT_TAG_NONE) continue;
        switch (op->args[i].type) {
        case CT_TY_LAYOUT:
            if (v->u.i != 0) return ct_error_set(CT_ERR_RUNTIME, "%s: ctorch supports only the strided layout", op->name);
            break;
        case CT_TY_DEVICE:
            if (v->u.i != 0) return ct_error_set(CT_ERR_RUNTIME, "%s: ctorch supports only the cpu device", op->name);
            break;
        case CT_TY_SCALARTYPE:
            if (ct_check_dtype_arg((ct_dtype)v->u.i, op->name) != 0) return -1;
            break;
        case CT_TY_MEMFMT:
            if (check_memory_format(op, args, v->u.i) != 0) return -1;
            break;
        case CT_TY_BOOL:
            /* at::detail::empty_cpu asks the accelerator hooks for a pinned-memory allocator */
            if (v->tag == CT_TAG_BOOL && v->u.b && strcmp(op->args[i].name, "pin_memory") == 0)
                return ct_error_set(CT_ERR_RUNTIME, "Need to provide pin_memory allocator to use pin memory.");
            break;
        default: break;
        }
    }
    return 0;
}

bool ct_scalar_is_integral(ct_scalar s) { return s.tag == CT_TAG_INT || s.tag == CT_TAG_BOOL; }

double *ct_to_double_buffer(const ct_tensor *t) {
    double *buf = ct_malloc((size_t)(t->numel > 0 ? t->numel : 1) * sizeof(double));
    if (!buf) return NULL;
    for (int64_t i = 0; i < t->numel; i++) buf[i] = ct_load_as_double(ct_tensor_elem_ptr(t, i), t->dtype);
    return buf;
}

float *ct_to_float_buffer(const ct_tensor *t) {
    float *buf = ct_malloc((size_t)(t->numel > 0 ? t->numel : 1) * sizeof(float));
    if (!buf) return NULL;
    if (t->dtype == CT_FLOAT32 && t->numel > 0 && ct_is_contiguous_nn(t)) { /* the same values, copied whole */
        memcpy(buf, (const float *)t->storage->data + t->storage_offset, (size_t)t->numel * sizeof(float));
        return buf;
    }
    for (int64_t i = 0; i < t->numel; i++) buf[i] = (float)ct_load_as_double(ct_tensor_elem_ptr(t, i), t->dtype);
    return buf;
}

const float *ct_float_elements(const ct_tensor *t, float **owned) {
    *owned = NULL;
    if (t->dtype == CT_FLOAT32 && ct_is_contiguous_nn(t)) return (const float *)t->storage->data + t->storage_offset;
    *owned = ct_to_float_buffer(t);
    return *owned;
}

/* c10::checked_convert<scalar_t> of a Scalar (ct_dtype_check_value says what fits); a bool fits
 * every dtype. */
int ct_scalar_check_convert(ct_scalar s, ct_dtype dtype) {
    if (s.tag == CT_TAG_BOOL || dtype == CT_BOOL) return 0;
    return ct_dtype_check_value(dtype, s.tag == CT_TAG_INT ? (double)s.u.i : s.u.d, s.tag == CT_TAG_INT);
}

/* has_internal_overlap (MemoryOverlap.cpp): a non-overlapping and dense tensor has none; a
 * dimension of size > 1 with stride 0 has some; anything else is "too hard" and passes. */
int ct_check_output_shape(const ct_tensor *out, const int64_t *shape, int n) {
    bool same = n == out->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == out->sizes[i];
    if (same) return 0;
    char a[256], b[256];
    ct_format_shape(out->sizes, out->ndim, a, sizeof a);
    ct_format_shape(shape, n, b, sizeof b);
    return ct_error_set(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", a, b);
}

int ct_out_mark_resize(const ct_tensor *out, const int64_t *shape, int n, ct_tensor *const *ins, int nin) {
    bool same = n == out->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == out->sizes[i];
    if (same) return 0;
    for (int i = 0; i < nin; i++)
        if (ins[i] == out) return ct_check_output_shape(out, shape, n); /* is_read_write */
    return 1;
}

int ct_out_resize(ct_tensor *out, const int64_t *shape, int n, const ct_tensor *const *ins, int nin) {
    ct_tensor *fresh = ct_iter_alloc_output(shape, n, out->dtype, ins, nin);
    if (!fresh) return -1;
    int rc = ct_tensor_shallow_copy_from(out, fresh);
    ct_tensor_release(fresh);
    return rc;
}

int ct_out_from_result(ct_tensor *r, ct_tensor *out, ct_value *rets) {
    if (!r) return -1;
    int rc = 0;
    bool same = r->ndim == out->ndim;
    for (int i = 0; same && i < r->ndim; i++) same = r->sizes[i] == out->sizes[i];
    if (!same) rc = ct_out_resize(out, r->sizes, r->ndim, NULL, 0);
    if (rc == 0 && r->dtype != out->dtype)
        rc = ct_error_set(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead", ct_dtype_type_meta_name(r->dtype),
                          ct_dtype_type_meta_name(out->dtype));
    if (rc == 0) rc = ct_copy_(out, r, false);
    ct_tensor_release(r);
    return rc != 0 ? -1 : ct_ret_self(rets, out);
}

int ct_assert_no_internal_overlap(const ct_tensor *t) {
    if (ct_is_non_overlapping_and_dense(t)) return 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->strides[i] == 0 && t->sizes[i] > 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

bool ct_is_tensor_subclass_like(const ct_tensor *t) {
    /* c10::impl::dispatch_mode_enabled() */
    if (ct_tls_state.dispatch_modes > 0 && !ct_keyset_has(ct_tls_excluded(), CT_KEY_Python)) return true;
    const ct_keyset like = CT_FUNCTIONALITY_BIT(CT_KEY_FuncTorchGradWrapper) | CT_FUNCTIONALITY_BIT(CT_KEY_FuncTorchBatched) |
                           CT_FUNCTIONALITY_BIT(CT_KEY_Functionalize) | CT_FUNCTIONALITY_BIT(CT_KEY_Batched) |
                           CT_FUNCTIONALITY_BIT(CT_KEY_Sparse) | CT_FUNCTIONALITY_BIT(CT_KEY_SparseCsr) |
                           CT_FUNCTIONALITY_BIT(CT_KEY_Python) | CT_BACKEND_BIT(CT_BACKEND_Meta);
    return (t->keys & like) != 0;
}

int ct_softmax_backward_setup(ct_value *args, const char *name, int64_t *dim, ct_tensor **gi) {
    ct_tensor *g = args[0].u.t, *out = args[1].u.t;
    ct_dtype in_dt = (ct_dtype)args[3].u.i;
    *gi = NULL;
    if (ct_check_dtype_arg(in_dt, name) != 0) return -1;
    if (ct_wrap_dim(args[2].u.i, g->ndim, dim) != 0) return -1;
    bool same = g->ndim == out->ndim;
    for (int i = 0; same && i < g->ndim; i++) same = g->sizes[i] == out->sizes[i];
    if (!same && strcmp(name, "_softmax_backward_data") == 0) { /* softmax_backward's checkSameSize */
        char a[256], b[256];
        ct_format_shape(g->sizes, g->ndim, a, sizeof a);
        ct_format_shape(out->sizes, out->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but %s "
                            "does not equal %s (while checking arguments for softmax_backward)",
                            a, b);
    }
    /* log_softmax's backward has no such check in PyTorch; ctorch's loop needs the shapes equal */
    if (!same) return ct_error_set(CT_ERR_RUNTIME, "grad_output and output must have the same shape");
    *gi = ct_tensor_alloc(g->sizes, g->ndim, in_dt, false);
    return *gi ? 0 : -1;
}
