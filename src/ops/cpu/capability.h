/* CPU capability: which build of the kernel files runs (internal). See Note [CPU capabilities]
 * in vec/vec_kernels.h. */
#ifndef CT_CAPABILITY_H
#define CT_CAPABILITY_H

#include "ops/cpu/vec/vec_kernels.h"

typedef enum ct_cpu_capability { CT_CPU_DEFAULT, CT_CPU_AVX2, CT_CPU_AVX512, CT_CPU_CAPABILITY_COUNT } ct_cpu_capability;

/* Chooses the level once per process, in the start-up (before it every level reads as DEFAULT
 * and ct_vec() is NULL): the best this CPU and this build have, or the one
 * CTORCH_CPU_CAPABILITY names (default, avx2, avx512) when the CPU has it. */
void ct_cpu_capability_init(void);
/* The level the start-up chose. */
ct_cpu_capability ct_cpu_capability_get(void);
/* The best level this CPU and this build support (ignores the environment). */
ct_cpu_capability ct_cpu_capability_supported(void);
/* "DEFAULT", "AVX2", "AVX512". */
const char *ct_cpu_capability_name(ct_cpu_capability c);
/* The kernel table of the chosen level. */
const ct_vec_kernels *ct_vec(void);
/* The kernel table of level c, or NULL when this build or CPU lacks it (for tests that run every
 * level in one process). */
const ct_vec_kernels *ct_vec_for(ct_cpu_capability c);
/* Makes ct_vec() return level c's table on this thread from now on (tests); c must be supported.
 * Returns 0, or -1 (nothing changed) when it is not. CT_CPU_CAPABILITY_COUNT restores the
 * process-wide choice. */
int ct_vec_set_thread_capability(ct_cpu_capability c);

#endif
