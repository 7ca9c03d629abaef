/* Defines the built-in operators of src/ops/ops.def, registers their kernels, adds the
 * kernels PyTorch's code generators would add (autograd, ADInplaceOrView, BackendSelect) and
 * registers the backend fallbacks. Runs once, before the first operator is used. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/error.h"
#include "ctorch/trace.h"
#include "dispatch/registry.h"
#include "dispatch/trace_file.h"
#include "ops/kernels.h"

ct_op *ct_builtin_ops[CT_OPID_COUNT];
bool ct_registry_ready;

typedef struct impl_def {
    ct_dispatch_key key;
    ct_kernel_fn fn;
} impl_def;

#define CT_LINE_STR2(x) #x
#define CT_LINE_STR(x) CT_LINE_STR2(x)

typedef struct op_def {
    const char *schema;
    const char *where;
    impl_def impls[5];
} op_def;

#define CT_IMPL(key, fn) {CT_KEY_##key, fn},
#define CT_NO_ADINPLACEORVIEW {CT_KEY_COUNT, NULL},
static const op_def defs[CT_OPID_COUNT] = {
#define CT_OP(id, schema, ...) {schema, "src/ops/ops.def:" CT_LINE_STR(__LINE__), {__VA_ARGS__}},
#include "ops/ops.def"
#undef CT_OP
};
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void register_builtin(ct_opid id) {
    const op_def *d = &defs[id];
    const ct_op *op = ct_op_define(d->schema, d->where);
    if (!op) {
        /* a malformed built-in schema is a bug in the table: report it loudly */
        fprintf(stderr, "ctorch: cannot define built-in operator %d: %s\n", (int)id, ct_error_message());
        return;
    }
    ct_builtin_ops[id] = (ct_op *)op;
    bool composite_implicit = false, has_autograd = false, has_adinplace = false, no_adinplace = false;
    for (size_t i = 0; i < sizeof d->impls / sizeof d->impls[0]; i++) {
        const impl_def *im = &d->impls[i];
        if (!im->fn) {
            if (im->key == CT_KEY_COUNT) { /* the CT_NO_ADINPLACEORVIEW marker */
                no_adinplace = true;
                continue;
            }
            break; /* end of the list */
        }
        ct_register_kernel(op, im->key, im->fn, d->where);
        if (im->key == CT_KEY_CompositeImplicitAutograd) composite_implicit = true;
        if (im->key == CT_KEY_Autograd) has_autograd = true;
        if (im->key == CT_KEY_ADInplaceOrView) has_adinplace = true;
    }
    if (composite_implicit) return;
    /* VariableType: every non-composite op has an autograd kernel (gen_variable_type.py). */
    if (!has_autograd) ct_register_kernel(op, CT_KEY_Autograd, ct_k_autograd, "src/autograd/autograd_kernel.c");
    /* ADInplaceOrViewType: every in-place and view op (gen_inplace_or_view_type.py). */
    if ((op->inplace || op->view) && !has_adinplace && !no_adinplace)
        ct_register_kernel(op, CT_KEY_ADInplaceOrView, ct_k_adinplace_or_view, "src/autograd/inplace_or_view.c");
}

static void init_once(void) {
    ct_keys_init();
    /* Backend fallbacks, as PyTorch registers them (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }). */
    ct_register_fallback(CT_KEY_BackendSelect, NULL, "src/ops/register.c (BackendSelectFallbackKernel)");
    ct_register_fallback(CT_KEY_ADInplaceOrView, NULL, "src/ops/register.c (VariableFallbackKernel)");
    const ct_dispatch_key autocast[] = {CT_KEY_AutocastCPU, CT_KEY_AutocastXPU, CT_KEY_AutocastIPU,
                                        CT_KEY_AutocastHPU, CT_KEY_AutocastXLA, CT_KEY_AutocastMPS,
                                        CT_KEY_AutocastCUDA, CT_KEY_AutocastPrivateUse1};
    for (size_t i = 0; i < sizeof autocast / sizeof autocast[0]; i++)
        ct_register_fallback(autocast[i], NULL, "src/ops/register.c (autocast_mode)");
    ct_register_fallback(CT_KEY_AutogradCPU, ct_k_autograd_fallback, "src/autograd/autograd_kernel.c (autograd fallback)");
    ct_register_fallback(CT_KEY_AutogradOther, ct_k_autograd_fallback, "src/autograd/autograd_kernel.c (autograd fallback)");
    ct_register_fallback(CT_KEY_Python, ct_k_python_fallback, "src/modes/python_fallback.c");
    ct_register_fallback(CT_KEY_PythonTLSSnapshot, ct_k_python_tls_snapshot_fallback, "src/modes/python_fallback.c");
    ct_register_fallback(CT_KEY_PythonDispatcher, ct_k_python_dispatcher_fallback, "src/modes/python_fallback.c");
    for (int id = 0; id < CT_OPID_COUNT; id++) register_builtin((ct_opid)id);
    const char *env = getenv("CTORCH_SHOW_DISPATCH_TRACE");
    if (env && *env) {
        if (strcmp(env, "1") == 0) ct_trace_set_print(1);
        else if (strcmp(env, "full") == 0 || strcmp(env, "2") == 0) ct_trace_set_print(2);
        else if (strcmp(env, "0") != 0)
            fprintf(stderr, "ctorch warning: ignoring invalid value for CTORCH_SHOW_DISPATCH_TRACE: %s valid values are 0, 1 or full.\n", env);
    }
    ct_trace_file_open_from_env();
    __atomic_store_n(&ct_registry_ready, true, __ATOMIC_RELEASE);
}

void ct_registry_init(void) { pthread_once(&once, init_once); }
