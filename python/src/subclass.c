/* Tensor subclasses: torch.Tensor._make_wrapper_subclass (a ctorch wrapper tensor whose
 * operators reach the Python key, include/ctorch/subclass.h) with the class's Python
 * __torch_dispatch__ as its handler, and torch.Tensor._make_subclass (nn.Parameter). */
#include <string.h>

#include "ctpy.h"

ct_subclass *ctpy_wrapper_class;
PyObject *ctpy_disabled_torch_dispatch;
static PyObject *str_torch_dispatch;

/* The Python object of a tensor argument, if it is one whose class overrides __torch_dispatch__. */
static PyObject *overloaded_object(const ct_value *v) {
    if (v->tag != CT_TAG_TENSOR) return NULL;
    PyObject *o = ct_tensor_binding(v->u.t, NULL);
    if (!o) return NULL;
    PyTypeObject *type = Py_TYPE(o);
    if (type == ctpy_tensor_class) return NULL;
    PyObject *d = _PyType_Lookup(type, str_torch_dispatch);
    return d && d != ctpy_disabled_torch_dispatch ? o : NULL;
}

/* PyTorch's append_overloaded_arg: first appearance order, but a subclass goes before its base. */
static int collect(const ct_value *args, int n, PyObject **objs, PyObject **types) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        PyObject *o = overloaded_object(&args[i]);
        if (!o) continue;
        PyObject *t = (PyObject *)Py_TYPE(o);
        bool seen = false;
        for (int j = 0; j < k; j++) seen = seen || types[j] == t;
        if (seen || k == CTPY_MAX_ARGS) continue;
        int at = k;
        for (int j = 0; j < k; j++) {
            if (PyType_IsSubtype((PyTypeObject *)t, (PyTypeObject *)types[j])) {
                at = j;
                break;
            }
        }
        for (int j = k; j > at; j--) {
            objs[j] = objs[j - 1];
            types[j] = types[j - 1];
        }
        objs[at] = o;
        types[at] = t;
        k++;
    }
    return k;
}

PyObject *ctpy_overloaded_types(const ct_value *args, int n) {
    PyObject *objs[CTPY_MAX_ARGS], *types[CTPY_MAX_ARGS];
    int k = collect(args, n, objs, types);
    PyObject *tup = PyTuple_New(k);
    for (int i = 0; tup && i < k; i++) {
        Py_INCREF(types[i]);
        PyTuple_SET_ITEM(tup, i, types[i]);
    }
    return tup;
}

/* The handler of every Python wrapper tensor: handle_torch_function_no_python_arg_parser for
 * __torch_dispatch__. */
static int subclass_handler(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)cls_data;
    CtOpOverloadObject *func = (CtOpOverloadObject *)ctpy_op_overload(op);
    if (!func) return ctpy_stash_pyerr();
    PyObject *objs[CTPY_MAX_ARGS], *types[CTPY_MAX_ARGS];
    int k = collect(args, func->schema.nargs, objs, types);
    if (k == 0) {
        PyErr_Format(PyExc_RuntimeError, "%s reached the Python key, but no tensor argument's class defines __torch_dispatch__",
                     ct_op_python_name(op));
        return ctpy_stash_pyerr();
    }
    PyObject *typetup = PyTuple_New(k);
    if (!typetup) return ctpy_stash_pyerr();
    for (int i = 0; i < k; i++) {
        Py_INCREF(types[i]);
        PyTuple_SET_ITEM(typetup, i, types[i]);
    }
    PyObject *pyargs, *pykwargs;
    if (ctpy_handler_args(&func->schema, args, &pyargs, &pykwargs) != 0) {
        Py_DECREF(typetup);
        return ctpy_stash_pyerr();
    }
    PyObject *res = NULL;
    for (int i = 0; i < k; i++) {
        /* the attribute of the argument itself: a classmethod bound to its class */
        PyObject *fn = PyObject_GetAttr(objs[i], str_torch_dispatch);
        if (!fn) break;
        PyObject *call[4] = {(PyObject *)func, typetup, pyargs, pykwargs};
        res = PyObject_Vectorcall(fn, call, 4, NULL);
        Py_DECREF(fn);
        if (!res || res != Py_NotImplemented) break;
        Py_CLEAR(res);
    }
    if (!res && !PyErr_Occurred()) {
        PyObject *lines = PyUnicode_FromString("");
        for (int i = 0; lines && i < k; i++) {
            PyObject *l = PyUnicode_FromFormat("%U  - tensor subclass %R\n", lines, types[i]);
            Py_DECREF(lines);
            lines = l;
        }
        if (lines) {
            PyErr_Format(PyExc_TypeError,
                         "Multiple dispatch failed for '%s'; all __torch_dispatch__ handlers returned NotImplemented:\n\n%U",
                         ct_op_python_name(op), lines);
            Py_DECREF(lines);
        }
    }
    Py_DECREF(typetup);
    Py_DECREF(pyargs);
    Py_DECREF(pykwargs);
    if (!res) return ctpy_stash_pyerr();
    int rc = ctpy_result_to_rets(&func->schema, res, rets);
    Py_DECREF(res);
    return rc == 0 ? 0 : ctpy_stash_pyerr();
}

static int int_list(PyObject *o, int64_t *out, int *n, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > CT_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_RuntimeError, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v;
    }
    *n = (int)len;
    Py_DECREF(seq);
    return 0;
}

static int check_tensor_class(PyObject *cls) {
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "cls must be a type (got %s)", Py_TYPE(cls)->tp_name);
        return -1;
    }
    if (!PyType_IsSubtype((PyTypeObject *)cls, &CtTensorBase_Type)) {
        PyErr_SetString(PyExc_RuntimeError, "Creating a Tensor subclass from a class that does not inherit from Tensor is "
                                            "not possible. Make sure your class inherits from Tensor.");
        return -1;
    }
    return 0;
}

static bool unset(PyObject *o) { return !o || o == Py_None; }

PyObject *ctpy_make_wrapper_subclass(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"cls", "size", "strides", "storage_offset", "memory_format", "dtype", "layout", "device",
                         "pin_memory", "requires_grad", "dispatch_sizes_strides_policy", "dispatch_device",
                         "dispatch_layout", "_extra_dispatch_keys", "storage_size", NULL};
    PyObject *cls, *size, *strides = NULL, *offset = NULL, *memfmt = NULL, *dtype = NULL, *layout = NULL, *device = NULL;
    PyObject *policy = NULL, *extra = NULL, *storage_size = NULL, *rg = NULL;
    int pin = 0, dispatch_device = 0, dispatch_layout = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OOOOOOpOOppOO:_make_wrapper_subclass", kw, &cls, &size, &strides,
                                     &offset, &memfmt, &dtype, &layout, &device, &pin, &rg, &policy,
                                     &dispatch_device, &dispatch_layout, &extra, &storage_size))
        return NULL;
    if (rg && !PyBool_Check(rg))
        return PyErr_Format(PyExc_TypeError, "_make_wrapper_subclass(): argument 'requires_grad' must be bool, not %s",
                            Py_TYPE(rg)->tp_name);
    int requires_grad = rg == Py_True;
    if (check_tensor_class(cls) != 0) return NULL;
    if (!unset(policy) || dispatch_device || dispatch_layout || !unset(extra) || !unset(storage_size) || pin)
        return ctpy_not_implemented("_make_wrapper_subclass with dispatch_sizes_strides_policy, dispatch_device, "
                                    "dispatch_layout, _extra_dispatch_keys, storage_size or pin_memory");
    if (!unset(memfmt) && memfmt != ctpy_contiguous_format)
        return ctpy_not_implemented("_make_wrapper_subclass with memory_format=%S", memfmt);
    if (!unset(layout) && layout != ctpy_strided) return ctpy_not_implemented("_make_wrapper_subclass with layout=%S", layout);
    if (!unset(device) && ctpy_check_device(device) != 0) return NULL;
    int64_t sizes[CT_MAX_DIMS], st[CT_MAX_DIMS];
    int nd, ns = -1;
    if (int_list(size, sizes, &nd, "size must be a sequence of ints") != 0) return NULL;
    if (!unset(strides)) {
        if (int_list(strides, st, &ns, "strides must be a sequence of ints") != 0) return NULL;
        if (ns != nd) return PyErr_Format(PyExc_RuntimeError, "strides has %d entries for %d dimensions", ns, nd);
    }
    long long off = 0;
    if (!unset(offset)) {
        off = PyLong_AsLongLong(offset);
        if (off == -1 && PyErr_Occurred()) return NULL;
    }
    ct_dtype dt = ct_default_dtype();
    if (!unset(dtype)) {
        if (!PyObject_TypeCheck(dtype, &CtDtype_Type)) return PyErr_Format(PyExc_TypeError, "dtype must be a torch.dtype");
        dt = ((CtDtypeObject *)dtype)->dtype;
        if (!ct_dtype_valid((int)dt)) return ctpy_not_implemented("dtype torch.%s", ((CtDtypeObject *)dtype)->name);
    }
    ct_tensor *w = ct_subclass_make_wrapper(ctpy_wrapper_class, sizes, ns >= 0 ? st : NULL, nd, off, dt,
                                            requires_grad != 0, NULL);
    if (!w) return ctpy_raise();
    return ctpy_wrap_as(w, (PyTypeObject *)cls);
}

typedef struct {
    ct_tensor *in, *out;
} detach_call;

static int detach_without_modes(void *ctx) {
    detach_call *c = ctx;
    c->out = ct_detach(c->in);
    return c->out ? 0 : -1;
}

PyObject *ctpy_make_subclass(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"cls", "data", "require_grad", "dispatch_strides", "dispatch_device", "dispatch_layout",
                         "_extra_dispatch_keys", NULL};
    PyObject *cls, *data, *extra = NULL, *rg = NULL;
    int ds = 0, dd = 0, dl = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OpppO:_make_subclass", kw, &cls, &data, &rg, &ds, &dd, &dl, &extra))
        return NULL;
    if (rg && !PyBool_Check(rg)) {
        if (PyTuple_GET_SIZE(args) > 2)
            return PyErr_Format(PyExc_TypeError, "_make_subclass(): argument 'require_grad' (position 3) must be bool, not %s",
                                Py_TYPE(rg)->tp_name);
        return PyErr_Format(PyExc_TypeError, "_make_subclass(): argument 'require_grad' must be bool, not %s",
                            Py_TYPE(rg)->tp_name);
    }
    int require_grad = rg == Py_True;
    if (check_tensor_class(cls) != 0) return NULL;
    if (ds || dd || dl || !unset(extra)) return ctpy_not_implemented("_make_subclass with dispatch_* arguments");
    if (!ctpy_is_tensor(data))
        return PyErr_Format(PyExc_TypeError, "_make_subclass(): argument 'data' (position 2) must be Tensor, not %s",
                            Py_TYPE(data)->tp_name);
    ct_tensor *t = ctpy_tensor(data);
    /* THPVariable_make_subclass: data.detach() with the dispatch modes stashed (no mode sees it),
     * then set_requires_grad; a class with a __torch_dispatch__ of its own gets the Python keys
     * (set_python_dispatch), so its ops reach that handler */
    detach_call dc = {t, NULL};
    if (ct_dispatch_mode_run_without(detach_without_modes, &dc) != 0) return ctpy_raise();
    ct_tensor *d = dc.out;
    PyObject *own = _PyType_Lookup((PyTypeObject *)cls, str_torch_dispatch);
    if (own && own != ctpy_disabled_torch_dispatch) {
        ct_tensor *sub = ct_subclass_make_dense(ctpy_wrapper_class, d);
        ct_tensor_release(d);
        if (!sub) return ctpy_raise();
        d = sub;
    }
    if (require_grad && !ct_dtype_is_floating(ct_tensor_dtype(d))) {
        ct_tensor_release(d);
        return PyErr_Format(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
    }
    if (require_grad && ct_tensor_set_requires_grad(d, true) != 0) {
        ct_tensor_release(d);
        return ctpy_raise();
    }
    return ctpy_wrap_as(d, (PyTypeObject *)cls);
}

/* torch._C._as_subclass(tensor, cls): Tensor.as_subclass's body, THPVariable_NewWithVar(cls,
 * self.alias()): an alias (a view autograd follows) as an object of cls */
static PyObject *py_as_subclass(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    if (nargs != 2 || !ctpy_is_tensor(args[0]))
        return PyErr_Format(PyExc_TypeError, "as_subclass(): argument 'cls' (position 1) must be type");
    if (check_tensor_class(args[1]) != 0) return NULL;
    const ct_op *alias = ct_op_find("aten::alias");
    if (!alias) return ctpy_raise();
    ct_value a[1] = {ct_tensor_value(ctpy_tensor(args[0]))}, r[1] = {ct_none()};
    if (ct_op_invoke(alias, a, r) != 0) return ctpy_raise();
    ct_tensor *t = r[0].u.t;
    PyObject *own = _PyType_Lookup((PyTypeObject *)args[1], str_torch_dispatch);
    if (own && own != ctpy_disabled_torch_dispatch && !ct_tensor_subclass(t)) {
        ct_tensor *sub = ct_subclass_make_dense(ctpy_wrapper_class, t);
        ct_tensor_release(t);
        if (!sub) return ctpy_raise();
        t = sub;
    }
    return ctpy_wrap_as(t, (PyTypeObject *)args[1]);
}

static PyMethodDef subclass_functions[] = {
    {"_as_subclass", (PyCFunction)(void (*)(void))py_as_subclass, METH_FASTCALL, "Tensor.as_subclass's body."},
    {NULL, NULL, 0, NULL}};

static PyObject *disabled_impl(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    (void)args;
    (void)kwargs;
    return ctpy_not_implemented("calling torch.Tensor.__torch_dispatch__ of the base class");
}

static PyMethodDef disabled_def = {"_disabled_torch_dispatch_impl", (PyCFunction)(void (*)(void))disabled_impl,
                                   METH_VARARGS | METH_KEYWORDS, "torch.Tensor's own __torch_dispatch__ (disabled)."};

int ctpy_subclass_init(PyObject *m) {
    str_torch_dispatch = PyUnicode_InternFromString("__torch_dispatch__");
    if (!str_torch_dispatch) return -1;
    ctpy_wrapper_class = ct_subclass_new("torch.Tensor subclass", subclass_handler, NULL, NULL);
    if (!ctpy_wrapper_class) {
        ctpy_raise();
        return -1;
    }
    ctpy_disabled_torch_dispatch = PyCFunction_NewEx(&disabled_def, NULL, NULL);
    if (!ctpy_disabled_torch_dispatch) return -1;
    Py_INCREF(ctpy_disabled_torch_dispatch);
    if (PyModule_AddObject(m, "_disabled_torch_dispatch_impl", ctpy_disabled_torch_dispatch) < 0) return -1;
    return ctpy_add_functions(m, subclass_functions);
}
