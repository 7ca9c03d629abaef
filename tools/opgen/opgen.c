/* Build-time generator: reads the operator table (src/ops/ops.def), parses every schema and
 * writes the typed C wrappers, ct_<id>(), that box their arguments and call the dispatcher.
 *
 *   ctorch_opgen OUT_HEADER OUT_SOURCE [OUT_PYTHON_TABLE]
 *
 * OUT_PYTHON_TABLE, when given, receives the Python bindings: one row per name each operator's
 * CT_PY(...) and each CT_PY_ONLY(...) line gives it (python/src/bindings.h says what a row is),
 * which the extension ctorch._C turns into torch._C._VariableFunctions, torch._C._nn, TensorBase's
 * methods and the operators of its number protocol.
 *
 * Type mapping (C argument for each schema type):
 *   Tensor -> ct_tensor * (must not be NULL)    Tensor? -> ct_tensor * (NULL = None)
 *   int, SymInt -> int64_t                      int? -> const int64_t * (NULL = None)
 *   int[], SymInt[], int[N] -> const int64_t *name, int64_t name_len   (with ? : NULL = None)
 *   float -> double        float? -> const double *        bool -> bool
 *   Scalar -> ct_scalar    Scalar? -> const ct_scalar *     str / str? -> const char *
 *   ScalarType -> ct_dtype (CT_DTYPE_UNDEFINED = None when optional)
 *   MemoryFormat -> ct_memory_format (CT_MEMORY_FORMAT_NONE = None when optional)
 *   Generator? -> ct_generator * (NULL = None)   custom classes -> void *
 *   Tensor[] -> ct_tensor *const *name, int64_t name_len     bool[N] -> const bool *name, int64_t name_len
 *   Layout?, Device?, bool? pin_memory: not in the C signature (ctorch has one layout and one
 *   device); they are passed as PyTorch 2.6's Python bindings pass them to the dispatcher:
 *   pin_memory=False always, device=cpu for a factory (no Tensor argument), None otherwise.
 * Returns: one Tensor -> ct_tensor * (new reference, NULL on error); an in-place op -> int
 * (0 or -1); several Tensors -> int with ct_tensor ** out-parameters; a Scalar -> int with a
 * ct_scalar * out-parameter; a bool -> int with bool *; a custom class -> void *; () -> int;
 * Tensor[] -> int with ct_tensor ***out, int64_t *out_len (a ct_malloc'd array of new references:
 * release each, then ct_free the array).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "dispatch/op_impl.h"

typedef struct entry {
    const char *id;
    const char *schema;
    const char *py; /* CT_PY's words, "function, method" */
} entry;

#define CT_IMPL(key, fn)
#define CT_NO_ADINPLACEORVIEW
#define CT_OTHER_BACKEND_KERNEL
#define CT_PY(...) #__VA_ARGS__
static const entry entries[] = {
#define CT_OP(id, schema, ...) {#id, schema, "" __VA_ARGS__},
#include "ops/ops.def"
#undef CT_OP
};
#define N_ENTRIES ((int)(sizeof entries / sizeof entries[0]))

/* CT_PY_ONLY(name, reach...): overloads PyTorch's Python API binds that ctorch lacks */
typedef struct py_only {
    const char *name;
    const char *py;
} py_only;
static const py_only py_onlys[] = {
#define CT_OP(id, schema, ...)
#define CT_PY_ONLY(name, ...) {name, #__VA_ARGS__},
#include "ops/ops.def"
#undef CT_PY_ONLY
#undef CT_OP
};
#define N_PY_ONLY ((int)(sizeof py_onlys / sizeof py_onlys[0]))

static bool omitted(const ct_arg *a) {
    return (a->type == CT_TY_LAYOUT || a->type == CT_TY_DEVICE) ||
           (a->type == CT_TY_BOOL && a->optional && strcmp(a->name, "pin_memory") == 0);
}

/* C declaration of one argument (may be two parameters). Returns 0 or -1 for unsupported. */
static int c_param(FILE *f, const ct_arg *a) {
    const char *n = a->name;
    switch (a->type) {
    case CT_TY_TENSOR: fprintf(f, "ct_tensor *%s", n); return 0;
    case CT_TY_INT: fprintf(f, a->optional ? "const int64_t *%s" : "int64_t %s", n); return 0;
    case CT_TY_FLOAT: fprintf(f, a->optional ? "const double *%s" : "double %s", n); return 0;
    case CT_TY_BOOL: fprintf(f, a->optional ? "int %s" : "bool %s", n); return 0;
    case CT_TY_SCALAR: fprintf(f, a->optional ? "const ct_scalar *%s" : "ct_scalar %s", n); return 0;
    case CT_TY_SCALARTYPE: fprintf(f, "ct_dtype %s", n); return 0;
    case CT_TY_MEMFMT: fprintf(f, "ct_memory_format %s", n); return 0;
    case CT_TY_GENERATOR: fprintf(f, "ct_generator *%s", n); return 0;
    case CT_TY_STR: fprintf(f, "const char *%s", n); return 0;
    case CT_TY_INTLIST: fprintf(f, "const int64_t *%s, int64_t %s_len", n, n); return 0;
    case CT_TY_TENSORLIST: fprintf(f, "ct_tensor *const *%s, int64_t %s_len", n, n); return 0;
    case CT_TY_BOOLLIST: fprintf(f, "const bool *%s, int64_t %s_len", n, n); return 0;
    case CT_TY_OBJECT: fprintf(f, "void *%s", n); return 0;
    default: return -1;
    }
}

static bool has_tensor_arg(const ct_op *op) {
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].type == CT_TY_TENSOR || op->args[i].type == CT_TY_TENSORLIST) return true;
    return false;
}

/* C expression boxing argument a of op into a ct_value. */
static void c_box(FILE *f, const ct_op *op, const ct_arg *a) {
    const char *n = a->name;
    if (omitted(a)) {
        /* torch.zeros(2) reaches the dispatcher as zeros([2], device=cpu, pin_memory=False),
         * torch.ones_like(t) as ones_like(t, pin_memory=False) */
        if (a->type == CT_TY_BOOL) fprintf(f, "ct_bool(false)");
        else if (a->type == CT_TY_DEVICE && !has_tensor_arg(op)) fprintf(f, "(ct_value){.tag = CT_TAG_DEVICE, .u = {.i = 0}}");
        else fprintf(f, "ct_none()");
        return;
    }
    switch (a->type) {
    case CT_TY_TENSOR: fprintf(f, "ct_tensor_value(%s)", n); break;
    case CT_TY_INT:
        if (a->optional) fprintf(f, "%s ? ct_int(*%s) : ct_none()", n, n);
        else fprintf(f, "ct_int(%s)", n);
        break;
    case CT_TY_FLOAT:
        if (a->optional) fprintf(f, "%s ? ct_double(*%s) : ct_none()", n, n);
        else fprintf(f, "ct_double(%s)", n);
        break;
    case CT_TY_BOOL:
        if (a->optional) fprintf(f, "%s < 0 ? ct_none() : ct_bool(%s != 0)", n, n);
        else fprintf(f, "ct_bool(%s)", n);
        break;
    case CT_TY_SCALAR:
        if (a->optional) fprintf(f, "%s ? *%s : ct_none()", n, n);
        else fprintf(f, "%s", n);
        break;
    case CT_TY_SCALARTYPE:
        if (a->optional) fprintf(f, "%s == CT_DTYPE_UNDEFINED ? ct_none() : ct_int((int64_t)%s)", n, n);
        else fprintf(f, "ct_int((int64_t)%s)", n);
        break;
    case CT_TY_MEMFMT:
        if (a->optional) fprintf(f, "%s == CT_MEMORY_FORMAT_NONE ? ct_none() : ct_int((int64_t)%s)", n, n);
        else fprintf(f, "ct_int((int64_t)%s)", n);
        break;
    case CT_TY_GENERATOR: fprintf(f, "ct_generator_value(%s)", n); break;
    case CT_TY_STR: fprintf(f, "ct_string(%s)", n); break;
    case CT_TY_INTLIST:
        if (a->optional) fprintf(f, "%s ? ct_intlist(%s, %s_len) : ct_none()", n, n, n);
        else fprintf(f, "ct_intlist(%s, %s_len)", n, n);
        break;
    case CT_TY_OBJECT: fprintf(f, "ct_object(%s)", n); break;
    case CT_TY_TENSORLIST: fprintf(f, "ct_tensor_list_value((ct_tensor **)%s, %s_len)", n, n); break;
    case CT_TY_BOOLLIST: fprintf(f, "ct_intlist(%s_bits_, %s_len)", n, n); break;
    default: fprintf(f, "ct_none()"); break;
    }
}

/* The torch:: factories of gen_variable_factories.py that ctorch's public API stands for: a
 * *_like function, or one that builds a tensor from TensorOptions alone (no tensor argument).
 * (_to_copy also has TensorOptions, but kernels call it as at::_to_copy, differentiably.) */
static bool is_factory(const ct_op *op) {
    size_t n = strlen(op->base_name);
    if (n > 5 && strcmp(op->base_name + n - 5, "_like") == 0) return true;
    bool options = false;
    for (int i = 0; i < op->nargs; i++) {
        if (op->args[i].type == CT_TY_TENSOR) return false;
        if (op->args[i].type == CT_TY_LAYOUT) options = true;
    }
    return options;
}

typedef enum { RET_TENSOR, RET_INPLACE, RET_TUPLE, RET_SCALAR, RET_BOOL, RET_OBJECT, RET_TENSORLIST, RET_NONE } ret_kind;

static ret_kind ret_kind_of(const ct_op *op) {
    if (op->nrets == 0) return RET_NONE;
    if (op->nrets > 1) return RET_TUPLE;
    const ct_arg *r = &op->rets[0];
    if (r->type == CT_TY_TENSOR) return r->alias_write ? RET_INPLACE : RET_TENSOR;
    if (r->type == CT_TY_SCALAR) return RET_SCALAR;
    if (r->type == CT_TY_BOOL) return RET_BOOL;
    if (r->type == CT_TY_OBJECT) return RET_OBJECT;
    if (r->type == CT_TY_TENSORLIST) return RET_TENSORLIST;
    return RET_NONE;
}

/* Prints "ret_type ct_id(params)" */
static int signature(FILE *f, const entry *e, const ct_op *op) {
    ret_kind rk = ret_kind_of(op);
    const char *rt = rk == RET_TENSOR ? "ct_tensor *" : rk == RET_OBJECT ? "void *" : "int ";
    fprintf(f, "%sct_%s(", rt, e->id);
    int printed = 0;
    for (int i = 0; i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        if (omitted(a)) continue;
        if (printed++) fprintf(f, ", ");
        if (c_param(f, a) != 0) return -1;
    }
    if (rk == RET_TUPLE) {
        for (int i = 0; i < op->nrets; i++) {
            if (printed++) fprintf(f, ", ");
            if (op->rets[i].name[0])
                fprintf(f, "ct_tensor **out_%s", op->rets[i].name);
            else
                fprintf(f, "ct_tensor **out%d", i);
        }
    } else if (rk == RET_SCALAR) {
        if (printed++) fprintf(f, ", ");
        fprintf(f, "ct_scalar *out");
    } else if (rk == RET_BOOL) {
        if (printed++) fprintf(f, ", ");
        fprintf(f, "bool *out");
    } else if (rk == RET_TENSORLIST) {
        if (printed++) fprintf(f, ", ");
        fprintf(f, "ct_tensor ***out, int64_t *out_len");
    }
    if (!printed) fprintf(f, "void");
    fprintf(f, ")");
    return 0;
}

static const char *ret_doc(ret_kind rk) {
    switch (rk) {
    case RET_TENSOR: return "Returns a new reference, or NULL with the thread's error set.";
    case RET_INPLACE: return "Modifies self in place. Returns 0, or -1 with the thread's error set.";
    case RET_TUPLE: return "Stores new references in the out-parameters. Returns 0, or -1 with the error set.";
    case RET_SCALAR: return "Stores the value in *out. Returns 0, or -1 with the error set.";
    case RET_BOOL: return "Stores the answer in *out. Returns 0, or -1 with the error set.";
    case RET_OBJECT: return "Returns the object, or NULL with the error set.";
    case RET_TENSORLIST: return "Stores a ct_malloc'd array of new references in *out and its length in *out_len. Returns 0, or -1 with the error set.";
    default: return "Returns 0, or -1 with the thread's error set.";
    }
}

static void body(FILE *f, const entry *e, const ct_op *op) {
    ret_kind rk = ret_kind_of(op);
    const char *fail = rk == RET_TENSOR || rk == RET_OBJECT ? "NULL" : "-1";
    fprintf(f, "{\n");
    /* a required Tensor argument may not be NULL: PyTorch's TypeError from the argument parser */
    int pos = 0;
    for (int i = 0; i < op->nargs; i++) {
        const ct_arg *a = &op->args[i];
        /* torch.<op>(input, ...): the Python binding calls `self` "input" */
        const char *shown = strcmp(a->name, "self") == 0 ? "input" : a->name;
        if (!a->kwarg_only) pos++;
        if (a->type == CT_TY_TENSORLIST && a->optional_elems) { /* Tensor?[]: NULL items are Nones */
            fprintf(f, "    if (!%s && %s_len > 0) { ct_error_set(CT_ERR_TYPE, \"%s(): argument '%s' (position %d) must be tuple of Tensors, not NoneType\"); return %s; }\n",
                    a->name, a->name, strchr(op->base_name, ':') + 2, shown, pos, fail);
        } else if (a->type == CT_TY_TENSORLIST) {
            fprintf(f, "    if (!%s && %s_len > 0) { ct_error_set(CT_ERR_TYPE, \"%s(): argument '%s' (position %d) must be tuple of Tensors, not NoneType\"); return %s; }\n",
                    a->name, a->name, strchr(op->base_name, ':') + 2, shown, pos, fail);
            fprintf(f, "    for (int64_t i_ = 0; i_ < %s_len; i_++) if (!%s[i_]) { ct_error_set(CT_ERR_TYPE, \"expected Tensor as element %%lld in argument %d, but got NoneType\", (long long)i_); return %s; }\n",
                    a->name, a->name, pos - 1, fail);
        }
        if (a->type == CT_TY_BOOLLIST) {
            fprintf(f, "    int64_t %s_bits_[%d];\n    if (%s_len < 0 || %s_len > %d || (%s_len > 0 && !%s)) { ct_error_set(CT_ERR_VALUE, \"%s(): bad bool list '%s'\"); return %s; }\n",
                    a->name, CT_MAX_DIMS, a->name, a->name, CT_MAX_DIMS, a->name, a->name, strchr(op->base_name, ':') + 2, a->name, fail);
            fprintf(f, "    for (int64_t i_ = 0; i_ < %s_len; i_++) %s_bits_[i_] = %s[i_] ? 1 : 0;\n", a->name, a->name, a->name);
        }
        if (a->type == CT_TY_TENSOR && !a->optional) {
            if (a->kwarg_only)
                fprintf(f, "    if (!%s) { ct_error_set(CT_ERR_TYPE, \"%s(): argument '%s' must be Tensor, not NoneType\"); return %s; }\n",
                        a->name, strchr(op->base_name, ':') + 2, shown, fail);
            else
                fprintf(f, "    if (!%s) { ct_error_set(CT_ERR_TYPE, \"%s(): argument '%s' (position %d) must be Tensor, not NoneType\"); return %s; }\n",
                        a->name, strchr(op->base_name, ':') + 2, shown, pos, fail);
        }
    }
    fprintf(f, "    ct_value a[%d];\n", op->nargs > 0 ? op->nargs : 1);
    for (int i = 0; i < op->nargs; i++) {
        fprintf(f, "    a[%d] = ", i);
        c_box(f, op, &op->args[i]);
        fprintf(f, ";\n");
    }
    int nr = op->nrets > 0 ? op->nrets : 1;
    fprintf(f, "    ct_value r[%d];\n", nr);
    fprintf(f, "    for (int i = 0; i < %d; i++) r[i] = ct_none();\n", nr);
    if (is_factory(op)) {
        /* torch:: factory functions (variable_factories.h) run below ADInplaceOrView, so the
         * in-place fills inside them do not bump the new tensor's version */
        fprintf(f, "    ct_tls_sets g_ = ct_tls_sets_exclude(CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW);\n");
        fprintf(f, "    int rc_ = ct_api_call(CT_OPID_%s, a, r);\n    ct_tls_sets_restore(g_);\n", e->id);
        fprintf(f, "    if (rc_ != 0) return %s;\n", fail);
    } else {
        fprintf(f, "    if (ct_api_call(CT_OPID_%s, a, r) != 0) return %s;\n", e->id, fail);
    }
    switch (rk) {
    case RET_TENSOR:
        fprintf(f, "    return ct_api_take_tensor(r);\n");
        break;
    case RET_INPLACE:
        fprintf(f, "    ct_values_release(r, 1);\n    return 0;\n");
        break;
    case RET_TUPLE:
        for (int i = 0; i < op->nrets; i++) {
            if (op->rets[i].name[0])
                fprintf(f, "    if (out_%s) *out_%s = r[%d].tag == CT_TAG_TENSOR ? r[%d].u.t : NULL; else ct_values_release(&r[%d], 1);\n",
                        op->rets[i].name, op->rets[i].name, i, i, i);
            else
                fprintf(f, "    if (out%d) *out%d = r[%d].tag == CT_TAG_TENSOR ? r[%d].u.t : NULL; else ct_values_release(&r[%d], 1);\n",
                        i, i, i, i, i);
        }
        fprintf(f, "    return 0;\n");
        break;
    case RET_SCALAR:
        fprintf(f, "    if (out) *out = r[0];\n    return 0;\n");
        break;
    case RET_BOOL:
        fprintf(f, "    if (out) *out = r[0].tag == CT_TAG_BOOL && r[0].u.b;\n    return 0;\n");
        break;
    case RET_OBJECT:
        fprintf(f, "    return r[0].tag == CT_TAG_OBJECT ? r[0].u.obj : NULL;\n");
        break;
    case RET_TENSORLIST:
        fprintf(f, "    if (r[0].tag != CT_TAG_TENSORLIST) { ct_values_release(r, 1); ct_error_set(CT_ERR_RUNTIME, \"internal error: kernel returned no tensor list\"); return -1; }\n");
        fprintf(f, "    if (out && out_len) { *out = r[0].u.tlist.items; *out_len = r[0].u.tlist.len; } else ct_values_release(r, 1);\n    return 0;\n");
        break;
    default:
        fprintf(f, "    return 0;\n");
        break;
    }
    fprintf(f, "}\n\n");
}

/* ---- the Python bindings (CT_PY, CT_PY_ONLY) ---- */

enum { W_FUNCTION = 1, W_METHOD = 2, W_NN = 4, W_HIDDEN = 8, W_OPTIONS = 16 };

/* The words of a CT_PY / CT_PY_ONLY list ("function, method, __add__"): the flags, and the
 * dunders copied into dunders (space-separated). 0, or -1 with a message on stderr. */
static int py_words(const char *what, const char *text, bool only, unsigned *flags, char *dunders, size_t size) {
    *flags = 0;
    dunders[0] = '\0';
    const char *p = text;
    int n = 0;
    while (*p) {
        while (*p == ',' || *p == ' ') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',' && *e != ' ') e++;
        size_t len = (size_t)(e - p);
        n++;
        if (len == 8 && strncmp(p, "function", 8) == 0) *flags |= W_FUNCTION;
        else if (len == 6 && strncmp(p, "method", 6) == 0) *flags |= W_METHOD;
        else if (len == 2 && strncmp(p, "nn", 2) == 0) *flags |= W_NN;
        else if (len == 6 && strncmp(p, "hidden", 6) == 0 && !only) *flags |= W_HIDDEN;
        else if (len == 7 && strncmp(p, "options", 7) == 0 && only) *flags |= W_OPTIONS;
        else if (len > 4 && strncmp(p, "__", 2) == 0 && strncmp(e - 2, "__", 2) == 0 && !only) {
            size_t have = strlen(dunders);
            if (have + len + 2 > size) {
                fprintf(stderr, "opgen: %s: too many operator dunders\n", what);
                return -1;
            }
            if (have) strcat(dunders, " ");
            strncat(dunders, p, len);
        } else {
            fprintf(stderr, "opgen: %s: '%.*s' is not a word of %s (function, method, nn, %s)\n", what, (int)len, p,
                    only ? "CT_PY_ONLY" : "CT_PY", only ? "options" : "an operator dunder such as __add__, hidden");
            return -1;
        }
        p = e;
    }
    if (n == 0) {
        fprintf(stderr, "opgen: %s: says nothing of Python: add CT_PY(...) to its registrations (ops.def's header "
                        "lists the words; hidden when no Python name reaches it)\n", what);
        return -1;
    }
    if ((*flags & W_HIDDEN) && n > 1) {
        fprintf(stderr, "opgen: %s: hidden goes alone\n", what);
        return -1;
    }
    if (only && !(*flags & (W_FUNCTION | W_METHOD | W_NN))) {
        fprintf(stderr, "opgen: %s: CT_PY_ONLY names no place (function, method, nn)\n", what);
        return -1;
    }
    return 0;
}

static const char *bind_flags(unsigned w, bool options, bool lacking) {
    static char buf[160];
    buf[0] = '\0';
    if (w & W_FUNCTION) strcat(buf, " | CTPY_BIND_FUNCTION");
    if (w & W_METHOD) strcat(buf, " | CTPY_BIND_METHOD");
    if (w & W_NN) strcat(buf, " | CTPY_BIND_NN");
    if (options) strcat(buf, " | CTPY_BIND_OPTIONS");
    if (lacking) strcat(buf, " | CTPY_BIND_LACKING");
    return buf + 3;
}

/* "aten::add" -> "add" */
static const char *short_name(const char *base) {
    const char *c = strstr(base, "::");
    return c ? c + 2 : base;
}

static bool takes_options(const ct_op *op) {
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].type == CT_TY_LAYOUT) return true;
    return false;
}

static int write_python(FILE *f) {
    int rc = 0;
    fprintf(f, "/* Generated from src/ops/ops.def by tools/opgen/opgen.c. Do not edit. */\n"
               "#include <stddef.h>\n\n#include \"bindings.h\"\n\nconst ctpy_binding ctpy_bindings[] = {\n");
    for (int i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        ct_op op;
        memset(&op, 0, sizeof op);
        if (ct_schema_parse(e->schema, &op) != 0) continue; /* reported with the wrappers */
        unsigned w;
        char dunders[256];
        if (py_words(e->id, e->py, false, &w, dunders, sizeof dunders) != 0) {
            rc = 1;
        } else if ((w & W_NN) && strncmp(op.base_name, "aten::", 6) != 0) {
            fprintf(stderr, "opgen: %s: nn is for aten operators\n", e->id);
            rc = 1;
        } else if (!(w & W_HIDDEN)) {
            const char *name = short_name(op.base_name);
            if (w & (W_FUNCTION | W_METHOD | W_NN))
                fprintf(f, "    {\"%s\", \"%s\", %s},\n", name, op.name, bind_flags(w, takes_options(&op), false));
            for (char *d = dunders; *d;) {
                char *sp = strchr(d, ' ');
                int len = sp ? (int)(sp - d) : (int)strlen(d);
                fprintf(f, "    {\"%.*s\", \"%s\", CTPY_BIND_DUNDER},\n", len, d, op.name);
                d += len;
                while (*d == ' ') d++;
            }
        }
        ct_schema_free(&op);
    }
    for (int i = 0; i < N_PY_ONLY; i++) {
        const py_only *p = &py_onlys[i];
        unsigned w;
        char dunders[8];
        const char *dot = strchr(p->name, '.');
        size_t base_len = dot ? (size_t)(dot - p->name) : strlen(p->name);
        if (py_words(p->name, p->py, true, &w, dunders, sizeof dunders) != 0) {
            rc = 1;
            continue;
        }
        for (int k = 0; k < N_ENTRIES; k++) {
            /* a CT_PY_ONLY line for an operator ctorch has is a line to delete */
            const char *s = entries[k].schema, *paren = strchr(s, '(');
            if (paren && (size_t)(paren - s) == strlen(p->name) && strncmp(s, p->name, strlen(p->name)) == 0) {
                fprintf(stderr, "opgen: CT_PY_ONLY(\"%s\"): ctorch has the operator (%s): delete the line\n", p->name,
                        entries[k].id);
                rc = 1;
            }
        }
        char name[128];
        const char *colon = strstr(p->name, "::");
        if (!colon || base_len >= sizeof name) {
            fprintf(stderr, "opgen: CT_PY_ONLY(\"%s\"): not a qualified operator name\n", p->name);
            rc = 1;
            continue;
        }
        snprintf(name, sizeof name, "%.*s", (int)(base_len - (size_t)(colon + 2 - p->name)), colon + 2);
        fprintf(f, "    {\"%s\", \"%s\", %s},\n", name, p->name, bind_flags(w, (w & W_OPTIONS) != 0, true));
    }
    fprintf(f, "    {NULL, NULL, 0},\n};\n");
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s OUT_HEADER OUT_SOURCE [OUT_PYTHON_TABLE]\n", argv[0]);
        return 2;
    }
    FILE *h = fopen(argv[1], "w");
    FILE *c = fopen(argv[2], "w");
    if (!h || !c) {
        perror("opgen: cannot open output");
        return 2;
    }
    fprintf(h, "/* Generated from src/ops/ops.def by tools/opgen/opgen.c. Do not edit. */\n"
               "#ifndef CTORCH_OPS_GENERATED_H\n#define CTORCH_OPS_GENERATED_H\n\n"
               "#include <stdbool.h>\n#include <stdint.h>\n\n#include \"ctorch/dtype.h\"\n#include \"ctorch/export.h\"\n#include \"ctorch/value.h\"\n\n"
               "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(c, "/* Generated from src/ops/ops.def by tools/opgen/opgen.c. Do not edit. */\n"
               "#include \"ctorch/ops_generated.h\"\n#include \"ctorch/error.h\"\n#include \"core/tls.h\"\n#include \"ops/api_call.h\"\n\n");
    int rc = 0;
    for (int i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        ct_op op;
        memset(&op, 0, sizeof op);
        if (ct_schema_parse(e->schema, &op) != 0) {
            fprintf(stderr, "opgen: %s: %s\n", e->id, ct_error_message());
            rc = 1;
            continue;
        }
        fprintf(h, "/* %s\n * %s */\nCT_API ", op.schema, ret_doc(ret_kind_of(&op)));
        if (signature(h, e, &op) != 0) {
            fprintf(stderr, "opgen: %s: an argument type has no C mapping\n", e->id);
            rc = 1;
        }
        fprintf(h, ";\n\n");
        signature(c, e, &op);
        fprintf(c, "\n");
        body(c, e, &op);
        ct_schema_free(&op);
    }
    fprintf(h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
    if (fclose(h) != 0 || fclose(c) != 0) {
        perror("opgen: write failed");
        return 2;
    }
    if (argc == 4) {
        FILE *py = fopen(argv[3], "w");
        if (!py) {
            perror("opgen: cannot open the Python table");
            return 2;
        }
        if (write_python(py) != 0) rc = 1;
        if (fclose(py) != 0) {
            perror("opgen: write failed");
            return 2;
        }
    }
    return rc;
}
