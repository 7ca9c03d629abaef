/*
 * ctorch/testing.h - hooks for tests: allocation fault injection and live-object counts.
 */
#ifndef CTORCH_TESTING_H
#define CTORCH_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the n-th allocation from now on the calling thread fail (1 = the next one); 0 disables.
 * The first call also routes the cJSON library's allocations through ctorch's allocator
 * (cJSON_InitHooks, which is process-wide), so that they are counted and can be failed too: for
 * test programs only, and first called before other threads use cJSON. */
CT_API void ct_testing_fail_alloc_after(int64_t n);
/* Makes every single allocation of more than max_bytes on the calling thread fail as an
 * allocation the system refuses does (CT_ERR_NOMEM, PyTorch's "DefaultCPUAllocator: can't allocate
 * memory: you tried to allocate N bytes..."); 0 removes the limit. For fuzzing: a tensor of billions of
 * elements is then an error at once rather than seconds of filling it. */
CT_API void ct_testing_set_alloc_limit(size_t max_bytes);
/* Number of allocations the calling thread has asked for so far, failed ones included (to size a
 * fault-injection loop). */
CT_API int64_t ct_testing_alloc_count(void);
/* Tensors / storages / autograd nodes created minus destroyed on the calling thread (leak checks;
 * an object made on one thread and destroyed on another moves the count of both). */
CT_API int64_t ct_testing_live_tensors(void);
CT_API int64_t ct_testing_live_storages(void);
CT_API int64_t ct_testing_live_nodes(void);
/* cJSON blocks allocated minus freed on the calling thread since cJSON's allocations were routed
 * through the allocator (the first ct_testing_fail_alloc_after call): leak checks of JSON trees. */
CT_API int64_t ct_testing_live_json_blocks(void);
/* With on, the profiler's clocks on the calling thread read a counter that starts afresh and
 * advances 1000 ns per read (its wall clock reads a fixed time), so that a profiled run's
 * reports and Chrome trace are the same byte for byte on every run; off restores the real
 * clocks. For tests only. */
CT_API void ct_testing_profiler_fake_clock(bool on);
/* Sets the calling thread's next autograd sequence number (at::sequence_number, which counts
 * on over the process), so that two runs of the same program number their nodes alike and
 * their traces and reports can be compared byte for byte. For tests only. */
CT_API void ct_testing_set_sequence_number(uint64_t next);

#ifdef __cplusplus
}
#endif
#endif
