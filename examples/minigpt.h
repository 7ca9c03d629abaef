/* MiniGPT (the decoder-only transformer whose LM head is Lab 00's linear) as a C program: the
 * twin of minigpt.py, one traced training step per phase, more steps, then sampling. */
#ifndef CT_EXAMPLE_MINIGPT_H
#define CT_EXAMPLE_MINIGPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ctorch/nn.h"
#include "ctorch/tensor.h"

/* minigpt.py's command-line options, with its defaults from ct_gpt_args_defaults. */
typedef struct ct_gpt_args {
    uint64_t seed;         /* --seed 0: what manual_seed gives the generator (the int modulo 2^64) */
    bool seed_negative;    /* the int was negative (seed = 2^64 + int), as vars(args) echoes it */
    const char *json_out;  /* --json-out (NULL: none) */
    bool sdpa;             /* --attention manual|sdpa */
    double dropout;        /* --dropout 0.1 */
    int64_t n_layer;       /* --n-layer 2 */
    int64_t n_head;        /* --n-head 4 */
    int64_t d_model;       /* --d-model 64 */
    int64_t vocab;         /* --vocab 600 */
    int64_t block;         /* --block 32 */
    int64_t batch;         /* --batch 4 */
    bool tied;             /* --tied */
    int64_t steps;         /* --steps 5 */
    double lr;             /* --lr 3e-3 */
    double clip;           /* --clip 1.0 */
    int64_t generate;      /* --generate 16 */
    int threads;           /* main()'s torch.set_num_threads(1): the intra-op threads of the run (the
                              recordings exist at 1 and 2); not an option of minigpt.py */
} ct_gpt_args;

void ct_gpt_args_defaults(ct_gpt_args *a);

/* The model's configuration (minigpt.py's Config). */
typedef struct ct_gpt_config {
    int64_t vocab, block, n_layer, n_head, d_model;
    double dropout;
    bool sdpa, tied, bias;
} ct_gpt_config;

ct_gpt_config ct_gpt_config_from_args(const ct_gpt_args *a);
/* MiniGPT(c): draws its parameters from the default generator. NULL with an error. */
ct_module *ct_gpt_new(const ct_gpt_config *c);
/* model(idx, targets): new references in *logits and (with targets) *loss. 0 or -1. */
int ct_gpt_forward(ct_module *model, ct_tensor *idx, ct_tensor *targets, ct_tensor **logits, ct_tensor **loss);
/* make_batch(c, batch, seed): x = data[:, :-1], y = data[:, 1:] of randint(0, vocab, (batch,
 * block + 1)) from a generator seeded with seed. New references. 0 or -1. */
int ct_gpt_make_batch(const ct_gpt_config *c, int64_t batch, uint64_t seed, ct_tensor **x, ct_tensor **y);

/* make_optimizer(model, lr, weight_decay): AdamW, the >= 2-D parameters decayed by weight_decay
 * and the others not, betas (0.9, 0.95). NULL with an error. */
struct ct_optimizer;
struct ct_optimizer *ct_gpt_make_optimizer(ct_module *model, double lr, double weight_decay);
/* One training step: loss = model(x, y); loss.backward(); clip_grad_norm_(model.parameters(),
 * clip); opt.step(); opt.zero_grad(set_to_none=True). The loss's value in *loss. 0 or -1. */
int ct_gpt_train_step(ct_module *model, struct ct_optimizer *opt, ct_tensor *x, ct_tensor *y, double clip, double *loss);

/* The program's result: *json receives json.dumps(out, indent=2) and *summary what it prints
 * (the ops, n_params, losses and generated keys with indent=1); both ct_free. The losses
 * (steps values) are also stored in *losses when it is not NULL (free()). 0 or -1. */
int ct_example_minigpt(const ct_gpt_args *a, char **json, char **summary, double **losses);

/* The report the main job writes into out_dir: the JSON (to a->json_out, or out_dir/minigpt.json),
 * what the program prints (summary.json), the profiler table of one training step and the
 * decision trace of one step (a fresh model with the same seed and batch), an SVG plot of the
 * loss curve and REPORT.md, each built from this run. When golden_dir (may be NULL) holds
 * PyTorch's recording of a run with these options (seedN-default.json, -sdpa, -dropout0,
 * -tied), REPORT.md says how the run compares with it. Progress lines go to `progress`, what the
 * program prints (the summary) to `result` (either may be NULL). 0; 2 when out_dir cannot be
 * written; 1 when the run fails. */
int ct_example_minigpt_report(const ct_gpt_args *a, const char *out_dir, const char *golden_dir, FILE *progress,
                              FILE *result);

#endif
