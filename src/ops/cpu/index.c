/* Advanced indexing: index.Tensor and index_put_ / index_put / _index_put_impl_
 * (TensorAdvancedIndexing.cpp, IndexingUtils.h). One plan serves both: the Tensor?[] indices
 * (bool and uint8 masks expanded to the long indices of their true elements) are broadcast
 * together to the index shape B, and the result has B in place of the indexed dims when those
 * are adjacent, or first when a None (a full slice) separates them. Messages are PyTorch 2.6's. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/text.h"
#include "ops/kernel_util.h"

/* ---- the plan ------------------------------------------------------------------------------ */

typedef struct index_plan {
    int ndim;                    /* of the result */
    int64_t sizes[CT_MAX_DIMS];  /* the result's shape */
    int64_t sstr[CT_MAX_DIMS];   /* per result dim, the stride in self (0 for a dim of B) */
    int64_t bstr[CT_MAX_DIMS];   /* per result dim, the row-major stride in B (0 for a dim of self) */
    int64_t nb;                  /* numel(B) */
    int64_t *off;                /* per element of B, its element offset into self (ct_malloc'd) */
    int64_t numel;
} index_plan;

static bool is_mask(const ct_tensor *t) { return t->dtype == CT_BOOL || t->dtype == CT_UINT8; }

static void shape_text(char *buf, size_t n, const int64_t *s, int nd) {
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < nd && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)s[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
}

/* the long indices of a mask's true elements, one per mask dim (nonzero(mask).unbind(1)) */
static int expand_mask(const ct_tensor *m, ct_tensor **out) {
    int64_t count = 0, total = m->numel;
    const unsigned char *base = ct_tensor_data_ptr(m);
    int64_t idx[CT_MAX_DIMS];
    for (int pass = 0; pass < 2; pass++) {
        int64_t k = 0;
        int64_t *dst[CT_MAX_DIMS];
        if (pass == 1) {
            for (int d = 0; d < m->ndim; d++) {
                out[d] = ct_empty(&count, 1, CT_INT64, CT_MEMORY_FORMAT_NONE);
                if (!out[d]) {
                    for (int e = 0; e < d; e++) ct_tensor_release(out[e]);
                    return -1;
                }
                dst[d] = ct_tensor_data_ptr(out[d]);
            }
        }
        for (int64_t i = 0; i < total; i++) {
            int64_t rem = i, o = 0;
            for (int d = m->ndim - 1; d >= 0; d--) {
                idx[d] = rem % m->sizes[d];
                rem /= m->sizes[d];
                o += idx[d] * m->strides[d];
            }
            if (!base[o]) continue;
            if (pass == 1)
                for (int d = 0; d < m->ndim; d++) dst[d][k] = idx[d];
            k++;
        }
        count = k;
    }
    return 0;
}

static void plan_free(index_plan *p) {
    ct_free(p->off);
    p->off = NULL;
}

/* Builds the plan of self[indices] (n items, NULL for None). Returns 0, or -1 with the error set. */
static int plan_build(const ct_tensor *self, ct_tensor *const *items, int64_t n, index_plan *p) {
    memset(p, 0, sizeof *p);
    ct_tensor *idx[CT_MAX_DIMS] = {NULL}; /* per dim of self: its long/int index or NULL */
    ct_tensor *owned[CT_MAX_DIMS] = {NULL};
    int nowned = 0, dim = 0, rc = -1;
    int64_t wanted = 0; /* the dims the indices stand for */
    for (int64_t k = 0; k < n; k++) wanted += !items[k] || !is_mask(items[k]) ? 1 : items[k]->ndim;
    for (int64_t k = 0; k < n; k++) {
        ct_tensor *t = items[k];
        if (!t) {
            dim++;
            continue;
        }
        if (t->dtype != CT_INT64 && t->dtype != CT_INT32 && !is_mask(t)) {
            ct_error_set(CT_ERR_INDEX, "tensors used as indices must be long, int, byte or bool tensors");
            goto done;
        }
        int need = is_mask(t) ? t->ndim : 1;
        if (is_mask(t) && t->ndim == 0) need = 0;
        if (dim + need > self->ndim || dim >= CT_MAX_DIMS) {
            ct_error_set(CT_ERR_INDEX, "too many indices for tensor of dimension %d (got %lld)", self->ndim, (long long)wanted);
            goto done;
        }
        if (is_mask(t)) {
            for (int j = 0; j < t->ndim; j++)
                if (t->sizes[j] != self->sizes[dim + j]) {
                    char a[256], b[256];
                    shape_text(a, sizeof a, t->sizes, t->ndim);
                    shape_text(b, sizeof b, self->sizes, self->ndim);
                    ct_error_set(CT_ERR_INDEX,
                                 "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d",
                                 a, j, b, dim + j);
                    goto done;
                }
            if (t->ndim == 0) { /* a 0-dim mask: PyTorch unsqueezes self; not needed by the forms ctorch reaches */
                ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: indexing with a 0-dimensional mask is not implemented yet");
                goto done;
            }
            ct_tensor *parts[CT_MAX_DIMS];
            if (expand_mask(t, parts) != 0) goto done;
            for (int j = 0; j < t->ndim; j++) {
                owned[nowned++] = parts[j];
                idx[dim++] = parts[j];
            }
        } else {
            idx[dim++] = t;
        }
    }
    /* broadcast the indices together */
    int64_t bshape[CT_MAX_DIMS];
    int nbd = 0, first = -1, last = -1;
    bool adjacent = true;
    for (int d = 0; d < self->ndim; d++) {
        if (!idx[d]) continue;
        if (first < 0) {
            first = d;
            nbd = idx[d]->ndim;
            memcpy(bshape, idx[d]->sizes, sizeof(int64_t) * (size_t)nbd);
        } else {
            if (last != d - 1) adjacent = false;
            int64_t tmp[CT_MAX_DIMS];
            int nt;
            if (ct_broadcast_shapes(bshape, nbd, idx[d]->sizes, idx[d]->ndim, tmp, &nt) != 0) {
                ct_error_clear();
                ct_strbuf sb = CT_STRBUF_INIT;
                ct_sb_puts(&sb, "shape mismatch: indexing tensors could not be broadcast together with shapes ");
                bool any = false;
                for (int e = 0; e < self->ndim; e++) {
                    if (!idx[e]) continue;
                    char s[256];
                    shape_text(s, sizeof s, idx[e]->sizes, idx[e]->ndim);
                    ct_sb_printf(&sb, "%s%s", any ? ", " : "", s);
                    any = true;
                }
                char *msg = ct_sb_finish(&sb);
                ct_error_set(CT_ERR_INDEX, "%s", msg ? msg : "shape mismatch");
                ct_free(msg);
                goto done;
            }
            memcpy(bshape, tmp, sizeof(int64_t) * (size_t)nt);
            nbd = nt;
        }
        last = d;
    }
    if (first < 0) { /* no index tensors: PyTorch's index requires at least one */
        ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: index.Tensor with no index tensor (all None) is not implemented yet");
        goto done;
    }
    int nrest = self->ndim - 0;
    for (int d = 0; d < self->ndim; d++) nrest -= idx[d] != NULL;
    if (nbd + nrest > CT_MAX_DIMS) {
        ct_error_set(CT_ERR_RUNTIME, "ctorch: an indexing result of more than %d dims", CT_MAX_DIMS);
        goto done;
    }
    /* the result's dims */
    int64_t bs[CT_MAX_DIMS];
    p->nb = 1;
    for (int j = nbd - 1; j >= 0; j--) {
        bs[j] = p->nb;
        p->nb *= bshape[j];
    }
    int at = adjacent ? first : 0, o = 0;
    bool placed = false;
    for (int d = 0; d < self->ndim || !placed;) {
        if (o == at && !placed) {
            placed = true;
            for (int j = 0; j < nbd; j++, o++) {
                p->sizes[o] = bshape[j];
                p->sstr[o] = 0;
                p->bstr[o] = bs[j];
            }
            continue;
        }
        while (d < self->ndim && idx[d]) d++;
        if (d >= self->ndim) break;
        p->sizes[o] = self->sizes[d];
        p->sstr[o] = self->strides[d];
        p->bstr[o] = 0;
        o++;
        d++;
    }
    p->ndim = o;
    p->numel = 1;
    for (int j = 0; j < o; j++) p->numel *= p->sizes[j];
    /* per element of B: its offset into self, checking each index */
    p->off = ct_malloc(sizeof(int64_t) * (size_t)(p->nb ? p->nb : 1));
    if (!p->off) goto done;
    int64_t ist[CT_MAX_DIMS][CT_MAX_DIMS];
    for (int d = 0; d < self->ndim; d++)
        if (idx[d]) ct_broadcast_strides(idx[d], bshape, nbd, ist[d]);
    for (int64_t b = 0; b < p->nb; b++) {
        int64_t bi[CT_MAX_DIMS], rem = b, off = 0;
        int nth = 0; /* the index's place among the defined ones, as PyTorch's message counts */
        for (int j = nbd - 1; j >= 0; j--) {
            bi[j] = rem % bshape[j];
            rem /= bshape[j];
        }
        for (int d = 0; d < self->ndim; d++) {
            if (!idx[d]) continue;
            int64_t eo = 0;
            for (int j = 0; j < nbd; j++) eo += bi[j] * ist[d][j];
            const char *ptr = (const char *)ct_tensor_data_ptr(idx[d]) + eo * (int64_t)ct_dtype_size(idx[d]->dtype);
            int64_t v = idx[d]->dtype == CT_INT32 ? *(const int32_t *)(const void *)ptr : *(const int64_t *)(const void *)ptr;
            int64_t size = self->sizes[d];
            if (v < -size || v >= size) {
                /* an empty dimension has its own message (index_kernel's size check) */
                if (size == 0) ct_error_set(CT_ERR_INDEX, "index is out of bounds for dimension with size 0");
                else
                    ct_error_set(CT_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld", (long long)v, nth,
                                 (long long)size);
                goto done;
            }
            if (v < 0) v += size;
            nth++;
            off += v * self->strides[d];
        }
        p->off[b] = off;
    }
    rc = 0;
done:
    for (int k = 0; k < nowned; k++) ct_tensor_release(owned[k]);
    if (rc != 0) plan_free(p);
    return rc;
}

/* Calls f(self_offset, result_linear_index, ctx) for every element of the result, in order. */
typedef void (*plan_fn)(int64_t soff, int64_t i, void *ctx);

static void plan_walk(const index_plan *p, plan_fn f, void *ctx) {
    if (p->numel == 0) return;
    int64_t c[CT_MAX_DIMS] = {0};
    int64_t so = 0, bo = 0;
    for (int64_t i = 0; i < p->numel; i++) {
        f(p->off[bo] + so, i, ctx);
        for (int d = p->ndim - 1; d >= 0; d--) {
            if (++c[d] < p->sizes[d]) {
                so += p->sstr[d];
                bo += p->bstr[d];
                break;
            }
            so -= p->sstr[d] * (p->sizes[d] - 1);
            bo -= p->bstr[d] * (p->sizes[d] - 1);
            c[d] = 0;
        }
    }
}

/* ---- index.Tensor ---------------------------------------------------------------------------- */

typedef struct gather_ctx {
    const char *src;
    char *dst;
    size_t es;
} gather_ctx;

static void gather_elem(int64_t soff, int64_t i, void *vctx) {
    gather_ctx *c = vctx;
    memcpy(c->dst + (size_t)i * c->es, c->src + soff * (int64_t)c->es, c->es);
}

/* index.Tensor(Tensor self, Tensor?[] indices) -> Tensor */
int ct_k_index_tensor(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    index_plan p;
    if (plan_build(self, args[1].u.tlist.items, args[1].u.tlist.len, &p) != 0) return -1;
    ct_tensor *out = ct_empty(p.sizes, p.ndim, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) {
        plan_free(&p);
        return -1;
    }
    gather_ctx c = {ct_tensor_data_ptr(self), ct_tensor_data_ptr(out), ct_dtype_size(self->dtype)};
    plan_walk(&p, gather_elem, &c);
    plan_free(&p);
    return ct_ret(rets, 0, out);
}

/* ---- index_put ------------------------------------------------------------------------------- */

typedef struct put_ctx {
    char *dst;
    const char *src;
    ct_dtype d;
    size_t es;
    bool accumulate;
    int ndim;
    const int64_t *sizes;
    int64_t vstr[CT_MAX_DIMS]; /* values broadcast to the result's shape */
} put_ctx;

static void put_elem(int64_t soff, int64_t i, void *vctx) {
    put_ctx *c = vctx;
    int64_t vo = 0, rem = i;
    for (int d = c->ndim - 1; d >= 0; d--) {
        vo += (rem % c->sizes[d]) * c->vstr[d];
        rem /= c->sizes[d];
    }
    char *dp = c->dst + soff * (int64_t)c->es;
    const char *sp = c->src + vo * (int64_t)c->es;
    if (!c->accumulate) {
        memcpy(dp, sp, c->es);
    } else if (c->d == CT_BOOL) {
        *(unsigned char *)dp = (unsigned char)(*(unsigned char *)dp || *(const unsigned char *)sp);
    } else if (ct_dtype_is_integral(c->d, false)) {
        ct_elem_store_int64(dp, c->d, (int64_t)((uint64_t)ct_elem_load_int64(dp, c->d) + (uint64_t)ct_elem_load_int64(sp, c->d)));
    } else {
        ct_store_from_double(dp, c->d, ct_load_as_double(dp, c->d) + ct_load_as_double(sp, c->d));
    }
}

/* self[indices] = values (+= with accumulate), in place */
static int index_put_into(ct_tensor *self, ct_tensor *const *items, int64_t n, ct_tensor *values, bool accumulate) {
    if (values->dtype != self->dtype)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.",
                            ct_dtype_name(self->dtype), ct_dtype_name(values->dtype));
    index_plan p;
    if (plan_build(self, items, n, &p) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    int nd;
    if (ct_broadcast_shapes(values->sizes, values->ndim, p.sizes, p.ndim, shape, &nd) != 0 || nd != p.ndim ||
        memcmp(shape, p.sizes, sizeof(int64_t) * (size_t)nd) != 0) {
        ct_error_clear();
        char a[256], b[256];
        shape_text(a, sizeof a, values->sizes, values->ndim);
        shape_text(b, sizeof b, p.sizes, p.ndim);
        plan_free(&p);
        return ct_error_set(CT_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
                            a, b);
    }
    put_ctx c = {ct_tensor_data_ptr(self), ct_tensor_data_ptr(values), self->dtype, ct_dtype_size(self->dtype), accumulate,
                 p.ndim, p.sizes, {0}};
    ct_broadcast_strides(values, p.sizes, p.ndim, c.vstr);
    plan_walk(&p, put_elem, &c); /* serial, as PyTorch's CPU kernel is with accumulate */
    plan_free(&p);
    return 0;
}

/* index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) */
int ct_k_index_put_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    if (index_put_into(self, args[1].u.tlist.items, args[1].u.tlist.len, ARG_T(2), ARG_B(3)) != 0) return -1;
    ct_bump_version(self);
    return ct_ret_self(rets, self);
}

/* _index_put_impl_(..., bool accumulate=False, bool unsafe=False) */
int ct_k_index_put_impl_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    return ct_k_index_put_(op, ks, args, rets);
}

/* index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor:
 * self.clone().index_put_(...) */
int ct_k_index_put(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    ct_tensor *out = ct_empty(self->sizes, self->ndim, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) return -1;
    if (ct_copy_into(out, self) != 0 || index_put_into(out, args[1].u.tlist.items, args[1].u.tlist.len, ARG_T(2), ARG_B(3)) != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}
