/* Operators as Python objects: OpOverload (what __torch_dispatch__ receives as `func`: str() is
 * "aten.addmm.default", calling it dispatches), OpOverloadPacket (torch.ops.aten.addmm), and the
 * functions and methods of the torch namespace (torch.addmm, Tensor.sum), which pick an overload
 * the way PyTorch's argument parser does and are seen by function modes. */
#include <string.h>

#include "ctpy.h"

/* ---- ScriptObject: an opaque custom-class value (profiler._RecordFunction) ---- */

typedef struct {
    PyObject_HEAD
    void *p;                /* owned by ctorch (the op that consumes it frees it) */
    const char *class_name; /* "__torch__.torch.classes.profiler._RecordFunction", or NULL */
} CtScriptObject;

/* PyTorch's ScriptObject: str() names the class, "ScriptObject <__torch__.torch.classes...>";
 * repr() is object's, "<torch.ScriptObject object at 0x...>" */
static PyObject *script_repr(PyObject *self) { return PyUnicode_FromFormat("<torch.ScriptObject object at %p>", self); }

static PyObject *script_str(PyObject *self) {
    const CtScriptObject *o = (const CtScriptObject *)self;
    if (o->class_name) return PyUnicode_FromFormat("ScriptObject <%s>", o->class_name);
    return script_repr(self);
}

/* torch.ClassType, as far as ctorch has one: the class of a ScriptObject, by name */
typedef struct {
    PyObject_HEAD
    const char *name; /* qualified, living as long as the process */
} CtClassType;

static PyObject *class_qualified_name(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(((CtClassType *)self)->name);
}

static PyObject *class_name(PyObject *self, PyObject *unused) {
    (void)unused;
    const char *q = ((CtClassType *)self)->name, *dot = strrchr(q, '.');
    return PyUnicode_FromString(dot ? dot + 1 : q);
}

static PyObject *class_repr(PyObject *self) { return PyUnicode_FromString(((CtClassType *)self)->name); }

static PyMethodDef class_methods[] = {{"qualified_name", class_qualified_name, METH_NOARGS, NULL},
                                      {"name", class_name, METH_NOARGS, NULL},
                                      {NULL, NULL, 0, NULL}};

static PyTypeObject CtClassType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.ClassType",
    .tp_basicsize = sizeof(CtClassType),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = class_repr,
    .tp_str = class_repr,
    .tp_methods = class_methods,
    .tp_doc = "The class of a ScriptObject (its qualified name).",
};

/* ScriptObject._type() */
static PyObject *script_type(PyObject *self, PyObject *unused) {
    (void)unused;
    const CtScriptObject *o = (const CtScriptObject *)self;
    if (!o->class_name) return ctpy_not_implemented("ScriptObject._type() of an object of unknown class");
    CtClassType *c = PyObject_New(CtClassType, &CtClassType_Type);
    if (c) c->name = o->class_name;
    return (PyObject *)c;
}

static PyMethodDef script_methods[] = {{"_type", script_type, METH_NOARGS, "The object's class type."},
                                       {NULL, NULL, 0, NULL}};

static PyTypeObject CtScriptObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.ScriptObject",
    .tp_basicsize = sizeof(CtScriptObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = script_repr,
    .tp_str = script_str,
    .tp_methods = script_methods,
    .tp_doc = "A custom-class value passed between operators (e.g. profiler._RecordFunction).",
};

PyObject *ctpy_script_object(void *p, const char *class_name) {
    CtScriptObject *o = PyObject_New(CtScriptObject, &CtScriptObject_Type);
    if (o) {
        o->p = p;
        o->class_name = class_name;
    }
    return (PyObject *)o;
}

void *ctpy_script_object_ptr(PyObject *o) {
    return PyObject_TypeCheck(o, &CtScriptObject_Type) ? ((CtScriptObject *)o)->p : NULL;
}

/* ---- OpOverload ---- */

static PyObject *op_cache;     /* PyLong(op pointer) -> OpOverload */
static PyObject *packet_cache; /* "aten::addmm" -> OpOverloadPacket */
static PyObject *schema_factory; /* Python: FunctionSchema built from an OpOverload */

static PyObject *packet_for(const char *base_name);

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

static const char *overload_name_of(const ct_op *op) {
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
    PyObject *r = PyUnicode_FromFormat("<OpOverload(op='%U.%s', overload='%s')>", ns, short_name(op), overload_name_of(op));
    Py_DECREF(ns);
    return r;
}

static PyObject *overload_get_packet(PyObject *self, void *c) {
    (void)c;
    CtOpOverloadObject *o = (CtOpOverloadObject *)self;
    if (!o->packet) o->packet = packet_for(ct_op_base_name(o->schema.op));
    Py_XINCREF(o->packet);
    return o->packet;
}
static PyObject *overload_get_schema(PyObject *self, void *c) {
    (void)c;
    if (!schema_factory) return ctpy_not_implemented("OpOverload._schema before ctorch is imported");
    return PyObject_CallOneArg(schema_factory, self);
}
static PyObject *overload_get_name(PyObject *self, void *c) {
    (void)c;
    const ct_op *op = ((CtOpOverloadObject *)self)->schema.op;
    return PyUnicode_FromFormat("%s.%s", short_name(op), overload_name_of(op));
}
static PyObject *overload_get_overloadname(PyObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(overload_name_of(((CtOpOverloadObject *)self)->schema.op));
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
static PyObject *module_of(const char *base_name) {
    const char *c = strstr(base_name, "::");
    PyObject *ns = PyUnicode_FromStringAndSize(base_name, c ? c - base_name : 0);
    PyObject *r = ns ? PyUnicode_FromFormat("torch._ops.%U", ns) : NULL;
    Py_XDECREF(ns);
    return r;
}
static PyObject *overload_get_module(PyObject *self, void *c) {
    (void)c;
    return module_of(ct_op_base_name(((CtOpOverloadObject *)self)->schema.op));
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
    {"overloadpacket", overload_get_packet, NULL, NULL, NULL},
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
static PyObject *call_candidates(const char *fname, PyObject *cands, PyObject *missing, PyObject *const *args,
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
        return ctpy_rets_to_py(&o->schema, rets);
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
    return invalid_combination(fname, args, nargs, kwnames, cands, (flags & CTPY_METHOD) != 0);
}

/* ---- OpOverloadPacket ---- */

typedef struct {
    PyObject_HEAD
    PyObject *qualified; /* "aten::addmm" */
    PyObject *overloads; /* tuple of OpOverload, in definition order */
    vectorcallfunc vectorcall;
} CtPacketObject;

static PyObject *packet_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    CtPacketObject *p = (CtPacketObject *)self;
    const char *q = PyUnicode_AsUTF8(p->qualified);
    const char *c = strstr(q, "::");
    {
        bool handled;
        PyObject *r = ctpy_torch_function_vector(self, q, args, PyVectorcall_NARGS(nargsf), kwnames, false, &handled);
        if (handled) return r;
    }
    return call_candidates(c ? c + 2 : q, p->overloads, NULL, args, PyVectorcall_NARGS(nargsf), kwnames, true,
                           CTPY_NUMBERS_AS_TENSORS);
}

static void packet_dealloc(PyObject *self) {
    CtPacketObject *p = (CtPacketObject *)self;
    Py_XDECREF(p->qualified);
    Py_XDECREF(p->overloads);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *packet_str(PyObject *self) {
    /* str(aten.addmm) is "aten.addmm" */
    PyObject *q = ((CtPacketObject *)self)->qualified;
    PyObject *sep = PyUnicode_FromString("::"), *dot = PyUnicode_FromString(".");
    PyObject *r = sep && dot ? PyUnicode_Replace(q, sep, dot, 1) : NULL;
    Py_XDECREF(sep);
    Py_XDECREF(dot);
    return r;
}

static PyObject *packet_repr(PyObject *self) {
    PyObject *s = packet_str(self);
    if (!s) return NULL;
    PyObject *r = PyUnicode_FromFormat("<OpOverloadPacket(op='%U')>", s);
    Py_DECREF(s);
    return r;
}

static PyObject *packet_getattro(PyObject *self, PyObject *name) {
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
    PyErr_Clear();
    CtPacketObject *p = (CtPacketObject *)self;
    const char *want = PyUnicode_AsUTF8(name);
    if (!want) return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->overloads); i++) {
        PyObject *o = PyTuple_GET_ITEM(p->overloads, i);
        if (strcmp(overload_name_of(((CtOpOverloadObject *)o)->schema.op), want) == 0) {
            Py_INCREF(o);
            return o;
        }
    }
    return ctpy_not_implemented("%s.%s", PyUnicode_AsUTF8(p->qualified), want);
}

static PyObject *packet_overloads(PyObject *self, PyObject *unused) {
    (void)unused;
    CtPacketObject *p = (CtPacketObject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(p->overloads);
    PyObject *l = PyList_New(n);
    for (Py_ssize_t i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, PyUnicode_FromString(overload_name_of(((CtOpOverloadObject *)PyTuple_GET_ITEM(p->overloads, i))->schema.op)));
    return l;
}

static PyObject *packet_get_name(PyObject *self, void *c) {
    (void)c;
    const char *q = PyUnicode_AsUTF8(((CtPacketObject *)self)->qualified);
    const char *s = strstr(q, "::");
    return PyUnicode_FromString(s ? s + 2 : q);
}
static PyObject *packet_get_qualified(PyObject *self, void *c) {
    (void)c;
    PyObject *q = ((CtPacketObject *)self)->qualified;
    Py_INCREF(q);
    return q;
}

static PyMethodDef packet_methods[] = {{"overloads", packet_overloads, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static PyObject *packet_get_module(PyObject *self, void *c) {
    (void)c;
    return module_of(PyUnicode_AsUTF8(((CtPacketObject *)self)->qualified));
}

static PyGetSetDef packet_getset[] = {{"__name__", packet_get_name, NULL, NULL, NULL},
                                      {"__module__", packet_get_module, NULL, NULL, NULL},
                                      {"_qualified_op_name", packet_get_qualified, NULL, NULL, NULL},
                                      {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtPacket_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._ops.OpOverloadPacket",
    .tp_basicsize = sizeof(CtPacketObject),
    .tp_dealloc = packet_dealloc,
    .tp_vectorcall_offset = offsetof(CtPacketObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_str = packet_str,
    .tp_repr = packet_repr,
    .tp_getattro = packet_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "All overloads of an operator (torch.ops.aten.addmm).",
    .tp_methods = packet_methods,
    .tp_getset = packet_getset,
};

static PyObject *packet_for(const char *base_name) {
    PyObject *p = PyDict_GetItemString(packet_cache, base_name);
    if (p) {
        Py_INCREF(p);
        return p;
    }
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        if (strcmp(ct_op_base_name(op), base_name) != 0) continue;
        PyObject *o = ctpy_op_overload(op);
        if (!o || PyList_Append(list, o) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    if (PyList_GET_SIZE(list) == 0) {
        Py_DECREF(list);
        return ctpy_not_implemented("operator %s", base_name);
    }
    CtPacketObject *n = PyObject_New(CtPacketObject, &CtPacket_Type);
    if (!n) {
        Py_DECREF(list);
        return NULL;
    }
    n->vectorcall = packet_vectorcall;
    n->qualified = PyUnicode_FromString(base_name);
    n->overloads = PyList_AsTuple(list);
    Py_DECREF(list);
    if (!n->qualified || !n->overloads || PyDict_SetItemString(packet_cache, base_name, (PyObject *)n) < 0) {
        Py_DECREF(n);
        return NULL;
    }
    return (PyObject *)n;
}

PyObject *ctpy_op_packet_of(const ct_op *op) { return packet_for(ct_op_base_name(op)); }

static PyObject *py_op_packet(PyObject *unused, PyObject *arg) {
    (void)unused;
    const char *name = PyUnicode_AsUTF8(arg);
    return name ? packet_for(name) : NULL;
}

/* ---- functions and methods of the torch namespace ---- */

enum {
    FN_FACTORY = 1, /* a torch.* factory: FN_OPTIONS, run below ADInplaceOrView */
    FN_METHOD = 2,  /* a Tensor method (public name torch.Tensor.*) */
    FN_OPTIONS = 4  /* takes TensorOptions (requires_grad=, set on the result; pin_memory=False given) */
};

typedef struct {
    PyObject_HEAD
    PyObject *name;      /* "addmm" */
    PyObject *public_name; /* "torch.addmm", "torch.Tensor.addmm": what messages call it */
    PyObject *cands;     /* tuple of OpOverload */
    PyObject *missing;   /* tuple of str: overloads PyTorch has and ctorch lacks */
    int flags;
    vectorcallfunc vectorcall;
} CtFunctionObject;

static PyObject *function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    CtFunctionObject *f = (CtFunctionObject *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    {
        /* Note [torch functions and function modes]: offered as called, before parsing */
        bool handled;
        const char *pub = PyUnicode_AsUTF8(f->public_name);
        PyObject *r = ctpy_torch_function_vector(self, pub, args, nargs, kwnames, strncmp(pub, "torch.Tensor.", 13) == 0,
                                                 &handled);
        if (handled) return r;
    }
    const char *fname = PyUnicode_AsUTF8(f->name);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int requires_grad = -1;
    PyObject *const *use_args = args;
    PyObject *use_kw = kwnames;
    PyObject *buf[CTPY_MAX_ARGS * 2];
    PyObject *kwtmp = NULL;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kn = PyTuple_GET_ITEM(kwnames, k);
        /* a Tensor method has no out=: the parser refuses it as PyTorch's does */
        if (!(f->flags & FN_METHOD) && PyUnicode_CompareWithASCIIString(kn, "out") == 0)
            return ctpy_not_implemented("the out= argument of %s()", fname);
        if ((f->flags & FN_OPTIONS) && PyUnicode_CompareWithASCIIString(kn, "requires_grad") == 0) {
            PyObject *v = args[nargs + k];
            if (!PyBool_Check(v))
                return PyErr_Format(PyExc_TypeError, "%s(): argument 'requires_grad' must be bool, not %s", fname,
                                    Py_TYPE(v)->tp_name);
            requires_grad = v == Py_True;
            /* drop it: it is not an operator argument */
            if (nargs + nkw > (Py_ssize_t)(sizeof buf / sizeof buf[0])) return PyErr_Format(PyExc_TypeError, "too many arguments");
            kwtmp = PyTuple_New(nkw - 1);
            if (!kwtmp) return NULL;
            Py_ssize_t j = 0;
            for (Py_ssize_t i = 0; i < nargs; i++) buf[i] = args[i];
            for (Py_ssize_t i = 0; i < nkw; i++) {
                if (i == k) continue;
                PyObject *nm = PyTuple_GET_ITEM(kwnames, i);
                Py_INCREF(nm);
                PyTuple_SET_ITEM(kwtmp, j, nm);
                buf[nargs + j] = args[nargs + i];
                j++;
            }
            use_args = buf;
            use_kw = nkw - 1 > 0 ? kwtmp : NULL;
            break;
        }
    }
    /* torch.ones & co. call torch:: factories, which run below ADInplaceOrView
     * (variable_factories.h's AutoDispatchBelowADInplaceOrView): the fills inside leave the new
     * tensor's version at 0. Restored key by key whatever a handler inside leaves entered. */
    static const ct_dispatch_key below[] = {CT_KEY_ADInplaceOrView, CT_KEY_AutogradOther, CT_KEY_AutogradFunctionality,
                                            CT_KEY_AutogradNestedTensor};
    bool was[4];
    bool factory = (f->flags & FN_FACTORY) != 0;
    if (factory) {
        ct_keyset ex = ct_tls_excluded();
        for (int k = 0; k < 4; k++) {
            was[k] = ct_keyset_has(ex, below[k]);
            ct_tls_set_excluded(below[k], true);
        }
    }
    PyObject *r = call_candidates(fname, f->cands, f->missing, use_args, nargs, use_kw, true,
                                  ((f->flags & FN_OPTIONS) ? CTPY_FACTORY_OPTIONS : 0) |
                                      ((f->flags & FN_METHOD) ? CTPY_METHOD : 0));
    if (factory)
        for (int k = 0; k < 4; k++) ct_tls_set_excluded(below[k], was[k]);
    Py_XDECREF(kwtmp);
    if (r && requires_grad == 1) {
        if (ctpy_is_tensor(r) && !ct_dtype_is_floating(ct_tensor_dtype(ctpy_tensor(r)))) {
            Py_DECREF(r);
            return PyErr_Format(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        }
        if (!ctpy_is_tensor(r) || ct_tensor_set_requires_grad(ctpy_tensor(r), true) != 0) {
            Py_DECREF(r);
            return ctpy_is_tensor(r) ? ctpy_raise() : PyErr_Format(PyExc_TypeError, "requires_grad on a non-tensor");
        }
    }
    return r;
}

static void function_dealloc(PyObject *self) {
    CtFunctionObject *f = (CtFunctionObject *)self;
    Py_XDECREF(f->name);
    Py_XDECREF(f->public_name);
    Py_XDECREF(f->cands);
    Py_XDECREF(f->missing);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *function_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
    (void)type;
    if (!obj) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *function_repr(PyObject *self) {
    return PyUnicode_FromFormat("<built-in method %U>", ((CtFunctionObject *)self)->name);
}

static PyObject *function_get_name(PyObject *self, void *c) {
    (void)c;
    PyObject *n = ((CtFunctionObject *)self)->name;
    Py_INCREF(n);
    return n;
}
static PyObject *function_get_overloads(PyObject *self, void *c) {
    (void)c;
    PyObject *n = ((CtFunctionObject *)self)->cands;
    Py_INCREF(n);
    return n;
}

/* PyTorch's __qualname__ for the same function: Tensor methods are TensorBase's, torch.* functions
 * _VariableFunctionsClass's (torch._C._VariableFunctions), others (torch._C._nn.linear) plain */
static PyObject *function_get_qualname(PyObject *self, void *c) {
    (void)c;
    const char *p = PyUnicode_AsUTF8(((CtFunctionObject *)self)->public_name);
    if (!p) return NULL;
    const char *last = strrchr(p, '.');
    last = last ? last + 1 : p;
    if (strncmp(p, "torch.Tensor.", 13) == 0) return PyUnicode_FromFormat("TensorBase.%s", last);
    if (strncmp(p, "torch.", 6) == 0 && !strchr(p + 6, '.')) return PyUnicode_FromFormat("_VariableFunctionsClass.%s", last);
    return PyUnicode_FromString(last);
}

static PyGetSetDef function_getset[] = {{"__name__", function_get_name, NULL, NULL, NULL},
                                        {"__qualname__", function_get_qualname, NULL, NULL, NULL},
                                        {"_overloads", function_get_overloads, NULL, NULL, NULL},
                                        {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._OpFunction",
    .tp_basicsize = sizeof(CtFunctionObject),
    .tp_dealloc = function_dealloc,
    .tp_vectorcall_offset = offsetof(CtFunctionObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = function_repr,
    .tp_descr_get = function_descr_get,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A torch function or Tensor method backed by operators (picked like PyTorch's argument parser).",
    .tp_getset = function_getset,
};

/* _function(name, ("aten::add.Tensor", ...), factory=False, public=None, options=False): overloads
 * that ctorch lacks are remembered, so calling with arguments only they accept raises
 * NotImplementedError. options: a method taking TensorOptions (Tensor.new_empty_strided & co.),
 * which a factory always does. */
static PyObject *py_function(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"name", "overloads", "factory", "public", "options", NULL};
    PyObject *name, *names, *pub = NULL;
    int factory = 0, options = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UO|pUp:_function", kw, &name, &names, &factory, &pub, &options))
        return NULL;
    PyObject *seq = PySequence_Fast(names, "overloads must be a sequence of operator names");
    if (!seq) return NULL;
    PyObject *cands = PyList_New(0), *missing = PyList_New(0);
    CtFunctionObject *f = NULL;
    if (!cands || !missing) goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *s = PySequence_Fast_GET_ITEM(seq, i);
        const char *n = PyUnicode_AsUTF8(s);
        if (!n) goto done;
        const ct_op *op = ct_op_find(n);
        if (!op) {
            ct_error_clear();
            if (PyList_Append(missing, s) < 0) goto done;
            continue;
        }
        PyObject *o = ctpy_op_overload(op);
        if (!o || PyList_Append(cands, o) < 0) goto done;
    }
    f = PyObject_New(CtFunctionObject, &CtFunction_Type);
    if (!f) goto done;
    f->vectorcall = function_vectorcall;
    f->flags = factory ? FN_FACTORY | FN_OPTIONS : options ? FN_OPTIONS : 0;
    Py_INCREF(name);
    f->name = name;
    f->public_name = pub ? (Py_INCREF(pub), pub) : PyUnicode_FromFormat("torch.%U", name);
    if (pub && strncmp(PyUnicode_AsUTF8(pub), "torch.Tensor.", 13) == 0) f->flags |= FN_METHOD;
    f->cands = PyList_AsTuple(cands);
    f->missing = PyList_AsTuple(missing);
    if (!f->cands || !f->missing || !f->public_name) Py_CLEAR(f);
done:
    Py_DECREF(seq);
    Py_XDECREF(cands);
    Py_XDECREF(missing);
    return (PyObject *)f;
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

static PyMethodDef ops_functions[] = {
    {"_op_overload", py_op_overload, METH_O, "The OpOverload for 'aten::add.Tensor'."},
    {"_op_packet", py_op_packet, METH_O, "The OpOverloadPacket for 'aten::add'."},
    {"_function", (PyCFunction)(void (*)(void))py_function, METH_VARARGS | METH_KEYWORDS,
     "A torch function / Tensor method from operator overloads."},
    {"_set_schema_factory", py_set_schema_factory, METH_O, NULL},
    {"_op_names", py_op_names, METH_NOARGS, "Every operator's qualified name."},
    {NULL, NULL, 0, NULL}};

int ctpy_ops_init(PyObject *m) {
    if (PyType_Ready(&CtScriptObject_Type) < 0 || PyType_Ready(&CtClassType_Type) < 0 || PyType_Ready(&CtOpOverload_Type) < 0 ||
        PyType_Ready(&CtPacket_Type) < 0 || PyType_Ready(&CtFunction_Type) < 0)
        return -1;
    op_cache = PyDict_New();
    packet_cache = PyDict_New();
    if (!op_cache || !packet_cache) return -1;
    Py_INCREF(&CtOpOverload_Type);
    if (PyModule_AddObject(m, "OpOverload", (PyObject *)&CtOpOverload_Type) < 0) return -1;
    Py_INCREF(&CtPacket_Type);
    if (PyModule_AddObject(m, "OpOverloadPacket", (PyObject *)&CtPacket_Type) < 0) return -1;
    Py_INCREF(&CtScriptObject_Type);
    if (PyModule_AddObject(m, "ScriptObject", (PyObject *)&CtScriptObject_Type) < 0) return -1;
    Py_INCREF(&CtClassType_Type);
    if (PyModule_AddObject(m, "ClassType", (PyObject *)&CtClassType_Type) < 0) return -1;
    return ctpy_add_functions(m, ops_functions);
}
