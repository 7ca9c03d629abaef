/* Wrapper tensor subclasses (internal). */
#ifndef CT_SUBCLASS_IMPL_H
#define CT_SUBCLASS_IMPL_H

#include "core/tensor_impl.h"

/* A ct_subclass starts with its ct_subclass_vtable (core/tensor_impl.h): core releases a
 * wrapper's data through it without knowing the subclass. */

#endif
