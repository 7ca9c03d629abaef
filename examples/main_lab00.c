/* A standalone program around Lab 00 (examples/lab00.c):
 *
 *     example_lab00 [OUT_DIR] [SEED] [REFERENCE_DIR]
 *
 * runs the lab part by part and writes OUT_DIR/REPORT.md and the files it links (default
 * experiments/25-dispatcher-trace, seed 42; SEED is any int torch.manual_seed takes;
 * REFERENCE_DIR holds PyTorch 2.6's recordings of the lab, by default the ones beside the
 * sources). */
#include <stdio.h>

#include "ctorch/init.h"
#include "ctorch/error.h"
#include "lab00.h"
#include "seed_arg.h"

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    if (argc > 4) {
        fprintf(stderr, "usage: example_lab00 [OUT_DIR] [SEED] [REFERENCE_DIR]\n");
        return 2;
    }
    const char *out = argc > 1 ? argv[1] : "experiments/25-dispatcher-trace";
    ct_example_seed seed = {42, false};
    if (argc > 2 && ct_example_seed_parse(argv[2], &seed) != 0) {
        fprintf(stderr, "example_lab00: SEED: %s\n", ct_error_message());
        return 2;
    }
    const char *ref = argc > 3 ? argv[3] : ct_example_lab00_default_reference();
    return ct_example_lab00(out, seed.value, "example_lab00", ref, stderr); /* notes: stderr */
}
