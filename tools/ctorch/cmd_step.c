/* ctorch step [--seed N] [--json-out FILE] [--own-generator]: the training-step tracer, printing the seed
 * script's JSON. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "ctorch/ctorch.h"
#include "step_tracer.h"
#include "ctorch/json.h"

static int run_step(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION,
                                             {"seed", required_argument, NULL, 's'},
                                             {"json-out", required_argument, NULL, 'j'},
                                             {"trace", required_argument, NULL, 't'},
                                             {"own-generator", no_argument, NULL, 'g'},
                                             {0, 0, 0, 0}};
    uint64_t seed = 0;
    const char *json_out = NULL, *trace = NULL;
    const char *seed_text = "0"; /* as given, for the trace file's header */
    bool own_generator = false;
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 's':
            if (ct_example_step_seed(optarg, &seed) != 0)
                return ct_cli_seed_error(self);
            seed_text = optarg;
            break;
        case 't': trace = optarg; break;
        case 'j': json_out = optarg; break;
        case 'g': own_generator = true; break;
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    if (trace) {
        /* the --seed text whole: Python's int() takes any number of leading zeros */
#define STEP_PROGRAM "ctorch step --seed %s --trace (traced_step)"
        int n = snprintf(NULL, 0, STEP_PROGRAM, seed_text);
        char *program = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (!program) {
            fprintf(stderr, "ctorch step: out of memory\n");
            return 1;
        }
        snprintf(program, (size_t)n + 1, STEP_PROGRAM, seed_text);
        int rc = ct_example_step_trace(seed, trace, program);
        free(program);
        if (rc != 0) {
            fprintf(stderr, "ctorch step: %s\n", ct_error_message());
            return ct_error_code() == CT_ERR_IO ? 2 : 1;
        }
    }
    char *json = ct_example_step_json_on(seed, own_generator);
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

const ct_command ct_cmd_step = {
    "step", "[--seed N] [--json-out FILE] [--trace FILE] [--own-generator]",
    "the training-step tracer: per-phase op counts, LoggingTensor run, JSON",
    "The training-step tracer: one SGD step of a 2-layer MLP with cross-entropy, run plainly,\n"
    "under an op-counting dispatch mode and on LoggingTensor wrappers; prints the seed script's\n"
    "JSON (per-phase aten op counts, the LoggingTensor log's size, the runs' comparisons).\n"
    "\noptions:\n"
    "  --seed N             the script's --seed (default 0): the model is made after\n"
    "                       torch.manual_seed(N), the batch from a generator seeded with N + 1.\n"
    "                       Any int from -9223372036854775808 to 18446744073709551614, a negative\n"
    "                       one meaning 2^64 + N, as in PyTorch\n"
    "  --json-out FILE      also write the JSON to FILE (replaced atomically)\n"
    "  --trace FILE         also run the traced step once more with a trace file open, written\n"
    "                       to FILE (docs/trace-format.md); its hops at the Python key are what\n"
    "                       the op counter saw, to compare with PyTorch's recording\n"
    "                       (tests/golden/torch-2.6/seed_step_trace_seed0.jsonl) by ctorch diff\n"
    "  --own-generator      draw the model from a generator of its own seeded with N instead of\n"
    "                       reseeding the process-wide default one (the same JSON)\n"
    "  -h, --help           show this help and exit\n",
    run_step};
