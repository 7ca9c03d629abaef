/* torch.ScriptObject: an opaque custom-class value passed between operators
 * (profiler._RecordFunction, which _record_function_enter_new returns and
 * _record_function_exit consumes). */
#include "ctpy.h"

typedef struct {
    PyObject_HEAD
    void *p;                /* owned by ctorch (the op that consumes it frees it) */
    const char *class_name; /* "__torch__.torch.classes.profiler._RecordFunction", or NULL */
} CtScriptObject;

/* PyTorch's ScriptObject: str() names the class, "ScriptObject <__torch__.torch.classes...>";
 * repr() is object's, "<torch.ScriptObject object at 0x...>" */
static PyObject *script_repr(PyObject *self) { return PyUnicode_FromFormat("<torch.ScriptObject object at %p>", self); }

static PyObject *script_str(PyObject *self) {
    const CtScriptObject *o = (const CtScriptObject *)self;
    if (o->class_name) return PyUnicode_FromFormat("ScriptObject <%s>", o->class_name);
    return script_repr(self);
}

/* ScriptObject._type() */
static PyObject *script_type(PyObject *self, PyObject *unused) {
    (void)unused;
    const CtScriptObject *o = (const CtScriptObject *)self;
    if (!o->class_name) return ctpy_not_implemented("ScriptObject._type() of an object of unknown class");
    return ctpy_class_type_new(o->class_name);
}

static PyMethodDef script_methods[] = {{"_type", script_type, METH_NOARGS, "The object's class type."},
                                       {NULL, NULL, 0, NULL}};

static PyTypeObject CtScriptObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.ScriptObject",
    .tp_basicsize = sizeof(CtScriptObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = script_repr,
    .tp_str = script_str,
    .tp_methods = script_methods,
    .tp_doc = "A custom-class value passed between operators (e.g. profiler._RecordFunction).",
};

PyObject *ctpy_script_object(void *p, const char *class_name) {
    CtScriptObject *o = PyObject_New(CtScriptObject, &CtScriptObject_Type);
    if (o) {
        o->p = p;
        o->class_name = class_name;
    }
    return (PyObject *)o;
}

void *ctpy_script_object_ptr(PyObject *o) {
    return PyObject_TypeCheck(o, &CtScriptObject_Type) ? ((CtScriptObject *)o)->p : NULL;
}

int ctpy_script_object_init(PyObject *m) {
    if (PyType_Ready(&CtScriptObject_Type) < 0) return -1;
    Py_INCREF(&CtScriptObject_Type);
    return PyModule_AddObject(m, "ScriptObject", (PyObject *)&CtScriptObject_Type);
}
