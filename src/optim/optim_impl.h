/* The optimizer object shared by SGD and AdamW (internal): torch.optim.Optimizer's param
 * groups, per-parameter state and the step / zero_grad wrappers. */
#ifndef CT_OPTIM_IMPL_H
#define CT_OPTIM_IMPL_H

#include "ctorch/optim.h"

typedef enum { CT_OPT_SGD, CT_OPT_ADAMW } ct_opt_kind;

typedef struct ct_param_state {
    ct_tensor *momentum_buffer; /* SGD */
    ct_tensor *step;            /* AdamW: state["step"], a 0-dim float tensor */
    ct_tensor *exp_avg, *exp_avg_sq, *max_exp_avg_sq;
} ct_param_state;

typedef struct ct_opt_group {
    int n;
    ct_tensor **params;        /* owned references */
    ct_param_state *state;     /* one per parameter */
    ct_sgd_options sgd;
    ct_adamw_options adamw;
} ct_opt_group;

/* The update of one group (under no_grad, inside the step range). 0 or -1. */
typedef int (*ct_opt_step_group_fn)(ct_opt_group *g);

struct ct_optimizer {
    ct_opt_kind kind;
    ct_opt_step_group_fn step_group; /* the algorithm's own file provides it */
    const char *class_name;    /* "SGD", "AdamW" */
    /* the record_function names of step and zero_grad ("Optimizer.step#SGD.step"): PyTorch
     * formats them on each call, ctorch once, as the class cannot change */
    char step_range[96], zero_grad_range[96];
    int ngroups;
    ct_opt_group *groups;
};

/* Validates the parameters of every group (leaf tensors, not NULL, no duplicates, not empty)
 * and builds the optimizer with its groups. NULL with PyTorch's error. */
ct_optimizer *ct_optimizer_new_groups(ct_opt_kind kind, ct_opt_step_group_fn step_group, const char *class_name,
                                      int ngroups, ct_tensor *const *const *params, const int *counts);

#endif
