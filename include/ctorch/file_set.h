/*
 * ctorch/file_set.h - writing files so that no reader and no crash sees half of one, and
 * several files so that they change together or not at all. What the writer does with what
 * sits at a path (links followed, devices and FIFOs written through, regular files replaced
 * by rename) and how a set is committed or undone are described in src/util/atomic_file.h.
 *
 * Errors: -1 (NULL) with the thread's error set:
 *   CT_ERR_IO     "[Errno N] <strerror(N)>: '<path>'", path as the caller gave it;
 *   CT_ERR_VALUE  a NULL argument, or two members of a set that are the same file;
 *   CT_ERR_NOMEM  no memory.
 */
#ifndef CTORCH_FILE_SET_H
#define CTORCH_FILE_SET_H

#include <stddef.h>

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_file_set ct_file_set;

/* An empty set (ct_file_set_free), or NULL with CT_ERR_NOMEM. */
CT_API ct_file_set *ct_file_set_new(void);
/* Prepares path to receive text[0..len): resolves links, writes and fsyncs the temporary of a
 * regular (or new) target, or notes a special file (keeping a copy of the text). Nothing at
 * path changes yet. 0, or -1 (the set is unchanged; it may still be committed or freed). */
CT_API int ct_file_set_add(ct_file_set *s, const char *path, const char *text, size_t len);
/* Number of members added. */
CT_API size_t ct_file_set_count(const ct_file_set *s);
/* Replaces every member's target. 0, or -1 with every target as before and the error of the
 * member that failed. Either way the set is spent: a second commit fails with CT_ERR_VALUE. */
CT_API int ct_file_set_commit(ct_file_set *s);
/* Frees the set, removing the temporaries of a set that was not committed. NULL is ignored. */
CT_API void ct_file_set_free(ct_file_set *s);

/* One file: a set of one, committed. */
CT_API int ct_write_file_atomic(const char *path, const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CTORCH_FILE_SET_H */
