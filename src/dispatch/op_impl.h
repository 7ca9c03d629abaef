/* Internal layout of operators: parsed schema, registrations, computed dispatch table. */
#ifndef CT_OP_IMPL_H
#define CT_OP_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/keys_impl.h"
#include "ctorch/dispatch.h"

#define CT_MAX_OP_ARGS 16
#define CT_MAX_OP_RETS 6

/* Declared argument types of a schema. */
typedef enum ct_argtype {
    CT_TY_TENSOR,
    CT_TY_INT,         /* int and SymInt */
    CT_TY_FLOAT,
    CT_TY_BOOL,
    CT_TY_SCALAR,
    CT_TY_SCALARTYPE,
    CT_TY_LAYOUT,
    CT_TY_DEVICE,
    CT_TY_MEMFMT,
    CT_TY_GENERATOR,
    CT_TY_STR,
    CT_TY_INTLIST,     /* int[], int[N], SymInt[] */
    CT_TY_TENSORLIST,
    CT_TY_STRLIST,
    CT_TY_BOOLLIST,    /* bool[N]: boxed as an int list of 0 and 1 */
    CT_TY_OBJECT,      /* __torch__.torch.classes.* */
    CT_TY_NONE         /* "()" returns */
} ct_argtype;

typedef struct ct_arg {
    char *name;          /* may be "" for unnamed returns */
    char *type_text;     /* as written, e.g. "Tensor(a!)", "int[1]?" */
    ct_argtype type;
    bool optional;
    bool optional_elems; /* Tensor?[]: the list's items may be None (NULL) */
    bool kwarg_only;
    char alias;          /* 'a'.. for Tensor(a), 0 if none */
    bool alias_write;    /* Tensor(a!) */
    bool has_default;
    char *default_text;  /* as written */
    ct_value default_value;
    int64_t *default_list; /* storage for an int-list default */
    char *default_str;     /* storage for a string default */
} ct_arg;

/* A registration stored under a key (runtime or alias). */
typedef struct ct_registration {
    bool present;
    bool fallthrough;
    ct_kernel_fn fn;
    const char *where;
} ct_registration;

/* Note [Tables read while a kernel is registered]
 *   Registration rewrites an op's table under the registry's lock while other threads may be
 *   dispatching the same op without one (as PyTorch's Dispatcher does). Every field a call reads
 *   is therefore an atomic written and read with relaxed order (a plain load on x86-64 and
 *   AArch64): a concurrent call sees either the old or the new entry of a slot, never a torn one. */
typedef struct ct_slot_meta {
    _Atomic unsigned char kind;   /* ct_slot_kind */
    atomic_bool fallthrough;
    const char *_Atomic where;
} ct_slot_meta;

struct ct_op {
    int id;
    char *name;          /* "aten::add.Tensor" */
    char *base_name;     /* "aten::add" */
    char *overload;      /* "Tensor" or "" */
    char *python_name;   /* "aten.add.Tensor" */
    const char *python_module; /* "nn" (native_functions.yaml's python_module: torch.nn.<name>), or NULL */
    char *schema;        /* "aten::add.Tensor(Tensor self, ...) -> Tensor" */
    const char *def_where;
    int nargs, nrets;
    ct_arg args[CT_MAX_OP_ARGS];
    ct_arg rets[CT_MAX_OP_RETS];
    bool inplace;        /* first argument is Tensor(a!) and is returned */
    bool view;           /* returns an alias of an input without writing it */
    bool unobserved;     /* the profiler records no event for it (profiler:: ops, which PyTorch filters) */
    bool mutates;        /* some argument is written (Tensor(a!), Tensor(a!)[]): in-place and out= ops */
    bool other_backend_kernel; /* PyTorch registers a kernel for a backend ctorch lacks that AutogradOther serves */
    uint32_t dispatch_args;  /* bit i: argument i carries a key set (Tensor, Tensor?, Generator) */
    _Atomic ct_keyset non_fallthrough;
    _Atomic(ct_kernel_fn) fns[CT_NUM_RUNTIME_ENTRIES]; /* hot: what ct_call jumps to */
    ct_slot_meta meta[CT_NUM_RUNTIME_ENTRIES];
    ct_registration regs[CT_KEY_COUNT];
    /* profiler: per-op counters kept beside the table (Redis-style) */
    int64_t calls;
};

/* The kernel in slot `slot` of op's table, and the op's non-fallthrough key set (relaxed loads:
 * Note [Tables read while a kernel is registered]). */
static inline ct_kernel_fn ct_op_kernel(const ct_op *op, int slot) {
    return atomic_load_explicit(&op->fns[slot], memory_order_relaxed);
}
static inline ct_keyset ct_op_nonfallthrough(const ct_op *op) {
    return atomic_load_explicit(&op->non_fallthrough, memory_order_relaxed);
}

/* Parses `schema` into op (names, args, returns). Returns 0 or -1 with a RuntimeError. */
int ct_schema_parse(const char *schema, ct_op *op);
void ct_schema_free(ct_op *op);
/* Recomputes op's whole table from its registrations and the global fallbacks. */
void ct_op_update_table(ct_op *op);

/* Keys that ctorch computes table entries for (the runtime keys it implements). */
extern const ct_dispatch_key ct_implemented_runtime_keys[];
extern const int ct_num_implemented_runtime_keys;

/* Default kernel shown for a slot that has nothing: raises PyTorch's "Could not run" error. */
int ct_missing_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets);

#endif
