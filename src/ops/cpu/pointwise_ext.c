/* More pointwise kernels (TensorIterator ops): clamp, clamp_max, gelu and
 * gelu_backward, lerp, addcmul, addcdiv (in place or not), where, eq.Tensor, logical_not
 * (maximum is the binary family's: binary.c). Broadcasting, type promotion and the output's layout follow TensorIterator
 * (kernel_util.h).
 *
 * Note [Float formulas of the optimizer ops]
 *   AdamW's lerp_, addcmul_ and addcdiv_ run in float as PyTorch's CPU kernels do, with the
 *   multiply-adds the compiler fuses there: lerp is fma(w, end - self, self) for |w| < 0.5 and
 *   fma(w - 1, end - self, end) otherwise (lerp_vec), addcmul is fma(value * t1, t2, self), and
 *   addcdiv is self + (value * t1) / t2 with no fusion. Checked bit for bit against PyTorch 2.6
 *   on 4096 random floats each (tests/golden/torch-2.6/op_cases.json). float32 GELU over a
 *   contiguous tensor of more than one element runs oneDNN's kernel, as PyTorch does (Note [GELU
 *   as oneDNN runs it] in vec/gelu_vec.c). The other ops here compute in double and round once. */
#include <math.h>
#include <string.h>

#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/api_call.h"
#include "ops/kernel_util.h"

typedef enum {
    PW_CLAMP, PW_GELU, PW_GELU_TANH, PW_GELU_BW, PW_GELU_TANH_BW, PW_LERP, PW_ADDCMUL,
    PW_ADDCDIV, PW_WHERE, PW_EQ, PW_LOGICAL_NOT
} pw_kind;

typedef struct pwx {
    pw_kind kind;
    ct_dtype compute;     /* the common dtype the inputs are cast to */
    ct_dtype in[3];
    ct_dtype out;
    int nin;
    bool has_min, has_max;
    double a, b;          /* clamp: min, max; lerp: weight; addcmul/addcdiv: value */
} pwx;

/* an input element cast to the common dtype (TensorIterator's promote_inputs_to_common_dtype) */
static inline double load_in(const char *p, ct_dtype from, ct_dtype common) {
    double v = ct_load_as_double(p, from);
    if (from == common) return v;
    /* round through the common type, as the cast does */
    char tmp[8];
    ct_store_from_double(tmp, common, v);
    return ct_load_as_double(tmp, common);
}

/* M_SQRT1_2, M_SQRT2 and M_2_SQRTPI of <math.h>, which strict C11 does not declare */
#define CT_SQRT1_2 0.70710678118654752440
#define CT_SQRT2 1.41421356237309504880
#define CT_2_SQRTPI 1.12837916709551257390

static double gelu(double x) { return x * 0.5 * (1.0 + erf(x * CT_SQRT1_2)); }

static const double kBeta = CT_SQRT2 * CT_2_SQRTPI * 0.5, kKappa = 0.044715;

static double gelu_tanh(double x) {
    double inner = kBeta * (x + kKappa * x * x * x);
    return 0.5 * x * (1.0 + tanh(inner));
}

static double gelu_bw(double dy, double x) {
    double cdf = 0.5 * (1.0 + erf(x * CT_SQRT1_2));
    double pdf = (CT_2_SQRTPI * CT_SQRT1_2 * 0.5) * exp(x * x * -0.5);
    return dy * (cdf + x * pdf);
}

static double gelu_tanh_bw(double dy, double x) {
    double x_sq = x * x, inner = kBeta * (x + kKappa * x_sq * x), t = tanh(inner);
    double left = 0.5 * x, right = 1.0 + t;
    double left_d = 0.5 * right;
    double right_d = left * (1.0 - t * t) * kBeta * (1.0 + 3.0 * kKappa * x_sq);
    return dy * (left_d + right_d);
}

static inline bool lerp_small(double w) { return fabs(w) < 0.5; }

static void elem(char **p, void *vctx) {
    const pwx *c = vctx;
    double x[3] = {0, 0, 0};
    for (int i = 0; i < c->nin; i++) x[i] = load_in(p[1 + i], c->in[i], c->compute);
    double r = 0;
    if (c->compute == CT_FLOAT32 && (c->kind == PW_LERP || c->kind == PW_ADDCMUL || c->kind == PW_ADDCDIV)) {
        /* Note [Float formulas of the optimizer ops] */
        float s = (float)x[0], t1 = (float)x[1], t2 = (float)x[2], v = (float)c->a, fr;
        if (c->kind == PW_LERP) {
            float d = t1 - s;
            fr = lerp_small(v) ? fmaf(v, d, s) : fmaf(v - 1.0f, d, t1);
        } else if (c->kind == PW_ADDCMUL) {
            fr = fmaf(v * t1, t2, s);
        } else {
            fr = s + (v * t1) / t2;
        }
        ct_store_from_double(p[0], c->out, fr);
        return;
    }
    switch (c->kind) {
    case PW_CLAMP:
        r = x[0];
        if (!isnan(r)) {
            if (c->has_min && r < c->a) r = c->a;
            if (c->has_max && r > c->b) r = c->b;
        }
        break;
    case PW_GELU: r = gelu(x[0]); break;
    case PW_GELU_TANH: r = gelu_tanh(x[0]); break;
    case PW_GELU_BW: r = gelu_bw(x[0], x[1]); break;
    case PW_GELU_TANH_BW: r = gelu_tanh_bw(x[0], x[1]); break;
    case PW_LERP: r = lerp_small(c->a) ? x[0] + c->a * (x[1] - x[0]) : x[1] - (x[1] - x[0]) * (1.0 - c->a); break;
    case PW_ADDCMUL: r = x[0] + c->a * x[1] * x[2]; break;
    case PW_ADDCDIV: r = x[0] + c->a * x[1] / x[2]; break;
    case PW_WHERE: r = x[0] != 0 ? x[1] : x[2]; break;
    case PW_EQ: r = x[0] == x[1]; break;
    case PW_LOGICAL_NOT: r = x[0] == 0; break;
    }
    if (c->compute == CT_INT64 && c->out == CT_INT64 && c->kind != PW_WHERE) {
        int64_t iv = ct_double_to_int64(r); /* out of range: what x86's conversion gives */
        memcpy(p[0], &iv, sizeof iv);
        return;
    }
    if (c->kind == PW_WHERE && c->out == CT_INT64) { /* copy the chosen int64 exactly */
        memcpy(p[0], x[0] != 0 ? p[2] : p[3], 8);
        return;
    }
    ct_store_from_double(p[0], c->out, r);
}

/* The contiguous float32 loops below over elements [begin, end) of a split (or all of them). */
typedef struct f32_job {
    pw_kind kind;
    const float *in[3];
    float *o;
    float v;
    bool one_element; /* GELU of one element: elem's double formula, not oneDNN's kernel */
    const ct_vec_kernels *vk;
} f32_job;

static int f32_chunk(void *vjob, int64_t begin, int64_t end) {
    const f32_job *j = vjob;
    const ct_vec_kernels *vk = j->vk;
    const float *a = j->in[0] ? j->in[0] + begin : NULL, *b = j->in[1] ? j->in[1] + begin : NULL,
                *c = j->in[2] ? j->in[2] + begin : NULL;
    float *o = j->o + begin;
    const int64_t n = end - begin;
    switch (j->kind) {
    case PW_LERP: /* Note [Float formulas of the optimizer ops]; vec/optim_vec.c */
        vk->lerp_f32(a, b, j->v, n, o);
        break;
    case PW_ADDCMUL:
        vk->addcmul_f32(a, b, c, j->v, n, o);
        break;
    case PW_ADDCDIV:
        vk->addcdiv_f32(a, b, c, j->v, n, o);
        break;
    case PW_GELU: /* oneDNN's kernel where PyTorch uses it (numel > 1), elem's double formula else */
        if (!j->one_element) vk->gelu_f32(a, n, o);
        else o[0] = (float)gelu((double)a[0]);
        break;
    case PW_GELU_TANH:
        for (int64_t k = 0; k < n; k++) o[k] = (float)gelu_tanh((double)a[k]);
        break;
    case PW_GELU_BW:
        if (!j->one_element) vk->gelu_bw_f32(a, b, n, o);
        else o[0] = (float)gelu_bw((double)a[0], (double)b[0]);
        break;
    default: /* PW_GELU_TANH_BW */
        for (int64_t k = 0; k < n; k++) o[k] = (float)gelu_tanh_bw((double)a[k], (double)b[k]);
        break;
    }
    return 0;
}

/* The float32 loop of the optimizer's ops and GELU when out and every input are
 * contiguous float32 tensors of out's size (no broadcasting): the same arithmetic as elem, in
 * the same types and order, without the per-element dtype switches and the odometer, so the
 * same bits; over the threads beyond a grain of elements (every element is computed on its
 * own, so the split changes no bit). Returns false when the case is not one of these. */
static bool run_contiguous_f32(ct_tensor *out, ct_tensor *const *ins, const pwx *c) {
    if (out->dtype != CT_FLOAT32 || c->compute != CT_FLOAT32 || !ct_tensor_is_contiguous(out)) return false;
    if (c->kind != PW_LERP && c->kind != PW_ADDCMUL && c->kind != PW_ADDCDIV && c->kind != PW_GELU && c->kind != PW_GELU_TANH && c->kind != PW_GELU_BW && c->kind != PW_GELU_TANH_BW)
        return false;
    f32_job j = {c->kind, {NULL, NULL, NULL}, ct_tensor_data_ptr(out), (float)c->a, out->numel == 1, ct_vec()};
    for (int i = 0; i < c->nin; i++) {
        if (ins[i]->dtype != CT_FLOAT32 || ins[i]->numel != out->numel || !ct_tensor_is_contiguous(ins[i])) return false;
        j.in[i] = ct_tensor_data_ptr(ins[i]);
    }
    if (out->numel > CT_GRAIN_SIZE) ct_parallel_for(0, out->numel, CT_GRAIN_SIZE, f32_chunk, &j);
    else f32_chunk(&j, 0, out->numel);
    return true;
}

/* Runs c over out (allocated with the broadcast shape, or the in-place self) and ins. */
static void run(ct_tensor *out, ct_tensor *const *ins, pwx *c) {
    if (out->numel == 0) return;
    for (int i = 0; i < c->nin; i++) c->in[i] = ins[i]->dtype;
    if (run_contiguous_f32(out, ins, c)) return;
    int64_t strides[4][CT_MAX_DIMS];
    char *bases[4];
    size_t es[4];
    memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
    bases[0] = ct_tensor_data_ptr(out);
    es[0] = ct_dtype_size(out->dtype);
    for (int i = 0; i < c->nin; i++) {
        ct_broadcast_strides(ins[i], out->sizes, out->ndim, strides[i + 1]);
        bases[i + 1] = ct_tensor_data_ptr(ins[i]);
        es[i + 1] = ct_dtype_size(ins[i]->dtype);
        c->in[i] = ins[i]->dtype;
    }
    ct_for_each(out->sizes, out->ndim, c->nin + 1, bases, strides, es, elem, c);
}

/* The broadcast shape of ins. */
static int broadcast(ct_tensor *const *ins, int n, int64_t *shape, int *nd) {
    *nd = ins[0]->ndim;
    memcpy(shape, ins[0]->sizes, sizeof(int64_t) * (size_t)ins[0]->ndim);
    for (int i = 1; i < n; i++) {
        int64_t tmp[CT_MAX_DIMS];
        int nt;
        if (ct_broadcast_shapes(shape, *nd, ins[i]->sizes, ins[i]->ndim, tmp, &nt) != 0) return -1;
        memcpy(shape, tmp, sizeof(int64_t) * (size_t)nt);
        *nd = nt;
    }
    return 0;
}

/* The shared body: out = f(ins) with common dtype `common` and result dtype `out_dt`; self_out
 * is the in-place target (NULL: a new tensor). promote: the op's TensorIterator brings its
 * operands to the common dtype first (Note [TensorIterator's casts on the CPU]); the others
 * (lerp, where, logical_not) read each input in its own dtype. */
static int apply(ct_tensor *const *ins, int nin, pwx *c, ct_dtype common, ct_dtype out_dt, ct_tensor *self_out, bool promote,
                 ct_value *rets) {
    if (self_out && ct_assert_no_internal_overlap(self_out) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int nd;
    if (broadcast(ins, nin, shape, &nd) != 0) return -1;
    const int resize = self_out ? ct_out_mark_resize(self_out, shape, nd, ins, nin) : 0;
    if (resize < 0) return -1;
    if (self_out && !ct_dtype_can_cast(common, self_out->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(common),
                            ct_dtype_name(self_out->dtype));
    if (resize && ct_out_resize(self_out, shape, nd, (const ct_tensor *const *)ins, nin) != 0) return -1;
    ct_iter_casts k;
    if (promote) {
        if (ct_iter_cast_begin(&k, self_out, ins, nin, common, true) != 0) return -1;
    } else {
        memset(&k, 0, sizeof k);
        for (int i = 0; i < nin; i++) k.in[i] = ins[i];
        k.out = self_out;
    }
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(shape, nd, out_dt, (const ct_tensor *const *)k.in, nin);
        if (!out) return ct_iter_cast_end(&k, -1);
    }
    c->nin = nin;
    c->compute = common;
    c->out = out->dtype;
    run(out, k.in, c);
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!self_out) ct_tensor_release(out);
        return -1;
    }
    if (self_out) return ct_ret_self(rets, self_out);
    return ct_ret(rets, 0, out);
}

/* A clamp's output filled with a NaN bound (at::fill_, dispatched), laid out after self. */
static int fill_nan(ct_tensor *self, ct_dtype rt, ct_scalar bound, ct_value *rets) {
    ct_tensor *out = ct_iter_alloc_output(self->sizes, self->ndim, rt, (const ct_tensor *const *)&self, 1);
    if (!out) return -1;
    if (ct_fill_(out, bound) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

/* clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor. TORCH_META_FUNC(clamp)
 * promotes by hand (the scalars take part when self is not floating) and always builds its
 * iterator over self.to(result type), a dispatched call even when the dtype is self's. */
int ct_k_clamp(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool has_min = !ARG_IS_NONE(1), has_max = !ARG_IS_NONE(2);
    if (!has_min && !has_max) return ct_error_set(CT_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
    ct_dtype rt = self->dtype;
    if (!ct_dtype_is_floating(rt)) {
        /* manual type promotion: the scalars take part */
        if (has_min) rt = ct_result_type_scalar(self, args[1]);
        if (has_max) {
            ct_dtype r2 = ct_result_type_scalar(self, args[2]);
            if (ct_dtype_is_floating(r2) || rt == CT_BOOL) rt = r2;
        }
    }
    ct_tensor *in = ct_to_dtype(self, rt, false, false, CT_MEMORY_FORMAT_NONE);
    if (!in) return -1;
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_CLAMP;
    c.has_min = has_min;
    c.has_max = has_max;
    c.a = has_min ? ct_scalar_to_double(args[1]) : 0;
    c.b = has_max ? ct_scalar_to_double(args[2]) : 0;
    int rc;
    if (has_min && has_max && (isnan(c.a) || isnan(c.b)))
        rc = fill_nan(in, rt, ct_double(NAN), rets); /* a NaN bound fills the result with NaN */
    else if (rt == CT_BOOL)
        rc = ct_error_set(CT_ERR_RUNTIME, "\"clamp_scalar_cpu\" not implemented for 'Bool'");
    else if ((has_min && ct_scalar_check_convert(args[1], rt) != 0) || (has_max && ct_scalar_check_convert(args[2], rt) != 0))
        rc = -1; /* the kernel's min.to<scalar_t>() and max.to<scalar_t>() */
    else
        rc = apply(&in, 1, &c, rt, rt, NULL, false, rets);
    ct_tensor_release(in);
    return rc;
}

/* clip and clip_ (CompositeImplicitAutograd): clamp and clamp_ through the dispatcher */
int ct_k_clip(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value a[3] = {args[0], args[1], args[2]};
    return ct_api_call(CT_OPID_clamp, a, rets);
}

int ct_k_clip_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_value a[3] = {args[0], args[1], args[2]};
    return ct_api_call(CT_OPID_clamp_, a, rets);
}

/* clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None): clamp's result written back into
 * self, which must be able to hold the result type (an integer self with a float bound cannot) */
int ct_k_clamp_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    ct_tensor *self = ARG_T(0);
    ct_value r[1] = {ct_none()};
    if (ct_k_clamp(op, ks, args, r) != 0) return -1;
    ct_tensor *res = r[0].u.t;
    int rc = 0;
    if (!ct_dtype_can_cast(res->dtype, self->dtype))
        rc = ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct_dtype_name(res->dtype),
                          ct_dtype_name(self->dtype));
    else
        rc = ct_copy_(self, res, false);
    ct_tensor_release(res);
    return rc != 0 ? -1 : ct_ret_self(rets, self);
}

/* clamp_max(Tensor self, Scalar max) -> Tensor: as clamp_min (pointwise.c), a floating self as
 * it is, another promoted with max through self.to(result type); a NaN max fills the result */
int ct_k_clamp_max(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    bool floating = ct_dtype_is_floating(self->dtype);
    ct_dtype rt = floating ? self->dtype : ct_result_type_scalar(self, args[1]);
    ct_tensor *in = floating ? ct_tensor_retain(self) : ct_to_dtype(self, rt, false, false, CT_MEMORY_FORMAT_NONE);
    if (!in) return -1;
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_CLAMP;
    c.has_max = true;
    c.b = ct_scalar_to_double(args[1]);
    int rc;
    if (isnan(c.b))
        rc = fill_nan(in, rt, args[1], rets);
    else if (rt == CT_BOOL)
        rc = ct_error_set(CT_ERR_RUNTIME, "\"clamp_max_scalar_cpu\" not implemented for 'Bool'");
    else if (ct_scalar_check_convert(args[1], rt) != 0)
        rc = -1; /* the kernel's max.to<scalar_t>() */
    else
        rc = apply(&in, 1, &c, rt, rt, NULL, false, rets);
    ct_tensor_release(in);
    return rc;
}

static int gelu_kind(const ct_value *v, bool backward, pw_kind *kind) {
    const char *s = v->tag == CT_TAG_STRING ? v->u.s : "none";
    if (strcmp(s, "none") == 0) *kind = backward ? PW_GELU_BW : PW_GELU;
    else if (strcmp(s, "tanh") == 0) *kind = backward ? PW_GELU_TANH_BW : PW_GELU_TANH;
    else return ct_error_set(CT_ERR_RUNTIME, "approximate argument must be either none or tanh.");
    return 0;
}

/* gelu(Tensor self, *, str approximate='none') -> Tensor */
int ct_k_gelu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    pwx c;
    memset(&c, 0, sizeof c);
    if (gelu_kind(&args[1], false, &c.kind) != 0) return -1;
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"GeluKernelImpl\" not implemented for '%s'", ct_dtype_name(self->dtype));
    return apply(&self, 1, &c, self->dtype, self->dtype, NULL, false, rets);
}

/* gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor */
int ct_k_gelu_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    pwx c;
    memset(&c, 0, sizeof c);
    if (gelu_kind(&args[2], true, &c.kind) != 0) return -1;
    ct_dtype rt = ct_result_type2(ins[0], ins[1]);
    if (!ct_dtype_is_floating(rt))
        return ct_error_set(CT_ERR_RUNTIME, "\"GeluBackwardKernelImpl\" not implemented for '%s'", ct_dtype_name(rt));
    return apply(ins, 2, &c, rt, rt, NULL, true, rets);
}

/* lerp.Scalar / lerp_.Scalar(Tensor self, Tensor end, Scalar weight) */
static int lerp(ct_tensor *self, ct_tensor *end, ct_scalar weight, bool inplace, ct_value *rets) {
    if (self->dtype != end->dtype)
        return ct_error_set(CT_ERR_RUNTIME, "expected dtype %s for `end` but got dtype %s", ct_dtype_type_meta_name(self->dtype),
                            ct_dtype_type_meta_name(end->dtype));
    if (!ct_dtype_is_floating(self->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "\"lerp_kernel_scalar\" not implemented for '%s'", ct_dtype_name(self->dtype));
    ct_tensor *ins[2] = {self, end};
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_LERP;
    /* weight.to<opmath_t>(): float for float32 */
    c.a = self->dtype == CT_FLOAT64 ? ct_scalar_to_double(weight) : (double)(float)ct_scalar_to_double(weight);
    return apply(ins, 2, &c, self->dtype, self->dtype, inplace ? self : NULL, false, rets);
}

int ct_k_lerp_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return lerp(ARG_T(0), ARG_T(1), args[2], false, rets);
}

int ct_k_lerp_scalar_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return lerp(ARG_T(0), ARG_T(1), args[2], true, rets);
}

/* addcmul / addcdiv (and _): self + value * t1 * t2, self + value * t1 / t2 */
static int addc(ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value, pw_kind kind, bool inplace, ct_value *rets) {
    ct_tensor *ins[3] = {self, t1, t2};
    if (kind == PW_ADDCDIV && !ct_dtype_is_floating(t1->dtype) && !ct_dtype_is_floating(t2->dtype))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
    ct_dtype rt = ct_result_type_n(ins, 3);
    if (rt == CT_BOOL && kind == PW_ADDCMUL)
        return ct_error_set(CT_ERR_RUNTIME, "\"addcmul_cpu_out\" not implemented for 'Bool'");
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    /* value.to<scalar_t>(): an integral dtype truncates (1.5 -> 1), a 16-bit float rounds */
    const double v = ct_scalar_to_double(value);
    if (!ct_dtype_is_floating(rt)) c.a = value.tag == CT_TAG_DOUBLE ? trunc(v) : v;
    else if (rt == CT_FLOAT32) c.a = (double)(float)v;
    else if (rt == CT_FLOAT16) c.a = (double)ct_half_to_float(ct_float_to_half((float)v));
    else if (rt == CT_BFLOAT16) c.a = (double)ct_bfloat16_to_float(ct_float_to_bfloat16((float)v));
    else c.a = v;
    return apply(ins, 3, &c, rt, rt, inplace ? self : NULL, true, rets);
}

int ct_k_addcmul(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return addc(ARG_T(0), ARG_T(1), ARG_T(2), args[3], PW_ADDCMUL, false, rets);
}
int ct_k_addcmul_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return addc(ARG_T(0), ARG_T(1), ARG_T(2), args[3], PW_ADDCMUL, true, rets);
}
int ct_k_addcdiv(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return addc(ARG_T(0), ARG_T(1), ARG_T(2), args[3], PW_ADDCDIV, false, rets);
}
int ct_k_addcdiv_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return addc(ARG_T(0), ARG_T(1), ARG_T(2), args[3], PW_ADDCDIV, true, rets);
}

/* where.self(Tensor condition, Tensor self, Tensor other) -> Tensor */
int ct_k_where(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *cond = ARG_T(0), *ins[3] = {ARG_T(0), ARG_T(1), ARG_T(2)};
    /* a uint8 condition is still taken (PyTorch warns that it is deprecated), read as nonzero */
    if (cond->dtype != CT_BOOL && cond->dtype != CT_UINT8)
        return ct_error_set(CT_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                            ct_dtype_name(cond->dtype));
    ct_dtype rt = ct_result_type2(ins[1], ins[2]);
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_WHERE;
    /* the condition keeps its own type; self and other are cast to the result type */
    int rc;
    if (ins[1]->dtype != rt || ins[2]->dtype != rt) {
        ct_tensor *a = ins[1]->dtype != rt ? ct_to_dtype(ins[1], rt, false, false, CT_MEMORY_FORMAT_NONE) : ct_tensor_retain(ins[1]);
        ct_tensor *b = ins[2]->dtype != rt ? ct_to_dtype(ins[2], rt, false, false, CT_MEMORY_FORMAT_NONE) : ct_tensor_retain(ins[2]);
        if (!a || !b) {
            ct_tensor_release(a);
            ct_tensor_release(b);
            return -1;
        }
        ct_tensor *cast[3] = {cond, a, b};
        rc = apply(cast, 3, &c, rt, rt, NULL, false, rets);
        ct_tensor_release(a);
        ct_tensor_release(b);
        return rc;
    }
    return apply(ins, 3, &c, rt, rt, NULL, false, rets);
}

/* eq.Tensor(Tensor self, Tensor other) -> Tensor */
int ct_k_eq_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *ins[2] = {ARG_T(0), ARG_T(1)};
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_EQ;
    return apply(ins, 2, &c, ct_result_type2(ins[0], ins[1]), CT_BOOL, NULL, true, rets);
}

/* logical_not(Tensor self) -> Tensor */
int ct_k_logical_not(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    pwx c;
    memset(&c, 0, sizeof c);
    c.kind = PW_LOGICAL_NOT;
    return apply(&self, 1, &c, self->dtype, CT_BOOL, NULL, false, rets);
}
