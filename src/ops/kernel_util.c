/* Helpers shared by kernels. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
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

