/*
 * ctorch/backends.h - what the CPU kernels run with, as torch.backends.cpu reports it:
 *
 *     printf("%s\n", ct_backends_cpu_capability()); // "AVX512", "AVX2" or "NO AVX"
 *
 * The capability is the level of the kernel files chosen for this process (the best this CPU
 * and build have, or the one CTORCH_CPU_CAPABILITY pins), named as PyTorch's
 * torch.backends.cpu.get_cpu_capability() names it. Float32 results of the kernels that follow
 * PyTorch's order depend on it, as PyTorch's do, and matrix products depend on the BLAS's kernel
 * set, which ct_backends_blas_core() names.
 */
#ifndef CTORCH_BACKENDS_H
#define CTORCH_BACKENDS_H

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "AVX512", "AVX2" or "NO AVX" (the DEFAULT level); on the calling thread (tests may pin a level
 * per thread). */
CT_API const char *ct_backends_cpu_capability(void);
/* The kernel set the BLAS chose for this CPU (OpenBLAS's core name, e.g. "Haswell"), or NULL for
 * ctorch's built-in products. */
CT_API const char *ct_backends_blas_core(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_BACKENDS_H */
