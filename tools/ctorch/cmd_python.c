/* ctorch python [-i] [-c CODE | -m MODULE | - | SCRIPT.py] [ARGS]: runs Python code as python3 does,
 * with ctorch's Python front-end importable as `torch` and as `ctorch`. The package is looked
 * for beside this program, installed (../lib/python3/dist-packages) or in its build tree
 * (../python), then in the build tree it was built in. The interpreter is the one the
 * extension module was built for; python/ctorch/_run.py sets sys.argv and sys.path as python3
 * would. CTORCH_SHOW_DISPATCH_TRACE works as for any ctorch program. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Whether dir holds the package: dir/ctorch/__init__.py. dir is made absolute in out. */
static bool package_in(const char *dir, char *out) {
    char init[PATH_MAX + 32];
    if (!realpath(dir, out)) return false;
    if ((size_t)snprintf(init, sizeof init, "%s/ctorch/__init__.py", out) >= sizeof init) return false;
    return access(init, R_OK) == 0;
}

/* The folder holding the package `ctorch`, in out (PATH_MAX bytes): beside this program as
 * installed (<bin>/../lib/python3/dist-packages) or as built (<bin>/../python), else where it
 * was built. -1 if none holds it; tried[] says where it looked. */
static int package_dir(char *out, char tried[3][PATH_MAX + 64]) {
#ifndef CTORCH_INSTALLED_PYTHON_DIR
#define CTORCH_INSTALLED_PYTHON_DIR "../lib/python3/dist-packages"
#endif
    static const char *const beside[2] = {"/" CTORCH_INSTALLED_PYTHON_DIR, "/../python"};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    for (int i = 0; i < 3; i++) tried[i][0] = '\0';
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        for (int i = 0; i < 2 && slash; i++) {
            if ((size_t)snprintf(tried[i], sizeof tried[i], "%s%s", exe, beside[i]) >= sizeof tried[i]) continue;
            if (package_in(tried[i], out)) return 0;
        }
    }
#ifdef CTORCH_BUILD_PYTHON_DIR
    snprintf(tried[2], sizeof tried[2], "%s", CTORCH_BUILD_PYTHON_DIR);
    if (package_in(tried[2], out)) return 0;
#endif
    return -1;
}

/* PYTHONPATH=dir[:old] */
static int prepend_pythonpath(const char *dir) {
    const char *old = getenv("PYTHONPATH");
    size_t len = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *path = malloc(len);
    if (!path) return -1;
    snprintf(path, len, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    int rc = setenv("PYTHONPATH", path, 1);
    free(path);
    return rc;
}

static int run_python(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION, {0, 0, 0, 0}};
    const char *mode = NULL, *target = NULL;
    bool interactive = false;
    int c;
    ct_cli_getopt_reset();
    /* "+": the options end at SCRIPT (or -c CODE, -m MODULE, -); what follows is the code's own,
     * as python3 reads its command line */
    while (!mode && (c = getopt_long(argc, argv, "+:hic:m:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'i': interactive = true; break;
        case 'c': mode = "-c", target = optarg; break;
        case 'm': mode = "-m", target = optarg; break;
        default:
            if (c == ':' && (optopt == 'c' || optopt == 'm'))
                return ct_cli_usage_error(self, "argument expected for the -%c option", optopt);
            return ct_cli_option_error(self, c, argv);
        }
    }
    if (!mode && optind < argc) {
        if (strcmp(argv[optind], "-") == 0) mode = "-";
        else mode = "script", target = argv[optind];
        optind++;
    }
    if (!mode) {
        /* no code: the interactive session on a terminal, else the script stdin holds */
        mode = "none";
        if (isatty(STDIN_FILENO)) interactive = true;
    }
#ifndef CTORCH_PYTHON_EXECUTABLE
    (void)target;
    fprintf(stderr, "ctorch python: this ctorch was built without the Python front-end (Python's headers were not "
                    "found; install python3-dev and rebuild)\n");
    return 2;
#else
    char dir[PATH_MAX], tried[3][PATH_MAX + 64];
    if (package_dir(dir, tried) != 0) {
        fprintf(stderr, "ctorch python: ctorch's Python package was not found (looked for ctorch/__init__.py in %s%s%s%s%s)\n",
                tried[0][0] ? tried[0] : "", tried[1][0] ? ", " : "", tried[1], tried[2][0] ? ", " : "", tried[2]);
        return 2;
    }
    if (prepend_pythonpath(dir) != 0) {
        fprintf(stderr, "ctorch python: cannot set PYTHONPATH: %s\n", strerror(errno));
        return 2;
    }
    /* python3 -s [-i] -c "import ctorch._run; ctorch._run.main()" MODE [TARGET] ARGS...
     * (python/ctorch/_run.py): -s leaves the user's site-packages out; the package puts itself
     * in front of any installed torch (ctorch._alias) */
    int nrest = argc - optind;
    char **args = calloc((size_t)nrest + 8, sizeof *args);
    if (!args) return 2;
    int k = 0;
    args[k++] = (char *)CTORCH_PYTHON_EXECUTABLE;
    args[k++] = (char *)"-s";
    if (interactive) args[k++] = (char *)"-i";
    args[k++] = (char *)"-c";
    args[k++] = (char *)"import ctorch._run; ctorch._run.main()"; /* the code runs in this line's __main__ */
    args[k++] = (char *)mode;
    if (target) args[k++] = (char *)target;
    for (int i = 0; i < nrest; i++) args[k++] = argv[optind + i];
    args[k] = NULL;
    fflush(stdout);
    execv(CTORCH_PYTHON_EXECUTABLE, args);
    fprintf(stderr, "ctorch python: cannot run %s: %s\n", CTORCH_PYTHON_EXECUTABLE, strerror(errno));
    free(args);
    return 2;
#endif
}

const ct_command ct_cmd_python = {
    "python", "[-i] [-c CODE | -m MODULE | - | SCRIPT.py] [ARGS]",
    "run Python code as python3 does, with ctorch's package as torch (and ctorch)",
    "Runs Python code as python3 does, with ctorch's Python front-end importable as `torch` and\n"
    "as `ctorch` (an installed PyTorch is not used): SCRIPT.py, the code CODE, the module MODULE\n"
    "(as python3 -m), the script read from stdin (-), or with none of them an interactive\n"
    "session (on a terminal; otherwise stdin is read as the script). ARGS reach the code in\n"
    "sys.argv[1:], and sys.argv[0] and sys.path[0] are what python3 makes them. Options go\n"
    "before the code; everything after it is the code's own.\n"
    "CTORCH_SHOW_DISPATCH_TRACE=1 prints every dispatch decision, as for any ctorch program.\n"
    "The package is found beside this program (../lib/python3/dist-packages when installed,\n"
    "../python in the build tree), or else in the build tree it was built in.\n"
    "\noptions:\n"
    "  -c CODE              run CODE (sys.argv[0] is '-c')\n"
    "  -m MODULE            run the module MODULE as __main__ (sys.argv[0] is its file)\n"
    "  -i                   then an interactive session, even when stdin is not a terminal\n"
    "  -h, --help           show this help and exit\n",
    run_python};
