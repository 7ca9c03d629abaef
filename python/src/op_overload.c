/* torch._ops.OpOverload: one overload of an operator as a Python object, what
 * __torch_dispatch__ receives as `func` (str() is "aten.addmm.default", calling it dispatches as
 * torch.ops does), and the overload resolution PyTorch's argument parser does over a list of
 * them (ctpy_call_candidates: OpOverloadPacket calls and the torch functions). */
#include <string.h>

#include "ctpy.h"

static PyObject *op_cache;       /* PyLong(op pointer) -> OpOverload */
static PyObject *schema_factory; /* Python: FunctionSchema built from an OpOverload */


/* A torch.ops call the schema does not accept, refused as torch.ops refuses it (its JIT schema
 * matching: RuntimeErrors naming the declaration). The argument counts and names are checked
 * here; each value's type by ct_call's own check, whose messages are torch.ops' (Note [Checked
 * and unchecked calls] in src/dispatch/check.c). 0 when nothing is found (the caller raises the
 * parser's TypeError). */
static int torch_ops_error(const ctpy_schema *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    const ct_op *op = s->op;
    const char *base = ct_op_base_name(op), *decl = ct_op_schema(op);
    if (nargs > s->npositional) {
        PyErr_Format(PyExc_RuntimeError, "%s() expected at most %d argument(s) but received %zd argument(s). Declaration: %s",
                     base, s->npositional, nargs, decl);
        return -1;
    }
    PyObject *given[CTPY_MAX_ARGS] = {NULL};
    for (Py_ssize_t k = 0; k < nargs; k++) given[k] = args[k];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        int idx = -1;
        for (int i = 0; name && i < s->nargs; i++)
            if (strcmp(s->args[i].name, name) == 0) idx = i;
        if (idx < 0) {
            PyErr_Format(PyExc_RuntimeError, "Unknown keyword argument '%s' for operator '%s'. Schema: %s", name ? name : "",
                         base, decl);
            return -1;
        }
        given[idx] = args[nargs + k];
    }
    ctpy_args a;
    a.n_owned = a.n_tl = 0;
        a.fname = NULL;
    for (int i = 0; i < s->nargs; i++) {
        if (!given[i]) {
            if (!s->args[i].has_default) {
                PyErr_Format(PyExc_RuntimeError, "%s() is missing value for argument '%s'. Declaration: %s", base,
                             s->args[i].name, decl);
                return -1;
            }
            a.v[i] = s->args[i].default_value;
        } else if (ctpy_py_to_tagged(given[i], &a, i) != 0) {
            PyErr_Clear(); /* a Python object with no ctorch value: the parser's TypeError says more */
            return 0;
        }
    }
    ct_value rets[CTPY_MAX_RETS];
    if (ct_op_check_args(op, a.v, rets) != 0) {
        ctpy_raise();
        return -1;
    }
    return 0;
}

static PyObject *call_op(const ctpy_schema *s, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, bool through_function_modes) {
    ctpy_args a;
    char why[512];
    int r = ctpy_parse(s, fname, args, nargs, kwnames, CTPY_NUMBERS_AS_TENSORS, &a, why, sizeof why);
    if (r == CTPY_PARSE_ERROR) return NULL;
    if (r == CTPY_PARSE_MISMATCH) {
        if (torch_ops_error(s, args, nargs, kwnames) != 0) return NULL;
        PyErr_SetString(PyExc_TypeError, why);
        return NULL;
    }
    ct_value rets[CTPY_MAX_RETS];
    for (int i = 0; i < s->nrets; i++) rets[i] = ct_none();
    int rc = through_function_modes ? ct_op_invoke_parsed(s->op, a.v, rets) : ct_call(s->op, a.v, rets);
    ctpy_args_release(&a);
    if (rc != 0) return ctpy_raise();
    return ctpy_rets_to_py(s, rets);
}

static PyObject *overload_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    CtOpOverloadObject *o = (CtOpOverloadObject *)self;
    /* like PyTorch's torch.ops calls, seen by function modes first (func: this OpOverload) */
    {
        bool handled;
        PyObject *r = ctpy_torch_function_vector(self, PyUnicode_AsUTF8(o->name), args, PyVectorcall_NARGS(nargsf),
                                                 kwnames, false, &handled);
        if (handled) return r;
    }
    return call_op(&o->schema, PyUnicode_AsUTF8(o->name), args, PyVectorcall_NARGS(nargsf), kwnames, true);
}

static void overload_dealloc(PyObject *self) {
    CtOpOverloadObject *o = (CtOpOverloadObject *)self;
    Py_XDECREF(o->packet);
    Py_XDECREF(o->name);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *overload_str(PyObject *self) {
    PyObject *n = ((CtOpOverloadObject *)self)->name;
    Py_INCREF(n);
    return n;
}

const char *ctpy_overload_name(const ct_op *op) {
    const char *ov = ct_op_overload(op);
    return ov[0] ? ov : "default";
}

/* "aten::addmm" -> "addmm" */
static const char *short_name(const ct_op *op) {
    const char *b = ct_op_base_name(op);
    const char *c = strstr(b, "::");
    return c ? c + 2 : b;
}
static PyObject *namespace_of(const ct_op *op) {
    const char *b = ct_op_base_name(op);
    const char *c = strstr(b, "::");
    return PyUnicode_FromStringAndSize(b, c ? c - b : 0);
}

static PyObject *overload_repr(PyObject *self) {
    const ct_op *op = ((CtOpOverloadObject *)self)->schema.op;
    PyObject *ns = namespace_of(op);
    if (!ns) return NULL;
    PyObject *r = PyUnicode_FromFormat("<OpOverload(op='%U.%s', overload='%s')>", ns, short_name(op), ctpy_overload_name(op));
    Py_DECREF(ns);
    return r;
}

static PyObject *overload_get_schema(PyObject *self, void *c) {
    (void)c;
    if (!schema_factory) return ctpy_not_implemented("OpOverload._schema before ctorch is imported");
    return PyObject_CallOneArg(schema_factory, self);
}
static PyObject *overload_get_name(PyObject *self, void *c) {
    (void)c;
    const ct_op *op = ((CtOpOverloadObject *)self)->schema.op;
    return PyUnicode_FromFormat("%s.%s", short_name(op), ctpy_overload_name(op));
}
static PyObject *overload_get_overloadname(PyObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(ctpy_overload_name(((CtOpOverloadObject *)self)->schema.op));
}
static PyObject *overload_get_opname(PyObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(short_name(((CtOpOverloadObject *)self)->schema.op));
}
static PyObject *overload_get_namespace(PyObject *self, void *c) {
    (void)c;
    return namespace_of(((CtOpOverloadObject *)self)->schema.op);
}
/* __module__ of an OpOverload / OpOverloadPacket: "torch._ops.aten" */
PyObject *ctpy_ops_module_of(const char *base_name) {
    const char *c = strstr(base_name, "::");
    PyObject *ns = PyUnicode_FromStringAndSize(base_name, c ? c - base_name : 0);
    PyObject *r = ns ? PyUnicode_FromFormat("torch._ops.%U", ns) : NULL;
    Py_XDECREF(ns);
    return r;
}
static PyObject *overload_get_module(PyObject *self, void *c) {
    (void)c;
    return ctpy_ops_module_of(ct_op_base_name(((CtOpOverloadObject *)self)->schema.op));
}

static PyObject *overload_name_method(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(ct_op_name(((CtOpOverloadObject *)self)->schema.op));
}

/* Raw schema facts for the Python FunctionSchema: (name, overload, schema text, args, returns),
 * each argument (name, type, kind, optional, kwarg_only, writes, has_default, default). */
static PyObject *arg_tuple(const ct_arg_info *a) {
    PyObject *def = a->has_default ? ctpy_value_to_py(&a->default_value, a->kind) : (Py_INCREF(Py_None), Py_None);
    if (!def) return NULL;
    return Py_BuildValue("(ssiOOOON)", a->name, a->type, (int)a->kind, a->optional ? Py_True : Py_False,
                         a->kwarg_only ? Py_True : Py_False, a->writes ? Py_True : Py_False,
                         a->has_default ? Py_True : Py_False, def);
}

static PyObject *overload_schema_info(PyObject *self, PyObject *unused) {
    (void)unused;
    const ctpy_schema *s = &((CtOpOverloadObject *)self)->schema;
    PyObject *args = PyList_New(s->nargs), *rets = PyList_New(s->nrets);
    if (!args || !rets) goto fail;
    for (int i = 0; i < s->nargs; i++) {
        PyObject *t = arg_tuple(&s->args[i]);
        if (!t) goto fail;
        PyList_SET_ITEM(args, i, t);
    }
    for (int i = 0; i < s->nrets; i++) {
        PyObject *t = arg_tuple(&s->rets[i]);
        if (!t) goto fail;
        PyList_SET_ITEM(rets, i, t);
    }
    return Py_BuildValue("(sssNN)", ct_op_base_name(s->op), ct_op_overload(s->op), ct_op_schema(s->op), args, rets);
fail:
    Py_XDECREF(args);
    Py_XDECREF(rets);
    return NULL;
}

static PyGetSetDef overload_getset[] = {
    {"_schema", overload_get_schema, NULL, NULL, NULL},
    {"__name__", overload_get_name, NULL, NULL, NULL},
    {"__qualname__", overload_get_name, NULL, NULL, NULL},
    {"_overloadname", overload_get_overloadname, NULL, NULL, NULL},
    {"_opname", overload_get_opname, NULL, NULL, NULL},
    {"namespace", overload_get_namespace, NULL, NULL, NULL},
    {"__module__", overload_get_module, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef overload_methods[] = {
    {"name", overload_name_method, METH_NOARGS, NULL},
    {"_schema_info", overload_schema_info, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

PyTypeObject CtOpOverload_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._ops.OpOverload",
    .tp_basicsize = sizeof(CtOpOverloadObject),
    .tp_dealloc = overload_dealloc,
    .tp_vectorcall_offset = offsetof(CtOpOverloadObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_str = overload_str,
    .tp_repr = overload_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "One overload of an operator: str() is PyTorch's (aten.addmm.default); calling it dispatches.",
    .tp_methods = overload_methods,
    .tp_getset = overload_getset,
};

PyObject *ctpy_op_overload(const ct_op *op) {
    PyObject *key = PyLong_FromVoidPtr((void *)op);
    if (!key) return NULL;
    PyObject *o = PyDict_GetItemWithError(op_cache, key);
    if (o || PyErr_Occurred()) {
        Py_DECREF(key);
        return o;
    }
    CtOpOverloadObject *n = PyObject_New(CtOpOverloadObject, &CtOpOverload_Type);
    if (!n) {
        Py_DECREF(key);
        return NULL;
    }
    n->packet = NULL;
    n->vectorcall = overload_vectorcall;
    n->name = PyUnicode_FromString(ct_op_python_name(op));
    if (!n->name || ctpy_schema_init(&n->schema, op) != 0 || PyDict_SetItem(op_cache, key, (PyObject *)n) < 0) {
        Py_DECREF(key);
        Py_DECREF(n);
        return NULL;
    }
    Py_DECREF(key);
    Py_DECREF(n); /* the cache keeps it */
    return (PyObject *)n;
}

static PyObject *py_op_overload(PyObject *unused, PyObject *arg) {
    (void)unused;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const ct_op *op = ct_op_find(name);
    if (!op) {
        ct_error_clear();
        return ctpy_not_implemented("operator %s", name);
    }
    PyObject *o = ctpy_op_overload(op);
    Py_XINCREF(o);
    return o;
}

/* ---- candidates: a list of overloads resolved like PyTorch's argument parser ---- */

/* format_invalid_args's "(...)": the positional arguments' types (a method's without self), then
 * name=type for each keyword, the last given first, a lone keyword part ending ", " as PyTorch's
 * does */
static PyObject *invalid_combination(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                     PyObject *cands, bool method) {
    Py_ssize_t first = method && nargs > 0 ? 1 : 0;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *got = PyUnicode_FromString("");
    for (Py_ssize_t i = first; got && i < nargs + nkw; i++) {
        bool kw = i >= nargs;
        Py_ssize_t at = kw ? nkw - 1 - (i - nargs) : i; /* the keyword's index in kwnames */
        PyObject *o = kw ? args[nargs + at] : args[i];
        const char *tn = ctpy_is_tensor(o) ? "Tensor" : Py_TYPE(o)->tp_name;
        const char *sep = i > first ? ", " : "";
        PyObject *part = !kw ? PyUnicode_FromFormat("%s%s", sep, tn)
                             : PyUnicode_FromFormat("%s%U=%s%s", sep, PyTuple_GET_ITEM(kwnames, at), tn,
                                                    nargs == first && i == nargs + nkw - 1 ? ", " : "");
        PyObject *joined = part ? PyUnicode_Concat(got, part) : NULL;
        Py_XDECREF(part);
        Py_DECREF(got);
        got = joined;
    }
    if (!got) return NULL;
    PyObject *msg = PyUnicode_FromFormat("%s() received an invalid combination of arguments - got (%U), but expected one of:",
                                         fname, got);
    Py_DECREF(got);
    for (Py_ssize_t i = 0; msg && i < PyTuple_GET_SIZE(cands); i++) {
        const ct_op *op = ((CtOpOverloadObject *)PyTuple_GET_ITEM(cands, i))->schema.op;
        const char *sch = ct_op_schema(op);
        const char *open = strchr(sch, '(');
        const char *arrow = strstr(sch, ") -> ");
        PyObject *sig = PyUnicode_FromStringAndSize(open ? open : "", arrow && open ? arrow - open : 0);
        PyObject *line = sig ? PyUnicode_FromFormat("\n * %U)", sig) : NULL;
        Py_XDECREF(sig);
        PyObject *joined = line ? PyUnicode_Concat(msg, line) : NULL;
        Py_XDECREF(line);
        Py_DECREF(msg);
        msg = joined;
    }
    if (msg) {
        PyErr_SetObject(PyExc_TypeError, msg);
        Py_DECREF(msg);
    }
    return NULL;
}

/* Tries each candidate in order; the first whose schema accepts the arguments runs. */
PyObject *ctpy_call_candidates(const char *fname, PyObject *cands, PyObject *missing, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames, bool through_function_modes, int flags) {
    char why[512] = "", first_why[512] = "";
    Py_ssize_t n = PyTuple_GET_SIZE(cands);
    for (Py_ssize_t i = 0; i < n; i++) {
        CtOpOverloadObject *o = (CtOpOverloadObject *)PyTuple_GET_ITEM(cands, i);
        ctpy_args a;
        int r = ctpy_parse(&o->schema, fname, args, nargs, kwnames, flags, &a, why, sizeof why);
        if (r == CTPY_PARSE_ERROR) return NULL;
        if (r == CTPY_PARSE_MISMATCH) {
            if (!first_why[0]) memcpy(first_why, why, sizeof why);
            continue;
        }
        ct_value rets[CTPY_MAX_RETS];
        for (int k = 0; k < o->schema.nrets; k++) rets[k] = ct_none();
        int rc = through_function_modes ? ct_op_invoke_parsed(o->schema.op, a.v, rets) : ct_call(o->schema.op, a.v, rets);
        ctpy_args_release(&a);
        if (rc != 0) return ctpy_raise();
        return ctpy_named_rets(o->schema.op, ctpy_rets_to_py(&o->schema, rets));
    }
    if (missing && PyTuple_GET_SIZE(missing) > 0) {
        PyObject *sep = PyUnicode_FromString(", ");
        PyObject *names = sep ? PyUnicode_Join(sep, missing) : NULL;
        Py_XDECREF(sep);
        if (!names) return NULL;
        ctpy_not_implemented("%s() with these arguments (it needs %s)", fname, PyUnicode_AsUTF8(names));
        Py_DECREF(names);
        return NULL;
    }
    if (n == 1) {
        PyErr_SetString(PyExc_TypeError, first_why);
        return NULL;
    }
    /* print_error: when one overload alone takes this many arguments (its parameters without a
     * default at least, all of them at most), its own error, as PyTorch's parser raises it */
    Py_ssize_t given = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), plausible = -1;
    int n_plausible = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const ctpy_schema *s = &((CtOpOverloadObject *)PyTuple_GET_ITEM(cands, i))->schema;
        int min = 0;
        for (int k = 0; k < s->nargs; k++) min += !s->args[k].has_default;
        if (given >= min && given <= s->nargs) {
            n_plausible++;
            plausible = i;
        }
    }
    if (n_plausible == 1) {
        ctpy_args a;
        int r = ctpy_parse(&((CtOpOverloadObject *)PyTuple_GET_ITEM(cands, plausible))->schema, fname, args, nargs,
                           kwnames, flags, &a, why, sizeof why);
        if (r == CTPY_PARSE_ERROR) return NULL;
        if (r == CTPY_PARSE_MISMATCH) {
            PyErr_SetString(PyExc_TypeError, why);
            return NULL;
        }
        ctpy_args_release(&a); /* it takes them after all: the combination's error below */
    }
    return invalid_combination(fname, args, nargs, kwnames, cands, (flags & CTPY_METHOD) != 0);
}

static PyObject *py_set_schema_factory(PyObject *unused, PyObject *fn) {
    (void)unused;
    Py_XDECREF(schema_factory);
    Py_INCREF(fn);
    schema_factory = fn;
    Py_RETURN_NONE;
}

static PyObject *py_op_names(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    int n = ct_op_count();
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) PyList_SET_ITEM(l, i, PyUnicode_FromString(ct_op_name(ct_op_at(i))));
    return l;
}

static PyMethodDef overload_functions[] = {
    {"_op_overload", py_op_overload, METH_O, "The OpOverload for 'aten::add.Tensor'."},
    {"_set_schema_factory", py_set_schema_factory, METH_O, NULL},
    {"_op_names", py_op_names, METH_NOARGS, "Every operator's qualified name."},
    {NULL, NULL, 0, NULL}};

int ctpy_op_overload_init(PyObject *m) {
    if (PyType_Ready(&CtOpOverload_Type) < 0) return -1;
    op_cache = PyDict_New();
    if (!op_cache) return -1;
    Py_INCREF(&CtOpOverload_Type);
    if (PyModule_AddObject(m, "OpOverload", (PyObject *)&CtOpOverload_Type) < 0) return -1;
    return ctpy_add_functions(m, overload_functions);
}
