/* Defines the built-in operators of src/ops/ops.def, registers the kernels ops owns and the
 * backend fallthroughs of ops' keys. The start-up (src/library/init.c) runs it once, before the
 * higher layers add theirs (autograd adds the generic Autograd and ADInplaceOrView kernels). */
#include <stdio.h>

#include "ctorch/error.h"
#include "ops/builtin.h"
#include "ops/kernels.h"

typedef struct impl_def {
    ct_dispatch_key key;
    ct_kernel_fn fn;
} impl_def;

#define CT_LINE_STR2(x) #x
#define CT_LINE_STR(x) CT_LINE_STR2(x)

typedef struct op_def {
    const char *schema;
    const char *where;
    impl_def impls[6];
} op_def;

#define CT_IMPL(key, fn) {CT_KEY_##key, fn},
#define CT_NO_ADINPLACEORVIEW {CT_KEY_COUNT, NULL},
static const op_def defs[CT_OPID_COUNT] = {
/* each list ends with {Undefined, NULL}; CT_NO_ADINPLACEORVIEW is the entry {COUNT, NULL} */
#define CT_OP(id, schema, ...) {schema, "src/ops/ops.def:" CT_LINE_STR(__LINE__), {__VA_ARGS__ {CT_KEY_Undefined, NULL}}},
#include "ops/ops.def"
#undef CT_OP
};
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW

static void register_builtin(ct_opid id) {
    const op_def *d = &defs[id];
    const ct_op *op = ct_op_define(d->schema, d->where);
    if (!op) {
        /* a malformed built-in schema is a bug in the table: report it loudly */
        fprintf(stderr, "ctorch: cannot define built-in operator %d: %s\n", (int)id, ct_error_message());
        return;
    }
    ct_builtin_ops[id] = (ct_op *)op;
    for (const impl_def *im = d->impls; im->key != CT_KEY_Undefined; im++)
        if (im->key != CT_KEY_COUNT) ct_register_kernel(op, im->key, im->fn, d->where); /* COUNT: the marker */
}

bool ct_builtin_no_adinplace(ct_opid id) {
    const op_def *d = &defs[id];
    for (const impl_def *im = d->impls; im->key != CT_KEY_Undefined; im++)
        if (im->key == CT_KEY_COUNT) return true;
    return false;
}

void ct_ops_register(void) {
    /* Backend fallbacks, as PyTorch registers them (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }). */
    ct_register_fallback(CT_KEY_BackendSelect, NULL, "src/ops/register.c (BackendSelectFallbackKernel)");
    ct_register_fallback(CT_KEY_ADInplaceOrView, NULL, "src/ops/register.c (VariableFallbackKernel)");
    const ct_dispatch_key autocast[] = {CT_KEY_AutocastCPU, CT_KEY_AutocastXPU, CT_KEY_AutocastIPU,
                                        CT_KEY_AutocastHPU, CT_KEY_AutocastXLA, CT_KEY_AutocastMPS,
                                        CT_KEY_AutocastCUDA, CT_KEY_AutocastPrivateUse1};
    for (size_t i = 0; i < sizeof autocast / sizeof autocast[0]; i++)
        ct_register_fallback(autocast[i], NULL, "src/ops/register.c (autocast_mode)");
    for (int id = 0; id < CT_OPID_COUNT; id++) register_builtin((ct_opid)id);
}
