/*
 * ctorch/autograd.h - requires_grad, the graph, backward, grad modes.
 *
 * The graph is PyTorch's: each differentiable op run with grad mode on and an input that
 * requires grad records a node named as PyTorch names it (AddmmBackward0, TBackward0, ...)
 * with the op's sequence number; leaves get AccumulateGrad. backward() runs the nodes in
 * PyTorch's engine order and every backward formula calls ops through the dispatcher, so
 * dispatch modes, the profiler and the decision trace see backward too.
 *
 * Ownership: nodes are reference counted; every ct_node * returned here is BORROWED (it lives
 * as long as the tensor or node it came from) unless stated.
 */
#ifndef CTORCH_AUTOGRAD_H
#define CTORCH_AUTOGRAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/export.h"
#include "ctorch/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_node ct_node;

/* ---- tensors ---- */

/* Tensor.requires_grad_(flag). Errors (PyTorch's): a non-floating dtype, or a non-leaf. */
CT_API int ct_tensor_set_requires_grad(ct_tensor *t, bool requires_grad);
CT_API bool ct_tensor_requires_grad(const ct_tensor *t);
/* Tensor.is_leaf: no grad_fn. */
CT_API bool ct_tensor_is_leaf(const ct_tensor *t);
/* Tensor.grad: borrowed, NULL if none. */
CT_API ct_tensor *ct_tensor_grad(const ct_tensor *t);
/* Sets (retains) or clears (NULL) Tensor.grad. */
CT_API int ct_tensor_set_grad(ct_tensor *t, ct_tensor *grad);
/* Tensor.grad_fn: borrowed, NULL for leaves. */
CT_API ct_node *ct_tensor_grad_fn(const ct_tensor *t);
/* Which output of its grad_fn the tensor is. */
CT_API uint32_t ct_tensor_output_nr(const ct_tensor *t);

/* Tensor.backward(gradient=grad, retain_graph=retain_graph). grad may be NULL for a one-element
 * output (the engine seeds it with ones_like, as torch.autograd does). Returns 0 or -1 with
 * PyTorch's error (e.g. "element 0 of tensors does not require grad and does not have a
 * grad_fn", "grad can be implicitly created only for scalar outputs", backward twice). */
CT_API int ct_backward(ct_tensor *t, ct_tensor *grad, bool retain_graph);
/* torch.autograd.backward(tensors, grad_tensors): grads may be NULL, or hold NULL entries;
 * n == 0 does nothing, as torch.autograd.backward([]). */
CT_API int ct_autograd_backward(ct_tensor *const *tensors, ct_tensor *const *grads, size_t n, bool retain_graph);

/* ---- nodes ---- */

/* Adds a reference to a node (so it outlives the tensor or node it was borrowed from) and
 * returns n; ct_node_release drops one and frees the node, and the references it holds to the
 * nodes after it, with the last. NULL is allowed and ignored by both. */
CT_API ct_node *ct_node_retain(ct_node *n);
CT_API void ct_node_release(ct_node *n);

/* Node.name(): "AddmmBackward0", "torch::autograd::AccumulateGrad". */
CT_API const char *ct_node_name(const ct_node *n);
/* type(grad_fn).__name__: "AddmmBackward0", "AccumulateGrad". */
CT_API const char *ct_node_py_name(const ct_node *n);
/* The node's sequence number (UINT64_MAX for AccumulateGrad). */
CT_API uint64_t ct_node_sequence_nr(const ct_node *n);
/* len(grad_fn.next_functions) and entry i: the next node (NULL for None) and its input_nr. */
CT_API int ct_node_num_next(const ct_node *n);
CT_API ct_node *ct_node_next(const ct_node *n, int i, uint32_t *input_nr);
/* For AccumulateGrad: the leaf it accumulates into (borrowed), else NULL. */
CT_API ct_tensor *ct_node_variable(const ct_node *n);
/* "<AddmmBackward0 object at 0x...>" (ct_free). */
CT_API char *ct_node_repr(const ct_node *n);
/* The grad_fn tree in the style of torchviz / repeated next_functions, one node per line,
 * indented by depth (ct_free). */
CT_API char *ct_node_format_graph(const ct_node *n);

/* ---- pictures of the graph ---- */

typedef struct ct_graph_dot_options {
    bool show_saved;    /* the tensors each node saved for backward (orange), as torchviz's show_saved */
    bool show_seq;      /* each node's sequence number under its name */
    /* names for tensors (the leaves, the output): names[i] labels tensors[i]; may be NULL */
    const ct_tensor *const *tensors;
    const char *const *names;
    size_t n_names;
} ct_graph_dot_options;

/* The backward graph that t's grad_fn roots, in Graphviz's DOT language, drawn as torchviz's
 * make_dot draws it: t itself (green), every node by PyTorch's name (AddmmBackward0,
 * TBackward0, AccumulateGrad, ...), each AccumulateGrad's leaf (blue) with its shape
 * "(600, 64)", optionally the saved tensors (orange) and sequence numbers; edges run from a
 * node's next functions to it, the way gradients arrive in forward order. opts may be NULL.
 * Returns a string to free with ct_free, or NULL with CT_ERR_VALUE ("ct_autograd_graph_dot:
 * the tensor has no grad_fn" for a leaf or a tensor made without grad) or CT_ERR_NOMEM.
 * Render it with Graphviz: `dot -Tsvg graph.dot -o graph.svg`. */
CT_API char *ct_autograd_graph_dot(const ct_tensor *t, const ct_graph_dot_options *opts);

/* ---- grad modes ---- */

typedef struct ct_grad_mode_guard {
    bool prev_grad;
    bool prev_inference;
    ct_keyset prev_included;
    ct_keyset prev_excluded;
    int kind; /* 0: not entered, 1: grad mode, 2: inference mode */
} ct_grad_mode_guard;

/* torch.no_grad(): graph recording off; the autograd key still routes every call. */
CT_API void ct_no_grad_enter(ct_grad_mode_guard *g);
/* torch.enable_grad(). */
CT_API void ct_enable_grad_enter(ct_grad_mode_guard *g);
/* torch.inference_mode(): grad off, autograd keys excluded in TLS, ADInplaceOrView no longer
 * included; tensors created inside have DispatchKeySet(CPU, AutocastCPU). */
CT_API void ct_inference_mode_enter(ct_grad_mode_guard *g);
/* Leaves the mode entered with g (LIFO). */
CT_API void ct_grad_mode_exit(ct_grad_mode_guard *g);
/* torch.is_grad_enabled() / torch.is_inference_mode_enabled(). */
CT_API bool ct_is_grad_enabled(void);
CT_API bool ct_is_inference_mode_enabled(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_AUTOGRAD_H */
