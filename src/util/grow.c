/* The growable array's slow path: see grow.h. */
#include "util/grow.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"

int ct_grow_to(void *arrp, size_t *cap, size_t need, size_t elem, size_t first) {
    size_t ncap = *cap ? *cap : (first ? first : 1);
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) {
            ncap = need;
            break;
        }
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem) {
        ct_error_set(CT_ERR_NOMEM, "DefaultCPUAllocator: can't allocate memory: you tried to allocate more than %zu bytes.",
                     (size_t)SIZE_MAX);
        return -1;
    }
    /* the caller's pointer is read and written as bytes: it may point to any object type */
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *nb = ct_realloc(old, ncap * elem);
    if (!nb) return -1;
    memcpy(arrp, &nb, sizeof nb);
    *cap = ncap;
    return 0;
}
