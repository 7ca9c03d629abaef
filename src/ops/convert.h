/* Conversions used outside the conversion kernels (internal). */
#ifndef CT_CONVERT_H
#define CT_CONVERT_H

#include "ctorch/tensor.h"

/* Tensor.to(self.options().dtype(dt)): the to.dtype_layout call PyTorch's toType makes
 * (returns self when nothing changes). New reference or NULL. */
ct_tensor *ct_to_options(ct_tensor *self, ct_dtype dt);
/* at::scalar_tensor(s, t.options().dtype(dt)): the options a CPU tensor's options() carry (dtype,
 * strided layout, cpu device, no pin_memory), as C++ composites call it, so a mode sees PyTorch's
 * call. New reference or NULL. */
ct_tensor *ct_scalar_tensor_options(ct_scalar s, ct_dtype dt);

#endif
