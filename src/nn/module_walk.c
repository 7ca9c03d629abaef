/* Walking a module tree: named_parameters() / parameters() in PyTorch's order (own parameters
 * first, then each child's with its prefix, a tensor already seen skipped as
 * remove_duplicate=True does), and repr() as nn.Module.__repr__ prints it. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/nn.h"
#include "nn/module_impl.h"
#include "util/grow.h"
#include "util/pyfloat.h"
#include "util/strbuf.h"

/* ---- parameters ---- */

typedef struct walk {
    ct_named_tensor *v;
    int n;
    size_t cap;
    bool names;
    bool fail;
} walk;

static bool seen(const walk *w, const ct_tensor *t) {
    for (int i = 0; i < w->n; i++)
        if (w->v[i].tensor == t) return true;
    return false;
}

static void walk_params(const ct_module *m, const char *prefix, walk *w) {
    for (int i = 0; i < m->nparams && !w->fail; i++) {
        ct_tensor *t = m->params[i].t;
        if (!t || seen(w, t)) continue;
        if (ct_grow(w->v, w->cap, (size_t)w->n + 1, 16) != 0) {
            w->fail = true;
            return;
        }
        char *name = NULL;
        if (w->names) {
            name = *prefix ? ct_asprintf("%s.%s", prefix, m->params[i].name) : ct_strdup(m->params[i].name);
            if (!name) {
                w->fail = true;
                return;
            }
        }
        w->v[w->n].name = name;
        w->v[w->n].tensor = t;
        w->n++;
    }
    for (int i = 0; i < m->nchildren && !w->fail; i++) {
        char *p = *prefix ? ct_asprintf("%s.%s", prefix, m->children[i].name) : ct_strdup(m->children[i].name);
        if (!p) {
            w->fail = true;
            return;
        }
        walk_params(m->children[i].m, p, w);
        ct_free(p);
    }
}

void ct_named_tensors_free(ct_named_tensor *v, int n) {
    if (!v) return;
    for (int i = 0; i < n; i++) ct_free(v[i].name);
    ct_free(v);
}

int ct_module_named_parameters(const ct_module *m, ct_named_tensor **out) {
    if (out) *out = NULL;
    if (!m || !out) return ct_error_set(CT_ERR_VALUE, "ct_module_named_parameters: NULL argument");
    walk w = {NULL, 0, 0, true, false};
    walk_params(m, "", &w);
    if (w.fail) {
        ct_named_tensors_free(w.v, w.n);
        return -1;
    }
    *out = w.v;
    return w.n;
}

int ct_module_parameters(const ct_module *m, ct_tensor **out, int max) {
    if (!m) return 0;
    walk w = {NULL, 0, 0, false, false};
    walk_params(m, "", &w);
    for (int i = 0; out && i < w.n && i < max; i++) out[i] = w.v[i].tensor;
    int n = w.fail ? -1 : w.n;
    ct_free(w.v);
    return n;
}

ct_tensor *ct_nn_linear_weight(const ct_module *m) { return m && m->kind == MOD_LINEAR ? m->params[0].t : NULL; }
ct_tensor *ct_nn_linear_bias(const ct_module *m) { return m && m->kind == MOD_LINEAR ? m->params[1].t : NULL; }

/* ---- repr ---- */

static char *own_repr(const ct_module *m) {
    char v[CT_PY_FLOAT_REPR_MAX];
    switch (m->kind) {
    case MOD_LINEAR:
        return ct_asprintf("Linear(in_features=%lld, out_features=%lld, bias=%s)", (long long)m->in_features,
                           (long long)m->out_features, m->has_bias ? "True" : "False");
    case MOD_RELU: return ct_strdup("ReLU()");
    case MOD_EMBEDDING: return ct_asprintf("Embedding(%lld, %lld)", (long long)m->in_features, (long long)m->out_features);
    case MOD_LAYER_NORM: {
        char shape[256];
        size_t len = (size_t)snprintf(shape, sizeof shape, "(");
        for (int i = 0; i < m->n_normalized && len < sizeof shape; i++)
            len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%lld", i ? ", " : "", (long long)m->normalized_shape[i]);
        if (len < sizeof shape) snprintf(shape + len, sizeof shape - len, m->n_normalized == 1 ? ",)" : ")");
        ct_py_float_repr(m->eps, v);
        return ct_asprintf("LayerNorm(%s, eps=%s, elementwise_affine=%s)", shape, v, m->elementwise_affine ? "True" : "False");
    }
    case MOD_GELU: return ct_asprintf("GELU(approximate='%s')", m->approximate);
    case MOD_DROPOUT:
        ct_py_float_repr(m->p, v);
        return ct_asprintf("Dropout(p=%s, inplace=False)", v);
    default: return NULL;
    }
}

char *ct_module_repr(const ct_module *m) {
    if (!m) {
        ct_error_set(CT_ERR_VALUE, "ct_module_repr: module is NULL");
        return NULL;
    }
    char *own = own_repr(m);
    if (own || m->nchildren == 0) return own ? own : ct_asprintf("%s()", m->type_name);
    /* a container: each child on its own line, indented by two */
    char *s = ct_asprintf("%s(\n", m->type_name);
    for (int i = 0; s && i < m->nchildren; i++) {
        char *c = ct_module_repr(m->children[i].m);
        char *indented = NULL;
        if (c) {
            /* indent continuation lines */
            size_t extra = 0;
            for (const char *p = c; *p; p++) extra += *p == '\n';
            indented = ct_malloc(strlen(c) + 2 * extra + 1);
            if (indented) {
                char *o = indented;
                for (const char *p = c; *p; p++) {
                    *o++ = *p;
                    if (*p == '\n') {
                        *o++ = ' ';
                        *o++ = ' ';
                    }
                }
                *o = '\0';
            }
        }
        char *ns = indented ? ct_asprintf("%s  (%s): %s\n", s, m->children[i].name, indented) : NULL;
        ct_free(c);
        ct_free(indented);
        ct_free(s);
        s = ns;
    }
    if (!s) return NULL;
    char *r = ct_asprintf("%s)", s);
    ct_free(s);
    return r;
}
