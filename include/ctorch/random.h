/*
 * ctorch/random.h - random number generators (torch.Generator on the CPU).
 *
 * A ct_generator is PyTorch's CPUGeneratorImpl (aten/src/ATen/CPUGeneratorImpl.cpp): an MT19937
 * engine (at::mt19937) plus the cached second Box-Muller sample that torch.randn's scalar path
 * leaves behind. With the same seed a ctorch generator produces the same 32- and 64-bit words, and
 * the factories and in-place fills built on it (randn, rand, randint, normal_, uniform_, random_,
 * nn.Linear's initialisation) produce bit-identical tensors to PyTorch 2.6 on x86-64.
 *
 * Ownership: ct_generator_new() returns a new reference; ct_generator_retain() adds one and
 * ct_generator_release() drops one, freeing the generator with the last. ct_default_generator()
 * returns a borrowed pointer to the process-wide default generator (torch.default_generator),
 * which lives until the process ends; retaining and releasing it is allowed and does nothing.
 *
 * Thread safety: every generator holds a mutex (PyTorch's generator->mutex_); seeding and every
 * draw take it, so a generator may be shared between threads. Two threads drawing from one
 * generator get disjoint parts of its stream, in an unspecified interleaving.
 *
 * Errors follow ctorch/error.h: pointer-returning functions return NULL and int-returning ones
 * -1 after setting the thread's error. Nothing here aborts.
 */
#ifndef CTORCH_RANDOM_H
#define CTORCH_RANDOM_H

#include <stdint.h>

#include "ctorch/export.h"
#include "ctorch/keys.h"
#include "ctorch/value.h" /* typedef struct ct_generator ct_generator */

#ifdef __cplusplus
extern "C" {
#endif

/* c10::detail::default_rng_seed_val: the seed of a fresh torch.Generator(). */
#define CT_DEFAULT_RNG_SEED UINT64_C(67280421310721)

/* torch.Generator(): a new CPU generator seeded with CT_DEFAULT_RNG_SEED. New reference, or
 * NULL (CT_ERR_NOMEM, or CT_ERR_RUNTIME if its mutex could not be created). */
CT_API ct_generator *ct_generator_new(void);

/* Generator.manual_seed(seed): re-seeds the engine and forgets any cached normal sample
 * (CPUGeneratorImpl::set_current_seed). The engine uses the low 32 bits of the seed, as
 * PyTorch's does, but the full 64-bit value is kept for ct_generator_initial_seed().
 * Returns 0, or -1 with CT_ERR_VALUE if g is NULL. */
CT_API int ct_generator_manual_seed(ct_generator *g, uint64_t seed);

/* Generator.initial_seed(): the last seed given (CT_DEFAULT_RNG_SEED for a new generator).
 * Returns 0 with CT_ERR_VALUE set if g is NULL. */
CT_API uint64_t ct_generator_initial_seed(const ct_generator *g);

/* Adds a reference and returns g (NULL is allowed and returned). */
CT_API ct_generator *ct_generator_retain(ct_generator *g);
/* Drops a reference; frees the generator with the last one. NULL is ignored. */
CT_API void ct_generator_release(ct_generator *g);

/* torch.default_generator: the process-wide generator that random operations use when no
 * generator is given. Borrowed. Like PyTorch's it is seeded non-deterministically, by ct_init()
 * (c10::detail::getNonDeterministicRandom: 64 bits from /dev/urandom, falling back to the
 * clock), so call ct_manual_seed() for a reproducible stream; a seed given before ct_init() is
 * kept. Never NULL. */
CT_API ct_generator *ct_default_generator(void);

/* torch.manual_seed(seed): seeds the default generator. (Python's manual_seed also accepts a
 * negative int, which it wraps to 64 bits: manual_seed(-1) is seed 2^64 - 1.) */
CT_API void ct_manual_seed(uint64_t seed);

/* The dispatch key set a generator argument contributes to an operator call:
 * DispatchKeySet(CPU) (Generator::key_set() of a CPUGeneratorImpl). CT_KEYSET_EMPTY for NULL. */
CT_API ct_keyset ct_generator_keyset(const ct_generator *g);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_RANDOM_H */
