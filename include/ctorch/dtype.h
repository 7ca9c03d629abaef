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

/* A dtype's promotion category, lowest first (c10's bool < integral < floating < complex):
 * torch.promote_types of two categories is the higher one's dtype, and a value may be cast
 * (torch.can_cast) to a dtype of its own category or a higher one. */
typedef enum ct_dtype_kind {
    CT_DTYPE_KIND_BOOL,
    CT_DTYPE_KIND_INTEGRAL,
    CT_DTYPE_KIND_FLOATING,
    CT_DTYPE_KIND_COMPLEX /* only dtypes ctorch lacks (CT_DTYPE_ABSENT_TABLE) */
} ct_dtype_kind;

/* Note [The dtype table]
 *   CT_DTYPE_TABLE(X) is the one list of the dtypes ctorch has and of their facts: the ct_dtype
 *   enum, the functions below and every switch on a dtype in the library are made from it, so a
 *   dtype is added by its line here (and its kernels). A binding makes its dtype objects from it
 *   too. It expands X once per dtype, in c10::ScalarType order, with these columns:
 *
 *     ENUM          the ct_dtype enumerator
 *     SCALAR_TYPE   c10::ScalarType's number, the enumerator's value
 *     C10_NAME      c10::toString: "Float" ("result type Float can't be cast to ...")
 *     NAME          its name in torch: "float32" (str(torch.float32) is "torch.float32")
 *     ALIAS         its other name in torch, "float" for torch.float, or NULL
 *     SIZE          bytes per element (torch.dtype.itemsize)
 *     KIND          its ct_dtype_kind
 *     REDUCED       1 for the 16-bit floats (at::isReducedFloatingType)
 *     SIGNED        torch.dtype.is_signed
 *     DIGITS        std::numeric_limits<scalar_t>::digits (the floats' significand bits)
 *     MAX           std::numeric_limits<scalar_t>::max() as a double (torch.finfo / iinfo max)
 *     OPMATH        the dtype its arithmetic runs in (at::opmath_type: float for the 16-bit floats)
 *     TYPE_META     caffe2::TypeMeta's name, as the profiler's input types and mm's dtype
 *                   message show it: "float", "long int", "c10::Half"
 *     CPP_NAME      the C++ scalar_t PyTorch's conversion messages name: "float", "at::Half"
 *     LEGACY_TYPE   Tensor.type(): "torch.FloatTensor"
 *     MESSAGE_TYPE  a tensor's type in PyTorch's messages: the legacy name where Python's error
 *                   processing knows it, else the C++ type's, "CPUBoolType"
 *
 *   tests/test_dtype.c checks every column PyTorch can be asked about against PyTorch 2.6.
 *
 *   Example: the dtypes' names, one a line.
 *     #define NAME_OF(e, n, c10, name, ...) puts(name);
 *     CT_DTYPE_TABLE(NAME_OF)
 */
#define CT_DTYPE_TABLE(X)                                                                                    \
    X(CT_UINT8, 0, "Byte", "uint8", NULL, 1, CT_DTYPE_KIND_INTEGRAL, 0, 0, 8, 255.0, CT_UINT8, "unsigned char", \
      "uint8_t", "torch.ByteTensor", "torch.ByteTensor")                                                     \
    X(CT_INT8, 1, "Char", "int8", NULL, 1, CT_DTYPE_KIND_INTEGRAL, 0, 1, 7, 127.0, CT_INT8, "signed char",   \
      "int8_t", "torch.CharTensor", "torch.CharTensor")                                                      \
    X(CT_INT16, 2, "Short", "int16", "short", 2, CT_DTYPE_KIND_INTEGRAL, 0, 1, 15, 32767.0, CT_INT16,       \
      "short int", "int16_t", "torch.ShortTensor", "torch.ShortTensor")                                      \
    X(CT_INT32, 3, "Int", "int32", "int", 4, CT_DTYPE_KIND_INTEGRAL, 0, 1, 31, 2147483647.0, CT_INT32, "int", \
      "int", "torch.IntTensor", "torch.IntTensor")                                                           \
    X(CT_INT64, 4, "Long", "int64", "long", 8, CT_DTYPE_KIND_INTEGRAL, 0, 1, 63, 9223372036854775807.0,   \
      CT_INT64, "long int", "int64_t", "torch.LongTensor", "torch.LongTensor")                              \
    X(CT_FLOAT16, 5, "Half", "float16", "half", 2, CT_DTYPE_KIND_FLOATING, 1, 1, 11, 65504.0, CT_FLOAT32,  \
      "c10::Half", "at::Half", "torch.HalfTensor", "torch.HalfTensor")                                      \
    X(CT_FLOAT32, 6, "Float", "float32", "float", 4, CT_DTYPE_KIND_FLOATING, 0, 1, 24,                    \
      3.4028234663852886e38, CT_FLOAT32, "float", "float", "torch.FloatTensor", "torch.FloatTensor")         \
    X(CT_FLOAT64, 7, "Double", "float64", "double", 8, CT_DTYPE_KIND_FLOATING, 0, 1, 53,                  \
      1.7976931348623157e308, CT_FLOAT64, "double", "double", "torch.DoubleTensor", "torch.DoubleTensor")    \
    X(CT_BOOL, 11, "Bool", "bool", NULL, 1, CT_DTYPE_KIND_BOOL, 0, 0, 1, 1.0, CT_BOOL, "bool", "bool",      \
      "torch.BoolTensor", "CPUBoolType")                                                                     \
    X(CT_BFLOAT16, 15, "BFloat16", "bfloat16", NULL, 2, CT_DTYPE_KIND_FLOATING, 1, 1, 8,                  \
      3.3895313892515355e38, CT_FLOAT32, "c10::BFloat16", "at::BFloat16", "torch.BFloat16Tensor",            \
      "CPUBFloat16Type")

/* The c10::ScalarTypes ctorch lacks that torch names, so that a binding can present them (and
 * say they are missing when one is used) with PyTorch's facts. Columns: SCALAR_TYPE, NAME, ALIAS,
 * SIZE, KIND, SIGNED, LEGACY_TYPE, as CT_DTYPE_TABLE's. */
#define CT_DTYPE_ABSENT_TABLE(X)                                                                             \
    X(9, "complex64", "cfloat", 8, CT_DTYPE_KIND_COMPLEX, 1, "torch.ComplexFloatTensor")                    \
    X(10, "complex128", "cdouble", 16, CT_DTYPE_KIND_COMPLEX, 1, "torch.ComplexDoubleTensor")

#define CT_DTYPE_ENUMERATOR_(e, n, ...) e = n,
typedef enum ct_dtype {
    CT_DTYPE_UNDEFINED = -1, /* "no dtype given" where an argument is optional */
    CT_DTYPE_TABLE(CT_DTYPE_ENUMERATOR_) /* CT_UINT8 = 0, CT_INT8 = 1, CT_INT16 = 2, CT_INT32 = 3,
                                            CT_INT64 = 4, CT_FLOAT16 = 5, CT_FLOAT32 = 6, CT_FLOAT64 = 7,
                                            CT_BOOL = 11, CT_BFLOAT16 = 15 */
} ct_dtype;
#undef CT_DTYPE_ENUMERATOR_

/* The functions below answer from CT_DTYPE_TABLE. For a value that is no dtype of the table
 * (CT_DTYPE_UNDEFINED included) they return what the comment says. */

/* True for the dtypes of the table. */
CT_API bool ct_dtype_valid(int dtype);
/* Bytes per element (0 for an invalid dtype). */
CT_API size_t ct_dtype_size(ct_dtype dtype);
/* c10::toString: "Float", "Double", "Half", "BFloat16", "Long", "Int", "Byte", "Bool" ("UNKNOWN_SCALAR"). */
CT_API const char *ct_dtype_name(ct_dtype dtype);
/* Python spelling: "torch.float32", "torch.float16", "torch.int64", ... ("torch.undefined"). */
CT_API const char *ct_dtype_python_name(ct_dtype dtype);
/* caffe2::TypeMeta name, as the profiler's "Input type" shows it: "float", "long int", "c10::Half"
 * ("nullptr (uninitialized)"). */
CT_API const char *ct_dtype_type_meta_name(ct_dtype dtype);
/* Tensor.type()'s legacy name: "torch.FloatTensor", "torch.BoolTensor", ... ("torch.Tensor"). */
CT_API const char *ct_dtype_legacy_type_name(ct_dtype dtype);
/* The promotion category (CT_DTYPE_KIND_BOOL for an invalid dtype). */
CT_API ct_dtype_kind ct_dtype_kind_of(ct_dtype dtype);
/* torch.is_floating_point: float16, bfloat16, float32, float64 (false). */
CT_API bool ct_dtype_is_floating(ct_dtype dtype);
/* c10::isIntegralType(dtype, include_bool) (false). */
CT_API bool ct_dtype_is_integral(ct_dtype dtype, bool include_bool);
/* at::isReducedFloatingType: float16, bfloat16 (false). */
CT_API bool ct_dtype_is_reduced_floating(ct_dtype dtype);
/* torch.dtype.is_signed (false). */
CT_API bool ct_dtype_is_signed(ct_dtype dtype);
/* torch.promote_types for two tensor dtypes (CT_DTYPE_UNDEFINED when either is invalid). */
CT_API ct_dtype ct_dtype_promote(ct_dtype a, ct_dtype b);
/* torch.can_cast(from, to) (false when either is invalid). */
CT_API bool ct_dtype_can_cast(ct_dtype from, ct_dtype to);
/* torch.result_type over n tensors (ATen's ResultTypeState: dimensioned tensors outrank 0-dim
 * ones, which outrank wrapped numbers, within a category; ct_wrapped_number wraps a Python
 * scalar). CT_DTYPE_UNDEFINED when n is 0 or a tensor is NULL. */
struct ct_tensor;
CT_API ct_dtype ct_result_type(struct ct_tensor *const *tensors, int64_t n);
/* c10::checked_convert of a Python number to dtype: 0 when it fits, else -1 with PyTorch's
 * RuntimeError "value cannot be converted to type uint8_t without overflow". An integer (integral
 * true, its value as a double) must lie within [lowest, max], except that an unsigned dtype takes
 * one down to -max (it wraps: -1 is 255 as uint8); a float within [lowest, max] of an integer
 * dtype, anything (inf too) for a floating one but NaN for no integer; bool takes everything.
 * 0 for an invalid dtype. */
CT_API int ct_dtype_check_value(ct_dtype dtype, double value, bool integral);
/* torch.get_default_dtype(): float32 until ct_set_default_dtype changes it (for the process). */
CT_API ct_dtype ct_default_dtype(void);
/* torch.set_default_dtype: a floating dtype becomes the default of every thread (0), another is a
 * TypeError, PyTorch's (-1). */
CT_API int ct_set_default_dtype(ct_dtype dtype);

/* IEEE binary16 and bfloat16 conversions, round-to-nearest-even like c10::Half / c10::BFloat16. */
CT_API uint16_t ct_float_to_half(float f);
CT_API float ct_half_to_float(uint16_t h);
CT_API uint16_t ct_float_to_bfloat16(float f);
CT_API float ct_bfloat16_to_float(uint16_t b);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_DTYPE_H */
