/* A standalone program around MiniGPT (examples/minigpt.c):
 *
 *     example_minigpt [SEED]
 *
 * runs minigpt.py's program with its default options and SEED (default 0): one traced training
 * step, more steps, sampling; prints what minigpt.py prints (per-phase op counts, the number of
 * parameters, the losses and the sampled tokens). */
#include <stdio.h>

#include "ctorch/ctorch.h"
#include "minigpt.h"
#include "seed_arg.h"

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    if (argc > 2) {
        fprintf(stderr, "usage: example_minigpt [SEED]\n");
        return 2;
    }
    /* minigpt.py's --seed: manual_seed(SEED), the batches from SEED + 1 ... SEED + steps */
    ct_example_seed seed = {0, false}, last;
    if (argc > 1 && (ct_example_seed_parse(argv[1], &seed) != 0 || ct_example_seed_add(seed, (uint64_t)a.steps, &last) != 0)) {
        fprintf(stderr, "example_minigpt: SEED: %s\n", ct_error_message());
        return 2;
    }
    a.seed = seed.value;
    a.seed_negative = seed.negative;
    char *json = NULL, *summary = NULL;
    if (ct_example_minigpt(&a, &json, &summary, NULL) != 0) {
        fprintf(stderr, "example_minigpt: %s\n", ct_error_message());
        return 1;
    }
    printf("%s\n", summary);
    ct_free(json);
    ct_free(summary);
    return 0;
}
