/* The ctorch command-line program: `ctorch [--help | --version] COMMAND [ARGS]`. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ctorch/init.h"
#include "ctorch/backends.h"
#include "ctorch/error.h"
#include "ctorch/version.h"

const ct_command *const ct_commands[] = {&ct_cmd_keys,  &ct_cmd_dump, &ct_cmd_ops, &ct_cmd_trace, &ct_cmd_diff, &ct_cmd_lab00,
                                         &ct_cmd_step, &ct_cmd_gpt, &ct_cmd_python, &ct_cmd_help, NULL};

const ct_command *ct_command_find(const char *name) {
    for (int i = 0; ct_commands[i]; i++)
        if (strcmp(ct_commands[i]->name, name) == 0) return ct_commands[i];
    return NULL;
}

void ct_cli_usage(FILE *f) {
    fprintf(f, "usage: ctorch [-h | --help] [-V | --version] COMMAND [ARGS]\n\ncommands:\n");
    for (int i = 0; ct_commands[i]; i++) {
        const ct_command *c = ct_commands[i];
        char head[96];
        snprintf(head, sizeof head, "%s%s%s", c->name, *c->synopsis ? " " : "", c->synopsis);
        if (strlen(head) <= 20) fprintf(f, "  %-20s %s\n", head, c->summary);
        else fprintf(f, "  %s\n  %-20s %s\n", head, "", c->summary);
    }
    fprintf(f, "\n'ctorch COMMAND --help' describes a command and its options.\n"
               "\noptions:\n"
               "  -h, --help           show this help and exit\n"
               "  -V, --version        show ctorch's version and the PyTorch version it follows\n");
}

int ct_cli_help(const ct_command *cmd) {
    printf("usage: ctorch %s%s%s\n\n%s", cmd->name, *cmd->synopsis ? " " : "", cmd->synopsis, cmd->description);
    return 0;
}

void ct_cli_getopt_reset(void) {
    /* 0, not 1: GNU getopt then forgets everything about the previous argv (its position inside
     * a group of short options and where it moved non-options), and starts again at argv[1]. */
    optind = 0;
    opterr = 0;
}

int ct_cli_usage_error(const ct_command *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "ctorch%s%s: ", cmd ? " " : "", cmd ? cmd->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'ctorch%s%s --help' for more information.\n", cmd ? " " : "", cmd ? cmd->name : "");
    return 2;
}

int ct_cli_option_error(const ct_command *cmd, int c, char **argv) {
    /* getopt_long leaves optind just past the element it could not use; optopt is the short
     * option's character (0 for a long option that is unknown or ambiguous). */
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (c == ':') return ct_cli_usage_error(cmd, "option '%s' needs a value", arg);
    if (strncmp(arg, "--", 2) == 0) {
        const char *eq = strchr(arg, '=');
        if (eq && optopt != 0) return ct_cli_usage_error(cmd, "option '%.*s' takes no value", (int)(eq - arg), arg);
        return ct_cli_usage_error(cmd, "unrecognized option '%s'", arg);
    }
    return ct_cli_usage_error(cmd, "unrecognized option '-%c'", optopt);
}

int ct_cli_seed_error(const ct_command *cmd) {
    if (ct_error_code() == CT_ERR_RUNTIME)
        return ct_cli_usage_error(cmd, "argument --seed: %s; torch.manual_seed takes an int from %s to %s",
                                  ct_error_message(), "-9223372036854775808", "18446744073709551615");
    return ct_cli_usage_error(cmd, "argument --seed: %s", ct_error_message());
}

int ct_cli_no_more_args(const ct_command *cmd, int argc, char **argv, int first, int allowed) {
    if (argc - first <= allowed) return 0;
    return ct_cli_usage_error(cmd, "unexpected argument '%s'", argv[first + allowed]);
}

int ct_cli_parse_plain(const ct_command *cmd, int argc, char **argv, int allowed) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION, {0, 0, 0, 0}};
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') return ct_cli_help(cmd);
        return ct_cli_option_error(cmd, c, argv);
    }
    return ct_cli_no_more_args(cmd, argc, argv, optind, allowed) ? 2 : CT_CLI_GO_ON;
}

/* ---- ctorch help [COMMAND] ------------------------------------------------------------------ */

static int run_help(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 1);
    if (rc != CT_CLI_GO_ON) return rc;
    if (optind == argc) {
        ct_cli_usage(stdout);
        return 0;
    }
    const ct_command *cmd = ct_command_find(argv[optind]);
    if (!cmd) return ct_cli_usage_error(self, "unknown command '%s'", argv[optind]);
    return ct_cli_help(cmd);
}

const ct_command ct_cmd_help = {
    "help", "[COMMAND]", "this text, or what COMMAND does and its options",
    "Without COMMAND, lists the commands (as 'ctorch --help'); with one, describes it\n"
    "(as 'ctorch COMMAND --help').\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_help};

/* ---- the program ---------------------------------------------------------------------------- */

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    static const struct option longopts[] = {CT_CLI_HELP_OPTION, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0}};
    int c;
    ct_cli_getopt_reset();
    /* "+": stop at the command, whose own options follow it */
    while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': ct_cli_usage(stdout); return 0;
        case 'V':
            printf("ctorch %s\nfollows PyTorch %s\n", ct_version(), ct_build_config()->pytorch_version);
            /* the run's facts that fix float32 bits (include/ctorch/backends.h) */
            printf("CPU capability: %s\nBLAS: %s%s%s%s\n", ct_backends_cpu_capability(), ct_build_config()->blas,
                   ct_backends_blas_core() ? " (core " : "", ct_backends_blas_core() ? ct_backends_blas_core() : "",
                   ct_backends_blas_core() ? ")" : "");
            return 0;
        default: return ct_cli_option_error(NULL, c, argv);
        }
    }
    if (optind == argc) {
        ct_cli_usage(stderr);
        return 2;
    }
    const ct_command *cmd = ct_command_find(argv[optind]);
    if (!cmd) return ct_cli_usage_error(NULL, "unknown command '%s'", argv[optind]);
    return cmd->run(cmd, argc - optind, argv + optind);
}
