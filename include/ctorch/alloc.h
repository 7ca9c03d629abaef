/*
 * ctorch/alloc.h - the library's memory: counters and the block cache.
 *
 * Every allocation ctorch makes (tensor headers, storages, autograd nodes, strings it returns)
 * goes through one allocator. Freed blocks of up to CT_ALLOC_MAX_CACHED_BLOCK bytes are kept
 * in a per-thread cache by size class (four classes per power of two) and handed out again, so
 * a program that repeats the same work (a training step) stops asking the system allocator
 * for memory after the first repetition. The cache is bounded: a thread keeps at most
 * ct_alloc_cache_limit() bytes of free blocks and gives the rest back at once; a thread's
 * cache is given back when the thread exits, and ct_alloc_trim() empties it on demand.
 * Larger blocks go to one process-wide list of at most 8 recently freed blocks (at most 4 x
 * ct_alloc_cache_limit() bytes), so a large result made again and again reuses pages already
 * mapped; ct_alloc_trim() gives that list back too.
 *
 * Counters are kept per thread, without atomic read-modify-write on the hot path. They count
 * logical allocations: one per ct_malloc/ct_calloc/ct_realloc call and per tensor or storage
 * created, whether the cache or the system served it.
 *
 * Nothing here allocates or fails on a caller's mistake except as stated.
 */
#ifndef CTORCH_ALLOC_H
#define CTORCH_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks larger than this (header included) are not kept in the per-thread lists but in the
 * process-wide list of large blocks. */
#define CT_ALLOC_MAX_CACHED_BLOCK ((size_t)4 << 20)

typedef struct ct_alloc_stats {
    int64_t allocations;    /* logical allocations that succeeded: cache_hits + system_allocs */
    int64_t frees;          /* blocks freed */
    int64_t bytes_live;     /* bytes asked for and not yet freed */
    int64_t bytes_peak;     /* high-water mark of bytes_live (see ct_alloc_get_stats) */
    int64_t cache_hits;     /* allocations served from the cache (or a block grown in place) */
    int64_t system_allocs;  /* blocks obtained from the system allocator (cache misses, large blocks) */
    int64_t system_frees;   /* blocks given back to the system allocator */
    int64_t bytes_cached;   /* bytes of free blocks the cache holds now */
    int64_t failed;         /* allocations that failed (out of memory or injected) */
} ct_alloc_stats;

typedef enum ct_alloc_scope {
    CT_ALLOC_THREAD = 0,  /* the calling thread's counters */
    CT_ALLOC_PROCESS = 1  /* every thread's, living and exited, added up */
} ct_alloc_scope;

/* Fills *out (OUT, caller-owned) with the counters of `scope`. For CT_ALLOC_THREAD every field
 * is exact for the calling thread (bytes_live can be negative on a thread that frees what
 * another allocated). For CT_ALLOC_PROCESS each count is the sum over threads, and bytes_peak
 * is the sum of the threads' high-water marks, an upper bound of the process's. Counts read
 * from other running threads may lag by the allocations they are making. Returns 0, or -1
 * (CT_ERR_VALUE) when out is NULL or scope is not one of the above. */
CT_API int ct_alloc_get_stats(ct_alloc_scope scope, ct_alloc_stats *out);

/* Sets bytes_peak of the calling thread to its current bytes_live (to measure the peak of a
 * stretch of work). */
CT_API void ct_alloc_reset_peak(void);

/* The most bytes of free blocks one thread's cache keeps (64 MiB unless changed; the list of
 * large blocks keeps up to 4 times this). Setting 0 turns caching off: every free goes back to
 * the system. Applies to every thread from its next
 * free on; a cache above a lowered limit shrinks as it frees. */
CT_API void ct_alloc_set_cache_limit(size_t bytes);
CT_API size_t ct_alloc_cache_limit(void);

/* Gives the calling thread's cached free blocks, and the list of large blocks, back to the
 * system allocator. */
CT_API void ct_alloc_trim(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_ALLOC_H */
