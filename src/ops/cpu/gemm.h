/* Matrix product core (internal): BLAS when the build found one, a built-in loop otherwise. */
#ifndef CT_GEMM_H
#define CT_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dtype.h"

/* Column-major, BLAS semantics: C = alpha * op(A) * op(B) + beta * C, op(X) = X or X^T.
 * C is m x n, op(A) m x k, op(B) k x n. With beta == 0, C is written without being read.
 * float32/float64 use the CBLAS when present; float16/bfloat16 and the fallback accumulate in
 * float (double for float64). */
void ct_gemm(ct_dtype dt, bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
             int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc);
/* "OpenBLAS 0.3.21" or "built-in". */
const char *ct_blas_name(void);

#endif
