/* A standalone program around Lab 00 (examples/lab00.c):
 *
 *     example_lab00 [OUT_DIR] [SEED]
 *
 * runs the lab part by part and writes OUT_DIR/trace.log, REPORT.md and manifest.json
 * (default experiments/25-dispatcher-trace, seed 42). */
#include <stdlib.h>

#include "lab00.h"

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "experiments/25-dispatcher-trace";
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 42;
    return ct_example_lab00(out, (uint64_t)seed, "example_lab00", stdout);
}
