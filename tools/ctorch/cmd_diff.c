/* ctorch diff A B: an aligned diff of two trace files (docs/trace-format.md); the work is in
 * tools/tracediff/trace_diff.c. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "trace_diff.h"
#include "trace_read.h"

/* ---- the command ------------------------------------------------------------------------------ */

static int run_diff(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION,
                                             {"json", no_argument, NULL, 'j'},
                                             {"view", required_argument, NULL, 'v'},
                                             {"color", required_argument, NULL, 'c'},
                                             {"context", required_argument, NULL, 'C'},
                                             {"all", no_argument, NULL, 'a'},
                                             {"ids", no_argument, NULL, 'i'},
                                             {0, 0, 0, 0}};
    bool json = false, all = false, ids = false;
    int view = -1, color = -1, context = 3;
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'j': json = true; break;
        case 'a': all = true; break;
        case 'i': ids = true; break;
        case 'v':
            if (strcmp(optarg, "hops") == 0) view = CT_TR_VIEW_HOPS;
            else if (strcmp(optarg, "calls") == 0) view = CT_TR_VIEW_CALLS;
            else if (strcmp(optarg, "mode") == 0) view = CT_TR_VIEW_MODE;
            else return ct_cli_usage_error(self, "argument --view: invalid choice: '%s' (choose from 'hops', 'calls', 'mode')", optarg);
            break;
        case 'c':
            if (strcmp(optarg, "auto") == 0) color = -1;
            else if (strcmp(optarg, "always") == 0) color = 1;
            else if (strcmp(optarg, "never") == 0) color = 0;
            else return ct_cli_usage_error(self, "argument --color: invalid choice: '%s' (choose from 'auto', 'always', 'never')", optarg);
            break;
        case 'C': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 0 || v > 1000000)
                return ct_cli_usage_error(self, "argument --context: invalid value: '%s' (a number of records, 0 or more)", optarg);
            context = (int)v;
            break;
        }
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (argc - optind < 2) return ct_cli_usage_error(self, "two trace files are needed (ctorch diff A B)");
    if (ct_cli_no_more_args(self, argc, argv, optind, 2)) return 2;

    ct_diff_options o = {view, ids, json, all, false, context, NULL, NULL};
    o.color = color == 1 || (color < 0 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    char err[1024];
    int rc = ct_trace_diff(argv[optind], argv[optind + 1], &o, stdout, NULL, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ctorch diff: %s\n", err);
    return rc;
}

const ct_command ct_cmd_diff = {
    "diff", "[OPTIONS] A B",
    "compare two trace files op by op and decision by decision (exit 0 same, 1 different)",
    "Aligns two trace files (CTORCH_TRACE_FILE=path, ct_trace_file_open, or PyTorch recorded by\n"
    "tools/trace_torch.py; docs/trace-format.md) and shows where they differ: records only in A (-),\n"
    "only in B (+), and aligned records whose decision or arguments differ (~, with each field).\n"
    "Records are aligned by call/redispatch, op, overload and key (Myers' algorithm); aligned ones\n"
    "are compared on every field both files have: kernel and where it was registered, merged and\n"
    "dispatch key sets, TLS sets, each argument's key set, dtype, shape, stride and value, grad\n"
    "mode, phase and the autograd links. Threads, times and tensor ids are not compared.\n"
    "Exit status: 0 same, 1 different, 2 a usage error or a file that cannot be read.\n"
    "\noptions:\n"
    "  --view VIEW          hops (every hop; the default for two ctorch traces), calls (call hops\n"
    "                       only), or mode (what a dispatch mode sees: hops at the Python key;\n"
    "                       the default when either file is a dispatch-mode recording)\n"
    "  --json               print the comparison as JSON instead\n"
    "  --color WHEN         auto (the default: when stdout is a terminal and NO_COLOR is unset),\n"
    "                       always or never\n"
    "  --context N          equal records shown around each difference (default 3)\n"
    "  --all                show every record, not only the differences\n"
    "  --ids                also compare tensor ids (numbered in order of first sight)\n"
    "  -h, --help           show this help and exit\n",
    run_diff};
