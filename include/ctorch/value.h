/*
 * ctorch/value.h - the boxed value every kernel, mode and observer works on.
 *
 * Note [Boxed calling convention]
 *   Every kernel has one signature (ct_kernel_fn in dispatch.h): it receives the operator,
 *   the dispatch key set it was called with, an array with exactly one ct_value per schema
 *   argument (defaults already filled in) and an array with one slot per schema return.
 *   Arguments are BORROWED: the caller keeps its references and the kernel must not release
 *   them. Returns are OWNED: on success the kernel stores new references there and the
 *   caller releases them; on failure it leaves every slot CT_TAG_NONE and returns -1.
 *   Lists and strings in arguments point into the caller's memory and live as long as the
 *   call; a mode or observer that keeps one must copy it.
 */
#ifndef CTORCH_VALUE_H
#define CTORCH_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_tensor ct_tensor;
typedef struct ct_generator ct_generator;

typedef enum ct_tag {
    CT_TAG_NONE = 0,
    CT_TAG_TENSOR,
    CT_TAG_INT,       /* int, SymInt, ScalarType, Layout, MemoryFormat, an int Scalar */
    CT_TAG_DOUBLE,    /* float, a float Scalar */
    CT_TAG_BOOL,
    CT_TAG_INTLIST,   /* int[], SymInt[] */
    CT_TAG_STRING,
    CT_TAG_GENERATOR,
    CT_TAG_DEVICE,    /* Device: the device type (0 = cpu) */
    CT_TAG_OBJECT,    /* a custom class object (e.g. profiler._RecordFunction) */
    CT_TAG_TENSORLIST /* Tensor[]: see Note [Tensor lists] */
} ct_tag;

/* Note [Tensor lists]
 *   A Tensor[] argument points at the caller's array of tensors (borrowed, like every argument,
 *   for the duration of the call). A Tensor[] return owns both its array (allocated with
 *   ct_malloc) and a reference to each tensor in it; ct_values_release frees both. */

typedef struct ct_value {
    ct_tag tag;
    union {
        ct_tensor *t;
        int64_t i;
        double d;
        bool b;
        struct {
            const int64_t *data;
            int64_t len;
        } list;
        const char *s;
        ct_generator *g;
        void *obj;
        struct {
            ct_tensor **items;
            int64_t len;
        } tlist;
    } u;
} ct_value;

/* c10::MemoryFormat (values as PyTorch's); CT_MEMORY_FORMAT_NONE means "not given". */
typedef enum ct_memory_format {
    CT_MEMORY_FORMAT_NONE = -1,
    CT_CONTIGUOUS_FORMAT = 0,
    CT_PRESERVE_FORMAT = 1
} ct_memory_format;

/* A Scalar (PyTorch's at::Scalar): an int, a double or a bool value. */
typedef ct_value ct_scalar;

static inline ct_value ct_none(void) {
    ct_value v;
    v.tag = CT_TAG_NONE;
    v.u.i = 0;
    return v;
}
static inline ct_value ct_tensor_value(ct_tensor *t) {
    ct_value v;
    if (!t) return ct_none();
    v.tag = CT_TAG_TENSOR;
    v.u.t = t;
    return v;
}
static inline ct_value ct_int(int64_t i) {
    ct_value v;
    v.tag = CT_TAG_INT;
    v.u.i = i;
    return v;
}
static inline ct_value ct_double(double d) {
    ct_value v;
    v.tag = CT_TAG_DOUBLE;
    v.u.d = d;
    return v;
}
static inline ct_value ct_bool(bool b) {
    ct_value v;
    v.tag = CT_TAG_BOOL;
    v.u.i = 0;
    v.u.b = b;
    return v;
}
static inline ct_value ct_intlist(const int64_t *data, int64_t len) {
    ct_value v;
    v.tag = CT_TAG_INTLIST;
    v.u.list.data = data;
    v.u.list.len = len;
    return v;
}
static inline ct_value ct_string(const char *s) {
    ct_value v;
    if (!s) return ct_none();
    v.tag = CT_TAG_STRING;
    v.u.s = s;
    return v;
}
static inline ct_value ct_generator_value(ct_generator *g) {
    ct_value v;
    if (!g) return ct_none();
    v.tag = CT_TAG_GENERATOR;
    v.u.g = g;
    return v;
}
static inline ct_value ct_object(void *obj) {
    ct_value v;
    v.tag = CT_TAG_OBJECT;
    v.u.obj = obj;
    return v;
}

/* A Tensor[] value over items[0..len) (see Note [Tensor lists]). */
static inline ct_value ct_tensor_list_value(ct_tensor **items, int64_t len) {
    ct_value v;
    v.tag = CT_TAG_TENSORLIST;
    v.u.tlist.items = items;
    v.u.tlist.len = len;
    return v;
}

/* A Scalar's value as a double (bools as 0/1). */
static inline double ct_scalar_to_double(ct_scalar s) {
    return s.tag == CT_TAG_DOUBLE ? s.u.d : s.tag == CT_TAG_BOOL ? (double)s.u.b : (double)s.u.i;
}

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_VALUE_H */
