/* What every typed wrapper (ct_addmm, ...) does after boxing its arguments (internal). */
#ifndef CT_API_CALL_H
#define CT_API_CALL_H

#include "ctorch/error.h"
#include "dispatch/front_door.h"
#include "ops/builtin.h"

/* The built-in op through the front door (Note [One front door] in dispatch/front_door.h), its
 * values boxed from typed parameters (unchecked: Note [Checked and unchecked calls] in
 * dispatch/check.c). The op's slot is NULL until ct_init() has run (Note [Start-up] in
 * core/startup.h): the test of the pointer loaded anyway is the only cost of refusing. */
static inline int ct_api_call(ct_opid id, ct_value *args, ct_value *rets) {
    const ct_op *op = ct_builtin(id);
    if (__builtin_expect(op == NULL, 0)) return ct_builtin_not_started(id);
    return ct_enter(op, args, rets);
}

static inline ct_tensor *ct_api_take_tensor(ct_value *r) {
    if (r[0].tag == CT_TAG_TENSOR) return r[0].u.t;
    ct_error_set(CT_ERR_RUNTIME, "internal error: kernel returned no tensor");
    return NULL;
}

#endif
