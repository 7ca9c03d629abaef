/* A float's bits and back (internal): the IEEE-754 binary32 pattern as a uint32_t, through
 * memcpy (no aliasing); compilers turn each into a register move. */
#ifndef CT_BITS_H
#define CT_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t ct_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float ct_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#endif
