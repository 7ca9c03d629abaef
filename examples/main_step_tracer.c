/* A standalone program around the training-step tracer (examples/step_tracer.c):
 *
 *     example_step_tracer [SEED]
 *
 * prints the seed script's JSON result for SEED (default 0): per-phase aten op counts from a
 * dispatch mode, the LoggingTensor run, and the comparisons with a plain eager step. */
#include <stdio.h>

#include "ctorch/ctorch.h"
#include "step_tracer.h"

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    if (argc > 2) {
        fprintf(stderr, "usage: example_step_tracer [SEED]\n");
        return 2;
    }
    uint64_t seed = 0;
    if (argc > 1 && ct_example_step_seed(argv[1], &seed) != 0) {
        fprintf(stderr, "example_step_tracer: SEED: %s\n", ct_error_message());
        return 2;
    }
    char *json = ct_example_step_json(seed);
    if (!json) {
        fprintf(stderr, "example_step_tracer: %s\n", ct_error_message());
        return 1;
    }
    printf("%s\n", json);
    ct_free(json);
    return 0;
}
