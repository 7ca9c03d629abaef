/* Reading trace files for `ctorch diff` (trace_read.h). */
#include "trace_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctorch/error.h"
#include "ctorch/trace.h"

const char *ct_tr_view_name(ct_tr_view v) {
    switch (v) {
    case CT_TR_VIEW_HOPS: return "hops";
    case CT_TR_VIEW_CALLS: return "calls";
    case CT_TR_VIEW_MODE: return "mode";
    }
    return "?";
}

/* ---- interned strings --------------------------------------------------------------------- */

struct ct_tr_strings {
    char **str;
    int n, cap;
    int *slots; /* open addressing: index + 1, 0 = empty */
    size_t nslots;
};

static uint64_t fnv(const char *s, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}
#define FNV_START 14695981039346656037ULL

ct_tr_strings *ct_tr_strings_new(void) { return calloc(1, sizeof(ct_tr_strings)); }

void ct_tr_strings_free(ct_tr_strings *s) {
    if (!s) return;
    for (int i = 0; i < s->n; i++) free(s->str[i]);
    free(s->str);
    free(s->slots);
    free(s);
}

const char *ct_tr_string(const ct_tr_strings *s, int id) { return id >= 0 && id < s->n ? s->str[id] : "?"; }

static int intern(ct_tr_strings *s, const char *text) {
    if ((size_t)(s->n + 1) * 2 > s->nslots) {
        size_t ns = s->nslots ? s->nslots * 2 : 256;
        int *slots = calloc(ns, sizeof *slots);
        if (!slots) return -1;
        for (int i = 0; i < s->n; i++) {
            size_t h = fnv(s->str[i], strlen(s->str[i]), FNV_START) & (ns - 1);
            while (slots[h]) h = (h + 1) & (ns - 1);
            slots[h] = i + 1;
        }
        free(s->slots);
        s->slots = slots;
        s->nslots = ns;
    }
    size_t h = fnv(text, strlen(text), FNV_START) & (s->nslots - 1);
    while (s->slots[h]) {
        if (strcmp(s->str[s->slots[h] - 1], text) == 0) return s->slots[h] - 1;
        h = (h + 1) & (s->nslots - 1);
    }
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 64;
        char **ns = realloc(s->str, (size_t)nc * sizeof *ns);
        if (!ns) return -1;
        s->str = ns;
        s->cap = nc;
    }
    char *copy = strdup(text);
    if (!copy) return -1;
    s->str[s->n] = copy;
    s->slots[h] = s->n + 1;
    return s->n++;
}

/* ---- renumbering (sequence numbers, tensor ids) in order of first sight ------------------- */

typedef struct ct_tr_numbering {
    uint64_t *keys;
    int64_t *vals;
    size_t cap, n;
} ct_tr_numbering;

/* The number given to v (0, 1, ... in order of first sight); -1 when out of memory. */
static int64_t renumber(ct_tr_numbering **pm, uint64_t v) {
    ct_tr_numbering *m = *pm;
    if (!m && !(m = *pm = calloc(1, sizeof *m))) return -1;
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        uint64_t *k = malloc(nc * sizeof *k);
        int64_t *x = malloc(nc * sizeof *x);
        if (!k || !x) {
            free(k);
            free(x);
            return -1;
        }
        for (size_t i = 0; i < nc; i++) x[i] = -1;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->vals[i] < 0) continue;
            size_t h = (size_t)(m->keys[i] * 0x9E3779B97F4A7C15ULL) & (nc - 1);
            while (x[h] >= 0) h = (h + 1) & (nc - 1);
            k[h] = m->keys[i];
            x[h] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = x;
        m->cap = nc;
    }
    size_t h = (size_t)(v * 0x9E3779B97F4A7C15ULL) & (m->cap - 1);
    while (m->vals[h] >= 0) {
        if (m->keys[h] == v) return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    m->keys[h] = v;
    m->vals[h] = (int64_t)m->n;
    return (int64_t)m->n++;
}

static int64_t lookup(const ct_tr_numbering *m, uint64_t v) {
    if (!m || !m->cap) return -1;
    size_t h = (size_t)(v * 0x9E3779B97F4A7C15ULL) & (m->cap - 1);
    while (m->vals[h] >= 0) {
        if (m->keys[h] == v) return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    return -1;
}

static void numbering_free(ct_tr_numbering *m) {
    if (!m) return;
    free(m->keys);
    free(m->vals);
    free(m);
}

/* ---- the header --------------------------------------------------------------------------- */

static void fail(char *err, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

static const char *sget(const cJSON *o, const char *k) {
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* one line (without its newline) into *buf; -1 at the end of the file */
static long read_line(FILE *f, char **buf, size_t *cap) {
    ssize_t n = getline(buf, cap, f);
    if (n < 0) return -1;
    if (n > 0 && (*buf)[n - 1] == '\n') (*buf)[--n] = '\0';
    return (long)n;
}

int ct_tr_open(ct_tr_file *f, const char *path, char *err, size_t errsize) {
    memset(f, 0, sizeof *f);
    f->path = path;
    f->f = fopen(path, "rb");
    if (!f->f) {
        fail(err, errsize, "%s: cannot read it: %s", path, strerror(errno));
        return -1;
    }
    /* fopen opens a directory for reading on Linux; its first read would fail with EISDIR */
    struct stat st;
    if (fstat(fileno(f->f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f->f);
        f->f = NULL;
        fail(err, errsize, "%s: is a directory, not a trace file", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long n = read_line(f->f, &line, &cap);
    if (n < 0) {
        free(line);
        fail(err, errsize, "%s: the file is empty, not a trace file", path);
        return -1;
    }
    cJSON *h = ct_json_parse(line, (size_t)n);
    free(line);
    const char *schema = h ? sget(h, "schema") : NULL;
    const char *type = h ? sget(h, "type") : NULL;
    if (!h || !cJSON_IsObject(h) || !type || strcmp(type, "header") != 0 || !schema || strcmp(schema, CT_TRACE_SCHEMA) != 0) {
        cJSON_Delete(h);
        fail(err, errsize, "%s: line 1 is not a %s header, so this is not a trace file (docs/trace-format.md)", path,
             CT_TRACE_SCHEMA);
        return -1;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, "version");
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble) {
        cJSON_Delete(h);
        fail(err, errsize, "%s: the header has no schema version", path);
        return -1;
    }
    int version = (int)v->valuedouble;
    if (version != CT_TRACE_SCHEMA_VERSION) {
        cJSON_Delete(h);
        if (version < CT_TRACE_SCHEMA_VERSION)
            fail(err, errsize,
                 "%s: trace schema version %d is older than version %d, the one this ctorch reads; "
                 "record the trace again with this ctorch (docs/trace-format.md lists what changed)",
                 path, version, CT_TRACE_SCHEMA_VERSION);
        else
            fail(err, errsize, "%s: trace schema version %d is newer than version %d, the one this ctorch reads; use a newer ctorch",
                 path, version, CT_TRACE_SCHEMA_VERSION);
        return -1;
    }
    f->header = h;
    const char *rec = sget(h, "recorder"), *view = sget(h, "view");
    f->pytorch = rec && strcmp(rec, "pytorch") == 0;
    f->mode_view = view && strcmp(view, "dispatch_mode") == 0;
    f->provides = f->pytorch ? (CT_TR_F_ARGS | CT_TR_F_GRAD | CT_TR_F_PHASE | CT_TR_F_IDS)
                             : (CT_TR_F_ARGS | CT_TR_F_KERNEL | CT_TR_F_TLS | CT_TR_F_SETS | CT_TR_F_GRAD |
                                CT_TR_F_PHASE | CT_TR_F_AUTOGRAD | CT_TR_F_IDS);
    return 0;
}

/* ---- records ------------------------------------------------------------------------------ */

/* Each helper below clears *ok when memory runs out: a record missing a field would hash as a
 * different record, and the comparison would report a difference that is not there. */
static void copy_item(cJSON *dst, const cJSON *src, const char *k, bool *ok) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, k);
    if (v) *ok &= ct_json_add(dst, k, cJSON_Duplicate(v, true));
}

/* the renumbered value of src[k] (a sequence number or id) into dst[k] */
static void copy_renumbered(cJSON *dst, const cJSON *src, const char *k, ct_tr_numbering **m, bool assign, bool *ok) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, k);
    if (!cJSON_IsNumber(v)) return;
    uint64_t raw = (uint64_t)v->valuedouble;
    int64_t r = assign ? renumber(m, raw) : lookup(*m, raw);
    *ok &= ct_json_add(dst, k, cJSON_CreateNumber((double)r));
}

/* The compared fields of a hop, in a fixed order, ready to hash or show. With assign, new
 * sequence numbers and ids are numbered (the first pass); otherwise looked up. */
static cJSON *compared(ct_tr_file *f, const cJSON *rec, unsigned fields, bool assign) {
    cJSON *d = cJSON_CreateObject();
    if (!d) return NULL;
    bool ok = true;
    if (fields & CT_TR_F_KERNEL) {
        copy_item(d, rec, "kernel", &ok);
        copy_item(d, rec, "where", &ok);
    }
    if (fields & CT_TR_F_TLS) {
        copy_item(d, rec, "tls_included", &ok);
        copy_item(d, rec, "tls_excluded", &ok);
    }
    if (fields & CT_TR_F_SETS) {
        copy_item(d, rec, "merged", &ok);
        copy_item(d, rec, "dispatch", &ok);
    }
    if (fields & CT_TR_F_GRAD) copy_item(d, rec, "grad_enabled", &ok);
    if (fields & CT_TR_F_PHASE) copy_item(d, rec, "phase", &ok);
    if (fields & CT_TR_F_AUTOGRAD) {
        copy_renumbered(d, rec, "seq", &f->seqs, assign, &ok);
        copy_item(d, rec, "node", &ok);
        copy_renumbered(d, rec, "backward_of", &f->seqs, assign, &ok);
    }
    if (fields & CT_TR_F_ARGS) {
        cJSON *args = cJSON_CreateArray();
        ok &= ct_json_add(d, "args", args);
        const cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(rec, "args")) {
            if (!ok) break;
            cJSON *c = cJSON_CreateObject();
            if (!c) {
                ok = false;
                break;
            }
            copy_item(c, a, "name", &ok);
            bool tensor = cJSON_GetObjectItemCaseSensitive(a, "dtype") != NULL;
            if (tensor) {
                copy_item(c, a, "keys", &ok);
                copy_item(c, a, "dtype", &ok);
                copy_item(c, a, "shape", &ok);
                copy_item(c, a, "stride", &ok);
                if (fields & CT_TR_F_IDS) copy_renumbered(c, a, "id", &f->ids, assign, &ok);
            } else {
                copy_item(c, a, "value", &ok);
            }
            ok &= ct_json_add(args, NULL, c);
        }
    }
    if (!ok) {
        cJSON_Delete(d);
        return NULL;
    }
    return d;
}

static int label_of(ct_tr_strings *s, const cJSON *rec, bool mode) {
    const char *hop = sget(rec, "hop"), *op = sget(rec, "op"), *ov = sget(rec, "overload"), *key = sget(rec, "key");
    const char *kernel = sget(rec, "kernel");
    char buf[512];
    char name[256];
    if (ov && strcmp(ov, "default") != 0) snprintf(name, sizeof name, "%s.%s", op, ov);
    else snprintf(name, sizeof name, "%s", op);
    if (mode && !hop) snprintf(buf, sizeof buf, "%s  %s", name, key);
    else if (kernel) snprintf(buf, sizeof buf, "[%s] %s  %s  (%s)", hop ? hop : "?", name, key, kernel);
    else snprintf(buf, sizeof buf, "[%s] %s  %s", hop ? hop : "?", name, key);
    return intern(s, buf);
}

int ct_tr_load(ct_tr_file *f, ct_tr_strings *s, ct_tr_view view, unsigned fields, char *err, size_t errsize) {
    char *line = NULL;
    size_t cap = 0;
    long lineno = 1, n;
    long offset = ftell(f->f);
    int rc = 0;
    while ((n = read_line(f->f, &line, &cap)) >= 0) {
        lineno++;
        long this_offset = offset;
        offset = ftell(f->f);
        if (n == 0) continue;
        cJSON *rec = ct_json_parse(line, (size_t)n);
        if (!rec || !cJSON_IsObject(rec)) {
            fail(err, errsize, "%s:%ld: %s", f->path, lineno, rec ? "a record is a JSON object" : ct_error_message());
            cJSON_Delete(rec);
            rc = -1;
            break;
        }
        const char *type = sget(rec, "type");
        if (!type || strcmp(type, "hop") != 0) { /* seed records and kinds this version does not know */
            cJSON_Delete(rec);
            continue;
        }
        const char *op = sget(rec, "op"), *ov = sget(rec, "overload"), *key = sget(rec, "key");
        const char *hop = sget(rec, "hop");
        if (!op || !ov || !key) {
            fail(err, errsize, "%s:%ld: a hop record needs \"op\", \"overload\" and \"key\"", f->path, lineno);
            cJSON_Delete(rec);
            rc = -1;
            break;
        }
        bool take = view == CT_TR_VIEW_HOPS || (view == CT_TR_VIEW_CALLS && hop && strcmp(hop, "call") == 0) ||
                    (view == CT_TR_VIEW_MODE && strcmp(key, "Python") == 0);
        if (!take) {
            cJSON_Delete(rec);
            continue;
        }
        char akey[512];
        if (view == CT_TR_VIEW_MODE) snprintf(akey, sizeof akey, "%s.%s", op, ov);
        else snprintf(akey, sizeof akey, "%s %s.%s %s", view == CT_TR_VIEW_HOPS && hop ? hop : "", op, ov, key);
        cJSON *d = compared(f, rec, fields, true);
        char *text = d ? cJSON_PrintUnformatted(d) : NULL;
        cJSON_Delete(d);
        if (f->n == f->cap) {
            size_t nc = f->cap ? f->cap * 2 : 1024;
            ct_tr_rec *nr = realloc(f->recs, nc * sizeof *nr);
            if (!nr) {
                free(text);
                cJSON_Delete(rec);
                fail(err, errsize, "%s: out of memory", f->path);
                rc = -1;
                break;
            }
            f->recs = nr;
            f->cap = nc;
        }
        ct_tr_rec *r = &f->recs[f->n];
        r->line = lineno;
        r->offset = this_offset;
        const cJSON *depth = cJSON_GetObjectItemCaseSensitive(rec, "depth");
        r->depth = cJSON_IsNumber(depth) ? (int)depth->valuedouble : 1;
        r->align = intern(s, akey);
        r->label = label_of(s, rec, view == CT_TR_VIEW_MODE);
        r->hash = text ? fnv(text, strlen(text), FNV_START) : 0;
        cJSON_free(text);
        cJSON_Delete(rec);
        if (r->align < 0 || r->label < 0 || !text) {
            fail(err, errsize, "%s: out of memory", f->path);
            rc = -1;
            break;
        }
        f->n++;
    }
    free(line);
    return rc;
}

cJSON *ct_tr_details(ct_tr_file *f, size_t i, unsigned fields) {
    if (i >= f->n || fseek(f->f, f->recs[i].offset, SEEK_SET) != 0) return NULL;
    char *line = NULL;
    size_t cap = 0;
    long n = read_line(f->f, &line, &cap);
    cJSON *rec = n >= 0 ? ct_json_parse(line, (size_t)n) : NULL;
    free(line);
    if (!rec) return NULL;
    cJSON *d = compared(f, rec, fields, false);
    cJSON_Delete(rec);
    return d;
}

void ct_tr_close(ct_tr_file *f) {
    if (f->f) fclose(f->f);
    cJSON_Delete(f->header);
    free(f->recs);
    numbering_free(f->seqs);
    numbering_free(f->ids);
    memset(f, 0, sizeof *f);
}
