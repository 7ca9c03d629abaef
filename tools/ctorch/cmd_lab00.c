/* ctorch lab00 [--out DIR] [--seed N] [--own-generator]: Lab 00, tracing the dispatcher over linear(x, W, b);
 * writes DIR/trace.log, DIR/REPORT.md and DIR/manifest.json (examples/lab00.c). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "ctorch/error.h"
#include "lab00.h"
#include "seed_arg.h"

static int run_lab00(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {
        CT_CLI_HELP_OPTION, {"out", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
        {"reference", required_argument, NULL, 'r'}, {"own-generator", no_argument, NULL, 'g'}, {0, 0, 0, 0}};
    const char *out = "experiments/25-dispatcher-trace";
    const char *reference = ct_example_lab00_default_reference();
    ct_example_seed seed = {42, false};
    bool own_generator = false;
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'o': out = optarg; break;
        case 'r': reference = optarg; break;
        case 's':
            if (ct_example_seed_parse(optarg, &seed) != 0)
                return ct_cli_seed_error(self);
            break;
        case 'g': own_generator = true; break;
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    /* the command as the manifest records it, --out whole however long it is */
    char text[CT_EXAMPLE_SEED_TEXT_MAX];
#define LAB00_COMMAND "ctorch lab00 --out %s --seed %s%s"
    ct_example_seed_format(seed, text);
    int n = snprintf(NULL, 0, LAB00_COMMAND, out, text, own_generator ? " --own-generator" : "");
    char *command = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!command) {
        fprintf(stderr, "ctorch lab00: out of memory\n");
        return 1;
    }
    snprintf(command, (size_t)n + 1, LAB00_COMMAND, out, text, own_generator ? " --own-generator" : "");
    /* the lab's files are its result; the parts it is at are notes, on stderr */
    int rc = ct_example_lab00_on(out, seed.value, own_generator, command, reference, stderr);
    free(command);
    return rc;
}

const ct_command ct_cmd_lab00 = {
    "lab00", "[--out DIR] [--seed N] [--reference DIR] [--own-generator]",
    "Lab 00: trace linear(x, W, b); writes REPORT.md and the files it links\n"
    "                       (default DIR experiments/25-dispatcher-trace, seed 42)",
    "Lab 00, tracing the dispatcher over linear(x, W, b): runs the lab's parts A-F and the\n"
    "stretch parts and writes into DIR: REPORT.md (built from this run and compared with\n"
    "PyTorch 2.6's recording of the lab), trace.log (every dispatch-mode log and the full\n"
    "decision trace), linear.jsonl and addmm.jsonl (trace files, diffed in the report),\n"
    "trace.json (the profiled run as a Chrome trace, for Perfetto), stacks.txt (its\n"
    "collapsed stacks, for a flame graph), linear_graph.dot and\n"
    "linear_graph.svg (the backward graph; the SVG needs Graphviz) and manifest.json (versions,\n"
    "seed, source hash, build, every file written). The parts it is at go to stderr.\n"
    "\noptions:\n"
    "  --out DIR            the folder to write (created if missing;\n"
    "                       default experiments/25-dispatcher-trace)\n"
    "  --seed N             torch.manual_seed(N) before x, W and b are drawn (default 42): any\n"
    "                       int from -9223372036854775808 to 18446744073709551615, a negative\n"
    "                       one meaning 2^64 + N, as in PyTorch\n"
    "  --own-generator      draw x, W and b from a generator of its own seeded with N instead of\n"
    "                       reseeding the process-wide default one (the same numbers)\n"
    "  --reference DIR      the folder of PyTorch 2.6's recordings of the lab (lab00.out,\n"
    "                       key_sets_and_modes.out; default: the one found at build time)\n"
    "  -h, --help           show this help and exit\n",
    run_lab00};
