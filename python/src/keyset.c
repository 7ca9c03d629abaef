/* torch._C.DispatchKeySet: a dispatch key set that prints like PyTorch's, and the functions
 * that give one (a tensor's key set, the thread-local include and exclude sets) or change the
 * thread's sets, and torch._C.DispatchKey's names. */
#include "ctpy.h"

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

static PyMethodDef keyset_functions[] = {
    {"_dispatch_keys", py_dispatch_keys, METH_O, "The dispatch key set of a tensor."},
    {"_dispatch_tls_local_exclude_set", py_tls_exclude, METH_NOARGS, NULL},
    {"_dispatch_tls_local_include_set", py_tls_include, METH_NOARGS, NULL},
    {"_dispatch_tls_set_dispatch_key_excluded", py_tls_set_excluded, METH_VARARGS, NULL},
    {"_dispatch_tls_set_dispatch_key_included", py_tls_set_included, METH_VARARGS, NULL},
    {"_dispatch_key_names", py_dispatch_key_names, METH_NOARGS, "(name, value) of every dispatch key"},
    {NULL, NULL, 0, NULL}};

int ctpy_keyset_init(PyObject *m) {
    if (PyType_Ready(&CtKeySet_Type) < 0) return -1;
    Py_INCREF(&CtKeySet_Type);
    if (PyModule_AddObject(m, "DispatchKeySet", (PyObject *)&CtKeySet_Type) < 0) return -1;
    return ctpy_add_functions(m, keyset_functions);
}
