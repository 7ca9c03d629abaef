/* torch.optim.SGD (torch/optim/sgd.py, _single_tensor_sgd). */
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "optim/optim_impl.h"
#include "util/pyfloat.h"

ct_sgd_options ct_sgd_defaults(double lr) {
    ct_sgd_options o;
    memset(&o, 0, sizeof o);
    o.lr = lr;
    return o;
}

static int sgd_step_group(ct_opt_group *g);

ct_optimizer *ct_sgd_new(ct_tensor *const *params, int n, ct_sgd_options o) {
    char v[CT_PY_FLOAT_REPR_MAX]; /* the value as Python's f-string prints a float */
    if (o.lr < 0.0) {
        ct_py_float_repr(o.lr, v);
        ct_error_set(CT_ERR_VALUE, "Invalid learning rate: %s", v);
        return NULL;
    }
    if (o.momentum < 0.0) {
        ct_py_float_repr(o.momentum, v);
        ct_error_set(CT_ERR_VALUE, "Invalid momentum value: %s", v);
        return NULL;
    }
    if (o.weight_decay < 0.0) {
        ct_py_float_repr(o.weight_decay, v);
        ct_error_set(CT_ERR_VALUE, "Invalid weight_decay value: %s", v);
        return NULL;
    }
    if (o.nesterov && (o.momentum <= 0.0 || o.dampening != 0.0)) {
        ct_error_set(CT_ERR_VALUE, "Nesterov momentum requires a momentum and zero dampening");
        return NULL;
    }
    if (n <= 0 || !params) {
        ct_error_set(CT_ERR_VALUE, "optimizer got an empty parameter list");
        return NULL;
    }
    ct_tensor *const *lists[1] = {params};
    int counts[1] = {n};
    ct_optimizer *opt = ct_optimizer_new_groups(CT_OPT_SGD, sgd_step_group, "SGD", 1, lists, counts);
    if (opt) opt->groups[0].sgd = o;
    return opt;
}

/* a Python float as PyTorch's bindings pass it to a Tensor overload */
static int mul_(ct_tensor *t, double v) {
    ct_tensor *w = ct_wrapped_number(ct_double(v));
    if (!w) return -1;
    int rc = ct_mul_(t, w);
    ct_tensor_release(w);
    return rc;
}

/* _single_tensor_sgd for one parameter */
static int update(ct_opt_group *grp, int i) {
    const ct_sgd_options *o = &grp->sgd;
    ct_tensor *param = grp->params[i];
    ct_tensor *grad = ct_tensor_retain(ct_tensor_grad(param));
    int rc = -1;
    if (o->maximize) {
        ct_tensor *ng = ct_neg(grad);
        ct_tensor_release(grad);
        grad = ng;
        if (!grad) return -1;
    }
    if (o->weight_decay != 0.0) {
        ct_tensor *g2 = ct_add(grad, param, ct_double(o->weight_decay));
        ct_tensor_release(grad);
        grad = g2;
        if (!grad) return -1;
    }
    if (o->momentum != 0.0) {
        ct_tensor *buf = grp->state[i].momentum_buffer;
        if (!buf) {
            /* torch.clone(grad).detach() */
            ct_tensor *c = ct_clone(grad, CT_MEMORY_FORMAT_NONE);
            buf = c ? ct_detach(c) : NULL;
            ct_tensor_release(c);
            if (!buf) goto done;
            grp->state[i].momentum_buffer = buf;
        } else {
            if (mul_(buf, o->momentum) != 0) goto done;
            if (ct_add_(buf, grad, ct_double(1.0 - o->dampening)) != 0) goto done;
        }
        if (o->nesterov) {
            ct_tensor *g2 = ct_add(grad, buf, ct_double(o->momentum));
            ct_tensor_release(grad);
            grad = g2;
            if (!grad) return -1;
        } else {
            ct_tensor_release(grad);
            grad = ct_tensor_retain(buf);
        }
    }
    rc = ct_add_(param, grad, ct_double(-o->lr));
done:
    ct_tensor_release(grad);
    return rc;
}

static int sgd_step_group(ct_opt_group *g) {
    int rc = 0;
    for (int i = 0; i < g->n && rc == 0; i++)
        if (ct_tensor_grad(g->params[i])) rc = update(g, i);
    return rc;
}
