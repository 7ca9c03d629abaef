/* The orderings the sorting family's CPU kernels reproduce (cpu/SortingKernel.cpp, TopKImpl.h,
 * SortingUtils.h, Sorting.cpp): the element moves of the C++ standard library's introsort,
 * introselect and heap-based partial sort as the GNU library performs them (whose order of
 * equal keys PyTorch's results show), a stable merge sort, and PyTorch's own quick select.
 * Elements are (key, index) pairs; a floating key is compared as a double, an integral or bool
 * key as an int64. */
#ifndef CT_OPS_CPU_SORT_ALGO_H
#define CT_OPS_CPU_SORT_ALGO_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ct_kv {
    double f;
    int64_t k;
    int64_t i;
} ct_kv;

typedef bool (*ct_kv_less)(const ct_kv *a, const ct_kv *b);

/* NaN-aware orders: ascending with NaN last, descending with NaN first; the integral ones */
bool ct_kv_asc_f(const ct_kv *a, const ct_kv *b);
bool ct_kv_desc_f(const ct_kv *a, const ct_kv *b);
bool ct_kv_asc_i(const ct_kv *a, const ct_kv *b);
bool ct_kv_desc_i(const ct_kv *a, const ct_kv *b);

/* std::sort, std::nth_element and std::partial_sort over a[0..n) */
void ct_kv_introsort(ct_kv *a, int64_t n, ct_kv_less less);
void ct_kv_nth_element(ct_kv *a, int64_t nth, int64_t n, ct_kv_less less);
void ct_kv_partial_sort(ct_kv *a, int64_t middle, int64_t n, ct_kv_less less);
/* a stable sort; tmp holds n elements */
void ct_kv_stable_sort(ct_kv *a, int64_t n, ct_kv *tmp, ct_kv_less less);
/* PyTorch's quick_select_template: a[k] in place with greater-or-NaN as gt */
void ct_kv_quick_select(ct_kv *a, int64_t n, int64_t k, ct_kv_less gt);

#endif
