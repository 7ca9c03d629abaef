/* Offering Tensor's own methods, slots and properties to the __torch_function__ protocol
 * (Note [torch functions and function modes] in torch_function.c): `func` is the public object
 * PyTorch passes, torch.Tensor.<name>, TensorBase.<slot> or a property's __get__ / __set__. */
#include <stdio.h>

#include "ctpy.h"

static PyObject *tf_cache; /* "<kind>:<name>" -> the func object */

static PyObject *tf_func(int kind, const char *name) {
    PyObject *key = PyUnicode_FromFormat("%d:%s", kind, name);
    if (!key) return NULL;
    PyObject *f = PyDict_GetItemWithError(tf_cache, key);
    if (f || PyErr_Occurred()) {
        Py_DECREF(key);
        return f;
    }
    if (kind == CTPY_TF_CLASS) {
        f = ctpy_tensor_class ? PyObject_GetAttrString((PyObject *)ctpy_tensor_class, name) : NULL;
        if (!f) {
            /* a method the class lacks: its slot stands for it */
            PyErr_Clear();
            f = PyObject_GetAttrString((PyObject *)&CtTensorBase_Type, name);
        }
    } else if (kind == CTPY_TF_BASE) {
        f = PyObject_GetAttrString((PyObject *)&CtTensorBase_Type, name);
    } else {
        PyObject *descr = PyDict_GetItemString(CtTensorBase_Type.tp_dict, name);
        f = descr ? PyObject_GetAttrString(descr, kind == CTPY_TF_GET ? "__get__" : "__set__")
                  : PyErr_Format(PyExc_AttributeError, "TensorBase has no property %s", name);
    }
    if (f && PyDict_SetItem(tf_cache, key, f) < 0) Py_CLEAR(f);
    Py_XDECREF(f); /* the cache holds it */
    Py_DECREF(key);
    return f;
}

PyObject *ctpy_tensor_torch_function_tuple(int kind, const char *name, PyObject *self, PyObject *args, PyObject *kwargs,
                                           bool *handled) {
    *handled = false;
    PyObject *func = tf_func(kind, name);
    if (!func) {
        *handled = true;
        return NULL;
    }
    Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
    PyObject *all = PyTuple_New(n + 1);
    if (!all) {
        *handled = true;
        return NULL;
    }
    Py_INCREF(self);
    PyTuple_SET_ITEM(all, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(args, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(all, i + 1, x);
    }
    char pub[128];
    snprintf(pub, sizeof pub, "torch.Tensor.%s", name);
    bool unary = n == 0 && (!kwargs || PyDict_GET_SIZE(kwargs) == 0);
    PyObject *r = ctpy_torch_function(func, pub, all, kwargs, unary, handled);
    Py_DECREF(all);
    return r;
}

PyObject *ctpy_tensor_torch_function(int kind, const char *name, PyObject *self, PyObject *const *rest, Py_ssize_t nrest,
                                     PyObject *kwnames, bool *handled) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *args = PyTuple_New(nrest);
    PyObject *kwargs = nkw ? PyDict_New() : NULL;
    if (!args || (nkw && !kwargs)) goto fail;
    for (Py_ssize_t i = 0; i < nrest; i++) {
        Py_INCREF(rest[i]);
        PyTuple_SET_ITEM(args, i, rest[i]);
    }
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, k), rest[nrest + k]) < 0) goto fail;
    PyObject *r = ctpy_tensor_torch_function_tuple(kind, name, self, args, kwargs, handled);
    Py_DECREF(args);
    Py_XDECREF(kwargs);
    return r;
fail:
    *handled = true;
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    return NULL;
}

int ctpy_tensor_torch_function_init(void) {
    tf_cache = PyDict_New();
    return tf_cache ? 0 : -1;
}
