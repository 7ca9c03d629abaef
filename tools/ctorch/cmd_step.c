/* ctorch step [--seed N] [--json-out FILE]: the training-step tracer, printing the seed
 * script's JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "ctorch/ctorch.h"
#include "step_tracer.h"
#include "util/json.h"

int ct_cmd_step(int argc, char **argv) {
    unsigned long long seed = 0;
    const char *json_out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (ct_cli_parse_seed("step", argv[++i], &seed) != 0) return 2;
        } else if (strcmp(argv[i], "--json-out") == 0 && i + 1 < argc) {
            json_out = argv[++i];
        } else {
            fprintf(stderr, "usage: ctorch step [--seed N] [--json-out FILE]\n");
            return 2;
        }
    }
    char *json = ct_example_step_json((uint64_t)seed);
    if (!json) {
        fprintf(stderr, "ctorch step: %s\n", ct_error_message());
        return 1;
    }
    if (json_out && ct_json_write_file_atomic(json_out, json) != 0) {
        fprintf(stderr, "ctorch step: %s\n", ct_error_message());
        ct_free(json);
        return 2;
    }
    printf("%s\n", json);
    ct_free(json);
    return 0;
}
