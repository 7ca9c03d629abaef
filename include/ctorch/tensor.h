/*
 * ctorch/tensor.h - tensors and storages.
 *
 * Ownership: a ct_tensor is reference counted. Every function documented as returning a
 * "new reference" gives the caller one reference, to be dropped with ct_tensor_release().
 * "Borrowed" arguments are not retained beyond the call unless stated. Views (t, transpose,
 * view, expand, as_strided, detach, ...) are new tensors that share the storage of their
 * base; the storage is freed when the last tensor using it is released.
 *
 * Everything here is plain data access and does not go through the dispatcher; the
 * operators (ct_add, ct_addmm, ...) are in ops_generated.h.
 */
#ifndef CTORCH_TENSOR_H
#define CTORCH_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/dtype.h"
#include "ctorch/export.h"
#include "ctorch/keys.h"
#include "ctorch/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most dimensions a ctorch tensor may have. */
#define CT_MAX_DIMS 16

/* ---- creation (not dispatched; like torch.tensor(data)) ---- */

/* New contiguous tensor of the given sizes holding a copy of `data` (numel elements of
 * `dtype`, row-major). data may be NULL only when numel == 0. New reference, or NULL. */
CT_API ct_tensor *ct_tensor_from_data(const void *data, const int64_t *sizes, int ndim, ct_dtype dtype);
/* Same, from doubles converted to dtype (rounding as a C cast; half/bfloat16 round to nearest even). */
CT_API ct_tensor *ct_tensor_from_doubles(const double *data, const int64_t *sizes, int ndim, ct_dtype dtype);
/* A 0-dim tensor holding v. */
CT_API ct_tensor *ct_tensor_scalar(double v, ct_dtype dtype);
/* A Python number as PyTorch passes it to a Tensor overload (x * 3.0 calls mul.Tensor with a
 * 0-dim "wrapped number" tensor): int64, float64 or bool, and it does not take part in type
 * promotion like a tensor would. New reference, or NULL. */
CT_API ct_tensor *ct_wrapped_number(ct_scalar s);

/* ---- reference counting ---- */

/* Adds a reference and returns t (NULL is allowed and returned). */
CT_API ct_tensor *ct_tensor_retain(ct_tensor *t);
/* Drops a reference; frees the tensor when it was the last one. NULL is ignored. */
CT_API void ct_tensor_release(ct_tensor *t);
/* Current reference count (for tests and leak checks). */
CT_API int64_t ct_tensor_refcount(const ct_tensor *t);

/* ---- a language binding's object (PyTorch's PyObjectSlot) ----
 *
 * A binding (the Python module ctorch._C) keeps its own object for a tensor here, so that the
 * same object comes back every time the tensor surfaces. The library stores the pointer and
 * never dereferences it; views, detached tensors and copies start without one. When `owned`
 * is true the tensor holds a reference to the object: when the tensor is freed, the hook set
 * with ct_set_tensor_binding_release_hook() is called once with the object (the binding drops
 * its reference there). Not thread-safe for one tensor: the binding serialises its own use. */
typedef void (*ct_binding_release_fn)(void *obj);
/* Sets the process-wide release hook (a binding calls it once at start-up). */
CT_API void ct_set_tensor_binding_release_hook(ct_binding_release_fn hook);
/* The binding's object (borrowed) or NULL; *owned (may be NULL) receives whether t holds it.
 * A NULL t sets a ValueError and returns NULL. */
CT_API void *ct_tensor_binding(const ct_tensor *t, bool *owned);
/* Stores obj (NULL clears). Returns 0, or -1 with a ValueError for a NULL t, or for owned ==
 * true without an object or before a release hook was set. Replacing an owned object does not
 * call the hook: the caller takes that reference back. */
CT_API int ct_tensor_set_binding(ct_tensor *t, void *obj, bool owned);

/* ---- metadata (borrowed t; a NULL t sets a ValueError and returns -1 / NULL / 0 /
 *      CT_DTYPE_UNDEFINED / false as the return type allows) ---- */

CT_API int ct_tensor_ndim(const ct_tensor *t);
/* Pointer to ndim sizes / strides (in elements), owned by t. */
CT_API const int64_t *ct_tensor_sizes(const ct_tensor *t);
CT_API const int64_t *ct_tensor_strides(const ct_tensor *t);
/* Size of dimension dim (negative dims count from the end). Sets an IndexError and returns
 * -1 when dim is out of range. */
CT_API int64_t ct_tensor_size(const ct_tensor *t, int64_t dim);
CT_API int64_t ct_tensor_numel(const ct_tensor *t);
CT_API ct_dtype ct_tensor_dtype(const ct_tensor *t);
CT_API int64_t ct_tensor_storage_offset(const ct_tensor *t);
CT_API bool ct_tensor_is_contiguous(const ct_tensor *t);
/* Address of the first element (storage data + offset). NULL for a wrapper-subclass tensor. */
CT_API void *ct_tensor_data_ptr(const ct_tensor *t);
/* The tensor's dispatch key set (torch._C._dispatch_keys(t)). */
CT_API ct_keyset ct_tensor_keyset(const ct_tensor *t);
/* True when a and b use the same storage. */
CT_API bool ct_tensor_shares_storage(const ct_tensor *a, const ct_tensor *b);
/* The version counter shared by a tensor and its views (bumped by every in-place op). */
CT_API int64_t ct_tensor_version(const ct_tensor *t);
/* True for tensors created under inference mode. */
CT_API bool ct_tensor_is_inference(const ct_tensor *t);
/* True for a Python number wrapped as a 0-dim tensor (ct_wrapped_number); false for NULL. A
 * binding hands such an argument to its handlers as the number again, as PyTorch does. */
CT_API bool ct_tensor_is_wrapped_number(const ct_tensor *t);

/* ---- element access ---- */

/* Reads the element at `index` (ndim indices, negative allowed) as a double.
 * Returns 0, or -1 with an IndexError. */
CT_API int ct_tensor_get(const ct_tensor *t, const int64_t *index, double *out);
/* Value of a one-element tensor (Tensor.item()). Returns 0 or -1 with PyTorch's error. */
CT_API int ct_tensor_item(const ct_tensor *t, double *out);
/* Copies all elements in logical (row-major) order into out[0..n), converted to double.
 * n must be >= numel. Returns 0 or -1. */
CT_API int ct_tensor_to_doubles(const ct_tensor *t, double *out, int64_t n);
/* Copies all elements of an int64 or bool tensor in logical order into out[0..n) exactly
 * (to_doubles rounds integers beyond 2^53). n must be >= numel. Returns 0 or -1. */
CT_API int ct_tensor_to_int64s(const ct_tensor *t, int64_t *out, int64_t n);
/* Tensor.tolist() as Python prints the list: "[[1.5, 2.0], [3.0, 4.25]]", "[[1, 2], [3, 4]]",
 * "[True, False]", "3.5" for a 0-dim tensor (floats as Python's repr of the value as a double:
 * float32 0.1 is "0.10000000149011612"). A string to free with ct_free(), or NULL. */
CT_API char *ct_tensor_tolist(const ct_tensor *t);

/* ---- printing ---- */

/* Python's repr(t): "tensor([[ 0.1940,  2.1614],\n        [-0.1721,  0.8491]], grad_fn=<AddmmBackward0>)".
 * Returns a string to free with ct_free(), or NULL. */
CT_API char *ct_tensor_repr(const ct_tensor *t);
/* The same printed as PyTorch prints a tensor subclass: `name` in place of "tensor" (NULL for
 * "tensor"), continuation lines indented by its length, and `contents` written where the
 * values go (Tensor.__repr__(tensor_contents=...)), or the values when contents is NULL. */
CT_API char *ct_tensor_repr_as(const ct_tensor *t, const char *name, const char *contents);
/* "torch.Size([2, 600])" into buf; returns the length needed, like snprintf. */
CT_API size_t ct_tensor_format_size(const ct_tensor *t, char *buf, size_t size);
/* Frees memory the library handed out (strings from *_repr, *_to_string, ...). */
CT_API void ct_free(void *p);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_TENSOR_H */
