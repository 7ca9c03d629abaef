/* torch.tensor(data): a new leaf from nested sequences of numbers (or a copy of a tensor), its
 * dtype inferred as PyTorch's internal_new_from_data infers it; the lift into a fresh tensor is
 * the library's (ct_tensor_lift), as a C program's torch.tensor. */
#include <math.h>
#include <string.h>

#include "ctpy.h"

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
        else if (ct_dtype_is_integral(dt, false)) st->any_int = true;
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

static PyObject *tensor_function; /* torch.tensor itself: the func a function mode receives */

/* c10::checked_convert for the integer dtypes narrower than int64, as torch.tensor stores each
 * Python number: a float must lie within [lowest, max]; an int too, except that an unsigned
 * dtype also takes a negative int down to -max (it wraps: -1 is 255 as uint8). */
static bool narrow_overflow(const nested *st, ct_dtype dt) {
    if (!ct_dtype_is_integral(dt, false) || dt == CT_INT64) return false;
    int bits = (int)ct_dtype_size(dt) * 8;
    bool sgn = ct_dtype_is_signed(dt);
    double hi = sgn ? ldexp(1.0, bits - 1) - 1.0 : ldexp(1.0, bits) - 1.0, lo = sgn ? -hi - 1.0 : 0.0;
    for (int64_t k = 0; k < st->n; k++) {
        if (st->any_float) {
            double v = st->d[k];
            if (!(v >= lo && v <= hi)) return true; /* NaN too */
        } else {
            double v = (double)st->i[k];
            if (v > hi || (sgn ? v < lo : v < -hi)) return true;
        }
    }
    return false;
}

static PyObject *py_tensor(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    /* Note [torch functions and function modes]: offered as called, before parsing, with the
     * data as the one relevant argument */
    PyObject *first = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : kwargs ? PyDict_GetItemString(kwargs, "data") : NULL;
    if (first && ctpy_torch_function_wanted(&first, 1)) {
        bool handled;
        PyObject *r = ctpy_torch_function(tensor_function, "torch.tensor", args, kwargs, false, &handled);
        if (handled) return r;
    }
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
    if (narrow_overflow(&st, dt)) {
        PyMem_Free(st.d);
        PyMem_Free(st.i);
        return PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                            ct_dtype_python_name(dt) + strlen("torch."));
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
    /* the calls internal_new_from_data and tensor_ctor make (a function mode has seen only
     * torch.tensor, above) */
    ct_tensor *l = ct_tensor_lift(t, requires_grad != 0);
    ct_tensor_release(t);
    return l ? ctpy_wrap(l) : ctpy_raise();
}

/* torch.tensor(seq) for an index that is a sequence (x[[0, 2]]): a new reference or NULL */
PyObject *ctpy_tensor_from_sequence(PyObject *seq) {
    PyObject *args = PyTuple_Pack(1, seq);
    if (!args) return NULL;
    PyObject *r = py_tensor(NULL, args, NULL);
    Py_DECREF(args);
    return r;
}

/* torch.Tensor(...), torch.FloatTensor(...) and a subclass's Tensor.__new__: the legacy
 * constructor, written in Python (torch/_legacy.py), which the package registers */
static PyObject *legacy_constructor;

static PyObject *py_register_legacy_constructor(PyObject *unused, PyObject *fn) {
    (void)unused;
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "the legacy constructor must be callable");
    Py_INCREF(fn);
    Py_XSETREF(legacy_constructor, fn);
    Py_RETURN_NONE;
}

PyObject *ctpy_legacy_tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if (!legacy_constructor)
        return ctpy_not_implemented("the legacy constructor torch.Tensor(...) before the package registers it");
    PyObject *kw = kwargs ? kwargs : PyDict_New();
    if (!kw) return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(legacy_constructor, (PyObject *)type, args, kw, NULL);
    if (!kwargs) Py_DECREF(kw);
    return r;
}

static PyMethodDef tensor_new_functions[] = {
    {"tensor", (PyCFunction)(void (*)(void))py_tensor, METH_VARARGS | METH_KEYWORDS, "torch.tensor(data)"},
    {"_register_legacy_constructor", py_register_legacy_constructor, METH_O,
     "_register_legacy_constructor(fn): fn(cls, args, kwargs) makes torch.Tensor(...)"},
    {NULL, NULL, 0, NULL}};

int ctpy_tensor_new_init(PyObject *m) {
    if (ctpy_add_functions(m, tensor_new_functions) < 0) return -1;
    tensor_function = PyObject_GetAttrString(m, "tensor"); /* kept for the module's life */
    return tensor_function ? 0 : -1;
}
