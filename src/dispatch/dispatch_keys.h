/* The dispatch key set of a call (internal): what Dispatcher::call indexes an operator's table
 * by. One definition for the dispatcher's fast path (call.c) and the decision trace, which
 * records the same sets it is made of (trace.c). */
#ifndef CT_DISPATCH_KEYS_H
#define CT_DISPATCH_KEYS_H

#include <stdbool.h>

#include "core/tensor_impl.h"
#include "dispatch/op_impl.h"

/* One dispatch argument's key set into *ks: a tensor's, a tensor list's union, a generator's
 * (CPUGeneratorImpl carries DispatchKeySet(CPU)). False for a value that has none. */
static inline bool ct_dispatch_arg_keys(const ct_value *v, ct_keyset *ks) {
    if (v->tag == CT_TAG_TENSOR) {
        *ks = v->u.t->keys;
    } else if (v->tag == CT_TAG_GENERATOR) {
        *ks = CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU);
    } else if (v->tag == CT_TAG_TENSORLIST) {
        ct_keyset u = 0;
        for (int64_t k = 0; k < v->u.tlist.len; k++)
            if (v->u.tlist.items[k]) u |= v->u.tlist.items[k]->keys;
        *ks = u;
    } else {
        return false;
    }
    return true;
}

/* computeDispatchKeySet: the arguments' union with the thread's included set, less its
 * excluded set, limited to the keys the operator does not fall through */
static inline ct_keyset ct_dispatch_keyset(const ct_op *op, ct_keyset args_ks, ct_keyset included, ct_keyset excluded) {
    return ct_keyset_sub(args_ks | included, excluded) & ct_op_nonfallthrough(op);
}

#endif
