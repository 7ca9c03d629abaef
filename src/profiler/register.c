/* The profiler's registrations, run once by the start-up: the record_function operators'
 * kernels, as torch/csrc/profiler/standalone/record_function_ops.cpp registers them. */
#include "ops/builtin.h"
#include "profiler/profiler_impl.h"

void ct_profiler_register(void) {
    ct_register_kernel(ct_builtin_ops[CT_OPID__record_function_enter_new], CT_KEY_CompositeImplicitAutograd,
                       ct_k_record_function_enter_new, "src/profiler/register.c (record_function_ops)");
    ct_register_kernel(ct_builtin_ops[CT_OPID__record_function_exit], CT_KEY_CompositeImplicitAutograd,
                       ct_k_record_function_exit, "src/profiler/register.c (record_function_ops)");
}
