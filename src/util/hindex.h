/* The one hash map of the library: an open-addressing index (linear probing, power-of-two slot
 * count, kept at most half full) from a 64-bit hash to an entry number of the caller's own array.
 * The keys stay in the caller's entries, so the caller compares them:
 *
 *     if (ct_hindex_reserve(&ix, n + 1, hash_of_entry, entries) != 0) return -1;
 *     size_t s = ct_hindex_first(&ix, hash);
 *     for (uint32_t e; (e = ix.slots[s]) != 0; s = ct_hindex_next(&ix, s))
 *         if (same(&entries[e - 1], key)) return e - 1;       // found entry e - 1
 *     entries[n] = key; ct_hindex_put(&ix, s, n);            // absent: s is its empty slot
 *
 * A slot holds entry + 1 (0 = empty). The probe is inline so a hot lookup (the decision trace's
 * key-set table, the backward pass's node map) costs no call; growing is out of line. An index
 * may also live in storage the caller provides (ct_hindex_init_fixed), then it never grows and
 * ct_hindex_reserve fails once it is half full. */
#ifndef CT_UTIL_HINDEX_H
#define CT_UTIL_HINDEX_H
#include <stddef.h>
#include <stdint.h>

typedef struct ct_hindex {
    uint32_t *slots;
    size_t mask;  /* slot count - 1; the count is a power of two (0 slots: mask 0, slots NULL) */
    size_t n;     /* entries put */
    int fixed;    /* slots belong to the caller: never grown or freed */
} ct_hindex;

/* the hash of entry i, used to re-place entries when the index grows */
typedef uint64_t (*ct_hindex_hash_fn)(const void *ctx, uint32_t entry);

/* An index over caller storage of `nslots` (a power of two) zeroed slots. */
void ct_hindex_init_fixed(ct_hindex *ix, uint32_t *slots, size_t nslots);
/* Room for `entries` entries at most half full; 0, or -1 (out of memory set, or a fixed index
 * that is full: then the caller decides, nothing is set). */
int ct_hindex_reserve(ct_hindex *ix, size_t entries, ct_hindex_hash_fn hash_of, const void *ctx);
/* Empties the index (keeps its slots). */
void ct_hindex_clear(ct_hindex *ix);
/* Frees the slots of a grown index; the index is then empty and may be reused. */
void ct_hindex_free(ct_hindex *ix);

static inline size_t ct_hindex_first(const ct_hindex *ix, uint64_t hash) {
    /* the high bits of a multiplicative mix: weak low bits (aligned pointers) do not cluster */
    return (size_t)((hash * 0x9E3779B97F4A7C15ull) >> 32) & ix->mask;
}
static inline size_t ct_hindex_next(const ct_hindex *ix, size_t s) { return (s + 1) & ix->mask; }
static inline void ct_hindex_put(ct_hindex *ix, size_t s, size_t entry) {
    ix->slots[s] = (uint32_t)entry + 1;
    ix->n++;
}

/* a hash for pointer keys and for strings (FNV-1a; `b` appended to `a`, either may be NULL) */
static inline uint64_t ct_hash_ptr(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}
uint64_t ct_hash_str2(const char *a, const char *b);
#endif
