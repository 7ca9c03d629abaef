/*
 * Tensor printing: repr(t) and str(t.shape), byte for byte as PyTorch 2.6's torch/_tensor_str.py
 * prints them with the default print options.
 *
 * The work is done in three steps, as PyTorch does:
 *   1. pick a formatter (element kind and one common width) from the elements that will be
 *      shown: all of them, or only the edge items when the tensor is summarized;
 *   2. lay out the nested brackets, wrapping 1-D rows so they fit the line width;
 *   3. append the suffixes (size, dtype, grad_fn / requires_grad), each on a new line when it
 *      would overflow the line width.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/print.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "util/strbuf.h"

/* torch._tensor_str.PRINT_OPTS defaults. ctorch has no set_printoptions, so they are fixed. */
enum {
    PRINT_PRECISION = 4,
    PRINT_THRESHOLD = 1000, /* summarize when numel exceeds this */
    PRINT_EDGEITEMS = 3,
    PRINT_LINEWIDTH = 80
};

/* Longest element text: "%.4f" of a double near DBL_MAX is ~315 characters. Fixed notation is
 * only chosen for values <= 1e8, but the buffer does not rely on that. */
#define ELEM_BUF 400

static void sb_shape_tuple(ct_strbuf *sb, const ct_tensor *t) {
    char num[32];
    ct_sb_puts(sb, "(");
    for (int d = 0; d < t->ndim; d++) {
        snprintf(num, sizeof num, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
        ct_sb_puts(sb, num);
    }
    if (t->ndim == 1) ct_sb_puts(sb, ",");
    ct_sb_puts(sb, ")");
}

/* ---- element formatting (PyTorch's _Formatter) ---- */

typedef enum {
    FMT_INT,      /* the integer dtypes: Python's str(int) */
    FMT_BOOL,     /* "True" / "False" */
    FMT_INT_MODE, /* floats that are all integral: "%.0f" plus a "." */
    FMT_FIXED,    /* "%.4f" */
    FMT_SCI       /* "%.4e" */
} fmt_kind;

typedef struct {
    fmt_kind kind;
    int max_width; /* every element is right-aligned to this width (longer ones are not cut) */
} formatter;

typedef struct {
    const ct_tensor *t;
    bool summarize;
    size_t elem_size;
} print_ctx;

static const void *elem_at(const print_ctx *c, int64_t offset) {
    return (const char *)c->t->storage->data + (size_t)offset * c->elem_size;
}

/* Writes the unpadded text of the element at storage offset `offset`; returns its length. */
static int format_raw(const print_ctx *c, fmt_kind kind, int64_t offset, char *out) {
    const void *p = elem_at(c, offset);
    switch (kind) {
    case FMT_INT:
        /* Read int64 directly: a double would lose digits beyond 2^53. */
        return snprintf(out, ELEM_BUF, "%lld", (long long)ct_elem_load_int64(p, c->t->dtype));
    case FMT_BOOL:
        return snprintf(out, ELEM_BUF, "%s", *(const uint8_t *)p ? "True" : "False");
    default: break;
    }
    /* PyTorch formats the Python float that .tolist()/.item() give, i.e. the stored value
     * widened exactly to double (half and bfloat16 included). */
    double v = ct_load_as_double(p, c->t->dtype);
    /* Python spells every NaN "nan" (C may print "-nan"), and infinities never get the
     * int-mode "." that marks a float. */
    if (isnan(v)) return snprintf(out, ELEM_BUF, "nan");
    if (isinf(v)) return snprintf(out, ELEM_BUF, "%s", v > 0 ? "inf" : "-inf");
    /* Python's float formatting and C's printf both round the exact binary value correctly
     * (ties to even), so "%.4f" and "{:.4f}" agree digit for digit. */
    switch (kind) {
    case FMT_SCI: return snprintf(out, ELEM_BUF, "%.*e", PRINT_PRECISION, v);
    case FMT_INT_MODE: return snprintf(out, ELEM_BUF, "%.0f.", v);
    default: return snprintf(out, ELEM_BUF, "%.*f", PRINT_PRECISION, v);
    }
}

static void sb_element(ct_strbuf *sb, const print_ctx *c, const formatter *f, int64_t offset) {
    char text[ELEM_BUF];
    int n = format_raw(c, f->kind, offset, text);
    if (n < 0) n = 0;
    if (n >= ELEM_BUF) n = ELEM_BUF - 1;
    if (n < f->max_width) ct_sb_repeat(sb, ' ', (size_t)(f->max_width - n));
    ct_sb_write(sb, text, (size_t)n);
}

/* ---- visiting the shown elements ---- */

/* With summarization, a dimension longer than 2*edgeitems shows only its first and last
 * edgeitems entries. PyTorch applies the same rule when it gathers the data for the formatter
 * (get_summarized_data) and when it prints, so the formatter sees exactly the printed values. */
static bool dim_is_cut(const print_ctx *c, int dim) {
    return c->summarize && c->t->sizes[dim] > 2 * PRINT_EDGEITEMS;
}

typedef void (*elem_visitor)(const print_ctx *c, int64_t offset, void *arg);

static void visit_shown(const print_ctx *c, int dim, int64_t offset, elem_visitor fn, void *arg) {
    const ct_tensor *t = c->t;
    if (dim == t->ndim) {
        fn(c, offset, arg);
        return;
    }
    int64_t n = t->sizes[dim];
    bool cut = dim_is_cut(c, dim);
    for (int64_t i = 0; i < n; i++) {
        if (cut && i == PRINT_EDGEITEMS) i = n - PRINT_EDGEITEMS;
        visit_shown(c, dim + 1, offset + i * t->strides[dim], fn, arg);
    }
}

/* Statistics over the non-zero finite values, which alone decide the float format. */
typedef struct {
    int64_t count;
    double min_abs, max_abs;
    bool int_mode; /* every such value is integral */
} float_stats;

static void collect_stats(const print_ctx *c, int64_t offset, void *arg) {
    float_stats *s = arg;
    double v = ct_load_as_double(elem_at(c, offset), c->t->dtype);
    if (!isfinite(v) || v == 0.0) return;
    double a = fabs(v);
    if (s->count == 0 || a < s->min_abs) s->min_abs = a;
    if (s->count == 0 || a > s->max_abs) s->max_abs = a;
    if (v != ceil(v)) s->int_mode = false;
    s->count++;
}

typedef struct {
    formatter *f;
    bool floating; /* only non-zero finite floats count towards the width */
} width_arg;

static void widen(const print_ctx *c, int64_t offset, void *arg) {
    width_arg *w = arg;
    if (w->floating) {
        double v = ct_load_as_double(elem_at(c, offset), c->t->dtype);
        if (!isfinite(v) || v == 0.0) return;
    }
    char text[ELEM_BUF];
    int n = format_raw(c, w->f->kind, offset, text);
    if (n > w->f->max_width) w->f->max_width = n;
}

static formatter make_formatter(const print_ctx *c) {
    formatter f = {FMT_INT_MODE, 1};
    ct_dtype dt = c->t->dtype;
    if (!ct_dtype_is_floating(dt)) {
        f.kind = dt == CT_BOOL ? FMT_BOOL : FMT_INT;
        width_arg w = {&f, false};
        visit_shown(c, 0, c->t->storage_offset, widen, &w);
        return f;
    }
    float_stats s = {0, 0.0, 0.0, true};
    visit_shown(c, 0, c->t->storage_offset, collect_stats, &s);
    /* Nothing but zeros, nan and inf: int mode with width 1, as "tensor([0., nan])". */
    if (s.count == 0) return f;
    /* PyTorch divides in double even for float16/bfloat16 (whose max would overflow). Zeros
     * and non-finite values are excluded, so min_abs > 0. Integral values never switch to
     * scientific notation for being small, only for range or magnitude. */
    double ratio = s.max_abs / s.min_abs;
    if (s.int_mode)
        f.kind = (ratio > 1000.0 || s.max_abs > 1.0e8) ? FMT_SCI : FMT_INT_MODE;
    else
        f.kind = (ratio > 1000.0 || s.max_abs > 1.0e8 || s.min_abs < 1.0e-4) ? FMT_SCI : FMT_FIXED;
    width_arg w = {&f, true};
    visit_shown(c, 0, c->t->storage_offset, widen, &w);
    return f;
}

/* ---- layout (PyTorch's _tensor_str_with_formatter / _vector_str) ---- */

static void sb_row(ct_strbuf *sb, const print_ctx *c, const formatter *f, int64_t offset, int indent) {
    const ct_tensor *t = c->t;
    int dim = t->ndim - 1;
    /* Elements per line come from the common width only; an element wider than that (a "nan"
     * among 2-character ints, say) does not reduce the count. Python floors a true division;
     * for a negative numerator both that and C's truncation end at the minimum of 1. */
    int64_t per_line = (PRINT_LINEWIDTH - indent) / (f->max_width + 2);
    if (per_line < 1) per_line = 1;
    int64_t n = t->sizes[dim];
    bool cut = dim_is_cut(c, dim);
    int64_t item = 0; /* the " ..." marker counts as an item when lines are filled */
    ct_sb_puts(sb, "[");
    for (int64_t i = 0; i < n; i++) {
        bool marker = cut && i == PRINT_EDGEITEMS;
        if (item > 0) {
            if (item % per_line == 0) {
                ct_sb_puts(sb, ",\n");
                ct_sb_repeat(sb, ' ', (size_t)(indent + 1));
            } else {
                ct_sb_puts(sb, ", ");
            }
        }
        item++;
        if (marker) {
            ct_sb_puts(sb, " ...");
            i = n - PRINT_EDGEITEMS - 1;
            continue;
        }
        sb_element(sb, c, f, offset + i * t->strides[dim]);
    }
    ct_sb_puts(sb, "]");
}

static void sb_nested(ct_strbuf *sb, const print_ctx *c, const formatter *f, int dim, int64_t offset,
                      int indent) {
    const ct_tensor *t = c->t;
    if (dim == t->ndim - 1) {
        sb_row(sb, c, f, offset, indent);
        return;
    }
    int64_t n = t->sizes[dim];
    bool cut = dim_is_cut(c, dim);
    /* Sub-tensors are separated by one line break per remaining dimension, so 3-D blocks get a
     * blank line between them, 4-D ones two. */
    int blank = t->ndim - dim - 1;
    ct_sb_puts(sb, "[");
    for (int64_t i = 0; i < n; i++) {
        if (i > 0) {
            ct_sb_puts(sb, ",");
            ct_sb_repeat(sb, '\n', (size_t)(blank));
            ct_sb_repeat(sb, ' ', (size_t)(indent + 1));
        }
        if (cut && i == PRINT_EDGEITEMS) {
            ct_sb_puts(sb, "...");
            i = n - PRINT_EDGEITEMS - 1;
            continue;
        }
        sb_nested(sb, c, f, dim + 1, offset + i * t->strides[dim], indent + 1);
    }
    ct_sb_puts(sb, "]");
}

/* ---- suffixes (PyTorch's _add_suffixes) ---- */

typedef struct {
    ct_strbuf *sb;
    int indent;
    int64_t last_line_len;
} suffixer;

static void suffix_begin(suffixer *s, ct_strbuf *sb, int indent) {
    s->sb = sb;
    s->indent = indent;
    /* PyTorch measures len(text) - text.rfind("\n") + 1, which is two more than the last
     * line's length (also when there is no newline and rfind gives -1). The first suffix is
     * compared using that overcount; after a suffix goes onto a new line the count is exact. */
    const char *nl = sb->failed ? NULL : strrchr(sb->buf, '\n');
    int64_t pos = nl ? (int64_t)(nl - sb->buf) : -1;
    s->last_line_len = (int64_t)sb->len - pos + 1;
}

static void suffix_add(suffixer *s, const char *suffix) {
    int64_t n = (int64_t)strlen(suffix);
    if (s->last_line_len + n + 2 > PRINT_LINEWIDTH) {
        ct_sb_puts(s->sb, ",\n");
        ct_sb_repeat(s->sb, ' ', (size_t)(s->indent));
        s->last_line_len = s->indent + n;
    } else {
        ct_sb_puts(s->sb, ", ");
        s->last_line_len += n + 2;
    }
    ct_sb_puts(s->sb, suffix);
}

static void suffix_shape(suffixer *s, const ct_tensor *t) {
    ct_strbuf tmp = CT_STRBUF_INIT;
    ct_sb_puts(&tmp, "size=");
    sb_shape_tuple(&tmp, t);
    if (tmp.failed) s->sb->failed = true;
    else suffix_add(s, tmp.buf);
    ct_free(tmp.buf);
}

/* ---- entry points ---- */

char *ct_format_tensor_repr_with(const ct_tensor *t, const char *name, const char *contents, const char *grad_fn_name,
                                 bool requires_grad) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
        return NULL;
    }
    if (!ct_dtype_valid(t->dtype)) {
        ct_error_set(CT_ERR_TYPE, "ct_tensor_repr: invalid dtype %d", (int)t->dtype);
        return NULL;
    }
    if (!name) name = "tensor";
    /* PyTorch's _str_intern: the prefix is the class name and every continuation line is
     * indented by its length, so a subclass's rows line up under its own name */
    const int indent = (int)strlen(name) + 1;
    const ct_dtype default_dtype = ct_default_dtype();
    ct_strbuf sb = CT_STRBUF_INIT;
    suffixer sfx;
    ct_sb_puts(&sb, name);
    ct_sb_puts(&sb, "(");

    bool no_data = !t->storage || !t->storage->data;
    if (contents) {
        /* _str(tensor_contents=...): the caller's text where the values go, the suffixes as for
         * values */
        ct_sb_puts(&sb, contents);
        suffix_begin(&sfx, &sb, indent);
        if (t->dtype != default_dtype && t->dtype != CT_INT64 && t->dtype != CT_BOOL) {
            char d[64];
            snprintf(d, sizeof d, "dtype=%s", ct_dtype_python_name(t->dtype));
            suffix_add(&sfx, d);
        }
    } else if (t->subclass || (no_data && t->numel > 0)) {
        /* No element data to show (a wrapper subclass keeps its values elsewhere): print it
         * the way PyTorch prints a meta tensor, "tensor(..., size=(2, 3))". */
        ct_sb_puts(&sb, "...");
        suffix_begin(&sfx, &sb, indent);
        suffix_shape(&sfx, t);
        if (t->dtype != default_dtype) {
            char d[64];
            snprintf(d, sizeof d, "dtype=%s", ct_dtype_python_name(t->dtype));
            suffix_add(&sfx, d);
        }
    } else if (t->numel == 0) {
        /* Nothing to infer the dtype from, so every non-default dtype is named, int64 and
         * bool included; the shape is named unless it is the plain (0,). */
        ct_sb_puts(&sb, "[]");
        suffix_begin(&sfx, &sb, indent);
        if (t->ndim != 1) suffix_shape(&sfx, t);
        if (t->dtype != default_dtype) {
            char d[64];
            snprintf(d, sizeof d, "dtype=%s", ct_dtype_python_name(t->dtype));
            suffix_add(&sfx, d);
        }
    } else {
        print_ctx c = {t, t->numel > PRINT_THRESHOLD, ct_dtype_size(t->dtype)};
        formatter f = make_formatter(&c);
        if (t->ndim == 0)
            sb_element(&sb, &c, &f, t->storage_offset);
        else
            sb_nested(&sb, &c, &f, 0, t->storage_offset, indent);
        suffix_begin(&sfx, &sb, indent);
        /* int64 and bool values read unambiguously, so like the default float dtype they
         * are not named. */
        if (t->dtype != default_dtype && t->dtype != CT_INT64 && t->dtype != CT_BOOL) {
            char d[64];
            snprintf(d, sizeof d, "dtype=%s", ct_dtype_python_name(t->dtype));
            suffix_add(&sfx, d);
        }
    }

    if (grad_fn_name) {
        ct_strbuf g = CT_STRBUF_INIT;
        ct_sb_puts(&g, "grad_fn=<");
        ct_sb_puts(&g, grad_fn_name);
        ct_sb_puts(&g, ">");
        if (g.failed) sb.failed = true;
        else suffix_add(&sfx, g.buf);
        ct_free(g.buf);
    } else if (requires_grad) {
        suffix_add(&sfx, "requires_grad=True");
    }
    ct_sb_puts(&sb, ")");

    if (sb.failed) {
        /* ct_realloc has set the out-of-memory error. */
        ct_free(sb.buf);
        return NULL;
    }
    return sb.buf;
}

char *ct_tensor_repr(const ct_tensor *t) { return ct_tensor_repr_as(t, NULL, NULL); }

char *ct_tensor_repr_as(const ct_tensor *t, const char *name, const char *contents) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
        return NULL;
    }
    const char *grad_fn_name = NULL;
    bool requires_grad = false;
    if (t->autograd) {
        requires_grad = t->autograd->requires_grad;
        grad_fn_name = ct_autograd_hooks->grad_fn_name(t->autograd);
    }
    return ct_format_tensor_repr_with(t, name, contents, grad_fn_name, requires_grad);
}

/* Appends to buf like snprintf would, counting the full length even past the end. */
static void put_bounded(char *buf, size_t size, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len < size) {
        size_t room = size - *len - 1;
        size_t k = n < room ? n : room;
        memcpy(buf + *len, s, k);
        buf[*len + k] = '\0';
    }
    *len += n;
}

void ct_format_shape(const int64_t *sizes, int ndim, char *buf, size_t size) {
    size_t len = 0;
    len += (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < ndim && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    if (len < size) snprintf(buf + len, size - len, "]");
}

size_t ct_tensor_format_size(const ct_tensor *t, char *buf, size_t size) {
    if (!buf) size = 0; /* (NULL, 0) only measures, as with snprintf */
    if (size > 0) buf[0] = '\0';
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_format_size: tensor is NULL");
        return 0;
    }
    size_t len = 0;
    char num[32];
    put_bounded(buf, size, &len, "torch.Size([");
    for (int d = 0; d < t->ndim; d++) {
        snprintf(num, sizeof num, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
        put_bounded(buf, size, &len, num);
    }
    put_bounded(buf, size, &len, "])");
    return len;
}
