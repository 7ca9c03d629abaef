/* View operators (TensorShape.cpp): as_strided, view, _unsafe_view, t, transpose, permute,
 * numpy_T, expand, detach, alias, lift_fresh, unsqueeze, squeeze.dim, select, reshape,
 * _reshape_alias, flatten. Composite ones call as_strided / view through the dispatcher, as
 * PyTorch's do, so the profiler shows the same nesting (t -> transpose -> as_strided). */
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"
#include "ops/views.h"

static int fmt_list(char *buf, size_t size, const int64_t *v, int64_t n) {
    ct_format_shape(v, (int)n, buf, size);
    return 0;
}

/* as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) */
int ct_k_as_strided(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *size = args[1].u.list.data, *stride = args[2].u.list.data;
    int64_t n = args[1].u.list.len;
    int64_t offset = args[3].tag == CT_TAG_INT ? args[3].u.i : self->storage_offset;
    if (args[2].u.list.len != n)
        return ct_error_set(CT_ERR_RUNTIME, "mismatch in length of strides and shape");
    for (int64_t i = 0; i < n; i++) {
        if (stride[i] < 0) {
            char b[256];
            fmt_list(b, sizeof b, stride, n);
            return ct_error_set(CT_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s", b);
        }
    }
    if (offset < 0) return ct_error_set(CT_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    int64_t numel;
    if (ct_check_sizes(size, n, &numel) != 0) return -1;
    /* checkInBoundsForStorage */
    int64_t itemsize = (int64_t)ct_dtype_size(self->dtype);
    if (numel > 0 && self->storage) {
        int64_t extent = 1;
        for (int64_t i = 0; i < n; i++) extent += (size[i] - 1) * stride[i];
        int64_t need = (extent + offset) * itemsize;
        if (need > self->storage->nbytes) {
            char sb[256], stb[256];
            fmt_list(sb, sizeof sb, size, n);
            fmt_list(stb, sizeof stb, stride, n);
            return ct_error_set(CT_ERR_RUNTIME,
                                "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %lld requiring a storage size of %lld are out of bounds for storage of size %lld",
                                sb, stb, (long long)offset, (long long)itemsize, (long long)need,
                                (long long)self->storage->nbytes);
        }
    }
    return ct_ret(rets, 0, ct_make_alias(self, size, stride, (int)n, offset));
}

/* infer_size: resolves one -1 and checks the element count. */
int ct_infer_size(const int64_t *shape, int64_t n, int64_t numel, int64_t *out) {
    int64_t newsize = 1, infer = -1;
    for (int64_t i = 0; i < n; i++) {
        if (shape[i] == -1) {
            if (infer >= 0) return ct_error_set(CT_ERR_RUNTIME, "only one dimension can be inferred");
            infer = i;
        } else if (shape[i] >= 0) {
            newsize *= shape[i];
        } else {
            return ct_error_set(CT_ERR_RUNTIME, "invalid shape dimension %lld", (long long)shape[i]);
        }
        out[i] = shape[i];
    }
    if (numel == newsize || (infer >= 0 && newsize > 0 && numel % newsize == 0)) {
        if (infer >= 0) {
            if (newsize == 0) {
                char b[256];
                ct_format_shape(shape, (int)n, b, sizeof b);
                return ct_error_set(CT_ERR_RUNTIME,
                                    "cannot reshape tensor of %lld elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous",
                                    (long long)numel, b);
            }
            out[infer] = numel / newsize;
        }
        return 0;
    }
    char b[256];
    ct_format_shape(shape, (int)n, b, sizeof b);
    return ct_error_set(CT_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld", b, (long long)numel);
}

/* computeStride (TensorUtils.cpp): strides for viewing (oldshape, oldstride) as newshape, or
 * false when the view would need to cross a non-contiguous boundary. */
bool ct_compute_stride(const int64_t *oldshape, const int64_t *oldstride, int oldn, const int64_t *newshape, int newn,
                       int64_t *newstride) {
    /* a 0-dim tensor views as any shape of one element with strides 1 */
    if (oldn == 0) {
        for (int i = 0; i < newn; i++) newstride[i] = 1;
        return true;
    }
    int64_t numel = 1;
    for (int i = 0; i < oldn; i++) numel *= oldshape[i];
    if (numel == 0) {
        bool same = oldn == newn;
        for (int i = 0; same && i < oldn; i++) same = oldshape[i] == newshape[i];
        if (same) {
            memcpy(newstride, oldstride, sizeof(int64_t) * (size_t)oldn);
            return true;
        }
        /* contiguous strides of newshape */
        int64_t st = 1;
        for (int i = newn - 1; i >= 0; i--) {
            newstride[i] = st;
            st *= newshape[i] > 1 ? newshape[i] : 1;
        }
        return true;
    }
    int view_d = newn - 1;
    int64_t chunk_base_stride = oldn > 0 ? oldstride[oldn - 1] : 1;
    int64_t tensor_numel = 1, view_numel = 1;
    for (int tensor_d = oldn - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= oldshape[tensor_d];
        if (tensor_d == 0 || (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
                newstride[view_d] = view_numel * chunk_base_stride;
                view_numel *= newshape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (tensor_d > 0) {
                chunk_base_stride = oldstride[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

static ct_tensor *view_impl(const ct_tensor *self, const int64_t *size, int64_t n) {
    int64_t shape[CT_MAX_DIMS], stride[CT_MAX_DIMS];
    if (n > CT_MAX_DIMS) {
        ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
        return NULL;
    }
    if (ct_infer_size(size, n, self->numel, shape) != 0) return NULL;
    if (!ct_compute_stride(self->sizes, self->strides, self->ndim, shape, (int)n, stride)) {
        ct_error_set(CT_ERR_RUNTIME,
                     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return ct_make_alias(self, shape, stride, (int)n, self->storage_offset);
}

/* view(Tensor(a) self, SymInt[] size) */
int ct_k_view(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, view_impl(ARG_T(0), args[1].u.list.data, args[1].u.list.len));
}

/* _unsafe_view(Tensor self, SymInt[] size): the view geometry, but not a view for autograd */
int ct_k__unsafe_view(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, view_impl(ARG_T(0), args[1].u.list.data, args[1].u.list.len));
}

/* _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) */
int ct_k__reshape_alias(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (args[1].u.list.len != args[2].u.list.len)
        return ct_error_set(CT_ERR_RUNTIME, "mismatch in length of strides and shape");
    return ct_ret(rets, 0, ct_make_alias(self, args[1].u.list.data, args[2].u.list.data, (int)args[1].u.list.len,
                                         self->storage_offset));
}

/* transpose.int(Tensor(a) self, int dim0, int dim1) */
int ct_k_transpose(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d0, d1;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &d0) != 0 || ct_wrap_dim(ARG_I(2), self->ndim, &d1) != 0) return -1;
    if (d0 == d1) return ct_ret(rets, 0, ct_alias(self));
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    int64_t t = sizes[d0];
    sizes[d0] = sizes[d1];
    sizes[d1] = t;
    t = strides[d0];
    strides[d0] = strides[d1];
    strides[d1] = t;
    return ct_ret(rets, 0, ct_as_strided(self, sizes, self->ndim, strides, self->ndim, NULL));
}

/* t(Tensor(a) self) */
int ct_k_t(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->ndim > 2)
        return ct_error_set(CT_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", self->ndim);
    return ct_ret(rets, 0, ct_transpose(self, 0, self->ndim < 2 ? 0 : 1));
}

/* permute(Tensor(a) self, int[] dims) */
int ct_k_permute(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *dims = args[1].u.list.data;
    int64_t n = args[1].u.list.len;
    if (n != self->ndim)
        return ct_error_set(CT_ERR_RUNTIME,
                            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %lld",
                            self->ndim, (long long)n);
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    bool seen[CT_MAX_DIMS] = {false};
    for (int64_t i = 0; i < n; i++) {
        int64_t d;
        if (ct_wrap_dim(dims[i], self->ndim, &d) != 0) return -1;
        if (seen[d]) return ct_error_set(CT_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
        seen[d] = true;
        sizes[i] = self->sizes[d];
        strides[i] = self->strides[d];
    }
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n, strides, n, NULL));
}

/* numpy_T(Tensor(a) self): .T reverses all dimensions through permute */
int ct_k_numpy_T(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->ndim == 0) return ct_ret(rets, 0, ct_alias(self));
    int64_t dims[CT_MAX_DIMS];
    for (int i = 0; i < self->ndim; i++) dims[i] = self->ndim - 1 - i;
    return ct_ret(rets, 0, ct_permute(self, dims, self->ndim));
}

/* expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) */
int ct_k_expand(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *size = args[1].u.list.data;
    int64_t n = args[1].u.list.len;
    if (n < self->ndim) {
        char b[256], sb[256];
        ct_format_shape(size, (int)n, b, sizeof b);
        ct_format_shape(self->sizes, self->ndim, sb, sizeof sb);
        return ct_error_set(CT_ERR_RUNTIME,
                            "expand(%s{%s}, size=%s): the number of sizes provided (%lld) must be greater or equal to the number of dimensions in the tensor (%d)",
                            ct_dtype_message_type(self->dtype), sb, b, (long long)n, self->ndim);
    }
    if (n > CT_MAX_DIMS) return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    /* inferExpandGeometry, from the innermost dimension outwards */
    for (int64_t i = n - 1; i >= 0; i--) {
        int64_t dim = self->ndim - 1 - (n - 1 - i);
        int64_t s = dim >= 0 ? self->sizes[dim] : 1;
        int64_t st = dim >= 0 ? self->strides[dim] : (i + 1 < n ? sizes[i + 1] * strides[i + 1] : 1);
        int64_t target = size[i];
        if (target == -1) {
            if (dim < 0)
                return ct_error_set(CT_ERR_RUNTIME, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %lld", (long long)i);
            target = s;
        }
        if (s != target) {
            if (s != 1) {
                char tb[256], sb[256];
                ct_format_shape(size, (int)n, tb, sizeof tb);
                ct_format_shape(self->sizes, self->ndim, sb, sizeof sb);
                return ct_error_set(CT_ERR_RUNTIME,
                                    "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton dimension %lld.  Target sizes: %s.  Tensor sizes: %s",
                                    (long long)target, (long long)s, (long long)i, tb, sb);
            }
            st = 0;
        }
        sizes[i] = target;
        strides[i] = st;
    }
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n, strides, n, NULL));
}

/* detach(Tensor(a) self): a new tensor header over the same data, without autograd history
 * (shallow_copy_and_detach). */
int ct_k_detach(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *t = ct_make_alias(self, self->sizes, self->strides, self->ndim, self->storage_offset);
    if (t) t->allow_metadata_change = false;
    return ct_ret(rets, 0, t);
}

/* detach_(Tensor(a!) self): CompositeExplicitAutograd's kernel only gives VariableType a hook
 * (native/TensorProperties.cpp); the work is autograd's (ct_k_autograd_detach_) */
int ct_k_detach_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}

/* alias(Tensor(a) self) */
int ct_k_alias(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    return ct_ret(rets, 0, ct_make_alias(self, self->sizes, self->strides, self->ndim, self->storage_offset));
}

/* lift_fresh(Tensor(a) self) returns self */
int ct_k_lift_fresh(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret_self(rets, ARG_T(0));
}

/* unsqueeze(Tensor(a) self, int dim) */
int ct_k_unsqueeze(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d;
    if (ct_wrap_dim(ARG_I(1), self->ndim + 1, &d) != 0) return -1;
    if (self->ndim + 1 > CT_MAX_DIMS) return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int n = self->ndim;
    for (int i = 0, j = 0; i <= n; i++) {
        if (i == d) {
            sizes[i] = 1;
            strides[i] = d >= n ? 1 : self->sizes[d] * self->strides[d];
        } else {
            sizes[i] = self->sizes[j];
            strides[i] = self->strides[j];
            j++;
        }
    }
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n + 1, strides, n + 1, NULL));
}

/* squeeze.dim(Tensor(a) self, int dim) */
int ct_k_squeeze_dim(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &d) != 0) return -1;
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (i == d && self->sizes[i] == 1) continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n, strides, n, NULL));
}

/* select.int(Tensor(a) self, int dim, SymInt index) */
int ct_k_select(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->ndim == 0) return ct_error_set(CT_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
    int64_t d;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &d) != 0) return -1;
    int64_t index = ARG_I(2), size = self->sizes[d];
    if (index < -size || index >= size) {
        char b[256];
        ct_format_shape(self->sizes, self->ndim, b, sizeof b);
        return ct_error_set(CT_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %lld",
                            (long long)index, b, (long long)d); /* the wrapped dim */
    }
    if (index < 0) index += size;
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (i == d) continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    int64_t off = self->storage_offset + index * self->strides[d];
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n, strides, n, &off));
}

/* reshape(Tensor(a) self, SymInt[] shape): a view when the geometry allows, else a copy */
int ct_k_reshape(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t n = args[1].u.list.len;
    if (n > CT_MAX_DIMS) return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
    int64_t shape[CT_MAX_DIMS], stride[CT_MAX_DIMS];
    if (ct_infer_size(args[1].u.list.data, n, self->numel, shape) != 0) return -1;
    if (ct_compute_stride(self->sizes, self->strides, self->ndim, shape, (int)n, stride)) {
        /* PyTorch 2.6's reshape is a view here (its profile shows aten::reshape over aten::view,
         * its grad_fn is ViewBackward0), with or without a dispatch mode */
        return ct_ret(rets, 0, ct_view(self, shape, n));
    }
    ct_tensor *c = ct_clone(self, CT_CONTIGUOUS_FORMAT);
    if (!c) return -1;
    ct_tensor *r = ct__unsafe_view(c, shape, n);
    ct_tensor_release(c);
    return ct_ret(rets, 0, r);
}

/* flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) */
int ct_k_flatten(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t s, e;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &s) != 0 || ct_wrap_dim(ARG_I(2), self->ndim, &e) != 0) return -1;
    if (s > e) return ct_error_set(CT_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
    if (self->ndim == 0) {
        int64_t one = 1;
        return ct_ret(rets, 0, ct_reshape(self, &one, 1));
    }
    if (s == e) return ct_ret_self(rets, self);
    int64_t shape[CT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < s; i++) shape[n++] = self->sizes[i];
    int64_t prod = 1;
    for (int64_t i = s; i <= e; i++) prod *= self->sizes[i];
    shape[n++] = prod;
    for (int i = (int)e + 1; i < self->ndim; i++) shape[n++] = self->sizes[i];
    return ct_ret(rets, 0, ct_reshape(self, shape, n));
}

/* squeeze_.dim(Tensor(a!) self, int dim): squeezes self's own geometry */
int ct_k_squeeze_dim_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &d) != 0) return -1;
    if (self->ndim > 0 && self->sizes[d] == 1) {
        for (int i = (int)d; i + 1 < self->ndim; i++) {
            self->sizes[i] = self->sizes[i + 1];
            self->strides[i] = self->strides[i + 1];
        }
        self->ndim--;
    }
    return ct_ret_self(rets, self);
}
