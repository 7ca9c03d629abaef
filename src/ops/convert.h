/* Conversions used outside the conversion kernels (internal). */
#ifndef CT_CONVERT_H
#define CT_CONVERT_H

#include "ctorch/tensor.h"

/* Tensor.to(self.options().dtype(dt)): the to.dtype_layout call PyTorch's toType makes
 * (returns self when nothing changes). New reference or NULL. */
ct_tensor *ct_to_options(ct_tensor *self, ct_dtype dt);

#endif
