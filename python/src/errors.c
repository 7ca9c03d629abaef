/* ctorch errors as the Python exceptions PyTorch raises, and Python exceptions raised inside
 * handlers carried through ctorch unchanged (Note [Python exceptions inside handlers]). */
#include "ctpy.h"

PyObject *ctpy_NotImplementedInCtorch;

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
    PyObject *exc;
    switch (ct_error_code()) {
    case CT_ERR_VALUE: exc = PyExc_ValueError; break;
    case CT_ERR_TYPE: exc = PyExc_TypeError; break;
    case CT_ERR_INDEX: exc = PyExc_IndexError; break;
    case CT_ERR_NOT_IMPLEMENTED: exc = PyExc_NotImplementedError; break;
    case CT_ERR_NOMEM: exc = PyExc_MemoryError; break;
    case CT_ERR_IO: exc = PyExc_OSError; break;
    case CT_OK: /* a failure without a message would be a library bug: say so */
        PyErr_SetString(PyExc_SystemError, "ctorch call failed without setting an error");
        return NULL;
    default: exc = PyExc_RuntimeError; break;
    }
    PyErr_SetString(exc, ct_error_message());
    ct_error_clear();
    return NULL;
}

int ctpy_raise_int(void) {
    ctpy_raise();
    return -1;
}

PyObject *ctpy_not_implemented(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    PyErr_Format(ctpy_NotImplementedInCtorch, "%s is not implemented in ctorch", buf);
    return NULL;
}

int ctpy_add_functions(PyObject *m, PyMethodDef *defs) { return PyModule_AddFunctions(m, defs); }

int ctpy_errors_init(PyObject *m) {
    /* A NotImplementedError that is also an AttributeError, so hasattr() says False for what
     * ctorch lacks while code that catches NotImplementedError still sees it. */
    PyObject *bases = PyTuple_Pack(2, PyExc_NotImplementedError, PyExc_AttributeError);
    if (!bases) return -1;
    ctpy_NotImplementedInCtorch = PyErr_NewExceptionWithDoc(
        "torch._C.NotImplementedInCtorch", "Raised for a PyTorch API that ctorch does not implement.", bases, NULL);
    Py_DECREF(bases);
    if (!ctpy_NotImplementedInCtorch) return -1;
    Py_INCREF(ctpy_NotImplementedInCtorch);
    return PyModule_AddObject(m, "NotImplementedInCtorch", ctpy_NotImplementedInCtorch);
}
