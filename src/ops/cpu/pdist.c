/* _pdist_forward and _pdist_backward (Distance.cpp, cpu/DistanceOpsKernel.cpp) and the pdist
 * composite. Each pair i < j of rows, in row-major order, reduces f(|x_i - x_j|) over the
 * columns: p = 0 counts the non-zero differences, p = 1 sums them, p = 2 sums the squares
 * (square root at the end), p = inf takes the maximum, another p sums |d|^p (power 1/p at the
 * end), for float32 and float64 (PyTorch's kernel has no other types). float32 p = 2 sums in
 * PyTorch's 8 lanes folded as vec_reduce_all folds them (Note [Batch norm order]'s unfused
 * accumulators); the other cases compute in double and round once (bit for bit with PyTorch's
 * float results for p = 0, 1, 3 and inf on the recorded cases, within tolerance for other p,
 * whose powers PyTorch takes with SLEEF). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/cpu/capability.h"
#include "ops/kernel_util.h"

#define PD_L 8 /* lanes of Vectorized<float> in the kernel that runs */

static float fold8(const float v[PD_L], bool avx) {
    if (!avx) {
        float r = v[0];
        for (int l = 1; l < PD_L; l++) r = r + v[l];
        return r;
    }
    float w[PD_L], u[PD_L];
    for (int l = 0; l < PD_L; l++) w[l] = v[l] + v[l ^ 4];
    for (int l = 0; l < PD_L; l++) u[l] = w[l] + w[l ^ 2];
    return u[0] + u[1];
}

/* map2_reduce_all((a - b)^2, +) over m floats */
static float sq_dist_f32(const float *a, const float *b, int64_t m, bool avx) {
    if (m < PD_L) {
        float s = 0;
        for (int64_t l = 0; l < m; l++) {
            const float d = a[l] - b[l], p = d * d;
            s = l == 0 ? p : s + p;
        }
        return s;
    }
    float acc[PD_L];
    for (int l = 0; l < PD_L; l++) {
        const float d = a[l] - b[l];
        acc[l] = d * d;
    }
    for (int64_t i = PD_L; i < m; i += PD_L) {
        const int64_t k = m - i < PD_L ? m - i : PD_L;
        for (int64_t l = 0; l < k; l++) {
            const float d = a[i + l] - b[i + l], p = d * d;
            acc[l] = acc[l] + p;
        }
    }
    return fold8(acc, avx);
}

static double dist_d(const double *a, const double *b, int64_t m, double p) {
    double agg = 0;
    for (int64_t k = 0; k < m; k++) {
        const double d = fabs(a[k] - b[k]);
        if (p == 0) agg += d != 0 ? 1 : 0;
        else if (p == 1) agg += d;
        else if (p == 2) agg += d * d;
        else if (isinf(p)) agg = d > agg ? d : agg;
        else agg += pow(d, p);
    }
    if (p == 2) return sqrt(agg);
    if (p == 0 || p == 1 || isinf(p)) return agg;
    return pow(agg, 1.0 / p);
}

/* _pdist_forward(Tensor self, float p=2.) -> Tensor */
int ct_k__pdist_forward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *x = ARG_T(0);
    const double p = args[1].u.d;
    if (!ct_is_contiguous_nn(x)) return ct_error_set(CT_ERR_RUNTIME, "_pdist_forward requires contiguous input");
    if (x->ndim < 2)
        return ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)",
                            x->ndim ? x->ndim : 1, x->ndim ? x->ndim - 1 : 0);
    if (x->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "pdist only supports 2D tensors, got: %dD", x->ndim);
    const int64_t n = x->sizes[0], m = x->sizes[1], c = n > 1 ? n * (n - 1) / 2 : 0;
    /* one row or no columns: the result before the kernel's type dispatch */
    if (c > 0 && m > 0 && x->dtype != CT_FLOAT32 && x->dtype != CT_FLOAT64)
        return ct_error_set(CT_ERR_RUNTIME, "\"pdist\" not implemented for '%s'", ct_dtype_name(x->dtype));
    ct_tensor *r = ct_tensor_alloc(&c, 1, x->dtype, true);
    if (!r) return -1;
    if (c == 0 || m == 0) return ct_ret(rets, 0, r);
    const bool avx = strcmp(ct_vec()->name, "DEFAULT") != 0;
    if (x->dtype == CT_FLOAT32 && p == 2) {
        const float *xf = (const float *)x->storage->data + x->storage_offset;
        float *out = (float *)r->storage->data;
        int64_t k = 0;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = i + 1; j < n; j++) out[k++] = sqrtf(sq_dist_f32(xf + i * m, xf + j * m, m, avx));
        return ct_ret(rets, 0, r);
    }
    double *xv = ct_to_double_buffer(x);
    if (!xv) {
        ct_tensor_release(r);
        return -1;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) ct_store_from_double(ct_tensor_elem_ptr(r, k++), r->dtype, dist_d(xv + i * m, xv + j * m, m, p));
    ct_free(xv);
    return ct_ret(rets, 0, r);
}

/* the gradient of one difference d for the pair's grad g and distance dist (apply_backward_pdist) */
static double pair_grad(double d, double g, double dist, double p) {
    const double s = d > 0 ? 1 : (d < 0 ? -1 : 0);
    if (p == 1) return s * g;
    if (p < 2) return dist == 0 ? 0 : s * pow(fabs(d), p - 1) * g / pow(dist, p - 1);
    if (p == 2) return dist == 0 ? 0 : g * d / dist;
    if (isinf(p)) return s * g * (fabs(d) == dist ? 1 : 0);
    return dist == 0 ? 0 : d * pow(fabs(d), p - 2) * g / pow(dist, p - 1);
}

/* _pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor: for each row i in
 * order, each later row j gives r: row i gains r, row j loses it */
int ct_k__pdist_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *g = ARG_T(0), *x = ARG_T(1), *dist = ARG_T(3);
    const double p = args[2].u.d;
    if (!ct_is_contiguous_nn(x)) return ct_error_set(CT_ERR_RUNTIME, "_pdist_backward requires self to be contiguous");
    if (!ct_is_contiguous_nn(dist)) return ct_error_set(CT_ERR_RUNTIME, "_pdist_backward requires pdist to be contiguous");
    if (x->ndim != 2) return ct_error_set(CT_ERR_RUNTIME, "_pdist_backward: expected a 2-D self");
    if (x->dtype != CT_FLOAT32 && x->dtype != CT_FLOAT64)
        return ct_error_set(CT_ERR_RUNTIME, "\"pdist_backward\" not implemented for '%s'", ct_dtype_name(x->dtype));
    const int64_t n = x->sizes[0], m = x->sizes[1], c = n > 1 ? n * (n - 1) / 2 : 0;
    if (g->numel != c || dist->numel != c)
        return ct_error_set(CT_ERR_RUNTIME, "_pdist_backward: grad and pdist need %lld elements", (long long)c);
    ct_tensor *r = ct_tensor_alloc(x->sizes, 2, x->dtype, true);
    if (!r) return -1;
    if (c == 0 || m == 0 || p == 0) return ct_ret(rets, 0, r);
    double *xv = ct_to_double_buffer(x), *gv = ct_to_double_buffer(g), *dv = ct_to_double_buffer(dist);
    double *acc = ct_calloc((size_t)(n * m), sizeof(double));
    const bool f32 = x->dtype == CT_FLOAT32;
    float *accf = f32 ? (float *)r->storage->data : NULL;
    if (!xv || !gv || !dv || !acc) {
        ct_free(xv), ct_free(gv), ct_free(dv), ct_free(acc);
        ct_tensor_release(r);
        return -1;
    }
    int64_t k0 = 0;
    for (int64_t i = 0; i < n - 1; i++) {
        for (int64_t j = i + 1; j < n; j++) {
            const int64_t k = k0 + (j - i - 1);
            for (int64_t col = 0; col < m; col++) {
                const double d = xv[i * m + col] - xv[j * m + col];
                if (f32) { /* in float, as the kernel's Vectorized<float> arithmetic */
                    const float df = (float)xv[i * m + col] - (float)xv[j * m + col];
                    float rv;
                    if (p == 2) rv = (float)dv[k] == 0.0f ? 0.0f : (float)gv[k] * df / (float)dv[k];
                    else rv = (float)pair_grad(df, gv[k], dv[k], p);
                    accf[i * m + col] = accf[i * m + col] + rv;
                    accf[j * m + col] = accf[j * m + col] - rv;
                } else {
                    const double rv = pair_grad(d, gv[k], dv[k], p);
                    acc[i * m + col] += rv;
                    acc[j * m + col] -= rv;
                }
            }
        }
        k0 += n - i - 1;
    }
    if (!f32)
        for (int64_t e = 0; e < n * m; e++) ct_store_from_double(ct_tensor_elem_ptr(r, e), r->dtype, acc[e]);
    ct_free(xv), ct_free(gv), ct_free(dv), ct_free(acc);
    return ct_ret(rets, 0, r);
}
