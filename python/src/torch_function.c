/* The __torch_function__ protocol (torch/csrc/utils/python_arg_parser.cpp's
 * handle_torch_function, torch/overrides.py).
 *
 * Note [torch functions and function modes]
 *   A torch function called from Python (torch.add, Tensor.add, x + 1, x[0], x.shape, F.relu,
 *   torch.ops.aten.add.Tensor, Tensor.backward, ...) is offered, before anything is parsed and
 *   with the arguments as the caller wrote them and `func` the public object called (Tensor.add
 *   for x + 1, TensorBase.__getitem__, a property's __get__):
 *     1. to the innermost Python function mode, off the stack while its __torch_function__ runs,
 *        so func(*args, **kwargs) there reaches the next mode down and finally the function;
 *     2. with no Python mode innermost, to the tensor arguments whose class has a
 *        __torch_function__ (a subclass of torch.Tensor: its inherited default runs the function
 *        with subclasses disabled and converts tensor results to the subclass; nn.Parameter opts
 *        out with _disabled_torch_function_impl), subclasses before their bases, until one does
 *        not return NotImplemented.
 *   torch._C.DisableTorchFunctionSubclass turns step 2 off, DisableTorchFunction both. Only
 *   calls ctorch's own C code makes (an optimizer step written in C calling operators) reach a
 *   Python mode through the C stack's handler (function_mode.c). */
#include <string.h>

#include "ctpy.h"

static PyObject *str_torch_function;
static _Thread_local int subclasses_disabled; /* DisableTorchFunctionSubclass / DisableTorchFunction depth */
static _Thread_local int all_disabled;        /* DisableTorchFunction depth */

ct_function_mode_fn ctpy_python_function_mode_handler;

void ctpy_torch_function_disable(bool all, int delta) {
    subclasses_disabled += delta;
    if (all) all_disabled += delta;
}

bool ctpy_function_mode_active(void) { return ct_function_mode_stack_len() > 0; }

/* Whether the innermost function mode is a Python mode (one of ours). */
static bool python_mode_innermost(void) {
    ct_function_mode_fn fn = NULL;
    return ct_function_mode_top(&fn, NULL) && fn == ctpy_python_function_mode_handler;
}

/* ---- classes that take part ---- */

/* torch._C._disabled_torch_function_impl(func, types, args=(), kwargs=None): the
 * __torch_function__ of a class that opts out (nn.Parameter): runs func itself. */
static PyObject *disabled_function_impl(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"func", "types", "args", "kwargs", NULL};
    PyObject *func, *types, *fargs = NULL, *fkwargs = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OO:_disabled_torch_function_impl", kw, &func, &types, &fargs,
                                     &fkwargs))
        return NULL;
    PyObject *tup = fargs ? PySequence_Tuple(fargs) : PyTuple_New(0);
    if (!tup) return NULL;
    PyObject *r = PyObject_Call(func, tup, fkwargs == Py_None ? NULL : fkwargs);
    Py_DECREF(tup);
    return r;
}

static PyMethodDef disabled_function_def = {"_disabled_torch_function_impl",
                                            (PyCFunction)(void (*)(void))disabled_function_impl,
                                            METH_VARARGS | METH_KEYWORDS,
                                            "The __torch_function__ of a tensor class that opts out (runs func)."};
PyObject *ctpy_disabled_torch_function;

bool ctpy_has_torch_function_override(PyTypeObject *type) {
    /* PyTorch's check_has_torch_function: any class but Tensor itself whose __torch_function__
     * is not _disabled_torch_function_impl takes part, Tensor's default one included (that is
     * what makes a plain `class Sub(torch.Tensor)` get Sub results back) */
    if ((PyObject *)type == (PyObject *)ctpy_tensor_class) return false;
    PyObject *mine = _PyType_Lookup(type, str_torch_function);
    return mine && mine != ctpy_disabled_torch_function;
}


/* ---- overloaded arguments ---- */

/* A tensor whose class takes part: not exactly torch.Tensor, with a __torch_function__ that is
 * not the disabled one (check_has_torch_function). */
static bool overloaded(PyObject *o) {
    return ctpy_is_tensor(o) && Py_TYPE(o) != ctpy_tensor_class && ctpy_has_torch_function_override(Py_TYPE(o));
}

static bool any_overloaded(PyObject *o) {
    if (overloaded(o)) return true;
    if (PyList_Check(o) || PyTuple_Check(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n; i++)
            if (overloaded(PySequence_Fast_GET_ITEM(o, i))) return true;
    }
    return false;
}

bool ctpy_torch_function_wanted(PyObject *const *args, Py_ssize_t n) {
    if (all_disabled) return false;
    if (ctpy_function_mode_active()) return true;
    if (subclasses_disabled) return false;
    for (Py_ssize_t i = 0; i < n; i++)
        if (any_overloaded(args[i])) return true;
    return false;
}

#define MAX_OVERLOADED 16

/* PyTorch's append_overloaded_tensor: first appearance order, a subclass before its base, one
 * object per type */
static void add_overloaded(PyObject *o, PyObject **objs, int *k) {
    if (!overloaded(o) || *k == MAX_OVERLOADED) return;
    PyTypeObject *t = Py_TYPE(o);
    for (int j = 0; j < *k; j++)
        if (Py_TYPE(objs[j]) == t) return;
    int at = *k;
    for (int j = 0; j < *k; j++)
        if (PyType_IsSubtype(t, Py_TYPE(objs[j]))) {
            at = j;
            break;
        }
    for (int j = *k; j > at; j--) objs[j] = objs[j - 1];
    objs[at] = o;
    (*k)++;
}

static void collect_from(PyObject *o, PyObject **objs, int *k) {
    if (PyList_Check(o) || PyTuple_Check(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n; i++) add_overloaded(PySequence_Fast_GET_ITEM(o, i), objs, k);
    } else {
        add_overloaded(o, objs, k);
    }
}

static int collect(PyObject *args, PyObject *kwargs, PyObject **objs) {
    int k = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) collect_from(PyTuple_GET_ITEM(args, i), objs, &k);
    if (kwargs) {
        Py_ssize_t pos = 0;
        PyObject *key, *val;
        while (PyDict_Next(kwargs, &pos, &key, &val)) collect_from(val, objs, &k);
    }
    return k;
}

static PyObject *types_of(PyObject **objs, int k) {
    PyObject *t = PyTuple_New(k);
    for (int i = 0; t && i < k; i++) {
        Py_INCREF(Py_TYPE(objs[i]));
        PyTuple_SET_ITEM(t, i, (PyObject *)Py_TYPE(objs[i]));
    }
    return t;
}

/* ---- the protocol ---- */

PyObject *ctpy_call_function_mode(PyObject *mode, PyObject *func, const char *public_name, PyObject *types,
                                  PyObject *args, PyObject *kwargs) {
    PyObject *call[5] = {mode, func, types, args, kwargs};
    PyObject *r = PyObject_VectorcallMethod(str_torch_function, call, 5, NULL);
    if (r != Py_NotImplemented) return r;
    Py_DECREF(r);
    return PyErr_Format(PyExc_TypeError,
                        "Multiple dispatch failed for '%s'; all __torch_function__ handlers returned "
                        "NotImplemented:\n\n  - mode object %R\n\nFor more information, try re-running with "
                        "TORCH_LOGS=not_implemented",
                        public_name, mode);
}

typedef struct {
    PyObject *func, *types, *args, *kwargs;
    const char *public_name;
    PyObject *result;
} mode_call;

static int run_mode(void *ctx, ct_function_mode_fn fn, void *ud) {
    (void)fn;
    mode_call *c = ctx;
    PyObject *mode = ud;
    Py_INCREF(mode); /* the stack's reference is off the stack while the handler runs */
    c->result = ctpy_call_function_mode(mode, c->func, c->public_name, c->types, c->args, c->kwargs);
    Py_DECREF(mode);
    return c->result ? 0 : -1;
}

static PyObject *offer_to_mode(PyObject *func, const char *public_name, PyObject *args, PyObject *kwargs, PyObject *types) {
    mode_call c = {func, types, args, kwargs, public_name, NULL};
    int rc = ct_function_mode_run_top(run_mode, &c);
    if (rc != 0 && !c.result) {
        if (!PyErr_Occurred()) ctpy_raise();
        return NULL;
    }
    return c.result;
}

static PyObject *offer_to_subclasses(PyObject *func, const char *public_name, PyObject *args, PyObject *kwargs,
                                     PyObject **objs, int k, PyObject *types) {
    for (int i = 0; i < k; i++) {
        /* the class's attribute: its classmethod, bound to the class */
        PyObject *fn = PyObject_GetAttr((PyObject *)Py_TYPE(objs[i]), str_torch_function);
        if (!fn) return NULL;
        PyObject *call[4] = {func, types, args, kwargs};
        PyObject *r = PyObject_Vectorcall(fn, call, 4, NULL);
        Py_DECREF(fn);
        if (!r || r != Py_NotImplemented) return r;
        Py_DECREF(r);
    }
    PyObject *lines = PyUnicode_FromString("");
    for (int i = 0; lines && i < k; i++) {
        PyObject *l = PyUnicode_FromFormat("%U  - tensor subclass %R\n", lines, (PyObject *)Py_TYPE(objs[i]));
        Py_DECREF(lines);
        lines = l;
    }
    if (!lines) return NULL;
    PyErr_Format(PyExc_TypeError,
                 "Multiple dispatch failed for '%s'; all __torch_function__ handlers returned NotImplemented:\n\n%U\nFor "
                 "more information, try re-running with TORCH_LOGS=not_implemented",
                 public_name, lines);
    Py_DECREF(lines);
    return NULL;
}

/* given_types: a Python caller's (handle_torch_function's relevant arguments), else derived */
static PyObject *torch_function(PyObject *func, const char *public_name, PyObject *args, PyObject *kwargs,
                                PyObject *given_types, bool unary, bool *handled) {
    *handled = false;
    if (all_disabled) return NULL;
    bool mode = python_mode_innermost();
    if (!mode && (subclasses_disabled || ct_function_mode_stack_len() > 0))
        return NULL; /* a C mode innermost sees the call as C (ct_op_invoke), or subclasses are off */
    PyObject *objs[MAX_OVERLOADED];
    int k = subclasses_disabled ? 0 : collect(args, kwargs, objs);
    if (!mode && k == 0) return NULL;
    *handled = true;
    PyObject *empty = NULL;
    if (!kwargs) kwargs = empty = PyDict_New();
    PyObject *types = given_types;
    if (types) Py_INCREF(types);
    else if (unary && PyTuple_GET_SIZE(args) == 1 && ctpy_is_tensor(PyTuple_GET_ITEM(args, 0)))
        /* a method of self alone: handle_torch_function(self, ...) passes type(self) */
        types = PyTuple_Pack(1, (PyObject *)Py_TYPE(PyTuple_GET_ITEM(args, 0)));
    else
        types = types_of(objs, k);
    PyObject *r = NULL;
    if (kwargs && types)
        r = mode ? offer_to_mode(func, public_name, args, kwargs, types)
                 : offer_to_subclasses(func, public_name, args, kwargs, objs, k, types);
    Py_XDECREF(types);
    Py_XDECREF(empty);
    return r;
}

PyObject *ctpy_torch_function(PyObject *func, const char *public_name, PyObject *args, PyObject *kwargs, bool unary,
                              bool *handled) {
    return torch_function(func, public_name, args, kwargs, NULL, unary, handled);
}

PyObject *ctpy_torch_function_vector(PyObject *func, const char *public_name, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames, bool unary, bool *handled) {
    *handled = false;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (!ctpy_torch_function_wanted(args, nargs + nkw)) return NULL;
    PyObject *tup = PyTuple_New(nargs);
    PyObject *kw = PyDict_New();
    if (!tup || !kw) goto fail;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(tup, i, args[i]);
    }
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) goto fail;
    PyObject *r = torch_function(func, public_name, tup, kw, NULL, unary && nargs == 1 && nkw == 0, handled);
    Py_DECREF(tup);
    Py_DECREF(kw);
    return r;
fail:
    *handled = true;
    Py_XDECREF(tup);
    Py_XDECREF(kw);
    return NULL;
}

/* ---- from Python ---- */

/* torch._C._has_torch_function(relevant_args): whether a torch function written in Python must
 * go through handle_torch_function (a Python mode innermost, or an overloaded argument) */
static PyObject *py_has_torch_function(PyObject *unused, PyObject *arg) {
    (void)unused;
    if (all_disabled) Py_RETURN_FALSE;
    if (python_mode_innermost()) Py_RETURN_TRUE;
    if (subclasses_disabled) Py_RETURN_FALSE;
    PyObject *seq = PySequence_Fast(arg, "relevant_args must be a sequence");
    if (!seq) return NULL;
    bool any = false;
    for (Py_ssize_t i = 0; !any && i < PySequence_Fast_GET_SIZE(seq); i++) any = any_overloaded(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyBool_FromLong(any);
}

/* torch._C._is_torch_function_mode_enabled() */
static PyObject *py_function_mode_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(!all_disabled && python_mode_innermost());
}

static PyObject *py_is_torch_function_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(!subclasses_disabled);
}

/* The name handle_torch_function gives func in messages: "<module>.<qualname>", torch's modules
 * under torch (ctorch.nn.functional.relu is torch.nn.functional.relu). New reference. */
static PyObject *qualified_name(PyObject *func) {
    PyObject *module = PyObject_GetAttrString(func, "__module__");
    if (!module) PyErr_Clear();
    if (!module || module == Py_None || !PyUnicode_Check(module) || PyUnicode_GET_LENGTH(module) == 0) {
        Py_XDECREF(module);
        module = PyUnicode_FromString("torch");
        if (!module) return NULL;
    }
    PyObject *name = PyObject_GetAttrString(func, "__qualname__");
    if (!name) {
        PyErr_Clear();
        name = PyObject_GetAttrString(func, "__name__");
    }
    if (!name) {
        PyErr_Clear();
        name = PyObject_Repr(func);
    }
    PyObject *r = NULL;
    if (name) {
        const char *m = PyUnicode_AsUTF8(module);
        if (m && strncmp(m, "ctorch", 6) == 0) r = PyUnicode_FromFormat("torch%s.%S", m + 6, name);
        else if (m) r = PyUnicode_FromFormat("%U.%S", module, name);
    }
    Py_DECREF(module);
    Py_XDECREF(name);
    return r;
}

/* The types handle_torch_function passes for a Python function's relevant arguments: every
 * tensor's class (a plain Tensor's too), once, a subclass before the first of its bases, as
 * PyTorch's _get_overloaded_args orders them for a mode. New tuple. */
static PyObject *relevant_types(PyObject *relevant) {
    PyObject *seq = PySequence_Fast(relevant, "relevant_args must be a sequence");
    if (!seq) return NULL;
    PyObject *types = PyList_New(0);
    for (Py_ssize_t i = 0; types && i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *a = PySequence_Fast_GET_ITEM(seq, i);
        if (!ctpy_is_tensor(a)) continue;
        PyObject *t = (PyObject *)Py_TYPE(a);
        int seen = PySequence_Contains(types, t);
        if (seen != 0) {
            if (seen < 0) Py_CLEAR(types);
            continue;
        }
        Py_ssize_t at = PyList_GET_SIZE(types);
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(types); j++)
            if (PyType_IsSubtype((PyTypeObject *)t, (PyTypeObject *)PyList_GET_ITEM(types, j))) {
                at = j;
                break;
            }
        if (PyList_Insert(types, at, t) < 0) Py_CLEAR(types);
    }
    Py_DECREF(seq);
    PyObject *r = types ? PyList_AsTuple(types) : NULL;
    Py_XDECREF(types);
    return r;
}

/* torch.overrides.handle_torch_function(public_api, relevant_args, *args, **kwargs): a torch
 * function written in Python offered to the innermost Python function mode or the overloaded
 * arguments as public_api(*args, **kwargs); when none takes it, public_api runs. */
static PyObject *py_handle_torch_function_public(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    if (PyTuple_GET_SIZE(args) < 2)
        return PyErr_Format(PyExc_TypeError, "handle_torch_function() missing required arguments: 'public_api' and "
                                             "'relevant_args'");
    PyObject *func = PyTuple_GET_ITEM(args, 0), *relevant = PyTuple_GET_ITEM(args, 1);
    PyObject *rest = PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args));
    PyObject *name = rest ? qualified_name(func) : NULL;
    PyObject *types = name ? relevant_types(relevant) : NULL;
    PyObject *r = NULL;
    if (types) {
        bool handled;
        r = torch_function(func, PyUnicode_AsUTF8(name), rest, kwargs, types, false, &handled);
        if (!handled) r = PyObject_Call(func, rest, kwargs);
    }
    Py_XDECREF(rest);
    Py_XDECREF(name);
    Py_XDECREF(types);
    return r;
}

/* torch._C._has_torch_function_unary(arg) / _has_torch_function_variadic(*args) */
static PyObject *py_has_torch_function_unary(PyObject *unused, PyObject *arg) {
    PyObject *t = PyTuple_Pack(1, arg);
    if (!t) return NULL;
    PyObject *r = py_has_torch_function(unused, t);
    Py_DECREF(t);
    return r;
}
static PyObject *py_has_torch_function_variadic(PyObject *unused, PyObject *args) { return py_has_torch_function(unused, args); }

PyObject *ctpy_overloaded_arg_types(PyObject *args, PyObject *kwargs) {
    PyObject *objs[MAX_OVERLOADED];
    return types_of(objs, collect(args, kwargs, objs));
}

static PyMethodDef torch_function_functions[] = {
    {"handle_torch_function", (PyCFunction)(void (*)(void))py_handle_torch_function_public, METH_VARARGS | METH_KEYWORDS,
     "torch.overrides.handle_torch_function(public_api, relevant_args, *args, **kwargs)"},
    {"_has_torch_function", py_has_torch_function, METH_O, NULL},
    {"_has_torch_function_unary", py_has_torch_function_unary, METH_O, NULL},
    {"_has_torch_function_variadic", py_has_torch_function_variadic, METH_VARARGS, NULL},
    {"_is_torch_function_mode_enabled", py_function_mode_enabled, METH_NOARGS, NULL},
    {"_is_torch_function_enabled", py_is_torch_function_enabled, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_torch_function_init(PyObject *m) {
    str_torch_function = PyUnicode_InternFromString("__torch_function__");
    ctpy_disabled_torch_function = PyCFunction_NewEx(&disabled_function_def, NULL, NULL);
    if (!str_torch_function || !ctpy_disabled_torch_function) return -1;
    Py_INCREF(ctpy_disabled_torch_function);
    if (PyModule_AddObject(m, "_disabled_torch_function_impl", ctpy_disabled_torch_function) < 0) return -1;
    return ctpy_add_functions(m, torch_function_functions);
}
