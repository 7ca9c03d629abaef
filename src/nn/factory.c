/* torch.tensor(data) and factories with tensor options (ctorch/factory.h).
 *
 * Note [torch.tensor's calls]
 *   PyTorch's torch.tensor (torch/csrc/utils/tensor_new.cpp: internal_new_from_data, then
 *   tensor_ctor) makes at::empty(sizes, dtype) with the Python keys excluded and below
 *   ADInplaceOrView, stores the Python data into it outside the dispatcher, calls
 *   tensor.to(dtype) (a call that returns the tensor itself), at::lift_fresh (below
 *   ADInplaceOrView: the one op a dispatch mode sees), and then detach_() and
 *   set_requires_grad on the result. The profiler sees all four ops. Function modes see the
 *   call as "tensor". ct_tensor_new does the same: the function modes are offered "tensor"
 *   (args: a tensor holding the data, standing in for the Python list, dtype,
 *   requires_grad), and the body makes those calls, copying the data where PyTorch stores it. */
#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/factory.h"
#include "ctorch/ops_generated.h"
#include "dispatch/op_impl.h"
#include "ops/builtin.h"
#include "ops/kernel_util.h"
#include "modes/function_impl.h"

/* AutogradMeta::set_requires_grad as a factory's requires_grad=True reaches it (after the op) */
static int set_leaf_requires_grad(ct_tensor *t) {
    if (!ct_dtype_is_floating(ct_tensor_dtype(t)))
        return ct_error_set(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
    return ct_tensor_set_requires_grad(t, true);
}

ct_tensor *ct_tensor_lift(const ct_tensor *data, bool requires_grad) {
    if (!data) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_lift: data is NULL");
        return NULL;
    }
    ct_dtype dt = ct_tensor_dtype(data);
    ct_key_guard below;
    ct_key_guard_exclude(&below, ct_autograd_dispatch_keyset_with_ADInplaceOrView() | ct_python_ks());
    ct_tensor *t = ct_empty(ct_tensor_sizes(data), ct_tensor_ndim(data), dt, CT_MEMORY_FORMAT_NONE);
    ct_tensor *same = t && ct_copy_into(t, data) == 0 ? ct_to_dtype(t, dt, false, false, CT_MEMORY_FORMAT_NONE) : NULL;
    ct_tensor_release(t);
    ct_key_guard_pop(&below);
    if (!same) return NULL;
    ct_key_guard lift;
    ct_key_guard_exclude(&lift, ct_autograd_dispatch_keyset_with_ADInplaceOrView());
    ct_tensor *r = ct_lift_fresh(same);
    ct_key_guard_pop(&lift);
    ct_tensor_release(same);
    if (r && (ct_detach_(r) != 0 || (requires_grad && set_leaf_requires_grad(r) != 0))) {
        ct_tensor_release(r);
        return NULL;
    }
    return r;
}

static int tensor_impl(ct_value *args, ct_value *rets) {
    /* a function mode's handler may hand on values of its own: the data must be a tensor, and
     * requires_grad a bool */
    if (args[2].tag != CT_TAG_BOOL)
        return ct_error_set(CT_ERR_TYPE, "tensor(): argument 'requires_grad' must be bool");
    if (args[0].tag != CT_TAG_TENSOR || !args[0].u.t)
        return ct_error_set(CT_ERR_TYPE, "tensor(): argument 'data' must be a tensor");
    ct_tensor *r = ct_tensor_lift(args[0].u.t, args[2].u.b);
    if (!r) return -1;
    rets[0] = ct_tensor_value(r);
    return 0;
}

static const ct_function tensor_fn = {"tensor", NULL, tensor_impl, 3, 1};

/* 0 (what {} leaves) without has_dtype, and CT_DTYPE_UNDEFINED, mean "the default" */
static ct_dtype opt_dtype(ct_tensor_options opts) {
    return (int)opts.dtype == 0 && !opts.has_dtype ? CT_DTYPE_UNDEFINED : opts.dtype;
}

static int resolve_dtype(ct_dtype given, ct_dtype dflt, ct_dtype *out) {
    if (given == CT_DTYPE_UNDEFINED) {
        *out = dflt;
        return 0;
    }
    if (!ct_dtype_valid((int)given)) return ct_error_set(CT_ERR_TYPE, "tensor(): invalid dtype %d", (int)given);
    *out = given;
    return 0;
}

static ct_tensor *lift(ct_tensor *raw, ct_dtype dt, bool requires_grad) {
    if (!raw) return NULL;
    ct_value args[3] = {ct_tensor_value(raw), ct_int(dt), ct_bool(requires_grad)};
    ct_value rets[1] = {ct_none()};
    int rc = ct_function_invoke(&tensor_fn, args, rets);
    ct_tensor_release(raw);
    return rc == 0 ? rets[0].u.t : NULL;
}

ct_tensor *ct_tensor_new(const double *data, const int64_t *sizes, int ndim, ct_tensor_options opts) {
    ct_dtype dt = CT_DTYPE_UNDEFINED;
    if (resolve_dtype(opt_dtype(opts), ct_default_dtype(), &dt) != 0) return NULL;
    return lift(ct_tensor_from_doubles(data, sizes, ndim, dt), dt, opts.requires_grad);
}

ct_tensor *ct_tensor_new_int64(const int64_t *data, const int64_t *sizes, int ndim, ct_tensor_options opts) {
    ct_dtype dt = CT_DTYPE_UNDEFINED;
    if (resolve_dtype(opt_dtype(opts), CT_INT64, &dt) != 0) return NULL;
    ct_tensor *raw = ct_tensor_from_data(data, sizes, ndim, CT_INT64);
    if (raw && dt != CT_INT64) {
        /* the values converted as Python's int -> the dtype (exact below 2^53), still undispatched */
        int64_t n = ct_tensor_numel(raw);
        double *vals = n > 0 ? ct_malloc((size_t)n * sizeof *vals) : NULL;
        ct_tensor *conv = NULL;
        if (n == 0 || vals) {
            for (int64_t i = 0; i < n; i++) vals[i] = (double)data[i];
            conv = ct_tensor_from_doubles(vals, sizes, ndim, dt);
        }
        ct_free(vals);
        ct_tensor_release(raw);
        raw = conv;
    }
    return lift(raw, dt, opts.requires_grad);
}

/* the factory's own op, then requires_grad set on the result as the Python binding does */
static ct_tensor *with_grad(ct_tensor *t, bool requires_grad) {
    if (t && requires_grad && set_leaf_requires_grad(t) != 0) {
        ct_tensor_release(t);
        return NULL;
    }
    return t;
}

ct_tensor *ct_zeros_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts) {
    return with_grad(ct_zeros(size, size_len, opt_dtype(opts)), opts.requires_grad);
}
ct_tensor *ct_ones_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts) {
    return with_grad(ct_ones(size, size_len, opt_dtype(opts)), opts.requires_grad);
}
ct_tensor *ct_empty_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts) {
    return with_grad(ct_empty(size, size_len, opt_dtype(opts), CT_MEMORY_FORMAT_NONE), opts.requires_grad);
}
ct_tensor *ct_full_opts(const int64_t *size, int64_t size_len, double fill_value, ct_tensor_options opts) {
    return with_grad(ct_full(size, size_len, ct_double(fill_value), opt_dtype(opts)), opts.requires_grad);
}
ct_tensor *ct_rand_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts) {
    return with_grad(ct_rand(size, size_len, opt_dtype(opts)), opts.requires_grad);
}
ct_tensor *ct_randn_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts) {
    return with_grad(ct_randn(size, size_len, opt_dtype(opts)), opts.requires_grad);
}
