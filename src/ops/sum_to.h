/* at::sum_to (internal): src/ops/sum_to.c. */
#ifndef CT_SUM_TO_H
#define CT_SUM_TO_H

#include "core/tensor_impl.h"

/* at::sum_to(tensor, shape): sum over leading and broadcast dimensions (keepdim), then view.
 * Returns a new reference (tensor itself, retained, when nothing is reduced). */
ct_tensor *ct_sum_to(ct_tensor *t, const int64_t *shape, int ndim);

#endif
