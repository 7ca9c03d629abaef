/* Autograd graph nodes (internal). */
#ifndef CT_NODE_H
#define CT_NODE_H

#include <stdint.h>

typedef struct ct_node ct_node;

/* Drops a reference to a node (NULL ignored). */
void ct_node_release(ct_node *n);
/* Adds a reference; returns n. */
ct_node *ct_node_retain(ct_node *n);
/* PyTorch's Node::name(): "AddmmBackward0", "torch::autograd::AccumulateGrad". */
const char *ct_node_name(const ct_node *n);
/* The class name Python shows in grad_fn reprs: "AddmmBackward0", "AccumulateGrad". */
const char *ct_node_py_name(const ct_node *n);

#endif
