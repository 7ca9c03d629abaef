/* The autograd engine (torch/csrc/autograd/engine.cpp, input_buffer.cpp,
 * functions/accumulate_grad.{h,cpp}, torch/autograd/__init__.py _make_grads).
 *
 * Note [Ready queue order]
 *   PyTorch keeps ready nodes in a std::priority_queue ordered by sequence number (larger
 *   first; AccumulateGrad has UINT64_MAX so it runs as soon as it is ready). Nodes with equal
 *   numbers (several AccumulateGrads) come out in the order libstdc++'s heap algorithms give,
 *   so this file uses the same push_heap / pop_heap steps: the backward op order then matches
 *   PyTorch's exactly, ties included. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "core/alloc.h"
#include "core/print.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "core/tls.h"
#include "ops/builtin.h"
#include "dispatch/trace_file.h"
#include "ops/convert.h"
#include "ops/kernel_util.h"
#include "ops/sum_to.h"
#include "dispatch/observe.h"
#include "util/grow.h"
#include "util/hindex.h"

/* ---- node -> value maps (the library's hash index on the node pointer) ---- */

typedef struct slot {
    ct_node *key;
    int deps;
    ct_tensor **buffer; /* InputBuffer, n_inputs entries, NULL until the node gets a gradient */
} slot;

typedef struct nodemap {
    slot *s; /* entries in insertion order */
    size_t n, cap;
    ct_hindex ix;
} nodemap;

static uint64_t slot_hash(const void *ctx, uint32_t i) { return ct_hash_ptr(((const slot *)ctx)[i].key); }

/* the entry for k, or NULL; `*where` (when given) is the empty slot where k belongs */
static slot *map_find(const nodemap *m, const ct_node *k, size_t *where) {
    if (!m->ix.slots) return NULL;
    size_t i = ct_hindex_first(&m->ix, ct_hash_ptr(k));
    for (uint32_t e; (e = m->ix.slots[i]) != 0; i = ct_hindex_next(&m->ix, i))
        if (m->s[e - 1].key == k) return &m->s[e - 1];
    if (where) *where = i;
    return NULL;
}

/* k's entry, made (deps 0, no buffer) when absent; *made says which; NULL when out of memory */
static slot *map_insert(nodemap *m, ct_node *k, bool *made) {
    *made = false;
    if (ct_grow(m->s, m->cap, m->n + 1, 64) != 0 || ct_hindex_reserve(&m->ix, m->n + 1, slot_hash, m->s) != 0)
        return NULL;
    size_t where = 0;
    slot *e = map_find(m, k, &where);
    if (e) return e;
    *made = true;
    e = &m->s[m->n];
    *e = (slot){k, 0, NULL};
    ct_hindex_put(&m->ix, where, m->n++);
    return e;
}

/* ---- the ready queue: libstdc++'s heap on sequence numbers ---- */

typedef struct task {
    ct_node *fn;
    ct_tensor **inputs;
} task;

typedef struct heap {
    task *v;
    size_t n, cap;
} heap;

static bool less(const task *a, const task *b) { return a->fn->sequence_nr < b->fn->sequence_nr; }

static void push_heap_up(task *first, size_t hole, size_t top, task value) {
    size_t parent = (hole - 1) / 2;
    while (hole > top && less(&first[parent], &value)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}

static int heap_push(heap *h, task t) {
    if (ct_grow(h->v, h->cap, h->n + 1, 32) != 0) return -1;
    h->v[h->n++] = t;
    push_heap_up(h->v, h->n - 1, 0, t);
    return 0;
}

static void adjust_heap(task *first, size_t hole, size_t len, task value) {
    size_t top = hole, second = hole;
    while (len > 0 && second < (len - 1) / 2) {
        second = 2 * (second + 1);
        if (less(&first[second], &first[second - 1])) second--;
        first[hole] = first[second];
        hole = second;
    }
    if ((len & 1) == 0 && len >= 2 && second == (len - 2) / 2) {
        second = 2 * (second + 1);
        first[hole] = first[second - 1];
        hole = second - 1;
    }
    push_heap_up(first, hole, top, value);
}

static task heap_pop(heap *h) {
    task top = h->v[0];
    if (h->n > 1) {
        task value = h->v[h->n - 1];
        h->v[h->n - 1] = h->v[0];
        adjust_heap(h->v, 0, h->n - 1, value);
    }
    h->n--;
    return top;
}

/* ---- helpers ---- */

static bool same_shape(const ct_tensor *t, const ct_tensor_meta *m) {
    if (t->ndim != m->ndim) return false;
    for (int i = 0; i < t->ndim; i++)
        if (t->sizes[i] != m->sizes[i]) return false;
    return true;
}

static bool expandable_to(const int64_t *shape, int n, const int64_t *desired, int nd) {
    if (n > nd) return false;
    for (int i = 0; i < n; i++) {
        int64_t s = shape[n - 1 - i], d = desired[nd - 1 - i];
        if (s != d && s != 1) return false;
    }
    return true;
}

static void format_shape_meta(const ct_tensor_meta *m, char *buf, size_t size) { ct_format_shape(m->sizes, m->ndim, buf, size); }

/* validate_outputs: reduce broadcast gradients (sum_to), convert dtypes */
static int validate_outputs(ct_node *fn, ct_tensor **grads) {
    for (int i = 0; i < fn->n_next; i++) {
        ct_edge *e = &fn->next[i];
        if (!e->fn || !grads[i]) continue;
        const ct_tensor_meta *m = &e->fn->input_meta[e->input_nr];
        ct_tensor *g = grads[i];
        if (m->defined && !same_shape(g, m)) {
            if (!expandable_to(m->sizes, m->ndim, g->sizes, g->ndim)) {
                char a[256], b[256];
                ct_format_shape(g->sizes, g->ndim, a, sizeof a);
                format_shape_meta(m, b, sizeof b);
                return ct_error_set(CT_ERR_RUNTIME, "Function %s returned an invalid gradient at index %d - got %s but expected shape compatible with %s",
                                    fn->name, i, a, b);
            }
            ct_tensor *r = ct_sum_to(g, m->sizes, m->ndim);
            if (!r) return -1;
            ct_tensor_release(g);
            grads[i] = g = r;
        }
        if (m->defined && g->dtype != m->dtype) {
            /* validate_outputs: grad.to(metadata.scalar_type()), the to.dtype overload */
            ct_tensor *r = ct_to_dtype(g, m->dtype, false, false, CT_MEMORY_FORMAT_NONE);
            if (!r) return -1;
            ct_tensor_release(g);
            grads[i] = r;
        }
    }
    return 0;
}

/* InputBuffer::add: the first gradient is stored, later ones accumulate, in place when the
 * buffer holds the only reference to a dense tensor and grad mode is off */
static int buffer_add(ct_tensor **buf, uint32_t pos, ct_tensor *g) {
    if (!g) return 0;
    ct_tensor *old = buf[pos];
    if (!old) {
        buf[pos] = g;
        return 0;
    }
    bool inplace = ct_tls_state.grad_disabled && !ct_is_tensor_subclass_like(old) && !ct_is_tensor_subclass_like(g) &&
                   ct_is_non_overlapping_and_dense(old) &&
                   ct_tensor_refcount(old) == 1 && old->storage && atomic_load(&old->storage->refcount) == 1;
    if (inplace) {
        int rc = ct_add_(old, g, ct_int(1));
        ct_tensor_release(g);
        return rc;
    }
    ct_tensor *sum = ct_add(old, g, ct_int(1));
    ct_tensor_release(g);
    if (!sum) return -1;
    ct_tensor_release(old);
    buf[pos] = sum;
    return 0;
}

/* utils::obeys_layout_contract */
static bool obeys_layout_contract(const ct_tensor *grad, const ct_tensor *var) {
    if (!ct_is_non_overlapping_and_dense(var)) return ct_tensor_is_contiguous(grad);
    for (int i = 0; i < var->ndim; i++)
        if (var->sizes[i] != 1 && grad->strides[i] != var->strides[i]) return false;
    return true;
}

/* Tensor::new_empty_strided(sizes, strides) as C++ calls it: every option left unset (None),
 * where the typed wrapper passes pin_memory=False as Python's binding does. */
static ct_tensor *new_empty_strided_cxx(ct_tensor *self, const ct_tensor *like) {
    ct_value args[7] = {ct_tensor_value(self), ct_intlist(like->sizes, like->ndim), ct_intlist(like->strides, like->ndim),
                        ct_none(), ct_none(), ct_none(), ct_none()};
    ct_value rets[1] = {ct_none()};
    if (ct_call(ct_builtin(CT_OPID_new_empty_strided), args, rets) != 0) return NULL;
    return rets[0].u.t;
}

/* AccumulateGrad::apply */
static int accumulate_grad(ct_node *fn, ct_tensor *new_grad) {
    ct_tensor *var = fn->variable;
    if (!new_grad) return 0;
    if (ct_tensor_grad_fn(var))
        return ct_error_set(CT_ERR_RUNTIME, "leaf variable has been moved into the graph interior");
    if (!ct_tensor_requires_grad(var)) return 0;
    ct_autograd_meta *m = ct_tensor_autograd_meta(var);
    if (!m) return -1;
    if (!m->grad) {
        /* steal the gradient (a detach) when nothing else holds it and its layout fits;
         * otherwise deep-copy it (clone_obey_contract) */
        ct_tensor *g;
        if (ct_tls_state.grad_disabled && ct_tensor_refcount(new_grad) <= 1 && obeys_layout_contract(new_grad, var)) {
            g = ct_detach(new_grad);
        } else if (ct_is_non_overlapping_and_dense(var)) {
            /* clone_obey_contract: new_grad.new_empty_strided(variable's geometry).copy_(new_grad) */
            g = new_empty_strided_cxx(new_grad, var);
            if (g && ct_copy_(g, new_grad, false) != 0) {
                ct_tensor_release(g);
                g = NULL;
            }
        } else {
            g = ct_clone(new_grad, CT_CONTIGUOUS_FORMAT);
        }
        if (!g) return -1;
        m->grad = g;
        return 0;
    }
    if (ct_tls_state.grad_disabled) return ct_add_(m->grad, new_grad, ct_int(1)); /* variable_grad += new_grad */
    ct_tensor *r = ct_add(m->grad, new_grad, ct_int(1));
    if (!r) return -1;
    ct_tensor_release(m->grad);
    m->grad = r;
    return 0;
}

/* Node::operator() and the formula dispatch: fills outputs[n_next] with new references. */
static int call_node(ct_node *fn, ct_tensor **inputs, ct_tensor **outputs) {
    ct_value in_vals[CT_MAX_OP_RETS + 1];
    int nin = fn->n_inputs < CT_MAX_OP_RETS ? fn->n_inputs : CT_MAX_OP_RETS;
    for (int i = 0; i < nin; i++) in_vals[i] = inputs[i] ? ct_tensor_value(inputs[i]) : ct_none();
    void *rec = ct_record_range_begin_seq(NULL, fn->name, in_vals, nin, (int64_t)fn->sequence_nr, fn->thread_id);
    /* the hops the node makes name it, and the forward op that made it, in a trace file */
    ct_trace_node_scope scope;
    ct_trace_node_enter(&scope, fn->py_name, fn->sequence_nr, fn->sequence_nr != UINT64_MAX);
    int rc = 0;
    if (fn->variable) {
        rc = accumulate_grad(fn, inputs[0]);
    } else if (fn->root_grads) {
        for (int i = 0; i < fn->n_next; i++) outputs[i] = ct_tensor_retain(fn->root_grads[i]);
    } else {
        bool any = false;
        for (int i = 0; i < fn->n_inputs; i++) any = any || inputs[i];
        if (any) {
            ct_tensor *per_arg[CT_MAX_OP_ARGS] = {NULL};
            /* gradients of Tensor[] elements go by edge (fn->list_grads); other ops need no array */
            bool has_list = false;
            for (int a = 0; fn->op && a < fn->op->nargs && !has_list; a++)
                has_list = fn->op->args[a].type == CT_TY_TENSORLIST && fn->edge_of_arg[a] >= 0;
            fn->list_grads = has_list && fn->n_next ? ct_calloc((size_t)fn->n_next, sizeof *fn->list_grads) : NULL;
            rc = has_list && fn->n_next && !fn->list_grads ? -1 : fn->deriv->formula(fn, inputs, per_arg);
            for (int a = 0; a < CT_MAX_OP_ARGS; a++) {
                int e = fn->edge_of_arg[a];
                bool is_list = fn->op && a < fn->op->nargs && fn->op->args[a].type == CT_TY_TENSORLIST;
                if (e >= 0 && rc == 0 && !is_list) outputs[e] = per_arg[a];
                else ct_tensor_release(per_arg[a]);
                if (e >= 0 && is_list && fn->list_grads)
                    for (int64_t k = 0; k < fn->list_len[a]; k++) {
                        if (rc == 0) outputs[e + k] = fn->list_grads[e + k];
                        else ct_tensor_release(fn->list_grads[e + k]);
                        fn->list_grads[e + k] = NULL;
                    }
            }
            ct_free(fn->list_grads);
            fn->list_grads = NULL;
        }
    }
    ct_trace_node_exit(&scope);
    ct_record_range_end(rec);
    return rc;
}

/* ---- Engine::execute ---- */

typedef struct graph_task {
    nodemap deps;
    heap ready;
    bool keep_graph;
} graph_task;

static void free_buffer(ct_tensor **b, int n) {
    if (!b) return;
    for (int i = 0; i < n; i++) ct_tensor_release(b[i]);
    ct_free(b);
}

static int compute_dependencies(graph_task *gt, ct_node *root) {
    size_t cap = 0, n = 0;
    ct_node **stack = NULL;
    bool made;
    if (ct_grow(stack, cap, 64, 64) != 0) return -1;
    if (!map_insert(&gt->deps, root, &made)) {
        ct_free(stack);
        return -1;
    }
    ct_node_retain(root);
    stack[n++] = root;
    while (n > 0) {
        ct_node *fn = stack[--n];
        for (int i = 0; i < fn->n_next; i++) {
            ct_node *next = fn->next[i].fn;
            if (!next) continue;
            slot *ns = map_insert(&gt->deps, next, &made);
            if (!ns || (made && ct_grow(stack, cap, n + 1, 64) != 0)) {
                if (ns) ns->key = NULL; /* not retained: execute() skips it */
                ct_free(stack);
                return -1;
            }
            ns->deps++;
            if (made) {
                ct_node_retain(next);
                stack[n++] = next;
            }
        }
    }
    ct_free(stack);
    return 0;
}

static int evaluate_function(graph_task *gt, task t) {
    ct_node *fn = t.fn;
    void *rec = ct_record_range_begin_seq("autograd::engine::evaluate_function: ", fn->name, NULL, 0,
                                             (int64_t)fn->sequence_nr, fn->thread_id);
    ct_tensor **outputs = fn->n_next ? ct_calloc((size_t)fn->n_next, sizeof *outputs) : NULL;
    int rc = fn->n_next && !outputs ? -1 : 0;
    if (rc == 0) rc = call_node(fn, t.inputs, outputs);
    /* the node's inputs die with call_function, before its outputs are handed on */
    free_buffer(t.inputs, fn->n_inputs);
    t.inputs = NULL;
    if (rc == 0) rc = validate_outputs(fn, outputs);
    if (rc == 0 && !gt->keep_graph && !fn->variable) ct_node_release_variables(fn);
    for (int i = 0; i < fn->n_next && rc == 0; i++) {
        ct_edge *e = &fn->next[i];
        ct_tensor *g = outputs[i];
        outputs[i] = NULL;
        if (!e->fn) {
            ct_tensor_release(g);
            continue;
        }
        slot *s = map_find(&gt->deps, e->fn, NULL);
        if (!s) {
            ct_tensor_release(g);
            rc = ct_error_set(CT_ERR_RUNTIME, "dependency not found for %s", e->fn->name);
            break;
        }
        if (!s->buffer) {
            s->buffer = ct_calloc((size_t)(e->fn->n_inputs ? e->fn->n_inputs : 1), sizeof *s->buffer);
            if (!s->buffer) {
                ct_tensor_release(g);
                rc = -1;
                break;
            }
        }
        if (buffer_add(s->buffer, e->input_nr, g) != 0) {
            rc = -1;
            break;
        }
        if (--s->deps == 0) {
            task nt = {e->fn, s->buffer};
            s->buffer = NULL;
            if (heap_push(&gt->ready, nt) != 0) {
                free_buffer(nt.inputs, e->fn->n_inputs);
                rc = -1;
                break;
            }
        }
    }
    if (outputs)
        for (int i = 0; i < fn->n_next; i++) ct_tensor_release(outputs[i]);
    ct_free(outputs);
    ct_record_range_end(rec);
    return rc;
}

static int execute(ct_edge root, ct_tensor *root_grad, bool keep_graph) {
    graph_task gt;
    memset(&gt, 0, sizeof gt);
    gt.keep_graph = keep_graph;
    int rc = compute_dependencies(&gt, root.fn);
    ct_tensor **buf = NULL;
    if (rc == 0) {
        buf = ct_calloc((size_t)(root.fn->n_inputs ? root.fn->n_inputs : 1), sizeof *buf);
        if (!buf) rc = -1;
    }
    if (rc == 0) {
        buf[root.input_nr] = ct_tensor_retain(root_grad);
        task t0 = {root.fn, buf};
        if (heap_push(&gt.ready, t0) != 0) {
            free_buffer(buf, root.fn->n_inputs);
            rc = -1;
        }
    }
    /* backward runs with grad mode = create_graph (off), and without function modes (Note
     * [Function modes inside the engine] in core/tls.h) */
    bool prev = ct_tls_state.grad_disabled;
    ct_tls_state.grad_disabled = true;
    ct_tls_function_modes_suspend();
    while (rc == 0 && gt.ready.n > 0) {
        task t = heap_pop(&gt.ready);
        rc = evaluate_function(&gt, t);
    }
    ct_tls_function_modes_resume();
    ct_tls_state.grad_disabled = prev;
    while (gt.ready.n > 0) {
        task t = heap_pop(&gt.ready);
        free_buffer(t.inputs, t.fn->n_inputs);
    }
    ct_free(gt.ready.v);
    for (size_t i = 0; i < gt.deps.n; i++) {
        if (!gt.deps.s[i].key) continue;
        free_buffer(gt.deps.s[i].buffer, gt.deps.s[i].key->n_inputs);
        ct_node_release(gt.deps.s[i].key);
    }
    ct_free(gt.deps.s);
    ct_hindex_free(&gt.deps.ix);
    return rc;
}

/* torch.autograd.backward: _make_grads for every root first (ones_like for the implicit ones),
 * then one graph task: started at the single root's edge, or at a GraphRoot holding every
 * root's edge (Engine::execute's skip_dummy_node), so shared parts of the graph run once. */
int ct_autograd_backward(ct_tensor *const *tensors, ct_tensor *const *grads, size_t n, bool retain_graph) {
    if (n == 0) return 0; /* torch.autograd.backward([]) does nothing */
    if (!tensors) return ct_error_set(CT_ERR_VALUE, "backward: tensors is NULL (n is %zu)", n);
    if (n > INT32_MAX) return ct_error_set(CT_ERR_VALUE, "backward: too many tensors");
    for (size_t i = 0; i < n; i++)
        if (!tensors[i]) return ct_error_set(CT_ERR_VALUE, "backward: tensor %zu is NULL", i);
    ct_tensor **gs = ct_calloc(n, sizeof *gs);
    ct_edge *roots = ct_calloc(n, sizeof *roots);
    int rc = gs && roots ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        ct_tensor *t = tensors[i];
        ct_tensor *g = grads ? grads[i] : NULL;
        /* _make_grads, before the engine's requires-grad check below (as PyTorch orders them: a
         * wrong shape is reported for an output that does not require grad too) */
        if (!g) {
            if (!ct_tensor_requires_grad(t)) continue; /* no implicit gradient: the check below refuses it */
            if (t->numel != 1) {
                rc = ct_error_set(CT_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
                break;
            }
            gs[i] = ct_ones_like(t, CT_DTYPE_UNDEFINED, CT_PRESERVE_FORMAT);
            if (!gs[i]) rc = -1;
        } else {
            bool same = g->ndim == t->ndim;
            for (int d = 0; same && d < t->ndim; d++) same = g->sizes[d] == t->sizes[d];
            if (!same) {
                char a[256], b[256];
                ct_format_shape(g->sizes, g->ndim, a, sizeof a);
                ct_format_shape(t->sizes, t->ndim, b, sizeof b);
                rc = ct_error_set(CT_ERR_RUNTIME,
                                  "Mismatch in shape: grad_output[%zu] has a shape of torch.Size(%s) and output[%zu] has a shape of torch.Size(%s).",
                                  i, a, i, b);
                break;
            }
            gs[i] = ct_tensor_retain(g);
        }
    }
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!ct_tensor_requires_grad(tensors[i]))
            rc = ct_error_set(CT_ERR_RUNTIME, "element %zu of tensors does not require grad and does not have a grad_fn", i);
    for (size_t i = 0; i < n && rc == 0; i++) rc = ct_gradient_edge(tensors[i], &roots[i]);
    if (rc == 0 && n == 1) {
        rc = execute(roots[0], gs[0], retain_graph);
    } else if (rc == 0) {
        ct_edge start = {ct_graph_root_new(roots, gs, (int)n), 0};
        rc = start.fn ? execute(start, NULL, retain_graph) : -1;
        ct_node_release(start.fn);
    }
    for (size_t i = 0; roots && i < n; i++) ct_node_release(roots[i].fn);
    for (size_t i = 0; gs && i < n; i++) ct_tensor_release(gs[i]);
    ct_free(roots);
    ct_free(gs);
    return rc;
}

int ct_backward(ct_tensor *t, ct_tensor *grad, bool retain_graph) {
    ct_tensor *ts[1] = {t}, *gs[1] = {grad};
    return ct_autograd_backward(ts, gs, 1, retain_graph);
}
