/* torch._C._OpFunction: a torch function or Tensor method backed by operator overloads
 * (torch.add, Tensor.sum, torch.nn.functional.linear): called, it is offered to function modes
 * as it was called, then picks an overload the way PyTorch's argument parser does. The
 * extension makes one for each name the generated bindings give (bindings.c). */
#include <string.h>

#include "ctpy.h"

typedef struct {
    PyObject_HEAD
    PyObject *name;      /* "addmm" */
    PyObject *public_name; /* "torch.addmm", "torch.Tensor.addmm": what messages call it */
    PyObject *cands;     /* tuple of OpOverload */
    PyObject *missing;   /* tuple of str: overloads PyTorch has and ctorch lacks */
    int flags;
    vectorcallfunc vectorcall;
} CtFunctionObject;

/* Whether one of the overloads takes out= (exp.out beside exp): then the parser picks it. */
static bool has_out_overload(PyObject *cands) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cands); i++) {
        const ct_op *op = ((CtOpOverloadObject *)PyTuple_GET_ITEM(cands, i))->schema.op;
        for (int a = 0; a < ct_op_num_args(op); a++)
            if (strcmp(ct_op_arg_name(op, a), "out") == 0) return true;
    }
    return false;
}


static PyObject *function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames);

/* torch.nonzero(input, *, as_tuple=False, out=None) and Tensor.nonzero(*, as_tuple=False): PyTorch
 * binds nonzero by hand (python_torch_functions_manual.cpp, python_variable_methods.cpp) for its
 * as_tuple= keyword: True gives the tensors of aten::nonzero_numpy (nonzero(), then unbind(1)),
 * False the operator as bound. Py_NotImplemented (a new reference) when as_tuple is not given. */
static PyObject *nonzero_as_tuple(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames), at = -1;
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "as_tuple") == 0) at = k;
    if (at < 0) Py_RETURN_NOTIMPLEMENTED;
    int as_tuple = PyObject_IsTrue(args[nargs + at]);
    if (as_tuple < 0) return NULL;
    if (!as_tuple) { /* the call without the keyword */
        PyObject *buf[CTPY_MAX_ARGS * 2];
        if (nargs + nkw > (Py_ssize_t)(sizeof buf / sizeof buf[0])) return PyErr_Format(PyExc_TypeError, "too many arguments");
        PyObject *kw = nkw > 1 ? PyTuple_New(nkw - 1) : NULL;
        if (nkw > 1 && !kw) return NULL;
        for (Py_ssize_t i = 0; i < nargs; i++) buf[i] = args[i];
        for (Py_ssize_t i = 0, j = 0; i < nkw; i++) {
            if (i == at) continue;
            PyObject *nm = PyTuple_GET_ITEM(kwnames, i);
            Py_INCREF(nm);
            PyTuple_SET_ITEM(kw, j, nm);
            buf[nargs + j++] = args[nargs + i];
        }
        PyObject *r = function_vectorcall(self, buf, (size_t)nargs, kw);
        Py_XDECREF(kw);
        return r;
    }
    if (nargs != 1 || nkw != 1 || !ctpy_is_tensor(args[0]))
        return PyErr_Format(PyExc_TypeError, "nonzero(): as_tuple=True takes the input tensor alone");
    ct_tensor **parts = NULL;
    int64_t n = 0;
    if (ct_nonzero_numpy(ctpy_tensor(args[0]), &parts, &n) != 0) return ctpy_raise();
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (int64_t i = 0; i < n; i++) {
        if (!t) {
            ct_tensor_release(parts[i]);
            continue;
        }
        PyObject *w = ctpy_wrap(parts[i]); /* takes the reference */
        if (!w) {
            Py_CLEAR(t);
            continue;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, w);
    }
    ct_free(parts);
    return t;
}

static PyObject *function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    CtFunctionObject *f = (CtFunctionObject *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    {
        /* Note [torch functions and function modes]: offered as called, before parsing */
        bool handled;
        const char *pub = PyUnicode_AsUTF8(f->public_name);
        PyObject *r = ctpy_torch_function_vector(self, pub, args, nargs, kwnames, strncmp(pub, "torch.Tensor.", 13) == 0,
                                                 &handled);
        if (handled) return r;
    }
    const char *fname = PyUnicode_AsUTF8(f->name);
    if (kwnames && strcmp(fname, "nonzero") == 0) {
        PyObject *r = nonzero_as_tuple(self, args, nargs, kwnames);
        if (r != Py_NotImplemented) return r;
        Py_DECREF(r);
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int requires_grad = -1;
    PyObject *const *use_args = args;
    PyObject *use_kw = kwnames;
    PyObject *buf[CTPY_MAX_ARGS * 2];
    PyObject *kwtmp = NULL;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kn = PyTuple_GET_ITEM(kwnames, k);
        /* a Tensor method has no out=: the parser refuses it as PyTorch's does; a function
         * without an out= overload in ctorch says so */
        if (!(f->flags & CTPY_FN_METHOD) && PyUnicode_CompareWithASCIIString(kn, "out") == 0 && !has_out_overload(f->cands))
            return ctpy_not_implemented("the out= argument of %s()", fname);
        if ((f->flags & CTPY_FN_OPTIONS) && PyUnicode_CompareWithASCIIString(kn, "requires_grad") == 0) {
            PyObject *v = args[nargs + k];
            if (!PyBool_Check(v))
                return PyErr_Format(PyExc_TypeError, "%s(): argument 'requires_grad' must be bool, not %s", fname,
                                    Py_TYPE(v)->tp_name);
            requires_grad = v == Py_True;
            /* drop it: it is not an operator argument */
            if (nargs + nkw > (Py_ssize_t)(sizeof buf / sizeof buf[0])) return PyErr_Format(PyExc_TypeError, "too many arguments");
            kwtmp = PyTuple_New(nkw - 1);
            if (!kwtmp) return NULL;
            Py_ssize_t j = 0;
            for (Py_ssize_t i = 0; i < nargs; i++) buf[i] = args[i];
            for (Py_ssize_t i = 0; i < nkw; i++) {
                if (i == k) continue;
                PyObject *nm = PyTuple_GET_ITEM(kwnames, i);
                Py_INCREF(nm);
                PyTuple_SET_ITEM(kwtmp, j, nm);
                buf[nargs + j] = args[nargs + i];
                j++;
            }
            use_args = buf;
            use_kw = nkw - 1 > 0 ? kwtmp : NULL;
            break;
        }
    }
    /* torch.ones & co. call torch:: factories, which run below ADInplaceOrView
     * (variable_factories.h's AutoDispatchBelowADInplaceOrView): the fills inside leave the new
     * tensor's version at 0. Restored key by key whatever a handler inside leaves entered. */
    static const ct_dispatch_key below[] = {CT_KEY_ADInplaceOrView, CT_KEY_AutogradOther, CT_KEY_AutogradFunctionality,
                                            CT_KEY_AutogradNestedTensor};
    bool was[4];
    bool factory = (f->flags & CTPY_FN_FACTORY) != 0;
    if (factory) {
        ct_keyset ex = ct_tls_excluded();
        for (int k = 0; k < 4; k++) {
            was[k] = ct_keyset_has(ex, below[k]);
            ct_tls_set_excluded(below[k], true);
        }
    }
    PyObject *r = ctpy_call_candidates(fname, f->cands, f->missing, use_args, nargs, use_kw, true,
                                  ((f->flags & CTPY_FN_OPTIONS) ? CTPY_FACTORY_OPTIONS : 0) |
                                      ((f->flags & CTPY_FN_METHOD) ? CTPY_METHOD : 0));
    if (factory)
        for (int k = 0; k < 4; k++) ct_tls_set_excluded(below[k], was[k]);
    Py_XDECREF(kwtmp);
    if (r && PyList_CheckExact(r)) { /* a Tensor[] result: PyTorch's bindings give a tuple (torch.ops a list) */
        PyObject *t = PyList_AsTuple(r);
        Py_DECREF(r);
        r = t;
    }
    if (r && requires_grad == 1) {
        if (ctpy_is_tensor(r) && !ct_dtype_is_floating(ct_tensor_dtype(ctpy_tensor(r)))) {
            Py_DECREF(r);
            return PyErr_Format(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        }
        if (!ctpy_is_tensor(r) || ct_tensor_set_requires_grad(ctpy_tensor(r), true) != 0) {
            Py_DECREF(r);
            return ctpy_is_tensor(r) ? ctpy_raise() : PyErr_Format(PyExc_TypeError, "requires_grad on a non-tensor");
        }
    }
    return r;
}

static void function_dealloc(PyObject *self) {
    CtFunctionObject *f = (CtFunctionObject *)self;
    Py_XDECREF(f->name);
    Py_XDECREF(f->public_name);
    Py_XDECREF(f->cands);
    Py_XDECREF(f->missing);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *function_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
    (void)type;
    if (!obj) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *function_repr(PyObject *self) {
    return PyUnicode_FromFormat("<built-in method %U>", ((CtFunctionObject *)self)->name);
}

static PyObject *function_get_name(PyObject *self, void *c) {
    (void)c;
    PyObject *n = ((CtFunctionObject *)self)->name;
    Py_INCREF(n);
    return n;
}
static PyObject *function_get_overloads(PyObject *self, void *c) {
    (void)c;
    PyObject *n = ((CtFunctionObject *)self)->cands;
    Py_INCREF(n);
    return n;
}

/* PyTorch's __qualname__ for the same function: Tensor methods are TensorBase's, torch.* functions
 * _VariableFunctionsClass's (torch._C._VariableFunctions), others (torch._C._nn.linear) plain */
static PyObject *function_get_qualname(PyObject *self, void *c) {
    (void)c;
    const char *p = PyUnicode_AsUTF8(((CtFunctionObject *)self)->public_name);
    if (!p) return NULL;
    const char *last = strrchr(p, '.');
    last = last ? last + 1 : p;
    if (strncmp(p, "torch.Tensor.", 13) == 0) return PyUnicode_FromFormat("TensorBase.%s", last);
    if (strncmp(p, "torch.", 6) == 0 && !strchr(p + 6, '.')) return PyUnicode_FromFormat("_VariableFunctionsClass.%s", last);
    return PyUnicode_FromString(last);
}

static PyGetSetDef function_getset[] = {{"__name__", function_get_name, NULL, NULL, NULL},
                                        {"__qualname__", function_get_qualname, NULL, NULL, NULL},
                                        {"_overloads", function_get_overloads, NULL, NULL, NULL},
                                        {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._OpFunction",
    .tp_basicsize = sizeof(CtFunctionObject),
    .tp_dealloc = function_dealloc,
    .tp_vectorcall_offset = offsetof(CtFunctionObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = function_repr,
    .tp_descr_get = function_descr_get,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A torch function or Tensor method backed by operators (picked like PyTorch's argument parser).",
    .tp_getset = function_getset,
};

PyObject *ctpy_function_new(PyObject *name, PyObject *public_name, PyObject *cands, PyObject *missing, int flags) {
    CtFunctionObject *f = PyObject_New(CtFunctionObject, &CtFunction_Type);
    if (!f) return NULL;
    f->vectorcall = function_vectorcall;
    f->flags = flags;
    Py_INCREF(name);
    f->name = name;
    Py_INCREF(public_name);
    f->public_name = public_name;
    f->cands = PySequence_Tuple(cands);
    f->missing = f->cands ? PySequence_Tuple(missing) : NULL;
    if (!f->missing) Py_CLEAR(f);
    return (PyObject *)f;
}

int ctpy_op_function_init(PyObject *m) {
    (void)m;
    return PyType_Ready(&CtFunction_Type);
}
