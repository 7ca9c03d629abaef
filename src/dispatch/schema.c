/* Parser for operator schemas in PyTorch's function-schema language, e.g.
 *   aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
 *   aten::nll_loss_forward(Tensor self, ...) -> (Tensor output, Tensor total_weight)
 * Only what ctorch's operators use is accepted; anything else is a clear error. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "dispatch/op_impl.h"

typedef struct parser {
    const char *s; /* whole schema, for error messages */
    const char *p;
} parser;

static void skip_ws(parser *ps) {
    while (*ps->p == ' ') ps->p++;
}

static int fail(parser *ps, const char *what) {
    return ct_error_set(CT_ERR_RUNTIME, "Schema parse error: expected %s at position %d in \"%s\"", what,
                        (int)(ps->p - ps->s), ps->s);
}

static bool accept(parser *ps, const char *tok) {
    skip_ws(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) == 0) {
        ps->p += n;
        return true;
    }
    return false;
}

static char *dup_range(const char *a, const char *b) {
    size_t n = (size_t)(b - a);
    char *r = ct_malloc(n + 1);
    if (!r) return NULL;
    memcpy(r, a, n);
    r[n] = '\0';
    return r;
}

/* identifier, possibly dotted (__torch__.torch.classes.profiler._RecordFunction) */
static const char *scan_ident(parser *ps, bool dotted) {
    skip_ws(ps);
    const char *a = ps->p;
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || (dotted && *ps->p == '.')) ps->p++;
    return ps->p > a ? a : NULL;
}

static int parse_type(parser *ps, ct_arg *arg) {
    skip_ws(ps);
    const char *start = ps->p;
    const char *id = scan_ident(ps, true);
    if (!id) return fail(ps, "a type");
    size_t n = (size_t)(ps->p - id);
#define IS(name) (n == strlen(name) && strncmp(id, name, n) == 0)
    if (IS("Tensor")) arg->type = CT_TY_TENSOR;
    else if (IS("int") || IS("SymInt")) arg->type = CT_TY_INT;
    else if (IS("float")) arg->type = CT_TY_FLOAT;
    else if (IS("bool")) arg->type = CT_TY_BOOL;
    else if (IS("Scalar")) arg->type = CT_TY_SCALAR;
    else if (IS("ScalarType")) arg->type = CT_TY_SCALARTYPE;
    else if (IS("Layout")) arg->type = CT_TY_LAYOUT;
    else if (IS("Device")) arg->type = CT_TY_DEVICE;
    else if (IS("MemoryFormat")) arg->type = CT_TY_MEMFMT;
    else if (IS("Generator")) arg->type = CT_TY_GENERATOR;
    else if (IS("str")) arg->type = CT_TY_STR;
    else if (n > 10 && strncmp(id, "__torch__.", 10) == 0) arg->type = CT_TY_OBJECT;
    else {
        ps->p = id;
        return fail(ps, "a known type (Tensor, int, SymInt, float, bool, Scalar, ScalarType, Layout, Device, "
                        "MemoryFormat, Generator, str)");
    }
#undef IS
    if (arg->type == CT_TY_TENSOR && ps->p[0] == '?' && ps->p[1] == '[') { /* Tensor?[]: a list whose items may be None */
        arg->optional_elems = true;
        ps->p++;
    }
    if (*ps->p == '(') { /* alias annotation */
        ps->p++;
        if (!islower((unsigned char)*ps->p)) return fail(ps, "an alias set letter");
        arg->alias = *ps->p++;
        if (*ps->p == '!') {
            arg->alias_write = true;
            ps->p++;
        }
        if (strncmp(ps->p, " -> *", 5) == 0) ps->p += 5; /* Tensor(a -> *): each list element aliases a */
        if (*ps->p != ')') return fail(ps, "')'");
        ps->p++;
    }
    if (*ps->p == '[') { /* list, optionally with a fixed size */
        ps->p++;
        while (isdigit((unsigned char)*ps->p)) ps->p++;
        if (*ps->p != ']') return fail(ps, "']'");
        ps->p++;
        switch (arg->type) {
        case CT_TY_INT: arg->type = CT_TY_INTLIST; break;
        case CT_TY_TENSOR: arg->type = CT_TY_TENSORLIST; break;
        case CT_TY_STR: arg->type = CT_TY_STRLIST; break;
        case CT_TY_BOOL: arg->type = CT_TY_BOOLLIST; break;
        default: return fail(ps, "a list of int, bool, Tensor or str");
        }
    }
    if (*ps->p == '?') {
        arg->optional = true;
        ps->p++;
    }
    arg->type_text = dup_range(start, ps->p);
    return arg->type_text ? 0 : -1;
}

static int parse_default(parser *ps, ct_arg *arg) {
    skip_ws(ps);
    const char *a = ps->p;
    if (*ps->p == '[') { /* int list */
        int64_t vals[CT_MAX_DIMS];
        int64_t nv = 0;
        ps->p++;
        skip_ws(ps);
        while (*ps->p && *ps->p != ']') {
            char *end;
            long long v = strtoll(ps->p, &end, 10);
            if (end == ps->p) return fail(ps, "an integer in a list default");
            if (nv == CT_MAX_DIMS) return fail(ps, "a shorter list default");
            vals[nv++] = v;
            ps->p = end;
            skip_ws(ps);
            if (*ps->p == ',') ps->p++;
            skip_ws(ps);
        }
        if (*ps->p != ']') return fail(ps, "']'");
        ps->p++;
        arg->default_list = ct_malloc((size_t)(nv ? nv : 1) * sizeof(int64_t));
        if (!arg->default_list) return -1;
        memcpy(arg->default_list, vals, (size_t)nv * sizeof(int64_t));
        arg->default_value = ct_intlist(arg->default_list, nv);
    } else if (*ps->p == '"' || *ps->p == '\'') {
        char q = *ps->p++;
        const char *b = ps->p;
        while (*ps->p && *ps->p != q) ps->p++;
        if (*ps->p != q) return fail(ps, "a closing quote");
        ps->p++;
        (void)b; /* the value is copied out of default_text below */
    } else if (strncmp(ps->p, "None", 4) == 0) {
        ps->p += 4;
        arg->default_value = ct_none();
    } else if (strncmp(ps->p, "True", 4) == 0) {
        ps->p += 4;
        arg->default_value = ct_bool(true);
    } else if (strncmp(ps->p, "False", 5) == 0) {
        ps->p += 5;
        arg->default_value = ct_bool(false);
    } else {
        char *end_i, *end_d;
        long long iv = strtoll(ps->p, &end_i, 10);
        double dv = strtod(ps->p, &end_d);
        if (end_d == ps->p) return fail(ps, "a default value");
        if (end_d > end_i) { /* has '.', 'e': a float literal */
            arg->default_value = ct_double(dv);
            ps->p = end_d;
        } else {
            arg->default_value = ct_int(iv);
            ps->p = end_i;
            /* an int list with an int default (int[2] padding=0): that int for every element, as
             * PyTorch's Python argument parser reads the default (parse_intlist_args) */
            const char *br = arg->type_text ? strchr(arg->type_text, '[') : NULL;
            if (br && (strncmp(arg->type_text, "int[", 4) == 0 || strncmp(arg->type_text, "SymInt[", 7) == 0)) {
                int64_t nv = strtoll(br + 1, NULL, 10);
                if (nv < 1) nv = 1;
                if (nv > CT_MAX_DIMS) return fail(ps, "a shorter list default");
                arg->default_list = ct_malloc((size_t)nv * sizeof(int64_t));
                if (!arg->default_list) return -1;
                for (int64_t i = 0; i < nv; i++) arg->default_list[i] = iv;
                arg->default_value = ct_intlist(arg->default_list, nv);
            }
        }
    }
    arg->has_default = true;
    arg->default_text = dup_range(a, ps->p);
    if (!arg->default_text) return -1;
    if (a[0] == '"' || a[0] == '\'') {
        /* default_text is "\"mean\""; point the value at its inside, NUL-terminated copy */
        size_t len = strlen(arg->default_text);
        char *inner = dup_range(arg->default_text + 1, arg->default_text + len - 1);
        if (!inner) return -1;
        arg->default_str = inner;
        arg->default_value = ct_string(inner);
    }
    return 0;
}

static int parse_arg(parser *ps, ct_arg *arg, bool is_return) {
    memset(arg, 0, sizeof *arg);
    if (parse_type(ps, arg) != 0) return -1;
    skip_ws(ps);
    const char *id = scan_ident(ps, false);
    if (id) {
        arg->name = dup_range(id, ps->p);
    } else if (is_return) {
        arg->name = ct_strdup("");
    } else {
        return fail(ps, "an argument name");
    }
    if (!arg->name) return -1;
    if (!is_return && accept(ps, "=")) return parse_default(ps, arg);
    return 0;
}

static void free_arg(ct_arg *a) {
    ct_free(a->name);
    ct_free(a->type_text);
    ct_free(a->default_text);
    ct_free(a->default_list);
    ct_free(a->default_str);
    memset(a, 0, sizeof *a);
}

void ct_schema_free(ct_op *op) {
    for (int i = 0; i < op->nargs; i++) free_arg(&op->args[i]);
    for (int i = 0; i < op->nrets; i++) free_arg(&op->rets[i]);
    ct_free(op->name);
    ct_free(op->base_name);
    ct_free(op->overload);
    ct_free(op->python_name);
    ct_free(op->schema);
    op->name = op->base_name = op->overload = op->python_name = op->schema = NULL;
    op->nargs = op->nrets = 0;
}

int ct_schema_parse(const char *schema, ct_op *op) {
    if (!schema) return ct_error_set(CT_ERR_RUNTIME, "Schema parse error: NULL schema");
    parser ps = {schema, schema};
    op->nargs = op->nrets = 0;
    op->name = op->base_name = op->overload = op->python_name = op->schema = NULL;
    /* name: ns::name[.overload] */
    const char *ns = scan_ident(&ps, false);
    if (!ns || strncmp(ps.p, "::", 2) != 0) {
        ps.p = schema;
        return fail(&ps, "a qualified name like aten::add");
    }
    const char *ns_end = ps.p;
    ps.p += 2;
    const char *nm = scan_ident(&ps, false);
    if (!nm) return fail(&ps, "an operator name");
    const char *nm_end = ps.p;
    const char *ov = ps.p, *ov_end = ps.p;
    if (*ps.p == '.') {
        ps.p++;
        ov = scan_ident(&ps, false);
        if (!ov) return fail(&ps, "an overload name");
        ov_end = ps.p;
    }
    op->base_name = dup_range(schema, nm_end);
    op->name = dup_range(schema, ps.p);
    op->overload = dup_range(ov, ov_end);
    op->schema = ct_strdup(schema);
    if (!op->base_name || !op->name || !op->overload || !op->schema) goto fail_free;
    op->python_name = ct_asprintf("%.*s.%.*s.%s", (int)(ns_end - ns), ns, (int)(nm_end - nm), nm,
                                  ov_end > ov ? op->overload : "default");
    if (!op->python_name) goto fail_free;

    if (!accept(&ps, "(")) {
        fail(&ps, "'('");
        goto fail_free;
    }
    bool kwarg_only = false;
    skip_ws(&ps);
    if (!accept(&ps, ")")) {
        for (;;) {
            if (accept(&ps, "*")) {
                kwarg_only = true;
            } else {
                if (op->nargs == CT_MAX_OP_ARGS) {
                    fail(&ps, "fewer arguments");
                    goto fail_free;
                }
                if (parse_arg(&ps, &op->args[op->nargs], false) != 0) {
                    free_arg(&op->args[op->nargs]);
                    goto fail_free;
                }
                op->args[op->nargs].kwarg_only = kwarg_only;
                op->nargs++;
            }
            if (accept(&ps, ")")) break;
            if (!accept(&ps, ",")) {
                fail(&ps, "',' or ')'");
                goto fail_free;
            }
        }
    }
    if (!accept(&ps, "->")) {
        fail(&ps, "'->'");
        goto fail_free;
    }
    skip_ws(&ps);
    if (accept(&ps, "(")) { /* tuple (possibly empty) */
        if (!accept(&ps, ")")) {
            for (;;) {
                if (op->nrets == CT_MAX_OP_RETS) {
                    fail(&ps, "fewer returns");
                    goto fail_free;
                }
                if (parse_arg(&ps, &op->rets[op->nrets], true) != 0) {
                    free_arg(&op->rets[op->nrets]);
                    goto fail_free;
                }
                op->nrets++;
                if (accept(&ps, ")")) break;
                if (!accept(&ps, ",")) {
                    fail(&ps, "',' or ')'");
                    goto fail_free;
                }
            }
        }
    } else {
        if (parse_arg(&ps, &op->rets[0], true) != 0) {
            free_arg(&op->rets[0]);
            goto fail_free;
        }
        op->nrets = 1;
    }
    skip_ws(&ps);
    if (*ps.p != '\0') {
        fail(&ps, "the end of the schema");
        goto fail_free;
    }

    /* classify: in-place (first argument written and returned) and view (returns an alias) */
    op->inplace = op->nargs > 0 && op->args[0].alias_write && op->nrets == 1 &&
                  op->rets[0].alias == op->args[0].alias;
    op->view = false;
    for (int r = 0; r < op->nrets; r++)
        if (op->rets[r].alias && !op->rets[r].alias_write) op->view = true;
    op->mutates = false;
    for (int i = 0; i < op->nargs; i++) op->mutates = op->mutates || op->args[i].alias_write;
    op->dispatch_args = 0;
    for (int i = 0; i < op->nargs; i++) {
        ct_argtype t = op->args[i].type;
        if (t == CT_TY_TENSOR || t == CT_TY_TENSORLIST || t == CT_TY_GENERATOR) op->dispatch_args |= 1u << i;
    }
    return 0;

fail_free:
    ct_schema_free(op);
    return -1;
}
