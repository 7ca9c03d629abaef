/* The number protocol of torch._C.TensorBase: x + y and the other operators, comparisons,
 * bool(x), float(x), int(x), operator.index(x), repr(x).
 *
 * Under a Python function mode each operator is offered as the method PyTorch's operator calls
 * (x + 1 is Tensor.add(x, 1), 1 + x too, 2 - x is Tensor.__rsub__(x, 2), x += 1 is
 * Tensor.add_(x, 1); Note [torch functions and function modes] in torch_function.c). As PyTorch's
 * TypeError_to_NotImplemented_ wrappers do, a TypeError from that call becomes NotImplemented,
 * so Python goes on to the other operand and finally raises its own "unsupported operand"
 * error. With no function mode the operator calls ctorch directly. */
#include <string.h>

#include "ctpy.h"

/* ---- offering an operator to a function mode ---- */

/* func: torch.Tensor.<method> when the class has it (the operator methods), else the slot
 * (TensorBase.<slot>) */
static PyObject *offer(const char *method, const char *slot, PyObject *self, PyObject *other, bool *handled) {
    PyObject *rest[1] = {other};
    Py_ssize_t n = other ? 1 : 0;
    PyObject *r = method ? ctpy_tensor_torch_function(CTPY_TF_CLASS, method, self, rest, n, NULL, handled)
                         : ctpy_tensor_torch_function(CTPY_TF_BASE, slot, self, rest, n, NULL, handled);
    if (*handled && !r && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    return r;
}

#define OFFER(method, slot, self, other)                                                          \
    do {                                                                                          \
        if (CTPY_TF_GATE(self) || ((other) && Py_TYPE(other) != ctpy_tensor_class && ctpy_is_tensor(other))) { \
            bool h_;                                                                              \
            PyObject *r_ = offer((method), (slot), (self), (other), &h_);                          \
            if (h_) return r_;                                                                    \
        }                                                                                         \
    } while (0)

/* ---- conversions ---- */

/* bool(x), float(x), int(x): Tensor.item() (aten::_local_scalar_dense) of a one-element tensor,
 * with PyTorch's errors for the others */
static PyObject *one_value(PyObject *self, bool for_bool) {
    CTPY_SELF_T(self);
    int64_t n = ct_tensor_numel(t);
    if (n != 1) {
        if (for_bool)
            return PyErr_Format(PyExc_RuntimeError, "Boolean value of Tensor with %s is ambiguous",
                                n == 0 ? "no values" : "more than one value");
        return PyErr_Format(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
    }
    return ctpy_tensor_item(self);
}

static int tensor_bool(PyObject *self) {
    if (CTPY_TF_GATE(self)) {
        bool h;
        PyObject *r = ctpy_tensor_torch_function(CTPY_TF_BASE, "__bool__", self, NULL, 0, NULL, &h);
        if (h) {
            int b = r ? PyObject_IsTrue(r) : -1;
            Py_XDECREF(r);
            return b;
        }
    }
    PyObject *v = one_value(self, true);
    if (!v) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static PyObject *tensor_float(PyObject *self) {
    CTPY_TF_VECTOR("__float__", self, NULL, 0, NULL);
    PyObject *v = one_value(self, false);
    if (!v) return NULL;
    PyObject *r = PyNumber_Float(v);
    Py_DECREF(v);
    return r;
}

static PyObject *tensor_int(PyObject *self) {
    CTPY_TF_VECTOR("__int__", self, NULL, 0, NULL);
    PyObject *v = one_value(self, false);
    if (!v) return NULL;
    PyObject *r = PyNumber_Long(v);
    Py_DECREF(v);
    return r;
}

static PyObject *tensor_index(PyObject *self) {
    CTPY_TF_VECTOR("__index__", self, NULL, 0, NULL);
    CTPY_SELF_T(self);
    ct_dtype d = ct_tensor_dtype(t);
    if (!ct_dtype_is_integral(d, true) || ct_tensor_numel(t) != 1) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    PyObject *v = ctpy_tensor_item(self);
    if (!v) return NULL;
    PyObject *r = PyNumber_Index(v);
    Py_DECREF(v);
    return r;
}

static PyObject *repr_with(PyObject *self, const char *name, const char *contents) {
    CTPY_SELF_T(self);
    char *s = ct_tensor_repr_as(t, name, contents);
    if (!s) return ctpy_raise();
    PyObject *r = PyUnicode_FromString(s);
    ct_free(s);
    return r;
}

PyObject *ctpy_tensor_repr(PyObject *self) { return repr_with(self, NULL, NULL); }

static bool str_or_none(PyObject *o) { return o == Py_None || PyUnicode_Check(o); }

static const char *utf8_or_null(PyObject *o) { return o == Py_None ? NULL : PyUnicode_AsUTF8(o); }

/* torch._C._tensor_repr(tensor, tensor_contents, name): Tensor.__repr__'s body; name is the
 * class name a subclass prints instead of "tensor", None for a Tensor or Parameter */
static PyObject *py_tensor_repr(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    if (nargs != 3 || !ctpy_is_tensor(args[0]) || !str_or_none(args[1]) || !str_or_none(args[2]))
        return PyErr_Format(PyExc_TypeError, "_tensor_repr(tensor, tensor_contents: str or None, name: str or None)");
    const char *contents = utf8_or_null(args[1]);
    const char *name = utf8_or_null(args[2]);
    if (PyErr_Occurred()) return NULL;
    return repr_with(args[0], name, contents);
}

PyMethodDef ctpy_tensor_functions[] = {
    {"_tensor_repr", (PyCFunction)(void (*)(void))py_tensor_repr, METH_FASTCALL, "Tensor.__repr__'s body."},
    {NULL, NULL, 0, NULL}};

/* ---- binary operators ---- */

/* The tensor for a binary operator's other operand: a tensor as is, a Python number as
 * PyTorch passes it (a wrapped-number tensor), else NULL without an error (NotImplemented), or
 * NULL with PyTorch's OverflowError for an int beyond int64. */
static ct_tensor *operand(PyObject *o, bool *owned) {
    *owned = false;
    if (ctpy_is_tensor(o)) return ctpy_tensor(o);
    ct_scalar s;
    if (PyBool_Check(o)) {
        s = ct_bool(o == Py_True);
    } else if (PyLong_Check(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError, "int too big to convert");
            return NULL;
        }
        s = ct_int(v);
    } else if (PyFloat_Check(o)) {
        s = ct_double(PyFloat_AS_DOUBLE(o));
    } else {
        return NULL;
    }
    *owned = true;
    ct_tensor *w = ct_wrapped_number(s);
    if (!w) ctpy_raise();
    return w;
}

/* The operators each operator dunder calls, as src/ops/ops.def's CT_PY names them (bindings.c),
 * found once at import. The call is boxed (not the typed wrapper) so that a result a
 * dispatch-mode handler gave as None, an undefined tensor, comes back as None, as in PyTorch. */
typedef struct {
    const char *dunder;
    const ct_op *op;
} dunder_op;

static dunder_op d_add = {"__add__", NULL}, d_radd = {"__radd__", NULL}, d_sub = {"__sub__", NULL},
                 d_mul = {"__mul__", NULL}, d_rmul = {"__rmul__", NULL}, d_div = {"__truediv__", NULL},
                 d_matmul = {"__matmul__", NULL}, d_iadd = {"__iadd__", NULL}, d_isub = {"__isub__", NULL},
                 d_imul = {"__imul__", NULL}, d_idiv = {"__itruediv__", NULL}, d_neg = {"__neg__", NULL},
                 d_invert = {"__invert__", NULL}, d_abs = {"__abs__", NULL}, d_pos = {"__pos__", NULL};

/* op(a, b[, alpha=1]) through the function modes and the dispatcher (an op of fewer arguments
 * reads the first ones); its tensor result, None for none. */
static PyObject *call_boxed(const ct_op *op, ct_tensor *a, ct_value b) {
    ct_value args[3] = {ct_tensor_value(a), b, ct_int(1)}; /* alpha=1 where the op has it */
    ct_value r[1] = {ct_none()};
    if (ct_op_invoke(op, args, r) != 0) return ctpy_raise();
    if (r[0].tag != CT_TAG_TENSOR) {
        ct_values_release(r, 1);
        Py_RETURN_NONE;
    }
    return ctpy_wrap(r[0].u.t);
}

static PyObject *call_op2(const dunder_op *d, ct_tensor *a, ct_tensor *b) {
    return call_boxed(d->op, a, ct_tensor_value(b));
}

typedef struct {
    const char *method;   /* tensor OP other: Tensor.<method>(self, other) */
    const char *rmethod;  /* other OP tensor: Tensor.<rmethod>(self, other), NULL for the rslot */
    const char *rslot;    /* the reflected slot PyTorch names (__rsub__), when rmethod is NULL */
    const dunder_op *fn;  /* NULL: ctorch lacks the operator */
    const dunder_op *rfn; /* number OP tensor is rfn(tensor, number); NULL: ctorch lacks it */
    const char *missing;  /* what to name when ctorch lacks it */
} binary_op;

static PyObject *binary(PyObject *a, PyObject *b, const binary_op *bo) {
    bool a_is = ctpy_is_tensor(a);
    PyObject *self = a_is ? a : b, *other = a_is ? b : a;
    if (a_is) OFFER(bo->method, NULL, self, other);
    else OFFER(bo->rmethod, bo->rslot, self, other);
    bool owned;
    ct_tensor *o = operand(other, &owned);
    if (!o) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *r;
    if (!bo->fn || (!a_is && !ctpy_is_tensor(other) && !bo->rfn)) {
        if (owned) ct_tensor_release(o);
        return ctpy_not_implemented("%s", bo->missing);
    }
    if (a_is) r = call_op2(bo->fn, ctpy_tensor(self), o);
    else if (ctpy_is_tensor(other)) r = call_op2(bo->fn, o, ctpy_tensor(self));
    else r = call_op2(bo->rfn, ctpy_tensor(self), o); /* 2 * x is mul(x, 2), as Tensor.__rmul__ does */
    if (owned) ct_tensor_release(o);
    return r;
}

static const binary_op op_add = {"add", "add", NULL, &d_add, &d_radd, ""};
static const binary_op op_sub = {"sub", NULL, "__rsub__", &d_sub, NULL, "Tensor.__rsub__ (aten::rsub.Scalar)"};
static const binary_op op_mul = {"mul", "mul", NULL, &d_mul, &d_rmul, ""};
static const binary_op op_div = {"div", NULL, "__rtruediv__", &d_div, NULL,
                                 "Tensor.__rtruediv__ (aten::reciprocal and aten::mul.Tensor)"};

static PyObject *nb_add(PyObject *a, PyObject *b) { return binary(a, b, &op_add); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binary(a, b, &op_sub); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binary(a, b, &op_mul); }
static PyObject *nb_truediv(PyObject *a, PyObject *b) { return binary(a, b, &op_div); }

static PyObject *nb_matmul(PyObject *a, PyObject *b) {
    bool a_is = ctpy_is_tensor(a);
    if (a_is) OFFER("matmul", NULL, a, b);
    else OFFER(NULL, "__rmatmul__", b, a);
    if (!ctpy_is_tensor(a) || !ctpy_is_tensor(b)) Py_RETURN_NOTIMPLEMENTED;
    return call_op2(&d_matmul, ctpy_tensor(a), ctpy_tensor(b));
}

/* ---- the operators with a Tensor and a Scalar overload ----
 * A dunder whose operators ops.def gives with both a Tensor and a Scalar `other` (x ** 2 is
 * pow.Tensor_Scalar, x ** y pow.Tensor_Tensor; x < 1 is lt.Scalar) calls the Scalar one for a
 * Python number, as PyTorch's argument parser picks it, and the Tensor one for a tensor; one
 * given only its Tensor overload takes the number as a wrapped-number tensor. The reflected
 * forms PyTorch writes in Python (__rpow__, __rmod__, __rfloordiv__, __rlshift__, __rrshift__)
 * are in python/ctorch/_tensor.py; the others (__rand__, __ror__, __rxor__) are here. */
typedef struct {
    const char *dunder;
    const ct_op *t, *s; /* the Tensor and the Scalar overload (s may be NULL) */
} dunder_pair;

static dunder_pair p_pow = {"__pow__", NULL, NULL}, p_ipow = {"__ipow__", NULL, NULL}, p_mod = {"__mod__", NULL, NULL},
                   p_imod = {"__imod__", NULL, NULL}, p_floordiv = {"__floordiv__", NULL, NULL},
                   p_ifloordiv = {"__ifloordiv__", NULL, NULL}, p_and = {"__and__", NULL, NULL},
                   p_or = {"__or__", NULL, NULL}, p_xor = {"__xor__", NULL, NULL}, p_iand = {"__iand__", NULL, NULL},
                   p_ior = {"__ior__", NULL, NULL}, p_ixor = {"__ixor__", NULL, NULL},
                   p_lshift = {"__lshift__", NULL, NULL}, p_rshift = {"__rshift__", NULL, NULL},
                   p_ilshift = {"__ilshift__", NULL, NULL}, p_irshift = {"__irshift__", NULL, NULL},
                   p_rand = {"__rand__", NULL, NULL}, p_ror = {"__ror__", NULL, NULL}, p_rxor = {"__rxor__", NULL, NULL},
                   p_lt = {"__lt__", NULL, NULL}, p_le = {"__le__", NULL, NULL}, p_eq = {"__eq__", NULL, NULL},
                   p_ne = {"__ne__", NULL, NULL}, p_gt = {"__gt__", NULL, NULL}, p_ge = {"__ge__", NULL, NULL};

/* a Python number as a Scalar: 1 and NULL-free, 0 for no number, -1 with the OverflowError */
static int number_scalar(PyObject *o, ct_scalar *s) {
    if (PyBool_Check(o)) {
        *s = ct_bool(o == Py_True);
    } else if (PyLong_Check(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError, "int too big to convert");
            return -1;
        }
        *s = ct_int(v);
    } else if (PyFloat_Check(o)) {
        *s = ct_double(PyFloat_AS_DOUBLE(o));
    } else {
        return 0;
    }
    return 1;
}

/* pair(self, other) for a tensor self; NotImplemented for an other that is neither a tensor
 * nor a number. inplace: the result is self. */
static PyObject *call_pair(const dunder_pair *p, PyObject *self, PyObject *other, bool inplace) {
    ct_scalar s;
    const ct_op *op;
    ct_value b;
    ct_tensor *w = NULL;
    if (ctpy_is_tensor(other)) {
        op = p->t;
        b = ct_tensor_value(ctpy_tensor(other));
    } else {
        int k = number_scalar(other, &s);
        if (k < 0) return NULL;
        if (k == 0) Py_RETURN_NOTIMPLEMENTED;
        if (p->s) {
            op = p->s;
            b = s;
        } else {
            w = ct_wrapped_number(s);
            if (!w) return ctpy_raise();
            op = p->t;
            b = ct_tensor_value(w);
        }
    }
    ct_value args[2] = {ct_tensor_value(ctpy_tensor(self)), b}, r[1] = {ct_none()};
    int rc = ct_op_invoke(op, args, r);
    if (w) ct_tensor_release(w);
    if (rc != 0) return ctpy_raise();
    if (inplace) {
        ct_values_release(r, 1);
        Py_INCREF(self);
        return self;
    }
    if (r[0].tag != CT_TAG_TENSOR) {
        ct_values_release(r, 1);
        Py_RETURN_NONE;
    }
    return ctpy_wrap(r[0].u.t);
}

/* tensor OP other (method: the Tensor method a function mode sees, as PyTorch names it: x ** 2
 * is Tensor.pow, x % 2 Tensor.remainder, x & 1 Tensor.__and__), and other OP tensor (rpair,
 * under the rmethod: 1 & x is Tensor.bitwise_and; NULL: NotImplemented, Tensor's Python method
 * answers) */
static PyObject *pair_binary(PyObject *a, PyObject *b, const char *method, const dunder_pair *p, const char *rmethod,
                             const dunder_pair *rp) {
    if (ctpy_is_tensor(a)) {
        OFFER(method, NULL, a, b);
        return call_pair(p, a, b, false);
    }
    if (!rp || !ctpy_is_tensor(b)) Py_RETURN_NOTIMPLEMENTED;
    OFFER(rmethod, NULL, b, a);
    return call_pair(rp, b, a, false);
}

static PyObject *pair_inplace(PyObject *a, PyObject *b, const char *method, const dunder_pair *p) {
    if (!ctpy_is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    OFFER(method, NULL, a, b);
    return call_pair(p, a, b, true);
}

static PyObject *nb_floordiv(PyObject *a, PyObject *b) { return pair_binary(a, b, "__floordiv__", &p_floordiv, NULL, NULL); }
static PyObject *nb_mod(PyObject *a, PyObject *b) { return pair_binary(a, b, "remainder", &p_mod, NULL, NULL); }
static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *c) {
    if (c != Py_None) Py_RETURN_NOTIMPLEMENTED; /* three-argument pow() */
    return pair_binary(a, b, "pow", &p_pow, NULL, NULL);
}
static PyObject *nb_and(PyObject *a, PyObject *b) { return pair_binary(a, b, "__and__", &p_and, "bitwise_and", &p_rand); }
static PyObject *nb_or(PyObject *a, PyObject *b) { return pair_binary(a, b, "__or__", &p_or, "bitwise_or", &p_ror); }
static PyObject *nb_xor(PyObject *a, PyObject *b) { return pair_binary(a, b, "__xor__", &p_xor, "bitwise_xor", &p_rxor); }
static PyObject *nb_lshift(PyObject *a, PyObject *b) { return pair_binary(a, b, "__lshift__", &p_lshift, NULL, NULL); }
static PyObject *nb_rshift(PyObject *a, PyObject *b) { return pair_binary(a, b, "__rshift__", &p_rshift, NULL, NULL); }
static PyObject *nb_ipow(PyObject *a, PyObject *b, PyObject *c) {
    (void)c;
    return pair_inplace(a, b, "pow_", &p_ipow);
}
static PyObject *nb_imod(PyObject *a, PyObject *b) { return pair_inplace(a, b, "remainder_", &p_imod); }
static PyObject *nb_ifloordiv(PyObject *a, PyObject *b) { return pair_inplace(a, b, "floor_divide_", &p_ifloordiv); }
static PyObject *nb_iand(PyObject *a, PyObject *b) { return pair_inplace(a, b, "__iand__", &p_iand); }
static PyObject *nb_ior(PyObject *a, PyObject *b) { return pair_inplace(a, b, "__ior__", &p_ior); }
static PyObject *nb_ixor(PyObject *a, PyObject *b) { return pair_inplace(a, b, "__ixor__", &p_ixor); }
static PyObject *nb_ilshift(PyObject *a, PyObject *b) { return pair_inplace(a, b, "__ilshift__", &p_ilshift); }
static PyObject *nb_irshift(PyObject *a, PyObject *b) { return pair_inplace(a, b, "__irshift__", &p_irshift); }

/* ---- in-place operators ---- */

static PyObject *inplace(PyObject *a, PyObject *b, const char *method, const dunder_op *d) {
    if (!ctpy_is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    OFFER(method, NULL, a, b);
    bool owned;
    ct_tensor *o = operand(b, &owned);
    if (!o) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    /* the result is self (x += y is x, whatever a handler returned) */
    ct_value args[3] = {ct_tensor_value(ctpy_tensor(a)), ct_tensor_value(o), ct_int(1)}, r[1] = {ct_none()};
    int rc = ct_op_invoke(d->op, args, r);
    if (owned) ct_tensor_release(o);
    if (rc != 0) return ctpy_raise();
    ct_values_release(r, 1);
    Py_INCREF(a);
    return a;
}
static PyObject *nb_iadd(PyObject *a, PyObject *b) { return inplace(a, b, "add_", &d_iadd); }
static PyObject *nb_isub(PyObject *a, PyObject *b) { return inplace(a, b, "sub_", &d_isub); }
static PyObject *nb_imul(PyObject *a, PyObject *b) { return inplace(a, b, "mul_", &d_imul); }
static PyObject *nb_itruediv(PyObject *a, PyObject *b) { return inplace(a, b, "div_", &d_idiv); }

/* ---- unary operators ---- */

static PyObject *nb_neg(PyObject *a) {
    OFFER("neg", NULL, a, NULL);
    return call_boxed(d_neg.op, ctpy_tensor(a), ct_none());
}
static PyObject *nb_invert(PyObject *a) {
    OFFER(NULL, "__invert__", a, NULL); /* TensorBase.__invert__, as a function mode sees it */
    /* THPVariable_invert refuses a floating tensor itself, before the operator runs */
    if (!ct_dtype_is_integral(ct_tensor_dtype(ctpy_tensor(a)), true))
        return PyErr_Format(PyExc_TypeError, "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return call_boxed(d_invert.op, ctpy_tensor(a), ct_none());
}
static PyObject *nb_pos(PyObject *a) {
    OFFER("positive", NULL, a, NULL);
    return call_boxed(d_pos.op, ctpy_tensor(a), ct_none());
}
static PyObject *nb_abs(PyObject *a) {
    OFFER("abs", NULL, a, NULL);
    return call_boxed(d_abs.op, ctpy_tensor(a), ct_none());
}

/* ---- comparisons ---- */

PyObject *ctpy_tensor_richcompare(PyObject *a, PyObject *b, int op) {
    /* a function mode sees Tensor.lt, ... as PyTorch's TypeError_to_NotImplemented_ wrappers hand
     * them on, and TensorBase.__eq__ itself */
    static const char *const methods[] = {"lt", "le", NULL, "ne", "gt", "ge"};
    const dunder_pair *pairs[] = {&p_lt, &p_le, &p_eq, &p_ne, &p_gt, &p_ge};
    if (!ctpy_is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    OFFER(methods[op], methods[op] ? NULL : "__eq__", a, b);
    return call_pair(pairs[op], a, b, false);
}

PyNumberMethods ctpy_tensor_as_number = {
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
    .nb_inplace_power = nb_ipow,
    .nb_inplace_remainder = nb_imod,
    .nb_inplace_floor_divide = nb_ifloordiv,
    .nb_and = nb_and,
    .nb_or = nb_or,
    .nb_xor = nb_xor,
    .nb_lshift = nb_lshift,
    .nb_rshift = nb_rshift,
    .nb_inplace_and = nb_iand,
    .nb_inplace_or = nb_ior,
    .nb_inplace_xor = nb_ixor,
    .nb_inplace_lshift = nb_ilshift,
    .nb_inplace_rshift = nb_irshift,
    .nb_bool = tensor_bool,
    .nb_float = tensor_float,
    .nb_int = tensor_int,
    .nb_index = tensor_index,
};

/* The operators of the dunders above, from the bindings. A dunder ops.def does not name, or
 * names more often than it is called here, is a mismatch between the two: import fails. */
int ctpy_tensor_number_init(void) {
    dunder_op *single[] = {&d_add, &d_radd, &d_sub, &d_mul, &d_rmul, &d_div, &d_matmul,
                           &d_iadd, &d_isub, &d_imul, &d_idiv, &d_neg, &d_invert, &d_abs, &d_pos};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++) {
        int n = ctpy_dunder_ops(single[i]->dunder, &single[i]->op, 1);
        if (n != 1) {
            if (n < 0) return ctpy_raise_int();
            PyErr_Format(PyExc_SystemError, "ctorch._C: src/ops/ops.def gives %s %d operators; Tensor calls one",
                         single[i]->dunder, n);
            return -1;
        }
    }
    dunder_pair *pairs[] = {&p_pow, &p_ipow, &p_mod, &p_imod, &p_floordiv, &p_ifloordiv, &p_and, &p_or, &p_xor,
                            &p_iand, &p_ior, &p_ixor, &p_lshift, &p_rshift, &p_ilshift, &p_irshift, &p_rand, &p_ror,
                            &p_rxor, &p_lt, &p_le, &p_eq, &p_ne, &p_gt, &p_ge};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const ct_op *ops[2];
        int n = ctpy_dunder_ops(pairs[i]->dunder, ops, 2);
        if (n < 0) return ctpy_raise_int();
        pairs[i]->t = pairs[i]->s = NULL;
        for (int k = 0; k < n && k < 2; k++) {
            ct_arg_info other;
            if (ct_op_arg_info(ops[k], 1, &other) != 0) return ctpy_raise_int();
            if (other.kind == CT_ARG_SCALAR) pairs[i]->s = ops[k];
            else if (other.kind == CT_ARG_TENSOR) pairs[i]->t = ops[k];
        }
        if (n > 2 || !pairs[i]->t) {
            PyErr_Format(PyExc_SystemError, "ctorch._C: src/ops/ops.def must give %s its Tensor overload (and at most a Scalar one)",
                         pairs[i]->dunder);
            return -1;
        }
    }
    return 0;
}
