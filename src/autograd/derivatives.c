/* The derivative table (derivatives.def, ctorch's derivatives.yaml) and the look-up of an op's
 * entry. The formulas it names are in formulas_*.c (formulas.h). */
#include "autograd/formulas.h"
#include "autograd/node.h"
#include "ops/builtin.h"

#define A(i) (1u << (i))
#define R(i) (1u << (i))

/* ---- the table (src/autograd/derivatives.def) ---- */

#define ALWAYS 0xFFFFFFFFu
#define SV(i, need) [i] = (need)
#define SAVES(...) {__VA_ARGS__}
static const ct_deriv table[] = {
#define CT_DERIV(op, name, diff, sa, sr, nd, formula) {CT_OPID_##op, name, diff, sa, sr, nd, formula},
#include "autograd/derivatives.def"
#undef CT_DERIV
};

/* written once, by ct_derivatives_index in the start-up, before any autograd kernel can run */
static const ct_deriv *by_op_[CT_OPID_COUNT];

void ct_derivatives_index(void) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) by_op_[table[i].opid] = &table[i];
}

const ct_deriv *ct_deriv_for(const ct_op *op) {
    if (op->id < 0 || op->id >= CT_OPID_COUNT || ct_builtin_ops[op->id] != op) return NULL;
    return by_op_[op->id];
}
