/* The ctorch program's commands; each returns the process exit code. */
#ifndef CT_COMMANDS_H
#define CT_COMMANDS_H

int ct_cmd_keys(int argc, char **argv);
int ct_cmd_dump(int argc, char **argv);
int ct_cmd_ops(int argc, char **argv);
int ct_cmd_trace(int argc, char **argv);
int ct_cmd_step(int argc, char **argv);
int ct_cmd_lab00(int argc, char **argv);
int ct_cmd_python(int argc, char **argv);

/* Reads the value of `--seed` (a non-negative integer) for command `cmd`; on bad text prints
 * the command's error and returns -1. */
int ct_cli_parse_seed(const char *cmd, const char *text, unsigned long long *seed);

#endif
