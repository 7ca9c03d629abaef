/* ctorch_layers: checks that the files of a C tree depend on each other only downwards.
 *
 *   ctorch_layers --root DIR --map FILE [--gen DIR] [--objects-file FILE] [--nm PROG]
 *                 [--allowlist FILE] [--print-allowlist] [--print-edges] [--dot FILE]
 *                 [--files-dot FILE] [--text FILE] [OBJECT.o ...]
 *
 * The map (tools/layers/layers.txt) names the layers, lowest first, with a rank each, the
 * folders to scan and the layer of every path prefix (the longest prefix wins). Two kinds of
 * dependency between files are collected:
 *   include  a `#include "x"` (or <x> found in the tree) in one file naming another file;
 *   call     an object file referring to a function another object file defines (from `nm`);
 *   data     the same for a variable.
 * A dependency goes against the order when the file it starts from sits in a lower layer than
 * the file it names, or in another layer of the same rank (siblings do not use each other).
 * No call is exempt: the library's start-up, ct_init(), is called only by programs, so a lower
 * layer that called it would be an edge against the order like any other (the map has no way to
 * excuse one).
 * Every file-level cycle (strongly connected component of two or more files, over all three
 * kinds) is reported too: a cycle across layers always holds an edge against the order, and a
 * cycle inside one layer is a knot its layer has to untie.
 *
 * With --allowlist the known violations are listed but do not fail the check; the check fails
 * (exit 1) on a violation not in the list and on an entry the tree no longer has, so the list
 * can only shrink. A cycle entry allows every cycle made of some of its files; when the cycle
 * has become smaller the entry is stale and the report prints the line to replace it with.
 * Exit status: 0 clean (or only allowed violations), 1 violations, 2 bad usage or a file
 * without a layer.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- small helpers -------------------------------------------------------------------------- */

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("ctorch_layers: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) die("out of memory");
    return q;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

/* The one growable array of this program: makes room for one more element. */
#define VEC(T) struct { T *at; size_t n, cap; }
#define VEC_PUSH(v, val)                                                                           \
    do {                                                                                           \
        if ((v).n == (v).cap) {                                                                    \
            (v).cap = (v).cap ? 2 * (v).cap : 16;                                                  \
            (v).at = xrealloc((v).at, (v).cap * sizeof *(v).at);                                   \
        }                                                                                          \
        (v).at[(v).n++] = (val);                                                                   \
    } while (0)

typedef VEC(char *) strvec;
typedef VEC(int) intvec;

static char *path_join(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    char *s = xrealloc(NULL, na + nb + 2);
    memcpy(s, a, na);
    s[na] = '/';
    memcpy(s + na + 1, b, nb + 1);
    return s;
}

/* Collapses "a/./b", "a/x/../b" and repeated slashes in a relative path; NULL if it climbs
 * above its start. */
static char *normalize(const char *path) {
    char *copy = xstrdup(path), *out = xrealloc(NULL, strlen(path) + 1);
    size_t len = 0;
    out[0] = '\0';
    for (char *save = NULL, *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0) continue;
        if (strcmp(part, "..") == 0) {
            if (len == 0) {
                free(copy);
                free(out);
                return NULL;
            }
            char *slash = strrchr(out, '/');
            len = slash ? (size_t)(slash - out) : 0;
            out[len] = '\0';
            continue;
        }
        if (len) out[len++] = '/';
        size_t np = strlen(part);
        memcpy(out + len, part, np + 1);
        len += np;
    }
    free(copy);
    return out;
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t ns = strlen(s), nx = strlen(suffix);
    return ns >= nx && strcmp(s + ns - nx, suffix) == 0;
}

/* qsort and bsearch that accept an empty (NULL) array */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    if (n > 1) qsort(base, n, size, cmp);
}

static void *search(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    return n ? bsearch(key, base, n, size, cmp) : NULL;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the model ------------------------------------------------------------------------------ */

typedef struct layer {
    char *name;
    int rank;
} layer;

typedef struct rule {
    char *prefix;
    int layer;
} rule;

typedef struct file {
    char *name;   /* "src/core/tensor.c", or "generated/..." for a file of the --gen folder */
    char *disk;   /* where it is read from */
    int layer;
} file;

enum { K_INCLUDE, K_CALL, K_DATA };
static const char *const kind_names[] = {"include", "call", "data"};

typedef struct edge {
    int from, to, kind;
    char *sym; /* NULL for an include */
    bool back, allowed;
} edge;

typedef struct allow_entry {
    char *line;    /* as written, normalised to single spaces */
    bool is_cycle;
    strvec cycle_files; /* sorted, for a cycle entry */
    bool used;     /* a current violation matched it */
    bool exact;    /* (cycles) a current cycle equals it */
} allow_entry;

static VEC(layer) layers;
static VEC(rule) rules;
static strvec scans;
static strvec include_paths;
static VEC(file) files;
static VEC(edge) edges;
static VEC(allow_entry) allows;
static strvec objects;
static const char *root = ".";
static const char *gen_dir = NULL;

static int find_layer(const char *name) {
    for (size_t i = 0; i < layers.n; i++)
        if (strcmp(layers.at[i].name, name) == 0) return (int)i;
    return -1;
}

/* The layer of a path by the longest matching prefix (a whole component), -1 if none. */
static int layer_of(const char *path) {
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < rules.n; i++) {
        const char *p = rules.at[i].prefix;
        size_t n = strlen(p);
        if (strncmp(path, p, n) == 0 && (path[n] == '\0' || path[n] == '/') && n >= best_len) {
            best = rules.at[i].layer;
            best_len = n;
        }
    }
    return best;
}

static int find_file(const char *name) {
    for (size_t i = 0; i < files.n; i++)
        if (strcmp(files.at[i].name, name) == 0) return (int)i;
    return -1;
}

/* ---- the map -------------------------------------------------------------------------------- */

static void read_map(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read the map %s: %s", path, strerror(errno));
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *save = NULL, *w[4] = {0};
        int nw = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nw < 4; t = strtok_r(NULL, " \t\r\n", &save)) w[nw++] = t;
        if (nw == 0) continue;
        if (strcmp(w[0], "layer") == 0 && nw == 3) {
            if (find_layer(w[1]) >= 0) die("%s:%d: layer %s named twice", path, lineno, w[1]);
            char *end;
            long r = strtol(w[2], &end, 10);
            if (*end || r < 0) die("%s:%d: a layer's rank is a number", path, lineno);
            VEC_PUSH(layers, ((layer){xstrdup(w[1]), (int)r}));
        } else if (strcmp(w[0], "scan") == 0 && nw == 2) {
            VEC_PUSH(scans, xstrdup(w[1]));
        } else if (strcmp(w[0], "include-path") == 0 && nw == 2) {
            VEC_PUSH(include_paths, xstrdup(w[1]));
        } else if (strcmp(w[0], "map") == 0 && nw == 3) {
            int l = find_layer(w[2]);
            if (l < 0) die("%s:%d: unknown layer %s", path, lineno, w[2]);
            VEC_PUSH(rules, ((rule){xstrdup(w[1]), l}));
        } else {
            die("%s:%d: expected 'layer NAME RANK', 'scan DIR', 'include-path DIR' or 'map PREFIX LAYER'",
                path, lineno);
        }
    }
    fclose(f);
    if (!layers.n || !scans.n) die("%s: the map names no layer or no folder to scan", path);
}

/* ---- files ---------------------------------------------------------------------------------- */

static void scan_dir(const char *disk, const char *name, strvec *out_disk, strvec *out_name) {
    DIR *d = opendir(disk);
    if (!d) die("cannot open %s: %s", disk, strerror(errno));
    strvec entries = {0};
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        VEC_PUSH(entries, xstrdup(e->d_name));
    }
    closedir(d);
    sort(entries.at, entries.n, sizeof *entries.at, cmp_str);
    for (size_t i = 0; i < entries.n; i++) {
        char *sub_disk = path_join(disk, entries.at[i]), *sub_name = path_join(name, entries.at[i]);
        struct stat st;
        if (stat(sub_disk, &st) != 0) die("cannot stat %s", sub_disk);
        if (S_ISDIR(st.st_mode)) {
            scan_dir(sub_disk, sub_name, out_disk, out_name);
            free(sub_disk);
            free(sub_name);
        } else if (S_ISREG(st.st_mode)) {
            VEC_PUSH(*out_disk, sub_disk);
            VEC_PUSH(*out_name, sub_name);
        } else {
            free(sub_disk);
            free(sub_name);
        }
        free(entries.at[i]);
    }
    free(entries.at);
}

static void collect_files(void) {
    strvec disk = {0}, name = {0};
    for (size_t i = 0; i < scans.n; i++) {
        const char *s = scans.at[i];
        if (strncmp(s, "generated", 9) == 0 && (s[9] == '\0' || s[9] == '/')) {
            if (!gen_dir) continue; /* no generated folder given: its files are not checked */
            char *d = s[9] ? path_join(gen_dir, s + 10) : xstrdup(gen_dir);
            scan_dir(d, s, &disk, &name);
            free(d);
        } else {
            char *d = path_join(root, s);
            scan_dir(d, s, &disk, &name);
            free(d);
        }
    }
    int unmapped = 0;
    for (size_t i = 0; i < name.n; i++) {
        int l = layer_of(name.at[i]);
        if (l < 0) {
            fprintf(stderr, "ctorch_layers: no layer for %s (add a 'map' line to the map)\n", name.at[i]);
            unmapped++;
        }
        VEC_PUSH(files, ((file){name.at[i], disk.at[i], l}));
    }
    free(disk.at);
    free(name.at);
    if (unmapped) exit(2);
}

/* ---- edges ---------------------------------------------------------------------------------- */

static bool is_back(int from_file, int to_file) {
    int a = files.at[from_file].layer, b = files.at[to_file].layer;
    if (a == b) return false;
    return layers.at[a].rank <= layers.at[b].rank;
}

static void add_edge(int from, int to, int kind, const char *sym) {
    if (from == to) return;
    for (size_t i = 0; i < edges.n; i++) {
        edge *e = &edges.at[i];
        if (e->from == from && e->to == to && e->kind == kind &&
            ((!e->sym && !sym) || (e->sym && sym && strcmp(e->sym, sym) == 0)))
            return;
    }
    VEC_PUSH(edges, ((edge){from, to, kind, sym ? xstrdup(sym) : NULL, is_back(from, to), false}));
}

/* Resolves an include spelled `spelled` in file `f` to a scanned file, -1 if it is not one. */
static int resolve_include(const file *f, const char *spelled, bool quoted) {
    strvec candidates = {0};
    if (quoted) {
        const char *slash = strrchr(f->name, '/');
        if (slash) {
            char *dir = xrealloc(NULL, (size_t)(slash - f->name) + 1);
            memcpy(dir, f->name, (size_t)(slash - f->name));
            dir[slash - f->name] = '\0';
            VEC_PUSH(candidates, path_join(dir, spelled));
            free(dir);
        }
    }
    for (size_t i = 0; i < include_paths.n; i++) VEC_PUSH(candidates, path_join(include_paths.at[i], spelled));
    int found = -1;
    for (size_t i = 0; i < candidates.n; i++) {
        char *norm = found < 0 ? normalize(candidates.at[i]) : NULL;
        if (norm) {
            int idx = find_file(norm);
            if (idx >= 0 && is_file(files.at[idx].disk)) found = idx;
        }
        free(norm);
        free(candidates.at[i]);
    }
    free(candidates.at);
    return found;
}

static int n_unresolved = 0;

static void scan_includes(int fi) {
    const file *f = &files.at[fi];
    FILE *in = fopen(f->disk, "r");
    if (!in) die("cannot read %s: %s", f->disk, strerror(errno));
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != '#') continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "include", 7) != 0) continue;
        p += 7;
        while (*p == ' ' || *p == '\t') p++;
        char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
        if (!close) continue;
        const char *start = p + 1, *end = strchr(start, close);
        if (!end) continue;
        char spelled[1024];
        size_t n = (size_t)(end - start);
        if (n >= sizeof spelled) continue;
        memcpy(spelled, start, n);
        spelled[n] = '\0';
        int to = resolve_include(f, spelled, close == '"');
        if (to >= 0) {
            add_edge(fi, to, K_INCLUDE, NULL);
        } else if (close == '"') {
            fprintf(stderr, "ctorch_layers: note: %s includes \"%s\", which is not in the scanned tree\n", f->name, spelled);
            n_unresolved++;
        }
    }
    fclose(in);
}

typedef struct symdef {
    char *name;
    int file;
    char type;
} symdef;

typedef struct symref {
    char *name;
    int file;
} symref;

static int cmp_symdef(const void *a, const void *b) {
    return strcmp(((const symdef *)a)->name, ((const symdef *)b)->name);
}

/* The scanned .c file an object was compiled from: the longest file name the object's path
 * (without ".o") ends with, as CMake and make name objects (dir/src/core/tensor.c.o or
 * dir/tensor.o). */
static int file_of_object(const char *obj) {
    size_t n = strlen(obj);
    if (n < 3 || strcmp(obj + n - 2, ".o") != 0) return -1;
    char *stem = xrealloc(NULL, n - 1);
    memcpy(stem, obj, n - 2);
    stem[n - 2] = '\0';
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *name = files.at[i].name;
        char *c_name = NULL;
        if (!ends_with(name, ".c")) continue;
        /* "x.c.o" (CMake) names x.c; "x.o" (make) names x.c too */
        const char *cmp_name = name;
        if (!ends_with(stem, ".c")) {
            size_t ln = strlen(name);
            c_name = xstrdup(name);
            c_name[ln - 2] = '\0';
            cmp_name = c_name;
        }
        size_t ln = strlen(cmp_name), ls = strlen(stem);
        if (ls >= ln && strcmp(stem + ls - ln, cmp_name) == 0 && (ls == ln || stem[ls - ln - 1] == '/') && ln > best_len) {
            best = (int)i;
            best_len = ln;
        }
        free(c_name);
    }
    free(stem);
    return best;
}

static void shell_quote(char *out, size_t size, const char *s) {
    size_t j = 0;
    if (j + 1 < size) out[j++] = '\'';
    for (; *s && j + 5 < size; s++) {
        if (*s == '\'') {
            memcpy(out + j, "'\\''", 4);
            j += 4;
        } else {
            out[j++] = *s;
        }
    }
    if (j + 1 < size) out[j++] = '\'';
    out[j] = '\0';
}

static void scan_objects(char **objs, size_t n_objs, const char *nm) {
    VEC(symdef) defs = {0};
    VEC(symref) refs = {0};
    for (size_t o = 0; o < n_objs; o++) {
        int fi = file_of_object(objs[o]);
        if (fi < 0) die("object %s was not compiled from a scanned .c file", objs[o]);
        char qnm[4096], qobj[4096], cmd[8300];
        shell_quote(qnm, sizeof qnm, nm);
        shell_quote(qobj, sizeof qobj, objs[o]);
        snprintf(cmd, sizeof cmd, "%s -P %s", qnm, qobj);
        FILE *p = popen(cmd, "r");
        if (!p) die("cannot run %s", cmd);
        char line[4096];
        while (fgets(line, sizeof line, p)) {
            char *save = NULL, *name = strtok_r(line, " \t\n", &save), *type = strtok_r(NULL, " \t\n", &save);
            if (!name || !type || type[1]) continue;
            char t = type[0];
            if (t == 'U' || t == 'w' || t == 'v') VEC_PUSH(refs, ((symref){xstrdup(name), fi}));
            else if (isupper((unsigned char)t)) VEC_PUSH(defs, ((symdef){xstrdup(name), fi, t}));
        }
        if (pclose(p) != 0) die("'%s' failed", cmd);
    }
    sort(defs.at, defs.n, sizeof *defs.at, cmp_symdef);
    for (size_t i = 0; i < refs.n; i++) {
        symdef key = {refs.at[i].name, 0, 0};
        const symdef *d = search(&key, defs.at, defs.n, sizeof *defs.at, cmp_symdef);
        if (d) add_edge(refs.at[i].file, d->file, (d->type == 'T' || d->type == 'W') ? K_CALL : K_DATA, d->name);
        free(refs.at[i].name);
    }
    for (size_t i = 0; i < defs.n; i++) free(defs.at[i].name);
    free(defs.at);
    free(refs.at);
}

/* ---- cycles (Tarjan's strongly connected components, iteratively) ---------------------------- */

static VEC(intvec) sccs; /* each sorted by file name */

static int cmp_file_idx(const void *a, const void *b) {
    return strcmp(files.at[*(const int *)a].name, files.at[*(const int *)b].name);
}

static int cmp_scc(const void *a, const void *b) {
    return cmp_file_idx(&((const intvec *)a)->at[0], &((const intvec *)b)->at[0]);
}

static void find_cycles(void) {
    size_t n = files.n;
    intvec *succ = xrealloc(NULL, n * sizeof *succ);
    memset(succ, 0, n * sizeof *succ);
    for (size_t i = 0; i < edges.n; i++) {
        intvec *s = &succ[edges.at[i].from];
        bool dup = false;
        for (size_t j = 0; j < s->n; j++) dup |= s->at[j] == edges.at[i].to;
        if (!dup) VEC_PUSH(*s, edges.at[i].to);
    }
    int *index = xrealloc(NULL, n * sizeof *index), *low = xrealloc(NULL, n * sizeof *low);
    bool *on_stack = xrealloc(NULL, n * sizeof *on_stack);
    size_t *next_child = xrealloc(NULL, n * sizeof *next_child);
    for (size_t i = 0; i < n; i++) index[i] = -1, on_stack[i] = false, next_child[i] = 0;
    intvec stack = {0}, call = {0};
    int counter = 0;
    for (size_t root_v = 0; root_v < n; root_v++) {
        if (index[root_v] >= 0) continue;
        VEC_PUSH(call, (int)root_v);
        index[root_v] = low[root_v] = counter++;
        VEC_PUSH(stack, (int)root_v);
        on_stack[root_v] = true;
        while (call.n) {
            int v = call.at[call.n - 1];
            if (next_child[v] < succ[v].n) {
                int w = succ[v].at[next_child[v]++];
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    VEC_PUSH(stack, w);
                    on_stack[w] = true;
                    VEC_PUSH(call, w);
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            call.n--;
            if (call.n) {
                int parent = call.at[call.n - 1];
                if (low[v] < low[parent]) low[parent] = low[v];
            }
            if (low[v] == index[v]) {
                intvec comp = {0};
                int w;
                do {
                    w = stack.at[--stack.n];
                    on_stack[w] = false;
                    VEC_PUSH(comp, w);
                } while (w != v);
                if (comp.n > 1) {
                    sort(comp.at, comp.n, sizeof *comp.at, cmp_file_idx);
                    VEC_PUSH(sccs, comp);
                } else {
                    free(comp.at);
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++) free(succ[i].at);
    free(succ);
    free(index);
    free(low);
    free(on_stack);
    free(next_child);
    free(stack.at);
    free(call.at);
    sort(sccs.at, sccs.n, sizeof *sccs.at, cmp_scc);
}

/* ---- the allowlist ---------------------------------------------------------------------------- */

static char *edge_line(const edge *e) {
    const char *a = files.at[e->from].name, *b = files.at[e->to].name;
    size_t n = strlen(a) + strlen(b) + (e->sym ? strlen(e->sym) : 0) + 32;
    char *s = xrealloc(NULL, n);
    if (e->sym) snprintf(s, n, "%s %s -> %s %s", kind_names[e->kind], a, b, e->sym);
    else snprintf(s, n, "%s %s -> %s", kind_names[e->kind], a, b);
    return s;
}

static char *cycle_line(const intvec *c) {
    size_t n = 8;
    for (size_t i = 0; i < c->n; i++) n += strlen(files.at[c->at[i]].name) + 1;
    char *s = xrealloc(NULL, n);
    strcpy(s, "cycle");
    for (size_t i = 0; i < c->n; i++) {
        strcat(s, " ");
        strcat(s, files.at[c->at[i]].name);
    }
    return s;
}

static void read_allowlist(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read the allowlist %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) >= 0) {
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        allow_entry a = {0};
        size_t len = 0;
        char *norm = xrealloc(NULL, strlen(line) + 1);
        norm[0] = '\0';
        int nw = 0;
        for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save), nw++) {
            if (nw == 0) a.is_cycle = strcmp(t, "cycle") == 0;
            else if (a.is_cycle) VEC_PUSH(a.cycle_files, xstrdup(t));
            if (len) norm[len++] = ' ';
            size_t nt = strlen(t);
            memcpy(norm + len, t, nt + 1);
            len += nt;
        }
        if (nw == 0) {
            free(norm);
            continue;
        }
        sort(a.cycle_files.at, a.cycle_files.n, sizeof *a.cycle_files.at, cmp_str);
        a.line = norm;
        VEC_PUSH(allows, a);
    }
    free(line);
    fclose(f);
}

static bool allowed_edge(const char *line) {
    for (size_t i = 0; i < allows.n; i++)
        if (!allows.at[i].is_cycle && strcmp(allows.at[i].line, line) == 0) return allows.at[i].used = true;
    return false;
}

static bool allowed_cycle(const intvec *c) {
    bool ok = false;
    for (size_t i = 0; i < allows.n; i++) {
        allow_entry *a = &allows.at[i];
        if (!a->is_cycle) continue;
        size_t hit = 0;
        for (size_t j = 0; j < c->n; j++) {
            const char *name = files.at[c->at[j]].name;
            hit += search(&name, a->cycle_files.at, a->cycle_files.n, sizeof *a->cycle_files.at, cmp_str) != NULL;
        }
        if (hit == c->n) {
            a->used = ok = true;
            if (c->n == a->cycle_files.n) a->exact = true;
        }
    }
    return ok;
}

/* ---- reports ---------------------------------------------------------------------------------- */

static int cmp_layer_idx(int a, int b) {
    if (layers.at[a].rank != layers.at[b].rank) return layers.at[a].rank - layers.at[b].rank;
    return a - b;
}

static int cmp_edge(const void *pa, const void *pb) {
    const edge *a = pa, *b = pb;
    int c = cmp_layer_idx(files.at[a->from].layer, files.at[b->from].layer);
    if (!c) c = cmp_layer_idx(files.at[a->to].layer, files.at[b->to].layer);
    if (!c) c = strcmp(files.at[a->from].name, files.at[b->from].name);
    if (!c) c = strcmp(files.at[a->to].name, files.at[b->to].name);
    if (!c) c = a->kind - b->kind;
    if (!c) c = strcmp(a->sym ? a->sym : "", b->sym ? b->sym : "");
    return c;
}

static void print_report(FILE *out, bool with_status) {
    size_t nl = layers.n;
    /* layers in rank order */
    int *order = xrealloc(NULL, nl * sizeof *order);
    for (size_t i = 0; i < nl; i++) order[i] = (int)i;
    for (size_t i = 1; i < nl; i++)
        for (size_t j = i; j > 0 && cmp_layer_idx(order[j - 1], order[j]) > 0; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    size_t *per_layer = xrealloc(NULL, nl * sizeof *per_layer);
    memset(per_layer, 0, nl * sizeof *per_layer);
    for (size_t i = 0; i < files.n; i++) per_layer[files.at[i].layer]++;
    size_t count[3] = {0}, back[3] = {0};
    for (size_t i = 0; i < edges.n; i++) {
        count[edges.at[i].kind]++;
        if (edges.at[i].back) back[edges.at[i].kind]++;
    }
    fprintf(out, "Layers, lowest first (files; same rank = siblings that must not use each other):\n");
    for (size_t i = 0; i < nl; i++) {
        const layer *l = &layers.at[order[i]];
        fprintf(out, "  %d  %-10s %3zu file%s\n", l->rank, l->name, per_layer[order[i]], per_layer[order[i]] == 1 ? "" : "s");
    }
    fprintf(out, "\n%zu files; dependencies between files: %zu include, %zu call, %zu data.\n", files.n, count[K_INCLUDE],
            count[K_CALL], count[K_DATA]);

    /* the layer matrix: include/call+data edges from row to column */
    fprintf(out, "\nLayer to layer (file-level edges, include+symbol; '!' marks edges against the order):\n%-10s", "from\\to");
    for (size_t j = 0; j < nl; j++)
        if (per_layer[order[j]]) fprintf(out, " %9.9s", layers.at[order[j]].name);
    fputc('\n', out);
    for (size_t i = 0; i < nl; i++) {
        if (!per_layer[order[i]]) continue;
        fprintf(out, "%-10s", layers.at[order[i]].name);
        for (size_t j = 0; j < nl; j++) {
            if (!per_layer[order[j]]) continue;
            size_t ni = 0, ns = 0;
            for (size_t k = 0; k < edges.n; k++) {
                const edge *e = &edges.at[k];
                if (files.at[e->from].layer != order[i] || files.at[e->to].layer != order[j]) continue;
                if (e->kind == K_INCLUDE) ni++;
                else ns++;
            }
            char cell[32];
            if (ni + ns == 0) snprintf(cell, sizeof cell, ".");
            else snprintf(cell, sizeof cell, "%zu+%zu%s", ni, ns, (i != j && (layers.at[order[i]].rank <= layers.at[order[j]].rank)) ? "!" : "");
            fprintf(out, " %9s", cell);
        }
        fputc('\n', out);
    }

    size_t nback = back[0] + back[1] + back[2];
    fprintf(out, "\nEdges against the order: %zu (include %zu, call %zu, data %zu)\n", nback, back[K_INCLUDE], back[K_CALL],
            back[K_DATA]);
    int last_from = -1, last_to = -1;
    for (size_t i = 0; i < edges.n; i++) {
        const edge *e = &edges.at[i];
        if (!e->back) continue;
        int lf = files.at[e->from].layer, lt = files.at[e->to].layer;
        if (lf != last_from || lt != last_to) {
            fprintf(out, "  %s -> %s\n", layers.at[lf].name, layers.at[lt].name);
            last_from = lf;
            last_to = lt;
        }
        char *line = edge_line(e);
        if (with_status) fprintf(out, "    %-7s %s\n", e->allowed ? "[known]" : "[NEW]", line);
        else fprintf(out, "    %s\n", line);
        free(line);
    }

    fprintf(out, "\nFile-level cycles: %zu\n", sccs.n);
    for (size_t i = 0; i < sccs.n; i++) {
        const intvec *c = &sccs.at[i];
        fprintf(out, "  cycle of %zu files across", c->n);
        for (size_t j = 0; j < nl; j++) {
            bool has = false;
            for (size_t k = 0; k < c->n; k++) has |= files.at[c->at[k]].layer == order[j];
            if (has) fprintf(out, " %s", layers.at[order[j]].name);
        }
        fputs(":\n", out);
        char *line = cycle_line(c);
        if (with_status) fprintf(out, "    %-7s %s\n", allowed_cycle(c) ? "[known]" : "[NEW]", line);
        else fprintf(out, "    %s\n", line);
        free(line);
    }
    free(order);
    free(per_layer);
}

static void write_layer_dot(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write %s: %s", path, strerror(errno));
    fprintf(f, "// Generated by ctorch_layers: layers and the file-level edges between them.\n"
               "// Higher layers on top. Gray: along the order, labelled include+symbol edge counts;\n"
               "// red: against it.\n"
               "digraph layers {\n  node [shape=box, fontname=\"Helvetica\"];\n"
               "  edge [fontname=\"Helvetica\", fontsize=10];\n");
    int max_rank = 0;
    for (size_t i = 0; i < layers.n; i++)
        if (layers.at[i].rank > max_rank) max_rank = layers.at[i].rank;
    int prev_rank_layer = -1;
    for (int r = max_rank; r >= 0; r--) {
        int first = -1;
        fprintf(f, "  { rank=same;");
        for (size_t i = 0; i < layers.n; i++)
            if (layers.at[i].rank == r) {
                fprintf(f, " \"%s\";", layers.at[i].name);
                if (first < 0) first = (int)i;
            }
        fprintf(f, " }\n");
        /* an invisible edge keeps the ranks stacked in order */
        if (first >= 0 && prev_rank_layer >= 0)
            fprintf(f, "  \"%s\" -> \"%s\" [style=invis];\n", layers.at[prev_rank_layer].name, layers.at[first].name);
        if (first >= 0) prev_rank_layer = first;
    }
    for (size_t a = 0; a < layers.n; a++)
        for (size_t b = 0; b < layers.n; b++) {
            if (a == b) continue;
            size_t ni = 0, ns = 0;
            for (size_t k = 0; k < edges.n; k++) {
                const edge *e = &edges.at[k];
                if (files.at[e->from].layer != (int)a || files.at[e->to].layer != (int)b) continue;
                if (e->kind == K_INCLUDE) ni++;
                else ns++;
            }
            if (!ni && !ns) continue;
            bool against = layers.at[a].rank <= layers.at[b].rank;
            fprintf(f, "  \"%s\" -> \"%s\" [label=\"%zu+%zu\"%s];\n", layers.at[a].name, layers.at[b].name, ni, ns,
                    against ? ", color=red, fontcolor=red, penwidth=2, constraint=false" : ", color=gray40");
        }
    fprintf(f, "}\n");
    fclose(f);
}

static void write_files_dot(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write %s: %s", path, strerror(errno));
    bool *shown = xrealloc(NULL, files.n * sizeof *shown);
    memset(shown, 0, files.n * sizeof *shown);
    for (size_t k = 0; k < edges.n; k++)
        if (edges.at[k].back) shown[edges.at[k].from] = shown[edges.at[k].to] = true;
    fprintf(f, "// Generated by ctorch_layers: every edge against the order, between files grouped by layer\n"
               "// (lower layers at the bottom), labelled with the symbols used or #include.\n"
               "digraph back_edges {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
               "  edge [fontname=\"Helvetica\", fontsize=8];\n");
    for (size_t l = 0; l < layers.n; l++) {
        bool any = false;
        for (size_t i = 0; i < files.n; i++) any |= shown[i] && files.at[i].layer == (int)l;
        if (!any) continue;
        fprintf(f, "  subgraph \"cluster_%s\" {\n    label=\"%s (%d)\";\n", layers.at[l].name, layers.at[l].name, layers.at[l].rank);
        for (size_t i = 0; i < files.n; i++)
            if (shown[i] && files.at[i].layer == (int)l) fprintf(f, "    \"%s\";\n", files.at[i].name);
        fprintf(f, "  }\n");
    }
    /* one arrow per file pair, labelled with what is used */
    for (size_t a = 0; a < files.n; a++) {
        if (!shown[a]) continue;
        for (size_t b = 0; b < files.n; b++) {
            if (!shown[b] || a == b) continue;
            bool against = false;
            char label[2048] = "";
            size_t len = 0;
            for (size_t k = 0; k < edges.n; k++) {
                const edge *e = &edges.at[k];
                if (e->from != (int)a || e->to != (int)b) continue;
                if (!e->back) continue;
                against = true;
                const char *what = e->sym ? e->sym : "#include";
                if (len + strlen(what) + 4 < sizeof label) len += (size_t)snprintf(label + len, sizeof label - len, "%s%s", len ? "\\n" : "", what);
            }
            if (against)
                fprintf(f, "  \"%s\" -> \"%s\" [color=red, fontcolor=red, label=\"%s\"];\n", files.at[a].name,
                        files.at[b].name, label);
        }
    }
    fprintf(f, "}\n");
    fclose(f);
    free(shown);
}

/* ---- main ------------------------------------------------------------------------------------- */

static void usage(FILE *f) {
    fprintf(f, "usage: ctorch_layers --root DIR --map FILE [--gen DIR] [--objects-file FILE] [--nm PROG]\n"
               "                     [--allowlist FILE] [--print-allowlist] [--print-edges] [--dot FILE]\n"
               "                     [--files-dot FILE] [--text FILE] [OBJECT.o ...]\n"
               "Checks that every include and every symbol use between the files goes down the layers the map\n"
               "names, and that no files form a cycle. Exit 0: clean or only allowed violations; 1: violations\n"
               "(or allowlist entries that no longer occur); 2: bad usage or a file without a layer.\n");
}

int main(int argc, char **argv) {
    const char *map = NULL, *objects_file = NULL, *nm = "nm", *allowlist = NULL, *dot = NULL, *files_dot = NULL, *text = NULL;
    bool print_allow = false, print_edges = false;
    static const struct option opts[] = {
        {"root", required_argument, NULL, 'r'},         {"map", required_argument, NULL, 'm'},
        {"gen", required_argument, NULL, 'g'},          {"objects-file", required_argument, NULL, 'o'},
        {"nm", required_argument, NULL, 'n'},           {"allowlist", required_argument, NULL, 'a'},
        {"print-allowlist", no_argument, NULL, 'p'},    {"dot", required_argument, NULL, 'd'},
        {"files-dot", required_argument, NULL, 'f'},    {"text", required_argument, NULL, 't'},
        {"print-edges", no_argument, NULL, 'e'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    for (int c; (c = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
        switch (c) {
        case 'r': root = optarg; break;
        case 'm': map = optarg; break;
        case 'g': gen_dir = optarg; break;
        case 'o': objects_file = optarg; break;
        case 'n': nm = optarg; break;
        case 'a': allowlist = optarg; break;
        case 'p': print_allow = true; break;
        case 'e': print_edges = true; break;
        case 'd': dot = optarg; break;
        case 'f': files_dot = optarg; break;
        case 't': text = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!map) {
        usage(stderr);
        return 2;
    }
    read_map(map);
    collect_files();
    for (size_t i = 0; i < files.n; i++) scan_includes((int)i);

    for (int i = optind; i < argc; i++) VEC_PUSH(objects, xstrdup(argv[i]));
    if (objects_file) {
        FILE *f = fopen(objects_file, "r");
        if (!f) die("cannot read %s: %s", objects_file, strerror(errno));
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, f)) >= 0) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
            if (n) VEC_PUSH(objects, xstrdup(line));
        }
        free(line);
        fclose(f);
    }
    scan_objects(objects.at, objects.n, nm);
    sort(edges.at, edges.n, sizeof *edges.at, cmp_edge);
    find_cycles();

    if (print_edges) {
        for (size_t i = 0; i < edges.n; i++) {
            char *line = edge_line(&edges.at[i]);
            printf("%s%s\n", line, edges.at[i].back ? "   [against the order]" : "");
            free(line);
        }
        return 0;
    }
    if (print_allow) {
        for (size_t i = 0; i < edges.n; i++)
            if (edges.at[i].back) {
                char *line = edge_line(&edges.at[i]);
                printf("%s\n", line);
                free(line);
            }
        for (size_t i = 0; i < sccs.n; i++) {
            char *line = cycle_line(&sccs.at[i]);
            printf("%s\n", line);
            free(line);
        }
        return 0;
    }

    if (allowlist) read_allowlist(allowlist);
    size_t n_back = 0, n_new = 0, n_stale = 0;
    for (size_t i = 0; i < edges.n; i++) {
        edge *e = &edges.at[i];
        if (!e->back) continue;
        n_back++;
        char *line = edge_line(e);
        e->allowed = allowed_edge(line);
        free(line);
        if (!e->allowed) n_new++;
    }
    for (size_t i = 0; i < sccs.n; i++)
        if (!allowed_cycle(&sccs.at[i])) n_new++;

    print_report(stdout, allowlist != NULL);
    if (text) {
        FILE *f = fopen(text, "w");
        if (!f) die("cannot write %s: %s", text, strerror(errno));
        fprintf(f, "Generated by ctorch_layers from tools/layers/layers.txt.\n\n");
        print_report(f, false);
        fclose(f);
    }
    if (dot) write_layer_dot(dot);
    if (files_dot) write_files_dot(files_dot);

    if (allowlist) {
        for (size_t i = 0; i < allows.n; i++) {
            const allow_entry *a = &allows.at[i];
            if (a->used && (!a->is_cycle || a->exact)) continue;
            if (!n_stale++) printf("\nAllowlist entries the tree no longer has (delete or narrow them in %s):\n", allowlist);
            printf("  [STALE] %s\n", a->line);
            if (a->is_cycle && a->used) {
                /* the cycle shrank: say what it is now */
                for (size_t k = 0; k < sccs.n; k++) {
                    const intvec *c = &sccs.at[k];
                    size_t hit = 0;
                    for (size_t j = 0; j < c->n; j++) {
                        const char *name = files.at[c->at[j]].name;
                        hit += search(&name, a->cycle_files.at, a->cycle_files.n, sizeof *a->cycle_files.at, cmp_str) != NULL;
                    }
                    if (hit == c->n) {
                        char *line = cycle_line(c);
                        printf("          now: %s\n", line);
                        free(line);
                    }
                }
            }
        }
    }
    printf("\nSummary: %zu files, %zu edges against the order, %zu cycle%s", files.n, n_back, sccs.n, sccs.n == 1 ? "" : "s");
    if (allowlist) printf("; allowlist: %zu entries, %zu violations not in it, %zu entries no longer true", allows.n, n_new, n_stale);
    if (n_unresolved) printf("; %d includes outside the tree", n_unresolved);
    printf("\n");
    bool fail = allowlist ? (n_new || n_stale) : (n_back || sccs.n);
    printf("%s\n", fail ? "layering check: FAILED" : allowlist && n_back + sccs.n ? "layering check: ok (only known violations)" : "layering check: ok");
    return fail ? 1 : 0;
}
