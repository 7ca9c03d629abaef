/* Internal layout of tensors and storages. Only library code includes this. */
#ifndef CT_TENSOR_IMPL_H
#define CT_TENSOR_IMPL_H

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctorch/tensor.h"

typedef struct ct_node ct_node;
typedef struct ct_subclass ct_subclass;

/* Note [Version counter]
 * PyTorch shares one VariableVersion between a tensor, its views and its detach()es; every
 * in-place op bumps it and SavedVariable compares it on unpack. In ctorch exactly those
 * tensors share a storage, so the counter lives in the storage. */
typedef struct ct_storage {
    atomic_long refcount;
    int64_t nbytes;
    void *data;        /* 64-byte aligned; NULL for wrapper-subclass placeholders */
    int64_t version;   /* see Note [Version counter] */
    void *block;       /* the allocation holding this storage when it shares one with a tensor
                        * header (Note [One block for a new tensor]), else NULL */
    size_t block_bytes;
} ct_storage;

/* Autograd metadata, allocated on first need (PyTorch's AutogradMeta). */
typedef struct ct_autograd_meta {
    bool requires_grad;
    bool retains_grad;
    uint32_t output_nr;
    ct_tensor *grad;     /* owned, NULL if none */
    ct_node *grad_fn;    /* owned reference, NULL for leaves */
    /* A view created by an autograd-aware view op keeps its base (PyTorch's DifferentiableViewMeta). */
    bool is_view;
    ct_tensor *base;     /* owned reference when is_view */
    ct_node *grad_accumulator; /* weak: the leaf's AccumulateGrad while it lives (it holds the leaf) */
} ct_autograd_meta;

/* Note [Tensor header]
 * Most tensors have at most four dimensions, so sizes and strides for up to CT_INLINE_DIMS
 * dimensions live in the header itself (c10's SizesAndStrides keeps five inline for the same
 * reason); a tensor of more dimensions keeps both arrays in one separate block. `sizes` and
 * `strides` always point at the arrays in use, so readers index them the same way either way.
 * An in-place op may lower ndim (squeeze_) but never raise it past the arrays' capacity. */
#define CT_INLINE_DIMS 4

struct ct_tensor {
    atomic_long refcount;
    ct_storage *storage;       /* owned reference */
    ct_storage *vstore;        /* whose ->version is this tensor's version counter: storage, or (owned)
                                * another tensor's storage when the counter was shared explicitly */
    int64_t storage_offset;
    int64_t numel;
    ct_keyset keys;
    int32_t ndim;
    ct_dtype dtype;
    bool is_inference;
    bool allow_metadata_change;
    bool wrapped_number;        /* a Python scalar wrapped as a 0-dim tensor (type promotion treats it as a scalar) */
    int64_t *sizes;             /* ndim entries: inline_geom, or an owned block (Note [Tensor header]) */
    int64_t *strides;           /* ndim entries */
    ct_autograd_meta *autograd; /* owned, may be NULL */
    const ct_subclass *subclass; /* wrapper subclass type, NULL for plain tensors */
    void *subclass_data;         /* owned by the subclass (released through its vtable) */
    void *binding;               /* a language binding's object for this tensor (ct_tensor_binding) */
    bool binding_owned;          /* the tensor holds `binding`: the release hook drops it when t dies */
    _Atomic uint64_t trace_id;   /* the trace file's name for it, given on first sight (0: none yet) */
    ct_storage *home;            /* the storage whose block holds this header, pinned by it; NULL when
                                  * the header is an allocation of its own (Note [One block for a new tensor]) */
    int64_t inline_geom[2 * CT_INLINE_DIMS];
};

/* TensorImpl::compute_contiguous for a tensor known not to be NULL (the kernels' operands):
 * ct_tensor_is_contiguous without the public function's check and call. */
static inline bool ct_is_contiguous_nn(const ct_tensor *t) {
    if (t->numel == 0) return true;
    int64_t expected = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->sizes[i] == 1) continue;
        if (t->strides[i] != expected) return false;
        expected *= t->sizes[i];
    }
    return true;
}

/* Allocates a storage of nbytes (zero-filled when zero is true). New reference. */
ct_storage *ct_storage_new(int64_t nbytes, bool zero);
void ct_storage_retain(ct_storage *s);
void ct_storage_release(ct_storage *s);

/* A tensor header over `storage` (retained) with the given geometry; key set computed as
 * PyTorch's TensorImpl constructor does (inference mode honoured). New reference. */
ct_tensor *ct_tensor_make(ct_storage *storage, int64_t offset, const int64_t *sizes,
                          const int64_t *strides, int ndim, ct_dtype dtype);
/* The same with like's sizes (and so its element count, not computed again) and the given
 * strides: a view with its source's shape. */
ct_tensor *ct_tensor_make_geometry_of(const ct_tensor *like, ct_storage *storage, int64_t offset, const int64_t *strides,
                                      ct_dtype dtype);
/* A view's header: over self's storage with the given geometry, carrying self's key set and
 * inference flag (TensorImpl(VIEW, storage, key_set, dtype)). For the view kernels and autograd's
 * shallow copies. New reference. */
ct_tensor *ct_make_alias(const ct_tensor *self, const int64_t *sizes, const int64_t *strides, int ndim, int64_t offset);
/* New contiguous, uninitialised (or zeroed) CPU tensor. */
ct_tensor *ct_tensor_alloc(const int64_t *sizes, int ndim, ct_dtype dtype, bool zero);
/* Contiguous strides for sizes. */
void ct_contiguous_strides(const int64_t *sizes, int ndim, int64_t *strides);
/* Validates sizes and computes numel; sets PyTorch's error on a negative size. */
int ct_check_sizes(const int64_t *sizes, int64_t ndim, int64_t *numel_out);
/* The dimension count and c10::check_size_nonnegative's check, without the product. */
int ct_check_sizes_nonnegative(const int64_t *sizes, int64_t ndim);
/* c10::computeStorageNbytesContiguous: bytes of a contiguous tensor of these sizes, or -1 with
 * "Storage size calculation overflowed with sizes=[...]" (or the allocator's out-of-memory
 * error for a size no allocation can have). */
int ct_storage_nbytes_contiguous(const int64_t *sizes, int64_t ndim, size_t itemsize, int64_t *nbytes);
/* Sets the CPU allocator's out-of-memory error for a request of nbytes; returns -1. */
int ct_storage_oom(uint64_t nbytes);
/* (int64_t)v as x86's conversion gives it, which is what PyTorch's casts produce there: NaN and
 * values out of int64's range become INT64_MIN (C leaves them undefined). */
static inline int64_t ct_double_to_int64(double v) {
    return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
/* The same at 32 bits: NaN and values out of int32's range become INT32_MIN. */
static inline int32_t ct_double_to_int32(double v) {
    return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}
/* Note [Integer casts]
 *   An integer of another width is stored modulo 2^bits (c10's static_cast, two's complement).
 *   A float becomes an integer as PyTorch's x86 build converts it (recorded by
 *   tests/golden/record/int_dtypes.py): int8, int16 and int32 through a 32-bit conversion
 *   (NaN and out-of-range values give INT32_MIN, then its low bits: 0 for int8 and int16),
 *   uint8 and int64 through a 64-bit one (INT64_MIN for NaN and out of range), so -1.0 is 255
 *   as uint8 and 300.0 is 44. C leaves out-of-range conversions undefined; these do none. */
static inline void ct_elem_store_int64(void *p, ct_dtype dtype, int64_t v);
/* The element at byte address p read as a double / written from one, as c10's static_casts do
 * (the 16-bit floats through float): the library's one conversion of each dtype. No default, so
 * a dtype added to the table without its case here does not compile (-Wswitch). NaN / no store
 * for a value that is no dtype. Inline for loops over elements (the plain matrix product);
 * ct_load_as_double and ct_store_from_double are the same out of line. */
static inline double ct_elem_load(const void *p, ct_dtype dtype) {
    switch (dtype) {
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    case CT_INT64: return (double)*(const int64_t *)p;
    case CT_INT32: return *(const int32_t *)p;
    case CT_INT16: return *(const int16_t *)p;
    case CT_INT8: return *(const int8_t *)p;
    case CT_UINT8: return *(const uint8_t *)p;
    case CT_BOOL: return *(const uint8_t *)p ? 1.0 : 0.0;
    case CT_FLOAT16: return ct_half_to_float(*(const uint16_t *)p);
    case CT_BFLOAT16: return ct_bfloat16_to_float(*(const uint16_t *)p);
    case CT_DTYPE_UNDEFINED: break;
    }
    return NAN;
}
static inline void ct_elem_store(void *p, ct_dtype dtype, double v) {
    switch (dtype) {
    case CT_FLOAT32: *(float *)p = (float)v; break;
    case CT_FLOAT64: *(double *)p = v; break;
    case CT_INT64: *(int64_t *)p = ct_double_to_int64(v); break;
    case CT_INT32: *(int32_t *)p = ct_double_to_int32(v); break;
    case CT_INT16:
    case CT_INT8: ct_elem_store_int64(p, dtype, ct_double_to_int32(v)); break;
    case CT_UINT8: *(uint8_t *)p = (uint8_t)(uint64_t)ct_double_to_int64(v); break;
    case CT_BOOL: *(uint8_t *)p = v != 0.0; break;
    case CT_FLOAT16: *(uint16_t *)p = ct_float_to_half((float)v); break;
    case CT_BFLOAT16: *(uint16_t *)p = ct_float_to_bfloat16((float)v); break;
    case CT_DTYPE_UNDEFINED: break;
    }
}
/* An integer element read exactly (a float as ct_elem_store would store it as int64; bool 0/1). */
static inline int64_t ct_elem_load_int64(const void *p, ct_dtype dtype) {
    switch (dtype) {
    case CT_INT64: return *(const int64_t *)p;
    case CT_INT32: return *(const int32_t *)p;
    case CT_INT16: return *(const int16_t *)p;
    case CT_INT8: return *(const int8_t *)p;
    case CT_UINT8:
    case CT_BOOL: return *(const uint8_t *)p;
    default: return ct_double_to_int64(ct_elem_load(p, dtype));
    }
}
/* An integer stored exactly: modulo 2^bits for the integer dtypes (Note [Integer casts]), != 0
 * for bool, rounded for the floats. */
static inline void ct_elem_store_int64(void *p, ct_dtype dtype, int64_t v) {
    uint64_t u = (uint64_t)v;
    switch (dtype) {
    case CT_INT64: *(int64_t *)p = v; break;
    case CT_INT32: { uint32_t w = (uint32_t)u; memcpy(p, &w, 4); break; }
    case CT_INT16: { uint16_t w = (uint16_t)u; memcpy(p, &w, 2); break; }
    case CT_INT8:
    case CT_UINT8: *(uint8_t *)p = (uint8_t)u; break;
    case CT_BOOL: *(uint8_t *)p = v != 0; break;
    default: ct_elem_store(p, dtype, (double)v); break;
    }
}
double ct_load_as_double(const void *p, ct_dtype dtype);
void ct_store_from_double(void *p, ct_dtype dtype, double v);
/* Pointer to the element with the given logical linear index. */
void *ct_tensor_elem_ptr(const ct_tensor *t, int64_t linear);
/* The key set a new CPU tensor gets (TensorImpl constructor), given inference mode. */
ct_keyset ct_default_cpu_keyset(bool inference);

/* What core needs of autograd's metadata, filled by autograd at start-up (c10's
 * AutogradMetaInterface with SetAutogradMetaFactory): a tensor only gets metadata through
 * autograd (ct_tensor_autograd_meta in autograd/node.h), which starts the library first, so
 * the hooks are set whenever a tensor has metadata. Written once, inside the start-up. */
typedef struct ct_autograd_meta_hooks {
    void (*release)(ct_autograd_meta *m);                   /* drops grad, grad_fn, base; frees m */
    const char *(*grad_fn_name)(const ct_autograd_meta *m); /* "AddmmBackward0", or NULL           */
} ct_autograd_meta_hooks;
extern const ct_autograd_meta_hooks *ct_autograd_hooks;

/* What core needs of a wrapper subclass (a wrapper tensor's vtable, like ggml's per-backend
 * ggml_backend_i): the first member of every ct_subclass, filled by src/subclass. */
typedef struct ct_subclass_vtable {
    void (*release_data)(ct_tensor *t); /* releases what the subclass keeps for t (t is dying) */
} ct_subclass_vtable;
/* Makes dst use src's version counter (set_version_counter). */
void ct_tensor_share_version(ct_tensor *dst, const ct_tensor *src);
/* Gives t a version counter of its own, at 0 (what Tensor.data's copy gets). 0 or -1. */
int ct_tensor_fresh_version(ct_tensor *t);
/* TensorImpl::shallow_copy_from: dst takes src's storage, geometry, dtype and key set, and
 * keeps its own version counter, autograd metadata, binding and metadata-change permission.
 * Neither may be a wrapper subclass. 0, or -1 (dst unchanged) when memory runs out. */
int ct_tensor_shallow_copy_from(ct_tensor *dst, const ct_tensor *src);
/* Bumps the version counter (every in-place op does, through ADInplaceOrView). */
static inline void ct_tensor_bump_version(ct_tensor *t) {
    if (t->vstore) t->vstore->version++;
}

#endif
