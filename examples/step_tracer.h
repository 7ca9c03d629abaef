/* The training-step tracer (the seed script in C). */
#ifndef CT_EXAMPLE_STEP_TRACER_H
#define CT_EXAMPLE_STEP_TRACER_H

#include <stddef.h>
#include <stdint.h>

#include "ctorch/nn.h"
#include "ctorch/tensor.h"

/* make_batch(seed): torch.Generator().manual_seed(seed), x = randn(8, 16), y = randint(0, 4, (8,)).
 * New references in *x and *y; 0 or -1. */
int ct_example_make_batch(uint64_t seed, ct_tensor **x, ct_tensor **y);
/* make_model(seed): torch.manual_seed(seed), Sequential(Linear(16, 32), ReLU(), Linear(32, 4)). */
ct_module *ct_example_make_model(uint64_t seed);

/* The seed script's result object for `seed`, as json.dumps(result, indent=2) prints it
 * (ct_free), or NULL with an error. */
char *ct_example_step_json(uint64_t seed);
/* The LoggingTensor log of subclass_step(seed): *names (free() the array; the strings are
 * borrowed) and its length. 0 or -1. */
int ct_example_subclass_log(uint64_t seed, char ***names, size_t *n);

#endif
