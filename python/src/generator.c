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
        /* the device's own parse (its errors), then Generator's: CUDA named as PyTorch's
         * CPU-only build names it */
        PyObject *d = ctpy_device_class ? PyObject_CallOneArg(ctpy_device_class, device) : NULL;
        if (!d) return NULL;
        PyObject *ty = PyObject_GetAttrString(d, "type");
        Py_DECREF(d);
        if (!ty) return NULL;
        bool cpu = PyUnicode_CompareWithASCIIString(ty, "cpu") == 0, cuda = PyUnicode_CompareWithASCIIString(ty, "cuda") == 0;
        PyObject *r = cpu ? NULL
                          : cuda ? PyErr_Format(PyExc_RuntimeError, "Device type CUDA is not supported for torch.Generator() api.")
                                 : ctpy_not_implemented("torch.Generator on the %U device", ty);
        Py_DECREF(ty);
        if (!cpu) return r;
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

/* THPGenerator_manualSeed's unpack: an int, a negative one wrapped to 64 bits (manual_seed(-1)
 * is 2**64 - 1), one past uint64 an overflow */
static int seed_of(PyObject *arg, uint64_t *out) {
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_RuntimeError, "manual_seed expected a long, but got %s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    int overflow;
    long long sv = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (overflow < 0 || (overflow == 0 && sv == -1 && PyErr_Occurred())) goto too_big;
    if (overflow == 0) {
        *out = (uint64_t)sv;
        return 0;
    }
    unsigned long long uv = PyLong_AsUnsignedLongLong(arg);
    if (uv == (unsigned long long)-1 && PyErr_Occurred()) goto too_big;
    *out = uv;
    return 0;
too_big:
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
    return -1;
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
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.Generator",
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
