/* The operator registry: operator definitions, kernel registrations, backend fallbacks, and
 * the per-operator dispatch tables computed from them with PyTorch's precedence
 * (OperatorEntry::computeDispatchTableEntryWithDebug). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "dispatch/op_impl.h"
#include "core/startup.h"
#include "util/strbuf.h"

/* Note [Op lookup while another thread defines an op]
 *   Operators live for the process in an append-only list of fixed-capacity segments: segment s
 *   holds OP_SEG0 << s pointers and is never moved or freed, so growing the list never relocates
 *   what a reader is looking at. A writer (under registry_lock) fills the op's table, stores its
 *   pointer (and a new segment's pointer) and only then publishes the new count with a release
 *   store; readers (ct_op_find, ct_op_at, ct_op_count) take no lock and load the count with
 *   acquire, so every op below it is fully visible to them. */
#define OP_SEG0 256
#define OP_SEGMENTS 20 /* 256 * (2^20 - 1) operators */
static ct_op **op_segments[OP_SEGMENTS];
static atomic_int n_ops; /* published count; written under registry_lock */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* segment and index within it of op i */
static inline ct_op **op_slot(int i) {
    unsigned q = (unsigned)i / OP_SEG0 + 1;
    int s = 31 - __builtin_clz(q);
    return &op_segments[s][i - (int)(((1u << s) - 1) * OP_SEG0)];
}
static inline int published_ops(void) { return atomic_load_explicit(&n_ops, memory_order_acquire); }

/* Backend fallbacks, one per runtime slot. */
static ct_registration fallbacks[CT_NUM_RUNTIME_ENTRIES];

const ct_dispatch_key ct_implemented_runtime_keys[] = {
    CT_KEY_Undefined,       CT_KEY_CPU,          CT_KEY_BackendSelect,     CT_KEY_Python,
    CT_KEY_ADInplaceOrView, CT_KEY_AutogradOther, CT_KEY_AutogradCPU,      CT_KEY_AutocastCPU,
    CT_KEY_PythonTLSSnapshot, CT_KEY_PythonDispatcher,
};
const int ct_num_implemented_runtime_keys =
    (int)(sizeof ct_implemented_runtime_keys / sizeof ct_implemented_runtime_keys[0]);

/* Note [Start-up] in core/startup.h: the registry's entry points refuse before ct_init(), which
 * defines the built-in operators and the fallbacks every table is computed from. */
int ct_op_count(void) {
    if (!ct_library_started()) return ct_error_not_started("ct_op_count");
    return published_ops();
}
const ct_op *ct_op_at(int i) {
    if (!ct_library_started()) {
        ct_error_not_started("ct_op_at");
        return NULL;
    }
    return i >= 0 && i < published_ops() ? *op_slot(i) : NULL;
}

const char *ct_op_name(const ct_op *op) { return op->name; }
const char *ct_op_base_name(const ct_op *op) { return op->base_name; }
const char *ct_op_overload(const ct_op *op) { return op->overload; }
const char *ct_op_python_name(const ct_op *op) { return op->python_name; }
const char *ct_op_python_module(const ct_op *op) { return op->python_module; }
const char *ct_op_schema(const ct_op *op) { return op->schema; }
int ct_op_num_args(const ct_op *op) { return op->nargs; }
int ct_op_num_returns(const ct_op *op) { return op->nrets; }
const char *ct_op_arg_name(const ct_op *op, int i) { return i >= 0 && i < op->nargs ? op->args[i].name : NULL; }

/* The public kinds are the parser's types, value for value. */
_Static_assert((int)CT_ARG_TENSOR == (int)CT_TY_TENSOR && (int)CT_ARG_INT == (int)CT_TY_INT &&
                   (int)CT_ARG_FLOAT == (int)CT_TY_FLOAT && (int)CT_ARG_BOOL == (int)CT_TY_BOOL &&
                   (int)CT_ARG_SCALAR == (int)CT_TY_SCALAR && (int)CT_ARG_SCALARTYPE == (int)CT_TY_SCALARTYPE &&
                   (int)CT_ARG_LAYOUT == (int)CT_TY_LAYOUT && (int)CT_ARG_DEVICE == (int)CT_TY_DEVICE &&
                   (int)CT_ARG_MEMORY_FORMAT == (int)CT_TY_MEMFMT && (int)CT_ARG_GENERATOR == (int)CT_TY_GENERATOR &&
                   (int)CT_ARG_STRING == (int)CT_TY_STR && (int)CT_ARG_INTLIST == (int)CT_TY_INTLIST &&
                   (int)CT_ARG_TENSORLIST == (int)CT_TY_TENSORLIST && (int)CT_ARG_STRINGLIST == (int)CT_TY_STRLIST &&
                   (int)CT_ARG_BOOLLIST == (int)CT_TY_BOOLLIST &&
                   (int)CT_ARG_OBJECT == (int)CT_TY_OBJECT && (int)CT_ARG_NONE == (int)CT_TY_NONE,
               "ct_arg_kind must mirror ct_argtype");

static int arg_info(const ct_op *op, int i, bool ret, ct_arg_info *out) {
    if (!op || !out) return ct_error_set(CT_ERR_VALUE, "ct_op_%s_info: NULL argument", ret ? "return" : "arg");
    int n = ret ? op->nrets : op->nargs;
    if (i < 0 || i >= n)
        return ct_error_set(CT_ERR_INDEX, "%s has %d %s, asked for %d", op->name, n, ret ? "returns" : "arguments", i);
    const ct_arg *a = ret ? &op->rets[i] : &op->args[i];
    out->name = a->name;
    out->type = a->type_text;
    out->kind = (ct_arg_kind)a->type;
    out->optional = a->optional;
    out->optional_elems = a->optional_elems;
    out->kwarg_only = a->kwarg_only;
    out->writes = a->alias_write;
    out->has_default = a->has_default;
    out->default_value = a->has_default ? a->default_value : ct_none();
    return 0;
}

int ct_op_arg_info(const ct_op *op, int i, ct_arg_info *out) { return arg_info(op, i, false, out); }
int ct_op_return_info(const ct_op *op, int i, ct_arg_info *out) { return arg_info(op, i, true, out); }

/* Searches the published ops (safe with or without registry_lock; see the Note above). */
static ct_op *find_published(const char *name, size_t len) {
    int n = published_ops();
    for (int i = 0; i < n; i++) {
        ct_op *op = *op_slot(i);
        if (strlen(op->name) == len && strncmp(op->name, name, len) == 0) return op;
    }
    return NULL;
}

const ct_op *ct_op_find(const char *qualified_name) {
    if (!qualified_name) {
        ct_error_set(CT_ERR_VALUE, "ct_op_find: name is NULL");
        return NULL;
    }
    if (!ct_library_started()) {
        ct_error_not_started("ct_op_find");
        return NULL;
    }
    size_t len = strlen(qualified_name);
    const char *dot = strrchr(qualified_name, '.');
    if (dot && strcmp(dot, ".default") == 0) len = (size_t)(dot - qualified_name);
    ct_op *op = find_published(qualified_name, len);
    if (!op) {
        ct_error_set(CT_ERR_RUNTIME, "Could not find schema for %s.", qualified_name);
        return NULL;
    }
    return op;
}

/* ---- alias key runtime sets (getRuntimeDispatchKeySet / runtimeDispatchKeySetHas) ---- */

static ct_keyset backend_dispatch_keyset(void) {
    /* autogradother_backends | Dense, with every backend bit */
    return CT_BACKEND_BITS_MASK | CT_FUNCTIONALITY_BIT(CT_KEY_FPGA) | CT_FUNCTIONALITY_BIT(CT_KEY_MAIA) |
           CT_FUNCTIONALITY_BIT(CT_KEY_Vulkan) | CT_FUNCTIONALITY_BIT(CT_KEY_Metal) |
           CT_FUNCTIONALITY_BIT(CT_KEY_CustomRNGKeyId) | CT_FUNCTIONALITY_BIT(CT_KEY_MkldnnCPU) |
           CT_FUNCTIONALITY_BIT(CT_KEY_Sparse) | CT_FUNCTIONALITY_BIT(CT_KEY_SparseCsr) |
           CT_FUNCTIONALITY_BIT(CT_KEY_Quantized) | CT_FUNCTIONALITY_BIT(CT_KEY_Dense);
}

static ct_keyset autograd_runtime_keyset(void) { return ct_autograd_dispatch_keyset() | CT_BACKEND_BITS_MASK; }

static bool alias_has(ct_dispatch_key alias, ct_dispatch_key k) {
    ct_keyset kbits = ct_keyset_of(k);
    if (kbits == 0) return false;
    ct_keyset set;
    switch (alias) {
    case CT_KEY_Autograd: set = autograd_runtime_keyset(); break;
    case CT_KEY_CompositeExplicitAutograd:
    case CT_KEY_CompositeExplicitAutogradNonFunctional: set = backend_dispatch_keyset(); break;
    case CT_KEY_CompositeImplicitAutograd:
        set = backend_dispatch_keyset() | autograd_runtime_keyset() | CT_FUNCTIONALITY_BIT(CT_KEY_NestedTensor) |
              CT_FUNCTIONALITY_BIT(CT_KEY_Functionalize);
        break;
    default: return false;
    }
    return (set & kbits) == kbits;
}

/* getBackendKeySetFromAutograd: the backend keys an autograd key serves. */
static bool has_backend_kernel_for_autograd_key(const ct_op *op, ct_dispatch_key k) {
    if (k == CT_KEY_AutogradOther) {
        /* autogradother backends: ctorch has none of them, but an op may say PyTorch registers a
         * kernel for one (CT_OTHER_BACKEND_KERNEL in ops.def) */
        return op->other_backend_kernel;
    }
    if (k >= CT_KEY_AutogradCPU && k <= CT_KEY_AutogradMeta) {
        ct_dispatch_key backend = (ct_dispatch_key)(CT_KEY_CPU + (k - CT_KEY_AutogradCPU));
        return op->regs[backend].present;
    }
    return false;
}

/* The kernel of an ambiguous AutogradOther slot (unreachable with CPU tensors). */
static int ct_ambiguous_autogradother_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    (void)args;
    (void)rets;
    return ct_error_set(CT_ERR_RUNTIME,
                        "%s has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. "
                        "This makes the backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd "
                        "lowering (see Note: [Disjoint AliasKeyset The dispatcher picks kernels in the following order]). If you want "
                        "to override CompositeImplicitAutograd, please open an issue to request a dedicated Autograd dispatch key for the backend.",
                        op->name);
}

static ct_slot_info compute_entry(const ct_op *op, ct_dispatch_key k) {
    ct_slot_info r = {CT_SLOT_MISSING, false, NULL, ""};
    const ct_registration *reg;
#define TAKE(regp, kind_)                                                                         \
    do {                                                                                          \
        r.kind = (kind_);                                                                         \
        r.fallthrough = (regp)->fallthrough;                                                      \
        r.fn = (regp)->fallthrough ? NULL : (regp)->fn;                                           \
        r.where = (regp)->where;                                                                  \
        return r;                                                                                 \
    } while (0)
    /* 1. a kernel registered directly for k */
    if ((int)k < CT_KEY_COUNT && op->regs[k].present) TAKE(&op->regs[k], CT_SLOT_KERNEL);
    /* 2.1 / 2.2 CompositeExplicitAutogradNonFunctional, then CompositeExplicitAutograd */
    reg = &op->regs[CT_KEY_CompositeExplicitAutogradNonFunctional];
    if (reg->present && (k == CT_KEY_Undefined || alias_has(CT_KEY_CompositeExplicitAutogradNonFunctional, k)))
        TAKE(reg, CT_SLOT_DEFAULT_BACKEND);
    reg = &op->regs[CT_KEY_CompositeExplicitAutograd];
    if (reg->present && (k == CT_KEY_Undefined || alias_has(CT_KEY_CompositeExplicitAutograd, k)))
        TAKE(reg, CT_SLOT_DEFAULT_BACKEND);
    /* 2.3 CompositeImplicitAutograd, unless (for autograd keys) the backend has its own kernel */
    bool has_backend_kernel = has_backend_kernel_for_autograd_key(op, k) ||
                              op->regs[CT_KEY_CompositeExplicitAutograd].present;
    reg = &op->regs[CT_KEY_CompositeImplicitAutograd];
    if (reg->present && k == CT_KEY_AutogradOther && op->other_backend_kernel) {
        /* ambiguousAutogradOtherKernel (Note [Ambiguity in AutogradOther kernel]) */
        r.kind = CT_SLOT_AMBIGUOUS_AUTOGRADOTHER;
        r.fn = ct_ambiguous_autogradother_kernel;
        r.where = "ambiguous_autogradother";
        return r;
    }
    if (reg->present && (k == CT_KEY_Undefined || alias_has(CT_KEY_CompositeImplicitAutograd, k)) &&
        !has_backend_kernel)
        TAKE(reg, CT_SLOT_MATH);
    /* 2.4 the Autograd alias for autograd keys */
    reg = &op->regs[CT_KEY_Autograd];
    if (reg->present && alias_has(CT_KEY_Autograd, k)) TAKE(reg, CT_SLOT_AUTOGRAD);
    /* 3. backend fallback */
    int slot = ct_runtime_slot_of_key(k);
    if (slot >= 0 && fallbacks[slot].present) TAKE(&fallbacks[slot], CT_SLOT_FALLBACK);
#undef TAKE
    /* 4. missing */
    return r;
}

void ct_op_update_table(ct_op *op) {
    for (int slot = 0; slot < CT_NUM_RUNTIME_ENTRIES; slot++) {
        ct_dispatch_key k = ct_key_of_slot(slot);
        ct_slot_info e = compute_entry(op, k);
        atomic_store_explicit(&op->meta[slot].kind, (unsigned char)e.kind, memory_order_relaxed);
        atomic_store_explicit(&op->meta[slot].fallthrough, e.fallthrough, memory_order_relaxed);
        atomic_store_explicit(&op->meta[slot].where, e.where, memory_order_relaxed);
        atomic_store_explicit(&op->fns[slot], e.kind == CT_SLOT_MISSING ? ct_missing_kernel : e.fn,
                              memory_order_relaxed);
    }
    /* Note [Fallthrough masking]: a key whose slot is a fallthrough is removed from the
     * op's non-fallthrough set, so it can never win (DispatchKeyExtractor::
     * setOperatorHasFallthroughForKey). For per-backend functionalities ctorch has only
     * the CPU backend, so the CPU slot decides. */
    ct_keyset nf = ~(ct_keyset)0;
    for (int f = 1; f < CT_NUM_FUNCTIONALITY_KEYS; f++) {
        ct_dispatch_key k = (ct_dispatch_key)f;
        if (ct_functionality_per_backend[f]) /* its CPU runtime key: CPU, AutogradCPU, SparseCPU, ... */
            k = ct_keyset_highest(CT_FUNCTIONALITY_BIT(f) | CT_BACKEND_BIT(CT_BACKEND_CPU));
        int slot = ct_runtime_slot_of_key(k);
        if (atomic_load_explicit(&op->meta[slot].fallthrough, memory_order_relaxed)) nf &= ~CT_FUNCTIONALITY_BIT(f);
    }
    atomic_store_explicit(&op->non_fallthrough, nf, memory_order_relaxed);
}

static void update_all_tables(void) {
    int n = atomic_load_explicit(&n_ops, memory_order_relaxed); /* under registry_lock */
    for (int i = 0; i < n; i++) ct_op_update_table(*op_slot(i));
}

const ct_op *ct_op_define(const char *schema, const char *where) {
    if (!ct_library_started()) {
        ct_error_not_started("ct_op_define");
        return NULL;
    }
    ct_op *op = ct_calloc(1, sizeof *op);
    if (!op) return NULL;
    if (ct_schema_parse(schema, op) != 0) {
        ct_free(op);
        return NULL;
    }
    op->def_where = where ? where : "";
    /* the profiler's own range ops: PyTorch drops their events (_filter_name), and the user range
     * they open outlives them, so they are not recorded at all */
    op->unobserved = strncmp(op->name, "profiler::", 10) == 0;
    pthread_mutex_lock(&registry_lock);
    ct_op *dup = find_published(op->name, strlen(op->name));
    if (dup) {
        pthread_mutex_unlock(&registry_lock);
        ct_error_set(CT_ERR_RUNTIME,
                     "Tried to register an operator (%s) with the same name and overload name multiple times. "
                     "Each overload's schema should only be registered with a single call to def(). "
                     "Duplicate registration: registered at %s. Original registration: registered at %s",
                     op->schema, op->def_where, dup->def_where);
        ct_schema_free(op);
        ct_free(op);
        return NULL;
    }
    int n = atomic_load_explicit(&n_ops, memory_order_relaxed);
    unsigned q = (unsigned)n / OP_SEG0 + 1;
    int seg = 31 - __builtin_clz(q);
    if (seg >= OP_SEGMENTS) {
        pthread_mutex_unlock(&registry_lock);
        ct_error_set(CT_ERR_RUNTIME, "ct_op_define: too many operators (%d)", n);
        ct_schema_free(op);
        ct_free(op);
        return NULL;
    }
    if (!op_segments[seg]) {
        /* a fresh segment, never freed or moved (the operators live for the process) */
        ct_op **block = ct_calloc((size_t)OP_SEG0 << seg, sizeof *block);
        if (!block) {
            pthread_mutex_unlock(&registry_lock);
            ct_schema_free(op);
            ct_free(op);
            return NULL;
        }
        op_segments[seg] = block;
    }
    op->id = n;
    ct_op_update_table(op); /* complete before any reader can see it */
    *op_slot(n) = op;
    atomic_store_explicit(&n_ops, n + 1, memory_order_release);
    pthread_mutex_unlock(&registry_lock);
    return op;
}

static bool registrable_key(ct_dispatch_key key) {
    int k = (int)key;
    if (k <= 0 || k >= CT_KEY_COUNT || k == CT_KEY_EndOfFunctionalityKeys) return false;
    /* per-backend functionalities are not registrable themselves (use CPU / AutogradCPU) */
    if (k < CT_NUM_FUNCTIONALITY_KEYS && ct_functionality_per_backend[k]) return false;
    return true;
}

static int do_register(const ct_op *cop, ct_dispatch_key key, ct_kernel_fn fn, bool fallthrough, const char *where) {
    if (!cop) return ct_error_set(CT_ERR_VALUE, "register: op is NULL");
    if (!registrable_key(key)) return ct_error_set(CT_ERR_VALUE, "register: %s is not a key kernels can be registered for", ct_key_name(key));
    if (!fallthrough && !fn) return ct_error_set(CT_ERR_VALUE, "register: kernel function is NULL");
    ct_op *op = (ct_op *)cop;
    pthread_mutex_lock(&registry_lock);
    op->regs[key].present = true;
    op->regs[key].fallthrough = fallthrough;
    op->regs[key].fn = fn;
    op->regs[key].where = where ? where : "";
    ct_op_update_table(op);
    pthread_mutex_unlock(&registry_lock);
    return 0;
}

int ct_register_kernel(const ct_op *op, ct_dispatch_key key, ct_kernel_fn fn, const char *where) {
    return do_register(op, key, fn, false, where);
}

int ct_register_fallthrough(const ct_op *op, ct_dispatch_key key, const char *where) {
    if (key >= CT_KEY_StartOfAliasKeys) return ct_error_set(CT_ERR_VALUE, "register: a fallthrough needs a runtime key, not %s", ct_key_name(key));
    return do_register(op, key, NULL, true, where);
}

int ct_deregister_kernel(const ct_op *cop, ct_dispatch_key key) {
    if (!cop) return ct_error_set(CT_ERR_VALUE, "deregister: op is NULL");
    ct_op *op = (ct_op *)cop;
    pthread_mutex_lock(&registry_lock);
    if ((int)key <= 0 || (int)key >= CT_KEY_COUNT || !cop->regs[key].present) {
        pthread_mutex_unlock(&registry_lock);
        return ct_error_set(CT_ERR_RUNTIME, "deregister: %s has no registration for %s", cop->name, ct_key_name(key));
    }
    memset(&op->regs[key], 0, sizeof op->regs[key]);
    ct_op_update_table(op);
    pthread_mutex_unlock(&registry_lock);
    return 0;
}

int ct_register_fallback(ct_dispatch_key key, ct_kernel_fn fn, const char *where) {
    if (!ct_library_started()) return ct_error_not_started("ct_register_fallback");
    int slot = ct_runtime_slot_of_key(key);
    if (slot < 0 || key == CT_KEY_Undefined) return ct_error_set(CT_ERR_VALUE, "register_fallback: %s is not a runtime key", ct_key_name(key));
    pthread_mutex_lock(&registry_lock);
    fallbacks[slot].present = true;
    fallbacks[slot].fallthrough = fn == NULL;
    fallbacks[slot].fn = fn;
    fallbacks[slot].where = where ? where : "";
    update_all_tables();
    pthread_mutex_unlock(&registry_lock);
    return 0;
}

ct_slot_info ct_op_slot(const ct_op *op, ct_dispatch_key k) {
    ct_slot_info r = {CT_SLOT_MISSING, false, NULL, ""};
    int slot = ct_runtime_slot_of_key(k);
    if (!op || slot < 0) return r;
    r.kind = (ct_slot_kind)atomic_load_explicit(&op->meta[slot].kind, memory_order_relaxed);
    r.fallthrough = atomic_load_explicit(&op->meta[slot].fallthrough, memory_order_relaxed);
    r.fn = r.kind == CT_SLOT_MISSING || r.fallthrough ? NULL : ct_op_kernel(op, slot);
    const char *where = atomic_load_explicit(&op->meta[slot].where, memory_order_relaxed);
    r.where = where ? where : "";
    return r;
}

ct_keyset ct_op_non_fallthrough_keys(const ct_op *op) { return ct_op_nonfallthrough(op); }

const char *ct_slot_kind_name(ct_slot_kind kind) {
    switch (kind) {
    case CT_SLOT_KERNEL: return "kernel";
    case CT_SLOT_DEFAULT_BACKEND: return "default backend kernel";
    case CT_SLOT_MATH: return "math kernel";
    case CT_SLOT_AUTOGRAD: return "autograd kernel";
    case CT_SLOT_FALLBACK: return "backend fallback";
    case CT_SLOT_AMBIGUOUS_AUTOGRADOTHER: return "ambiguous autogradother";
    default: return "missing";
    }
}

/* ---- dumps ---- */

/* "(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0" like KernelFunction's debug signature */
static void signature_text(ct_strbuf *b, const ct_op *op) {
    ct_sb_printf(b, "(");
    for (int i = 0; i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        const char *ty = a->type_text;
        /* the signature form drops alias annotations */
        char tmp[64];
        size_t j = 0;
        for (const char *q = ty; *q && j < sizeof tmp - 1; q++) {
            if (*q == '(') {
                while (*q && *q != ')') q++;
                continue;
            }
            tmp[j++] = *q;
        }
        tmp[j] = '\0';
        ct_sb_printf(b, "%s%s _%d", i ? ", " : "", tmp, i);
    }
    ct_sb_printf(b, ") -> ");
    if (op->nrets == 1)
        ct_sb_printf(b, "%s _0", op->rets[0].type == CT_TY_TENSOR ? "Tensor" : op->rets[0].type_text);
    else {
        ct_sb_printf(b, "(");
        for (int i = 0; i < op->nrets; i++) ct_sb_printf(b, "%s%s _%d", i ? ", " : "", "Tensor", i);
        ct_sb_printf(b, ")");
    }
}

char *ct_op_dump(const ct_op *op) {
    if (!op) {
        ct_error_set(CT_ERR_VALUE, "ct_op_dump: op is NULL");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_printf(&b, "name: %s\nschema: %s\ndebug: registered at %s\nalias analysis kind: FROM_SCHEMA\n", op->name,
              op->schema, op->def_where);
    /* registrations: runtime keys in key order, then alias keys (like OperatorEntry::dumpState);
     * read under the lock registration writes them with */
    pthread_mutex_lock(&registry_lock);
    for (int k = 1; k < CT_KEY_COUNT; k++) {
        const ct_registration *r = &op->regs[k];
        if (!r->present) continue;
        ct_sb_printf(&b, "%s%s: %sregistered at %s :: ", ct_key_name((ct_dispatch_key)k),
                  k >= CT_KEY_StartOfAliasKeys ? "[alias]" : "", r->fallthrough ? "fallthrough " : "", r->where);
        if (r->fallthrough)
            ct_sb_printf(&b, "(none) [ fallthrough boxed ]\n");
        else {
            signature_text(&b, op);
            ct_sb_printf(&b, " [ boxed ]\n");
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return ct_sb_finish(&b);
}

char *ct_op_dump_table(const ct_op *op) {
    if (!op) {
        ct_error_set(CT_ERR_VALUE, "ct_op_dump_table: op is NULL");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    for (int i = 0; i < ct_num_implemented_runtime_keys; i++) {
        ct_dispatch_key k = ct_implemented_runtime_keys[i];
        ct_slot_info e = ct_op_slot(op, k);
        if (e.kind == CT_SLOT_MISSING) continue;
        if (e.kind == CT_SLOT_AMBIGUOUS_AUTOGRADOTHER) {
            ct_sb_printf(&b, "%s: ambiguous_autogradother [ambiguous autogradother]\n", ct_key_name(k));
            continue;
        }
        ct_sb_printf(&b, "%s: %sregistered at %s [%s]\n", ct_key_name(k), e.fallthrough ? "fallthrough " : "", e.where,
                  ct_slot_kind_name(e.kind));
    }
    return ct_sb_finish(&b);
}

int ct_missing_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)args;
    (void)rets;
    ct_dispatch_key k = ct_keyset_highest(ks);
    /* OperatorEntry::reportError: the keys that do have something, then the table itself.
     * (PyTorch's message also carries a line for its own mobile developers; ctorch leaves it out.) */
    char avail[1024];
    size_t len = 0;
    avail[0] = '\0';
    for (int i = 0; i < ct_num_implemented_runtime_keys; i++) {
        ct_slot_info e = ct_op_slot(op, ct_implemented_runtime_keys[i]);
        if (e.kind == CT_SLOT_MISSING || ct_implemented_runtime_keys[i] == CT_KEY_Undefined) continue;
        len += (size_t)snprintf(avail + len, len < sizeof avail ? sizeof avail - len : 0, "%s%s", len ? ", " : "",
                                ct_key_name(ct_implemented_runtime_keys[i]));
    }
    char *table = ct_op_dump_table(op);
    ct_error_set(CT_ERR_NOT_IMPLEMENTED,
                 "Could not run '%s' with arguments from the '%s' backend. This could be because the "
                 "operator doesn't exist for this backend, or was omitted during the selective/custom "
                 "build process (if using custom build). If you are a Facebook employee using PyTorch on mobile, please "
                 "visit https://fburl.com/ptmfixes for possible resolutions. '%s' is only available for these backends: "
                 "[%s].\n\n%s",
                 op->name, ct_key_name(k), op->name, avail, table ? table : "");
    ct_free(table);
    return -1;
}

int ct_op_fill_defaults(const ct_op *op, ct_value *args, int n_given) {
    if (!op || (!args && op->nargs > 0)) return ct_error_set(CT_ERR_VALUE, "ct_op_fill_defaults: NULL argument");
    if (n_given < 0) return ct_error_set(CT_ERR_VALUE, "ct_op_fill_defaults: n_given is %d", n_given);
    /* torch.ops' messages for the same counts (createStackForSchema) */
    if (n_given > op->nargs)
        return ct_error_set(CT_ERR_RUNTIME, "%s() expected at most %d argument(s) but received %d argument(s). Declaration: %s",
                            op->base_name, op->nargs, n_given, op->schema);
    for (int i = n_given; i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        if (a->has_default) {
            args[i] = a->default_value;
        } else {
            /* also an optional argument without a default (int[1]? dim of sum.dim_IntList):
             * torch.ops wants it given, if only as None */
            return ct_error_set(CT_ERR_RUNTIME, "%s() is missing value for argument '%s'. Declaration: %s", op->base_name,
                                a->name, op->schema);
        }
    }
    return 0;
}
