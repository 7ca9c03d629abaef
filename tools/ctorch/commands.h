/* The ctorch program's commands; each returns the process exit code. */
#ifndef CT_COMMANDS_H
#define CT_COMMANDS_H

int ct_cmd_keys(int argc, char **argv);
int ct_cmd_dump(int argc, char **argv);
int ct_cmd_ops(int argc, char **argv);
int ct_cmd_trace(int argc, char **argv);
int ct_cmd_step(int argc, char **argv);
int ct_cmd_lab00(int argc, char **argv);

#endif
