/*
 * ctorch/factory.h - torch.tensor(data) and the factories with tensor options, so that a leaf
 * that requires grad, or a tensor of a given dtype, takes one call:
 *
 *     int64_t sz[2] = {2, 2};
 *     ct_tensor *w = ct_tensor_new((double[]){1, 2, 3, 4}, sz, 2,
 *                                  (ct_tensor_options){.requires_grad = true});
 *     ct_tensor *z = ct_zeros_opts(sz, 2, (ct_tensor_options){.dtype = CT_FLOAT64});
 *
 * ct_tensor_new is torch.tensor: function modes see it as "tensor", and it dispatches
 * aten::lift_fresh on the new tensor exactly as PyTorch's torch.tensor does (a dispatch mode
 * logs "aten.lift_fresh.default" and nothing else), so a program ported from Python logs the
 * same ops. ct_tensor_from_data / ct_tensor_from_doubles (tensor.h) stay the undispatched
 * constructors (no op is logged for them). The *_opts factories dispatch their own op only
 * ("aten.ones.default"), then mark the result as requiring grad, as torch.ones(...,
 * requires_grad=True) does.
 */
#ifndef CTORCH_FACTORY_H
#define CTORCH_FACTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dtype.h"
#include "ctorch/export.h"
#include "ctorch/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Keyword arguments of a factory. Zero-initialised means PyTorch's defaults: dtype
 * CT_DTYPE_UNDEFINED (the call's default: float32 for floats, int64 for ints), no grad.
 * CT_UINT8 is 0 (c10::ScalarType::Byte), the value {} leaves, so it is chosen with has_dtype
 * set (TensorOptions::has_dtype); any other dtype given is taken whatever has_dtype says. */
typedef struct ct_tensor_options {
    ct_dtype dtype;     /* CT_DTYPE_UNDEFINED (or 0 from {} without has_dtype): the default */
    bool requires_grad;
    bool has_dtype;     /* dtype is given, even when it is CT_UINT8 (0) */
} ct_tensor_options;

/* torch.tensor(data, dtype=..., requires_grad=...) for Python floats: numel values row-major
 * (ndim sizes; ndim 0 for a scalar), float32 unless opts.dtype says otherwise. New leaf
 * tensor (new reference), or NULL with PyTorch's error. */
CT_API ct_tensor *ct_tensor_new(const double *data, const int64_t *sizes, int ndim, ct_tensor_options opts);
/* The same for Python ints: int64 unless opts.dtype says otherwise (a float dtype converts). */
CT_API ct_tensor *ct_tensor_new_int64(const int64_t *data, const int64_t *sizes, int ndim, ct_tensor_options opts);

/* torch.tensor's body for data a binding has already converted into a tensor of the result's
 * dtype and shape: PyTorch's calls (empty and to below the Python keys, lift_fresh, detach_;
 * the profiler sees each), a copy of data, then requires_grad. Function modes are not offered
 * the call (ct_tensor_new offers "tensor"; a binding with its own torch-function protocol
 * offers its own). New leaf tensor (new reference), or NULL with PyTorch's error. */
CT_API ct_tensor *ct_tensor_lift(const ct_tensor *data, bool requires_grad);

/* torch.zeros / ones / empty / full / rand / randn with dtype= and requires_grad=. */
CT_API ct_tensor *ct_zeros_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts);
CT_API ct_tensor *ct_ones_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts);
CT_API ct_tensor *ct_empty_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts);
CT_API ct_tensor *ct_full_opts(const int64_t *size, int64_t size_len, double fill_value, ct_tensor_options opts);
CT_API ct_tensor *ct_rand_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts);
CT_API ct_tensor *ct_randn_opts(const int64_t *size, int64_t size_len, ct_tensor_options opts);

#ifdef __cplusplus
}
#endif
#endif
