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
 */
#ifndef CTORCH_TRACE_H
#define CTORCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
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

/* Starts collecting this thread's records (nested begin/end pairs are not allowed). */
CT_API int ct_trace_begin(void);
/* Stops collecting; *out receives an array to free with ct_free() and *n its length. */
CT_API int ct_trace_end(ct_dispatch_record **out, size_t *n);

/* Formats one record: PyTorch's one-line form (full == false) or the full decision. */
CT_API size_t ct_trace_format(const ct_dispatch_record *r, bool full, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_TRACE_H */
