/* F.cross_entropy, torch.nn.utils.clip_grad_norm_ and torch.optim's updates: the package's
 * functions and classes hand their tensors to ctorch's own implementations (include/ctorch/nn.h, include/ctorch/optim.h), so the gradients
 * are clipped and the parameters updated by the same C code a C program runs. */
#include "ctpy.h"
#include "ctorch/optim.h"

#define CTPY_OPTIMIZER_CAPSULE "ctorch.optimizer"

/* A list or tuple of tensors as a ct_tensor array (borrowed; *out freed with PyMem_Free). */
static int tensor_array(PyObject *seq, const char *what, ct_tensor ***out, int *n) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    ct_tensor **v = PyMem_Malloc((size_t)(len > 0 ? len : 1) * sizeof *v);
    if (!v) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
        if (!ctpy_is_tensor(o)) {
            PyErr_Format(PyExc_TypeError, "%s: expected Tensors, got %s", what, Py_TYPE(o)->tp_name);
            PyMem_Free(v);
            Py_DECREF(fast);
            return -1;
        }
        v[i] = ctpy_tensor(o);
    }
    Py_DECREF(fast); /* the caller's sequence keeps the tensors alive */
    *out = v;
    *n = (int)len;
    return 0;
}

/* _clip_grad_norm_(params, max_norm, norm_type, error_if_nonfinite) -> total norm */
static PyObject *py_clip_grad_norm(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *params;
    double max_norm, norm_type;
    int error_if_nonfinite;
    if (!PyArg_ParseTuple(args, "Oddp:_clip_grad_norm_", &params, &max_norm, &norm_type, &error_if_nonfinite)) return NULL;
    ct_tensor **v;
    int n;
    if (tensor_array(params, "clip_grad_norm_", &v, &n) != 0) return NULL;
    ct_tensor *total = ct_nn_clip_grad_norm_(v, n, max_norm, norm_type, error_if_nonfinite != 0);
    PyMem_Free(v);
    return ctpy_wrap(total);
}

static void optimizer_capsule_free(PyObject *cap) {
    ct_optimizer_free(PyCapsule_GetPointer(cap, CTPY_OPTIMIZER_CAPSULE));
}

/* _adamw_new(groups, defaults): groups is a list of (params, lr, beta1, beta2, eps,
 * weight_decay, amsgrad, maximize); defaults the constructor's options in the same order
 * (without params). Returns the optimizer as a capsule. */
static int adamw_options(PyObject *t, ct_adamw_options *o) {
    int amsgrad, maximize;
    if (!PyArg_ParseTuple(t, "dddddpp:AdamW options", &o->lr, &o->beta1, &o->beta2, &o->eps, &o->weight_decay, &amsgrad,
                          &maximize))
        return -1;
    o->amsgrad = amsgrad != 0;
    o->maximize = maximize != 0;
    return 0;
}

static PyObject *py_adamw_new(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *groups, *defaults;
    if (!PyArg_ParseTuple(args, "O!O!:_adamw_new", &PyList_Type, &groups, &PyTuple_Type, &defaults)) return NULL;
    ct_adamw_options dflt;
    if (adamw_options(defaults, &dflt) != 0) return NULL;
    Py_ssize_t ng = PyList_GET_SIZE(groups);
    ct_adamw_group *g = PyMem_Calloc((size_t)(ng > 0 ? ng : 1), sizeof *g);
    if (!g) return PyErr_NoMemory();
    PyObject *res = NULL;
    Py_ssize_t made = 0;
    for (; made < ng; made++) {
        PyObject *item = PyList_GET_ITEM(groups, made);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 8) {
            PyErr_SetString(PyExc_TypeError, "_adamw_new: a group is (params, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize)");
            goto done;
        }
        PyObject *opts = PyTuple_GetSlice(item, 1, 8);
        int rc = opts ? adamw_options(opts, &g[made].options) : -1;
        Py_XDECREF(opts);
        if (rc != 0) goto done;
        ct_tensor **v;
        if (tensor_array(PyTuple_GET_ITEM(item, 0), "AdamW", &v, &g[made].n) != 0) goto done;
        g[made].params = v;
    }
    ct_optimizer *opt = ct_adamw_new_groups(g, (int)ng, dflt);
    if (!opt) {
        ctpy_raise();
        goto done;
    }
    res = PyCapsule_New(opt, CTPY_OPTIMIZER_CAPSULE, optimizer_capsule_free);
    if (!res) ct_optimizer_free(opt);
done:
    for (Py_ssize_t i = 0; i < made; i++) PyMem_Free((void *)g[i].params);
    PyMem_Free(g);
    return res;
}

static ct_optimizer *optimizer_of(PyObject *cap) {
    return PyCapsule_GetPointer(cap, CTPY_OPTIMIZER_CAPSULE);
}

static PyObject *py_optimizer_step(PyObject *unused, PyObject *cap) {
    (void)unused;
    ct_optimizer *opt = optimizer_of(cap);
    if (!opt) return NULL;
    if (ct_optimizer_step(opt) != 0) return ctpy_raise();
    Py_RETURN_NONE;
}

static PyObject *py_optimizer_zero_grad(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *cap;
    int set_to_none;
    if (!PyArg_ParseTuple(args, "Op:_optimizer_zero_grad", &cap, &set_to_none)) return NULL;
    ct_optimizer *opt = optimizer_of(cap);
    if (!opt) return NULL;
    if (ct_optimizer_zero_grad(opt, set_to_none != 0) != 0) return ctpy_raise();
    Py_RETURN_NONE;
}

/* A Python number as the value PyTorch's update passes on: an int stays an int (a bool is one). */
static int sgd_number(PyObject *v, ct_scalar *out) {
    if (PyLong_Check(v)) {
        int overflow;
        long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow) {
            if (i == -1 && PyErr_Occurred()) return -1;
            *out = ct_int(i);
            return 0;
        }
    }
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    *out = ct_double(d);
    return 0;
}

/* _sgd(params, grads, momentum_buffers, lr, momentum, dampening, weight_decay, nesterov,
 * maximize): one group's SGD update by the C optimizer's code (ct_sgd_update). momentum_buffers
 * is the group's state["momentum_buffer"] list (None where a parameter has none yet; empty
 * without momentum); returns that list with the new buffers in it. */
static PyObject *py_sgd(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *params, *grads, *bufs, *lr, *momentum, *dampening, *weight_decay;
    ct_sgd_numbers o;
    int nesterov, maximize;
    if (!PyArg_ParseTuple(args, "O!O!O!OOOOpp:_sgd", &PyList_Type, &params, &PyList_Type, &grads, &PyList_Type, &bufs,
                          &lr, &momentum, &dampening, &weight_decay, &nesterov, &maximize))
        return NULL;
    if (sgd_number(lr, &o.lr) != 0 || sgd_number(momentum, &o.momentum) != 0 || sgd_number(dampening, &o.dampening) != 0 ||
        sgd_number(weight_decay, &o.weight_decay) != 0)
        return NULL;
    o.nesterov = nesterov != 0;
    o.maximize = maximize != 0;
    Py_ssize_t n = PyList_GET_SIZE(params);
    bool with_bufs = PyObject_IsTrue(momentum) == 1; /* momentum != 0 */
    if (PyList_GET_SIZE(grads) != n || (with_bufs && PyList_GET_SIZE(bufs) != n))
        return PyErr_Format(PyExc_ValueError, "_sgd: params, grads and momentum_buffers differ in length");
    ct_tensor **pv = PyMem_Calloc((size_t)n + 1, sizeof *pv), **gv = PyMem_Calloc((size_t)n + 1, sizeof *gv);
    ct_tensor **bv = PyMem_Calloc((size_t)n + 1, sizeof *bv);
    PyObject *res = NULL;
    if (!pv || !gv || !bv) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(pv[i] = ctpy_tensor_arg(PyList_GET_ITEM(params, i), "_sgd(): params[i]"))) goto done;
        if (!(gv[i] = ctpy_tensor_arg(PyList_GET_ITEM(grads, i), "_sgd(): grads[i]"))) goto done;
        PyObject *b = with_bufs ? PyList_GET_ITEM(bufs, i) : Py_None;
        if (b != Py_None && !(bv[i] = ctpy_tensor_arg(b, "_sgd(): momentum_buffers[i]"))) goto done;
    }
    int rc = ct_sgd_update(pv, gv, with_bufs ? bv : NULL, (int)n, &o);
    /* the buffers made here are new references; those passed in stay the caller's */
    res = rc == 0 ? PyList_New(with_bufs ? n : 0) : NULL;
    for (Py_ssize_t i = 0; with_bufs && i < n; i++) {
        PyObject *b = PyList_GET_ITEM(bufs, i);
        bool made = b == Py_None && bv[i];
        if (!res) {
            if (made) ct_tensor_release(bv[i]);
            continue;
        }
        PyObject *item = made ? ctpy_wrap(bv[i]) : (Py_INCREF(b), b);
        if (!item) {
            Py_CLEAR(res);
            continue;
        }
        PyList_SET_ITEM(res, i, item);
    }
    if (rc != 0) ctpy_raise();
done:
    PyMem_Free(pv);
    PyMem_Free(gv);
    PyMem_Free(bv);
    return res;
}

/* F.cross_entropy: ctorch's public function, which function modes see as "cross_entropy" */
static PyObject *py_cross_entropy(PyObject *unused, PyObject *args) {
    (void)unused;
    PyObject *in, *tg, *w, *ii, *ls;
    int reduction;
    if (!PyArg_ParseTuple(args, "OOOiOO:cross_entropy", &in, &tg, &w, &reduction, &ii, &ls)) return NULL;
    ct_tensor *x = ctpy_tensor_arg(in, "cross_entropy_loss(): argument 'input' (position 1)");
    ct_tensor *y = x ? ctpy_tensor_arg(tg, "cross_entropy_loss(): argument 'target' (position 2)") : NULL;
    if (!y) return NULL;
    ct_tensor *wt = NULL;
    if (w != Py_None && !(wt = ctpy_tensor_arg(w, "cross_entropy_loss(): argument 'weight' (position 3)"))) return NULL;
    /* the binding's SymInt ignore_index (an int, not a bool) and double label_smoothing (any number) */
    if (PyBool_Check(ii) || !PyIndex_Check(ii) || PyFloat_Check(ii) || ctpy_is_tensor(ii))
        return PyErr_Format(PyExc_TypeError, "cross_entropy_loss(): argument 'ignore_index' (position 5) must be int, not %s",
                            ctpy_is_tensor(ii) ? "Tensor" : Py_TYPE(ii)->tp_name);
    if (!PyFloat_Check(ls) && !PyLong_Check(ls))
        return PyErr_Format(PyExc_TypeError,
                            "cross_entropy_loss(): argument 'label_smoothing' (position 6) must be float, not %s",
                            ctpy_is_tensor(ls) ? "Tensor" : Py_TYPE(ls)->tp_name);
    PyObject *index = PyNumber_Index(ii);
    long long ignore_index = index ? PyLong_AsLongLong(index) : -1;
    Py_XDECREF(index);
    double smoothing = PyFloat_AsDouble(ls);
    if (PyErr_Occurred()) return NULL;
    return ctpy_wrap(ct_cross_entropy(x, y, wt, ignore_index, (ct_reduction)reduction, smoothing));
}

static PyMethodDef nn_functions[] = {
    {"_cross_entropy", py_cross_entropy, METH_VARARGS, "F.cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing)"},
    {"_clip_grad_norm_", py_clip_grad_norm, METH_VARARGS, "torch.nn.utils.clip_grad_norm_ (ctorch's C implementation)"},
    {"_sgd", py_sgd, METH_VARARGS, "torch.optim.SGD's update of one group (ctorch's C implementation)"},
    {"_adamw_new", py_adamw_new, METH_VARARGS, "torch.optim.AdamW's C optimizer over parameter groups"},
    {"_optimizer_step", py_optimizer_step, METH_O, "optimizer.step() of a C optimizer"},
    {"_optimizer_zero_grad", py_optimizer_zero_grad, METH_VARARGS, "optimizer.zero_grad(set_to_none) of a C optimizer"},
    {NULL, NULL, 0, NULL}};

int ctpy_nn_init(PyObject *m) { return ctpy_add_functions(m, nn_functions); }
