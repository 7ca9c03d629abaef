/*
 * ctorch/dispatch.h - operators, the dispatcher, thread-local key sets, registration.
 *
 * How a call is routed (PyTorch's rule, Dispatcher::call):
 *     ks = union of the key sets of the tensor (and generator) arguments
 *     ks = ((ks | tls_included) - tls_excluded) & op.non_fallthrough_keys
 *     kernel = op.table[index_of(highest key of ks)]
 * Kernels that pass a call on do so with ct_redispatch(op, ks & mask, ...), which extracts
 * nothing and reads no thread-local state. See docs/dispatcher.md.
 *
 * The operators exist once ct_init() (ctorch/init.h) has run: before it ct_op_find, ct_op_at,
 * ct_op_count, ct_op_define and ct_register_fallback fail with its RuntimeError
 * ("ct_op_find: ct_init() has not been called ...").
 */
#ifndef CTORCH_DISPATCH_H
#define CTORCH_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/export.h"
#include "ctorch/keys.h"
#include "ctorch/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_op ct_op;

/* The one kernel signature (see Note [Boxed calling convention] in value.h).
 * Returns 0, or -1 with the thread's error set and every ret slot CT_TAG_NONE. */
typedef int (*ct_kernel_fn)(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets);

/* ---- operators ---- */

/* Finds an operator by qualified name, "aten::addmm" or "aten::add.Tensor" (".default"
 * and a bare name mean the empty overload). Borrowed, valid for the process; NULL with a
 * RuntimeError if there is no such operator. */
CT_API const ct_op *ct_op_find(const char *qualified_name);
/* "aten::addmm" / "aten::add.Tensor" (toString(OperatorName)). */
CT_API const char *ct_op_name(const ct_op *op);
/* "aten::addmm": the name without overload, as the profiler records it. */
CT_API const char *ct_op_base_name(const ct_op *op);
/* "" or "Tensor". */
CT_API const char *ct_op_overload(const ct_op *op);
/* Python's str(OpOverload): "aten.addmm.default", "aten.add.Tensor". */
CT_API const char *ct_op_python_name(const ct_op *op);
/* The Python module of the operator's torch function, native_functions.yaml's python_module:
 * "nn" for aten::linear (torch._C._nn.linear, which function modes and their messages call
 * torch.nn.linear), NULL for one in the torch namespace or with none (an operator a program
 * defined). */
CT_API const char *ct_op_python_module(const ct_op *op);
/* What ct_call checks before dispatching, alone: 0 when args (ct_op_num_args(op) values; rets
 * may be NULL for an op without returns) are values of the schema's types, else -1 with the
 * error ct_call would set (PyTorch's words for the same mistake through torch.ops). Nothing runs. */
CT_API int ct_op_check_args(const ct_op *op, const ct_value *args, const ct_value *rets);
/* The full schema: "aten::addmm(Tensor self, Tensor mat1, ...) -> Tensor". */CT_API const char *ct_op_schema(const ct_op *op);
CT_API int ct_op_num_args(const ct_op *op);
CT_API int ct_op_num_returns(const ct_op *op);
/* Name of argument i ("self"), NULL if out of range. */
CT_API const char *ct_op_arg_name(const ct_op *op, int i);

/* What an argument or return of a schema is (torch.FunctionSchema's Argument). */
typedef enum ct_arg_kind {
    CT_ARG_TENSOR = 0,
    CT_ARG_INT,          /* int, SymInt */
    CT_ARG_FLOAT,
    CT_ARG_BOOL,
    CT_ARG_SCALAR,
    CT_ARG_SCALARTYPE,   /* passed as CT_TAG_INT holding a ct_dtype */
    CT_ARG_LAYOUT,       /* CT_TAG_INT (0 = strided) */
    CT_ARG_DEVICE,       /* CT_TAG_DEVICE */
    CT_ARG_MEMORY_FORMAT,/* CT_TAG_INT holding a ct_memory_format */
    CT_ARG_GENERATOR,
    CT_ARG_STRING,
    CT_ARG_INTLIST,      /* int[], int[N], SymInt[] */
    CT_ARG_TENSORLIST,
    CT_ARG_STRINGLIST,
    CT_ARG_BOOLLIST,     /* bool[N]: boxed as an int list of 0 and 1 */
    CT_ARG_OBJECT,       /* __torch__.torch.classes.* (CT_TAG_OBJECT) */
    CT_ARG_NONE          /* the "()" return */
} ct_arg_kind;

typedef struct ct_arg_info {
    const char *name;      /* "self"; "" for an unnamed return */
    const char *type;      /* as written in the schema: "Tensor(a!)", "int[1]?", "ScalarType?" */
    ct_arg_kind kind;
    bool optional;         /* "T?": None is accepted */
    bool optional_elems;   /* "Tensor?[]": the list's items may be None (NULL pointers) */
    bool kwarg_only;       /* after the schema's "*" */
    bool writes;           /* Tensor(a!): the op writes this argument */
    bool has_default;
    ct_value default_value;/* the default when has_default, else NONE; lists point into the op */
} ct_arg_info;

/* Fills *out for argument (or return) i of op. Strings and lists are borrowed from the op and
 * live for the process. Returns 0, or -1 with a ValueError (NULL op or out) or an IndexError (i
 * out of range). */
CT_API int ct_op_arg_info(const ct_op *op, int i, ct_arg_info *out);
CT_API int ct_op_return_info(const ct_op *op, int i, ct_arg_info *out);

/* Number of operators registered; ct_op_at(i) for 0 <= i < count. Before ct_init(): -1 and
 * NULL, with its error. */
CT_API int ct_op_count(void);
CT_API const ct_op *ct_op_at(int i);

/* Fills args[n_given .. num_args) from the schema's defaults, as torch.ops does for arguments
 * not passed (an optional argument without a default, like sum.dim_IntList's dim, must be
 * given, if only as None). Returns 0, or -1 with
 * torch.ops' RuntimeError for the count: "aten::add() is missing value for argument 'other'.
 * Declaration: <schema>" when one without a default is left out, "aten::add() expected at
 * most 3 argument(s) but received 4 argument(s). Declaration: <schema>" when n_given is over
 * the count; a ValueError for a NULL op or args, or a negative n_given. */
CT_API int ct_op_fill_defaults(const ct_op *op, ct_value *args, int n_given);

/* ---- calling ---- */

/* Dispatcher::call. args: exactly ct_op_num_args(op) values (borrowed); rets: room for
 * ct_op_num_returns(op) values, filled with new references on success. Before dispatching,
 * checks its caller as torch.ops does: a NULL op, args or rets is a ValueError; an argument
 * whose value is not of its schema type (a string where a Tensor belongs, None where the type
 * is not optional) is PyTorch's RuntimeError "aten::add() Expected a value of type 'Tensor'
 * for argument 'self' but instead found type 'str'.\nPosition: 0\nValue: 'x'\nDeclaration:
 * <schema>\nCast error details: Unable to cast x to Tensor" (None for a Tensor: "Expected a
 * proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'").
 * Values are typed: CT_TAG_INT for int, SymInt, ScalarType, Layout and MemoryFormat,
 * CT_TAG_DOUBLE for float, CT_TAG_BOOL for bool, any of the three for Scalar (Python's
 * conversions between them, and of numbers to tensors, are not made). The typed wrappers
 * (ct_add, ...) skip this check: their parameters already have the schema's types. */
CT_API int ct_call(const ct_op *op, ct_value *args, ct_value *rets);

/* The library's front door: how a call from a program or a language binding enters, the way the
 * typed wrappers (ct_addmm, ct_linear, ...) enter. The call is offered to the active function
 * modes first (ctorch/mode.h: as the function named by the op's base name, "addmm" for
 * aten::addmm, "my_op" for "myns::my_op.out"), then dispatched as ct_call does. Works for every
 * operator, built-in or defined at any time with ct_op_define; the func a handler receives is
 * valid for that call only. Arguments and returns follow ct_call's convention. 0 or -1.
 *
 * ct_op_invoke checks the values against the schema first, as ct_call does (torch.ops.ns.name).
 * ct_op_invoke_parsed is for a binding whose own parser has already matched every value to the
 * schema (each of its type, None only where optional, a list of N ints for int[N]): it does not
 * check them again, so the schema is checked once per call (the library's debug builds check and
 * stop on a value that does not match). A NULL op, args or rets is a ValueError for both. */
CT_API int ct_op_invoke(const ct_op *op, ct_value *args, ct_value *rets);
CT_API int ct_op_invoke_parsed(const ct_op *op, ct_value *args, ct_value *rets);
/* Dispatcher::redispatch with an explicit key set (no extraction, no TLS, no profiler event). */
CT_API int ct_redispatch(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets);
/* The key set ct_call would dispatch on for these arguments, without calling anything. */
CT_API ct_keyset ct_dispatch_keyset_for(const ct_op *op, const ct_value *args);
/* Releases the references held by vals[0..n) and sets them to NONE. */
CT_API void ct_values_release(ct_value *vals, int n);
/* An owned Tensor[] value (what a kernel or handler stores as a Tensor[] return): a new array
 * holding a new reference to each of items[0..len). 0, or -1 with an error (out untouched). */
CT_API int ct_tensor_list_new(ct_tensor *const *items, int64_t len, ct_value *out);

/* ---- thread-local include / exclude sets ---- */

/* torch._C._dispatch_tls_local_include_set() / _exclude_set(). */
CT_API ct_keyset ct_tls_included(void);
CT_API ct_keyset ct_tls_excluded(void);

/* A guard saves the thread's sets; pop restores exactly what was saved. Guards (these and the
 * grad-mode guards of ctorch/autograd.h) are popped in reverse order of entering. */
typedef struct ct_key_guard {
    ct_keyset saved_included;
    ct_keyset saved_excluded;
    int depth; /* its place among this thread's entered guards; 0 once popped */
} ct_key_guard;
/* IncludeDispatchKeyGuard / ExcludeDispatchKeyGuard. */
CT_API void ct_key_guard_include(ct_key_guard *g, ct_keyset ks);
CT_API void ct_key_guard_exclude(ct_key_guard *g, ct_keyset ks);
/* Restores the sets saved by g. g must be this thread's innermost entered guard: otherwise -1
 * with a RuntimeError and nothing changes. Popping a guard twice does nothing the second time. */
CT_API int ct_key_guard_pop(ct_key_guard *g);
/* Direct edits (torch._C._dispatch_tls_set_dispatch_key_included / _excluded). */
CT_API void ct_tls_set_included(ct_dispatch_key k, bool on);
CT_API void ct_tls_set_excluded(ct_dispatch_key k, bool on);

/* ---- registration ---- */

/* The registration site "file:line" of the line it is written on, as TORCH_LIBRARY_IMPL records
 * one for every m.impl / m.fallback: pass it as `where` ("registered at" in ct_op_dump). With
 * -fmacro-prefix-map=<source dir>/= (as ctorch's own build uses) the file is relative. */
#define CT_HERE_STR2_(x) #x
#define CT_HERE_STR_(x) CT_HERE_STR2_(x)
#define CT_HERE (__FILE__ ":" CT_HERE_STR_(__LINE__))

/* Defines a new operator from a schema string ("myns::foo(Tensor self) -> Tensor").
 * Returns it, or NULL with PyTorch's error if the schema is malformed or already defined. */
CT_API const ct_op *ct_op_define(const char *schema, const char *where);
/* Registers `fn` for `op` at `key`, which may be a runtime key (CPU, AutogradCPU, Python, ...)
 * or an alias key (CompositeImplicitAutograd, CompositeExplicitAutograd, Autograd).
 * A later registration for the same key replaces the earlier one (PyTorch keeps a list and
 * warns; ctorch keeps the newest). `where` is shown by ct_op_dump (e.g. "src/ops/x.c:12"; CT_HERE).
 * Recomputes the op's dispatch table. Returns 0 or -1. */
CT_API int ct_register_kernel(const ct_op *op, ct_dispatch_key key, ct_kernel_fn fn, const char *where);
/* Registers a fallthrough for `op` at a runtime key. */
CT_API int ct_register_fallthrough(const ct_op *op, ct_dispatch_key key, const char *where);
/* Removes op's registration at key (-1 if there was none). */
CT_API int ct_deregister_kernel(const ct_op *op, ct_dispatch_key key);
/* Backend fallback for every operator at a runtime key; fn == NULL registers a fallthrough. */
CT_API int ct_register_fallback(ct_dispatch_key key, ct_kernel_fn fn, const char *where);

/* How a dispatch-table slot was filled (the labels of torch._C._dispatch_dump_table). */
typedef enum ct_slot_kind {
    CT_SLOT_MISSING = 0,
    CT_SLOT_KERNEL,           /* "kernel": registered directly at this key */
    CT_SLOT_DEFAULT_BACKEND,  /* "default backend kernel": CompositeExplicitAutograd */
    CT_SLOT_MATH,             /* "math kernel": CompositeImplicitAutograd */
    CT_SLOT_AUTOGRAD,         /* "autograd kernel": the Autograd alias */
    CT_SLOT_FALLBACK,         /* "backend fallback" */
    CT_SLOT_AMBIGUOUS_AUTOGRADOTHER /* "ambiguous autogradother": a CompositeImplicitAutograd op that also has a
                                     * kernel for a backend served by AutogradOther */
} ct_slot_kind;

typedef struct ct_slot_info {
    ct_slot_kind kind;
    bool fallthrough;
    ct_kernel_fn fn;     /* NULL for fallthrough and missing */
    const char *where;   /* registration site, "" if missing */
} ct_slot_info;

/* The computed table entry for a runtime key. */
CT_API ct_slot_info ct_op_slot(const ct_op *op, ct_dispatch_key runtime_key);
/* "kernel", "default backend kernel", "math kernel", "autograd kernel", "backend fallback", "missing". */
CT_API const char *ct_slot_kind_name(ct_slot_kind kind);
/* The op's keys that are not fallthrough (DispatchKeyExtractor::nonFallthroughKeys_). */
CT_API ct_keyset ct_op_non_fallthrough_keys(const ct_op *op);

/* torch._C._dispatch_dump(name) and _dispatch_dump_table(name): malloc'd text (ct_free),
 * NULL with an error if the op is unknown. */
CT_API char *ct_op_dump(const ct_op *op);
CT_API char *ct_op_dump_table(const ct_op *op);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_DISPATCH_H */
