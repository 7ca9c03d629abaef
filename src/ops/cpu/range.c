/* arange (RangeFactories.cpp, RangeFactoriesKernel.cpp): arange(end), arange(start, end) and
 * arange(start, end, step) are CompositeExplicitAutograd; like PyTorch's, the first two call the
 * third through the dispatcher, which computes the length in double and fills
 * start + step * i in the accumulate type. */
#include <math.h>
#include <stdint.h>

#include "ops/kernel_util.h"

static ct_tensor *arange3(ct_scalar start, ct_scalar end, ct_scalar step, const ct_value *dtype) {
    ct_dtype dt = (ct_dtype)(dtype->tag == CT_TAG_INT ? dtype->u.i : CT_DTYPE_UNDEFINED);
    return ct_arange_start_step(start, end, step, dt);
}

/* arange(Scalar end, *, dtype, layout, device, pin_memory) */
int ct_k_arange(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, arange3(ct_int(0), args[0], ct_int(1), &args[1]));
}

/* arange.start(Scalar start, Scalar end, *, dtype, layout, device, pin_memory) */
int ct_k_arange_start(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, arange3(args[0], args[1], ct_int(1), &args[2]));
}

static bool integral(ct_scalar s) { return s.tag == CT_TAG_INT || s.tag == CT_TAG_BOOL; }

/* arange.start_step(Scalar start, Scalar end, Scalar step=1, *, dtype, layout, device, pin_memory) */
int ct_k_arange_start_step(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    ct_scalar start = args[0], end = args[1], step = args[2];
    /* no dtype and integral bounds: int64; otherwise the default dtype */
    ct_dtype dt;
    if (args[3].tag == CT_TAG_INT) dt = (ct_dtype)args[3].u.i;
    else dt = integral(start) && integral(end) && integral(step) ? CT_INT64 : ct_default_dtype();
    if (dt == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"arange_cpu\" not implemented for 'Bool'");
    double xstart = ct_scalar_to_double(start), xend = ct_scalar_to_double(end), xstep = ct_scalar_to_double(step);
    int64_t size;
    if (ct_dtype_is_integral(dt, false)) {
        int64_t s = integral(start) ? (start.tag == CT_TAG_BOOL ? start.u.b : start.u.i) : ct_double_to_int64(xstart);
        int64_t e = integral(end) ? (end.tag == CT_TAG_BOOL ? end.u.b : end.u.i) : ct_double_to_int64(xend);
        int64_t st = integral(step) ? (step.tag == CT_TAG_BOOL ? step.u.b : step.u.i) : ct_double_to_int64(xstep);
        if (st == 0) return ct_error_set(CT_ERR_RUNTIME, "step must be nonzero");
        if (!((st > 0 && e >= s) || (st < 0 && e <= s)))
            return ct_error_set(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
        int64_t sgn = (st > 0) - (st < 0);
        /* in 128 bits: end - start + step overflows int64 for bounds near its limits */
        __int128 n = ((__int128)e - s + st - sgn) / st;
        if (n < 0 || n > INT64_MAX) return ct_error_set(CT_ERR_RUNTIME, "invalid size, possible overflow?");
        size = (int64_t)n;
        ct_tensor *out = ct_tensor_alloc(&size, 1, dt, false);
        if (!out) return -1;
        char *o = ct_tensor_data_ptr(out);
        const size_t es = ct_dtype_size(dt);
        /* start + step * i lies between the bounds, but step * i alone may not fit: wrap it (and
         * a narrower dtype keeps its low bits, as the cast from int64 does) */
        for (int64_t i = 0; i < size; i++)
            ct_elem_store_int64(o + (size_t)i * es, dt, (int64_t)((uint64_t)s + (uint64_t)st * (uint64_t)i));
        return ct_ret(rets, 0, out);
    }
    if (!(xstep > 0 || xstep < 0)) return ct_error_set(CT_ERR_RUNTIME, "step must be nonzero");
    if (!isfinite(xstart) || !isfinite(xend)) /* the values as a C++ stream prints a double */
        return ct_error_set(CT_ERR_RUNTIME, "unsupported range: %g -> %g", xstart, xend);
    if (!((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart)))
        return ct_error_set(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
    double size_d = ceil((xend - xstart) / xstep);
    if (!(size_d >= 0 && size_d < 9223372036854775808.0)) /* 2^63 itself does not fit */
        return ct_error_set(CT_ERR_RUNTIME, "invalid size, possible overflow?");
    size = (int64_t)size_d;
    ct_tensor *out = ct_tensor_alloc(&size, 1, dt, false);
    if (!out) return -1;
    /* start + step * i in the accumulate type (double for every floating dtype on the CPU) */
    for (int64_t i = 0; i < size; i++) ct_store_from_double(ct_tensor_elem_ptr(out, i), dt, xstart + xstep * (double)i);
    return ct_ret(rets, 0, out);
}
