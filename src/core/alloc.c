/* All library allocation goes through here so tests can fail the Nth allocation. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/testing.h"

static atomic_llong alloc_count;
static atomic_llong fail_at; /* allocation number that fails, 0 = never */

/* cJSON's allocation hooks are process-wide and belong to the program, so the library leaves
 * them alone until a program asks for fault injection: from then on cJSON allocates through
 * ct_malloc too, and its allocations can be failed and counted like the library's own.
 * ct_malloc's blocks come from malloc and ct_free is free, so trees made before the switch
 * are still freed correctly. */
static pthread_once_t cjson_hooks_once = PTHREAD_ONCE_INIT;
static void route_cjson_allocations(void) {
    cJSON_Hooks hooks = {ct_malloc, ct_free};
    cJSON_InitHooks(&hooks);
}

void ct_testing_fail_alloc_after(int64_t n) {
    pthread_once(&cjson_hooks_once, route_cjson_allocations);
    atomic_store(&fail_at, n > 0 ? (long long)(atomic_load(&alloc_count) + n) : 0);
}
int64_t ct_testing_alloc_count(void) { return (int64_t)atomic_load(&alloc_count); }

static int should_fail(void) {
    long long n = atomic_fetch_add(&alloc_count, 1) + 1;
    long long f = atomic_load(&fail_at);
    return f != 0 && n == f;
}

static void *oom(size_t n) {
    ct_error_set(CT_ERR_NOMEM, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %zu bytes.", n);
    return NULL;
}

void *ct_malloc(size_t n) {
    if (should_fail()) return oom(n);
    void *p = malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *ct_calloc(size_t n, size_t size) {
    if (should_fail()) return oom(n * size);
    void *p = calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *ct_realloc(void *p, size_t n) {
    if (should_fail()) return oom(n);
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom(n);
}

void *ct_aligned_alloc(size_t n) {
    if (should_fail()) return oom(n);
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1) != 0) return oom(n);
    return p;
}

void ct_aligned_free(void *p) { free(p); }

void ct_free(void *p) { free(p); }

char *ct_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = ct_malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

char *ct_asprintf(const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        va_end(ap2);
        return NULL;
    }
    char *p = ct_malloc((size_t)n + 1);
    if (p) vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}
