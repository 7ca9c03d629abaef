/* The dispatcher's introspection: torch._C._dispatch_dump (an operator's schema and
 * registrations) and _dispatch_dump_table (its computed table), as PyTorch prints them. */
#include "ctpy.h"

static PyObject *dump(PyObject *arg, char *(*fn)(const ct_op *)) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const ct_op *op = ct_op_find(name);
    if (!op) {
        /* _dispatch_dump of an operator nobody registered: nothing to show */
        ct_error_clear();
        return PyUnicode_FromString("");
    }
    char *s = fn(op);
    if (!s) return ctpy_raise();
    PyObject *r = PyUnicode_FromString(s);
    ct_free(s);
    return r;
}
static PyObject *py_dispatch_dump(PyObject *unused, PyObject *arg) {
    (void)unused;
    return dump(arg, ct_op_dump);
}
static PyObject *py_dispatch_dump_table(PyObject *unused, PyObject *arg) {
    (void)unused;
    return dump(arg, ct_op_dump_table);
}

static PyMethodDef dump_functions[] = {
    {"_dispatch_dump", py_dispatch_dump, METH_O, "An operator's schema and registrations."},
    {"_dispatch_dump_table", py_dispatch_dump_table, METH_O, "An operator's computed dispatch table."},
    {NULL, NULL, 0, NULL}};

int ctpy_dispatch_dump_init(PyObject *m) { return ctpy_add_functions(m, dump_functions); }
