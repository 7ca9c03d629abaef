/* ctorch lab00 [--out DIR] [--seed N]: Lab 00, tracing the dispatcher over linear(x, W, b);
 * writes DIR/trace.log, DIR/REPORT.md and DIR/manifest.json (examples/lab00.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lab00.h"

int ct_cmd_lab00(int argc, char **argv) {
    const char *out = "experiments/25-dispatcher-trace";
    unsigned long long seed = 42;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (ct_cli_parse_seed("lab00", argv[++i], &seed) != 0) return 2;
        } else {
            fprintf(stderr, "usage: ctorch lab00 [--out DIR] [--seed N]\n");
            return 2;
        }
    }
    char command[1024];
    snprintf(command, sizeof command, "ctorch lab00 --out %s --seed %llu", out, seed);
    return ct_example_lab00(out, (uint64_t)seed, command, stdout);
}
