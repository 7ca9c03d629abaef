/* Lab 00: PyTorch's recordings of the lab (lab00.out, key_sets_and_modes.out, the project's
 * lab00_report.json), read when the report is written. */
#include "lab00_impl.h"

static char *read_whole(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    text t;
    if (lab00_text_open(&t) != 0) {
        fclose(f);
        return NULL;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, t.f);
    fclose(f);
    return lab00_text_close(&t);
}

/* Reads what is there of the recordings; a missing file leaves its comparisons out. 0, or -1
 * when memory ran out reading one (the run fails rather than report less). */
int lab00_reference_load(reference *R, const char *dir, const char *rec_dir) {
    memset(R, 0, sizeof *R);
    if (!dir || !*dir) return 0;
    /* the folder's length was checked when the lab started (REFERENCE_NAME_ROOM) */
    snprintf(R->dir, sizeof R->dir, "%s", dir);
    char p[CT_EXAMPLE_PATH_MAX];
    snprintf(p, sizeof p, "%s/lab00.out", dir);
    R->lab = read_whole(p);
    snprintf(p, sizeof p, "%s/key_sets_and_modes.out", dir);
    R->keys = read_whole(p);
    snprintf(p, sizeof p, "%s/lab00.py", dir);
    char *script = read_whole(p);
    const char *ms = script ? strstr(script, "torch.manual_seed(") : NULL;
    if (ms) {
        char *end;
        R->lab_seed = strtoull(ms + 18, &end, 10);
        R->have_seed = end != ms + 18 && *end == ')';
    }
    free(script);
    if (!rec_dir || !*rec_dir) return 0;
    snprintf(R->rec_dir, sizeof R->rec_dir, "%s", rec_dir);
    snprintf(p, sizeof p, "%s/lab00_report.json", rec_dir);
    ct_error_clear();
    R->rec = ct_json_parse_file(p);
    if (!R->rec && ct_error_code() == CT_ERR_NOMEM) return -1;
    ct_error_clear();
    return 0;
}

void lab00_reference_free(reference *R) {
    free(R->lab);
    free(R->keys);
    cJSON_Delete(R->rec);
}

/* the rest of the first line of text starting with prefix, into buf; false if none */
bool lab00_ref_after(const char *txt, const char *prefix, char *buf, size_t size) {
    if (!txt) return false;
    size_t pl = strlen(prefix);
    for (const char *p = txt; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len >= pl && memcmp(p, prefix, pl) == 0) {
            snprintf(buf, size, "%.*s", (int)(len - pl), p + pl);
            return true;
        }
        p = e ? e + 1 : NULL;
    }
    return false;
}

/* the k-th (0-based) line of lab00.out that is a key set: x, float16, float32 in its order */
bool lab00_ref_keyset(const reference *R, int k, char *buf, size_t size) {
    if (!R->lab) return false;
    int seen = 0;
    for (const char *p = R->lab; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (strncmp(p, "DispatchKeySet(", 15) == 0 && seen++ == k) {
            snprintf(buf, size, "%.*s", (int)len, p);
            return true;
        }
        p = e ? e + 1 : NULL;
    }
    return false;
}

const char *ct_example_lab00_default_reference(void) {
#ifdef CTORCH_REFERENCE_DIR
    return CTORCH_REFERENCE_DIR;
#else
    return "";
#endif
}

const char *ct_example_lab00_default_recordings(void) {
#ifdef CTORCH_RECORDINGS_DIR
    return CTORCH_RECORDINGS_DIR;
#else
    return "";
#endif
}
