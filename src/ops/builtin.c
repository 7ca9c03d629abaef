/* The table of built-in operators (ops/builtin.h), kept apart from the registration that fills
 * it: the typed wrappers read it, and the registration names every kernel. */
#include "ops/builtin.h"

ct_op *ct_builtin_ops[CT_OPID_COUNT];
