/* torch.autograd.graph.Node: a grad_fn object (name(), next_functions, variable, type names
 * like AddmmBackward0: one Python type per node name, one object per node). */
#include <string.h>

#include "ctpy.h"

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

int ctpy_node_init(PyObject *m) {
    if (PyType_Ready(&CtNode_Type) < 0) return -1;
    node_types = PyDict_New();
    node_objects = PyDict_New();
    if (!node_types || !node_objects) return -1;
    Py_INCREF(&CtNode_Type);
    return PyModule_AddObject(m, "Node", (PyObject *)&CtNode_Type);
}
