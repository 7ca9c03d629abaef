/* The training-step tracer (the seed script in C). */
#ifndef CT_EXAMPLE_STEP_TRACER_H
#define CT_EXAMPLE_STEP_TRACER_H

#include <stddef.h>
#include <stdint.h>

/* The seed script's result object for `seed`, as json.dumps(result, indent=2) prints it
 * (ct_free), or NULL with an error. */
char *ct_example_step_json(uint64_t seed);
/* The LoggingTensor log of subclass_step(seed): *names (free() the array; the strings are
 * borrowed) and its length. 0 or -1. */
int ct_example_subclass_log(uint64_t seed, char ***names, size_t *n);

#endif
