/*
 * ctorch/dtype.h - element types.
 *
 * Values equal c10::ScalarType's, so a dtype prints and converts the way PyTorch's does.
 */
#ifndef CTORCH_DTYPE_H
#define CTORCH_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_dtype {
    CT_DTYPE_UNDEFINED = -1, /* "no dtype given" where an argument is optional */
    CT_INT64 = 4,            /* torch.int64 / torch.long  (c10::ScalarType::Long) */
    CT_FLOAT16 = 5,          /* torch.float16 / torch.half (Half) */
    CT_FLOAT32 = 6,          /* torch.float32 / torch.float (Float) */
    CT_FLOAT64 = 7,          /* torch.float64 / torch.double (Double) */
    CT_BOOL = 11,            /* torch.bool (Bool) */
    CT_BFLOAT16 = 15         /* torch.bfloat16 (BFloat16) */
} ct_dtype;

/* True for the six dtypes above. */
CT_API bool ct_dtype_valid(int dtype);
/* Bytes per element (0 for an invalid dtype). */
CT_API size_t ct_dtype_size(ct_dtype dtype);
/* c10::toString: "Float", "Double", "Half", "BFloat16", "Long", "Bool". */
CT_API const char *ct_dtype_name(ct_dtype dtype);
/* Python spelling: "torch.float32", "torch.float16", "torch.int64", ... */
CT_API const char *ct_dtype_python_name(ct_dtype dtype);
/* caffe2::TypeMeta name, as the profiler's "Input type" shows it: "float", "long int", "c10::Half". */
CT_API const char *ct_dtype_type_meta_name(ct_dtype dtype);
CT_API bool ct_dtype_is_floating(ct_dtype dtype);
/* torch.promote_types for two tensor dtypes. */
CT_API ct_dtype ct_dtype_promote(ct_dtype a, ct_dtype b);
/* torch.get_default_dtype() (float32). */
CT_API ct_dtype ct_default_dtype(void);

/* IEEE binary16 and bfloat16 conversions, round-to-nearest-even like c10::Half / c10::BFloat16. */
CT_API uint16_t ct_float_to_half(float f);
CT_API float ct_half_to_float(uint16_t h);
CT_API uint16_t ct_float_to_bfloat16(float f);
CT_API float ct_bfloat16_to_float(uint16_t b);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_DTYPE_H */
