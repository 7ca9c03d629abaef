/*
 * ctorch/nn.h - modules, functional losses and gradient clipping, as torch.nn has them.
 *
 * Modules: Linear, ReLU, Sequential, Embedding, LayerNorm, GELU, Dropout, ModuleList, and custom
 * modules (an nn.Module subclass: a type name, a C forward, children, parameters and buffers
 * registered by name). Parameters are drawn exactly as PyTorch's reset_parameters does from the
 * default generator (Linear: kaiming_uniform_ with a = sqrt(5), then the bias from
 * U(-1/sqrt(fan_in), 1/sqrt(fan_in)); Embedding: normal_; LayerNorm: ones and zeros), so
 * ct_manual_seed(s) followed by the same constructions gives PyTorch's parameters bit for bit.
 * Parameters are leaf tensors that require grad.
 *
 * Ownership: a module owns its children (registering a child transfers it, also on failure)
 * and holds a reference to each parameter and buffer. Tensors returned by the getters and by
 * ct_module_parameters are borrowed; forward returns a new reference, or NULL with an error.
 */
#ifndef CTORCH_NN_H
#define CTORCH_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/export.h"
#include "ctorch/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_module ct_module;

/* ---- built-in modules ---- */

/* nn.Linear(in_features, out_features, bias). NULL with an error on bad sizes. */
CT_API ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias);
/* The same, its reset_parameters drawing from gen instead of the default generator (as
 * torch.nn.init.kaiming_uniform_ / uniform_ do with generator=gen): for a thread that must not
 * depend on, or disturb, the process-wide stream. NULL gen is ct_nn_linear. With gen seeded
 * with s, the weights equal ct_nn_linear's after ct_manual_seed(s). */
CT_API ct_module *ct_nn_linear_generator(int64_t in_features, int64_t out_features, bool bias, ct_generator *gen);
/* nn.ReLU() */
CT_API ct_module *ct_nn_relu(void);
/* nn.Sequential(*mods): takes ownership of mods[0..n) (also on failure); children "0", "1", ... */
CT_API ct_module *ct_nn_sequential(ct_module *const *mods, int n);
/* nn.Embedding(num_embeddings, embedding_dim): weight ~ N(0, 1). */
CT_API ct_module *ct_nn_embedding(int64_t num_embeddings, int64_t embedding_dim);
/* nn.LayerNorm(normalized_shape, eps, elementwise_affine, bias): weight 1, bias 0 (bias=False:
 * no bias parameter; elementwise_affine=False: neither). */
CT_API ct_module *ct_nn_layer_norm(const int64_t *normalized_shape, int n, double eps, bool elementwise_affine, bool bias);
/* nn.GELU(approximate): "none" (NULL) or "tanh"; anything else fails at forward with PyTorch's
 * RuntimeError, as F.gelu checks it there. */
CT_API ct_module *ct_nn_gelu(const char *approximate);
/* nn.Dropout(p): ValueError unless 0 <= p <= 1. Drops only while training (ct_module_train). */
CT_API ct_module *ct_nn_dropout(double p);
/* nn.ModuleList(): an ordered list of children "0", "1", ...; it has no forward. */
CT_API ct_module *ct_nn_module_list(void);
/* modules.append(m): takes ownership of m (also on failure). 0 or -1. */
CT_API int ct_module_list_append(ct_module *list, ct_module *m);

/* ---- user-defined modules ---- */

/* forward(self, input): a new reference, or NULL with the thread's error set. */
typedef ct_tensor *(*ct_module_forward_fn)(ct_module *self, ct_tensor *input, void *state);
/* A module of class `type_name` ("Block") with a C forward (may be NULL for a module called
 * through its own function) and private state (free_state(state) runs when it is freed, also on
 * failure). */
CT_API ct_module *ct_nn_custom(const char *type_name, ct_module_forward_fn forward, void *state, void (*free_state)(void *));
CT_API void *ct_module_state(const ct_module *m);
/* self.name = child (an nn.Module attribute). Takes ownership of child (also on failure). 0 or
 * -1 (KeyError for an empty, dotted or taken name). */
CT_API int ct_module_register_module(ct_module *m, const char *name, ct_module *child);
/* self.name = nn.Parameter(param) (retained; NULL registers None). ValueError for a non-leaf. */
CT_API int ct_module_register_parameter(ct_module *m, const char *name, ct_tensor *param);
/* self.register_buffer(name, buffer) (retained). */
CT_API int ct_module_register_buffer(ct_module *m, const char *name, ct_tensor *buffer);
/* Replaces an existing parameter: self.head.weight = self.tok_emb.weight ties them. */
CT_API int ct_module_set_parameter(ct_module *m, const char *name, ct_tensor *param);
/* Borrowed; NULL when there is no such parameter, buffer or child (or it is None). */
CT_API ct_tensor *ct_module_get_parameter(const ct_module *m, const char *name);
CT_API ct_tensor *ct_module_get_buffer(const ct_module *m, const char *name);
CT_API ct_module *ct_module_get_child(const ct_module *m, const char *name);
CT_API int ct_module_num_children(const ct_module *m);
CT_API ct_module *ct_module_child_at(const ct_module *m, int i);

/* ---- using modules ---- */

CT_API void ct_module_free(ct_module *m);
/* module(input). New reference, or NULL. */
CT_API ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input);
/* The class name: "Linear", "Sequential", "Block", ... */
CT_API const char *ct_module_name(const ct_module *m);
/* module.train(mode) / module.eval(), for the module and every descendant. */
CT_API void ct_module_train(ct_module *m, bool mode);
CT_API void ct_module_eval(ct_module *m);
CT_API bool ct_module_is_training(const ct_module *m);
/* list(module.parameters()) in PyTorch's order, each tensor once (a tied weight is listed where
 * it first appears); stores up to max borrowed pointers in out and returns how many parameters
 * there are (out may be NULL to count), or -1. */
CT_API int ct_module_parameters(const ct_module *m, ct_tensor **out, int max);
/* list(module.named_parameters()): *out receives an array of (name, borrowed tensor), names
 * like "blocks.0.attn.qkv.weight"; free it with ct_named_tensors_free. Returns the count or -1. */
typedef struct ct_named_tensor {
    char *name;
    ct_tensor *tensor;
} ct_named_tensor;
CT_API int ct_module_named_parameters(const ct_module *m, ct_named_tensor **out);
CT_API void ct_named_tensors_free(ct_named_tensor *v, int n);
CT_API ct_tensor *ct_nn_linear_weight(const ct_module *m);
CT_API ct_tensor *ct_nn_linear_bias(const ct_module *m);
/* repr(module), e.g. "Linear(in_features=16, out_features=32, bias=True)" (ct_free). */
CT_API char *ct_module_repr(const ct_module *m);

/* ---- torch.nn.init, under no_grad, on the default generator ---- */

/* kaiming_uniform_(t, a, mode="fan_in", nonlinearity="leaky_relu"), uniform_(t, a, b), normal_(t, mean, std). */
CT_API int ct_nn_init_kaiming_uniform_(ct_tensor *t, double a);
CT_API int ct_nn_init_uniform_(ct_tensor *t, double low, double high);
CT_API int ct_nn_init_normal_(ct_tensor *t, double mean, double std);

/* ---- functional ---- */

/* Reductions as strings, like the Python API. */
typedef enum ct_reduction { CT_REDUCTION_NONE = 0, CT_REDUCTION_MEAN = 1, CT_REDUCTION_SUM = 2 } ct_reduction;

/* F.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean',
 * label_smoothing=0.0), its arguments in PyTorch's order (without the deprecated size_average
 * and reduce): seen by function modes as "cross_entropy". weight may be NULL. A reduction
 * other than the three is a ValueError. */
CT_API ct_tensor *ct_cross_entropy(ct_tensor *input, ct_tensor *target, ct_tensor *weight, int64_t ignore_index,
                                   ct_reduction reduction, double label_smoothing);
/* F.dropout(input, p, training): ValueError unless 0 <= p <= 1, then aten::dropout. */
CT_API ct_tensor *ct_nn_functional_dropout(ct_tensor *input, double p, bool training);

/* torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type, error_if_nonfinite): the total
 * norm of the gradients (_foreach_norm per dtype, then linalg.vector_norm of their stack) and
 * every gradient scaled in place by clamp(max_norm / (total + 1e-6), max=1) with _foreach_mul_,
 * under no_grad, as 2.6 does it on the CPU. Parameters without a gradient are skipped. Returns
 * the total norm (new reference; a 0-dim zero when no parameter has a gradient) or NULL. */
CT_API ct_tensor *ct_nn_clip_grad_norm_(ct_tensor *const *params, int n, double max_norm, double norm_type, bool error_if_nonfinite);

#ifdef __cplusplus
}
#endif
#endif
