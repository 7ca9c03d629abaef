/* The public boxed call checks its caller (torch.ops.<ns>.<op>.<overload>(...) does, in
 * torch/csrc/jit/python/pybind_utils.h createStackForSchema / toIValue), then dispatches.
 *
 * Note [Checked and unchecked calls]
 *   ct_call is the entry for callers who build a value array themselves: a program, a mode or
 *   subclass handler. It checks the op, the arrays and every argument against the schema
 *   before anything is dispatched, so that a string where a tensor belongs is an error and
 *   not a read out of bounds in a kernel; ct_op_invoke checks the same way, then takes the
 *   front door (Note [One front door] in front_door.h). The typed wrappers (ct_add, ...) box
 *   their arguments from C parameters that already have the schema's types; they take the
 *   front door unchecked, and it ends in ct_dispatch_call, which is what ct_call was before
 *   this check existed: the check costs them nothing. A binding whose parser has matched the
 *   values to the schema already (Python's) takes it unchecked too, through
 *   ct_op_invoke_parsed: the check is done once, by the parser, which raises PyTorch's own
 *   TypeErrors; debug builds check again and stop on a value the parser let through. Kernels
 *   passing a call on use ct_redispatch, unchecked too.
 *
 * The messages are PyTorch's for the same mistake through torch.ops (recorded in
 * tests/golden/torch-2.6/boxed_checks.json), with C values named by the Python type they
 * stand for: CT_TAG_STRING is a 'str', CT_TAG_INTLIST a 'list', CT_TAG_GENERATOR a
 * 'Generator', and so on. ctorch's values are typed where Python converts: a bool or a number
 * where an int or a tensor belongs, which torch.ops would convert, is refused with the same
 * message form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "dispatch/call_impl.h"
#include "dispatch/front_door.h"
#include "dispatch/op_impl.h"
#include "util/pyfloat.h"
#include "util/strbuf.h"

/* ---- how a value reads in Python ---- */

static bool valid_tag(ct_tag tag) { return (int)tag >= (int)CT_TAG_NONE && (int)tag <= (int)CT_TAG_TENSORLIST; }

/* type(v).__name__ */
static const char *py_type_name(const ct_value *v) {
    switch (v->tag) {
    case CT_TAG_NONE: return "NoneType";
    case CT_TAG_TENSOR: return v->u.t ? "Tensor" : "NoneType";
    case CT_TAG_INT: return "int";
    case CT_TAG_DOUBLE: return "float";
    case CT_TAG_BOOL: return "bool";
    case CT_TAG_INTLIST: return "list";
    case CT_TAG_STRING: return v->u.s ? "str" : "NoneType";
    case CT_TAG_GENERATOR: return v->u.g ? "Generator" : "NoneType";
    case CT_TAG_DEVICE: return "device";
    case CT_TAG_OBJECT: return v->u.obj ? "ScriptObject" : "NoneType";
    case CT_TAG_TENSORLIST: return "list";
    }
    return "invalid ct_value";
}

/* the qualified name pybind11 prints: <class 'torch.Tensor'> */
static const char *py_qualname(const ct_value *v) {
    switch (v->tag) {
    case CT_TAG_TENSOR: return v->u.t ? "torch.Tensor" : "NoneType";
    case CT_TAG_GENERATOR: return v->u.g ? "torch._C.Generator" : "NoneType";
    case CT_TAG_DEVICE: return "torch.device";
    case CT_TAG_OBJECT: return v->u.obj ? "torch.ScriptObject" : "NoneType";
    default: return py_type_name(v);
    }
}

/* repr(s) for a str: Python's quoting and escapes (non-ASCII bytes are kept as they are) */
static void py_str_repr(ct_strbuf *b, const char *s) {
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    ct_sb_write(b, &q, 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == (unsigned char)q) ct_sb_printf(b, "\\%c", *p);
        else if (*p == '\n') ct_sb_puts(b, "\\n");
        else if (*p == '\r') ct_sb_puts(b, "\\r");
        else if (*p == '\t') ct_sb_puts(b, "\\t");
        else if (*p < 0x20 || *p == 0x7f) ct_sb_printf(b, "\\x%02x", *p);
        else ct_sb_write(b, (const char *)p, 1);
    }
    ct_sb_write(b, &q, 1);
}

/* repr(v) (as_str: str(v), which differs for strings and devices) */
static void py_repr(ct_strbuf *b, const ct_value *v, bool as_str) {
    switch (v->tag) {
    case CT_TAG_TENSOR:
        if (v->u.t) {
            char *r = ct_tensor_repr(v->u.t);
            ct_sb_puts(b, r ? r : "tensor(...)");
            ct_free(r);
            return;
        }
        break;
    case CT_TAG_INT: ct_sb_printf(b, "%lld", (long long)v->u.i); return;
    case CT_TAG_DOUBLE: {
        char f[CT_PY_FLOAT_REPR_MAX];
        ct_py_float_repr(v->u.d, f);
        ct_sb_puts(b, f);
        return;
    }
    case CT_TAG_BOOL: ct_sb_puts(b, v->u.b ? "True" : "False"); return;
    case CT_TAG_INTLIST:
        ct_sb_puts(b, "[");
        for (int64_t i = 0; v->u.list.data && i < v->u.list.len; i++)
            ct_sb_printf(b, "%s%lld", i ? ", " : "", (long long)v->u.list.data[i]);
        ct_sb_puts(b, "]");
        return;
    case CT_TAG_STRING:
        if (v->u.s) {
            if (as_str) ct_sb_puts(b, v->u.s);
            else py_str_repr(b, v->u.s);
            return;
        }
        break;
    case CT_TAG_GENERATOR:
        if (v->u.g) {
            ct_sb_printf(b, "<torch._C.Generator object at %p>", (void *)v->u.g);
            return;
        }
        break;
    case CT_TAG_DEVICE: ct_sb_puts(b, as_str ? "cpu" : "device(type='cpu')"); return;
    case CT_TAG_OBJECT:
        if (v->u.obj) {
            ct_sb_printf(b, "<torch.ScriptObject object at %p>", v->u.obj);
            return;
        }
        break;
    case CT_TAG_TENSORLIST:
        ct_sb_puts(b, "[");
        for (int64_t i = 0; v->u.tlist.items && i < v->u.tlist.len; i++) {
            ct_sb_puts(b, i ? ", " : "");
            if (v->u.tlist.items[i]) py_repr(b, &(ct_value){.tag = CT_TAG_TENSOR, .u.t = v->u.tlist.items[i]}, false);
            else ct_sb_puts(b, "None");
        }
        ct_sb_puts(b, "]");
        return;
    case CT_TAG_NONE: break;
    default: ct_sb_printf(b, "<ct_value with invalid tag %d>", (int)v->tag); return;
    }
    ct_sb_puts(b, "None");
}

/* ---- what a schema type accepts ---- */

/* The value stands for None: the NONE tag, or a NULL where a pointer belongs. */
static bool is_none(const ct_value *v) {
    switch (v->tag) {
    case CT_TAG_NONE: return true;
    case CT_TAG_TENSOR: return v->u.t == NULL;
    case CT_TAG_STRING: return v->u.s == NULL;
    case CT_TAG_GENERATOR: return v->u.g == NULL;
    case CT_TAG_OBJECT: return v->u.obj == NULL;
    default: return false;
    }
}

static bool accepts(const ct_arg *a, const ct_value *v) {
    switch (a->type) {
    case CT_TY_TENSOR: return v->tag == CT_TAG_TENSOR;
    case CT_TY_INT:
    case CT_TY_SCALARTYPE:
    case CT_TY_LAYOUT:
    case CT_TY_MEMFMT: return v->tag == CT_TAG_INT;
    case CT_TY_FLOAT: return v->tag == CT_TAG_DOUBLE;
    case CT_TY_BOOL: return v->tag == CT_TAG_BOOL;
    case CT_TY_SCALAR: return v->tag == CT_TAG_INT || v->tag == CT_TAG_DOUBLE || v->tag == CT_TAG_BOOL;
    case CT_TY_DEVICE: return v->tag == CT_TAG_DEVICE;
    case CT_TY_GENERATOR: return v->tag == CT_TAG_GENERATOR;
    case CT_TY_STR: return v->tag == CT_TAG_STRING;
    case CT_TY_INTLIST: return v->tag == CT_TAG_INTLIST;
    case CT_TY_BOOLLIST: /* bool[N] is boxed as an int list of 0 and 1 */
        if (v->tag != CT_TAG_INTLIST) return false;
        for (int64_t k = 0; v->u.list.data && k < v->u.list.len; k++)
            if (v->u.list.data[k] != 0 && v->u.list.data[k] != 1) return false;
        return true;
    case CT_TY_OBJECT: return v->tag == CT_TAG_OBJECT;
    case CT_TY_TENSORLIST: return v->tag == CT_TAG_TENSORLIST;
    default: return false; /* str[]: no ct_value holds one */
    }
}

/* The type as the schema's Python type prints it (c10::Type::annotation_str). */
static void expected_type(ct_strbuf *b, const ct_arg *a) {
    const char *t;
    switch (a->type) {
    case CT_TY_TENSOR: t = "Tensor"; break;
    case CT_TY_INT:
    case CT_TY_SCALARTYPE:
    case CT_TY_LAYOUT:
    case CT_TY_MEMFMT: t = "int"; break;
    case CT_TY_FLOAT: t = "float"; break;
    case CT_TY_BOOL: t = "bool"; break;
    case CT_TY_SCALAR: t = "number"; break;
    case CT_TY_DEVICE: t = "Device"; break;
    case CT_TY_GENERATOR: t = "Generator"; break;
    case CT_TY_STR: t = "str"; break;
    case CT_TY_INTLIST: t = "List[int]"; break;
    case CT_TY_TENSORLIST: t = "List[Tensor]"; break;
    case CT_TY_STRLIST: t = "List[str]"; break;
    case CT_TY_BOOLLIST: t = "List[bool]"; break;
    default: t = a->type_text; break;
    }
    /* a custom class's type names the compilation unit that holds it */
    const char *unit = a->type == CT_TY_OBJECT ? " (of Python compilation unit at: 0)" : "";
    if (a->optional) ct_sb_printf(b, "Optional[%s%s]", t, unit);
    else ct_sb_printf(b, "%s%s", t, unit);
}

/* "aten::add() Expected a value of type 'Tensor' for argument 'self' but instead found type
 * 'str'.\nPosition: 0\nValue: 'x'\nDeclaration: <schema>\nCast error details: ..." */
static int type_error(const ct_op *op, int i, const ct_value *v) {
    const ct_arg *a = &op->args[i];
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_printf(&b, "%s() Expected a value of type '", op->base_name);
    expected_type(&b, a);
    ct_sb_printf(&b, "' for argument '%s' but instead found type '%s'.\nPosition: %d\nValue: ", a->name,
                 valid_tag(v->tag) ? py_type_name(v) : "invalid ct_value", i);
    py_repr(&b, v, false);
    ct_sb_printf(&b, "\nDeclaration: %s\n", op->schema);
    if (!valid_tag(v->tag)) {
        ct_sb_printf(&b, "Cast error details: a ct_value's tag must be a ct_tag (0 to %d)", (int)CT_TAG_TENSORLIST);
    } else if (a->type == CT_TY_TENSOR) {
        ct_sb_puts(&b, "Cast error details: Unable to cast ");
        py_repr(&b, v, true);
        ct_sb_puts(&b, " to Tensor");
    } else if (a->type == CT_TY_OBJECT) {
        /* a custom class object is looked for in the value's capsule attribute */
        ct_sb_printf(&b, "Cast error details: Tried to cast object to type %s (of Python compilation unit at: 0) but object "
                         "was missing attribute capsule",
                     a->type_text);
    } else if (a->type == CT_TY_SCALAR) {
        ct_sb_puts(&b, "Cast error details: Cannot cast ");
        py_repr(&b, v, true);
        ct_sb_puts(&b, " to number");
    } else if (a->type == CT_TY_INTLIST && strncmp(a->type_text, "SymInt", 6) == 0 && v->tag != CT_TAG_STRING &&
               v->tag != CT_TAG_TENSOR) {
        /* SymInt[] is read by iterating the Python object (a str or a tensor would iterate) */
        ct_sb_printf(&b, " Python error details: TypeError: '%s' object is not iterable", py_qualname(v));
    } else {
        ct_sb_printf(&b, "Cast error details: Unable to cast Python instance of type <class '%s'> to C++ type '?' "
                         "(#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)",
                     py_qualname(v));
    }
    char *msg = ct_sb_finish(&b);
    if (!msg) return -1; /* CT_ERR_NOMEM is set */
    ct_error_set(CT_ERR_RUNTIME, "%s", msg);
    ct_free(msg);
    return -1;
}

/* A str where a Device belongs: torch.ops parses it (c10::Device(std::string)); ctorch's
 * Device values are typed, so a string is refused, with PyTorch's message when its device
 * type is not one PyTorch knows. */
static int device_string_error(const ct_op *op, int i, const ct_value *v) {
    static const char *const types[] = {"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                                        "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                                        "privateuseone"};
    size_t n = strcspn(v->u.s, ":");
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        if (strlen(types[k]) == n && strncmp(types[k], v->u.s, n) == 0) return type_error(op, i, v);
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_puts(&b, "Expected one of ");
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) ct_sb_printf(&b, "%s%s", k ? ", " : "", types[k]);
    ct_sb_printf(&b, " device type at start of device string: %s", v->u.s);
    char *msg = ct_sb_finish(&b);
    if (!msg) return -1;
    ct_error_set(CT_ERR_RUNTIME, "%s", msg);
    ct_free(msg);
    return -1;
}

/* The N of a fixed-size list type ("int[1]", "int[2]?"), 0 for "int[]". */
static int64_t fixed_list_size(const ct_arg *a) {
    const char *br = strchr(a->type_text, '[');
    return br ? strtoll(br + 1, NULL, 10) : 0;
}

/* Checks every argument; returns 1 when it is fine but an int stands for a fixed-size int
 * list (int[1] dim = 0), which torch.ops broadcasts to the list and so does ct_call. */
int ct_call_check(const ct_op *op, const ct_value *args, const ct_value *rets) {
    if (!op) return ct_error_set(CT_ERR_VALUE, "ct_call: op is NULL");
    if (!args && op->nargs > 0) return ct_error_set(CT_ERR_VALUE, "ct_call: args is NULL (%s takes %d)", op->name, op->nargs);
    if (!rets && op->nrets > 0) return ct_error_set(CT_ERR_VALUE, "ct_call: rets is NULL (%s returns %d)", op->name, op->nrets);
    int convert = 0;
    for (int i = 0; i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        const ct_value *v = &args[i];
        if (!valid_tag(v->tag)) return type_error(op, i, v);
        if (is_none(v)) {
            if (a->optional) continue;
            /* torch.ops takes None for a Tensor (an undefined tensor), which the kernel refuses
             * (checked_dense_tensor_unwrap's wording) */
            if (a->type == CT_TY_TENSOR)
                return ct_error_set(CT_ERR_RUNTIME,
                                    "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #%d '%s'",
                                    i, a->name);
            return type_error(op, i, v);
        }
        if (!accepts(a, v)) {
            if (a->type == CT_TY_INTLIST && v->tag == CT_TAG_INT && fixed_list_size(a) > 0 &&
                fixed_list_size(a) <= CT_MAX_DIMS) {
                convert = 1;
                continue;
            }
            if (a->type == CT_TY_DEVICE && v->tag == CT_TAG_STRING) return device_string_error(op, i, v);
            return type_error(op, i, v);
        }
        if (v->tag == CT_TAG_INTLIST && (v->u.list.len < 0 || (!v->u.list.data && v->u.list.len > 0)))
            return ct_error_set(CT_ERR_VALUE, "ct_call: argument '%s' of %s is a list of %lld ints at %s", a->name,
                                op->name, (long long)v->u.list.len, v->u.list.data ? "a valid address" : "NULL");
        if (v->tag == CT_TAG_TENSORLIST) {
            if (v->u.tlist.len < 0 || (!v->u.tlist.items && v->u.tlist.len > 0))
                return ct_error_set(CT_ERR_VALUE, "ct_call: argument '%s' of %s is a list of %lld tensors at %s", a->name,
                                    op->name, (long long)v->u.tlist.len, v->u.tlist.items ? "a valid address" : "NULL");
            for (int64_t k = 0; k < v->u.tlist.len; k++)
                if (!v->u.tlist.items[k] && !a->optional_elems)
                    return ct_error_set(CT_ERR_TYPE, "expected Tensor as element %lld in argument %d, but got NoneType",
                                        (long long)k, i);
        }
    }
    return convert;
}

int ct_op_check_args(const ct_op *op, const ct_value *args, const ct_value *rets) {
    return ct_call_check(op, args, rets) < 0 ? -1 : 0;
}

/* ct_call and ct_op_invoke: check, then the dispatcher or the front door. */
static int checked_call(const ct_op *op, ct_value *args, ct_value *rets, bool front_door) {
    int rc = ct_call_check(op, args, rets);
    /* the caller's slots may hold anything: None before the kernel runs, and after a failed
     * check (Note [Ret slots start as None] in call.c) */
    if (op && rets)
        for (int i = 0; i < op->nrets; i++) rets[i] = ct_none();
    if (__builtin_expect(rc == 0, 1)) return front_door ? ct_enter(op, args, rets) : ct_dispatch_call(op, args, rets);
    if (rc < 0) return -1;
    /* an int given for int[N]: the kernel gets N copies of it in a list, as from torch.ops */
    ct_value conv[CT_MAX_OP_ARGS];
    int64_t lists[CT_MAX_OP_ARGS][CT_MAX_DIMS];
    for (int i = 0; i < op->nargs; i++) {
        conv[i] = args[i];
        if (op->args[i].type == CT_TY_INTLIST && args[i].tag == CT_TAG_INT) {
            int64_t n = fixed_list_size(&op->args[i]);
            for (int64_t k = 0; k < n; k++) lists[i][k] = args[i].u.i;
            conv[i] = ct_intlist(lists[i], n);
        }
    }
    return front_door ? ct_enter(op, conv, rets) : ct_dispatch_call(op, conv, rets);
}

int ct_call(const ct_op *op, ct_value *args, ct_value *rets) { return checked_call(op, args, rets, false); }

int ct_op_invoke(const ct_op *op, ct_value *args, ct_value *rets) {
    if (!op) return ct_error_set(CT_ERR_VALUE, "ct_op_invoke: op is NULL");
    if ((!args && op->nargs > 0) || (!rets && op->nrets > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_op_invoke: args or rets is NULL");
    return checked_call(op, args, rets, true);
}

int ct_op_invoke_parsed(const ct_op *op, ct_value *args, ct_value *rets) {
    if (!op) return ct_error_set(CT_ERR_VALUE, "ct_op_invoke_parsed: op is NULL");
    if ((!args && op->nargs > 0) || (!rets && op->nrets > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_op_invoke_parsed: args or rets is NULL");
#ifndef NDEBUG
    if (ct_call_check(op, args, rets) != 0) {
        /* an internal invariant of the binding, checked in debug builds only */
        fprintf(stderr, "ctorch: ct_op_invoke_parsed(%s) was given values its schema does not take: %s\n", op->name,
                ct_error_message());
        abort();
    }
#endif
    for (int i = 0; i < op->nrets; i++) rets[i] = ct_none(); /* Note [Ret slots start as None] in call.c */
    return ct_enter(op, args, rets);
}
