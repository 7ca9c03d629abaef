/* Dispatch keys and key sets: names, bit layout, priority, printing, table slots.
 * Mirrors c10/core/DispatchKey.cpp and DispatchKeySet.{h,cpp} of PyTorch 2.6. */
#include <stdio.h>
#include <string.h>

#include "ctorch/keys.h"
#include "core/keys_impl.h"

static const char *const functionality_names[] = {
#define CT_X_(n, pb) #n,
    CT_FOREACH_FUNCTIONALITY(CT_X_)
#undef CT_X_
};

const bool ct_functionality_per_backend[CT_NUM_FUNCTIONALITY_KEYS] = {
#define CT_X_(n, pb) pb,
    CT_FOREACH_FUNCTIONALITY(CT_X_)
#undef CT_X_
};

/* Runtime key names, indexed by key - CT_KEY_StartOfDenseBackends. */
static const char *const runtime_names[] = {
#define CT_X_B_(b, prefix) #prefix #b,
#define CT_X_(f, prefix) "StartOf" #f "Backends", CT_FOREACH_BACKEND_WITH(CT_X_B_, prefix)
    CT_FOREACH_PER_BACKEND_FUNCTIONALITY(CT_X_)
#undef CT_X_
#undef CT_X_B_
};

static const char *const alias_names[] = {
#define CT_X_(n) #n,
    CT_FOREACH_ALIAS_KEY(CT_X_)
#undef CT_X_
};

/* The functionality each per-backend block belongs to, in block order. */
static const ct_dispatch_key per_backend_functionalities[] = {
#define CT_X_(f, prefix) CT_KEY_##f,
    CT_FOREACH_PER_BACKEND_FUNCTIONALITY(CT_X_)
#undef CT_X_
};

/* The two key lists agree: the per-backend blocks are exactly the functionalities flagged
 * per-backend, in the same order, and the counts are PyTorch 2.6's. */
enum {
#define CT_X_(n, pb) CT_PER_BACKEND_FLAG_##n = (pb),
    CT_FOREACH_FUNCTIONALITY(CT_X_)
#undef CT_X_
};
#define CT_X_(f, prefix) _Static_assert(CT_PER_BACKEND_FLAG_##f, #f " has a per-backend block but is not flagged per-backend");
CT_FOREACH_PER_BACKEND_FUNCTIONALITY(CT_X_)
#undef CT_X_
_Static_assert(sizeof per_backend_functionalities / sizeof per_backend_functionalities[0] ==
                   CT_NUM_PER_BACKEND_FUNCTIONALITIES,
               "every functionality flagged per-backend has a block of runtime keys");
_Static_assert(CT_NUM_PER_BACKEND_FUNCTIONALITIES == 6 && CT_NUM_FUNCTIONALITY_KEYS == 47 && CT_NUM_BACKENDS == 15,
               "PyTorch 2.6's key counts");
_Static_assert(CT_KEY_Autograd == 144 && CT_KEY_COUNT == 150, "PyTorch 2.6's DispatchKey values");
_Static_assert(CT_AUTOCAST_LAST_KEY - CT_AUTOCAST_FIRST_KEY + 1 == 8, "autocast_dispatch_keyset has eight keys");

#define BLOCK_LEN (CT_NUM_BACKENDS + 1) /* StartOf<F>Backends + one key per backend */

static bool is_runtime_backend_key(int k) {
    return k > CT_KEY_EndOfFunctionalityKeys && k < CT_KEY_Autograd;
}

const char *ct_key_name(ct_dispatch_key k) {
    int ki = (int)k;
    if (ki >= 0 && ki < CT_KEY_EndOfFunctionalityKeys) return functionality_names[ki];
    if (ki == CT_KEY_EndOfFunctionalityKeys) return "EndOfFunctionalityKeys";
    if (is_runtime_backend_key(ki)) {
        int off = ki - CT_KEY_StartOfDenseBackends;
        /* StartOfDenseBackends is an alias of Dense in PyTorch's naming; print the block's functionality. */
        if (off % BLOCK_LEN == 0) return functionality_names[per_backend_functionalities[off / BLOCK_LEN]];
        return runtime_names[off];
    }
    if (ki >= CT_KEY_Autograd && ki < CT_KEY_COUNT) return alias_names[ki - CT_KEY_Autograd];
    return "UNKNOWN_TENSOR_TYPE_ID";
}

int ct_key_from_name(const char *name) {
    if (!name) return -1;
    for (int k = 0; k < CT_KEY_COUNT; k++) {
        if (k == CT_KEY_EndOfFunctionalityKeys) continue;
        if (is_runtime_backend_key(k) && (k - CT_KEY_StartOfDenseBackends) % BLOCK_LEN == 0) continue;
        if (strcmp(ct_key_name((ct_dispatch_key)k), name) == 0) return k;
    }
    return -1;
}

/* toFunctionalityKey / toBackendComponent for runtime keys. */
static void split_runtime_key(int k, ct_dispatch_key *functionality, int *backend) {
    int off = k - CT_KEY_StartOfDenseBackends;
    *functionality = per_backend_functionalities[off / BLOCK_LEN];
    *backend = off % BLOCK_LEN; /* 0 for StartOf..., 1 = CPU */
}

ct_keyset ct_keyset_of(ct_dispatch_key k) {
    int ki = (int)k;
    if (ki <= 0) return 0;
    if (ki < CT_KEY_EndOfFunctionalityKeys) return CT_FUNCTIONALITY_BIT(ki);
    if (is_runtime_backend_key(ki)) {
        ct_dispatch_key f;
        int b;
        split_runtime_key(ki, &f, &b);
        ct_keyset ks = CT_FUNCTIONALITY_BIT(f);
        if (b > 0) ks |= CT_BACKEND_BIT(b);
        return ks;
    }
    return 0; /* alias keys and sentinels */
}

bool ct_keyset_has(ct_keyset ks, ct_dispatch_key k) {
    ct_keyset bits = ct_keyset_of(k);
    return bits != 0 && (ks & bits) == bits;
}

static int index_of_highest_bit(uint64_t x) {
    return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

static ct_dispatch_key runtime_key_for(ct_dispatch_key functionality, int backend) {
    for (int i = 0; i < CT_NUM_PER_BACKEND_FUNCTIONALITIES; i++)
        if (per_backend_functionalities[i] == functionality)
            return (ct_dispatch_key)(CT_KEY_StartOfDenseBackends + i * BLOCK_LEN + backend);
    return functionality;
}

ct_dispatch_key ct_keyset_highest(ct_keyset ks) {
    int f = index_of_highest_bit(ks >> CT_NUM_BACKENDS);
    if (f == 0) return CT_KEY_Undefined;
    if (ct_functionality_per_backend[f]) {
        int b = index_of_highest_bit(ks & CT_BACKEND_BITS_MASK);
        /* A per-backend functionality with no backend bit: PyTorch returns the functionality key. */
        if (b == 0) return (ct_dispatch_key)f;
        return runtime_key_for((ct_dispatch_key)f, b);
    }
    return (ct_dispatch_key)f;
}

ct_keyset ct_keyset_full(void) {
    /* all backend bits and functionality bits 1..46 */
    int nbits = CT_NUM_BACKENDS + CT_NUM_FUNCTIONALITY_KEYS - 1;
    return (((ct_keyset)1) << nbits) - 1;
}

ct_keyset ct_keyset_full_after(ct_dispatch_key k) {
    ct_dispatch_key f = k;
    if (is_runtime_backend_key((int)k)) {
        int b;
        split_runtime_key((int)k, &f, &b);
    }
    /* every bit below f's functionality bit (all backend bits included), plus PythonDispatcher */
    int bit = CT_NUM_BACKENDS + (int)f - 1;
    ct_keyset below = (((ct_keyset)1) << bit) - 1;
    return below | CT_FUNCTIONALITY_BIT(CT_KEY_PythonDispatcher);
}

size_t ct_keyset_format(ct_keyset ks, char *buf, size_t size) {
    size_t len = 0;
#define EMIT(str)                                                                                   \
    do {                                                                                            \
        const char *s_ = (str);                                                                     \
        size_t l_ = strlen(s_);                                                                     \
        if (size > 0 && len < size - 1) {                                                           \
            size_t room = size - 1 - len;                                                           \
            memcpy(buf + len, s_, l_ < room ? l_ : room);                                           \
        }                                                                                           \
        len += l_;                                                                                  \
    } while (0)
    EMIT("DispatchKeySet(");
    bool first = true;
    /* The iterator walks functionality bits from low to high; a per-backend functionality
     * yields one runtime key per set backend bit, lowest backend first, and nothing if no
     * backend bit is set (DispatchKeySet::iterator). */
    for (int f = 1; f < CT_NUM_FUNCTIONALITY_KEYS; f++) {
        if (!(ks & CT_FUNCTIONALITY_BIT(f))) continue;
        if (ct_functionality_per_backend[f]) {
            for (int b = 1; b <= CT_NUM_BACKENDS; b++) {
                if (!(ks & CT_BACKEND_BIT(b))) continue;
                if (!first) EMIT(", ");
                EMIT(ct_key_name(runtime_key_for((ct_dispatch_key)f, b)));
                first = false;
            }
        } else {
            if (!first) EMIT(", ");
            EMIT(functionality_names[f]);
            first = false;
        }
    }
    EMIT(")");
#undef EMIT
    if (size > 0) buf[len < size ? len : size - 1] = '\0';
    return len;
}

ct_keyset ct_autograd_dispatch_keyset(void) { return CT_AUTOGRAD_KEYSET; }
ct_keyset ct_autograd_dispatch_keyset_with_ADInplaceOrView(void) { return CT_AUTOGRAD_KEYSET_WITH_ADINPLACEORVIEW; }
ct_keyset ct_after_autograd_keyset(void) { return CT_AFTER_AUTOGRAD_KEYSET; }
ct_keyset ct_after_ADInplaceOrView_keyset(void) { return CT_AFTER_ADINPLACEORVIEW_KEYSET; }
ct_keyset ct_python_ks(void) { return CT_PYTHON_KEYSET; }

/* ---- table slots (initializeFunctionalityOffsetsAndMasks) ---- */

/* written once, by ct_keys_init in the start-up (Note [Start-up] in core/startup.h), and read
 * afterwards */
int ct_functionality_offset[CT_NUM_FUNCTIONALITY_KEYS];
static ct_dispatch_key key_of_slot[CT_NUM_RUNTIME_ENTRIES]; /* filled with the offsets */

static ct_dispatch_key search_key_of_slot(int slot) {
    for (int f = CT_NUM_FUNCTIONALITY_KEYS - 1; f >= 0; f--) {
        if (slot >= ct_functionality_offset[f]) {
            if (!ct_functionality_per_backend[f]) return (ct_dispatch_key)f;
            return runtime_key_for((ct_dispatch_key)f, slot - ct_functionality_offset[f] + 1);
        }
    }
    return CT_KEY_Undefined;
}

/* initializeFunctionalityOffsetsAndMasks: one slot per functionality, num_backends slots per
 * per-backend functionality. */
void ct_keys_init(void) {
    int off = 0;
    for (int f = 0; f < CT_NUM_FUNCTIONALITY_KEYS; f++) {
        ct_functionality_offset[f] = off;
        off += ct_functionality_per_backend[f] ? CT_NUM_BACKENDS : 1;
    }
    for (int slot = 0; slot < CT_NUM_RUNTIME_ENTRIES; slot++) key_of_slot[slot] = search_key_of_slot(slot);
}

int ct_runtime_slot_of_key(ct_dispatch_key k) {
    int ki = (int)k;
    if (ki >= 0 && ki < CT_NUM_FUNCTIONALITY_KEYS) return ct_functionality_offset[ki];
    if (is_runtime_backend_key(ki)) {
        ct_dispatch_key f;
        int b;
        split_runtime_key(ki, &f, &b);
        return ct_functionality_offset[f] + (b > 0 ? b - 1 : 0);
    }
    return -1;
}

ct_dispatch_key ct_key_of_slot(int slot) {
    return slot >= 0 && slot < CT_NUM_RUNTIME_ENTRIES ? key_of_slot[slot] : CT_KEY_Undefined;
}
