/* Files written in one step, alone or several together (util/atomic_file.h has the rules:
 * Note [What the writer does with what it finds], Note [Several files together]). */
#include "util/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "ctorch/error.h"

/* Linux's limit on links followed while resolving one path (MAXSYMLINKS). */
#define CT_MAX_LINK_HOPS 40

typedef struct member {
    char *path;      /* as given, for messages */
    char *target;    /* path with every symbolic link at its end followed */
    char *tmp;       /* the prepared temporary (regular targets), else NULL */
    char *backup;    /* during commit: a hard link to the old target, else NULL */
    char *text;      /* write-through members: a copy of the text */
    size_t len;
    bool through;    /* a device or FIFO: written in place at commit */
    bool existed;    /* the target existed when prepared */
    bool renamed;    /* commit renamed tmp over target */
} member;

struct ct_file_set {
    member *m;
    size_t n, cap;
    bool spent;
};

static atomic_uint name_counter;

static int io_error(int err, const char *path) {
    return ct_error_set(CT_ERR_IO, "[Errno %d] %s: '%s'", err, strerror(err), path);
}

/* A name beside target no other writer of this process or another one uses: pid and a
 * process-wide counter. */
static char *sibling_name(const char *target, const char *what) {
    unsigned n = atomic_fetch_add_explicit(&name_counter, 1u, memory_order_relaxed);
    return ct_asprintf("%s.%s.%ld.%u", target, what, (long)getpid(), n);
}

/* Follows symbolic links at the end of path, as open() would, without requiring the last
 * target to exist (a dangling link names the file to create). New string, or NULL with an
 * error naming `shown`. */
static char *resolve_links(const char *path, const char *shown) {
    char *cur = ct_strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT) return cur; /* created by the rename (or open) later */
            io_error(errno, shown);
            break;
        }
        if (!S_ISLNK(st.st_mode)) return cur;
        if (hops == CT_MAX_LINK_HOPS) {
            io_error(ELOOP, shown);
            break;
        }
        size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 256;
        char *link = NULL;
        ssize_t got;
        for (;;) { /* the link may change between lstat and readlink */
            char *nl = ct_realloc(link, cap);
            if (!nl) {
                got = -2;
                break;
            }
            link = nl;
            got = readlink(cur, link, cap);
            if (got < 0 || (size_t)got < cap) break;
            cap *= 2;
        }
        if (got < 0) {
            if (got == -1) io_error(errno, shown);
            ct_free(link);
            break;
        }
        link[got] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash)
            next = ct_strdup(link);
        else /* relative to the folder holding the link */
            next = ct_asprintf("%.*s/%s", (int)(slash - cur), cur, link);
        ct_free(link);
        ct_free(cur);
        cur = next;
    }
    ct_free(cur);
    return NULL;
}

static int write_all(int fd, const char *text, size_t len) {
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        off += (size_t)w;
    }
    return 0;
}

/* Writes the temporary of a regular (or new) target: same permissions and, where allowed, the
 * same owner as the file it replaces. 0 or an errno. */
static int write_temporary(member *m, const struct stat *old, const char *text, size_t len) {
    int fd = open(m->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return errno;
    int err = 0;
    if (old) {
        /* chown first: it may clear set-id bits that the chmod then restores. Changing the
         * owner needs privileges; without them the file is the writer's, as after `cp`. */
        if (old->st_uid != geteuid() || old->st_gid != getegid()) (void)fchown(fd, old->st_uid, old->st_gid);
        if (fchmod(fd, old->st_mode & 07777) != 0) err = errno;
    }
    if (!err) err = write_all(fd, text, len);
    /* fsync before rename: otherwise a crash can leave the new name on an empty file */
    if (!err && fsync(fd) != 0) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (err) unlink(m->tmp);
    return err;
}

static void member_free(member *m) {
    if (m->tmp && !m->renamed) unlink(m->tmp);
    ct_free(m->path);
    ct_free(m->target);
    ct_free(m->tmp);
    ct_free(m->backup);
    ct_free(m->text);
    memset(m, 0, sizeof *m);
}

ct_file_set *ct_file_set_new(void) { return ct_calloc(1, sizeof(ct_file_set)); }

size_t ct_file_set_count(const ct_file_set *s) { return s ? s->n : 0; }

int ct_file_set_add(ct_file_set *s, const char *path, const char *text, size_t len) {
    if (!s || !path || (!text && len > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_file_set_add: %s is NULL", !s ? "set" : !path ? "path" : "text");
    if (s->spent) return ct_error_set(CT_ERR_VALUE, "ct_file_set_add: the set was already committed");
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 4;
        member *nm = ct_realloc(s->m, ncap * sizeof *nm);
        if (!nm) return -1;
        s->m = nm;
        s->cap = ncap;
    }
    member m;
    memset(&m, 0, sizeof m);
    m.len = len;
    m.path = ct_strdup(path);
    m.target = m.path ? resolve_links(path, path) : NULL;
    if (!m.target) goto fail;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->m[i].target, m.target) == 0) {
            ct_error_set(CT_ERR_VALUE, "ct_file_set_add: '%s' is already in the set (as '%s')", path, s->m[i].path);
            goto fail;
        }
    struct stat st;
    if (stat(m.target, &st) != 0) {
        if (errno != ENOENT) {
            io_error(errno, path);
            goto fail;
        }
    } else if (S_ISDIR(st.st_mode)) {
        io_error(EISDIR, path);
        goto fail;
    } else if (!S_ISREG(st.st_mode)) {
        m.through = true;
    } else {
        m.existed = true;
        /* `>` needs write permission on the file itself; the rename alone would not */
        if (access(m.target, W_OK) != 0) {
            io_error(errno, path);
            goto fail;
        }
    }
    if (m.through) {
        m.text = ct_malloc(len ? len : 1);
        if (!m.text) goto fail;
        if (len) memcpy(m.text, text, len);
    } else {
        m.tmp = sibling_name(m.target, "tmp");
        if (!m.tmp) goto fail;
        int err = write_temporary(&m, m.existed ? &st : NULL, text ? text : "", len);
        if (err) {
            ct_free(m.tmp); /* write_temporary removed the file */
            m.tmp = NULL;
            io_error(err, path);
            goto fail;
        }
    }
    s->m[s->n++] = m;
    return 0;
fail:
    member_free(&m);
    return -1;
}

/* Flushes the folder holding path so that a rename survives a power cut. Best effort: some
 * file systems refuse fsync on folders, and the data is safe either way. */
static void sync_parent_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? ct_asprintf("%.*s", slash == path ? 1 : (int)(slash - path), path) : ct_strdup(".");
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    ct_free(dir);
}

/* Puts the renamed members back: the old file from its backup link, or no file. */
static void roll_back(ct_file_set *s) {
    for (size_t i = s->n; i-- > 0;) {
        member *m = &s->m[i];
        if (!m->renamed) continue;
        if (m->backup) {
            /* if even this fails, the old file stays under the backup name rather than being
             * removed with the other backups */
            (void)rename(m->backup, m->target);
            ct_free(m->backup);
            m->backup = NULL;
        } else {
            unlink(m->target);
        }
        m->renamed = false;
        ct_free(m->tmp); /* its file is gone: renamed, then replaced or removed */
        m->tmp = NULL;
    }
}

static void drop_backups(ct_file_set *s) {
    for (size_t i = 0; i < s->n; i++) {
        member *m = &s->m[i];
        if (m->backup) unlink(m->backup);
        ct_free(m->backup);
        m->backup = NULL;
    }
}

static int write_through(const member *m) {
    int fd = open(m->target, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    int err = write_all(fd, m->text, m->len);
    if (close(fd) != 0 && !err) err = errno;
    return err;
}

int ct_file_set_commit(ct_file_set *s) {
    if (!s) return ct_error_set(CT_ERR_VALUE, "ct_file_set_commit: set is NULL");
    if (s->spent) return ct_error_set(CT_ERR_VALUE, "ct_file_set_commit: the set was already committed");
    s->spent = true;
    size_t failed = 0;
    int err = 0;
    /* 1. keep every old file that a rename will replace (a single file needs no undo) */
    for (size_t i = 0; s->n > 1 && i < s->n; i++) {
        member *m = &s->m[i];
        if (m->through || !m->existed) continue;
        m->backup = sibling_name(m->target, "bak");
        if (!m->backup) {
            drop_backups(s);
            return -1;
        }
        if (link(m->target, m->backup) != 0) {
            err = errno;
            ct_free(m->backup);
            m->backup = NULL;
            failed = i;
            break;
        }
    }
    /* 2. the renames, in order */
    for (size_t i = 0; !err && i < s->n; i++) {
        member *m = &s->m[i];
        if (m->through) continue;
        if (rename(m->tmp, m->target) != 0) {
            err = errno;
            failed = i;
            break;
        }
        m->renamed = true;
    }
    /* 3. devices and FIFOs, which cannot be undone, last */
    for (size_t i = 0; !err && i < s->n; i++) {
        member *m = &s->m[i];
        if (!m->through) continue;
        err = write_through(m);
        if (err) failed = i;
    }
    if (err) {
        roll_back(s);
        drop_backups(s);
        return io_error(err, s->m[failed].path);
    }
    drop_backups(s);
    for (size_t i = 0; i < s->n; i++)
        if (!s->m[i].through) sync_parent_dir(s->m[i].target);
    return 0;
}

void ct_file_set_free(ct_file_set *s) {
    if (!s) return;
    drop_backups(s);
    for (size_t i = 0; i < s->n; i++) member_free(&s->m[i]);
    ct_free(s->m);
    ct_free(s);
}

int ct_write_file_atomic(const char *path, const char *text, size_t len) {
    if (!path || (!text && len > 0))
        return ct_error_set(CT_ERR_VALUE, "ct_write_file_atomic: %s is NULL", path ? "text" : "path");
    ct_file_set *s = ct_file_set_new();
    if (!s) return -1;
    int rc = ct_file_set_add(s, path, text, len);
    if (rc == 0) rc = ct_file_set_commit(s);
    ct_file_set_free(s);
    return rc;
}
