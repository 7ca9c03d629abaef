/* float32 GELU (approximate='none') and its backward as PyTorch 2.6 runs them on a contiguous
 * float32 tensor of more than one element, built once per CPU capability (Note [CPU
 * capabilities] in vec_kernels.h).
 *
 * Note [GELU as oneDNN runs it]
 *   For such a tensor PyTorch 2.6 does not use ATen's GeluKernel: gelu_out_cpu and
 *   gelu_backward_out_cpu (aten/src/ATen/native/Activation.cpp) hand it to oneDNN's eltwise
 *   primitive with algorithm eltwise_gelu_erf when use_mkldnn(self) holds (float32, contiguous,
 *   numel > 1). oneDNN (v3.7, the version Debian's PyTorch 2.6 links) runs a JIT kernel whose
 *   arithmetic depends on the instruction set it was generated for
 *   (src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp):
 *   - forward on AVX-512: erf(x/sqrt 2) as a degree-5 polynomial in |x|, its coefficients picked
 *     from 25 sets by the bits of |x| (the minimax table below), then 0.5 * x * (1 + erf);
 *   - forward below AVX-512, and the backward everywhere: Abramowitz and Stegun's 7.1.26,
 *     erf(z) ~ 1 - t (p1 + t (p2 + ...)) exp(-z^2) with t = 1 / (1 + p z), and oneDNN's own exp
 *     (exp(r) as a degree-5 polynomial times 2^n). Where the instruction set has FMA each
 *     multiply-add is fused; on SSE4.1 oneDNN emits a multiply and an add.
 *   ctorch pins one level for ATen's kernels and oneDNN's alike: AVX512 runs the minimax forward,
 *   AVX2 the fused Abramowitz-Stegun forms, DEFAULT the unfused ones, which is what PyTorch gives
 *   with ATEN_CPU_CAPABILITY and ONEDNN_MAX_CPU_ISA set to AVX512 / AVX2 / SSE41. Measured
 *   against PyTorch 2.6 at those three settings on 680,022 inputs (-12..12, normal samples,
 *   tiny values, +-0, infinities, NaN; tests/golden/record/gelu_onednn.py): forward and backward
 *   bit for bit. The constants are oneDNN's (Apache-2.0), as bit patterns.
 *   This file is built with -ffp-contract=off: only fmaf() (MADD at AVX2/AVX512) is fused. The
 *   loops are written so the compiler vectorises them (selects as bit masks, floor by
 *   truncation), except the AVX-512 forward, whose table lookups are AVX-512 permutes as in
 *   oneDNN (the compiler would load each coefficient alone): 32768 elements take 6 us forward
 *   and 17 us backward here, against 73 us and 190 us for the scalar loops. */
#include <math.h>
#include <stdint.h>

#include "core/bits.h"
#include "ops/cpu/vec/vec_impl.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

/* c ? a : b as bit masks: the selects stay straight-line code the compiler vectorises */
static inline float pick(bool c, float a, float b) {
    const uint32_t m = 0u - (uint32_t)c;
    return ct_bits_f32((ct_f32_bits(a) & m) | (ct_f32_bits(b) & ~m));
}

#define ONE_OVER_SQRT2 0x3f3504f3u /* 1/sqrt(2) */
#define ONE_OVER_SQRTPI 0x3f106ebau /* 1/sqrt(pi) */
#define AS_P 0x3ea7ba05u           /* Abramowitz-Stegun p = 0.3275911 */
/* a5 t^4 + a4 t^3 + ... + a1 by Horner, with Abramowitz-Stegun 7.1.26's a1..a5 */
static inline float as_polynomial(float t) {
    float r = ct_bits_f32(0x3f87dc22u);
    r = MADD(r, t, ct_bits_f32(0xbfba00e3u));
    r = MADD(r, t, ct_bits_f32(0x3fb5f0e3u));
    r = MADD(r, t, ct_bits_f32(0xbe91a98eu));
    return MADD(r, t, ct_bits_f32(0x3e827906u));
}

/* oneDNN's exp: x clamped to [ln FLT_MIN, ln FLT_MAX] (0 below), n = floor(x log2 e + 1/2),
 * r = x - n ln 2, exp = p(r) * 2^(n-1) * 2. */
static inline float onednn_exp(float x) {
    const float lo = ct_bits_f32(0xc2aeac50u), hi = ct_bits_f32(0x42b17218u);
    const bool under = x < lo;
    x = pick(x < hi, x, hi); /* vminps / vmaxps: NaN becomes hi */
    x = pick(x > lo, x, lo);
    float fx = x * ct_bits_f32(0x3fb8aa3bu); /* log2(e) */
    fx = fx + 0.5f;
    /* floor(fx), fx being in [-126, 129]: truncation, one less where that rounded up (a form
     * the compiler vectorises, as it does not floorf) */
    const float tr = (float)(int32_t)fx;
    const float n = tr - pick(tr > fx, 1.0f, 0.0f);
#if defined(__FMA__)
    const float r = fmaf(-n, ct_bits_f32(0x3f317218u), x); /* ln 2 */
#else
    const float r = x - n * ct_bits_f32(0x3f317218u);
#endif
    const int32_t e = (int32_t)(n - 1.0f) + 127;
    const float scale = ct_bits_f32(((uint32_t)e << 23) & ((uint32_t)under - 1u)); /* 0 below ln FLT_MIN */
    float p = ct_bits_f32(0x3c07cfceu);
    p = MADD(p, r, ct_bits_f32(0x3d2b9d0du));
    p = MADD(p, r, ct_bits_f32(0x3e2aad40u));
    p = MADD(p, r, ct_bits_f32(0x3efffee3u));
    p = MADD(p, r, ct_bits_f32(0x3f7ffffbu));
    p = MADD(p, r, 1.0f);
    return p * scale * 2.0f;
}

/* erf(z) by Abramowitz-Stegun, given q = exp(-z^2): sign(z) (1 - poly(t) t q), t = 1 / (1 + p|z|) */
static inline float as_erf(float z, float q) {
    float t = MADD(ct_bits_f32(AS_P), fabsf(z), 1.0f);
    t = 1.0f / t;
    const float e = -q * t;
    return ct_bits_f32(ct_f32_bits(MADD(e, as_polynomial(t), 1.0f)) ^ (ct_f32_bits(z) & 0x80000000u));
}

#if defined(__AVX512F__)
/* Coefficients of degree 0..5 for the 25 pieces of oneDNN's minimax erf(x / sqrt 2) on
 * AVX-512 (gelu_erf_minimax_polynomial; piece 0 is unused, 23 is erf = 1, 24 carries NaN). */
static const uint32_t minimax[6][32] = { /* padded to 32 for the permutes */
    {0xa6f2cb94u, 0x32827792u, 0x3381cc0cu, 0x34523d4au, 0x351ac44du, 0x35f36d88u, 0x36ee8229u, 0x37b8a3bbu, 0x3867a213u,
     0x3940033bu, 0x3a2a5a1du, 0x3ae35863u, 0x3b7828f2u, 0x3c08b14bu, 0x3c515ed3u, 0xbb503236u, 0xbd8d8e5eu, 0xbe8abcd9u,
     0xbf0c19a2u, 0xbeccb328u, 0x3e176cedu, 0x3f470d99u, 0x3f7abb28u, 0x3f800000u, 0x00000000u},
    {0x3f4c422au, 0x3f4c421fu, 0x3f4c4207u, 0x3f4c41cbu, 0x3f4c413bu, 0x3f4c3fadu, 0x3f4c3a2fu, 0x3f4c2d40u, 0x3f4c146au,
     0x3f4bc341u, 0x3f4ad08cu, 0x3f48f8cfu, 0x3f45fac7u, 0x3f404e07u, 0x3f3b980fu, 0x3f48dff3u, 0x3f78b21bu, 0x3fbb0704u,
     0x40019c32u, 0x3fe536d6u, 0x3f81331eu, 0x3e6c8684u, 0x3c98f936u, 0x00000000u, 0x3f800000u},
    {0xb62173f4u, 0x3735e4cfu, 0x37f2ff89u, 0x388c23beu, 0x3917535cu, 0x39ab2ab0u, 0x3a60fadbu, 0x3af9b960u, 0x3b6e5491u,
     0x3c0a4ec5u, 0x3ca5aa8cu, 0x3d2138d9u, 0x3d8737d4u, 0x3ddfb660u, 0x3e0f27abu, 0x3d94004bu, 0xbe0efdebu, 0xbf1d96c3u,
     0xbf89db58u, 0xbf6d9897u, 0xbef69fb8u, 0xbdc4f8a8u, 0xbbde6422u, 0x00000000u, 0x00000000u},
    {0xbe081a19u, 0xbe084570u, 0xbe08639bu, 0xbe089837u, 0xbe08f409u, 0xbe09ab95u, 0xbe0b66d0u, 0xbe0e400au, 0xbe124df8u,
     0xbe1bde02u, 0xbe2f19c9u, 0xbe4931bfu, 0xbe685fbcu, 0xbe89c95fu, 0xbe96cbcau, 0xbe8044aau, 0xbe0550f2u, 0x3dcfd6a1u,
     0x3e94c826u, 0x3e79345fu, 0x3decec91u, 0x3ca46568u, 0x3aa1e00au, 0x00000000u, 0x00000000u},
    {0xba3d61dbu, 0x39f097a3u, 0x3a5845dcu, 0x3ab1fa35u, 0x3b0cefb8u, 0x3b653ab6u, 0x3bcae527u, 0x3c221712u, 0x3c6c5840u,
     0x3cc0a703u, 0x3d1dcc19u, 0x3d63656du, 0x3d955907u, 0x3dbf9910u, 0x3dd53f69u, 0x3db7dcefu, 0x3d639ebeu, 0xba6ede48u,
     0xbd22be69u, 0xbd041cf1u, 0xbc64f5abu, 0xbb097a32u, 0xb8ebf380u, 0x00000000u, 0x00000000u},
    {0x3cb7d80cu, 0x3c9b6050u, 0x3c978d11u, 0x3c92e850u, 0x3c8d058bu, 0x3c848454u, 0x3c6cd623u, 0x3c4c824bu, 0x3c2a7935u,
     0x3be0b390u, 0x3b0651acu, 0xbb232f53u, 0xbbd42fa0u, 0xbc2c5366u, 0xbc492c9eu, 0xbc2a7aa6u, 0xbbd55d04u, 0xba823a76u,
     0x3b102aa8u, 0x3ae25a7eu, 0x3a31f792u, 0x38b84375u, 0x3689bb5au, 0x00000000u, 0x00000000u},
};

static inline float gelu_one(float x) {
    const uint32_t ax_bits = ct_f32_bits(x) & 0x7fffffffu;
    const float ax = ct_bits_f32(ax_bits);
    /* the piece: (bits(|x|) - 0x3de00001) >> 21 (arithmetic), clamped to [1, 24]; 23 past the
     * last piece's bound (erf = 1) */
    int32_t piece = (int32_t)(ax_bits + 0xc21fffffu) >> 21;
    piece = piece < 1 ? 1 : piece;
    piece = piece > 24 ? 24 : piece;
    const int32_t past = -(int32_t)(ct_bits_f32(0x40b15ceeu) < ax); /* all ones past the bound */
    piece = (piece & ~past) | (23 & past);
    float p = ct_bits_f32(minimax[5][piece]);
    p = fmaf(p, ax, ct_bits_f32(minimax[4][piece]));
    p = fmaf(p, ax, ct_bits_f32(minimax[3][piece]));
    p = fmaf(p, ax, ct_bits_f32(minimax[2][piece]));
    p = fmaf(p, ax, ct_bits_f32(minimax[1][piece]));
    p = fmaf(p, ax, ct_bits_f32(minimax[0][piece]));
    p = ct_bits_f32(ct_f32_bits(p) ^ (ct_f32_bits(x) & 0x80000000u));
    return x * (p + 1.0f) * 0.5f;
}
#else
static inline float gelu_one(float s) {
    const float z = s * ct_bits_f32(ONE_OVER_SQRT2);
    const float erf = as_erf(z, onednn_exp(-(z * z)));
    const float half_s = s * 0.5f;
    return MADD(erf, half_s, half_s);
}
#endif

/* d gelu(s) / ds = 0.5 (1 + erf(s / sqrt 2)) + (s / sqrt 2) exp(-s^2 / 2) / sqrt(pi) */
static inline float gelu_grad_one(float s) {
    const float z = s * ct_bits_f32(ONE_OVER_SQRT2);
    const float q = onednn_exp(-(z * z));
    const float t = z * ct_bits_f32(ONE_OVER_SQRTPI) * q;
    return MADD(as_erf(z, q), 0.5f, t + 0.5f);
}

#if defined(__AVX512F__)
/* gelu_one on 16 lanes, the coefficients picked with two-table permutes as oneDNN does (the
 * compiler would emulate the gathers element by element) */
static inline __m512 gelu_16(__m512 x) {
    const __m512i bits = _mm512_castps_si512(x);
    const __m512i ax_bits = _mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff));
    const __m512 ax = _mm512_castsi512_ps(ax_bits);
    __m512i piece = _mm512_srai_epi32(_mm512_add_epi32(ax_bits, _mm512_set1_epi32((int32_t)0xc21fffffu)), 21);
    piece = _mm512_min_epi32(_mm512_max_epi32(piece, _mm512_set1_epi32(1)), _mm512_set1_epi32(24));
    const __mmask16 past = _mm512_cmp_ps_mask(_mm512_set1_ps(ct_bits_f32(0x40b15ceeu)), ax, _CMP_LT_OS);
    piece = _mm512_mask_mov_epi32(piece, past, _mm512_set1_epi32(23));
#define COEF(d) \
    _mm512_permutex2var_ps(_mm512_loadu_ps((const float *)minimax[d]), piece, _mm512_loadu_ps((const float *)minimax[d] + 16))
    __m512 p = COEF(5);
    p = _mm512_fmadd_ps(p, ax, COEF(4));
    p = _mm512_fmadd_ps(p, ax, COEF(3));
    p = _mm512_fmadd_ps(p, ax, COEF(2));
    p = _mm512_fmadd_ps(p, ax, COEF(1));
    p = _mm512_fmadd_ps(p, ax, COEF(0));
#undef COEF
    p = _mm512_castsi512_ps(
        _mm512_xor_si512(_mm512_castps_si512(p), _mm512_and_si512(bits, _mm512_set1_epi32((int32_t)0x80000000u))));
    return _mm512_mul_ps(_mm512_mul_ps(x, _mm512_add_ps(p, _mm512_set1_ps(1.0f))), _mm512_set1_ps(0.5f));
}
#endif

void CT_VEC(ct_vec_gelu_f32)(const float *x, int64_t n, float *y) {
    int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, gelu_16(_mm512_loadu_ps(x + i)));
#endif
    for (; i < n; i++) y[i] = gelu_one(x[i]);
}

void CT_VEC(ct_vec_gelu_bw_f32)(const float *dy, const float *x, int64_t n, float *dx) {
    for (int64_t i = 0; i < n; i++) dx[i] = dy[i] * gelu_grad_one(x[i]);
}
