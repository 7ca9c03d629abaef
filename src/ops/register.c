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
atomic_bool ct_registry_ready;

typedef struct impl_def {
    ct_dispatch_key key;
    ct_kernel_fn fn;
} impl_def;

typedef struct op_def {
    const char *schema;
    const char *where;
    impl_def impls[5];
} op_def;

#define CT_IMPL(key, fn) {CT_KEY_##key, fn},
#define CT_NO_ADINPLACEORVIEW {CT_KEY_COUNT, NULL},
#define CT_OTHER_BACKEND_KERNEL {(ct_dispatch_key)(CT_KEY_COUNT + 1), NULL},
static const op_def defs[CT_OPID_COUNT] = {
#define CT_OP(id, schema, ...) {schema, CT_HERE, {__VA_ARGS__}}, /* the ops.def line that defines it */
#include "ops/ops.def"
#undef CT_OP
};
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW
#undef CT_OTHER_BACKEND_KERNEL

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
            if ((int)im->key == CT_KEY_COUNT + 1) { /* the CT_OTHER_BACKEND_KERNEL marker */
                ((ct_op *)op)->other_backend_kernel = true;
                ct_op_update_table((ct_op *)op);
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
    if (!has_autograd) ct_register_kernel(op, CT_KEY_Autograd, ct_k_autograd, CT_HERE);
    /* ADInplaceOrViewType: every in-place, out= and view op (gen_inplace_or_view_type.py). */
    if ((op->mutates || op->view) && !has_adinplace && !no_adinplace)
        ct_register_kernel(op, CT_KEY_ADInplaceOrView, ct_k_adinplace_or_view, CT_HERE);
}

static void init_once(void) {
    ct_keys_init();
    /* Backend fallbacks, as PyTorch registers them (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }). */
    ct_register_fallback(CT_KEY_BackendSelect, NULL, CT_HERE);   /* BackendSelectFallbackKernel */
    ct_register_fallback(CT_KEY_ADInplaceOrView, NULL, CT_HERE); /* VariableFallbackKernel */
    /* autocast_mode: a fallthrough for every key of autocast_dispatch_keyset */
    for (int k = CT_AUTOCAST_FIRST_KEY; k <= CT_AUTOCAST_LAST_KEY; k++)
        ct_register_fallback((ct_dispatch_key)k, NULL, CT_HERE);
    ct_register_fallback(CT_KEY_AutogradCPU, ct_k_autograd_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_AutogradOther, ct_k_autograd_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_Python, ct_k_python_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_PythonTLSSnapshot, ct_k_python_tls_snapshot_fallback, CT_HERE);
    ct_register_fallback(CT_KEY_PythonDispatcher, ct_k_python_dispatcher_fallback, CT_HERE);
    for (int id = 0; id < CT_OPID_COUNT; id++) register_builtin((ct_opid)id);
    const char *env = getenv("CTORCH_SHOW_DISPATCH_TRACE");
    if (env && *env) {
        if (strcmp(env, "1") == 0) ct_trace_set_print(1);
        else if (strcmp(env, "full") == 0 || strcmp(env, "2") == 0) ct_trace_set_print(2);
        else if (strcmp(env, "0") != 0)
            fprintf(stderr, "ctorch warning: ignoring invalid value for CTORCH_SHOW_DISPATCH_TRACE: %s valid values are 0, 1 or full.\n", env);
    }
    ct_trace_file_open_from_env();
    atomic_store_explicit(&ct_registry_ready, true, memory_order_release);
}

void ct_registry_init(void) { pthread_once(&once, init_once); }
