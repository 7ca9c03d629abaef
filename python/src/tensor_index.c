/* Indexing of torch._C.TensorBase: x[i], x[a:b], x[None], x[...], x[i] = v, len(x). Under a
 * Python function mode each is offered as TensorBase.__getitem__ / __setitem__ / __len__ first
 * (Note [torch functions and function modes] in torch_function.c). */
#include <string.h>

#include "ctpy.h"



/* The advanced indices applySlicing collects: per dim of the sliced tensor, an index tensor or
 * NULL (a dim no tensor indexes), up to the last one; the tensors are borrowed from `keep`. */
typedef struct adv_index {
    ct_tensor *items[CT_MAX_DIMS];
    int64_t len;
    int64_t covered; /* the dims the items stand for */
    PyObject *keep[CT_MAX_DIMS + 1]; /* the sequences' tensors (new references) */
    int nkeep;
} adv_index;

static void adv_clear(adv_index *a) {
    for (int k = 0; k < a->nkeep; k++) Py_DECREF(a->keep[k]);
    a->nkeep = 0;
    a->len = 0;
    a->covered = 0;
}

static bool is_mask_dtype(ct_dtype d) { return d == CT_BOOL || d == CT_UINT8; }

/* applySlicing: ints select, slices slice, None unsqueezes, Ellipsis skips, tensors and
 * sequences of ints are gathered in *adv for index.Tensor / index_put_. Returns a new reference
 * (possibly t itself, retained), or NULL with a Python error. */
static ct_tensor *apply_index(ct_tensor *t, PyObject *index, adv_index *adv) {
    PyObject *items[CT_MAX_DIMS + 1];
    Py_ssize_t n;
    adv->len = 0;
    adv->covered = 0;
    adv->nkeep = 0;
    /* treatSequenceAsTuple: a short list holding a slice, Ellipsis, None, a tensor or a sequence
     * is a tuple of indices (x[[[0, 1], [2, 3]]] is x[[0, 1], [2, 3]]) */
    bool as_tuple = PyTuple_Check(index);
    if (!as_tuple && PyList_Check(index) && PyList_GET_SIZE(index) < 32)
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(index) && !as_tuple; i++) {
            PyObject *it = PyList_GET_ITEM(index, i);
            as_tuple = PySlice_Check(it) || it == Py_Ellipsis || it == Py_None || ctpy_is_tensor(it) ||
                       (PySequence_Check(it) && !PyUnicode_Check(it) && !PyBytes_Check(it));
        }
    if (as_tuple && PyList_Check(index)) {
        n = PyList_GET_SIZE(index);
        if (n > CT_MAX_DIMS) {
            PyErr_SetString(PyExc_IndexError, "too many indices");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) items[i] = PyList_GET_ITEM(index, i);
    } else if (PyTuple_Check(index)) {
        n = PyTuple_GET_SIZE(index);
        if (n > CT_MAX_DIMS) {
            PyErr_SetString(PyExc_IndexError, "too many indices");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) items[i] = PyTuple_GET_ITEM(index, i);
    } else {
        n = 1;
        items[0] = index;
    }
    /* how many dims the indices consume (ints, slices, tensors), to place an Ellipsis */
    int consumed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (it == Py_Ellipsis) continue;
        else if (it == Py_None) continue;
        else if (PyBool_Check(it)) continue; /* as None: a new dim, indexed by a tensor below */
        else if (ctpy_is_tensor(it)) {
            ct_tensor *x = ctpy_tensor(it);
            consumed += is_mask_dtype(ct_tensor_dtype(x)) ? ct_tensor_ndim(x) : 1;
        } else if (PyLong_Check(it) || PySlice_Check(it) || PyIndex_Check(it)) {
            consumed++;
        } else if (PyUnicode_Check(it) || PyBytes_Check(it)) {
            /* a str is a sequence, and PyTorch makes a tensor of a sequence index */
            PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(it)->tp_name);
            adv_clear(adv);
            return NULL;
        } else if (PySequence_Check(it)) {
            PyObject *x = ctpy_tensor_from_sequence(it);
            if (!x) {
                adv_clear(adv);
                return NULL;
            }
            adv->keep[adv->nkeep++] = x;
            items[i] = x;
            ct_tensor *xt = ctpy_tensor(x);
            consumed += is_mask_dtype(ct_tensor_dtype(xt)) ? ct_tensor_ndim(xt) : 1;
        } else {
            PyErr_Format(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got %s)", Py_TYPE(it)->tp_name);
            adv_clear(adv);
            return NULL;
        }
    }
    int ndim = ct_tensor_ndim(t);
    if (consumed > ndim) {
        if (ndim == 0 && consumed == 1 && PyLong_Check(items[0]))
            PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", ndim);
        adv_clear(adv);
        return NULL;
    }
    bool lone_slice = !as_tuple && PySlice_Check(index);
    ct_tensor *cur = ct_tensor_retain(t);
    int64_t dim = 0;      /* of cur */
    bool expanded = false; /* the first Ellipsis stands for the dims no index names, later ones for none */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        ct_tensor *next = NULL;
        if (it == Py_Ellipsis) {
            if (!expanded) {
                dim += ndim - consumed;
            }
            expanded = true;
            continue;
        } else if (it == Py_None) {
            next = ct_unsqueeze(cur, dim);
            dim++;
        } else if (PyBool_Check(it)) {
            /* applySlicing: a new dim (unsqueeze) indexed by boolToIndexingTensor, an int64 [1]
             * of 0 for True (empty, then fill_) or an empty [0] for False (index.Tensor then
             * keeps or drops it) */
            next = ct_unsqueeze(cur, dim);
            if (!next) {
                ctpy_raise();
                goto fail;
            }
            int64_t one = it == Py_True ? 1 : 0;
            ct_tensor *ix = ct_empty(&one, 1, CT_INT64, CT_MEMORY_FORMAT_NONE);
            if (ix && it == Py_True && ct_fill_(ix, ct_double(0.0)) != 0) {
                ct_tensor_release(ix);
                ix = NULL;
            }
            PyObject *ixo = ix ? ctpy_wrap(ix) : NULL;
            if (!ixo) {
                if (!ix) ctpy_raise();
                ct_tensor_release(next);
                goto fail;
            }
            adv->keep[adv->nkeep++] = ixo;
            while (adv->covered < dim) {
                adv->items[adv->len++] = NULL;
                adv->covered++;
            }
            adv->items[adv->len++] = ctpy_tensor(ixo);
            adv->covered++;
            dim++;
        } else if (ctpy_is_tensor(it)) { /* an advanced index at this dim (a mask: its dims) */
            ct_tensor *x = ctpy_tensor(it);
            int used = is_mask_dtype(ct_tensor_dtype(x)) ? ct_tensor_ndim(x) : 1;
            /* index.Tensor's items stand for consecutive dims, a mask's for as many as it has */
            while (adv->covered < dim) {
                adv->items[adv->len++] = NULL;
                adv->covered++;
            }
            adv->items[adv->len++] = x;
            adv->covered += used;
            dim += used;
            continue;
        } else if (PySlice_Check(it)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(it, &start, &stop, &step) < 0) goto fail;
            int64_t size = ct_tensor_sizes(cur)[dim];
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                goto fail;
            }
            /* applySlice's shortcut (no op) when the slice names the whole dimension exactly
             * (x[:, :T] with T the size; an open end is INT64_MAX there and still slices); a
             * lone slice (x[:2]) never takes it, as get_item calls applySlice */
            if (!lone_slice && start == 0 && stop == size && step == 1) {
                dim++;
                continue;
            }
            int64_t from = start, to = stop;
            next = ct_slice(cur, dim, &from, &to, step);
            dim++;
        } else {
            long long idx = PyLong_AsLongLong(it);
            if (idx == -1 && PyErr_Occurred()) goto fail;
            int64_t size = ct_tensor_sizes(cur)[dim];
            if (idx < -size || idx >= size) {
                /* handleDimInMultiDimIndexing's real_dim: the index's position in the tuple */
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %lld with size %lld", idx,
                             (long long)i, (long long)size);
                goto fail;
            }
            next = ct_select(cur, dim, idx);
        }
        if (!next) {
            ctpy_raise();
            goto fail;
        }
        ct_tensor_release(cur);
        cur = next;
    }
    return cur;
fail:
    ct_tensor_release(cur);
    adv_clear(adv);
    return NULL;
}

static PyObject *tensor_getitem(PyObject *self, PyObject *index) {
    CTPY_TF_VECTOR("__getitem__", self, &index, 1, NULL);
    CTPY_SELF_T(self);
    adv_index adv;
    ct_tensor *r = apply_index(t, index, &adv);
    if (!r) return NULL;
    if (adv.len > 0) { /* advanced indexing: index.Tensor over what the basic indices left */
        ct_tensor *x = ct_index_tensor(r, adv.items, adv.len);
        ct_tensor_release(r);
        adv_clear(&adv);
        return x ? ctpy_wrap(x) : ctpy_raise();
    }
    adv_clear(&adv);
    if (r == t) { /* x[...], x[:]: a shallow copy, as PyTorch's at::alias */
        ct_tensor_release(r);
        if (!(r = ct_alias(t))) return ctpy_raise();
    }
    return ctpy_wrap(r);
}

/* x[tensors] = value: index_put_ over what the basic indices left, the value a tensor (a
 * number lifted to one of dst's dtype; leading 1s of a tensor's shape dropped, as
 * slicePrefix1sSize does). 0 or -1 with a Python error. */
/* valueToTensor: a tensor as it is; a Python number as a 0-dim tensor of self's dtype (range
 * checked as scalar_to_tensor converts it), lifted (aten::lift_fresh). New reference, or NULL
 * with a Python error. */
static ct_tensor *value_to_tensor(PyObject *value, ct_tensor *t) {
    if (ctpy_is_tensor(value)) return ct_tensor_retain(ctpy_tensor(value));
    if (PyLong_Check(value) || PyFloat_Check(value)) {
        double d = PyFloat_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred()) return NULL;
        if (ct_dtype_check_value(ct_tensor_dtype(t), d, PyLong_Check(value)) != 0) {
            ctpy_raise();
            return NULL;
        }
        ct_tensor *s = ct_tensor_scalar(d, ct_tensor_dtype(t));
        ct_tensor *v = s ? ct_tensor_lift(s, false) : NULL;
        ct_tensor_release(s);
        if (!v) ctpy_raise();
        return v;
    }
    PyErr_Format(PyExc_TypeError, "can't assign a %s to a %s", Py_TYPE(value)->tp_name, ctpy_tensor_type_name(t));
    return NULL;
}

/* slicePrefix1sSize: src viewed without its leading dims of size 1; with always false, src itself
 * when it has none (set_item's index_put_ path), else a view even then (copy_to's). */
static ct_tensor *strip_leading_ones(ct_tensor *src, bool always) {
    int nd = ct_tensor_ndim(src), lead = 0;
    while (lead < nd && ct_tensor_sizes(src)[lead] == 1) lead++;
    return lead > 0 || always ? ct_view(src, ct_tensor_sizes(src) + lead, nd - lead) : ct_tensor_retain(src);
}

/* copy_to (TensorIndexing.h): copy_ of a value of dst's shape, fill_ of a 0-dim one, else the
 * value without its leading 1s expanded to dst's shape (expand_inplace) and copied. 0 or -1. */
static int copy_to(ct_tensor *dst, ct_tensor *src) {
    int nd = ct_tensor_ndim(dst);
    bool same = nd == ct_tensor_ndim(src) &&
                (nd == 0 || memcmp(ct_tensor_sizes(dst), ct_tensor_sizes(src), (size_t)nd * sizeof(int64_t)) == 0);
    if (same) return ct_copy_(dst, src, false);
    if (ct_tensor_ndim(src) == 0) return ct_fill__tensor(dst, src);
    ct_tensor *v = strip_leading_ones(src, true);
    if (!v) return -1;
    int vn = ct_tensor_ndim(v);
    bool fits = vn == nd && (nd == 0 || memcmp(ct_tensor_sizes(dst), ct_tensor_sizes(v), (size_t)nd * sizeof(int64_t)) == 0);
    ct_tensor *e = fits ? ct_tensor_retain(v) : ct_expand(v, ct_tensor_sizes(dst), nd, false);
    ct_tensor_release(v);
    int rc = e ? ct_copy_(dst, e, false) : -1;
    ct_tensor_release(e);
    return rc;
}

/* index_put_ of the value without its leading 1s, as set_item hands it on */
static int index_put_value(ct_tensor *dst, adv_index *adv, ct_tensor *value) {
    ct_tensor *v = strip_leading_ones(value, false);
    int rc = v ? ct_index_put_(dst, adv->items, adv->len, v, false) : -1;
    ct_tensor_release(v);
    return rc == 0 ? 0 : ctpy_raise_int();
}

/* THPVariable_setitem: the value made a tensor first; a lone False does nothing and a lone True
 * writes into self.unsqueeze(0); otherwise the indices are applied (applySlicing) and the value
 * copied in (copy_to), or put at the advanced indices (index_put_) */
static int tensor_setitem(PyObject *self, PyObject *index, PyObject *value) {
    ct_tensor *t = ctpy_tensor(self);
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
        return -1;
    }
    if (CTPY_TF_GATE(self)) {
        bool handled;
        PyObject *rest[2] = {index, value};
        PyObject *r = ctpy_tensor_torch_function(CTPY_TF_BASE, "__setitem__", self, rest, 2, NULL, &handled);
        if (handled) {
            Py_XDECREF(r);
            return r ? 0 : -1;
        }
    }
    ct_tensor *v = value_to_tensor(value, t);
    if (!v) return -1;
    int rc;
    if (index == Py_False) {
        rc = 0;
    } else if (index == Py_True) {
        ct_tensor *dst = ct_unsqueeze(t, 0);
        rc = dst && copy_to(dst, v) == 0 ? 0 : ctpy_raise_int();
        ct_tensor_release(dst);
    } else {
        adv_index adv;
        ct_tensor *dst = apply_index(t, index, &adv);
        if (!dst) {
            rc = -1;
        } else if (adv.len > 0) {
            rc = index_put_value(dst, &adv, v);
            adv_clear(&adv);
        } else {
            rc = copy_to(dst, v) == 0 ? 0 : ctpy_raise_int();
        }
        ct_tensor_release(dst);
    }
    ct_tensor_release(v);
    return rc;
}

static Py_ssize_t tensor_len(PyObject *self) {
    if (CTPY_TF_GATE(self)) {
        bool handled;
        PyObject *r = ctpy_tensor_torch_function(CTPY_TF_BASE, "__len__", self, NULL, 0, NULL, &handled);
        if (handled) {
            Py_ssize_t n = r ? PyNumber_AsSsize_t(r, PyExc_OverflowError) : -1;
            Py_XDECREF(r);
            return n;
        }
    }
    ct_tensor *t = ctpy_tensor(self);
    if (ct_tensor_ndim(t) == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)ct_tensor_sizes(t)[0];
}


PyMappingMethods ctpy_tensor_as_mapping = {
    .mp_length = tensor_len,
    .mp_subscript = tensor_getitem,
    .mp_ass_subscript = tensor_setitem,
};
