/* The neural-network activations and their backward ops (softplus, silu, mish, hardtanh,
 * leaky_relu, elu, hardsigmoid, hardswish, log_sigmoid_forward/backward, threshold, relu_,
 * softshrink, hardshrink) and the pointwise losses (mse_loss, smooth_l1_loss, huber_loss,
 * binary_cross_entropy with their backward ops).
 *
 * Note [One activation kernel]
 *   Every op is a kind of act_kind below run through one body, act_apply(), which does what the
 *   structured TensorIterator kernels of PyTorch do for them: the inputs are brought to their
 *   common dtype, the result keeps it (in place: self), an output of the broadcast shape is laid
 *   out after the inputs. Floating dtypes only, except hardtanh, threshold and relu_, which PyTorch
 *   also runs on integers; the refusal names the kernel as PyTorch's dispatch macro does
 *   ("silu_cpu" not implemented for 'Long'). Elements are computed in double and rounded once
 *   (PyTorch computes float16/bfloat16 in float; the results agree within their tolerances);
 *   contiguous float32 silu, softplus, leaky_relu and hardtanh run through the per-CPU-level
 *   loops of vec/nnact_vec.c. */
#include <math.h>
#include <string.h>

#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/vec/nnact_vec.h"
#include "ops/kernel_util.h"

typedef enum {
    A_SOFTPLUS, A_SOFTPLUS_BW, A_SILU, A_SILU_BW, A_MISH, A_MISH_BW, A_HARDTANH, A_HARDTANH_BW,
    A_LEAKY, A_LEAKY_BW, A_ELU, A_ELU_BW, A_ELU_BW_RESULT, A_HARDSIGMOID, A_HARDSIGMOID_BW,
    A_HARDSWISH, A_HARDSWISH_BW, A_LOGSIG_BW, A_THRESHOLD, A_SOFTSHRINK, A_SHRINK_BW, A_HARDSHRINK,
    A_MSE, A_MSE_BW, A_SMOOTH_L1, A_SMOOTH_L1_BW, A_HUBER, A_HUBER_BW, A_BCE, A_BCE_W, A_BCE_BW
} act_kind;

typedef struct actx {
    act_kind kind;
    int nin;
    ct_dtype dt;
    double p[3];
} actx;

static double sigm(double x) { return 1.0 / (1.0 + exp(-x)); }

static double act_elem(const actx *c, const double *x) {
    const double *p = c->p;
    switch (c->kind) {
    case A_SOFTPLUS: return x[0] * p[0] > p[1] ? x[0] : log1p(exp(x[0] * p[0])) / p[0];
    case A_SOFTPLUS_BW: {
        double z = exp(x[1] * p[0]);
        return x[1] * p[0] > p[1] ? x[0] : x[0] * z / (z + 1.0);
    }
    case A_SILU: return x[0] / (1.0 + exp(-x[0]));
    case A_SILU_BW: {
        double s = sigm(x[1]);
        return x[0] * s * (1.0 + x[1] * (1.0 - s));
    }
    case A_MISH: return x[0] * tanh(log1p(exp(x[0])));
    case A_MISH_BW: {
        double s = sigm(x[1]), t = tanh(log1p(exp(x[1])));
        return x[0] * (t + x[1] * s * (1.0 - t * t));
    }
    case A_HARDTANH: return isnan(x[0]) ? x[0] : x[0] < p[0] ? p[0] : x[0] > p[1] ? p[1] : x[0];
    case A_HARDTANH_BW: return (x[1] <= p[0] || x[1] >= p[1]) ? 0.0 : x[0];
    case A_LEAKY: return x[0] > 0 ? x[0] : x[0] * p[0];
    case A_LEAKY_BW: return x[1] > 0 ? x[0] : x[0] * p[0];
    case A_ELU: /* p: alpha, scale, input_scale */
        return x[0] <= 0 ? expm1(x[0] * p[2]) * p[0] * p[1] : x[0] * p[1];
    case A_ELU_BW: return x[1] <= 0 ? x[0] * p[2] * p[0] * p[1] * exp(x[1] * p[2]) : x[0] * p[1];
    case A_ELU_BW_RESULT: return x[1] <= 0 ? x[0] * p[2] * (x[1] + p[0] * p[1]) : x[0] * p[1];
    case A_HARDSIGMOID: return fmin(fmax(x[0] + 3.0, 0.0), 6.0) / 6.0;
    case A_HARDSIGMOID_BW: /* grad * one_sixth, the float constant 1.0f / 6.0f at every dtype (Activation.cpp) */
        return (x[1] > -3.0 && x[1] < 3.0) ? x[0] * (double)(1.0f / 6.0f) : 0.0;
    case A_HARDSWISH: return x[0] * fmin(fmax(x[0] + 3.0, 0.0), 6.0) / 6.0;
    case A_HARDSWISH_BW: return x[1] < -3.0 ? 0.0 : x[1] <= 3.0 ? x[0] * (x[1] / 3.0 + 0.5) : x[0];
    case A_LOGSIG_BW: { /* dy, self, buffer */
        double md = x[1] < 0 ? 1.0 : 0.0, sg = x[1] < 0 ? 1.0 : -1.0;
        return (md - sg * (x[2] / (1.0 + x[2]))) * x[0];
    }
    case A_THRESHOLD: return x[0] <= p[0] ? p[1] : x[0];
    case A_SOFTSHRINK: return x[0] > p[0] ? x[0] - p[0] : x[0] < -p[0] ? x[0] + p[0] : 0.0;
    case A_SHRINK_BW: return (x[1] >= -p[0] && x[1] <= p[0]) ? 0.0 : x[0];
    case A_HARDSHRINK: return (x[0] >= -p[0] && x[0] <= p[0]) ? 0.0 : x[0];
    case A_MSE: return (x[0] - x[1]) * (x[0] - x[1]);
    case A_MSE_BW: return p[0] * (x[1] - x[2]) * x[0]; /* grad, self, target; p: 2 or 2/n */
    case A_SMOOTH_L1: {
        double z = fabs(x[0] - x[1]);
        return z < p[0] ? 0.5 * z * z / p[0] : z - 0.5 * p[0];
    }
    case A_SMOOTH_L1_BW: { /* grad, self, target; p: beta, norm */
        double d = x[1] - x[2];
        return d < -p[0] ? -p[1] * x[0] : d > p[0] ? p[1] * x[0] : p[1] * d / p[0] * x[0];
    }
    case A_HUBER: {
        double z = fabs(x[0] - x[1]);
        return z < p[0] ? 0.5 * z * z : p[0] * (z - 0.5 * p[0]);
    }
    case A_HUBER_BW: {
        double d = x[1] - x[2];
        return d < -p[0] ? -p[1] * x[0] * p[0] : d > p[0] ? p[1] * x[0] * p[0] : p[1] * d * x[0];
    }
    case A_BCE:
    case A_BCE_W: {
        double l1 = fmax(log(x[0]), -100.0), l2 = fmax(log1p(-x[0]), -100.0);
        double r = (x[1] - 1.0) * l2 - x[1] * l1;
        return c->kind == A_BCE_W ? r * x[2] : r;
    }
    case A_BCE_BW: /* grad, self, target; p: norm (the weight multiplies after) */
        return p[0] * x[0] * (x[1] - x[2]) / fmax((1.0 - x[1]) * x[1], 1e-12);
    }
    return 0.0;
}

static void elem(char **ptr, void *vctx) {
    const actx *c = vctx;
    double x[3];
    for (int i = 0; i < c->nin; i++) x[i] = ct_load_as_double(ptr[1 + i], c->dt);
    double r = act_elem(c, x);
    ct_store_from_double(ptr[0], c->dt, r); /* integers (hardtanh, threshold): the values are whole */
}

/* the float32 loop of vec/nnact_vec.c over [begin, end) */
typedef struct f32_job {
    const actx *c;
    const float *x;
    float *y;
} f32_job;

static int f32_chunk(void *vj, int64_t begin, int64_t end) {
    const f32_job *j = vj;
    float par[2] = {(float)j->c->p[0], (float)j->c->p[1]};
    int op = j->c->kind == A_SILU ? CT_NNV_SILU : j->c->kind == A_SOFTPLUS ? CT_NNV_SOFTPLUS
             : j->c->kind == A_LEAKY ? CT_NNV_LEAKY_RELU : CT_NNV_HARDTANH;
    ct_vec()->nnact_f32(op, j->x + begin, end - begin, par, j->y + begin);
    return 0;
}

static bool run_f32(ct_tensor *out, ct_tensor *in, const actx *c) {
    if (c->kind != A_SILU && c->kind != A_SOFTPLUS && c->kind != A_LEAKY && c->kind != A_HARDTANH) return false;
    if (out->dtype != CT_FLOAT32 || in->dtype != CT_FLOAT32 || in->numel != out->numel || !ct_tensor_is_contiguous(out) ||
        !ct_tensor_is_contiguous(in))
        return false;
    f32_job j = {c, ct_tensor_data_ptr(in), ct_tensor_data_ptr(out)};
    if (out->numel > CT_GRAIN_SIZE) ct_parallel_for(0, out->numel, CT_GRAIN_SIZE, f32_chunk, &j);
    else f32_chunk(&j, 0, out->numel);
    return true;
}

static void run(ct_tensor *out, ct_tensor *const *ins, actx *c) {
    if (out->numel == 0) return;
    if (c->nin == 1 && run_f32(out, ins[0], c)) return;
    int64_t strides[4][CT_MAX_DIMS]; /* ct_for_each's limit: out and three inputs */
    char *bases[4];
    size_t es[4];
    memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
    bases[0] = ct_tensor_data_ptr(out);
    es[0] = ct_dtype_size(out->dtype);
    for (int i = 0; i < c->nin; i++) {
        ct_broadcast_strides(ins[i], out->sizes, out->ndim, strides[i + 1]);
        bases[i + 1] = ct_tensor_data_ptr(ins[i]);
        es[i + 1] = ct_dtype_size(ins[i]->dtype);
    }
    ct_for_each(out->sizes, out->ndim, c->nin + 1, bases, strides, es, elem, c);
}

/* out = kind(ins) in their common dtype; self_out: the in-place target (NULL: a new tensor);
 * kname: the name of PyTorch's kernel in "not implemented for" messages; ints: integers allowed */
static ct_tensor *act_tensor(ct_tensor *const *ins, int nin, actx *c, ct_tensor *self_out, const char *kname, bool ints) {
    ct_dtype common = ct_result_type_n(ins, nin);
    if (!ct_dtype_is_floating(common) && (!ints || common == CT_BOOL)) {
        ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kname, ct_dtype_name(common));
        return NULL;
    }
    if (self_out && ct_assert_no_internal_overlap(self_out) != 0) return NULL;
    int64_t shape[CT_MAX_DIMS];
    int nd = ins[0]->ndim;
    memcpy(shape, ins[0]->sizes, sizeof(int64_t) * (size_t)nd);
    for (int i = 1; i < nin; i++) {
        int64_t tmp[CT_MAX_DIMS];
        int nt;
        if (ct_broadcast_shapes(shape, nd, ins[i]->sizes, ins[i]->ndim, tmp, &nt) != 0) return NULL;
        memcpy(shape, tmp, sizeof(int64_t) * (size_t)nt);
        nd = nt;
    }
    const int resize = self_out ? ct_out_mark_resize(self_out, shape, nd, ins, nin) : 0;
    if (resize < 0) return NULL;
    if (resize && ct_out_resize(self_out, shape, nd, (const ct_tensor *const *)ins, nin) != 0) return NULL;
    ct_iter_casts k;
    if (ct_iter_cast_begin(&k, self_out, ins, nin, common, true) != 0) return NULL;
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(shape, nd, common, (const ct_tensor *const *)k.in, nin);
        if (!out) {
            ct_iter_cast_end(&k, -1);
            return NULL;
        }
    }
    c->nin = nin;
    c->dt = common;
    run(out, k.in, c);
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!self_out) ct_tensor_release(out);
        return NULL;
    }
    return self_out ? ct_tensor_retain(self_out) : out;
}

static int act_ret(ct_tensor *const *ins, int nin, actx *c, ct_tensor *self_out, const char *kname, bool ints, ct_value *rets) {
    ct_tensor *r = act_tensor(ins, nin, c, self_out, kname, ints);
    if (!r) return -1;
    if (self_out) {
        ct_tensor_release(r);
        return ct_ret_self(rets, self_out);
    }
    return ct_ret(rets, 0, r);
}

static double sd(const ct_value *v) { return ct_scalar_to_double(*v); }

#define K_HEAD(fn) int fn(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)op; (void)ks;
#define UNARY_K(fn, KIND, KNAME, INPLACE, INTS, P0, P1, P2)                                   \
    K_HEAD(fn) ct_tensor *self = ARG_T(0);                                                     \
    actx c = {KIND, 0, CT_FLOAT32, {P0, P1, P2}};                                               \
    return act_ret(&self, 1, &c, INPLACE ? self : NULL, KNAME, INTS, rets); }
#define BINARY_K(fn, KIND, KNAME, P0, P1, P2)                                                 \
    K_HEAD(fn) ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};                                       \
    actx c = {KIND, 0, CT_FLOAT32, {P0, P1, P2}};                                               \
    return act_ret(ins, 2, &c, NULL, KNAME, false, rets); }

UNARY_K(ct_k_softplus, A_SOFTPLUS, "softplus_cpu", false, false, sd(&args[1]), sd(&args[2]), 0)
BINARY_K(ct_k_softplus_backward, A_SOFTPLUS_BW, "softplus_backward_cpu", sd(&args[2]), sd(&args[3]), 0)
UNARY_K(ct_k_silu, A_SILU, "silu_cpu", false, false, 0, 0, 0)
UNARY_K(ct_k_silu_, A_SILU, "silu_cpu", true, false, 0, 0, 0)
BINARY_K(ct_k_silu_backward, A_SILU_BW, "silu_backward_cpu", 0, 0, 0)
UNARY_K(ct_k_mish, A_MISH, "mish_cpu", false, false, 0, 0, 0)
UNARY_K(ct_k_mish_, A_MISH, "mish_cpu", true, false, 0, 0, 0)
BINARY_K(ct_k_mish_backward, A_MISH_BW, "mish_backward_cpu", 0, 0, 0)
UNARY_K(ct_k_hardtanh, A_HARDTANH, "clamp_scalar_cpu", false, true, sd(&args[1]), sd(&args[2]), 0)
UNARY_K(ct_k_hardtanh_, A_HARDTANH, "clamp_scalar_cpu", true, true, sd(&args[1]), sd(&args[2]), 0)
BINARY_K(ct_k_hardtanh_backward, A_HARDTANH_BW, "hardtanh_backward_cpu", sd(&args[2]), sd(&args[3]), 0)
UNARY_K(ct_k_leaky_relu, A_LEAKY, "leaky_relu_cpu", false, false, sd(&args[1]), 0, 0)
UNARY_K(ct_k_leaky_relu_, A_LEAKY, "leaky_relu_cpu", true, false, sd(&args[1]), 0, 0)
UNARY_K(ct_k_elu, A_ELU, "elu_cpu", false, false, sd(&args[1]), sd(&args[2]), sd(&args[3]))
UNARY_K(ct_k_elu_, A_ELU, "elu_cpu", true, false, sd(&args[1]), sd(&args[2]), sd(&args[3]))
UNARY_K(ct_k_hardsigmoid, A_HARDSIGMOID, "hardsigmoid_cpu", false, false, 0, 0, 0)
UNARY_K(ct_k_hardsigmoid_, A_HARDSIGMOID, "hardsigmoid_cpu", true, false, 0, 0, 0)
BINARY_K(ct_k_hardsigmoid_backward, A_HARDSIGMOID_BW, "hardsigmoid_backward", 0, 0, 0)
UNARY_K(ct_k_hardswish, A_HARDSWISH, "hardswish_cpu", false, false, 0, 0, 0)
UNARY_K(ct_k_hardswish_, A_HARDSWISH, "hardswish_cpu", true, false, 0, 0, 0)
BINARY_K(ct_k_hardswish_backward, A_HARDSWISH_BW, "hardswish_backward_cpu", 0, 0, 0)
UNARY_K(ct_k_threshold, A_THRESHOLD, "threshold_cpu", false, true, sd(&args[1]), sd(&args[2]), 0)
UNARY_K(ct_k_threshold_, A_THRESHOLD, "threshold_cpu", true, true, sd(&args[1]), sd(&args[2]), 0)
UNARY_K(ct_k_relu_, A_THRESHOLD, "threshold_cpu", true, true, 0, 0, 0)
/* softshrink(Tensor self, Scalar lambd=0.5) */
K_HEAD(ct_k_softshrink)
    ct_tensor *self = ARG_T(0);
    double lambd = sd(&args[1]);
    if (lambd < 0)
        return ct_error_set(CT_ERR_RUNTIME, "lambda must be greater or equal to 0, but found to be %g.", lambd);
    actx c = {A_SOFTSHRINK, 0, CT_FLOAT32, {lambd, 0, 0}};
    return act_ret(&self, 1, &c, NULL, "softshrink_cpu", false, rets);
}
BINARY_K(ct_k_softshrink_backward, A_SHRINK_BW, "shrink_backward_cpu", sd(&args[2]), 0, 0)
UNARY_K(ct_k_hardshrink, A_HARDSHRINK, "hardshrink_cpu", false, false, sd(&args[1]), 0, 0)
BINARY_K(ct_k_hardshrink_backward, A_SHRINK_BW, "shrink_backward_cpu", sd(&args[2]), 0, 0)

/* leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) */
K_HEAD(ct_k_leaky_relu_backward)
    double slope = sd(&args[2]);
    if (ARG_B(3) && slope < 0)
        return ct_error_set(CT_ERR_RUNTIME,
                            "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
                            "This is caused by calling in-place forward function with a negative slope, please call "
                            "out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you do "
                            "require supporting in-place leakRelu backward calculation with negative slope");
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    actx c = {A_LEAKY_BW, 0, CT_FLOAT32, {slope, 0, 0}};
    return act_ret(ins, 2, &c, NULL, "leaky_relu_backward_cpu", false, rets);
}

/* elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, Tensor self_or_result) */
K_HEAD(ct_k_elu_backward)
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(5)};
    actx c = {ARG_B(4) ? A_ELU_BW_RESULT : A_ELU_BW, 0, CT_FLOAT32, {sd(&args[1]), sd(&args[2]), sd(&args[3])}};
    return act_ret(ins, 2, &c, NULL, "elu_backward_cpu", false, rets);
}

/* log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer): output = min(x, 0) -
 * log1p(exp(-|x|)), buffer = exp(-|x|), what log_sigmoid_backward reads */
static void logsig_elem(char **ptr, void *vctx) {
    const actx *c = vctx;
    double x = ct_load_as_double(ptr[2], c->dt), z = exp(-fabs(x));
    ct_store_from_double(ptr[0], c->dt, fmin(x, 0.0) - log1p(z));
    ct_store_from_double(ptr[1], c->dt, z);
}

K_HEAD(ct_k_log_sigmoid_forward)
    ct_tensor *self = ARG_T(0);
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"log_sigmoid_cpu\" not implemented for '%s'", ct_dtype_name(self->dtype));
    const ct_tensor *in1[1] = {self};
    ct_tensor *out = ct_iter_alloc_output(self->sizes, self->ndim, self->dtype, in1, 1);
    ct_tensor *buf = out ? ct_iter_alloc_output(self->sizes, self->ndim, self->dtype, in1, 1) : NULL;
    if (!buf) {
        ct_tensor_release(out);
        return -1;
    }
    if (self->numel > 0) {
        actx c = {A_LOGSIG_BW, 1, self->dtype, {0, 0, 0}};
        int64_t strides[3][CT_MAX_DIMS];
        char *bases[3] = {ct_tensor_data_ptr(out), ct_tensor_data_ptr(buf), ct_tensor_data_ptr(self)};
        size_t es[3] = {ct_dtype_size(self->dtype), ct_dtype_size(self->dtype), ct_dtype_size(self->dtype)};
        memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
        memcpy(strides[1], buf->strides, sizeof(int64_t) * (size_t)buf->ndim);
        memcpy(strides[2], self->strides, sizeof(int64_t) * (size_t)self->ndim);
        ct_for_each(self->sizes, self->ndim, 3, bases, strides, es, logsig_elem, &c);
    }
    ct_ret(rets, 0, out);
    return ct_ret(rets, 1, buf);
}

/* log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) */
K_HEAD(ct_k_log_sigmoid_backward)
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    actx c = {A_LOGSIG_BW, 0, CT_FLOAT32, {0, 0, 0}};
    return act_ret(ins, 3, &c, NULL, "log_sigmoid_backward_cpu", false, rets);
}

/* ---- the pointwise losses ---- */

/* the elementwise loss reduced as `reduction` says (0 none, 1 mean, 2 sum), as apply_loss_reduction */
static int reduce_ret(ct_tensor *loss, int64_t reduction, ct_value *rets) {
    if (!loss) return -1;
    if (reduction == 0) return ct_ret(rets, 0, loss);
    ct_tensor *r = reduction == 1 ? ct_mean(loss, CT_DTYPE_UNDEFINED) : ct_sum(loss, CT_DTYPE_UNDEFINED);
    ct_tensor_release(loss);
    return r ? ct_ret(rets, 0, r) : -1;
}

/* the backward's factor: 1/numel for the mean */
static double norm_of(const ct_tensor *self, int64_t reduction) {
    return reduction == 1 ? 1.0 / (double)self->numel : 1.0;
}

K_HEAD(ct_k_mse_loss)
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    actx c = {A_MSE, 0, CT_FLOAT32, {0, 0, 0}};
    return reduce_ret(act_tensor(ins, 2, &c, NULL, "mse_cpu", false), ARG_I(2), rets);
}

K_HEAD(ct_k_mse_loss_backward)
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    actx c = {A_MSE_BW, 0, CT_FLOAT32, {2.0 * norm_of(ARG_T(1), ARG_I(3)), 0, 0}};
    return act_ret(ins, 3, &c, NULL, "mse_backward_cpu", false, rets);
}

K_HEAD(ct_k_smooth_l1_loss)
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    double beta = args[3].u.d;
    if (beta < 0) return ct_error_set(CT_ERR_RUNTIME, "smooth_l1_loss does not support negative values for beta.");
    actx c = {A_SMOOTH_L1, 0, CT_FLOAT32, {beta, 0, 0}};
    return reduce_ret(act_tensor(ins, 2, &c, NULL, "smooth_l1_cpu", false), ARG_I(2), rets);
}

K_HEAD(ct_k_smooth_l1_loss_backward)
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    actx c = {A_SMOOTH_L1_BW, 0, CT_FLOAT32, {args[4].u.d, norm_of(ARG_T(1), ARG_I(3)), 0}};
    return act_ret(ins, 3, &c, NULL, "smooth_l1_backward_cpu_out", false, rets);
}

K_HEAD(ct_k_huber_loss)
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    double delta = args[3].u.d;
    if (!(delta > 0)) return ct_error_set(CT_ERR_RUNTIME, "huber_loss does not support non-positive values for delta.");
    actx c = {A_HUBER, 0, CT_FLOAT32, {delta, 0, 0}};
    return reduce_ret(act_tensor(ins, 2, &c, NULL, "huber_cpu", false), ARG_I(2), rets);
}

K_HEAD(ct_k_huber_loss_backward)
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    actx c = {A_HUBER_BW, 0, CT_FLOAT32, {args[4].u.d, norm_of(ARG_T(1), ARG_I(3)), 0}};
    return act_ret(ins, 3, &c, NULL, "huber_backward_cpu_out", false, rets);
}

/* every element of a floating input within [0, 1] (BCE's check) */
static bool in_unit(const ct_tensor *t) {
    if (!ct_dtype_is_floating(t->dtype)) return true;
    int64_t idx[CT_MAX_DIMS] = {0};
    for (int64_t n = 0; n < t->numel; n++) {
        int64_t off = t->storage_offset;
        for (int d = 0; d < t->ndim; d++) off += idx[d] * t->strides[d];
        double v = ct_load_as_double((const char *)t->storage->data + (size_t)off * ct_dtype_size(t->dtype), t->dtype);
        if (!(v >= 0.0 && v <= 1.0)) return false;
        for (int d = t->ndim - 1; d >= 0; d--) {
            if (++idx[d] < t->sizes[d]) break;
            idx[d] = 0;
        }
    }
    return true;
}

/* binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) */
K_HEAD(ct_k_binary_cross_entropy)
    ct_tensor *w = ARG_OPT_T(2);
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), w};
    if (!ct_dtype_is_floating(ins[0]->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"binary_cross_entropy\" not implemented for '%s'", ct_dtype_name(ins[0]->dtype));
    if (!in_unit(ins[0])) return ct_error_set(CT_ERR_RUNTIME, "all elements of input should be between 0 and 1");
    actx c = {w ? A_BCE_W : A_BCE, 0, CT_FLOAT32, {0, 0, 0}};
    return reduce_ret(act_tensor(ins, w ? 3 : 2, &c, NULL, "binary_cross_entropy", false), ARG_I(3), rets);
}

/* binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight=None, int reduction=1) */
K_HEAD(ct_k_binary_cross_entropy_backward)
    ct_tensor *w = ARG_OPT_T(3);
    ct_tensor *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    actx c = {A_BCE_BW, 0, CT_FLOAT32, {norm_of(ARG_T(1), ARG_I(4)), 0, 0}};
    ct_tensor *r = act_tensor(ins, 3, &c, NULL, "binary_cross_entropy_backward", false);
    if (r && w) { /* four operands and the output are more than the loop takes: the weight after */
        ct_tensor *rw = ct_mul(r, w);
        ct_tensor_release(r);
        r = rw;
    }
    return ct_ret(rets, 0, r);
}
