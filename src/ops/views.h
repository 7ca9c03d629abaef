/* View helpers shared by the view kernels (internal); a view's header itself is core's
 * (ct_make_alias, core/tensor_impl.h). */
#ifndef CT_VIEWS_H
#define CT_VIEWS_H

#include <stdbool.h>

#include "core/tensor_impl.h"

/* infer_size: shape with one -1 resolved against numel; PyTorch's errors. */
int ct_infer_size(const int64_t *shape, int64_t n, int64_t numel, int64_t *out);
/* computeStride: true and newstride filled if the reshape can be a view. */
bool ct_compute_stride(const int64_t *oldshape, const int64_t *oldstride, int oldn, const int64_t *newshape, int newn,
                       int64_t *newstride);

#endif
