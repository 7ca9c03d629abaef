/* The classes and constants the Python package registers for the extension to hand out
 * (torch._C._register: torch.Tensor, torch.Size, torch.strided, the memory formats, the CPU
 * device and the device check), and what the extension makes of them: a torch.Size, a
 * device argument checked, a memory format's name. */
#include "ctpy.h"

PyObject *ctpy_size_class, *ctpy_strided, *ctpy_contiguous_format, *ctpy_preserve_format, *ctpy_cpu_device,
    *ctpy_device_class, *ctpy_check_device_fn;

static PyObject *py_register(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"tensor", "size", "strided", "contiguous_format", "preserve_format", "cpu", "device",
                         "check_device", NULL};
    PyObject *tensor, *size, *strided, *cf, *pf, *cpu, *device, *check;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOO", kw, &tensor, &size, &strided, &cf, &pf, &cpu, &device,
                                     &check))
        return NULL;
    if (!PyType_Check(tensor) || !PyType_IsSubtype((PyTypeObject *)tensor, &CtTensorBase_Type))
        return PyErr_Format(PyExc_TypeError, "tensor must be a TensorBase subclass");
    PyObject *objs[] = {tensor, size, strided, cf, pf, cpu, device, check};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) Py_INCREF(objs[i]);
    ctpy_tensor_class = (PyTypeObject *)tensor;
    ctpy_size_class = size;
    ctpy_strided = strided;
    ctpy_contiguous_format = cf;
    ctpy_preserve_format = pf;
    ctpy_cpu_device = cpu;
    ctpy_device_class = device;
    ctpy_check_device_fn = check;
    Py_RETURN_NONE;
}

PyObject *ctpy_size_from(const int64_t *v, int n) {
    PyObject *tup = PyTuple_New(n);
    if (!tup) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, x);
    }
    if (!ctpy_size_class) return tup;
    /* tuple's own constructor for the subclass: the ints need no check of torch.Size.__new__ */
    PyObject *targs = PyTuple_Pack(1, tup);
    Py_DECREF(tup);
    if (!targs) return NULL;
    PyObject *s = PyTuple_Type.tp_new((PyTypeObject *)ctpy_size_class, targs, NULL);
    Py_DECREF(targs);
    return s;
}

int ctpy_check_device(PyObject *o) {
    if (o == Py_None || o == ctpy_cpu_device) return 0;
    if (!ctpy_check_device_fn) {
        PyErr_SetString(PyExc_RuntimeError, "torch.device is not registered (import ctorch first)");
        return -1;
    }
    PyObject *r = PyObject_CallOneArg(ctpy_check_device_fn, o);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

const char *ctpy_memory_format_name(PyObject *fmt) {
    if (fmt == ctpy_contiguous_format) return "contiguous_format";
    if (fmt == ctpy_preserve_format) return "preserve_format";
    if (PyObject_HasAttrString(fmt, "__ctorch_memory_format__")) {
        PyObject *n = PyObject_GetAttrString(fmt, "name");
        const char *s = n && PyUnicode_Check(n) ? PyUnicode_AsUTF8(n) : NULL; /* lives in the format object */
        Py_XDECREF(n);
        if (s) return s;
    }
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "argument 'memory_format' must be torch.memory_format, not %s", Py_TYPE(fmt)->tp_name);
    return NULL;
}

static PyMethodDef package_functions[] = {
    {"_register", (PyCFunction)(void (*)(void))py_register, METH_VARARGS | METH_KEYWORDS,
     "Registers the Python classes and constants the extension hands out."},
    {NULL, NULL, 0, NULL}};

int ctpy_package_init(PyObject *m) { return ctpy_add_functions(m, package_functions); }
