/* The operators' Python names, made from the generated table (bindings.h) at import:
 * torch._C._VariableFunctions (the torch functions the package's torch namespace takes),
 * torch._C._nn (what torch.nn.functional is or calls), the operator methods of
 * torch._C.TensorBase, and the operators Tensor's number protocol calls (ctpy_dunder_ops).
 * Each name gets one function object holding its overloads in ops.def's order (a Tensor overload
 * before the Scalar one it would otherwise shadow, sort_overloads) and the names of those ctorch
 * lacks (op_function.c). */
#include <string.h>

#include "bindings.h"
#include "ctpy.h"

/* The places a name can be bound, with what a function there is called in messages. */
static const struct {
    unsigned bind;
    const char *prefix; /* public name = prefix + name */
} places[] = {{CTPY_BIND_FUNCTION, "torch."}, {CTPY_BIND_METHOD, "torch.Tensor."}, {CTPY_BIND_NN, "torch.nn."}};

/* gen_python_functions.py's sort_overloads: where two overloads take as many arguments and
 * differ only where one takes a Scalar (or an int) and the other a Tensor, the Tensor one is
 * tried first, so a 0-dim tensor reaches masked_fill.Tensor rather than masked_fill.Scalar.
 * Overloads the relation does not order keep ops.def's order. */
static bool arg_smaller(const ct_arg_info *a, const ct_arg_info *b) {
    if (b->kind != CT_ARG_TENSOR || a->optional != b->optional) return false;
    return a->kind == CT_ARG_SCALAR || (!a->optional && a->kind == CT_ARG_INT);
}

static bool overload_smaller(PyObject *x, PyObject *y) {
    const ctpy_schema *s1 = &((CtOpOverloadObject *)x)->schema, *s2 = &((CtOpOverloadObject *)y)->schema;
    if (s1->nargs != s2->nargs) return false;
    bool equal = true;
    for (int i = 0; i < s1->nargs; i++) {
        const ct_arg_info *a = &s1->args[i], *b = &s2->args[i];
        bool same = a->kind == b->kind && a->optional == b->optional;
        if (!same && !arg_smaller(a, b)) return false;
        equal = equal && same;
    }
    return !equal;
}

static void sort_overloads(PyObject *list) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (int pass = 0; pass < 8; pass++) {
        bool moved = false;
        for (Py_ssize_t i = 0; i < n; i++)
            for (Py_ssize_t j = i + 1; j < n; j++)
                if (overload_smaller(PyList_GET_ITEM(list, i), PyList_GET_ITEM(list, j))) {
                    PyObject *y = PyList_GET_ITEM(list, j);
                    for (Py_ssize_t k = j; k > i; k--) PyList_SET_ITEM(list, k, PyList_GET_ITEM(list, k - 1));
                    PyList_SET_ITEM(list, i, y);
                    moved = true;
                }
        if (!moved) break;
    }
}

/* The function object of every name bound in `place`, by the first row naming it. */
static int bind_place(int place, PyObject *into_dict) {
    unsigned bind = places[place].bind;
    PyObject *cands = PyDict_New(), *missing = PyDict_New(), *options = PyDict_New(), *order = PyList_New(0);
    int rc = -1;
    if (!cands || !missing || !options || !order) goto done;
    for (const ctpy_binding *b = ctpy_bindings; b->name; b++) {
        if (!(b->flags & bind) || (b->flags & CTPY_BIND_DUNDER)) continue;
        PyObject *c = PyDict_GetItemString(cands, b->name);
        if (!c) {
            PyObject *name = PyUnicode_FromString(b->name);
            PyObject *lc = PyList_New(0), *lm = PyList_New(0);
            int bad = !name || !lc || !lm || PyDict_SetItem(cands, name, lc) < 0 || PyDict_SetItem(missing, name, lm) < 0 ||
                      PyDict_SetItem(options, name, Py_False) < 0 || PyList_Append(order, name) < 0;
            Py_XDECREF(name);
            Py_XDECREF(lc);
            Py_XDECREF(lm);
            if (bad) goto done;
            c = PyDict_GetItemString(cands, b->name);
        }
        if (b->flags & CTPY_BIND_OPTIONS && PyDict_SetItemString(options, b->name, Py_True) < 0) goto done;
        if (b->flags & CTPY_BIND_LACKING) {
            PyObject *s = PyUnicode_FromString(b->op);
            int bad = !s || PyList_Append(PyDict_GetItemString(missing, b->name), s) < 0;
            Py_XDECREF(s);
            if (bad) goto done;
            continue;
        }
        const ct_op *op = ct_op_find(b->op);
        if (!op) {
            ct_error_clear();
            PyErr_Format(PyExc_SystemError, "ctorch._C: the Python bindings name %s, which the library does not define",
                         b->op);
            goto done;
        }
        PyObject *o = ctpy_op_overload(op);
        if (!o || PyList_Append(c, o) < 0) goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(order); i++) {
        PyObject *name = PyList_GET_ITEM(order, i);
        int flags = PyDict_GetItem(options, name) == Py_True ? CTPY_FN_OPTIONS : 0;
        if (bind == CTPY_BIND_FUNCTION && flags) flags |= CTPY_FN_FACTORY;
        if (bind == CTPY_BIND_METHOD) flags |= CTPY_FN_METHOD;
        sort_overloads(PyDict_GetItem(cands, name));
        PyObject *pub = PyUnicode_FromFormat("%s%U", places[place].prefix, name);
        PyObject *f = pub ? ctpy_function_new(name, pub, PyDict_GetItem(cands, name), PyDict_GetItem(missing, name), flags)
                          : NULL;
        Py_XDECREF(pub);
        if (!f) goto done;
        /* a Tensor method of the C part (item, size, ...) keeps its name: ops.def binds no method there */
        if (PyDict_Contains(into_dict, name) != 0) {
            Py_DECREF(f);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_SystemError, "ctorch._C: %s%U is bound twice (src/ops/ops.def and the extension)",
                             places[place].prefix, name);
            goto done;
        }
        int bad = PyDict_SetItem(into_dict, name, f) < 0;
        Py_DECREF(f);
        if (bad) goto done;
    }
    rc = 0;
done:
    Py_XDECREF(cands);
    Py_XDECREF(missing);
    Py_XDECREF(options);
    Py_XDECREF(order);
    return rc;
}

static PyObject *place_dicts[3]; /* each place's names -> functions (borrowed from the module or type) */

PyObject *ctpy_bound_function(unsigned place, const char *name) {
    for (int i = 0; i < 3; i++)
        if (places[i].bind == place && place_dicts[i]) return PyDict_GetItemString(place_dicts[i], name);
    return NULL;
}

int ctpy_dunder_ops(const char *dunder, const ct_op **ops, int max) {
    int n = 0;
    for (const ctpy_binding *b = ctpy_bindings; b->name; b++) {
        if (!(b->flags & CTPY_BIND_DUNDER) || strcmp(b->name, dunder) != 0) continue;
        const ct_op *op = ct_op_find(b->op);
        if (!op) return -1;
        if (n < max) ops[n] = op;
        n++;
    }
    return n;
}

/* torch._C._bindings(): (name, overload, (place, ...)) for every row, as ops.def gives them */
static PyObject *py_bindings(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    static const struct {
        unsigned bit;
        const char *word;
    } words[] = {{CTPY_BIND_FUNCTION, "function"}, {CTPY_BIND_METHOD, "method"}, {CTPY_BIND_NN, "nn"},
                 {CTPY_BIND_DUNDER, "dunder"},     {CTPY_BIND_OPTIONS, "options"}, {CTPY_BIND_LACKING, "lacking"}};
    PyObject *l = PyList_New(0);
    for (const ctpy_binding *b = ctpy_bindings; l && b->name; b++) {
        PyObject *w = PyList_New(0);
        for (size_t k = 0; w && k < sizeof words / sizeof words[0]; k++) {
            if (!(b->flags & words[k].bit)) continue;
            PyObject *s = PyUnicode_FromString(words[k].word);
            if (!s || PyList_Append(w, s) < 0) Py_CLEAR(w);
            Py_XDECREF(s);
        }
        PyObject *item = w ? Py_BuildValue("(ssN)", b->name, b->op, PyList_AsTuple(w)) : NULL;
        Py_XDECREF(w);
        if (!item || PyList_Append(l, item) < 0) Py_CLEAR(l);
        Py_XDECREF(item);
    }
    return l;
}

static PyMethodDef bindings_functions[] = {
    {"_bindings", py_bindings, METH_NOARGS, "The Python bindings src/ops/ops.def gives: (name, overload, places)."},
    {NULL, NULL, 0, NULL}};

int ctpy_bindings_init(PyObject *m) {
    PyObject *vf = PyModule_New("torch._C._VariableFunctions"), *nn = PyModule_New("torch._C._nn");
    if (!vf || !nn || bind_place(0, PyModule_GetDict(vf)) < 0 || bind_place(2, PyModule_GetDict(nn)) < 0 ||
        bind_place(1, CtTensorBase_Type.tp_dict) < 0) {
        Py_XDECREF(vf);
        Py_XDECREF(nn);
        return -1;
    }
    PyType_Modified(&CtTensorBase_Type);
    place_dicts[0] = PyModule_GetDict(vf);
    place_dicts[1] = CtTensorBase_Type.tp_dict;
    place_dicts[2] = PyModule_GetDict(nn);
    if (PyModule_AddObject(m, "_VariableFunctions", vf) < 0) {
        Py_DECREF(vf);
        Py_DECREF(nn);
        return -1;
    }
    if (PyModule_AddObject(m, "_nn", nn) < 0) {
        Py_DECREF(nn);
        return -1;
    }
    return ctpy_add_functions(m, bindings_functions);
}
