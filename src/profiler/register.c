/* The profiler's registrations, run once by the start-up: the record_function operators'
 * kernels, as torch/csrc/profiler/standalone/record_function_ops.cpp registers them. */
#include "ops/builtin.h"
#include "dispatch/observe.h"
#include "profiler/profiler_impl.h"
#include "profiler/record.h"

void ct_profiler_register(void) {
    ct_range_observer_hooks.begin = ct_record_function_begin;
    ct_range_observer_hooks.begin_seq = ct_record_function_begin_seq;
    ct_range_observer_hooks.end = ct_record_function_end;
    ct_register_kernel(ct_builtin_ops[CT_OPID__record_function_enter_new], CT_KEY_CompositeImplicitAutograd,
                       ct_k_record_function_enter_new, CT_HERE);
    ct_register_kernel(ct_builtin_ops[CT_OPID__record_function_exit], CT_KEY_CompositeImplicitAutograd,
                       ct_k_record_function_exit, CT_HERE);
}
