/* ctorch python SCRIPT.py [ARGS]: runs a Python script with ctorch's Python front-end importable as
 * `torch` and as `ctorch` (the package beside this program: ../python relative to its directory).
 * The interpreter is the one the extension module was built for; CTORCH_SHOW_DISPATCH_TRACE works
 * as for any ctorch program. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
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

int ct_cmd_python(int argc, char **argv) {
#ifndef CTORCH_PYTHON_EXECUTABLE
    (void)argc;
    (void)argv;
    fprintf(stderr, "ctorch python: this ctorch was built without the Python front-end (Python's headers were not "
                    "found; install python3-dev and rebuild)\n");
    return 2;
#else
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fprintf(argc < 2 ? stderr : stdout, "usage: ctorch python SCRIPT.py [ARGS]\n"
                                            "  runs SCRIPT.py with ctorch importable as `torch` and `ctorch`\n");
        return argc < 2 ? 2 : 0;
    }
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
    /* python -m ctorch._run SCRIPT ARGS... */
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return 2;
    args[0] = (char *)CTORCH_PYTHON_EXECUTABLE;
    args[1] = (char *)"-m";
    args[2] = (char *)"ctorch._run";
    for (int i = 1; i < argc; i++) args[2 + i] = argv[i];
    args[argc + 2] = NULL;
    fflush(stdout);
    execv(CTORCH_PYTHON_EXECUTABLE, args);
    fprintf(stderr, "ctorch python: cannot run %s: %s\n", CTORCH_PYTHON_EXECUTABLE, strerror(errno));
    free(args);
    return 2;
#endif
}
