/* Autograd from Python: graph nodes (grad_fn, next_functions, type names like AddmmBackward0),
 * backward, and the grad-mode context managers (no_grad, enable_grad, inference_mode). */
#include <string.h>

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
    /* an object may die while an exception is on its way out (a failed grad_fn.name(1)): the
     * bookkeeping below must neither clear nor replace it */
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);
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
    PyErr_Restore(et, ev, etb);
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

/* A node's saved tensors and values (grad_fn._saved_self, _raw_saved_other, ...) are PyTorch
 * attributes ctorch does not expose yet: asking for one says so, as an AttributeError subclass
 * (getattr(node, name, default) keeps working). */
static PyObject *node_getattro(PyObject *self, PyObject *name) {
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError) || !PyUnicode_Check(name)) return r;
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    if (strncmp(s, "_saved_", 7) != 0 && strncmp(s, "_raw_saved_", 11) != 0) return NULL;
    PyErr_Clear();
    return PyErr_Format(ctpy_NotImplementedInCtorchAttribute,
                        "%s.%s (what a node saved for backward) is not implemented in ctorch", Py_TYPE(self)->tp_name, s);
}

static PyTypeObject CtNode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.autograd.graph.Node",
    .tp_basicsize = sizeof(CtNodeObject),
    .tp_dealloc = node_dealloc,
    .tp_repr = node_repr,
    .tp_getattro = node_getattro,
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

/* torch._C._InferenceMode(mode): c10::InferenceMode as a context manager. Entering saves the
 * state and enters; exiting, or the object's death while entered, restores what was saved, as
 * the C++ guard's destructor does (so an inference_mode() entered and dropped undoes itself, as
 * in PyTorch). */
typedef struct {
    PyObject_HEAD
    ct_grad_mode_guard g;
    bool mode;
    bool entered;
} CtInferenceModeObject;

static PyObject *inference_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kw[] = {"mode", NULL};
    PyObject *mode;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:_InferenceMode", kw, &mode)) return NULL;
    if (!PyBool_Check(mode))
        return PyErr_Format(PyExc_TypeError, "_InferenceMode(): argument 'mode' must be bool, not %s", Py_TYPE(mode)->tp_name);
    CtInferenceModeObject *o = (CtInferenceModeObject *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->mode = mode == Py_True;
    o->entered = false;
    return (PyObject *)o;
}

static PyObject *inference_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g); /* entered again: the C++ guard is replaced */
    ct_inference_mode_enter_enabled(&o->g, o->mode);
    o->entered = true;
    Py_RETURN_NONE;
}

static PyObject *inference_exit(PyObject *self, PyObject *args) {
    (void)args;
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g);
    o->entered = false;
    Py_RETURN_NONE;
}

static void inference_dealloc(PyObject *self) {
    CtInferenceModeObject *o = (CtInferenceModeObject *)self;
    if (o->entered) ct_grad_mode_restore(&o->g);
    Py_TYPE(self)->tp_free(self);
}

static PyMethodDef inference_methods[] = {{"__enter__", inference_enter, METH_NOARGS, NULL},
                                          {"__exit__", inference_exit, METH_VARARGS, NULL},
                                          {NULL, NULL, 0, NULL}};

static PyTypeObject CtInferenceMode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._InferenceMode",
    .tp_basicsize = sizeof(CtInferenceModeObject),
    .tp_dealloc = inference_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "c10::InferenceMode as a context manager.",
    .tp_methods = inference_methods,
    .tp_new = inference_new,
};

/* torch._C._set_grad_enabled(enabled): a torch function (function modes see it) */
static PyObject *py_set_grad_enabled(PyObject *self, PyObject *arg) {
    (void)self;
    if (ctpy_function_mode_active()) {
        static PyObject *me;
        if (!me) me = PyObject_GetAttrString(PyImport_AddModule("ctorch._C"), "_set_grad_enabled");
        PyObject *args = me ? PyTuple_Pack(1, arg) : NULL;
        if (!args) return NULL;
        bool handled;
        PyObject *r = ctpy_torch_function(me, "torch._C._set_grad_enabled", args, NULL, false, &handled);
        Py_DECREF(args);
        if (handled) return r;
    }
    if (!PyBool_Check(arg))
        return PyErr_Format(PyExc_TypeError, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not %s",
                            Py_TYPE(arg)->tp_name);
    ct_set_grad_enabled(arg == Py_True);
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
    {"_set_grad_enabled", py_set_grad_enabled, METH_O, NULL},
    {"is_grad_enabled", py_is_grad_enabled, METH_NOARGS, NULL},
    {"is_inference_mode_enabled", py_is_inference_mode_enabled, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int ctpy_autograd_init(PyObject *m) {
    if (PyType_Ready(&CtNode_Type) < 0 || PyType_Ready(&CtInferenceMode_Type) < 0) return -1;
    Py_INCREF(&CtInferenceMode_Type);
    if (PyModule_AddObject(m, "_InferenceMode", (PyObject *)&CtInferenceMode_Type) < 0) return -1;
    node_types = PyDict_New();
    node_objects = PyDict_New();
    if (!node_types || !node_objects) return -1;
    Py_INCREF(&CtNode_Type);
    if (PyModule_AddObject(m, "Node", (PyObject *)&CtNode_Type) < 0) return -1;
    return ctpy_add_functions(m, autograd_functions);
}
