/* TorchDispatchMode and TorchFunctionMode: Python modes pushed on ctorch's own mode stacks
 * (include/ctorch/mode.h). ctorch pops a mode while its handler runs and restores its stacks,
 * TLS sets and grad mode when a handler fails (Note [Python exceptions inside handlers]). */
#include <string.h>

#include "ctpy.h"

static PyObject *str_torch_dispatch, *str_torch_function;
/* The Python modes pushed from Python, bottom first. The C stacks hold the same objects as
 * their handlers' user data; these lists keep them alive while pushed. */
static PyObject *dispatch_modes, *function_modes;
/* The handle ct_dispatch_mode_push gave each mode on this thread's C stack, by stack position:
 * _pop_mode exits the innermost one with its own handle. */
static _Thread_local int dispatch_handles[CT_MAX_MODES];

bool ctpy_dispatch_mode_active(void) { return ct_dispatch_mode_stack_len() > 0; }

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
    int rc = ctpy_result_to_rets(&func->schema, res, rets);
    Py_DECREF(res);
    return rc == 0 ? 0 : ctpy_stash_pyerr();
}

static PyObject *push_dispatch_mode(PyObject *unused, PyObject *mode) {
    (void)unused;
    int handle = ct_dispatch_mode_push(dispatch_handler, mode);
    if (handle < 0) return ctpy_raise();
    dispatch_handles[ct_dispatch_mode_stack_len() - 1] = handle;
    if (PyList_Append(dispatch_modes, mode) < 0) {
        ct_dispatch_mode_pop(handle);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *pop_dispatch_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    Py_ssize_t n = PyList_GET_SIZE(dispatch_modes);
    if (n == 0 || ct_dispatch_mode_stack_len() == 0) {
        PyErr_SetString(PyExc_RuntimeError, "trying to pop from empty mode stack");
        return NULL;
    }
    if (ct_dispatch_mode_pop(dispatch_handles[ct_dispatch_mode_stack_len() - 1]) != 0) return ctpy_raise();
    PyObject *mode = PyList_GET_ITEM(dispatch_modes, n - 1);
    Py_INCREF(mode);
    if (PyList_SetSlice(dispatch_modes, n - 1, n, NULL) < 0) {
        Py_DECREF(mode);
        return NULL;
    }
    return mode;
}

static PyObject *len_dispatch_stack(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_dispatch_mode_stack_len());
}

/* The innermost active mode: while a mode's handler runs it is popped, so this is the one below. */
static PyObject *current_dispatch_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    int n = ct_dispatch_mode_stack_len();
    if (n == 0 || n > PyList_GET_SIZE(dispatch_modes)) Py_RETURN_NONE;
    PyObject *m = PyList_GET_ITEM(dispatch_modes, n - 1);
    Py_INCREF(m);
    return m;
}

/* ---- function modes ---- */

typedef struct {
    PyObject_HEAD
    const ct_function *f; /* lives for the process */
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
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (ctpy_py_to_tagged(args[i], &a, (int)i) != 0) return NULL;
    ct_value rets[CTPY_MAX_RETS];
    for (int i = 0; i < nrets; i++) rets[i] = ct_none();
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
    .tp_doc = "The function a TorchFunctionMode's __torch_function__ receives; calling it runs the function.",
    .tp_getset = mode_function_getset,
};

static PyObject *function_objects; /* PyLong(ct_function pointer) -> _ModeFunction */

static PyObject *mode_function_for(const ct_function *f) {
    PyObject *key = PyLong_FromVoidPtr((void *)f);
    if (!key) return NULL;
    PyObject *o = PyDict_GetItemWithError(function_objects, key);
    if (o || PyErr_Occurred()) {
        Py_DECREF(key);
        Py_XINCREF(o);
        return o;
    }
    CtModeFunctionObject *n = PyObject_New(CtModeFunctionObject, &CtModeFunction_Type);
    if (n) {
        n->f = f;
        n->vectorcall = mode_function_vectorcall;
        if (PyDict_SetItem(function_objects, key, (PyObject *)n) < 0) Py_CLEAR(n);
    }
    Py_DECREF(key);
    return (PyObject *)n;
}

static int function_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    PyObject *mode = ud;
    int n = ct_function_num_args(f), nrets = ct_function_num_returns(f);
    PyObject *func = mode_function_for(f);
    if (!func) return ctpy_stash_pyerr();
    PyObject *pyargs = PyTuple_New(n);
    PyObject *kwargs = PyDict_New();
    PyObject *types = ctpy_overloaded_types(args, n);
    if (!pyargs || !kwargs || !types) goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *x = ctpy_tagged_to_py(&args[i]);
        if (!x) goto fail;
        PyTuple_SET_ITEM(pyargs, i, x);
    }
    PyObject *call[5] = {mode, func, types, pyargs, kwargs};
    PyObject *res = PyObject_VectorcallMethod(str_torch_function, call, 5, NULL);
    Py_DECREF(func);
    Py_DECREF(pyargs);
    Py_DECREF(kwargs);
    Py_DECREF(types);
    if (!res) return ctpy_stash_pyerr();
    /* the result by its Python type */
    int rc = 0;
    if (nrets == 1 || nrets == 0) {
        ctpy_args a;
        a.n_owned = a.n_tl = 0;
        if (nrets == 1) {
            if (ctpy_py_to_tagged(res, &a, 0) != 0) rc = -1;
            else {
                rets[0] = a.v[0];
                if (rets[0].tag == CT_TAG_TENSOR) ct_tensor_retain(rets[0].u.t);
                if (rets[0].tag == CT_TAG_INTLIST || rets[0].tag == CT_TAG_TENSORLIST) {
                    PyErr_SetString(PyExc_TypeError, "a list result from __torch_function__ is not supported");
                    rets[0] = ct_none();
                    rc = -1;
                }
            }
        }
    } else if ((PyTuple_Check(res) || PyList_Check(res)) && PySequence_Fast_GET_SIZE(res) == nrets) {
        for (int i = 0; i < nrets && rc == 0; i++) {
            ctpy_args a;
            a.n_owned = a.n_tl = 0;
            if (ctpy_py_to_tagged(PySequence_Fast_GET_ITEM(res, i), &a, 0) != 0) {
                ct_values_release(rets, i);
                rc = -1;
            } else {
                rets[i] = a.v[0];
                if (rets[i].tag == CT_TAG_TENSOR) ct_tensor_retain(rets[i].u.t);
                if (rets[i].tag == CT_TAG_INTLIST || rets[i].tag == CT_TAG_TENSORLIST) {
                    PyErr_SetString(PyExc_TypeError, "a list result from __torch_function__ is not supported");
                    rets[i] = ct_none();
                    ct_values_release(rets, i);
                    rc = -1;
                }
            }
        }
    } else {
        PyErr_Format(PyExc_TypeError, "%s() returns %d values", ct_function_name(f), nrets);
        rc = -1;
    }
    Py_DECREF(res);
    return rc == 0 ? 0 : ctpy_stash_pyerr();
fail:
    Py_DECREF(func);
    Py_XDECREF(pyargs);
    Py_XDECREF(kwargs);
    Py_XDECREF(types);
    return ctpy_stash_pyerr();
}

static PyObject *push_function_mode(PyObject *unused, PyObject *mode) {
    (void)unused;
    const int handle = ct_function_mode_push(function_handler, mode);
    if (handle < 0) return ctpy_raise();
    if (PyList_Append(function_modes, mode) < 0) {
        ct_function_mode_pop(handle);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *pop_function_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    Py_ssize_t n = PyList_GET_SIZE(function_modes);
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "trying to pop from empty function mode stack");
        return NULL;
    }
    /* torch.overrides._pop_mode exits the innermost mode, whichever it is */
    if (ct_function_mode_pop(ct_function_mode_top_handle()) != 0) return ctpy_raise();
    PyObject *mode = PyList_GET_ITEM(function_modes, n - 1);
    Py_INCREF(mode);
    if (PyList_SetSlice(function_modes, n - 1, n, NULL) < 0) {
        Py_DECREF(mode);
        return NULL;
    }
    return mode;
}

static PyObject *len_function_stack(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromSsize_t(PyList_GET_SIZE(function_modes));
}

static PyMethodDef mode_functions[] = {
    {"_push_dispatch_mode", push_dispatch_mode, METH_O, "Enters a TorchDispatchMode."},
    {"_pop_dispatch_mode", pop_dispatch_mode, METH_NOARGS, "Exits the innermost TorchDispatchMode and returns it."},
    {"_len_torch_dispatch_stack", len_dispatch_stack, METH_NOARGS, NULL},
    {"_get_current_dispatch_mode", current_dispatch_mode, METH_NOARGS, NULL},
    {"_push_function_mode", push_function_mode, METH_O, "Enters a TorchFunctionMode."},
    {"_pop_function_mode", pop_function_mode, METH_NOARGS, "Exits the innermost TorchFunctionMode and returns it."},
    {"_len_torch_function_stack", len_function_stack, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_modes_init(PyObject *m) {
    if (PyType_Ready(&CtModeFunction_Type) < 0) return -1;
    str_torch_dispatch = PyUnicode_InternFromString("__torch_dispatch__");
    str_torch_function = PyUnicode_InternFromString("__torch_function__");
    dispatch_modes = PyList_New(0);
    function_modes = PyList_New(0);
    function_objects = PyDict_New();
    if (!str_torch_dispatch || !str_torch_function || !dispatch_modes || !function_modes || !function_objects) return -1;
    return ctpy_add_functions(m, mode_functions);
}
