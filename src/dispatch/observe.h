/* Observers of Dispatcher::call (internal): the profiler's RecordFunction hooks. */
#ifndef CT_OBSERVE_H
#define CT_OBSERVE_H

#include "ctorch/dispatch.h"

typedef struct ct_call_observer {
    /* Called before the kernel of every ct_call (never for a redispatch) while the thread has
     * CT_OBSERVE_PROFILER set; returns a context for exit, or NULL to skip exit. */
    void *(*enter)(const ct_op *op, const ct_value *args, ct_keyset ks);
    void (*exit)(void *ctx, const ct_op *op, const ct_value *args, const ct_value *rets, int rc);
} ct_call_observer;

extern ct_call_observer ct_profiler_observer;

#endif
