/* torch.nn.utils.clip_grad_norm_ (torch/nn/utils/clip_grad.py, 2.6): _get_total_norm, then
 * _clip_grads_with_norm_, under no_grad, with the foreach ops CPU PyTorch takes. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/nn.h"
#include "ctorch/ops_generated.h"
#include "util/pyfloat.h"

/* _group_tensors_by_device_and_dtype on the CPU: the gradients of each dtype, in order of first
 * appearance. Fills order[] with indices grouped by dtype and starts[] with group bounds. */
static int group_by_dtype(ct_tensor *const *grads, int n, int *order, int *starts) {
    ct_dtype seen[8];
    int ngroups = 0, k = 0;
    for (int i = 0; i < n; i++) {
        ct_dtype d = ct_tensor_dtype(grads[i]);
        bool known = false;
        for (int g = 0; g < ngroups; g++) known = known || seen[g] == d;
        if (!known && ngroups < 8) seen[ngroups++] = d;
    }
    for (int g = 0; g < ngroups; g++) {
        starts[g] = k;
        for (int i = 0; i < n; i++)
            if (ct_tensor_dtype(grads[i]) == seen[g]) order[k++] = i;
    }
    starts[ngroups] = k;
    return ngroups;
}

/* torch.tensor(value): a new 0-dim float tensor, lifted (aten::lift_fresh) */
static ct_tensor *python_tensor(double value) {
    ct_tensor *t = ct_tensor_scalar(value, ct_default_dtype());
    ct_tensor *r = t ? ct_lift_fresh(t) : NULL;
    ct_tensor_release(t);
    return r;
}

static ct_tensor *total_norm(ct_tensor **grads, int n, double norm_type, bool error_if_nonfinite) {
    if (n == 0) return python_tensor(0.0);
    int *order = ct_malloc(sizeof(int) * (size_t)n), starts[9];
    ct_tensor **group = ct_malloc(sizeof(ct_tensor *) * (size_t)n);
    ct_tensor **norms = ct_calloc((size_t)n, sizeof(ct_tensor *));
    ct_tensor *stacked = NULL, *total = NULL;
    int nnorms = 0;
    if (!order || !group || !norms) goto done;
    int ngroups = group_by_dtype(grads, n, order, starts);
    for (int g = 0; g < ngroups; g++) {
        int len = starts[g + 1] - starts[g];
        for (int i = 0; i < len; i++) group[i] = grads[order[starts[g] + i]];
        ct_tensor **gn = NULL;
        int64_t ng = 0;
        if (ct__foreach_norm(group, len, ct_double(norm_type), CT_DTYPE_UNDEFINED, &gn, &ng) != 0) goto done;
        for (int64_t i = 0; i < ng; i++) norms[nnorms++] = gn[i];
        ct_free(gn);
    }
    /* norm.to(first_device) is the tensor itself on the CPU */
    stacked = ct_stack(norms, nnorms, 0);
    if (!stacked) goto done;
    total = ct_linalg_vector_norm(stacked, ct_double(norm_type), NULL, 0, false, CT_DTYPE_UNDEFINED);
    if (total && error_if_nonfinite) {
        double v = 0;
        ct_tensor_item(total, &v);
        if (isnan(v) || isinf(v)) {
            char nt[CT_PY_FLOAT_REPR_MAX];
            ct_py_float_repr(norm_type, nt);
            ct_error_set(CT_ERR_RUNTIME,
                         "The total norm of order %s for gradients from `parameters` is non-finite, so it cannot be clipped. "
                         "To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`",
                         nt);
            ct_tensor_release(total);
            total = NULL;
        }
    }
done:
    for (int i = 0; norms && i < nnorms; i++) ct_tensor_release(norms[i]);
    ct_free(norms);
    ct_free(group);
    ct_free(order);
    ct_tensor_release(stacked);
    return total;
}

/* _clip_grads_with_norm_: clip_coef = max_norm / (total_norm + 1e-6) (Tensor.__rtruediv__ is
 * reciprocal() * max_norm), clamp(max=1.0), _foreach_mul_ per dtype */
static int clip_with_norm(ct_tensor **grads, int n, double max_norm, ct_tensor *total) {
    if (n == 0) return 0;
    int rc = -1, *order = ct_malloc(sizeof(int) * (size_t)n), starts[9];
    ct_tensor **group = ct_malloc(sizeof(ct_tensor *) * (size_t)n);
    ct_tensor *eps = ct_wrapped_number(ct_double(1e-6)), *mx = ct_wrapped_number(ct_double(max_norm));
    ct_tensor *denom = NULL, *rcp = NULL, *coef = NULL, *clamped = NULL;
    if (!order || !group || !eps || !mx) goto done;
    denom = ct_add(total, eps, ct_int(1));
    rcp = denom ? ct_reciprocal(denom) : NULL;
    coef = rcp ? ct_mul(rcp, mx) : NULL;
    ct_scalar one = ct_double(1.0);
    clamped = coef ? ct_clamp(coef, NULL, &one) : NULL;
    if (!clamped) goto done;
    int ngroups = group_by_dtype(grads, n, order, starts);
    for (int g = 0; g < ngroups; g++) {
        int len = starts[g + 1] - starts[g];
        for (int i = 0; i < len; i++) group[i] = grads[order[starts[g] + i]];
        /* clip_coef_clamped.to(device): the tensor itself */
        if (ct__foreach_mul_(group, len, clamped) != 0) goto done;
    }
    rc = 0;
done:
    ct_free(order);
    ct_free(group);
    ct_tensor_release(eps);
    ct_tensor_release(mx);
    ct_tensor_release(denom);
    ct_tensor_release(rcp);
    ct_tensor_release(coef);
    ct_tensor_release(clamped);
    return rc;
}

ct_tensor *ct_nn_clip_grad_norm_(ct_tensor *const *params, int n, double max_norm, double norm_type, bool error_if_nonfinite) {
    if (n < 0 || (n > 0 && !params)) {
        ct_error_set(CT_ERR_VALUE, "clip_grad_norm_: bad parameter list");
        return NULL;
    }
    ct_tensor **grads = ct_malloc(sizeof(ct_tensor *) * (size_t)(n ? n : 1));
    if (!grads) return NULL;
    int ng = 0;
    for (int i = 0; i < n; i++) {
        if (!params[i]) {
            ct_free(grads);
            ct_error_set(CT_ERR_TYPE, "clip_grad_norm_: parameter %d is NULL", i);
            return NULL;
        }
        ct_tensor *g = ct_tensor_grad(params[i]);
        if (g) grads[ng++] = g;
    }
    ct_grad_mode_guard gm;
    ct_no_grad_enter(&gm);
    ct_tensor *total = total_norm(grads, ng, norm_type, error_if_nonfinite);
    if (total && clip_with_norm(grads, ng, max_norm, total) != 0) {
        ct_tensor_release(total);
        total = NULL;
    }
    ct_grad_mode_exit(&gm);
    ct_free(grads);
    return total;
}
