/* ctorch errors as the Python exceptions PyTorch raises, and Python exceptions raised inside
 * handlers carried through ctorch unchanged (Note [Python exceptions inside handlers]). */
#include <string.h>

#include "ctpy.h"

PyObject *ctpy_NotImplementedInCtorch, *ctpy_NotImplementedInCtorchAttribute;

/* Each kind of ctorch error's Python class, found by the name the error-kind table gives it
 * (ct_error_kind_exception: a builtin, or NotImplementedInCtorch), when the module is made. */
static PyObject *kind_exception[CT_ERR_KIND_COUNT];

static int find_kind_exceptions(void) {
    PyObject *builtins = PyEval_GetBuiltins(); /* borrowed */
    for (int k = 1; k < CT_ERR_KIND_COUNT; k++) {
        const char *name = ct_error_kind_exception((ct_error_kind)k);
        PyObject *cls = strcmp(name, "NotImplementedInCtorch") == 0 ? ctpy_NotImplementedInCtorch
                                                                    : PyDict_GetItemString(builtins, name);
        if (!cls || !PyExceptionClass_Check(cls)) {
            PyErr_Format(PyExc_SystemError, "the error kind %s names no exception class: %s",
                         ct_error_kind_name((ct_error_kind)k), name);
            return -1;
        }
        kind_exception[k] = cls;
    }
    return 0;
}

/* The exception a handler raised, waiting for the extension call that entered ctorch. One per
 * thread, like ctorch's own error. */
static _Thread_local struct {
    PyObject *type, *value, *tb;
} stash;

static void stash_clear(void) {
    Py_CLEAR(stash.type);
    Py_CLEAR(stash.value);
    Py_CLEAR(stash.tb);
}

int ctpy_stash_pyerr(void) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    /* the C library may print or keep the message: give it the Python text */
    const char *msg = "";
    PyObject *s = value ? PyObject_Str(value) : NULL;
    if (s) msg = PyUnicode_AsUTF8(s);
    if (!msg) {
        PyErr_Clear();
        msg = "";
    }
    ct_error_set(CT_ERR_RUNTIME, "%s: %s", type ? ((PyTypeObject *)type)->tp_name : "Exception", msg);
    Py_XDECREF(s);
    stash_clear();
    stash.type = type;
    stash.value = value;
    stash.tb = tb;
    return -1;
}

PyObject *ctpy_raise(void) {
    if (stash.type) {
        PyErr_Restore(stash.type, stash.value, stash.tb);
        stash.type = stash.value = stash.tb = NULL;
        ct_error_clear();
        return NULL;
    }
    if (PyErr_Occurred()) return NULL; /* raised by the binding itself */
    const ct_error_kind kind = ct_error_code();
    if (kind == CT_OK) { /* a failure without a message would be a library bug: say so */
        PyErr_SetString(PyExc_SystemError, "ctorch call failed without setting an error");
        return NULL;
    }
    PyObject *exc = (int)kind > 0 && (int)kind < CT_ERR_KIND_COUNT ? kind_exception[kind] : PyExc_RuntimeError;
    PyErr_SetString(exc, ct_error_message());
    ct_error_clear();
    return NULL;
}

int ctpy_raise_int(void) {
    ctpy_raise();
    return -1;
}

PyObject *ctpy_not_implemented(const char *fmt, ...) {
    /* Python's formatter, so %S, %R and %U name objects (C's vsnprintf has no such directives) */
    va_list ap;
    va_start(ap, fmt);
    PyObject *what = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (!what) return NULL;
    PyErr_Format(ctpy_NotImplementedInCtorch, "%U is not implemented in ctorch", what);
    Py_DECREF(what);
    return NULL;
}

int ctpy_add_functions(PyObject *m, PyMethodDef *defs) { return PyModule_AddFunctions(m, defs); }

/* Note [NotImplementedInCtorch]
 *   What ctorch lacks raises NotImplementedInCtorch, a direct subclass of Exception: not a
 *   NotImplementedError, RuntimeError or TypeError, which PyTorch itself raises for "not
 *   supported here" (a missing kernel, an unsupported dtype), so code that catches those as an
 *   answer (a NaN check that skips ops without a kernel) never takes a missing ctorch feature
 *   for one. A missing attribute (torch.exp, Tensor.exp) raises its subclass that is also an
 *   AttributeError, so hasattr() and getattr(x, name, default) say "not there", as they must. */
int ctpy_errors_init(PyObject *m) {
    ctpy_NotImplementedInCtorch = PyErr_NewExceptionWithDoc(
        "torch._C.NotImplementedInCtorch",
        "Raised for a PyTorch API that ctorch does not implement (deliberately not a NotImplementedError: "
        "docs/python.md).",
        PyExc_Exception, NULL);
    if (!ctpy_NotImplementedInCtorch) return -1;
    PyObject *bases = PyTuple_Pack(2, ctpy_NotImplementedInCtorch, PyExc_AttributeError);
    if (!bases) return -1;
    ctpy_NotImplementedInCtorchAttribute = PyErr_NewExceptionWithDoc(
        "torch._C.NotImplementedInCtorch", "An attribute PyTorch has and ctorch does not (also an AttributeError).",
        bases, NULL);
    Py_DECREF(bases);
    if (!ctpy_NotImplementedInCtorchAttribute || find_kind_exceptions() < 0) return -1;
    Py_INCREF(ctpy_NotImplementedInCtorch);
    Py_INCREF(ctpy_NotImplementedInCtorchAttribute);
    if (PyModule_AddObject(m, "NotImplementedInCtorch", ctpy_NotImplementedInCtorch) < 0) return -1;
    return PyModule_AddObject(m, "_NotImplementedInCtorchAttribute", ctpy_NotImplementedInCtorchAttribute);
}
