/* ctorch lab00 [--out DIR] [--seed N] [--own-generator]: Lab 00, tracing the dispatcher over linear(x, W, b);
 * writes DIR/trace.log, DIR/REPORT.md and DIR/manifest.json (examples/lab00.c). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "ctorch/error.h"
#include "lab00.h"
#include "seed_arg.h"

static int run_lab00(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {
        CT_CLI_HELP_OPTION, {"out", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
        {"own-generator", no_argument, NULL, 'g'}, {0, 0, 0, 0}};
    const char *out = "experiments/25-dispatcher-trace";
    ct_example_seed seed = {42, false};
    bool own_generator = false;
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'o': out = optarg; break;
        case 's':
            if (ct_example_seed_parse(optarg, &seed) != 0)
                return ct_cli_seed_error(self);
            break;
        case 'g': own_generator = true; break;
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    char command[1024], text[CT_EXAMPLE_SEED_TEXT_MAX];
    snprintf(command, sizeof command, "ctorch lab00 --out %s --seed %s%s", out, ct_example_seed_format(seed, text),
             own_generator ? " --own-generator" : "");
    return ct_example_lab00_on(out, seed.value, own_generator, command, stdout);
}

const ct_command ct_cmd_lab00 = {
    "lab00", "[--out DIR] [--seed N] [--own-generator]",
    "Lab 00: trace linear(x, W, b); writes trace.log, REPORT.md, manifest.json\n"
    "                       (default DIR experiments/25-dispatcher-trace, seed 42)",
    "Lab 00, tracing the dispatcher over linear(x, W, b): runs the lab's parts A-F and the\n"
    "stretch parts and writes DIR/trace.log (every dispatch-mode log and the full decision\n"
    "trace), DIR/REPORT.md and DIR/manifest.json, each replaced atomically.\n"
    "\noptions:\n"
    "  --out DIR            the folder to write (created if missing;\n"
    "                       default experiments/25-dispatcher-trace)\n"
    "  --seed N             torch.manual_seed(N) before x, W and b are drawn (default 42): any\n"
    "                       int from -9223372036854775808 to 18446744073709551615, a negative\n"
    "                       one meaning 2^64 + N, as in PyTorch\n"
    "  --own-generator      draw x, W and b from a generator of its own seeded with N instead of\n"
    "                       reseeding the process-wide default one (the same numbers)\n"
    "  -h, --help           show this help and exit\n",
    run_lab00};
