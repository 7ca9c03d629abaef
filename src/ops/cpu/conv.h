/* The convolution's argument checks, for the composites that decide before they call it (internal). */
#ifndef CT_OPS_CPU_CONV_H
#define CT_OPS_CPU_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/dispatch.h"

/* _convolution's checks (the weight's rank, groups, the lists, check_shape_forward) for an input
 * of rank indim and sizes isz: 0, or -1 with PyTorch's message. */
int ct_conv_forward_checks(int indim, const int64_t *isz, const ct_tensor *weight, const ct_tensor *bias, const ct_value *stride,
                           const ct_value *padding, const ct_value *dilation, bool transposed, const ct_value *output_padding, int64_t groups);

#endif
