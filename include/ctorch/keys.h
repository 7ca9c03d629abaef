/*
 * ctorch/keys.h - dispatch keys and dispatch key sets.
 *
 * The enum order and the 64-bit layout are PyTorch 2.6's (c10/core/DispatchKey.h,
 * c10/core/DispatchKeySet.h), frozen from that release; tests/golden/torch-2.6/
 * dispatch_keys.out is the recording they were checked against.
 *
 * Note [Key set layout]
 *   bits 0..14   backend components (CPUBit is bit 0, MetaBit bit 14)
 *   bits 15..    functionality keys: key k (1 <= k < CT_KEY_END_OF_FUNCTIONALITY) is bit 14 + k
 * A per-backend runtime key such as AutogradCPU sets two bits: its functionality
 * (AutogradFunctionality) and its backend (CPUBit). Alias keys set no bits.
 * Priority is "higher bit wins"; among backends the higher backend bit wins.
 */
#ifndef CTORCH_KEYS_H
#define CTORCH_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Backend components: X(name) in BackendComponent order, starting at 1 (0 is InvalidBit). */
#define CT_FOREACH_BACKEND(X)                                                                      \
    X(CPU) X(CUDA) X(HIP) X(XLA) X(MPS) X(IPU) X(XPU) X(HPU) X(VE) X(Lazy) X(MTIA)               \
    X(PrivateUse1) X(PrivateUse2) X(PrivateUse3) X(Meta)

typedef enum ct_backend {
    CT_BACKEND_INVALID = 0,
#define CT_X_(n) CT_BACKEND_##n,
    CT_FOREACH_BACKEND(CT_X_)
#undef CT_X_
    CT_BACKEND_COUNT_PLUS_ONE
} ct_backend;

#define CT_NUM_BACKENDS (CT_BACKEND_COUNT_PLUS_ONE - 1) /* 15 */

/* Functionality keys, X(name, is_per_backend), in increasing priority (enum) order. */
#define CT_FOREACH_FUNCTIONALITY(X)                                                                \
    X(Undefined, 0) X(Dense, 1) X(FPGA, 0) X(MAIA, 0) X(Vulkan, 0) X(Metal, 0) X(Quantized, 1)    \
    X(CustomRNGKeyId, 0) X(MkldnnCPU, 0) X(Sparse, 1) X(SparseCsr, 1) X(NestedTensor, 1)          \
    X(BackendSelect, 0) X(Python, 0) X(Fake, 0) X(FuncTorchDynamicLayerBackMode, 0)                \
    X(Functionalize, 0) X(Named, 0) X(Conjugate, 0) X(Negative, 0) X(ZeroTensor, 0)                \
    X(ADInplaceOrView, 0) X(AutogradOther, 0) X(AutogradFunctionality, 1)                          \
    X(AutogradNestedTensor, 0) X(Tracer, 0) X(AutocastCPU, 0) X(AutocastXPU, 0)                    \
    X(AutocastIPU, 0) X(AutocastHPU, 0) X(AutocastXLA, 0) X(AutocastMPS, 0) X(AutocastCUDA, 0)     \
    X(AutocastPrivateUse1, 0) X(FuncTorchBatched, 0) X(BatchedNestedTensor, 0)                     \
    X(FuncTorchVmapMode, 0) X(Batched, 0) X(VmapMode, 0) X(FuncTorchGradWrapper, 0)                \
    X(DeferredInit, 0) X(PythonTLSSnapshot, 0) X(FuncTorchDynamicLayerFrontMode, 0)                \
    X(TESTING_ONLY_GenericWrapper, 0) X(TESTING_ONLY_GenericMode, 0) X(PreDispatch, 0)             \
    X(PythonDispatcher, 0)

/* The six per-backend functionalities and the prefix of their runtime keys. */
#define CT_FOREACH_PER_BACKEND_FUNCTIONALITY(X)                                                    \
    X(Dense, ) X(Quantized, Quantized) X(Sparse, Sparse) X(SparseCsr, SparseCsr)                   \
    X(NestedTensor, NestedTensor) X(AutogradFunctionality, Autograd)

#define CT_FOREACH_ALIAS_KEY(X)                                                                    \
    X(Autograd) X(CompositeImplicitAutograd) X(FuncTorchBatchedDecomposition)                      \
    X(CompositeImplicitAutogradNestedTensor) X(CompositeExplicitAutograd)                          \
    X(CompositeExplicitAutogradNonFunctional)

/* X(backend, arg) for each backend, in order: expands runtime key names. */
#define CT_FOREACH_BACKEND_WITH(X, p)                                                              \
    X(CPU, p) X(CUDA, p) X(HIP, p) X(XLA, p) X(MPS, p) X(IPU, p) X(XPU, p) X(HPU, p) X(VE, p)      \
    X(Lazy, p) X(MTIA, p) X(PrivateUse1, p) X(PrivateUse2, p) X(PrivateUse3, p) X(Meta, p)

/*
 * ct_dispatch_key: one enum for functionality keys (0..46), the per-backend runtime
 * keys (48..143, e.g. CT_KEY_CPU = 49, CT_KEY_AutogradCPU = 129) and the alias keys
 * (144..149). The numeric values equal torch._C.DispatchKey's in PyTorch 2.6.
 */
typedef enum ct_dispatch_key {
#define CT_X_(n, pb) CT_KEY_##n,
    CT_FOREACH_FUNCTIONALITY(CT_X_)
#undef CT_X_
    CT_KEY_EndOfFunctionalityKeys, /* 47 */
/* Runtime keys: StartOf<F>Backends, then one per backend. */
#define CT_X_B_(b, prefix) CT_KEY_##prefix##b,
#define CT_X_(f, prefix) CT_KEY_StartOf##f##Backends, CT_FOREACH_BACKEND_WITH(CT_X_B_, prefix)
    CT_FOREACH_PER_BACKEND_FUNCTIONALITY(CT_X_)
#undef CT_X_
#undef CT_X_B_
    /* alias keys follow AutogradMeta directly (Autograd = 144) */
#define CT_X_(n) CT_KEY_##n,
    CT_FOREACH_ALIAS_KEY(CT_X_)
#undef CT_X_
    CT_KEY_COUNT
} ct_dispatch_key;

#define CT_KEY_StartOfAliasKeys CT_KEY_Autograd
#define CT_NUM_FUNCTIONALITY_KEYS ((int)CT_KEY_EndOfFunctionalityKeys) /* 47 */
/* How many functionalities are per-backend: counted from CT_FOREACH_FUNCTIONALITY's flags (6). */
#define CT_X_PER_BACKEND_COUNT_(n, pb) +(pb)
#define CT_NUM_PER_BACKEND_FUNCTIONALITIES (0 CT_FOREACH_FUNCTIONALITY(CT_X_PER_BACKEND_COUNT_))
/* Slots in a per-operator dispatch table, computed as PyTorch does:
 * one per functionality, num_backends per per-backend functionality. */
#define CT_NUM_RUNTIME_ENTRIES                                                                     \
    (CT_NUM_FUNCTIONALITY_KEYS + CT_NUM_PER_BACKEND_FUNCTIONALITIES * (CT_NUM_BACKENDS - 1))

/* A dispatch key set: PyTorch's 64-bit representation (see Note [Key set layout]). */
typedef uint64_t ct_keyset;

#define CT_KEYSET_EMPTY ((ct_keyset)0)
/* The bit of functionality key k (1 <= k < 47) / of backend b (1 <= b <= 15). Constant expressions. */
#define CT_FUNCTIONALITY_BIT(k) (((ct_keyset)1) << (CT_NUM_BACKENDS + (int)(k)-1))
#define CT_BACKEND_BIT(b) (((ct_keyset)1) << ((int)(b)-1))
#define CT_BACKEND_BITS_MASK ((((ct_keyset)1) << CT_NUM_BACKENDS) - 1)

/* Named key sets of c10/core/DispatchKeySet.h, each defined once here as a constant expression
 * (the ct_*_keyset functions below return these). */
/* DispatchKeySet(FULL_AFTER, k) for a functionality key k: every bit below k's, plus PythonDispatcher. */
#define CT_FULL_AFTER(k) ((CT_FUNCTIONALITY_BIT(k) - 1) | CT_FUNCTIONALITY_BIT(CT_KEY_PythonDispatcher))
/* autograd_dispatch_keyset */
#define CT_AUTOGRAD_KEYSET                                                                          \
    (CT_FUNCTIONALITY_BIT(CT_KEY_AutogradFunctionality) | CT_FUNCTIONALITY_BIT(CT_KEY_AutogradOther) | \
     CT_FUNCTIONALITY_BIT(CT_KEY_AutogradNestedTensor))
#define CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW (CT_AUTOGRAD_KEYSET | CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView))
#define CT_AFTER_AUTOGRAD_KEYSET CT_FULL_AFTER(CT_KEY_AutogradOther)
#define CT_AFTER_ADINPLACEORVIEW_KEYSET CT_FULL_AFTER(CT_KEY_ADInplaceOrView)
/* python_ks */
#define CT_PYTHON_KEYSET (CT_FUNCTIONALITY_BIT(CT_KEY_Python) | CT_FUNCTIONALITY_BIT(CT_KEY_PythonTLSSnapshot))
/* autocast_dispatch_keyset: the Autocast functionalities, which CT_FOREACH_FUNCTIONALITY lists
 * together from AutocastCPU to AutocastPrivateUse1 (a range of bits; its size is checked in
 * src/dispatch/keys.c against PyTorch's eight) */
#define CT_AUTOCAST_FIRST_KEY CT_KEY_AutocastCPU
#define CT_AUTOCAST_LAST_KEY CT_KEY_AutocastPrivateUse1
#define CT_AUTOCAST_KEYSET                                                                          \
    ((CT_FUNCTIONALITY_BIT(CT_AUTOCAST_LAST_KEY) << 1) - CT_FUNCTIONALITY_BIT(CT_AUTOCAST_FIRST_KEY))

/* Name of a key as PyTorch's toString(DispatchKey) prints it ("AutogradCPU"). Never NULL. */
CT_API const char *ct_key_name(ct_dispatch_key k);
/* Key from its name, or -1 if unknown. */
CT_API int ct_key_from_name(const char *name);

/* The set holding exactly key k (two bits for a per-backend runtime key, none for aliases). */
CT_API ct_keyset ct_keyset_of(ct_dispatch_key k);
CT_API bool ct_keyset_has(ct_keyset ks, ct_dispatch_key k);
/* PyTorch's `a - b`: removes only functionality bits; backend bits stay. */
static inline ct_keyset ct_keyset_sub(ct_keyset a, ct_keyset b) {
    return a & (CT_BACKEND_BITS_MASK | ~b);
}
/* Highest-priority runtime key of the set (highestPriorityTypeId), CT_KEY_Undefined if empty. */
CT_API ct_dispatch_key ct_keyset_highest(ct_keyset ks);
/* DispatchKeySet(FULL_AFTER, k): every bit strictly below k's functionality bit, plus PythonDispatcher. */
CT_API ct_keyset ct_keyset_full_after(ct_dispatch_key k);
/* DispatchKeySet(FULL). */
CT_API ct_keyset ct_keyset_full(void);

/* Writes "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)" into buf (always
 * NUL-terminated when size > 0). Returns the length the full string needs, like snprintf. */
CT_API size_t ct_keyset_format(ct_keyset ks, char *buf, size_t size);

/* Named sets from c10/core/DispatchKeySet.h (the CT_*_KEYSET macros above, as functions). */
CT_API ct_keyset ct_autograd_dispatch_keyset(void);                   /* {AutogradFunctionality, AutogradOther, AutogradNestedTensor} */
CT_API ct_keyset ct_autograd_dispatch_keyset_with_ADInplaceOrView(void);
CT_API ct_keyset ct_after_autograd_keyset(void);                      /* FULL_AFTER(AutogradOther) */
CT_API ct_keyset ct_after_ADInplaceOrView_keyset(void);               /* FULL_AFTER(ADInplaceOrView) */
CT_API ct_keyset ct_python_ks(void);                                   /* {Python, PythonTLSSnapshot} */

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_KEYS_H */
