/* Type promotion (c10/core/ScalarType.h promoteTypes, ATen's ResultTypeState and canCast):
 * the dtype an operator computes in and whether its result may be cast to an out tensor's. */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tls.h"
#include "dispatch/op_impl.h"
#include "ops/kernel_util.h"

ct_dtype ct_scalar_dtype(ct_scalar s) {
    return s.tag == CT_TAG_DOUBLE ? CT_FLOAT64 : s.tag == CT_TAG_BOOL ? CT_BOOL : CT_INT64;
}

/* c10 ResultTypeState: dimensioned tensors outrank zero-dim tensors, which outrank wrapped
 * numbers, within the same category (bool < integral < floating: ct_dtype_kind). */

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

ct_dtype ct_result_type(struct ct_tensor *const *ts, int64_t n) {
    if (n <= 0 || !ts) return CT_DTYPE_UNDEFINED;
    for (int64_t i = 0; i < n; i++)
        if (!ts[i]) return CT_DTYPE_UNDEFINED;
    return ct_result_type_n(ts, n);
}

ct_dtype ct_result_type_scalar(const ct_tensor *a, ct_scalar sc) {
    rt_state s = {CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED, CT_DTYPE_UNDEFINED};
    rt_add_tensor(&s, a);
    /* a wrapped number promotes with the default dtype for floats */
    ct_dtype w = ct_scalar_dtype(sc);
    if (w == CT_FLOAT64) w = ct_default_dtype();
    s.wrapped = w;
    return rt_result(&s);
}

