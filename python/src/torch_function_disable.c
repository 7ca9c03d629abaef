/* torch._C.DisableTorchFunctionSubclass and torch._C.DisableTorchFunction: the context
 * managers that turn the __torch_function__ protocol off for tensor subclasses, or altogether
 * (torch_function.c keeps the thread's depths). The two types share one object layout. */
#include "ctpy.h"

/* torch._C.DisableTorchFunctionSubclass() / DisableTorchFunction(): context managers */
typedef struct {
    PyObject_HEAD
    bool all;
    int entered;
} CtDisableObject;

static PyObject *disable_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    CtDisableObject *o = (CtDisableObject *)self;
    ctpy_torch_function_disable(o->all, 1);
    o->entered++;
    Py_RETURN_NONE;
}

static PyObject *disable_exit(PyObject *self, PyObject *args) {
    (void)args;
    CtDisableObject *o = (CtDisableObject *)self;
    if (o->entered > 0) {
        o->entered--;
        ctpy_torch_function_disable(o->all, -1);
    }
    Py_RETURN_FALSE;
}

static PyMethodDef disable_methods[] = {{"__enter__", disable_enter, METH_NOARGS, NULL},
                                        {"__exit__", disable_exit, METH_VARARGS, NULL},
                                        {NULL, NULL, 0, NULL}};

static PyObject *disable_subclass_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)args;
    (void)kwargs;
    CtDisableObject *o = (CtDisableObject *)type->tp_alloc(type, 0);
    if (o) o->all = false;
    return (PyObject *)o;
}

static PyObject *disable_all_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)args;
    (void)kwargs;
    CtDisableObject *o = (CtDisableObject *)type->tp_alloc(type, 0);
    if (o) o->all = true;
    return (PyObject *)o;
}

static PyTypeObject CtDisableSubclass_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.DisableTorchFunctionSubclass",
    .tp_basicsize = sizeof(CtDisableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Within it, tensor subclasses' __torch_function__ is not called (function modes still are).",
    .tp_methods = disable_methods,
    .tp_new = disable_subclass_new,
};

static PyTypeObject CtDisableAll_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.DisableTorchFunction",
    .tp_basicsize = sizeof(CtDisableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Within it, no __torch_function__ is called (neither modes nor subclasses).",
    .tp_methods = disable_methods,
    .tp_new = disable_all_new,
};

int ctpy_torch_function_disable_init(PyObject *m) {
    if (PyType_Ready(&CtDisableSubclass_Type) < 0 || PyType_Ready(&CtDisableAll_Type) < 0) return -1;
    Py_INCREF(&CtDisableSubclass_Type);
    Py_INCREF(&CtDisableAll_Type);
    if (PyModule_AddObject(m, "DisableTorchFunctionSubclass", (PyObject *)&CtDisableSubclass_Type) < 0 ||
        PyModule_AddObject(m, "DisableTorchFunction", (PyObject *)&CtDisableAll_Type) < 0)
        return -1;
    return 0;
}
