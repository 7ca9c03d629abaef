/* The multiply-add loop the benchmarks measure this machine's floating-point peak with (GF/s of
 * float32 fused multiply-adds at this capability's vector width), built once per capability. */
#include "ops/cpu/vec/vec_impl.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

/* iters rounds of 16 independent multiply-add chains (more than an FMA unit's latency times its
 * throughput, so the units never wait); returns a value that depends on every chain */
float CT_VEC(ct_vec_fma_loop)(int64_t iters, int64_t *flops) {
#if defined(__AVX512F__)
    __m512 acc[16];
    const __m512 m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-7f);
    for (int i = 0; i < 16; i++) acc[i] = _mm512_set1_ps((float)i);
    for (int64_t it = 0; it < iters; it++)
        for (int i = 0; i < 16; i++) acc[i] = _mm512_fmadd_ps(acc[i], m, a);
    __m512 s = acc[0];
    for (int i = 1; i < 16; i++) s = _mm512_add_ps(s, acc[i]);
    *flops = iters * 16 * 16 * 2;
    return _mm512_reduce_add_ps(s);
#elif defined(__AVX2__)
    __m256 acc[12];
    const __m256 m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-7f);
    for (int i = 0; i < 12; i++) acc[i] = _mm256_set1_ps((float)i);
    for (int64_t it = 0; it < iters; it++)
        for (int i = 0; i < 12; i++) acc[i] = _mm256_fmadd_ps(acc[i], m, a);
    __m256 s = acc[0];
    for (int i = 1; i < 12; i++) s = _mm256_add_ps(s, acc[i]);
    float out[8];
    _mm256_storeu_ps(out, s);
    *flops = iters * 12 * 8 * 2;
    return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
#else
    /* no fused multiply-add at this level: a multiply and an add, 32 chains the compiler vectorises */
    float acc[32];
    for (int i = 0; i < 32; i++) acc[i] = (float)i;
    for (int64_t it = 0; it < iters; it++)
        for (int i = 0; i < 32; i++) acc[i] = acc[i] * 0.999999f + 1e-7f;
    float s = 0;
    for (int i = 0; i < 32; i++) s += acc[i];
    *flops = iters * 32 * 2;
    return s;
#endif
}
