/* The unary math ops with a vectorised float32 loop (internal): the numbering shared by the
 * unary kernel (src/ops/cpu/unary.c) and its per-capability loops (vec/unary_vec.c). */
#ifndef CT_UNARY_VEC_H
#define CT_UNARY_VEC_H

typedef enum ct_uv_op {
    /* SLEEF's vectorised functions at AVX2/AVX512 (Note [Unary float32 loops] in unary_vec.c) */
    CT_UV_EXP, CT_UV_EXP2, CT_UV_EXPM1, CT_UV_LOG, CT_UV_LOG2, CT_UV_LOG10, CT_UV_LOG1P,
    CT_UV_SIN, CT_UV_COS, CT_UV_TAN, CT_UV_ASIN, CT_UV_ACOS, CT_UV_ATAN,
    CT_UV_SINH, CT_UV_COSH, CT_UV_TANH, CT_UV_ASINH, CT_UV_ACOSH, CT_UV_ATANH,
    CT_UV_ERF, CT_UV_ERFC, CT_UV_SIGMOID,
    /* exact IEEE operations: the same bits at every level */
    CT_UV_SQRT, CT_UV_RSQRT, CT_UV_RECIPROCAL, CT_UV_ABS, CT_UV_NEG,
    CT_UV_FLOOR, CT_UV_CEIL, CT_UV_TRUNC, CT_UV_ROUND, CT_UV_FRAC, CT_UV_SIGN,
    CT_UV_COUNT,
    CT_UV_NONE = -1
} ct_uv_op;

#endif
