/* CompositeImplicitAutograd bodies of meshgrid (TensorShape.cpp), tensordot (Linear.cpp), kron
 * (LinearAlgebra.cpp's KronImpl) and cartesian_prod (Itertools.cpp): each calls the operators
 * PyTorch 2.6's body calls, in its order, so a dispatch mode sees the same log. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/builtin.h"
#include "ops/kernel_util.h"

/* a new tensor list value of the n tensors (the list and its references move into the value) */
static int ret_list(ct_value *rets, ct_tensor **items, int64_t n) {
    ct_tensor **l = ct_calloc((size_t)(n ? n : 1), sizeof *l);
    if (!l) {
        for (int64_t i = 0; i < n; i++) ct_tensor_release(items[i]);
        return -1;
    }
    memcpy(l, items, (size_t)n * sizeof *l);
    rets[0] = ct_tensor_list_value(l, n);
    return 0;
}

/* How C++'s operator<< prints a tensor (ATen's Formatting.cpp), for the messages that show one:
 * a 2-D tensor of integral values as rows of right-aligned numbers, then its legacy type and sizes
 * ("[ torch.FloatTensor{2,2} ]"). Other tensors show only that last line. */
static char *format_tensor_cpp(const ct_tensor *t) {
    char sizes[256];
    size_t o = 0;
    sizes[0] = '\0';
    for (int d = 0; d < t->ndim && o + 24 < sizeof sizes; d++)
        o += (size_t)snprintf(sizes + o, sizeof sizes - o, d ? ",%lld" : "%lld", (long long)t->sizes[d]);
    double *v = t->ndim == 2 && t->numel > 0 ? ct_to_double_buffer(t) : NULL;
    bool int_mode = v != NULL;
    double max_abs = 0;
    for (int64_t i = 0; v && i < t->numel; i++) {
        if (v[i] != v[i] || v[i] - (double)(int64_t)v[i] != 0) int_mode = false;
        if ((v[i] < 0 ? -v[i] : v[i]) > max_abs) max_abs = v[i] < 0 ? -v[i] : v[i];
    }
    char *body = NULL;
    if (int_mode && max_abs < 1e9) {
        int digits = 1;
        for (double m = max_abs; m >= 10; m /= 10) digits++;
        int sz = digits + 1;
        for (int64_t i = 0; i < t->numel; i++) if (v[i] < 0) { sz++; break; }
        size_t cap = (size_t)t->numel * (size_t)(sz + 2) + 1, n = 0;
        body = ct_malloc(cap);
        for (int64_t r = 0; body && r < t->sizes[0]; r++)
            for (int64_t c = 0; c < t->sizes[1]; c++)
                n += (size_t)snprintf(body + n, cap - n, "%*lld%s", sz, (long long)v[r * t->sizes[1] + c],
                                      c + 1 == t->sizes[1] ? "\n" : " ");
    }
    ct_free(v);
    char *out = ct_asprintf("%s[ %s{%s} ]", body ? body : "", ct_dtype_legacy_type_name(t->dtype), sizes);
    ct_free(body);
    return out;
}

/* meshgrid(tensors, indexing): each tensor viewed along its own dimension and expanded to the
 * grid; "xy" swaps the first two inputs and outputs */
static int meshgrid(ct_tensor **tensors, int64_t size, const char *indexing, ct_value *rets) {
    if (size <= 0) return ct_error_set(CT_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
    for (int64_t i = 0; i + 1 < size; i++)
        if (tensors[i]->dtype != tensors[i + 1]->dtype)
            return ct_error_set(CT_ERR_RUNTIME, "meshgrid expects all tensors to have the same dtype");
    if (size > CT_MAX_DIMS)
        return ct_error_set(CT_ERR_RUNTIME, "meshgrid: %lld tensors make more dimensions than ctorch's limit of %d",
                            (long long)size, CT_MAX_DIMS);
    ct_tensor *refs[CT_MAX_DIMS];
    memcpy(refs, tensors, (size_t)size * sizeof *refs);
    bool swap = false;
    if (strcmp(indexing, "xy") == 0) {
        swap = size >= 2;
        if (swap) refs[0] = tensors[1], refs[1] = tensors[0];
    } else if (strcmp(indexing, "ij") != 0) {
        return ct_error_set(CT_ERR_RUNTIME, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing);
    }
    int64_t shape[CT_MAX_DIMS], view_shape[CT_MAX_DIMS];
    for (int64_t i = 0; i < size; i++) {
        if (refs[i]->ndim > 1) {
            char *repr = format_tensor_cpp(refs[i]);
            if (!repr) return -1;
            ct_error_set(CT_ERR_RUNTIME, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s", repr);
            ct_free(repr);
            return -1;
        }
        shape[i] = refs[i]->numel;
        view_shape[i] = 1;
    }
    ct_tensor *grids[CT_MAX_DIMS] = {NULL};
    for (int64_t i = 0; i < size; i++) {
        view_shape[i] = -1;
        ct_tensor *v = ct_view(refs[i], view_shape, size);
        grids[i] = v ? ct_expand(v, shape, size, false) : NULL;
        ct_tensor_release(v);
        view_shape[i] = 1;
        if (!grids[i]) {
            for (int64_t k = 0; k < i; k++) ct_tensor_release(grids[k]);
            return -1;
        }
    }
    if (swap) {
        ct_tensor *t = grids[0];
        grids[0] = grids[1];
        grids[1] = t;
    }
    return ret_list(rets, grids, size);
}

/* meshgrid(Tensor[] tensors) -> Tensor[]: "ij" (torch.meshgrid's warning is the front-end's) */
int ct_k_meshgrid(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return meshgrid(args[0].u.tlist.items, args[0].u.tlist.len, "ij", rets);
}

/* meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[] */
int ct_k_meshgrid_indexing(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return meshgrid(args[0].u.tlist.items, args[0].u.tlist.len, args[1].u.s, rets);
}

/* t replaced by r (a new reference, or NULL after an error) */
static ct_tensor *step(ct_tensor **t, ct_tensor *r) {
    ct_tensor_release(*t);
    *t = r;
    return r;
}

/* tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other): the contracted
 * dimensions permuted last (self) and first (other), both reshaped to matrices and multiplied */
static ct_tensor *tensordot(ct_tensor *input1, ct_tensor *input2, const ct_value *d1, const ct_value *d2) {
    if (d1->u.list.len != d2->u.list.len) {
        ct_error_set(CT_ERR_RUNTIME, "both dimension lists should have same length");
        return NULL;
    }
    if (input1->dtype != input2->dtype) {
        ct_error_set(CT_ERR_RUNTIME, "both inputs should have same dtype");
        return NULL;
    }
    int64_t n = d1->u.list.len, csize = 1;
    const int64_t *dims1 = d1->u.list.data, *dims2 = d2->u.list.data;
    int64_t w1[CT_MAX_DIMS], w2[CT_MAX_DIMS];
    if (n > CT_MAX_DIMS) {
        ct_error_set(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)dims1[0]);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++)
        if (ct_wrap_dim(dims1[i], input1->ndim, &w1[i]) != 0 || ct_wrap_dim(dims2[i], input2->ndim, &w2[i]) != 0) return NULL;
    ct_tensor *t1 = ct_tensor_retain(input1), *t2 = ct_tensor_retain(input2), *r = NULL;
    for (int64_t i = 0; i < n; i++) {
        int64_t s1 = input1->sizes[w1[i]], s2 = input2->sizes[w2[i]];
        if (s2 == 1) { /* broadcast dimensions are summed right away */
            if (!step(&t1, ct_sum_dim(t1, &dims1[i], 1, true, CT_DTYPE_UNDEFINED))) goto done;
        } else if (s1 == 1) {
            if (!step(&t2, ct_sum_dim(t2, &dims2[i], 1, true, CT_DTYPE_UNDEFINED))) goto done;
        } else {
            if (s1 != s2) {
                ct_error_set(CT_ERR_RUNTIME, "contracted dimensions need to match, but first has size %lld in dim %lld and second has size %lld in dim %lld",
                             (long long)s1, (long long)dims1[i], (long long)s2, (long long)dims2[i]);
                goto done;
            }
            csize *= s1;
        }
    }
    bool c1[CT_MAX_DIMS] = {false}, c2[CT_MAX_DIMS] = {false};
    for (int64_t i = 0; i < n; i++) {
        if (c1[w1[i]] || c2[w2[i]]) {
            ct_error_set(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims",
                         (long long)(c1[w1[i]] ? w1[i] : w2[i]));
            goto done;
        }
        c1[w1[i]] = true;
        c2[w2[i]] = true;
    }
    int64_t p1[CT_MAX_DIMS], p2[CT_MAX_DIMS], rsizes[2 * CT_MAX_DIMS];
    int np1 = 0, np2 = 0, nr = 0;
    int64_t size1 = 1, size2 = 1;
    for (int i = 0; i < input1->ndim; i++)
        if (!c1[i]) {
            p1[np1++] = i;
            size1 *= t1->sizes[i];
            rsizes[nr++] = t1->sizes[i];
        }
    for (int64_t i = 0; i < n; i++) p1[np1++] = dims1[i];
    for (int64_t i = 0; i < n; i++) p2[np2++] = dims2[i];
    for (int i = 0; i < input2->ndim; i++)
        if (!c2[i]) {
            p2[np2++] = i;
            size2 *= t2->sizes[i];
            rsizes[nr++] = t2->sizes[i];
        }
    if (nr > CT_MAX_DIMS) {
        ct_error_set(CT_ERR_RUNTIME, "tensordot: the result has %d dimensions, more than ctorch's limit of %d", nr, CT_MAX_DIMS);
        goto done;
    }
    int64_t m1[2] = {size1, csize}, m2[2] = {csize, size2};
    if (!step(&t1, ct_permute(t1, p1, np1)) || !step(&t1, ct_reshape(t1, m1, 2))) goto done;
    if (!step(&t2, ct_permute(t2, p2, np2)) || !step(&t2, ct_reshape(t2, m2, 2))) goto done;
    r = ct_mm(t1, t2);
    if (r) step(&r, ct_reshape(r, rsizes, nr));
done:
    ct_tensor_release(t1);
    ct_tensor_release(t2);
    return r;
}

/* tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor */
int ct_k_tensordot(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, tensordot(ARG_T(0), ARG_T(1), &args[2], &args[3]));
}

/* kron(Tensor self, Tensor other): self viewed as [s0, 1, s1, 1, ...], other as [1, o0, 1, o1,
 * ...] (both padded to the larger rank), multiplied and viewed as [s0 * o0, s1 * o1, ...] */
int ct_k_kron(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *other = ARG_T(1);
    int maxdim = self->ndim > other->ndim ? self->ndim : other->ndim;
    if (2 * maxdim > CT_MAX_DIMS)
        return ct_error_set(CT_ERR_RUNTIME, "kron: inputs of %d dimensions need %d, more than ctorch's limit of %d", maxdim,
                            2 * maxdim, CT_MAX_DIMS);
    int pad_self = maxdim - self->ndim, pad_other = maxdim - other->ndim;
    int64_t a[CT_MAX_DIMS], b[CT_MAX_DIMS], res[CT_MAX_DIMS];
    for (int i = 0; i < maxdim; i++) {
        a[2 * i] = i >= pad_self ? self->sizes[i - pad_self] : 1;
        a[2 * i + 1] = 1;
        b[2 * i] = 1;
        b[2 * i + 1] = i >= pad_other ? other->sizes[i - pad_other] : 1;
        res[i] = a[2 * i] * b[2 * i + 1];
    }
    ct_tensor *sv = ct__unsafe_view(self, a, 2 * maxdim);
    ct_tensor *ov = sv ? ct__unsafe_view(other, b, 2 * maxdim) : NULL;
    ct_tensor *m = ov ? ct_mul(sv, ov) : NULL;
    ct_tensor *r = m ? ct__unsafe_view(m, res, maxdim) : NULL;
    ct_tensor_release(sv);
    ct_tensor_release(ov);
    ct_tensor_release(m);
    return ct_ret(rets, 0, r);
}

/* cartesian_prod(Tensor[] tensors): the "ij" meshgrid of the vectors, each flattened, stacked
 * along dimension 1 (one vector: itself) */
int ct_k_cartesian_prod(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor **tensors = args[0].u.tlist.items;
    int64_t n = args[0].u.tlist.len;
    for (int64_t i = 0; i < n; i++)
        if (tensors[i]->ndim != 1) {
            char b[256];
            ct_format_shape(tensors[i]->sizes, tensors[i]->ndim, b, sizeof b);
            return ct_error_set(CT_ERR_RUNTIME, "Expect a 1D vector, but got shape %s", b);
        }
    if (n == 1) return ct_ret(rets, 0, ct_tensor_retain(tensors[0]));
    ct_tensor **grids = NULL;
    int64_t ng = 0;
    if (ct_meshgrid_indexing(tensors, n, "ij", &grids, &ng) != 0) return -1;
    int rc = 0;
    for (int64_t i = 0; i < ng && rc == 0; i++)
        if (!step(&grids[i], ct_flatten(grids[i], 0, -1))) rc = -1;
    ct_tensor *r = rc == 0 ? ct_stack(grids, ng, 1) : NULL;
    for (int64_t i = 0; i < ng; i++) ct_tensor_release(grids[i]);
    ct_free(grids);
    return ct_ret(rets, 0, r);
}
