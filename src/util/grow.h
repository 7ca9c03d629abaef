/* The one growable array of the library.
 *
 *     thing *v = NULL; size_t n = 0, cap = 0;
 *     if (ct_grow(v, cap, n + 1, 16) != 0) return -1;   // out of memory: v, cap untouched
 *     v[n++] = x;
 *
 * ct_grow(arr, cap, need, first) makes room for at least `need` elements, doubling the capacity
 * from `first` (as std::vector and c10's SmallVector grow geometrically, so n appends cost O(n)).
 * `arr` is any pointer lvalue, `cap` a size_t lvalue. It evaluates to 0, or to -1 with the
 * allocator's out-of-memory error set and the array left as it was. */
#ifndef CT_UTIL_GROW_H
#define CT_UTIL_GROW_H
#include <stddef.h>

int ct_grow_to(void *arrp, size_t *cap, size_t need, size_t elem, size_t first);

#define ct_grow(arr, cap, need, first)                                                             \
    ((size_t)(need) <= (cap) ? 0 : ct_grow_to((void *)&(arr), &(cap), (size_t)(need), sizeof *(arr), \
                                              (size_t)(first)))
#endif
