/* Built-in operators and one-time initialisation (internal). */
#ifndef CT_REGISTRY_H
#define CT_REGISTRY_H

#include <stdatomic.h>
#include <stdbool.h>

#include "dispatch/op_impl.h"

/* Built-in operator ids, one per CT_OP entry of src/ops/ops.def. */
typedef enum ct_opid {
#define CT_OP(id, schema, ...) CT_OPID_##id,
#include "ops/ops.def"
#undef CT_OP
    CT_OPID_COUNT
} ct_opid;

/* Filled by ct_registry_init(); index with CT_OPID_*. */
extern ct_op *ct_builtin_ops[CT_OPID_COUNT];
extern atomic_bool ct_registry_ready; /* set (release) when ct_registry_init has finished */

/* Defines every built-in operator, registers their kernels and the backend fallbacks.
 * Idempotent and thread-safe; every public entry point that needs the registry calls it. */
void ct_registry_init(void);

static inline const ct_op *ct_builtin(ct_opid id) {
    if (__builtin_expect(!atomic_load_explicit(&ct_registry_ready, memory_order_acquire), 0)) ct_registry_init();
    return ct_builtin_ops[id];
}

#endif
