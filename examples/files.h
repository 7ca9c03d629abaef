/* Writing an experiment's output folder (shared by the examples that write reports). */
#ifndef CT_EXAMPLE_FILES_H
#define CT_EXAMPLE_FILES_H

#include <stddef.h>
#include <stdio.h>

/* The longest path, its NUL included, that the examples build in a fixed buffer and that
 * Linux's system calls take (PATH_MAX). */
#define CT_EXAMPLE_PATH_MAX 4096

/* Whether a file name of up to `extra` more bytes can be put after path (a folder, or a file
 * name's stem) without passing CT_EXAMPLE_PATH_MAX: 0; or -1 after printing to err (may be NULL), in one
 * line, "<who>: <what> is too long: ..." (how long it is and how long it may be). A path is
 * refused before anything is written, never cut short in a buffer. */
int ct_example_check_path(FILE *err, const char *who, const char *what, const char *path, size_t extra);

/* mkdir -p path. 0, or -1 with errno set. */
int ct_example_mkdir_p(const char *path);
/* Replaces dir/name with content atomically; on failure (dir/name too long among them) prints
 * "<who>: cannot write ..." on stderr and returns -1. */
int ct_example_write_file(const char *who, const char *dir, const char *name, const char *content);

#endif
