/* torch._C.TensorBase: the Python object of a ctorch tensor (Note [Tensor objects and
 * ownership] in ctpy.h), its type, and the step that offers its methods to function modes. Its
 * methods, properties, number protocol and indexing are in tensor_methods.c, tensor_attrs.c,
 * tensor_number.c and tensor_index.c. Methods that are operators (t, sum, view, ...) are
 * OpOverload-backed functions attached by the Python class torch.Tensor (ctorch/_tensor.py). */
#include "ctpy.h"

#include <structmember.h>

PyTypeObject *ctpy_tensor_class;
PyObject *ctpy_size_class;

/* ---- identity and ownership ---- */

static void binding_release(void *obj) {
    /* the tensor that held this object is being freed */
    CtTensorObject *o = obj;
    o->t = NULL;
    o->owns = false;
    Py_DECREF(o);
}

PyObject *ctpy_wrap_as(ct_tensor *t, PyTypeObject *cls) {
    CtTensorObject *o = (CtTensorObject *)cls->tp_alloc(cls, 0);
    if (!o) {
        ct_tensor_release(t);
        return NULL;
    }
    o->t = t;
    o->owns = true;
    ct_tensor_set_binding(t, o, false);
    return (PyObject *)o;
}

PyObject *ctpy_wrap(ct_tensor *t) {
    if (!t) return ctpy_raise();
    bool owned;
    CtTensorObject *o = ct_tensor_binding(t, &owned);
    if (o) {
        if (owned) {
            /* The tensor held the object: the caller gets that reference, and the object takes
             * over the tensor reference the caller handed us. */
            ct_tensor_set_binding(t, o, false);
            o->owns = true;
            return (PyObject *)o;
        }
        Py_INCREF(o);
        ct_tensor_release(t);
        return (PyObject *)o;
    }
    if (!ctpy_tensor_class) {
        ct_tensor_release(t);
        PyErr_SetString(PyExc_RuntimeError, "torch.Tensor is not registered (import ctorch first)");
        return NULL;
    }
    return ctpy_wrap_as(t, ctpy_tensor_class);
}

PyObject *ctpy_wrap_borrowed(ct_tensor *t) {
    if (!t) Py_RETURN_NONE;
    return ctpy_wrap(ct_tensor_retain(t));
}

ct_tensor *ctpy_tensor_arg(PyObject *o, const char *what) {
    if (ctpy_is_tensor(o) && ctpy_tensor(o)) return ctpy_tensor(o);
    PyErr_Format(PyExc_TypeError, "%s must be Tensor, not %s", what, Py_TYPE(o)->tp_name);
    return NULL;
}

/* Whether the object is kept when Python drops it while ctorch still uses the tensor: always,
 * as PyTorch's THPVariable_tryResurrect keeps every tensor's object, so the object a handler
 * returned, a weakref to it, its attributes and its id() stay with the tensor. */
static bool worth_keeping(PyObject *self) {
    (void)self;
    return true;
}

/* For each object __slots__ entry of the Python classes from the object's type down to
 * TensorBase: `slot` points at it. */
#define FOR_EACH_SLOT(self, slot)                                                                  \
    for (PyTypeObject *b_ = Py_TYPE(self); b_ && b_ != &CtTensorBase_Type; b_ = b_->tp_base)       \
        if ((b_->tp_flags & Py_TPFLAGS_HEAPTYPE) && b_->tp_members)                                \
            for (PyMemberDef *m_ = b_->tp_members; m_->name; m_++)                                 \
                if (m_->type == T_OBJECT_EX && !(m_->flags & READONLY) &&                          \
                    ((slot) = (PyObject **)((char *)(self) + m_->offset)) != NULL)

static void clear_slots(PyObject *self) {
    PyObject **slot;
    FOR_EACH_SLOT(self, slot) Py_CLEAR(*slot);
}

/* Note [Kept objects and the cycle collector]
 *   An object that ctorch will keep when Python drops it (see worth_keeping) must not have its
 *   slots and dict cleared by the cycle collector: the collector may find it in a garbage cycle
 *   (a dead frame that referenced it), clear it, and then the object would live on, empty, owned
 *   by its tensor. As PyTorch's THPVariable_subclass_traverse/clear do, such an object neither
 *   reports its references nor lets them be cleared; the collector then sees it as reachable. */
static bool will_be_kept(PyObject *self) {
    CtTensorObject *o = (CtTensorObject *)self;
    if (!o->t) return false;
    /* held by its tensor already: the collector may have listed it as garbage just before its
     * last Python reference went (it was reachable only from the cycle being cleared) */
    if (!o->owns) return true;
    return ct_tensor_refcount(o->t) > 1 && worth_keeping(self);
}

static int tensor_traverse(PyObject *self, visitproc visit, void *arg) {
    PyTypeObject *type = Py_TYPE(self);
    if (type->tp_flags & Py_TPFLAGS_HEAPTYPE) Py_VISIT(type);
    if (will_be_kept(self)) return 0;
    PyObject **slot;
    FOR_EACH_SLOT(self, slot) Py_VISIT(*slot);
    Py_VISIT(((CtTensorObject *)self)->dict);
    return 0;
}

static int tensor_clear(PyObject *self) {
    if (will_be_kept(self)) return 0;
    clear_slots(self);
    Py_CLEAR(((CtTensorObject *)self)->dict);
    return 0;
}

/* tp_dealloc of TensorBase and of every Python subclass (set by __init_subclass__, replacing
 * subtype_dealloc): first offers the object to its tensor when ctorch still uses it. */
static void tensor_dealloc(PyObject *self) {
    CtTensorObject *o = (CtTensorObject *)self;
    PyTypeObject *type = Py_TYPE(self);
    if (o->t && o->owns && ct_tensor_refcount(o->t) > 1 && worth_keeping(self)) {
        Py_SET_REFCNT(self, 1);
        if (ct_tensor_set_binding(o->t, self, true) == 0) {
            ct_tensor *t = o->t;
            o->owns = false;
            ct_tensor_release(t); /* not the last reference: nothing is freed here */
            return;
        }
        ct_error_clear();
        Py_SET_REFCNT(self, 0);
    }
    PyObject_GC_UnTrack(self);
    if (type->tp_finalize) {
        PyObject_GC_Track(self);
        if (PyObject_CallFinalizerFromDealloc(self) < 0) return; /* resurrected by __del__ */
        PyObject_GC_UnTrack(self);
    }
    if (o->weakrefs) PyObject_ClearWeakRefs(self);
    clear_slots(self);
    Py_CLEAR(o->dict);
    ct_tensor *t = o->t;
    o->t = NULL;
    if (t && o->owns) {
        ct_tensor_set_binding(t, NULL, false);
        ct_tensor_release(t);
    }
    type->tp_free(self);
    if (type->tp_flags & Py_TPFLAGS_HEAPTYPE) Py_DECREF(type);
}

/* The function a class's __torch_function__ runs: a classmethod's __func__, or the attribute
 * itself. A new reference, or NULL with the error set. */
static PyObject *torch_function_func(PyObject *cls) {
    PyObject *impl = PyObject_GetAttrString(cls, "__torch_function__");
    if (!impl) return NULL;
    PyObject *func = PyObject_GetAttrString(impl, "__func__");
    if (func) {
        Py_DECREF(impl);
        return func;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
        Py_DECREF(impl);
        return NULL;
    }
    PyErr_Clear(); /* not a method */
    return impl;
}

/* As PyTorch's Tensor metaclass does when it makes a subclass: one with its own
 * __torch_dispatch__ that keeps Tensor's default __torch_function__ gets
 * _disabled_torch_function_impl instead, so its torch functions go straight to the dispatcher
 * (and what its __torch_dispatch__ returns is not rewrapped into the class). */
static int disable_default_torch_function(PyObject *cls) {
    if (!ctpy_tensor_class) return 0; /* Tensor itself */
    PyObject *dispatch = PyObject_GetAttrString(cls, "__torch_dispatch__");
    if (!dispatch) return -1;
    PyObject *dispatch_default = PyObject_GetAttrString((PyObject *)ctpy_tensor_class, "__torch_dispatch__");
    if (!dispatch_default) {
        Py_DECREF(dispatch);
        return -1;
    }
    int own_dispatch = PyObject_RichCompareBool(dispatch, dispatch_default, Py_EQ);
    Py_DECREF(dispatch);
    Py_DECREF(dispatch_default);
    if (own_dispatch < 0) return -1;
    if (own_dispatch) return 0; /* the same: no __torch_dispatch__ of its own */
    PyObject *mine = torch_function_func(cls);
    if (!mine) return -1;
    PyObject *base = torch_function_func((PyObject *)ctpy_tensor_class);
    if (!base) {
        Py_DECREF(mine);
        return -1;
    }
    bool same = mine == base;
    Py_DECREF(mine);
    Py_DECREF(base);
    if (!same) return 0;
    return PyObject_SetAttrString(cls, "__torch_function__", ctpy_disabled_torch_function);
}

PyObject *ctpy_tensor_init_subclass(PyObject *cls, PyObject *args, PyObject *kwargs) {
    (void)args;
    PyTypeObject *t = (PyTypeObject *)cls;
    /* keywords of a class statement reach object.__init_subclass__ in PyTorch, which takes none */
    if (kwargs && PyDict_GET_SIZE(kwargs) > 0)
        return PyErr_Format(PyExc_TypeError, "%s.__init_subclass__() takes no keyword arguments", t->tp_name);
    t->tp_dealloc = tensor_dealloc;
    t->tp_traverse = tensor_traverse;
    t->tp_clear = tensor_clear;
    /* Note [No sequence protocol]: a heap type copies a base's nb_add and nb_inplace_add into
     * its sq_concat and sq_inplace_concat as well (they share wrap_binaryfunc), and
     * PyNumber_InPlaceAdd falls back to sq_inplace_concat when both number slots return
     * NotImplemented, so `t += None` would rebind t to NotImplemented. A tensor is no
     * sequence: those slots are cleared. */
    if (t->tp_as_sequence) {
        t->tp_as_sequence->sq_concat = NULL;
        t->tp_as_sequence->sq_inplace_concat = NULL;
        t->tp_as_sequence->sq_repeat = NULL;
        t->tp_as_sequence->sq_inplace_repeat = NULL;
    }
    if (disable_default_torch_function(cls) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)type;
    (void)args;
    (void)kwargs;
    return ctpy_not_implemented("the legacy constructor torch.Tensor(...) (use torch.tensor, torch.empty, ...)");
}

/* ---- sizes ---- */

PyObject *ctpy_size_from(const int64_t *v, int n) {
    PyObject *tup = PyTuple_New(n);
    if (!tup) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, x);
    }
    if (!ctpy_size_class) return tup;
    /* tuple's own constructor for the subclass: the ints need no check of torch.Size.__new__ */
    PyObject *targs = PyTuple_Pack(1, tup);
    Py_DECREF(tup);
    if (!targs) return NULL;
    PyObject *s = PyTuple_Type.tp_new((PyTypeObject *)ctpy_size_class, targs, NULL);
    Py_DECREF(targs);
    return s;
}


/* torch.FloatTensor, torch.LongTensor, ...: the legacy type names PyTorch's messages use */
const char *ctpy_tensor_type_name(const ct_tensor *t) {
    switch (ct_tensor_dtype(t)) {
    case CT_FLOAT32: return "torch.FloatTensor";
    case CT_FLOAT64: return "torch.DoubleTensor";
    case CT_FLOAT16: return "torch.HalfTensor";
    case CT_BFLOAT16: return "torch.BFloat16Tensor";
    case CT_INT64: return "torch.LongTensor";
    case CT_BOOL: return "torch.BoolTensor";
    default: return "torch.Tensor";
    }
}

/* ---- torch functions of the Tensor class (Note [torch functions and function modes]) ---- */

static PyObject *tf_cache; /* "<kind>:<name>" -> the func object */

static PyObject *tf_func(int kind, const char *name) {
    PyObject *key = PyUnicode_FromFormat("%d:%s", kind, name);
    if (!key) return NULL;
    PyObject *f = PyDict_GetItemWithError(tf_cache, key);
    if (f || PyErr_Occurred()) {
        Py_DECREF(key);
        return f;
    }
    if (kind == CTPY_TF_CLASS) {
        f = ctpy_tensor_class ? PyObject_GetAttrString((PyObject *)ctpy_tensor_class, name) : NULL;
        if (!f) {
            /* a method the class lacks: its slot stands for it */
            PyErr_Clear();
            f = PyObject_GetAttrString((PyObject *)&CtTensorBase_Type, name);
        }
    } else if (kind == CTPY_TF_BASE) {
        f = PyObject_GetAttrString((PyObject *)&CtTensorBase_Type, name);
    } else {
        PyObject *descr = PyDict_GetItemString(CtTensorBase_Type.tp_dict, name);
        f = descr ? PyObject_GetAttrString(descr, kind == CTPY_TF_GET ? "__get__" : "__set__")
                  : PyErr_Format(PyExc_AttributeError, "TensorBase has no property %s", name);
    }
    if (f && PyDict_SetItem(tf_cache, key, f) < 0) Py_CLEAR(f);
    Py_XDECREF(f); /* the cache holds it */
    Py_DECREF(key);
    return f;
}

PyObject *ctpy_tensor_torch_function_tuple(int kind, const char *name, PyObject *self, PyObject *args, PyObject *kwargs,
                                           bool *handled) {
    *handled = false;
    PyObject *func = tf_func(kind, name);
    if (!func) {
        *handled = true;
        return NULL;
    }
    Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
    PyObject *all = PyTuple_New(n + 1);
    if (!all) {
        *handled = true;
        return NULL;
    }
    Py_INCREF(self);
    PyTuple_SET_ITEM(all, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(args, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(all, i + 1, x);
    }
    char pub[128];
    snprintf(pub, sizeof pub, "torch.Tensor.%s", name);
    bool unary = n == 0 && (!kwargs || PyDict_GET_SIZE(kwargs) == 0);
    PyObject *r = ctpy_torch_function(func, pub, all, kwargs, unary, handled);
    Py_DECREF(all);
    return r;
}

PyObject *ctpy_tensor_torch_function(int kind, const char *name, PyObject *self, PyObject *const *rest, Py_ssize_t nrest,
                                     PyObject *kwnames, bool *handled) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *args = PyTuple_New(nrest);
    PyObject *kwargs = nkw ? PyDict_New() : NULL;
    if (!args || (nkw && !kwargs)) goto fail;
    for (Py_ssize_t i = 0; i < nrest; i++) {
        Py_INCREF(rest[i]);
        PyTuple_SET_ITEM(args, i, rest[i]);
    }
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, k), rest[nrest + k]) < 0) goto fail;
    PyObject *r = ctpy_tensor_torch_function_tuple(kind, name, self, args, kwargs, handled);
    Py_DECREF(args);
    Py_XDECREF(kwargs);
    return r;
fail:
    *handled = true;
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    return NULL;
}

/* ---- the type ---- */

PyTypeObject CtTensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.TensorBase",
    .tp_basicsize = sizeof(CtTensorObject),
    .tp_dealloc = tensor_dealloc,
    .tp_traverse = tensor_traverse,
    .tp_clear = tensor_clear,
    .tp_dictoffset = offsetof(CtTensorObject, dict),
    .tp_weaklistoffset = offsetof(CtTensorObject, weakrefs),
    .tp_repr = ctpy_tensor_repr,
    .tp_as_number = &ctpy_tensor_as_number,
    .tp_as_mapping = &ctpy_tensor_as_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C part of torch.Tensor: a ctorch tensor.",
    .tp_richcompare = ctpy_tensor_richcompare,
    .tp_methods = ctpy_tensor_methods,
    .tp_getset = ctpy_tensor_getset,
    .tp_new = tensor_new,
};

int ctpy_tensor_init(PyObject *m) {
    CtTensorBase_Type.tp_hash = PyBaseObject_Type.tp_hash; /* hashed by identity, like torch.Tensor */
    if (PyType_Ready(&CtTensorBase_Type) < 0) return -1;
    tf_cache = PyDict_New();
    if (!tf_cache) return -1;
    Py_INCREF(&CtTensorBase_Type);
    if (PyModule_AddObject(m, "TensorBase", (PyObject *)&CtTensorBase_Type) < 0) return -1;
    ct_set_tensor_binding_release_hook(binding_release);
    return ctpy_add_functions(m, ctpy_tensor_functions);
}
