/* Autograd internals shared by the kernels, the formulas and the engine. */
#ifndef CT_AUTOGRAD_IMPL_H
#define CT_AUTOGRAD_IMPL_H

#include "core/tensor_impl.h"

/* at::sum_to(tensor, shape): sum over leading and broadcast dimensions (keepdim), then view.
 * Returns a new reference (tensor itself, retained, when nothing is reduced). */
ct_tensor *ct_sum_to(ct_tensor *t, const int64_t *shape, int ndim);

#endif
