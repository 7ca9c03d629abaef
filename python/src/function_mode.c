/* TorchFunctionMode from Python: a Python mode pushed on ctorch's function-mode stack, kept as
 * dispatch modes are (Note [Python modes on the C stacks] in dispatch_mode.c).
 *
 * A torch function called from Python is offered to Python function modes by
 * torch_function.c's protocol (Note [torch functions and function modes] there). Only calls that
 * ctorch's C code makes (an optimizer step or clip_grad_norm_ written in C calling operators)
 * reach a Python mode through the C stack's handler, function_handler here: they are presented as
 * the torch function of the operator's name, with the arguments PyTorch's binding would pass
 * (defaults left out), and offered as torch_function.c offers every call (ctpy_call_function_mode). */
#include <stdio.h>

#include "bindings.h"
#include "ctpy.h"

static int function_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets);

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
        o = ctpy_mode_function_new(f);
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
    if (!(types = ctpy_overloaded_arg_types(pyargs, kwargs))) goto fail;
    /* named as the torch function it is: torch.add, torch.nn.linear (python_module nn) */
    const char *module = op ? ct_op_python_module(op) : NULL;
    char public_name[160];
    snprintf(public_name, sizeof public_name, "torch.%s%s%s", module ? module : "", module ? "." : "", ct_function_name(f));
    PyObject *res = ctpy_call_function_mode(mode, func, public_name, types, pyargs, kwargs);
    Py_DECREF(func);
    Py_DECREF(pyargs);
    Py_DECREF(kwargs);
    Py_DECREF(types);
    if (!res) return ctpy_stash_pyerr();
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
    return ctpy_mode_object(h, fn == function_handler, ud, "function");
}

static PyMethodDef function_mode_functions[] = {
    {"_push_on_torch_function_stack", push_function_mode, METH_O, "Enters a TorchFunctionMode."},
    {"_pop_torch_function_stack", pop_function_mode, METH_NOARGS, "Exits the innermost TorchFunctionMode and returns it."},
    {"_len_torch_function_stack", len_function_stack, METH_NOARGS, NULL},
    {"_get_function_stack_at", function_stack_at, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_function_mode_init(PyObject *m) {
    function_objects = PyDict_New();
    if (!function_objects || ctpy_mode_function_init() < 0) return -1;
    ctpy_python_function_mode_handler = function_handler; /* torch_function.c tells a Python mode by it */
    return ctpy_add_functions(m, function_mode_functions);
}
