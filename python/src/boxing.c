/* Python objects <-> boxed ct_values, following an operator's schema the way PyTorch's Python
 * argument parser and its __torch_dispatch__ bridge (torch/csrc/utils/python_arg_parser.cpp,
 * parseIValuesToPyArgsKwargs) do. */
#include <string.h>

#include "ctpy.h"

/* PyTorch lets a Python number stand for a Tensor argument only for these functions
 * (python_arg_parser.cpp, should_allow_numbers_as_tensors). */
static const char *const numbers_as_tensors[] = {
    "add",     "add_",     "div",     "div_",     "divide",      "divide_",      "mul",      "mul_",
    "multiply", "multiply_", "sub",   "sub_",     "subtract",    "subtract_",    "true_divide", "true_divide_",
    "to",      "_to_copy", "copy_",   "floor_divide", "floor_divide_", "_conj",  NULL};

int ctpy_schema_init(ctpy_schema *s, const ct_op *op) {
    memset(s, 0, sizeof *s);
    s->op = op;
    s->nargs = ct_op_num_args(op);
    s->nrets = ct_op_num_returns(op);
    if (s->nargs > CTPY_MAX_ARGS || s->nrets > CTPY_MAX_RETS) {
        PyErr_Format(PyExc_RuntimeError, "%s has more arguments than the Python binding supports", ct_op_name(op));
        return -1;
    }
    s->npositional = s->nargs;
    for (int i = 0; i < s->nargs; i++) {
        if (ct_op_arg_info(op, i, &s->args[i]) != 0) return ctpy_raise_int();
        if (s->args[i].kwarg_only && s->npositional == s->nargs) s->npositional = i;
    }
    for (int i = 0; i < s->nrets; i++)
        if (ct_op_return_info(op, i, &s->rets[i]) != 0) return ctpy_raise_int();
    const char *base = ct_op_base_name(op);
    const char *colon = strstr(base, "::");
    base = colon ? colon + 2 : base;
    for (int i = 0; numbers_as_tensors[i]; i++)
        if (strcmp(base, numbers_as_tensors[i]) == 0) s->numbers_as_tensors = true;
    return 0;
}

void ctpy_args_release(ctpy_args *a) {
    for (int i = 0; i < a->n_owned; i++) ct_tensor_release(a->owned[i]);
    a->n_owned = 0;
}

static const char *kind_name(ct_arg_kind k) {
    switch (k) {
    case CT_ARG_TENSOR: return "Tensor";
    case CT_ARG_INT: return "int";
    case CT_ARG_FLOAT: return "float";
    case CT_ARG_BOOL: return "bool";
    case CT_ARG_SCALAR: return "Number";
    case CT_ARG_SCALARTYPE: return "torch.dtype";
    case CT_ARG_LAYOUT: return "torch.layout";
    case CT_ARG_DEVICE: return "torch.device";
    case CT_ARG_MEMORY_FORMAT: return "torch.memory_format";
    case CT_ARG_GENERATOR: return "torch.Generator";
    case CT_ARG_STRING: return "str";
    case CT_ARG_INTLIST: return "tuple of ints";
    case CT_ARG_TENSORLIST: return "tuple of Tensors";
    case CT_ARG_STRINGLIST: return "tuple of strs";
    case CT_ARG_BOOLLIST: return "tuple of bools";
    case CT_ARG_OBJECT: return "ScriptObject";
    default: return "None";
    }
}

static const char *py_type_name(PyObject *o) { return ctpy_is_tensor(o) ? "Tensor" : Py_TYPE(o)->tp_name; }

static bool is_int(PyObject *o) { return PyLong_Check(o) && !PyBool_Check(o); }

/* int[N] in the schema text: a single int is repeated N times. 0 when not given. */
static int fixed_len(const char *type) {
    const char *b = strchr(type, '[');
    return b && b[1] >= '1' && b[1] <= '9' ? atoi(b + 1) : 0;
}

static bool int_like(PyObject *x) {
    return is_int(x) || (ctpy_is_tensor(x) && ct_tensor_numel(ctpy_tensor(x)) == 1 && ct_dtype_is_integral(ct_tensor_dtype(ctpy_tensor(x)), false));
}

/* PyTorch's argument parser takes a sequence whose first item is an int for int[] (the type
 * check looks at that one only) and unpacks the rest afterwards, so a later item of another
 * type, or one beyond int64, is an error of the unpacking, not a mismatch of the signature. */
static int unpack_error(const ctpy_args *a, const ct_arg_info *info, Py_ssize_t pos, const char *what) {
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' failed to unpack the object at pos %zd with error \"%s\"",
                 a->fname ? a->fname : "", info->name, pos, what);
    return CTPY_PARSE_ERROR;
}

static int box_int_item(PyObject *x, const ct_arg_info *info, ctpy_args *a, Py_ssize_t k, int64_t *out) {
    if (ctpy_is_tensor(x)) {
        double d;
        if (ct_tensor_item(ctpy_tensor(x), &d) != 0) return ctpy_raise_int();
        *out = (int64_t)d;
        return CTPY_PARSE_OK;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow) return unpack_error(a, info, k + 1, "Overflow when unpacking long");
    if (v == -1 && PyErr_Occurred()) return CTPY_PARSE_ERROR;
    *out = v;
    return CTPY_PARSE_OK;
}

static int box_intlist(PyObject *o, const ct_arg_info *info, ctpy_args *a, int i) {
    int64_t *dst = a->lists[i];
    if (is_int(o)) {
        int n = fixed_len(info->type);
        if (n == 0) {
            snprintf(a->detail, sizeof a->detail, "but found element of type int at pos 0");
            return CTPY_PARSE_MISMATCH;
        }
        int64_t v;
        int r = box_int_item(o, info, a, 0, &v);
        if (r != CTPY_PARSE_OK) return r;
        if (n > CT_MAX_DIMS) n = CT_MAX_DIMS;
        for (int k = 0; k < n; k++) dst[k] = v;
        a->v[i] = ct_intlist(dst, n);
        return CTPY_PARSE_OK;
    }
    if (ctpy_is_tensor(o) && ct_tensor_ndim(ctpy_tensor(o)) == 0 && ct_dtype_is_integral(ct_tensor_dtype(ctpy_tensor(o)), false)) {
        /* a 0-dim integer tensor stands for its value (zeros(torch.tensor(3))), as a lone int does */
        int64_t v;
        int r = box_int_item(o, info, a, 0, &v);
        if (r != CTPY_PARSE_OK) return r;
        int n = fixed_len(info->type);
        if (n == 0) n = 1;
        if (n > CT_MAX_DIMS) n = CT_MAX_DIMS;
        for (int k = 0; k < n; k++) dst[k] = v;
        a->v[i] = ct_intlist(dst, n);
        return CTPY_PARSE_OK;
    }
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        /* a lone value stands for a one-item list: PyTorch names its type at pos 0 */
        snprintf(a->detail, sizeof a->detail, "but found element of type %s at pos 0",
                 ctpy_is_tensor(o) ? "Tensor" : Py_TYPE(o)->tp_name);
        return CTPY_PARSE_MISMATCH;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject **items = PySequence_Fast_ITEMS(o);
    if (n > CT_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "ctorch supports tensors of at most %d dimensions (got a list of %zd)", CT_MAX_DIMS, n);
        return CTPY_PARSE_ERROR;
    }
    if (n > 0 && !int_like(items[0])) {
        snprintf(a->detail, sizeof a->detail, "but found element of type %s at pos 0",
                 ctpy_is_tensor(items[0]) ? "Tensor" : Py_TYPE(items[0])->tp_name);
        return CTPY_PARSE_MISMATCH;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = items[k];
        if (!int_like(x)) {
            char what[128];
            snprintf(what, sizeof what, "type must be tuple of ints,but got %s",
                     ctpy_is_tensor(x) ? "Tensor" : Py_TYPE(x)->tp_name);
            return unpack_error(a, info, k + 1, what);
        }
        int r = box_int_item(x, info, a, k, &dst[k]);
        if (r != CTPY_PARSE_OK) return r;
    }
    a->v[i] = ct_intlist(dst, n);
    return CTPY_PARSE_OK;
}

/* Tensor[]: a tuple or list of tensors, borrowed for the call. As PyTorch's parser, any list or
 * tuple matches the signature, and an item that is no tensor is an error of its unpacking. */
static int box_tensorlist(PyObject *o, const ct_arg_info *info, ctpy_args *a, int i) {
    if (!PyTuple_Check(o) && !PyList_Check(o)) return CTPY_PARSE_MISMATCH;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject **items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t k = 0; k < n; k++)
        if (!ctpy_is_tensor(items[k]) && !(info->optional_elems && items[k] == Py_None)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument %d, but got %s", k, i,
                         Py_TYPE(items[k])->tp_name);
            return CTPY_PARSE_ERROR;
        }
    if (n > CTPY_TL_POOL - a->n_tl) {
        ctpy_not_implemented("more than %d tensors in the list arguments of one call", CTPY_TL_POOL);
        return CTPY_PARSE_ERROR;
    }
    ct_tensor **dst = a->tl_pool + a->n_tl;
    for (Py_ssize_t k = 0; k < n; k++) dst[k] = items[k] == Py_None ? NULL : ctpy_tensor(items[k]);
    a->n_tl += (int)n;
    a->v[i] = ct_tensor_list_value(dst, n);
    return CTPY_PARSE_OK;
}

static int box_scalar(PyObject *o, ct_value *v) {
    if (PyBool_Check(o)) {
        *v = ct_bool(o == Py_True);
    } else if (PyLong_Check(o)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return CTPY_PARSE_ERROR;
        }
        *v = ct_int(x);
    } else if (PyFloat_Check(o)) {
        *v = ct_double(PyFloat_AS_DOUBLE(o));
    } else if (ctpy_is_tensor(o) && ct_tensor_ndim(ctpy_tensor(o)) == 0 && !ct_tensor_subclass(ctpy_tensor(o))) {
        double d;
        if (ct_tensor_item(ctpy_tensor(o), &d) != 0) return ctpy_raise_int();
        ct_dtype dt = ct_tensor_dtype(ctpy_tensor(o));
        *v = dt == CT_BOOL ? ct_bool(d != 0) : ct_dtype_is_integral(dt, false) ? ct_int((int64_t)d) : ct_double(d);
    } else {
        return CTPY_PARSE_MISMATCH;
    }
    return CTPY_PARSE_OK;
}

/* One argument. OK, MISMATCH (no error set) or ERROR. */
static int box(PyObject *o, const ct_arg_info *info, ctpy_args *a, int i, bool numbers_ok) {
    ct_value *v = &a->v[i];
    /* a name where a dimension goes: PyTorch's Dimname overloads (named tensors), which ctorch lacks */
    if (PyUnicode_Check(o) && (info->kind == CT_ARG_INT || info->kind == CT_ARG_INTLIST) && strstr(info->name, "dim")) {
        ctpy_not_implemented("named dimensions (%s=%R: the Dimname overloads of named tensors)", info->name, o);
        return CTPY_PARSE_ERROR;
    }
    if (o == Py_None) {
        if (!info->optional) return CTPY_PARSE_MISMATCH;
        *v = ct_none();
        return CTPY_PARSE_OK;
    }
    switch (info->kind) {
    case CT_ARG_TENSOR:
        if (ctpy_is_tensor(o)) {
            *v = ct_tensor_value(ctpy_tensor(o));
            return CTPY_PARSE_OK;
        }
        if (numbers_ok && (PyLong_Check(o) || PyFloat_Check(o))) {
            ct_scalar s;
            int r = box_scalar(o, &s);
            if (r != CTPY_PARSE_OK) return r;
            ct_tensor *w = ct_wrapped_number(s);
            if (!w) return ctpy_raise_int();
            a->owned[a->n_owned++] = w;
            *v = ct_tensor_value(w);
            return CTPY_PARSE_OK;
        }
        return CTPY_PARSE_MISMATCH;
    case CT_ARG_INT:
        if (!is_int(o)) {
            if (ctpy_is_tensor(o) || !PyIndex_Check(o) || PyFloat_Check(o)) return CTPY_PARSE_MISMATCH;
        }
        {
            PyObject *idx = PyNumber_Index(o);
            if (!idx) return CTPY_PARSE_ERROR;
            long long x = PyLong_AsLongLong(idx);
            Py_DECREF(idx);
            if (x == -1 && PyErr_Occurred()) return CTPY_PARSE_ERROR;
            *v = ct_int(x);
        }
        return CTPY_PARSE_OK;
    case CT_ARG_FLOAT:
        if (!PyFloat_Check(o) && !PyLong_Check(o)) return CTPY_PARSE_MISMATCH;
        *v = ct_double(PyFloat_AsDouble(o));
        return PyErr_Occurred() ? CTPY_PARSE_ERROR : CTPY_PARSE_OK;
    case CT_ARG_BOOL:
        if (!PyBool_Check(o)) return CTPY_PARSE_MISMATCH;
        *v = ct_bool(o == Py_True);
        return CTPY_PARSE_OK;
    case CT_ARG_SCALAR: return box_scalar(o, v);
    case CT_ARG_SCALARTYPE: {
        ct_dtype d;
        if (!ctpy_dtype_of(o, &d)) return CTPY_PARSE_MISMATCH;
        if (!ct_dtype_valid((int)d)) {
            ctpy_not_implemented("dtype %s", ((CtDtypeObject *)o)->name);
            return CTPY_PARSE_ERROR;
        }
        *v = ct_int(d);
        return CTPY_PARSE_OK;
    }
    case CT_ARG_LAYOUT:
        if (o != ctpy_strided && ctpy_strided && Py_TYPE(o) == Py_TYPE(ctpy_strided)) {
            ctpy_not_implemented("the %R layout", o); /* torch.sparse_coo: ctorch's tensors are strided */
            return CTPY_PARSE_ERROR;
        }
        if (o != ctpy_strided) return CTPY_PARSE_MISMATCH;
        *v = ct_int(0);
        return CTPY_PARSE_OK;
    case CT_ARG_DEVICE:
        if (!PyUnicode_Check(o) && !(ctpy_device_class && PyObject_TypeCheck(o, (PyTypeObject *)ctpy_device_class)))
            return CTPY_PARSE_MISMATCH;
        if (ctpy_check_device(o) != 0) return CTPY_PARSE_ERROR;
        v->tag = CT_TAG_DEVICE;
        v->u.i = 0;
        return CTPY_PARSE_OK;
    case CT_ARG_MEMORY_FORMAT:
        if (o == ctpy_contiguous_format) *v = ct_int(CT_CONTIGUOUS_FORMAT);
        else if (o == ctpy_preserve_format) *v = ct_int(CT_PRESERVE_FORMAT);
        else if (PyObject_HasAttrString(o, "__ctorch_memory_format__")) {
            ctpy_not_implemented("the memory format %R", o);
            return CTPY_PARSE_ERROR;
        } else
            return CTPY_PARSE_MISMATCH;
        return CTPY_PARSE_OK;
    case CT_ARG_GENERATOR:
        if (!PyObject_TypeCheck(o, &CtGenerator_Type)) return CTPY_PARSE_MISMATCH;
        *v = ct_generator_value(((CtGeneratorObject *)o)->g);
        return CTPY_PARSE_OK;
    case CT_ARG_STRING: {
        if (!PyUnicode_Check(o)) return CTPY_PARSE_MISMATCH;
        const char *s = PyUnicode_AsUTF8(o); /* cached in the str object, which outlives the call */
        if (!s) return CTPY_PARSE_ERROR;
        *v = ct_string(s);
        return CTPY_PARSE_OK;
    }
    case CT_ARG_INTLIST: return box_intlist(o, info, a, i);
    case CT_ARG_TENSORLIST: return box_tensorlist(o, info, a, i);
    case CT_ARG_BOOLLIST: {
        if (!PyTuple_Check(o) && !PyList_Check(o)) return CTPY_PARSE_MISMATCH;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        if (n > CT_MAX_DIMS) return CTPY_PARSE_MISMATCH;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *x = PySequence_Fast_GET_ITEM(o, k);
            if (!PyBool_Check(x)) return CTPY_PARSE_MISMATCH;
            a->lists[i][k] = x == Py_True;
        }
        a->v[i] = ct_intlist(a->lists[i], n);
        return CTPY_PARSE_OK;
    }
    case CT_ARG_OBJECT: {
        void *p = ctpy_script_object_ptr(o);
        if (!p) return CTPY_PARSE_MISMATCH;
        *v = ct_object(p);
        return CTPY_PARSE_OK;
    }
    default:
        ctpy_not_implemented("arguments of schema type %s", info->type);
        return CTPY_PARSE_ERROR;
    }
}

static int find_param(const ctpy_schema *s, PyObject *name) {
    const char *n = PyUnicode_AsUTF8(name);
    if (!n) return -2;
    for (int i = 0; i < s->nargs; i++)
        if (strcmp(s->args[i].name, n) == 0) return i;
    /* torch.foo(input=...) names the schema's `self` "input" */
    if (strcmp(n, "input") == 0 && s->nargs > 0 && strcmp(s->args[0].name, "self") == 0) return 0;
    return -1;
}

int ctpy_parse(const ctpy_schema *s, const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               int flags, ctpy_args *out, char *why, size_t why_size) {
    bool numbers_ok = (flags & CTPY_NUMBERS_AS_TENSORS) || s->numbers_as_tensors;
    PyObject *vals[CTPY_MAX_ARGS] = {NULL};
    bool preboxed[CTPY_MAX_ARGS] = {false};
    out->n_owned = 0;
    out->n_tl = 0;
    out->fname = fname;
    out->detail[0] = '\0';
    bool method = (flags & CTPY_METHOD) != 0;
    int np = s->npositional;
    /* torch.zeros(2, 3), x.view(2, 3), x.permute(1, 0): ints given one by one fill the only
     * positional int-list parameter (after self) */
    int p = (np > 0 && s->args[0].kind == CT_ARG_TENSOR && strcmp(s->args[0].name, "self") == 0) ? 1 : 0;
    Py_ssize_t given = nargs;
    if (p == np - 1 && s->args[p].kind == CT_ARG_INTLIST && nargs >= p + 1 && is_int(args[p]) &&
        (nargs > p + 1 || fixed_len(s->args[p].type) == 0)) {
        /* as PyTorch's parser: the first int makes the rest items of the list (a later one of
         * another type fails to unpack) */
        if (nargs - p > CT_MAX_DIMS) {
            PyErr_Format(PyExc_RuntimeError, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
            return CTPY_PARSE_ERROR;
        }
        for (Py_ssize_t k = p; k < nargs; k++) {
            if (!int_like(args[k])) {
                char what[128];
                snprintf(what, sizeof what, "type must be tuple of ints,but got %s",
                         ctpy_is_tensor(args[k]) ? "Tensor" : Py_TYPE(args[k])->tp_name);
                return unpack_error(out, &s->args[p], k - p + 1, what);
            }
            int r = box_int_item(args[k], &s->args[p], out, k - p, &out->lists[p][k - p]);
            if (r != CTPY_PARSE_OK) return r;
        }
        out->v[p] = ct_intlist(out->lists[p], nargs - p);
        preboxed[p] = true;
        given = p;
    }
    if (given > np) {
        snprintf(why, why_size, "%s() takes %d positional argument%s but %zd were given", fname, np, np == 1 ? "" : "s",
                 given);
        return CTPY_PARSE_MISMATCH;
    }
    /* a method whose schema's self is not the first argument (where.self(condition, self, other):
     * x.where(c, y)) takes the tensor it is called on as self and the rest in schema order */
    int self_at = -1;
    if (method && given > 0)
        for (int i = 1; i < np; i++)
            if (strcmp(s->args[i].name, "self") == 0) self_at = i;
    if (self_at > 0) {
        vals[self_at] = args[0];
        for (Py_ssize_t k = 1, i = 0; k < given; k++, i++) {
            if (i == self_at) i++;
            vals[i] = args[k];
        }
    } else {
        for (Py_ssize_t k = 0; k < given; k++) vals[k] = args[k];
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int idx = find_param(s, name);
        if (idx == -2) return CTPY_PARSE_ERROR;
        if (idx < 0) {
            snprintf(why, why_size, "%s() got an unexpected keyword argument '%s'", fname, PyUnicode_AsUTF8(name));
            return CTPY_PARSE_MISMATCH;
        }
        if (vals[idx] || preboxed[idx]) {
            snprintf(why, why_size, "%s() got multiple values for argument '%s'", fname, s->args[idx].name);
            return CTPY_PARSE_MISMATCH;
        }
        vals[idx] = args[nargs + k];
    }
    for (int i = 0; i < s->nargs; i++) {
        const ct_arg_info *info = &s->args[i];
        if (preboxed[i]) continue;
        if (!vals[i]) {
            if ((flags & CTPY_FACTORY_OPTIONS) && info->kind == CT_ARG_BOOL && info->optional &&
                strcmp(info->name, "pin_memory") == 0) {
                out->v[i] = ct_bool(false); /* the Python binding's TensorOptions set it */
                continue;
            }
            if ((flags & CTPY_FACTORY_OPTIONS) && info->kind == CT_ARG_DEVICE && s->args[0].kind != CT_ARG_TENSOR) {
                out->v[i].tag = CT_TAG_DEVICE; /* r.device(): the default device, given explicitly */
                out->v[i].u.i = 0;
                continue;
            }
            if (info->has_default) {
                out->v[i] = info->default_value;
                continue;
            }
            snprintf(why, why_size, "%s() missing 1 required positional arguments: \"%s\"", fname, info->name);
            ctpy_args_release(out);
            return CTPY_PARSE_MISMATCH;
        }
        out->detail[0] = '\0';
        int r = box(vals[i], info, out, i, numbers_ok);
        if (r == CTPY_PARSE_OK) continue;
        ctpy_args_release(out);
        if (r == CTPY_PARSE_ERROR) return r;
        /* PyTorch's words: a function calls its `self` "input"; a method counts positions after self */
        bool is_self = i == 0 && strcmp(info->name, "self") == 0;
        const char *shown = is_self && !method ? "input" : info->name;
        int position = method && s->nargs > 0 && strcmp(s->args[0].name, "self") == 0 ? i : i + 1;
        char not_part[128];
        if (out->detail[0]) snprintf(not_part, sizeof not_part, "%s", out->detail);
        else snprintf(not_part, sizeof not_part, "not %s", py_type_name(vals[i]));
        if (info->kwarg_only || i >= given)
            snprintf(why, why_size, "%s(): argument '%s' must be %s, %s", fname, shown, kind_name(info->kind), not_part);
        else
            snprintf(why, why_size, "%s(): argument '%s' (position %d) must be %s, %s", fname, shown, position,
                     kind_name(info->kind), not_part);
        return CTPY_PARSE_MISMATCH;
    }
    return CTPY_PARSE_OK;
}

/* ---- ct values -> Python ---- */

PyObject *ctpy_scalar_to_py(const ct_value *v) {
    switch (v->tag) {
    case CT_TAG_INT: return PyLong_FromLongLong(v->u.i);
    case CT_TAG_DOUBLE: return PyFloat_FromDouble(v->u.d);
    case CT_TAG_BOOL: return PyBool_FromLong(v->u.b);
    default: Py_RETURN_NONE;
    }
}

static PyObject *borrowed_or_none(PyObject *o) {
    if (!o) Py_RETURN_NONE;
    Py_INCREF(o);
    return o;
}

PyObject *ctpy_value_to_py(const ct_value *v, ct_arg_kind kind) {
    switch (v->tag) {
    case CT_TAG_NONE: Py_RETURN_NONE;
    case CT_TAG_TENSOR:
        if (ct_tensor_is_wrapped_number(v->u.t)) {
            /* a Python number wrapped by the caller is handed to handlers as the number again */
            double d;
            if (ct_tensor_item(v->u.t, &d) != 0) return ctpy_raise();
            switch (ct_tensor_dtype(v->u.t)) {
            case CT_BOOL: return PyBool_FromLong(d != 0);
            case CT_INT64: return PyLong_FromLongLong(*(const int64_t *)ct_tensor_data_ptr(v->u.t));
            default: return PyFloat_FromDouble(d);
            }
        }
        return ctpy_wrap_borrowed(v->u.t);
    case CT_TAG_INT:
        if (kind == CT_ARG_SCALARTYPE) {
            PyObject *d = ctpy_dtype_object((ct_dtype)v->u.i);
            Py_XINCREF(d);
            return d;
        }
        if (kind == CT_ARG_LAYOUT) return borrowed_or_none(ctpy_strided);
        if (kind == CT_ARG_MEMORY_FORMAT)
            return borrowed_or_none(v->u.i == CT_PRESERVE_FORMAT ? ctpy_preserve_format : ctpy_contiguous_format);
        return PyLong_FromLongLong(v->u.i);
    case CT_TAG_DOUBLE: return PyFloat_FromDouble(v->u.d);
    case CT_TAG_BOOL: return PyBool_FromLong(v->u.b);
    case CT_TAG_INTLIST: {
        PyObject *l = PyList_New(v->u.list.len);
        for (int64_t k = 0; l && k < v->u.list.len; k++) {
            PyObject *x = kind == CT_ARG_BOOLLIST ? PyBool_FromLong(v->u.list.data[k] != 0)
                                                  : PyLong_FromLongLong(v->u.list.data[k]);
            if (!x) {
                Py_DECREF(l);
                return NULL;
            }
            PyList_SET_ITEM(l, k, x);
        }
        return l;
    }
    case CT_TAG_STRING: return PyUnicode_FromString(v->u.s);
    case CT_TAG_GENERATOR: return ctpy_generator_wrap(v->u.g);
    case CT_TAG_DEVICE: return borrowed_or_none(ctpy_cpu_device);
    case CT_TAG_OBJECT: return ctpy_script_object(v->u.obj, NULL);
    case CT_TAG_TENSORLIST: {
        PyObject *l = PyList_New(v->u.tlist.len);
        for (int64_t k = 0; l && k < v->u.tlist.len; k++) {
            PyObject *x = v->u.tlist.items[k] ? ctpy_wrap_borrowed(v->u.tlist.items[k]) : Py_NewRef(Py_None);
            if (!x) {
                Py_DECREF(l);
                return NULL;
            }
            PyList_SET_ITEM(l, k, x);
        }
        return l;
    }
    }
    Py_RETURN_NONE;
}

PyObject *ctpy_tagged_to_py(const ct_value *v) { return ctpy_value_to_py(v, CT_ARG_NONE); }

/* An argument or return of a schema: a custom-class object carries its class, as the schema
 * writes it ("__torch__.torch.classes.profiler._RecordFunction"). */
static PyObject *arg_to_py(const ct_value *v, const ct_arg_info *a) {
    if (v->tag == CT_TAG_OBJECT) return ctpy_script_object(v->u.obj, a->type);
    return ctpy_value_to_py(v, a->kind);
}

static bool values_equal(const ct_value *a, const ct_value *b) {
    if (a->tag != b->tag) return false;
    switch (a->tag) {
    case CT_TAG_NONE: return true;
    case CT_TAG_INT:
    case CT_TAG_DEVICE: return a->u.i == b->u.i;
    case CT_TAG_DOUBLE: return a->u.d == b->u.d;
    case CT_TAG_BOOL: return a->u.b == b->u.b;
    case CT_TAG_STRING: return strcmp(a->u.s, b->u.s) == 0;
    case CT_TAG_INTLIST:
        return a->u.list.len == b->u.list.len &&
               (a->u.list.len == 0 || memcmp(a->u.list.data, b->u.list.data, (size_t)a->u.list.len * sizeof(int64_t)) == 0);
    default: return false;
    }
}

static bool is_default(const ctpy_schema *s, const ct_value *args, int i) {
    return s->args[i].has_default && values_equal(&args[i], &s->args[i].default_value);
}

int ctpy_handler_args(const ctpy_schema *s, const ct_value *args, PyObject **pyargs, PyObject **pykwargs) {
    int kw_start = s->npositional;
    int pos_end = kw_start;
    for (int i = kw_start - 1; i >= 0 && is_default(s, args, i); i--) pos_end = i;
    *pyargs = PyTuple_New(pos_end);
    *pykwargs = PyDict_New();
    if (!*pyargs || !*pykwargs) goto fail;
    for (int i = 0; i < pos_end; i++) {
        PyObject *x = arg_to_py(&args[i], &s->args[i]);
        if (!x) goto fail;
        PyTuple_SET_ITEM(*pyargs, i, x);
    }
    for (int i = kw_start; i < s->nargs; i++) {
        if (is_default(s, args, i)) continue;
        PyObject *x = arg_to_py(&args[i], &s->args[i]);
        if (!x) goto fail;
        int rc = PyDict_SetItemString(*pykwargs, s->args[i].name, x);
        Py_DECREF(x);
        if (rc < 0) goto fail;
    }
    return 0;
fail:
    Py_CLEAR(*pyargs);
    Py_CLEAR(*pykwargs);
    return -1;
}

/* ---- a handler's Python result -> rets ---- */

static int one_ret(PyObject *o, const ct_arg_info *info, ct_value *r) {
    /* None is an undefined tensor, which the Python binding hands back as None, as PyTorch's */
    if (o == Py_None && (info->optional || info->kind == CT_ARG_NONE || info->kind == CT_ARG_TENSOR)) {
        *r = ct_none();
        return 0;
    }
    switch (info->kind) {
    case CT_ARG_TENSOR:
        if (!ctpy_is_tensor(o) || !ctpy_tensor(o)) {
            /* toIValue's words for a handler's result that is no tensor */
            PyErr_Format(PyExc_RuntimeError, "Unable to cast %S to Tensor", o);
            return -1;
        }
        *r = ct_tensor_value(ct_tensor_retain(ctpy_tensor(o)));
        return 0;
    case CT_ARG_OBJECT: {
        void *p = ctpy_script_object_ptr(o);
        if (!p) break;
        *r = ct_object(p);
        return 0;
    }
    case CT_ARG_TENSORLIST: {
        if (!PyTuple_Check(o) && !PyList_Check(o)) break;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        for (Py_ssize_t k = 0; k < n; k++)
            if (!ctpy_is_tensor(PySequence_Fast_GET_ITEM(o, k))) goto mismatch;
        ct_tensor *items[CTPY_TL_POOL];
        if (n > CTPY_TL_POOL) {
            ctpy_not_implemented("a handler result of more than %d tensors", CTPY_TL_POOL);
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; k++) items[k] = ctpy_tensor(PySequence_Fast_GET_ITEM(o, k));
        return ct_tensor_list_new(items, n, r) == 0 ? 0 : ctpy_raise_int();
    }
    case CT_ARG_INT:
        if (!is_int(o)) break;
        *r = ct_int(PyLong_AsLongLong(o));
        return PyErr_Occurred() ? -1 : 0;
    case CT_ARG_FLOAT:
        if (!PyFloat_Check(o) && !PyLong_Check(o)) break;
        *r = ct_double(PyFloat_AsDouble(o));
        return PyErr_Occurred() ? -1 : 0;
    case CT_ARG_BOOL:
        if (!PyBool_Check(o)) break;
        *r = ct_bool(o == Py_True);
        return 0;
    case CT_ARG_SCALAR:
        if (box_scalar(o, r) == CTPY_PARSE_OK) return 0;
        if (PyErr_Occurred()) return -1;
        PyErr_Format(PyExc_RuntimeError, "Cannot cast %S to number", o);
        return -1;
    default: break;
    }
mismatch:
    PyErr_Format(PyExc_TypeError, "expected %s as a result, got %s", kind_name(info->kind), py_type_name(o));
    return -1;
}

int ctpy_result_to_rets(const ctpy_schema *s, PyObject *res, ct_value *rets) {
    if (s->nrets == 0) return 0;
    if (s->nrets == 1) return one_ret(res, &s->rets[0], &rets[0]);
    if (!(PyTuple_Check(res) || PyList_Check(res)) || PySequence_Fast_GET_SIZE(res) != s->nrets) {
        PyErr_Format(PyExc_TypeError, "%s returns %d values; the handler returned %s", ct_op_name(s->op), s->nrets,
                     py_type_name(res));
        return -1;
    }
    for (int i = 0; i < s->nrets; i++) {
        if (one_ret(PySequence_Fast_GET_ITEM(res, i), &s->rets[i], &rets[i]) != 0) {
            ct_values_release(rets, i);
            return -1;
        }
    }
    return 0;
}

PyObject *ctpy_rets_to_py(const ctpy_schema *s, ct_value *rets) {
    if (s->nrets == 0) Py_RETURN_NONE;
    PyObject *out[CTPY_MAX_RETS] = {NULL};
    for (int i = 0; i < s->nrets; i++) {
        if (rets[i].tag == CT_TAG_TENSOR) {
            out[i] = ctpy_wrap(rets[i].u.t);
            rets[i] = ct_none();
        } else {
            out[i] = arg_to_py(&rets[i], &s->rets[i]);
            ct_values_release(&rets[i], 1);
        }
        if (!out[i]) {
            ct_values_release(rets + i + 1, s->nrets - i - 1);
            for (int k = 0; k < i; k++) Py_DECREF(out[k]);
            return NULL;
        }
    }
    if (s->nrets == 1) return out[0];
    PyObject *tup = PyTuple_New(s->nrets);
    if (!tup) {
        for (int k = 0; k < s->nrets; k++) Py_DECREF(out[k]);
        return NULL;
    }
    for (int k = 0; k < s->nrets; k++) PyTuple_SET_ITEM(tup, k, out[k]);
    return tup;
}

/* ---- schema-free (function modes) ---- */

int ctpy_py_to_tagged(PyObject *o, ctpy_args *a, int i) {
    ct_value *v = &a->v[i];
    ct_dtype d;
    if (o == Py_None) *v = ct_none();
    else if (ctpy_is_tensor(o)) *v = ct_tensor_value(ctpy_tensor(o));
    else if (PyBool_Check(o)) *v = ct_bool(o == Py_True);
    else if (PyLong_Check(o)) *v = ct_int(PyLong_AsLongLong(o));
    else if (PyFloat_Check(o)) *v = ct_double(PyFloat_AS_DOUBLE(o));
    else if (ctpy_dtype_of(o, &d)) *v = ct_int(d);
    else if (o == ctpy_strided) *v = ct_int(0);
    else if (o == ctpy_contiguous_format) *v = ct_int(CT_CONTIGUOUS_FORMAT);
    else if (o == ctpy_preserve_format) *v = ct_int(CT_PRESERVE_FORMAT);
    else if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        *v = ct_string(s);
    } else if (PyObject_TypeCheck(o, &CtGenerator_Type)) *v = ct_generator_value(((CtGeneratorObject *)o)->g);
    else if (ctpy_cpu_device && o == ctpy_cpu_device) {
        v->tag = CT_TAG_DEVICE;
        v->u.i = 0;
    } else if (ctpy_script_object_ptr(o)) *v = ct_object(ctpy_script_object_ptr(o));
    else if ((PyTuple_Check(o) || PyList_Check(o)) && PySequence_Fast_GET_SIZE(o) > 0 &&
             ctpy_is_tensor(PySequence_Fast_GET_ITEM(o, 0))) {
        int r = box_tensorlist(o, &(ct_arg_info){.kind = CT_ARG_TENSORLIST}, a, i);
        if (r == CTPY_PARSE_OK) return 0;
        if (r == CTPY_PARSE_MISMATCH) PyErr_Format(PyExc_TypeError, "expected a list of Tensors, got %s", py_type_name(o));
        return -1;
    } else if (PyTuple_Check(o) || PyList_Check(o)) {
        ct_arg_info info = {.name = "", .type = "int[]", .kind = CT_ARG_INTLIST};
        int r = box_intlist(o, &info, a, i);
        if (r == CTPY_PARSE_OK) return 0;
        if (r == CTPY_PARSE_MISMATCH) PyErr_Format(PyExc_TypeError, "expected a list of ints, got %s", py_type_name(o));
        return -1;
    } else {
        PyErr_Format(PyExc_TypeError, "cannot pass %s to a ctorch function", py_type_name(o));
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}
