/*
 * Internal random-number API for operator kernels (randn, rand, randint, normal_, uniform_,
 * random_, nn.init).
 *
 * Every fill function works on a CONTIGUOUS buffer of n elements of `dtype` and writes them in
 * buffer order, drawing from the generator exactly as PyTorch 2.6's CPU kernels do
 * (aten/src/ATen/native/cpu/DistributionTemplates.h). g == NULL means the default generator.
 * Each call takes the generator's lock for its whole duration, as the PyTorch kernels hold
 * generator->mutex_ around their cpu_serial_kernel loop, so one call's draws are never
 * interleaved with another thread's.
 *
 * Note [RNG fill order]
 *   PyTorch fills an output in TensorIterator order (cpu_serial_kernel), which for a
 *   non-contiguous tensor is the order of its memory, dimensions sorted by stride, not its
 *   logical row-major order. For `base = torch.empty(4, 5); base.t().normal_()` the k-th value
 *   drawn lands in base's k-th memory slot, i.e. view element [k % 5][k / 5]. A kernel for a
 *   non-contiguous output therefore asks for numel values in one call and writes the k-th one to
 *   the k-th element in that iteration order (for a permuted dense tensor: increasing storage
 *   offset). Only normal_ also changes its algorithm for a non-contiguous output
 *   (contiguous = false); tests/test_rng.c checks both orders against PyTorch.
 *
 * The fill functions do not validate their arguments beyond the dtype; PyTorch checks them in
 * the operator (aten/src/ATen/native/DistributionTemplates.h) before any number is drawn, and the
 * ct_rng_*_bounds / ct_rng_normal_check helpers below do the same checks with PyTorch's messages.
 */
#ifndef CT_RANDOM_RNG_H
#define CT_RANDOM_RNG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dtype.h"
#include "ctorch/random.h"

/* Tensor.uniform_(from, to) for CT_FLOAT32/FLOAT64/FLOAT16/BFLOAT16 (from/to as returned by
 * ct_rng_uniform_bounds). Returns 0, or -1 with CT_ERR_RUNTIME
 * ("check_uniform_bounds" not implemented for 'Long') for other dtypes. */
int ct_rng_uniform(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double from, double to);

/* Tensor.normal_(mean, std) for the four floating dtypes. `contiguous` is the output tensor's
 * is_contiguous(): PyTorch's normal_kernel uses the 16-wide Box-Muller block path when
 * numel >= 16 && contiguous, and the one-at-a-time double Box-Muller (with the generator's
 * cached second sample) otherwise. Returns 0, or -1 for a non-floating dtype. */
int ct_rng_normal(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double mean, double std,
                  bool contiguous);

/* Tensor.random_(from, to) / torch.randint(low, high): element = (draw % range) + from, for
 * every dtype (values converted as a C++ static_cast from int64). range == 0 means 2^64 (random_
 * over the whole int64 range: one random64() reinterpreted as int64; int64, double, float and
 * bfloat16 only). Pass the base and range computed by ct_rng_random_bounds: for floating dtypes
 * PyTorch narrows [from, to) first (update_from / update_to). Returns 0, or -1 for an invalid
 * dtype or a full range on a dtype that has no full-range kernel. */
int ct_rng_random_from_to(ct_generator *g, void *data, int64_t n, ct_dtype dtype, int64_t from,
                          uint64_t range);

/* random_from_to_impl's argument handling for random_(from, to) (to != NULL) and
 * random_(from, to=None) (to == NULL): checks from < to, narrows the bounds of floating dtypes
 * to values that survive the cast (update_from / update_to), checks them against the dtype's
 * range, and stores the kernel's base and range (0 = 2^64, for from = INT64_MIN without to).
 * Returns 0, or -1 with PyTorch's RuntimeError message. */
int ct_rng_random_bounds(ct_dtype dtype, int64_t from, const int64_t *to, int64_t *base, uint64_t *range);

/* uniform_impl_'s checks (bounds within the dtype, from <= to, to - from <= the dtype's max) and
 * clamping of *from / *to into [lowest, max]. Returns 0, or -1 with PyTorch's message. */
int ct_rng_uniform_bounds(ct_dtype dtype, double *from, double *to);

/* normal_impl_'s check: std >= 0 ("normal expects std >= 0.0, but found std -1"). 0 or -1. */
int ct_rng_normal_check(double std);
/* the "\"KERNEL\" not implemented for 'DTYPE'" error of a dtype the kernel does not handle; returns -1 */
int ct_rng_not_implemented(const char *kernel, ct_dtype dtype);

/* Tensor.bernoulli_(p) for every dtype: 1 where a uniform double draw is below p, else 0.
 * 0, or -1 for an invalid dtype. PyTorch builds with MKL draw these from MKL's generator
 * instead (see docs/minigpt.md); this is the build without it. */
int ct_rng_bernoulli(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double p);
/* Tensor.exponential_(lambda) for the four floating dtypes: (-1 / lambda) * log(1 - u) of a
 * uniform double draw u. 0, or -1 (not implemented for the dtype). */
int ct_rng_exponential(ct_generator *g, void *data, int64_t n, ct_dtype dtype, double lambda);
/* One uniform_real_distribution<double>(0, 1) draw (locks the generator for it). */
double ct_rng_uniform_double(ct_generator *g);

/* One locked 32-bit word (CPUGeneratorImpl::random) / 64-bit word (random64: the first word
 * drawn is the high half). */
uint32_t ct_rng_random32(ct_generator *g);
uint64_t ct_rng_random64(ct_generator *g);

/* ---- for the implementation in src/random/ (and kernels that need several draws under one
 * lock): the caller holds the lock between ct_rng_lock and ct_rng_unlock. ---- */

/* Resolves NULL to the default generator, locks it and returns it. */
ct_generator *ct_rng_lock(ct_generator *g);
void ct_rng_unlock(ct_generator *g);
uint32_t ct_rng_next32_locked(ct_generator *g);
uint64_t ct_rng_next64_locked(ct_generator *g);
/* n successive ct_rng_next64_locked words into out (one call for a loop's worth of draws) */
void ct_rng_fill64_locked(ct_generator *g, uint64_t *out, int64_t n);
/* The cached second Box-Muller sample (CPUGeneratorImpl::next_double_normal_sample): if one is
 * present, stores it in *out, clears it and returns true. */
bool ct_rng_take_normal_locked(ct_generator *g, double *out);
void ct_rng_set_normal_locked(ct_generator *g, double v);

/* Seeds the default generator non-deterministically unless a program's ct_manual_seed came
 * first: run once by the start-up (Note [Start-up] in core/startup.h). */
void ct_default_generator_init(void);

/* Called by ct_manual_seed (torch.manual_seed) with the seed, when set: how a trace file,
 * opened by a layer above, learns where the program seeded. */
typedef void (*ct_seed_observer_fn)(uint64_t seed);
extern _Atomic(ct_seed_observer_fn) ct_manual_seed_observer;

#endif /* CT_RANDOM_RNG_H */
