/* Lab 00's publishing: the parts write into a staging folder inside the output folder, which
 * replaces the output folder's files only when every part succeeded. */
#include "lab00_impl.h"

/* Removes the staging folder and whatever the parts left in it. */
void lab00_stage_remove(const char *stage) {
    DIR *d = opendir(stage);
    if (d) {
        struct dirent *e;
        char p[CT_EXAMPLE_PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            /* a name that does not fit is left alone (its cut-short namesake is another file) */
            if ((size_t)snprintf(p, sizeof p, "%s/%s", stage, e->d_name) < sizeof p) unlink(p);
        }
        closedir(d);
    }
    rmdir(stage);
}

/* the whole file at path (binary-safe), its length in *len; NULL with errno set */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The run's files change together or not at all (Note [Several files together] in
 * util/atomic_file.h): the parts wrote them into the staging folder; each is prepared beside
 * its target in out_dir, then all are renamed in place. A failure anywhere leaves out_dir as
 * it was. */
int lab00_publish(const lab *L, const char *out_dir) {
    ct_file_set *set = ct_file_set_new();
    if (!set) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", out_dir, ct_error_message());
        return -1;
    }
    int rc = 0;
    char from[4096], to[4096];
    for (int i = 0; i < L->nfiles && rc == 0; i++) {
        lab00_out_path(L, L->files[i], from, sizeof from);
        size_t len = 0;
        char *body = NULL;
        if ((size_t)snprintf(to, sizeof to, "%s/%s", out_dir, L->files[i]) >= sizeof to) { /* checked at the start */
            if (L->err) fprintf(L->err, "ctorch lab00: the name of %s in the output folder is too long\n", L->files[i]);
            rc = -1;
        } else if (!(body = slurp(from, &len))) {
            if (L->err) fprintf(L->err, "ctorch lab00: cannot read back %s: %s\n", from, strerror(errno));
            rc = -1;
        } else if (ct_file_set_add(set, to, body, len) != 0) {
            if (L->err) fprintf(L->err, "ctorch lab00: cannot write %s: %s\n", to, ct_error_message());
            rc = -1;
        }
        free(body);
    }
    if (rc == 0 && ct_file_set_commit(set) != 0) {
        if (L->err) fprintf(L->err, "ctorch lab00: cannot write the files in %s (none was changed): %s\n", out_dir, ct_error_message());
        rc = -1;
    }
    ct_file_set_free(set);
    return rc;
}
