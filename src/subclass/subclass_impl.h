/* Wrapper tensor subclasses (internal). */
#ifndef CT_SUBCLASS_IMPL_H
#define CT_SUBCLASS_IMPL_H

#include "core/tensor_impl.h"

/* Releases what the subclass keeps for tensor t (called when t dies). */
void ct_subclass_release_data(ct_tensor *t);

#endif
