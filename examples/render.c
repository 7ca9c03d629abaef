/* Rendering DOT with Graphviz's dot program (render.h). */
#include "render.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

int ct_example_render_dot(const char *dot_path, const char *out_path, const char *format, char *why, size_t why_size) {
    char fmt[32];
    snprintf(fmt, sizeof fmt, "-T%s", format);
    char *argv[] = {"dot", fmt, (char *)dot_path, "-o", (char *)out_path, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "dot", NULL, NULL, argv, environ);
    if (e != 0) {
        snprintf(why, why_size, "Graphviz's dot program was not found (%s); install Graphviz (Debian: graphviz)",
                 strerror(e));
        return 1;
    }
    int st;
    if (waitpid(pid, &st, 0) != pid) {
        snprintf(why, why_size, "waiting for dot failed: %s", strerror(errno));
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        snprintf(why, why_size, "Graphviz's dot program was not found; install Graphviz (Debian: graphviz)");
        return 1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(why, why_size, "dot %s %s -o %s failed (status %d)", fmt, dot_path, out_path,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return -1;
    }
    return 0;
}
