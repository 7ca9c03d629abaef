/* torch.dtype: the dtype objects, one per c10::ScalarType torch names, made from the dtype
 * table: the dtypes ctorch has, and those it lacks with PyTorch's facts (so that code asking
 * about one, nn.Module.to's dtype check say, gets PyTorch's answer and reaches the part that
 * says what is missing). torch.float32 and its alias torch.float are the same object. */
#include <string.h>

#include "ctpy.h"

static PyObject *dtype_repr(PyObject *self) { return PyUnicode_FromFormat("torch.%s", ((CtDtypeObject *)self)->name); }

static PyObject *dtype_get_is_floating(PyObject *self, void *c) {
    (void)c;
    ct_dtype d = ((CtDtypeObject *)self)->dtype;
    return PyBool_FromLong(ct_dtype_valid((int)d) && ct_dtype_is_floating(d));
}
static PyObject *dtype_get_is_complex(PyObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(((CtDtypeObject *)self)->is_complex);
}
static PyObject *dtype_get_is_signed(PyObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(((CtDtypeObject *)self)->is_signed);
}
static PyObject *dtype_get_itemsize(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(((CtDtypeObject *)self)->itemsize);
}
static PyObject *dtype_reduce(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(((CtDtypeObject *)self)->name);
}

static PyGetSetDef dtype_getset[] = {{"is_floating_point", dtype_get_is_floating, NULL, NULL, NULL},
                                     {"is_complex", dtype_get_is_complex, NULL, NULL, NULL},
                                     {"is_signed", dtype_get_is_signed, NULL, NULL, NULL},
                                     {"itemsize", dtype_get_itemsize, NULL, NULL, NULL},
                                     {NULL, NULL, NULL, NULL, NULL}};
static PyMethodDef dtype_methods[] = {{"__reduce__", dtype_reduce, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};

PyTypeObject CtDtype_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.dtype",
    .tp_basicsize = sizeof(CtDtypeObject),
    .tp_repr = dtype_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An element type (torch.float32, ...).",
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
};

/* The objects: the dtypes of the dtype table (ctorch/dtype.h), then those ctorch lacks */
#define CTPY_DTYPE_OBJECT_(e, st, c10, name, alias, size, kind, reduced, is_signed, ...)           \
    {PyObject_HEAD_INIT(&CtDtype_Type) e, name, alias, size, kind == CT_DTYPE_KIND_COMPLEX, is_signed},
#define CTPY_ABSENT_DTYPE_OBJECT_(st, name, alias, size, kind, is_signed, legacy)                  \
    {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)(st), name, alias, size, kind == CT_DTYPE_KIND_COMPLEX, is_signed},
static CtDtypeObject dtypes[] = {CT_DTYPE_TABLE(CTPY_DTYPE_OBJECT_) CT_DTYPE_ABSENT_TABLE(CTPY_ABSENT_DTYPE_OBJECT_)};
#undef CTPY_DTYPE_OBJECT_
#undef CTPY_ABSENT_DTYPE_OBJECT_
#define N_DTYPES ((int)(sizeof dtypes / sizeof dtypes[0]))

PyObject *ctpy_dtype_object(ct_dtype d) {
    for (int i = 0; i < N_DTYPES; i++)
        if (dtypes[i].dtype == d) return (PyObject *)&dtypes[i];
    PyErr_Format(PyExc_RuntimeError, "unknown dtype %d", (int)d);
    return NULL;
}

int ctpy_dtype_of(PyObject *o, ct_dtype *out) {
    if (PyObject_TypeCheck(o, &CtDtype_Type)) {
        *out = ((CtDtypeObject *)o)->dtype;
        return 1;
    }
    /* Python's own types stand for dtypes, as in PyTorch (dtype=float is float64) */
    if (o == (PyObject *)&PyFloat_Type) *out = CT_FLOAT64;
    else if (o == (PyObject *)&PyBool_Type) *out = CT_BOOL;
    else if (o == (PyObject *)&PyLong_Type) *out = CT_INT64;
    else return 0;
    return 1;
}

/* torch._C._dtypes(): {name: dtype} for every name and alias torch gives a dtype ("float32",
 * "float", ...), from which the package makes torch.float32, torch.float, ... */
static PyObject *py_dtypes(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < N_DTYPES; i++) {
        if (PyDict_SetItemString(d, dtypes[i].name, (PyObject *)&dtypes[i]) < 0 ||
            (dtypes[i].alias && PyDict_SetItemString(d, dtypes[i].alias, (PyObject *)&dtypes[i]) < 0))
            Py_CLEAR(d);
    }
    return d;
}

static PyObject *py_default_dtype(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    PyObject *d = ctpy_dtype_object(ct_default_dtype());
    Py_XINCREF(d);
    return d;
}

/* A torch.dtype argument: 0 with PyTorch's TypeError when o is none. */
static int dtype_arg(PyObject *o, const char *fn, const char *name, int pos, ct_dtype *out) {
    if (PyObject_TypeCheck(o, &CtDtype_Type)) {
        *out = ((CtDtypeObject *)o)->dtype;
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be torch.dtype, not %s", fn, name, pos,
                 Py_TYPE(o)->tp_name);
    return 0;
}

/* Two dtype arguments by position or keyword, as PyTorch's parser names them. */
static int two_dtypes(PyObject *args, PyObject *kwargs, const char *fn, const char *n1, const char *n2, ct_dtype *a,
                      ct_dtype *b) {
    char *kw[] = {(char *)n1, (char *)n2, NULL};
    PyObject *x = NULL, *y = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", kw, &x, &y)) return 0;
    if (!x || !y) {
        PyErr_Format(PyExc_TypeError, "%s() missing %d required positional arguments: \"%s\"", fn, x ? 1 : 2, x ? n2 : n1);
        return 0;
    }
    return dtype_arg(x, fn, n1, 1, a) && dtype_arg(y, fn, n2, 2, b);
}

/* A dtype the table lacks (complex) has no promotion in ctorch: say so rather than guess. */
static PyObject *lacking(const char *fn, ct_dtype d) {
    PyErr_Format(PyExc_NotImplementedError, "%s: ctorch has no dtype with ScalarType value %d", fn, (int)d);
    return NULL;
}

/* torch.promote_types(type1, type2) */
static PyObject *py_promote_types(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    ct_dtype a, b;
    if (!two_dtypes(args, kwargs, "promote_types", "type1", "type2", &a, &b)) return NULL;
    if (!ct_dtype_valid((int)a) || !ct_dtype_valid((int)b)) return lacking("promote_types", ct_dtype_valid((int)a) ? b : a);
    PyObject *r = ctpy_dtype_object(ct_dtype_promote(a, b));
    Py_XINCREF(r);
    return r;
}

/* torch.can_cast(from_, to) */
static PyObject *py_can_cast(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    ct_dtype a, b;
    if (!two_dtypes(args, kwargs, "can_cast", "from_", "to", &a, &b)) return NULL;
    if (!ct_dtype_valid((int)a) || !ct_dtype_valid((int)b)) return lacking("can_cast", ct_dtype_valid((int)a) ? b : a);
    return PyBool_FromLong(ct_dtype_can_cast(a, b));
}

/* A result_type operand: the tensor itself, or a Python number wrapped as PyTorch wraps it. */
static ct_tensor *operand(PyObject *o, bool *owned) {
    *owned = false;
    if (ctpy_is_tensor(o)) return ctpy_tensor(o);
    ct_scalar s;
    if (PyBool_Check(o)) s = ct_bool(o == Py_True);
    else if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) return NULL;
        s = ct_int(v);
    } else if (PyFloat_Check(o)) s = ct_double(PyFloat_AS_DOUBLE(o));
    else return NULL;
    *owned = true;
    return ct_wrapped_number(s);
}

/* torch.result_type(tensor, other): Tensor or Number in either place */
static PyObject *py_result_type(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    char *kw[] = {"tensor", "other", NULL};
    PyObject *x = NULL, *y = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:result_type", kw, &x, &y)) return NULL;
    bool ox = false, oy = false;
    ct_tensor *ts[2] = {operand(x, &ox), NULL};
    ts[1] = ts[0] ? operand(y, &oy) : NULL;
    PyObject *r = NULL;
    if (!ts[0] || !ts[1]) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "result_type() received an invalid combination of arguments - got (%s, %s)",
                         ctpy_is_tensor(x) ? "Tensor" : Py_TYPE(x)->tp_name, ctpy_is_tensor(y) ? "Tensor" : Py_TYPE(y)->tp_name);
    } else {
        r = ctpy_dtype_object(ct_result_type(ts, 2));
        Py_XINCREF(r);
    }
    if (ts[0] && ox) ct_tensor_release(ts[0]);
    if (ts[1] && oy) ct_tensor_release(ts[1]);
    return r;
}

/* torch.set_default_dtype(d): a floating dtype object (a Python type, a string, any other object is
 * PyTorch's "invalid dtype object" TypeError) */
static PyObject *py_set_default_dtype(PyObject *unused, PyObject *d) {
    (void)unused;
    if (!PyObject_TypeCheck(d, &CtDtype_Type))
        return PyErr_Format(PyExc_TypeError, "invalid dtype object: only floating-point types are supported as the default type");
    ct_dtype dt = ((CtDtypeObject *)d)->dtype;
    if (!ct_dtype_valid((int)dt) || ct_set_default_dtype(dt) != 0) {
        ct_error_clear();
        return PyErr_Format(PyExc_TypeError, "only floating-point types are supported as the default type");
    }
    Py_RETURN_NONE;
}

/* torch._C._dtype_type_meta(d): the dtype's caffe2::TypeMeta name, as TensorOptions print it */
static PyObject *py_dtype_type_meta(PyObject *unused, PyObject *d) {
    (void)unused;
    if (!PyObject_TypeCheck(d, &CtDtype_Type)) return PyErr_Format(PyExc_TypeError, "expected a torch.dtype");
    return PyUnicode_FromString(ct_dtype_type_meta_name(((CtDtypeObject *)d)->dtype));
}

/* torch._C._legacy_type_names(): {"FloatTensor": torch.float32, ...}, the legacy CPU tensor type of
 * every real dtype of the two tables (the complex ones have no torch.<name>) */
static const char *const absent_legacy[] = {
#define CTPY_ABSENT_LEGACY_(st, name, alias, size, kind, is_signed, legacy) kind == CT_DTYPE_KIND_COMPLEX ? NULL : legacy,
    CT_DTYPE_ABSENT_TABLE(CTPY_ABSENT_LEGACY_)
#undef CTPY_ABSENT_LEGACY_
};

static PyObject *py_legacy_type_names(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    PyObject *d = PyDict_New();
    int n_present = N_DTYPES - (int)(sizeof absent_legacy / sizeof absent_legacy[0]);
    for (int i = 0; d && i < N_DTYPES; i++) {
        const char *legacy = i < n_present ? ct_dtype_legacy_type_name(dtypes[i].dtype) : absent_legacy[i - n_present];
        if (!legacy || strncmp(legacy, "torch.", 6) != 0) continue;
        if (PyDict_SetItemString(d, legacy + 6, (PyObject *)&dtypes[i]) < 0) Py_CLEAR(d);
    }
    return d;
}

static PyMethodDef dtype_functions[] = {{"_dtype_type_meta", py_dtype_type_meta, METH_O, NULL},
                                        {"_legacy_type_names", py_legacy_type_names, METH_NOARGS, NULL},
                                        {"_dtypes", py_dtypes, METH_NOARGS, "{name: dtype} of every name torch has"},
                                        {"get_default_dtype", py_default_dtype, METH_NOARGS, NULL},
                                        {"_set_default_dtype", py_set_default_dtype, METH_O, NULL},
                                        {"promote_types", (PyCFunction)(void (*)(void))py_promote_types, METH_VARARGS | METH_KEYWORDS, NULL},
                                        {"can_cast", (PyCFunction)(void (*)(void))py_can_cast, METH_VARARGS | METH_KEYWORDS, NULL},
                                        {"result_type", (PyCFunction)(void (*)(void))py_result_type, METH_VARARGS | METH_KEYWORDS, NULL},
                                        {NULL, NULL, 0, NULL}};

int ctpy_dtype_init(PyObject *m) {
    if (PyType_Ready(&CtDtype_Type) < 0) return -1;
    Py_INCREF(&CtDtype_Type);
    if (PyModule_AddObject(m, "dtype", (PyObject *)&CtDtype_Type) < 0) return -1;
    return ctpy_add_functions(m, dtype_functions);
}
