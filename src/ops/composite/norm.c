/* Composite bodies of the normalization ops (Normalization.cpp, group_norm.cpp):
 * batch_norm, _batch_norm_impl_index and instance_norm are CompositeImplicitAutograd, so
 * autograd records and modes see their constituents, every one through the dispatcher, in
 * PyTorch 2.6's order on the CPU. */
#include <string.h>

#include "ops/api_call.h"
#include "ops/cpu/group_norm.h"
#include "ops/kernel_util.h"

/* _batch_norm_impl_index on the CPU: an empty input is cloned (times weight[0], plus bias[0]) with
 * uninitialised statistics of the accumulate type; otherwise the running statistics and
 * parameters are checked against the channels, the byte-typed reserve allocated and
 * native_batch_norm run (backend 0). */
static int impl_index(ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_tensor *rm, ct_tensor *rv, bool training,
                      double momentum, double eps, ct_tensor *out[4]) {
    memset(out, 0, 4 * sizeof *out);
    /* input.sym_sizes()[1] is read unchecked: an empty input of one dimension takes the empty
     * path (ctorch with no features), another one fails in native_batch_norm's size(1) */
    if (input->ndim < 2 && input->numel != 0)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)",
                            input->ndim ? input->ndim : 1, input->ndim ? input->ndim - 1 : 0);
    const int64_t C = input->ndim >= 2 ? input->sizes[1] : 0, zero = 0;
    if (input->numel == 0) {
        const ct_dtype acc = input->dtype == CT_FLOAT32 || ct_dtype_is_reduced_floating(input->dtype) ? CT_FLOAT64 : input->dtype;
        out[3] = ct_empty(&zero, 1, CT_UINT8, CT_MEMORY_FORMAT_NONE);
        out[1] = out[3] ? ct_empty(&C, 1, acc, CT_MEMORY_FORMAT_NONE) : NULL;
        out[2] = out[1] ? ct_empty(&C, 1, acc, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor *o = out[2] ? ct_clone(input, CT_MEMORY_FORMAT_NONE) : NULL;
        if (o && weight) {
            ct_tensor *w0 = ct_select(weight, 0, 0);
            ct_tensor *r = w0 ? ct_mul(o, w0) : NULL;
            ct_tensor_release(w0);
            ct_tensor_release(o);
            o = r;
        }
        if (o && bias) {
            ct_tensor *b0 = ct_select(bias, 0, 0);
            ct_tensor *r = b0 ? ct_add(o, b0, ct_int(1)) : NULL;
            ct_tensor_release(b0);
            ct_tensor_release(o);
            o = r;
        }
        out[0] = o;
        if (o) return 0;
        for (int i = 0; i < 4; i++) ct_tensor_release(out[i]);
        return -1;
    }
    struct {
        const char *name;
        const ct_tensor *t;
    } checks[4] = {{"running_mean", rm}, {"running_var", rv}, {"weight", weight}, {"bias", bias}};
    for (int i = 0; i < 4; i++) {
        if (checks[i].t && checks[i].t->numel != C)
            return ct_error_set(CT_ERR_RUNTIME, "%s should contain %lld elements not %lld", checks[i].name, (long long)C,
                                (long long)checks[i].t->numel);
        if (!checks[i].t && i < 2 && !training)
            return ct_error_set(CT_ERR_RUNTIME, "%s must be defined in evaluation mode", checks[i].name);
    }
    out[3] = ct_empty(&zero, 1, CT_UINT8, CT_MEMORY_FORMAT_NONE);
    if (!out[3]) return -1;
    if (ct_native_batch_norm(input, weight, bias, rm, rv, training, momentum, eps, &out[0], &out[1], &out[2]) != 0) {
        ct_tensor_release(out[3]);
        out[3] = NULL;
        return -1;
    }
    return 0;
}

/* _batch_norm_impl_index(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled)
 *   -> (Tensor, Tensor, Tensor, Tensor, int) */
int ct_k__batch_norm_impl_index(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *o[4];
    if (impl_index(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), ARG_OPT_T(3), ARG_OPT_T(4), ARG_B(5), args[6].u.d, args[7].u.d, o) != 0)
        return -1;
    for (int i = 0; i < 4; i++) rets[i] = ct_tensor_value(o[i]);
    rets[4] = ct_int(0);
    return 0;
}

/* batch_norm(...) -> Tensor: the first result of _batch_norm_impl_index */
int ct_k_batch_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *o[4];
    if (impl_index(ARG_T(0), ARG_OPT_T(1), ARG_OPT_T(2), ARG_OPT_T(3), ARG_OPT_T(4), ARG_B(5), args[6].u.d, args[7].u.d, o) != 0)
        return -1;
    for (int i = 1; i < 4; i++) ct_tensor_release(o[i]);
    return ct_ret(rets, 0, o[0]);
}

/* instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled):
 *   batch_norm of the input viewed as [1, b * c, ...] with the parameters and running statistics
 *   repeated b times; the running statistics get the mean over the batch of the updated copies */
int ct_k_instance_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_OPT_T(1), *bias = ARG_OPT_T(2), *rm = ARG_OPT_T(3), *rv = ARG_OPT_T(4);
    bool use_input_stats = ARG_B(5);
    if (!use_input_stats && (!rm || !rv))
        return ct_error_set(CT_ERR_RUNTIME, "Expected running_mean and running_var to be defined when use_input_stats is false");
    if (input->ndim < 2)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)",
                            input->ndim ? input->ndim : 1, input->ndim ? input->ndim - 1 : 0);
    const int64_t b = input->sizes[0], c = input->sizes[1];
    int64_t shape[CT_MAX_DIMS];
    memcpy(shape, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    shape[1] = b * c;
    shape[0] = 1;
    ct_tensor *src[4] = {weight, bias, rm, rv}, *rep[4] = {NULL, NULL, NULL, NULL};
    ct_tensor *contig = NULL, *reshaped = NULL, *out = NULL;
    int rc = -1;
    for (int i = 0; i < 4; i++)
        if (src[i] && !(rep[i] = ct_repeat(src[i], &b, 1))) goto done;
    contig = ct_contiguous(input, CT_CONTIGUOUS_FORMAT);
    reshaped = contig ? ct_view(contig, shape, input->ndim) : NULL;
    if (!reshaped) goto done;
    out = ct_batch_norm(reshaped, rep[0], rep[1], rep[2], rep[3], use_input_stats, args[6].u.d, args[7].u.d, ARG_B(8));
    if (!out) goto done;
    for (int i = 2; i < 4; i++) {
        if (!src[i]) continue;
        int64_t bc[2] = {b, c}, d0 = 0;
        ct_tensor *al = ct_alias(src[i]);
        ct_tensor *v = al ? ct_view(rep[i], bc, 2) : NULL;
        ct_tensor *m = v ? ct_mean_dim(v, &d0, 1, false, CT_DTYPE_UNDEFINED) : NULL;
        int crc = m ? ct_copy_(al, m, false) : -1;
        ct_tensor_release(al);
        ct_tensor_release(v);
        ct_tensor_release(m);
        if (crc != 0) goto done;
    }
    rc = ct_ret(rets, 0, ct_view(out, input->sizes, input->ndim));
done:
    for (int i = 0; i < 4; i++) ct_tensor_release(rep[i]);
    ct_tensor_release(contig);
    ct_tensor_release(reshaped);
    ct_tensor_release(out);
    return rc;
}

/* group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
 *   float eps=1e-05, bool cudnn_enabled=True): the inputs checked, then native_group_norm of the
 *   contiguous input and parameters with N, C and HxW from its shape */
int ct_k_group_norm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *input = ARG_T(0), *weight = ARG_OPT_T(2), *bias = ARG_OPT_T(3);
    const int64_t G = ARG_I(1);
    if (input->ndim < 2)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)",
                            input->ndim ? input->ndim : 1, input->ndim ? input->ndim - 1 : 0);
    const int64_t N = input->sizes[0], C = input->sizes[1];
    if (ct_group_norm_check_inputs(input, weight, bias, C, G) != 0) return -1;
    int64_t HxW = 1;
    for (int d = 2; d < input->ndim; d++) HxW *= input->sizes[d];
    ct_tensor *x = ct_contiguous(input, CT_CONTIGUOUS_FORMAT);
    ct_tensor *g = x && weight ? ct_contiguous(weight, CT_CONTIGUOUS_FORMAT) : NULL;
    ct_tensor *b = x && bias && (!weight || g) ? ct_contiguous(bias, CT_CONTIGUOUS_FORMAT) : NULL;
    ct_tensor *y = NULL, *mean = NULL, *rstd = NULL;
    int rc = -1;
    if (x && (!weight || g) && (!bias || b) && ct_native_group_norm(x, g, b, N, C, HxW, G, args[4].u.d, &y, &mean, &rstd) == 0)
        rc = ct_ret(rets, 0, y);
    ct_tensor_release(mean);
    ct_tensor_release(rstd);
    ct_tensor_release(x);
    ct_tensor_release(g);
    ct_tensor_release(b);
    return rc;
}

/* pdist(Tensor self, float p=2.): the checks, then _pdist_forward of the contiguous input */
int ct_k_pdist(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x = ARG_T(0);
    const double p = args[1].u.d;
    if (x->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "pdist only supports 2D tensors, got: %dD", x->ndim);
    if (!ct_dtype_is_floating(x->dtype)) return ct_error_set(CT_ERR_RUNTIME, "pdist only supports floating-point dtypes");
    if (!(p >= 0)) return ct_error_set(CT_ERR_RUNTIME, "pdist only supports non-negative p values");
    ct_tensor *c = ct_contiguous(x, CT_CONTIGUOUS_FORMAT);
    ct_tensor *r = c ? ct__pdist_forward(c, p) : NULL;
    ct_tensor_release(c);
    return ct_ret(rets, 0, r);
}
