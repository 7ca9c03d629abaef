/* torch.Generator on ctorch's CPU generator (PyTorch's mt19937 stream, bit for bit). */
#include "ctpy.h"

static PyObject *default_generator;

static void generator_dealloc(PyObject *self) {
    ct_generator_release(((CtGeneratorObject *)self)->g);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *generator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kw[] = {"device", NULL};
    PyObject *device = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Generator", kw, &device)) return NULL;
    if (device && device != Py_None && device != ctpy_cpu_device) {
        PyObject *s = PyObject_Str(device);
        bool cpu = s && PyUnicode_CompareWithASCIIString(s, "cpu") == 0;
        Py_XDECREF(s);
        if (!cpu) return PyErr_Format(PyExc_RuntimeError, "ctorch has only the CPU device; got %R", device);
    }
    ct_generator *g = ct_generator_new();
    if (!g) return ctpy_raise();
    CtGeneratorObject *o = (CtGeneratorObject *)type->tp_alloc(type, 0);
    if (!o) {
        ct_generator_release(g);
        return NULL;
    }
    o->g = g;
    return (PyObject *)o;
}

PyObject *ctpy_generator_wrap(ct_generator *g) {
    if (!g) Py_RETURN_NONE;
    if (g == ct_default_generator() && default_generator) {
        Py_INCREF(default_generator);
        return default_generator;
    }
    CtGeneratorObject *o = PyObject_New(CtGeneratorObject, &CtGenerator_Type);
    if (!o) return NULL;
    o->g = ct_generator_retain(g);
    return (PyObject *)o;
}

/* Python's manual_seed wraps a negative seed to 64 bits (manual_seed(-1) is 2**64 - 1). */
static int seed_of(PyObject *arg, uint64_t *out) {
    PyObject *idx = PyNumber_Index(arg);
    if (!idx) return -1;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(idx);
    Py_DECREF(idx);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static PyObject *generator_manual_seed(PyObject *self, PyObject *arg) {
    uint64_t seed;
    if (seed_of(arg, &seed) != 0) return NULL;
    if (ct_generator_manual_seed(((CtGeneratorObject *)self)->g, seed) != 0) return ctpy_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *generator_initial_seed(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(ct_generator_initial_seed(((CtGeneratorObject *)self)->g));
}

static PyObject *generator_unimplemented(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return ctpy_not_implemented("Generator.seed / get_state / set_state");
}

static PyObject *generator_get_device(PyObject *self, void *c) {
    (void)self;
    (void)c;
    if (!ctpy_cpu_device) Py_RETURN_NONE;
    Py_INCREF(ctpy_cpu_device);
    return ctpy_cpu_device;
}

static PyMethodDef generator_methods[] = {{"manual_seed", generator_manual_seed, METH_O, NULL},
                                          {"initial_seed", generator_initial_seed, METH_NOARGS, NULL},
                                          {"seed", generator_unimplemented, METH_NOARGS, NULL},
                                          {"get_state", generator_unimplemented, METH_NOARGS, NULL},
                                          {"set_state", generator_unimplemented, METH_VARARGS, NULL},
                                          {NULL, NULL, 0, NULL}};

static PyGetSetDef generator_getset[] = {{"device", generator_get_device, NULL, NULL, NULL}, {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject CtGenerator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.Generator",
    .tp_basicsize = sizeof(CtGeneratorObject),
    .tp_dealloc = generator_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A CPU random number generator (PyTorch's CPUGeneratorImpl).",
    .tp_methods = generator_methods,
    .tp_getset = generator_getset,
    .tp_new = generator_new,
};

static PyObject *py_manual_seed(PyObject *unused, PyObject *arg) {
    (void)unused;
    uint64_t seed;
    if (seed_of(arg, &seed) != 0) return NULL;
    ct_manual_seed(seed);
    Py_INCREF(default_generator);
    return default_generator;
}

static PyObject *py_initial_seed(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromUnsignedLongLong(ct_generator_initial_seed(ct_default_generator()));
}

static PyMethodDef generator_functions[] = {{"manual_seed", py_manual_seed, METH_O, "torch.manual_seed"},
                                            {"initial_seed", py_initial_seed, METH_NOARGS, "torch.initial_seed"},
                                            {NULL, NULL, 0, NULL}};

int ctpy_generator_init(PyObject *m) {
    if (PyType_Ready(&CtGenerator_Type) < 0) return -1;
    Py_INCREF(&CtGenerator_Type);
    if (PyModule_AddObject(m, "Generator", (PyObject *)&CtGenerator_Type) < 0) return -1;
    CtGeneratorObject *d = PyObject_New(CtGeneratorObject, &CtGenerator_Type);
    if (!d) return -1;
    d->g = ct_default_generator(); /* borrowed: lives for the process; release is a no-op */
    default_generator = (PyObject *)d;
    Py_INCREF(default_generator);
    if (PyModule_AddObject(m, "default_generator", default_generator) < 0) return -1;
    return ctpy_add_functions(m, generator_functions);
}
