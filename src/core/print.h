/* Tensor printing internals (the public entry points are in ctorch/tensor.h). */
#ifndef CT_PRINT_H
#define CT_PRINT_H

#include <stdbool.h>

#include "ctorch/tensor.h"

/* repr(t) with the autograd part given explicitly instead of read from t->autograd:
 * grad_fn_name (e.g. "AddmmBackward0", NULL for none) becomes ", grad_fn=<...>"; otherwise
 * requires_grad adds ", requires_grad=True". ct_tensor_repr() is this with t's own autograd
 * metadata; it exists separately so the suffix layout can be tested without an autograd
 * graph. Returns a string to free with ct_free(), or NULL with the error set. */
char *ct_format_tensor_repr_with(const ct_tensor *t, const char *name, const char *contents, const char *grad_fn_name,
                                 bool requires_grad);

/* Writes a shape as PyTorch's messages print an IntArrayRef, "[2, 3]", into buf (truncated to
 * size). */
void ct_format_shape(const int64_t *sizes, int ndim, char *buf, size_t size);

#endif
