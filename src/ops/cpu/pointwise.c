/* Pointwise kernels: add/sub/mul/div (Tensor and Scalar forms, in place or not), relu,
 * clamp_min, threshold_backward. Type promotion and broadcasting follow TensorIterator.
 *
 * Note [Fused add]
 *   PyTorch's CPU add computes self + alpha * other as one fused multiply-add in the compute
 *   type (vec::fmadd; the scalar path is contracted by the compiler the same way), so
 *   ctorch uses fma()/fmaf() there: p.add_(g, alpha=-lr) then rounds once, as PyTorch does. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/parallel.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/iter.h"
#include "ops/kernel_util.h"

typedef enum { OP_ADD, OP_MUL, OP_DIV, OP_NEG, OP_CLAMP_MIN, OP_THRESHOLD_BW } pw_op;

typedef struct pw_ctx {
    pw_op op;
    ct_dtype out, a, b, compute;
    ct_dtype common;   /* TensorIterator's common dtype: inputs are cast to it first */
    bool b_original;   /* mul/div by a one-element b in float16/bfloat16: b keeps its own value */
    double alpha;      /* add: the multiplier of b; clamp_min: min; threshold_backward: threshold */
    int64_t alpha_i;   /* integral compute */
    int ntensors;      /* operands of the loop: out, a[, b] */
} pw_ctx;

static inline double load(const char *p, ct_dtype d) { return ct_load_as_double(p, d); }

/* An input element for a float computation. TensorIterator (promote_inputs_to_common_dtype)
 * first casts every input to the common dtype, so an operand of another dtype is rounded to
 * float16/bfloat16 when that is the common dtype; the casts are c10's static_casts (an int64
 * goes to float directly, a double through float). */
static inline float load_float(const char *p, ct_dtype src, ct_dtype common) {
    float v;
    switch (src) {
    case CT_FLOAT32: v = *(const float *)p; break;
    case CT_INT64: v = (float)*(const int64_t *)p; break;
    case CT_FLOAT64: v = (float)*(const double *)p; break;
    default: v = (float)load(p, src); break; /* bool, float16, bfloat16: exact */
    }
    if (src != common) {
        if (common == CT_FLOAT16) v = ct_half_to_float(ct_float_to_half(v));
        else if (common == CT_BFLOAT16) v = ct_bfloat16_to_float(ct_float_to_bfloat16(v));
    }
    return v;
}

static inline void elem(char **p, const pw_ctx *c) {
    switch (c->compute) {
    case CT_UINT8:
    case CT_INT8:
    case CT_INT16:
    case CT_INT32: /* computed in int64, stored modulo the dtype's width: PyTorch's wrap-around */
    case CT_INT64: {
        int64_t a = c->a == CT_INT64 ? *(const int64_t *)p[1] : ct_elem_load_int64(p[1], c->a);
        int64_t b = 0;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN)
            b = c->b == CT_INT64 ? *(const int64_t *)p[2] : ct_elem_load_int64(p[2], c->b);
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
        else ct_elem_store_int64(p[0], c->out, r);
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
        float a = load_float(p[1], c->a, c->common), b = 0, r;
        if (c->op != OP_NEG && c->op != OP_CLAMP_MIN) b = load_float(p[2], c->b, c->b_original ? c->b : c->common);
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

/* The generic loop: any dtypes, any strides, one element at a time through elem(). */
static void generic_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, const void *ctx) {
    const pw_ctx *c = ctx;
    const int n = c->ntensors;
    char *p[3];
    for (int64_t j = 0; j < size1; j++) {
        for (int k = 0; k < n; k++) p[k] = data[k] + j * strides[n + k];
        for (int64_t i = 0; i < size0; i++) {
            elem(p, c);
            for (int k = 0; k < n; k++) p[k] += strides[k];
        }
    }
}

/* The vectorised loop for c, when every operand has the compute dtype and it is float32,
 * float64 or int64 (see vec/pointwise_vec.c); NULL otherwise. */
static ct_loop2d_fn vec_loop(const pw_ctx *c, bool binary_op) {
    ct_vec_type vt;
    switch (c->compute) {
    case CT_FLOAT32: vt = CT_VT_F32; break;
    case CT_FLOAT64: vt = CT_VT_F64; break;
    case CT_INT64: vt = CT_VT_I64; break;
    default: return NULL;
    }
    if (c->out != c->compute || c->a != c->compute || (binary_op && c->b != c->compute)) return NULL;
    ct_vec_op vop;
    switch (c->op) {
    case OP_ADD: vop = c->alpha_i == 1 && c->alpha == 1.0 ? CT_VOP_ADD1 : c->alpha_i == -1 && c->alpha == -1.0 ? CT_VOP_SUB1 : CT_VOP_ADD; break;
    case OP_MUL: vop = CT_VOP_MUL; break;
    case OP_DIV: vop = CT_VOP_DIV; break;
    case OP_NEG: vop = CT_VOP_NEG; break;
    case OP_CLAMP_MIN: vop = CT_VOP_CLAMP_MIN; break;
    case OP_THRESHOLD_BW: vop = CT_VOP_THRESHOLD_BW; break;
    default: return NULL;
    }
    return ct_vec()->pointwise[vop][vt];
}

/* A contiguous run split over the threads: f over elements [begin, end) of every operand. */
typedef struct run_job {
    ct_loop2d_fn f;
    char *data[3];
    int64_t strides[6];
    ct_vec_scalars s;
} run_job;

static int run_chunk(void *vjob, int64_t begin, int64_t end) {
    const run_job *j = vjob;
    char *data[3];
    for (int k = 0; k < 3; k++) data[k] = j->data[k] ? j->data[k] + begin * j->strides[k] : NULL;
    j->f(data, j->strides, end - begin, 1, &j->s);
    return 0;
}

/* Runs the loop: out (already allocated with the broadcast shape) = f(a, b), laid out as
 * TensorIterator lays it out (Note [Iteration layout] in iter.h); over the threads when it has
 * more than a grain of elements (ct_iter_run). */
static void run(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, pw_ctx *c) {
    if (out->numel == 0) return;
    const ct_tensor *ts[3] = {out, a, b};
    c->ntensors = b ? 3 : 2;
    /* Operands of out's dtype, shape and row-major contiguous layout are one contiguous run
     * each, in the same order: the iterator would coalesce them into one dimension, so its
     * setup is skipped and the vectorised loop runs over the run directly. */
    if (a->numel == out->numel && (!b || b->numel == out->numel) && ct_is_contiguous_nn(out) && ct_is_contiguous_nn(a) &&
        (!b || ct_is_contiguous_nn(b))) {
        ct_loop2d_fn f = vec_loop(c, b != NULL);
        if (f) { /* every operand has the compute dtype, and elements (numel > 0) */
            const int64_t es = (int64_t)ct_dtype_size(out->dtype);
            char *data[3] = {(char *)out->storage->data + out->storage_offset * es, (char *)a->storage->data + a->storage_offset * es,
                             b ? (char *)b->storage->data + b->storage_offset * es : NULL};
            const int64_t strides[6] = {es, es, b ? es : 0, 0, 0, 0};
            const ct_vec_scalars s = {c->alpha, (float)c->alpha, c->alpha_i};
            if (out->numel > CT_GRAIN_SIZE) { /* TensorIterator::for_each's split */
                run_job j = {f, {data[0], data[1], data[2]}, {es, es, b ? es : 0, 0, 0, 0}, s};
                ct_parallel_for(0, out->numel, CT_GRAIN_SIZE, run_chunk, &j);
                return;
            }
            f(data, strides, out->numel, 1, &s);
            return;
        }
    }
    ct_iter it;
    ct_iter_init(&it, out->sizes, out->ndim, ts, c->ntensors);
    /* A one-element operand of another dtype (a wrapped Python number, a 0-dim tensor) is cast
     * to the compute dtype once, as TensorIterator does with a CPU scalar; the loop then reads
     * that value with stride 0, and the vectorised loop can run. The value is the one the
     * per-element path would compute (load_float / load), so the result is the same bits. */
    float scalar_f[2];
    double scalar_d[2];
    const bool fp = c->compute == CT_FLOAT32 || c->compute == CT_FLOAT64;
    for (int k = 1; fp && !c->b_original && c->out == c->compute && k < c->ntensors; k++) {
        const ct_tensor *t = k == 1 ? a : b;
        ct_dtype *dt = k == 1 ? &c->a : &c->b;
        if (t->numel != 1 || *dt == c->compute || (*dt != c->compute && t == out)) continue;
        if (c->compute == CT_FLOAT32) {
            scalar_f[k - 1] = load_float(it.data[k], *dt, c->common);
            it.data[k] = (char *)&scalar_f[k - 1];
        } else {
            scalar_d[k - 1] = load(it.data[k], *dt);
            it.data[k] = (char *)&scalar_d[k - 1];
        }
        *dt = c->compute;
    }
    ct_loop2d_fn f = vec_loop(c, b != NULL);
    if (f) {
        ct_vec_scalars s = {c->alpha, (float)c->alpha, c->alpha_i};
        ct_iter_run(&it, f, &s);
    } else {
        ct_iter_run(&it, generic_loop, c);
    }
}

/* True when every element of t, broadcast to sizes, is the same element (TensorIterator's
 * is_scalar: each dimension has stride 0 or size 1). */
static bool is_scalar_operand(const ct_tensor *t, const int64_t *sizes, int ndim) {
    int64_t st[CT_MAX_DIMS];
    ct_broadcast_strides(t, sizes, ndim, st);
    for (int i = 0; i < ndim; i++)
        if (st[i] != 0 && sizes[i] != 1) return false;
    return true;
}

/* The shared body of every binary op. self_out: the in-place target or the out= tensor, or NULL.
 * The checks come in TensorIteratorBase::build's order (compute_mem_overlaps, compute_shape,
 * mark_resize_outputs, compute_types), then the op's own (add's alpha_check). */
static int binary(const ct_op *op, ct_tensor *a, ct_tensor *b, pw_op kind, ct_scalar alpha, ct_tensor *self_out,
                  ct_value *rets) {
    if (self_out && ct_assert_no_internal_overlap(self_out) != 0) return -1;
    int64_t bshape[CT_MAX_DIMS];
    const int64_t *shape = a->sizes; /* equal shapes broadcast to themselves */
    int n = a->ndim;
    bool same = a->ndim == b->ndim;
    for (int i = 0; same && i < n; i++) same = a->sizes[i] == b->sizes[i];
    if (!same) {
        if (ct_broadcast_shapes(a->sizes, a->ndim, b->sizes, b->ndim, bshape, &n) != 0) return -1;
        shape = bshape;
    }
    ct_tensor *ins_[2] = {a, b};
    const int resize = self_out ? ct_out_mark_resize(self_out, shape, n, ins_, 2) : 0;
    if (resize < 0) return -1;
    ct_dtype rt = ct_result_type2(a, b);
    if (kind == OP_DIV && !ct_dtype_is_floating(rt)) rt = ct_default_dtype(); /* true division */
    if (self_out && !ct_dtype_can_cast(rt, self_out->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                            ct_dtype_name(rt), ct_dtype_name(self_out->dtype));
    if (resize && ct_out_resize(self_out, shape, n, (const ct_tensor *const *)ins_, 2) != 0) return -1;
    if (kind == OP_ADD) {
        /* alpha_check, then the kernel's alpha.to<scalar_t>() */
        if (alpha.tag == CT_TAG_BOOL && rt != CT_BOOL)
            return ct_error_set(CT_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.");
        if (alpha.tag == CT_TAG_DOUBLE && !ct_dtype_is_floating(rt))
            return ct_error_set(CT_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number.");
        if (ct_scalar_check_convert(alpha, rt) != 0) return -1;
    }
    /* Note [TensorIterator's casts on the CPU] */
    ct_iter_casts k;
    ct_tensor *ins[2] = {a, b};
    if (ct_iter_cast_begin(&k, self_out, ins, 2, rt, true) != 0) return -1;
    ct_tensor *out = k.out;
    if (!out) {
        out = ct_iter_alloc_output(shape, n, rt, (const ct_tensor *const *)k.in, 2);
        if (!out) return ct_iter_cast_end(&k, -1);
    }
    pw_ctx c;
    c.op = kind;
    c.common = rt;
    c.compute = ct_dtype_opmath(rt);
    if (kind == OP_DIV && !ct_dtype_is_floating(c.compute)) c.compute = CT_FLOAT32;
    /* mul_kernel / div_true_kernel: with a float16/bfloat16 common dtype and a one-element
     * other, the kernel takes other's original value in float (original_scalar_value)
     * instead of its cast to the common dtype */
    c.b_original = (kind == OP_MUL || kind == OP_DIV) && ct_dtype_is_reduced_floating(rt) &&
                   is_scalar_operand(b, shape, n);
    ct_tensor *ka = k.in[0], *kb = c.b_original ? b : k.in[1];
    c.out = out->dtype;
    c.a = ka->dtype;
    c.b = kb->dtype;
    c.alpha = kind == OP_ADD ? ct_scalar_to_double(alpha) : 0.0;
    c.alpha_i = kind == OP_ADD ? (alpha.tag == CT_TAG_DOUBLE ? ct_double_to_int64(alpha.u.d) : alpha.tag == CT_TAG_BOOL ? alpha.u.b : alpha.u.i) : 0;
    (void)op;
    run(out, ka, kb, &c);
    if (ct_iter_cast_end(&k, 0) != 0) {
        if (!self_out) ct_tensor_release(out);
        return -1;
    }
    if (self_out) return ct_ret_self(rets, self_out);
    return ct_ret(rets, 0, out);
}

static ct_scalar negate(ct_scalar s) {
    if (s.tag == CT_TAG_DOUBLE) return ct_double(-s.u.d);
    if (s.tag == CT_TAG_BOOL) return ct_int(-(int64_t)s.u.b);
    return ct_int((int64_t)(0 - (uint64_t)s.u.i)); /* wraps, as the kernels' integer arithmetic does */
}

static int check_sub(const ct_tensor *a, const ct_tensor *b) {
    if (a->dtype == CT_BOOL && b->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    if (a->dtype == CT_BOOL || b->dtype == CT_BOOL)
        return ct_error_set(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return 0;
}

int ct_k_add(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_ADD, args[2], NULL, rets); }
int ct_k_add_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_ADD, args[2], ARG_T(0), rets); }
int ct_k_sub(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (check_sub(ARG_T(0), ARG_T(1)) != 0) return -1;
    return binary(op, ARG_T(0), ARG_T(1), OP_ADD, negate(args[2]), NULL, rets);
}
int ct_k_sub_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (check_sub(ARG_T(0), ARG_T(1)) != 0) return -1;
    return binary(op, ARG_T(0), ARG_T(1), OP_ADD, negate(args[2]), ARG_T(0), rets);
}
int ct_k_mul(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_MUL, ct_int(1), NULL, rets); }
int ct_k_mul_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_MUL, ct_int(1), ARG_T(0), rets); }
/* the out= forms: the same body writing into out, resized when it is only written (ct_out_mark_resize) */
int ct_k_add_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_ADD, args[2], ARG_T(3), rets); }
int ct_k_sub_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    if (check_sub(ARG_T(0), ARG_T(1)) != 0) return -1;
    return binary(op, ARG_T(0), ARG_T(1), OP_ADD, negate(args[2]), ARG_T(3), rets);
}
int ct_k_mul_out(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_MUL, ct_int(1), ARG_T(2), rets); }
int ct_k_div(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_DIV, ct_int(1), NULL, rets); }
int ct_k_div_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) { (void)ks; return binary(op, ARG_T(0), ARG_T(1), OP_DIV, ct_int(1), ARG_T(0), rets); }

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

ct_tensor *ct_wrapped_number(ct_scalar s) {
    if (s.tag != CT_TAG_INT && s.tag != CT_TAG_DOUBLE && s.tag != CT_TAG_BOOL) {
        ct_error_set(CT_ERR_TYPE, "ct_wrapped_number: expected an int, float or bool scalar");
        return NULL;
    }
    return ct_wrap_scalar(s);
}

int ct_k_add_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_add(ARG_T(0), w, args[2]));
    ct_tensor_release(w);
    return rc;
}

int ct_k_add__scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_add_(ARG_T(0), w, args[2]);
    ct_tensor_release(w);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}

int ct_k_sub_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_sub(ARG_T(0), w, args[2]));
    ct_tensor_release(w);
    return rc;
}

int ct_k_sub__scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_sub_(ARG_T(0), w, args[2]);
    ct_tensor_release(w);
    return rc != 0 ? -1 : ct_ret_self(rets, ARG_T(0));
}

/* rsub.Tensor: other - alpha * self, as sub.Tensor(other, self, alpha) through the dispatcher
 * (PyTorch's CPU kernel calls at::sub) */
int ct_k_rsub_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    return ct_ret(rets, 0, ct_sub(ARG_T(1), ARG_T(0), args[2]));
}

/* rsub.Scalar: the scalar wrapped, then sub.Tensor(other, self, alpha) */
int ct_k_rsub_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_sub(w, ARG_T(0), args[2]));
    ct_tensor_release(w);
    return rc;
}

int ct_k_mul_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_mul(ARG_T(0), w));
    ct_tensor_release(w);
    return rc;
}

int ct_k_mul_scalar_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_mul_(ARG_T(0), w);
    ct_tensor_release(w);
    if (rc != 0) return -1;
    return ct_ret_self(rets, ARG_T(0));
}

int ct_k_div_scalar(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *w = ct_wrap_scalar(args[1]);
    if (!w) return -1;
    int rc = ct_ret(rets, 0, ct_div(ARG_T(0), w));
    ct_tensor_release(w);
    return rc;
}

/* A unary TensorIterator op: the output laid out after self (see Note [TensorIterator output
 * layout] in kernel_util.c), self cast to out_dt (the common dtype). */
static ct_tensor *unary_out(ct_tensor *self, ct_dtype out_dt) {
    const ct_tensor *ins[1] = {self};
    return ct_iter_alloc_output(self->sizes, self->ndim, out_dt, ins, 1);
}

static int unary(ct_tensor *self, pw_op kind, double param, int64_t param_i, ct_dtype out_dt, ct_value *rets) {
    ct_tensor *out = unary_out(self, out_dt);
    if (!out) return -1;
    pw_ctx c;
    c.op = kind;
    c.out = out_dt;
    c.a = self->dtype;
    c.b = self->dtype;
    c.common = out_dt;
    c.b_original = false;
    c.compute = ct_dtype_opmath(out_dt);
    c.alpha = param;
    c.alpha_i = param_i;
    run(out, self, NULL, &c);
    return ct_ret(rets, 0, out);
}

/* relu(Tensor self) = clamp_min(self, 0), dispatched (the profiler shows the nesting) */
int ct_k_relu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (self->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "Boolean inputs not supported for relu");
    return ct_ret(rets, 0, ct_clamp_min(self, ct_int(0)));
}

/* clamp_min(Tensor self, Scalar min): a floating self keeps its dtype; otherwise self is
 * promoted with min (TORCH_META_FUNC(clamp_min)). A NaN min fills the result with NaN
 * (TORCH_IMPL_FUNC(clamp_min_out) calls at::fill_); else the kernel converts min to the
 * dtype with Scalar::to, which checks the range. */
int ct_k_clamp_min(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_scalar min = args[1];
    bool floating = ct_dtype_is_floating(self->dtype);
    ct_dtype rt = floating ? self->dtype : ct_result_type_scalar(self, min);
    /* the meta function builds its iterator over self.to(result type) when self is not
     * floating: a dispatched call, even when the dtype stays */
    ct_tensor *in = floating ? ct_tensor_retain(self) : ct_to_dtype(self, rt, false, false, CT_MEMORY_FORMAT_NONE);
    if (!in) return -1;
    double min_d = ct_scalar_to_double(min);
    int rc;
    if (isnan(min_d)) {
        ct_tensor *out = unary_out(in, rt);
        rc = out ? ct_fill_(out, min) : -1;
        if (rc == 0) rc = ct_ret(rets, 0, out);
        else ct_tensor_release(out);
    } else if (rt == CT_BOOL) {
        rc = ct_error_set(CT_ERR_RUNTIME, "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
    } else if (ct_scalar_check_convert(min, rt) != 0) {
        rc = -1;
    } else {
        int64_t min_i = min.tag == CT_TAG_INT ? min.u.i : ct_double_to_int64(min_d);
        rc = unary(in, OP_CLAMP_MIN, min_d, min_i, rt, rets);
    }
    ct_tensor_release(in);
    return rc;
}

/* threshold_backward(Tensor grad_output, Tensor self, Scalar threshold): grad where
 * self > threshold, else 0. TORCH_META_FUNC(threshold_backward) makes self the first
 * operand and grad the second, which orders broadcasting's error message and the output
 * layout; threshold_kernel compares in float for float16/bfloat16. */
int ct_k_threshold_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    ct_tensor *g = ARG_T(0), *self = ARG_T(1);
    int64_t shape[CT_MAX_DIMS];
    int n;
    if (ct_broadcast_shapes(self->sizes, self->ndim, g->sizes, g->ndim, shape, &n) != 0) return -1;
    ct_dtype rt = ct_result_type2(self, g);
    if (ct_scalar_check_convert(args[2], ct_dtype_opmath(rt)) != 0) return -1;
    /* Note [TensorIterator's casts on the CPU] (a binary op's iterator: self, then grad) */
    ct_iter_casts k;
    ct_tensor *ins[2] = {self, g};
    if (ct_iter_cast_begin(&k, NULL, ins, 2, rt, true) != 0) return -1;
    ct_tensor *out = ct_iter_alloc_output(shape, n, rt, (const ct_tensor *const *)k.in, 2);
    if (!out) return ct_iter_cast_end(&k, -1);
    ct_tensor *kself = k.in[0], *kg = k.in[1];
    pw_ctx c;
    c.op = OP_THRESHOLD_BW;
    c.out = rt;
    c.a = kg->dtype;
    c.b = kself->dtype;
    c.common = rt;
    c.b_original = false;
    c.compute = ct_dtype_opmath(rt);
    c.alpha = ct_scalar_to_double(args[2]);
    c.alpha_i = args[2].tag == CT_TAG_INT ? args[2].u.i : (int64_t)c.alpha;
    (void)op;
    run(out, kg, kself, &c);
    ct_iter_cast_end(&k, 0);
    return ct_ret(rets, 0, out);
}
