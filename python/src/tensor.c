/* torch._C.TensorBase, the object: the Python object of a ctorch tensor (Note [Tensor objects
 * and ownership] in ctpy.h), its lifetime and the slots a Python subclass takes over. Its
 * methods, properties, number protocol and indexing are in tensor_methods.c, tensor_attrs.c,
 * tensor_number.c and tensor_index.c (tensor_type.c puts them on the type); the methods that
 * are operators (t, sum, view, ...) come from ops.def's bindings (bindings.c). */
#include "ctpy.h"

#include <structmember.h>

PyTypeObject *ctpy_tensor_class;

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

void ctpy_tensor_adopt_subclass(PyTypeObject *t) {
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
}

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    return ctpy_legacy_tensor_new(type, args, kwargs);
}

/* torch.FloatTensor, torch.LongTensor, ...: the legacy type names PyTorch's messages use */
const char *ctpy_tensor_type_name(const ct_tensor *t) { return ct_dtype_legacy_type_name(ct_tensor_dtype(t)); }

/* ---- the type ---- */

/* The slots of the object itself; tensor_type.c adds the methods, properties, number protocol,
 * indexing and repr of the other tensor_*.c files and readies the type. */
PyTypeObject CtTensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.TensorBase",
    .tp_basicsize = sizeof(CtTensorObject),
    .tp_dealloc = tensor_dealloc,
    .tp_traverse = tensor_traverse,
    .tp_clear = tensor_clear,
    .tp_dictoffset = offsetof(CtTensorObject, dict),
    .tp_weaklistoffset = offsetof(CtTensorObject, weakrefs),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C part of torch.Tensor: a ctorch tensor.",
    .tp_new = tensor_new,
};

void ctpy_tensor_object_init(void) {
    CtTensorBase_Type.tp_hash = PyBaseObject_Type.tp_hash; /* hashed by identity, like torch.Tensor */
    ct_set_tensor_binding_release_hook(binding_release);
}
