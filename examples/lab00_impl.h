/* Lab 00's internals shared by its files (lab00.c: the parts; lab00_util.c, lab00_reference.c,
 * lab00_compare.c, lab00_report.c, lab00_publish.c). Not part of the example's interface
 * (lab00.h). */
#ifndef CT_EXAMPLE_LAB00_IMPL_H
#define CT_EXAMPLE_LAB00_IMPL_H

#include "lab00.h"
#include "files.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/json.h"
#include "ctorch/mode.h"
#include "ctorch/profiler.h"
#include "ctorch/trace.h"
#include "lab00_checks.h"
#include "render.h"
#include "trace_diff.h"
#include "trace_read.h"
#include "ctorch/file_set.h"

#define WARMUP_RUNS 2

/* ---- small helpers ------------------------------------------------------------------------ */

/* A growing text (open_memstream). */
typedef struct text {
    char *buf;
    size_t len;
    FILE *f;
} text;

/* A captured dispatch-mode log: the op names, in order. */
typedef struct oplog {
    char **names;
    size_t n;
} oplog;

/* A collected decision trace. */
typedef struct trace {
    ct_dispatch_record *r;
    size_t n;
} trace;

/* ---- the profiler's event tree ("  " per depth, name, "  " and the input shapes) ---------- */

typedef struct tree_line {
    int depth;
    char name[192];
    char shapes[192];
} tree_line;

typedef struct tree {
    tree_line *l;
    size_t n;
} tree;

/* ---- PyTorch's recordings of this lab, read when the report is written -------------------- */

typedef struct reference {
    char dir[CT_EXAMPLE_PATH_MAX];
    char *lab;  /* lab00.out */
    char *keys; /* key_sets_and_modes.out */
    bool have_seed;
    unsigned long long lab_seed; /* the torch.manual_seed(N) of lab00.py, which lab00.out ran */
    char rec_dir[1024];
    cJSON *rec; /* lab00_report.json, the project's recording of what lab00.out lacks */
} reference;

/* ---- the lab ------------------------------------------------------------------------------ */

#define MAX_FILES 12

typedef struct lab {
    uint64_t seed;
    bool own_generator; /* draw from a generator of the lab's own instead of the default one */
    const char *out_dir; /* where the parts write: a staging folder inside the output folder */
    reference ref;
    ct_tensor *x, *W, *b, *y;
    /* files written into out_dir, in order */
    const char *files[MAX_FILES];
    int nfiles;
    /* A */
    char y_size[64], y_grad_fn[128], y_node[64], y_row[256];
    double y_vals[4];
    uint64_t y_seq;
    bool have_node;
    char node_op[96];   /* the op whose autograd kernel made y.grad_fn, from linear.jsonl */
    char node_key[64];
    bool traced;        /* linear.jsonl and addmm.jsonl were written */
    char trace_note[512];
    /* B */
    ct_keyset ks_x, ks_x_detached, ks_f16, ks_f32, ks_i64, ks_nograd, ks_infer;
    ct_keyset tls_default_in, tls_default_ex, tls_nograd_in, tls_nograd_ex, tls_infer_in, tls_infer_ex;
    bool nograd_grad_enabled; /* torch.is_grad_enabled() inside no_grad */
    /* C */
    oplog linear_log;
    char **fn_names;
    size_t fn_n;
    trace linear_trace, linear_trace_mode;
    /* D */
    oplog addmm_T_log, addmm_pre_log;
    char *diff_text;
    int diff_rc;
    ct_diff_summary diff_sum;
    char diff_err[512];
    /* E */
    char *table, *table_shapes, *table_all, *table_shapes_all, *prof_tree;
    int64_t prof_events;
    double prof_overhead_ns;
    bool chrome_written, stacks_written;
    char chrome_err[512];
    ct_tensor *wt;   /* D: W.T made before the mode */
    ct_tensor *h[3]; /* stretch: float16 copies of x, W, b */
    /* stretch */
    ct_keyset ks_half;
    oplog half_log, nograd_log, infer_log, matmul_log, backward_log;
    trace nograd_trace, infer_trace;
    bool nograd_has_grad_fn;
    double matmul_max_diff;
    bool matmul_compared;
    /* the graph */
    char *dot;
    int render_rc;
    char render_why[512];
    FILE *err;     /* where a failed step is named (may be NULL) */
    bool draw_svg; /* run Graphviz on linear_graph.dot */
} lab;

/* The room a name in the output folder takes after the folder's own: the staging folder
 * (".lab00.XXXXXX"), the slash, and the longest name the lab writes (linear_graph.svg; 40
 * leaves room to grow), checked when the lab starts so that out_path never cuts one short. */
#define OUT_NAME_ROOM (sizeof "/.lab00.XXXXXX/" - 1 + 40)

/* the same for the reference folder: its longest name is /key_sets_and_modes.out */
#define REFERENCE_NAME_ROOM (sizeof "/key_sets_and_modes.out" - 1)

#define NEED(p)                                                                                   \
    do {                                                                                          \
        if (!(p)) {                                                                               \
            if (L->err) fprintf(L->err, "ctorch lab00: %s failed: %s\n", #p, ct_error_message()); \
            goto fail;                                                                            \
        }                                                                                         \
    } while (0)

/* The route of a trace's first call of op: the call, then every redispatch of the same op one
 * level further down, to the kernel that finally ran (the end of the chain, which made the
 * output). */
#define ROUTE_MAX 8

typedef struct route {
    long call;                      /* -1: the op was not called */
    long hop[ROUTE_MAX];            /* the redispatches, in order */
    int nhops;
    const char *call_key;
    char dispatch[512];             /* the key set the call was indexed by */
    char passed[512];               /* the key set the first redispatch got */
    ct_keyset passed_ks;
    long last;                      /* the hop whose kernel ran last: the call itself or the last redispatch */
} route;

/* ---- the run against PyTorch's recordings -------------------------------------------------- */

/* What kinds of fact the report compares with PyTorch; the Versions line sums them up. */
enum { CMP_OPS, CMP_KEYS, CMP_NODES, CMP_TABLES, CMP_INPUTS, CMP_SIZE, CMP_VALUES, CMP_COUNT };

typedef struct tally {
    int same, total;
    char differ[2048]; /* what differed, "; "-separated */
    char why_not[256]; /* why nothing was compared ("" when something was) */
} tally;

/* one key-set printout of Part B and PyTorch's line for it */
typedef struct ks_item {
    const char *label;
    char mine[1024];
    char rec[1024];
    int cmp; /* 1 the same, 0 different, -1 not recorded */
} ks_item;

#define KS_ITEMS 8

/* Part A against lab00.out's first lines */
typedef struct out_cmp {
    bool have;            /* the recording printed y.shape, y.grad_fn and y[0,:4] */
    char size[128];       /* PyTorch's "torch.Size([2, 600])" */
    char node[96];        /* PyTorch's node name */
    bool size_same, node_same;
    bool values_compared; /* the recording's seed is this run's */
    int nv;
    double worst;         /* the largest relative difference of the first nv values */
} out_cmp;

typedef struct checks {
    bool any;           /* some recording was read */
    tally t[CMP_COUNT];
    out_cmp out;
    ks_item ks[KS_ITEMS];
    bool graph_compared;
    int graph_same, graph_nodes;
    char graph_diff[2048];
    int ntables;        /* recorded tables compared (0, 1 or 2) */
    int rows, rows_same;
    bool titles_same[2];
    char rows_diff[2048];
} checks;

extern const char *const lab00_cmp_what[CMP_COUNT];

/* lab00_util.c */
int lab00_text_open(text *t);
char *lab00_text_close(text *t);
int lab00_oplog_take(oplog *l, ct_op_logger *lg);
void lab00_oplog_free(oplog *l);
bool lab00_oplog_has(const oplog *l, const char *name);
size_t lab00_oplog_count(const oplog *l, const char *name);
void lab00_oplog_print_list(FILE *f, const oplog *l);
char *lab00_oplog_list_string(const oplog *l);
void lab00_oplog_print_lines(FILE *f, const oplog *l);
void lab00_short_name(const char *n, char *buf, size_t size);
void lab00_oplog_print_plus(FILE *f, const oplog *l);
void lab00_trace_print(FILE *f, const trace *t, bool full);
long lab00_trace_find(const trace *t, size_t from, ct_hop_kind kind, const char *name);
void lab00_keys_list(ct_keyset ks, char *buf, size_t size);
ct_keyset lab00_ks_minus(ct_keyset a, ct_keyset b);
bool lab00_ks_empty_funct(ct_keyset ks);
int lab00_table_rows_named(FILE *f, const char *table, const char *name);
void lab00_table_header(FILE *f, const char *table);
void lab00_tree_parse(tree *t, const char *s);
long lab00_tree_find(const tree *t, size_t from, const char *name, int depth);
int lab00_tree_children(FILE *f, const tree *t, long i);
bool lab00_mm_product(const char *shapes, char *buf, size_t size);

/* lab00_reference.c */
int lab00_reference_load(reference *R, const char *dir, const char *rec_dir);
void lab00_reference_free(reference *R);
bool lab00_ref_after(const char *txt, const char *prefix, char *buf, size_t size);
bool lab00_ref_keyset(const reference *R, int k, char *buf, size_t size);

/* lab00_compare.c */
route lab00_route_of(const trace *t, const char *op);
int lab00_compare_run(const lab *L, checks *C);
void lab00_versions_line(FILE *f, const checks *C);

/* lab00_report.c */
char *lab00_make_trace_log(const lab *L);
int lab00_ref_list_cmp(const char *txt, const char *prefix, const char *mine, char *rec, size_t size);
char *lab00_fn_list_string(const lab *L);
char *lab00_make_report(const lab *L, const char *timestamp, const char *command);
char *lab00_make_manifest(const lab *L, const char *timestamp, const char *command);

/* lab00_publish.c */
void lab00_stage_remove(const char *stage);
int lab00_publish(const lab *L, const char *out_dir);

/* lab00.c */
void lab00_out_path(const lab *L, const char *name, char *buf, size_t size);

#endif
