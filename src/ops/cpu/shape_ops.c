/* The copying shape ops (TensorTransformations.cpp, TensorShape.cpp, TriangularOps.cpp): flip,
 * roll, repeat and triu, each one gather over ctorch's strided layout: the result is allocated
 * contiguous and every element is read from the input coordinate a per-op map gives; the
 * squeeze views (squeeze, squeeze.dims and their in-place forms) and the composites that
 * PyTorch decomposes to views or repeat (tile, expand_as, view_as, reshape_as, swapaxes,
 * swapdims, movedim, moveaxis). */
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

/* ---- the gather template ---- */

/* maps a result coordinate to the input's; returns false for an element that is not read
 * (left zero: triu's lower triangle) */
typedef bool (*src_map_fn)(const void *ctx, const ct_tensor *self, const int64_t *out_idx, int64_t *src_idx);

/* The result is contiguous, or with preserve (empty_like's preserve format) laid out as a dense
 * non-overlapping self is. */
static ct_tensor *gather_copy(ct_tensor *self, const int64_t *sizes, int ndim, bool preserve, src_map_fn map,
                              const void *ctx) {
    bool keep = preserve && ct_is_non_overlapping_and_dense(self);
    ct_tensor *out = keep ? ct_empty_strided(self->sizes, self->ndim, self->strides, self->ndim, self->dtype)
                          : ct_tensor_alloc(sizes, ndim, self->dtype, true);
    if (!out || out->numel == 0) return out;
    size_t es = ct_dtype_size(self->dtype);
    char *o = ct_tensor_data_ptr(out);
    const char *base = (const char *)self->storage->data;
    int64_t idx[CT_MAX_DIMS] = {0}, src[CT_MAX_DIMS];
    for (int64_t i = 0; i < out->numel; i++) {
        int64_t at = 0;
        for (int d = 0; d < ndim; d++) at += idx[d] * out->strides[d];
        if (map(ctx, self, idx, src)) {
            int64_t off = self->storage_offset;
            for (int d = 0; d < self->ndim; d++) off += src[d] * self->strides[d];
            memcpy(o + (size_t)at * es, base + (size_t)off * es, es);
        } else if (keep) {
            memset(o + (size_t)at * es, 0, es);
        }
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < sizes[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

/* wraps every dim of a list and checks each appears once (PyTorch's dim_list_to_bitset) */
static int dim_mask(const ct_value *list, int ndim, bool *mask) {
    memset(mask, 0, sizeof(bool) * CT_MAX_DIMS);
    for (int64_t i = 0; i < list->u.list.len; i++) {
        int64_t d;
        if (ct_wrap_dim(list->u.list.data[i], ndim, &d) != 0) return -1;
        if (mask[d]) return ct_error_set(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
        mask[d] = true;
    }
    return 0;
}

/* ---- flip ---- */

static bool flip_map(const void *ctx, const ct_tensor *self, const int64_t *o, int64_t *s) {
    const bool *mask = ctx;
    for (int d = 0; d < self->ndim; d++) s[d] = mask[d] ? self->sizes[d] - 1 - o[d] : o[d];
    return true;
}

/* flip(Tensor self, int[] dims) -> Tensor */
int ct_k_flip(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool mask[CT_MAX_DIMS];
    if (dim_mask(&args[1], self->ndim, mask) != 0) return -1;
    return ct_ret(rets, 0, gather_copy(self, self->sizes, self->ndim, true, flip_map, mask));
}

/* fliplr(Tensor self): flip(self, [1]) */
int ct_k_fliplr(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ARG_T(0)->ndim < 2) return ct_error_set(CT_ERR_RUNTIME, "Input must be >= 2-d.");
    int64_t d = 1;
    return ct_ret(rets, 0, ct_flip(ARG_T(0), &d, 1));
}

/* flipud(Tensor self): flip(self, [0]) */
int ct_k_flipud(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (ARG_T(0)->ndim < 1) return ct_error_set(CT_ERR_RUNTIME, "Input must be >= 1-d.");
    int64_t d = 0;
    return ct_ret(rets, 0, ct_flip(ARG_T(0), &d, 1));
}

/* ---- roll ---- */

static bool roll_map(const void *ctx, const ct_tensor *self, const int64_t *o, int64_t *s) {
    const int64_t *shift = ctx; /* per dim, in [0, size) */
    for (int d = 0; d < self->ndim; d++) {
        int64_t v = o[d] - shift[d];
        s[d] = v < 0 ? v + self->sizes[d] : v;
    }
    return true;
}

/* roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor; with no dims the tensor is
 * rolled flattened and viewed back */
int ct_k_roll(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const ct_value *shifts = &args[1], *dims = &args[2];
    int64_t ns = shifts->u.list.len, nd = dims->u.list.len;
    if (ns == 0) return ct_error_set(CT_ERR_RUNTIME, "`shifts` required");
    if (nd == 0 && ns == 1) {
        int64_t flat = self->numel, total = self->numel;
        ct_tensor *f = ct_reshape(self, &flat, 1);
        if (!f) return -1;
        int64_t sh[1] = {0};
        if (total > 0) sh[0] = ((shifts->u.list.data[0] % total) + total) % total;
        ct_tensor *r = gather_copy(f, f->sizes, 1, false, roll_map, sh);
        ct_tensor_release(f);
        if (!r) return -1;
        ct_tensor *v = ct_view(r, self->sizes, self->ndim);
        ct_tensor_release(r);
        return ct_ret(rets, 0, v);
    }
    if (ns != nd)
        return ct_error_set(CT_ERR_RUNTIME, "shifts and dimensions must align. shifts: %lld, dims:%lld", (long long)ns,
                            (long long)nd);
    int64_t sh[CT_MAX_DIMS] = {0};
    if (self->ndim == 0) /* a 0-dim tensor has no dim to roll (no scalar wrapping) */
        return ct_error_set(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions",
                            (long long)dims->u.list.data[0]);
    for (int64_t i = 0; i < nd; i++) {
        int64_t d;
        if (ct_wrap_dim(dims->u.list.data[i], self->ndim, &d) != 0) return -1;
        int64_t n = self->sizes[d];
        if (n > 0) sh[d] = (((sh[d] + shifts->u.list.data[i]) % n) + n) % n;
    }
    return ct_ret(rets, 0, gather_copy(self, self->sizes, self->ndim, false, roll_map, sh));
}

/* ---- repeat ---- */

static bool repeat_map(const void *ctx, const ct_tensor *self, const int64_t *o, int64_t *s) {
    int lead = *(const int *)ctx; /* the result's leading dims self lacks */
    for (int d = 0; d < self->ndim; d++) s[d] = o[d + lead] % self->sizes[d];
    return true;
}

/* repeat(Tensor self, SymInt[] repeats) -> Tensor */
int ct_k_repeat(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *rep = args[1].u.list.data;
    int64_t n = args[1].u.list.len;
    if (n < self->ndim)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    if (n > CT_MAX_DIMS) return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions", CT_MAX_DIMS);
    int lead = (int)n - self->ndim;
    int64_t sizes[CT_MAX_DIMS];
    for (int i = 0; i < n; i++) sizes[i] = rep[i] * (i < lead ? 1 : self->sizes[i - lead]);
    return ct_ret(rets, 0, gather_copy(self, sizes, (int)n, false, repeat_map, &lead));
}

/* tile(Tensor self, SymInt[] dims): repeat with dims padded by leading ones to self's rank */
int ct_k_tile(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t n = args[1].u.list.len, r[CT_MAX_DIMS];
    if (n >= self->ndim) return ct_ret(rets, 0, ct_repeat(self, args[1].u.list.data, n));
    int64_t pad = self->ndim - n;
    for (int64_t i = 0; i < self->ndim; i++) r[i] = i < pad ? 1 : args[1].u.list.data[i - pad];
    return ct_ret(rets, 0, ct_repeat(self, r, self->ndim));
}

/* ---- triu ---- */

static bool triu_map(const void *ctx, const ct_tensor *self, const int64_t *o, int64_t *s) {
    int64_t k = *(const int64_t *)ctx;
    int nd = self->ndim;
    if (o[nd - 1] - o[nd - 2] < k) return false;
    memcpy(s, o, sizeof(int64_t) * (size_t)nd);
    return true;
}

/* triu(Tensor self, int diagonal=0) -> Tensor */
int ct_k_triu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t k = ARG_I(1);
    if (self->ndim < 2) return ct_error_set(CT_ERR_RUNTIME, "triu: input tensor must have at least 2 dimensions");
    return ct_ret(rets, 0, gather_copy(self, self->sizes, self->ndim, false, triu_map, &k));
}

/* ---- diagonal ---- */

/* diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a): the other dims,
 * then the diagonal with the two dims' strides summed */
static ct_tensor *diagonal(ct_tensor *self, int64_t offset, int64_t dim1, int64_t dim2) {
    int64_t d1, d2;
    if (ct_wrap_dim(dim1, self->ndim, &d1) != 0 || ct_wrap_dim(dim2, self->ndim, &d2) != 0) return NULL;
    if (d1 == d2) {
        ct_error_set(CT_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1, (long long)dim2);
        return NULL;
    }
    int64_t off = self->storage_offset, n;
    if (offset >= 0) {
        n = self->sizes[d1] < self->sizes[d2] - offset ? self->sizes[d1] : self->sizes[d2] - offset;
    } else {
        n = self->sizes[d1] + offset < self->sizes[d2] ? self->sizes[d1] + offset : self->sizes[d2];
    }
    if (n < 0) n = 0;
    if (n > 0) off += offset >= 0 ? offset * self->strides[d2] : -offset * self->strides[d1];
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (i == d1 || i == d2) continue;
        sizes[k] = self->sizes[i];
        strides[k++] = self->strides[i];
    }
    sizes[k] = n;
    strides[k++] = self->strides[d1] + self->strides[d2];
    return ct_as_strided(self, sizes, k, strides, k, &off);
}

int ct_k_diagonal(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, diagonal(ARG_T(0), ARG_I(1), ARG_I(2), ARG_I(3)));
}

/* diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2):
 * zeros of the input's shape with grad_output copied into the diagonal */
int ct_k_diagonal_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0);
    ct_tensor *gi = ct_zeros(args[1].u.list.data, args[1].u.list.len, grad->dtype);
    if (!gi) return -1;
    ct_tensor *d = ct_diagonal(gi, ARG_I(2), ARG_I(3), ARG_I(4));
    int rc = d ? ct_copy_(d, grad, false) : -1;
    ct_tensor_release(d);
    if (rc != 0) {
        ct_tensor_release(gi);
        return -1;
    }
    return ct_ret(rets, 0, gi);
}

/* ---- squeeze ---- */

/* the geometry without the size-1 dims of mask (every size-1 dim when mask is NULL) */
static int squeezed(const ct_tensor *self, const bool *mask, int64_t *sizes, int64_t *strides) {
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (self->sizes[i] == 1 && (!mask || mask[i])) continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    return n;
}

static int squeeze_view(ct_tensor *self, const bool *mask, ct_value *rets) {
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int n = squeezed(self, mask, sizes, strides);
    return ct_ret(rets, 0, ct_as_strided(self, sizes, n, strides, n, NULL));
}

static int squeeze_inplace(ct_tensor *self, const bool *mask, ct_value *rets) {
    int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
    int n = squeezed(self, mask, sizes, strides);
    memcpy(self->sizes, sizes, sizeof(int64_t) * (size_t)n);
    memcpy(self->strides, strides, sizeof(int64_t) * (size_t)n);
    self->ndim = n;
    return ct_ret_self(rets, self);
}

/* squeeze(Tensor(a) self) -> Tensor(a) */
int ct_k_squeeze(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return squeeze_view(ARG_T(0), NULL, rets);
}

/* squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a) */
int ct_k_squeeze_dims(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    bool mask[CT_MAX_DIMS];
    if (dim_mask(&args[1], ARG_T(0)->ndim, mask) != 0) return -1;
    return squeeze_view(ARG_T(0), mask, rets);
}

/* squeeze_(Tensor(a!) self) -> Tensor(a!) */
int ct_k_squeeze_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return squeeze_inplace(ARG_T(0), NULL, rets);
}

/* squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!) */
int ct_k_squeeze_dims_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    bool mask[CT_MAX_DIMS];
    if (dim_mask(&args[1], ARG_T(0)->ndim, mask) != 0) return -1;
    return squeeze_inplace(ARG_T(0), mask, rets);
}

/* ---- composites of views ---- */

/* expand_as(Tensor(a) self, Tensor other) -> expand(other.sizes) */
int ct_k_expand_as(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_expand(ARG_T(0), ARG_T(1)->sizes, ARG_T(1)->ndim, false));
}

/* broadcast_to(Tensor(a) self, SymInt[] size) -> expand(size) */
int ct_k_broadcast_to(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_expand(ARG_T(0), args[1].u.list.data, args[1].u.list.len, false));
}

/* ravel(Tensor(a) self) -> contiguous().view(-1) */
int ct_k_ravel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *c = ct_contiguous(ARG_T(0), CT_CONTIGUOUS_FORMAT);
    if (!c) return -1;
    int64_t all = -1;
    ct_tensor *r = ct_view(c, &all, 1);
    ct_tensor_release(c);
    return ct_ret(rets, 0, r);
}

/* view_as(Tensor(a) self, Tensor other) -> view(other.sizes) */
int ct_k_view_as(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_view(ARG_T(0), ARG_T(1)->sizes, ARG_T(1)->ndim));
}

/* reshape_as(Tensor(a) self, Tensor other) -> reshape(other.sizes) */
int ct_k_reshape_as(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_reshape(ARG_T(0), ARG_T(1)->sizes, ARG_T(1)->ndim));
}

/* swapaxes / swapdims(Tensor(a) self, int, int) -> transpose */
int ct_k_swapaxes(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_transpose(ARG_T(0), ARG_I(1), ARG_I(2)));
}

/* movedim with lists: the permutation that puts each source dim at its destination and keeps
 * the others in order (PyTorch's movedim) */
static ct_tensor *movedim(ct_tensor *self, const int64_t *src, int64_t ns, const int64_t *dst, int64_t nd) {
    char a[256], b[256];
    if (ns != nd) {
        ct_format_shape(src, (int)ns, a, sizeof a);
        ct_format_shape(dst, (int)nd, b, sizeof b);
        ct_error_set(CT_ERR_RUNTIME,
                     "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of "
                     "dims as destination (%s dims)", a, b);
        return NULL;
    }
    int n = self->ndim;
    int64_t perm[CT_MAX_DIMS];
    bool src_used[CT_MAX_DIMS] = {false}, dst_used[CT_MAX_DIMS] = {false};
    for (int d = 0; d < CT_MAX_DIMS; d++) perm[d] = -1;
    for (int64_t i = 0; i < ns; i++) {
        int64_t s, t;
        if (ct_wrap_dim(src[i], n, &s) != 0 || ct_wrap_dim(dst[i], n, &t) != 0) return NULL;
        if (src_used[s] || dst_used[t]) {
            const int64_t *l = src_used[s] ? src : dst;
            ct_format_shape(l, (int)ns, a, sizeof a);
            ct_error_set(CT_ERR_RUNTIME, "movedim: repeated dim in `%s` (%s)", src_used[s] ? "source" : "destination", a);
            return NULL;
        }
        src_used[s] = dst_used[t] = true;
        perm[t] = s;
    }
    int next = 0;
    for (int d = 0; d < n; d++) {
        if (perm[d] >= 0) continue;
        while (src_used[next]) next++;
        perm[d] = next++;
    }
    return ct_permute(self, perm, n);
}

/* movedim.intlist / moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) */
int ct_k_movedim_intlist(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, movedim(ARG_T(0), args[1].u.list.data, args[1].u.list.len, args[2].u.list.data,
                                   args[2].u.list.len));
}

/* movedim.int / moveaxis.int(Tensor(a) self, int source, int destination) */
int ct_k_movedim_int(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    int64_t s = ARG_I(1), d = ARG_I(2);
    return ct_ret(rets, 0, movedim(ARG_T(0), &s, 1, &d, 1));
}
