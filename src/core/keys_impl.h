/* The layout of every operator's dispatch table, computed from the key order (internal).
 * A core fact, as c10/core/DispatchKeySet.h keeps getDispatchTableIndexForDispatchKeySet. */
#ifndef CT_KEYS_IMPL_H
#define CT_KEYS_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/keys.h"

/* Index of a runtime key's slot in every op's table (getDispatchTableIndexForDispatchKey). */
int ct_runtime_slot_of_key(ct_dispatch_key k);
/* Slot for a key set (getDispatchTableIndexForDispatchKeySet). The offset table is filled by
 * ct_keys_init(), which the start-up runs first, before any operator exists (Note [Start-up] in
 * core/startup.h); nothing reads it before. */
extern int ct_functionality_offset[CT_NUM_FUNCTIONALITY_KEYS];
extern const bool ct_functionality_per_backend[CT_NUM_FUNCTIONALITY_KEYS];
void ct_keys_init(void);
static inline int ct_slot_index(ct_keyset ks) {
    uint64_t fbits = ks >> CT_NUM_BACKENDS;
    int f = fbits ? 64 - __builtin_clzll(fbits) : 0;
    if (!ct_functionality_per_backend[f]) return ct_functionality_offset[f];
    uint64_t bbits = (ks & CT_BACKEND_BITS_MASK) >> 1;
    return ct_functionality_offset[f] + (bbits ? 64 - __builtin_clzll(bbits) : 0);
}
/* The runtime key a slot stands for. */
ct_dispatch_key ct_key_of_slot(int slot);

#endif
