/* The thread-local dispatcher state (core/tls.h). */
#include "core/tls.h"
#include "ctorch/testing.h"

/* Zero-initialised: PyTorch's defaults (Note [TLS stored XOR defaults]). */
_Thread_local ct_tls ct_tls_state;
atomic_int ct_global_observe;

void ct_testing_set_sequence_number(uint64_t next) { ct_tls_state.sequence_nr = next; }
