/* torch._C._ModeFunction: the function a TorchFunctionMode's __torch_function__ receives for
 * a call of one of ctorch's C-bodied public functions (tensor, cross_entropy) that ctorch's own C
 * code made; calling it runs the function (lower modes first). */
#include "ctpy.h"

typedef struct {
    PyObject_HEAD
    const ct_function *f; /* static: lives for the process */
    vectorcallfunc vectorcall;
} CtModeFunctionObject;

static PyObject *tagged_rets(ct_value *rets, int n) {
    if (n == 0) Py_RETURN_NONE;
    PyObject *out[CTPY_MAX_RETS] = {NULL};
    for (int i = 0; i < n; i++) {
        if (rets[i].tag == CT_TAG_TENSOR) {
            out[i] = ctpy_wrap(rets[i].u.t);
            rets[i] = ct_none();
        } else {
            out[i] = ctpy_tagged_to_py(&rets[i]);
        }
        if (!out[i]) {
            ct_values_release(rets + i + 1, n - i - 1);
            for (int k = 0; k < i; k++) Py_DECREF(out[k]);
            return NULL;
        }
    }
    if (n == 1) return out[0];
    PyObject *t = PyTuple_New(n);
    for (int k = 0; k < n; k++) {
        if (t) PyTuple_SET_ITEM(t, k, out[k]);
        else Py_DECREF(out[k]);
    }
    return t;
}

static PyObject *mode_function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    const ct_function *f = ((CtModeFunctionObject *)self)->f;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int want = ct_function_num_args(f), nrets = ct_function_num_returns(f);
    if (kwnames && PyTuple_GET_SIZE(kwnames) > 0)
        return ctpy_not_implemented("keyword arguments to %s() inside __torch_function__", ct_function_name(f));
    if (nargs != want || want > CTPY_MAX_ARGS || nrets > CTPY_MAX_RETS)
        return PyErr_Format(PyExc_TypeError, "%s() takes %d arguments (as __torch_function__ received them), got %zd",
                            ct_function_name(f), want, nargs);
    ctpy_args a;
    a.n_owned = 0;
    a.n_tl = 0;
    a.fname = NULL;
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (ctpy_py_to_tagged(args[i], &a, (int)i) != 0) return NULL;
    ct_value rets[CTPY_MAX_RETS];
    for (int i = 0; i < nrets; i++) rets[i] = ct_none();
    /* ct_function_call checks the values (the C body checks what it reads) */
    if (ct_function_call(f, a.v, rets) != 0) return ctpy_raise();
    return tagged_rets(rets, nrets);
}

static PyObject *mode_function_get_name(PyObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(ct_function_name(((CtModeFunctionObject *)self)->f));
}
static PyObject *mode_function_repr(PyObject *self) {
    return PyUnicode_FromFormat("<built-in function %s>", ct_function_name(((CtModeFunctionObject *)self)->f));
}

static PyGetSetDef mode_function_getset[] = {{"__name__", mode_function_get_name, NULL, NULL, NULL},
                                             {"__qualname__", mode_function_get_name, NULL, NULL, NULL},
                                             {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtModeFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._ModeFunction",
    .tp_basicsize = sizeof(CtModeFunctionObject),
    .tp_vectorcall_offset = offsetof(CtModeFunctionObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = mode_function_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "The function a TorchFunctionMode's __torch_function__ receives for a C-bodied ctorch function.",
    .tp_getset = mode_function_getset,
};

PyObject *ctpy_mode_function_new(const ct_function *f) {
    CtModeFunctionObject *n = PyObject_New(CtModeFunctionObject, &CtModeFunction_Type);
    if (n) {
        n->f = f;
        n->vectorcall = mode_function_vectorcall;
    }
    return (PyObject *)n;
}

int ctpy_mode_function_init(void) { return PyType_Ready(&CtModeFunction_Type); }
