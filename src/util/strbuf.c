/* A growing string (see util/strbuf.h). */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "util/grow.h"

/* room for n more bytes and the NUL */
static bool reserve(ct_strbuf *b, size_t n) {
    if (b->failed) return false;
    if (n > SIZE_MAX - b->len - 1) ct_error_set(CT_ERR_NOMEM, "string of more than %zu bytes", (size_t)SIZE_MAX);
    if (n > SIZE_MAX - b->len - 1 || ct_grow(b->buf, b->cap, b->len + n + 1, 256) != 0) {
        b->failed = true;
        return false;
    }
    return true;
}

void ct_sb_write(ct_strbuf *b, const char *s, size_t n) {
    if (!reserve(b, n)) return;
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

void ct_sb_puts(ct_strbuf *b, const char *s) { ct_sb_write(b, s, strlen(s)); }

void ct_sb_printf(ct_strbuf *b, const char *fmt, ...) {
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        ct_error_set(CT_ERR_VALUE, "ct_sb_printf: bad format");
        return;
    }
    if (!reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void ct_sb_repeat(ct_strbuf *b, char c, size_t n) {
    if (!reserve(b, n)) return;
    memset(b->buf + b->len, c, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

char *ct_sb_finish(ct_strbuf *b) {
    if (b->failed) {
        ct_free(b->buf); /* the allocator (or ct_sb_printf) set the error */
        b->buf = NULL;
        return NULL;
    }
    if (!b->buf) return ct_strdup("");
    char *s = b->buf;
    b->buf = NULL;
    b->len = b->cap = 0;
    return s;
}
