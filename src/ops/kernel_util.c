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
        return ct_error_set(CT_ERR_TYPE, "%s: ctorch has no dtype with ScalarType value %d (it supports float32, float64, float16, bfloat16, int64 and bool)",
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
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "%s: ctorch supports only the contiguous and preserve memory formats",
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

ct_dtype ct_scalar_dtype(ct_scalar s) {
    return s.tag == CT_TAG_DOUBLE ? CT_FLOAT64 : s.tag == CT_TAG_BOOL ? CT_BOOL : CT_INT64;
}

/* c10 ResultTypeState: dimensioned tensors outrank zero-dim tensors, which outrank wrapped
 * numbers, within the same category (bool < integral < floating). */
static int category(ct_dtype d) { return d == CT_BOOL ? 0 : d == CT_INT64 ? 1 : 2; }

static ct_dtype promote_skip_undef(ct_dtype a, ct_dtype b) {
    if ((int)a == CT_DTYPE_UNDEFINED) return b;
    if ((int)b == CT_DTYPE_UNDEFINED) return a;
    return ct_dtype_promote(a, b);
}

static ct_dtype combine_categories(ct_dtype higher, ct_dtype lower) {
    if ((int)higher != CT_DTYPE_UNDEFINED && ct_dtype_is_floating(higher)) return higher;
    if (higher == CT_BOOL || ((int)lower != CT_DTYPE_UNDEFINED && ct_dtype_is_floating(lower)))
        return promote_skip_undef(higher, lower);
    if ((int)higher != CT_DTYPE_UNDEFINED) return higher;
    return lower;
}

typedef struct rt_state {
    ct_dtype dim, zero, wrapped;
} rt_state;

static void rt_add_tensor(rt_state *s, const ct_tensor *t) {
    if (t->wrapped_number) {
        ct_dtype w = t->dtype == CT_FLOAT64 ? ct_default_dtype() : t->dtype;
        s->wrapped = promote_skip_undef(s->wrapped, w);
    } else if (t->ndim > 0) s->dim = promote_skip_undef(s->dim, t->dtype);
    else s->zero = promote_skip_undef(s->zero, t->dtype);
}

static ct_dtype rt_result(const rt_state *s) {
    return combine_categories(s->dim, combine_categories(s->zero, s->wrapped));
}

ct_dtype ct_result_type2(const ct_tensor *a, const ct_tensor *b) {
    rt_state s = {CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED};
    rt_add_tensor(&s, a);
    rt_add_tensor(&s, b);
    return rt_result(&s);
}

ct_dtype ct_result_type_n(ct_tensor *const *ts, int64_t n) {
    rt_state s = {CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED};
    for (int64_t i = 0; i < n; i++) rt_add_tensor(&s, ts[i]);
    return rt_result(&s);
}

ct_dtype ct_result_type_scalar(const ct_tensor *a, ct_scalar sc) {
    rt_state s = {CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED};
    rt_add_tensor(&s, a);
    /* a wrapped number promotes with the default dtype for floats */
    ct_dtype w = ct_scalar_dtype(sc);
    if (w == CT_FLOAT64) w = ct_default_dtype();
    s.wrapped = w;
    (void)category;
    return rt_result(&s);
}

bool ct_can_cast(ct_dtype from, ct_dtype to) {
    /* c10::canCast: no floating -> integral, no non-bool -> bool */
    if (ct_dtype_is_floating(from) && !ct_dtype_is_floating(to)) return false;
    if (from != CT_BOOL && to == CT_BOOL) return false;
    return true;
}

int ct_broadcast_shapes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout) {
    int n = na > nb ? na : nb;
    for (int i = n - 1; i >= 0; i--) {
        int ia = i - (n - na), ib = i - (n - nb);
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, i);
        out[i] = sa == 1 ? sb : sa;
    }
    *nout = n;
    return 0;
}

void ct_broadcast_strides(const ct_tensor *t, const int64_t *sizes, int ndim, int64_t *strides) {
    int off = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int it = i - off;
        if (it < 0 || (t->sizes[it] == 1 && sizes[i] != 1))
            strides[i] = 0;
        else
            strides[i] = t->strides[it];
    }
}

void ct_for_each(const int64_t *sizes, int ndim, int k, char **bases, int64_t strides[][CT_MAX_DIMS],
                 const size_t *elem_sizes, ct_elem_fn f, void *ctx) {
    int64_t total = 1;
    for (int i = 0; i < ndim; i++) total *= sizes[i];
    if (total == 0) return;
    int64_t idx[CT_MAX_DIMS] = {0};
    char *ptrs[4];
    for (int j = 0; j < k; j++) ptrs[j] = bases[j];
    for (int64_t n = 0; n < total; n++) {
        f(ptrs, ctx);
        /* advance the odometer from the innermost dimension */
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < sizes[d]) {
                for (int j = 0; j < k; j++) ptrs[j] += strides[j][d] * (int64_t)elem_sizes[j];
                break;
            }
            for (int j = 0; j < k; j++) ptrs[j] -= strides[j][d] * (int64_t)elem_sizes[j] * (sizes[d] - 1);
            idx[d] = 0;
        }
    }
}

void ct_format_shape(const int64_t *sizes, int ndim, char *buf, size_t size) {
    size_t len = 0;
    len += (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < ndim && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    if (len < size) snprintf(buf + len, size - len, "]");
}

double *ct_to_double_buffer(const ct_tensor *t) {
    double *buf = ct_malloc((size_t)(t->numel > 0 ? t->numel : 1) * sizeof(double));
    if (!buf) return NULL;
    for (int64_t i = 0; i < t->numel; i++) buf[i] = ct_load_as_double(ct_tensor_elem_ptr(t, i), t->dtype);
    return buf;
}

/* TensorImpl::is_non_overlapping_and_dense: the strides, ordered, are those of a contiguous
 * tensor with permuted dimensions (size-1 dimensions ignored). */
bool ct_is_non_overlapping_and_dense(const ct_tensor *t) {
    int perm[CT_MAX_DIMS];
    int n = t->ndim;
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = 1; i < n; i++) {
        int p = perm[i], j = i - 1;
        while (j >= 0 && t->strides[perm[j]] > t->strides[p]) {
            perm[j + 1] = perm[j];
            j--;
        }
        perm[j + 1] = p;
    }
    int64_t expected = 1;
    for (int i = 0; i < n; i++) {
        int d = perm[i];
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

/* c10::checked_convert<To, From> / overflows<To, From> (c10/util/TypeCast.h, Half.h): the
 * range check Scalar::to<T>() makes. A bool source and a bool target never overflow;
 * integers are compared with the target's range; doubles too, except that infinities pass
 * for floating targets and NaN fails only for int64, which has no NaN. */
int ct_scalar_check_convert(ct_scalar s, ct_dtype dtype) {
    if (s.tag == CT_TAG_BOOL || dtype == CT_BOOL || dtype == CT_FLOAT64) return 0;
    const char *name;
    double lo, hi;
    switch (dtype) {
    case CT_FLOAT32: name = "float"; hi = 3.4028234663852886e38; break;
    case CT_FLOAT16: name = "at::Half"; hi = 65504.0; break;
    case CT_BFLOAT16: name = "at::BFloat16"; hi = 3.3895313892515355e38; break;
    case CT_INT64: name = "int64_t"; hi = 9223372036854775807.0; break;
    default: return 0;
    }
    lo = -hi;
    bool overflow;
    if (s.tag == CT_TAG_INT) {
        /* an int64 fits int64 and float32's range; only half can overflow */
        overflow = dtype == CT_FLOAT16 && ((double)s.u.i > hi || (double)s.u.i < lo);
    } else {
        double v = s.u.d;
        if (dtype != CT_INT64 && isinf(v)) overflow = false;
        else if (isnan(v)) overflow = dtype == CT_INT64;
        else overflow = v < lo || v > hi;
    }
    if (overflow) return ct_error_set(CT_ERR_RUNTIME, "value cannot be converted to type %s without overflow", name);
    return 0;
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

int ct_assert_no_internal_overlap(const ct_tensor *t) {
    if (ct_is_non_overlapping_and_dense(t)) return 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->strides[i] == 0 && t->sizes[i] > 1)
            return ct_error_set(CT_ERR_RUNTIME,
                                "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

/* A new dense tensor with the given (non-overlapping and dense) strides, allocated directly
 * as set_output_raw_strided's empty_strided_cpu is: no dispatched call. */
static ct_tensor *alloc_dense_strided(const int64_t *sizes, const int64_t *strides, int ndim, ct_dtype dtype) {
    ct_tensor *t = ct_tensor_alloc(sizes, ndim, dtype, false);
    if (t && ndim > 0) memcpy(t->strides, strides, sizeof(int64_t) * (size_t)ndim);
    return t;
}

static bool same_sizes(const ct_tensor *t, const int64_t *sizes, int ndim) {
    if (t->ndim != ndim) return false;
    for (int i = 0; i < ndim; i++)
        if (t->sizes[i] != sizes[i]) return false;
    return true;
}

/* Note [TensorIterator output layout]
 *   TensorIteratorBase::build allocates an undefined output in one of three ways:
 *   - fast_set_up, when every input has the output's shape: contiguous if all are
 *     contiguous; the strides of the last input if all are non-overlapping and dense with
 *     equal strides;
 *   - otherwise reorder_dimensions sorts the dimensions, fastest first, by the inputs'
 *     strides over the broadcast shape (broadcast dimensions, stride 0, abstain; ties go to
 *     the smaller dimension first), starting from the reversed order, and
 *     allocate_or_resize_outputs gives the output contiguous strides in that order
 *     (plain contiguous when the order stayed reversed). */
ct_tensor *ct_iter_alloc_output(const int64_t *sizes, int ndim, ct_dtype dtype, const ct_tensor *const *ins, int nin) {
    bool all_same_shape = nin > 0, all_contig = true, all_dense = true;
    for (int k = 0; k < nin; k++) {
        all_same_shape = all_same_shape && same_sizes(ins[k], sizes, ndim);
        all_contig = all_contig && ct_tensor_is_contiguous(ins[k]);
        all_dense = all_dense && ct_is_non_overlapping_and_dense(ins[k]);
    }
    if (all_same_shape) {
        /* compute_fast_setup_type */
        if (all_contig) return ct_tensor_alloc(sizes, ndim, dtype, false);
        bool same_strides = all_dense;
        for (int k = 1; same_strides && k < nin; k++)
            same_strides = memcmp(ins[k]->strides, ins[0]->strides, sizeof(int64_t) * (size_t)ndim) == 0;
        if (same_strides) return alloc_dense_strided(sizes, ins[nin - 1]->strides, ndim, dtype);
    }
    if (ndim <= 1) return ct_tensor_alloc(sizes, ndim, dtype, false);
    int64_t strides[CT_ITER_MAX_INPUTS][CT_MAX_DIMS];
    if (nin > CT_ITER_MAX_INPUTS) {
        ct_error_set(CT_ERR_RUNTIME, "ct_iter_alloc_output: at most %d inputs", CT_ITER_MAX_INPUTS);
        return NULL;
    }
    for (int k = 0; k < nin; k++) ct_broadcast_strides(ins[k], sizes, ndim, strides[k]);
    /* perm[0] is the fastest dimension; starts as n-1, ..., 0 */
    int perm[CT_MAX_DIMS];
    for (int j = 0; j < ndim; j++) perm[j] = ndim - 1 - j;
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            /* should_swap(perm[dim0], perm[dim1]) */
            int d0 = perm[dim0], d1 = perm[dim1], cmp = 0;
            for (int k = 0; k < nin && cmp == 0; k++) {
                int64_t s0 = strides[k][d0], s1 = strides[k][d1];
                if (s0 == 0 || s1 == 0) continue;
                if (s0 < s1) cmp = -1;
                else if (s0 > s1) cmp = 1;
                else if (sizes[d0] > sizes[d1]) cmp = 1;
            }
            if (cmp > 0) {
                int t = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = t;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    bool inverted = true;
    for (int j = 0; j < ndim; j++) inverted = inverted && perm[j] == ndim - 1 - j;
    if (inverted) return ct_tensor_alloc(sizes, ndim, dtype, false);
    /* compatible_stride in the permuted order, then invert_perm */
    int64_t out_strides[CT_MAX_DIMS], next = 1;
    for (int j = 0; j < ndim; j++) {
        out_strides[perm[j]] = next;
        next *= sizes[perm[j]];
    }
    return alloc_dense_strided(sizes, out_strides, ndim, dtype);
}

const char *ct_tensor_type_string(ct_dtype dtype) {
    switch (dtype) {
    case CT_FLOAT32: return "torch.FloatTensor";
    case CT_FLOAT64: return "torch.DoubleTensor";
    case CT_FLOAT16: return "torch.HalfTensor";
    case CT_INT64: return "torch.LongTensor";
    case CT_BOOL: return "CPUBoolType";
    case CT_BFLOAT16: return "CPUBFloat16Type";
    default: return "UndefinedType";
    }
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
