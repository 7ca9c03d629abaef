/*
 * ctorch/subclass.h - wrapper tensor subclasses (torch.Tensor._make_wrapper_subclass).
 *
 * A wrapper tensor has sizes, strides and a dtype but no data of its own; it carries the Python
 * and PythonTLSSnapshot keys, so its key set is
 *     DispatchKeySet(CPU, Python, ADInplaceOrView, AutogradCPU, AutocastCPU, PythonTLSSnapshot)
 * Autograd runs above it (graph nodes reference the wrappers), then every op reaches the Python
 * key, where the subclass's handler (__torch_dispatch__, a C callback in ctorch) receives the op
 * and its boxed arguments with every key above Python excluded: it typically unwraps, calls the
 * op on the inner tensors, and wraps the results. Gradients therefore come back as wrappers.
 */
#ifndef CTORCH_SUBCLASS_H
#define CTORCH_SUBCLASS_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dispatch.h"
#include "ctorch/export.h"
#include "ctorch/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_subclass ct_subclass;

/* __torch_dispatch__(cls, func, types, args): args are borrowed (wrappers included); fill rets
 * with new references. Return 0 or -1 with an error set. */
typedef int (*ct_subclass_dispatch_fn)(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets);

/* A new wrapper type. `name` is copied; release_data (may be NULL) frees a wrapper's payload
 * when the wrapper dies. Free the type with ct_subclass_free after its last wrapper died. */
CT_API ct_subclass *ct_subclass_new(const char *name, ct_subclass_dispatch_fn fn, void *cls_data, void (*release_data)(void *payload));
CT_API void ct_subclass_free(ct_subclass *cls);
CT_API const char *ct_subclass_name(const ct_subclass *cls);

/* _make_wrapper_subclass(cls, size, strides, storage_offset, dtype, requires_grad): a new
 * wrapper (new reference) owning `payload` (released with release_data). strides NULL means
 * contiguous. On failure the payload is NOT released. */
CT_API ct_tensor *ct_subclass_make_wrapper(ct_subclass *cls, const int64_t *sizes, const int64_t *strides, int ndim,
                                           int64_t storage_offset, ct_dtype dtype, bool requires_grad, void *payload);
/* _make_subclass(cls, data) of a class with a __torch_dispatch__ of its own: a tensor on data's
 * storage (same sizes, strides, dtype; no graph) carrying the Python keys, so every op on it
 * reaches cls's handler. New reference, or NULL with an error (NULL arguments, data already a
 * subclass tensor). Its data stays readable, unlike a wrapper's. */
CT_API ct_tensor *ct_subclass_make_dense(ct_subclass *cls, ct_tensor *data);
/* The wrapper's type (NULL for a plain tensor) and payload (borrowed). */
CT_API const ct_subclass *ct_tensor_subclass(const ct_tensor *t);
CT_API void *ct_tensor_subclass_payload(const ct_tensor *t);

/* ---- LoggingTensor: the seed's wrapper, which logs str(func) of every op it reaches ---- */

typedef struct ct_logging_tensor_log ct_logging_tensor_log;
/* A log and its wrapper type; free with ct_logging_tensor_log_free after its wrappers died. */
CT_API ct_logging_tensor_log *ct_logging_tensor_log_new(void);
CT_API void ct_logging_tensor_log_free(ct_logging_tensor_log *log);
/* LoggingTensor(elem, log, requires_grad): wraps elem (retained). New reference. */
CT_API ct_tensor *ct_logging_tensor_new(ct_logging_tensor_log *log, ct_tensor *elem, bool requires_grad);
/* The wrapped tensor (borrowed), or NULL if t is not a LoggingTensor. */
CT_API ct_tensor *ct_logging_tensor_elem(const ct_tensor *t);
CT_API size_t ct_logging_tensor_log_count(const ct_logging_tensor_log *log);
CT_API const char *ct_logging_tensor_log_get(const ct_logging_tensor_log *log, size_t i);
CT_API const ct_subclass *ct_logging_tensor_class(const ct_logging_tensor_log *log);

#ifdef __cplusplus
}
#endif
#endif
