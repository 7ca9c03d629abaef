/* nn.Linear, nn.ReLU, nn.Sequential (torch/nn/modules/{linear,activation,container}.py). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/nn.h"
#include "ctorch/ops_generated.h"

typedef enum { MOD_LINEAR, MOD_RELU, MOD_SEQUENTIAL } mod_kind;

struct ct_module {
    mod_kind kind;
    int64_t in_features, out_features;
    ct_tensor *weight, *bias;
    ct_module **children;
    int nchildren;
};

/* torch.nn.init: both run under no_grad, as PyTorch's init functions do, drawing from g
 * (their generator= argument; NULL is the default generator). */
static int init_uniform(ct_tensor *t, double low, double high, ct_generator *gen) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "uniform_: tensor is NULL");
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int rc = ct_uniform_(t, low, high, gen);
    ct_grad_mode_exit(&g);
    return rc;
}

static int init_kaiming_uniform(ct_tensor *t, double a, ct_generator *gen) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "kaiming_uniform_: tensor is NULL");
    if (ct_tensor_numel(t) == 0) return 0; /* "Initializing zero-element tensors is a no-op" */
    int nd = ct_tensor_ndim(t);
    if (nd < 2)
        return ct_error_set(CT_ERR_VALUE, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
    /* _calculate_fan_in_and_fan_out: fan_in = size(1) * receptive field */
    const int64_t *s = ct_tensor_sizes(t);
    int64_t receptive = 1;
    for (int i = 2; i < nd; i++) receptive *= s[i];
    double fan_in = (double)(s[1] * receptive);
    double gain = sqrt(2.0 / (1.0 + a * a)); /* calculate_gain("leaky_relu", a) */
    double std = gain / sqrt(fan_in);
    double bound = sqrt(3.0) * std;
    return init_uniform(t, -bound, bound, gen);
}

int ct_nn_init_uniform_(ct_tensor *t, double low, double high) { return init_uniform(t, low, high, NULL); }
int ct_nn_init_kaiming_uniform_(ct_tensor *t, double a) { return init_kaiming_uniform(t, a, NULL); }

static ct_module *alloc_module(mod_kind k) {
    ct_module *m = ct_calloc(1, sizeof *m);
    if (m) m->kind = k;
    return m;
}

ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias) {
    return ct_nn_linear_generator(in_features, out_features, bias, NULL);
}

ct_module *ct_nn_linear_generator(int64_t in_features, int64_t out_features, bool bias, ct_generator *gen) {
    if (in_features < 0 || out_features < 0) {
        ct_error_set(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: [%lld, %lld]",
                     (long long)(out_features < 0 ? out_features : in_features), (long long)out_features,
                     (long long)in_features);
        return NULL;
    }
    ct_module *m = alloc_module(MOD_LINEAR);
    if (!m) return NULL;
    m->in_features = in_features;
    m->out_features = out_features;
    int64_t ws[2] = {out_features, in_features};
    m->weight = ct_empty(ws, 2, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    if (bias) m->bias = ct_empty(&out_features, 1, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    if (!m->weight || (bias && !m->bias)) goto fail;
    /* reset_parameters */
    if (init_kaiming_uniform(m->weight, sqrt(5.0), gen) != 0) goto fail;
    if (bias) {
        double bound = in_features > 0 ? 1.0 / sqrt((double)in_features) : 0.0;
        if (init_uniform(m->bias, -bound, bound, gen) != 0) goto fail;
    }
    if (ct_tensor_set_requires_grad(m->weight, true) != 0) goto fail;
    if (bias && ct_tensor_set_requires_grad(m->bias, true) != 0) goto fail;
    return m;
fail:
    ct_module_free(m);
    return NULL;
}

ct_module *ct_nn_relu(void) { return alloc_module(MOD_RELU); }

ct_module *ct_nn_sequential(ct_module *const *mods, int n) {
    ct_module *m = NULL;
    if (n < 0 || (n > 0 && !mods)) {
        ct_error_set(CT_ERR_VALUE, "ct_nn_sequential: bad module list");
        goto fail;
    }
    for (int i = 0; i < n; i++)
        if (!mods[i]) {
            ct_error_set(CT_ERR_TYPE, "ct_nn_sequential: module %d is NULL", i);
            goto fail;
        }
    m = alloc_module(MOD_SEQUENTIAL);
    if (!m) goto fail;
    m->children = ct_malloc(sizeof *m->children * (size_t)(n ? n : 1));
    if (!m->children) goto fail;
    memcpy(m->children, mods, sizeof *m->children * (size_t)n);
    m->nchildren = n;
    return m;
fail:
    if (m) {
        ct_free(m->children);
        ct_free(m);
    }
    for (int i = 0; mods && i < n; i++) ct_module_free(mods[i]);
    return NULL;
}

void ct_module_free(ct_module *m) {
    if (!m) return;
    ct_tensor_release(m->weight);
    ct_tensor_release(m->bias);
    for (int i = 0; i < m->nchildren; i++) ct_module_free(m->children[i]);
    ct_free(m->children);
    ct_free(m);
}

ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input) {
    if (!m) {
        ct_error_set(CT_ERR_VALUE, "ct_module_forward: module is NULL");
        return NULL;
    }
    switch (m->kind) {
    case MOD_LINEAR: return ct_linear(input, m->weight, m->bias); /* F.linear */
    case MOD_RELU: return ct_relu(input);                         /* F.relu */
    case MOD_SEQUENTIAL: {
        ct_tensor *x = ct_tensor_retain(input);
        for (int i = 0; i < m->nchildren && x; i++) {
            ct_tensor *y = ct_module_forward(m->children[i], x);
            ct_tensor_release(x);
            x = y;
        }
        return x;
    }
    }
    return NULL;
}

const char *ct_module_name(const ct_module *m) {
    if (!m) return "";
    return m->kind == MOD_LINEAR ? "Linear" : m->kind == MOD_RELU ? "ReLU" : "Sequential";
}

int ct_module_parameters(const ct_module *m, ct_tensor **out, int max) {
    if (!m) return 0;
    int n = 0;
    if (m->kind == MOD_LINEAR) {
        if (out && n < max) out[n] = m->weight;
        n++;
        if (m->bias) {
            if (out && n < max) out[n] = m->bias;
            n++;
        }
    }
    for (int i = 0; i < m->nchildren; i++) n += ct_module_parameters(m->children[i], out ? out + n : NULL, max > n ? max - n : 0);
    return n;
}

ct_tensor *ct_nn_linear_weight(const ct_module *m) { return m && m->kind == MOD_LINEAR ? m->weight : NULL; }
ct_tensor *ct_nn_linear_bias(const ct_module *m) { return m && m->kind == MOD_LINEAR ? m->bias : NULL; }

char *ct_module_repr(const ct_module *m) {
    if (!m) {
        ct_error_set(CT_ERR_VALUE, "ct_module_repr: module is NULL");
        return NULL;
    }
    if (m->kind == MOD_LINEAR)
        return ct_asprintf("Linear(in_features=%lld, out_features=%lld, bias=%s)", (long long)m->in_features,
                           (long long)m->out_features, m->bias ? "True" : "False");
    if (m->kind == MOD_RELU) return ct_strdup("ReLU()");
    char *s = ct_strdup("Sequential(\n");
    for (int i = 0; s && i < m->nchildren; i++) {
        char *c = ct_module_repr(m->children[i]);
        char *ns = c ? ct_asprintf("%s  (%d): %s\n", s, i, c) : NULL;
        ct_free(c);
        ct_free(s);
        s = ns;
    }
    if (!s) return NULL;
    char *r = ct_asprintf("%s)", s);
    ct_free(s);
    return r;
}
