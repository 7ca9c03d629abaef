/* The vectorised kernels against scalar references, bit for bit, at every CPU capability this
 * machine and build have (DEFAULT, AVX2, AVX512; see Note [CPU capabilities] in
 * src/ops/cpu/vec/vec_kernels.h), each level chosen for this thread in turn:
 *   - add/sub (alpha 1, -1 and others)/mul/div/neg/relu/clamp_min/threshold_backward, out of
 *     place and in place, over shapes whose rows end in vector tails of every width, empty
 *     tensors, a second operand broadcast along rows (stride 0 inside a row: a scalar), along
 *     columns (a bias), as a 0-dim tensor or a wrapped number, transposed and every-second-
 *     element operands, in float32, float64, int64, float16, bfloat16 and bool and a few mixed
 *     dtypes; the reference computes each element on its own (in the op's compute type, with
 *     fma for add as PyTorch's kernel does);
 *   - copy_ between every pair of dtypes (contiguous, expanded rows and columns, transposed on
 *     either side, strided), fill_ and zero_ over the same layouts;
 *   - sum: the cascade order against PyTorch 2.6's own sums recorded at each of its levels
 *     (tests/golden/torch-2.6/cascade_sum.json), and the layout (which elements go into which
 *     output) over many shapes, dimensions and views with integer-valued data, whose sums are
 *     exact in any order; int64 and bool sums;
 *   - _log_softmax and its backward on contiguous float tensors (their direct loops) equal the
 *     general strided loops, bit for bit;
 *   - float32 native_layer_norm (+ backward), _softmax, _softmax_backward_data, _log_softmax
 *     (+ backward) and nll_loss_forward against PyTorch 2.6's bits recorded at the same level
 *     (tests/golden/torch-2.6/float_kernels.json: these results differ between its levels), at
 *     one and at two intra-op threads (layer norm's weight gradient differs between them);
 *   - the small float32 GEMM kernels: every transpose combination, sizes around each block and
 *     vector width, padded leading dimensions, alpha and beta, with integer-valued matrices
 *     (exact in any order) against a double reference, bit for bit; and which shapes they take.
 * Under CTORCH_CPU_CAPABILITY it also checks the process-wide level is the one pinned. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tensor_impl.h"
#include "ctorch/ctorch.h"
#include "harness.h"
#include "ops/cpu/capability.h"
#include "ops/cpu/gemm.h"
#include "ops/kernel_util.h"
#include "util/json.h"

static const char *level_name;

/* ---- tensors with chosen values and layouts ---------------------------------------------- */

/* value i of a test tensor: varied signs and magnitudes, some zeros; integral for int64/bool */
static double value_at(int64_t i, ct_dtype dt, int salt) {
    int64_t h = (i * 7919 + salt * 104729) % 1999;
    if (dt == CT_BOOL) return (double)(h % 3 == 0);
    if (dt == CT_INT64) return (double)(h - 999);
    if (h % 17 == 0) return 0.0;
    return (double)(h - 999) / 37.0;
}

/* a contiguous tensor of shape sizes filled by value_at */
static ct_tensor *make(ct_dtype dt, const int64_t *sizes, int ndim, int salt) {
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= sizes[d];
    double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++) v[i] = value_at(i, dt, salt);
    ct_tensor *t = ct_tensor_from_doubles(v, sizes, ndim, dt);
    free(v);
    return t;
}

typedef enum { L_CONTIG, L_TRANSPOSED, L_STEP2 } layout;
static const char *const layout_names[] = {"contiguous", "transposed", "every second"};

/* a 2-d tensor of shape [r, c] laid out as asked: contiguous, a transpose of a [c, r] tensor,
 * or every second column of an [r, 2c] tensor */
static ct_tensor *make2(ct_dtype dt, int64_t r, int64_t c, layout l, int salt) {
    if (l == L_TRANSPOSED) {
        int64_t s[2] = {c, r};
        ct_tensor *base = make(dt, s, 2, salt);
        ct_tensor *t = ct_t(base);
        ct_tensor_release(base);
        return t;
    }
    if (l == L_STEP2) {
        int64_t s[2] = {r, 2 * c};
        ct_tensor *base = make(dt, s, 2, salt);
        int64_t size[2] = {r, c}, stride[2] = {c > 0 ? 2 * c : 2, 2};
        ct_tensor *t = ct_as_strided(base, size, 2, stride, 2, NULL);
        ct_tensor_release(base);
        return t;
    }
    int64_t s[2] = {r, c};
    return make(dt, s, 2, salt);
}

/* the address of element idx (of `shape`, ndim) of t broadcast to shape */
static const char *at(const ct_tensor *t, const int64_t *idx, int ndim) {
    int64_t off = t->storage_offset;
    for (int d = 0; d < t->ndim; d++) {
        int dd = d + ndim - t->ndim;
        if (t->sizes[d] != 1) off += idx[dd] * t->strides[d];
    }
    return (const char *)t->storage->data + off * (int64_t)ct_dtype_size(t->dtype);
}

static bool next_index(int64_t *idx, const int64_t *shape, int ndim) {
    for (int d = ndim - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) return true;
        idx[d] = 0;
    }
    return false;
}

/* one element equal to the reference bytes (any NaN equals any NaN) */
static bool same_elem(const char *got, const char *want, ct_dtype dt) {
    if (memcmp(got, want, ct_dtype_size(dt)) == 0) return true;
    if (dt == CT_BOOL || dt == CT_INT64) return false;
    return isnan(ct_load_as_double(got, dt)) && isnan(ct_load_as_double(want, dt));
}

/* ---- pointwise ----------------------------------------------------------------------------- */

typedef enum { P_ADD, P_SUB, P_MUL, P_DIV, P_NEG, P_RELU, P_CLAMP_MIN, P_THRESHOLD_BW } pop;
static const char *const pop_names[] = {"add", "sub", "mul", "div", "neg", "relu", "clamp_min", "threshold_backward"};

static bool is_unary(pop op) { return op == P_NEG || op == P_RELU || op == P_CLAMP_MIN; }

/* an input converted to the common dtype, as TensorIterator casts it, then to the compute type */
static float in_float(const char *p, ct_dtype src, ct_dtype common) {
    float v = src == CT_INT64 ? (float)*(const int64_t *)p : src == CT_FLOAT64 ? (float)*(const double *)p : (float)ct_load_as_double(p, src);
    if (src != common && common == CT_FLOAT16) v = ct_half_to_float(ct_float_to_half(v));
    if (src != common && common == CT_BFLOAT16) v = ct_bfloat16_to_float(ct_float_to_bfloat16(v));
    return v;
}

/* the reference result of one element, stored in out's dtype into buf */
static void ref_elem(pop op, double alpha, ct_dtype common, ct_dtype out_dt, const char *pa, ct_dtype da, const char *pb,
                     ct_dtype db, char *buf) {
    if (op == P_SUB) {
        op = P_ADD;
        alpha = -alpha;
    }
    double param = op == P_RELU ? 0.0 : alpha;
    if (op == P_RELU) op = P_CLAMP_MIN;
    if (common == CT_INT64) {
        int64_t a = da == CT_INT64 ? *(const int64_t *)pa : (int64_t)ct_load_as_double(pa, da);
        int64_t b = pb ? (db == CT_INT64 ? *(const int64_t *)pb : (int64_t)ct_load_as_double(pb, db)) : 0;
        int64_t al = (int64_t)param, r = 0;
        switch (op) {
        case P_ADD: r = (int64_t)((uint64_t)a + (uint64_t)al * (uint64_t)b); break;
        case P_MUL: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
        case P_NEG: r = (int64_t)(0 - (uint64_t)a); break;
        case P_CLAMP_MIN: r = a < al ? al : a; break;
        case P_THRESHOLD_BW: r = b <= al ? 0 : a; break;
        default: break;
        }
        if (out_dt == CT_INT64) memcpy(buf, &r, 8);
        else ct_store_from_double(buf, out_dt, (double)r);
    } else if (common == CT_BOOL) {
        bool a = ct_load_as_double(pa, da) != 0, b = pb && ct_load_as_double(pb, db) != 0, r = a;
        if (op == P_ADD) r = a || (b && param != 0);
        if (op == P_MUL) r = a && b;
        if (op == P_THRESHOLD_BW) r = b <= (param != 0) ? false : a;
        ct_store_from_double(buf, out_dt, r ? 1.0 : 0.0);
    } else if (common == CT_FLOAT64) {
        double a = ct_load_as_double(pa, da), b = pb ? ct_load_as_double(pb, db) : 0, r = 0;
        switch (op) {
        case P_ADD: r = fma(param, b, a); break;
        case P_MUL: r = a * b; break;
        case P_DIV: r = a / b; break;
        case P_NEG: r = -a; break;
        case P_CLAMP_MIN: r = isnan(a) ? a : (a < param ? param : a); break;
        case P_THRESHOLD_BW: r = b <= param ? 0.0 : a; break;
        default: break;
        }
        ct_store_from_double(buf, out_dt, r);
    } else {
        float a = in_float(pa, da, common), b = pb ? in_float(pb, db, common) : 0, al = (float)param, r = 0;
        switch (op) {
        case P_ADD: r = fmaf(al, b, a); break;
        case P_MUL: r = a * b; break;
        case P_DIV: r = a / b; break;
        case P_NEG: r = -a; break;
        case P_CLAMP_MIN: r = isnan(a) ? a : (a < al ? al : a); break;
        case P_THRESHOLD_BW: r = b <= al ? 0.0f : a; break;
        default: break;
        }
        if (out_dt == CT_FLOAT32) memcpy(buf, &r, 4);
        else ct_store_from_double(buf, out_dt, (double)r);
    }
}

/* runs op (in place on a copy of a when inplace) and compares every element with ref_elem */
static void check_pointwise(pop op, double alpha, ct_tensor *a, ct_tensor *b, bool inplace, const char *what) {
    ct_scalar al = op == P_ADD || op == P_SUB ? (alpha == floor(alpha) && a->dtype != CT_FLOAT32 && a->dtype != CT_FLOAT64 &&
                                                 a->dtype != CT_FLOAT16 && a->dtype != CT_BFLOAT16
                                                     ? ct_int((int64_t)alpha)
                                                     : ct_double(alpha))
                                              : ct_double(alpha);
    if (op == P_CLAMP_MIN && a->dtype == CT_INT64) al = ct_int((int64_t)alpha);
    ct_tensor *self = a, *out = NULL;
    if (inplace) { /* a fresh tensor with a's layout and values */
        self = ct_empty_strided(a->sizes, a->ndim, a->strides, a->ndim, a->dtype);
        if (self->numel) {
            /* the same strides over its own storage: copy element by element */
            int64_t idx[CT_MAX_DIMS] = {0};
            do memcpy((char *)at(self, idx, a->ndim), at(a, idx, a->ndim), ct_dtype_size(a->dtype));
            while (next_index(idx, a->sizes, a->ndim));
        }
        int rc = -1;
        switch (op) {
        case P_ADD: rc = ct_add_(self, b, al); break;
        case P_SUB: rc = ct_sub_(self, b, al); break;
        case P_MUL: rc = ct_mul_(self, b); break;
        case P_DIV: rc = ct_div_(self, b); break;
        default: break;
        }
        CHECK_MSG(rc == 0, "%s %s %s in place: %s", level_name, pop_names[op], what, ct_error_message());
        out = self;
    } else {
        switch (op) {
        case P_ADD: out = ct_add(a, b, al); break;
        case P_SUB: out = ct_sub(a, b, al); break;
        case P_MUL: out = ct_mul(a, b); break;
        case P_DIV: out = ct_div(a, b); break;
        case P_NEG: out = ct_neg(a); break;
        case P_RELU: out = ct_relu(a); break;
        case P_CLAMP_MIN: out = ct_clamp_min(a, al); break;
        case P_THRESHOLD_BW: out = ct_threshold_backward(a, b, al); break;
        }
        CHECK_MSG(out != NULL, "%s %s %s: %s", level_name, pop_names[op], what, ct_error_message());
    }
    if (!out) return;
    /* the reference: threshold_backward(grad=a, self=b); the common dtype from the result */
    ct_dtype common = out->dtype;
    if (op == P_DIV && inplace) common = ct_result_type2(a, b) == CT_INT64 ? CT_FLOAT32 : ct_result_type2(a, b);
    if (inplace && op != P_DIV) common = ct_result_type2(a, b);
    int64_t idx[CT_MAX_DIMS] = {0};
    int bad = 0;
    int64_t first_bad = -1, lin = 0;
    if (out->numel > 0) do {
            char want[8];
            const char *pb = is_unary(op) ? NULL : at(b, idx, out->ndim);
            ref_elem(op, alpha, common, out->dtype, at(a, idx, out->ndim), a->dtype, pb, is_unary(op) ? a->dtype : b->dtype, want);
            if (!same_elem(at(out, idx, out->ndim), want, out->dtype)) {
                if (first_bad < 0) first_bad = lin;
                bad++;
            }
            lin++;
        } while (next_index(idx, out->sizes, out->ndim));
    CHECK_MSG(bad == 0, "%s %s%s %s (%s): %d of %lld elements differ from the reference, first at %lld", level_name,
              pop_names[op], inplace ? "_" : "", what, ct_dtype_name(out->dtype), bad, (long long)out->numel,
              (long long)first_bad);
    ct_tensor_release(out);
}

static void pointwise_cases(void) {
    const ct_dtype same[] = {CT_FLOAT32, CT_FLOAT64, CT_INT64, CT_FLOAT16, CT_BFLOAT16};
    const pop binops[] = {P_ADD, P_SUB, P_MUL, P_DIV, P_THRESHOLD_BW};
    const double alphas[] = {1.0, -1.0, 2.5, -3.0};
    char what[160];
    for (size_t di = 0; di < sizeof same / sizeof same[0]; di++) {
        ct_dtype dt = same[di];
        bool fl = dt != CT_INT64;
        /* contiguous 1-d, every tail width up to 2 x 16 floats and beyond, and empty */
        for (int64_t n = 0; n <= 70; n += (n < 40 ? 1 : 15)) {
            int64_t s[1] = {n};
            ct_tensor *a = make(dt, s, 1, 1), *b = make(dt, s, 1, 2);
            for (size_t oi = 0; oi < sizeof binops / sizeof binops[0]; oi++) {
                pop op = binops[oi];
                for (size_t ai = 0; ai < (op == P_ADD || op == P_SUB ? 4u : 1u); ai++) {
                    double alpha = op == P_THRESHOLD_BW ? 0.5 : alphas[ai];
                    if (!fl && alpha != floor(alpha)) continue;
                    snprintf(what, sizeof what, "[%lld] contiguous, alpha %g", (long long)n, alpha);
                    check_pointwise(op, alpha, a, b, false, what);
                    if (op != P_THRESHOLD_BW && !(op == P_DIV && !fl)) check_pointwise(op, alpha, a, b, true, what);
                }
            }
            snprintf(what, sizeof what, "[%lld] contiguous", (long long)n);
            if (dt != CT_BOOL) check_pointwise(P_NEG, 0, a, NULL, false, what);
            check_pointwise(P_RELU, 0, a, NULL, false, what);
            check_pointwise(P_CLAMP_MIN, fl ? -0.75 : -3, a, NULL, false, what);
            ct_tensor_release(a);
            ct_tensor_release(b);
        }
        /* 2-d layouts: rows of 1..19 (every tail), the second operand in each broadcast form */
        const int64_t cols[] = {1, 3, 7, 8, 9, 15, 16, 17, 19, 33};
        for (size_t ci = 0; ci < sizeof cols / sizeof cols[0]; ci++) {
            int64_t R = 3, C = cols[ci];
            for (int la = 0; la < 3; la++) {
                ct_tensor *a = make2(dt, R, C, (layout)la, 3);
                struct {
                    const char *name;
                    ct_tensor *t;
                } others[6];
                int64_t row[1] = {C}, col[2] = {R, 1};
                others[0].name = "same shape";
                others[0].t = make2(dt, R, C, (layout)((la + 1) % 3), 4);
                others[1].name = "row broadcast [C]";
                others[1].t = make(dt, row, 1, 5);
                others[2].name = "column broadcast [R,1]";
                others[2].t = make(dt, col, 2, 6);
                others[3].name = "0-dim";
                others[3].t = make(dt, NULL, 0, 7);
                others[4].name = "wrapped number";
                others[4].t = ct_wrapped_number(fl ? ct_double(1.25) : ct_int(-3));
                int64_t ex[2] = {R, C};
                ct_tensor *rowsrc = make(dt, row, 1, 8);
                others[5].name = "expanded [C] -> [R,C]";
                others[5].t = ct_expand(rowsrc, ex, 2, false);
                ct_tensor_release(rowsrc);
                for (int oi = 0; oi < 6; oi++) {
                    for (size_t pi = 0; pi < sizeof binops / sizeof binops[0]; pi++) {
                        pop op = binops[pi];
                        double alpha = op == P_THRESHOLD_BW ? 0.5 : op == P_ADD ? 1.0 : op == P_SUB ? 2.0 : 1.0;
                        snprintf(what, sizeof what, "a [%lld,%lld] %s, b %s", (long long)R, (long long)C, layout_names[la],
                                 others[oi].name);
                        check_pointwise(op, alpha, a, others[oi].t, false, what);
                        /* the scalar on the left: b op a */
                        if (op != P_THRESHOLD_BW && oi >= 3) check_pointwise(op, alpha, others[oi].t, a, false, what);
                        if (op != P_THRESHOLD_BW && !(op == P_DIV && !fl)) check_pointwise(op, alpha, a, others[oi].t, true, what);
                    }
                }
                snprintf(what, sizeof what, "[%lld,%lld] %s", (long long)R, (long long)C, layout_names[la]);
                check_pointwise(P_NEG, 0, a, NULL, false, what);
                check_pointwise(P_RELU, 0, a, NULL, false, what);
                for (int oi = 0; oi < 6; oi++) ct_tensor_release(others[oi].t);
                ct_tensor_release(a);
            }
        }
    }
    /* bool, and mixed dtypes (the generic loop) */
    int64_t s[2] = {4, 9};
    ct_tensor *bo = make(CT_BOOL, s, 2, 1), *bo2 = make(CT_BOOL, s, 2, 2);
    check_pointwise(P_ADD, 1, bo, bo2, false, "bool [4,9]");
    check_pointwise(P_MUL, 1, bo, bo2, false, "bool [4,9]");
    check_pointwise(P_THRESHOLD_BW, 0, bo, bo2, false, "bool [4,9]");
    const ct_dtype mixa[] = {CT_FLOAT32, CT_INT64, CT_FLOAT16, CT_BOOL, CT_FLOAT32};
    const ct_dtype mixb[] = {CT_FLOAT64, CT_FLOAT32, CT_FLOAT32, CT_INT64, CT_BFLOAT16};
    for (int i = 0; i < 5; i++) {
        ct_tensor *a = make(mixa[i], s, 2, 3), *b = make(mixb[i], s, 2, 4);
        snprintf(what, sizeof what, "%s with %s [4,9]", ct_dtype_name(mixa[i]), ct_dtype_name(mixb[i]));
        check_pointwise(P_ADD, 1, a, b, false, what);
        check_pointwise(P_MUL, 1, a, b, false, what);
        ct_tensor_release(a);
        ct_tensor_release(b);
    }
    ct_tensor_release(bo);
    ct_tensor_release(bo2);
}

/* ---- copy_, fill_, zero_ ------------------------------------------------------------------ */

static const ct_dtype all_dtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_INT64, CT_FLOAT16, CT_BFLOAT16, CT_BOOL};

static void check_copy(ct_tensor *dst, ct_tensor *src, const char *what) {
    /* the reference: every element converted on its own (dst's shape, src broadcast) */
    char *want = malloc((size_t)(dst->numel > 0 ? dst->numel : 1) * 8);
    int64_t idx[CT_MAX_DIMS] = {0}, lin = 0;
    if (dst->numel > 0) do {
            ct_store_from_double(want + lin * 8, dst->dtype, ct_load_as_double(at(src, idx, dst->ndim), src->dtype));
            lin++;
        } while (next_index(idx, dst->sizes, dst->ndim));
    int rc = ct_copy_(dst, src, false);
    CHECK_MSG(rc == 0, "%s copy_ %s: %s", level_name, what, ct_error_message());
    int bad = 0;
    memset(idx, 0, sizeof idx);
    lin = 0;
    if (dst->numel > 0) do {
            if (!same_elem(at(dst, idx, dst->ndim), want + lin * 8, dst->dtype)) bad++;
            lin++;
        } while (next_index(idx, dst->sizes, dst->ndim));
    CHECK_MSG(bad == 0, "%s copy_ %s (%s <- %s): %d of %lld elements differ", level_name, what, ct_dtype_name(dst->dtype),
              ct_dtype_name(src->dtype), bad, (long long)dst->numel);
    free(want);
}

static void copy_fill_cases(void) {
    char what[160];
    const int64_t cols[] = {0, 1, 5, 8, 16, 17, 33};
    for (size_t di = 0; di < 6; di++)
        for (size_t si = 0; si < 6; si++)
            for (size_t ci = 0; ci < sizeof cols / sizeof cols[0]; ci++) {
                ct_dtype dd = all_dtypes[di], sd = all_dtypes[si];
                int64_t R = 3, C = cols[ci];
                for (int ld = 0; ld < 3; ld++)
                    for (int ls = 0; ls < 3; ls++) {
                        ct_tensor *dst = make2(dd, R, C, (layout)ld, 1), *src = make2(sd, R, C, (layout)ls, 2);
                        snprintf(what, sizeof what, "[3,%lld] %s <- %s", (long long)C, layout_names[ld], layout_names[ls]);
                        check_copy(dst, src, what);
                        ct_tensor_release(src);
                        ct_tensor_release(dst);
                    }
                /* an expanded row (addmm's bias), an expanded column, a 0-dim source */
                int64_t row[1] = {C}, col[2] = {R, 1};
                ct_tensor *dst = make2(dd, R, C, L_CONTIG, 1);
                ct_tensor *r = make(sd, row, 1, 3), *c = make(sd, col, 2, 4), *z = make(sd, NULL, 0, 5);
                snprintf(what, sizeof what, "[3,%lld] <- row [%lld]", (long long)C, (long long)C);
                check_copy(dst, r, what);
                snprintf(what, sizeof what, "[3,%lld] <- column [3,1]", (long long)C);
                check_copy(dst, c, what);
                snprintf(what, sizeof what, "[3,%lld] <- 0-dim", (long long)C);
                check_copy(dst, z, what);
                ct_tensor_release(r);
                ct_tensor_release(c);
                ct_tensor_release(z);
                ct_tensor_release(dst);
            }
    /* fill_ and zero_ */
    const double vals[] = {0.0, 1.5, -2.0, 3.0};
    for (size_t di = 0; di < 6; di++)
        for (size_t ci = 0; ci < sizeof cols / sizeof cols[0]; ci++)
            for (int l = 0; l < 3; l++)
                for (int vi = 0; vi < 5; vi++) {
                    ct_dtype dt = all_dtypes[di];
                    ct_tensor *t = make2(dt, 3, cols[ci], (layout)l, 1);
                    bool integral = dt == CT_INT64 || dt == CT_BOOL;
                    double v = vi == 4 ? 0.0 : integral ? floor(vals[vi]) : vals[vi];
                    if (dt == CT_BOOL) v = v != 0;
                    int rc = vi == 4 ? ct_zero_(t) : ct_fill_(t, integral ? ct_int((int64_t)v) : ct_double(v));
                    CHECK_MSG(rc == 0, "%s fill_: %s", level_name, ct_error_message());
                    char want[8];
                    ct_store_from_double(want, dt, v);
                    int64_t idx[CT_MAX_DIMS] = {0};
                    int bad = 0;
                    if (t->numel > 0) do {
                            if (!same_elem(at(t, idx, 2), want, dt)) bad++;
                        } while (next_index(idx, t->sizes, 2));
                    CHECK_MSG(bad == 0, "%s %s [3,%lld] %s %s %g: %d elements wrong", level_name, vi == 4 ? "zero_" : "fill_",
                              (long long)cols[ci], layout_names[l], ct_dtype_name(dt), v, bad);
                    /* the storage around a strided view is untouched */
                    if (l == L_STEP2 && t->numel > 0) {
                        char orig[8];
                        ct_store_from_double(orig, dt, value_at(1, dt, 1));
                        CHECK_MSG(same_elem((const char *)t->storage->data + ct_dtype_size(dt), orig, dt),
                                  "%s fill_ wrote between the elements of a strided view", level_name);
                    }
                    ct_tensor_release(t);
                }
}

/* ---- sum ------------------------------------------------------------------------------------ */

static double golden_value(int64_t i) { return (double)((i * 7919) % 1999 - 999) / 37.0; }

/* PyTorch 2.6's own sums at each of its levels */
static void cascade_golden(const char *level) {
    size_t len;
    char *text = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/cascade_sum.json"), &len);
    CHECK_MSG(text != NULL, "cannot read cascade_sum.json");
    if (!text) return;
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *levels = cJSON_GetObjectItemCaseSensitive(root, "levels");
    cJSON *lv;
    int cases = 0;
    cJSON_ArrayForEach(lv, levels) {
        cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(lv, "cases")) {
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
            const char *dtn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "dtype"));
            const char *view = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "view"));
            ct_dtype dt = strcmp(dtn, "float64") == 0 ? CT_FLOAT64 : CT_FLOAT32;
            int64_t shape[8], n = 1;
            int nd = 0;
            cJSON *e;
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "shape")) n *= shape[nd++] = (int64_t)e->valuedouble;
            double *v = malloc(sizeof(double) * (size_t)n);
            for (int64_t i = 0; i < n; i++) v[i] = golden_value(i);
            ct_tensor *x = ct_tensor_from_doubles(v, shape, nd, dt);
            free(v);
            if (strcmp(view, "t") == 0) {
                ct_tensor *t = ct_t(x);
                ct_tensor_release(x);
                x = t;
            } else if (strcmp(view, "step2") == 0) {
                int64_t sz[1] = {n / 2}, st[1] = {2};
                ct_tensor *t = ct_as_strided(x, sz, 1, st, 1, NULL);
                ct_tensor_release(x);
                x = t;
            }
            cJSON *dims = cJSON_GetObjectItemCaseSensitive(c, "dims");
            ct_tensor *r;
            if (cJSON_IsNull(dims)) {
                r = ct_sum(x, CT_DTYPE_UNDEFINED);
            } else {
                int64_t d[8];
                int ndims = 0;
                cJSON_ArrayForEach(e, dims) d[ndims++] = (int64_t)e->valuedouble;
                r = ct_sum_dim(x, d, ndims, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "keepdim")), CT_DTYPE_UNDEFINED);
            }
            CHECK_MSG(r != NULL, "sum %s: %s", name, ct_error_message());
            if (r) {
                cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "values");
                int i = 0, bad = 0;
                double g0 = 0, w0 = 0;
                cJSON_ArrayForEach(e, want) {
                    double g = ct_load_as_double(ct_tensor_elem_ptr(r, i), dt);
                    if (g != e->valuedouble) {
                        if (!bad) g0 = g, w0 = e->valuedouble;
                        bad++;
                    }
                    i++;
                }
                CHECK_MSG(i == r->numel && bad == 0,
                          "%s: sum %s (%s) against PyTorch at %s: %d of %d differ (first: %.9g, PyTorch %.9g)", level_name, name,
                          dtn, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(lv, "capability")), bad, i, g0, w0);
            }
            ct_tensor_release(r);
            ct_tensor_release(x);
            cases++;
        }
    }
    CHECK_MSG(cases > 40, "cascade_sum.json: only %d cases", cases);
    cJSON_Delete(root);
    (void)level;
}

/* ---- float32 kernels in PyTorch's order ---------------------------------------------------- */

/* tests/golden/record/float_kernels.py's inputs: v(i, salt) / div rounded to float32 */
static ct_tensor *fk_input(const int64_t *shape, int nd, int64_t salt, double div) {
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d];
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) v[i] = (double)(((i * 7919 + salt * 104729) % 1999) - 999) / 37.0 / div;
    ct_tensor *t = ct_tensor_from_doubles(v, shape, nd, CT_FLOAT32);
    free(v);
    return t;
}

static int fk_threads; /* the intra-op threads of the float_kernels.json run being compared */

/* out's float32 elements against PyTorch's bit patterns (little-endian hex); the number that differ */
static int fk_compare(const char *what, int k, const ct_tensor *out, const cJSON *want) {
    CHECK_MSG(out != NULL, "%s %s output %d: %s", level_name, what, k, ct_error_message());
    if (!out || !cJSON_IsArray(want)) return 1;
    int bad = 0, i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, want) {
        unsigned char b[4];
        char hex[9];
        float f = i < out->numel ? *(const float *)ct_tensor_elem_ptr(out, i) : 0.0f;
        memcpy(b, &f, 4);
        snprintf(hex, sizeof hex, "%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
        bad += strcmp(hex, cJSON_GetStringValue(e)) != 0;
        i++;
    }
    CHECK_MSG(bad == 0 && i == out->numel, "%s %s output %d at %d thread(s): %d of %d float32 values differ from PyTorch's bits",
              level_name, what, k, fk_threads, bad, i);
    return bad;
}

/* PyTorch 2.6's own float32 results at this level (tests/golden/torch-2.6/float_kernels.json):
 * layer norm, softmax, log_softmax and nll_loss follow its kernels' order bit for bit */
static void float_kernels_golden(ct_cpu_capability level, int threads) {
    size_t len;
    char *text = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/float_kernels.json"), &len);
    CHECK_MSG(text != NULL, "cannot read float_kernels.json");
    if (!text) return;
    cJSON *root = cJSON_Parse(text);
    free(text);
    const char *key = level == CT_CPU_DEFAULT ? "default" : level == CT_CPU_AVX2 ? "avx2" : "avx512";
    const char *recording = threads == 1 ? "levels" : "levels_2threads";
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, recording), key),
                                                    "cases");
    CHECK_MSG(cases != NULL, "float_kernels.json has no level %s in %s", key, recording);
    CHECK_INT_EQ(ct_set_num_threads(threads), 0);
    fk_threads = threads;
    int checked = 0;
    static const struct { int64_t rows, n; bool affine; } ln[] = {{6, 64, true}, {3, 37, true}, {3, 37, false}, {2, 300, true}, {1, 2100, true}};
    for (size_t c = 0; cases && c < sizeof ln / sizeof ln[0]; c++) {
        char name[64];
        snprintf(name, sizeof name, "layer_norm_%lldx%lld%s", (long long)ln[c].rows, (long long)ln[c].n, ln[c].affine ? "" : "_plain");
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, name);
        int64_t shape[2] = {ln[c].rows, ln[c].n}, ns[1] = {ln[c].n};
        ct_tensor *x = fk_input(shape, 2, 0, 10.0), *dy = fk_input(shape, 2, 3, 30.0);
        ct_tensor *w = ln[c].affine ? fk_input(ns, 1, 1, 20.0) : NULL, *b = ln[c].affine ? fk_input(ns, 1, 2, 20.0) : NULL;
        ct_tensor *o[6] = {NULL};
        bool mask[3] = {true, ln[c].affine, ln[c].affine};
        CHECK_INT_EQ(ct_native_layer_norm(x, ns, 1, w, b, 1e-5, &o[0], &o[1], &o[2]), 0);
        if (o[2]) CHECK_INT_EQ(ct_native_layer_norm_backward(dy, x, ns, 1, o[1], o[2], w, b, mask, 3, &o[3], &o[4], &o[5]), 0);
        for (int k = 0; k < (ln[c].affine ? 6 : 4); k++) fk_compare(name, k, o[k], cJSON_GetArrayItem(want, k));
        for (int k = 0; k < 6; k++) ct_tensor_release(o[k]);
        ct_tensor_release(x);
        ct_tensor_release(dy);
        ct_tensor_release(w);
        ct_tensor_release(b);
        checked++;
    }
    static const int64_t sm[][2] = {{5, 32}, {3, 600}, {2, 7}, {4, 45}};
    for (size_t c = 0; cases && c < sizeof sm / sizeof sm[0]; c++) {
        char name[64];
        snprintf(name, sizeof name, "softmax_%lldx%lld", (long long)sm[c][0], (long long)sm[c][1]);
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, name);
        ct_tensor *x = fk_input(sm[c], 2, 4, 3.0), *g = fk_input(sm[c], 2, 5, 10.0);
        ct_tensor *o[4];
        o[0] = ct__softmax(x, -1, false);
        o[1] = o[0] ? ct__softmax_backward_data(g, o[0], -1, CT_FLOAT32) : NULL;
        o[2] = ct__log_softmax(x, -1, false);
        o[3] = o[2] ? ct__log_softmax_backward_data(g, o[2], -1, CT_FLOAT32) : NULL;
        for (int k = 0; k < 4; k++) {
            fk_compare(name, k, o[k], cJSON_GetArrayItem(want, k));
            ct_tensor_release(o[k]);
        }
        ct_tensor_release(x);
        ct_tensor_release(g);
        checked++;
    }
    /* over a leading or middle dimension: the forward's columns fall in vector groups or single
     * columns by where the threads' pieces start (Note [Softmax over a dimension]) */
    static const struct { int64_t shape[3]; int nd, dim; } smd[] = {{{37, 203}, 2, 0}, {{3, 11, 29}, 3, 1}, {{3, 11, 29}, 3, 0}, {{2, 16400}, 2, 0}};
    for (size_t c = 0; cases && c < sizeof smd / sizeof smd[0]; c++) {
        char name[64];
        int at = snprintf(name, sizeof name, "softmax_dim%d", smd[c].dim);
        for (int d = 0; d < smd[c].nd; d++) at += snprintf(name + at, sizeof name - (size_t)at, "%s%lld", d ? "x" : "_", (long long)smd[c].shape[d]);
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, name);
        CHECK_MSG(want != NULL, "float_kernels.json has no case %s", name);
        ct_tensor *x = fk_input(smd[c].shape, smd[c].nd, 15, 3.0), *g = fk_input(smd[c].shape, smd[c].nd, 16, 10.0);
        ct_tensor *o[4] = {ct__softmax(x, smd[c].dim, false), NULL, NULL, NULL};
        const int outs = cJSON_GetArraySize(want); /* the large case: the forward only */
        if (outs == 4) {
            o[1] = o[0] ? ct__softmax_backward_data(g, o[0], smd[c].dim, CT_FLOAT32) : NULL;
            o[2] = ct__log_softmax(x, smd[c].dim, false);
            o[3] = o[2] ? ct__log_softmax_backward_data(g, o[2], smd[c].dim, CT_FLOAT32) : NULL;
        }
        for (int k = 0; k < outs && k < 4; k++) fk_compare(name, k, o[k], cJSON_GetArrayItem(want, k));
        for (int k = 0; k < 4; k++) ct_tensor_release(o[k]);
        ct_tensor_release(x);
        ct_tensor_release(g);
        checked++;
    }
    if (cases) {
        int64_t shape[3] = {4, 6, 5};
        ct_tensor *x = NULL, *g = fk_input(shape, 3, 7, 10.0);
        ct_tensor *y = fk_input(shape, 3, 6, 30.0), *gi = ct__softmax_backward_data(g, y, 1, CT_FLOAT32);
        fk_compare("softmax_backward_dim1_4x6x5", 0, gi, cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cases, "softmax_backward_dim1_4x6x5"), 0));
        ct_tensor_release(gi);
        ct_tensor_release(y);
        ct_tensor_release(x);
        ct_tensor_release(g);
        checked++;
    }
    static const int64_t nl[][2] = {{40, 7}, {300, 11}};
    for (size_t c = 0; cases && c < sizeof nl / sizeof nl[0]; c++) {
        char name[64];
        snprintf(name, sizeof name, "nll_loss_%lldx%lld", (long long)nl[c][0], (long long)nl[c][1]);
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, name);
        const int64_t batch = nl[c][0], classes = nl[c][1];
        ct_tensor *x = fk_input(nl[c], 2, 8, 3.0), *lp = ct__log_softmax(x, -1, false);
        double *tv = malloc(sizeof(double) * (size_t)batch);
        for (int64_t i = 0; i < batch; i++) tv[i] = (double)((i * 5) % classes);
        ct_tensor *target = ct_tensor_from_doubles(tv, &batch, 1, CT_INT64);
        free(tv);
        int64_t ws[1] = {classes};
        ct_tensor *w0 = fk_input(ws, 1, 9, 50.0);
        double *wv = malloc(sizeof(double) * (size_t)classes);
        for (int64_t i = 0; i < classes; i++) wv[i] = (double)(*(const float *)ct_tensor_elem_ptr(w0, i) + 1.0f);
        ct_tensor *w = ct_tensor_from_doubles(wv, ws, 1, CT_FLOAT32);
        free(wv);
        const struct { bool weighted; int64_t red, ignore; } runs[] = {{false, 1, -100}, {false, 2, -100}, {true, 1, -100}, {true, 2, 2}, {false, 1, 3}};
        for (int r = 0; r < 5; r++) {
            ct_tensor *out = NULL, *tw = NULL;
            CHECK_INT_EQ(ct_nll_loss_forward(lp, target, runs[r].weighted ? w : NULL, runs[r].red, runs[r].ignore, &out, &tw), 0);
            fk_compare(name, 2 * r, out, cJSON_GetArrayItem(want, 2 * r));
            fk_compare(name, 2 * r + 1, tw, cJSON_GetArrayItem(want, 2 * r + 1));
            ct_tensor_release(out);
            ct_tensor_release(tw);
        }
        ct_tensor_release(x);
        ct_tensor_release(lp);
        ct_tensor_release(target);
        ct_tensor_release(w0);
        ct_tensor_release(w);
        checked++;
    }
    if (cases) { /* GELU and its backward: oneDNN's kernel (Note [GELU as oneDNN runs it]) */
        int64_t shape[1] = {4099};
        ct_tensor *x = fk_input(shape, 1, 10, 1.5), *dy = fk_input(shape, 1, 11, 10.0);
        cJSON *want = cJSON_GetObjectItemCaseSensitive(cases, "gelu_4099");
        ct_tensor *y = ct_gelu(x, "none"), *dx = ct_gelu_backward(dy, x, "none");
        fk_compare("gelu_4099", 0, y, cJSON_GetArrayItem(want, 0));
        fk_compare("gelu_4099", 1, dx, cJSON_GetArrayItem(want, 1));
        ct_tensor_release(y);
        ct_tensor_release(dx);
        ct_tensor_release(x);
        ct_tensor_release(dy);
        const double sv[] = {0.0, -0.0, 1e-30, -1e-30, 1e-40, 5.54, 5.55, -5.55, 40.0, -40.0, 88.0, -88.0, INFINITY, -INFINITY, NAN};
        int64_t ns[1] = {(int64_t)(sizeof sv / sizeof sv[0])};
        double ones[sizeof sv / sizeof sv[0]];
        for (int64_t i = 0; i < ns[0]; i++) ones[i] = 1.0;
        x = ct_tensor_from_doubles(sv, ns, 1, CT_FLOAT32);
        dy = ct_tensor_from_doubles(ones, ns, 1, CT_FLOAT32);
        want = cJSON_GetObjectItemCaseSensitive(cases, "gelu_special");
        y = ct_gelu(x, "none");
        dx = ct_gelu_backward(dy, x, "none");
        fk_compare("gelu_special", 0, y, cJSON_GetArrayItem(want, 0));
        fk_compare("gelu_special", 1, dx, cJSON_GetArrayItem(want, 1));
        ct_tensor_release(y);
        ct_tensor_release(dx);
        ct_tensor_release(x);
        ct_tensor_release(dy);
        checked += 2;
    }
    if (cases) { /* the 2-norm over contiguous runs (Note [2-norm order]) */
        const ct_scalar two = ct_double(2.0);
        double norms[43];
        int nn = 0;
        for (int64_t n = 1; n <= 1000; n = n < 40 ? n + 1 : n == 40 ? 100 : n == 100 ? 129 : 1000) {
            ct_tensor *x = fk_input(&n, 1, 13, 0.5), *r = ct_linalg_vector_norm(x, two, NULL, 0, false, CT_DTYPE_UNDEFINED);
            norms[nn++] = r ? (double)*(const float *)ct_tensor_data_ptr(r) : NAN;
            ct_tensor_release(r);
            ct_tensor_release(x);
            if (n == 1000) break;
        }
        int64_t nshape[1] = {nn};
        ct_tensor *all = ct_tensor_from_doubles(norms, nshape, 1, CT_FLOAT32); /* float32 values: exact */
        fk_compare("norm2_sizes", 0, all, cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cases, "norm2_sizes"), 0));
        ct_tensor_release(all);
        int64_t shape[2] = {37, 53}, shape3[3] = {37, 1, 53}, last[1] = {-1}, inner[2] = {1, 2};
        ct_tensor *m = fk_input(shape, 2, 14, 2.0), *m3 = ct_reshape(m, shape3, 3);
        ct_tensor *o[3] = {ct_linalg_vector_norm(m, two, last, 1, false, CT_DTYPE_UNDEFINED),
                           ct_linalg_vector_norm(m, two, NULL, 0, false, CT_DTYPE_UNDEFINED),
                           m3 ? ct_linalg_vector_norm(m3, two, inner, 2, true, CT_DTYPE_UNDEFINED) : NULL};
        for (int k = 0; k < 3; k++) {
            fk_compare("norm2_37x53", k, o[k], cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cases, "norm2_37x53"), k));
            ct_tensor_release(o[k]);
        }
        ct_tensor_release(m3);
        ct_tensor_release(m);
        checked += 2;
    }
    CHECK_MSG(checked == 20, "float_kernels.json: %d of 20 cases checked", checked);
    cJSON_Delete(root);
}

/* sums of integer-valued data are exact in any order: the layout, checked over many shapes */
static void sum_layouts(void) {
    const ct_dtype dts[] = {CT_FLOAT32, CT_FLOAT64, CT_INT64, CT_BOOL};
    const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 4}, {5, 1, 17}, {3, 33, 2}, {16, 9, 1}, {1, 40, 3}, {7, 8, 9}, {2, 0, 3}};
    for (size_t di = 0; di < 4; di++)
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (int perm = 0; perm < 2; perm++)
                for (int mask = 0; mask < 8; mask++)
                    for (int keep = 0; keep < 2; keep++) {
                        ct_dtype dt = dts[di];
                        ct_tensor *x = make(dt == CT_BOOL ? CT_BOOL : CT_INT64, shapes[si], 3, 9);
                        if (dt != CT_INT64 && dt != CT_BOOL) {
                            ct_tensor *y = ct_to_dtype(x, dt, false, false, CT_MEMORY_FORMAT_NONE);
                            ct_tensor_release(x);
                            x = y;
                        }
                        if (perm) {
                            ct_tensor *y = ct_transpose(x, 0, 2);
                            ct_tensor_release(x);
                            x = y;
                        }
                        int64_t dims[3];
                        int nd = 0;
                        for (int d = 0; d < 3; d++)
                            if (mask & (1 << d)) dims[nd++] = d;
                        ct_tensor *r = ct_sum_dim(x, dims, nd, keep != 0, CT_DTYPE_UNDEFINED);
                        CHECK_MSG(r != NULL, "sum_dim: %s", ct_error_message());
                        if (!r) {
                            ct_tensor_release(x);
                            continue;
                        }
                        /* reference: accumulate each element into its output position */
                        int64_t out_n = r->numel, kshape[3];
                        for (int d = 0; d < 3; d++) kshape[d] = (nd == 0 || (mask & (1 << d))) ? 1 : x->sizes[d];
                        double *acc = calloc((size_t)(out_n > 0 ? out_n : 1), sizeof(double));
                        int64_t idx[CT_MAX_DIMS] = {0};
                        if (x->numel > 0) do {
                                int64_t o = 0;
                                for (int d = 0; d < 3; d++) o = o * kshape[d] + (kshape[d] == 1 ? 0 : idx[d]);
                                acc[o] += ct_load_as_double(at(x, idx, 3), x->dtype);
                            } while (next_index(idx, x->sizes, 3));
                        int bad = 0;
                        for (int64_t i = 0; i < out_n; i++)
                            if (ct_load_as_double(ct_tensor_elem_ptr(r, i), r->dtype) != acc[i]) bad++;
                        CHECK_MSG(bad == 0, "%s sum %s dims mask %d keepdim %d %s: %d of %lld wrong", level_name,
                                  ct_dtype_name(dt), mask, keep, perm ? "transposed" : "contiguous", bad, (long long)out_n);
                        free(acc);
                        ct_tensor_release(r);
                        ct_tensor_release(x);
                    }
}

/* ---- log_softmax and its backward: the contiguous path equals the general one ------------- */

/* t's values in a non-contiguous tensor (a transposed contiguous copy, transposed back) */
static ct_tensor *noncontiguous_copy(ct_tensor *t) {
    ct_tensor *tt = ct_transpose(t, 0, t->ndim - 1);
    ct_tensor *c = ct_contiguous(tt, CT_CONTIGUOUS_FORMAT);
    ct_tensor *back = ct_transpose(c, 0, t->ndim - 1);
    ct_tensor_release(tt);
    ct_tensor_release(c);
    return back;
}

static bool same_tensor(const ct_tensor *a, const ct_tensor *b) {
    if (!a || !b || a->numel != b->numel || a->dtype != b->dtype) return false;
    for (int64_t i = 0; i < a->numel; i++)
        if (!same_elem(ct_tensor_elem_ptr(a, i), ct_tensor_elem_ptr(b, i), a->dtype)) return false;
    return true;
}

static void log_softmax_cases(void) {
    const int64_t shapes[][3] = {{8, 4, 1}, {3, 5, 7}, {2, 17, 3}};
    for (int di = 0; di < 2; di++)
        for (int si = 0; si < 3; si++)
            for (int d = 0; d < 3; d++) {
                ct_dtype dt = di ? CT_FLOAT64 : CT_FLOAT32;
                ct_tensor *x = make(dt, shapes[si], 3, 11), *g = make(dt, shapes[si], 3, 12);
                ct_tensor *xs = noncontiguous_copy(x), *gs = noncontiguous_copy(g);
                CHECK(ct_tensor_is_contiguous(x) && !ct_tensor_is_contiguous(xs));
                ct_tensor *y = ct__log_softmax(x, d, false), *ys = ct__log_softmax(xs, d, false);
                CHECK_MSG(same_tensor(y, ys), "%s _log_softmax %s dim %d: contiguous and strided differ", level_name, ct_dtype_name(dt), d);
                ct_tensor *ysc = noncontiguous_copy(y);
                ct_tensor *b = ct__log_softmax_backward_data(g, y, d, dt), *bs = ct__log_softmax_backward_data(gs, ysc, d, dt);
                CHECK_MSG(same_tensor(b, bs), "%s _log_softmax_backward_data %s dim %d: contiguous and strided differ", level_name,
                          ct_dtype_name(dt), d);
                ct_tensor *list[] = {x, g, xs, gs, y, ys, ysc, b, bs};
                for (int i = 0; i < 9; i++) ct_tensor_release(list[i]);
            }
}

/* ---- small GEMM ------------------------------------------------------------------------------ */

/* direct: the level's small kernel itself (skipped where it declines the shape), else ct_gemm */
static void gemm_case1(bool direct, bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, float beta, int pad) {
    int64_t lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + pad;
    int64_t acols = ta ? m : k, bcols = tb ? k : n;
    float *a = malloc(sizeof(float) * (size_t)(lda * acols)), *b = malloc(sizeof(float) * (size_t)(ldb * bcols));
    float *c = malloc(sizeof(float) * (size_t)(ldc * n)), *c0 = malloc(sizeof(float) * (size_t)(ldc * n));
    for (int64_t i = 0; i < lda * acols; i++) a[i] = (float)((i * 31 + 7) % 17 - 8);
    for (int64_t i = 0; i < ldb * bcols; i++) b[i] = (float)((i * 13 + 3) % 11 - 5);
    for (int64_t i = 0; i < ldc * n; i++) c[i] = c0[i] = (float)((i * 5 + 1) % 7 - 3);
    if (direct) {
        if (!ct_vec()->sgemm_small(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) {
            free(a);
            free(b);
            free(c);
            free(c0);
            return;
        }
    } else {
        ct_gemm(CT_FLOAT32, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    int bad = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ldc; i++) {
            double want;
            if (i >= m) {
                want = c0[i + j * ldc]; /* padding untouched */
            } else {
                double s = 0;
                for (int64_t p = 0; p < k; p++)
                    s += (double)(ta ? a[p + i * lda] : a[i + p * lda]) * (double)(tb ? b[j + p * ldb] : b[p + j * ldb]);
                want = alpha * s + (beta == 0.0f ? 0.0 : beta * c0[i + j * ldc]);
            }
            if ((double)c[i + j * ldc] != want) bad++;
        }
    CHECK_MSG(bad == 0, "%s %s %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g pad=%d: %d elements wrong", level_name,
              direct ? "small GEMM kernel" : "ct_gemm", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m, (long long)n, (long long)k, alpha, beta, pad, bad);
    free(a);
    free(b);
    free(c);
    free(c0);
}

static void gemm_case(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, float beta, int pad) {
    gemm_case1(true, ta, tb, m, n, k, alpha, beta, pad);
    gemm_case1(false, ta, tb, m, n, k, alpha, beta, pad);
}

static void gemm_cases(ct_cpu_capability level) {
    const int64_t ms[] = {1, 2, 5, 8, 9, 16, 17, 33, 64, 65, 130};
    const int64_t ns[] = {1, 2, 3, 4, 5, 7};
    const int64_t ks[] = {1, 2, 3, 8, 15, 16, 17, 64};
    for (int t = 0; t < 4; t++)
        for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
                for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
                    int v = (int)(mi + ni + ki) % 3;
                    gemm_case(t & 1, t & 2, ms[mi], ns[ni], ks[ki], v == 2 ? 0.5f : 1.0f, v == 0 ? 0.0f : v == 1 ? 1.0f : 2.0f,
                              (int)(ki % 2) * 3);
                }
    /* the lab's three products and a wide one */
    gemm_case(true, false, 600, 2, 64, 1, 1, 0);
    gemm_case(false, false, 64, 2, 600, 1, 0, 0);
    gemm_case(false, true, 64, 600, 2, 1, 0, 0);
    gemm_case(false, false, 40, 300, 33, 1, 1, 1);
    /* which shapes the small kernels take: the lab's, at AVX2 and AVX512; none at DEFAULT */
    const ct_vec_kernels *v = ct_vec();
    float a[64 * 600], b[600 * 2], c[600 * 2];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    bool took = v->sgemm_small(true, false, 600, 2, 64, 1, a, 64, b, 64, 1, c, 600);
    CHECK_MSG(took == (level != CT_CPU_DEFAULT), "%s: the small GEMM %s the lab's forward product", level_name,
              took ? "took" : "did not take");
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    const char *env = getenv("CTORCH_CPU_CAPABILITY");
    ct_cpu_capability best = ct_cpu_capability_supported();
    if (env) {
        ct_cpu_capability want = strcmp(env, "default") == 0 ? CT_CPU_DEFAULT : strcmp(env, "avx2") == 0 ? CT_CPU_AVX2 : CT_CPU_AVX512;
        CHECK_MSG(ct_cpu_capability_get() == (want <= best ? want : best), "CTORCH_CPU_CAPABILITY=%s chose %s", env,
                  ct_cpu_capability_name(ct_cpu_capability_get()));
    } else {
        CHECK(ct_cpu_capability_get() == best);
    }
    printf("CPU capability: %s (this CPU and build support up to %s)\n", ct_cpu_capability_name(ct_cpu_capability_get()),
           ct_cpu_capability_name(best));
    CHECK_INT_EQ(ct_vec_set_thread_capability(CT_CPU_CAPABILITY_COUNT), 0);
    for (int l = 0; l <= (int)best; l++) {
        ct_cpu_capability level = (ct_cpu_capability)l;
        CHECK_INT_EQ(ct_vec_set_thread_capability(level), 0);
        level_name = ct_cpu_capability_name(level);
        CHECK_STR_EQ(ct_vec()->name, level_name);
        int before = ct_test_failures;
        pointwise_cases();
        copy_fill_cases();
        cascade_golden(level_name);
        const int threads = ct_get_num_threads();
        float_kernels_golden(level, 1);
        float_kernels_golden(level, 2);
        CHECK_INT_EQ(ct_set_num_threads(threads), 0);
        sum_layouts();
        log_softmax_cases();
        gemm_cases(level);
        printf("%s: %s\n", level_name, ct_test_failures == before ? "every fast path equals its reference" : "FAILURES");
    }
    if (best < CT_CPU_AVX512) CHECK_INT_EQ(ct_vec_set_thread_capability(CT_CPU_AVX512), -1);
    ct_vec_set_thread_capability(CT_CPU_CAPABILITY_COUNT);
    return ct_test_finish("test_kernels");
}
