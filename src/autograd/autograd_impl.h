/* Autograd internals shared by the kernels, the formulas and the engine. */
#ifndef CT_AUTOGRAD_IMPL_H
#define CT_AUTOGRAD_IMPL_H

#include "core/tensor_impl.h"
#include "ops/kernels.h"

/* Registers autograd's kernels (VariableType: the generic Autograd kernel of every op that is
 * not CompositeImplicitAutograd and the manual ones; ADInplaceOrViewType; the autograd
 * fallbacks) and installs the tensor metadata hooks. Run once by the start-up, after every
 * other layer has registered its kernels (src/autograd/register.c). */
void ct_autograd_register(void);
/* Points core's ct_autograd_hooks at autograd's (src/autograd/node.c). */
void ct_autograd_install_meta_hooks(void);

CT_KERNEL(ct_k_autograd);           /* VariableType: records the graph, redispatches below autograd */
CT_KERNEL(ct_k_autograd_detach);    /* VariableTypeManual.cpp: detach */
CT_KERNEL(ct_k_autograd_detach_);   /* VariableTypeManual.cpp: detach_ */
CT_KERNEL(ct_k_autograd_fallback);  /* autograd_not_implemented_fallback / the AutogradOther fallback */
CT_KERNEL(ct_k_adinplace_or_view);  /* ADInplaceOrViewType: version bump / view bookkeeping */
CT_KERNEL(ct_k_adinplace_detach);   /* ADInplaceOrView for detach (VariableTypeManual.cpp) */

#endif
