/* Rendering a Graphviz DOT file with Graphviz's `dot` program (Debian's graphviz package,
 * installed by scripts/deps.sh when it can be). */
#ifndef CT_EXAMPLE_RENDER_H
#define CT_EXAMPLE_RENDER_H

#include <stddef.h>

/* Runs `dot -T<format> dot_path -o out_path` (format "svg" or "png"). Returns 0 when the
 * picture was written; 1 when no `dot` program is on PATH (why says so); -1 when dot failed
 * (why holds its exit status). */
int ct_example_render_dot(const char *dot_path, const char *out_path, const char *format, char *why, size_t why_size);

#endif
