/* The CompositeImplicitAutograd ops of the scatter and padding family, each calling through the
 * dispatcher what PyTorch's C++ calls, so a dispatch mode sees the same ops: gather_backward
 * (TensorAdvancedIndexing.cpp), nonzero_numpy and argwhere, pad / _pad_enum / _pad_circular
 * (PadNd.cpp), clip.Tensor and clip_.Tensor (TensorCompare.cpp), and the size queries
 * sym_size.int, sym_stride.int, sym_numel, sym_storage_offset (plain ints: ctorch has no symbolic
 * sizes). */
#include <math.h>
#include <string.h>

#include "ops/api_call.h"
#include "ops/kernel_util.h"

/* gather_backward(Tensor grad, Tensor self, int dim, Tensor index, bool sparse_grad) -> Tensor:
 * grad.new_zeros(self.sizes()).scatter_add_(dim, index, grad), the out-of-place scatter_add for
 * subclass-like tensors (a dispatch mode on) */
int ct_k_gather_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *grad = ARG_T(0), *self = ARG_T(1), *index = ARG_T(3);
    int64_t dim = ARG_I(2);
    if (ARG_B(4))
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: gather's sparse gradient (aten::_gather_sparse_backward) is not implemented");
    ct_tensor *z = ct_new_zeros(grad, self->sizes, self->ndim, CT_DTYPE_UNDEFINED);
    if (!z) return -1;
    if (ct_is_tensor_subclass_like(index) || ct_is_tensor_subclass_like(grad)) {
        ct_tensor *r = ct_scatter_add(z, dim, index, grad);
        ct_tensor_release(z);
        return ct_ret(rets, 0, r);
    }
    if (ct_scatter_add_(z, dim, index, grad) != 0) {
        ct_tensor_release(z);
        return -1;
    }
    return ct_ret(rets, 0, z);
}

/* nonzero_numpy(Tensor self) -> Tensor[]: self.nonzero().unbind(1), a 0-dim self unsqueezed first */
int ct_k_nonzero_numpy(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *u = self->ndim == 0 ? ct_unsqueeze(self, 0) : ct_tensor_retain(self);
    if (!u) return -1;
    ct_tensor *nz = ct_nonzero(u);
    ct_tensor_release(u);
    if (!nz) return -1;
    ct_value a[2] = {ct_tensor_value(nz), ct_int(1)};
    int rc = ct_api_call(CT_OPID_unbind_int, a, rets);
    ct_tensor_release(nz);
    return rc;
}

/* argwhere(Tensor self) -> Tensor: nonzero */
int ct_k_argwhere(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_nonzero(ARG_T(0)));
}

/* ---- pad ------------------------------------------------------------------------------------- */

/* at::padding_mode's numbers */
enum { PAD_REFLECT = 0, PAD_REPLICATE = 1, PAD_CIRCULAR = 2, PAD_CONSTANT = 3 };

static const char *mode_name(int64_t m) {
    switch (m) {
    case PAD_CONSTANT: return "constant";
    case PAD_REFLECT: return "reflect";
    case PAD_REPLICATE: return "replicate";
    case PAD_CIRCULAR: return "circular";
    default: return "";
    }
}

/* _pad_circular(Tensor self, SymInt[] pad) -> Tensor: a new_empty result, the input copied into
 * its middle, then each padded dimension's left and right parts copied from the other end of
 * the result (corners written more than once), all through slice and copy_ */
int ct_k__pad_circular(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *pad = args[1].u.list.data;
    int64_t np = args[1].u.list.len;
    int64_t nd = self->ndim, npd = np / 2, nnp = nd - npd;
    if (nnp != 1 && nnp != 2)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent to padding of "
                            "length %lld or %lld respectively but got %lld",
                            (long long)((nd - 1) * 2), (long long)((nd - 2) * 2), (long long)np);
    int64_t out_shape[CT_MAX_DIMS];
    for (int64_t i = 0; i < nnp; i++) out_shape[i] = self->sizes[i];
    for (int64_t i = 0; i < npd; i++) {
        int64_t l = pad[2 * (npd - i - 1)], r = pad[2 * (npd - i - 1) + 1], size = self->sizes[nnp + i];
        out_shape[nnp + i] = size + l + r;
        if (!(l <= size && r <= size)) return ct_error_set(CT_ERR_RUNTIME, "Padding value causes wrapping around more than once.");
        if (out_shape[nnp + i] < 0) return ct_error_set(CT_ERR_RUNTIME, "Negative padding value is resulting in an empty dimension");
    }
    ct_tensor *out = ct_new_empty(self, out_shape, nd, CT_DTYPE_UNDEFINED);
    if (!out) return -1;
    ct_tensor *os = ct_tensor_retain(out), *is = ct_tensor_retain(self);
    int rc = 0;
    for (int64_t i = 0; i < npd && rc == 0; i++) {
        int64_t dim = npd - i + nnp - 1, l = pad[2 * i], r = pad[2 * i + 1];
        int64_t s0 = l > 0 ? l : 0, e0 = out_shape[dim] - (r > 0 ? r : 0);
        ct_tensor *n1 = ct_slice(os, dim, &s0, &e0, 1);
        int64_t s1 = -l > 0 ? -l : 0, e1 = self->sizes[dim] - (-r > 0 ? -r : 0);
        ct_tensor *n2 = n1 ? ct_slice(is, dim, &s1, &e1, 1) : NULL;
        ct_tensor_release(os);
        ct_tensor_release(is);
        os = n1;
        is = n2;
        if (!n1 || !n2) rc = -1;
    }
    if (rc == 0) rc = ct_copy_(os, is, false);
    ct_tensor_release(os);
    ct_tensor_release(is);
    for (int64_t i = 0; i < npd && rc == 0; i++) {
        int64_t dim = npd - i + nnp - 1, l = pad[2 * i], r = pad[2 * i + 1];
        int64_t rpos = r > 0 ? r : 0, lpos = l > 0 ? l : 0;
        if (l > 0) {
            int64_t a0 = 0, a1 = l, b0 = out_shape[dim] - l - rpos, b1 = out_shape[dim] - rpos;
            ct_tensor *o = ct_slice(out, dim, &a0, &a1, 1);
            ct_tensor *in = o ? ct_slice(out, dim, &b0, &b1, 1) : NULL;
            rc = in ? ct_copy_(o, in, false) : -1;
            ct_tensor_release(o);
            ct_tensor_release(in);
        }
        if (rc == 0 && r > 0) {
            int64_t a0 = out_shape[dim] - r, a1 = out_shape[dim], b0 = lpos, b1 = lpos + r;
            ct_tensor *o = ct_slice(out, dim, &a0, &a1, 1);
            ct_tensor *in = o ? ct_slice(out, dim, &b0, &b1, 1) : NULL;
            rc = in ? ct_copy_(o, in, false) : -1;
            ct_tensor_release(o);
            ct_tensor_release(in);
        }
    }
    if (rc != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

static int pad_enum(ct_tensor *self, const ct_value *padv, int64_t mode, const ct_value *value, ct_value *rets) {
    int64_t np = padv->u.list.len, dim = self->ndim;
    if (np % 2 != 0) return ct_error_set(CT_ERR_RUNTIME, "Padding length must be divisible by 2");
    if (np > dim * 2)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Padding length should be less than or equal to two times the input dimension but got padding length %lld "
                            "and input of dimension %lld",
                            (long long)np, (long long)dim);
    bool has_value = value->tag != CT_TAG_NONE;
    double v = has_value ? (value->tag == CT_TAG_DOUBLE ? value->u.d : (double)value->u.i) : 0.0;
    if (mode == PAD_CONSTANT) {
        ct_tensor *r = ct_constant_pad_nd(self, padv->u.list.data, np, ct_double(v));
        return ct_ret(rets, 0, r);
    }
    if (has_value && v != 0)
        return ct_error_set(CT_ERR_RUNTIME, "Padding mode \"%s\" doesn't take in value argument", mode_name(mode));
    const int64_t *p = padv->u.list.data;
    ct_tensor *r = NULL;
    bool matched = true;
    if (np == 2 && (dim == 2 || dim == 3)) {
        if (mode == PAD_REFLECT) r = ct_reflection_pad1d(self, p, np);
        else if (mode == PAD_REPLICATE) r = ct_replication_pad1d(self, p, np);
        else if (mode == PAD_CIRCULAR) r = ct__pad_circular(self, p, np);
        else matched = false;
    } else if (np == 4 && (dim == 3 || dim == 4)) {
        if (mode == PAD_REFLECT) r = ct_reflection_pad2d(self, p, np);
        else if (mode == PAD_REPLICATE) r = ct_replication_pad2d(self, p, np);
        else if (mode == PAD_CIRCULAR) r = ct__pad_circular(self, p, np);
        else matched = false;
    } else if (np == 6 && (dim == 4 || dim == 5)) {
        if (mode == PAD_REFLECT) r = ct_reflection_pad3d(self, p, np);
        else if (mode == PAD_REPLICATE) r = ct_replication_pad3d(self, p, np);
        else if (mode == PAD_CIRCULAR) r = ct__pad_circular(self, p, np);
        else matched = false;
    } else {
        matched = false;
    }
    if (!matched)
        return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
    return ct_ret(rets, 0, r);
}

/* _pad_enum(Tensor self, SymInt[] pad, int mode, float? value=None) -> Tensor */
int ct_k__pad_enum(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return pad_enum(ARG_T(0), &args[1], ARG_I(2), &args[3], rets);
}

/* pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor: the mode's
 * name to its number, then _pad_enum's body (called directly, not dispatched, as PyTorch does) */
int ct_k_pad(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    const char *mode = args[2].u.s;
    int64_t m = -1;
    for (int64_t i = 0; i < 4; i++)
        if (strcmp(mode, mode_name(i)) == 0) m = i;
    if (m < 0) return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "Unrecognised padding mode %s", mode);
    return pad_enum(ARG_T(0), &args[1], m, &args[3], rets);
}

/* ---- clip.Tensor ----------------------------------------------------------------------------- */

/* clip.Tensor and clip_.Tensor: clamp.Tensor and clamp_.Tensor through the dispatcher */
int ct_k_clip_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value a[3] = {args[0], args[1], args[2]};
    return ct_api_call(CT_OPID_clamp_tensor, a, rets);
}

int ct_k_clip__tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value a[3] = {args[0], args[1], args[2]};
    return ct_api_call(CT_OPID_clamp__tensor, a, rets);
}

/* ---- sym_size.int, sym_stride.int, sym_numel, sym_storage_offset -------------------------------- */

/* maybe_wrap_dim(dim, ndim, wrap_scalar=false): a 0-dim tensor has no dimension to ask about */
static int query_dim(const ct_tensor *self, int64_t dim, int64_t *out) {
    if (self->ndim == 0)
        return ct_error_set(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
    return ct_wrap_dim(dim, self->ndim, out);
}

int ct_k_sym_size_int(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d;
    if (query_dim(self, ARG_I(1), &d) != 0) return -1;
    rets[0] = ct_int(self->sizes[d]);
    return 0;
}

int ct_k_sym_stride_int(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    int64_t d;
    if (query_dim(self, ARG_I(1), &d) != 0) return -1;
    rets[0] = ct_int(self->strides[d]);
    return 0;
}

int ct_k_sym_numel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_int(ARG_T(0)->numel);
    return 0;
}

int ct_k_sym_storage_offset(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_int(ARG_T(0)->storage_offset);
    return 0;
}
