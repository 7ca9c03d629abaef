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

/* a number as PyTorch's bindings pass it to a Tensor overload (a wrapped number) */
static int mul_(ct_tensor *t, ct_scalar v) {
    ct_tensor *w = ct_wrapped_number(v);
    if (!w) return -1;
    int rc = ct_mul_(t, w);
    ct_tensor_release(w);
    return rc;
}

static double value_of(ct_scalar v) { return v.tag == CT_TAG_INT ? (double)v.u.i : v.u.d; }

/* 1 - v and -v in v's kind, as Python computes 1 - dampening and -lr (an int stays an int) */
static ct_scalar one_minus(ct_scalar v) { return v.tag == CT_TAG_INT ? ct_int(1 - v.u.i) : ct_double(1.0 - v.u.d); }
static ct_scalar negated(ct_scalar v) { return v.tag == CT_TAG_INT ? ct_int(-v.u.i) : ct_double(-v.u.d); }

/* _single_tensor_sgd for one parameter; *buf_io is its momentum buffer (made on the first step) */
static int update_one(ct_tensor *param, ct_tensor *grad_in, ct_tensor **buf_io, const ct_sgd_numbers *o) {
    ct_tensor *grad = ct_tensor_retain(grad_in);
    int rc = -1;
    if (o->maximize) {
        ct_tensor *ng = ct_neg(grad);
        ct_tensor_release(grad);
        grad = ng;
        if (!grad) return -1;
    }
    if (value_of(o->weight_decay) != 0.0) {
        ct_tensor *g2 = ct_add(grad, param, o->weight_decay);
        ct_tensor_release(grad);
        grad = g2;
        if (!grad) return -1;
    }
    if (value_of(o->momentum) != 0.0) {
        ct_tensor *buf = *buf_io;
        if (!buf) {
            /* torch.clone(grad).detach() */
            ct_tensor *c = ct_clone(grad, CT_MEMORY_FORMAT_NONE);
            buf = c ? ct_detach(c) : NULL;
            ct_tensor_release(c);
            if (!buf) goto done;
            *buf_io = buf;
        } else {
            if (mul_(buf, o->momentum) != 0) goto done;
            if (ct_add_(buf, grad, one_minus(o->dampening)) != 0) goto done;
        }
        if (o->nesterov) {
            ct_tensor *g2 = ct_add(grad, buf, o->momentum);
            ct_tensor_release(grad);
            grad = g2;
            if (!grad) return -1;
        } else {
            ct_tensor_release(grad);
            grad = ct_tensor_retain(buf);
        }
    }
    rc = ct_add_(param, grad, negated(o->lr));
done:
    ct_tensor_release(grad);
    return rc;
}

int ct_sgd_update(ct_tensor *const *params, ct_tensor *const *grads, ct_tensor **momentum_buffers, int n,
                  const ct_sgd_numbers *numbers) {
    if (!numbers) return ct_error_set(CT_ERR_VALUE, "ct_sgd_update: numbers is NULL");
    if (n < 0 || (n > 0 && (!params || !grads))) return ct_error_set(CT_ERR_VALUE, "ct_sgd_update: params or grads is NULL");
    if (value_of(numbers->momentum) != 0.0 && n > 0 && !momentum_buffers)
        return ct_error_set(CT_ERR_VALUE, "ct_sgd_update: momentum needs momentum_buffers");
    for (int i = 0; i < n; i++) {
        if (!params[i] || !grads[i]) return ct_error_set(CT_ERR_VALUE, "ct_sgd_update: parameter or gradient %d is NULL", i);
        ct_tensor *none = NULL;
        if (update_one(params[i], grads[i], momentum_buffers ? &momentum_buffers[i] : &none, numbers) != 0) return -1;
    }
    return 0;
}

static int sgd_step_group(ct_opt_group *g) {
    /* a C program's numbers are doubles */
    ct_sgd_numbers numbers = {ct_double(g->sgd.lr), ct_double(g->sgd.momentum), ct_double(g->sgd.dampening),
                              ct_double(g->sgd.weight_decay), g->sgd.nesterov, g->sgd.maximize};
    int rc = 0;
    for (int i = 0; i < g->n && rc == 0; i++)
        if (ct_tensor_grad(g->params[i]))
            rc = update_one(g->params[i], ct_tensor_grad(g->params[i]), &g->state[i].momentum_buffer, &numbers);
    return rc;
}
