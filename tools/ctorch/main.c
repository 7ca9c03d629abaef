/* The ctorch command-line program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

int ct_cli_parse_seed(const char *cmd, const char *text, unsigned long long *seed) {
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end || errno || v < 0) {
        fprintf(stderr, "ctorch %s: --seed needs a non-negative integer, got '%s'\n", cmd, text);
        return -1;
    }
    *seed = (unsigned long long)v;
    return 0;
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: ctorch COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  keys                 print the dispatch key sets of sample tensors (float32, float16, int64, ...)\n"
            "  dump OP              print an operator's schema, registrations and computed dispatch table\n"
            "                       (like torch._C._dispatch_dump / _dispatch_dump_table), e.g. aten::addmm\n"
            "  ops                  list every operator\n"
            "  trace                run linear(x, W, b) with the full decision trace on\n"
            "  lab00 [--out DIR] [--seed N]\n"
            "                       Lab 00: trace linear(x, W, b); writes trace.log, REPORT.md, manifest.json\n"
            "                       (default DIR experiments/25-dispatcher-trace, seed 42)\n"
            "  step [--seed N] [--json-out FILE]\n"
            "                       the training-step tracer: per-phase op counts, LoggingTensor run, JSON\n"
            "  python SCRIPT.py [ARGS]\n"
            "                       run a PyTorch script on ctorch (its package importable as torch and ctorch)\n"
            "  help                 this text\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "keys") == 0) return ct_cmd_keys(argc - 1, argv + 1);
    if (strcmp(cmd, "dump") == 0) return ct_cmd_dump(argc - 1, argv + 1);
    if (strcmp(cmd, "ops") == 0) return ct_cmd_ops(argc - 1, argv + 1);
    if (strcmp(cmd, "trace") == 0) return ct_cmd_trace(argc - 1, argv + 1);
    if (strcmp(cmd, "step") == 0) return ct_cmd_step(argc - 1, argv + 1);
    if (strcmp(cmd, "lab00") == 0) return ct_cmd_lab00(argc - 1, argv + 1);
    if (strcmp(cmd, "python") == 0) return ct_cmd_python(argc - 1, argv + 1);
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "ctorch: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
