/* The dtype table as the library reads it (internal): one entry per c10::ScalarType number up
 * to the largest of CT_DTYPE_TABLE (Note [The dtype table] in ctorch/dtype.h), made in
 * core/dtype.c. The accessors are inline for the kernels' set-up paths; the public functions of
 * ctorch/dtype.h answer from the same entries. */
#ifndef CT_DTYPE_IMPL_H
#define CT_DTYPE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "ctorch/dtype.h"

typedef struct ct_dtype_info {
    const char *c10_name, *name, *alias, *python_name, *type_meta, *cpp_name, *legacy_type, *message_type;
    double max;
    size_t size;
    ct_dtype_kind kind;
    ct_dtype opmath;
    int digits;
    bool valid, reduced, is_signed; /* valid: a dtype of the table (the other numbers stay zero) */
} ct_dtype_info;

/* sizeof is one more than the largest ScalarType number of the table */
#define CT_DTYPE_SLOT_(e, n, ...) char slot_##e[(n) + 1];
union ct_dtype_slots_ {
    CT_DTYPE_TABLE(CT_DTYPE_SLOT_)
};
#undef CT_DTYPE_SLOT_
#define CT_DTYPE_SLOTS ((int)sizeof(union ct_dtype_slots_))

extern const ct_dtype_info ct_dtype_infos[CT_DTYPE_SLOTS];

/* The entry of d, or NULL when d is no dtype of the table. */
static inline const ct_dtype_info *ct_dtype_info_of(int d) {
    return d >= 0 && d < CT_DTYPE_SLOTS && ct_dtype_infos[d].valid ? &ct_dtype_infos[d] : NULL;
}

/* at::opmath_type: the dtype d's arithmetic runs in (d itself for an invalid d). */
static inline ct_dtype ct_dtype_opmath(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->opmath : d;
}
/* std::numeric_limits<scalar_t>::digits and max() (0 for an invalid d). */
static inline int ct_dtype_digits(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->digits : 0;
}
static inline double ct_dtype_max(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->max : 0.0;
}
/* The scalar_t of PyTorch's conversion messages: "float", "at::Half", "int64_t" ("" if invalid). */
static inline const char *ct_dtype_cpp_name(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->cpp_name : "";
}
/* A tensor's type as PyTorch's messages show it from Python (Tensor::toString() through torch's
 * processErrorMsg): "torch.FloatTensor", ..., "CPUBoolType" ("UndefinedType" if invalid). */
static inline const char *ct_dtype_message_type(ct_dtype d) {
    const ct_dtype_info *i = ct_dtype_info_of((int)d);
    return i ? i->message_type : "UndefinedType";
}

#endif
