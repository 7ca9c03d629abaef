/* TorchDispatchMode from Python: a Python mode pushed on ctorch's dispatch-mode stack
 * (include/ctorch/mode.h) as an entry whose user data is the mode object (the stack holds a
 * reference to it) and whose handler is this file's bridge to its __torch_dispatch__. ctorch pops
 * a mode while its handler runs and restores its stacks, TLS sets and grad mode when a handler
 * fails (Note [Python exceptions inside handlers] in ctpy.h).
 *
 * Note [Python modes on the C stacks]
 *   Nothing here keeps a copy of the stacks: popping from Python pops whatever is innermost, as
 *   PyTorch's _pop_torch_dispatch_stack does, so the handles ctorch hands out stay with their
 *   entries however handlers nest modes inside one another. Function modes are kept the same
 *   way (function_mode.c). */
#include "ctpy.h"

static PyObject *str_torch_dispatch;

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

PyObject *ctpy_mode_object(int handle, bool python, void *ud, const char *kind) {
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
    return ctpy_mode_object(h, fn == dispatch_handler, ud, "dispatch");
}

/* The innermost active mode: while a mode's handler runs it is off the stack, so this is the
 * one below. */
static PyObject *current_dispatch_mode(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    ct_dispatch_mode_fn fn = NULL;
    void *ud = NULL;
    int h = ct_dispatch_mode_top(&fn, &ud);
    return ctpy_mode_object(h, fn == dispatch_handler, ud, "dispatch");
}

static PyMethodDef dispatch_mode_functions[] = {
    {"_push_on_torch_dispatch_stack", push_dispatch_mode, METH_O, "Enters a TorchDispatchMode."},
    {"_pop_torch_dispatch_stack", pop_dispatch_mode, METH_O, "Exits the innermost TorchDispatchMode and returns it."},
    {"_len_torch_dispatch_stack", len_dispatch_stack, METH_NOARGS, NULL},
    {"_get_dispatch_stack_at", dispatch_stack_at, METH_O, NULL},
    {"_get_current_dispatch_mode", current_dispatch_mode, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_dispatch_mode_init(PyObject *m) {
    str_torch_dispatch = PyUnicode_InternFromString("__torch_dispatch__");
    if (!str_torch_dispatch) return -1;
    return ctpy_add_functions(m, dispatch_mode_functions);
}
