/* All library allocation goes through here, so tests can fail the Nth allocation and count
 * what a call allocates.
 *
 * Note [Block cache]
 *   A small op allocates a tensor header and a storage and frees both soon after; a training
 *   step allocates and frees the same few hundred blocks every time. glibc serves 64-byte
 *   aligned blocks (storages) through _int_memalign, which bypasses its thread cache and costs
 *   several hundred instructions, and it trims and re-faults the top of the heap when a step's
 *   temporaries are freed. So freed blocks are kept here, per thread, in singly linked lists by
 *   size class (16-byte steps up to 128 bytes, then four classes per power of two: a block
 *   wastes at most a fifth of itself), and handed out again; only a miss reaches the system
 *   allocator (posix_memalign, so every cached block is 64-byte aligned and any class can serve
 *   either kind of request). The cache is bounded per thread (ct_alloc_set_cache_limit); blocks
 *   over CT_ALLOC_MAX_CACHED_BLOCK do not go to these lists (Note [Large blocks]). A thread's
 *   cache is given back when it exits (a pthread key destructor) and on ct_alloc_trim().
 *
 *   ct_malloc blocks carry a 16-byte header (requested size, class) so ct_free needs no size;
 *   ct_aligned_alloc blocks have none (storages pass their size back), so their data starts on
 *   the block's first cache line.
 *
 *   Counters are per thread and updated with relaxed loads and stores (plain moves on x86; only
 *   the owning thread writes them), so counting costs no locked instruction; the process-wide
 *   view adds up a registry of threads under a mutex. In sanitizer builds cached blocks are
 *   poisoned, so a use after free of a cached block is still reported.
 *
 * Note [Large blocks]
 *   A block over 4 MiB (a [1000, 10000] float32 result is 40 MB) is mapped by the system
 *   allocator on each request and unmapped when freed, so every new result of that size first
 *   touches thousands of fresh pages: adding two such tensors into a new one spent 20 of its
 *   23 ms in page faults, where the in-place add of the same tensors takes 2 ms. So a freed
 *   large block is kept in one small process-wide list (at most LARGE_SLOTS blocks, at most
 *   LARGE_LIMIT_FACTOR times ct_alloc_cache_limit() bytes, most recently freed first; a block
 *   that does not fit pushes the oldest out) and handed to a later request it fits without
 *   being more than a quarter too big. The list is shared by every thread under a mutex (one
 *   lock per large block is nothing beside its pages); its bytes and hits are counted on the
 *   thread that frees or takes the block. A cache limit of 0 turns it off as it does the
 *   per-thread lists, and ct_alloc_trim() gives it back. PyTorch's CPU allocator keeps no
 *   freed blocks; this is ctorch's own choice. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/testing.h"

#if defined(__SANITIZE_ADDRESS__)
#define CT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT_ASAN 1
#endif
#endif
#ifdef CT_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* cJSON's allocation hooks are process-wide and belong to the program, so the library leaves
 * them alone until a program asks for fault injection. From then on cJSON allocates through
 * json_malloc, which takes part in the injected-failure countdown but still gets its memory from
 * malloc, so a cJSON tree made before the switch can still be freed after it. */
static void *json_malloc(size_t n);
static void json_free(void *p);
/* A pthread_once of its own, not the start-up's (Note [The one pthread_once] in
 * src/library/init.c): the first ct_testing_fail_alloc_after may come before ct_init(), and the
 * hooks must change once, whichever thread asks first. */
static pthread_once_t cjson_hooks_once = PTHREAD_ONCE_INIT;
static void route_cjson_allocations(void) {
    cJSON_Hooks hooks = {json_malloc, json_free};
    cJSON_InitHooks(&hooks);
}

/* ---- size classes ---- */

#define NCLASS 68            /* class 67 is 4 MiB: CT_ALLOC_MAX_CACHED_BLOCK */
#define BIG_CLASS 0xFFFFFFFFu /* not cached */

static inline unsigned class_of(size_t n) {
    if (n <= 128) return n == 0 ? 0 : (unsigned)((n + 15) >> 4) - 1;
    unsigned p = 63u - (unsigned)__builtin_clzll((unsigned long long)(n - 1)); /* 2^p < n <= 2^(p+1) */
    unsigned sub = (unsigned)((n - 1) >> (p - 2)) - 4u;
    return 8u + (p - 7u) * 4u + sub;
}

#define CS(c) ((c) < 8 ? (size_t)((c) + 1) << 4 : (size_t)(((c)-8) % 4 + 5) << (7 + ((c)-8) / 4 - 2))
#define CS4(c) CS(c), CS(c + 1), CS(c + 2), CS(c + 3)
static const size_t class_sizes[] = {CS4(0),  CS4(4),  CS4(8),  CS4(12), CS4(16), CS4(20), CS4(24),
                                     CS4(28), CS4(32), CS4(36), CS4(40), CS4(44), CS4(48), CS4(52),
                                     CS4(56), CS4(60), CS4(64)};
#undef CS4
#undef CS
_Static_assert(sizeof class_sizes / sizeof class_sizes[0] == NCLASS, "one size per class");

static inline size_t class_size(unsigned c) { return class_sizes[c]; }

_Static_assert(sizeof(void *) <= 16, "a free block must hold its link");

/* ---- per-thread state ---- */

/* allocations = cache_hits + system_allocs; allocation calls = allocations + failed */
typedef struct counters {
    atomic_llong frees, bytes_live, bytes_peak, cache_hits, system_allocs, system_frees, bytes_cached, failed;
} counters;

enum { TC_NEW = 0, TC_REGISTERED, TC_EXITED };

typedef struct tcache {
    void *head[NCLASS];     /* free blocks, linked through their first word */
    counters c;
    int64_t fail_at;        /* allocation call number that fails, 0 = never */
    size_t max_bytes;       /* a larger single allocation fails (ct_testing_set_alloc_limit), 0 = no limit */
    int64_t json_calls;     /* cJSON allocations while fault injection is routed (not counted as the library's) */
    int64_t json_live;      /* of those, blocks not yet freed on this thread */
    int state;
    struct tcache *prev, *next; /* the registry */
} tcache;

static _Thread_local tcache tc;

void (*ct_alloc_reporter)(int64_t bytes);
atomic_int ct_alloc_reporting;

static atomic_size_t cache_limit = (size_t)64 << 20;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static tcache *registry;
static ct_alloc_stats retired; /* exited threads' counters, under registry_lock */
/* A pthread_once of its own, not the start-up's (Note [The one pthread_once] in
 * src/library/init.c): any thread's first allocation registers its cache, and allocation is
 * core's, serving calls made before ct_init() (tensors, JSON, text) and by threads the library
 * never sees start. */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static bool have_key;

static inline void bump(atomic_llong *c, long long d) {
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + d, memory_order_relaxed);
}
static inline long long rd(atomic_llong *c) { return atomic_load_explicit(c, memory_order_relaxed); }

static void flush(tcache *t) {
    for (unsigned c = 0; c < NCLASS; c++) {
        void *b = t->head[c];
        while (b) {
            void *next = *(void **)b;
            UNPOISON(b, class_size(c));
            free(b);
            bump(&t->c.system_frees, 1);
            bump(&t->c.bytes_cached, -(long long)class_size(c));
            b = next;
        }
        t->head[c] = NULL;
    }
}

static void read_counters(tcache *t, ct_alloc_stats *s) {
    s->allocations = rd(&t->c.cache_hits) + rd(&t->c.system_allocs);
    s->frees = rd(&t->c.frees);
    s->bytes_live = rd(&t->c.bytes_live);
    s->bytes_peak = rd(&t->c.bytes_peak);
    s->cache_hits = rd(&t->c.cache_hits);
    s->system_allocs = rd(&t->c.system_allocs);
    s->system_frees = rd(&t->c.system_frees);
    s->bytes_cached = rd(&t->c.bytes_cached);
    s->failed = rd(&t->c.failed);
}

static void add_stats(ct_alloc_stats *a, const ct_alloc_stats *b) {
    a->allocations += b->allocations;
    a->frees += b->frees;
    a->bytes_live += b->bytes_live;
    a->bytes_peak += b->bytes_peak;
    a->cache_hits += b->cache_hits;
    a->system_allocs += b->system_allocs;
    a->system_frees += b->system_frees;
    a->bytes_cached += b->bytes_cached;
    a->failed += b->failed;
}

/* pthread key destructor: the thread is exiting; its cache goes back, its counts are kept */
static void thread_exit(void *arg) {
    tcache *t = arg;
    flush(t);
    ct_alloc_stats s;
    read_counters(t, &s);
    pthread_mutex_lock(&registry_lock);
    add_stats(&retired, &s);
    if (t->prev) t->prev->next = t->next;
    else registry = t->next;
    if (t->next) t->next->prev = t->prev;
    pthread_mutex_unlock(&registry_lock);
    t->state = TC_EXITED; /* frees from later destructors go straight to the system */
}

static void make_key(void) { have_key = pthread_key_create(&exit_key, thread_exit) == 0; }

static void register_thread(void) {
    pthread_once(&key_once, make_key);
    if (have_key) pthread_setspecific(exit_key, &tc);
    pthread_mutex_lock(&registry_lock);
    tc.prev = NULL;
    tc.next = registry;
    if (registry) registry->prev = &tc;
    registry = &tc;
    pthread_mutex_unlock(&registry_lock);
    tc.state = TC_REGISTERED;
}

/* ---- blocks ---- */

static void *system_block(size_t size) {
    if (__builtin_expect(tc.state == TC_NEW, 0)) register_thread();
    void *p = NULL;
    if (posix_memalign(&p, 64, size) != 0) return NULL;
    bump(&tc.c.system_allocs, 1);
    return p;
}

/* ---- large blocks (Note [Large blocks]) ---- */

#define LARGE_SLOTS 8
#define LARGE_LIMIT_FACTOR 4

typedef struct large_slot {
    void *block;
    size_t size; /* bytes the block is known to hold */
} large_slot;

static pthread_mutex_t large_lock = PTHREAD_MUTEX_INITIALIZER;
static large_slot large[LARGE_SLOTS]; /* [0, nlarge), most recently freed first */
static int nlarge;
static size_t large_bytes;

static size_t large_limit(void) {
    size_t lim = atomic_load_explicit(&cache_limit, memory_order_relaxed);
    return lim > SIZE_MAX / LARGE_LIMIT_FACTOR ? SIZE_MAX : lim * LARGE_LIMIT_FACTOR;
}

/* A cached block that holds `total` bytes and is at most a quarter bigger, or NULL. */
static void *large_take(size_t total) {
    void *b = NULL;
    size_t got = 0;
    pthread_mutex_lock(&large_lock);
    int best = -1;
    for (int i = 0; i < nlarge; i++)
        if (large[i].size >= total && large[i].size - total <= total / 4 && (best < 0 || large[i].size < large[best].size))
            best = i;
    if (best >= 0) {
        b = large[best].block;
        got = large[best].size;
        large_bytes -= got;
        memmove(&large[best], &large[best + 1], (size_t)(nlarge - best - 1) * sizeof large[0]);
        nlarge--;
    }
    pthread_mutex_unlock(&large_lock);
    if (!b) return NULL;
    if (__builtin_expect(tc.state == TC_NEW, 0)) register_thread();
    UNPOISON(b, total);
    bump(&tc.c.bytes_cached, -(long long)got);
    bump(&tc.c.cache_hits, 1);
    return b;
}

/* Keeps a freed block of `size` bytes, pushing out the oldest ones it needs room for; false
 * when it cannot be kept (caching off, or the block alone is over the limit). */
static bool large_give(void *b, size_t size) {
    size_t lim = large_limit();
    if (size > lim || tc.state == TC_EXITED) return false;
    large_slot out[LARGE_SLOTS];
    int nout = 0;
    pthread_mutex_lock(&large_lock);
    while (nlarge > 0 && (nlarge == LARGE_SLOTS || large_bytes + size > lim)) {
        out[nout++] = large[--nlarge];
        large_bytes -= out[nout - 1].size;
    }
    memmove(&large[1], &large[0], (size_t)nlarge * sizeof large[0]);
    large[0] = (large_slot){b, size};
    nlarge++;
    large_bytes += size;
    pthread_mutex_unlock(&large_lock);
    if (__builtin_expect(tc.state == TC_NEW, 0)) register_thread();
    POISON(b, size);
    bump(&tc.c.bytes_cached, (long long)size);
    for (int i = 0; i < nout; i++) {
        UNPOISON(out[i].block, out[i].size);
        free(out[i].block);
        bump(&tc.c.system_frees, 1);
        bump(&tc.c.bytes_cached, -(long long)out[i].size);
    }
    return true;
}

static void large_flush(void) {
    large_slot out[LARGE_SLOTS];
    pthread_mutex_lock(&large_lock);
    int nout = nlarge;
    memcpy(out, large, (size_t)nout * sizeof large[0]);
    nlarge = 0;
    large_bytes = 0;
    pthread_mutex_unlock(&large_lock);
    for (int i = 0; i < nout; i++) {
        UNPOISON(out[i].block, out[i].size);
        free(out[i].block);
        bump(&tc.c.system_frees, 1);
        bump(&tc.c.bytes_cached, -(long long)out[i].size);
    }
}

/* A block of at least `total` bytes; *cls receives its class (BIG_CLASS: a large block). */
static inline void *take(size_t total, unsigned *cls) {
    if (__builtin_expect(total > CT_ALLOC_MAX_CACHED_BLOCK, 0)) {
        *cls = BIG_CLASS;
        void *b = large_take(total);
        return b ? b : system_block(total);
    }
    unsigned c = class_of(total);
    size_t sz = class_size(c);
    *cls = c;
    void *b = tc.head[c];
    if (__builtin_expect(b != NULL, 1)) {
        UNPOISON(b, sz);
        tc.head[c] = *(void **)b;
        bump(&tc.c.bytes_cached, -(long long)sz);
        bump(&tc.c.cache_hits, 1);
    } else {
        b = system_block(sz);
        if (!b) return NULL;
    }
    POISON((char *)b + total, sz - total); /* the class's slack is out of bounds too */
    return b;
}

/* Takes back a block of class `cls`; `total` is the size asked for (what a large block is
 * known to hold). */
static inline void give(void *b, unsigned cls, size_t total) {
    if (__builtin_expect(cls == BIG_CLASS, 0) && large_give(b, total)) return;
    if (cls != BIG_CLASS && __builtin_expect(tc.state != TC_EXITED, 1)) {
        size_t sz = class_size(cls);
        if ((size_t)rd(&tc.c.bytes_cached) + sz <= atomic_load_explicit(&cache_limit, memory_order_relaxed)) {
            if (__builtin_expect(tc.state == TC_NEW, 0)) register_thread();
            UNPOISON(b, sz);
            *(void **)b = tc.head[cls];
            tc.head[cls] = b;
            POISON((char *)b + sizeof(void *), sz - sizeof(void *));
            bump(&tc.c.bytes_cached, (long long)sz);
            return;
        }
    }
    if (cls != BIG_CLASS) UNPOISON(b, class_size(cls));
    free(b);
    bump(&tc.c.system_frees, 1);
}

static inline void note_alloc(size_t n) {
    long long live = rd(&tc.c.bytes_live) + (long long)n;
    atomic_store_explicit(&tc.c.bytes_live, live, memory_order_relaxed);
    if (live > rd(&tc.c.bytes_peak)) atomic_store_explicit(&tc.c.bytes_peak, live, memory_order_relaxed);
}

static inline void note_free(size_t n) {
    bump(&tc.c.frees, 1);
    bump(&tc.c.bytes_live, -(long long)n);
}

/* ---- fault injection ---- */

static int64_t calls(void) {
    return rd(&tc.c.cache_hits) + rd(&tc.c.system_allocs) + rd(&tc.c.failed) + tc.json_calls;
}

void ct_testing_fail_alloc_after(int64_t n) {
    pthread_once(&cjson_hooks_once, route_cjson_allocations);
    tc.fail_at = n > 0 ? calls() + n : 0;
}
int64_t ct_testing_alloc_count(void) { return calls(); }

void ct_testing_set_alloc_limit(size_t max_bytes) { tc.max_bytes = max_bytes; }

/* an injected failure: the countdown reached, or a request over the testing limit */
static inline bool should_fail(size_t n) {
    return (__builtin_expect(tc.fail_at != 0, 0) && calls() + 1 == tc.fail_at) ||
           (__builtin_expect(tc.max_bytes != 0, 0) && n > tc.max_bytes);
}

static void *oom(size_t n) {
    bump(&tc.c.failed, 1);
    ct_error_set(CT_ERR_NOMEM, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %zu bytes.", n);
    return NULL;
}

static void *json_malloc(size_t n) {
    if (should_fail(n)) return oom(n);
    tc.json_calls++;
    void *p = malloc(n);
    if (!p) {
        tc.json_calls--; /* counted as failed instead */
        return oom(n);
    }
    tc.json_live++;
    return p;
}

static void json_free(void *p) {
    if (p) tc.json_live--;
    free(p);
}

int64_t ct_testing_live_json_blocks(void) { return tc.json_live; }

/* ---- the allocation functions ---- */

#define HDR_MAGIC 0x63746d6bu
typedef struct block_header {
    uint64_t size;  /* bytes asked for */
    uint32_t cls;
    uint32_t magic;
} block_header;
#define HDR sizeof(block_header)
_Static_assert(sizeof(block_header) == 16, "ct_malloc blocks keep 16-byte alignment");

static inline block_header *header_of(void *p) {
    block_header *h = (block_header *)p - 1;
#ifndef NDEBUG
    if (h->magic != HDR_MAGIC) {
        fprintf(stderr, "ctorch: ct_free of a block ct_malloc did not return\n");
        abort(); /* an internal invariant, checked in debug builds only */
    }
#endif
    return h;
}

static void *alloc_with_header(size_t n) {
    if (n > SIZE_MAX - HDR - 64) return oom(n);
    unsigned cls;
    block_header *h = take(HDR + n, &cls);
    if (!h) return oom(n);
    h->size = n;
    h->cls = cls;
    h->magic = HDR_MAGIC;
    note_alloc(n);
    return h + 1;
}

void *ct_malloc(size_t n) {
    if (should_fail(n)) return oom(n);
    return alloc_with_header(n);
}

void *ct_calloc(size_t n, size_t size) {
    if (should_fail(n * size)) return oom(n * size); /* (wraps when n * size overflows: the next line) */
    if (size != 0 && n > SIZE_MAX / size) return oom(SIZE_MAX);
    void *p = alloc_with_header(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void ct_free(void *p) {
    if (!p) return;
    block_header *h = header_of(p);
    note_free(h->size);
#ifndef NDEBUG
    h->magic = 0;
#endif
    give(h, h->cls, HDR + h->size);
}

void *ct_realloc(void *p, size_t n) {
    if (!p) return ct_malloc(n);
    if (should_fail(n)) return oom(n);
    block_header *h = header_of(p);
    size_t old = h->size;
    /* in place while the block holds it and is not far too big for it */
    if (h->cls != BIG_CLASS && n <= SIZE_MAX - HDR && HDR + n <= class_size(h->cls) && class_of(HDR + n) + 4 >= h->cls) {
        note_free(old);
        note_alloc(n);
        bump(&tc.c.cache_hits, 1); /* served without the system allocator */
        h->size = n;
        UNPOISON(h, HDR + n);
        POISON((char *)p + n, class_size(h->cls) - HDR - n);
        return p;
    }
    void *q = alloc_with_header(n);
    if (!q) return NULL;
    memcpy(q, p, old < n ? old : n);
    ct_free(p);
    return q;
}

void *ct_aligned_alloc(size_t n) {
    if (should_fail(n)) return oom(n);
    unsigned cls;
    void *p = take(n ? n : 1, &cls);
    if (!p) return oom(n);
    note_alloc(n);
    return p;
}

void ct_aligned_free(void *p, size_t n) {
    if (!p) return;
    note_free(n);
    size_t total = n ? n : 1;
    give(p, total > CT_ALLOC_MAX_CACHED_BLOCK ? BIG_CLASS : class_of(total), total);
}

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

/* ---- the public counters ---- */

int ct_alloc_get_stats(ct_alloc_scope scope, ct_alloc_stats *out) {
    if (!out) return ct_error_set(CT_ERR_VALUE, "ct_alloc_get_stats: out is NULL");
    if (scope == CT_ALLOC_THREAD) {
        read_counters(&tc, out);
        return 0;
    }
    if (scope != CT_ALLOC_PROCESS) return ct_error_set(CT_ERR_VALUE, "ct_alloc_get_stats: invalid scope %d", (int)scope);
    ct_alloc_stats sum, one;
    pthread_mutex_lock(&registry_lock);
    sum = retired;
    bool self_listed = false;
    for (tcache *t = registry; t; t = t->next) {
        read_counters(t, &one);
        add_stats(&sum, &one);
        self_listed |= t == &tc;
    }
    pthread_mutex_unlock(&registry_lock);
    if (!self_listed && tc.state == TC_NEW) { /* this thread has only used its cache so far */
        read_counters(&tc, &one);
        add_stats(&sum, &one);
    }
    *out = sum;
    return 0;
}

void ct_alloc_reset_peak(void) { atomic_store_explicit(&tc.c.bytes_peak, rd(&tc.c.bytes_live), memory_order_relaxed); }

void ct_alloc_set_cache_limit(size_t bytes) { atomic_store_explicit(&cache_limit, bytes, memory_order_relaxed); }
size_t ct_alloc_cache_limit(void) { return atomic_load_explicit(&cache_limit, memory_order_relaxed); }

void ct_alloc_trim(void) {
    flush(&tc);
    large_flush();
}
