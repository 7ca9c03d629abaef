/* Declarations of every kernel named in src/ops/ops.def, and of the generic kernels (internal). */
#ifndef CT_KERNELS_H
#define CT_KERNELS_H

#include "ctorch/dispatch.h"

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

/* Generic kernels registered by the registry (what PyTorch's code generators emit per op). */
CT_KERNEL(ct_k_autograd);           /* VariableType: records the graph, redispatches below autograd */
CT_KERNEL(ct_k_adinplace_or_view);  /* ADInplaceOrViewType: version bump / view bookkeeping */
CT_KERNEL(ct_k_backend_select);     /* RegisterBackendSelect: picks the backend from the options */
/* Backend fallbacks. */
CT_KERNEL(ct_k_autograd_fallback);
CT_KERNEL(ct_k_python_fallback);
CT_KERNEL(ct_k_python_tls_snapshot_fallback);
CT_KERNEL(ct_k_python_dispatcher_fallback);

#endif
