/* The built-in operators of src/ops/ops.def: their ids and the table of their ct_op (internal). */
#ifndef CT_BUILTIN_H
#define CT_BUILTIN_H

#include <stdbool.h>

#include "dispatch/op_impl.h"

/* Built-in operator ids, one per CT_OP entry of src/ops/ops.def. */
typedef enum ct_opid {
#define CT_OP(id, schema, ...) CT_OPID_##id,
#include "ops/ops.def"
#undef CT_OP
    CT_OPID_COUNT
} ct_opid;

/* Filled by ct_ops_register() (src/ops/builtin.c holds it); index with CT_OPID_*. Every slot
 * is NULL until the start-up has run. */
extern ct_op *ct_builtin_ops[CT_OPID_COUNT];

/* Defines every built-in operator and registers the kernels ops owns (CPU, composite,
 * BackendSelect) and the BackendSelect, ADInplaceOrView and Autocast fallthroughs. Run once,
 * by the start-up (src/library/init.c). 0, or -1 with the error when an operator could not be
 * defined (out of memory). */
int ct_ops_register(void);

/* Whether ops.def opts the built-in out of the generic ADInplaceOrView kernel
 * (CT_NO_ADINPLACEORVIEW: PyTorch has none for it). */
bool ct_builtin_no_adinplace(ct_opid id);

/* The built-in op, or NULL before ct_init() (Note [Start-up] in core/startup.h). It only reads
 * the table: the start-up's own code may call it and the typed wrappers, which never start
 * anything (nothing below the library can). */
static inline const ct_op *ct_builtin(ct_opid id) { return ct_builtin_ops[id]; }

/* Sets "<op>: ct_init() has not been called ..." for built-in id (its slot is NULL) and returns -1. */
int ct_builtin_not_started(ct_opid id);

#endif
