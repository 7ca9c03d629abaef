/*
 * ctorch/optim.h - optimizers (torch.optim.SGD).
 *
 * step() runs like PyTorch's: under no_grad, inside a record_function range named
 * "Optimizer.step#SGD.step" (so a dispatch mode logs profiler._record_function_enter_new and
 * profiler._record_function_exit around the updates), with the single-tensor (for-loop)
 * implementation PyTorch picks on the CPU: for the plain case one add_ per parameter.
 *
 * Ownership: the optimizer retains its parameters; free it with ct_optimizer_free.
 */
#ifndef CTORCH_OPTIM_H
#define CTORCH_OPTIM_H

#include <stdbool.h>

#include "ctorch/export.h"
#include "ctorch/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_sgd_options {
    double lr;
    double momentum;
    double dampening;
    double weight_decay;
    bool nesterov;
    bool maximize;
} ct_sgd_options;

/* SGD(params, lr=lr): every other option at PyTorch's default. */
CT_API ct_sgd_options ct_sgd_defaults(double lr);

typedef struct ct_optimizer ct_optimizer;

/* torch.optim.SGD(params, ...): NULL with PyTorch's ValueError for bad options or a non-leaf
 * parameter ("can't optimize a non-leaf Tensor"). */
CT_API ct_optimizer *ct_sgd_new(ct_tensor *const *params, int n, ct_sgd_options options);
/* optimizer.step(). Parameters without a gradient are skipped. 0 or -1. */
CT_API int ct_optimizer_step(ct_optimizer *opt);
/* optimizer.zero_grad(set_to_none). 0 or -1. */
CT_API int ct_optimizer_zero_grad(ct_optimizer *opt, bool set_to_none);
CT_API void ct_optimizer_free(ct_optimizer *opt);

#ifdef __cplusplus
}
#endif
#endif
