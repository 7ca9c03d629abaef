/* The runtime's settings and counters as torch._C shows them: the thread count, the CPU
 * capability the kernels run at, the trace level, the live objects (for the tests), and the
 * versions. */
#include <limits.h>

#include "build_info.h"
#include "ctorch/parallel.h"
#include "ctpy.h"

static PyObject *py_set_num_threads(PyObject *unused, PyObject *arg) {
    (void)unused;
    if (!PyLong_Check(arg) || PyBool_Check(arg)) /* THPUtils_checkLong, then its RuntimeError */
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s", Py_TYPE(arg)->tp_name);
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n <= 0 || n > INT_MAX) return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects a positive integer");
    ct_set_num_threads((int)n); /* the intra-op threads of ctorch's kernels (ctorch/parallel.h) */
    Py_RETURN_NONE;
}
static PyObject *py_get_num_threads(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_get_num_threads());
}

static PyObject *py_live_tensors(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return Py_BuildValue("(LLL)", (long long)ct_testing_live_tensors(), (long long)ct_testing_live_storages(),
                         (long long)ct_testing_live_nodes());
}

static PyObject *py_trace_level(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyLong_FromLong(ct_trace_print_level());
}

static PyObject *py_get_cpu_capability(PyObject *unused, PyObject *noargs) {
    (void)unused;
    (void)noargs;
    return PyUnicode_FromString(ct_backends_cpu_capability());
}

static PyMethodDef runtime_functions[] = {
    {"set_num_threads", py_set_num_threads, METH_O, NULL},
    {"get_num_threads", py_get_num_threads, METH_NOARGS, NULL},
    {"_live_tensors", py_live_tensors, METH_NOARGS, "(live tensors, storages, autograd nodes) in ctorch"},
    {"_trace_print_level", py_trace_level, METH_NOARGS, "CTORCH_SHOW_DISPATCH_TRACE's level (0, 1, 2)"},
    {"_get_cpu_capability", py_get_cpu_capability, METH_NOARGS, "torch.backends.cpu.get_cpu_capability()"},
    {NULL, NULL, 0, NULL}};

int ctpy_runtime_init(PyObject *m) {
    if (PyModule_AddStringConstant(m, "_pytorch_version", CTORCH_PYTORCH_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "_ctorch_version", CTORCH_VERSION_STRING) < 0)
        return -1;
    return ctpy_add_functions(m, runtime_functions);
}
