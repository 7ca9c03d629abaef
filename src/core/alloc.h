/* The one allocation path of the library (so tests can fail the Nth allocation and count
 * allocations). Blocks are cached per thread by size class: see Note [Block cache] in alloc.c
 * and include/ctorch/alloc.h. */
#ifndef CT_ALLOC_H
#define CT_ALLOC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

/* profile_memory (c10's reportMemoryUsage): what a storage's data takes, reported when it is
 * allocated (bytes > 0) and freed (bytes < 0) while a profiler counts memory. The reporter is
 * set once by the start-up (the profiler's); ct_alloc_reporting counts profilers that want it. */
extern void (*ct_alloc_reporter)(int64_t bytes);
extern atomic_int ct_alloc_reporting;
static inline void ct_alloc_report(int64_t bytes) {
    if (__builtin_expect(atomic_load_explicit(&ct_alloc_reporting, memory_order_relaxed) != 0, 0) && bytes != 0 &&
        ct_alloc_reporter)
        ct_alloc_reporter(bytes);
}
/* printf into a new string (ct_free); NULL on failure. */
char *ct_asprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
