/* Tensor printing against PyTorch 2.6: every case in tests/golden/torch-2.6/print_cases.json
 * (recorded by tests/golden/record/print_cases.py) is rebuilt from its exact element values and
 * must print byte for byte as repr(tensor) and str(tensor.shape) did. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/node.h"
#include "core/alloc.h"
#include "core/print.h"
#include "core/tensor_impl.h"
#include "ctorch/init.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "ctorch/testing.h"
#include "core/tls.h"
#include "harness.h"
#include "subclass/subclass_impl.h"

/* ---- a small JSON reader, enough for the recorded cases ---- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype type;
    bool b;
    const char *num; /* J_NUM: start of the number in the source text (for strtod/strtoll) */
    char *str;       /* J_STR: decoded, malloc'd */
    int n;           /* J_ARR / J_OBJ: item count */
    struct jval *items;
    char **keys; /* J_OBJ */
} jval;

typedef struct {
    const char *p;
    bool bad;
} jparser;

static void jskip(jparser *jp) {
    while (*jp->p == ' ' || *jp->p == '\n' || *jp->p == '\r' || *jp->p == '\t') jp->p++;
}

static void jfree(jval *v) {
    if (v->type == J_STR) free(v->str);
    if (v->type == J_ARR || v->type == J_OBJ) {
        for (int i = 0; i < v->n; i++) {
            jfree(&v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    memset(v, 0, sizeof *v);
}

/* Appends the UTF-8 encoding of code point cp. */
static size_t put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

static char *jstring(jparser *jp) {
    /* Decoded text is never longer than the escaped source. */
    const char *start = ++jp->p;
    const char *end = start;
    while (*end && *end != '"') end += (*end == '\\' && end[1]) ? 2 : 1;
    if (!*end) {
        jp->bad = true;
        return NULL;
    }
    char *out = malloc((size_t)(end - start) + 1), *o = out;
    if (!out) {
        jp->bad = true;
        return NULL;
    }
    const char *s = start;
    while (s < end) {
        if (*s != '\\') {
            *o++ = *s++;
            continue;
        }
        s++;
        switch (*s) {
        case 'n': *o++ = '\n'; s++; break;
        case 't': *o++ = '\t'; s++; break;
        case 'r': *o++ = '\r'; s++; break;
        case 'b': *o++ = '\b'; s++; break;
        case 'f': *o++ = '\f'; s++; break;
        case 'u': {
            unsigned cp = 0;
            for (int k = 1; k <= 4; k++) {
                char h = s[k];
                cp = cp * 16 + (unsigned)(h >= 'a' ? h - 'a' + 10 : h >= 'A' ? h - 'A' + 10 : h - '0');
            }
            s += 5;
            o += put_utf8(o, cp);
            break;
        }
        default: *o++ = *s++; break; /* \" \\ \/ */
        }
    }
    *o = '\0';
    jp->p = end + 1;
    return out;
}

static void jparse(jparser *jp, jval *v) {
    memset(v, 0, sizeof *v);
    jskip(jp);
    char ch = *jp->p;
    if (ch == '"') {
        v->type = J_STR;
        v->str = jstring(jp);
    } else if (ch == '[' || ch == '{') {
        bool obj = ch == '{';
        char close = obj ? '}' : ']';
        v->type = obj ? J_OBJ : J_ARR;
        jp->p++;
        int cap = 0;
        jskip(jp);
        if (*jp->p == close) {
            jp->p++;
            return;
        }
        for (;;) {
            if (v->n == cap) {
                cap = cap ? cap * 2 : 8;
                jval *items = realloc(v->items, (size_t)cap * sizeof *items);
                char **keys = obj ? realloc(v->keys, (size_t)cap * sizeof *keys) : NULL;
                if (!items || (obj && !keys)) {
                    if (items) v->items = items;
                    if (keys) v->keys = keys;
                    jp->bad = true;
                    return;
                }
                v->items = items;
                if (obj) v->keys = keys;
            }
            jskip(jp);
            if (obj) {
                if (*jp->p != '"') {
                    jp->bad = true;
                    return;
                }
                v->keys[v->n] = jstring(jp);
                jskip(jp);
                if (*jp->p != ':') jp->bad = true;
                jp->p++;
            }
            jparse(jp, &v->items[v->n]);
            v->n++;
            if (jp->bad) return;
            jskip(jp);
            if (*jp->p == ',') {
                jp->p++;
            } else if (*jp->p == close) {
                jp->p++;
                return;
            } else {
                jp->bad = true;
                return;
            }
        }
    } else if (!strncmp(jp->p, "true", 4) || !strncmp(jp->p, "false", 5)) {
        v->type = J_BOOL;
        v->b = ch == 't';
        jp->p += v->b ? 4 : 5;
    } else if (!strncmp(jp->p, "null", 4)) {
        v->type = J_NULL;
        jp->p += 4;
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        v->type = J_NUM;
        v->num = jp->p;
        char *end;
        strtod(jp->p, &end);
        if (end == jp->p) jp->bad = true;
        jp->p = end;
    } else {
        jp->bad = true;
    }
}

static const jval *jget(const jval *obj, const char *key) {
    if (obj->type != J_OBJ) return NULL;
    for (int i = 0; i < obj->n; i++)
        if (obj->keys[i] && strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

/* ---- rebuilding the recorded tensors ---- */

static bool dtype_from_name(const char *s, ct_dtype *out) {
    static const struct {
        const char *name;
        ct_dtype dtype;
    } names[] = {{"float32", CT_FLOAT32}, {"float64", CT_FLOAT64}, {"float16", CT_FLOAT16},
                 {"bfloat16", CT_BFLOAT16}, {"int64", CT_INT64}, {"bool", CT_BOOL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].dtype;
            return true;
        }
    return false;
}

static double value_as_double(const jval *v) {
    switch (v->type) {
    case J_BOOL: return v->b ? 1.0 : 0.0;
    case J_NUM: return strtod(v->num, NULL);
    case J_STR:
        if (strcmp(v->str, "nan") == 0) return NAN;
        if (strcmp(v->str, "inf") == 0) return INFINITY;
        if (strcmp(v->str, "-inf") == 0) return -INFINITY;
        return 0.0;
    default: return 0.0;
    }
}

/* A contiguous tensor holding the values. int64 goes through ct_tensor_from_data because a
 * double cannot carry values such as INT64_MIN + 1 (and INT64_MAX does not convert back). */
static ct_tensor *build_tensor(const jval *values, const int64_t *sizes, int ndim, ct_dtype dt) {
    int n = values->n;
    ct_tensor *t = NULL;
    if (dt == CT_INT64) {
        int64_t *buf = calloc((size_t)n + 1, sizeof *buf);
        for (int i = 0; i < n; i++) buf[i] = strtoll(values->items[i].num, NULL, 10);
        t = ct_tensor_from_data(buf, sizes, ndim, dt);
        free(buf);
    } else {
        double *buf = calloc((size_t)n + 1, sizeof *buf);
        for (int i = 0; i < n; i++) buf[i] = value_as_double(&values->items[i]);
        t = ct_tensor_from_doubles(buf, sizes, ndim, dt);
        free(buf);
    }
    return t;
}

/* The same logical tensor as `t` (contiguous, 2-D), stored column-major: a header with strides
 * (1, rows) over a storage holding the transpose, as x.t().contiguous().t() would be. */
static ct_tensor *make_transposed_view(const ct_tensor *t) {
    int64_t rows = t->sizes[0], cols = t->sizes[1];
    int64_t tsizes[2] = {cols, rows};
    ct_tensor *base = ct_tensor_alloc(tsizes, 2, t->dtype, false);
    if (!base) return NULL;
    size_t es = ct_dtype_size(t->dtype);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            memcpy((char *)base->storage->data + (size_t)(c * rows + r) * es,
                   (char *)t->storage->data + (size_t)(r * cols + c) * es, es);
    int64_t strides[2] = {1, rows};
    ct_tensor *v = ct_tensor_make(base->storage, 0, t->sizes, strides, 2, t->dtype);
    ct_tensor_release(base);
    return v;
}

/* The same values placed after `pad` unrelated elements of a bigger storage. */
static ct_tensor *make_offset_view(const ct_tensor *t, int64_t pad) {
    size_t es = ct_dtype_size(t->dtype);
    ct_storage *s = ct_storage_new((t->numel + pad) * (int64_t)es, true);
    if (!s) return NULL;
    /* Fill the padding with a value that would be visible (and change widths) if read. */
    for (int64_t i = 0; i < pad; i++) ct_store_from_double((char *)s->data + (size_t)i * es, t->dtype, -12345.0);
    memcpy((char *)s->data + (size_t)pad * es, t->storage->data, (size_t)t->numel * es);
    ct_tensor *v = ct_tensor_make(s, pad, t->sizes, NULL, t->ndim, t->dtype);
    ct_storage_release(s);
    return v;
}

static int cases_run;

static void check_case(const jval *c) {
    const jval *name = jget(c, "name"), *dtype = jget(c, "dtype"), *sizes = jget(c, "sizes"),
               *values = jget(c, "values"), *rg = jget(c, "requires_grad"), *gf = jget(c, "grad_fn"),
               *repr = jget(c, "repr"), *size_str = jget(c, "size_str");
    if (!name || !dtype || !sizes || !values || !rg || !gf || !repr || !size_str || name->type != J_STR ||
        dtype->type != J_STR || sizes->type != J_ARR || values->type != J_ARR || repr->type != J_STR ||
        size_str->type != J_STR || sizes->n > CT_MAX_DIMS) {
        CHECK_MSG(0, "malformed case");
        return;
    }
    const char *nm = name->str;
    ct_dtype dt;
    if (!dtype_from_name(dtype->str, &dt)) {
        CHECK_MSG(0, "%s: unknown dtype %s", nm, dtype->str);
        return;
    }
    int64_t sz[CT_MAX_DIMS];
    for (int i = 0; i < sizes->n; i++) sz[i] = strtoll(sizes->items[i].num, NULL, 10);
    ct_tensor *t = build_tensor(values, sz, sizes->n, dt);
    if (!t) {
        CHECK_MSG(0, "%s: could not build the tensor: %s", nm, ct_error_message());
        return;
    }
    cases_run++;
    CHECK_MSG(ct_tensor_numel(t) == values->n, "%s: %d values for numel %lld", nm, values->n,
              (long long)ct_tensor_numel(t));
    const char *grad_fn = gf->type == J_STR ? gf->str : NULL;
    bool requires_grad = rg->type == J_BOOL && rg->b;

    /* Through the public entry point: a leaf's requires_grad is real metadata; grad_fn needs an
     * autograd node, which only the standalone build can fake. */
    if (!grad_fn) {
        if (requires_grad) ct_tensor_autograd_meta(t)->requires_grad = true;
        char *s = ct_tensor_repr(t);
        CHECK_MSG(s && strcmp(s, repr->str) == 0, "%s: repr\n   got: [%s]\n  want: [%s]", nm, s ? s : "(null)",
                  repr->str);
        ct_free(s);
    }
#ifdef CT_PRINT_TEST_STANDALONE
    else {
        static ct_node node;
        node.py_name = grad_fn;
        ct_autograd_meta *m = ct_tensor_autograd_meta(t);
        m->requires_grad = true;
        m->grad_fn = &node;
        char *s = ct_tensor_repr(t);
        CHECK_MSG(s && strcmp(s, repr->str) == 0, "%s: repr (fake node)\n   got: [%s]\n  want: [%s]", nm,
                  s ? s : "(null)", repr->str);
        ct_free(s);
        m->grad_fn = NULL;
    }
#endif

    /* The suffix layout with the autograd facts passed in. */
    char *s = ct_format_tensor_repr_with(t, NULL, NULL, grad_fn, requires_grad);
    CHECK_MSG(s && strcmp(s, repr->str) == 0, "%s: repr_with\n   got: [%s]\n  want: [%s]", nm, s ? s : "(null)",
              repr->str);
    ct_free(s);

    char buf[256];
    size_t need = ct_tensor_format_size(t, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, size_str->str) == 0 && need == strlen(size_str->str), "%s: size\n   got: [%s]\n  want: [%s]",
              nm, buf, size_str->str);

    /* Views print their logical values: the same text from a strided or offset layout. */
    if (ct_tensor_numel(t) > 0) {
        ct_tensor *v = make_offset_view(t, 5);
        s = v ? ct_format_tensor_repr_with(v, NULL, NULL, grad_fn, requires_grad) : NULL;
        CHECK_MSG(s && strcmp(s, repr->str) == 0, "%s: offset view\n   got: [%s]\n  want: [%s]", nm,
                  s ? s : "(null)", repr->str);
        ct_free(s);
        ct_tensor_release(v);
    }
    if (ct_tensor_ndim(t) == 2 && ct_tensor_numel(t) > 0) {
        ct_tensor *v = make_transposed_view(t);
        CHECK_MSG(v && !ct_tensor_is_contiguous(v) == (sz[0] > 1 && sz[1] > 1), "%s: view layout", nm);
        s = v ? ct_format_tensor_repr_with(v, NULL, NULL, grad_fn, requires_grad) : NULL;
        CHECK_MSG(s && strcmp(s, repr->str) == 0, "%s: transposed view\n   got: [%s]\n  want: [%s]", nm,
                  s ? s : "(null)", repr->str);
        ct_free(s);
        ct_tensor_release(v);
    }
    ct_tensor_release(t);
}

static void test_golden(void) {
    const char *path = ct_test_source("tests/golden/torch-2.6/print_cases.json");
    char *text = ct_test_read_file(path, NULL);
    if (!text) {
        CHECK_MSG(0, "cannot read %s", path);
        return;
    }
    jparser jp = {text, false};
    jval root;
    jparse(&jp, &root);
    CHECK_MSG(!jp.bad && root.type == J_ARR && root.n > 0, "cannot parse %s", path);
    if (!jp.bad && root.type == J_ARR)
        for (int i = 0; i < root.n; i++) check_case(&root.items[i]);
    printf("print_cases.json: %d cases\n", cases_run);
    CHECK(cases_run >= 60);
    jfree(&root);
    free(text);
}

/* ---- hand-written checks ---- */

static void test_null_and_errors(void) {
    CHECK(ct_tensor_repr(NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
    CHECK(ct_format_tensor_repr_with(NULL, NULL, NULL, NULL, false) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
    char buf[8] = "xx";
    CHECK_INT_EQ(ct_tensor_format_size(NULL, buf, sizeof buf), 0);
    CHECK_STR_EQ(buf, "");
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_format_size: tensor is NULL");
}

static void test_format_size_truncation(void) {
    int64_t sizes[2] = {2, 600};
    ct_tensor *t = ct_tensor_alloc(sizes, 2, CT_FLOAT32, true);
    char buf[64];
    CHECK_INT_EQ(ct_tensor_format_size(t, buf, sizeof buf), 20);
    CHECK_STR_EQ(buf, "torch.Size([2, 600])");
    char small[8];
    memset(small, 'z', sizeof small);
    CHECK_INT_EQ(ct_tensor_format_size(t, small, sizeof small), 20);
    CHECK_STR_EQ(small, "torch.S");
    CHECK_INT_EQ(ct_tensor_format_size(t, NULL, 0), 20);
    char one[1] = {'z'};
    CHECK_INT_EQ(ct_tensor_format_size(t, one, 1), 20);
    CHECK_INT_EQ(one[0], '\0');
    ct_tensor_release(t);

    ct_tensor *s = ct_tensor_scalar(1.0, CT_FLOAT32);
    CHECK_INT_EQ(ct_tensor_format_size(s, buf, sizeof buf), 14);
    CHECK_STR_EQ(buf, "torch.Size([])");
    ct_tensor_release(s);
}

/* Tensors without element data print like PyTorch's meta tensors, less the device suffix
 * (which a CPU-only library never has). */
static void test_no_data(void) {
    ct_storage *empty = ct_storage_new(0, false);
    int64_t sizes[2] = {2, 3};
    ct_tensor *t = ct_tensor_make(empty, 0, sizes, NULL, 2, CT_FLOAT32);
    char *s = ct_tensor_repr(t);
    CHECK_STR_EQ(s, "tensor(..., size=(2, 3))");
    ct_free(s);
    ct_tensor_release(t);

    int64_t one = 4;
    t = ct_tensor_make(empty, 0, &one, NULL, 1, CT_FLOAT64);
    s = ct_format_tensor_repr_with(t, NULL, NULL, NULL, true);
    CHECK_STR_EQ(s, "tensor(..., size=(4,), dtype=torch.float64, requires_grad=True)");
    ct_free(s);
    ct_tensor_release(t);
    ct_storage_release(empty);

    /* A wrapper subclass shows no values even when its storage has some. The subclass pointer
     * is never dereferenced by printing, and is cleared before release. */
    static const int fake_subclass;
    t = ct_tensor_alloc(sizes, 2, CT_INT64, true);
    t->subclass = (const ct_subclass *)(const void *)&fake_subclass;
    s = ct_tensor_repr(t);
    CHECK_STR_EQ(s, "tensor(..., size=(2, 3), dtype=torch.int64)");
    ct_free(s);
    t->subclass = NULL;
    ct_tensor_release(t);
}

/* grad_fn takes precedence over requires_grad, and a long grad_fn name wraps like any suffix. */
static void test_suffix_rules(void) {
    double v[3] = {1.5, 2.25, -3.0};
    int64_t n = 3;
    ct_tensor *t = ct_tensor_from_doubles(v, &n, 1, CT_FLOAT32);
    char *s = ct_format_tensor_repr_with(t, NULL, NULL, "AddmmBackward0", true);
    CHECK_STR_EQ(s, "tensor([ 1.5000,  2.2500, -3.0000], grad_fn=<AddmmBackward0>)");
    ct_free(s);
    s = ct_format_tensor_repr_with(t, NULL, NULL, "AVeryLongBackwardNodeNameThatDoesNotFitOnTheLine0", false);
    CHECK_STR_EQ(s, "tensor([ 1.5000,  2.2500, -3.0000],\n"
                    "       grad_fn=<AVeryLongBackwardNodeNameThatDoesNotFitOnTheLine0>)");
    ct_free(s);
    /* An autograd meta without requires_grad adds nothing. */
    ct_tensor_autograd_meta(t);
    s = ct_tensor_repr(t);
    CHECK_STR_EQ(s, "tensor([ 1.5000,  2.2500, -3.0000])");
    ct_free(s);
    ct_tensor_release(t);
}

/* Every allocation failure inside printing returns NULL with the out-of-memory error and
 * leaks nothing (AddressSanitizer checks the latter). */
static void test_alloc_failures(void) {
    int64_t sizes[2] = {50, 60};
    double *vals = malloc(3000 * sizeof *vals);
    for (int i = 0; i < 3000; i++) vals[i] = (i % 7) * 0.25 - 1.0;
    ct_tensor *t = ct_tensor_from_doubles(vals, sizes, 2, CT_FLOAT64);
    free(vals);
    char *want = ct_format_tensor_repr_with(t, NULL, NULL, "MulBackward0", true);
    CHECK(want != NULL);
    int failures = 0;
    for (int64_t k = 1; k < 64; k++) {
        ct_testing_fail_alloc_after(k);
        char *s = ct_format_tensor_repr_with(t, NULL, NULL, "MulBackward0", true);
        ct_testing_fail_alloc_after(0);
        if (!s) {
            failures++;
            CHECK_ERROR(CT_ERR_NOMEM, NULL);
            continue;
        }
        CHECK_STR_EQ(s, want);
        ct_free(s);
        break;
    }
    CHECK(failures > 0);
    ct_free(want);
    ct_tensor_release(t);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t tensors_before = ct_testing_live_tensors();
    test_golden();
    test_null_and_errors();
    test_format_size_truncation();
    test_no_data();
    test_suffix_rules();
    test_alloc_failures();
    CHECK_INT_EQ(ct_testing_live_tensors(), tensors_before);
    return ct_test_finish("test_print");
}
