/* ctorch._C: the CPython extension that presents ctorch as PyTorch's Python API.
 *
 * Built only on the public C API (include/ctorch/). Shared declarations of the extension's
 * files, one job each, in the order they rest on one another (a file uses only the ones above
 * it, so no two files use each other):
 *   errors.c      ctorch errors -> Python exceptions; Python exceptions raised in handlers
 *   dtype.c       torch.dtype and its objects (from the dtype table)
 *   runtime.c, keyset.c, dispatch_dump.c: thread count and counters; DispatchKeySet and the
 *                 TLS key sets; the dispatcher's dumps
 *   tensor.c      torch._C.TensorBase, the object: tensor <-> object identity and ownership
 *   package.c     what the Python package registers (torch.Tensor, torch.Size, devices, formats)
 *   generator.c, class_type.c, script_object.c: torch.Generator, torch.ClassType, torch.ScriptObject
 *   boxing.c      Python objects <-> boxed ct_values, argument parsing against a schema
 *   torch_function.c, torch_function_disable.c: the __torch_function__ protocol (function modes,
 *                 tensor subclasses) and its Disable guards
 *   tensor_torch_function.c: Tensor's own methods, slots and properties offered to it
 *   op_overload.c, op_packet.c, op_function.c: OpOverload, OpOverloadPacket, and the torch
 *                 functions and Tensor methods backed by overloads
 *   bindings.c    those functions from the table generated from ops.def (bindings.h)
 *   subclass.c    _make_wrapper_subclass / _make_subclass and the __torch_dispatch__ bridge
 *   node.c, autograd.c, grad_mode.c: grad_fn objects, backward, grad and inference mode
 *   tensor_subclassing.c, tensor_methods.c, tensor_attrs.c, tensor_number.c, tensor_index.c:
 *                 TensorBase.__init_subclass__, its methods, properties, number protocol, indexing
 *   tensor_type.c the TensorBase type made of those
 *   tensor_new.c, allclose.c, nn.c, profiler.c: torch.tensor, torch.allclose, F.cross_entropy and
 *                 the C optimizers, the profiler and record_function
 *   dispatch_mode.c, mode_function.c, function_mode.c: TorchDispatchMode and TorchFunctionMode on
 *                 the C stacks
 *   module.c      the module's initialisation
 *
 * Note [Python exceptions inside handlers]
 *   A Python handler (__torch_dispatch__, __torch_function__) runs inside a ctorch call. When it
 *   raises, the bridge stashes the exception (ctpy_stash_pyerr), sets a ctorch error so the C
 *   library unwinds as for any error (restoring mode stacks, TLS sets and grad mode on the way),
 *   and the extension function that made the ctorch call re-raises the stashed exception
 *   unchanged (ctpy_raise). So Python sees the exception its own code raised.
 *
 * Note [Tensor objects and ownership]
 *   One Python object per tensor, found through the tensor's binding slot (PyTorch's
 *   PyObjectSlot). Normally the object owns a reference to the tensor. When the object's last
 *   Python reference goes while ctorch still uses the tensor (a graph saved it, or it is a
 *   parameter's grad) and the object carries state (a subclass, or attributes), the object is
 *   kept alive and ownership flips: the tensor holds the object, and the binding release hook
 *   drops it when the tensor dies. When the tensor surfaces in Python again, ownership flips
 *   back. Wrapper subclasses (LoggingTensor) rely on this to keep `elem` while only the graph
 *   references them.
 */
#ifndef CTPY_H
#define CTPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/subclass.h"
#include "ctorch/testing.h"

#define CTPY_MAX_ARGS 16
#define CTPY_MAX_RETS 6

/* ---- errors.c ---- */
/* Raises the pending ctorch error as PyTorch's exception (or re-raises a stashed Python
 * exception, Note [Python exceptions inside handlers]). Always returns NULL. */
PyObject *ctpy_raise(void);
/* Same, returning -1 for int-returning slots. */
int ctpy_raise_int(void);
/* Moves the current Python exception into the stash and sets a ctorch error. Returns -1. */
int ctpy_stash_pyerr(void);
/* NotImplementedInCtorch "<what> is not implemented in ctorch" (docs/python.md says what the
 * class is and why). fmt is Python's PyUnicode_FromFormat: %S, %R and %U take objects. */
PyObject *ctpy_not_implemented(const char *fmt, ...);
extern PyObject *ctpy_NotImplementedInCtorch;          /* the exception class (Note [NotImplementedInCtorch]) */
extern PyObject *ctpy_NotImplementedInCtorchAttribute; /* its AttributeError subclass, for missing attributes */
int ctpy_errors_init(PyObject *m);

/* ---- dtype.c ---- */
typedef struct {
    PyObject_HEAD
    ct_dtype dtype;   /* c10::ScalarType's number (a dtype ctorch lacks too) */
    const char *name; /* "float32" */
    const char *alias; /* "float" (torch.float), or NULL */
    int itemsize;
    bool is_complex, is_signed;
} CtDtypeObject;
extern PyTypeObject CtDtype_Type;
PyObject *ctpy_dtype_object(ct_dtype d); /* borrowed singleton, NULL with an error for an unknown one */
/* A torch.dtype, or Python's float / int / bool standing for one (dtype=float is float64): 1 and
 * *out, or 0 when o is neither. */
int ctpy_dtype_of(PyObject *o, ct_dtype *out);
int ctpy_dtype_init(PyObject *m);

/* ---- runtime.c, keyset.c, dispatch_dump.c ---- */
int ctpy_runtime_init(PyObject *m);
int ctpy_keyset_init(PyObject *m);
int ctpy_dispatch_dump_init(PyObject *m);

/* ---- tensor.c: the object ---- */
typedef struct {
    PyObject_HEAD
    ct_tensor *t; /* NULL once the tensor let go of this object */
    bool owns;    /* true: this object holds a reference to t; false: t holds this object */
    PyObject *dict;     /* instance attributes (the base class owns the dict, so subclasses need no managed one) */
    PyObject *weakrefs;
} CtTensorObject;

extern PyTypeObject CtTensorBase_Type;  /* readied by tensor_type.c */
extern PyTypeObject *ctpy_tensor_class; /* torch.Tensor (the Python class, registered by the package) */
static inline bool ctpy_is_tensor(PyObject *o) { return PyObject_TypeCheck(o, &CtTensorBase_Type); }
static inline ct_tensor *ctpy_tensor(PyObject *o) { return ((CtTensorObject *)o)->t; }
#define CTPY_SELF_T(o)                                                                              \
    ct_tensor *t = ctpy_tensor(o);                                                                  \
    if (!t) {                                                                                       \
        PyErr_SetString(PyExc_RuntimeError, "tensor object has no tensor");                         \
        return NULL;                                                                                \
    }
/* The Python object for t: steals the reference t carries (ctpy_wrap) / borrows it. New reference. */
PyObject *ctpy_wrap(ct_tensor *t);
PyObject *ctpy_wrap_borrowed(ct_tensor *t);
/* A new object of type `cls` (a torch.Tensor subclass) for t, which must have no object yet;
 * steals t's reference. */
PyObject *ctpy_wrap_as(ct_tensor *t, PyTypeObject *cls);
/* Tensor t of a Python object, or NULL with a TypeError naming `what`. Borrowed. */
ct_tensor *ctpy_tensor_arg(PyObject *o, const char *what);
/* "torch.FloatTensor", "torch.LongTensor", ...: the legacy type name PyTorch's messages use. */
const char *ctpy_tensor_type_name(const ct_tensor *t);
/* A Python subclass of TensorBase takes the object's lifetime slots (tensor_subclassing.c). */
void ctpy_tensor_adopt_subclass(PyTypeObject *t);
/* The object's process-wide set-up (the binding release hook, identity hashing). */
void ctpy_tensor_object_init(void);

/* ---- package.c: what the package registers ---- */
/* torch.Size, torch.strided, torch.contiguous_format, ...: registered by the Python package */
extern PyObject *ctpy_size_class, *ctpy_strided, *ctpy_contiguous_format, *ctpy_preserve_format, *ctpy_cpu_device,
    *ctpy_device_class;
PyObject *ctpy_size_from(const int64_t *v, int n); /* a torch.Size (a tuple before the package registers it) */
/* 0 when o (a torch.device, a device string or None) is the CPU, else -1 with PyTorch's error
 * for that device (AssertionError for cuda, as PyTorch's CPU-only build) or NotImplementedInCtorch
 * (torch/_device_mod.py's _check_cpu, registered by the package). */
int ctpy_check_device(PyObject *o);
/* The name of a torch.memory_format object ("channels_last"), or NULL with a TypeError. */
const char *ctpy_memory_format_name(PyObject *fmt);
int ctpy_package_init(PyObject *m);

/* ---- generator.c ---- */
typedef struct {
    PyObject_HEAD
    ct_generator *g; /* owned reference */
} CtGeneratorObject;
extern PyTypeObject CtGenerator_Type;
PyObject *ctpy_generator_wrap(ct_generator *g); /* borrowed g */
int ctpy_generator_init(PyObject *m);

/* ---- script_object.c, class_type.c ---- */
/* The ScriptObject wrapper of an opaque custom-class value (profiler._RecordFunction).
 * class_name: the custom class's qualified name as the schema writes it (NULL: unknown), which
 * lives as long as the process (the op's schema). */
PyObject *ctpy_script_object(void *p, const char *class_name);
void *ctpy_script_object_ptr(PyObject *o); /* NULL (no error) if o is not one */
int ctpy_script_object_init(PyObject *m);
/* torch.ClassType of the class named `qualified_name` (which lives as long as the process). */
PyObject *ctpy_class_type_new(const char *qualified_name);
int ctpy_class_type_init(PyObject *m);

/* ---- boxing.c ---- */
/* Scratch for one call's arguments. */
#define CTPY_TL_POOL 256
typedef struct {
    ct_value v[CTPY_MAX_ARGS];
    int64_t lists[CTPY_MAX_ARGS][CT_MAX_DIMS];
    ct_tensor *owned[CTPY_MAX_ARGS]; /* wrapped numbers made for this call */
    int n_owned;
    /* the items of Tensor[] arguments (borrowed from the caller's Python sequences) */
    ct_tensor *tl_pool[CTPY_TL_POOL];
    int n_tl;
    const char *fname; /* the function parsed for, in unpacking errors (NULL: schema-free) */
    char detail[96];   /* what a mismatch of the last argument tried says instead of ", not <type>" */
} ctpy_args;
void ctpy_args_release(ctpy_args *a);

/* A schema's arguments and returns, read once per operator. */
typedef struct {
    const ct_op *op;
    int nargs, nrets;
    int npositional;  /* arguments before the schema's "*" */
    bool numbers_as_tensors; /* PyTorch lets Python numbers stand for Tensor arguments of this op */
    ct_arg_info args[CTPY_MAX_ARGS];
    ct_arg_info rets[CTPY_MAX_RETS];
} ctpy_schema;
int ctpy_schema_init(ctpy_schema *s, const ct_op *op);

enum { CTPY_PARSE_OK = 1, CTPY_PARSE_MISMATCH = 0, CTPY_PARSE_ERROR = -1 };
enum {
    CTPY_NUMBERS_AS_TENSORS = 1, /* a Python number may stand for any Tensor argument (torch.ops calls) */
    CTPY_FACTORY_OPTIONS = 2,    /* torch.zeros & co.: pin_memory=False and (not *_like) device=cpu given,
                                    as the Python binding's TensorOptions do */
    CTPY_METHOD = 4              /* a Tensor method: messages count positions after self */
};
/* Parses vectorcall arguments against the schema. On MISMATCH (no exception set) `why`
 * describes the first problem, in PyTorch's words. */
int ctpy_parse(const ctpy_schema *s, const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               int flags, ctpy_args *out, char *why, size_t why_size);
/* A Python value for an argument of kind `kind` (borrowed ct value). New reference. */
PyObject *ctpy_value_to_py(const ct_value *v, ct_arg_kind kind);
/* PyTorch's (args, kwargs) for a handler: positional arguments up to the last one that is not
 * its default, keyword-only arguments that are not their defaults. */
int ctpy_handler_args(const ctpy_schema *s, const ct_value *args, PyObject **pyargs, PyObject **pykwargs);
/* The handler's result converted into rets (new references), per the schema's returns. 0 / -1. */
int ctpy_result_to_rets(const ctpy_schema *s, PyObject *res, ct_value *rets);
/* The Python result of a finished ctorch call; takes over the references in rets. */
PyObject *ctpy_rets_to_py(const ctpy_schema *s, ct_value *rets);
/* Schema-free conversions (function modes): by the value's tag / the object's Python type. */
PyObject *ctpy_tagged_to_py(const ct_value *v);
int ctpy_py_to_tagged(PyObject *o, ctpy_args *a, int i);
/* Python scalar (int / float / bool) from a Scalar value. */
PyObject *ctpy_scalar_to_py(const ct_value *v);

/* ---- torch_function.c, torch_function_disable.c ---- */
int ctpy_torch_function_init(PyObject *m);
int ctpy_torch_function_disable_init(PyObject *m);
/* The C-stack handler of a Python TorchFunctionMode (function_mode.c sets it at import): the
 * protocol tells a Python mode by it. */
extern ct_function_mode_fn ctpy_python_function_mode_handler;
/* DisableTorchFunctionSubclass (all: DisableTorchFunction) entered (+1) or left (-1). */
void ctpy_torch_function_disable(bool all, int delta);
/* Whether any function mode is active on this thread (one call, for the fast path). */
bool ctpy_function_mode_active(void);
/* Whether a call with these arguments goes through the protocol (a function mode, or an
 * overloaded tensor argument, in a list too). */
bool ctpy_torch_function_wanted(PyObject *const *args, Py_ssize_t n);
/* Note [torch functions and function modes]: offers a call of the torch function `func` (named
 * `public_name` in messages, "torch.add", "torch.Tensor.sum") to the innermost Python function
 * mode, else to the overloaded tensor arguments. *handled says whether it was offered; if so the
 * result is theirs (NULL with an exception when it raised). kwargs may be NULL; `unary` marks a
 * method of self alone (its `types` are (type(self),)). */
PyObject *ctpy_torch_function(PyObject *func, const char *public_name, PyObject *args, PyObject *kwargs, bool unary,
                              bool *handled);
/* The same for vectorcall arguments (unary: a method called with self alone). */
PyObject *ctpy_torch_function_vector(PyObject *func, const char *public_name, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames, bool unary, bool *handled);
/* mode.__torch_function__(func, types, args, kwargs), the mode off the stack: its result, or
 * NULL with its exception, or with PyTorch's TypeError when it returned NotImplemented. */
PyObject *ctpy_call_function_mode(PyObject *mode, PyObject *func, const char *public_name, PyObject *types,
                                  PyObject *args, PyObject *kwargs);
/* The classes of the overloaded tensor arguments (in lists too), subclasses before their bases.
 * New tuple. */
PyObject *ctpy_overloaded_arg_types(PyObject *args, PyObject *kwargs);
extern PyObject *ctpy_disabled_torch_function; /* torch._C._disabled_torch_function_impl */
/* Whether a tensor type has a __torch_function__ of its own (not torch.Tensor's, not the
 * disabled one nn.Parameter uses). */
bool ctpy_has_torch_function_override(PyTypeObject *type);

/* ---- tensor_torch_function.c ---- */
/* Note [torch functions and function modes] for Tensor's own methods: `func` is
 * torch.Tensor.<name> (CTPY_TF_CLASS: the class's method of that name, an operator's), 
 * TensorBase.<name> (CTPY_TF_BASE: the C methods and slots) or the property's __get__ /
 * __set__ (CTPY_TF_GET, CTPY_TF_SET); self comes first, then rest (vector form, kwnames may be
 * NULL) or args/kwargs (tuple form). */
enum { CTPY_TF_CLASS, CTPY_TF_BASE, CTPY_TF_GET, CTPY_TF_SET };
PyObject *ctpy_tensor_torch_function(int kind, const char *name, PyObject *self, PyObject *const *rest, Py_ssize_t nrest,
                                     PyObject *kwnames, bool *handled);
PyObject *ctpy_tensor_torch_function_tuple(int kind, const char *name, PyObject *self, PyObject *args, PyObject *kwargs,
                                           bool *handled);
int ctpy_tensor_torch_function_init(void);
/* the cheap test before the protocol for a method of self: a function mode, or self a subclass */
#define CTPY_TF_GATE(self) (ctpy_function_mode_active() || Py_TYPE(self) != ctpy_tensor_class)
#define CTPY_TF_VECTOR(name, self, args, nargs, kwnames)                                            \
    do {                                                                                            \
        if (CTPY_TF_GATE(self)) {                                                                   \
            bool h_;                                                                                \
            PyObject *r_ = ctpy_tensor_torch_function(CTPY_TF_BASE, (name), (self), (args), (nargs), (kwnames), &h_); \
            if (h_) return r_;                                                                      \
        }                                                                                           \
    } while (0)
#define CTPY_TF_TUPLE(name, self, args, kwargs)                                                     \
    do {                                                                                            \
        if (CTPY_TF_GATE(self)) {                                                                   \
            bool h_;                                                                                \
            PyObject *r_ = ctpy_tensor_torch_function_tuple(CTPY_TF_BASE, (name), (self), (args), (kwargs), &h_); \
            if (h_) return r_;                                                                      \
        }                                                                                           \
    } while (0)

/* ---- op_overload.c: OpOverload, and overload resolution ---- */
typedef struct {
    PyObject_HEAD
    ctpy_schema schema;
    PyObject *packet; /* OpOverloadPacket, filled by op_packet.c's getter */
    PyObject *name;   /* str(func): "aten.addmm.default" */
    vectorcallfunc vectorcall;
} CtOpOverloadObject;
extern PyTypeObject CtOpOverload_Type;
/* The OpOverload object of op (borrowed, cached for the process). */
PyObject *ctpy_op_overload(const ct_op *op);
/* The overload's name as PyTorch's _overloadname: "Tensor", or "default". */
const char *ctpy_overload_name(const ct_op *op);
/* __module__ of an operator's objects: "torch._ops.aten" for "aten::addmm". New reference. */
PyObject *ctpy_ops_module_of(const char *base_name);
/* Calls the first of `cands` (a tuple of OpOverload) whose schema accepts the arguments, as
 * PyTorch's argument parser picks a signature; none: NotImplementedInCtorch naming `missing`
 * (a tuple of overload names ctorch lacks, may be NULL or empty) when there are any, else the
 * parser's TypeError. flags: CTPY_NUMBERS_AS_TENSORS, CTPY_FACTORY_OPTIONS, CTPY_METHOD. */
PyObject *ctpy_call_candidates(const char *fname, PyObject *cands, PyObject *missing, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames, bool through_function_modes, int flags);
int ctpy_op_overload_init(PyObject *m);
/* torch.return_types (return_types.c): res, a tuple of op's returns, as the named tuple the
 * bindings return when op's returns are named (res itself otherwise); takes res's reference. */
PyObject *ctpy_named_rets(const ct_op *op, PyObject *res);
int ctpy_return_types_init(PyObject *m);

/* ---- op_packet.c ---- */
/* The OpOverloadPacket of op's base name (torch.ops.aten.add). New reference. */
PyObject *ctpy_op_packet_of(const ct_op *op);
int ctpy_op_packet_init(PyObject *m);

/* ---- op_function.c: torch functions and Tensor methods backed by overloads ---- */
enum {
    CTPY_FN_FACTORY = 1, /* a torch.* factory: CTPY_FN_OPTIONS, run below ADInplaceOrView */
    CTPY_FN_METHOD = 2,  /* a Tensor method (public name torch.Tensor.*) */
    CTPY_FN_OPTIONS = 4  /* takes TensorOptions (requires_grad=, set on the result; pin_memory=False given) */
};
/* A function named `name` ("add"; `public_name`, "torch.add", in function-mode messages) over the
 * overloads `cands` (a sequence of OpOverload) and the names of those ctorch lacks, `missing`. */
PyObject *ctpy_function_new(PyObject *name, PyObject *public_name, PyObject *cands, PyObject *missing, int flags);
int ctpy_op_function_init(PyObject *m);

/* ---- bindings.c: the generated bindings (src/ops/ops.def's CT_PY) ---- */
/* The operators an operator dunder of Tensor calls ("__add__": aten::add.Tensor), in ops.def's
 * order: their count (at most max are stored), or -1 with ctorch's error set. */
int ctpy_dunder_ops(const char *dunder, const ct_op **ops, int max);
/* The function bound to `name` in `place` (CTPY_BIND_FUNCTION, _METHOD or _NN), borrowed, or
 * NULL (no error) when there is none. */
PyObject *ctpy_bound_function(unsigned place, const char *name);
int ctpy_bindings_init(PyObject *m);

/* ---- subclass.c ---- */
int ctpy_subclass_init(PyObject *m);
/* `types` for a handler: the Python types of the tensor arguments whose class overrides
 * __torch_dispatch__, subclasses before their bases. New tuple. */
PyObject *ctpy_overloaded_types(const ct_value *args, int n);
/* __torch_dispatch__ of the base class (disabled): types whose attribute is this do not count. */
extern PyObject *ctpy_disabled_torch_dispatch;
/* The wrapper-subclass type every Python wrapper tensor uses. */
extern ct_subclass *ctpy_wrapper_class;
/* TensorBase._make_wrapper_subclass and _make_subclass (static methods, tensor_methods.c). */
PyObject *ctpy_make_wrapper_subclass(PyObject *unused, PyObject *args, PyObject *kwargs);
PyObject *ctpy_make_subclass(PyObject *unused, PyObject *args, PyObject *kwargs);

/* ---- node.c, autograd.c, grad_mode.c ---- */
PyObject *ctpy_node_wrap(ct_node *n); /* borrowed n; None for NULL */
int ctpy_node_init(PyObject *m);
int ctpy_autograd_init(PyObject *m);
int ctpy_grad_mode_init(PyObject *m);

/* ---- tensor_subclassing.c, tensor_methods.c, tensor_attrs.c, tensor_number.c, tensor_index.c ---- */
PyObject *ctpy_tensor_init_subclass(PyObject *cls, PyObject *args, PyObject *kwargs);
extern PyMethodDef ctpy_tensor_methods[];
/* Tensor.item() without the function-mode step (aten::item through the dispatcher). */
PyObject *ctpy_tensor_item(PyObject *self);
extern PyGetSetDef ctpy_tensor_getset[];
extern PyNumberMethods ctpy_tensor_as_number;
extern PyMappingMethods ctpy_tensor_as_mapping;
/* TensorBase's tp_new: the legacy constructor the package registers (tensor_new.c) */
PyObject *ctpy_legacy_tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs);
/* torch.tensor(seq), for a sequence used as an index (tensor_index.c) */
PyObject *ctpy_tensor_from_sequence(PyObject *seq);
extern PyMethodDef ctpy_tensor_functions[]; /* torch._C functions of tensor_number.c (_tensor_repr) */
PyObject *ctpy_tensor_richcompare(PyObject *a, PyObject *b, int op);
PyObject *ctpy_tensor_repr(PyObject *self);
/* Finds the operators the number protocol's dunders call (src/ops/ops.def's CT_PY). 0 / -1. */
int ctpy_tensor_number_init(void);

/* ---- tensor_type.c ---- */
int ctpy_tensor_type_init(PyObject *m);

/* ---- tensor_new.c, allclose.c, nn.c, profiler.c ---- */
int ctpy_tensor_new_init(PyObject *m);
int ctpy_allclose_init(PyObject *m);
int ctpy_nn_init(PyObject *m);
int ctpy_profiler_init(PyObject *m);

/* ---- dispatch_mode.c, mode_function.c, function_mode.c ---- */
int ctpy_dispatch_mode_init(PyObject *m);
/* The Python object of the mode at a stack position (None for handle 0; a RuntimeError for a
 * mode entered from C). New reference. */
PyObject *ctpy_mode_object(int handle, bool python, void *ud, const char *kind);
/* The callable a Python mode's handler receives for a C-bodied function (f lives for the process). */
PyObject *ctpy_mode_function_new(const ct_function *f);
int ctpy_mode_function_init(void);
int ctpy_function_mode_init(PyObject *m);

/* Adds functions to the module; each file's table. */
int ctpy_add_functions(PyObject *m, PyMethodDef *defs);

#endif
