/* The hash index's slow paths: see hindex.h. */
#include "util/hindex.h"

#include <string.h>

#include "core/alloc.h"

void ct_hindex_init_fixed(ct_hindex *ix, uint32_t *slots, size_t nslots) {
    ix->slots = slots;
    ix->mask = nslots ? nslots - 1 : 0;
    ix->n = 0;
    ix->fixed = 1;
    if (slots && nslots) memset(slots, 0, nslots * sizeof *slots);
}

int ct_hindex_reserve(ct_hindex *ix, size_t entries, ct_hindex_hash_fn hash_of, const void *ctx) {
    size_t have = ix->slots ? ix->mask + 1 : 0;
    if (entries * 2 <= have) return 0;
    if (ix->fixed) return -1;
    size_t ncap = have ? have : 16;
    while (ncap < entries * 2) ncap *= 2;
    uint32_t *ns = ct_calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    ct_hindex grown = {ns, ncap - 1, ix->n, 0};
    for (size_t i = 0; i < have; i++) {
        uint32_t e = ix->slots[i];
        if (!e) continue;
        size_t s = ct_hindex_first(&grown, hash_of(ctx, e - 1));
        while (ns[s]) s = ct_hindex_next(&grown, s);
        ns[s] = e;
    }
    ct_free(ix->slots);
    *ix = grown;
    return 0;
}

void ct_hindex_clear(ct_hindex *ix) {
    if (ix->slots) memset(ix->slots, 0, (ix->mask + 1) * sizeof *ix->slots);
    ix->n = 0;
}

void ct_hindex_free(ct_hindex *ix) {
    if (!ix->fixed) ct_free(ix->slots);
    ix->slots = NULL;
    ix->mask = 0;
    ix->n = 0;
}

uint64_t ct_hash_str2(const char *a, const char *b) {
    uint64_t h = 14695981039346656037ull;
    for (const char *s = a; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    for (const char *s = b; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}
