/* Slicing, splitting, joining and triangles (TensorShape.cpp, TriangularOps.cpp,
 * TensorAdvancedIndexing.cpp): slice, narrow, split, split_with_sizes, unbind, cat, stack, tril,
 * index_select. Views are made with as_strided through the dispatcher, as PyTorch's slice does,
 * so the profiler shows the same nesting; composite bodies (split, narrow, stack) call their
 * constituents through the dispatcher too. */
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

/* slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) */
int ct_k_slice(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->ndim == 0) return ct_error_set(CT_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    int64_t start = ARG_IS_NONE(2) ? 0 : ARG_I(2);
    int64_t end = ARG_IS_NONE(3) ? INT64_MAX : ARG_I(3);
    int64_t step = ARG_I(4);
    if (step <= 0) return ct_error_set(CT_ERR_RUNTIME, "slice step must be positive");
    int64_t size = self->sizes[dim];
    /* INT64_MAX stands for the default value */
    if (start == INT64_MAX) start = 0;
    if (start < 0) start += size;
    if (end < 0) end += size;
    if (start < 0) start = 0;
    else if (start >= size) start = size;
    if (end < start) end = start;
    else if (end >= size) end = size;
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    int64_t off = self->storage_offset + start * strides[dim];
    /* ceil((end - start) / step) without end - start + step overflowing for a huge step */
    sizes[dim] = end > start ? (end - start - 1) / step + 1 : 0;
    /* a huge step can overflow the stride: wrapped as the two's-complement product PyTorch's
     * int64 multiplication gives (it only matters for a slice of at most one element) */
    strides[dim] = (int64_t)((uint64_t)strides[dim] * (uint64_t)step);
    return ct_ret(rets, 0, ct_as_strided(self, sizes, self->ndim, strides, self->ndim, &off));
}

/* slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step):
 * zeros of the input's shape with grad_output copied into the slice */
int ct_k_slice_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0);
    ct_tensor *gi = ct_zeros(args[1].u.list.data, args[1].u.list.len, grad->dtype);
    if (!gi) return -1;
    int64_t start = ARG_I(3), end = ARG_I(4);
    ct_tensor *s = ct_slice(gi, ARG_I(2), &start, &end, ARG_I(5));
    int rc = s ? ct_copy_(s, grad, false) : -1;
    ct_tensor_release(s);
    if (rc != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}

/* select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index): zeros of
 * the input's shape with grad_output copied into the selected slice */
int ct_k_select_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0);
    ct_tensor *gi = ct_zeros(args[1].u.list.data, args[1].u.list.len, grad->dtype);
    if (!gi) return -1;
    ct_tensor *s = ct_select(gi, ARG_I(2), ARG_I(3));
    int rc = s ? ct_copy_(s, grad, false) : -1;
    ct_tensor_release(s);
    if (rc != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}

/* narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> slice */
static ct_tensor *narrow(ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
    if (self->ndim == 0) {
        ct_error_set(CT_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (length < 0) {
        ct_error_set(CT_ERR_RUNTIME, "narrow(): length must be non-negative.");
        return NULL;
    }
    int64_t d;
    if (ct_wrap_dim(dim, self->ndim, &d) != 0) return NULL;
    int64_t cur = self->sizes[d];
    if (start < -cur || start > cur) {
        ct_error_set(CT_ERR_INDEX, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-cur, (long long)cur, (long long)start);
        return NULL;
    }
    if (start < 0) start += cur;
    if (start > cur - length) {
        ct_error_set(CT_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)start,
                     (long long)length, (long long)cur);
        return NULL;
    }
    int64_t s = start, e = start + length;
    return ct_slice(self, dim, &s, &e, 1);
}

int ct_k_narrow(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, narrow(ARG_T(0), ARG_I(1), ARG_I(2), ARG_I(3)));
}

/* An owned Tensor[] return of n pieces (see Note [Tensor lists]). */
static ct_tensor **list_new(int64_t n) { return ct_calloc((size_t)(n > 0 ? n : 1), sizeof(ct_tensor *)); }

static void list_free(ct_tensor **l, int64_t n) {
    if (!l) return;
    for (int64_t i = 0; i < n; i++) ct_tensor_release(l[i]);
    ct_free(l);
}

/* split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[] */
int ct_k_split(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t split_size = ARG_I(1);
    if (self->ndim == 0) return ct_error_set(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
    if (split_size < 0)
        return ct_error_set(CT_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=%lld",
                            (long long)split_size);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(2), self->ndim, &dim) != 0) return -1;
    int64_t dim_size = self->sizes[dim];
    if (split_size == 0 && dim_size != 0)
        return ct_error_set(CT_ERR_RUNTIME, "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                            (long long)dim_size);
    /* if split_size is 0 and the dimension is empty there is one split; at least one split */
    int64_t num_splits = 1;
    if (split_size != 0) {
        num_splits = (dim_size + split_size - 1) / split_size;
        if (num_splits < 1) num_splits = 1;
    }
    int64_t last = split_size - (split_size * num_splits - dim_size);
    ct_tensor **pieces = list_new(num_splits);
    if (!pieces) return -1;
    for (int64_t i = 0; i < num_splits; i++) {
        pieces[i] = narrow(self, ARG_I(2), i * split_size, i < num_splits - 1 ? split_size : last);
        if (!pieces[i]) {
            list_free(pieces, num_splits);
            return -1;
        }
    }
    rets[0] = ct_tensor_list_value(pieces, num_splits);
    return 0;
}

/* chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]: CompositeImplicitAutograd, as
 * PyTorch's: split.Tensor with ceil(size / chunks), or split_with_sizes when that size and the
 * dimension are both 0 (so that `chunks` empty pieces come back) */
int ct_k_chunk(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t chunks = ARG_I(1);
    if (self->ndim == 0) return ct_error_set(CT_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
    if (chunks <= 0)
        return ct_error_set(CT_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(2), self->ndim, &dim) != 0) return -1;
    int64_t dim_size = self->sizes[dim], split_size = (dim_size + chunks - 1) / chunks;
    ct_tensor **pieces = NULL;
    int64_t n = 0;
    int rc;
    if (split_size == 0 && dim_size == 0) {
        int64_t *sizes = ct_calloc((size_t)chunks, sizeof(int64_t));
        if (!sizes) return -1;
        rc = ct_split_with_sizes(self, sizes, chunks, ARG_I(2), &pieces, &n);
        ct_free(sizes);
    } else {
        rc = ct_split(self, split_size, ARG_I(2), &pieces, &n);
    }
    if (rc != 0) return -1;
    rets[0] = ct_tensor_list_value(pieces, n);
    return 0;
}

/* unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]: one select per index */
int ct_k_unbind(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->ndim == 0)
        return ct_error_set(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)ARG_I(1));
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    int64_t n = self->sizes[dim];
    ct_tensor **pieces = list_new(n);
    if (!pieces) return -1;
    for (int64_t i = 0; i < n; i++) {
        pieces[i] = ct_select(self, dim, i);
        if (!pieces[i]) {
            list_free(pieces, n);
            return -1;
        }
    }
    rets[0] = ct_tensor_list_value(pieces, n);
    return 0;
}

/* split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[] */
int ct_k_split_with_sizes(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *sizes = args[1].u.list.data;
    int64_t n = args[1].u.list.len;
    if (self->ndim == 0) return ct_error_set(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
    int64_t dim;
    if (ct_wrap_dim(ARG_I(2), self->ndim, &dim) != 0) return -1;
    int64_t dim_size = self->sizes[dim], total = 0;
    for (int64_t i = 0; i < n; i++) {
        if (sizes[i] < 0) {
            char b[512];
            ct_format_shape(sizes, (int)n, b, sizeof b);
            return ct_error_set(CT_ERR_RUNTIME, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", b);
        }
        total += sizes[i];
    }
    if (total != dim_size) {
        char b[512];
        ct_format_shape(sizes, (int)n, b, sizeof b);
        return ct_error_set(CT_ERR_RUNTIME,
                            "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension %lld), but got split_sizes=%s",
                            (long long)dim_size, (long long)dim, b);
    }
    ct_tensor **pieces = list_new(n);
    if (!pieces) return -1;
    int64_t start = 0;
    for (int64_t i = 0; i < n; i++) {
        pieces[i] = narrow(self, dim, start, sizes[i]);
        if (!pieces[i]) {
            list_free(pieces, n);
            return -1;
        }
        start += sizes[i];
    }
    rets[0] = ct_tensor_list_value(pieces, n);
    return 0;
}

/* ---- cat ---- */

/* cat_should_skip_tensor: the legacy 1-D empty tensor */
static bool cat_skip(const ct_tensor *t) { return t->numel == 0 && t->ndim == 1; }

/* cat(Tensor[] tensors, int dim=0) -> Tensor */
int ct_k_cat(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *const *ts = args[0].u.tlist.items;
    int64_t n = args[0].u.tlist.len;
    for (int64_t i = 0; i < n; i++)
        if (ts[i]->ndim == 0)
            return ct_error_set(CT_ERR_RUNTIME, "zero-dimensional tensor (at position %lld) cannot be concatenated", (long long)i);
    /* legacy_cat_wrap_dim: against the first tensor that is not skipped */
    int64_t dim = ARG_I(1);
    for (int64_t i = 0; i < n; i++)
        if (!cat_skip(ts[i])) {
            if (ct_wrap_dim(dim, ts[i]->ndim, &dim) != 0) return -1;
            break;
        }
    if (n == 0) return ct_error_set(CT_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
    int64_t valid = n;
    for (int64_t i = 0; i < n; i++)
        if (!cat_skip(ts[i])) {
            valid = i;
            break;
        }
    ct_dtype dt = ct_result_type_n(ts, n);
    int64_t sizes[CT_MAX_DIMS] = {0};
    int nd = 1;
    if (valid < n) {
        const ct_tensor *f = ts[valid];
        if (dim > f->ndim) return ct_error_set(CT_ERR_RUNTIME, "torch.cat(): dimension %lldout of range", (long long)dim);
        int64_t at_dim = 0;
        for (int64_t i = 0; i < n; i++) {
            const ct_tensor *t = ts[i];
            if (cat_skip(t)) continue;
            if (t->ndim != f->ndim)
                return ct_error_set(CT_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", f->ndim, t->ndim);
            for (int d = 0; d < f->ndim; d++)
                if (d != dim && f->sizes[d] != t->sizes[d])
                    return ct_error_set(CT_ERR_RUNTIME,
                                        "Sizes of tensors must match except in dimension %lld. Expected size %lld but got size %lld for tensor number %lld in the list.",
                                        (long long)dim, (long long)f->sizes[d], (long long)t->sizes[d], (long long)i);
            at_dim += t->sizes[dim];
        }
        nd = f->ndim;
        memcpy(sizes, f->sizes, sizeof(int64_t) * (size_t)nd);
        sizes[dim] = at_dim;
    }
    ct_tensor *out = ct_tensor_alloc(sizes, nd, dt, false);
    if (!out) return -1;
    int64_t offset = 0;
    for (int64_t i = 0; i < n && valid < n; i++) {
        const ct_tensor *t = ts[i];
        if (cat_skip(t)) continue;
        /* copy into the matching slice of the output */
        int64_t ssz[CT_MAX_DIMS];
        memcpy(ssz, out->sizes, sizeof(int64_t) * (size_t)nd);
        ssz[dim] = t->sizes[dim];
        ct_tensor *part = ct_tensor_make(out->storage, offset * out->strides[dim], ssz, out->strides, nd, dt);
        int rc = part ? ct_copy_into(part, t) : -1;
        ct_tensor_release(part);
        if (rc != 0) {
            ct_tensor_release(out);
            return -1;
        }
        offset += t->sizes[dim];
    }
    return ct_ret(rets, 0, out);
}

/* stack(Tensor[] tensors, int dim=0) -> Tensor */
int ct_k_stack(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *const *ts = args[0].u.tlist.items;
    int64_t n = args[0].u.tlist.len;
    if (n == 0) return ct_error_set(CT_ERR_RUNTIME, "stack expects a non-empty TensorList");
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), ts[0]->ndim + 1, &dim) != 0) return -1;
    if (dim < ts[0]->ndim) {
        /* check_stack_inputs, cat along dim, then view with the new dimension */
        for (int64_t i = 1; i < n; i++) {
            bool same = ts[i]->ndim == ts[0]->ndim;
            for (int d = 0; same && d < ts[0]->ndim; d++) same = ts[i]->sizes[d] == ts[0]->sizes[d];
            if (!same) {
                char a[256], b[256];
                ct_format_shape(ts[0]->sizes, ts[0]->ndim, a, sizeof a);
                ct_format_shape(ts[i]->sizes, ts[i]->ndim, b, sizeof b);
                return ct_error_set(CT_ERR_RUNTIME, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %lld",
                                    a, b, (long long)i);
            }
        }
        int64_t rs[CT_MAX_DIMS];
        int nd = 0;
        for (int d = 0; d < ts[0]->ndim; d++) {
            if (d == dim) rs[nd++] = n;
            rs[nd++] = ts[0]->sizes[d];
        }
        ct_tensor *c = ct_cat(ts, n, dim);
        if (!c) return -1;
        ct_tensor *r = ct_view(c, rs, nd);
        ct_tensor_release(c);
        return ct_ret(rets, 0, r);
    }
    /* get_stack_inputs: unsqueeze each, then cat */
    ct_tensor **u = list_new(n);
    if (!u) return -1;
    for (int64_t i = 0; i < n; i++) {
        u[i] = ct_unsqueeze(ts[i], ARG_I(1));
        if (!u[i]) {
            list_free(u, n);
            return -1;
        }
    }
    ct_tensor *r = ct_cat(u, n, ARG_I(1));
    list_free(u, n);
    return ct_ret(rets, 0, r);
}

/* ---- tril ---- */

typedef struct tril_ctx {
    int64_t k;
    size_t es;
} tril_ctx;

/* tril(Tensor self, int diagonal=0) -> Tensor */
int ct_k_tril(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t k = ARG_I(1);
    if (self->ndim < 2) return ct_error_set(CT_ERR_RUNTIME, "tril: input tensor must have at least 2 dimensions");
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, true);
    if (!out) return -1;
    size_t es = ct_dtype_size(self->dtype);
    int64_t rows = self->sizes[self->ndim - 2], cols = self->sizes[self->ndim - 1];
    int64_t batch = rows * cols == 0 ? 0 : out->numel / (rows * cols);
    char *o = ct_tensor_data_ptr(out);
    for (int64_t b = 0; b < batch; b++) {
        /* the batch element's offset in self */
        int64_t rem = b, off = 0;
        for (int d = self->ndim - 3; d >= 0; d--) {
            off += (rem % self->sizes[d]) * self->strides[d];
            rem /= self->sizes[d];
        }
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols && j - i <= k; j++) {
                const char *src = (const char *)self->storage->data +
                                  (size_t)(self->storage_offset + off + i * self->strides[self->ndim - 2] +
                                           j * self->strides[self->ndim - 1]) * es;
                memcpy(o + (size_t)((b * rows + i) * cols + j) * es, src, es);
            }
    }
    return ct_ret(rets, 0, out);
}

/* ---- index_select ---- */

/* index_select(Tensor self, int dim, Tensor index) -> Tensor */
int ct_k_index_select(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *index = ARG_T(2);
    int64_t dim;
    if (ct_wrap_dim(ARG_I(1), self->ndim, &dim) != 0) return -1;
    int64_t numel = index->numel;
    if (index->ndim > 1) return ct_error_set(CT_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    if (self->ndim == 0 && numel != 1)
        return ct_error_set(CT_ERR_RUNTIME, "index_select(): Index to scalar can have only 1 value, got %lld value(s)",
                            (long long)numel);
    if (index->dtype != CT_INT64 && index->dtype != CT_INT32)
        return ct_error_set(CT_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
    int64_t sizes[CT_MAX_DIMS];
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim > 0) sizes[dim] = numel;
    ct_tensor *out = ct_tensor_alloc(sizes, self->ndim, self->dtype, false);
    if (!out) return -1;
    int64_t dim_size = self->ndim > 0 ? self->sizes[dim] : 1;
    size_t es = ct_dtype_size(self->dtype);
    /* out[..., i, ...] = self[..., index[i], ...]: outer x index x inner */
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; d++) outer *= self->sizes[d];
    for (int d = (int)dim + 1; d < self->ndim; d++) inner *= self->sizes[d];
    char *o = ct_tensor_data_ptr(out);
    for (int64_t i = 0; i < numel; i++) {
        int64_t idx = ct_elem_load_int64(ct_tensor_elem_ptr(index, i), index->dtype);
        if (idx < 0 || idx >= dim_size) {
            ct_tensor_release(out);
            return ct_error_set(CT_ERR_INDEX, "index out of range in self");
        }
        for (int64_t a = 0; a < outer; a++) {
            /* self's offset of (a, idx, 0...) */
            int64_t rem = a, off = self->storage_offset;
            for (int d = (int)dim - 1; d >= 0; d--) {
                off += (rem % self->sizes[d]) * self->strides[d];
                rem /= self->sizes[d];
            }
            if (self->ndim > 0) off += idx * self->strides[dim];
            for (int64_t b = 0; b < inner; b++) {
                int64_t rb = b, o2 = off;
                for (int d = self->ndim - 1; d > dim; d--) {
                    o2 += (rb % self->sizes[d]) * self->strides[d];
                    rb /= self->sizes[d];
                }
                memcpy(o + (size_t)((a * numel + i) * inner + b) * es, (const char *)self->storage->data + (size_t)o2 * es, es);
            }
        }
    }
    return ct_ret(rets, 0, out);
}
