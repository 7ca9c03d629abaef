/* CPU capability detection and the choice of kernel table (Note [CPU capabilities] in
 * vec/vec_kernels.h). The only place that asks the CPU what it has. */
#include <stdlib.h>
#include <string.h>

#include "core/startup.h"
#include "ctorch/backends.h"
#include "ops/cpu/capability.h"

static const ct_vec_kernels *const tables[CT_CPU_CAPABILITY_COUNT] = {
    &ct_vec_kernels_DEFAULT,
#ifdef CTORCH_HAVE_CPU_AVX2
    &ct_vec_kernels_AVX2,
#else
    NULL,
#endif
#ifdef CTORCH_HAVE_CPU_AVX512
    &ct_vec_kernels_AVX512,
#else
    NULL,
#endif
};

/* What the CPU (and the operating system, which must save the wider registers) supports.
 * The levels ask for what ATen's do: AVX2 with FMA (and F16C, which the AVX2 build may use),
 * AVX-512 F/BW/VL/DQ with FMA. __builtin_cpu_supports reads CPUID and XGETBV once. */
static ct_cpu_capability detect(void) {
    ct_cpu_capability c = CT_CPU_DEFAULT;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
#ifdef CTORCH_HAVE_CPU_AVX2
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) c = CT_CPU_AVX2;
#endif
#ifdef CTORCH_HAVE_CPU_AVX512
    if (c == CT_CPU_AVX2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        c = CT_CPU_AVX512;
#endif
#endif
    return c;
}

/* written once, by ct_cpu_capability_init in the start-up (Note [Start-up] in core/startup.h),
 * before any kernel can run */
static ct_cpu_capability supported_level, chosen_level;
/* the process-wide table, chosen with them (the DEFAULT level's until then, so that a kernel
 * reached before the start-up, which none should be, still computes) */
static const ct_vec_kernels *process_table = &ct_vec_kernels_DEFAULT;

void ct_cpu_capability_init(void) {
    supported_level = detect();
    chosen_level = supported_level;
    const char *env = getenv("CTORCH_CPU_CAPABILITY");
    if (env) {
        ct_cpu_capability want = CT_CPU_CAPABILITY_COUNT;
        if (strcmp(env, "default") == 0) want = CT_CPU_DEFAULT;
        else if (strcmp(env, "avx2") == 0) want = CT_CPU_AVX2;
        else if (strcmp(env, "avx512") == 0) want = CT_CPU_AVX512;
        /* an unknown name, or a level above the CPU's, leaves the detected one */
        if (want != CT_CPU_CAPABILITY_COUNT && want <= supported_level) chosen_level = want;
    }
    process_table = tables[chosen_level];
}

ct_cpu_capability ct_cpu_capability_get(void) { return chosen_level; }

ct_cpu_capability ct_cpu_capability_supported(void) { return supported_level; }

const char *ct_cpu_capability_name(ct_cpu_capability c) {
    switch (c) {
    case CT_CPU_DEFAULT: return "DEFAULT";
    case CT_CPU_AVX2: return "AVX2";
    case CT_CPU_AVX512: return "AVX512";
    default: return "?";
    }
}

/* the table this thread uses: a test's choice, or NULL for the process-wide one */
static _Thread_local const ct_vec_kernels *thread_table;

const ct_vec_kernels *ct_vec(void) { return thread_table ? thread_table : process_table; }

const ct_vec_kernels *ct_vec_for(ct_cpu_capability c) {
    if ((int)c < 0 || c >= CT_CPU_CAPABILITY_COUNT || c > ct_cpu_capability_supported()) return NULL;
    return tables[c];
}

int ct_vec_set_thread_capability(ct_cpu_capability c) {
    if (c == CT_CPU_CAPABILITY_COUNT) {
        thread_table = NULL;
        return 0;
    }
    const ct_vec_kernels *t = ct_vec_for(c);
    if (!t) return -1;
    thread_table = t;
    return 0;
}

const char *ct_backends_cpu_capability(void) {
    if (!ct_library_started()) {
        ct_error_not_started("ct_backends_cpu_capability");
        return NULL;
    }
    switch (ct_vec() == ct_vec_for(CT_CPU_AVX512) ? CT_CPU_AVX512 : ct_vec() == ct_vec_for(CT_CPU_AVX2) ? CT_CPU_AVX2 : CT_CPU_DEFAULT) {
    case CT_CPU_AVX512: return "AVX512";
    case CT_CPU_AVX2: return "AVX2";
    default: return "NO AVX"; /* torch.backends.cpu.get_cpu_capability()'s name for DEFAULT */
    }
}
