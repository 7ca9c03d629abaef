/*
 * util/atomic_file.h - how ctorch/file_set.h writes files so that no reader and no crash sees half of one, and so
 * that what sits at the path is treated as a shell's `>` would treat it (internal; used by
 * ct_json_write_file_atomic, the profiler's Chrome trace and the example programs).
 *
 * Note [What the writer does with what it finds]
 *   The path is followed through symbolic links (a link stays a link; its target gets the
 *   text, and a dangling link gets its target created, as `>` does). Then:
 *     - nothing there, or a regular file: the text goes to a temporary file beside the target
 *       ("<target>.tmp.<pid>.<n>"), is fsynced and rename()d over the target, so the file
 *       changes in one step. A new file gets mode 0666 & ~umask (open's rule); an existing
 *       one keeps its permission bits and, where the process may set them, its owner and
 *       group. An existing file the process may not write is refused with EACCES, as `>`
 *       refuses it, although the directory would allow the rename.
 *     - a character or block device, a FIFO (anything else that opens for writing): the
 *       text is written through it, in place (/dev/null stays /dev/null). Opening a FIFO
 *       waits for a reader, as `>` does.
 *     - a directory: EISDIR.
 *
 * Note [Several files together]
 *   A file set prepares every member first (each temporary written and fsynced; nothing
 *   visible changes), then commit renames them all. Before the first rename each existing
 *   target is kept under a hard link ("<target>.bak.<pid>.<n>"); if a rename fails, the
 *   members renamed so far are put back from those links (a member that did not exist is
 *   removed again), so that after a failed commit every target is as it was. Members that are
 *   written through (devices, FIFOs) are written after every rename succeeded; such a write
 *   cannot be taken back, so a failure there still undoes the renames but not an earlier
 *   write-through member.
 *
 * Errors: -1 (NULL) with the thread's error set:
 *   CT_ERR_IO     "[Errno N] <strerror(N)>: '<path>'", path as the caller gave it;
 *   CT_ERR_VALUE  a NULL argument, or two members of a set that are the same file;
 *   CT_ERR_NOMEM  no memory.
 */
#ifndef CT_UTIL_ATOMIC_FILE_H
#define CT_UTIL_ATOMIC_FILE_H

#include "ctorch/file_set.h"

#endif /* CT_UTIL_ATOMIC_FILE_H */
