/* CompositeImplicitAutograd bodies of log_softmax.int, nll_loss, nll_loss_nd and
 * cross_entropy_loss (LossNLL.cpp, Loss.cpp, SoftMax.cpp). */
#include <math.h>

#include "ops/builtin.h"
#include "dispatch/call_impl.h"
#include "ops/convert.h"
#include "ops/kernel_util.h"

/* log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) */
int ct_k_log_softmax(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *converted = args[2].tag == CT_TAG_INT ? ct_to_options(self, (ct_dtype)args[2].u.i) : ct_tensor_retain(self);
    if (!converted) return -1;
    ct_tensor *r = ct__log_softmax(converted, ARG_I(1), false);
    ct_tensor_release(converted);
    return ct_ret(rets, 0, r);
}

/* nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt ignore_index=-100) */
int ct_k_nll_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *output = NULL, *total_weight = NULL;
    if (ct_nll_loss_forward(ARG_T(0), ARG_T(1), ARG_OPT_T(2), ARG_I(3), ARG_I(4), &output, &total_weight) != 0) return -1;
    ct_tensor_release(total_weight);
    return ct_ret(rets, 0, output);
}

/* nll_loss_nd: checks, then nll_loss for 1-D and 2-D input */
int ct_k_nll_loss_nd(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1);
    if (self->ndim < 1) return ct_error_set(CT_ERR_VALUE, "Expected 1 or more dimensions (got %d)", self->ndim);
    if (self->ndim != 1 && (target->ndim == 0 || self->sizes[0] != target->sizes[0]))
        return ct_error_set(CT_ERR_VALUE, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                            (long long)self->sizes[0], (long long)(target->ndim ? target->sizes[0] : 0));
    if (self->ndim > 2)
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: nll_loss for inputs of more than 2 dimensions is not implemented yet");
    return ct_ret(rets, 0, ct_nll_loss(self, target, ARG_OPT_T(2), ARG_I(3), ARG_I(4)));
}

/* Temporaries of a composite body, released together. */
typedef struct temps {
    ct_tensor *t[24];
    int n;
    bool failed;
} temps;

/* keeps t (a new reference, or NULL after an error) and returns it */
static ct_tensor *keep(temps *T, ct_tensor *t) {
    if (t && T->n == (int)(sizeof T->t / sizeof T->t[0])) { /* cannot happen with the bodies below */
        ct_tensor_release(t);
        ct_error_set(CT_ERR_RUNTIME, "internal error: too many temporaries in a composite body");
        t = NULL;
    }
    if (!t) T->failed = true;
    else T->t[T->n++] = t;
    return t;
}

static void temps_release(temps *T) {
    for (int i = 0; i < T->n; i++) ct_tensor_release(T->t[i]);
    T->n = 0;
}

/* weight.view(shape): ones of input's rank with C at class_dim (for broadcasting) */
static ct_tensor *weight_broadcast(temps *T, ct_tensor *weight, int ndim, int class_dim) {
    int64_t shape[CT_MAX_DIMS];
    for (int i = 0; i < ndim; i++) shape[i] = 1;
    shape[class_dim] = weight->sizes[0];
    return keep(T, ct_view(weight, shape, ndim));
}

/* cross_entropy_loss_prob_target: the target holds class probabilities (same shape as self) */
static ct_tensor *ce_prob_target(ct_tensor *self, ct_tensor *target_, ct_tensor *weight, int64_t reduction,
                                 double label_smoothing) {
    if (self->ndim == 0) {
        ct_error_set(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    int class_dim = self->ndim == 1 ? 0 : 1;
    int64_t n_classes = self->sizes[class_dim];
    if (weight && (weight->ndim != 1 || weight->numel != n_classes)) {
        char b[256];
        ct_format_shape(weight->sizes, weight->ndim, b, sizeof b);
        ct_error_set(CT_ERR_RUNTIME,
                     "cross_entropy: weight tensor should be defined either for all %lld classes or no classes but got weight tensor of shape: %s",
                     (long long)n_classes, b);
        return NULL;
    }
    temps T = {.n = 0, .failed = false};
    ct_tensor *result = NULL;
    ct_tensor *input = keep(&T, ct_log_softmax(self, class_dim, self->dtype));
    if (T.failed) goto done;
    ct_tensor *target = target_;
    if (label_smoothing > 0.0) {
        if (label_smoothing > 1.0) {
            ct_error_set(CT_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", label_smoothing);
            goto done;
        }
        /* target_ * (1 - label_smoothing) + (label_smoothing / n_classes) */
        ct_tensor *scaled = keep(&T, ct_mul_scalar(target_, ct_double(1 - label_smoothing)));
        target = scaled ? keep(&T, ct_add_scalar(scaled, ct_double(label_smoothing / (double)n_classes), ct_int(1))) : NULL;
        if (T.failed) goto done;
    }
    ct_tensor *w = weight;
    if (weight && input->ndim > 1) w = weight_broadcast(&T, weight, input->ndim, 1);
    ct_tensor *prod = T.failed ? NULL : keep(&T, ct_mul(input, target));
    if (prod && weight) prod = keep(&T, ct_mul(prod, w)); /* input * target * weight_ */
    if (T.failed) goto done;
    if (reduction == 0) { /* none: -(...).sum(class_dim) */
        int64_t d = class_dim;
        ct_tensor *s = keep(&T, ct_sum_dim(prod, &d, 1, false, CT_DTYPE_UNDEFINED));
        result = s ? ct_neg(s) : NULL;
    } else if (reduction == 2) { /* sum */
        ct_tensor *s = keep(&T, ct_sum(prod, CT_DTYPE_UNDEFINED));
        result = s ? ct_neg(s) : NULL;
    } else if (reduction == 1) { /* mean: over the batch (numel / n_classes) */
        ct_tensor *s = keep(&T, ct_sum(prod, CT_DTYPE_UNDEFINED));
        if (s && input->numel == 0) {
            if (ct_fill_(s, ct_double(NAN)) != 0) goto done;
            result = ct_neg(s);
        } else {
            ct_tensor *ng = s ? keep(&T, ct_neg(s)) : NULL;
            result = ng ? ct_div_scalar(ng, ct_int(input->numel / n_classes)) : NULL;
        }
    } else {
        ct_error_set(CT_ERR_RUNTIME, "Invalid reduction type encountered in cross_entropy: %lld", (long long)reduction);
    }
done:
    temps_release(&T);
    return result;
}

/* cross_entropy_loss_label_smoothing: class-index targets with label smoothing:
 * (1 - ls) * nll_loss + ls / C * (the loss against a uniform target). The evaluation order of
 * the operands (right first) is GCC's, as PyTorch's own build shows in its profiler trace. */
static ct_tensor *ce_label_smoothing(ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
    int class_dim = self->ndim == 1 ? 0 : 1;
    temps T = {.n = 0, .failed = false};
    ct_tensor *result = NULL;
    ct_tensor *input = keep(&T, ct_log_softmax(self, class_dim, self->dtype));
    ct_tensor *nllloss = input ? keep(&T, ct_nll_loss_nd(input, target, weight, reduction, ignore_index)) : NULL;
    if (T.failed) goto done;
    int64_t n_classes = input->sizes[class_dim];
    int64_t d = class_dim;
    ct_tensor *smooth_loss;
    if (weight) {
        ct_tensor *w = weight_broadcast(&T, weight, input->ndim, class_dim);
        ct_tensor *p = w ? keep(&T, ct_mul(input, w)) : NULL;
        ct_tensor *s = p ? keep(&T, ct_sum_dim(p, &d, 1, false, CT_DTYPE_UNDEFINED)) : NULL;
        smooth_loss = s ? keep(&T, ct_neg(s)) : NULL;
    } else {
        ct_tensor *s = keep(&T, ct_sum_dim(input, &d, 1, false, CT_DTYPE_UNDEFINED));
        smooth_loss = s ? keep(&T, ct_neg(s)) : NULL;
    }
    ct_tensor *ignore_mask = smooth_loss ? keep(&T, ct_eq_scalar(target, ct_int(ignore_index))) : NULL;
    if (T.failed || ct_masked_fill_(smooth_loss, ignore_mask, ct_double(0.0)) != 0) goto done;

    ct_tensor *ret = NULL;
    if (reduction == 1) {
        if (weight) {
            if (ct_is_tensor_subclass_like(weight)) {
                /* weights gathered at index 0 for ignored targets, then masked out */
                ct_tensor *filtered = keep(&T, ct_masked_fill(target, ignore_mask, ct_int(0)));
                ct_tensor *ff = filtered ? keep(&T, ct_flatten(filtered, 0, -1)) : NULL;
                ct_tensor *tgt_w = ff ? keep(&T, ct_gather(weight, 0, ff, false)) : NULL;
                ct_tensor *mf = tgt_w ? keep(&T, ct_flatten(ignore_mask, 0, -1)) : NULL;
                if (T.failed || ct_masked_fill_(tgt_w, mf, ct_int(0)) != 0) goto done;
                ct_tensor *weight_sum = keep(&T, ct_sum(tgt_w, CT_DTYPE_UNDEFINED));
                ct_tensor *num = weight_sum ? keep(&T, ct_sum(smooth_loss, CT_DTYPE_UNDEFINED)) : NULL;
                ret = num ? keep(&T, ct_div(num, weight_sum)) : NULL;
            } else {
                ct_tensor *keep_mask = keep(&T, ct_bitwise_not(ignore_mask));
                ct_tensor *sel = keep_mask ? keep(&T, ct_masked_select(target, keep_mask)) : NULL;
                ct_tensor *fl = sel ? keep(&T, ct_flatten(sel, 0, -1)) : NULL;
                ct_tensor *g = fl ? keep(&T, ct_gather(weight, 0, fl, false)) : NULL;
                ct_tensor *den = g ? keep(&T, ct_sum(g, CT_DTYPE_UNDEFINED)) : NULL;
                ct_tensor *num = den ? keep(&T, ct_sum(smooth_loss, CT_DTYPE_UNDEFINED)) : NULL;
                ret = num ? keep(&T, ct_div(num, den)) : NULL;
            }
        } else {
            ct_tensor *true_mask = keep(&T, ct_bitwise_not(ignore_mask));
            ct_tensor *den = true_mask ? keep(&T, ct_sum(true_mask, CT_DTYPE_UNDEFINED)) : NULL;
            ct_tensor *num = den ? keep(&T, ct_sum(smooth_loss, CT_DTYPE_UNDEFINED)) : NULL;
            ret = num ? keep(&T, ct_div(num, den)) : NULL;
        }
    } else if (reduction == 2) {
        ret = keep(&T, ct_sum(smooth_loss, CT_DTYPE_UNDEFINED));
    } else if (reduction == 0) {
        ret = smooth_loss;
    } else {
        ct_error_set(CT_ERR_RUNTIME, "Invalid reduction type encountered in cross_entropy: %lld", (long long)reduction);
        goto done;
    }
    if (!ret) goto done;
    ct_tensor *right = keep(&T, ct_mul_scalar(ret, ct_double(label_smoothing / (double)n_classes)));
    ct_tensor *left = right ? keep(&T, ct_mul_scalar(nllloss, ct_double(1 - label_smoothing))) : NULL;
    result = left ? ct_add(left, right, ct_int(1)) : NULL;
done:
    temps_release(&T);
    return result;
}

/* cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1,
 *                    SymInt ignore_index=-100, float label_smoothing=0.):
 * class-probability targets when target has self's shape, else class indices, with label
 * smoothing when asked (LossNLL.cpp: cross_entropy_loss_symint). */
int ct_k_cross_entropy_loss(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0), *target = ARG_T(1), *weight = ARG_OPT_T(2);
    int64_t reduction = ARG_I(3), ignore_index = ARG_I(4);
    double smoothing = args[5].u.d;
    bool same_shape = self->ndim == target->ndim;
    for (int i = 0; same_shape && i < self->ndim; i++) same_shape = self->sizes[i] == target->sizes[i];
    if (same_shape) {
        if (!ct_dtype_is_floating(target->dtype))
            return ct_error_set(CT_ERR_RUNTIME, "Expected floating point type for target with class probabilities, got %s",
                                ct_dtype_name(target->dtype));
        if (ignore_index >= 0) return ct_error_set(CT_ERR_RUNTIME, "ignore_index is not supported for floating point target");
        return ct_ret(rets, 0, ce_prob_target(self, target, weight, reduction, smoothing));
    }
    if (smoothing > 0.0) {
        if (smoothing > 1.0) return ct_error_set(CT_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", smoothing);
        return ct_ret(rets, 0, ce_label_smoothing(self, target, weight, reduction, ignore_index, smoothing));
    }
    int64_t class_dim = self->ndim == 1 ? 0 : 1;
    ct_tensor *lsm = ct_log_softmax(self, class_dim, self->dtype);
    if (!lsm) return -1;
    ct_tensor *r = ct_nll_loss_nd(lsm, target, weight, reduction, ignore_index);
    ct_tensor_release(lsm);
    return ct_ret(rets, 0, r);
}
