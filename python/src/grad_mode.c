/* Grad mode and inference mode from Python: torch._C._InferenceMode (c10::InferenceMode as a
 * context manager) and the grad-mode switches no_grad, enable_grad and set_grad_enabled use. */
#include "ctpy.h"

/* torch._C._InferenceMode(mode): c10::InferenceMode as a context manager. Entering saves the
 * state and enters; exiting, or the object's death while entered, restores what was saved, as
 * the C++ guard's destructor does (so an inference_mode() entered and dropped undoes itself, as
 * in PyTorch). */
typedef struct {
    PyObject_HEAD
    ct_grad_mode_guard g;
    bool mode;
    bool entered;
} CtInferenceModeObject;

static PyObject *inference_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kw[] = {"mode", NULL};
    PyObject *mode;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:_InferenceMode", kw, &mode)) return NULL;
    if (!PyBool_Check(mode))
        return PyErr_Format(PyExc_TypeError, "_InferenceMode(): argument 'mode' must be bool, not %s", Py_TYPE(mode)->tp_name);
    CtInferenceModeObject *o = (CtInferenceModeObject *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->mode = mode == Py_True;
    o->entered = false;
    return (PyObject *)o;
}

static PyObject *inference_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g); /* entered again: the C++ guard is replaced */
    ct_inference_mode_enter_enabled(&o->g, o->mode);
    o->entered = true;
    Py_RETURN_NONE;
}

static PyObject *inference_exit(PyObject *self, PyObject *args) {
    (void)args;
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g);
    o->entered = false;
    Py_RETURN_NONE;
}

static void inference_dealloc(PyObject *self) {
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g);
    Py_TYPE(self)->tp_free(self);
}

static PyMethodDef inference_methods[] = {{"__enter__", inference_enter, METH_NOARGS, NULL},
                                          {"__exit__", inference_exit, METH_VARARGS, NULL},
                                          {NULL, NULL, 0, NULL}};

static PyTypeObject CtInferenceMode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._InferenceMode",
    .tp_basicsize = sizeof(CtInferenceModeObject),
    .tp_dealloc = inference_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "c10::InferenceMode as a context manager.",
    .tp_methods = inference_methods,
    .tp_new = inference_new,
};

/* torch._C._set_grad_enabled(enabled): a torch function (function modes see it) */
static PyObject *py_set_grad_enabled(PyObject *self, PyObject *arg) {
    (void)self;
    if (ctpy_function_mode_active()) {
        static PyObject *me;
        if (!me) me = PyObject_GetAttrString(PyImport_AddModule("ctorch._C"), "_set_grad_enabled");
        PyObject *args = me ? PyTuple_Pack(1, arg) : NULL;
        if (!args) return NULL;
        bool handled;
        PyObject *r = ctpy_torch_function(me, "torch._C._set_grad_enabled", args, NULL, false, &handled);
        Py_DECREF(args);
        if (handled) return r;
    }
    if (!PyBool_Check(arg))
        return PyErr_Format(PyExc_TypeError, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not %s",
                            Py_TYPE(arg)->tp_name);
    ct_set_grad_enabled(arg == Py_True);
    Py_RETURN_NONE;
}

static PyObject *py_is_grad_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(ct_is_grad_enabled());
}
static PyObject *py_is_inference_mode_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(ct_is_inference_mode_enabled());
}

static PyMethodDef grad_mode_functions[] = {
    {"_set_grad_enabled", py_set_grad_enabled, METH_O, NULL},
    {"is_grad_enabled", py_is_grad_enabled, METH_NOARGS, NULL},
    {"is_inference_mode_enabled", py_is_inference_mode_enabled, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_grad_mode_init(PyObject *m) {
    if (PyType_Ready(&CtInferenceMode_Type) < 0) return -1;
    Py_INCREF(&CtInferenceMode_Type);
    if (PyModule_AddObject(m, "_InferenceMode", (PyObject *)&CtInferenceMode_Type) < 0) return -1;
    return ctpy_add_functions(m, grad_mode_functions);
}
