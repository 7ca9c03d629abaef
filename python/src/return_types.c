/* torch.return_types: the named tuples the Python bindings return for operators whose returns
 * are named in the schema (max.dim's (Tensor values, Tensor indices) is torch.return_types.max),
 * made once per base name as PyTorch's structseq types are, with PyTorch's repr (one field a
 * line). Calls through torch.ops return plain tuples, as PyTorch's do. */
#include <string.h>

#include "ctpy.h"

#include <structmember.h>

#define MAX_RETURN_TYPES 64

static struct {
    char *base, *qualified; /* the type's name points into qualified, kept for the process */
    PyTypeObject *type;
} types[MAX_RETURN_TYPES];
static int ntypes;

/* returned_structseq_repr: "torch.return_types.max(\nvalues=...,\nindices=...)" */
static PyObject *structseq_repr(PyObject *self) {
    PyTypeObject *t = Py_TYPE(self);
    PyObject *out = PyUnicode_FromFormat("%s(\n", t->tp_name);
    Py_ssize_t n = PyTuple_GET_SIZE(self);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *r = PyObject_Repr(PyTuple_GET_ITEM(self, i));
        PyObject *part = r ? PyUnicode_FromFormat("%s=%U%s", t->tp_members[i].name, r, i < n - 1 ? ",\n" : ")") : NULL;
        Py_XDECREF(r);
        PyObject *joined = part ? PyUnicode_Concat(out, part) : NULL;
        Py_XDECREF(part);
        Py_DECREF(out);
        out = joined;
    }
    return out;
}

/* the base name of "aten::max.dim": "max" (a new string, or NULL) */
static char *base_name(const char *qualified) {
    const char *s = strstr(qualified, "::");
    s = s ? s + 2 : qualified;
    size_t len = strcspn(s, ".");
    char *b = PyMem_Malloc(len + 1);
    if (!b) return NULL;
    memcpy(b, s, len);
    b[len] = '\0';
    return b;
}

/* whether op returns more than one value, every one named */
static bool named_returns(const ct_op *op) {
    int n = ct_op_num_returns(op);
    if (n < 2) return false;
    for (int i = 0; i < n; i++) {
        ct_arg_info info;
        if (ct_op_return_info(op, i, &info) != 0 || !info.name || !info.name[0]) return false;
    }
    return true;
}

/* the type for op's base name (borrowed), made on first use; NULL with an exception set */
static PyTypeObject *type_for(const ct_op *op) {
    char *base = base_name(ct_op_name(op));
    if (!base) return (PyTypeObject *)PyErr_NoMemory();
    for (int i = 0; i < ntypes; i++)
        if (strcmp(types[i].base, base) == 0) {
            PyMem_Free(base);
            return types[i].type;
        }
    if (ntypes == MAX_RETURN_TYPES) {
        PyMem_Free(base);
        PyErr_SetString(PyExc_RuntimeError, "ctorch: too many torch.return_types");
        return NULL;
    }
    int n = ct_op_num_returns(op);
    /* the descriptor is read while the type is made; the name stays (tp_name points into it) */
    PyStructSequence_Field *fields = PyMem_Calloc((size_t)n + 1, sizeof *fields);
    PyStructSequence_Desc *desc = PyMem_Calloc(1, sizeof *desc);
    char *qual = PyMem_Malloc(strlen(base) + sizeof "torch.return_types.");
    if (!fields || !desc || !qual) {
        PyMem_Free(fields);
        PyMem_Free(desc);
        PyMem_Free(qual);
        PyMem_Free(base);
        return (PyTypeObject *)PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        ct_arg_info info;
        ct_op_return_info(op, i, &info);
        fields[i].name = info.name;
    }
    strcpy(qual, "torch.return_types.");
    strcat(qual, base);
    desc->name = qual;
    desc->fields = fields;
    desc->n_in_sequence = n;
    PyTypeObject *t = PyStructSequence_NewType(desc);
    PyMem_Free(fields);
    PyMem_Free(desc);
    if (!t) {
        PyMem_Free(qual);
        PyMem_Free(base);
        return NULL;
    }
    t->tp_repr = structseq_repr;
    PyType_Modified(t);
    types[ntypes].base = base;
    types[ntypes].qualified = qual;
    types[ntypes++].type = t;
    return t;
}

PyObject *ctpy_named_rets(const ct_op *op, PyObject *res) {
    if (!res || !PyTuple_Check(res) || !named_returns(op)) return res;
    PyTypeObject *t = type_for(op);
    PyObject *r = t ? PyStructSequence_New(t) : NULL;
    if (!r) {
        Py_DECREF(res);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(res); i++) {
        PyObject *v = PyTuple_GET_ITEM(res, i);
        Py_INCREF(v);
        PyStructSequence_SET_ITEM(r, i, v);
    }
    Py_DECREF(res);
    return r;
}

/* _return_type(name): torch.return_types.<name>, from the first operator of that base name with
 * named returns */
static PyObject *py_return_type(PyObject *unused, PyObject *name) {
    (void)unused;
    const char *want = PyUnicode_AsUTF8(name);
    if (!want) return NULL;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        if (!named_returns(op)) continue;
        char *base = base_name(ct_op_name(op));
        bool same = base && strcmp(base, want) == 0;
        PyMem_Free(base);
        if (!same) continue;
        PyTypeObject *t = type_for(op);
        if (!t) return NULL;
        Py_INCREF(t);
        return (PyObject *)t;
    }
    PyErr_Format(PyExc_AttributeError, "module 'torch.return_types' has no attribute '%s'", want);
    return NULL;
}

static PyMethodDef return_type_functions[] = {
    {"_return_type", py_return_type, METH_O, "torch.return_types.<name>."},
    {NULL, NULL, 0, NULL}};

int ctpy_return_types_init(PyObject *m) { return ctpy_add_functions(m, return_type_functions); }
