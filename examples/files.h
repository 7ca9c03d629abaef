/* Writing an experiment's output folder (shared by the examples that write reports). */
#ifndef CT_EXAMPLE_FILES_H
#define CT_EXAMPLE_FILES_H

/* mkdir -p path. 0, or -1 with errno set. */
int ct_example_mkdir_p(const char *path);
/* Replaces dir/name with content atomically; on failure prints "<who>: cannot write ..." on
 * stderr and returns -1. */
int ct_example_write_file(const char *who, const char *dir, const char *name, const char *content);

#endif
