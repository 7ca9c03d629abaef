/* scaled_dot_product_attention on the CPU (transformers/attention.cpp, sdp_utils_cpp.cpp,
 * cpu/FlashAttentionKernel.cpp).
 *
 * scaled_dot_product_attention (CompositeImplicitAutograd) validates its inputs, picks a
 * backend as _fused_sdp_choice_cpp does (the flash kernel when there is no dropout and the
 * shapes allow, else the math path), converts a boolean mask to an additive one and calls
 * _scaled_dot_product_flash_attention_for_cpu (a CPU kernel with its own derivative) or
 * _scaled_dot_product_attention_math (CompositeImplicitAutograd: scaled q and k, matmul, the
 * causal mask, _safe_softmax, dropout, matmul), whose constituents modes and autograd see.
 *
 * The flash kernel here computes, per batch and head, the same online-softmax result in double
 * and rounds once; PyTorch's blocks its float computation (so values differ in the last bits).
 * Its output (and the gradients of its backward) are laid out like the query (key, value), as
 * empty_like lays them out; logsumexp is [B, H, L] over [B, L, H] memory.
 */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/kernel_util.h"

static const char *type_meta(const ct_tensor *t) { return ct_dtype_type_meta_name(t->dtype); }

/* validate_sdpa_input */
static int validate(const ct_tensor *q, const ct_tensor *k, const ct_tensor *v, const ct_tensor *mask) {
    if (!(q->dtype == k->dtype && q->dtype == v->dtype))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s and value.dtype: %s instead.",
                            type_meta(q), type_meta(k), type_meta(v));
    if (!(q->ndim >= 2 && k->ndim >= 2 && v->ndim >= 2))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: %d key.dim: %d and value.dim: %d instead.",
                            q->ndim, k->ndim, v->ndim);
    if (mask && !(mask->dtype == CT_BOOL || mask->dtype == CT_FLOAT32 || mask->dtype == q->dtype))
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: %s and  query.dtype: %s instead.",
                            type_meta(mask), type_meta(q));
    return 0;
}

/* use_flash_attention_cpp: no dropout, 4-D inputs of one batch size and head count, equal head
 * dims, non-empty sequences, unit last strides, a floating dtype, a mask of a usable shape */
static bool use_flash(const ct_tensor *q, const ct_tensor *k, const ct_tensor *v, const ct_tensor *mask, double dropout_p) {
    if (dropout_p > 0.0) return false;
    if (!ct_dtype_is_floating(q->dtype)) return false;
    if (!(q->ndim == 4 && k->ndim == 4 && v->ndim == 4)) return false;
    if (!(q->sizes[0] == k->sizes[0] && q->sizes[0] == v->sizes[0])) return false;
    if (!(q->sizes[1] == k->sizes[1] && q->sizes[1] == v->sizes[1])) return false;
    if (mask) {
        /* check_attn_mask_shape: 2-D [L, S] or 4-D broadcastable to [B, H, L, S] */
        int64_t L = q->sizes[2], S = k->sizes[2];
        if (mask->ndim == 2) {
            if (!(mask->sizes[0] == L && mask->sizes[1] == S)) return false;
        } else if (mask->ndim == 4) {
            if (!((mask->sizes[0] == 1 || mask->sizes[0] == q->sizes[0]) && (mask->sizes[1] == 1 || mask->sizes[1] == q->sizes[1]) &&
                  mask->sizes[2] == L && mask->sizes[3] == S))
                return false;
        } else {
            return false;
        }
    }
    if (!(q->sizes[3] == k->sizes[3] && q->sizes[3] == v->sizes[3])) return false;
    if (q->sizes[2] == 0 || k->sizes[2] == 0) return false;
    if (q->strides[3] != 1 || k->strides[3] != 1 || v->strides[3] != 1) return false;
    if (mask && mask->ndim > 0 && mask->strides[mask->ndim - 1] != 1) return false;
    return true;
}

/* convert_boolean_attn_mask: a bool mask becomes where(mask, 0.0, -inf) */
static ct_tensor *convert_mask(ct_tensor *mask) {
    if (!mask) return NULL;
    if (mask->dtype == CT_BOOL) return ct_where_scalar(mask, ct_double(0.0), ct_double(-INFINITY));
    return ct_tensor_retain(mask);
}

/* scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None,
 *   float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) */
int ct_k_scaled_dot_product_attention(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *q = ARG_T(0), *k = ARG_T(1), *v = ARG_T(2), *mask_in = ARG_OPT_T(3);
    double dropout_p = args[4].u.d;
    bool is_causal = ARG_B(5);
    const double *scale = args[6].tag == CT_TAG_DOUBLE ? &args[6].u.d : NULL;
    bool gqa = ARG_B(7);
    if (validate(q, k, v, mask_in) != 0) return -1;
    bool flash = !gqa && use_flash(q, k, v, mask_in, dropout_p);
    ct_tensor *mask = NULL;
    if (mask_in) {
        mask = convert_mask(mask_in);
        if (!mask) return -1;
    }
    ct_tensor *out = NULL, *aux = NULL;
    int rc;
    if (flash) rc = ct__scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, mask, scale, &out, &aux);
    else rc = ct__scaled_dot_product_attention_math(q, k, v, mask, dropout_p, is_causal, NULL, scale, gqa, &out, &aux);
    ct_tensor_release(mask);
    ct_tensor_release(aux);
    if (rc != 0) return -1;
    return ct_ret(rets, 0, out);
}

/* _scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None,
 *   float dropout_p=0., bool is_causal=False, Tensor? dropout_mask=None, *, float? scale=None,
 *   bool enable_gqa=False) -> (Tensor, Tensor) */
int ct_k__scaled_dot_product_attention_math(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *q_in = ARG_T(0), *key = ARG_T(1), *value = ARG_T(2), *mask_in = ARG_OPT_T(3), *dropout_mask = ARG_OPT_T(6);
    double dropout_p = args[4].u.d;
    bool is_causal = ARG_B(5);
    bool gqa = ARG_B(8);
    if (gqa && q_in->ndim >= 3 && key->ndim >= 3 && q_in->sizes[q_in->ndim - 3] != key->sizes[key->ndim - 3])
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: enable_gqa with fewer key/value heads than query heads is not supported");
    /* calculate_scale: scale or 1 / sqrt(E), then its square root applied to q and to k */
    bool neg = args[7].tag == CT_TAG_DOUBLE && args[7].u.d < 0.0;
    double softmax_scale = args[7].tag == CT_TAG_DOUBLE ? fabs(args[7].u.d) : 1.0 / sqrt((double)q_in->sizes[q_in->ndim - 1]);
    double sf = sqrt(softmax_scale);
    ct_tensor *q = NULL, *mask = NULL, *kt = NULL, *ks_ = NULL, *attn = NULL, *soft = NULL, *dropped = NULL, *out = NULL;
    int rc = -1;
    q = ct_mul_scalar(q_in, ct_double(neg ? 0.0 - sf : sf));
    if (!q) goto done;
    mask = mask_in ? ct_tensor_retain(mask_in) : NULL;
    if (is_causal) {
        if (mask_in) {
            ct_error_set(CT_ERR_RUNTIME, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
            goto done;
        }
        int64_t ls[2] = {q->sizes[q->ndim - 2], key->sizes[key->ndim - 2]};
        ct_tensor *ones = ct_ones(ls, 2, CT_BOOL);
        ct_tensor *tri = ones ? ct_tril(ones, 0) : NULL;
        ct_tensor_release(ones);
        if (!tri) goto done;
        mask = convert_mask(tri);
        ct_tensor_release(tri);
        if (!mask) goto done;
    }
    kt = ct_transpose(key, -2, -1);
    ks_ = kt ? ct_mul_scalar(kt, ct_double(sf)) : NULL;
    attn = ks_ ? ct_matmul(q, ks_) : NULL;
    if (!attn) goto done;
    if (mask) {
        if (ct_is_tensor_subclass_like(attn) || ct_is_tensor_subclass_like(mask)) {
            ct_tensor *a2 = ct_add(attn, mask, ct_int(1));
            ct_tensor_release(attn);
            attn = a2;
            if (!attn) goto done;
        } else if (ct_add_(attn, mask, ct_int(1)) != 0) {
            goto done;
        }
    }
    soft = ct__safe_softmax(attn, -1, CT_DTYPE_UNDEFINED);
    if (!soft) goto done;
    if (dropout_p > 0.0) {
        if (dropout_mask) {
            ct_tensor *keep = ct_logical_not(dropout_mask);
            dropped = keep ? ct_masked_fill(soft, keep, ct_double(0.0)) : NULL;
            ct_tensor_release(keep);
            ct_tensor *vs = dropped ? ct_mul_scalar(value, ct_double(1.0 / (1.0 - dropout_p))) : NULL;
            out = vs ? ct_matmul(dropped, vs) : NULL;
            ct_tensor_release(vs);
            if (!out) goto done;
            rets[0] = ct_tensor_value(out);
            rets[1] = ct_tensor_value(dropped);
            dropped = NULL;
            out = NULL;
            rc = 0;
            goto done;
        }
        dropped = ct_dropout(soft, dropout_p, true);
        if (!dropped) goto done;
        ct_tensor_release(soft);
        soft = dropped;
        dropped = NULL;
    }
    out = ct_matmul(soft, value);
    if (!out) goto done;
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(soft);
    out = NULL;
    soft = NULL;
    rc = 0;
done:
    ct_tensor_release(q);
    ct_tensor_release(mask);
    ct_tensor_release(kt);
    ct_tensor_release(ks_);
    ct_tensor_release(attn);
    ct_tensor_release(soft);
    ct_tensor_release(dropped);
    ct_tensor_release(out);
    return rc;
}

/* ---- the flash kernel ---- */

static double at4(const ct_tensor *t, int64_t b, int64_t h, int64_t i, int64_t j) {
    const char *p = (const char *)t->storage->data +
                    (size_t)(t->storage_offset + b * t->strides[0] + h * t->strides[1] + i * t->strides[2] + j * t->strides[3]) *
                        ct_dtype_size(t->dtype);
    return ct_load_as_double(p, t->dtype);
}

/* the additive mask's value for (b, h, i, j): 2-D [L, S] or 4-D broadcast */
static double mask_at(const ct_tensor *m, int64_t b, int64_t h, int64_t i, int64_t j) {
    if (!m) return 0.0;
    if (m->ndim == 2) {
        const char *p = (const char *)m->storage->data + (size_t)(m->storage_offset + i * m->strides[0] + j * m->strides[1]) * ct_dtype_size(m->dtype);
        if (m->dtype == CT_BOOL) return *(const unsigned char *)p ? 0.0 : -INFINITY;
        return ct_load_as_double(p, m->dtype);
    }
    int64_t bb = m->sizes[0] == 1 ? 0 : b, hh = m->sizes[1] == 1 ? 0 : h;
    const char *p = (const char *)m->storage->data +
                    (size_t)(m->storage_offset + bb * m->strides[0] + hh * m->strides[1] + i * m->strides[2] + j * m->strides[3]) *
                        ct_dtype_size(m->dtype);
    if (m->dtype == CT_BOOL) return *(const unsigned char *)p ? 0.0 : -INFINITY;
    return ct_load_as_double(p, m->dtype);
}

static int flash_checks(const ct_tensor *q, const ct_tensor *k, const ct_tensor *v, double dropout_p, const ct_tensor *mask) {
    if (!ct_dtype_is_floating(q->dtype))
        return ct_error_set(CT_ERR_RUNTIME,
                            "scaled_dot_product_attention_flash_attention: Expected data type in FP32, FP64, BF16, FP16, but got %s instead.",
                            ct_dtype_name(q->dtype));
    if (!(q->ndim == 4 && k->ndim == 4 && v->ndim == 4))
        return ct_error_set(CT_ERR_RUNTIME, "scaled_dot_product_attention_flash_attention: Accept only 4 dims inputs shape of {B, H, T, K}");
    if (dropout_p != 0.0)
        return ct_error_set(CT_ERR_RUNTIME, "scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0");
    if (!(q->sizes[3] == v->sizes[3] && k->sizes[3] == v->sizes[3]))
        return ct_error_set(CT_ERR_RUNTIME, "scaled_dot_product_attention_flash_attention: Q/K/V should have the same head size");
    if (mask && !(mask->dtype == CT_BOOL || mask->dtype == CT_FLOAT32 || mask->dtype == q->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "scaled_dot_product_attention_flash_attention: Attention mask is the same data type as query");
    if (mask && !(mask->ndim == 2 || mask->ndim == 4))
        return ct_error_set(CT_ERR_RUNTIME, "scaled_dot_product_attention_flash_attention: Attention mask dim in {2, 4}");
    return 0;
}

/* A tensor shaped and laid out like `like` (empty_like with the preserve format: its strides when
 * dense, else dense strides in the order of its own), zero-filled when asked. */
static ct_tensor *alloc_like(const ct_tensor *like, int64_t last, ct_dtype dt, bool zero) {
    int64_t sizes[4] = {like->sizes[0], like->sizes[1], like->sizes[2], last};
    ct_tensor *t = ct_iter_alloc_output(sizes, 4, dt, &like, 1);
    if (t && zero) memset(ct_tensor_data_ptr(t), 0, (size_t)t->numel * ct_dtype_size(dt));
    return t;
}

/* the scores of row i of (b, h): scale * q_i . k_j + mask, -inf above the diagonal when causal */
static void scores(const ct_tensor *q, const ct_tensor *k, const ct_tensor *mask, bool causal, double scale, int64_t b, int64_t h,
                   int64_t i, double *s) {
    int64_t S = k->sizes[2], E = q->sizes[3];
    for (int64_t j = 0; j < S; j++) {
        if (causal && j > i) {
            s[j] = -INFINITY;
            continue;
        }
        double acc = 0;
        for (int64_t e = 0; e < E; e++) acc += at4(q, b, h, i, e) * at4(k, b, h, j, e);
        s[j] = acc * scale + mask_at(mask, b, h, i, j);
    }
}

/* _scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value,
 *   float dropout_p=0., bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None)
 *   -> (Tensor output, Tensor logsumexp) */
int ct_k__scaled_dot_product_flash_attention_for_cpu(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *q = ARG_T(0), *k = ARG_T(1), *v = ARG_T(2), *mask = ARG_OPT_T(5);
    double dropout_p = args[3].u.d;
    bool causal = ARG_B(4);
    if (flash_checks(q, k, v, dropout_p, mask) != 0) return -1;
    int64_t B = q->sizes[0], H = q->sizes[1], L = q->sizes[2], E = q->sizes[3], S = k->sizes[2], Ev = v->sizes[3];
    double scale = args[6].tag == CT_TAG_DOUBLE ? args[6].u.d : 1.0 / sqrt((double)E);
    ct_tensor *out = alloc_like(q, Ev, q->dtype, false);
    ct_dtype acc_dt = q->dtype == CT_FLOAT64 ? CT_FLOAT64 : CT_FLOAT32;
    int64_t ls[3] = {B, L, H};
    ct_tensor *lse = ct_tensor_alloc(ls, 3, acc_dt, false);
    double *s = ct_malloc(sizeof(double) * (size_t)(S ? S : 1));
    if (!out || !lse || !s) {
        ct_tensor_release(out);
        ct_tensor_release(lse);
        ct_free(s);
        return -1;
    }
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < L; i++) {
                scores(q, k, mask, causal, scale, b, h, i, s);
                double mx = -INFINITY, sum = 0;
                for (int64_t j = 0; j < S; j++)
                    if (s[j] > mx) mx = s[j];
                for (int64_t j = 0; j < S; j++) sum += mx == -INFINITY ? 0.0 : exp(s[j] - mx);
                for (int64_t e = 0; e < Ev; e++) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; j++)
                        if (s[j] != -INFINITY) acc += exp(s[j] - mx) * at4(v, b, h, j, e);
                    /* a fully masked row gives NaN, as 0 / 0 does in the kernel */
                    ct_store_from_double((char *)ct_tensor_data_ptr(out) + (size_t)(b * out->strides[0] + h * out->strides[1] + i * out->strides[2] + e) * ct_dtype_size(out->dtype),
                                         out->dtype, acc / sum);
                }
                ct_store_from_double(ct_tensor_elem_ptr(lse, (b * L + i) * H + h), acc_dt, mx + log(sum));
            }
    ct_free(s);
    /* logsumexp.transpose(1, 2): [B, H, L] */
    int64_t tmp = lse->sizes[1];
    lse->sizes[1] = lse->sizes[2];
    lse->sizes[2] = tmp;
    tmp = lse->strides[1];
    lse->strides[1] = lse->strides[2];
    lse->strides[2] = tmp;
    rets[0] = ct_tensor_value(out);
    rets[1] = ct_tensor_value(lse);
    return 0;
}

/* _scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key,
 *   Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *,
 *   Tensor? attn_mask=None, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)
 * P = exp(scores - logsumexp), dV = P^T dO, dP = dO V^T, D = rowsum(dO * O), dS = P (dP - D),
 * dQ = scale dS K, dK = scale dS^T Q */
int ct_k__scaled_dot_product_flash_attention_for_cpu_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *go = ARG_T(0), *q = ARG_T(1), *k = ARG_T(2), *v = ARG_T(3), *o = ARG_T(4), *lse = ARG_T(5), *mask = ARG_OPT_T(8);
    bool causal = ARG_B(7);
    if (flash_checks(q, k, v, args[6].u.d, mask) != 0) return -1;
    int64_t B = q->sizes[0], H = q->sizes[1], L = q->sizes[2], E = q->sizes[3], S = k->sizes[2], Ev = v->sizes[3];
    double scale = args[9].tag == CT_TAG_DOUBLE ? args[9].u.d : 1.0 / sqrt((double)E);
    ct_tensor *gq = alloc_like(q, E, q->dtype, true), *gk = alloc_like(k, E, k->dtype, true), *gv = alloc_like(v, Ev, v->dtype, true);
    size_t nq = (size_t)(B * H * L * E), nk = (size_t)(B * H * S * E), nv = (size_t)(B * H * S * Ev);
    double *aq = ct_calloc(nq ? nq : 1, sizeof(double)), *ak = ct_calloc(nk ? nk : 1, sizeof(double)), *av = ct_calloc(nv ? nv : 1, sizeof(double));
    double *s = ct_malloc(sizeof(double) * (size_t)(S ? S : 1)), *dp = ct_malloc(sizeof(double) * (size_t)(S ? S : 1));
    bool ok = gq && gk && gv && aq && ak && av && s && dp;
    for (int64_t b = 0; ok && b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < L; i++) {
                scores(q, k, mask, causal, scale, b, h, i, s);
                const char *lp = (const char *)lse->storage->data +
                                 (size_t)(lse->storage_offset + b * lse->strides[0] + h * lse->strides[1] + i * lse->strides[2]) * ct_dtype_size(lse->dtype);
                double lv = ct_load_as_double(lp, lse->dtype);
                double D = 0;
                for (int64_t e = 0; e < Ev; e++) D += at4(go, b, h, i, e) * at4(o, b, h, i, e);
                for (int64_t j = 0; j < S; j++) {
                    double p = s[j] == -INFINITY ? 0.0 : exp(s[j] - lv);
                    double acc = 0;
                    for (int64_t e = 0; e < Ev; e++) {
                        double g = at4(go, b, h, i, e);
                        av[((b * H + h) * S + j) * Ev + e] += p * g;
                        acc += g * at4(v, b, h, j, e);
                    }
                    dp[j] = p * (acc - D);
                }
                for (int64_t j = 0; j < S; j++)
                    for (int64_t e = 0; e < E; e++) {
                        aq[((b * H + h) * L + i) * E + e] += scale * dp[j] * at4(k, b, h, j, e);
                        ak[((b * H + h) * S + j) * E + e] += scale * dp[j] * at4(q, b, h, i, e);
                    }
            }
    for (int64_t b = 0; ok && b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            for (int64_t i = 0; i < L; i++)
                for (int64_t e = 0; e < E; e++)
                    ct_store_from_double((char *)ct_tensor_data_ptr(gq) + (size_t)(b * gq->strides[0] + h * gq->strides[1] + i * gq->strides[2] + e) * ct_dtype_size(gq->dtype),
                                         gq->dtype, aq[((b * H + h) * L + i) * E + e]);
            for (int64_t j = 0; j < S; j++) {
                for (int64_t e = 0; e < E; e++)
                    ct_store_from_double((char *)ct_tensor_data_ptr(gk) + (size_t)(b * gk->strides[0] + h * gk->strides[1] + j * gk->strides[2] + e) * ct_dtype_size(gk->dtype),
                                         gk->dtype, ak[((b * H + h) * S + j) * E + e]);
                for (int64_t e = 0; e < Ev; e++)
                    ct_store_from_double((char *)ct_tensor_data_ptr(gv) + (size_t)(b * gv->strides[0] + h * gv->strides[1] + j * gv->strides[2] + e) * ct_dtype_size(gv->dtype),
                                         gv->dtype, av[((b * H + h) * S + j) * Ev + e]);
            }
        }
    ct_free(aq);
    ct_free(ak);
    ct_free(av);
    ct_free(s);
    ct_free(dp);
    if (!ok) {
        ct_tensor_release(gq);
        ct_tensor_release(gk);
        ct_tensor_release(gv);
        return -1;
    }
    rets[0] = ct_tensor_value(gq);
    rets[1] = ct_tensor_value(gk);
    rets[2] = ct_tensor_value(gv);
    return 0;
}
