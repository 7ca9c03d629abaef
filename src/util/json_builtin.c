/*
 * The built-in JSON backend: the subset of the cJSON API declared in util/json.h, for
 * machines without the system cJSON. Written for ctorch (not derived from cJSON's source);
 * only the API and its observable behaviour follow cJSON, so code behaves the same with
 * either backend.
 *
 * Parser: recursive descent over a (pointer, end) range, so input need not be
 * NUL-terminated and nothing is read past the end. Nesting is bounded by
 * CJSON_NESTING_LIMIT, which bounds the recursion. Every allocation goes through ct_malloc
 * and every failure unwinds: a failed parse frees whatever it built and returns NULL.
 */
#include "util/json.h"

#ifndef CTORCH_HAVE_CJSON

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* ---- items ---------------------------------------------------------------------------------- */

static cJSON *new_item(int type) {
    cJSON *it = ct_calloc(1, sizeof *it);
    if (it) it->type = type;
    return it;
}

void cJSON_Delete(cJSON *item) {
    /* Siblings iteratively, children recursively: the recursion depth is the tree's depth,
     * which the parser bounds; a flat array of a million items costs no stack. */
    while (item) {
        cJSON *next = item->next;
        if (!(item->type & cJSON_IsReference)) {
            cJSON_Delete(item->child);
            ct_free(item->valuestring);
        }
        if (!(item->type & cJSON_StringIsConst)) ct_free(item->string);
        ct_free(item);
        item = next;
    }
}

void *cJSON_malloc(size_t size) { return ct_malloc(size); }
void cJSON_free(void *object) { ct_free(object); }

/* Appends item to parent's child list. The head's prev is kept pointing at the tail (as
 * cJSON does) so appending to a long array is O(1). */
static void append_child(cJSON *parent, cJSON *item) {
    cJSON *head = parent->child;
    item->next = NULL;
    if (!head) {
        parent->child = item;
        item->prev = item;
        return;
    }
    cJSON *tail = head->prev;
    if (!tail) /* a list built by hand without the tail link: find the end */
        for (tail = head; tail->next; tail = tail->next) {}
    tail->next = item;
    item->prev = tail;
    head->prev = item;
}

/* cJSON keeps a saturated int copy of every number; NaN (whose conversion to int is
 * undefined behaviour) gets 0. */
static int saturate_int(double d) {
    if (d != d) return 0;
    if (d >= (double)INT_MAX) return INT_MAX;
    if (d <= (double)INT_MIN) return INT_MIN;
    return (int)d;
}

cJSON *cJSON_CreateNull(void) { return new_item(cJSON_NULL); }
cJSON *cJSON_CreateTrue(void) { return new_item(cJSON_True); }
cJSON *cJSON_CreateFalse(void) { return new_item(cJSON_False); }
cJSON *cJSON_CreateBool(cJSON_bool boolean) { return new_item(boolean ? cJSON_True : cJSON_False); }
cJSON *cJSON_CreateArray(void) { return new_item(cJSON_Array); }
cJSON *cJSON_CreateObject(void) { return new_item(cJSON_Object); }

cJSON *cJSON_CreateNumber(double num) {
    cJSON *it = new_item(cJSON_Number);
    if (it) {
        it->valuedouble = num;
        it->valueint = saturate_int(num);
    }
    return it;
}

cJSON *cJSON_CreateString(const char *string) {
    if (!string) return NULL;
    cJSON *it = new_item(cJSON_String);
    if (!it) return NULL;
    it->valuestring = ct_strdup(string);
    if (!it->valuestring) {
        ct_free(it);
        return NULL;
    }
    return it;
}

cJSON *cJSON_CreateRaw(const char *raw) {
    if (!raw) return NULL;
    cJSON *it = new_item(cJSON_Raw);
    if (!it) return NULL;
    it->valuestring = ct_strdup(raw);
    if (!it->valuestring) {
        ct_free(it);
        return NULL;
    }
    return it;
}

cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item) {
    if (!array || !item || array == item) return 0;
    append_child(array, item);
    return 1;
}

cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *string, cJSON *item) {
    if (!object || !string || !item || object == item) return 0;
    /* copy the key first: if that fails, nothing has changed and the caller keeps item */
    char *key = ct_strdup(string);
    if (!key) return 0;
    if (!(item->type & cJSON_StringIsConst)) ct_free(item->string);
    item->string = key;
    item->type &= ~cJSON_StringIsConst;
    append_child(object, item);
    return 1;
}

/* Adds a freshly created item, or deletes it if it cannot be added. */
static cJSON *add_new(cJSON *object, const char *name, cJSON *item) {
    if (!item) return NULL;
    if (!cJSON_AddItemToObject(object, name, item)) {
        cJSON_Delete(item);
        return NULL;
    }
    return item;
}

cJSON *cJSON_AddNullToObject(cJSON *const object, const char *const name) {
    return add_new(object, name, cJSON_CreateNull());
}
cJSON *cJSON_AddTrueToObject(cJSON *const object, const char *const name) {
    return add_new(object, name, cJSON_CreateTrue());
}
cJSON *cJSON_AddFalseToObject(cJSON *const object, const char *const name) {
    return add_new(object, name, cJSON_CreateFalse());
}
cJSON *cJSON_AddBoolToObject(cJSON *const object, const char *const name, const cJSON_bool boolean) {
    return add_new(object, name, cJSON_CreateBool(boolean));
}
cJSON *cJSON_AddNumberToObject(cJSON *const object, const char *const name, const double number) {
    return add_new(object, name, cJSON_CreateNumber(number));
}
cJSON *cJSON_AddStringToObject(cJSON *const object, const char *const name, const char *const string) {
    return add_new(object, name, cJSON_CreateString(string));
}
cJSON *cJSON_AddObjectToObject(cJSON *const object, const char *const name) {
    return add_new(object, name, cJSON_CreateObject());
}
cJSON *cJSON_AddArrayToObject(cJSON *const object, const char *const name) {
    return add_new(object, name, cJSON_CreateArray());
}

/* ---- queries -------------------------------------------------------------------------------- */

static int kind(const cJSON *item) { return item ? (item->type & 0xFF) : cJSON_Invalid; }

cJSON_bool cJSON_IsInvalid(const cJSON *const item) { return item && kind(item) == cJSON_Invalid; }
cJSON_bool cJSON_IsFalse(const cJSON *const item) { return kind(item) == cJSON_False; }
cJSON_bool cJSON_IsTrue(const cJSON *const item) { return kind(item) == cJSON_True; }
cJSON_bool cJSON_IsBool(const cJSON *const item) { return (kind(item) & (cJSON_True | cJSON_False)) != 0; }
cJSON_bool cJSON_IsNull(const cJSON *const item) { return kind(item) == cJSON_NULL; }
cJSON_bool cJSON_IsNumber(const cJSON *const item) { return kind(item) == cJSON_Number; }
cJSON_bool cJSON_IsString(const cJSON *const item) { return kind(item) == cJSON_String; }
cJSON_bool cJSON_IsArray(const cJSON *const item) { return kind(item) == cJSON_Array; }
cJSON_bool cJSON_IsObject(const cJSON *const item) { return kind(item) == cJSON_Object; }
cJSON_bool cJSON_IsRaw(const cJSON *const item) { return kind(item) == cJSON_Raw; }

char *cJSON_GetStringValue(const cJSON *const item) {
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

double cJSON_GetNumberValue(const cJSON *const item) {
    return cJSON_IsNumber(item) ? item->valuedouble : (double)NAN;
}

int cJSON_GetArraySize(const cJSON *array) {
    int n = 0;
    if (!array) return 0;
    for (const cJSON *c = array->child; c; c = c->next) n++;
    return n;
}

cJSON *cJSON_GetArrayItem(const cJSON *array, int index) {
    if (!array || index < 0) return NULL;
    cJSON *c = array->child;
    while (c && index > 0) {
        c = c->next;
        index--;
    }
    return c;
}

/* ASCII-only case folding: independent of the C locale, so lookups do not change with it. */
static int ascii_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

static int keys_equal(const char *a, const char *b, int case_sensitive) {
    if (case_sensitive) return strcmp(a, b) == 0;
    for (; *a && *b; a++, b++)
        if (ascii_lower((unsigned char)*a) != ascii_lower((unsigned char)*b)) return 0;
    return *a == *b;
}

static cJSON *find_member(const cJSON *object, const char *key, int case_sensitive) {
    if (!object || !key) return NULL;
    for (cJSON *c = object->child; c; c = c->next)
        if (c->string && keys_equal(c->string, key, case_sensitive)) return c;
    return NULL;
}

cJSON *cJSON_GetObjectItem(const cJSON *const object, const char *const string) {
    return find_member(object, string, 0);
}
cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *const object, const char *const string) {
    return find_member(object, string, 1);
}
cJSON_bool cJSON_HasObjectItem(const cJSON *object, const char *string) {
    return find_member(object, string, 0) != NULL;
}

/* ---- parsing -------------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *p;   /* next byte; on failure, where the error was found */
    const unsigned char *end; /* one past the last readable byte */
    int depth;                /* arrays/objects currently open */
} parser;

static cJSON *parse_value(parser *ps);

/* RFC 8259 whitespace only (cJSON itself skips every byte <= 0x20). */
static void skip_ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int hex4(const unsigned char *s, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(unsigned char *o, unsigned cp) {
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Parses the string literal at ps->p (which is '"') into a new NUL-terminated UTF-8 buffer.
 * First finds the closing quote, which bounds the output: no escape decodes to more bytes
 * than it occupies (\uXXXX: 6 -> at most 3, a surrogate pair: 12 -> 4), so one allocation
 * of the raw length suffices. Rejects raw control characters (RFC 8259), unknown escapes,
 * malformed \u and unpaired surrogates (as cJSON does: they have no UTF-8 form). */
static char *parse_string(parser *ps) {
    const unsigned char *s = ps->p + 1, *q = s;
    while (q < ps->end && *q != '"') {
        if (*q < 0x20) {
            ps->p = q;
            return NULL;
        }
        if (*q == '\\') { /* the escaped byte cannot close the string */
            if (ps->end - q < 2) { /* a backslash at the very end */
                q = ps->end;
                break;
            }
            q++;
        }
        q++;
    }
    if (q >= ps->end) { /* unterminated */
        ps->p = ps->end;
        return NULL;
    }
    unsigned char *out = ct_malloc((size_t)(q - s) + 1);
    if (!out) return NULL;
    size_t n = 0;
    const unsigned char *r = s;
    while (r < q) {
        if (*r != '\\') {
            out[n++] = *r++;
            continue;
        }
        const unsigned char *esc = r++;
        switch (*r++) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (q - r < 4 || hex4(r, &cp) != 0) goto bad;
            r += 4;
            if (cp >= 0xDC00 && cp <= 0xDFFF) goto bad; /* low surrogate first */
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                /* a high surrogate must be followed by an escaped low one */
                if (q - r < 6 || r[0] != '\\' || r[1] != 'u' || hex4(r + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
                    goto bad;
                r += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            n += put_utf8(out + n, cp);
            break;
        }
        default:
        bad:
            ct_free(out);
            ps->p = esc;
            return NULL;
        }
    }
    out[n] = '\0';
    ps->p = q + 1;
    return (char *)out;
}

/* Parses a number with RFC 8259's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
 * The conversion hands strtod the digits without the decimal point and with the exponent
 * adjusted ("12.5e3" -> "125e2"): strtod's decimal point follows the C locale, and a
 * program that called setlocale() could otherwise misread every fraction. */
static cJSON *parse_number(parser *ps) {
    const unsigned char *p = ps->p, *end = ps->end;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    const unsigned char *int_start = p;
    if (p >= end || !is_digit(*p)) goto bad;
    if (*p == '0') p++;
    else
        while (p < end && is_digit(*p)) p++;
    const unsigned char *int_end = p, *frac_start = p, *frac_end = p;
    if (p < end && *p == '.') {
        frac_start = ++p;
        if (p >= end || !is_digit(*p)) goto bad;
        while (p < end && is_digit(*p)) p++;
        frac_end = p;
    }
    long long exp10 = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p >= end || !is_digit(*p)) goto bad;
        while (p < end && is_digit(*p)) {
            /* beyond 10^9 the result is 0 or infinity anyway: stop growing (no overflow) */
            if (exp10 < 1000000000LL) exp10 = exp10 * 10 + (*p - '0');
            p++;
        }
        if (eneg) exp10 = -exp10;
    }
    exp10 -= (long long)(frac_end - frac_start);

    size_t ndig = (size_t)(int_end - int_start) + (size_t)(frac_end - frac_start);
    char small[96], *buf = small;
    size_t need = ndig + 32; /* sign, 'e', exponent, NUL */
    if (need > sizeof small) {
        buf = ct_malloc(need);
        if (!buf) return NULL;
    }
    size_t k = 0;
    if (neg) buf[k++] = '-';
    memcpy(buf + k, int_start, (size_t)(int_end - int_start));
    k += (size_t)(int_end - int_start);
    memcpy(buf + k, frac_start, (size_t)(frac_end - frac_start));
    k += (size_t)(frac_end - frac_start);
    snprintf(buf + k, need - k, "e%lld", exp10);
    double v = strtod(buf, NULL); /* overflow gives +-HUGE_VAL (inf), as in cJSON and Python */
    if (buf != small) ct_free(buf);

    cJSON *it = cJSON_CreateNumber(v);
    if (it) ps->p = p;
    return it;
bad:
    ps->p = p;
    return NULL;
}

static cJSON *parse_literal(parser *ps, const char *word, int type) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return NULL;
    cJSON *it = new_item(type);
    if (!it) return NULL;
    if (type == cJSON_True) it->valueint = 1; /* cJSON's parser sets it for true */
    ps->p += n;
    return it;
}

/* Arrays and objects share one loop; is_object adds the "key": part. */
static cJSON *parse_container(parser *ps, int is_object) {
    char close = is_object ? '}' : ']';
    if (ps->depth >= CJSON_NESTING_LIMIT) return NULL;
    cJSON *c = new_item(is_object ? cJSON_Object : cJSON_Array);
    if (!c) return NULL;
    ps->depth++;
    ps->p++; /* [ or { */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return c;
    }
    for (;;) {
        char *key = NULL;
        if (is_object) {
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') goto fail;
            key = parse_string(ps);
            if (!key) goto fail;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                ct_free(key);
                goto fail;
            }
            ps->p++;
        }
        cJSON *v = parse_value(ps);
        if (!v) {
            ct_free(key);
            goto fail;
        }
        v->string = key;
        append_child(c, v);
        skip_ws(ps);
        if (ps->p >= ps->end) goto fail;
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            break;
        }
        goto fail;
    }
    ps->depth--;
    return c;
fail:
    cJSON_Delete(c);
    return NULL;
}

/* Skips leading whitespace, then parses one value; ps->p ends just after it. */
static cJSON *parse_value(parser *ps) {
    skip_ws(ps);
    if (ps->p >= ps->end) return NULL;
    switch (*ps->p) {
    case '{': return parse_container(ps, 1);
    case '[': return parse_container(ps, 0);
    case '"': {
        char *s = parse_string(ps);
        if (!s) return NULL;
        cJSON *it = new_item(cJSON_String);
        if (!it) {
            ct_free(s);
            return NULL;
        }
        it->valuestring = s;
        return it;
    }
    case 't': return parse_literal(ps, "true", cJSON_True);
    case 'f': return parse_literal(ps, "false", cJSON_False);
    case 'n': return parse_literal(ps, "null", cJSON_NULL);
    default:
        if (*ps->p == '-' || is_digit(*ps->p)) return parse_number(ps);
        return NULL;
    }
}

cJSON *cJSON_ParseWithLengthOpts(const char *value, size_t buffer_length, const char **return_parse_end,
                                 cJSON_bool require_null_terminated) {
    if (!value || buffer_length == 0) {
        if (return_parse_end) *return_parse_end = value;
        return NULL;
    }
    parser ps = {(const unsigned char *)value, (const unsigned char *)value + buffer_length, 0};
    if (buffer_length >= 3 && memcmp(value, "\xEF\xBB\xBF", 3) == 0) ps.p += 3; /* UTF-8 BOM */
    cJSON *root = parse_value(&ps);
    if (root && require_null_terminated) {
        skip_ws(&ps);
        if (ps.p >= ps.end || *ps.p != '\0') {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    if (return_parse_end) *return_parse_end = (const char *)ps.p;
    return root;
}

cJSON *cJSON_ParseWithOpts(const char *value, const char **return_parse_end, cJSON_bool require_null_terminated) {
    if (!value) {
        if (return_parse_end) *return_parse_end = NULL;
        return NULL;
    }
    /* the length counts the terminating NUL, as in cJSON, so require_null_terminated works */
    return cJSON_ParseWithLengthOpts(value, strlen(value) + 1, return_parse_end, require_null_terminated);
}

cJSON *cJSON_ParseWithLength(const char *value, size_t buffer_length) {
    return cJSON_ParseWithLengthOpts(value, buffer_length, NULL, 0);
}

cJSON *cJSON_Parse(const char *value) { return cJSON_ParseWithOpts(value, NULL, 0); }

/* ---- printing (cJSON's layout) ---------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    int failed; /* an allocation failed: stop writing, return NULL at the end */
} outbuf;

static void out_write(outbuf *o, const char *s, size_t n) {
    if (o->failed) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + n + 1) cap *= 2;
        char *nb = ct_realloc(o->buf, cap);
        if (!nb) {
            o->failed = 1;
            return;
        }
        o->buf = nb;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void out_str(outbuf *o, const char *s) { out_write(o, s, strlen(s)); }

static void out_tabs(outbuf *o, int n) {
    for (int i = 0; i < n; i++) out_write(o, "\t", 1);
}

/* cJSON's number text: null for NaN/inf, else %.15g if that reads back as "the same" number
 * by cJSON's tolerance (a relative difference of at most DBL_EPSILON, so 0.30000000000000004
 * prints as 0.3: cJSON_Print is not lossless, ct_json_dumps is), else %.17g. The locale's
 * decimal comma, if any, is turned into '.'. */
static void print_number(outbuf *o, const cJSON *it) {
    char b[64];
    double d = it->valuedouble;
    if (isnan(d) || isinf(d)) snprintf(b, sizeof b, "null");
    else {
        snprintf(b, sizeof b, "%1.15g", d);
        double back = strtod(b, NULL);
        double big = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
        if (!(fabs(back - d) <= big * DBL_EPSILON)) snprintf(b, sizeof b, "%1.17g", d);
        for (char *c = b; *c; c++)
            if (*c == ',') *c = '.';
    }
    out_str(o, b);
}

/* cJSON's string escaping: the JSON short escapes, \u00XX for other control characters,
 * every other byte (UTF-8 included) as is. */
static void print_string(outbuf *o, const char *s) {
    out_write(o, "\"", 1);
    if (s) {
        const char *run = s;
        for (; *s; s++) {
            unsigned char c = (unsigned char)*s;
            const char *esc = NULL;
            char u[8];
            switch (c) {
            case '"': esc = "\\\""; break;
            case '\\': esc = "\\\\"; break;
            case '\b': esc = "\\b"; break;
            case '\f': esc = "\\f"; break;
            case '\n': esc = "\\n"; break;
            case '\r': esc = "\\r"; break;
            case '\t': esc = "\\t"; break;
            default:
                if (c < 0x20) {
                    snprintf(u, sizeof u, "\\u%04x", c);
                    esc = u;
                }
            }
            if (esc) {
                out_write(o, run, (size_t)(s - run));
                out_str(o, esc);
                run = s + 1;
            }
        }
        out_write(o, run, (size_t)(s - run));
    }
    out_write(o, "\"", 1);
}

/* Returns 0, or -1 for an item that cannot be printed (invalid type, member without key). */
static int print_item(outbuf *o, const cJSON *it, int fmt, int depth) {
    switch (it->type & 0xFF) {
    case cJSON_NULL: out_str(o, "null"); return 0;
    case cJSON_False: out_str(o, "false"); return 0;
    case cJSON_True: out_str(o, "true"); return 0;
    case cJSON_Number: print_number(o, it); return 0;
    case cJSON_String: print_string(o, it->valuestring); return 0;
    case cJSON_Raw:
        if (!it->valuestring) return -1;
        out_str(o, it->valuestring);
        return 0;
    case cJSON_Array:
        /* cJSON keeps arrays on one line: "[1, 2]" formatted, "[1,2]" not; an array still
         * counts as a level for the indentation of objects inside it */
        out_write(o, "[", 1);
        for (const cJSON *c = it->child; c; c = c->next) {
            if (print_item(o, c, fmt, depth + 1) != 0) return -1;
            if (c->next) out_str(o, fmt ? ", " : ",");
        }
        out_write(o, "]", 1);
        return 0;
    case cJSON_Object:
        /* formatted: "{\n", each member on a tab-indented line as "key":<tab>value,
         * then the closing brace indented one level less ("{\n}" when empty) */
        out_str(o, fmt ? "{\n" : "{");
        for (const cJSON *c = it->child; c; c = c->next) {
            if (!c->string) return -1;
            if (fmt) out_tabs(o, depth + 1);
            print_string(o, c->string);
            out_str(o, fmt ? ":\t" : ":");
            if (print_item(o, c, fmt, depth + 1) != 0) return -1;
            if (c->next) out_write(o, ",", 1);
            if (fmt) out_write(o, "\n", 1);
        }
        if (fmt) out_tabs(o, depth);
        out_write(o, "}", 1);
        return 0;
    default: return -1;
    }
}

static char *print_root(const cJSON *item, int fmt) {
    if (!item) return NULL;
    outbuf o = {NULL, 0, 0, 0};
    if (print_item(&o, item, fmt, 0) != 0 || o.failed) {
        ct_free(o.buf);
        return NULL;
    }
    return o.buf;
}

char *cJSON_Print(const cJSON *item) { return print_root(item, 1); }
char *cJSON_PrintUnformatted(const cJSON *item) { return print_root(item, 0); }

#else

/* The system cJSON is in use: nothing to build here (a translation unit must declare
 * something, so this file is not empty). */
typedef int ct_json_builtin_unused;

#endif /* CTORCH_HAVE_CJSON */
