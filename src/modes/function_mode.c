/* Function modes (TorchFunctionMode): see public calls before the dispatcher. */
#include "ops/api_call.h"

int ct_function_mode_call_op(const ct_op *op, ct_value *args, ct_value *rets) { return ct_call(op, args, rets); }
