/*
 * CPU generator: PyTorch's CPUGeneratorImpl (aten/src/ATen/CPUGeneratorImpl.cpp) over its
 * MT19937 engine (aten/src/ATen/core/MT19937RNGEngine.h).
 *
 * The engine is the reference MT19937 (Matsumoto & Nishimura, mt19937ar): 624 words of state,
 * seeded from the low 32 bits of the seed with the 1812433253 recurrence, tempered output.
 * PyTorch's engine is the "Cokus" formulation of the same recurrence and starts with left_ = 1,
 * so the whole state is regenerated before the first word is returned; the block
 * regeneration below does exactly that and yields the identical word stream.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/keys.h"
#include "ctorch/random.h"
#include "ctorch/tensor.h" /* ct_free */
#include "random/rng.h"

#define MT_N 624
#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu

struct ct_generator {
    atomic_long refcount;
    bool immortal; /* the default generator: never freed */
    bool seeded;   /* given a seed (the default generator has none until the start-up or
                      ct_manual_seed gives it one) */
    pthread_mutex_t mutex;
    uint64_t seed;      /* CPUGeneratorImpl::current_seed(), all 64 bits */
    uint32_t mt[MT_N];  /* engine state */
    int mti;            /* index of the next word to temper; MT_N = regenerate first */
    /* CPUGeneratorImpl::next_double_normal_sample_ (std::optional<double>), the second value of
     * the last scalar-path Box-Muller pair. PyTorch also keeps a float cache
     * (next_float_normal_sample_) for normal_distribution<float>, which none of the kernels here
     * uses (the scalar normal path is normal_distribution<double> for every dtype). */
    bool has_normal;
    double normal;
};

/* ---- engine -------------------------------------------------------------------------------- */

/* mt19937::init_with_uint32: PyTorch truncates the 64-bit seed to its low 32 bits here. */
static void mt_seed(ct_generator *g, uint64_t seed) {
    g->mt[0] = (uint32_t)(seed & 0xffffffffu);
    for (uint32_t i = 1; i < MT_N; i++) {
        uint32_t prev = g->mt[i - 1];
        g->mt[i] = 1812433253u * (prev ^ (prev >> 30)) + i; /* uint32 wrap-around intended */
    }
    g->mti = MT_N;
}

/* One twist step: the top bit of word i with the low 31 bits of word i+1, shifted, and xored
 * with the matrix when the low bit is set. */
static inline uint32_t mt_mix(uint32_t cur, uint32_t next) {
    uint32_t y = (cur & MT_UPPER) | (next & MT_LOWER);
    return (y >> 1) ^ ((y & 1u) ? MT_MATRIX_A : 0u);
}

static void mt_regenerate(ct_generator *g) {
    uint32_t *s = g->mt;
    int i = 0;
    for (; i < MT_N - MT_M; i++) s[i] = s[i + MT_M] ^ mt_mix(s[i], s[i + 1]);
    for (; i < MT_N - 1; i++) s[i] = s[i + MT_M - MT_N] ^ mt_mix(s[i], s[i + 1]);
    s[MT_N - 1] = s[MT_M - 1] ^ mt_mix(s[MT_N - 1], s[0]);
    g->mti = 0;
}

static inline uint32_t mt_next(ct_generator *g) {
    if (g->mti >= MT_N) mt_regenerate(g);
    uint32_t y = g->mt[g->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* CPUGeneratorImpl::set_current_seed: forget the cached normals, then re-seed the engine. */
static void gen_seed_locked(ct_generator *g, uint64_t seed) {
    g->seeded = true;
    g->seed = seed;
    g->has_normal = false;
    g->normal = 0.0;
    mt_seed(g, seed);
}

/* ---- locked access for src/random/ ----------------------------------------------------------- */

uint32_t ct_rng_next32_locked(ct_generator *g) { return mt_next(g); }

/* CPUGeneratorImpl::random64: detail::make64BitsFrom32Bits(first, second), first word high. */
uint64_t ct_rng_next64_locked(ct_generator *g) {
    uint64_t hi = mt_next(g);
    uint64_t lo = mt_next(g);
    return (hi << 32) | lo;
}

void ct_rng_fill64_locked(ct_generator *g, uint64_t *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = ct_rng_next64_locked(g);
}

bool ct_rng_take_normal_locked(ct_generator *g, double *out) {
    if (!g->has_normal) return false;
    *out = g->normal;
    g->has_normal = false;
    return true;
}

void ct_rng_set_normal_locked(ct_generator *g, double v) {
    g->normal = v;
    g->has_normal = true;
}

ct_generator *ct_rng_lock(ct_generator *g) {
    if (!g) g = ct_default_generator();
    pthread_mutex_lock(&g->mutex);
    return g;
}

void ct_rng_unlock(ct_generator *g) { pthread_mutex_unlock(&g->mutex); }

uint32_t ct_rng_random32(ct_generator *g) {
    g = ct_rng_lock(g);
    uint32_t v = mt_next(g);
    ct_rng_unlock(g);
    return v;
}

uint64_t ct_rng_random64(ct_generator *g) {
    g = ct_rng_lock(g);
    uint64_t v = ct_rng_next64_locked(g);
    ct_rng_unlock(g);
    return v;
}

/* ---- public API -------------------------------------------------------------------------------- */

ct_generator *ct_generator_new(void) {
    ct_generator *g = ct_malloc(sizeof *g);
    if (!g) return NULL;
    atomic_init(&g->refcount, 1);
    g->immortal = false;
    if (pthread_mutex_init(&g->mutex, NULL) != 0) {
        ct_free(g);
        ct_error_set(CT_ERR_RUNTIME, "could not create the generator's mutex");
        return NULL;
    }
    /* torch.Generator() (make_generator<CPUGeneratorImpl>()) is seeded with default_rng_seed_val. */
    gen_seed_locked(g, CT_DEFAULT_RNG_SEED);
    return g;
}

int ct_generator_manual_seed(ct_generator *g, uint64_t seed) {
    if (!g) return ct_error_set(CT_ERR_VALUE, "ct_generator_manual_seed: generator is NULL");
    pthread_mutex_lock(&g->mutex);
    gen_seed_locked(g, seed);
    pthread_mutex_unlock(&g->mutex);
    return 0;
}

uint64_t ct_generator_initial_seed(const ct_generator *g) {
    if (!g) {
        ct_error_set(CT_ERR_VALUE, "ct_generator_initial_seed: generator is NULL");
        return 0;
    }
    ct_generator *mg = (ct_generator *)g; /* locking does not change the observable state */
    pthread_mutex_lock(&mg->mutex);
    uint64_t s = mg->seed;
    pthread_mutex_unlock(&mg->mutex);
    return s;
}

ct_generator *ct_generator_retain(ct_generator *g) {
    if (g && !g->immortal) atomic_fetch_add(&g->refcount, 1);
    return g;
}

void ct_generator_release(ct_generator *g) {
    if (!g || g->immortal) return;
    if (atomic_fetch_sub(&g->refcount, 1) == 1) {
        pthread_mutex_destroy(&g->mutex);
        ct_free(g);
    }
}

ct_keyset ct_generator_keyset(const ct_generator *g) {
    if (!g) return CT_KEYSET_EMPTY;
    /* CPUGeneratorImpl's key_set_ is DispatchKeySet(DispatchKey::CPU): Dense + the CPU bit. */
    return CT_FUNCTIONALITY_BIT(CT_KEY_Dense) | CT_BACKEND_BIT(CT_BACKEND_CPU);
}

/* c10::detail::getNonDeterministicRandom for the CPU: readURandomLong(), eight bytes of
 * /dev/urandom (no 53-bit mask; that is the CUDA branch). If the device cannot be read, where
 * PyTorch would raise, fall back to the clock as PyTorch does on Windows. */
static uint64_t nondeterministic_seed(void) {
    uint64_t s = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    bool ok = false;
    if (f) {
        ok = fread(&s, sizeof s, 1, f) == 1;
        fclose(f);
    }
    if (!ok) {
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);
        s = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
    }
    return s;
}

/* The default generator is a static object (nothing to allocate or leak), its mutex statically
 * initialised; the start-up seeds it (getDefaultCPUGenerator's
 * createCPUGenerator(getNonDeterministicRandom())) unless the program seeded it first. */
static ct_generator default_gen = {.immortal = true, .mutex = PTHREAD_MUTEX_INITIALIZER};

void ct_default_generator_init(void) {
    pthread_mutex_lock(&default_gen.mutex);
    if (!default_gen.seeded) gen_seed_locked(&default_gen, nondeterministic_seed());
    pthread_mutex_unlock(&default_gen.mutex);
}

ct_generator *ct_default_generator(void) { return &default_gen; }

_Atomic(ct_seed_observer_fn) ct_manual_seed_observer;

void ct_manual_seed(uint64_t seed) {
    ct_generator_manual_seed(ct_default_generator(), seed);
    ct_seed_observer_fn observe = atomic_load_explicit(&ct_manual_seed_observer, memory_order_acquire);
    if (observe) observe(seed);
}
