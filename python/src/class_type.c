/* torch.ClassType, as far as ctorch has one: the class of a ScriptObject (its qualified name),
 * what ScriptObject._type() returns. */
#include <string.h>

#include "ctpy.h"

typedef struct {
    PyObject_HEAD
    const char *name; /* qualified, living as long as the process */
} CtClassType;

static PyObject *class_qualified_name(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(((CtClassType *)self)->name);
}

static PyObject *class_name(PyObject *self, PyObject *unused) {
    (void)unused;
    const char *q = ((CtClassType *)self)->name, *dot = strrchr(q, '.');
    return PyUnicode_FromString(dot ? dot + 1 : q);
}

static PyObject *class_repr(PyObject *self) { return PyUnicode_FromString(((CtClassType *)self)->name); }

static PyMethodDef class_methods[] = {{"qualified_name", class_qualified_name, METH_NOARGS, NULL},
                                      {"name", class_name, METH_NOARGS, NULL},
                                      {NULL, NULL, 0, NULL}};

static PyTypeObject CtClassType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.ClassType",
    .tp_basicsize = sizeof(CtClassType),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = class_repr,
    .tp_str = class_repr,
    .tp_methods = class_methods,
    .tp_doc = "The class of a ScriptObject (its qualified name).",
};

PyObject *ctpy_class_type_new(const char *qualified_name) {
    CtClassType *c = PyObject_New(CtClassType, &CtClassType_Type);
    if (c) c->name = qualified_name;
    return (PyObject *)c;
}

int ctpy_class_type_init(PyObject *m) {
    if (PyType_Ready(&CtClassType_Type) < 0) return -1;
    Py_INCREF(&CtClassType_Type);
    return PyModule_AddObject(m, "ClassType", (PyObject *)&CtClassType_Type);
}
