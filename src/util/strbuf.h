/* A growing NUL-terminated string (internal): the one buffer every report, dump and printout
 * is built in. Writes after a failed allocation are dropped; ct_sb_finish then reports it. */
#ifndef CT_UTIL_STRBUF_H
#define CT_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ct_strbuf {
    char *buf; /* NUL-terminated once anything was written; ct_free */
    size_t len, cap;
    bool failed; /* an allocation failed */
} ct_strbuf;

#define CT_STRBUF_INIT {NULL, 0, 0, false}

void ct_sb_write(ct_strbuf *b, const char *s, size_t n);
void ct_sb_puts(ct_strbuf *b, const char *s);
void ct_sb_printf(ct_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* n copies of c */
void ct_sb_repeat(ct_strbuf *b, char c, size_t n);
/* The string (to free with ct_free): "" if nothing was written; NULL (the buffer freed, the
 * error set by the allocator) if an allocation failed. */
char *ct_sb_finish(ct_strbuf *b);

#endif
