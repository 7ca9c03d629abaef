/* torch.nn.functional losses, public functions seen by function modes under their Python names. */
#include "dispatch/call_impl.h"
#include "ctorch/error.h"
#include "ctorch/nn.h"
#include "ctorch/ops_generated.h"
#include "dispatch/op_impl.h"
#include "ops/builtin.h"
#include "modes/function_impl.h"

/* F.cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction,
 * label_smoothing) -> torch._C._nn.cross_entropy_loss(...) */
static int cross_entropy_impl(ct_value *args, ct_value *rets) {
    /* checked: a function mode's handler may hand on values of its own */
    const ct_op *op = ct_builtin(CT_OPID_cross_entropy_loss);
    if (!op) return ct_builtin_not_started(CT_OPID_cross_entropy_loss);
    return ct_call(op, args, rets);
}

static const ct_function cross_entropy_fn = {"cross_entropy", NULL, cross_entropy_impl, 6, 1};

ct_tensor *ct_cross_entropy(ct_tensor *input, ct_tensor *target, ct_tensor *weight, int64_t ignore_index,
                            ct_reduction reduction, double label_smoothing) {
    if (!input || !target) {
        ct_error_set(CT_ERR_TYPE, "cross_entropy_loss(): argument '%s' (position %d) must be Tensor, not NoneType",
                     input ? "target" : "input", input ? 2 : 1);
        return NULL;
    }
    if ((int)reduction < 0 || (int)reduction > 2) {
        ct_error_set(CT_ERR_VALUE, "%d is not a valid value for reduction", (int)reduction);
        return NULL;
    }
    ct_value a[6] = {ct_tensor_value(input), ct_tensor_value(target), ct_tensor_value(weight), ct_int(reduction),
                     ct_int(ignore_index), ct_double(label_smoothing)};
    ct_value r[1] = {ct_none()};
    if (ct_function_invoke(&cross_entropy_fn, a, r) != 0) return NULL;
    return r[0].u.t;
}
