/*
 * ctorch/trace.h - watching every dispatcher decision.
 *
 * CTORCH_SHOW_DISPATCH_TRACE=1 prints PyTorch's TORCH_SHOW_DISPATCH_TRACE format to stderr:
 *      [call] op=[aten::addmm], key=[AutogradCPU]
 *       [redispatch] op=[aten::addmm], key=[CPU]
 * (one leading space per nesting level, the counter being raised before printing).
 * CTORCH_SHOW_DISPATCH_TRACE=full prints, after each such line, the whole decision: each
 * tensor argument's key set, the TLS include/exclude sets, the merged set, the set after
 * fallthrough masking, the winning key and the kernel that ran (kernel, fallthrough skipped,
 * backend fallback, composite). The same records can be collected in memory with
 * ct_trace_begin()/ct_trace_end(), in any build, release included.
 *
 * Collecting keeps a ring buffer of compact records (56 bytes each, allocated once by
 * ct_trace_begin, CT_TRACE_DEFAULT_CAPACITY records unless ct_trace_set_capacity says
 * otherwise): memory stays bounded however long a collection runs, and when more hops happen
 * than the ring holds the oldest records are overwritten and counted (ct_trace_get_stats).
 * ct_trace_end hands out the retained records, oldest first, in the ct_dispatch_record form.
 */
#ifndef CTORCH_TRACE_H
#define CTORCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctorch/dispatch.h"
#include "ctorch/export.h"
#include "ctorch/keys.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CT_TRACE_MAX_ARGS 8

typedef enum ct_hop_kind { CT_HOP_CALL = 0, CT_HOP_REDISPATCH = 1 } ct_hop_kind;

/* One hop through the dispatcher. Pointers are borrowed (ops live for the process). */
typedef struct ct_dispatch_record {
    ct_hop_kind kind;
    int depth;                        /* nesting level, 1 for a top-level call */
    const ct_op *op;
    int n_tensor_args;                /* dispatch-relevant arguments seen (call only) */
    ct_keyset arg_keys[CT_TRACE_MAX_ARGS];
    int arg_index[CT_TRACE_MAX_ARGS]; /* schema position of each */
    ct_keyset tls_included;           /* call only */
    ct_keyset tls_excluded;           /* call only */
    ct_keyset merged;                 /* (args | included) - excluded; for a redispatch, the set given */
    ct_keyset dispatch;               /* merged & non-fallthrough keys: what the table is indexed by */
    ct_dispatch_key key;              /* the winning runtime key */
    ct_slot_kind slot;                /* how the slot was filled */
    const char *where;                /* the registration site of what ran */
} ct_dispatch_record;

/* Process-wide printing, as the environment variable sets it: 0 off, 1 PyTorch's format,
 * 2 PyTorch's format plus the full decision. */
CT_API void ct_trace_set_print(int level);
CT_API int ct_trace_print_level(void);
/* Where printing goes (stderr by default). Borrowed. */
CT_API void ct_trace_set_stream(FILE *f);

#define CT_TRACE_DEFAULT_CAPACITY ((size_t)1 << 16) /* records: 3.5 MiB of ring */
#define CT_TRACE_MAX_CAPACITY ((size_t)1 << 26)

/* Sets how many records this thread's next collection keeps (1..CT_TRACE_MAX_CAPACITY).
 * 0, or -1 (CT_ERR_VALUE) for a capacity out of range. */
CT_API int ct_trace_set_capacity(size_t records);
/* The capacity the next ct_trace_begin on this thread uses. */
CT_API size_t ct_trace_capacity(void);

/* Starts collecting this thread's records (nested begin/end pairs are not allowed): allocates
 * the ring. 0, or -1 with CT_ERR_RUNTIME (already collecting) or CT_ERR_NOMEM. */
CT_API int ct_trace_begin(void);
/* Stops collecting. When out is not NULL, *out (OUT) receives a new array of the retained
 * records, oldest first, to free with ct_free(), and *n (OUT, may be NULL) its length. Frees the
 * ring. 0, or -1 with CT_ERR_RUNTIME (not collecting) or CT_ERR_NOMEM (the array could not be
 * allocated: *out is NULL, *n is 0, the records are gone). */
CT_API int ct_trace_end(ct_dispatch_record **out, size_t *n);

/* What a collection kept and lost. */
typedef struct ct_trace_stats {
    size_t capacity;        /* records the ring holds */
    uint64_t recorded;      /* hops recorded since ct_trace_begin */
    size_t retained;        /* records held (at most capacity) */
    uint64_t overwritten;   /* oldest records overwritten because the ring was full */
    uint64_t key_sets_lost; /* key sets not kept because the collection saw more than 1024
                             * distinct ones (they read back as the empty set) */
} ct_trace_stats;
/* *out (OUT) receives the stats of this thread's running collection, or of the one that ended
 * last (all zero if none). 0, or -1 (CT_ERR_VALUE) when out is NULL. */
CT_API int ct_trace_get_stats(ct_trace_stats *out);

/* Formats one record: PyTorch's one-line form (full == false) or the full decision. */
CT_API size_t ct_trace_format(const ct_dispatch_record *r, bool full, char *buf, size_t size);

/* ---- trace files (docs/trace-format.md) ----
 *
 * Every hop of every thread streamed to one JSON Lines file: a header record, then one record
 * per hop with the decision, the arguments (key sets, dtypes, shapes, strides, scalar values,
 * tensor ids), the thread, a timestamp, the autograd sequence number, the backward node it ran
 * in and this thread's phase. Records pass through a buffer of fixed size and are written when
 * it fills, so a program of any length holds at most that buffer (and the record being
 * formatted). Tensor ids are numbers given on first sight; no tensor is retained.
 *
 * CTORCH_TRACE_FILE=path opens a trace file when the library starts (and closes it at exit);
 * the functions below do the same from a program. One trace file per process. */

#define CT_TRACE_SCHEMA "ctorch-trace"
/* Raised whenever a field changes meaning or a required field is added or removed. */
#define CT_TRACE_SCHEMA_VERSION 1

typedef struct ct_trace_file_options {
    const char *program;  /* what ran (header "program"); NULL: the process's command line */
    bool has_seed;        /* header "seed": the seed the program used, else null */
    uint64_t seed;
    size_t buffer_bytes;  /* the bounded buffer; 0 means 64 KiB; at least 4 KiB is used */
} ct_trace_file_options;

/* Opens (truncates) path and writes the header; from now on every hop of every thread is
 * recorded. opts may be NULL. Returns 0, or -1 with CT_ERR_RUNTIME if a trace file is
 * already open, CT_ERR_IO ("[Errno 2] No such file or directory: 'path'") if path cannot
 * be opened, CT_ERR_VALUE for a NULL path, CT_ERR_NOMEM. */
CT_API int ct_trace_file_open(const char *path, const ct_trace_file_options *opts);
/* Writes what is buffered and closes the file. Returns 0; -1 with CT_ERR_RUNTIME if none is
 * open, or CT_ERR_IO naming the file if any write failed (records after the failure are
 * lost; the file is closed all the same). */
CT_API int ct_trace_file_close(void);
CT_API bool ct_trace_file_is_open(void);

typedef struct ct_trace_file_stats {
    uint64_t records;         /* records written so far, the header included */
    uint64_t bytes;           /* bytes handed to the file (buffered ones included) */
    uint64_t flushes;         /* writes of the buffer to the file */
    size_t buffer_bytes;      /* the buffer's size */
    size_t buffer_high_water; /* the most the buffer ever held */
    size_t largest_record;    /* the longest record, in bytes */
} ct_trace_file_stats;
/* The open trace file's counters (zeros and -1 with CT_ERR_RUNTIME when none is open). */
CT_API int ct_trace_file_stats_get(ct_trace_file_stats *out);

/* This thread's phase marker, written into every hop record it makes ("forward",
 * "backward", "optimizer", or any name up to 31 bytes, truncated beyond); NULL clears it. */
CT_API void ct_trace_set_phase(const char *phase);
/* The current phase ("" when none). Borrowed, valid until the next ct_trace_set_phase. */
CT_API const char *ct_trace_phase(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_TRACE_H */
