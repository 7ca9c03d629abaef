/* TorchDispatchMode and TorchFunctionMode: Python modes pushed on ctorch's own mode stacks
 * (include/ctorch/mode.h). ctorch pops a mode while its handler runs and restores its stacks,
 * TLS sets and grad mode when a handler fails (Note [Python exceptions inside handlers]).
 *
 * Note [Python modes on the C stacks]
 *   A Python mode is an entry of ctorch's stack whose user data is the mode object (the stack
 *   holds a reference to it) and whose handler is this file's bridge. Nothing here keeps a
 *   copy of the stacks: popping from Python pops whatever is innermost, as PyTorch's
 *   _pop_torch_dispatch_stack does, so the handles ctorch hands out stay with their entries
 *   however handlers nest modes inside one another.
 *
 * A torch function called from Python is offered to Python function modes by
 * torch_function.c's protocol (Note [torch functions and function modes] there). Only calls that
 * ctorch's C code makes (an optimizer step or clip_grad_norm_ written in C calling operators)
 * reach a Python mode through the C stack's handler, function_handler here: they are presented as
 * the torch function of the operator's name, with the arguments PyTorch's binding would pass
 * (defaults left out). */
#include <string.h>

#include "bindings.h"
#include "ctpy.h"

static PyObject *str_torch_dispatch, *str_torch_function;

/* ---- dispatch modes ---- */

static int dispatch_handler(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    PyObject *mode = ud;
    CtOpOverloadObject *func = (CtOpOverloadObject *)ctpy_op_overload(op);
    if (!func) return ctpy_stash_pyerr();
    PyObject *pyargs, *pykwargs;
    if (ctpy_handler_args(&func->schema, args, &pyargs, &pykwargs) != 0) return ctpy_stash_pyerr();
    PyObject *types = ctpy_overloaded_types(args, func->schema.nargs);
    if (!types) {
        Py_DECREF(pyargs);
        Py_DECREF(pykwargs);
        return ctpy_stash_pyerr();
    }
    PyObject *call[5] = {mode, (PyObject *)func, types, pyargs, pykwargs};
    PyObject *res = PyObject_VectorcallMethod(str_torch_dispatch, call, 5, NULL);
    Py_DECREF(types);
    Py_DECREF(pyargs);
    Py_DECREF(pykwargs);
    if (!res) return ctpy_stash_pyerr();
    if (res == Py_NotImplemented) {
        Py_DECREF(res);
        PyErr_Format(PyExc_TypeError,
                     "Multiple dispatch failed for 'torch._ops.%s'; all __torch_dispatch__ handlers returned "
                     "NotImplemented:\n\n  - mode object %R\n\nFor more information, try re-running with "
                     "TORCH_LOGS=not_implemented",
                     ct_op_python_name(op), mode);
        return ctpy_stash_pyerr();
    }
    int rc = ctpy_result_to_rets(&func->schema, res, rets);
    Py_DECREF(res);
    return rc == 0 ? 0 : ctpy_stash_pyerr();
}

bool ctpy_is_python_dispatch_mode(ct_dispatch_mode_fn fn) { return fn == dispatch_handler; }

/* torch._C._push_on_torch_dispatch_stack(mode): any object, as PyTorch's; the stack keeps a
 * reference to it */
static PyObject *push_dispatch_mode(PyObject *unused, PyObject *mode) {
    (void)unused;
    Py_INCREF(mode);
    if (ct_dispatch_mode_push(dispatch_handler, mode) < 0) {
        Py_DECREF(mode);
        return ctpy_raise();
    }
    Py_RETURN_NONE;
}

static PyObject *pop_dispatch_mode_impl(void) {
    ct_dispatch_mode_fn fn;
    void *ud;
    int h = ct_dispatch_mode_top(&fn, &ud);
    if (!h) {
        PyErr_SetString(PyExc_RuntimeError, "trying to pop from empty mode stack");
        return NULL;
    }
    if (fn != dispatch_handler) {
        PyErr_SetString(PyExc_RuntimeError, "the innermost dispatch mode was entered from C (a ctorch mode, not a "
                                            "Python object); it must be exited from C");
        return NULL;
    }
    if (ct_dispatch_mode_pop(h) != 0) return ctpy_raise();
    return ud; /* the stack's reference, now the caller's */
}

/* torch._C._pop_torch_dispatch_stack(mode_key): the innermost mode, whichever it is (ctorch
 * has no per-key modes: the key must be None) */
static PyObject *pop_dispatch_mode(PyObject *unused, PyObject *key) {
    (void)unused;
    if (key != Py_None) return ctpy_not_implemented("_pop_torch_dispatch_stack with a mode key (%R)", key);
    return pop_dispatch_mode_impl();
}

static PyObject *len_dispatch_stack(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_dispatch_mode_stack_len());
}

static PyObject *mode_object(int handle, bool python, void *ud, const char *kind) {
    if (!handle) Py_RETURN_NONE;
    if (!python) {
        PyErr_Format(PyExc_RuntimeError, "the %s mode there was entered from C: it has no Python object", kind);
        return NULL;
    }
    Py_INCREF((PyObject *)ud);
    return ud;
}

/* torch._C._get_dispatch_stack_at(i) */
static PyObject *dispatch_stack_at(PyObject *unused, PyObject *arg) {
    (void)unused;
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    ct_dispatch_mode_fn fn = NULL;
    void *ud = NULL;
    int h = ct_dispatch_mode_at((int)i, &fn, &ud);
    if (!h) return PyErr_Format(PyExc_IndexError, "dispatch mode stack index %ld out of range", i);
    return mode_object(h, fn == dispatch_handler, ud, "dispatch");
}

/* The innermost active mode: while a mode's handler runs it is off the stack, so this is the
 * one below. */
static PyObject *current_dispatch_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    ct_dispatch_mode_fn fn = NULL;
    void *ud = NULL;
    int h = ct_dispatch_mode_top(&fn, &ud);
    return mode_object(h, fn == dispatch_handler, ud, "dispatch");
}

/* ---- function modes ---- */

static int function_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets);

bool ctpy_is_python_function_mode(ct_function_mode_fn fn) { return fn == function_handler; }

/* `types` for a call ctorch's C code offers: the tensor arguments' classes that take part */
static PyObject *function_types(PyObject *args, PyObject *kwargs) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    PyObject *vals = kwargs ? PyDict_Values(kwargs) : NULL;
    for (int part = 0; part < 2; part++) {
        PyObject *seq = part == 0 ? args : vals;
        if (!seq) continue;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
            if (!ctpy_is_tensor(o) || Py_TYPE(o) == ctpy_tensor_class) continue;
            if (!ctpy_has_torch_function_override(Py_TYPE(o))) continue;
            int has = PySequence_Contains(list, (PyObject *)Py_TYPE(o));
            if (has < 0 || (!has && PyList_Append(list, (PyObject *)Py_TYPE(o)) < 0)) {
                Py_DECREF(list);
                Py_XDECREF(vals);
                return NULL;
            }
        }
    }
    Py_XDECREF(vals);
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* The function a mode's handler receives for a call ctorch's C code made (Note [torch
 * functions and function modes]): the torch function of the operator's name (torch.add),
 * else the Tensor method (Tensor.add_), else the operator packet (torch.ops.aten.add). For the
 * two C-bodied functions (tensor, cross_entropy) a callable that runs them. */
typedef struct {
    PyObject_HEAD
    const ct_function *f; /* static: lives for the process */
    vectorcallfunc vectorcall;
} CtModeFunctionObject;

static PyObject *tagged_rets(ct_value *rets, int n) {
    if (n == 0) Py_RETURN_NONE;
    PyObject *out[CTPY_MAX_RETS] = {NULL};
    for (int i = 0; i < n; i++) {
        if (rets[i].tag == CT_TAG_TENSOR) {
            out[i] = ctpy_wrap(rets[i].u.t);
            rets[i] = ct_none();
        } else {
            out[i] = ctpy_tagged_to_py(&rets[i]);
        }
        if (!out[i]) {
            ct_values_release(rets + i + 1, n - i - 1);
            for (int k = 0; k < i; k++) Py_DECREF(out[k]);
            return NULL;
        }
    }
    if (n == 1) return out[0];
    PyObject *t = PyTuple_New(n);
    for (int k = 0; k < n; k++) {
        if (t) PyTuple_SET_ITEM(t, k, out[k]);
        else Py_DECREF(out[k]);
    }
    return t;
}

static PyObject *mode_function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    const ct_function *f = ((CtModeFunctionObject *)self)->f;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int want = ct_function_num_args(f), nrets = ct_function_num_returns(f);
    if (kwnames && PyTuple_GET_SIZE(kwnames) > 0)
        return ctpy_not_implemented("keyword arguments to %s() inside __torch_function__", ct_function_name(f));
    if (nargs != want || want > CTPY_MAX_ARGS || nrets > CTPY_MAX_RETS)
        return PyErr_Format(PyExc_TypeError, "%s() takes %d arguments (as __torch_function__ received them), got %zd",
                            ct_function_name(f), want, nargs);
    ctpy_args a;
    a.n_owned = 0;
    a.n_tl = 0;
    a.fname = NULL;
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (ctpy_py_to_tagged(args[i], &a, (int)i) != 0) return NULL;
    ct_value rets[CTPY_MAX_RETS];
    for (int i = 0; i < nrets; i++) rets[i] = ct_none();
    /* ct_function_call checks the values (the C body checks what it reads) */
    if (ct_function_call(f, a.v, rets) != 0) return ctpy_raise();
    return tagged_rets(rets, nrets);
}

static PyObject *mode_function_get_name(PyObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(ct_function_name(((CtModeFunctionObject *)self)->f));
}
static PyObject *mode_function_repr(PyObject *self) {
    return PyUnicode_FromFormat("<built-in function %s>", ct_function_name(((CtModeFunctionObject *)self)->f));
}

static PyGetSetDef mode_function_getset[] = {{"__name__", mode_function_get_name, NULL, NULL, NULL},
                                             {"__qualname__", mode_function_get_name, NULL, NULL, NULL},
                                             {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtModeFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._ModeFunction",
    .tp_basicsize = sizeof(CtModeFunctionObject),
    .tp_vectorcall_offset = offsetof(CtModeFunctionObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = mode_function_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "The function a TorchFunctionMode's __torch_function__ receives for a C-bodied ctorch function.",
    .tp_getset = mode_function_getset,
};

static PyObject *function_objects; /* name -> the callable a handler receives */
static PyObject *torch_module;     /* the package, imported at first need */

static PyObject *lookup_public(PyObject *owner, const char *name) {
    PyObject *o = PyObject_GetAttrString(owner, name);
    if (!o) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError) && !PyErr_ExceptionMatches(ctpy_NotImplementedInCtorch))
            return NULL;
        PyErr_Clear();
    }
    return o;
}

static PyObject *python_function_for(const ct_function *f) {
    const char *name = ct_function_name(f);
    PyObject *o = PyDict_GetItemString(function_objects, name);
    if (o) {
        Py_INCREF(o);
        return o;
    }
    const ct_op *op = ct_function_op(f);
    if (op && ct_op_python_module(op)) {
        o = ctpy_bound_function(CTPY_BIND_NN, name); /* torch._C._nn.linear */
        Py_XINCREF(o);
        if (!o && !PyErr_Occurred()) o = ctpy_op_packet_of(op);
    } else if (op) {
        if (!torch_module && !(torch_module = PyImport_ImportModule("ctorch"))) return NULL;
        o = lookup_public(torch_module, name);
        if (!o && !PyErr_Occurred() && ctpy_tensor_class) o = lookup_public((PyObject *)ctpy_tensor_class, name);
        if (!o && !PyErr_Occurred()) o = ctpy_op_packet_of(op);
    } else {
        CtModeFunctionObject *n = PyObject_New(CtModeFunctionObject, &CtModeFunction_Type);
        if (n) {
            n->f = f;
            n->vectorcall = mode_function_vectorcall;
        }
        o = (PyObject *)n;
    }
    if (!o) return NULL;
    if (PyDict_SetItemString(function_objects, name, o) < 0) Py_CLEAR(o);
    return o;
}

/* A result of the handler for a C-bodied function, by its Python type. */
static int tagged_result(PyObject *res, const ct_function *f, ct_value *rets) {
    int nrets = ct_function_num_returns(f);
    PyObject *single[1] = {res};
    PyObject *const *items = single;
    if (nrets > 1) {
        if (!(PyTuple_Check(res) || PyList_Check(res)) || PySequence_Fast_GET_SIZE(res) != nrets) {
            PyErr_Format(PyExc_TypeError, "%s() returns %d values", ct_function_name(f), nrets);
            return -1;
        }
        items = PySequence_Fast_ITEMS(res);
    }
    for (int i = 0; i < nrets; i++) {
        ctpy_args a;
        a.n_owned = a.n_tl = 0;
        a.fname = NULL;
        if (ctpy_py_to_tagged(items[i], &a, 0) != 0 || a.v[0].tag == CT_TAG_INTLIST || a.v[0].tag == CT_TAG_TENSORLIST) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a list result from __torch_function__ is not supported");
            ct_values_release(rets, i);
            return -1;
        }
        rets[i] = a.v[0];
        if (rets[i].tag == CT_TAG_TENSOR) ct_tensor_retain(rets[i].u.t);
    }
    return 0;
}

static int function_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    PyObject *mode = ud;
    const ct_op *op = ct_function_op(f);
    const ctpy_schema *schema = op ? &((CtOpOverloadObject *)ctpy_op_overload(op))->schema : NULL;
    if (op && !ctpy_op_overload(op)) return ctpy_stash_pyerr();
    PyObject *func = python_function_for(f);
    if (!func) return ctpy_stash_pyerr();
    PyObject *pyargs = NULL, *kwargs = NULL, *types = NULL;
    int n = ct_function_num_args(f);
    if (schema) {
        if (ctpy_handler_args(schema, args, &pyargs, &kwargs) != 0) goto fail;
    } else {
        pyargs = PyTuple_New(n);
        kwargs = PyDict_New();
        if (!pyargs || !kwargs) goto fail;
        for (int i = 0; i < n; i++) {
            PyObject *x = ctpy_tagged_to_py(&args[i]);
            if (!x) goto fail;
            PyTuple_SET_ITEM(pyargs, i, x);
        }
    }
    if (!(types = function_types(pyargs, kwargs))) goto fail;
    PyObject *call[5] = {mode, func, types, pyargs, kwargs};
    PyObject *res = PyObject_VectorcallMethod(str_torch_function, call, 5, NULL);
    Py_DECREF(func);
    Py_DECREF(pyargs);
    Py_DECREF(kwargs);
    Py_DECREF(types);
    if (!res) return ctpy_stash_pyerr();
    if (res == Py_NotImplemented) {
        Py_DECREF(res);
        const char *module = op ? ct_op_python_module(op) : NULL; /* torch.nn.linear */
        PyErr_Format(PyExc_TypeError,
                     "Multiple dispatch failed for 'torch.%s%s%s'; all __torch_function__ handlers returned "
                     "NotImplemented:\n\n  - mode object %R\n\nFor more information, try re-running with "
                     "TORCH_LOGS=not_implemented",
                     module ? module : "", module ? "." : "", ct_function_name(f), mode);
        return ctpy_stash_pyerr();
    }
    int rc = schema ? ctpy_result_to_rets(schema, res, rets) : tagged_result(res, f, rets);
    Py_DECREF(res);
    return rc == 0 ? 0 : ctpy_stash_pyerr();
fail:
    Py_DECREF(func);
    Py_XDECREF(pyargs);
    Py_XDECREF(kwargs);
    Py_XDECREF(types);
    return ctpy_stash_pyerr();
}

/* torch._C._push_on_torch_function_stack(mode) */
static PyObject *push_function_mode(PyObject *unused, PyObject *mode) {
    (void)unused;
    Py_INCREF(mode);
    if (ct_function_mode_push(function_handler, mode) < 0) {
        Py_DECREF(mode);
        return ctpy_raise();
    }
    Py_RETURN_NONE;
}

/* torch._C._pop_torch_function_stack(): the innermost mode, whichever it is */
static PyObject *pop_function_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    ct_function_mode_fn fn;
    void *ud;
    int h = ct_function_mode_top(&fn, &ud);
    if (!h) {
        PyErr_SetString(PyExc_RuntimeError, "trying to pop from empty mode stack");
        return NULL;
    }
    if (fn != function_handler) {
        PyErr_SetString(PyExc_RuntimeError, "the innermost function mode was entered from C (a ctorch mode, not a "
                                            "Python object); it must be exited from C");
        return NULL;
    }
    if (ct_function_mode_pop(h) != 0) return ctpy_raise();
    return ud;
}

static PyObject *len_function_stack(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_function_mode_stack_len());
}

static PyObject *function_stack_at(PyObject *unused, PyObject *arg) {
    (void)unused;
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    ct_function_mode_fn fn = NULL;
    void *ud = NULL;
    int h = ct_function_mode_at((int)i, &fn, &ud);
    if (!h) return PyErr_Format(PyExc_IndexError, "function mode stack index %ld out of range", i);
    return mode_object(h, fn == function_handler, ud, "function");
}

static PyMethodDef mode_functions[] = {
    {"_push_on_torch_dispatch_stack", push_dispatch_mode, METH_O, "Enters a TorchDispatchMode."},
    {"_pop_torch_dispatch_stack", pop_dispatch_mode, METH_O, "Exits the innermost TorchDispatchMode and returns it."},
    {"_len_torch_dispatch_stack", len_dispatch_stack, METH_NOARGS, NULL},
    {"_get_dispatch_stack_at", dispatch_stack_at, METH_O, NULL},
    {"_get_current_dispatch_mode", current_dispatch_mode, METH_NOARGS, NULL},
    {"_push_on_torch_function_stack", push_function_mode, METH_O, "Enters a TorchFunctionMode."},
    {"_pop_torch_function_stack", pop_function_mode, METH_NOARGS, "Exits the innermost TorchFunctionMode and returns it."},
    {"_len_torch_function_stack", len_function_stack, METH_NOARGS, NULL},
    {"_get_function_stack_at", function_stack_at, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_modes_init(PyObject *m) {
    if (PyType_Ready(&CtModeFunction_Type) < 0) return -1;
    str_torch_dispatch = PyUnicode_InternFromString("__torch_dispatch__");
    str_torch_function = PyUnicode_InternFromString("__torch_function__");
    function_objects = PyDict_New();
    if (!str_torch_dispatch || !str_torch_function || !function_objects) return -1;
    return ctpy_add_functions(m, mode_functions);
}
