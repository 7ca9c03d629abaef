/* The module ctorch._C (also importable as torch._C): initialisation, dtypes, dispatch key
 * sets and the dispatcher's introspection, torch.tensor(), torch.allclose(), testing counters. */
#include <math.h>
#include <string.h>

#include "build_info.h"
#include "ctorch/nn.h"
#include "ctpy.h"

PyObject *ctpy_strided, *ctpy_contiguous_format, *ctpy_preserve_format, *ctpy_cpu_device, *ctpy_device_class;

/* ---- dtypes ---- */

static PyObject *dtype_repr(PyObject *self) { return PyUnicode_FromFormat("torch.%s", ((CtDtypeObject *)self)->name); }

static PyObject *dtype_get_is_floating(PyObject *self, void *c) {
    (void)c;
    ct_dtype d = ((CtDtypeObject *)self)->dtype;
    return PyBool_FromLong(ct_dtype_valid((int)d) && ct_dtype_is_floating(d));
}
/* The facts of the dtypes ctorch lacks (c10::ScalarType's), so that code asking about one (nn.Module.to's
 * dtype check, say) gets PyTorch's answer and reaches the part that says what is missing. */
static const struct {
    const char *name;
    bool is_complex, is_signed;
    int itemsize;
} absent_dtypes[] = {{"uint8", false, false, 1}, {"int8", false, true, 1},       {"int16", false, true, 2},
                     {"int32", false, true, 4},  {"complex64", true, true, 8}, {"complex128", true, true, 16}};

static int absent_dtype(PyObject *self) {
    const char *name = ((CtDtypeObject *)self)->name;
    for (int i = 0; i < (int)(sizeof absent_dtypes / sizeof absent_dtypes[0]); i++)
        if (strcmp(absent_dtypes[i].name, name) == 0) return i;
    return -1;
}

static PyObject *dtype_get_is_complex(PyObject *self, void *c) {
    (void)c;
    int a = absent_dtype(self);
    return PyBool_FromLong(a >= 0 && absent_dtypes[a].is_complex);
}
static PyObject *dtype_get_is_signed(PyObject *self, void *c) {
    (void)c;
    int a = absent_dtype(self);
    if (a >= 0) return PyBool_FromLong(absent_dtypes[a].is_signed);
    return PyBool_FromLong(((CtDtypeObject *)self)->dtype != CT_BOOL);
}
static PyObject *dtype_get_itemsize(PyObject *self, void *c) {
    (void)c;
    int a = absent_dtype(self);
    if (a >= 0) return PyLong_FromLong(absent_dtypes[a].itemsize);
    return PyLong_FromSize_t(ct_dtype_size(((CtDtypeObject *)self)->dtype));
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

/* c10::ScalarType values; the ones ctorch lacks exist so that using them says so. */
static CtDtypeObject dtypes[] = {
    {PyObject_HEAD_INIT(&CtDtype_Type) CT_INT64, "int64"},     {PyObject_HEAD_INIT(&CtDtype_Type) CT_FLOAT16, "float16"},
    {PyObject_HEAD_INIT(&CtDtype_Type) CT_FLOAT32, "float32"}, {PyObject_HEAD_INIT(&CtDtype_Type) CT_FLOAT64, "float64"},
    {PyObject_HEAD_INIT(&CtDtype_Type) CT_BOOL, "bool"},       {PyObject_HEAD_INIT(&CtDtype_Type) CT_BFLOAT16, "bfloat16"},
    {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)0, "uint8"},   {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)1, "int8"},
    {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)2, "int16"},   {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)3, "int32"},
    {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)9, "complex64"}, {PyObject_HEAD_INIT(&CtDtype_Type)(ct_dtype)10, "complex128"},
};
#define N_DTYPES ((int)(sizeof dtypes / sizeof dtypes[0]))

PyObject *ctpy_dtype_object(ct_dtype d) {
    for (int i = 0; i < N_DTYPES; i++)
        if (dtypes[i].dtype == d) return (PyObject *)&dtypes[i];
    PyErr_Format(PyExc_RuntimeError, "unknown dtype %d", (int)d);
    return NULL;
}

/* ---- dispatch key sets ---- */

typedef struct {
    PyObject_HEAD
    ct_keyset ks;
} CtKeySetObject;

static PyObject *keyset_repr(PyObject *self) {
    char buf[2048];
    ct_keyset_format(((CtKeySetObject *)self)->ks, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyTypeObject CtKeySet_Type;

static PyObject *keyset_new(ct_keyset ks) {
    CtKeySetObject *o = PyObject_New(CtKeySetObject, &CtKeySet_Type);
    if (o) o->ks = ks;
    return (PyObject *)o;
}

static int key_of(PyObject *o) {
    const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!name) {
        PyObject *s = PyObject_GetAttrString(o, "name");
        if (!s) return -1;
        name = PyUnicode_AsUTF8(s);
        int k = name ? ct_key_from_name(name) : -1;
        Py_DECREF(s);
        if (k < 0 && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "unknown dispatch key %R", o);
        return k;
    }
    int k = ct_key_from_name(name);
    if (k < 0) PyErr_Format(PyExc_ValueError, "unknown dispatch key '%s'", name);
    return k;
}

static PyObject *keyset_has(PyObject *self, PyObject *key) {
    int k = key_of(key);
    if (k < 0) return NULL;
    return PyBool_FromLong(ct_keyset_has(((CtKeySetObject *)self)->ks, (ct_dispatch_key)k));
}

static PyObject *keyset_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(b, &CtKeySet_Type) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
    bool eq = ((CtKeySetObject *)a)->ks == ((CtKeySetObject *)b)->ks;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *keyset_or(PyObject *a, PyObject *b) {
    if (!PyObject_TypeCheck(a, &CtKeySet_Type) || !PyObject_TypeCheck(b, &CtKeySet_Type)) Py_RETURN_NOTIMPLEMENTED;
    return keyset_new(((CtKeySetObject *)a)->ks | ((CtKeySetObject *)b)->ks);
}
static PyObject *keyset_sub(PyObject *a, PyObject *b) {
    if (!PyObject_TypeCheck(a, &CtKeySet_Type) || !PyObject_TypeCheck(b, &CtKeySet_Type)) Py_RETURN_NOTIMPLEMENTED;
    return keyset_new(ct_keyset_sub(((CtKeySetObject *)a)->ks, ((CtKeySetObject *)b)->ks));
}
static PyObject *keyset_and(PyObject *a, PyObject *b) {
    if (!PyObject_TypeCheck(a, &CtKeySet_Type) || !PyObject_TypeCheck(b, &CtKeySet_Type)) Py_RETURN_NOTIMPLEMENTED;
    return keyset_new(((CtKeySetObject *)a)->ks & ((CtKeySetObject *)b)->ks);
}
static PyObject *keyset_highest(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(ct_key_name(ct_keyset_highest(((CtKeySetObject *)self)->ks)));
}
static PyObject *keyset_raw(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(((CtKeySetObject *)self)->ks);
}
static Py_hash_t keyset_hash(PyObject *self) {
    Py_hash_t h = (Py_hash_t)((CtKeySetObject *)self)->ks;
    return h == -1 ? -2 : h;
}

static PyNumberMethods keyset_number = {.nb_or = keyset_or, .nb_subtract = keyset_sub, .nb_and = keyset_and};
static PyMethodDef keyset_methods[] = {{"has", keyset_has, METH_O, NULL},
                                       {"highestPriorityTypeId", keyset_highest, METH_NOARGS, NULL},
                                       {"raw_repr", keyset_raw, METH_NOARGS, NULL},
                                       {NULL, NULL, 0, NULL}};

static PyTypeObject CtKeySet_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.DispatchKeySet",
    .tp_basicsize = sizeof(CtKeySetObject),
    .tp_repr = keyset_repr,
    .tp_hash = keyset_hash,
    .tp_as_number = &keyset_number,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A dispatch key set; prints like PyTorch's.",
    .tp_richcompare = keyset_richcompare,
    .tp_methods = keyset_methods,
};

/* (name, value) of every dispatch key, for torch._C.DispatchKey (the package builds the enum) */
static PyObject *py_dispatch_key_names(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    PyObject *l = PyList_New(0);
    for (int k = 0; l && k < (int)CT_KEY_COUNT; k++) {
        PyObject *item = Py_BuildValue("(si)", ct_key_name((ct_dispatch_key)k), k);
        if (!item || PyList_Append(l, item) < 0) Py_CLEAR(l);
        Py_XDECREF(item);
    }
    return l;
}

static PyObject *py_dispatch_keys(PyObject *unused, PyObject *arg) {
    (void)unused;
    ct_tensor *t = ctpy_tensor_arg(arg, "_dispatch_keys(): argument 'tensor'");
    return t ? keyset_new(ct_tensor_keyset(t)) : NULL;
}
static PyObject *py_tls_exclude(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return keyset_new(ct_tls_excluded());
}
static PyObject *py_tls_include(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return keyset_new(ct_tls_included());
}
static PyObject *tls_set(PyObject *args, bool excluded) {
    PyObject *key;
    int on;
    if (!PyArg_ParseTuple(args, "Op", &key, &on)) return NULL;
    int k = key_of(key);
    if (k < 0) return NULL;
    if (excluded) ct_tls_set_excluded((ct_dispatch_key)k, on != 0);
    else ct_tls_set_included((ct_dispatch_key)k, on != 0);
    Py_RETURN_NONE;
}
static PyObject *py_tls_set_excluded(PyObject *unused, PyObject *args) {
    (void)unused;
    return tls_set(args, true);
}
static PyObject *py_tls_set_included(PyObject *unused, PyObject *args) {
    (void)unused;
    return tls_set(args, false);
}

static PyObject *dump(PyObject *arg, char *(*fn)(const ct_op *)) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const ct_op *op = ct_op_find(name);
    if (!op) {
        /* _dispatch_dump of an operator nobody registered: nothing to show */
        ct_error_clear();
        return PyUnicode_FromString("");
    }
    char *s = fn(op);
    if (!s) return ctpy_raise();
    PyObject *r = PyUnicode_FromString(s);
    ct_free(s);
    return r;
}
static PyObject *py_dispatch_dump(PyObject *unused, PyObject *arg) {
    (void)unused;
    return dump(arg, ct_op_dump);
}
static PyObject *py_dispatch_dump_table(PyObject *unused, PyObject *arg) {
    (void)unused;
    return dump(arg, ct_op_dump_table);
}

/* ---- torch.tensor(data) ---- */

typedef struct {
    int ndim;
    int64_t sizes[CT_MAX_DIMS];
    bool any_float, any_int, any_bool;
    int64_t n, cap;
    double *d;
    int64_t *i;
} nested;

static int store(nested *st, double d, int64_t i) {
    if (st->n == st->cap) {
        int64_t cap = st->cap ? st->cap * 2 : 64;
        double *dv = PyMem_Realloc(st->d, (size_t)cap * sizeof *dv);
        if (dv) st->d = dv;
        int64_t *iv = dv ? PyMem_Realloc(st->i, (size_t)cap * sizeof *iv) : NULL;
        if (!dv || !iv) {
            PyErr_NoMemory();
            return -1;
        }
        st->i = iv;
        st->cap = cap;
    }
    st->d[st->n] = d;
    st->i[st->n] = i;
    st->n++;
    return 0;
}

/* internal_new_from_data's walk (tensor_new.cpp): any sequence nests (a str is one of length-1
 * strs, so it nests without end: "too many dimensions"), a number is an element, a one-element
 * tensor stands for its value; anything else has no dtype to infer */
static int walk(PyObject *o, int depth, nested *st) {
    bool is_seq = PyList_Check(o) || PyTuple_Check(o) ||
                  (!ctpy_is_tensor(o) && !PyBytes_Check(o) && !PyByteArray_Check(o) && PySequence_Check(o));
    if (is_seq) {
        if (PyUnicode_Check(o)) {
            /* the sizes come from the first item at each level: a str there nests without end;
             * anywhere else (or as the whole data) it is an element of no number type */
            if (depth > 0 && st->n == 0 && depth == st->ndim)
                PyErr_Format(PyExc_ValueError, "too many dimensions '%s'", Py_TYPE(o)->tp_name);
            else
                PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(o)->tp_name);
            return -1;
        }
        if (depth >= CT_MAX_DIMS) {
            PyErr_Format(PyExc_RuntimeError, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
            return -1;
        }
        PyObject *seq = PySequence_Fast(o, "a sequence");
        if (!seq) return -1;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
        int rc = 0;
        if (depth == st->ndim) {
            if (st->n > 0) rc = 1; /* a sequence where a number was seen before */
            else st->sizes[st->ndim++] = len;
        } else if (depth > st->ndim || st->sizes[depth] != len) {
            rc = 1;
        }
        for (Py_ssize_t k = 0; rc == 0 && k < len; k++) rc = walk(PySequence_Fast_GET_ITEM(seq, k), depth + 1, st);
        Py_DECREF(seq);
        if (rc > 0) goto ragged;
        return rc;
    }
    if (depth != st->ndim) goto ragged;
    if (PyBool_Check(o)) {
        st->any_bool = true;
        return store(st, o == Py_True, o == Py_True);
    }
    if (PyLong_Check(o)) {
        st->any_int = true;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
        return store(st, (double)v, v);
    }
    if (PyFloat_Check(o)) {
        st->any_float = true;
        return store(st, PyFloat_AS_DOUBLE(o), 0);
    }
    if (PyComplex_Check(o)) {
        ctpy_not_implemented("complex tensors (torch.complex64)");
        return -1;
    }
    if (ctpy_is_tensor(o)) {
        ct_tensor *t = ctpy_tensor(o);
        if (ct_tensor_numel(t) != 1) {
            PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
            return -1;
        }
        double d;
        if (ct_tensor_item(t, &d) != 0) {
            ctpy_raise();
            return -1;
        }
        ct_dtype dt = ct_tensor_dtype(t);
        if (dt == CT_BOOL) st->any_bool = true;
        else if (dt == CT_INT64) st->any_int = true;
        else st->any_float = true;
        return store(st, d, dt == CT_INT64 ? *(const int64_t *)ct_tensor_data_ptr(t) : (int64_t)d);
    }
    PyErr_Format(PyExc_RuntimeError, "Could not infer dtype of %s", Py_TYPE(o)->tp_name);
    return -1;
ragged:
    PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                 (long long)(depth < st->ndim ? st->sizes[depth] : 0), depth,
                 PySequence_Check(o) ? PySequence_Size(o) : (Py_ssize_t)0);
    return -1;
}

static PyObject *py_tensor(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"data", "dtype", "device", "requires_grad", "pin_memory", NULL};
    PyObject *data, *dtype = Py_None, *device = Py_None, *rg = Py_False, *pin = Py_False;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOO:tensor", kw, &data, &dtype, &device, &rg, &pin)) return NULL;
    if (!PyBool_Check(rg) || !PyBool_Check(pin))
        return PyErr_Format(PyExc_TypeError, "tensor(): argument '%s' must be bool, not %s",
                            PyBool_Check(rg) ? "pin_memory" : "requires_grad", Py_TYPE(PyBool_Check(rg) ? pin : rg)->tp_name);
    /* at::detail::empty_cpu asks the accelerator hooks for a pinned-memory allocator, which a
     * CPU-only build has none of */
    if (pin == Py_True)
        return PyErr_Format(PyExc_RuntimeError, "Need to provide pin_memory allocator to use pin memory.");
    bool requires_grad = rg == Py_True;
    if (ctpy_check_device(device) != 0) return NULL;
    if (ctpy_is_tensor(data) && (ct_tensor_ndim(ctpy_tensor(data)) > 0 || dtype != Py_None)) {
        /* torch.tensor(t): a copy, with PyTorch's warning */
        if (PyErr_WarnEx(PyExc_UserWarning,
                         "To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
                         "sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                         1) < 0)
            return NULL;
        ct_tensor *src = ctpy_tensor(data);
        ct_dtype want = dtype == Py_None ? ct_tensor_dtype(src) : CT_DTYPE_UNDEFINED;
        if (dtype != Py_None) {
            if (!PyObject_TypeCheck(dtype, &CtDtype_Type))
                return PyErr_Format(PyExc_TypeError, "tensor(): argument 'dtype' must be torch.dtype, not %s",
                                    Py_TYPE(dtype)->tp_name);
            want = ((CtDtypeObject *)dtype)->dtype;
            if (!ct_dtype_valid((int)want)) return ctpy_not_implemented("dtype torch.%s", ((CtDtypeObject *)dtype)->name);
        }
        ct_tensor *d = ct_detach(src);
        ct_tensor *c = d ? ct_to_dtype(d, want, false, true, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor_release(d);
        if (!c) return ctpy_raise();
        if (requires_grad && ct_tensor_set_requires_grad(c, true) != 0) {
            ct_tensor_release(c);
            return ctpy_raise();
        }
        return ctpy_wrap(c);
    }
    nested st;
    memset(&st, 0, sizeof st);
    if (walk(data, 0, &st) != 0) {
        PyMem_Free(st.d);
        PyMem_Free(st.i);
        return NULL;
    }
    ct_dtype dt = st.any_float ? ct_default_dtype() : st.any_int ? CT_INT64 : st.any_bool ? CT_BOOL : ct_default_dtype();
    if (dtype != Py_None) {
        if (!ctpy_dtype_of(dtype, &dt)) {
            PyMem_Free(st.d);
            PyMem_Free(st.i);
            return PyErr_Format(PyExc_TypeError, "tensor(): argument 'dtype' must be torch.dtype, not %s", Py_TYPE(dtype)->tp_name);
        }
        if (!ct_dtype_valid((int)dt)) {
            PyMem_Free(st.d);
            PyMem_Free(st.i);
            return ctpy_not_implemented("dtype torch.%s", ((CtDtypeObject *)dtype)->name);
        }
    }
    ct_tensor *t;
    if (dt == CT_INT64 && !st.any_float) {
        t = ct_tensor_from_data(st.i, st.sizes, st.ndim, CT_INT64);
    } else {
        t = ct_tensor_from_doubles(st.d, st.sizes, st.ndim, dt);
    }
    PyMem_Free(st.d);
    PyMem_Free(st.i);
    if (!t) return ctpy_raise();
    /* the calls internal_new_from_data and tensor_ctor make (a function mode sees only
     * torch.tensor, which the Python package offers it) */
    ct_tensor *l = ct_tensor_lift(t, requires_grad != 0);
    ct_tensor_release(t);
    return l ? ctpy_wrap(l) : ctpy_raise();
}

/* ---- torch.allclose ---- */

static double load(const char *base, const int64_t *idx, const int64_t *strides, int ndim, ct_dtype d) {
    int64_t off = 0;
    for (int k = 0; k < ndim; k++) off += idx[k] * strides[k];
    const char *p = base + off * (int64_t)ct_dtype_size(d);
    switch (d) {
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    case CT_FLOAT16: return ct_half_to_float(*(const uint16_t *)p);
    case CT_BFLOAT16: return ct_bfloat16_to_float(*(const uint16_t *)p);
    case CT_INT64: return (double)*(const int64_t *)p;
    case CT_BOOL: return *(const uint8_t *)p ? 1.0 : 0.0;
    default: return NAN;
    }
}

/* Rounds an intermediate to the dtype's precision, as PyTorch's kernels compute isclose in it. */
static double in_dtype(double v, ct_dtype d) {
    switch (d) {
    case CT_FLOAT32: return (float)v;
    case CT_FLOAT16: return ct_half_to_float(ct_float_to_half((float)v));
    case CT_BFLOAT16: return ct_bfloat16_to_float(ct_float_to_bfloat16((float)v));
    default: return v;
    }
}

/* One of allclose's double / bool arguments as PyTorch's parser takes it (a double: any Python
 * number, bool included; a bool: True or False only), with its TypeError. */
static int allclose_arg(PyObject *o, const char *name, int position, bool positional, bool is_bool, double *d, int *b) {
    if (!o) return 0;
    bool ok = is_bool ? PyBool_Check(o) : PyFloat_Check(o) || PyLong_Check(o);
    if (!ok) {
        const char *want = is_bool ? "bool" : "float";
        const char *got = ctpy_is_tensor(o) ? "Tensor" : Py_TYPE(o)->tp_name;
        if (positional)
            PyErr_Format(PyExc_TypeError, "allclose(): argument '%s' (position %d) must be %s, not %s", name, position,
                         want, got);
        else
            PyErr_Format(PyExc_TypeError, "allclose(): argument '%s' must be %s, not %s", name, want, got);
        return -1;
    }
    if (is_bool) *b = o == Py_True;
    else *d = PyFloat_AsDouble(o);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *py_allclose(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"input", "other", "rtol", "atol", "equal_nan", NULL};
    PyObject *ao, *bo, *ro = NULL, *to = NULL, *eo = NULL;
    double rtol = 1e-05, atol = 1e-08;
    int equal_nan = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OOO:allclose", kw, &ao, &bo, &ro, &to, &eo)) return NULL;
    Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (allclose_arg(ro, "rtol", 3, npos > 2, false, &rtol, NULL) != 0 ||
        allclose_arg(to, "atol", 4, npos > 3, false, &atol, NULL) != 0 ||
        allclose_arg(eo, "equal_nan", 5, npos > 4, true, NULL, &equal_nan) != 0)
        return NULL;
    ct_tensor *a = ctpy_tensor_arg(ao, "allclose(): argument 'input' (position 1)");
    ct_tensor *b = a ? ctpy_tensor_arg(bo, "allclose(): argument 'other' (position 2)") : NULL;
    if (!b) return NULL;
    /* aten::allclose is not one of ctorch's operators: what a mode or subclass would see is missing */
    if (ct_tensor_subclass(a) || ct_tensor_subclass(b) || ct_dispatch_mode_stack_len() > 0)
        return ctpy_not_implemented("torch.allclose under a dispatch mode or on a tensor subclass (aten::allclose)");
    ct_dtype da = ct_tensor_dtype(a), db = ct_tensor_dtype(b);
    if (da != db) return PyErr_Format(PyExc_RuntimeError, "%s did not match %s", ct_dtype_name(da), ct_dtype_name(db));
    /* broadcast shapes */
    int na = ct_tensor_ndim(a), nb = ct_tensor_ndim(b), n = na > nb ? na : nb;
    int64_t shape[CT_MAX_DIMS], sa[CT_MAX_DIMS], sb[CT_MAX_DIMS];
    for (int k = 0; k < n; k++) {
        int ka = k - (n - na), kb = k - (n - nb);
        int64_t za = ka >= 0 ? ct_tensor_sizes(a)[ka] : 1, zb = kb >= 0 ? ct_tensor_sizes(b)[kb] : 1;
        if (za != zb && za != 1 && zb != 1)
            return PyErr_Format(PyExc_RuntimeError,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)za, (long long)zb, k);
        shape[k] = za > zb ? za : zb;
        sa[k] = ka >= 0 && za != 1 ? ct_tensor_strides(a)[ka] : 0;
        sb[k] = kb >= 0 && zb != 1 ? ct_tensor_strides(b)[kb] : 0;
    }
    const char *pa = ct_tensor_data_ptr(a), *pb = ct_tensor_data_ptr(b);
    int64_t total = 1;
    for (int k = 0; k < n; k++) total *= shape[k];
    int64_t idx[CT_MAX_DIMS] = {0};
    bool all = true;
    for (int64_t e = 0; e < total && all; e++) {
        double x = load(pa, idx, sa, n, da), y = load(pb, idx, sb, n, db);
        bool close = x == y || (equal_nan && isnan(x) && isnan(y));
        if (!close && ct_dtype_is_floating(da)) {
            double allowed = in_dtype(atol + in_dtype(fabs(in_dtype(rtol * y, da)), da), da);
            double actual = in_dtype(fabs(in_dtype(x - y, da)), da);
            close = isfinite(actual) && actual <= allowed;
        } else if (!close) {
            close = fabs(x - y) <= atol + fabs(rtol * y);
        }
        all = close;
        for (int k = n - 1; k >= 0; k--) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
    return PyBool_FromLong(all);
}

/* F.cross_entropy: ctorch's public function, which function modes see as "cross_entropy" */
static PyObject *py_cross_entropy(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *in, *tg, *w, *ii, *ls;
    int reduction;
    if (!PyArg_ParseTuple(args, "OOOiOO:cross_entropy", &in, &tg, &w, &reduction, &ii, &ls)) return NULL;
    ct_tensor *x = ctpy_tensor_arg(in, "cross_entropy_loss(): argument 'input' (position 1)");
    ct_tensor *y = x ? ctpy_tensor_arg(tg, "cross_entropy_loss(): argument 'target' (position 2)") : NULL;
    if (!y) return NULL;
    ct_tensor *wt = NULL;
    if (w != Py_None && !(wt = ctpy_tensor_arg(w, "cross_entropy_loss(): argument 'weight' (position 3)"))) return NULL;
    /* the binding's SymInt ignore_index (an int, not a bool) and double label_smoothing (any number) */
    if (PyBool_Check(ii) || !PyIndex_Check(ii) || PyFloat_Check(ii) || ctpy_is_tensor(ii))
        return PyErr_Format(PyExc_TypeError, "cross_entropy_loss(): argument 'ignore_index' (position 5) must be int, not %s",
                            ctpy_is_tensor(ii) ? "Tensor" : Py_TYPE(ii)->tp_name);
    if (!PyFloat_Check(ls) && !PyLong_Check(ls))
        return PyErr_Format(PyExc_TypeError,
                            "cross_entropy_loss(): argument 'label_smoothing' (position 6) must be float, not %s",
                            ctpy_is_tensor(ls) ? "Tensor" : Py_TYPE(ls)->tp_name);
    PyObject *index = PyNumber_Index(ii);
    long long ignore_index = index ? PyLong_AsLongLong(index) : -1;
    Py_XDECREF(index);
    double smoothing = PyFloat_AsDouble(ls);
    if (PyErr_Occurred()) return NULL;
    return ctpy_wrap(ct_cross_entropy(x, y, wt, ignore_index, (ct_reduction)reduction, smoothing));
}

/* ---- misc ---- */

static int num_threads = 1;

static PyObject *py_set_num_threads(PyObject *unused, PyObject *arg) {
    (void)unused;
    if (!PyLong_Check(arg) || PyBool_Check(arg)) /* THPUtils_checkLong, then its RuntimeError */
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s", Py_TYPE(arg)->tp_name);
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n <= 0) return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects a positive integer");
    num_threads = (int)n; /* ctorch's kernels run on the calling thread; recorded for get_num_threads */
    Py_RETURN_NONE;
}
static PyObject *py_get_num_threads(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(num_threads);
}

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

static PyObject *py_live_tensors(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return Py_BuildValue("(LLL)", (long long)ct_testing_live_tensors(), (long long)ct_testing_live_storages(),
                         (long long)ct_testing_live_nodes());
}

static PyObject *py_trace_level(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_trace_print_level());
}

static PyObject *py_dtypes(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < N_DTYPES; i++) {
        if (PyDict_SetItemString(d, dtypes[i].name, (PyObject *)&dtypes[i]) < 0) Py_CLEAR(d);
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

static PyObject *py_get_cpu_capability(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyUnicode_FromString(ct_backends_cpu_capability());
}

static PyMethodDef module_functions[] = {
    {"_dispatch_keys", py_dispatch_keys, METH_O, "The dispatch key set of a tensor."},
    {"_dispatch_tls_local_exclude_set", py_tls_exclude, METH_NOARGS, NULL},
    {"_dispatch_tls_local_include_set", py_tls_include, METH_NOARGS, NULL},
    {"_dispatch_tls_set_dispatch_key_excluded", py_tls_set_excluded, METH_VARARGS, NULL},
    {"_dispatch_tls_set_dispatch_key_included", py_tls_set_included, METH_VARARGS, NULL},
    {"_dispatch_dump", py_dispatch_dump, METH_O, "An operator's schema and registrations."},
    {"_dispatch_dump_table", py_dispatch_dump_table, METH_O, "An operator's computed dispatch table."},
    {"tensor", (PyCFunction)(void (*)(void))py_tensor, METH_VARARGS | METH_KEYWORDS, "torch.tensor(data)"},
    {"allclose", (PyCFunction)(void (*)(void))py_allclose, METH_VARARGS | METH_KEYWORDS, "torch.allclose"},
    {"_cross_entropy", py_cross_entropy, METH_VARARGS, "F.cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing)"},
    {"set_num_threads", py_set_num_threads, METH_O, NULL},
    {"get_num_threads", py_get_num_threads, METH_NOARGS, NULL},
    {"_dispatch_key_names", py_dispatch_key_names, METH_NOARGS, "(name, value) of every dispatch key"},
    {"_register", (PyCFunction)(void (*)(void))py_register, METH_VARARGS | METH_KEYWORDS,
     "Registers the Python classes and constants the extension hands out."},
    {"_live_tensors", py_live_tensors, METH_NOARGS, "(live tensors, storages, autograd nodes) in ctorch"},
    {"_trace_print_level", py_trace_level, METH_NOARGS, "CTORCH_SHOW_DISPATCH_TRACE's level (0, 1, 2)"},
    {"_dtypes", py_dtypes, METH_NOARGS, NULL},
    {"get_default_dtype", py_default_dtype, METH_NOARGS, NULL},
    {"_get_cpu_capability", py_get_cpu_capability, METH_NOARGS, "torch.backends.cpu.get_cpu_capability()"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "ctorch._C",
                                        "ctorch's C extension: tensors, the dispatcher, autograd, modes, the profiler.", -1,
                                        module_functions, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__C(void);
PyMODINIT_FUNC PyInit__C(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    if (PyType_Ready(&CtDtype_Type) < 0 || PyType_Ready(&CtKeySet_Type) < 0) goto fail;
    Py_INCREF(&CtKeySet_Type);
    if (PyModule_AddObject(m, "DispatchKeySet", (PyObject *)&CtKeySet_Type) < 0) goto fail;
    Py_INCREF(&CtDtype_Type);
    if (PyModule_AddObject(m, "dtype", (PyObject *)&CtDtype_Type) < 0) goto fail;
    if (ctpy_errors_init(m) < 0 || ctpy_tensor_init(m) < 0 || ctpy_script_object_init(m) < 0 || ctpy_class_type_init(m) < 0 ||
        ctpy_op_overload_init(m) < 0 || ctpy_op_packet_init(m) < 0 || ctpy_op_function_init(m) < 0 ||
        ctpy_bindings_init(m) < 0 || ctpy_tensor_number_init() < 0 || ctpy_modes_init(m) < 0 || ctpy_torch_function_init(m) < 0 ||
        ctpy_subclass_init(m) < 0 || ctpy_autograd_init(m) < 0 || ctpy_profiler_init(m) < 0 ||
        ctpy_generator_init(m) < 0 || ctpy_nn_init(m) < 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "_pytorch_version", CTORCH_PYTORCH_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "_ctorch_version", CTORCH_VERSION_STRING) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
