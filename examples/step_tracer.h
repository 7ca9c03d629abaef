/* The training-step tracer (the seed script in C). */
#ifndef CT_EXAMPLE_STEP_TRACER_H
#define CT_EXAMPLE_STEP_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/nn.h"
#include "ctorch/tensor.h"

/* make_batch(seed): torch.Generator().manual_seed(seed), x = randn(8, 16), y = randint(0, 4, (8,)).
 * New references in *x and *y; 0 or -1. */
int ct_example_make_batch(uint64_t seed, ct_tensor **x, ct_tensor **y);
/* make_model(seed): torch.manual_seed(seed), Sequential(Linear(16, 32), ReLU(), Linear(32, 4)). */
ct_module *ct_example_make_model(uint64_t seed);
/* The same with own_generator: the parameters drawn from a new generator seeded with seed
 * (torch.nn.init's generator= argument) instead of after reseeding the process-wide default
 * one, which stays untouched; the same numbers either way. */
ct_module *ct_example_make_model_on(uint64_t seed, bool own_generator);

/* The seed script's result object for `seed`, as json.dumps(result, indent=2) prints it
 * (ct_free), or NULL with an error. make_model gets seed and make_batch seed + 1 (modulo 2^64:
 * what manual_seed makes of the script's int for every seed ct_example_step_seed accepts). */
char *ct_example_step_json(uint64_t seed);
/* The same with own_generator (ct_example_make_model_on): the same JSON, and threads may run
 * it at once, each on its own generators. */
char *ct_example_step_json_on(uint64_t seed, bool own_generator);
/* The script's --seed text as the generator seed ct_example_step_json takes: any int
 * torch.manual_seed accepts (seed_arg.h) whose successor it accepts too, since the script's
 * make_batch(seed + 1) seeds a generator with it; 2^64 - 1 fails there as in PyTorch
 * ("Overflow when unpacking long"). Returns 0, or -1 with ct_example_seed_parse's errors. */
int ct_example_step_seed(const char *text, uint64_t *seed);
/* The traced step of the seed script (traced_step: the model, the batch, then forward, backward
 * and the optimizer under an op-counting dispatch mode, with those phases) written to a trace
 * file at path (header program `program`, seed `seed`). 0, or -1 with the library's error. */
int ct_example_step_trace(uint64_t seed, const char *path, const char *program);
/* The LoggingTensor log of subclass_step(seed): *names (free() the array; the strings are
 * borrowed) and its length. 0 or -1. */
int ct_example_subclass_log(uint64_t seed, char ***names, size_t *n);

#endif
