/* Pointwise kernels: add/sub/mul/div (Tensor and Scalar forms, in place or not), neg, relu,
 * clamp_min, threshold_backward. Type promotion and broadcasting follow TensorIterator.
 *
 * Note [Fused add]
 *   PyTorch's CPU add computes self + alpha * other as one fused multiply-add in the compute
 *   type (vec::fmadd; the scalar path is contracted by the compiler the same way), so
 *   ctorch uses fma()/fmaf() there: p.add_(g, alpha=-lr) then rounds once, as PyTorch does. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

typedef enum { OP_ADD, OP_MUL, OP_DIV, OP_NEG, OP_CLAMP_MIN, OP_THRESHOLD_BW } pw_op;

typedef struct pw_ctx {
    pw_op op;
    ct_dtype out, a, b, compute;
    double alpha;      /* add: the multiplier of b; clamp_min: min; threshold_backward: threshold */
    int64_t alpha_i;   /* integral compute */
} pw_ctx;

static inline double load(const char *p, ct_dtype d) { return ct_load_as_double(p, d); }

static void elem(char **p, void *vctx) {
    const pw_ctx *c = vctx;
    switch (c->compute) {
    case CT_INT64: {
        int64_t a = c->a == CT_INT64 ? *(const int64_t *)p[1] : (int64_t)load(p[1], c->a);
        int64_t b = 0;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN)
            b = c->b == CT_INT64 ? *(const int64_t *)p[2] : (int64_t)load(p[2], c->b);
        int64_t r;
        switch (c->op) {
        case OP_ADD: r = (int64_t)((uint64_t)a + (uint64_t)c->alpha_i * (uint64_t)b); break;
        case OP_MUL: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
        case OP_NEG: r = (int64_t)(0 - (uint64_t)a); break;
        case OP_CLAMP_MIN: r = a < c->alpha_i ? c->alpha_i : a; break;
        case OP_THRESHOLD_BW: r = b <= c->alpha_i ? 0 : a; break;
        default: r = 0; break;
        }
        if (c->out == CT_INT64) *(int64_t *)p[0] = r;
        else ct_store_from_double(p[0], c->out, (double)r);
        return;
    }
    case CT_BOOL: {
        bool a = load(p[1], c->a) != 0, b = false;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN) b = load(p[2], c->b) != 0;
        bool r;
        switch (c->op) {
        case OP_ADD: r = a || (b && c->alpha_i != 0); break;
        case OP_MUL: r = a && b; break;
        case OP_CLAMP_MIN: r = a || c->alpha_i != 0; break;
        case OP_THRESHOLD_BW: r = b <= (c->alpha_i != 0) ? false : a; break;
        default: r = a; break;
        }
        ct_store_from_double(p[0], c->out, r ? 1.0 : 0.0);
        return;
    }
    case CT_FLOAT64: {
        double a = load(p[1], c->a), b = 0, r;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN) b = load(p[2], c->b);
        switch (c->op) {
        case OP_ADD: r = fma(c->alpha, b, a); break;
        case OP_MUL: r = a * b; break;
        case OP_DIV: r = a / b; break;
        case OP_NEG: r = -a; break;
        case OP_CLAMP_MIN: r = isnan(a) ? a : (a < c->alpha ? c->alpha : a); break;
        case OP_THRESHOLD_BW: r = b <= c->alpha ? 0.0 : a; break;
        default: r = 0; break;
        }
        ct_store_from_double(p[0], c->out, r);
        return;
    }
    default: { /* float32, and float16/bfloat16 computed in float (opmath) */
        float a = c->a == CT_FLOAT32 ? *(const float *)p[1] : (float)load(p[1], c->a), b = 0, r;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN)
            b = c->b == CT_FLOAT32 ? *(const float *)p[2] : (float)load(p[2], c->b);
        float alpha = (float)c->alpha;
        switch (c->op) {
        case OP_ADD: r = fmaf(alpha, b, a); break;
        case OP_MUL: r = a * b; break;
        case OP_DIV: r = a / b; break;
        case OP_NEG: r = -a; break;
        case OP_CLAMP_MIN: r = isnan(a) ? a : (a < alpha ? alpha : a); break;
        case OP_THRESHOLD_BW: r = b <= alpha ? 0.0f : a; break;
        default: r = 0; break;
        }
        if (c->out == CT_FLOAT32) *(float *)p[0] = r;
        else ct_store_from_double(p[0], c->out, (double)r);
        return;
    }
    }
}

/* Runs the loop: out (already allocated with the broadcast shape) = f(a, b). */
static void run(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, pw_ctx *c) {
    if (out->numel == 0) return;
    int64_t strides[3][CT_MAX_DIMS];
    memcpy(strides[0], out->strides, sizeof(int64_t) * (size_t)out->ndim);
    ct_broadcast_strides(a, out->sizes, out->ndim, strides[1]);
    char *bases[3] = {ct_tensor_data_ptr(out), ct_tensor_data_ptr(a), NULL};
    size_t es[3] = {ct_dtype_size(out->dtype), ct_dtype_size(a->dtype), 1};
    int k = 2;
    if (b) {
        ct_broadcast_strides(b, out->sizes, out->ndim, strides[2]);
        bases[2] = ct_tensor_data_ptr(b);
        es[2] = ct_dtype_size(b->dtype);
        k = 3;
    }
    /* the common case of one dtype, contiguous, same shape: a flat loop */
    if (c->out == CT_FLOAT32 && c->compute == CT_FLOAT32 && a->dtype == CT_FLOAT32 && (!b || b->dtype == CT_FLOAT32) &&
        ct_tensor_is_contiguous(out) && ct_tensor_is_contiguous(a) && a->numel == out->numel &&
        (!b || (ct_tensor_is_contiguous(b) && b->numel == out->numel))) {
        float *o = (float *)bases[0];
        const float *x = (const float *)bases[1], *y = (const float *)bases[2];
        float alpha = (float)c->alpha;
        int64_t n = out->numel;
        switch (c->op) {
        case OP_ADD: for (int64_t i = 0; i < n; i++) o[i] = fmaf(alpha, y[i], x[i]); return;
        case OP_MUL: for (int64_t i = 0; i < n; i++) o[i] = x[i] * y[i]; return;
        case OP_DIV: for (int64_t i = 0; i < n; i++) o[i] = x[i] / y[i]; return;
        default: break;
        }
    }
    ct_for_each(out->sizes, out->ndim, k, bases, strides, es, elem, c);
}

static ct_dtype compute_type_for(ct_dtype out) {
    return out == CT_FLOAT16 || out == CT_BFLOAT16 ? CT_FLOAT32 : out;
}

/* The shared body of every binary op. self_out: the in-place target, or NULL. */
static int binary(const ct_op *op, ct_tensor *a, ct_tensor *b, pw_op kind, ct_scalar alpha, ct_tensor *self_out,
                  ct_value *rets) {
    ct_dtype rt = ct_result_type2(a, b);
    if (kind == OP_DIV && !ct_dtype_is_floating(rt)) rt = ct_default_dtype(); /* true division */
    if (kind == OP_ADD) {
        if (alpha.tag == CT_TAG_DOUBLE && !ct_dtype_is_floating(rt))
            return ct_error_set(CT_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number.");
        if (alpha.tag == CT_TAG_BOOL && rt != CT_BOOL)
            return ct_error_set(CT_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.");
    }
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(a->sizes, a->ndim, b->sizes, b->ndim, shape, &n) != 0) return -1;
    ct_tensor *out;
    if (self_out) {
        bool same = n == self_out->ndim;
        for (int i = 0; same && i < n; i++) same = shape[i] == self_out->sizes[i];
        if (!same) {
            char s1[256], s2[256];
            ct_format_shape(self_out->sizes, self_out->ndim, s1, sizeof s1);
            ct_format_shape(shape, n, s2, sizeof s2);
            return ct_error_set(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", s1, s2);
        }
        if (!ct_can_cast(rt, self_out->dtype))
            return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                                ct_dtype_name(rt), ct_dtype_name(self_out->dtype));
        out = self_out;
    } else {
        out = ct_tensor_alloc(shape, n, rt, false);
        if (!out) return -1;
    }
    pw_ctx c;
    c.op = kind;
    c.out = out->dtype;
    c.a = a->dtype;
    c.b = b->dtype;
    c.compute = compute_type_for(rt);
    if (kind == OP_DIV && !ct_dtype_is_floating(c.compute)) c.compute = CT_FLOAT32;
    c.alpha = kind == OP_ADD ? ct_scalar_to_double(alpha) : 0.0;
    c.alpha_i = kind == OP_ADD ? (alpha.tag == CT_TAG_DOUBLE ? (int64_t)alpha.u.d : alpha.tag == CT_TAG_BOOL ? alpha.u.b : alpha.u.i) : 0;
    (void)op;
    run(out, a, b, &c);
    if (self_out) return ct_ret_self(rets, self_out);
    return ct_ret(rets, 0, out);
}

static ct_scalar negate(ct_scalar s) {
    if (s.tag == CT_TAG_DOUBLE) return ct_double(-s.u.d);
    if (s.tag == CT_TAG_BOOL) return ct_int(-(int64_t)s.u.b);
    return ct_int(-s.u.i);
}

static int check_sub(const ct_tensor *a, const ct_tensor *b) {
    if (a->dtype == CT_BOOL && b->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    if (a->dtype == CT_BOOL || b->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return 0;
}

CT_KERNEL(ct_k_add) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_ADD, args[2], NULL, rets); }
CT_KERNEL(ct_k_add_) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_ADD, args[2], ARG_T(0), rets); }
CT_KERNEL(ct_k_sub) {
    (void)ks;
    if (check_sub(ARG_T(0), ARG_T(1)) != 0) return -1;
    return binary(op, ARG_T(0), ARG_T(1), OP_ADD, negate(args[2]), NULL, rets);
}
CT_KERNEL(ct_k_sub_) {
    (void)ks;
    if (check_sub(ARG_T(0), ARG_T(1)) != 0) return -1;
    return binary(op, ARG_T(0), ARG_T(1), OP_ADD, negate(args[2]), ARG_T(0), rets);
}
CT_KERNEL(ct_k_mul) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_MUL, ct_int(1), NULL, rets); }
CT_KERNEL(ct_k_mul_) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_MUL, ct_int(1), ARG_T(0), rets); }
CT_KERNEL(ct_k_div) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_DIV, ct_int(1), NULL, rets); }
CT_KERNEL(ct_k_div_) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_DIV, ct_int(1), ARG_T(0), rets); }

/* Scalar overloads (CompositeExplicitAutograd): wrap the scalar as a 0-dim "wrapped number"
 * tensor and call the Tensor overload through the dispatcher (wrapped_scalar_tensor). */
ct_tensor *ct_wrap_scalar(ct_scalar s) {
    ct_tensor *t;
    if (s.tag == CT_TAG_DOUBLE) {
        t = ct_tensor_scalar(s.u.d, CT_FLOAT64);
    } else if (s.tag == CT_TAG_BOOL) {
        t = ct_tensor_scalar(s.u.b ? 1.0 : 0.0, CT_BOOL);
    } else {
        t = ct_tensor_alloc(NULL, 0, CT_INT64, false);
        if (t) *(int64_t *)t->storage->data = s.u.i;
    }
    if (t) t->wrapped_number = true;
    return t;
}

CT_KERNEL(ct_k_add_scalar) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_add(ARG_T(0), w, args[2]));
    ct_tensor_release(w);
    return rc;
}

CT_KERNEL(ct_k_mul_scalar) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_mul(ARG_T(0), w));
    ct_tensor_release(w);
    return rc;
}

CT_KERNEL(ct_k_mul_scalar_) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_mul_(ARG_T(0), w);
    ct_tensor_release(w);
    if (rc != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

CT_KERNEL(ct_k_div_scalar) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_div(ARG_T(0), w));
    ct_tensor_release(w);
    return rc;
}

static int unary(ct_tensor *self, pw_op kind, double param, int64_t param_i, ct_dtype out_dt, ct_value *rets) {
    ct_tensor *out = ct_tensor_alloc(self->sizes, self->ndim, out_dt, false);
    if (!out) return -1;
    pw_ctx c;
    c.op = kind;
    c.out = out_dt;
    c.a = self->dtype;
    c.b = self->dtype;
    c.compute = compute_type_for(out_dt);
    c.alpha = param;
    c.alpha_i = param_i;
    run(out, self, NULL, &c);
    return ct_ret(rets, 0, out);
}

CT_KERNEL(ct_k_neg) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return unary(self, OP_NEG, 0, 0, self->dtype, rets);
}

/* relu(Tensor self) = clamp_min(self, 0), dispatched (the profiler shows the nesting) */
CT_KERNEL(ct_k_relu) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
    return ct_ret(rets, 0, ct_clamp_min(self, ct_int(0)));
}

/* clamp_min(Tensor self, Scalar min) */
CT_KERNEL(ct_k_clamp_min) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_dtype rt = ct_result_type_scalar(self, args[1]);
    if (rt == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
    return unary(self, OP_CLAMP_MIN, ct_scalar_to_double(args[1]), (int64_t)ct_scalar_to_double(args[1]), rt, rets);
}

/* threshold_backward(Tensor grad_output, Tensor self, Scalar threshold):
 * grad where self > threshold, else 0 */
CT_KERNEL(ct_k_threshold_backward) {
    (void)ks;
    ct_tensor *g = ARG_T(0), *self = ARG_T(1);
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(g->sizes, g->ndim, self->sizes, self->ndim, shape, &n) != 0) return -1;
    ct_dtype rt = ct_result_type2(g, self);
    ct_tensor *out = ct_tensor_alloc(shape, n, rt, false);
    if (!out) return -1;
    pw_ctx c;
    c.op = OP_THRESHOLD_BW;
    c.out = rt;
    c.a = g->dtype;
    c.b = self->dtype;
    c.compute = compute_type_for(rt);
    c.alpha = ct_scalar_to_double(args[2]);
    c.alpha_i = (int64_t)c.alpha;
    (void)op;
    run(out, g, self, &c);
    return ct_ret(rets, 0, out);
}
