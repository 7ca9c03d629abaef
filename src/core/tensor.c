/* Tensors and storages: creation, reference counting, metadata, element access. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/testing.h"
#include "core/tls.h"

static int null_tensor(const char *fn) { return ct_error_set(CT_ERR_VALUE, "%s: tensor is NULL", fn); }
/* Leak counters for tests: per thread (created minus destroyed here), so counting costs no
 * locked instruction on the hot path. */
static _Thread_local int64_t live_tensors;
static _Thread_local int64_t live_storages;

int64_t ct_testing_live_tensors(void) { return live_tensors; }
int64_t ct_testing_live_storages(void) { return live_storages; }

/* Note [Last reference]
 * Releasing the only reference needs no atomic read-modify-write: nobody else can retain an
 * object nobody else holds, and the acquire load pairs with the release decrement of whoever
 * dropped the previous reference. A new tensor's storage is handed over, not retained and
 * released. Together these take four locked instructions off every new tensor. */
static inline bool drop_ref(atomic_long *rc) {
    if (atomic_load_explicit(rc, memory_order_acquire) == 1) return true;
    return atomic_fetch_sub_explicit(rc, 1, memory_order_acq_rel) == 1;
}

/* ---- storage ---- */

/* One allocation holds the storage header and its data (64-byte aligned after the header):
 * allocation is most of what a small op costs. */
#define CT_STORAGE_HEADER 64

int ct_storage_oom(uint64_t nbytes) {
    /* c10::alloc_cpu when posix_memalign fails (ENOMEM), as str() of the error shows it */
    return ct_error_set(CT_ERR_NOMEM,
                        "[enforce fail at alloc_cpu.cpp:118] err == 0. DefaultCPUAllocator: can't allocate memory: you "
                        "tried to allocate %llu bytes. Error code 12 (Cannot allocate memory)",
                        (unsigned long long)nbytes);
}

/* the header of a storage whose data follows it (CT_STORAGE_HEADER bytes on) */
static void storage_init(ct_storage *s, int64_t nbytes, bool zero, void *block, size_t block_bytes) {
    s->data = nbytes > 0 ? (char *)s + CT_STORAGE_HEADER : NULL;
    if (zero && nbytes > 0) memset(s->data, 0, (size_t)nbytes);
    atomic_init(&s->refcount, 1);
    s->nbytes = nbytes;
    s->version = 0;
    s->block = block;
    s->block_bytes = block_bytes;
    live_storages++;
    ct_alloc_report(nbytes);
}

ct_storage *ct_storage_new(int64_t nbytes, bool zero) {
    _Static_assert(sizeof(ct_storage) <= CT_STORAGE_HEADER, "storage header must fit before the data");
    if (nbytes < 0 || (uint64_t)nbytes > SIZE_MAX - CT_STORAGE_HEADER) {
        ct_storage_oom((uint64_t)nbytes);
        return NULL;
    }
    ct_storage *s = ct_aligned_alloc(CT_STORAGE_HEADER + (size_t)nbytes);
    if (!s) {
        ct_storage_oom((uint64_t)nbytes); /* the bytes asked for, not the header's */
        return NULL;
    }
    storage_init(s, nbytes, zero, NULL, 0);
    return s;
}

void ct_storage_retain(ct_storage *s) {
    if (s) atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

/* the last reference is gone */
static void storage_free(ct_storage *s) {
    ct_alloc_report(-s->nbytes);
    live_storages--;
    if (s->block) ct_aligned_free(s->block, s->block_bytes);
    else ct_aligned_free(s, CT_STORAGE_HEADER + (size_t)s->nbytes);
}

void ct_storage_release(ct_storage *s) {
    if (!s) return;
    if (drop_ref(&s->refcount)) storage_free(s);
}

/* ---- tensors ---- */

ct_keyset ct_default_cpu_keyset(bool inference) {
    /* TensorImpl constructor: backend key | autocast key for it; then, unless in inference
     * mode, | ADInplaceOrView | Autograd<backend>. */
    ct_keyset ks = CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU) | CT_FUNCTIONALITY_BIT(CT_KEY_AutocastCPU);
    if (!inference)
        ks |= CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView) | CT_FUNCTIONALITY_BIT(CT_KEY_AutogradFunctionality) |
              CT_BACKEND_BIT(CT_BACKEND_CPU);
    return ks;
}

void ct_contiguous_strides(const int64_t *sizes, int ndim, int64_t *strides) {
    int64_t st = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = st;
        st *= sizes[i] > 1 ? sizes[i] : 1;
    }
}

/* "[2, -1]" into buf (as far as it fits) */
static void format_sizes(const int64_t *sizes, int64_t ndim, char *buf, size_t size) {
    size_t len = (size_t)snprintf(buf, size, "[");
    for (int64_t j = 0; j < ndim && len + 24 < size; j++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", j ? ", " : "", (long long)sizes[j]);
    snprintf(buf + len, size - len, "]");
}

int ct_check_sizes_nonnegative(const int64_t *sizes, int64_t ndim) {
    if (ndim < 0 || ndim > CT_MAX_DIMS)
        return ct_error_set(CT_ERR_RUNTIME, "ctorch supports tensors of at most %d dimensions (got %lld)",
                            CT_MAX_DIMS, (long long)ndim);
    if (ndim > 0 && !sizes) return ct_error_set(CT_ERR_RUNTIME, "sizes must not be NULL");
    for (int64_t i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            /* c10::check_size_nonnegative */
            char buf[256];
            format_sizes(sizes, ndim, buf, sizeof buf);
            return ct_error_set(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                                (long long)sizes[i], buf);
        }
    }
    return 0;
}

int ct_check_sizes(const int64_t *sizes, int64_t ndim, int64_t *numel_out) {
    if (ct_check_sizes_nonnegative(sizes, ndim) != 0) return -1;
    int64_t n = 1;
    for (int64_t i = 0; i < ndim; i++) {
        /* TensorImpl::compute_numel's safe_multiply */
        if (__builtin_mul_overflow(n, sizes[i], &n))
            return ct_error_set(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
    }
    if (numel_out) *numel_out = n;
    return 0;
}

int ct_storage_nbytes_contiguous(const int64_t *sizes, int64_t ndim, size_t itemsize, int64_t *nbytes) {
    /* the common case checked inline; the check itself (with its messages) when it fails */
    bool ok = ndim >= 0 && ndim <= CT_MAX_DIMS && (ndim == 0 || sizes);
    for (int64_t i = 0; ok && i < ndim; i++) ok = sizes[i] >= 0;
    if (!ok && ct_check_sizes_nonnegative(sizes, ndim) != 0) return -1;
    /* c10::computeStorageNbytesContiguous: the product of the sizes and the item size in 64
     * unsigned bits, refused when it wraps */
    uint64_t n = itemsize;
    bool overflowed = false;
    for (int64_t i = 0; i < ndim; i++) {
        uint64_t d = (uint64_t)sizes[i];
        if (d != 0 && n > UINT64_MAX / d) overflowed = true;
        n *= d;
    }
    if (overflowed) {
        char buf[512];
        format_sizes(sizes, ndim, buf, sizeof buf);
        return ct_error_set(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s", buf);
    }
    if (n > (uint64_t)INT64_MAX - CT_STORAGE_HEADER) /* no allocator gives this much */
        return ct_storage_oom(n);
    *nbytes = (int64_t)n;
    return 0;
}

/* Fills the header t over storage with a known element count; sizes already checked. Takes
 * over the caller's reference to storage (Note [Last reference]), also when it fails; frees t
 * when it fails and t is not in storage's block. */
static ct_tensor *tensor_init(ct_tensor *t, ct_storage *storage, int64_t offset, const int64_t *sizes,
                              const int64_t *strides, int ndim, int64_t numel, ct_dtype dtype) {
    t->home = storage && storage->block == (void *)t ? storage : NULL;
    if (ndim <= CT_INLINE_DIMS) {
        t->sizes = t->inline_geom;
        t->strides = t->inline_geom + CT_INLINE_DIMS;
    } else {
        t->sizes = ct_malloc(2 * sizeof(int64_t) * (size_t)ndim);
        if (!t->sizes) {
            if (t->home) ct_storage_release(t->home); /* the header's pin */
            else ct_free(t);
            ct_storage_release(storage);
            return NULL;
        }
        t->strides = t->sizes + ndim;
    }
    atomic_init(&t->refcount, 1);
    t->storage = storage;
    t->vstore = storage;
    t->storage_offset = offset;
    t->numel = numel;
    t->ndim = ndim;
    t->dtype = dtype;
    t->is_inference = ct_tls_state.inference_mode;
    t->keys = ct_default_cpu_keyset(t->is_inference);
    t->allow_metadata_change = true;
    t->wrapped_number = false;
    /* a few words each: plain loops, not library calls */
    for (int i = 0; i < ndim; i++) t->sizes[i] = sizes[i];
    if (strides)
        for (int i = 0; i < ndim; i++) t->strides[i] = strides[i];
    else
        ct_contiguous_strides(sizes, ndim, t->strides);
    t->autograd = NULL;
    t->subclass = NULL;
    t->subclass_data = NULL;
    t->binding = NULL;
    t->binding_owned = false;
    atomic_init(&t->trace_id, 0);
    live_tensors++;
    return t;
}

/* A header of its own over storage; as tensor_init. */
static ct_tensor *tensor_new(ct_storage *storage, int64_t offset, const int64_t *sizes, const int64_t *strides,
                             int ndim, int64_t numel, ct_dtype dtype) {
    ct_tensor *t = ct_malloc(sizeof *t);
    if (!t) {
        ct_storage_release(storage);
        return NULL;
    }
    return tensor_init(t, storage, offset, sizes, strides, ndim, numel, dtype);
}

ct_tensor *ct_tensor_make(ct_storage *storage, int64_t offset, const int64_t *sizes,
                          const int64_t *strides, int ndim, ct_dtype dtype) {
    /* the common case in one pass (sizes there and non-negative, their product fitting); the
     * checks with PyTorch's messages, in their order, when anything is off */
    int64_t numel = 1;
    bool ok = ndim >= 0 && ndim <= CT_MAX_DIMS && (ndim == 0 || sizes);
    for (int i = 0; ok && i < ndim; i++) ok = sizes[i] >= 0 && !__builtin_mul_overflow(numel, sizes[i], &numel);
    if (!ok && ct_check_sizes(sizes, ndim, &numel) != 0) return NULL;
    ct_storage_retain(storage);
    return tensor_new(storage, offset, sizes, strides, ndim, numel, dtype);
}

ct_tensor *ct_tensor_make_geometry_of(const ct_tensor *like, ct_storage *storage, int64_t offset, const int64_t *strides,
                                      ct_dtype dtype) {
    ct_storage_retain(storage);
    return tensor_new(storage, offset, like->sizes, strides, like->ndim, like->numel, dtype);
}

ct_tensor *ct_make_alias(const ct_tensor *self, const int64_t *sizes, const int64_t *strides, int ndim, int64_t offset) {
    ct_tensor *t = sizes == self->sizes && ndim == self->ndim
                       ? ct_tensor_make_geometry_of(self, self->storage, offset, strides, self->dtype)
                       : ct_tensor_make(self->storage, offset, sizes, strides, ndim, self->dtype);
    if (!t) return NULL;
    /* a view carries its base's key set (TensorImpl(VIEW, storage, key_set, dtype)) */
    t->keys = self->keys;
    t->is_inference = self->is_inference;
    return t;
}

ct_tensor *ct_tensor_alloc(const int64_t *sizes, int ndim, ct_dtype dtype, bool zero) {
    int64_t nbytes = 0, numel = 0;
    /* the common case in one pass: sizes that are there and positive, whose product with the
     * item size fits (with no size 0 the products only grow, so overflowing in this order is
     * overflowing in c10's); anything else, empty tensors too, takes the checks that give
     * PyTorch's results and messages */
    uint64_t n = 1, bytes = 0;
    bool ok = ndim >= 0 && ndim <= CT_MAX_DIMS && (ndim == 0 || sizes);
    for (int i = 0; ok && i < ndim; i++) ok = sizes[i] > 0 && !__builtin_mul_overflow(n, (uint64_t)sizes[i], &n);
    ok = ok && !__builtin_mul_overflow(n, (uint64_t)ct_dtype_size(dtype), &bytes) &&
         bytes <= (uint64_t)INT64_MAX - CT_STORAGE_HEADER;
    if (ok) {
        numel = (int64_t)n;
        nbytes = (int64_t)bytes;
    } else {
        if (ct_storage_nbytes_contiguous(sizes, ndim, ct_dtype_size(dtype), &nbytes) != 0) return NULL;
        /* the sizes are checked and their product with the item size fits: numel cannot overflow */
        for (int i = 0; i < ndim; i++) numel = i ? numel * sizes[i] : sizes[i];
        if (ndim == 0) numel = 1;
    }
    /* Note [One block for a new tensor]
     * A new tensor's header, its storage's header and the data are one allocation: the
     * header first, then the storage at the next 64-byte boundary, then the data. The
     * storage holds one extra reference, the header's pin, which the header drops when it is
     * released; the block is freed with the storage, so it outlives the header while views of
     * the storage live (the header's bytes then wait with it) and a header whose tensor took
     * another storage (set_) keeps its block until it dies. */
    const size_t head = (sizeof(ct_tensor) + 63) & ~(size_t)63;
    if ((uint64_t)nbytes > SIZE_MAX - head - CT_STORAGE_HEADER) {
        ct_storage_oom((uint64_t)nbytes);
        return NULL;
    }
    const size_t total = head + CT_STORAGE_HEADER + (size_t)nbytes;
    char *block = ct_aligned_alloc(total);
    if (!block) {
        ct_storage_oom((uint64_t)nbytes);
        return NULL;
    }
    ct_storage *s = (ct_storage *)(void *)(block + head);
    storage_init(s, nbytes, zero, block, total);
    atomic_init(&s->refcount, 2); /* the tensor's reference and its header's pin */
    return tensor_init((ct_tensor *)(void *)block, s, 0, sizes, NULL, ndim, numel, dtype);
}

ct_tensor *ct_tensor_retain(ct_tensor *t) {
    if (t) atomic_fetch_add_explicit(&t->refcount, 1, memory_order_relaxed);
    return t;
}

/* Set once by a language binding (ct_set_tensor_binding_release_hook). */
static _Atomic(ct_binding_release_fn) binding_release_hook;

void ct_set_tensor_binding_release_hook(ct_binding_release_fn hook) { atomic_store(&binding_release_hook, hook); }

void *ct_tensor_binding(const ct_tensor *t, bool *owned) {
    if (owned) *owned = t ? t->binding_owned : false;
    if (!t) null_tensor("ct_tensor_binding");
    return t ? t->binding : NULL;
}

int ct_tensor_set_binding(ct_tensor *t, void *obj, bool owned) {
    if (!t) return null_tensor("ct_tensor_set_binding");
    if (owned && (!obj || !atomic_load(&binding_release_hook)))
        return ct_error_set(CT_ERR_VALUE, "ct_tensor_set_binding: an owned binding needs an object and a release hook");
    t->binding = obj;
    t->binding_owned = owned;
    return 0;
}

void ct_tensor_release(ct_tensor *t) {
    if (!t) return;
    if (!drop_ref(&t->refcount)) return;
    if (t->binding_owned) {
        /* the binding's object lives no longer than the tensor that holds it; the hook may
         * release other tensors (never this one: nothing can reach it any more) */
        ct_binding_release_fn hook = atomic_load(&binding_release_hook);
        void *obj = t->binding;
        t->binding = NULL;
        t->binding_owned = false;
        if (hook && obj) hook(obj);
    }
    if (t->autograd) ct_autograd_hooks->release(t->autograd);
    if (t->vstore != t->storage) ct_storage_release(t->vstore);
    if (t->subclass) ((const ct_subclass_vtable *)(const void *)t->subclass)->release_data(t);
    if (t->sizes != t->inline_geom) ct_free(t->sizes);
    live_tensors--;
    ct_storage *home = t->home;
    if (!home) {
        ct_storage_release(t->storage);
        ct_free(t);
    } else if (t->storage == home && atomic_load_explicit(&home->refcount, memory_order_acquire) == 2) {
        /* the tensor's reference and the pin are the only two (Note [Last reference]) */
        storage_free(home);
    } else {
        ct_storage_release(t->storage);
        ct_storage_release(home); /* the header's pin: frees the block when it is the last */
    }
}

int64_t ct_tensor_refcount(const ct_tensor *t) {
    return t ? (int64_t)atomic_load(&((ct_tensor *)t)->refcount) : 0;
}

const ct_autograd_meta_hooks *ct_autograd_hooks;

static size_t numel_of(const int64_t *sizes, int ndim) {
    size_t n = 1;
    for (int i = 0; i < ndim; i++) n *= (size_t)sizes[i];
    return n;
}

ct_tensor *ct_tensor_from_data(const void *data, const int64_t *sizes, int ndim, ct_dtype dtype) {
    if (!ct_dtype_valid(dtype)) {
        ct_error_set(CT_ERR_TYPE, "ctorch: invalid dtype %d", (int)dtype);
        return NULL;
    }
    ct_tensor *t = ct_tensor_alloc(sizes, ndim, dtype, false);
    if (!t) return NULL;
    size_t n = numel_of(sizes, ndim);
    if (n > 0) {
        if (!data) {
            ct_tensor_release(t);
            ct_error_set(CT_ERR_VALUE, "ctorch_tensor_from_data: data is NULL");
            return NULL;
        }
        memcpy(t->storage->data, data, n * ct_dtype_size(dtype));
    }
    return t;
}

ct_tensor *ct_tensor_from_doubles(const double *data, const int64_t *sizes, int ndim, ct_dtype dtype) {
    if (!ct_dtype_valid(dtype)) {
        ct_error_set(CT_ERR_TYPE, "ctorch: invalid dtype %d", (int)dtype);
        return NULL;
    }
    ct_tensor *t = ct_tensor_alloc(sizes, ndim, dtype, false);
    if (!t) return NULL;
    size_t n = numel_of(sizes, ndim);
    if (n > 0 && !data) {
        ct_tensor_release(t);
        ct_error_set(CT_ERR_VALUE, "ctorch_tensor_from_doubles: data is NULL");
        return NULL;
    }
    size_t es = ct_dtype_size(dtype);
    for (size_t i = 0; i < n; i++) ct_store_from_double((char *)t->storage->data + i * es, dtype, data[i]);
    return t;
}

ct_tensor *ct_tensor_scalar(double v, ct_dtype dtype) { return ct_tensor_from_doubles(&v, NULL, 0, dtype); }

/* ---- metadata ---- */

int ct_tensor_ndim(const ct_tensor *t) { return t ? t->ndim : null_tensor("ct_tensor_ndim"); }
const int64_t *ct_tensor_sizes(const ct_tensor *t) {
    if (!t) null_tensor("ct_tensor_sizes");
    return t ? t->sizes : NULL;
}
const int64_t *ct_tensor_strides(const ct_tensor *t) {
    if (!t) null_tensor("ct_tensor_strides");
    return t ? t->strides : NULL;
}
int64_t ct_tensor_numel(const ct_tensor *t) { return t ? t->numel : null_tensor("ct_tensor_numel"); }
ct_dtype ct_tensor_dtype(const ct_tensor *t) {
    if (!t) null_tensor("ct_tensor_dtype");
    return t ? t->dtype : CT_DTYPE_UNDEFINED;
}
int64_t ct_tensor_storage_offset(const ct_tensor *t) { return t ? t->storage_offset : null_tensor("ct_tensor_storage_offset"); }
ct_keyset ct_tensor_keyset(const ct_tensor *t) {
    if (!t) null_tensor("ct_tensor_keyset");
    return t ? t->keys : 0;
}
bool ct_tensor_is_inference(const ct_tensor *t) { return t && t->is_inference; }
bool ct_tensor_is_wrapped_number(const ct_tensor *t) { return t && t->wrapped_number; }
int64_t ct_tensor_version(const ct_tensor *t) {
    if (!t) return null_tensor("ct_tensor_version");
    return t->vstore ? t->vstore->version : 0;
}
void ct_tensor_share_version(ct_tensor *dst, const ct_tensor *src) {
    if (dst->vstore == src->vstore) return;
    if (dst->vstore != dst->storage) ct_storage_release(dst->vstore);
    dst->vstore = src->vstore;
    if (dst->vstore != dst->storage) ct_storage_retain(dst->vstore);
}

int ct_tensor_fresh_version(ct_tensor *t) {
    /* a counter of its own: an empty storage nothing else holds, kept for its version field */
    ct_storage *counter = ct_storage_new(0, false);
    if (!counter) return -1;
    if (t->vstore != t->storage) ct_storage_release(t->vstore);
    t->vstore = counter;
    return 0;
}

int ct_tensor_shallow_copy_from(ct_tensor *dst, const ct_tensor *src) {
    if (dst == src) return 0;
    /* Note [Tensor header]: the inline arrays, or a block of src's rank */
    int64_t *geom = dst->inline_geom;
    if (src->ndim > CT_INLINE_DIMS) {
        geom = ct_malloc(2 * sizeof(int64_t) * (size_t)src->ndim);
        if (!geom) return -1;
    }
    /* the version counter stays dst's own (Note [ Version Counter Sharing ] in PyTorch's
     * variable.h): when it was the old storage's, dst keeps that storage for it */
    ct_storage *old = dst->storage;
    ct_storage_retain(src->storage);
    dst->storage = src->storage;
    if (dst->vstore != old) ct_storage_release(old);
    if (dst->vstore == dst->storage) ct_storage_release(dst->vstore); /* the one reference serves both */
    if (dst->sizes != dst->inline_geom) ct_free(dst->sizes);
    dst->sizes = geom;
    dst->strides = geom + (geom == dst->inline_geom ? CT_INLINE_DIMS : src->ndim);
    for (int i = 0; i < src->ndim; i++) {
        dst->sizes[i] = src->sizes[i];
        dst->strides[i] = src->strides[i];
    }
    dst->ndim = src->ndim;
    dst->numel = src->numel;
    dst->storage_offset = src->storage_offset;
    dst->dtype = src->dtype;
    dst->keys = src->keys;
    dst->is_inference = src->is_inference;
    dst->wrapped_number = src->wrapped_number;
    return 0;
}

bool ct_tensor_shares_storage(const ct_tensor *a, const ct_tensor *b) {
    return a && b && a->storage && a->storage == b->storage;
}

int64_t ct_tensor_size(const ct_tensor *t, int64_t dim) {
    if (!t) return null_tensor("ct_tensor_size");
    int64_t nd = t->ndim;
    int64_t lo = nd > 0 ? -nd : -1, hi = nd > 0 ? nd - 1 : 0;
    if (nd == 0) { /* Tensor.size(dim) wraps without a scalar's one dimension */
        ct_error_set(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return -1;
    }
    if (dim < lo || dim > hi) {
        ct_error_set(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)lo, (long long)hi, (long long)dim);
        return -1;
    }
    return t->sizes[dim < 0 ? dim + nd : dim];
}

bool ct_tensor_is_contiguous(const ct_tensor *t) {
    /* TensorImpl::compute_contiguous: size-1 dims are ignored, empty tensors are contiguous */
    if (!t) return null_tensor("ct_tensor_is_contiguous") == 0; /* false, with the error the header promises */
    return ct_is_contiguous_nn(t);
}

void *ct_tensor_data_ptr(const ct_tensor *t) {
    if (!t) {
        null_tensor("ct_tensor_data_ptr");
        return NULL;
    }
    if (!t->storage || !t->storage->data) return NULL;
    return (char *)t->storage->data + (size_t)t->storage_offset * ct_dtype_size(t->dtype);
}

/* ---- element access ---- */

double ct_load_as_double(const void *p, ct_dtype dtype) {
    switch (dtype) {
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    case CT_INT64: return (double)*(const int64_t *)p;
    case CT_BOOL: return *(const uint8_t *)p ? 1.0 : 0.0;
    case CT_FLOAT16: return ct_half_to_float(*(const uint16_t *)p);
    case CT_BFLOAT16: return ct_bfloat16_to_float(*(const uint16_t *)p);
    default: return NAN;
    }
}

void ct_store_from_double(void *p, ct_dtype dtype, double v) {
    switch (dtype) {
    case CT_FLOAT32: *(float *)p = (float)v; break;
    case CT_FLOAT64: *(double *)p = v; break;
    case CT_INT64: *(int64_t *)p = ct_double_to_int64(v); break;
    case CT_BOOL: *(uint8_t *)p = v != 0.0; break;
    case CT_FLOAT16: *(uint16_t *)p = ct_float_to_half((float)v); break;
    case CT_BFLOAT16: *(uint16_t *)p = ct_float_to_bfloat16((float)v); break;
    default: break;
    }
}

void *ct_tensor_elem_ptr(const ct_tensor *t, int64_t linear) {
    int64_t off = t->storage_offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t sz = t->sizes[d];
        int64_t idx = linear % sz;
        linear /= sz;
        off += idx * t->strides[d];
    }
    return (char *)t->storage->data + (size_t)off * ct_dtype_size(t->dtype);
}

int ct_tensor_get(const ct_tensor *t, const int64_t *index, double *out) {
    if (!t || !out) return ct_error_set(CT_ERR_VALUE, "ct_tensor_get: NULL argument");
    if (!t->storage || !t->storage->data) return ct_error_set(CT_ERR_RUNTIME, "Cannot access data of a tensor without storage");
    int64_t off = t->storage_offset;
    for (int d = 0; d < t->ndim; d++) {
        int64_t i = index[d], sz = t->sizes[d];
        if (i < -sz || i >= sz)
            return ct_error_set(CT_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld",
                                (long long)i, d, (long long)sz);
        if (i < 0) i += sz;
        off += i * t->strides[d];
    }
    *out = ct_load_as_double((char *)t->storage->data + (size_t)off * ct_dtype_size(t->dtype), t->dtype);
    return 0;
}

int ct_tensor_item(const ct_tensor *t, double *out) {
    if (!t || !out) return ct_error_set(CT_ERR_VALUE, "ct_tensor_item: NULL argument");
    if (t->numel != 1)
        return ct_error_set(CT_ERR_RUNTIME, "a Tensor with %lld elements cannot be converted to Scalar",
                            (long long)t->numel);
    if (!t->storage || !t->storage->data) return ct_error_set(CT_ERR_RUNTIME, "Cannot access data of a tensor without storage");
    *out = ct_load_as_double(ct_tensor_elem_ptr(t, 0), t->dtype);
    return 0;
}

int ct_tensor_to_doubles(const ct_tensor *t, double *out, int64_t n) {
    if (!t || (!out && t->numel > 0)) return ct_error_set(CT_ERR_VALUE, "ct_tensor_to_doubles: NULL argument");
    if (n < t->numel) return ct_error_set(CT_ERR_VALUE, "ct_tensor_to_doubles: buffer holds %lld values, tensor has %lld",
                                          (long long)n, (long long)t->numel);
    if (t->numel > 0 && (!t->storage || !t->storage->data))
        return ct_error_set(CT_ERR_RUNTIME, "Cannot access data of a tensor without storage");
    for (int64_t i = 0; i < t->numel; i++) out[i] = ct_load_as_double(ct_tensor_elem_ptr(t, i), t->dtype);
    return 0;
}
