/* The profiler's RecordFunction ranges (internal): user ranges, and what it installs as
 * ct_range_observer (dispatch/observe.h) for the autograd engine and the Python-key fallback.
 * Cheap no-ops while no profiler is recording on this thread. */
#ifndef CT_RECORD_H
#define CT_RECORD_H

#include <stdint.h>

#include "ctorch/dispatch.h"

/* Opens a range named `name`, which must live as long as the process (a literal), with the
 * given inputs (for record_shapes); `op` may be NULL. Returns a handle for
 * ct_record_function_end, or NULL when nothing records. */
void *ct_record_function_begin(const char *name, const ct_value *inputs, int n_inputs, const ct_op *op);
/* A backward range named prefix + name, with a sequence number and forward thread id. prefix is
 * NULL or lives as long as the process, and so does name (a node's name: a literal or an entry of
 * the derivatives table); the range's name is their concatenation, made once per pair. */
void *ct_record_function_begin_seq(const char *prefix, const char *name, const ct_value *inputs, int n_inputs,
                                   int64_t seq, uint64_t fwd_thread);
void ct_record_function_end(void *handle);

#endif
