/* Autograd from Python: graph nodes (grad_fn, next_functions, type names like AddmmBackward0),
 * backward, and the grad-mode context managers (no_grad, enable_grad, inference_mode). */
#include "ctpy.h"

/* ---- nodes ---- */

typedef struct {
    PyObject_HEAD
    ct_node *n; /* owned reference */
    PyObject *weakrefs;
} CtNodeObject;

static PyObject *node_types;   /* py_name -> type (a subclass of Node per node name) */
static PyObject *node_objects; /* PyLong(node) -> weakref to its object: one object per node */

static void node_dealloc(PyObject *self) {
    CtNodeObject *o = (CtNodeObject *)self;
    PyObject_GC_UnTrack(self);
    if (o->weakrefs) PyObject_ClearWeakRefs(self);
    if (o->n) {
        PyObject *key = PyLong_FromVoidPtr(o->n);
        if (key) {
            PyObject *ref = PyDict_GetItemWithError(node_objects, key);
            if (ref && PyWeakref_GetObject(ref) == Py_None) PyDict_DelItem(node_objects, key);
            Py_DECREF(key);
        }
        PyErr_Clear();
        ct_node_release(o->n);
    }
    /* instances are of the per-name heap subclasses, whose subtype_dealloc drops the type */
    Py_TYPE(self)->tp_free(self);
}

static int node_traverse(PyObject *self, visitproc visit, void *arg) {
    (void)self;
    (void)visit;
    (void)arg;
    return 0; /* holds no Python objects (subtype_traverse visits the heap type) */
}

static PyObject *node_repr(PyObject *self) {
    return PyUnicode_FromFormat("<%s object at %p>", ct_node_py_name(((CtNodeObject *)self)->n), self);
}

static PyObject *node_name(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(ct_node_name(((CtNodeObject *)self)->n));
}

static PyObject *node_sequence_nr(PyObject *self, PyObject *unused) {
    (void)unused;
    uint64_t s = ct_node_sequence_nr(((CtNodeObject *)self)->n);
    return s == UINT64_MAX ? PyLong_FromLong(-1) : PyLong_FromUnsignedLongLong(s);
}

static PyObject *node_get_next(PyObject *self, void *c) {
    (void)c;
    ct_node *n = ((CtNodeObject *)self)->n;
    int k = ct_node_num_next(n);
    PyObject *tup = PyTuple_New(k);
    for (int i = 0; tup && i < k; i++) {
        uint32_t nr = 0;
        ct_node *next = ct_node_next(n, i, &nr);
        PyObject *item = Py_BuildValue("(NI)", ctpy_node_wrap(next), (unsigned)nr);
        if (!item) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, item);
    }
    return tup;
}

static PyObject *node_get_variable(PyObject *self, void *c) {
    (void)c;
    ct_tensor *v = ct_node_variable(((CtNodeObject *)self)->n);
    if (!v) {
        PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute 'variable'", ct_node_py_name(((CtNodeObject *)self)->n));
        return NULL;
    }
    return ctpy_wrap_borrowed(v);
}

static PyObject *node_get_metadata(PyObject *self, void *c) {
    (void)self;
    (void)c;
    return PyDict_New();
}

static PyObject *node_register_hook(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return ctpy_not_implemented("Node.register_hook (autograd hooks)");
}

static PyMethodDef node_methods[] = {{"name", node_name, METH_NOARGS, NULL},
                                     {"_sequence_nr", node_sequence_nr, METH_NOARGS, NULL},
                                     {"register_hook", node_register_hook, METH_VARARGS, NULL},
                                     {"register_prehook", node_register_hook, METH_VARARGS, NULL},
                                     {NULL, NULL, 0, NULL}};

static PyGetSetDef node_getset[] = {{"next_functions", node_get_next, NULL, NULL, NULL},
                                    {"variable", node_get_variable, NULL, NULL, NULL},
                                    {"metadata", node_get_metadata, NULL, NULL, NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtNode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.autograd.graph.Node",
    .tp_basicsize = sizeof(CtNodeObject),
    .tp_dealloc = node_dealloc,
    .tp_repr = node_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = node_traverse,
    .tp_weaklistoffset = offsetof(CtNodeObject, weakrefs),
    .tp_doc = "An autograd graph node (grad_fn); its type is named like PyTorch's (AddmmBackward0).",
    .tp_methods = node_methods,
    .tp_getset = node_getset,
};

static PyObject *type_for(const char *py_name) {
    PyObject *t = PyDict_GetItemString(node_types, py_name);
    if (t) return t;
    /* type(py_name, (Node,), {}) */
    t = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){s:s}", py_name, (PyObject *)&CtNode_Type, "__module__",
                              "torch.autograd.graph");
    if (!t) return NULL;
    int rc = PyDict_SetItemString(node_types, py_name, t);
    Py_DECREF(t);
    return rc < 0 ? NULL : t;
}

PyObject *ctpy_node_wrap(ct_node *n) {
    if (!n) Py_RETURN_NONE;
    PyObject *key = PyLong_FromVoidPtr(n);
    if (!key) return NULL;
    PyObject *ref = PyDict_GetItemWithError(node_objects, key);
    if (ref) {
        PyObject *o = PyWeakref_GetObject(ref);
        if (o != Py_None) {
            Py_DECREF(key);
            Py_INCREF(o);
            return o;
        }
    } else if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)type_for(ct_node_py_name(n));
    CtNodeObject *o = type ? (CtNodeObject *)type->tp_alloc(type, 0) : NULL;
    if (!o) {
        Py_DECREF(key);
        return NULL;
    }
    o->n = ct_node_retain(n);
    PyObject *w = PyWeakref_NewRef((PyObject *)o, NULL);
    if (!w || PyDict_SetItem(node_objects, key, w) < 0) {
        Py_XDECREF(w);
        Py_DECREF(key);
        Py_DECREF(o);
        return NULL;
    }
    Py_DECREF(w);
    Py_DECREF(key);
    return (PyObject *)o;
}

/* ---- backward ---- */

/* Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None) */
static PyObject *py_backward(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"tensor", "gradient", "retain_graph", "create_graph", "inputs", NULL};
    PyObject *self, *grad = Py_None, *retain = Py_None, *inputs = Py_None;
    int create = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOpO:backward", kw, &self, &grad, &retain, &create, &inputs))
        return NULL;
    if (create) return ctpy_not_implemented("backward(create_graph=True) (higher-order gradients)");
    if (inputs != Py_None) return ctpy_not_implemented("backward(inputs=...)");
    ct_tensor *t = ctpy_tensor_arg(self, "backward(): self");
    if (!t) return NULL;
    ct_tensor *g = NULL;
    if (grad != Py_None && !(g = ctpy_tensor_arg(grad, "backward(): argument 'gradient'"))) return NULL;
    int rg = retain == Py_None ? create : PyObject_IsTrue(retain);
    if (rg < 0) return NULL;
    if (ct_backward(t, g, rg != 0) != 0) return ctpy_raise();
    Py_RETURN_NONE;
}

/* torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None) */
static PyObject *py_autograd_backward(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"tensors", "grad_tensors", "retain_graph", NULL};
    PyObject *tensors, *grads = Py_None, *retain = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:backward", kw, &tensors, &grads, &retain)) return NULL;
    PyObject *ts = PySequence_Fast(tensors, "tensors must be a sequence of Tensors");
    if (!ts) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
    PyObject *gs = grads == Py_None ? NULL : PySequence_Fast(grads, "grad_tensors must be a sequence");
    if (grads != Py_None && (!gs || PySequence_Fast_GET_SIZE(gs) != n)) {
        Py_DECREF(ts);
        Py_XDECREF(gs);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "grad_tensors must have one entry per tensor");
        return NULL;
    }
    ct_tensor **tv = PyMem_Calloc((size_t)n + 1, sizeof *tv), **gv = PyMem_Calloc((size_t)n + 1, sizeof *gv);
    PyObject *result = NULL;
    if (!tv || !gv) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(tv[i] = ctpy_tensor_arg(PySequence_Fast_GET_ITEM(ts, i), "backward(): tensors[i]"))) goto done;
        PyObject *g = gs ? PySequence_Fast_GET_ITEM(gs, i) : Py_None;
        if (g != Py_None && !(gv[i] = ctpy_tensor_arg(g, "backward(): grad_tensors[i]"))) goto done;
    }
    int rg = retain == Py_None ? 0 : PyObject_IsTrue(retain);
    if (rg < 0) goto done;
    if (ct_autograd_backward(tv, gv, (size_t)n, rg != 0) != 0) {
        ctpy_raise();
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(tv);
    PyMem_Free(gv);
    Py_DECREF(ts);
    Py_XDECREF(gs);
    return result;
}

/* ---- grad modes ---- */

typedef struct {
    PyObject_HEAD
    ct_grad_mode_guard g;
    int kind; /* 0 no_grad, 1 enable_grad, 2 inference_mode */
    bool entered;
} CtGuardObject;

static PyObject *guard_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    CtGuardObject *o = (CtGuardObject *)self;
    if (o->entered) {
        PyErr_SetString(PyExc_RuntimeError, "this grad-mode guard is already entered");
        return NULL;
    }
    if (o->kind == 0) ct_no_grad_enter(&o->g);
    else if (o->kind == 1) ct_enable_grad_enter(&o->g);
    else ct_inference_mode_enter(&o->g);
    o->entered = true;
    Py_RETURN_NONE;
}

static PyObject *guard_exit(PyObject *self, PyObject *args) {
    (void)args;
    CtGuardObject *o = (CtGuardObject *)self;
    if (o->entered) ct_grad_mode_exit(&o->g);
    o->entered = false;
    Py_RETURN_FALSE;
}

static void guard_dealloc(PyObject *self) {
    /* a guard dropped while entered leaves the mode on, as a with-statement never does */
    Py_TYPE(self)->tp_free(self);
}

static PyMethodDef guard_methods[] = {{"__enter__", guard_enter, METH_NOARGS, NULL},
                                      {"__exit__", guard_exit, METH_VARARGS, NULL},
                                      {NULL, NULL, 0, NULL}};

static PyTypeObject CtGuard_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._GradModeGuard",
    .tp_basicsize = sizeof(CtGuardObject),
    .tp_dealloc = guard_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One entry into no_grad / enable_grad / inference_mode (LIFO, as with-statements nest).",
    .tp_methods = guard_methods,
};

static PyObject *py_guard(PyObject *unused, PyObject *arg) {
    (void)unused;
    long kind = PyLong_AsLong(arg);
    if (kind == -1 && PyErr_Occurred()) return NULL;
    if (kind < 0 || kind > 2) return PyErr_Format(PyExc_ValueError, "guard kind must be 0, 1 or 2");
    CtGuardObject *o = PyObject_New(CtGuardObject, &CtGuard_Type);
    if (!o) return NULL;
    o->kind = (int)kind;
    o->entered = false;
    return (PyObject *)o;
}

static PyObject *py_set_grad_enabled(PyObject *unused, PyObject *arg) {
    (void)unused;
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    ct_grad_mode_guard g; /* entered and never exited: a plain state change */
    if (on) ct_enable_grad_enter(&g);
    else ct_no_grad_enter(&g);
    Py_RETURN_NONE;
}

static PyObject *py_is_grad_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(ct_is_grad_enabled());
}
static PyObject *py_is_inference_mode_enabled(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyBool_FromLong(ct_is_inference_mode_enabled());
}

static PyMethodDef autograd_functions[] = {
    {"_backward", (PyCFunction)(void (*)(void))py_backward, METH_VARARGS | METH_KEYWORDS, "Tensor.backward"},
    {"_autograd_backward", (PyCFunction)(void (*)(void))py_autograd_backward, METH_VARARGS | METH_KEYWORDS,
     "torch.autograd.backward"},
    {"_grad_mode_guard", py_guard, METH_O, "A guard: 0 no_grad, 1 enable_grad, 2 inference_mode."},
    {"_set_grad_enabled", py_set_grad_enabled, METH_O, NULL},
    {"is_grad_enabled", py_is_grad_enabled, METH_NOARGS, NULL},
    {"is_inference_mode_enabled", py_is_inference_mode_enabled, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_autograd_init(PyObject *m) {
    if (PyType_Ready(&CtNode_Type) < 0 || PyType_Ready(&CtGuard_Type) < 0) return -1;
    node_types = PyDict_New();
    node_objects = PyDict_New();
    if (!node_types || !node_objects) return -1;
    Py_INCREF(&CtNode_Type);
    if (PyModule_AddObject(m, "Node", (PyObject *)&CtNode_Type) < 0) return -1;
    return ctpy_add_functions(m, autograd_functions);
}
