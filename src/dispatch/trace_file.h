/* The trace-file writer's hooks into the rest of the library (internal).
 *
 * The writer sits in the dispatch layer. What it needs from layers above reaches it through
 * the dispatcher's own thread state, never by a call upwards: the autograd sequence number
 * lives in ct_tls (core/tls.h), and the backward node being run is set by the engine
 * through ct_trace_node_enter. */
#ifndef CT_TRACE_FILE_H
#define CT_TRACE_FILE_H

#include <stdint.h>

#include "ctorch/trace.h"

/* Writes one hop (the dispatcher's emit point; args are the hop's boxed arguments). */
void ct_trace_file_hop(const ct_dispatch_record *r, const ct_value *args);

/* Writes a hop that reached a key's handler without the dispatcher: PyTorch's
 * PyInterpreter::detach, which shallow_copy_and_detach calls, hands aten::detach straight to
 * the current dispatch mode (or the tensor's subclass). The record has "hop": "direct", the
 * key, no key sets; `where` says what called it. */
void ct_trace_file_direct(const ct_op *op, const ct_value *args, ct_dispatch_key key, const char *where);

/* Opens the file named by CTORCH_TRACE_FILE, if set (at start-up), and closes it at exit.
 * A file that cannot be opened is reported on stderr; the program runs on. */
void ct_trace_file_open_from_env(void);

/* The backward node this thread is running (the engine sets it around a node's formula), so
 * that the hops the formula makes name the node and the sequence number of the forward op
 * that created it. LIFO; the scope saves what it replaces. */
typedef struct ct_trace_node_scope {
    const char *prev_name;
    uint64_t prev_seq;
    int prev_has_seq;
} ct_trace_node_scope;
void ct_trace_node_enter(ct_trace_node_scope *s, const char *node_name, uint64_t seq, int has_seq);
void ct_trace_node_exit(const ct_trace_node_scope *s);

#endif
