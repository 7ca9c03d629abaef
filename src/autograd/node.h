/* Autograd graph nodes, saved variables and the derivative table (internal). */
#ifndef CT_NODE_H
#define CT_NODE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/tensor_impl.h"
#include "ctorch/autograd.h"
#include "dispatch/op_impl.h"

typedef struct ct_node ct_node;

typedef struct ct_edge {
    ct_node *fn; /* owned reference, NULL for "no edge" (None in next_functions) */
    uint32_t input_nr;
} ct_edge;

/* Metadata of a tensor the node will receive a gradient for, or produced a gradient for
 * (InputMetadata / the saved sizes and strides of inputs). */
typedef struct ct_tensor_meta {
    bool defined;
    int ndim;
    ct_dtype dtype;
    int64_t sizes[CT_MAX_DIMS];
    int64_t strides[CT_MAX_DIMS];
} ct_tensor_meta;

/* SavedVariable (torch/csrc/autograd/saved_variable.cpp). */
typedef struct ct_saved_var {
    bool defined;         /* a tensor was saved (false: None / never saved) */
    bool saved_original;  /* data is the variable itself (an input, or a leaf) */
    bool is_leaf;
    bool is_output;
    bool requires_grad;
    uint32_t output_nr;
    int64_t saved_version;
    ct_tensor *data;      /* owned; NULL once released after backward */
    ct_node *grad_fn;     /* owned: the saved input's grad_fn (NULL for outputs: the saving node itself) */
} ct_saved_var;

typedef struct ct_deriv ct_deriv;

typedef struct ct_node_vtable {
    const char *name;    /* Node::name() */
    const char *py_name; /* type(grad_fn).__name__ */
} ct_node_vtable;

struct ct_node {
    atomic_long refcount;
    const char *name;
    const char *py_name;
    uint64_t sequence_nr;
    uint64_t thread_id;
    int n_next;
    ct_edge *next;
    int n_inputs;             /* gradients this node receives = outputs of its forward op */
    ct_tensor_meta *input_meta;
    bool released;            /* release_variables() ran */
    /* a formula node (the op's derivative entry) */
    const ct_deriv *deriv;
    const ct_op *op;
    ct_value *args;           /* copies of the forward op's non-tensor arguments */
    int64_t *list_store;      /* storage of copied int lists */
    char *strings[CT_MAX_OP_ARGS]; /* owned copies of string arguments (gelu's approximate) */
    ct_tensor_meta *arg_meta; /* geometry of each tensor argument */
    int edge_of_arg[CT_MAX_OP_ARGS]; /* index into next[] for a differentiable argument, else -1;
                                      * a Tensor[] argument has one edge per element from there */
    int64_t list_len[CT_MAX_OP_ARGS];   /* length of each Tensor[] argument (0 otherwise) */
    ct_tensor_meta *list_meta[CT_MAX_OP_ARGS]; /* owned: geometry of each element of a Tensor[] argument */
    ct_tensor **list_grads;   /* while the formula runs: gradients of Tensor[] elements, by edge */
    ct_saved_var saved_args[CT_MAX_OP_ARGS];
    ct_saved_var *saved_lists[CT_MAX_OP_ARGS]; /* owned: a saved Tensor?[] argument, one slot per item (index's indices) */
    ct_saved_var saved_rets[CT_MAX_OP_RETS];
    /* AccumulateGrad */
    ct_tensor *variable;      /* owned */
    /* GraphRoot: the gradients it hands to its next edges (n_next of them, owned) */
    ct_tensor **root_grads;
    /* the graph task running this node marks which outputs it needs */
    const bool *needed;
};

/* Derivative formula: grads[i] is the gradient of forward output i (NULL if undefined);
 * out[arg] receives a new reference for each argument whose gradient is needed
 * (ct_node_needs). Returns 0 or -1. */
typedef int (*ct_formula_fn)(ct_node *n, ct_tensor *const *grads, ct_tensor **out);

/* One entry of src/autograd/derivatives.def (derivatives.yaml). */
struct ct_deriv {
    int opid;
    const char *name;          /* AddmmBackward0 */
    uint32_t diff_args;        /* arguments that receive gradients */
    uint32_t save_when[CT_MAX_OP_ARGS]; /* per argument: saved when any of these arguments' gradients is needed */
    uint32_t save_rets;        /* outputs saved for the formula */
    uint32_t nondiff_rets;     /* outputs that are not differentiable (output_differentiability) */
    ct_formula_fn formula;
};

/* Indexes derivatives.def by operator: run once by autograd's registration, in the start-up. */
void ct_derivatives_index(void);
/* Looks up the derivative of a built-in op (NULL if it has none). */
const ct_deriv *ct_deriv_for(const ct_op *op);

/* The tensor's autograd metadata, created on first need (PyTorch's AutogradMeta, made by the
 * factory autograd installs). NULL with ct_init()'s error before the start-up (core's release
 * hook for it is installed there) or when out of memory. */
ct_autograd_meta *ct_tensor_autograd_meta(ct_tensor *t);

/* ---- nodes ---- */

void ct_node_release(ct_node *n);
ct_node *ct_node_retain(ct_node *n);
const char *ct_node_name(const ct_node *n);
const char *ct_node_py_name(const ct_node *n);
/* A new formula node for op (one edge per differentiable Tensor argument and per element of a
 * differentiable Tensor[] argument of args), taking the next sequence number. */
ct_node *ct_node_new_formula(const ct_deriv *d, const ct_op *op, const ct_value *args, int n_inputs);
/* Sets how many gradients the node receives (an op returning Tensor[] knows it only after it
 * ran). 0 or -1. */
int ct_node_set_num_inputs(ct_node *n, int n_inputs);
/* True if the node should compute the gradient of element k of Tensor[] argument `arg`. */
bool ct_node_needs_elem(const ct_node *n, int arg, int64_t k);
/* The AccumulateGrad of a leaf that requires grad (created once, reused while alive). */
ct_node *ct_grad_accumulator(ct_tensor *leaf);
/* GraphRoot (functions/basic_ops.h): the node a backward from several roots starts at. Takes
 * the edges (their references) and new references to the gradients; takes a sequence number. */
ct_node *ct_graph_root_new(ct_edge *roots, ct_tensor *const *grads, int n);
/* The edge for a variable in *out: its grad_fn, or its leaf's AccumulateGrad, or none. 0, or
 * -1 (CT_ERR_NOMEM, *out none) when the leaf's AccumulateGrad could not be made: a graph
 * without that edge would leave the leaf's gradient out silently. */
int ct_gradient_edge(ct_tensor *t, ct_edge *out);
/* True if the node should compute the gradient of forward argument `arg`. */
bool ct_node_needs(const ct_node *n, int arg);
/* Unpacks a saved argument / output (new reference; NULL with NULL *err_out... see .c). */
int ct_saved_unpack(ct_node *n, ct_saved_var *sv, ct_tensor **out);
/* Saves t (input or output of the node). */
int ct_saved_save(ct_saved_var *sv, ct_tensor *t, bool is_output);
void ct_saved_release(ct_saved_var *sv);
/* Frees saved tensors after a backward without retain_graph (Node::release_variables). */
void ct_node_release_variables(ct_node *n);
void ct_meta_of(ct_tensor_meta *m, const ct_tensor *t);

/* ---- variables ---- */

/* set_history: gives an op's output its grad_fn and output number. */
int ct_set_history(ct_tensor *t, ct_node *fn, uint32_t output_nr);
/* TensorImpl::shallow_copy_and_detach, including the call into the current dispatch mode or
 * the tensor's subclass handler that PyTorch makes (which is why a mode logs aten.detach for
 * saved outputs). New reference or NULL. */
ct_tensor *ct_shallow_copy_and_detach(ct_tensor *t);
/* The same for a tensor the caller hands over (its reference is consumed): the tensor itself
 * when nobody else can tell (Note [A detached copy of a tensor nobody else holds]). NULL on
 * failure, the reference released all the same. */
ct_tensor *ct_shallow_copy_and_detach_consume(ct_tensor *t);
/* compute_requires_grad: grad mode on and any of the tensors (or Tensor[] elements) requires grad. */
bool ct_any_requires_grad(const ct_value *args, uint32_t mask, int nargs);

/* Thread-local sequence number (at::sequence_number). */
uint64_t ct_sequence_number_peek(void);

#endif
