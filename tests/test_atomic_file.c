/* The file writer (util/atomic_file.h, and ct_json_write_file_atomic on top of it): what it does
 * with a device, a FIFO, a symbolic link, an existing file's mode, and several files written
 * together when one of them fails. */
#define _XOPEN_SOURCE 700 /* mknod */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "ctorch/init.h"
#include "ctorch/error.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/atomic_file.h"
#include "util/json.h"

static char dir[4096];

static const char *in_dir(const char *name) {
    static char buf[32][4200]; /* a ring: names stay valid for 32 calls */
    static int k;
    k = (k + 1) % 32;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_plain(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void check_content(const char *path, const char *want) {
    char *got = ct_test_read_file(path, NULL);
    CHECK_STR_EQ(got, want);
    free(got);
}

/* Nothing but the listed names in the test folder: no temporary or backup left behind. */
static int leftovers(void) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.") || strstr(e->d_name, ".bak.")) {
            fprintf(stderr, "left behind: %s\n", e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static void remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char sub[8192];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- a device stays a device ---- */

static void test_device(void) {
    /* As root a null device of our own (the old writer would have replaced /dev/null itself);
     * otherwise /dev/null, which an unprivileged writer cannot replace anyway. */
    const char *dev = in_dir("null");
    unlink(dev);
    if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) != 0) dev = "/dev/null";
    struct stat before, after;
    CHECK(stat(dev, &before) == 0 && S_ISCHR(before.st_mode));
    CHECK_INT_EQ(ct_json_write_file_atomic(dev, "{\"a\": 1}\n"), 0);
    CHECK(stat(dev, &after) == 0);
    CHECK_MSG(S_ISCHR(after.st_mode), "%s is no longer a character device", dev);
    CHECK(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino);
    CHECK_INT_EQ(leftovers(), 0);
    if (strcmp(dev, "/dev/null") != 0) unlink(dev);
}

/* ---- a FIFO is written through ---- */

static void test_fifo(void) {
    const char *fifo = in_dir("fifo");
    unlink(fifo);
    if (mkfifo(fifo, 0644) != 0) {
        CHECK_MSG(0, "mkfifo: %s", strerror(errno));
        return;
    }
    /* The reading end is opened first (without waiting for a writer), so the writer's open
     * does not wait either and the small text fits in the pipe's buffer. */
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);
    CHECK(rd >= 0);
    CHECK_INT_EQ(ct_json_write_file_atomic(fifo, "[1, 2, 3]"), 0);
    char buf[64] = {0};
    ssize_t n = rd >= 0 ? read(rd, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    CHECK_STR_EQ(buf, "[1, 2, 3]");
    if (rd >= 0) close(rd);
    struct stat st;
    CHECK_MSG(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "%s is no longer a FIFO", fifo);
    CHECK_INT_EQ(leftovers(), 0);
    unlink(fifo);
}

/* ---- a symbolic link stays a link; its target gets the text ---- */

static void check_is_link_to(const char *link, const char *want) {
    struct stat st;
    CHECK_MSG(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "%s is no longer a symbolic link", link);
    char buf[4096];
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    CHECK_STR_EQ(buf, want);
}

static void test_symlinks(void) {
    const char *target = in_dir("target.json"), *link = in_dir("link.json"), *link2 = in_dir("link2.json");
    unlink(target);
    unlink(link);
    unlink(link2);
    write_plain(target, "old");
    CHECK(symlink("target.json", link) == 0); /* relative: resolved beside the link */
    CHECK_INT_EQ(ct_json_write_file_atomic(link, "new"), 0);
    check_is_link_to(link, "target.json");
    check_content(target, "new");
    /* a chain of links, the first one absolute */
    CHECK(symlink(link, link2) == 0);
    CHECK_INT_EQ(ct_json_write_file_atomic(link2, "newer"), 0);
    check_is_link_to(link2, link);
    check_is_link_to(link, "target.json");
    check_content(target, "newer");
    /* a dangling link: its target is created, as `>` creates it */
    unlink(target);
    CHECK_INT_EQ(ct_json_write_file_atomic(link, "created"), 0);
    check_is_link_to(link, "target.json");
    check_content(target, "created");
    /* a loop of links fails with ELOOP and creates nothing */
    const char *la = in_dir("loop_a"), *lb = in_dir("loop_b");
    unlink(la);
    unlink(lb);
    CHECK(symlink("loop_b", la) == 0 && symlink("loop_a", lb) == 0);
    char msg[8400];
    snprintf(msg, sizeof msg, "[Errno %d] %s: '%s'", ELOOP, strerror(ELOOP), la);
    CHECK_INT_EQ(ct_json_write_file_atomic(la, "x"), -1);
    CHECK_ERROR(CT_ERR_IO, msg);
    CHECK_INT_EQ(leftovers(), 0);
    unlink(la);
    unlink(lb);
    unlink(link2);
    unlink(link);
    unlink(target);
}

/* ---- permissions: a new file gets the umask's mode, an existing one keeps its own ---- */

static void test_modes(void) {
    const char *f = in_dir("mode.json");
    struct stat st;
    unlink(f);
    mode_t old_mask = umask(027);
    CHECK_INT_EQ(ct_json_write_file_atomic(f, "1"), 0);
    CHECK(stat(f, &st) == 0);
    CHECK_INT_EQ(st.st_mode & 0777, 0640);
    umask(022);
    CHECK(chmod(f, 0604) == 0);
    CHECK_INT_EQ(ct_json_write_file_atomic(f, "2"), 0);
    CHECK(stat(f, &st) == 0);
    CHECK_INT_EQ(st.st_mode & 07777, 0604);
    check_content(f, "2");
    /* `>` on a file the writer may not write fails (root may write anything) */
    if (geteuid() != 0) {
        CHECK(chmod(f, 0444) == 0);
        char msg[4400];
        snprintf(msg, sizeof msg, "[Errno %d] %s: '%s'", EACCES, strerror(EACCES), f);
        CHECK_INT_EQ(ct_json_write_file_atomic(f, "3"), -1);
        CHECK_ERROR(CT_ERR_IO, msg);
        check_content(f, "2");
        chmod(f, 0644);
    }
    umask(old_mask);
    unlink(f);
}

/* ---- several files together ---- */

static void test_file_set(void) {
    const char *a = in_dir("set_a"), *b = in_dir("set_b"), *c = in_dir("set_c");
    remove_tree(a);
    remove_tree(b);
    remove_tree(c);
    write_plain(a, "a0");
    write_plain(b, "b0");
    /* all three change, c being new */
    ct_file_set *s = ct_file_set_new();
    CHECK(s != NULL);
    CHECK_INT_EQ(ct_file_set_add(s, a, "a1", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, b, "b1", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, c, "c1", 2), 0);
    CHECK_INT_EQ(ct_file_set_count(s), 3);
    check_content(a, "a0"); /* prepared, not yet visible */
    CHECK(access(c, F_OK) != 0);
    CHECK_INT_EQ(ct_file_set_commit(s), 0);
    CHECK_INT_EQ(ct_file_set_commit(s), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_file_set_commit: the set was already committed");
    ct_file_set_free(s);
    check_content(a, "a1");
    check_content(b, "b1");
    check_content(c, "c1");
    CHECK_INT_EQ(leftovers(), 0);

    /* a member that cannot be prepared: nothing changes */
    const char *missing = in_dir("no_such_dir/x");
    s = ct_file_set_new();
    CHECK_INT_EQ(ct_file_set_add(s, a, "a2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, missing, "x", 1), -1);
    char msg[8400];
    snprintf(msg, sizeof msg, "[Errno %d] %s: '%s'", ENOENT, strerror(ENOENT), missing);
    CHECK_ERROR(CT_ERR_IO, msg);
    ct_file_set_free(s); /* not committed: a's temporary goes */
    check_content(a, "a1");
    CHECK_INT_EQ(leftovers(), 0);

    /* the same file twice (through a link) is refused */
    const char *la = in_dir("set_link");
    unlink(la);
    CHECK(symlink("set_a", la) == 0);
    s = ct_file_set_new();
    CHECK_INT_EQ(ct_file_set_add(s, a, "a2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, la, "a3", 2), -1);
    snprintf(msg, sizeof msg, "ct_file_set_add: '%s' is already in the set (as '%s')", la, a);
    CHECK_ERROR(CT_ERR_VALUE, msg);
    ct_file_set_free(s);
    unlink(la);

    /* a member whose old file cannot be kept at commit (it became a folder meanwhile):
     * nothing changes */
    s = ct_file_set_new();
    CHECK_INT_EQ(ct_file_set_add(s, a, "a2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, c, "c2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, b, "b2", 2), 0);
    unlink(b);
    CHECK(mkdir(b, 0777) == 0);
    write_plain(in_dir("set_b/keep"), "k"); /* non-empty: no rename replaces it */
    CHECK_INT_EQ(ct_file_set_commit(s), -1);
    CHECK(ct_error_code() == CT_ERR_IO && strstr(ct_error_message(), "set_b'") != NULL);
    ct_error_clear();
    ct_file_set_free(s);
    check_content(a, "a1");
    check_content(c, "c1");
    struct stat st;
    CHECK(stat(b, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_INT_EQ(leftovers(), 0);
    remove_tree(b);
    write_plain(b, "b1");

    /* a member whose rename fails at commit (a new file whose name became a folder
     * meanwhile), after others were renamed: they are put back, a new one removed again */
    const char *d = in_dir("set_d"), *e = in_dir("set_e");
    unlink(d);
    remove_tree(e);
    s = ct_file_set_new();
    CHECK_INT_EQ(ct_file_set_add(s, a, "a2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, d, "d1", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, c, "c2", 2), 0);
    CHECK_INT_EQ(ct_file_set_add(s, e, "e1", 2), 0);
    CHECK(mkdir(e, 0777) == 0);
    write_plain(in_dir("set_e/keep"), "k");
    CHECK_INT_EQ(ct_file_set_commit(s), -1);
    CHECK(ct_error_code() == CT_ERR_IO && strstr(ct_error_message(), "set_e'") != NULL);
    ct_error_clear();
    ct_file_set_free(s);
    check_content(a, "a1");
    check_content(c, "c1");
    CHECK(access(d, F_OK) != 0);
    CHECK(stat(e, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_INT_EQ(leftovers(), 0);
    remove_tree(e);

    /* every allocation of a three-file write failed in turn: all or nothing */
    int64_t n_fail = 0;
    for (int64_t k = 1;; k++) {
        ct_testing_fail_alloc_after(k);
        s = ct_file_set_new();
        int rc = s ? 0 : -1;
        if (rc == 0) rc = ct_file_set_add(s, a, "a9", 2);
        if (rc == 0) rc = ct_file_set_add(s, b, "b9", 2);
        if (rc == 0) rc = ct_file_set_add(s, d, "d9", 2);
        if (rc == 0) rc = ct_file_set_commit(s);
        ct_file_set_free(s);
        ct_testing_fail_alloc_after(0);
        if (rc == 0) {
            check_content(a, "a9");
            check_content(b, "b9");
            check_content(d, "d9");
            break;
        }
        n_fail++;
        CHECK_INT_EQ(ct_error_code(), CT_ERR_NOMEM);
        ct_error_clear();
        check_content(a, "a1");
        check_content(b, "b1");
        CHECK(access(d, F_OK) != 0);
        CHECK_INT_EQ(leftovers(), 0);
    }
    CHECK(n_fail > 5);
    printf("file set: %lld allocation failures, each leaving every file as it was\n", (long long)n_fail);
    remove_tree(a);
    remove_tree(b);
    remove_tree(c);
    remove_tree(d);
}

static void test_args(void) {
    CHECK_INT_EQ(ct_write_file_atomic(NULL, "x", 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_write_file_atomic: path is NULL");
    CHECK_INT_EQ(ct_write_file_atomic(in_dir("x"), NULL, 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_write_file_atomic: text is NULL");
    CHECK_INT_EQ(ct_file_set_add(NULL, "x", "x", 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_file_set_add: set is NULL");
    CHECK_INT_EQ(ct_file_set_commit(NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_file_set_commit: set is NULL");
    ct_file_set_free(NULL);
    /* an empty text makes an empty file */
    const char *e = in_dir("empty");
    CHECK_INT_EQ(ct_write_file_atomic(e, NULL, 0), 0);
    check_content(e, "");
    unlink(e);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    snprintf(dir, sizeof dir, "%s/test_atomic_file.d", CT_BINARY_DIR);
    remove_tree(dir);
    if (mkdir(dir, 0777) != 0) {
        fprintf(stderr, "cannot create %s\n", dir);
        return 1;
    }
    test_device();
    test_fifo();
    test_symlinks();
    test_modes();
    test_file_set();
    test_args();
    remove_tree(dir);
    return ct_test_finish("test_atomic_file");
}
