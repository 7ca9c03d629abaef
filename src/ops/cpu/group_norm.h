/* group norm's input checks, shared by native_group_norm and the group_norm composite (internal). */
#ifndef CT_OPS_CPU_GROUP_NORM_H
#define CT_OPS_CPU_GROUP_NORM_H

#include "core/tensor_impl.h"

/* check_group_norm_inputs(input, weight, bias, C, num_groups): 0, or -1 with PyTorch 2.6's message */
int ct_group_norm_check_inputs(const ct_tensor *input, const ct_tensor *weight, const ct_tensor *bias, int64_t C, int64_t group);

#endif
