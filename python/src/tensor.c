/* torch._C.TensorBase: the Python object of a ctorch tensor (Note [Tensor objects and
 * ownership] in ctpy.h), its properties, Python operators, indexing and conversions. Methods
 * that are operators (t, sum, view, ...) are OpOverload-backed functions attached by the
 * Python class torch.Tensor (ctorch/_tensor.py). */
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

/* Is there anything in the object a fresh object would not have? */
static bool worth_keeping(PyObject *self) {
    CtTensorObject *o = (CtTensorObject *)self;
    if (Py_TYPE(self) != ctpy_tensor_class) return true; /* a subclass: its type, slots, payload */
    return o->dict && PyDict_GET_SIZE(o->dict) > 0;
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

static PyObject *tensor_init_subclass(PyObject *cls, PyObject *args, PyObject *kwargs) {
    (void)args;
    (void)kwargs;
    PyTypeObject *t = (PyTypeObject *)cls;
    t->tp_dealloc = tensor_dealloc;
    t->tp_traverse = tensor_traverse;
    t->tp_clear = tensor_clear;
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
    PyObject *s = PyObject_CallOneArg(ctpy_size_class, tup);
    Py_DECREF(tup);
    return s;
}

#define SELF_T(o)                                                                                  \
    ct_tensor *t = ctpy_tensor(o);                                                                 \
    if (!t) {                                                                                      \
        PyErr_SetString(PyExc_RuntimeError, "tensor object has no tensor");                         \
        return NULL;                                                                               \
    }

static int64_t wrap_dim_or_raise(ct_tensor *t, PyObject *dimobj, bool *ok) {
    *ok = false;
    long long d = PyLong_AsLongLong(dimobj);
    if (d == -1 && PyErr_Occurred()) return 0;
    int nd = ct_tensor_ndim(t);
    int64_t lo = nd > 0 ? -nd : -1, hi = nd > 0 ? nd - 1 : 0;
    if (d < lo || d > hi) {
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)lo, (long long)hi, d);
        return 0;
    }
    *ok = true;
    return d < 0 ? d + (nd > 0 ? nd : 1) : d;
}

static PyObject *tensor_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    SELF_T(self);
    PyObject *dim = nargs > 0 ? args[0] : NULL;
    if (kwnames && PyTuple_GET_SIZE(kwnames) == 1 && nargs == 0 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "dim") == 0)
        dim = args[0];
    else if (kwnames && PyTuple_GET_SIZE(kwnames) > 0)
        return PyErr_Format(PyExc_TypeError, "size() got an unexpected keyword argument");
    if (!dim || dim == Py_None) return ctpy_size_from(ct_tensor_sizes(t), ct_tensor_ndim(t));
    bool ok;
    int64_t d = wrap_dim_or_raise(t, dim, &ok);
    if (!ok) return NULL;
    if (ct_tensor_ndim(t) == 0)
        return PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions", (long long)d);
    return PyLong_FromLongLong(ct_tensor_sizes(t)[d]);
}

static PyObject *tensor_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    SELF_T(self);
    (void)kwnames;
    if (nargs == 0 || args[0] == Py_None) {
        int nd = ct_tensor_ndim(t);
        PyObject *tup = PyTuple_New(nd);
        for (int i = 0; tup && i < nd; i++) PyTuple_SET_ITEM(tup, i, PyLong_FromLongLong(ct_tensor_strides(t)[i]));
        return tup;
    }
    bool ok;
    int64_t d = wrap_dim_or_raise(t, args[0], &ok);
    if (!ok) return NULL;
    if (ct_tensor_ndim(t) == 0)
        return PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions", (long long)d);
    return PyLong_FromLongLong(ct_tensor_strides(t)[d]);
}

static PyObject *tensor_storage_offset(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyLong_FromLongLong(ct_tensor_storage_offset(t));
}
static PyObject *tensor_dim(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyLong_FromLong(ct_tensor_ndim(t));
}
static PyObject *tensor_numel(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyLong_FromLongLong(ct_tensor_numel(t));
}
static PyObject *tensor_element_size(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyLong_FromSize_t(ct_dtype_size(ct_tensor_dtype(t)));
}
static PyObject *tensor_is_contiguous(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)args;
    (void)kwargs;
    SELF_T(self);
    return PyBool_FromLong(ct_tensor_is_contiguous(t));
}
static PyObject *tensor_is_floating_point(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyBool_FromLong(ct_dtype_is_floating(ct_tensor_dtype(t)));
}
static PyObject *tensor_is_inference(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyBool_FromLong(ct_tensor_is_inference(t));
}
static PyObject *tensor_data_ptr(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    return PyLong_FromVoidPtr(ct_tensor_data_ptr(t));
}
/* ---- values: item, tolist, conversions ---- */

/* Reading values directly is what PyTorch's item()/tolist() amount to, except that item()
 * dispatches aten::_local_scalar_dense, which a dispatch mode or a subclass would see; ctorch
 * has no such operator, so those cases are refused rather than silently not seen. */
static int check_readable(ct_tensor *t, const char *what) {
    if (ct_tensor_subclass(t)) {
        ctpy_not_implemented("%s on a tensor subclass (aten::_local_scalar_dense)", what);
        return -1;
    }
    if (ct_dispatch_mode_stack_len() > 0) {
        ctpy_not_implemented("%s under a dispatch mode (aten::_local_scalar_dense)", what);
        return -1;
    }
    return 0;
}

static PyObject *element_to_py(const char *p, ct_dtype d) {
    switch (d) {
    case CT_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    case CT_FLOAT64: return PyFloat_FromDouble(*(const double *)p);
    case CT_FLOAT16: return PyFloat_FromDouble(ct_half_to_float(*(const uint16_t *)p));
    case CT_BFLOAT16: return PyFloat_FromDouble(ct_bfloat16_to_float(*(const uint16_t *)p));
    case CT_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case CT_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    default: PyErr_SetString(PyExc_TypeError, "unsupported dtype"); return NULL;
    }
}

static PyObject *tensor_item(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    if (check_readable(t, "Tensor.item()") != 0) return NULL;
    if (ct_tensor_numel(t) != 1)
        return PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar",
                            (long long)ct_tensor_numel(t));
    const char *p = ct_tensor_data_ptr(t);
    if (!p) return ctpy_raise();
    return element_to_py(p, ct_tensor_dtype(t));
}

static PyObject *to_list(const char *base, const int64_t *sizes, const int64_t *strides, int ndim, size_t es, ct_dtype d) {
    if (ndim == 0) return element_to_py(base, d);
    PyObject *l = PyList_New(sizes[0]);
    if (!l) return NULL;
    for (int64_t i = 0; i < sizes[0]; i++) {
        PyObject *x = to_list(base + (ptrdiff_t)(i * strides[0]) * (ptrdiff_t)es, sizes + 1, strides + 1, ndim - 1, es, d);
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *tensor_tolist(PyObject *self, PyObject *unused) {
    (void)unused;
    SELF_T(self);
    if (check_readable(t, "Tensor.tolist()") != 0) return NULL;
    const char *p = ct_tensor_data_ptr(t);
    if (!p && ct_tensor_numel(t) > 0) return ctpy_raise();
    if (!p) p = "";
    return to_list(p, ct_tensor_sizes(t), ct_tensor_strides(t), ct_tensor_ndim(t), ct_dtype_size(ct_tensor_dtype(t)),
                   ct_tensor_dtype(t));
}

static PyObject *scalar_of(PyObject *self, const char *what) {
    ct_tensor *t = ctpy_tensor(self);
    if (ct_tensor_numel(t) != 1) {
        if (strcmp(what, "bool") == 0)
            return PyErr_Format(PyExc_RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
        return PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar",
                            (long long)ct_tensor_numel(t));
    }
    return tensor_item(self, NULL);
}

static int tensor_bool(PyObject *self) {
    PyObject *v = scalar_of(self, "bool");
    if (!v) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}
static PyObject *tensor_float(PyObject *self) {
    PyObject *v = scalar_of(self, "float");
    if (!v) return NULL;
    PyObject *r = PyNumber_Float(v);
    Py_DECREF(v);
    return r;
}
static PyObject *tensor_int(PyObject *self) {
    PyObject *v = scalar_of(self, "int");
    if (!v) return NULL;
    PyObject *r = PyNumber_Long(v);
    Py_DECREF(v);
    return r;
}
static PyObject *tensor_index(PyObject *self) {
    ct_dtype d = ct_tensor_dtype(ctpy_tensor(self));
    if ((d != CT_INT64 && d != CT_BOOL) || ct_tensor_numel(ctpy_tensor(self)) != 1) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    return tensor_int(self);
}

static PyObject *tensor_repr(PyObject *self) {
    SELF_T(self);
    char *s = ct_tensor_repr(t);
    if (!s) return ctpy_raise();
    PyObject *r = PyUnicode_FromString(s);
    ct_free(s);
    return r;
}

/* ---- Python operators ---- */

/* The tensor for a binary operator's other operand: a tensor as is, a Python number as
 * PyTorch passes it (a wrapped-number tensor), else NULL without an error (NotImplemented). */
static ct_tensor *operand(PyObject *o, bool *owned) {
    *owned = false;
    if (ctpy_is_tensor(o)) return ctpy_tensor(o);
    ct_scalar s;
    if (PyBool_Check(o)) {
        s = ct_bool(o == Py_True);
    } else if (PyLong_Check(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) return NULL;
        s = ct_int(v);
    } else if (PyFloat_Check(o)) {
        s = ct_double(PyFloat_AS_DOUBLE(o));
    } else {
        return NULL;
    }
    *owned = true;
    return ct_wrapped_number(s);
}

typedef ct_tensor *(*binary_fn)(ct_tensor *, ct_tensor *);
static ct_tensor *do_add(ct_tensor *a, ct_tensor *b) { return ct_add(a, b, ct_int(1)); }
static ct_tensor *do_sub(ct_tensor *a, ct_tensor *b) { return ct_sub(a, b, ct_int(1)); }
static ct_tensor *do_mul(ct_tensor *a, ct_tensor *b) { return ct_mul(a, b); }
static ct_tensor *do_div(ct_tensor *a, ct_tensor *b) { return ct_div(a, b); }
static ct_tensor *do_matmul(ct_tensor *a, ct_tensor *b) { return ct_matmul(a, b); }

/* a OP b with `a` or `b` the tensor (reflected operators arrive with the tensor second);
 * `reflected_op` names PyTorch's operator for number OP tensor when it is not OP itself. */
static PyObject *binary(PyObject *a, PyObject *b, binary_fn fn, bool commutative, const char *reflected) {
    bool a_is = ctpy_is_tensor(a);
    PyObject *self = a_is ? a : b, *other = a_is ? b : a;
    bool owned;
    ct_tensor *o = operand(other, &owned);
    if (!o) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    ct_tensor *r;
    if (a_is || ctpy_is_tensor(other)) {
        r = a_is ? fn(ctpy_tensor(self), o) : fn(o, ctpy_tensor(self));
    } else if (commutative) {
        r = fn(ctpy_tensor(self), o); /* 2 * x is mul(x, 2), as Tensor.__rmul__ does */
    } else {
        if (owned) ct_tensor_release(o);
        return ctpy_not_implemented("%s", reflected);
    }
    if (owned) ct_tensor_release(o);
    return ctpy_wrap(r);
}

static PyObject *nb_add(PyObject *a, PyObject *b) { return binary(a, b, do_add, true, ""); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binary(a, b, do_sub, false, "aten::rsub.Scalar"); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binary(a, b, do_mul, true, ""); }
static PyObject *nb_truediv(PyObject *a, PyObject *b) {
    return binary(a, b, do_div, false, "aten::reciprocal and aten::mul.Tensor");
}
static PyObject *nb_matmul(PyObject *a, PyObject *b) {
    if (!ctpy_is_tensor(a) || !ctpy_is_tensor(b)) Py_RETURN_NOTIMPLEMENTED;
    return ctpy_wrap(do_matmul(ctpy_tensor(a), ctpy_tensor(b)));
}

typedef int (*inplace_fn)(ct_tensor *, ct_tensor *);
static int do_add_(ct_tensor *a, ct_tensor *b) { return ct_add_(a, b, ct_int(1)); }
static int do_sub_(ct_tensor *a, ct_tensor *b) { return ct_sub_(a, b, ct_int(1)); }
static int do_mul_(ct_tensor *a, ct_tensor *b) { return ct_mul_(a, b); }
static int do_div_(ct_tensor *a, ct_tensor *b) { return ct_div_(a, b); }

static PyObject *inplace(PyObject *a, PyObject *b, inplace_fn fn) {
    if (!ctpy_is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    bool owned;
    ct_tensor *o = operand(b, &owned);
    if (!o) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    int rc = fn(ctpy_tensor(a), o);
    if (owned) ct_tensor_release(o);
    if (rc != 0) return ctpy_raise();
    Py_INCREF(a);
    return a;
}
static PyObject *nb_iadd(PyObject *a, PyObject *b) { return inplace(a, b, do_add_); }
static PyObject *nb_isub(PyObject *a, PyObject *b) { return inplace(a, b, do_sub_); }
static PyObject *nb_imul(PyObject *a, PyObject *b) { return inplace(a, b, do_mul_); }
static PyObject *nb_itruediv(PyObject *a, PyObject *b) { return inplace(a, b, do_div_); }

static PyObject *nb_neg(PyObject *a) { return ctpy_wrap(ct_neg(ctpy_tensor(a))); }
static PyObject *nb_invert(PyObject *a) { return ctpy_wrap(ct_bitwise_not(ctpy_tensor(a))); }
static PyObject *nb_pos(PyObject *a) {
    (void)a;
    return ctpy_not_implemented("Tensor.__pos__ (aten::positive)");
}
static PyObject *nb_abs(PyObject *a) {
    (void)a;
    return ctpy_not_implemented("Tensor.__abs__ (aten::abs)");
}
static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *c) {
    (void)a;
    (void)b;
    (void)c;
    return ctpy_not_implemented("Tensor.__pow__ (aten::pow)");
}
static PyObject *nb_floordiv(PyObject *a, PyObject *b) {
    (void)a;
    (void)b;
    return ctpy_not_implemented("Tensor.__floordiv__ (aten::floor_divide)");
}
static PyObject *nb_mod(PyObject *a, PyObject *b) {
    (void)a;
    (void)b;
    return ctpy_not_implemented("Tensor.__mod__ (aten::remainder)");
}

static PyObject *tensor_richcompare(PyObject *a, PyObject *b, int op) {
    if (!ctpy_is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    bool is_number = PyLong_Check(b) || PyFloat_Check(b);
    if (!is_number && !ctpy_is_tensor(b)) Py_RETURN_NOTIMPLEMENTED;
    static const char *const names[] = {"lt", "le", "eq", "ne", "gt", "ge"};
    if (op == Py_EQ && is_number) {
        ct_scalar s = PyBool_Check(b) ? ct_bool(b == Py_True)
                      : PyLong_Check(b) ? ct_int(PyLong_AsLongLong(b))
                                        : ct_double(PyFloat_AS_DOUBLE(b));
        if (PyErr_Occurred()) return NULL;
        return ctpy_wrap(ct_eq_scalar(ctpy_tensor(a), s));
    }
    return ctpy_not_implemented("Tensor.__%s__ (aten::%s.%s)", names[op], names[op], is_number ? "Scalar" : "Tensor");
}

/* ---- indexing ---- */

static ct_tensor *call_view(const char *name, ct_value *args, int n) {
    const ct_op *op = ct_op_find(name);
    if (!op) return NULL;
    ct_value full[8];
    for (int i = 0; i < n; i++) full[i] = args[i];
    if (ct_op_fill_defaults(op, full, n) != 0) return NULL;
    ct_value r[1] = {ct_none()};
    if (ct_op_invoke(op, full, r) != 0) return NULL;
    return r[0].u.t;
}

/* applySlicing: ints select, slices slice, None unsqueezes, Ellipsis skips. Returns a new
 * reference (possibly t itself, retained), or NULL with a Python error. */
static ct_tensor *apply_index(ct_tensor *t, PyObject *index) {
    PyObject *items[CT_MAX_DIMS + 1];
    Py_ssize_t n;
    if (PyTuple_Check(index)) {
        n = PyTuple_GET_SIZE(index);
        if (n > CT_MAX_DIMS) {
            PyErr_SetString(PyExc_IndexError, "too many indices");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) items[i] = PyTuple_GET_ITEM(index, i);
    } else {
        n = 1;
        items[0] = index;
    }
    /* how many dims the indices consume (ints and slices), to place an Ellipsis */
    int consumed = 0, ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (it == Py_Ellipsis) ellipses++;
        else if (it == Py_None) continue;
        else if (PyBool_Check(it)) {
            ctpy_not_implemented("indexing with True/False (aten::index.Tensor)");
            return NULL;
        } else if (PyLong_Check(it) || PySlice_Check(it) || PyIndex_Check(it)) {
            if (ctpy_is_tensor(it)) {
                ctpy_not_implemented("indexing with a tensor (aten::index.Tensor)");
                return NULL;
            }
            consumed++;
        } else {
            if (ctpy_is_tensor(it) || PySequence_Check(it)) ctpy_not_implemented("advanced indexing (aten::index.Tensor)");
            else PyErr_Format(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got %s)", Py_TYPE(it)->tp_name);
            return NULL;
        }
    }
    if (ellipses > 1) {
        PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
        return NULL;
    }
    int ndim = ct_tensor_ndim(t);
    if (consumed > ndim) {
        if (ndim == 0 && consumed == 1 && PyLong_Check(items[0]))
            PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", ndim);
        return NULL;
    }
    bool lone_slice = !PyTuple_Check(index) && PySlice_Check(index);
    ct_tensor *cur = ct_tensor_retain(t);
    int64_t dim = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        ct_tensor *next = NULL;
        if (it == Py_Ellipsis) {
            dim += ndim - consumed;
            continue;
        } else if (it == Py_None) {
            ct_value a[2] = {ct_tensor_value(cur), ct_int(dim)};
            next = call_view("aten::unsqueeze", a, 2);
            dim++;
        } else if (PySlice_Check(it)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(it, &start, &stop, &step) < 0) goto fail;
            int64_t size = ct_tensor_sizes(cur)[dim];
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                goto fail;
            }
            /* applySlice's shortcut (no op) when the slice names the whole dimension exactly
             * (x[:, :T] with T the size; an open end is INT64_MAX there and still slices); a
             * lone slice (x[:2]) never takes it, as get_item calls applySlice */
            if (!lone_slice && start == 0 && stop == size && step == 1) {
                dim++;
                continue;
            }
            ct_value a[5] = {ct_tensor_value(cur), ct_int(dim), ct_int(start), ct_int(stop), ct_int(step)};
            next = call_view("aten::slice.Tensor", a, 5);
            dim++;
        } else {
            long long idx = PyLong_AsLongLong(it);
            if (idx == -1 && PyErr_Occurred()) goto fail;
            int64_t size = ct_tensor_sizes(cur)[dim];
            if (idx < -size || idx >= size) {
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %lld with size %lld", idx,
                             (long long)dim, (long long)size);
                goto fail;
            }
            ct_value a[3] = {ct_tensor_value(cur), ct_int(dim), ct_int(idx)};
            next = call_view("aten::select.int", a, 3);
        }
        if (!next) {
            ctpy_raise();
            goto fail;
        }
        ct_tensor_release(cur);
        cur = next;
    }
    return cur;
fail:
    ct_tensor_release(cur);
    return NULL;
}

static PyObject *tensor_getitem(PyObject *self, PyObject *index) {
    SELF_T(self);
    ct_tensor *r = apply_index(t, index);
    if (!r) return NULL;
    if (r == t) { /* x[...], x[:]: a shallow copy, as PyTorch's at::alias */
        ct_tensor_release(r);
        ct_value a[1] = {ct_tensor_value(t)};
        r = call_view("aten::alias", a, 1);
    }
    return ctpy_wrap(r);
}

static int tensor_setitem(PyObject *self, PyObject *index, PyObject *value) {
    ct_tensor *t = ctpy_tensor(self);
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
        return -1;
    }
    ct_tensor *dst = apply_index(t, index);
    if (!dst) return -1;
    int rc;
    if (ctpy_is_tensor(value)) {
        ct_tensor *src = ctpy_tensor(value);
        int nd = ct_tensor_ndim(dst);
        bool same = nd == ct_tensor_ndim(src) &&
                    (nd == 0 || memcmp(ct_tensor_sizes(dst), ct_tensor_sizes(src), (size_t)nd * sizeof(int64_t)) == 0);
        if (!same) {
            ct_tensor_release(dst);
            ctpy_not_implemented("Tensor.__setitem__ with a value of another shape (expand + copy_)");
            return -1;
        }
        rc = ct_copy_(dst, src, false);
    } else if (PyLong_Check(value) || PyFloat_Check(value)) {
        if (ct_tensor_ndim(dst) != 0) {
            ct_tensor_release(dst);
            ctpy_not_implemented("Tensor.__setitem__ of a number into a non-scalar slice (aten::fill_.Tensor)");
            return -1;
        }
        double v = PyFloat_AsDouble(value);
        if (v == -1.0 && PyErr_Occurred()) {
            ct_tensor_release(dst);
            return -1;
        }
        ct_tensor *src = ct_tensor_scalar(v, ct_tensor_dtype(dst));
        rc = src ? ct_copy_(dst, src, false) : -1;
        ct_tensor_release(src);
    } else {
        ct_tensor_release(dst);
        PyErr_Format(PyExc_TypeError, "can't assign a %s to a Tensor", Py_TYPE(value)->tp_name);
        return -1;
    }
    ct_tensor_release(dst);
    return rc == 0 ? 0 : ctpy_raise_int();
}

static Py_ssize_t tensor_len(PyObject *self) {
    ct_tensor *t = ctpy_tensor(self);
    if (ct_tensor_ndim(t) == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)ct_tensor_sizes(t)[0];
}

/* ---- properties ---- */

static PyObject *get_shape(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return ctpy_size_from(ct_tensor_sizes(t), ct_tensor_ndim(t));
}
static PyObject *get_dtype(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    PyObject *d = ctpy_dtype_object(ct_tensor_dtype(t));
    Py_XINCREF(d);
    return d;
}
static PyObject *get_device(PyObject *self, void *c) {
    (void)self;
    (void)c;
    if (!ctpy_cpu_device) Py_RETURN_NONE;
    Py_INCREF(ctpy_cpu_device);
    return ctpy_cpu_device;
}
static PyObject *get_layout(PyObject *self, void *c) {
    (void)self;
    (void)c;
    if (!ctpy_strided) Py_RETURN_NONE;
    Py_INCREF(ctpy_strided);
    return ctpy_strided;
}
static PyObject *get_ndim(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return PyLong_FromLong(ct_tensor_ndim(t));
}
static PyObject *get_grad(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return ctpy_wrap_borrowed(ct_tensor_grad(t));
}
static int set_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    ct_tensor *t = ctpy_tensor(self);
    ct_tensor *g = NULL;
    if (v && v != Py_None) {
        g = ctpy_tensor_arg(v, "assigned grad");
        if (!g) return -1;
    }
    return ct_tensor_set_grad(t, g) == 0 ? 0 : ctpy_raise_int();
}
static PyObject *get_grad_fn(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return ctpy_node_wrap(ct_tensor_grad_fn(t));
}
static PyObject *get_requires_grad(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return PyBool_FromLong(ct_tensor_requires_grad(t));
}
static int set_requires_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    if (!v || !PyBool_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "requires_grad must be a bool");
        return -1;
    }
    return ct_tensor_set_requires_grad(ctpy_tensor(self), v == Py_True) == 0 ? 0 : ctpy_raise_int();
}
static PyObject *get_is_leaf(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return PyBool_FromLong(ct_tensor_is_leaf(t));
}
static PyObject *get_version(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return PyLong_FromLongLong(ct_tensor_version(t));
}
static PyObject *get_output_nr(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return PyLong_FromUnsignedLong(ct_tensor_output_nr(t));
}
static PyObject *get_false(PyObject *self, void *c) {
    (void)self;
    (void)c;
    Py_RETURN_FALSE;
}
static PyObject *get_true(PyObject *self, void *c) {
    (void)self;
    (void)c;
    Py_RETURN_TRUE;
}
static PyObject *get_T(PyObject *self, void *c) {
    (void)c;
    SELF_T(self);
    return ctpy_wrap(ct_numpy_T(t));
}
static PyObject *get_data(PyObject *self, void *c) {
    (void)self;
    (void)c;
    return ctpy_not_implemented("Tensor.data (an undispatched alias; use detach())");
}

static PyObject *tensor_requires_grad_(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kw[] = {"requires_grad", NULL};
    int flag = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:requires_grad_", kw, &flag)) return NULL;
    if (ct_tensor_set_requires_grad(ctpy_tensor(self), flag != 0) != 0) return ctpy_raise();
    Py_INCREF(self);
    return self;
}

PyObject *ctpy_make_wrapper_subclass(PyObject *unused, PyObject *args, PyObject *kwargs);
PyObject *ctpy_make_subclass(PyObject *unused, PyObject *args, PyObject *kwargs);

static PyMethodDef tensor_methods[] = {
    {"__init_subclass__", (PyCFunction)(void (*)(void))tensor_init_subclass, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     NULL},
    {"size", (PyCFunction)(void (*)(void))tensor_size, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"stride", (PyCFunction)(void (*)(void))tensor_stride, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"storage_offset", tensor_storage_offset, METH_NOARGS, NULL},
    {"dim", tensor_dim, METH_NOARGS, NULL},
    {"ndimension", tensor_dim, METH_NOARGS, NULL},
    {"numel", tensor_numel, METH_NOARGS, NULL},
    {"nelement", tensor_numel, METH_NOARGS, NULL},
    {"element_size", tensor_element_size, METH_NOARGS, NULL},
    {"is_contiguous", (PyCFunction)(void (*)(void))tensor_is_contiguous, METH_VARARGS | METH_KEYWORDS, NULL},
    {"is_floating_point", tensor_is_floating_point, METH_NOARGS, NULL},
    {"is_inference", tensor_is_inference, METH_NOARGS, NULL},
    {"data_ptr", tensor_data_ptr, METH_NOARGS, NULL},
    {"item", tensor_item, METH_NOARGS, NULL},
    {"tolist", tensor_tolist, METH_NOARGS, NULL},
    {"requires_grad_", (PyCFunction)(void (*)(void))tensor_requires_grad_, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_make_wrapper_subclass", (PyCFunction)(void (*)(void))ctpy_make_wrapper_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    {"_make_subclass", (PyCFunction)(void (*)(void))ctpy_make_subclass, METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, NULL, NULL, NULL},
    {"dtype", get_dtype, NULL, NULL, NULL},
    {"device", get_device, NULL, NULL, NULL},
    {"layout", get_layout, NULL, NULL, NULL},
    {"ndim", get_ndim, NULL, NULL, NULL},
    {"grad", get_grad, set_grad, NULL, NULL},
    {"grad_fn", get_grad_fn, NULL, NULL, NULL},
    {"requires_grad", get_requires_grad, set_requires_grad, NULL, NULL},
    {"is_leaf", get_is_leaf, NULL, NULL, NULL},
    {"_version", get_version, NULL, NULL, NULL},
    {"output_nr", get_output_nr, NULL, NULL, NULL},
    {"is_cuda", get_false, NULL, NULL, NULL},
    {"is_sparse", get_false, NULL, NULL, NULL},
    {"is_quantized", get_false, NULL, NULL, NULL},
    {"is_meta", get_false, NULL, NULL, NULL},
    {"is_nested", get_false, NULL, NULL, NULL},
    {"is_mkldnn", get_false, NULL, NULL, NULL},
    {"is_cpu", get_true, NULL, NULL, NULL},
    {"T", get_T, NULL, NULL, NULL},
    {"data", get_data, NULL, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyNumberMethods tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_true_divide = nb_truediv,
    .nb_matrix_multiply = nb_matmul,
    .nb_inplace_add = nb_iadd,
    .nb_inplace_subtract = nb_isub,
    .nb_inplace_multiply = nb_imul,
    .nb_inplace_true_divide = nb_itruediv,
    .nb_negative = nb_neg,
    .nb_positive = nb_pos,
    .nb_absolute = nb_abs,
    .nb_invert = nb_invert,
    .nb_power = nb_pow,
    .nb_floor_divide = nb_floordiv,
    .nb_remainder = nb_mod,
    .nb_bool = tensor_bool,
    .nb_float = tensor_float,
    .nb_int = tensor_int,
    .nb_index = tensor_index,
};

static PyMappingMethods tensor_as_mapping = {
    .mp_length = tensor_len,
    .mp_subscript = tensor_getitem,
    .mp_ass_subscript = tensor_setitem,
};

PyTypeObject CtTensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.TensorBase",
    .tp_basicsize = sizeof(CtTensorObject),
    .tp_dealloc = tensor_dealloc,
    .tp_traverse = tensor_traverse,
    .tp_clear = tensor_clear,
    .tp_dictoffset = offsetof(CtTensorObject, dict),
    .tp_weaklistoffset = offsetof(CtTensorObject, weakrefs),
    .tp_repr = tensor_repr,
    .tp_as_number = &tensor_as_number,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C part of torch.Tensor: a ctorch tensor.",
    .tp_richcompare = tensor_richcompare,
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_new = tensor_new,
};

int ctpy_tensor_init(PyObject *m) {
    CtTensorBase_Type.tp_hash = PyBaseObject_Type.tp_hash; /* hashed by identity, like torch.Tensor */
    if (PyType_Ready(&CtTensorBase_Type) < 0) return -1;
    Py_INCREF(&CtTensorBase_Type);
    if (PyModule_AddObject(m, "TensorBase", (PyObject *)&CtTensorBase_Type) < 0) return -1;
    ct_set_tensor_binding_release_hook(binding_release);
    return 0;
}
