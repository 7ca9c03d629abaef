/*
 * ctorch/nn.h - modules (Linear, ReLU, Sequential) and functional losses, as torch.nn has them.
 *
 * nn.Linear draws its parameters exactly as PyTorch's reset_parameters does (kaiming_uniform_
 * with a = sqrt(5) for the weight, then uniform_(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias,
 * from the default generator), so ct_manual_seed(s) followed by the same constructions gives
 * PyTorch's parameters bit for bit. Parameters are leaf tensors that require grad.
 *
 * Ownership: a module owns its parameters and (Sequential) its children; tensors returned by
 * ct_module_parameters / ct_nn_linear_weight are borrowed. forward returns a new reference.
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

/* nn.Linear(in_features, out_features, bias). NULL with an error on bad sizes. */
CT_API ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias);
/* The same, its reset_parameters drawing from gen instead of the default generator (as
 * torch.nn.init.kaiming_uniform_ / uniform_ do with generator=gen): for a thread that must not
 * depend on, or disturb, the process-wide stream. NULL gen is ct_nn_linear. With gen seeded
 * with s, the weights equal ct_nn_linear's after ct_manual_seed(s). */
CT_API ct_module *ct_nn_linear_generator(int64_t in_features, int64_t out_features, bool bias, ct_generator *gen);
/* nn.ReLU() */
CT_API ct_module *ct_nn_relu(void);
/* nn.Sequential(*mods): takes ownership of mods[0..n) (also on failure). */
CT_API ct_module *ct_nn_sequential(ct_module *const *mods, int n);
CT_API void ct_module_free(ct_module *m);
/* module(input). New reference, or NULL. */
CT_API ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input);
/* "Linear", "ReLU", "Sequential". */
CT_API const char *ct_module_name(const ct_module *m);
/* list(module.parameters()) in PyTorch's order; stores up to max borrowed pointers in out and
 * returns how many parameters there are (out may be NULL to count). */
CT_API int ct_module_parameters(const ct_module *m, ct_tensor **out, int max);
CT_API ct_tensor *ct_nn_linear_weight(const ct_module *m);
CT_API ct_tensor *ct_nn_linear_bias(const ct_module *m);
/* repr(module), e.g. "Linear(in_features=16, out_features=32, bias=True)" (ct_free). */
CT_API char *ct_module_repr(const ct_module *m);

/* torch.nn.init.kaiming_uniform_(t, a, mode="fan_in", nonlinearity="leaky_relu") and
 * torch.nn.init.uniform_(t, a, b), under no_grad, on the default generator. */
CT_API int ct_nn_init_kaiming_uniform_(ct_tensor *t, double a);
CT_API int ct_nn_init_uniform_(ct_tensor *t, double low, double high);

/* Reductions as strings, like the Python API. */
typedef enum ct_reduction { CT_REDUCTION_NONE = 0, CT_REDUCTION_MEAN = 1, CT_REDUCTION_SUM = 2 } ct_reduction;

/* F.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean',
 * label_smoothing=0.0): seen by function modes as "cross_entropy". weight may be NULL. */
CT_API ct_tensor *ct_cross_entropy(ct_tensor *input, ct_tensor *target, ct_tensor *weight, ct_reduction reduction,
                                   int64_t ignore_index, double label_smoothing);

#ifdef __cplusplus
}
#endif
#endif
