/* Wrapper tensor subclasses (THPVariable_make_wrapper_subclass, TensorImpl::set_python_dispatch). */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error_impl.h"
#include "ctorch/error.h"
#include "ctorch/subclass.h"
#include "core/startup.h"
#include "dispatch/py_interpreter.h"
#include "ctorch/autograd.h"
#include "subclass/subclass_impl.h"

struct ct_subclass {
    ct_subclass_vtable vt; /* first: what core calls (core/tensor_impl.h) */
    char *name;
    ct_subclass_dispatch_fn fn;
    void *cls_data;
    void (*release_data)(void *payload);
};

/* Core calls it (through vt) when a wrapper tensor dies. */
static void release_data_of(ct_tensor *t) {
    if (t->subclass && t->subclass->release_data && t->subclass_data) t->subclass->release_data(t->subclass_data);
    t->subclass_data = NULL;
}

ct_subclass *ct_subclass_new(const char *name, ct_subclass_dispatch_fn fn, void *cls_data, void (*release_data)(void *)) {
    if (!name || !fn) {
        ct_error_set(CT_ERR_VALUE, "ct_subclass_new: name and handler are required");
        return NULL;
    }
    ct_subclass *c = ct_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->name = ct_strdup(name);
    if (!c->name) {
        ct_free(c);
        return NULL;
    }
    c->vt.release_data = release_data_of;
    c->fn = fn;
    c->cls_data = cls_data;
    c->release_data = release_data;
    return c;
}

void ct_subclass_free(ct_subclass *c) {
    if (!c) return;
    ct_free(c->name);
    ct_free(c);
}

const char *ct_subclass_name(const ct_subclass *c) { return c ? c->name : ""; }
const ct_subclass *ct_tensor_subclass(const ct_tensor *t) { return t ? t->subclass : NULL; }
void *ct_tensor_subclass_payload(const ct_tensor *t) { return t ? t->subclass_data : NULL; }

ct_tensor *ct_subclass_make_wrapper(ct_subclass *cls, const int64_t *sizes, const int64_t *strides, int ndim,
                                    int64_t storage_offset, ct_dtype dtype, bool requires_grad, void *payload) {
    if (!cls) {
        ct_error_set(CT_ERR_VALUE, "ct_subclass_make_wrapper: class is NULL");
        return NULL;
    }
    if (!ct_dtype_valid((int)dtype)) {
        ct_error_set(CT_ERR_TYPE, "ct_subclass_make_wrapper: invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (!ct_library_started()) { /* the Python key's fallback and handler are the start-up's */
        ct_error_not_started("ct_subclass_make_wrapper");
        return NULL;
    }
    /* a data-less placeholder storage */
    ct_storage *s = ct_storage_new(0, false);
    if (!s) return NULL;
    ct_tensor *t = ct_tensor_make(s, storage_offset, sizes, strides, ndim, dtype);
    ct_storage_release(s);
    if (!t) return NULL;
    /* set_python_dispatch(true): key set | {Python, PythonTLSSnapshot} */
    t->keys |= ct_python_ks();
    /* _make_wrapper_subclass checks the dtype itself, with the wording of torch.tensor(...,
     * requires_grad=True), not requires_grad_()'s */
    if (requires_grad && !ct_dtype_is_floating(dtype)) {
        ct_tensor_release(t);
        ct_error_set(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    if (requires_grad && ct_tensor_set_requires_grad(t, true) != 0) {
        ct_tensor_release(t);
        return NULL;
    }
    t->subclass = cls;
    t->subclass_data = payload;
    return t;
}


ct_tensor *ct_subclass_make_dense(ct_subclass *cls, ct_tensor *data) {
    if (!cls || !data) {
        ct_error_set(CT_ERR_VALUE, "ct_subclass_make_dense: %s is NULL", cls ? "data" : "class");
        return NULL;
    }
    if (data->subclass) {
        ct_error_set(CT_ERR_VALUE, "ct_subclass_make_dense: data is a subclass tensor already");
        return NULL;
    }
    if (!ct_library_started()) {
        ct_error_not_started("ct_subclass_make_dense");
        return NULL;
    }
    /* a new tensor on data's storage (no graph: detached), with the Python keys and the class */
    ct_tensor *t = ct_tensor_make(data->storage, data->storage_offset, data->sizes, data->strides, data->ndim, data->dtype);
    if (!t) return NULL;
    t->keys |= ct_python_ks();
    t->subclass = cls;
    t->subclass_data = NULL;
    return t;
}

int ct_subclass_dispatch(ct_tensor *t, const ct_op *op, ct_value *args, ct_value *rets) {
    if (!t->subclass) return ct_error_set(CT_ERR_RUNTIME, "Hit Python dispatch key but no arguments had PyInterpreter (no tensor args?)");
    uint64_t errors = ct_error_serial();
    /* a failure releases rets (Note [Ret slots start as None] in dispatch/call.c) */
    for (int i = 0; i < ct_op_num_returns(op); i++) rets[i] = ct_none();
    int rc = t->subclass->fn(t->subclass->cls_data, op, args, rets);
    if (rc != 0) {
        ct_values_release(rets, ct_op_num_returns(op));
        /* Note [A handler that fails without an error] in modes/dispatch_mode.c */
        if (ct_error_serial() == errors)
            ct_error_set(CT_ERR_TYPE,
                         "Multiple dispatch failed for 'torch._ops.%s'; all __torch_dispatch__ handlers returned "
                         "NotImplemented:\n\n  - tensor subclass <class '%s'>\n\n(the handler returned -1 without setting "
                         "an error)",
                         ct_op_python_name(op), t->subclass->name);
        return -1;
    }
    return 0;
}

void ct_subclass_register(void) { ct_py_interpreter_hooks.subclass_dispatch = ct_subclass_dispatch; }
