/* torch.optim.Optimizer (torch/optim/optimizer.py): param groups, the "Optimizer.step#X.step"
 * and "Optimizer.zero_grad#X.zero_grad" record_function ranges, step under no_grad
 * (_use_grad_for_differentiable), zero_grad. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/profiler.h"
#include "optim/optim_impl.h"

static void free_groups(ct_opt_group *gs, int n) {
    for (int k = 0; gs && k < n; k++) {
        ct_opt_group *g = &gs[k];
        for (int i = 0; i < g->n; i++) {
            ct_tensor_release(g->params ? g->params[i] : NULL);
            if (g->state) {
                ct_tensor_release(g->state[i].momentum_buffer);
                ct_tensor_release(g->state[i].step);
                ct_tensor_release(g->state[i].exp_avg);
                ct_tensor_release(g->state[i].exp_avg_sq);
                ct_tensor_release(g->state[i].max_exp_avg_sq);
            }
        }
        ct_free(g->params);
        ct_free(g->state);
    }
    ct_free(gs);
}

ct_optimizer *ct_optimizer_new_groups(ct_opt_kind kind, ct_opt_step_group_fn step_group, const char *class_name,
                                      int ngroups, ct_tensor *const *const *params, const int *counts) {
    int total = 0;
    for (int k = 0; k < ngroups; k++) total += counts[k] > 0 ? counts[k] : 0;
    if (ngroups <= 0 || total == 0) {
        ct_error_set(CT_ERR_VALUE, "optimizer got an empty parameter list");
        return NULL;
    }
    for (int k = 0; k < ngroups; k++) {
        if (counts[k] > 0 && !params[k]) {
            ct_error_set(CT_ERR_VALUE, "optimizer: parameter group %d has no parameter array", k);
            return NULL;
        }
        for (int i = 0; i < counts[k]; i++) {
            ct_tensor *p = params[k][i];
            if (!p) {
                ct_error_set(CT_ERR_TYPE, "optimizer can only optimize Tensors, but one of the params is NoneType");
                return NULL;
            }
            if (!ct_tensor_is_leaf(p)) {
                ct_error_set(CT_ERR_VALUE, "can't optimize a non-leaf Tensor");
                return NULL;
            }
            /* add_param_group: a parameter in two groups */
            for (int k2 = 0; k2 <= k; k2++)
                for (int j = 0; j < (k2 == k ? i : counts[k2]); j++)
                    if (params[k2][j] == p) {
                        if (k2 == k) continue; /* PyTorch warns about duplicates within a group */
                        ct_error_set(CT_ERR_VALUE, "some parameters appear in more than one parameter group");
                        return NULL;
                    }
        }
    }
    ct_optimizer *opt = ct_calloc(1, sizeof *opt);
    if (!opt) return NULL;
    opt->kind = kind;
    opt->step_group = step_group;
    opt->class_name = class_name;
    snprintf(opt->step_range, sizeof opt->step_range, "Optimizer.step#%s.step", class_name);
    snprintf(opt->zero_grad_range, sizeof opt->zero_grad_range, "Optimizer.zero_grad#%s.zero_grad", class_name);
    opt->groups = ct_calloc((size_t)ngroups, sizeof *opt->groups);
    if (!opt->groups) {
        ct_free(opt);
        return NULL;
    }
    opt->ngroups = ngroups;
    for (int k = 0; k < ngroups; k++) {
        ct_opt_group *g = &opt->groups[k];
        int n = counts[k] > 0 ? counts[k] : 0;
        g->params = ct_calloc((size_t)(n ? n : 1), sizeof *g->params);
        g->state = ct_calloc((size_t)(n ? n : 1), sizeof *g->state);
        if (!g->params || !g->state) {
            ct_optimizer_free(opt);
            return NULL;
        }
        g->n = n;
        for (int i = 0; i < n; i++) g->params[i] = ct_tensor_retain(params[k][i]);
    }
    return opt;
}

void ct_optimizer_free(ct_optimizer *opt) {
    if (!opt) return;
    free_groups(opt->groups, opt->ngroups);
    ct_free(opt);
}

int ct_optimizer_step(ct_optimizer *opt) {
    if (!opt) return ct_error_set(CT_ERR_VALUE, "ct_optimizer_step: optimizer is NULL");
    /* Optimizer.profile_hook_step: record_function("Optimizer.step#<Class>.step"), then the step
     * itself under no_grad (_use_grad_for_differentiable) */
    ct_record_function *rf = ct_record_function_enter(opt->step_range);
    if (!rf) return -1;
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int rc = 0;
    for (int k = 0; k < opt->ngroups && rc == 0; k++)
        rc = opt->step_group(&opt->groups[k]);
    ct_grad_mode_exit(&g);
    if (ct_record_function_exit(rf) != 0) rc = -1;
    return rc;
}

int ct_optimizer_zero_grad(ct_optimizer *opt, bool set_to_none) {
    if (!opt) return ct_error_set(CT_ERR_VALUE, "ct_optimizer_zero_grad: optimizer is NULL");
    ct_record_function *rf = ct_record_function_enter(opt->zero_grad_range);
    if (!rf) return -1;
    int rc = 0;
    for (int k = 0; k < opt->ngroups && rc == 0; k++)
        for (int i = 0; i < opt->groups[k].n && rc == 0; i++) {
            ct_tensor *p = opt->groups[k].params[i];
            ct_tensor *gr = ct_tensor_grad(p);
            if (!gr) continue;
            if (set_to_none) {
                rc = ct_tensor_set_grad(p, NULL);
            } else {
                /* p.grad.requires_grad_(False) (a leaf grad), then p.grad.zero_() */
                if (ct_tensor_requires_grad(gr)) ct_tensor_set_requires_grad(gr, false);
                rc = ct_zero_(gr);
            }
        }
    if (ct_record_function_exit(rf) != 0) rc = -1;
    return rc;
}

int ct_optimizer_num_groups(const ct_optimizer *opt) { return opt ? opt->ngroups : 0; }
