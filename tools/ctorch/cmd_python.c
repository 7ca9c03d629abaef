/* ctorch python SCRIPT.py [ARGS]: runs a Python script with ctorch's Python front-end importable as
 * `torch` and as `ctorch` (the package beside this program: ../python relative to its directory).
 * The interpreter is the one the extension module was built for; CTORCH_SHOW_DISPATCH_TRACE works
 * as for any ctorch program. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The directory holding the package `ctorch`: <dir of this program>/../python. */
static int package_dir(char *out, size_t size) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    char joined[PATH_MAX + 16];
    snprintf(joined, sizeof joined, "%s/../python", exe);
    if (!realpath(joined, out)) return -1;
    char init[PATH_MAX + 32];
    snprintf(init, sizeof init, "%s/ctorch/__init__.py", out);
    (void)size;
    return access(init, R_OK) == 0 ? 0 : -1;
}

static int run_python(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION, {0, 0, 0, 0}};
    int c;
    ct_cli_getopt_reset();
    /* "+": options end at SCRIPT; everything after it is the script's own */
    while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
        if (c == 'h') return ct_cli_help(self);
        return ct_cli_option_error(self, c, argv);
    }
    if (optind == argc) return ct_cli_usage_error(self, "which script? (e.g. ctorch python train.py)");
#ifndef CTORCH_PYTHON_EXECUTABLE
    fprintf(stderr, "ctorch python: this ctorch was built without the Python front-end (Python's headers were not "
                    "found; install python3-dev and rebuild)\n");
    return 2;
#else
    char dir[PATH_MAX];
    if (package_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "ctorch python: the Python package was not found beside this program (../python/ctorch)\n");
        return 2;
    }
    const char *old = getenv("PYTHONPATH");
    size_t len = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *path = malloc(len);
    if (!path) return 2;
    snprintf(path, len, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    if (setenv("PYTHONPATH", path, 1) != 0) {
        free(path);
        return 2;
    }
    free(path);
    /* python -s -m ctorch._run SCRIPT ARGS...: -s leaves the user's site-packages out; the
     * package puts itself in front of any installed torch (ctorch._alias) */
    int nscript = argc - optind;
    char **args = calloc((size_t)nscript + 5, sizeof *args);
    if (!args) return 2;
    args[0] = (char *)CTORCH_PYTHON_EXECUTABLE;
    args[1] = (char *)"-s";
    args[2] = (char *)"-m";
    args[3] = (char *)"ctorch._run";
    for (int i = 0; i < nscript; i++) args[4 + i] = argv[optind + i];
    args[4 + nscript] = NULL;
    fflush(stdout);
    execv(CTORCH_PYTHON_EXECUTABLE, args);
    fprintf(stderr, "ctorch python: cannot run %s: %s\n", CTORCH_PYTHON_EXECUTABLE, strerror(errno));
    free(args);
    return 2;
#endif
}

const ct_command ct_cmd_python = {
    "python", "SCRIPT.py [ARGS]",
    "run a PyTorch script on ctorch (its package importable as torch and ctorch)",
    "Runs SCRIPT.py as __main__ with ctorch's Python front-end importable as `torch` and as\n"
    "`ctorch` (an installed PyTorch is not used), passing ARGS to the script as sys.argv[1:].\n"
    "CTORCH_SHOW_DISPATCH_TRACE=1 prints every dispatch decision, as for any ctorch program.\n"
    "Options go before SCRIPT.py; everything after it is the script's.\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_python};
