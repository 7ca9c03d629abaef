/* placeholder until the lab command lands */
#include <stdio.h>

#include "commands.h"

int ct_cmd_lab00(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "ctorch lab00: not implemented yet\n");
    return 1;
}
