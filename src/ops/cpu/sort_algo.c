/* The element orderings of the sorting family (sort_algo.h). The introsort, introselect and heap
 * routines follow the moves the GNU C++ library makes (pivot as the median of three moved to the
 * front, an unguarded partition, a final insertion sort over runs of 16), so that equal keys end
 * in the places PyTorch's CPU kernels, built on them, put them. */
#include "ops/cpu/sort_algo.h"

#include <math.h>
#include <string.h>

bool ct_kv_asc_f(const ct_kv *a, const ct_kv *b) { return (!isnan(a->f) && isnan(b->f)) || a->f < b->f; }
bool ct_kv_desc_f(const ct_kv *a, const ct_kv *b) { return (isnan(a->f) && !isnan(b->f)) || a->f > b->f; }
bool ct_kv_asc_i(const ct_kv *a, const ct_kv *b) { return a->k < b->k; }
bool ct_kv_desc_i(const ct_kv *a, const ct_kv *b) { return a->k > b->k; }

static inline void kv_swap(ct_kv *a, ct_kv *b) {
    ct_kv t = *a;
    *a = *b;
    *b = t;
}

static int64_t floor_log2(int64_t n) {
    int64_t r = 0;
    while (n > 1) {
        n >>= 1;
        r++;
    }
    return r;
}

/* ---- heaps ---- */
static void push_heap(ct_kv *a, int64_t hole, int64_t top, ct_kv v, ct_kv_less less) {
    int64_t parent = (hole - 1) / 2;
    while (hole > top && less(&a[parent], &v)) {
        a[hole] = a[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    a[hole] = v;
}

static void adjust_heap(ct_kv *a, int64_t hole, int64_t len, ct_kv v, ct_kv_less less) {
    const int64_t top = hole;
    int64_t child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (less(&a[child], &a[child - 1])) child--;
        a[hole] = a[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    push_heap(a, hole, top, v, less);
}

static void make_heap(ct_kv *a, int64_t len, ct_kv_less less) {
    if (len < 2) return;
    for (int64_t parent = (len - 2) / 2;; parent--) {
        adjust_heap(a, parent, len, a[parent], less);
        if (parent == 0) return;
    }
}

static void pop_heap(ct_kv *a, int64_t last, int64_t result, ct_kv_less less) {
    ct_kv v = a[result];
    a[result] = a[0];
    adjust_heap(a, 0, last, v, less);
}

static void heap_select(ct_kv *a, int64_t middle, int64_t n, ct_kv_less less) {
    make_heap(a, middle, less);
    for (int64_t i = middle; i < n; i++)
        if (less(&a[i], &a[0])) pop_heap(a, middle, i, less);
}

static void sort_heap(ct_kv *a, int64_t last, ct_kv_less less) {
    while (last > 1) {
        last--;
        pop_heap(a, last, last, less);
    }
}

void ct_kv_partial_sort(ct_kv *a, int64_t middle, int64_t n, ct_kv_less less) {
    heap_select(a, middle, n, less);
    sort_heap(a, middle, less);
}

/* ---- insertion sorts ---- */
static void unguarded_linear_insert(ct_kv *a, int64_t last, ct_kv_less less) {
    ct_kv v = a[last];
    int64_t next = last - 1;
    while (less(&v, &a[next])) {
        a[last] = a[next];
        last = next;
        next--;
    }
    a[last] = v;
}

static void insertion_sort(ct_kv *a, int64_t first, int64_t last, ct_kv_less less) {
    if (first == last) return;
    for (int64_t i = first + 1; i < last; i++) {
        if (less(&a[i], &a[first])) {
            ct_kv v = a[i];
            memmove(&a[first + 1], &a[first], (size_t)(i - first) * sizeof *a);
            a[first] = v;
        } else {
            unguarded_linear_insert(a, i, less);
        }
    }
}

/* ---- partitions ---- */
static void median_to_first(ct_kv *a, int64_t result, int64_t x, int64_t y, int64_t z, ct_kv_less less) {
    if (less(&a[x], &a[y])) {
        if (less(&a[y], &a[z])) kv_swap(&a[result], &a[y]);
        else if (less(&a[x], &a[z])) kv_swap(&a[result], &a[z]);
        else kv_swap(&a[result], &a[x]);
    } else if (less(&a[x], &a[z])) {
        kv_swap(&a[result], &a[x]);
    } else if (less(&a[y], &a[z])) {
        kv_swap(&a[result], &a[z]);
    } else {
        kv_swap(&a[result], &a[y]);
    }
}

static int64_t unguarded_partition(ct_kv *a, int64_t first, int64_t last, int64_t pivot, ct_kv_less less) {
    for (;;) {
        while (less(&a[first], &a[pivot])) first++;
        last--;
        while (less(&a[pivot], &a[last])) last--;
        if (!(first < last)) return first;
        kv_swap(&a[first], &a[last]);
        first++;
    }
}

static int64_t partition_pivot(ct_kv *a, int64_t first, int64_t last, ct_kv_less less) {
    int64_t mid = first + (last - first) / 2;
    median_to_first(a, first, first + 1, mid, last - 1, less);
    return unguarded_partition(a, first + 1, last, first, less);
}

#define SORT_THRESHOLD 16

static void introsort_loop(ct_kv *a, int64_t first, int64_t last, int64_t depth, ct_kv_less less) {
    while (last - first > SORT_THRESHOLD) {
        if (depth == 0) {
            ct_kv_partial_sort(a + first, last - first, last - first, less);
            return;
        }
        depth--;
        int64_t cut = partition_pivot(a, first, last, less);
        introsort_loop(a, cut, last, depth, less);
        last = cut;
    }
}

void ct_kv_introsort(ct_kv *a, int64_t n, ct_kv_less less) {
    if (n <= 1) return;
    introsort_loop(a, 0, n, floor_log2(n) * 2, less);
    if (n > SORT_THRESHOLD) {
        insertion_sort(a, 0, SORT_THRESHOLD, less);
        for (int64_t i = SORT_THRESHOLD; i < n; i++) unguarded_linear_insert(a, i, less);
    } else {
        insertion_sort(a, 0, n, less);
    }
}

void ct_kv_nth_element(ct_kv *a, int64_t nth, int64_t n, ct_kv_less less) {
    if (n == 0 || nth == n) return;
    int64_t first = 0, last = n, depth = floor_log2(n) * 2;
    while (last - first > 3) {
        if (depth == 0) {
            heap_select(a + first, nth + 1 - first, last - first, less);
            kv_swap(&a[first], &a[nth]);
            return;
        }
        depth--;
        int64_t cut = partition_pivot(a, first, last, less);
        if (cut <= nth) first = cut;
        else last = cut;
    }
    insertion_sort(a, first, last, less);
}

void ct_kv_stable_sort(ct_kv *a, int64_t n, ct_kv *tmp, ct_kv_less less) {
    if (n < 2) return;
    /* bottom-up merges of runs insertion-sorted to 16 */
    for (int64_t s = 0; s < n; s += SORT_THRESHOLD) insertion_sort(a, s, s + SORT_THRESHOLD < n ? s + SORT_THRESHOLD : n, less);
    for (int64_t w = SORT_THRESHOLD; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n - w; lo += 2 * w) {
            int64_t mid = lo + w, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = 0;
            while (i < mid && j < hi) tmp[o++] = less(&a[j], &a[i]) ? a[j++] : a[i++];
            while (i < mid) tmp[o++] = a[i++];
            while (j < hi) tmp[o++] = a[j++];
            memcpy(a + lo, tmp, (size_t)o * sizeof *a);
        }
    }
}

void ct_kv_quick_select(ct_kv *a, int64_t n, int64_t k, ct_kv_less gt) {
    int64_t l = 0, r = n - 1;
    for (;;) {
        if (r <= l) return;
        if (r == l + 1) {
            if (gt(&a[l], &a[r])) kv_swap(&a[l], &a[r]);
            return;
        }
        int64_t p = l + (r - l) / 2;
        kv_swap(&a[p], &a[l + 1]);
        if (gt(&a[l + 1], &a[r])) kv_swap(&a[l + 1], &a[r]);
        if (gt(&a[l], &a[r])) kv_swap(&a[l], &a[r]);
        if (gt(&a[l + 1], &a[l])) kv_swap(&a[l + 1], &a[l]);
        int64_t i = l + 1, j = r;
        const ct_kv piv = a[l];
        for (;;) {
            do i++;
            while (gt(&piv, &a[i]));
            do j--;
            while (gt(&a[j], &piv));
            if (j < i) break;
            kv_swap(&a[i], &a[j]);
        }
        kv_swap(&a[l], &a[j]);
        if (j <= k) l = i;
        if (j >= k) r = j - 1;
    }
}
