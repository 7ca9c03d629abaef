/* The table of built-in operators (ops/builtin.h), kept apart from the registration that fills
 * it: the typed wrappers read it, and the registration names every kernel. */
#include "ops/api_call.h"
#include "ops/builtin.h"

ct_op *ct_builtin_ops[CT_OPID_COUNT];
ct_api_hooks ct_api_call_hooks;
