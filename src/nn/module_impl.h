/* A module's fields, shared by the files that build modules (module.c) and walk them
 * (module_walk.c: parameters and repr). */
#ifndef CT_NN_MODULE_IMPL_H
#define CT_NN_MODULE_IMPL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/nn.h"

typedef enum { MOD_LINEAR, MOD_RELU, MOD_SEQUENTIAL, MOD_EMBEDDING, MOD_LAYER_NORM, MOD_GELU, MOD_DROPOUT, MOD_MODULE_LIST, MOD_CUSTOM } mod_kind;

typedef struct named_entry {
    char *name;
    ct_tensor *t;   /* owned reference; NULL for a parameter set to None */
} named_entry;

typedef struct child_entry {
    char *name;
    ct_module *m;   /* owned */
} child_entry;

struct ct_module {
    mod_kind kind;
    char *type_name;    /* the class name: "Linear", ..., or a custom module's */
    bool training;
    named_entry *params;
    int nparams;
    size_t cap_params;
    named_entry *buffers;
    int nbuffers;
    size_t cap_buffers;
    child_entry *children;
    int nchildren;
    size_t cap_children;
    /* per kind */
    int64_t in_features, out_features;   /* Linear; Embedding: num_embeddings, embedding_dim */
    int64_t normalized_shape[CT_MAX_DIMS];
    int n_normalized;
    double eps, p;
    bool elementwise_affine, has_bias;
    char *approximate;  /* GELU */
    ct_module_forward_fn forward;
    void *state;
    void (*free_state)(void *);
};
#endif
