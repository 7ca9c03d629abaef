/* linspace, logspace, eye and eye.m (RangeFactories.cpp, cpu/RangeFactoriesKernel.cpp,
 * TensorFactories.cpp), and new_zeros, new_ones, new_full and new_empty (self's options).
 *
 * linspace fills its values as PyTorch's CPU kernel does, so float32 and float64 results are its
 * bits: step = (end - start) / (steps - 1) in the result's type (double for the integers), the
 * first half as start + step * i and the second half as end - step * (steps - i - 1), each a fused
 * multiply-add as PyTorch's AVX2/AVX512 build computes it (recorded: tests/golden/torch-2.6/sort_ops.json).
 * logspace takes base to the power of those exponents, element by element. */
#include <math.h>
#include <string.h>

#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

static double round_to(ct_dtype dt, double v) {
    char tmp[16] = {0};
    ct_elem_store(tmp, dt, v);
    return ct_elem_load(tmp, dt);
}

/* PyTorch's AVX2 and AVX512 kernels are compiled with floating contraction: start + step * i and
 * end - step * j are each one fused multiply-add there */
static bool fused(void) { return ct_cpu_capability_get() != CT_CPU_DEFAULT; }

static float mad_f(float a, float b, float c, bool f) { return f ? fmaf(a, b, c) : a * b + c; }
static double mad_d(double a, double b, double c, bool f) { return f ? fma(a, b, c) : a * b + c; }

/* a float32 result */
static void linspace_f32(float *y, int64_t steps, float start, float end) {
    const float step = (end - start) / (float)(steps - 1);
    const int64_t half = steps / 2;
    const bool f = fused();
#define AT(i_) ((i_) < half ? mad_f(step, (float)(i_), start, f) : mad_f(-step, (float)(steps - (i_) - 1), end, f))
    for (int64_t i = 0; i < steps; i++) y[i] = AT(i);
#undef AT
}

static void linspace_f64(double *y, int64_t steps, double start, double end) {
    const double step = (end - start) / (double)(steps - 1);
    const int64_t half = steps / 2;
    const bool f = fused();
#define AT(i_) ((i_) < half ? mad_d(step, (double)(i_), start, f) : mad_d(-step, (double)(steps - (i_) - 1), end, f))
    for (int64_t i = 0; i < steps; i++) y[i] = AT(i);
#undef AT
}

/* the other dtypes: the 16-bit floats with each operation rounded to the dtype, the integers with a
 * double step and each value truncated */
static void linspace_other(ct_tensor *t, int64_t steps, double start_in, double end_in) {
    const ct_dtype dt = t->dtype;
    const size_t es = ct_dtype_size(dt);
    char *y = ct_tensor_data_ptr(t);
    const bool integral = ct_dtype_is_integral(dt, false);
    const double start = round_to(dt, start_in), end = round_to(dt, end_in);
    const double step = integral ? (end - start) / (double)(steps - 1) : round_to(dt, (end - start) / (double)(steps - 1));
    const int64_t half = steps / 2;
#define R(v) (integral ? (v) : round_to(dt, (v)))
    const bool f = integral && fused();
#define AT(i_) ((i_) < half ? R(mad_d(R(step), (double)(i_), start, f)) : R(mad_d(-step, (double)(steps - (i_) - 1), end, f)))
    for (int64_t i = 0; i < steps; i++) ct_elem_store(y + (size_t)i * es, dt, AT(i));
#undef AT
#undef R
}

static ct_tensor *range_result(const ct_op *op, const ct_value *args, int64_t steps, const ct_value *dtype_arg, const char *name) {
    if (ct_check_options(op, args) != 0) return NULL;
    if (steps < 0) {
        ct_error_set(CT_ERR_RUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    ct_dtype dt = ct_arg_dtype(dtype_arg, ct_default_dtype());
    if (dt == CT_BOOL) {
        ct_error_set(CT_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Bool'", name);
        return NULL;
    }
    return ct_tensor_alloc(&steps, 1, dt, false);
}

static void fill_linspace(ct_tensor *t, int64_t steps, double start, double end) {
    if (steps == 0) return;
    if (steps == 1) {
        ct_elem_store(ct_tensor_data_ptr(t), t->dtype, start);
        return;
    }
    if (t->dtype == CT_FLOAT32) linspace_f32(ct_tensor_data_ptr(t), steps, (float)start, (float)end);
    else if (t->dtype == CT_FLOAT64) linspace_f64(ct_tensor_data_ptr(t), steps, start, end);
    else linspace_other(t, steps, start, end);
}

/* linspace(Scalar start, Scalar end, int steps, *, dtype, layout, device, pin_memory) */
int ct_k_linspace(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    const int64_t steps = ARG_I(2);
    ct_tensor *t = range_result(op, args, steps, &args[3], "linspace");
    if (!t) return -1;
    fill_linspace(t, steps, ct_scalar_to_double(args[0]), ct_scalar_to_double(args[1]));
    return ct_ret(rets, 0, t);
}

/* logspace(Scalar start, Scalar end, int steps, float base=10., *, dtype, layout, device, pin_memory) */
int ct_k_logspace(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    const int64_t steps = ARG_I(2);
    ct_tensor *t = range_result(op, args, steps, &args[4], "logspace");
    if (!t) return -1;
    const ct_dtype dt = t->dtype;
    const double base = args[3].u.d;
    const size_t es = ct_dtype_size(dt);
    char *y = ct_tensor_data_ptr(t);
    if (steps == 1) {
        ct_elem_store(y, dt, pow(base, ct_scalar_to_double(args[0])));
    } else if (steps > 1) {
        const int64_t half = steps / 2;
        if (dt == CT_FLOAT32) {
            const float s = (float)ct_scalar_to_double(args[0]), e = (float)ct_scalar_to_double(args[1]), b = (float)base;
            const float step = (e - s) / (float)(steps - 1);
            float *f = (float *)y;
            for (int64_t i = 0; i < steps; i++) f[i] = powf(b, i < half ? s + step * (float)i : e - step * (float)(steps - i - 1));
        } else {
            const bool integral = ct_dtype_is_integral(dt, false);
            const double s = round_to(dt, ct_scalar_to_double(args[0])), e = round_to(dt, ct_scalar_to_double(args[1]));
            const double step = (e - s) / (double)(steps - 1);
            for (int64_t i = 0; i < steps; i++) {
                double x = i < half ? s + step * (double)i : e - step * (double)(steps - i - 1);
                ct_elem_store(y + (size_t)i * es, dt, integral || dt == CT_FLOAT64 ? pow(base, x) : (double)powf((float)base, (float)x));
            }
        }
    }
    return ct_ret(rets, 0, t);
}

static int eye_nm(const ct_op *op, const ct_value *args, int64_t n, int64_t m, const ct_value *dtype_arg, ct_value *rets) {
    if (ct_check_options(op, args) != 0) return -1;
    if (n < 0) return ct_error_set(CT_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)n);
    if (m < 0) return ct_error_set(CT_ERR_RUNTIME, "m must be greater or equal to 0, got %lld", (long long)m);
    int64_t sizes[2] = {n, m};
    ct_tensor *t = ct_tensor_alloc(sizes, 2, ct_arg_dtype(dtype_arg, ct_default_dtype()), true);
    if (!t) return -1;
    char *y = ct_tensor_data_ptr(t);
    const size_t es = ct_dtype_size(t->dtype);
    for (int64_t i = 0; i < n && i < m; i++) ct_elem_store(y + (size_t)(i * m + i) * es, t->dtype, 1.0);
    return ct_ret(rets, 0, t);
}

/* eye(SymInt n, *, dtype, layout, device, pin_memory) */
int ct_k_eye(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return eye_nm(op, args, ARG_I(0), ARG_I(0), &args[1], rets);
}

/* eye.m(SymInt n, SymInt m, *, dtype, layout, device, pin_memory) */
int ct_k_eye_m(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return eye_nm(op, args, ARG_I(0), ARG_I(1), &args[2], rets);
}

/* new_zeros / new_ones / new_empty(Tensor self, SymInt[] size, *, dtype, ...) and
 * new_full(Tensor self, SymInt[] size, Scalar fill_value, *, dtype, ...): self's dtype unless given */
int ct_k_new_zeros(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, ct_zeros(args[1].u.list.data, args[1].u.list.len, ct_arg_dtype(&args[2], ARG_T(0)->dtype)));
}

int ct_k_new_ones(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, ct_ones(args[1].u.list.data, args[1].u.list.len, ct_arg_dtype(&args[2], ARG_T(0)->dtype)));
}

int ct_k_new_empty(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, ct_empty(args[1].u.list.data, args[1].u.list.len, ct_arg_dtype(&args[2], ARG_T(0)->dtype), CT_MEMORY_FORMAT_NONE));
}

int ct_k_new_full(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (ct_check_options(op, args) != 0) return -1;
    return ct_ret(rets, 0, ct_full(args[1].u.list.data, args[1].u.list.len, args[2], ct_arg_dtype(&args[3], ARG_T(0)->dtype)));
}

/* the Tensor overloads of linspace and logspace: 0-d tensors' values as the Scalar bounds, then the
 * Scalar overload through the dispatcher. which: 1 start is a tensor, 2 end is, 3 both */
static int tensor_bounds(const char *name, ct_value *args, int which, ct_scalar *start, ct_scalar *end) {
    const ct_tensor *s = which & 1 ? ARG_T(0) : NULL, *e = which & 2 ? ARG_T(1) : NULL;
    if ((s && s->ndim != 0) || (e && e->ndim != 0)) {
        if (s && e)
            return ct_error_set(CT_ERR_RUNTIME, "%s only supports 0-dimensional start and end tensors, but got start with %d dimension(s) and end with %d dimension(s).",
                                name, s->ndim, e->ndim);
        return ct_error_set(CT_ERR_RUNTIME, "%s only supports 0-dimensional start and end tensors, but got %s with %d dimension(s).", name,
                            s ? "start" : "end", s ? s->ndim : e->ndim);
    }
    *start = args[0];
    *end = args[1];
    if (s && ct_item(ARG_T(0), start) != 0) return -1;
    if (e && ct_item(ARG_T(1), end) != 0) return -1;
    return 0;
}

static int linspace_t(ct_value *args, ct_value *rets, int which) {
    ct_scalar s, e;
    if (tensor_bounds("linspace", args, which, &s, &e) != 0) return -1;
    ct_dtype dt = (ct_dtype)(args[3].tag == CT_TAG_INT ? args[3].u.i : CT_DTYPE_UNDEFINED);
    return ct_ret(rets, 0, ct_linspace(s, e, ARG_I(2), dt));
}

static int logspace_t(ct_value *args, ct_value *rets, int which) {
    ct_scalar s, e;
    if (tensor_bounds("logspace", args, which, &s, &e) != 0) return -1;
    ct_dtype dt = (ct_dtype)(args[4].tag == CT_TAG_INT ? args[4].u.i : CT_DTYPE_UNDEFINED);
    return ct_ret(rets, 0, ct_logspace(s, e, ARG_I(2), args[3].u.d, dt));
}

#define CT_RANGE_T(fn_, impl_, which_)                                                  \
    int fn_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {            \
        (void)ks;                                                                       \
        if (ct_check_options(op, args) != 0) return -1;                                 \
        return impl_(args, rets, which_);                                               \
    }
CT_RANGE_T(ct_k_linspace_Tensor_Tensor, linspace_t, 3)
CT_RANGE_T(ct_k_linspace_Tensor_Scalar, linspace_t, 1)
CT_RANGE_T(ct_k_linspace_Scalar_Tensor, linspace_t, 2)
CT_RANGE_T(ct_k_logspace_Tensor_Tensor, logspace_t, 3)
CT_RANGE_T(ct_k_logspace_Tensor_Scalar, logspace_t, 1)
CT_RANGE_T(ct_k_logspace_Scalar_Tensor, logspace_t, 2)
