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
/* Tensor._base: the tensor whose storage the view t was made from (through views of views, the
 * first), borrowed; NULL when t is not a view (t._is_view() is false). */
CT_API ct_tensor *ct_tensor_base(const ct_tensor *t);
/* Tensor.data: a new tensor over t's data that does not require grad, with a version counter of
 * its own (in-place changes through it do not trip autograd's saved-tensor checks) and
 * metadata changes forbidden. A dispatch mode (or t's subclass) sees it as aten.detach, as in
 * PyTorch; otherwise no op runs. New reference, or NULL with the error set. */
CT_API ct_tensor *ct_tensor_data(ct_tensor *t);
/* `t.data = data`: t takes data's storage, sizes, strides and dtype and keeps its autograd
 * metadata (requires_grad, grad, grad_fn) and its version counter. PyTorch's RuntimeError
 * when t requires grad and data's dtype is not floating point, or either is a wrapper
 * subclass. 0 or -1. */
CT_API int ct_tensor_set_data(ct_tensor *t, ct_tensor *data);

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

/* A grad-mode guard: what was in force before it was entered, and where it stands among this
 * thread's guards. Guards (these and ct_key_guard) are exited in reverse order of entering. */
typedef struct ct_grad_mode_guard {
    bool prev_grad;
    bool prev_inference;
    ct_keyset prev_included;
    ct_keyset prev_excluded;
    int kind;  /* 0: not entered, 1: grad mode, 2: inference mode */
    int depth; /* its place among this thread's entered guards (1 = outermost) */
} ct_grad_mode_guard;

/* torch.no_grad(): graph recording off; the autograd key still routes every call. */
CT_API void ct_no_grad_enter(ct_grad_mode_guard *g);
/* torch.enable_grad(). */
CT_API void ct_enable_grad_enter(ct_grad_mode_guard *g);
/* torch.inference_mode(): grad off, autograd keys excluded in TLS, ADInplaceOrView no longer
 * included; tensors created inside have DispatchKeySet(CPU, AutocastCPU). */
CT_API void ct_inference_mode_enter(ct_grad_mode_guard *g);
/* torch.inference_mode(enabled): enabled as above; with enabled false, inference mode off, grad
 * mode on and the autograd keys routed again (c10::InferenceMode(false), for code inside an
 * inference-mode region). */
CT_API void ct_inference_mode_enter_enabled(ct_grad_mode_guard *g, bool enabled);
/* Leaves the mode entered with g, restoring what was in force when it was entered. g must be
 * this thread's innermost entered guard (grad-mode or key-set guard): otherwise -1 with a
 * RuntimeError, and nothing changes (exiting it would undo what the guards entered after it
 * did, and their exits would then restore a state that is no longer current). Exiting a guard
 * that is not entered (never, or already exited) does nothing and returns 0. */
CT_API int ct_grad_mode_exit(ct_grad_mode_guard *g);
/* Restores what was in force when g was entered, whatever was entered since and without the
 * order check, as a C++ RAII guard's destructor does (torch.no_grad()'s and
 * torch.inference_mode()'s __exit__ in Python follow that rule): for bindings whose exits
 * follow another language's rules. Guards entered after g count as exited. */
CT_API void ct_grad_mode_restore(ct_grad_mode_guard *g);
/* torch.set_grad_enabled(on) as a plain state change (at::GradMode::set_enabled). */
CT_API void ct_set_grad_enabled(bool on);
/* torch.is_grad_enabled() / torch.is_inference_mode_enabled(). */
CT_API bool ct_is_grad_enabled(void);
CT_API bool ct_is_inference_mode_enabled(void);

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_AUTOGRAD_H */
