/* The table of built-in operators (ops/builtin.h), kept apart from the registration that fills
 * it: the typed wrappers read it, and the registration names every kernel. */
#include <string.h>

#include "core/startup.h"
#include "ops/builtin.h"

ct_op *ct_builtin_ops[CT_OPID_COUNT];

/* the schemas, for naming an op whose slot is still empty */
static const char *const schemas[CT_OPID_COUNT] = {
#define CT_OP(id, schema, ...) schema,
#include "ops/ops.def"
#undef CT_OP
};

int ct_builtin_not_started(ct_opid id) {
    char name[128];
    const char *s = (int)id >= 0 && id < CT_OPID_COUNT ? schemas[id] : "aten::?";
    size_t n = strcspn(s, "(");
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, s, n);
    name[n] = '\0';
    return ct_error_not_started(name);
}
