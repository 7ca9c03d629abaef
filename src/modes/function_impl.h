/* Function descriptors for function modes (internal). */
#ifndef CT_FUNCTION_IMPL_H
#define CT_FUNCTION_IMPL_H

#include "ctorch/mode.h"

/* A public function: an operator (op != NULL, run through the dispatcher) or a C body. */
struct ct_function {
    const char *name;
    const ct_op *op;
    int (*impl)(ct_value *args, ct_value *rets);
    int nargs, nrets;
};

/* Runs f, through the function modes when any is active (what every public nn function does). */
int ct_function_invoke(const ct_function *f, ct_value *args, ct_value *rets);

#endif
