/* Modules (torch/nn/modules/{module,linear,activation,container,sparse,normalization,dropout}.py):
 * a tree of named children, named parameters and buffers, a training flag, and a forward per
 * kind. User-defined modules (nn.Module subclasses) are "custom" modules with a C forward.
 *
 * Parameters and buffers are kept in registration order, children too, so named_parameters()
 * walks them in PyTorch's order (own parameters first, then each child's with its prefix), and
 * skips a tensor already seen (remove_duplicate=True: a tied weight is listed once). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "ctorch/nn.h"
#include "ctorch/ops_generated.h"
#include "util/grow.h"
#include "util/pyfloat.h"

#include "nn/module_impl.h"

/* ---- torch.nn.init ---- */

/* Both run under no_grad, as PyTorch's init functions do, drawing from gen (their generator=
 * argument; NULL is the default generator). */
static int init_uniform(ct_tensor *t, double low, double high, ct_generator *gen) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "uniform_: tensor is NULL");
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int rc = ct_uniform_(t, low, high, gen);
    ct_grad_mode_exit(&g);
    return rc;
}

int ct_nn_init_normal_(ct_tensor *t, double mean, double std) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "normal_: tensor is NULL");
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int rc = ct_normal_(t, mean, std, NULL);
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

/* ---- the tree ---- */

static ct_module *alloc_module(mod_kind k, const char *type_name) {
    ct_module *m = ct_calloc(1, sizeof *m);
    if (!m) return NULL;
    m->kind = k;
    m->training = true;
    m->type_name = ct_strdup(type_name);
    if (!m->type_name) {
        ct_free(m);
        return NULL;
    }
    return m;
}

static int valid_name(const char *name, const char *what) {
    if (!name || !*name) return ct_error_set(CT_ERR_KEY, "%s name can't be empty string \"\"", what);
    /* add_module names the name; register_parameter and register_buffer do not */
    if (strchr(name, '.') && strcmp(what, "module") == 0)
        return ct_error_set(CT_ERR_KEY, "module name can't contain \".\", got: %s", name);
    if (strchr(name, '.')) return ct_error_set(CT_ERR_KEY, "%s name can't contain \".\"", what);
    return 0;
}

static named_entry *find_named(named_entry *v, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0) return &v[i];
    return NULL;
}

static child_entry *find_child(const ct_module *m, const char *name) {
    for (int i = 0; i < m->nchildren; i++)
        if (strcmp(m->children[i].name, name) == 0) return &m->children[i];
    return NULL;
}

/* Adds or replaces name -> t (retained) in a named list. */
static int put_named(named_entry **v, int *n, size_t *cap, const char *name, ct_tensor *t) {
    named_entry *e = find_named(*v, *n, name);
    if (e) {
        ct_tensor_retain(t);
        ct_tensor_release(e->t);
        e->t = t;
        return 0;
    }
    if (ct_grow(*v, *cap, (size_t)*n + 1, 4) != 0) return -1;
    char *copy = ct_strdup(name);
    if (!copy) return -1;
    (*v)[*n].name = copy;
    (*v)[*n].t = ct_tensor_retain(t);
    (*n)++;
    return 0;
}

int ct_module_register_parameter(ct_module *m, const char *name, ct_tensor *param) {
    if (!m) return ct_error_set(CT_ERR_VALUE, "ct_module_register_parameter: module is NULL");
    if (valid_name(name, "parameter") != 0) return -1;
    if (find_child(m, name) || find_named(m->buffers, m->nbuffers, name))
        return ct_error_set(CT_ERR_KEY, "attribute '%s' already exists", name);
    if (param && !ct_tensor_is_leaf(param))
        return ct_error_set(CT_ERR_VALUE,
                            "Cannot assign non-leaf Tensor to parameter '%s'. Model parameters must be created explicitly. To "
                            "express '%s' as a function of another Tensor, compute the value in the forward() method.",
                            name, name);
    return put_named(&m->params, &m->nparams, &m->cap_params, name, param);
}

int ct_module_register_buffer(ct_module *m, const char *name, ct_tensor *buffer) {
    if (!m) return ct_error_set(CT_ERR_VALUE, "ct_module_register_buffer: module is NULL");
    if (valid_name(name, "buffer") != 0) return -1;
    if (find_child(m, name) || find_named(m->params, m->nparams, name))
        return ct_error_set(CT_ERR_KEY, "attribute '%s' already exists", name);
    return put_named(&m->buffers, &m->nbuffers, &m->cap_buffers, name, buffer);
}

int ct_module_register_module(ct_module *m, const char *name, ct_module *child) {
    /* a NULL child is a constructor that failed: its error stands */
    if (!child) return ct_error_code() != CT_OK ? -1 : ct_error_set(CT_ERR_VALUE, "ct_module_register_module: module is NULL");
    if (!m) {
        ct_module_free(child);
        return ct_error_set(CT_ERR_VALUE, "ct_module_register_module: module is NULL");
    }
    if (valid_name(name, "module") != 0 || find_named(m->params, m->nparams, name) ||
        find_named(m->buffers, m->nbuffers, name) || find_child(m, name)) {
        if (ct_error_code() == CT_OK) ct_error_set(CT_ERR_KEY, "attribute '%s' already exists", name);
        ct_module_free(child);
        return -1;
    }
    if (ct_grow(m->children, m->cap_children, (size_t)m->nchildren + 1, 4) != 0) {
        ct_module_free(child);
        return -1;
    }
    char *copy = ct_strdup(name);
    if (!copy) {
        ct_module_free(child);
        return -1;
    }
    m->children[m->nchildren].name = copy;
    m->children[m->nchildren].m = child;
    m->nchildren++;
    return 0;
}

int ct_module_set_parameter(ct_module *m, const char *name, ct_tensor *param) {
    if (!m) return ct_error_set(CT_ERR_VALUE, "ct_module_set_parameter: module is NULL");
    if (!find_named(m->params, m->nparams, name))
        return ct_error_set(CT_ERR_KEY, "'%s' object has no parameter '%s'", m->type_name, name ? name : "");
    if (param && !ct_tensor_is_leaf(param))
        return ct_error_set(CT_ERR_VALUE,
                            "Cannot assign non-leaf Tensor to parameter '%s'. Model parameters must be created explicitly. To "
                            "express '%s' as a function of another Tensor, compute the value in the forward() method.",
                            name, name);
    return put_named(&m->params, &m->nparams, &m->cap_params, name, param);
}

ct_tensor *ct_module_get_parameter(const ct_module *m, const char *name) {
    named_entry *e = m && name ? find_named(m->params, m->nparams, name) : NULL;
    return e ? e->t : NULL;
}

ct_tensor *ct_module_get_buffer(const ct_module *m, const char *name) {
    named_entry *e = m && name ? find_named(m->buffers, m->nbuffers, name) : NULL;
    return e ? e->t : NULL;
}

ct_module *ct_module_get_child(const ct_module *m, const char *name) {
    child_entry *e = m && name ? find_child(m, name) : NULL;
    return e ? e->m : NULL;
}

int ct_module_num_children(const ct_module *m) { return m ? m->nchildren : 0; }

ct_module *ct_module_child_at(const ct_module *m, int i) { return m && i >= 0 && i < m->nchildren ? m->children[i].m : NULL; }

void ct_module_free(ct_module *m) {
    if (!m) return;
    for (int i = 0; i < m->nparams; i++) {
        ct_free(m->params[i].name);
        ct_tensor_release(m->params[i].t);
    }
    for (int i = 0; i < m->nbuffers; i++) {
        ct_free(m->buffers[i].name);
        ct_tensor_release(m->buffers[i].t);
    }
    for (int i = 0; i < m->nchildren; i++) {
        ct_free(m->children[i].name);
        ct_module_free(m->children[i].m);
    }
    if (m->free_state) m->free_state(m->state);
    ct_free(m->params);
    ct_free(m->buffers);
    ct_free(m->children);
    ct_free(m->type_name);
    ct_free(m->approximate);
    ct_free(m);
}

/* ---- built-in modules ---- */

/* A new parameter: empty(sizes), then requires_grad after initialisation. */
static ct_tensor *new_param(const int64_t *sizes, int n) { return ct_empty(sizes, n, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE); }

ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias) {
    return ct_nn_linear_generator(in_features, out_features, bias, NULL);
}

/* a [rows, cols] weight with a negative size: empty's message, naming the first negative one */
static int negative_size(int64_t rows, int64_t cols) {
    if (rows >= 0 && cols >= 0) return 0;
    return ct_error_set(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: [%lld, %lld]",
                        (long long)(rows < 0 ? rows : cols), (long long)rows, (long long)cols);
}

ct_module *ct_nn_linear_generator(int64_t in_features, int64_t out_features, bool bias, ct_generator *gen) {
    if (negative_size(out_features, in_features) != 0) return NULL;
    ct_module *m = alloc_module(MOD_LINEAR, "Linear");
    if (!m) return NULL;
    m->in_features = in_features;
    m->out_features = out_features;
    m->has_bias = bias;
    int64_t ws[2] = {out_features, in_features};
    ct_tensor *w = new_param(ws, 2), *b = bias ? new_param(&out_features, 1) : NULL;
    int rc = w && (!bias || b) ? 0 : -1;
    /* reset_parameters: kaiming_uniform_(weight, a=sqrt(5)), then the bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) */
    if (rc == 0) rc = init_kaiming_uniform(w, sqrt(5.0), gen);
    if (rc == 0 && bias) {
        double bound = in_features > 0 ? 1.0 / sqrt((double)in_features) : 0.0;
        rc = init_uniform(b, -bound, bound, gen);
    }
    if (rc == 0) rc = ct_tensor_set_requires_grad(w, true);
    if (rc == 0 && bias) rc = ct_tensor_set_requires_grad(b, true);
    if (rc == 0) rc = ct_module_register_parameter(m, "weight", w);
    if (rc == 0) rc = ct_module_register_parameter(m, "bias", b); /* None without bias */
    ct_tensor_release(w);
    ct_tensor_release(b);
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

ct_module *ct_nn_relu(void) { return alloc_module(MOD_RELU, "ReLU"); }

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
    m = alloc_module(MOD_SEQUENTIAL, "Sequential");
    if (!m) goto fail;
    for (int i = 0; i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "%d", i);
        ct_module *child = mods[i];
        ct_module *const *rest = mods + i + 1;
        int nrest = n - i - 1;
        if (ct_module_register_module(m, name, child) != 0) {
            ct_module_free(m);
            for (int k = 0; k < nrest; k++) ct_module_free(rest[k]);
            return NULL;
        }
    }
    return m;
fail:
    for (int i = 0; mods && i < n; i++) ct_module_free(mods[i]);
    return NULL;
}

ct_module *ct_nn_module_list(void) { return alloc_module(MOD_MODULE_LIST, "ModuleList"); }

int ct_module_list_append(ct_module *list, ct_module *m) {
    if (!m) return ct_error_code() != CT_OK ? -1 : ct_error_set(CT_ERR_VALUE, "ct_module_list_append: module is NULL");
    if (!list || list->kind != MOD_MODULE_LIST) {
        ct_module_free(m);
        return ct_error_set(CT_ERR_VALUE, "ct_module_list_append: not a ModuleList");
    }
    char name[24];
    snprintf(name, sizeof name, "%d", list->nchildren);
    return ct_module_register_module(list, name, m);
}

ct_module *ct_nn_embedding(int64_t num_embeddings, int64_t embedding_dim) {
    if (negative_size(num_embeddings, embedding_dim) != 0) return NULL;
    ct_module *m = alloc_module(MOD_EMBEDDING, "Embedding");
    if (!m) return NULL;
    m->in_features = num_embeddings;
    m->out_features = embedding_dim;
    int64_t ws[2] = {num_embeddings, embedding_dim};
    ct_tensor *w = new_param(ws, 2);
    /* reset_parameters: init.normal_(weight) (no padding_idx row to zero) */
    int rc = w ? ct_nn_init_normal_(w, 0.0, 1.0) : -1;
    if (rc == 0) rc = ct_tensor_set_requires_grad(w, true);
    if (rc == 0) rc = ct_module_register_parameter(m, "weight", w);
    ct_tensor_release(w);
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

ct_module *ct_nn_layer_norm(const int64_t *normalized_shape, int n, double eps, bool elementwise_affine, bool bias) {
    if (n < 1 || n > CT_MAX_DIMS || !normalized_shape) {
        ct_error_set(CT_ERR_VALUE, "ct_nn_layer_norm: normalized_shape needs 1 to %d sizes", CT_MAX_DIMS);
        return NULL;
    }
    ct_module *m = alloc_module(MOD_LAYER_NORM, "LayerNorm");
    if (!m) return NULL;
    memcpy(m->normalized_shape, normalized_shape, sizeof(int64_t) * (size_t)n);
    m->n_normalized = n;
    m->eps = eps;
    m->elementwise_affine = elementwise_affine;
    m->has_bias = bias;
    int rc = 0;
    if (elementwise_affine) {
        /* reset_parameters: init.ones_(weight), init.zeros_(bias) */
        ct_tensor *w = ct_ones(normalized_shape, n, CT_DTYPE_UNDEFINED);
        ct_tensor *b = bias ? ct_zeros(normalized_shape, n, CT_DTYPE_UNDEFINED) : NULL;
        rc = w && (!bias || b) ? 0 : -1;
        if (rc == 0) rc = ct_tensor_set_requires_grad(w, true);
        if (rc == 0 && b) rc = ct_tensor_set_requires_grad(b, true);
        if (rc == 0) rc = ct_module_register_parameter(m, "weight", w);
        if (rc == 0) rc = ct_module_register_parameter(m, "bias", b);
        ct_tensor_release(w);
        ct_tensor_release(b);
    } else {
        rc = ct_module_register_parameter(m, "weight", NULL);
        if (rc == 0) rc = ct_module_register_parameter(m, "bias", NULL);
    }
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

ct_module *ct_nn_gelu(const char *approximate) {
    /* like nn.GELU, any string is kept; F.gelu checks it at forward */
    const char *a = approximate ? approximate : "none";
    ct_module *m = alloc_module(MOD_GELU, "GELU");
    if (m) {
        m->approximate = ct_strdup(a);
        if (!m->approximate) {
            ct_module_free(m);
            return NULL;
        }
    }
    return m;
}

/* F.dropout's check, in Python's words */
static int check_dropout_p(double p) {
    if (p < 0.0 || p > 1.0 || isnan(p)) {
        char v[CT_PY_FLOAT_REPR_MAX];
        ct_py_float_repr(p, v);
        return ct_error_set(CT_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", v);
    }
    return 0;
}

ct_module *ct_nn_dropout(double p) {
    if (check_dropout_p(p) != 0) return NULL;
    ct_module *m = alloc_module(MOD_DROPOUT, "Dropout");
    if (m) m->p = p;
    return m;
}

ct_module *ct_nn_custom(const char *type_name, ct_module_forward_fn forward, void *state, void (*free_state)(void *)) {
    if (!type_name || !*type_name) {
        if (free_state) free_state(state);
        ct_error_set(CT_ERR_VALUE, "ct_nn_custom: a type name is required");
        return NULL;
    }
    ct_module *m = alloc_module(MOD_CUSTOM, type_name);
    if (!m) {
        if (free_state) free_state(state);
        return NULL;
    }
    m->forward = forward;
    m->state = state;
    m->free_state = free_state;
    return m;
}

void *ct_module_state(const ct_module *m) { return m ? m->state : NULL; }

/* ---- forward ---- */

ct_tensor *ct_nn_functional_dropout(ct_tensor *input, double p, bool training) {
    if (check_dropout_p(p) != 0) return NULL;
    return ct_dropout(input, p, training);
}

ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input) {
    if (!m) {
        ct_error_set(CT_ERR_VALUE, "ct_module_forward: module is NULL");
        return NULL;
    }
    switch (m->kind) {
    case MOD_LINEAR: return ct_linear(input, m->params[0].t, m->params[1].t); /* F.linear */
    case MOD_RELU: return ct_relu(input);                                     /* F.relu */
    case MOD_SEQUENTIAL: {
        ct_tensor *x = ct_tensor_retain(input);
        for (int i = 0; i < m->nchildren && x; i++) {
            ct_tensor *y = ct_module_forward(m->children[i].m, x);
            ct_tensor_release(x);
            x = y;
        }
        return x;
    }
    case MOD_EMBEDDING: /* F.embedding -> torch.embedding(weight, input, -1, False, False) */
        if (!input) {
            ct_error_set(CT_ERR_TYPE, "embedding(): argument 'indices' (position 2) must be Tensor, not NoneType");
            return NULL;
        }
        return ct_embedding(m->params[0].t, input, -1, false, false);
    case MOD_LAYER_NORM: /* F.layer_norm -> torch.layer_norm(input, shape, weight, bias, eps, cudnn enabled) */
        if (!input) {
            ct_error_set(CT_ERR_TYPE, "layer_norm(): argument 'input' (position 1) must be Tensor, not NoneType");
            return NULL;
        }
        return ct_layer_norm(input, m->normalized_shape, m->n_normalized, m->params[0].t, m->params[1].t, m->eps, true);
    case MOD_GELU: return ct_gelu(input, m->approximate); /* F.gelu */
    case MOD_DROPOUT: return ct_nn_functional_dropout(input, m->p, m->training);
    case MOD_MODULE_LIST:
        ct_error_set(CT_ERR_NOT_IMPLEMENTED, "Module [ModuleList] is missing the required \"forward\" function");
        return NULL;
    case MOD_CUSTOM:
        if (!m->forward) {
            ct_error_set(CT_ERR_NOT_IMPLEMENTED, "Module [%s] is missing the required \"forward\" function", m->type_name);
            return NULL;
        }
        return m->forward(m, input, m->state);
    }
    return NULL;
}

const char *ct_module_name(const ct_module *m) { return m ? m->type_name : ""; }

/* ---- train / eval ---- */

void ct_module_train(ct_module *m, bool mode) {
    if (!m) return;
    m->training = mode;
    for (int i = 0; i < m->nchildren; i++) ct_module_train(m->children[i].m, mode);
}

void ct_module_eval(ct_module *m) { ct_module_train(m, false); }

bool ct_module_is_training(const ct_module *m) { return m && m->training; }

