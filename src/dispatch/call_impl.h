/* The dispatcher's two entries (internal; Note [Checked and unchecked calls] in check.c). */
#ifndef CT_CALL_IMPL_H
#define CT_CALL_IMPL_H

#include "ctorch/dispatch.h"

/* Dispatcher::call without checking anything: for callers whose values already have the
 * schema's types (the typed wrappers, kernels). Same contract as ct_call otherwise. */
int ct_dispatch_call(const ct_op *op, ct_value *args, ct_value *rets);

/* What ct_call checks before dispatching: op, args and rets not NULL, and every argument a
 * value of its schema type (None only where the schema allows it). 0; 1 when the values are
 * right but an int stands for a fixed-size int list (int[1] dim), which ct_call turns into the
 * list; or -1 with PyTorch's error for the same mistake through torch.ops. */
int ct_call_check(const ct_op *op, const ct_value *args, const ct_value *rets);

#endif
