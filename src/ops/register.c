/* Defines the built-in operators of src/ops/ops.def, registers the kernels ops owns and the
 * backend fallthroughs of ops' keys. The start-up (src/library/init.c) runs it once, before the
 * higher layers add theirs (autograd adds the generic Autograd and ADInplaceOrView kernels). */
#include <stdio.h>
#include <string.h>

#include "ctorch/error.h"
#include "ops/builtin.h"
#include "ops/kernels.h"

typedef struct impl_def {
    ct_dispatch_key key;
    ct_kernel_fn fn;
} impl_def;

typedef struct op_def {
    const char *schema;
    const char *where;
    impl_def impls[6];
} op_def;

#define CT_IMPL(key, fn) {CT_KEY_##key, fn},
#define CT_NO_ADINPLACEORVIEW {CT_KEY_COUNT, NULL},
#define CT_OTHER_BACKEND_KERNEL {(ct_dispatch_key)(CT_KEY_COUNT + 1), NULL},
static const op_def defs[CT_OPID_COUNT] = {
/* each list ends with {Undefined, NULL}; the markers are entries with a NULL kernel */
#define CT_OP(id, schema, ...) {schema, CT_HERE, {__VA_ARGS__ {CT_KEY_Undefined, NULL}}}, /* the ops.def line that defines it */
#include "ops/ops.def"
#undef CT_OP
};
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW
#undef CT_OTHER_BACKEND_KERNEL

/* Each built-in's CT_PY words ("function, nn"), for its Python module */
#define CT_IMPL(key, fn)
#define CT_NO_ADINPLACEORVIEW
#define CT_OTHER_BACKEND_KERNEL
#define CT_PY(...) #__VA_ARGS__
static const char *const py_reach[CT_OPID_COUNT] = {
#define CT_OP(id, schema, ...) "" __VA_ARGS__,
#include "ops/ops.def"
#undef CT_OP
};
#undef CT_PY
#undef CT_IMPL
#undef CT_NO_ADINPLACEORVIEW
#undef CT_OTHER_BACKEND_KERNEL

/* Whether the comma-separated list of words holds `word` */
static bool has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        while (*p == ',' || *p == ' ') p++;
        size_t len = strcspn(p, ", ");
        if (len == n && strncmp(p, word, n) == 0) return true;
        p += len;
    }
    return false;
}

static int register_builtin(ct_opid id) {
    const op_def *d = &defs[id];
    const ct_op *op = ct_op_define(d->schema, d->where);
    if (!op) {
        /* a malformed built-in schema is a bug in the table: report it loudly */
        if (ct_error_code() != CT_ERR_NOMEM)
            fprintf(stderr, "ctorch: cannot define built-in operator %d: %s\n", (int)id, ct_error_message());
        return -1;
    }
    ct_builtin_ops[id] = (ct_op *)op;
    if (has_word(py_reach[id], "nn")) ((ct_op *)op)->python_module = "nn"; /* CT_PY(nn): torch.nn.<name> */
    for (const impl_def *im = d->impls; im->key != CT_KEY_Undefined; im++) {
        if (im->key == CT_KEY_COUNT) continue; /* the CT_NO_ADINPLACEORVIEW marker (read by autograd) */
        if ((int)im->key == CT_KEY_COUNT + 1) { /* the CT_OTHER_BACKEND_KERNEL marker */
            ((ct_op *)op)->other_backend_kernel = true;
            ct_op_update_table((ct_op *)op);
            continue;
        }
        ct_register_kernel(op, im->key, im->fn, d->where);
    }
    return 0;
}

bool ct_builtin_no_adinplace(ct_opid id) {
    const op_def *d = &defs[id];
    for (const impl_def *im = d->impls; im->key != CT_KEY_Undefined; im++)
        if (im->key == CT_KEY_COUNT) return true;
    return false;
}

int ct_ops_register(void) {
    /* Backend fallbacks, as PyTorch registers them (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }). */
    ct_register_fallback(CT_KEY_BackendSelect, NULL, CT_HERE);   /* BackendSelectFallbackKernel */
    ct_register_fallback(CT_KEY_ADInplaceOrView, NULL, CT_HERE); /* VariableFallbackKernel */
    /* autocast_mode: a fallthrough for every key of autocast_dispatch_keyset */
    for (int k = CT_AUTOCAST_FIRST_KEY; k <= CT_AUTOCAST_LAST_KEY; k++)
        ct_register_fallback((ct_dispatch_key)k, NULL, CT_HERE);
    int rc = 0;
    for (int id = 0; id < CT_OPID_COUNT; id++)
        if (register_builtin((ct_opid)id) != 0) rc = -1;
    return rc;
}
