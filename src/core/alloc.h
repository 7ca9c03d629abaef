/* The one allocation path of the library (so tests can fail the Nth allocation). */
#ifndef CT_ALLOC_H
#define CT_ALLOC_H

#include <stddef.h>

#include "ctorch/export.h"

void *ct_malloc(size_t n);       /* sets CT_ERR_NOMEM and returns NULL on failure */
void *ct_calloc(size_t n, size_t size);
void *ct_realloc(void *p, size_t n);
void *ct_aligned_alloc(size_t n); /* 64-byte aligned; free with ct_aligned_free */
void ct_aligned_free(void *p);
CT_API void ct_free(void *p);  /* public too (ctorch/tensor.h) */
char *ct_strdup(const char *s);
/* printf into a new string (ct_free); NULL on failure. */
char *ct_asprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
