/* The methods of torch._C.TensorBase written in C: sizes and strides, item() and tolist(),
 * requires_grad_(). Each is offered to a Python function mode first, as PyTorch's methods are
 * (Note [torch functions and function modes] in torch_function.c). The methods that are operators
 * (t, sum, view, ...) are functions of the operator table attached by the Python class
 * torch.Tensor (ctorch/_tensor.py). */
#include <string.h>

#include "ctpy.h"

static int64_t wrap_dim_or_raise(ct_tensor *t, PyObject *dimobj, bool *ok) {
    *ok = false;
    if (PyUnicode_Check(dimobj)) {
        ctpy_not_implemented("named dimensions (dim=%R: the Dimname overloads of named tensors)", dimobj);
        return 0;
    }
    if (!PyIndex_Check(dimobj) || PyBool_Check(dimobj)) {
        PyErr_Format(PyExc_TypeError, "argument 'dim' must be int, not %s", Py_TYPE(dimobj)->tp_name);
        return 0;
    }
    long long d = PyLong_AsLongLong(dimobj);
    if (d == -1 && PyErr_Occurred()) return 0;
    int nd = ct_tensor_ndim(t);
    int64_t lo = nd > 0 ? -nd : -1, hi = nd > 0 ? nd - 1 : 0;
    if (d < lo || d > hi) {
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)lo, (long long)hi, d);
        return 0;
    }
    *ok = true;
    return d < 0 ? d + (nd > 0 ? nd : 1) : d;
}

/* size(dim=None) / stride(dim=None): the one optional argument, by position or as dim= */
static int dim_argument(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **dim) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    *dim = nargs > 0 ? args[0] : NULL;
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)", fname, nargs + nkw);
        return -1;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        if (PyUnicode_CompareWithASCIIString(name, "dim") != 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, name);
            return -1;
        }
        if (*dim) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'dim'", fname);
            return -1;
        }
        *dim = args[nargs + k];
    }
    return 0;
}

static PyObject *tensor_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    CTPY_TF_VECTOR("size", self, args, nargs, kwnames);
    CTPY_SELF_T(self);
    PyObject *dim;
    if (dim_argument("size", args, nargs, kwnames, &dim) != 0) return NULL;
    if (!dim || dim == Py_None) return ctpy_size_from(ct_tensor_sizes(t), ct_tensor_ndim(t));
    bool ok;
    int64_t d = wrap_dim_or_raise(t, dim, &ok);
    if (!ok) return NULL;
    if (ct_tensor_ndim(t) == 0)
        return PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions", (long long)d);
    return PyLong_FromLongLong(ct_tensor_sizes(t)[d]);
}

static PyObject *tensor_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    CTPY_TF_VECTOR("stride", self, args, nargs, kwnames);
    CTPY_SELF_T(self);
    PyObject *dim;
    if (dim_argument("stride", args, nargs, kwnames, &dim) != 0) return NULL;
    if (!dim || dim == Py_None) {
        int nd = ct_tensor_ndim(t);
        PyObject *tup = PyTuple_New(nd);
        for (int i = 0; tup && i < nd; i++) PyTuple_SET_ITEM(tup, i, PyLong_FromLongLong(ct_tensor_strides(t)[i]));
        return tup;
    }
    bool ok;
    int64_t d = wrap_dim_or_raise(t, dim, &ok);
    if (!ok) return NULL;
    if (ct_tensor_ndim(t) == 0)
        return PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions", (long long)d);
    return PyLong_FromLongLong(ct_tensor_strides(t)[d]);
}

#define NOARGS_METHOD(fn, name, expr)                                                             \
    static PyObject *fn(PyObject *self, PyObject *unused) {                                       \
        (void)unused;                                                                             \
        CTPY_TF_VECTOR(name, self, NULL, 0, NULL);                                                \
        CTPY_SELF_T(self);                                                                        \
        return expr;                                                                              \
    }

NOARGS_METHOD(tensor_storage_offset, "storage_offset", PyLong_FromLongLong(ct_tensor_storage_offset(t)))
NOARGS_METHOD(tensor_dim, "dim", PyLong_FromLong(ct_tensor_ndim(t)))
NOARGS_METHOD(tensor_ndimension, "ndimension", PyLong_FromLong(ct_tensor_ndim(t)))
NOARGS_METHOD(tensor_numel, "numel", PyLong_FromLongLong(ct_tensor_numel(t)))
NOARGS_METHOD(tensor_nelement, "nelement", PyLong_FromLongLong(ct_tensor_numel(t)))
NOARGS_METHOD(tensor_element_size, "element_size", PyLong_FromSize_t(ct_dtype_size(ct_tensor_dtype(t))))
NOARGS_METHOD(tensor_is_floating_point, "is_floating_point", PyBool_FromLong(ct_dtype_is_floating(ct_tensor_dtype(t))))
NOARGS_METHOD(tensor_is_inference, "is_inference", PyBool_FromLong(ct_tensor_is_inference(t)))
NOARGS_METHOD(tensor_data_ptr, "data_ptr", PyLong_FromVoidPtr(ct_tensor_data_ptr(t)))

/* is_contiguous(memory_format=torch.contiguous_format): contiguous in that format's order
 * (TensorImpl::is_contiguous_default and compute_channels_last_contiguous_2d/3d: dimensions of
 * size 1 have any stride). */
static bool contiguous_in_order(ct_tensor *t, const int *order, int n) {
    int64_t expected = 1;
    for (int k = n - 1; k >= 0; k--) {
        int d = order[k];
        int64_t size = ct_tensor_sizes(t)[d];
        if (size == 1) continue;
        if (ct_tensor_strides(t)[d] != expected) return false;
        expected *= size;
    }
    return true;
}

static PyObject *tensor_is_view(PyObject *self, PyObject *args, PyObject *kwargs) {
    CTPY_TF_TUPLE("_is_view", self, args, kwargs);
    CTPY_SELF_T(self);
    static char *kw[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, ":_is_view", kw)) return NULL;
    return PyBool_FromLong(ct_tensor_base(t) != NULL);
}

static PyObject *tensor_is_contiguous(PyObject *self, PyObject *args, PyObject *kwargs) {
    CTPY_TF_TUPLE("is_contiguous", self, args, kwargs);
    CTPY_SELF_T(self);
    static char *kw[] = {"memory_format", NULL};
    PyObject *fmt = NULL;
    Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (npos > 0) /* memory_format is keyword-only */
        return PyErr_Format(PyExc_TypeError, "is_contiguous() takes 0 positional arguments but %zd %s given", npos,
                            npos == 1 ? "was" : "were");
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:is_contiguous", kw, &fmt)) return NULL;
    /* TensorImpl::is_contiguous_default: a format other than the channels-last ones is the default */
    if (!fmt || fmt == ctpy_contiguous_format || fmt == ctpy_preserve_format)
        return PyBool_FromLong(ct_tensor_is_contiguous(t));
    const char *name = ctpy_memory_format_name(fmt);
    if (!name) return NULL;
    int nd = ct_tensor_ndim(t);
    if (strcmp(name, "channels_last") == 0) {
        static const int nhwc[4] = {0, 2, 3, 1};
        return PyBool_FromLong(nd == 4 && contiguous_in_order(t, nhwc, 4));
    }
    if (strcmp(name, "channels_last_3d") == 0) {
        static const int ndhwc[5] = {0, 2, 3, 4, 1};
        return PyBool_FromLong(nd == 5 && contiguous_in_order(t, ndhwc, 5));
    }
    return PyBool_FromLong(ct_tensor_is_contiguous(t));
}

/* ---- values: item, tolist ---- */

/* tolist() reads the values directly, as PyTorch's tensor_to_list does (no operator a mode sees);
 * a wrapper subclass has no data of its own. */
static int check_readable(ct_tensor *t, const char *what) {
    if (ct_tensor_subclass(t) && !ct_tensor_data_ptr(t) && ct_tensor_numel(t) > 0) {
        ctpy_not_implemented("%s on a wrapper tensor subclass (it has no data of its own)", what);
        return -1;
    }
    return 0;
}

static PyObject *element_to_py(const char *p, ct_dtype d) {
    switch (d) {
    case CT_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    case CT_FLOAT64: return PyFloat_FromDouble(*(const double *)p);
    case CT_FLOAT16: return PyFloat_FromDouble(ct_half_to_float(*(const uint16_t *)p));
    case CT_BFLOAT16: return PyFloat_FromDouble(ct_bfloat16_to_float(*(const uint16_t *)p));
    case CT_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case CT_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case CT_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case CT_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case CT_UINT8: return PyLong_FromLong(*(const uint8_t *)p);
    case CT_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    default: PyErr_SetString(PyExc_TypeError, "unsupported dtype"); return NULL;
    }
}

/* item(): aten::item, which decomposes to aten::_local_scalar_dense: a dispatch mode or a
 * wrapper subclass sees that op and its handler's answer is the value */
PyObject *ctpy_tensor_item(PyObject *self) {
    CTPY_SELF_T(self);
    const ct_op *op = ct_op_find("aten::item");
    if (!op) return ctpy_raise();
    ct_value a[1] = {ct_tensor_value(t)}, r[1] = {ct_none()};
    if (ct_op_invoke(op, a, r) != 0) return ctpy_raise();
    PyObject *v = ctpy_scalar_to_py(&r[0]);
    ct_values_release(r, 1);
    return v;
}

static PyObject *tensor_item(PyObject *self, PyObject *unused) {
    (void)unused;
    CTPY_TF_VECTOR("item", self, NULL, 0, NULL);
    return ctpy_tensor_item(self);
}

static PyObject *to_list(const char *base, const int64_t *sizes, const int64_t *strides, int ndim, size_t es, ct_dtype d) {
    if (ndim == 0) return element_to_py(base, d);
    PyObject *l = PyList_New(sizes[0]);
    if (!l) return NULL;
    for (int64_t i = 0; i < sizes[0]; i++) {
        PyObject *x = to_list(base + (ptrdiff_t)(i * strides[0]) * (ptrdiff_t)es, sizes + 1, strides + 1, ndim - 1, es, d);
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *tensor_tolist(PyObject *self, PyObject *unused) {
    (void)unused;
    CTPY_TF_VECTOR("tolist", self, NULL, 0, NULL);
    CTPY_SELF_T(self);
    if (check_readable(t, "Tensor.tolist()") != 0) return NULL;
    const char *p = ct_tensor_data_ptr(t);
    if (!p && ct_tensor_numel(t) > 0) return ctpy_raise();
    if (!p) p = "";
    return to_list(p, ct_tensor_sizes(t), ct_tensor_strides(t), ct_tensor_ndim(t), ct_dtype_size(ct_tensor_dtype(t)),
                   ct_tensor_dtype(t));
}

static PyObject *tensor_requires_grad_(PyObject *self, PyObject *args, PyObject *kwargs) {
    CTPY_TF_TUPLE("requires_grad_", self, args, kwargs);
    static char *kw[] = {"requires_grad", NULL};
    PyObject *flag = Py_True;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:requires_grad_", kw, &flag)) return NULL;
    if (!PyBool_Check(flag))
        return PyErr_Format(PyExc_TypeError, "requires_grad_(): argument 'requires_grad' %smust be bool, not %s",
                            PyTuple_GET_SIZE(args) > 0 ? "(position 1) " : "", Py_TYPE(flag)->tp_name);
    if (ct_tensor_set_requires_grad(ctpy_tensor(self), flag == Py_True) != 0) return ctpy_raise();
    Py_INCREF(self);
    return self;
}

PyMethodDef ctpy_tensor_methods[] = {
    {"__init_subclass__", (PyCFunction)(void (*)(void))ctpy_tensor_init_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},
    {"size", (PyCFunction)(void (*)(void))tensor_size, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"stride", (PyCFunction)(void (*)(void))tensor_stride, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"storage_offset", tensor_storage_offset, METH_NOARGS, NULL},
    {"dim", tensor_dim, METH_NOARGS, NULL},
    {"ndimension", tensor_ndimension, METH_NOARGS, NULL},
    {"numel", tensor_numel, METH_NOARGS, NULL},
    {"nelement", tensor_nelement, METH_NOARGS, NULL},
    {"element_size", tensor_element_size, METH_NOARGS, NULL},
    {"is_contiguous", (PyCFunction)(void (*)(void))tensor_is_contiguous, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_is_view", (PyCFunction)(void (*)(void))tensor_is_view, METH_VARARGS | METH_KEYWORDS, NULL},
    {"is_floating_point", tensor_is_floating_point, METH_NOARGS, NULL},
    {"is_inference", tensor_is_inference, METH_NOARGS, NULL},
    {"data_ptr", tensor_data_ptr, METH_NOARGS, NULL},
    {"item", tensor_item, METH_NOARGS, NULL},
    {"tolist", tensor_tolist, METH_NOARGS, NULL},
    {"requires_grad_", (PyCFunction)(void (*)(void))tensor_requires_grad_, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_make_wrapper_subclass", (PyCFunction)(void (*)(void))ctpy_make_wrapper_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    {"_make_subclass", (PyCFunction)(void (*)(void))ctpy_make_subclass, METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     NULL},
    {NULL, NULL, 0, NULL}};
