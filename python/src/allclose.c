/* torch.allclose, computed in the tensors' dtype as PyTorch's isclose kernel computes it
 * (ctorch has no aten::allclose operator). */
#include <math.h>

#include "ctpy.h"

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
    case CT_INT32: return *(const int32_t *)p;
    case CT_INT16: return *(const int16_t *)p;
    case CT_INT8: return *(const int8_t *)p;
    case CT_UINT8: return *(const uint8_t *)p;
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

static PyMethodDef allclose_functions[] = {
    {"allclose", (PyCFunction)(void (*)(void))py_allclose, METH_VARARGS | METH_KEYWORDS, "torch.allclose"},
    {NULL, NULL, 0, NULL}};

int ctpy_allclose_init(PyObject *m) { return ctpy_add_functions(m, allclose_functions); }
