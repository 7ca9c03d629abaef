/*
 * JSON functions on top of cJSON (util/json.h): strict parsing with ctorch errors,
 * Python-compatible dumping, atomic file replacement. Only cJSON's public API is used.
 */
#include "util/json.h"
#include "util/atomic_file.h"
#include "util/pyfloat.h"
#include "util/grow.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"

/* Python's json.dumps recurses once per level and stops at its recursion limit; ours only
 * has to stay clear of the C stack while accepting anything a parser produced. */
#define CT_JSON_DUMP_MAX_DEPTH 10000

/* ---- parsing -------------------------------------------------------------------------------- */

/* JSON whitespace (RFC 8259), the only bytes allowed after the value. */
static int json_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Sets a ValueError worded like Python's json.JSONDecodeError: "<what>: line L column C
 * (char N)", 1-based line and column, counted in bytes. */
static void decode_error(const char *what, const char *text, size_t pos) {
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < pos; i++)
        if (text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    ct_error_set(CT_ERR_VALUE, "%s: line %zu column %zu (char %zu)", what, line, pos - line_start + 1, pos);
}

/* cJSON's parser resets and sets a process-wide error position (global_error, behind
 * cJSON_GetErrorPtr) on every call, without a lock: two threads parsing at once race on it.
 * ctorch never reads it (the end of the value comes back through return_parse_end), but the
 * writes alone are a data race, so parses go one at a time. */
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

cJSON *ct_json_parse(const char *text, size_t len) {
    if (!text) {
        ct_error_set(CT_ERR_VALUE, "ct_json_parse: text is NULL");
        return NULL;
    }
    ct_error_clear();
    size_t start = 0;
    while (start < len && json_ws(text[start])) start++;
    if (start == len) {
        decode_error("Expecting value", text, start);
        return NULL;
    }
    const char *end = NULL;
    /* require_null_terminated = 0: the check for trailing data is done here, so that the text
     * need not end in a NUL (cJSON would demand one inside the buffer) and the error can say
     * where the extra data starts. */
    pthread_mutex_lock(&parse_lock);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    pthread_mutex_unlock(&parse_lock);
    if (!root) {
        if (ct_error_code() == CT_ERR_NOMEM) return NULL; /* ct_malloc said so: keep it */
        size_t pos = (end && end >= text && end <= text + len) ? (size_t)(end - text) : 0;
        decode_error("Invalid JSON", text, pos);
        return NULL;
    }
    size_t pos = (end && end >= text && end <= text + len) ? (size_t)(end - text) : len;
    while (pos < len && json_ws(text[pos])) pos++;
    if (pos < len) {
        cJSON_Delete(root);
        decode_error("Extra data", text, pos);
        return NULL;
    }
    return root;
}

/* Sets CT_ERR_IO the way Python words an OSError: "[Errno 2] No such file or directory: 'p'". */
static int io_error(int err, const char *path) {
    return ct_error_set(CT_ERR_IO, "[Errno %d] %s: '%s'", err, strerror(err), path);
}

cJSON *ct_json_parse_file(const char *path) {
    if (!path) {
        ct_error_set(CT_ERR_VALUE, "ct_json_parse_file: path is NULL");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        io_error(errno, path);
        return NULL;
    }
    /* Read in growing chunks rather than trusting ftell: works for pipes and /proc too. */
    size_t len = 0, cap = 0;
    char *buf = NULL;
    for (;;) {
        if (ct_grow(buf, cap, len + 1, 64 * 1024) != 0) {
            ct_free(buf);
            fclose(f);
            return NULL;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int failed = ferror(f), err = errno;
    fclose(f);
    if (failed) {
        ct_free(buf);
        io_error(err ? err : EIO, path);
        return NULL;
    }
    cJSON *root = ct_json_parse(buf, len);
    ct_free(buf);
    return root;
}

static void sb_newline_indent(ct_strbuf *b, int indent, int level) {
    static const char spaces[] = "                                                                ";
    size_t n = (size_t)indent * (size_t)level;
    ct_sb_write(b, "\n", 1);
    for (; n > sizeof spaces - 1; n -= sizeof spaces - 1) ct_sb_write(b, spaces, sizeof spaces - 1);
    ct_sb_write(b, spaces, n);
}

/* ---- numbers: Python's float repr ------------------------------------------------------------ */

static void dump_number(ct_strbuf *b, double v) {
    char s[48];
    if (isnan(v)) snprintf(s, sizeof s, "NaN");
    else if (isinf(v)) snprintf(s, sizeof s, "%s", v > 0 ? "Infinity" : "-Infinity");
    else if (v == 0 && signbit(v)) snprintf(s, sizeof s, "-0.0"); /* never a Python int */
    else if (fabs(v) < 9007199254740992.0 && v == floor(v))
        snprintf(s, sizeof s, "%.0f", v); /* exact: an integer below 2^53 */
    else ct_py_float_repr(v, s);
    ct_sb_puts(b, s);
}

/* ---- strings: ensure_ascii=True ---------------------------------------------------------------- */

/* Decodes one UTF-8 sequence at s (with at least one byte before the NUL). Returns its
 * length and sets *cp, or returns 0 for an invalid sequence (overlong forms, surrogates,
 * values above U+10FFFF, truncation). */
static int utf8_decode(const unsigned char *s, unsigned *cp) {
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
        c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
        c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
        c &= 0x07;
    } else return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the NUL */
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *cp = c;
    return n;
}

static void dump_string(ct_strbuf *b, const char *str) {
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    const unsigned char *run = s; /* start of the bytes that go out unchanged */
    ct_sb_write(b, "\"", 1);
    while (*s) {
        unsigned char c = *s;
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            s++;
            continue;
        }
        ct_sb_write(b, (const char *)run, (size_t)(s - run));
        char esc[16];
        int len = 1;
        switch (c) {
        case '"': snprintf(esc, sizeof esc, "\\\""); break;
        case '\\': snprintf(esc, sizeof esc, "\\\\"); break;
        case '\n': snprintf(esc, sizeof esc, "\\n"); break;
        case '\r': snprintf(esc, sizeof esc, "\\r"); break;
        case '\t': snprintf(esc, sizeof esc, "\\t"); break;
        case '\b': snprintf(esc, sizeof esc, "\\b"); break;
        case '\f': snprintf(esc, sizeof esc, "\\f"); break;
        default: {
            unsigned cp;
            len = utf8_decode(s, &cp);
            if (len == 0) { /* invalid UTF-8: this byte becomes U+FFFD */
                cp = 0xFFFD;
                len = 1;
            }
            if (cp >= 0x10000) {
                cp -= 0x10000;
                snprintf(esc, sizeof esc, "\\u%04x\\u%04x", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
            } else snprintf(esc, sizeof esc, "\\u%04x", cp);
        }
        }
        ct_sb_puts(b, esc);
        s += len;
        run = s;
    }
    ct_sb_write(b, (const char *)run, (size_t)(s - run));
    ct_sb_write(b, "\"", 1);
}

/* ---- values ---------------------------------------------------------------------------------- */

/* Returns 0, or -1 with the error set (the buffer's allocation failures are checked by the
 * caller at the end). */
static int dump_value(ct_strbuf *b, const cJSON *it, int indent, int level) {
    if (b->failed) return 0;
    if (cJSON_IsNull(it)) ct_sb_puts(b, "null");
    else if (cJSON_IsTrue(it)) ct_sb_puts(b, "true");
    else if (cJSON_IsFalse(it)) ct_sb_puts(b, "false");
    else if (cJSON_IsNumber(it)) dump_number(b, it->valuedouble);
    else if (cJSON_IsString(it)) dump_string(b, it->valuestring);
    else if (cJSON_IsRaw(it) && it->valuestring) ct_sb_puts(b, it->valuestring); /* already JSON */
    else if (cJSON_IsArray(it) || cJSON_IsObject(it)) {
        int obj = cJSON_IsObject(it);
        if (level >= CT_JSON_DUMP_MAX_DEPTH)
            return ct_error_set(CT_ERR_RUNTIME, "maximum recursion depth exceeded while encoding a JSON object");
        ct_sb_write(b, obj ? "{" : "[", 1);
        const cJSON *c;
        cJSON_ArrayForEach(c, it) {
            if (c != it->child) ct_sb_puts(b, indent < 0 ? ", " : ",");
            if (indent >= 0) sb_newline_indent(b, indent, level + 1);
            if (obj) {
                if (!c->string) return ct_error_set(CT_ERR_VALUE, "ct_json_dumps: object member without a key");
                dump_string(b, c->string);
                ct_sb_write(b, ": ", 2);
            }
            if (dump_value(b, c, indent, level + 1) != 0) return -1;
        }
        /* Python closes a non-empty container on its own line; an empty one stays [] / {} */
        if (indent >= 0 && it->child) sb_newline_indent(b, indent, level);
        ct_sb_write(b, obj ? "}" : "]", 1);
    } else
        return ct_error_set(CT_ERR_VALUE, "ct_json_dumps: item of invalid type %d", it->type);
    return 0;
}

char *ct_json_dumps(const cJSON *item, int indent) {
    if (!item) {
        ct_error_set(CT_ERR_VALUE, "ct_json_dumps: item is NULL");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_write(&b, "", 0); /* allocate up front: even an empty raw item yields a string */
    int rc = dump_value(&b, item, indent, 0);
    if (rc != 0 || b.failed) { /* a failed ct_realloc has set CT_ERR_NOMEM */
        ct_free(b.buf);
        return NULL;
    }
    return b.buf;
}

/* ---- atomic file replacement ------------------------------------------------------------------- */

int ct_json_write_file_atomic(const char *path, const char *text) {
    if (!path || !text) return ct_error_set(CT_ERR_VALUE, "ct_json_write_file_atomic: %s is NULL", path ? "text" : "path");
    return ct_write_file_atomic(path, text, strlen(text));
}
