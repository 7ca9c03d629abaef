/* TensorBase.__init_subclass__: what a Python subclass of torch.Tensor gets, the object's own
 * slots (tensor.c) and, for one with a __torch_dispatch__ of its own that keeps Tensor's default
 * __torch_function__, _disabled_torch_function_impl, as PyTorch's tensor metaclass gives it. */
#include "ctpy.h"

/* The function a class's __torch_function__ runs: a classmethod's __func__, or the attribute
 * itself. A new reference, or NULL with the error set. */
static PyObject *torch_function_func(PyObject *cls) {
    PyObject *impl = PyObject_GetAttrString(cls, "__torch_function__");
    if (!impl) return NULL;
    PyObject *func = PyObject_GetAttrString(impl, "__func__");
    if (func) {
        Py_DECREF(impl);
        return func;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
        Py_DECREF(impl);
        return NULL;
    }
    PyErr_Clear(); /* not a method */
    return impl;
}

/* As PyTorch's Tensor metaclass does when it makes a subclass: one with its own
 * __torch_dispatch__ that keeps Tensor's default __torch_function__ gets
 * _disabled_torch_function_impl instead, so its torch functions go straight to the dispatcher
 * (and what its __torch_dispatch__ returns is not rewrapped into the class). */
static int disable_default_torch_function(PyObject *cls) {
    if (!ctpy_tensor_class) return 0; /* Tensor itself */
    PyObject *dispatch = PyObject_GetAttrString(cls, "__torch_dispatch__");
    if (!dispatch) return -1;
    PyObject *dispatch_default = PyObject_GetAttrString((PyObject *)ctpy_tensor_class, "__torch_dispatch__");
    if (!dispatch_default) {
        Py_DECREF(dispatch);
        return -1;
    }
    int own_dispatch = PyObject_RichCompareBool(dispatch, dispatch_default, Py_EQ);
    Py_DECREF(dispatch);
    Py_DECREF(dispatch_default);
    if (own_dispatch < 0) return -1;
    if (own_dispatch) return 0; /* the same: no __torch_dispatch__ of its own */
    PyObject *mine = torch_function_func(cls);
    if (!mine) return -1;
    PyObject *base = torch_function_func((PyObject *)ctpy_tensor_class);
    if (!base) {
        Py_DECREF(mine);
        return -1;
    }
    bool same = mine == base;
    Py_DECREF(mine);
    Py_DECREF(base);
    if (!same) return 0;
    return PyObject_SetAttrString(cls, "__torch_function__", ctpy_disabled_torch_function);
}

PyObject *ctpy_tensor_init_subclass(PyObject *cls, PyObject *args, PyObject *kwargs) {
    (void)args;
    PyTypeObject *t = (PyTypeObject *)cls;
    /* keywords of a class statement reach object.__init_subclass__ in PyTorch, which takes none */
    if (kwargs && PyDict_GET_SIZE(kwargs) > 0)
        return PyErr_Format(PyExc_TypeError, "%s.__init_subclass__() takes no keyword arguments", t->tp_name);
    ctpy_tensor_adopt_subclass(t);
    if (disable_default_torch_function(cls) < 0) return NULL;
    Py_RETURN_NONE;
}
