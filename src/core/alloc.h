/* The one allocation path of the library (so tests can fail the Nth allocation and count
 * allocations). Blocks are cached per thread by size class: see Note [Block cache] in alloc.c
 * and include/ctorch/alloc.h. */
#ifndef CT_ALLOC_H
#define CT_ALLOC_H

#include <stddef.h>

#include "ctorch/alloc.h"
#include "ctorch/export.h"

void *ct_malloc(size_t n);       /* sets CT_ERR_NOMEM and returns NULL on failure */
void *ct_calloc(size_t n, size_t size);
void *ct_realloc(void *p, size_t n);
CT_API void ct_free(void *p);    /* only for blocks from ct_malloc/ct_calloc/ct_realloc; public too (ctorch/tensor.h) */
/* 64-byte aligned block of n bytes without a header: the caller gives the same n back to
 * ct_aligned_free (storages know their size; a header would cost a cache line). */
void *ct_aligned_alloc(size_t n);
void ct_aligned_free(void *p, size_t n);
char *ct_strdup(const char *s);
/* printf into a new string (ct_free); NULL on failure. */
char *ct_asprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
