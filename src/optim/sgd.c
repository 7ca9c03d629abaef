/* torch.optim.SGD (torch/optim/sgd.py, _single_tensor_sgd; torch/optim/optimizer.py). */
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "util/pyfloat.h"

struct ct_optimizer {
    ct_sgd_options o;
    int n;
    ct_tensor **params;
    ct_tensor **momentum_buffer; /* state[p]["momentum_buffer"], NULL until the first step */
};

ct_sgd_options ct_sgd_defaults(double lr) {
    ct_sgd_options o;
    memset(&o, 0, sizeof o);
    o.lr = lr;
    return o;
}

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
    for (int i = 0; i < n; i++) {
        if (!params[i]) {
            ct_error_set(CT_ERR_TYPE, "optimizer can only optimize Tensors, but one of the params is NoneType");
            return NULL;
        }
        if (!ct_tensor_is_leaf(params[i])) {
            ct_error_set(CT_ERR_VALUE, "can't optimize a non-leaf Tensor");
            return NULL;
        }
    }
    ct_optimizer *opt = ct_calloc(1, sizeof *opt);
    if (!opt) return NULL;
    opt->params = ct_calloc((size_t)n, sizeof *opt->params);
    opt->momentum_buffer = ct_calloc((size_t)n, sizeof *opt->momentum_buffer);
    if (!opt->params || !opt->momentum_buffer) {
        ct_free(opt->params);
        ct_free(opt->momentum_buffer);
        ct_free(opt);
        return NULL;
    }
    opt->o = o;
    opt->n = n;
    for (int i = 0; i < n; i++) opt->params[i] = ct_tensor_retain(params[i]);
    return opt;
}

void ct_optimizer_free(ct_optimizer *opt) {
    if (!opt) return;
    for (int i = 0; i < opt->n; i++) {
        ct_tensor_release(opt->params[i]);
        ct_tensor_release(opt->momentum_buffer[i]);
    }
    ct_free(opt->params);
    ct_free(opt->momentum_buffer);
    ct_free(opt);
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
static int update(ct_optimizer *opt, int i) {
    const ct_sgd_options *o = &opt->o;
    ct_tensor *param = opt->params[i];
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
        ct_tensor *buf = opt->momentum_buffer[i];
        if (!buf) {
            /* torch.clone(grad).detach() */
            ct_tensor *c = ct_clone(grad, CT_MEMORY_FORMAT_NONE);
            buf = c ? ct_detach(c) : NULL;
            ct_tensor_release(c);
            if (!buf) goto done;
            opt->momentum_buffer[i] = buf;
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

int ct_optimizer_step(ct_optimizer *opt) {
    if (!opt) return ct_error_set(CT_ERR_VALUE, "ct_optimizer_step: optimizer is NULL");
    /* Optimizer.profile_hook_step: record_function("Optimizer.step#SGD.step"), then the step
     * itself under no_grad (_use_grad_for_differentiable) */
    ct_record_function *rf = ct_record_function_enter("Optimizer.step#SGD.step");
    if (!rf) return -1;
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int rc = 0;
    for (int i = 0; i < opt->n && rc == 0; i++)
        if (ct_tensor_grad(opt->params[i])) rc = update(opt, i);
    ct_grad_mode_exit(&g);
    if (ct_record_function_exit(rf) != 0) rc = -1;
    return rc;
}

int ct_optimizer_zero_grad(ct_optimizer *opt, bool set_to_none) {
    if (!opt) return ct_error_set(CT_ERR_VALUE, "ct_optimizer_zero_grad: optimizer is NULL");
    ct_record_function *rf = ct_record_function_enter("Optimizer.zero_grad#SGD.zero_grad");
    if (!rf) return -1;
    int rc = 0;
    for (int i = 0; i < opt->n && rc == 0; i++) {
        ct_tensor *g = ct_tensor_grad(opt->params[i]);
        if (!g) continue;
        if (set_to_none) {
            rc = ct_tensor_set_grad(opt->params[i], NULL);
        } else {
            /* p.grad.requires_grad_(False) (a leaf grad), then p.grad.zero_() */
            if (ct_tensor_requires_grad(g)) ct_tensor_set_requires_grad(g, false);
            rc = ct_zero_(g);
        }
    }
    if (ct_record_function_exit(rf) != 0) rc = -1;
    return rc;
}
