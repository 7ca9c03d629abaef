/* The ctorch program's commands. Each one parses its own options with getopt_long (every
 * command has -h/--help), rejects anything else with a message on stderr and exit status 2,
 * and returns the process exit code. */
#ifndef CT_COMMANDS_H
#define CT_COMMANDS_H

#include <stdio.h>

typedef struct ct_command ct_command;
struct ct_command {
    const char *name;
    const char *synopsis;    /* what follows "ctorch NAME" in the usage line */
    const char *summary;     /* the lines under the command in `ctorch --help` */
    const char *description; /* `ctorch NAME --help` after the usage line: what it does, options */
    /* argv[0] is the command's name, argv[1..argc) its arguments. */
    int (*run)(const ct_command *self, int argc, char **argv);
};

extern const ct_command ct_cmd_keys, ct_cmd_dump, ct_cmd_ops, ct_cmd_trace, ct_cmd_diff, ct_cmd_lab00, ct_cmd_step,
    ct_cmd_gpt, ct_cmd_help;

/* Every command, in the order `ctorch --help` lists them; NULL-terminated. */
extern const ct_command *const ct_commands[];
/* The command called name, or NULL. */
const ct_command *ct_command_find(const char *name);

/* `ctorch --help` (to f). */
void ct_cli_usage(FILE *f);
/* `ctorch NAME --help` to stdout; returns 0. */
int ct_cli_help(const ct_command *cmd);

/* The options every command shares, for its getopt_long table. */
#define CT_CLI_HELP_OPTION {"help", no_argument, NULL, 'h'}

/* Starts getopt_long over a command's argv (resets its state). */
void ct_cli_getopt_reset(void);
/* After getopt_long returned '?' or ':' (the option string starts with ':' and opterr is 0):
 * prints which option was wrong and returns 2. */
int ct_cli_option_error(const ct_command *cmd, int c, char **argv);
/* Prints "ctorch NAME: <message>" and the hint to run --help; returns 2. */
int ct_cli_usage_error(const ct_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The whole parse for a command whose only option is --help: returns CT_CLI_GO_ON with its
 * arguments in argv[optind..argc) (at most `allowed` of them), or the exit code (0 after the
 * help, 2 after an error). */
#define CT_CLI_GO_ON (-1)
int ct_cli_parse_plain(const ct_command *cmd, int argc, char **argv, int allowed);
/* After a --seed value was refused (the thread's error says why): prints the error, with the
 * range manual_seed accepts for an overflow, and returns 2. */
int ct_cli_seed_error(const ct_command *cmd);
/* Rejects arguments left after the options (argv[first..argc)) beyond `allowed`; returns 0, or
 * 2 after printing the first one that is too many. */
int ct_cli_no_more_args(const ct_command *cmd, int argc, char **argv, int first, int allowed);

#endif
