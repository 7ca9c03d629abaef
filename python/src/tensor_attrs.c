/* The properties of torch._C.TensorBase (shape, dtype, grad, requires_grad, ...). Reading or
 * setting one is offered to a Python function mode first, as PyTorch's getters and setters do
 * (func: the property's __get__ / __set__; Note [torch functions and function modes] in
 * torch_function.c). */
#include "ctpy.h"

#define GETTER(fn, name, body)                                                                    \
    static PyObject *fn(PyObject *self, void *c) {                                                \
        (void)c;                                                                                  \
        if (CTPY_TF_GATE(self)) {                                                                 \
            bool h_;                                                                              \
            PyObject *r_ = ctpy_tensor_torch_function(CTPY_TF_GET, name, self, NULL, 0, NULL, &h_); \
            if (h_) return r_;                                                                    \
        }                                                                                         \
        CTPY_SELF_T(self);                                                                        \
        (void)t;                                                                                  \
        body                                                                                      \
    }

/* a setter offered to the function modes: 1 when the mode took it (rc in *rc), 0 otherwise */
static int offer_set(const char *name, PyObject *self, PyObject *v, int *rc) {
    if (!v || !CTPY_TF_GATE(self)) return 0;
    bool handled;
    PyObject *rest[1] = {v};
    PyObject *r = ctpy_tensor_torch_function(CTPY_TF_SET, name, self, rest, 1, NULL, &handled);
    if (!handled) return 0;
    *rc = r ? 0 : -1;
    Py_XDECREF(r);
    return 1;
}

static PyObject *borrowed(PyObject *o) {
    if (!o) Py_RETURN_NONE;
    Py_INCREF(o);
    return o;
}

GETTER(get_shape, "shape", { return ctpy_size_from(ct_tensor_sizes(t), ct_tensor_ndim(t)); })
GETTER(get_dtype, "dtype", {
    PyObject *d = ctpy_dtype_object(ct_tensor_dtype(t));
    Py_XINCREF(d);
    return d;
})
GETTER(get_device, "device", { return borrowed(ctpy_cpu_device); })
GETTER(get_layout, "layout", { return borrowed(ctpy_strided); })
GETTER(get_ndim, "ndim", { return PyLong_FromLong(ct_tensor_ndim(t)); })
GETTER(get_grad, "grad", {
    /* THPVariable_get_grad's warning: a non-leaf's .grad is never filled (ctorch has no retain_grad) */
    if (!ct_tensor_is_leaf(t) &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                     "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
                     "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
                     "Tensor by mistake, make sure you access the leaf Tensor instead. See "
                     "github.com/pytorch/pytorch/pull/30531 for more informations.",
                     1) < 0)
        return NULL;
    return ctpy_wrap_borrowed(ct_tensor_grad(t));
})
GETTER(get_grad_fn, "grad_fn", { return ctpy_node_wrap(ct_tensor_grad_fn(t)); })
GETTER(get_requires_grad, "requires_grad", { return PyBool_FromLong(ct_tensor_requires_grad(t)); })
GETTER(get_is_leaf, "is_leaf", { return PyBool_FromLong(ct_tensor_is_leaf(t)); })
GETTER(get_version, "_version", { return PyLong_FromLongLong(ct_tensor_version(t)); })
GETTER(get_output_nr, "output_nr", { return PyLong_FromUnsignedLong(ct_tensor_output_nr(t)); })
GETTER(get_T, "T", { return ctpy_wrap(ct_numpy_T(t)); })
GETTER(get_base, "_base", { return ctpy_wrap_borrowed(ct_tensor_base(t)); })
GETTER(get_data, "data", { return ctpy_wrap(ct_tensor_data(t)); })
GETTER(get_is_cuda, "is_cuda", { Py_RETURN_FALSE; })
GETTER(get_is_sparse, "is_sparse", { Py_RETURN_FALSE; })
GETTER(get_is_quantized, "is_quantized", { Py_RETURN_FALSE; })
GETTER(get_is_meta, "is_meta", { Py_RETURN_FALSE; })
GETTER(get_is_nested, "is_nested", { Py_RETURN_FALSE; })
GETTER(get_is_mkldnn, "is_mkldnn", { Py_RETURN_FALSE; })
GETTER(get_is_cpu, "is_cpu", { Py_RETURN_TRUE; })

/* THPVariable_set_grad's checks, in its words */
static int set_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    int rc;
    if (offer_set("grad", self, v, &rc)) return rc;
    ct_tensor *t = ctpy_tensor(self);
    ct_tensor *g = NULL;
    if (v && v != Py_None) {
        if (!ctpy_is_tensor(v)) {
            PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad of type %s",
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        g = ctpy_tensor(v);
    }
    return ct_tensor_set_grad(t, g) == 0 ? 0 : ctpy_raise_int();
}

static int set_requires_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    int rc;
    if (offer_set("requires_grad", self, v, &rc)) return rc;
    if (!v || !PyBool_Check(v)) {
        /* THPVariable_set_requires_grad: THPUtils_setError (a RuntimeError) */
        PyErr_SetString(PyExc_RuntimeError, "requires_grad must be a bool");
        return -1;
    }
    return ct_tensor_set_requires_grad(ctpy_tensor(self), v == Py_True) == 0 ? 0 : ctpy_raise_int();
}

/* THPVariable_set_data */
static int set_data(PyObject *self, PyObject *v, void *c) {
    (void)c;
    int rc;
    if (offer_set("data", self, v, &rc)) return rc;
    if (!v) {
        PyErr_SetString(PyExc_RuntimeError, "Deleting tensor data is not allowed. Delete tensor instead!");
        return -1;
    }
    if (!ctpy_is_tensor(v)) {
        PyErr_Format(PyExc_TypeError, "Variable data has to be a tensor, but got %s", Py_TYPE(v)->tp_name);
        return -1;
    }
    return ct_tensor_set_data(ctpy_tensor(self), ctpy_tensor(v)) == 0 ? 0 : ctpy_raise_int();
}

PyGetSetDef ctpy_tensor_getset[] = {
    {"shape", get_shape, NULL, NULL, NULL},
    {"dtype", get_dtype, NULL, NULL, NULL},
    {"device", get_device, NULL, NULL, NULL},
    {"layout", get_layout, NULL, NULL, NULL},
    {"ndim", get_ndim, NULL, NULL, NULL},
    {"grad", get_grad, set_grad, NULL, NULL},
    {"grad_fn", get_grad_fn, NULL, NULL, NULL},
    {"requires_grad", get_requires_grad, set_requires_grad, NULL, NULL},
    {"is_leaf", get_is_leaf, NULL, NULL, NULL},
    {"_version", get_version, NULL, NULL, NULL},
    {"output_nr", get_output_nr, NULL, NULL, NULL},
    {"is_cuda", get_is_cuda, NULL, NULL, NULL},
    {"is_sparse", get_is_sparse, NULL, NULL, NULL},
    {"is_quantized", get_is_quantized, NULL, NULL, NULL},
    {"is_meta", get_is_meta, NULL, NULL, NULL},
    {"is_nested", get_is_nested, NULL, NULL, NULL},
    {"is_mkldnn", get_is_mkldnn, NULL, NULL, NULL},
    {"is_cpu", get_is_cpu, NULL, NULL, NULL},
    {"T", get_T, NULL, NULL, NULL},
    {"data", get_data, set_data, NULL, NULL},
    {"_base", get_base, NULL, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};
