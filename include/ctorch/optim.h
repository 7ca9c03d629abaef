/*
 * ctorch/optim.h - optimizers (torch.optim.SGD, torch.optim.AdamW).
 *
 * step() runs like PyTorch's: under no_grad, inside a record_function range named
 * "Optimizer.step#SGD.step" / "Optimizer.step#AdamW.step" (so a dispatch mode logs
 * profiler._record_function_enter_new and profiler._record_function_exit around the updates),
 * with the single-tensor (for-loop) implementation PyTorch picks on the CPU (foreach and fused
 * are CUDA defaults; see docs/minigpt.md). zero_grad() opens "Optimizer.zero_grad#X.zero_grad".
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

/* torch.optim.AdamW's options; ct_adamw_defaults() gives PyTorch's: lr 1e-3, betas (0.9, 0.999),
 * eps 1e-8, weight_decay 1e-2, amsgrad and maximize off. */
typedef struct ct_adamw_options {
    double lr;
    double beta1, beta2;
    double eps;
    double weight_decay;
    bool amsgrad;
    bool maximize;
} ct_adamw_options;

CT_API ct_adamw_options ct_adamw_defaults(void);

/* One parameter group: its parameters (borrowed; the optimizer retains them) and its options
 * (start from the constructor's and change what the group overrides, as a group dict does). */
typedef struct ct_adamw_group {
    ct_tensor *const *params;
    int n;
    ct_adamw_options options;
} ct_adamw_group;

/* torch.optim.AdamW(params, lr, betas, eps, weight_decay, amsgrad, maximize=...): the options
 * are checked as AdamW.__init__ checks them (ValueError "Invalid learning rate: -0.1", ...),
 * then the parameters as Optimizer.__init__ does. NULL with the error. */
CT_API ct_optimizer *ct_adamw_new(ct_tensor *const *params, int n, ct_adamw_options options);
/* torch.optim.AdamW([{"params": ..., "weight_decay": ...}, ...], **options): `options` are the
 * constructor's (the ones checked); each group carries its own. */
CT_API ct_optimizer *ct_adamw_new_groups(const ct_adamw_group *groups, int ngroups, ct_adamw_options options);
/* len(optimizer.param_groups) */
CT_API int ct_optimizer_num_groups(const ct_optimizer *opt);

/* torch.optim.SGD(params, ...): NULL with PyTorch's ValueError for bad options or a non-leaf
 * parameter ("can't optimize a non-leaf Tensor"). */
CT_API ct_optimizer *ct_sgd_new(ct_tensor *const *params, int n, ct_sgd_options options);
/* SGD's numbers as the caller's language holds them, each a ct_int or a ct_double: PyTorch's
 * update passes them on as they are (alpha=1 - dampening is an int for an int dampening, and
 * an int momentum is an integer wrapped number), which a dispatch mode sees. */
typedef struct ct_sgd_numbers {
    ct_scalar lr, momentum, dampening, weight_decay;
    bool nesterov, maximize;
} ct_sgd_numbers;

/* torch.optim.sgd.sgd, the functional form of SGD's update (the for-loop implementation) over n
 * parameters with their gradients (not NULL), as SGD.step runs it for one group, with no range
 * and no grad-mode change of its own. momentum_buffers (n entries; may be NULL when the
 * momentum is 0) are the parameters' state["momentum_buffer"]: a NULL entry gets a new
 * buffer, which the caller owns. The numbers are not checked (ct_sgd_new checks them). 0 or -1
 * (the parameters before the failing one are updated, as in PyTorch). */
CT_API int ct_sgd_update(ct_tensor *const *params, ct_tensor *const *grads, ct_tensor **momentum_buffers, int n,
                         const ct_sgd_numbers *numbers);
/* optimizer.step(). Parameters without a gradient are skipped. 0 or -1. */
CT_API int ct_optimizer_step(ct_optimizer *opt);
/* optimizer.zero_grad(set_to_none). 0 or -1. */
CT_API int ct_optimizer_zero_grad(ct_optimizer *opt, bool set_to_none);
CT_API void ct_optimizer_free(ct_optimizer *opt);

#ifdef __cplusplus
}
#endif
#endif
