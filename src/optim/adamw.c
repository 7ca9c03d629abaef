/* torch.optim.AdamW (torch/optim/adamw.py, 2.6): _init_group and _single_tensor_adamw, the
 * path CPU PyTorch takes (capturable, differentiable, foreach and fused off). Python floats
 * are computed in double as Python does, and passed to the Tensor overloads as wrapped numbers
 * (step_t += 1 is add_.Tensor, param.mul_(1 - lr * wd) is mul_.Tensor), exactly as the Python
 * bindings pass them; lerp_'s weight and addcdiv_'s value are Scalars. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "optim/optim_impl.h"
#include "util/pyfloat.h"

ct_adamw_options ct_adamw_defaults(void) {
    ct_adamw_options o;
    memset(&o, 0, sizeof o);
    o.lr = 1e-3;
    o.beta1 = 0.9;
    o.beta2 = 0.999;
    o.eps = 1e-8;
    o.weight_decay = 1e-2;
    return o;
}

/* AdamW.__init__'s checks, in its order */
static int check_options(const ct_adamw_options *o) {
    char v[CT_PY_FLOAT_REPR_MAX];
    if (!(0.0 <= o->lr)) {
        ct_py_float_repr(o->lr, v);
        return ct_error_set(CT_ERR_VALUE, "Invalid learning rate: %s", v);
    }
    if (!(0.0 <= o->eps)) {
        ct_py_float_repr(o->eps, v);
        return ct_error_set(CT_ERR_VALUE, "Invalid epsilon value: %s", v);
    }
    if (!(0.0 <= o->beta1 && o->beta1 < 1.0)) {
        ct_py_float_repr(o->beta1, v);
        return ct_error_set(CT_ERR_VALUE, "Invalid beta parameter at index 0: %s", v);
    }
    if (!(0.0 <= o->beta2 && o->beta2 < 1.0)) {
        ct_py_float_repr(o->beta2, v);
        return ct_error_set(CT_ERR_VALUE, "Invalid beta parameter at index 1: %s", v);
    }
    if (!(0.0 <= o->weight_decay)) {
        ct_py_float_repr(o->weight_decay, v);
        return ct_error_set(CT_ERR_VALUE, "Invalid weight_decay value: %s", v);
    }
    return 0;
}

static int adamw_step_group(ct_opt_group *g);

ct_optimizer *ct_adamw_new_groups(const ct_adamw_group *groups, int ngroups, ct_adamw_options options) {
    if (check_options(&options) != 0) return NULL;
    if (ngroups <= 0 || !groups) {
        ct_error_set(CT_ERR_VALUE, "optimizer got an empty parameter list");
        return NULL;
    }
    ct_tensor *const **lists = ct_malloc(sizeof *lists * (size_t)ngroups);
    int *counts = ct_malloc(sizeof *counts * (size_t)ngroups);
    ct_optimizer *opt = NULL;
    if (lists && counts) {
        for (int k = 0; k < ngroups; k++) {
            lists[k] = groups[k].params;
            counts[k] = groups[k].n;
        }
        opt = ct_optimizer_new_groups(CT_OPT_ADAMW, adamw_step_group, "AdamW", ngroups, lists, counts);
        for (int k = 0; opt && k < ngroups; k++) opt->groups[k].adamw = groups[k].options;
    }
    ct_free((void *)lists);
    ct_free(counts);
    return opt;
}

ct_optimizer *ct_adamw_new(ct_tensor *const *params, int n, ct_adamw_options options) {
    ct_adamw_group g = {params, n, options};
    return ct_adamw_new_groups(&g, 1, options);
}

/* a Python number as the bindings pass it to a Tensor overload */
static int inplace_with_number(int (*op)(ct_tensor *, ct_tensor *), ct_tensor *t, ct_scalar v) {
    ct_tensor *w = ct_wrapped_number(v);
    if (!w) return -1;
    int rc = op(t, w);
    ct_tensor_release(w);
    return rc;
}

static int add_number(ct_tensor *t, ct_tensor *w) { return ct_add_(t, w, ct_int(1)); }

/* torch.tensor(0.0, dtype=_get_scalar_dtype()): a new 0-dim tensor, lifted */
static ct_tensor *python_tensor(double value) {
    ct_tensor *t = ct_tensor_scalar(value, ct_default_dtype());
    ct_tensor *r = t ? ct_lift_fresh(t) : NULL;
    ct_tensor_release(t);
    return r;
}

/* _init_group: state for each parameter with a gradient, created on its first step */
static int init_state(ct_opt_group *g, int i) {
    ct_param_state *s = &g->state[i];
    if (s->step) return 0;
    ct_tensor *p = g->params[i];
    s->step = python_tensor(0.0);
    if (!s->step) return -1;
    s->exp_avg = ct_zeros_like(p, CT_DTYPE_UNDEFINED, CT_PRESERVE_FORMAT);
    if (!s->exp_avg) return -1;
    s->exp_avg_sq = ct_zeros_like(p, CT_DTYPE_UNDEFINED, CT_PRESERVE_FORMAT);
    if (!s->exp_avg_sq) return -1;
    if (g->adamw.amsgrad) {
        s->max_exp_avg_sq = ct_zeros_like(p, CT_DTYPE_UNDEFINED, CT_PRESERVE_FORMAT);
        if (!s->max_exp_avg_sq) return -1;
    }
    return 0;
}

/* one iteration of _single_tensor_adamw's loop */
static int update(ct_opt_group *g, int i) {
    const ct_adamw_options *o = &g->adamw;
    ct_tensor *param = g->params[i];
    ct_param_state *s = &g->state[i];
    ct_tensor *grad = o->maximize ? ct_neg(ct_tensor_grad(param)) : ct_tensor_retain(ct_tensor_grad(param));
    ct_tensor *sq = NULL, *denom = NULL, *bc = NULL;
    int rc = -1;
    if (!grad) return -1;
    /* step_t += 1 */
    if (inplace_with_number(add_number, s->step, ct_int(1)) != 0) goto done;
    /* param.mul_(1 - lr * weight_decay) */
    if (inplace_with_number(ct_mul_, param, ct_double(1 - o->lr * o->weight_decay)) != 0) goto done;
    /* exp_avg.lerp_(grad, 1 - beta1); exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2) */
    if (ct_lerp_scalar_(s->exp_avg, grad, ct_double(1 - o->beta1)) != 0) goto done;
    if (inplace_with_number(ct_mul_, s->exp_avg_sq, ct_double(o->beta2)) != 0) goto done;
    if (ct_addcmul_(s->exp_avg_sq, grad, grad, ct_double(1 - o->beta2)) != 0) goto done;
    /* step = _get_value(step_t): step_t.item() */
    ct_scalar step_s;
    if (ct_item(s->step, &step_s) != 0) goto done;
    double step = ct_scalar_to_double(step_s);
    double bias_correction1 = 1 - pow(o->beta1, step);
    double bias_correction2 = 1 - pow(o->beta2, step);
    double step_size = o->lr / bias_correction1;
    double bias_correction2_sqrt = pow(bias_correction2, 0.5);
    ct_tensor *second = s->exp_avg_sq;
    if (o->amsgrad) {
        /* torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i]) */
        if (ct_maximum_out(s->max_exp_avg_sq, s->exp_avg_sq, s->max_exp_avg_sq) != 0) goto done;
        second = s->max_exp_avg_sq;
    }
    /* denom = (second.sqrt() / bias_correction2_sqrt).add_(eps) */
    sq = ct_sqrt(second);
    bc = sq ? ct_wrapped_number(ct_double(bias_correction2_sqrt)) : NULL;
    denom = bc ? ct_div(sq, bc) : NULL;
    if (!denom || inplace_with_number(add_number, denom, ct_double(o->eps)) != 0) goto done;
    /* param.addcdiv_(exp_avg, denom, value=-step_size) */
    if (ct_addcdiv_(param, s->exp_avg, denom, ct_double(-step_size)) != 0) goto done;
    rc = 0;
done:
    ct_tensor_release(grad);
    ct_tensor_release(sq);
    ct_tensor_release(bc);
    ct_tensor_release(denom);
    return rc;
}

static int adamw_step_group(ct_opt_group *g) {
    /* _init_group over the group's parameters with gradients, then the update loop */
    for (int i = 0; i < g->n; i++)
        if (ct_tensor_grad(g->params[i]) && init_state(g, i) != 0) return -1;
    for (int i = 0; i < g->n; i++)
        if (ct_tensor_grad(g->params[i]) && update(g, i) != 0) return -1;
    return 0;
}
