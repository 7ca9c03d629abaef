/* Declarations of every kernel named in src/ops/ops.def (internal). */
#ifndef CT_KERNELS_H
#define CT_KERNELS_H

#include "ctorch/dispatch.h"

/* The kernel signature (ct_kernel_fn), for declarations; definitions write it out so that code
 * navigation tools see every kernel's name. */
#define CT_KERNEL(fn) int fn(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets)

#define CT_IMPL(key, fn) CT_KERNEL(fn);
#define CT_NO_ADINPLACEORVIEW
#define CT_OTHER_BACKEND_KERNEL
#define CT_OP(id, schema, ...) __VA_ARGS__
#include "ops/ops.def"
#undef CT_OP
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW
#undef CT_OTHER_BACKEND_KERNEL

/* The generic BackendSelect kernel (RegisterBackendSelect: picks the backend from the options).
 * The generic kernels of higher layers are declared by those layers (autograd/autograd_impl.h,
 * modes/modes_impl.h). */
CT_KERNEL(ct_k_backend_select);

#endif
