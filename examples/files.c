/* Writing an experiment's output folder. */
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ctorch/error.h"
#include "ctorch/json.h"

int ct_example_check_path(FILE *err, const char *who, const char *what, const char *path, size_t extra) {
    size_t n = strlen(path);
    if (n + extra < CT_EXAMPLE_PATH_MAX) return 0;
    /* its start and end, enough to recognise it on one line */
    if (err)
        fprintf(err, "%s: %s is too long: %zu bytes, and the names made from it need %zu more, %d in all at most ('%.30s%s%s')\n",
            who, what, n, extra, CT_EXAMPLE_PATH_MAX - 1, path, n > 60 ? "..." : "", n > 60 ? path + n - 20 : path + (n < 30 ? n : 30));
    return -1;
}

int ct_example_mkdir_p(const char *path) {
    char buf[CT_EXAMPLE_PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int ct_example_write_file(const char *who, const char *dir, const char *name, const char *content) {
    char path[CT_EXAMPLE_PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        fprintf(stderr, "%s: cannot write %s in '%.40s...': the path is longer than %d bytes\n", who, name, dir,
                CT_EXAMPLE_PATH_MAX - 1);
        return -1;
    }
    if (ct_json_write_file_atomic(path, content) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", who, path, ct_error_message());
        return -1;
    }
    return 0;
}
