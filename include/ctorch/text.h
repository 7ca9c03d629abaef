/*
 * ctorch/text.h - the text helpers ctorch's own reports, dumps and printouts are built with:
 * a growing string (ct_strbuf) and Python's repr() of a float (what print() and json.dumps
 * write for a float), for programs whose output must read as Python wrote it.
 */
#ifndef CTORCH_TEXT_H
#define CTORCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_strbuf {
    char *buf; /* NUL-terminated once anything was written; ct_free */
    size_t len, cap;
    bool failed; /* an allocation failed */
} ct_strbuf;

#define CT_STRBUF_INIT {NULL, 0, 0, false}

CT_API void ct_sb_write(ct_strbuf *b, const char *s, size_t n);
CT_API void ct_sb_puts(ct_strbuf *b, const char *s);
CT_API void ct_sb_printf(ct_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* n copies of c */
CT_API void ct_sb_repeat(ct_strbuf *b, char c, size_t n);
/* The string (to free with ct_free): "" if nothing was written; NULL (the buffer freed, the
 * error set by the allocator) if an allocation failed. */
CT_API char *ct_sb_finish(ct_strbuf *b);


/* repr(v) into out (at least CT_PY_FLOAT_REPR_MAX bytes): the shortest digits that read back
 * as v, positional for 1e-4 <= |v| < 1e16 with ".0" when there is no fraction ("1.0", "-0.1",
 * "1e-05", "1.5e+16"), and "nan", "inf", "-inf", "0.0", "-0.0". */
#define CT_PY_FLOAT_REPR_MAX 48
CT_API void ct_py_float_repr(double v, char *out);


#ifdef __cplusplus
}
#endif
#endif /* CTORCH_TEXT_H */
