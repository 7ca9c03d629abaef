/* Wrapper tensor subclasses (internal). */
#ifndef CT_SUBCLASS_IMPL_H
#define CT_SUBCLASS_IMPL_H

#include "core/tensor_impl.h"

/* Fills the wrapper side of the Python key's interpreter (dispatch/py_interpreter.h). Run once
 * by the start-up. */
void ct_subclass_register(void);
/* Runs op on the handler of the wrapper-subclass tensor `t`. */
int ct_subclass_dispatch(ct_tensor *t, const ct_op *op, ct_value *args, ct_value *rets);

/* A ct_subclass starts with its ct_subclass_vtable (core/tensor_impl.h): core releases a
 * wrapper's data through it without knowing the subclass. */

#endif
