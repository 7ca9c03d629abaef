/* Autograd nodes, edges, saved variables, and the autograd side of tensors
 * (torch/csrc/autograd/{function,variable,saved_variable}.cpp). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "core/alloc.h"
#include "core/startup.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/testing.h"
#include "core/tls.h"
#include "dispatch/py_interpreter.h"
#include "ops/kernel_util.h"
#include "core/print.h"
#include "util/strbuf.h"

static _Thread_local int64_t live_nodes; /* per thread, like the tensor counters */
int64_t ct_testing_live_nodes(void) { return live_nodes; }

/* at::sequence_number: per thread, in the dispatcher's thread state (core/tls.h) */
uint64_t ct_sequence_number_peek(void) { return ct_tls_state.sequence_nr; }

static uint64_t thread_id(void) {
    static _Thread_local char marker;
    return (uint64_t)(uintptr_t)&marker;
}

/* ---- nodes ---- */

/* A node, its edges and its first input metadata are one allocation: the edges follow the
 * node, then the metadata (a node made a new block only when ct_node_set_num_inputs grows it). */
static ct_tensor_meta *inline_input_meta(const ct_node *n) {
    return (ct_tensor_meta *)(void *)((char *)(void *)(n + 1) + sizeof(ct_edge) * (size_t)n->n_next);
}

static ct_node *node_alloc(const char *name, const char *py_name, int n_next, int n_inputs) {
    _Static_assert(sizeof(ct_node) % _Alignof(ct_edge) == 0 && sizeof(ct_edge) % _Alignof(ct_tensor_meta) == 0,
                   "the edges and the metadata stay aligned after the node");
    const size_t metas = (size_t)(n_inputs ? n_inputs : 1);
    ct_node *n = ct_calloc(1, sizeof *n + sizeof(ct_edge) * (size_t)n_next + sizeof(ct_tensor_meta) * metas);
    if (!n) return NULL;
    n->n_next = n_next;
    n->next = n_next ? (ct_edge *)(void *)(n + 1) : NULL;
    n->input_meta = inline_input_meta(n);
    atomic_init(&n->refcount, 1);
    n->name = name;
    n->py_name = py_name;
    n->n_next = n_next;
    n->n_inputs = n_inputs;
    n->thread_id = thread_id();
    for (int i = 0; i < CT_MAX_OP_ARGS; i++) n->edge_of_arg[i] = -1;
    live_nodes++;
    return n;
}

ct_node *ct_node_new_formula(const ct_deriv *d, const ct_op *op, const ct_value *args, int n_inputs) {
    int n_next = 0;
    for (int i = 0; i < op->nargs; i++) {
        if (!(d->diff_args >> i & 1u)) continue;
        n_next += args[i].tag == CT_TAG_TENSORLIST ? (int)args[i].u.tlist.len : 1;
    }
    ct_node *n = node_alloc(d->name, d->name, n_next, n_inputs);
    if (!n) return NULL;
    /* Node(sequence_nr = at::sequence_number::get_and_increment()) */
    n->sequence_nr = ct_tls_state.sequence_nr++;
    n->deriv = d;
    n->op = op;
    int e = 0;
    for (int i = 0; i < op->nargs; i++) {
        if (args[i].tag == CT_TAG_TENSORLIST) n->list_len[i] = args[i].u.tlist.len;
        if (!(d->diff_args >> i & 1u)) continue;
        n->edge_of_arg[i] = e;
        e += args[i].tag == CT_TAG_TENSORLIST ? (int)args[i].u.tlist.len : 1;
    }
    return n;
}

int ct_node_set_num_inputs(ct_node *n, int n_inputs) {
    if (n_inputs <= n->n_inputs) {
        n->n_inputs = n_inputs;
        return 0;
    }
    ct_tensor_meta *m = ct_calloc((size_t)n_inputs, sizeof *m);
    if (!m) return -1;
    memcpy(m, n->input_meta, sizeof *m * (size_t)n->n_inputs);
    if (n->input_meta != inline_input_meta(n)) ct_free(n->input_meta);
    n->input_meta = m;
    n->n_inputs = n_inputs;
    return 0;
}

ct_node *ct_graph_root_new(ct_edge *roots, ct_tensor *const *grads, int n) {
    ct_node *r = node_alloc("GraphRoot", "GraphRoot", n, 0);
    if (!r) return NULL;
    r->root_grads = ct_calloc((size_t)(n ? n : 1), sizeof *r->root_grads);
    if (!r->root_grads) {
        ct_node_release(r);
        return NULL;
    }
    r->sequence_nr = ct_tls_state.sequence_nr++;
    for (int i = 0; i < n; i++) {
        r->next[i] = roots[i];
        roots[i].fn = NULL;
        r->root_grads[i] = ct_tensor_retain(grads[i]);
    }
    return r;
}

ct_node *ct_node_retain(ct_node *n) {
    if (n) atomic_fetch_add_explicit(&n->refcount, 1, memory_order_relaxed);
    return n;
}

void ct_saved_release(ct_saved_var *sv) {
    ct_tensor_release(sv->data);
    ct_node_release(sv->grad_fn);
    sv->data = NULL;
    sv->grad_fn = NULL;
}

/* The saved variables: only a formula node saves any, one slot per argument and return of
 * its op (autograd_kernel.c), so the slots past those are empty. */
static void release_saved(ct_node *n) {
    const int na = n->op ? n->op->nargs : 0, nr = n->op ? n->op->nrets : 0;
    for (int i = 0; i < na; i++) {
        ct_saved_release(&n->saved_args[i]);
        for (int64_t k = 0; n->saved_lists[i] && k < n->list_len[i]; k++) ct_saved_release(&n->saved_lists[i][k]);
    }
    for (int i = 0; i < nr; i++) ct_saved_release(&n->saved_rets[i]);
}

void ct_node_release(ct_node *n) {
    /* iterative over chains of last references, so deep graphs do not recurse deeply */
    while (n) {
        if (atomic_fetch_sub_explicit(&n->refcount, 1, memory_order_acq_rel) != 1) return;
        ct_node *tail = NULL;
        for (int i = 0; i < n->n_next; i++) {
            if (!n->next[i].fn) continue;
            if (!tail) tail = n->next[i].fn;
            else ct_node_release(n->next[i].fn);
        }
        release_saved(n);
        if (n->root_grads) {
            for (int i = 0; i < n->n_next; i++) ct_tensor_release(n->root_grads[i]);
            ct_free(n->root_grads);
        }
        if (n->variable) {
            if (n->variable->autograd && n->variable->autograd->grad_accumulator == n)
                n->variable->autograd->grad_accumulator = NULL;
            ct_tensor_release(n->variable);
        }
        if (n->input_meta != inline_input_meta(n)) ct_free(n->input_meta);
        ct_free(n->args);
        ct_free(n->list_store);
        ct_free(n->arg_meta);
        for (int i = 0, na = n->op ? n->op->nargs : 0; i < na; i++) {
            ct_free(n->list_meta[i]);
            ct_free(n->saved_lists[i]);
            ct_free(n->strings[i]);
        }
        ct_free(n);
        live_nodes--;
        n = tail;
    }
}

const char *ct_node_name(const ct_node *n) { return n ? n->name : ""; }
const char *ct_node_py_name(const ct_node *n) { return n ? n->py_name : ""; }
uint64_t ct_node_sequence_nr(const ct_node *n) { return n ? n->sequence_nr : 0; }
int ct_node_num_next(const ct_node *n) { return n ? n->n_next : 0; }

ct_node *ct_node_next(const ct_node *n, int i, uint32_t *input_nr) {
    if (!n || i < 0 || i >= n->n_next) {
        if (input_nr) *input_nr = 0;
        return NULL;
    }
    if (input_nr) *input_nr = n->next[i].input_nr;
    return n->next[i].fn;
}

ct_tensor *ct_node_variable(const ct_node *n) { return n ? n->variable : NULL; }

char *ct_node_repr(const ct_node *n) {
    if (!n) {
        ct_error_set(CT_ERR_VALUE, "ct_node_repr: node is NULL");
        return NULL;
    }
    return ct_asprintf("<%s object at %p>", n->py_name, (const void *)n);
}

static void graph_lines(const ct_node *n, int depth, ct_strbuf *b) {
    ct_sb_repeat(b, ' ', (size_t)depth * 2);
    ct_sb_printf(b, "%s\n", n->py_name);
    for (int i = 0; i < n->n_next && !b->failed; i++)
        if (n->next[i].fn) graph_lines(n->next[i].fn, depth + 1, b);
}

char *ct_node_format_graph(const ct_node *n) {
    if (!n) {
        ct_error_set(CT_ERR_VALUE, "ct_node_format_graph: node is NULL");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    graph_lines(n, 0, &b);
    return ct_sb_finish(&b);
}

void ct_meta_of(ct_tensor_meta *m, const ct_tensor *t) {
    if (!t) {
        memset(m, 0, sizeof *m);
        return;
    }
    m->defined = true;
    m->ndim = t->ndim;
    m->dtype = t->dtype;
    memcpy(m->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(m->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
}

/* ---- leaves and edges ---- */

ct_node *ct_grad_accumulator(ct_tensor *leaf) {
    ct_autograd_meta *m = ct_tensor_autograd_meta(leaf);
    if (!m) return NULL;
    if (m->grad_accumulator) return ct_node_retain(m->grad_accumulator);
    /* AccumulateGrad is constructed with sequence_nr UINT64_MAX so it runs as soon as it can */
    ct_node *n = node_alloc("torch::autograd::AccumulateGrad", "AccumulateGrad", 0, 1);
    if (!n) return NULL;
    n->sequence_nr = UINT64_MAX;
    n->variable = ct_tensor_retain(leaf);
    ct_meta_of(&n->input_meta[0], leaf);
    m->grad_accumulator = n;
    return n;
}

int ct_gradient_edge(ct_tensor *t, ct_edge *out) {
    out->fn = NULL;
    out->input_nr = 0;
    if (!t || !t->autograd) return 0;
    if (t->autograd->grad_fn) {
        out->fn = ct_node_retain(t->autograd->grad_fn);
        out->input_nr = t->autograd->output_nr;
    } else if (t->autograd->requires_grad) {
        out->fn = ct_grad_accumulator(t);
        if (!out->fn) return -1;
    }
    return 0;
}

bool ct_node_needs(const ct_node *n, int arg) {
    int e = n->edge_of_arg[arg];
    if (e < 0) return false;
    if (n->list_len[arg] > 0 || (n->op && n->op->args[arg].type == CT_TY_TENSORLIST)) {
        /* a Tensor[] argument: any of its elements */
        for (int64_t k = 0; k < n->list_len[arg]; k++)
            if (ct_node_needs_elem(n, arg, k)) return true;
        return false;
    }
    if (!n->next[e].fn) return false;
    return n->needed ? n->needed[e] : true;
}

bool ct_node_needs_elem(const ct_node *n, int arg, int64_t k) {
    int e = n->edge_of_arg[arg];
    if (e < 0 || k < 0 || k >= n->list_len[arg]) return false;
    e += (int)k;
    if (!n->next[e].fn) return false;
    return n->needed ? n->needed[e] : true;
}

/* ---- tensors: requires_grad, grad, grad_fn ---- */

bool ct_tensor_requires_grad(const ct_tensor *t) {
    return t && t->autograd && (t->autograd->requires_grad || t->autograd->grad_fn);
}

bool ct_tensor_is_leaf(const ct_tensor *t) { return !t || !t->autograd || !t->autograd->grad_fn; }

ct_tensor *ct_tensor_grad(const ct_tensor *t) { return t && t->autograd ? t->autograd->grad : NULL; }

ct_node *ct_tensor_grad_fn(const ct_tensor *t) { return t && t->autograd ? t->autograd->grad_fn : NULL; }

uint32_t ct_tensor_output_nr(const ct_tensor *t) { return t && t->autograd ? t->autograd->output_nr : 0; }

int ct_tensor_set_requires_grad(ct_tensor *t, bool requires_grad) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "ct_tensor_set_requires_grad: tensor is NULL");
    if (!ct_tensor_is_leaf(t)) {
        /* a non-leaf requires grad already: asking for it again changes nothing */
        if (requires_grad) return 0;
        return ct_error_set(CT_ERR_RUNTIME,
                            "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                            "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    }
    /* Tensor.requires_grad_()'s words (a factory's requires_grad=True and nn.Parameter say "Only
     * Tensors of floating point and complex dtype ...", AutogradMeta's check, in the Python binding) */
    if (requires_grad && !ct_dtype_is_floating(t->dtype))
        return ct_error_set(CT_ERR_RUNTIME, "only Tensors of floating point dtype can require gradients");
    if (requires_grad && t->is_inference && !ct_tls_state.inference_mode)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
    if (!requires_grad && !t->autograd) return 0;
    ct_autograd_meta *m = ct_tensor_autograd_meta(t);
    if (!m) return -1;
    m->requires_grad = requires_grad;
    return 0;
}

int ct_tensor_set_grad(ct_tensor *t, ct_tensor *grad) {
    if (!t) return ct_error_set(CT_ERR_VALUE, "ct_tensor_set_grad: tensor is NULL");
    if (grad) {
        bool same = grad->ndim == t->ndim;
        for (int i = 0; same && i < t->ndim; i++) same = grad->sizes[i] == t->sizes[i];
        /* THPVariable_set_grad's checks, in its order */
        if (grad->dtype != t->dtype)
            return ct_error_set(CT_ERR_RUNTIME,
                                "attempting to assign a gradient with dtype '%s' to a tensor with dtype '%s'. Please ensure that "
                                "the gradient and the tensor have the same dtype",
                                ct_dtype_type_meta_name(grad->dtype), ct_dtype_type_meta_name(t->dtype));
        if (!same) {
            char gs[256], ts[256];
            ct_format_shape(grad->sizes, grad->ndim, gs, sizeof gs);
            ct_format_shape(t->sizes, t->ndim, ts, sizeof ts);
            return ct_error_set(CT_ERR_RUNTIME,
                                "attempting to assign a gradient of size '%s' to a tensor of size '%s'. Please ensure that the "
                                "gradient and the tensor are the same size",
                                gs, ts);
        }
    }
    if (!grad && !t->autograd) return 0;
    ct_autograd_meta *m = ct_tensor_autograd_meta(t);
    if (!m) return -1;
    ct_tensor_retain(grad);
    ct_tensor_release(m->grad);
    m->grad = grad;
    return 0;
}

int ct_set_history(ct_tensor *t, ct_node *fn, uint32_t output_nr) {
    ct_autograd_meta *m = ct_tensor_autograd_meta(t);
    if (!m) return -1;
    ct_node_retain(fn);
    ct_node_release(m->grad_fn);
    m->grad_fn = fn;
    m->output_nr = output_nr;
    m->requires_grad = false; /* requires_grad of a non-leaf comes from its grad_fn */
    if (output_nr < (uint32_t)fn->n_inputs) ct_meta_of(&fn->input_meta[output_nr], t);
    return 0;
}

bool ct_any_requires_grad(const ct_value *args, uint32_t mask, int nargs) {
    if (ct_tls_state.grad_disabled) return false;
    for (int i = 0; i < nargs; i++) {
        if (!(mask >> i & 1u)) continue;
        if (args[i].tag == CT_TAG_TENSOR && ct_tensor_requires_grad(args[i].u.t)) return true;
        if (args[i].tag == CT_TAG_TENSORLIST)
            for (int64_t k = 0; k < args[i].u.tlist.len; k++)
                if (args[i].u.tlist.items[k] && ct_tensor_requires_grad(args[i].u.tlist.items[k])) return true;
    }
    return false;
}

/* ---- shallow_copy_and_detach ---- */

/* Whether a shallow copy of t goes to the Python interpreter's detach (a mode is on the stack
 * or t is a wrapper subclass, and Python is not excluded), as TensorImpl's does. */
static inline bool detach_through_python(const ct_tensor *t) {
    if (ct_keyset_has(ct_tls_excluded_raw(&ct_tls_state), CT_KEY_Python)) return false;
    return ct_tls_state.dispatch_modes > 0 || ct_keyset_has(t->keys, CT_KEY_Python);
}

ct_tensor *ct_shallow_copy_and_detach_consume(ct_tensor *t) {
    /* Note [A detached copy of a tensor nobody else holds]
     *   The copy of a tensor whose only reference is the caller's, with no autograd metadata,
     *   wrapper, binding or trace-file name, is that tensor with metadata changes forbidden:
     *   ADInplaceOrView's detach copies the fresh tensor the kernel below it returned (two
     *   TensorImpls in PyTorch), and keeping the one saves an allocation and a release
     *   without a difference anyone could see. */
    if (!detach_through_python(t) && atomic_load_explicit(&t->refcount, memory_order_acquire) == 1 && !t->autograd &&
        !t->subclass && !t->binding && atomic_load_explicit(&t->trace_id, memory_order_relaxed) == 0) {
        t->allow_metadata_change = false;
        return t;
    }
    ct_tensor *r = ct_shallow_copy_and_detach(t);
    ct_tensor_release(t);
    return r;
}

/* A new header over t's data, through the Python interpreter's detach when a mode or t's
 * class asks for it, with metadata changes forbidden and no version counter set yet. */
static ct_tensor *shallow_copy(ct_tensor *t) {
    ct_tensor *r = NULL;
    if (detach_through_python(t)) {
        /* pyinterpreter()->detach(self): dispatches aten::detach to the mode (or subclass) */
        if (ct_py_interpreter_hooks.detach(t, &r) != 0) return NULL;
    } else {
        r = ct_make_alias(t, t->sizes, t->strides, t->ndim, t->storage_offset);
    }
    if (r) r->allow_metadata_change = false;
    return r;
}

ct_tensor *ct_shallow_copy_and_detach(ct_tensor *t) {
    ct_tensor *r = shallow_copy(t);
    if (r) ct_tensor_share_version(r, t);
    return r;
}

ct_tensor *ct_tensor_base(const ct_tensor *t) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_base: tensor is NULL");
        return NULL;
    }
    return t->autograd && t->autograd->is_view ? t->autograd->base : NULL;
}

/* ---- Tensor.data ---- */

ct_tensor *ct_tensor_data(ct_tensor *t) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_data: tensor is NULL");
        return NULL;
    }
    /* VariableHooks::variable_data: shallow_copy_and_detach with a version counter of its own
     * (in-place changes through it are invisible to autograd's checks: that is what .data is
     * for) and no autograd metadata; no op is dispatched unless a mode or t's class takes the
     * detach */
    ct_tensor *r = shallow_copy(t);
    if (!r) return NULL;
    if (r->autograd) {
        ct_autograd_hooks->release(r->autograd);
        r->autograd = NULL;
    }
    if (ct_tensor_fresh_version(r) != 0) {
        ct_tensor_release(r);
        return NULL;
    }
    return r;
}

int ct_tensor_set_data(ct_tensor *t, ct_tensor *data) {
    if (!t || !data) return ct_error_set(CT_ERR_VALUE, "ct_tensor_set_data: tensor is NULL");
    /* VariableHooks::set_data's checks, in its order */
    /* (PyTorch's _has_compatible_shallow_copy_type takes a CPU wrapper subclass as dense; a
     * ctorch wrapper keeps its own data, which a shallow copy cannot carry over) */
    if (t->subclass || data->subclass)
        return ct_error_set(CT_ERR_UNSUPPORTED, "ctorch: setting .data of or to a wrapper subclass tensor is not supported");
    if (ct_tensor_requires_grad(t) && !ct_dtype_is_floating(data->dtype))
        return ct_error_set(CT_ERR_RUNTIME,
                            "data set to a tensor that requires gradients must be floating point or complex dtype");
    /* an AccumulateGrad made for the old dtype is not reused for the new one */
    if (t->autograd && t->autograd->grad_accumulator && data->dtype != t->dtype) t->autograd->grad_accumulator = NULL;
    return ct_tensor_shallow_copy_from(t, data);
}

/* ---- saved variables ---- */

int ct_saved_save(ct_saved_var *sv, ct_tensor *t, bool is_output) {
    memset(sv, 0, sizeof *sv);
    if (!t) return 0;
    if (t->is_inference)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Inference tensors cannot be saved for backward. To work around you can make a clone to get "
                            "a normal tensor and use it in autograd.");
    sv->defined = true;
    sv->saved_version = ct_tensor_version(t);
    sv->is_leaf = ct_tensor_is_leaf(t);
    sv->is_output = is_output;
    sv->requires_grad = ct_tensor_requires_grad(t);
    sv->output_nr = ct_tensor_output_nr(t);
    if (!is_output || sv->is_leaf) {
        sv->saved_original = true;
        sv->data = ct_tensor_retain(t);
        return 0;
    }
    /* an output: keep data without history (tensor_data()), relink on unpack */
    sv->data = ct_shallow_copy_and_detach(t);
    return sv->data ? 0 : -1;
}

int ct_saved_unpack(ct_node *n, ct_saved_var *sv, ct_tensor **out) {
    *out = NULL;
    if (!sv->defined) return 0;
    if (!sv->data)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Trying to backward through the graph a second time (or directly access saved tensors after "
                            "they have already been freed). Saved intermediate values of the graph are freed when you "
                            "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
                            "through the graph a second time or if you need to access saved tensors after calling "
                            "backward.");
    ct_node *grad_fn = sv->saved_original ? ct_tensor_grad_fn(sv->data) : NULL;
    uint32_t output_nr = sv->saved_original ? ct_tensor_output_nr(sv->data) : sv->output_nr;
    if (!sv->is_leaf && !grad_fn) grad_fn = n; /* a saved output belongs to the node that saved it */
    int64_t cur = ct_tensor_version(sv->data);
    if (cur != sv->saved_version) {
        char shape[256];
        size_t len = 0;
        len += (size_t)snprintf(shape + len, sizeof shape - len, "[");
        for (int i = 0; i < sv->data->ndim && len < sizeof shape; i++)
            len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%lld", i ? ", " : "", (long long)sv->data->sizes[i]);
        if (len < sizeof shape) snprintf(shape + len, sizeof shape - len, "]");
        char which[256] = "";
        if (grad_fn) snprintf(which, sizeof which, ", which is output %u of %s,", (unsigned)output_nr, grad_fn->name);
        return ct_error_set(CT_ERR_RUNTIME,
                            "one of the variables needed for gradient computation has been modified by an inplace "
                            "operation: [%s %s]%s is at version %lld; expected version %lld instead. Hint: enable "
                            "anomaly detection to find the operation that failed to compute its gradient, with "
                            "torch.autograd.set_detect_anomaly(True).",
                            ct_dtype_message_type(sv->data->dtype), shape, which, (long long)cur, (long long)sv->saved_version);
    }
    if (sv->saved_original) {
        *out = ct_tensor_retain(sv->data);
        return 0;
    }
    /* make_variable(data, Edge(grad_fn, output_nr)): another shallow copy */
    ct_tensor *var = ct_shallow_copy_and_detach(sv->data);
    if (!var) return -1;
    if (grad_fn) {
        ct_autograd_meta *m = ct_tensor_autograd_meta(var);
        if (!m) {
            ct_tensor_release(var);
            return -1;
        }
        m->grad_fn = ct_node_retain(grad_fn);
        m->output_nr = output_nr;
    } else if (sv->requires_grad) {
        ct_autograd_meta *m = ct_tensor_autograd_meta(var);
        if (m) m->requires_grad = true;
    }
    *out = var;
    return 0;
}

void ct_node_release_variables(ct_node *n) {
    release_saved(n);
    n->released = true;
}

/* ---- autograd metadata: created here, released and named through the hooks core calls
 * (ct_autograd_meta_hooks, c10's AutogradMetaInterface) ---- */

ct_autograd_meta *ct_tensor_autograd_meta(ct_tensor *t) {
    if (!t->autograd) {
        if (!ct_library_started()) {
            ct_error_not_started("autograd");
            return NULL;
        }
        t->autograd = ct_calloc(1, sizeof *t->autograd);
    }
    return t->autograd;
}

static void meta_release(ct_autograd_meta *m) {
    ct_tensor_release(m->grad);
    ct_node_release(m->grad_fn);
    ct_tensor_release(m->base);
    ct_free(m);
}

static const char *meta_grad_fn_name(const ct_autograd_meta *m) {
    return m->grad_fn ? ct_node_py_name(m->grad_fn) : NULL;
}

static const ct_autograd_meta_hooks hooks = {meta_release, meta_grad_fn_name};

void ct_autograd_install_meta_hooks(void) { ct_autograd_hooks = &hooks; }
