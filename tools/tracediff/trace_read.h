/* Reading trace files (docs/trace-format.md) for `ctorch diff`: the header, then each record
 * reduced to what aligns it and a hash of what is compared, so that traces of millions of hops
 * can be held; the full record is read again from its offset when a difference is shown. */
#ifndef CT_TRACE_READ_H
#define CT_TRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctorch/json.h"

/* Which records are compared, and by what they are aligned. */
typedef enum ct_tr_view {
    CT_TR_VIEW_HOPS,  /* every hop: call/redispatch, op, overload, key */
    CT_TR_VIEW_CALLS, /* call hops only: op, overload, key */
    CT_TR_VIEW_MODE   /* what a dispatch mode sees: the hops at the Python key; op and overload */
} ct_tr_view;

const char *ct_tr_view_name(ct_tr_view v);

/* Fields of a hop that can be compared (bits). A dispatch-mode recording of PyTorch has only
 * some of them; two files are compared on the fields both have. */
enum {
    CT_TR_F_ARGS = 1 << 0,     /* each argument: key set, dtype, shape, stride, value */
    CT_TR_F_KERNEL = 1 << 1,   /* kernel and where */
    CT_TR_F_TLS = 1 << 2,      /* tls_included, tls_excluded */
    CT_TR_F_SETS = 1 << 3,     /* merged, dispatch */
    CT_TR_F_GRAD = 1 << 4,     /* grad_enabled */
    CT_TR_F_PHASE = 1 << 5,    /* phase */
    CT_TR_F_AUTOGRAD = 1 << 6, /* seq, node, backward_of (sequence numbers renumbered in order) */
    CT_TR_F_IDS = 1 << 7       /* tensor ids (renumbered in order of first sight); off by default */
};

typedef struct ct_tr_rec {
    long line;     /* 1-based line number in the file */
    long offset;   /* byte offset of the line */
    int depth;
    int align;     /* interned: what the record is aligned by */
    int label;     /* interned: "[call] aten::addmm  AutogradCPU" for display */
    uint64_t hash; /* of the compared fields */
} ct_tr_rec;

typedef struct ct_tr_strings ct_tr_strings; /* interned strings shared by both files */

typedef struct ct_tr_file {
    const char *path;
    FILE *f;
    cJSON *header;
    bool pytorch;       /* recorded from PyTorch (a dispatch mode) */
    bool mode_view;     /* the header's view is "dispatch_mode" */
    unsigned provides;  /* CT_TR_F_* this recorder writes */
    ct_tr_rec *recs;
    size_t n, cap;
    /* renumbering of sequence numbers and tensor ids, in order of first sight */
    struct ct_tr_numbering *seqs, *ids;
} ct_tr_file;

ct_tr_strings *ct_tr_strings_new(void);
void ct_tr_strings_free(ct_tr_strings *s);
const char *ct_tr_string(const ct_tr_strings *s, int id);

/* Opens path and reads its header. Returns 0, or -1 with a message in err (the caller exits
 * with status 2): unreadable file, empty file, a first line that is not a ctorch-trace header,
 * a schema version older or newer than CT_TRACE_SCHEMA_VERSION. */
int ct_tr_open(ct_tr_file *f, const char *path, char *err, size_t errsize);
/* Reads every record the view selects, comparing `fields`. 0, or -1 with a message (a line
 * that is not JSON, a hop without op or key, out of memory). */
int ct_tr_load(ct_tr_file *f, ct_tr_strings *s, ct_tr_view view, unsigned fields, char *err, size_t errsize);
/* The compared fields of record i as a JSON object (cJSON_Delete it), read again from the
 * file; NULL on failure. */
cJSON *ct_tr_details(ct_tr_file *f, size_t i, unsigned fields);
void ct_tr_close(ct_tr_file *f);

#endif
