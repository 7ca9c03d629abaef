/* torch.autograd.backward from Python: one graph task over the roots and the gradients the
 * package made for them. */
#include "ctpy.h"

/* torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None) */
static PyObject *py_autograd_backward(PyObject *unused, PyObject *args, PyObject *kwargs) {
    (void)unused;
    static char *kw[] = {"tensors", "grad_tensors", "retain_graph", NULL};
    PyObject *tensors, *grads = Py_None, *retain = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:backward", kw, &tensors, &grads, &retain)) return NULL;
    PyObject *ts = PySequence_Fast(tensors, "tensors must be a sequence of Tensors");
    if (!ts) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
    PyObject *gs = grads == Py_None ? NULL : PySequence_Fast(grads, "grad_tensors must be a sequence");
    if (grads != Py_None && (!gs || PySequence_Fast_GET_SIZE(gs) != n)) {
        Py_DECREF(ts);
        Py_XDECREF(gs);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "grad_tensors must have one entry per tensor");
        return NULL;
    }
    ct_tensor **tv = PyMem_Calloc((size_t)n + 1, sizeof *tv), **gv = PyMem_Calloc((size_t)n + 1, sizeof *gv);
    PyObject *result = NULL;
    if (!tv || !gv) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(tv[i] = ctpy_tensor_arg(PySequence_Fast_GET_ITEM(ts, i), "backward(): tensors[i]"))) goto done;
        PyObject *g = gs ? PySequence_Fast_GET_ITEM(gs, i) : Py_None;
        if (g != Py_None && !(gv[i] = ctpy_tensor_arg(g, "backward(): grad_tensors[i]"))) goto done;
    }
    int rg = retain == Py_None ? 0 : PyObject_IsTrue(retain);
    if (rg < 0) goto done;
    if (ct_autograd_backward(tv, gv, (size_t)n, rg != 0) != 0) {
        ctpy_raise();
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(tv);
    PyMem_Free(gv);
    Py_DECREF(ts);
    Py_XDECREF(gs);
    return result;
}

static PyMethodDef autograd_functions[] = {
    {"_autograd_backward", (PyCFunction)(void (*)(void))py_autograd_backward, METH_VARARGS | METH_KEYWORDS,
     "torch.autograd.backward"},
    {NULL, NULL, 0, NULL}};

int ctpy_autograd_init(PyObject *m) { return ctpy_add_functions(m, autograd_functions); }
