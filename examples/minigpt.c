/* MiniGPT: the small decoder-only transformer whose LM head is Lab 00's linear (x: B*T x 64,
 * W: 600 x 64, b: 600), written as minigpt.py writes it.
 *
 * One training step is traced per phase with a dispatch mode (PhaseLog), then more steps, then
 * sampling, and the whole run is returned as minigpt.py's JSON. Each Python line is mirrored by
 * the call it makes: a Python float times a tensor is mul.Tensor with a wrapped number (the
 * bindings' rule), `mask[:, :, :T, :T]` is two slice calls (a full `:` makes none), and
 * `idx[:, -block:]` one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "minigpt.h"
#include "seed_arg.h"
#include "ctorch/json.h"
#include "ctorch/text.h"

void ct_gpt_args_defaults(ct_gpt_args *a) {
    memset(a, 0, sizeof *a);
    a->dropout = 0.1;
    a->n_layer = 2;
    a->n_head = 4;
    a->d_model = 64;
    a->vocab = 600;
    a->block = 32;
    a->batch = 4;
    a->steps = 5;
    a->lr = 3e-3;
    a->clip = 1.0;
    a->generate = 16;
    a->threads = 1;
}

ct_gpt_config ct_gpt_config_from_args(const ct_gpt_args *a) {
    ct_gpt_config c = {a->vocab, a->block, a->n_layer, a->n_head, a->d_model, a->dropout, a->sdpa, a->tied, true};
    return c;
}

/* x * value for a Python float value: mul.Tensor with a wrapped number */
static ct_tensor *mul_number(ct_tensor *x, double value) {
    ct_tensor *w = ct_wrapped_number(ct_double(value));
    ct_tensor *r = w ? ct_mul(x, w) : NULL;
    ct_tensor_release(w);
    return r;
}

static ct_tensor *view4(ct_tensor *x, int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t s[4] = {a, b, c, d};
    return ct_view(x, s, 4);
}

/* ---- CausalSelfAttention ---- */

static ct_tensor *attention_forward(ct_module *self, ct_tensor *x, void *state) {
    const ct_gpt_config *c = state;
    const int64_t *shape = ct_tensor_sizes(x);
    int64_t B = shape[0], T = shape[1], C = shape[2], nh = c->n_head;
    ct_tensor *qkv = NULL, **parts = NULL, *q = NULL, *k = NULL, *v = NULL, *y = NULL, *out = NULL;
    ct_tensor *tmp = NULL;
    int64_t nparts = 0;
    /* q, k, v = self.qkv(x).split(C, dim=2) */
    qkv = ct_module_forward(ct_module_get_child(self, "qkv"), x);
    if (!qkv || ct_split(qkv, C, 2, &parts, &nparts) != 0) goto done;
    if (nparts != 3) {
        ct_error_set(CT_ERR_VALUE, "not enough values to unpack (expected 3, got %lld)", (long long)nparts);
        goto done;
    }
    /* q = q.view(B, T, nh, C // nh).transpose(1, 2), and the same for k and v */
    ct_tensor **heads[3] = {&q, &k, &v};
    for (int i = 0; i < 3; i++) {
        tmp = view4(parts[i], B, T, nh, C / nh);
        if (!tmp) goto done;
        *heads[i] = ct_transpose(tmp, 1, 2);
        ct_tensor_release(tmp);
        tmp = NULL;
        if (!*heads[i]) goto done;
    }
    if (c->sdpa) {
        /* F.scaled_dot_product_attention(q, k, v, dropout_p=dropout if training else 0.0, is_causal=True) */
        double p = ct_module_is_training(self) ? c->dropout : 0.0;
        y = ct_scaled_dot_product_attention(q, k, v, NULL, p, true, NULL, false);
    } else {
        /* att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1))) */
        ct_tensor *kt = ct_transpose(k, -2, -1);
        ct_tensor *qk = kt ? ct_matmul(q, kt) : NULL;
        ct_tensor *att = qk ? mul_number(qk, 1.0 / sqrt((double)ct_tensor_size(k, -1))) : NULL;
        ct_tensor_release(kt);
        ct_tensor_release(qk);
        /* att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf")) */
        int64_t zero = 0, end = T;
        ct_tensor *m1 = att ? ct_slice(ct_module_get_buffer(self, "mask"), 2, &zero, &end, 1) : NULL;
        ct_tensor *m2 = m1 ? ct_slice(m1, 3, &zero, &end, 1) : NULL;
        ct_tensor *is0 = m2 ? ct_eq_scalar(m2, ct_int(0)) : NULL;
        ct_tensor *filled = is0 ? ct_masked_fill(att, is0, ct_double(-INFINITY)) : NULL;
        ct_tensor_release(m1);
        ct_tensor_release(m2);
        ct_tensor_release(is0);
        ct_tensor_release(att);
        /* att = F.softmax(att, dim=-1); att = self.attn_drop(att); y = att @ v */
        ct_tensor *sm = filled ? ct_softmax(filled, -1, CT_DTYPE_UNDEFINED) : NULL;
        ct_tensor_release(filled);
        ct_tensor *dropped = sm ? ct_module_forward(ct_module_get_child(self, "attn_drop"), sm) : NULL;
        ct_tensor_release(sm);
        y = dropped ? ct_matmul(dropped, v) : NULL;
        ct_tensor_release(dropped);
    }
    if (!y) goto done;
    /* y = y.transpose(1, 2).contiguous().view(B, T, C) */
    {
        ct_tensor *yt = ct_transpose(y, 1, 2);
        ct_tensor *yc = yt ? ct_contiguous(yt, CT_CONTIGUOUS_FORMAT) : NULL;
        int64_t s3[3] = {B, T, C};
        ct_tensor *yv = yc ? ct_view(yc, s3, 3) : NULL;
        ct_tensor_release(yt);
        ct_tensor_release(yc);
        /* return self.resid_drop(self.proj(y)) */
        ct_tensor *pr = yv ? ct_module_forward(ct_module_get_child(self, "proj"), yv) : NULL;
        ct_tensor_release(yv);
        out = pr ? ct_module_forward(ct_module_get_child(self, "resid_drop"), pr) : NULL;
        ct_tensor_release(pr);
    }
done:
    ct_tensor_release(qkv);
    for (int64_t i = 0; i < nparts; i++) ct_tensor_release(parts[i]);
    ct_free(parts);
    ct_tensor_release(q);
    ct_tensor_release(k);
    ct_tensor_release(v);
    ct_tensor_release(y);
    return out;
}

static ct_module *causal_self_attention(const ct_gpt_config *c) {
    ct_module *m = ct_nn_custom("CausalSelfAttention", attention_forward, (void *)c, NULL);
    if (!m) return NULL;
    int rc = ct_module_register_module(m, "qkv", ct_nn_linear(c->d_model, 3 * c->d_model, c->bias));
    if (rc == 0) rc = ct_module_register_module(m, "proj", ct_nn_linear(c->d_model, c->d_model, c->bias));
    if (rc == 0) rc = ct_module_register_module(m, "attn_drop", ct_nn_dropout(c->dropout));
    if (rc == 0) rc = ct_module_register_module(m, "resid_drop", ct_nn_dropout(c->dropout));
    if (rc == 0) {
        /* self.register_buffer("mask", torch.tril(torch.ones(block, block)).view(1, 1, block, block)) */
        int64_t s[2] = {c->block, c->block};
        ct_tensor *ones = ct_ones(s, 2, CT_DTYPE_UNDEFINED);
        ct_tensor *tri = ones ? ct_tril(ones, 0) : NULL;
        ct_tensor *mask = tri ? view4(tri, 1, 1, c->block, c->block) : NULL;
        rc = mask ? ct_module_register_buffer(m, "mask", mask) : -1;
        ct_tensor_release(ones);
        ct_tensor_release(tri);
        ct_tensor_release(mask);
    }
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

/* ---- Block ---- */

static ct_tensor *block_forward(ct_module *self, ct_tensor *x, void *state) {
    (void)state;
    /* x = x + self.attn(self.ln1(x)) */
    ct_tensor *h = ct_module_forward(ct_module_get_child(self, "ln1"), x);
    ct_tensor *a = h ? ct_module_forward(ct_module_get_child(self, "attn"), h) : NULL;
    ct_tensor *x2 = a ? ct_add(x, a, ct_int(1)) : NULL;
    ct_tensor_release(h);
    ct_tensor_release(a);
    /* return x + self.mlp(self.ln2(x)) */
    ct_tensor *h2 = x2 ? ct_module_forward(ct_module_get_child(self, "ln2"), x2) : NULL;
    ct_tensor *m = h2 ? ct_module_forward(ct_module_get_child(self, "mlp"), h2) : NULL;
    ct_tensor *out = m ? ct_add(x2, m, ct_int(1)) : NULL;
    ct_tensor_release(h2);
    ct_tensor_release(m);
    ct_tensor_release(x2);
    return out;
}

static ct_module *layer_norm(const ct_gpt_config *c) { return ct_nn_layer_norm(&c->d_model, 1, 1e-5, true, c->bias); }

static ct_module *block(const ct_gpt_config *c) {
    ct_module *m = ct_nn_custom("Block", block_forward, NULL, NULL);
    if (!m) return NULL;
    int rc = ct_module_register_module(m, "ln1", layer_norm(c));
    if (rc == 0) rc = ct_module_register_module(m, "attn", causal_self_attention(c));
    if (rc == 0) rc = ct_module_register_module(m, "ln2", layer_norm(c));
    if (rc == 0) {
        /* nn.Sequential(nn.Linear(d, 4d), nn.GELU(), nn.Linear(4d, d), nn.Dropout(dropout)) */
        ct_module *mlp[4] = {ct_nn_linear(c->d_model, 4 * c->d_model, c->bias), ct_nn_gelu("none"),
                             ct_nn_linear(4 * c->d_model, c->d_model, c->bias), ct_nn_dropout(c->dropout)};
        rc = ct_module_register_module(m, "mlp", ct_nn_sequential(mlp, 4));
    }
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

/* ---- MiniGPT ---- */

ct_module *ct_gpt_new(const ct_gpt_config *c) {
    /* attention divides the width by the heads (C // nh): Python raises ZeroDivisionError for
     * none, which C would not survive */
    if (c->n_head < 1) {
        ct_error_set(CT_ERR_VALUE, "MiniGPT needs at least one attention head, got n_head=%lld", (long long)c->n_head);
        return NULL;
    }
    /* the configuration lives as long as the model (its modules read it in forward) */
    ct_gpt_config *own = malloc(sizeof *own);
    if (!own) {
        ct_error_set(CT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    *own = *c;
    ct_module *m = ct_nn_custom("MiniGPT", NULL, own, free);
    if (!m) return NULL;
    int rc = ct_module_register_module(m, "tok_emb", ct_nn_embedding(c->vocab, c->d_model));
    if (rc == 0) rc = ct_module_register_module(m, "pos_emb", ct_nn_embedding(c->block, c->d_model));
    if (rc == 0) rc = ct_module_register_module(m, "drop", ct_nn_dropout(c->dropout));
    ct_module *blocks = rc == 0 ? ct_nn_module_list() : NULL;
    if (rc == 0 && !blocks) rc = -1;
    for (int64_t i = 0; rc == 0 && i < c->n_layer; i++) rc = ct_module_list_append(blocks, block(own));
    if (rc == 0) rc = ct_module_register_module(m, "blocks", blocks);
    else ct_module_free(blocks);
    if (rc == 0) rc = ct_module_register_module(m, "ln_f", layer_norm(c));
    if (rc == 0) rc = ct_module_register_module(m, "head", ct_nn_linear(c->d_model, c->vocab, true)); /* Lab 00's linear */
    /* if c.tied: self.head.weight = self.tok_emb.weight */
    if (rc == 0 && c->tied)
        rc = ct_module_set_parameter(ct_module_get_child(m, "head"), "weight",
                                     ct_module_get_parameter(ct_module_get_child(m, "tok_emb"), "weight"));
    if (rc != 0) {
        ct_module_free(m);
        return NULL;
    }
    return m;
}

int ct_gpt_forward(ct_module *model, ct_tensor *idx, ct_tensor *targets, ct_tensor **logits, ct_tensor **loss) {
    *logits = NULL;
    if (loss) *loss = NULL;
    /* B, T = idx.shape; pos = torch.arange(0, T, dtype=torch.long) */
    if (ct_tensor_ndim(idx) != 2)
        return ct_error_set(CT_ERR_VALUE, "not enough values to unpack (expected 2, got %d)", ct_tensor_ndim(idx));
    int64_t T = ct_tensor_sizes(idx)[1];
    ct_tensor *pos = ct_arange_start(ct_int(0), ct_int(T), CT_INT64);
    /* x = self.drop(self.tok_emb(idx) + self.pos_emb(pos)) */
    ct_tensor *te = pos ? ct_module_forward(ct_module_get_child(model, "tok_emb"), idx) : NULL;
    ct_tensor *pe = te ? ct_module_forward(ct_module_get_child(model, "pos_emb"), pos) : NULL;
    ct_tensor *sum = pe ? ct_add(te, pe, ct_int(1)) : NULL;
    ct_tensor *x = sum ? ct_module_forward(ct_module_get_child(model, "drop"), sum) : NULL;
    ct_tensor_release(pos);
    ct_tensor_release(te);
    ct_tensor_release(pe);
    ct_tensor_release(sum);
    /* for b in self.blocks: x = b(x) */
    ct_module *blocks = ct_module_get_child(model, "blocks");
    for (int i = 0; x && i < ct_module_num_children(blocks); i++) {
        ct_tensor *nx = ct_module_forward(ct_module_child_at(blocks, i), x);
        ct_tensor_release(x);
        x = nx;
    }
    /* logits = self.head(self.ln_f(x)) */
    ct_tensor *h = x ? ct_module_forward(ct_module_get_child(model, "ln_f"), x) : NULL;
    ct_tensor *lg = h ? ct_module_forward(ct_module_get_child(model, "head"), h) : NULL;
    ct_tensor_release(x);
    ct_tensor_release(h);
    if (!lg) return -1;
    if (targets && loss) {
        /* F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1)) */
        int64_t s2[2] = {-1, ct_tensor_size(lg, -1)}, s1[1] = {-1};
        ct_tensor *lv = ct_view(lg, s2, 2);
        ct_tensor *tv = lv ? ct_view(targets, s1, 1) : NULL;
        *loss = tv ? ct_cross_entropy(lv, tv, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
        ct_tensor_release(lv);
        ct_tensor_release(tv);
        if (!*loss) {
            ct_tensor_release(lg);
            return -1;
        }
    }
    *logits = lg;
    return 0;
}

/* make_optimizer(model, lr, weight_decay): AdamW with two groups, the weights of 2 or more
 * dimensions decayed, the rest not, betas (0.9, 0.95) */
ct_optimizer *ct_gpt_make_optimizer(ct_module *model, double lr, double weight_decay) {
    ct_named_tensor *named = NULL;
    int n = ct_module_named_parameters(model, &named);
    if (n < 0) return NULL;
    ct_tensor **decay = malloc(sizeof(ct_tensor *) * (size_t)(n ? n : 1));
    ct_tensor **no_decay = malloc(sizeof(ct_tensor *) * (size_t)(n ? n : 1));
    ct_optimizer *opt = NULL;
    if (decay && no_decay) {
        int nd = 0, nn = 0;
        for (int i = 0; i < n; i++) {
            if (ct_tensor_ndim(named[i].tensor) >= 2) decay[nd++] = named[i].tensor;
            else no_decay[nn++] = named[i].tensor;
        }
        ct_adamw_options o = ct_adamw_defaults();
        o.lr = lr;
        o.beta1 = 0.9;
        o.beta2 = 0.95;
        ct_adamw_group groups[2] = {{decay, nd, o}, {no_decay, nn, o}};
        groups[0].options.weight_decay = weight_decay;
        groups[1].options.weight_decay = 0.0;
        opt = ct_adamw_new_groups(groups, 2, o);
    }
    free(decay);
    free(no_decay);
    ct_named_tensors_free(named, n);
    return opt;
}

int ct_gpt_make_batch(const ct_gpt_config *c, int64_t batch, uint64_t seed, ct_tensor **x, ct_tensor **y) {
    *x = *y = NULL;
    /* g = torch.Generator().manual_seed(seed); data = torch.randint(0, vocab, (batch, block + 1), generator=g) */
    ct_generator *g = ct_generator_new();
    if (!g) return -1;
    ct_generator_manual_seed(g, seed);
    int64_t s[2] = {batch, c->block + 1};
    ct_tensor *data = ct_randint_generator(0, c->vocab, s, 2, g, CT_DTYPE_UNDEFINED);
    ct_generator_release(g);
    if (!data) return -1;
    /* data[:, :-1].contiguous(), data[:, 1:].contiguous() */
    int64_t zero = 0, minus1 = -1, one = 1;
    ct_tensor *a = ct_slice(data, 1, &zero, &minus1, 1), *b = ct_slice(data, 1, &one, NULL, 1);
    *x = a ? ct_contiguous(a, CT_CONTIGUOUS_FORMAT) : NULL;
    *y = b ? ct_contiguous(b, CT_CONTIGUOUS_FORMAT) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(data);
    if (!*x || !*y) {
        ct_tensor_release(*x);
        ct_tensor_release(*y);
        *x = *y = NULL;
        return -1;
    }
    return 0;
}

/* ---- PhaseLog: a dispatch mode logging str(func) per phase ---- */

enum { PHASE_FORWARD, PHASE_BACKWARD, PHASE_OPTIMIZER, N_PHASES };
static const char *const PHASES[N_PHASES] = {"forward", "backward", "optimizer"};

typedef struct phase_log {
    int phase;
    const char **names[N_PHASES];
    size_t n[N_PHASES], cap[N_PHASES];
    bool oom;
} phase_log;

static int phase_log_dispatch(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    phase_log *l = ud;
    int p = l->phase;
    if (l->n[p] == l->cap[p]) {
        size_t nc = l->cap[p] ? l->cap[p] * 2 : 256;
        const char **nv = realloc((void *)l->names[p], nc * sizeof *nv);
        if (!nv) l->oom = true;
        else {
            l->names[p] = nv;
            l->cap[p] = nc;
        }
    }
    if (l->n[p] < l->cap[p]) l->names[p][l->n[p]++] = ct_op_python_name(op); /* self.log[phase].append(str(func)) */
    return ct_call(op, args, rets);                                          /* return func(*args, **kwargs) */
}

static void phase_log_free(phase_log *l) {
    for (int p = 0; p < N_PHASES; p++) free((void *)l->names[p]);
}

/* ---- JSON ---- */

static cJSON *py_float(double v) {
    char s[CT_PY_FLOAT_REPR_MAX];
    ct_py_float_repr(v, s);
    return cJSON_CreateRaw(s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* dict(sorted(Counter(names).items())) */
static cJSON *counts(const char *const *names, size_t n) {
    cJSON *o = cJSON_CreateObject();
    const char **sorted = malloc(sizeof *sorted * (n ? n : 1));
    if (!o || !sorted) {
        free(sorted);
        cJSON_Delete(o);
        return NULL;
    }
    memcpy(sorted, names, sizeof *sorted * n);
    qsort(sorted, n, sizeof *sorted, cmp_str);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && strcmp(sorted[j], sorted[i]) == 0) j++;
        cJSON_AddNumberToObject(o, sorted[i], (double)(j - i));
        i = j;
    }
    free(sorted);
    return o;
}

/* values of a float tensor's first `count` elements (x.tolist() of a 1-D slice) */
static cJSON *float_list(ct_tensor *t) {
    cJSON *a = cJSON_CreateArray();
    int64_t n = ct_tensor_numel(t);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!a || !v || ct_tensor_to_doubles(t, v, n) != 0) {
        free(v);
        cJSON_Delete(a);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) cJSON_AddItemToArray(a, py_float(v[i]));
    free(v);
    return a;
}

static cJSON *config_json(const ct_gpt_args *a) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    /* the Python int, exactly (a double would round seeds above 2^53) */
    char seed[CT_EXAMPLE_SEED_TEXT_MAX];
    ct_example_seed sv = {a->seed, a->seed_negative};
    cJSON_AddItemToObject(o, "seed", cJSON_CreateRaw(ct_example_seed_format(sv, seed)));
    if (a->json_out) cJSON_AddStringToObject(o, "json_out", a->json_out);
    else cJSON_AddNullToObject(o, "json_out");
    cJSON_AddStringToObject(o, "attention", a->sdpa ? "sdpa" : "manual");
    cJSON_AddItemToObject(o, "dropout", py_float(a->dropout));
    cJSON_AddNumberToObject(o, "n_layer", (double)a->n_layer);
    cJSON_AddNumberToObject(o, "n_head", (double)a->n_head);
    cJSON_AddNumberToObject(o, "d_model", (double)a->d_model);
    cJSON_AddNumberToObject(o, "vocab", (double)a->vocab);
    cJSON_AddNumberToObject(o, "block", (double)a->block);
    cJSON_AddNumberToObject(o, "batch", (double)a->batch);
    cJSON_AddBoolToObject(o, "tied", a->tied);
    cJSON_AddNumberToObject(o, "steps", (double)a->steps);
    cJSON_AddItemToObject(o, "lr", py_float(a->lr));
    cJSON_AddItemToObject(o, "clip", py_float(a->clip));
    cJSON_AddNumberToObject(o, "generate", (double)a->generate);
    return o;
}

/* ---- main ---- */

/* one training step: forward, backward, clip_grad_norm_, step, zero_grad(set_to_none=True) */
static int train_step(ct_module *model, ct_optimizer *opt, ct_tensor *xb, ct_tensor *yb, double clip, phase_log *log,
                      ct_tensor **logits_out, double *loss_out);

int ct_gpt_train_step(ct_module *model, ct_optimizer *opt, ct_tensor *x, ct_tensor *y, double clip, double *loss) {
    return train_step(model, opt, x, y, clip, NULL, NULL, loss);
}

static int train_step(ct_module *model, ct_optimizer *opt, ct_tensor *xb, ct_tensor *yb, double clip, phase_log *log,
                      ct_tensor **logits_out, double *loss_out) {
    ct_tensor *logits = NULL, *loss = NULL, *params[512], *norm = NULL;
    int rc = ct_gpt_forward(model, xb, yb, &logits, &loss);
    if (log) log->phase = PHASE_BACKWARD;
    if (rc == 0) rc = ct_backward(loss, NULL, false);
    if (log) log->phase = PHASE_OPTIMIZER;
    int np = rc == 0 ? ct_module_parameters(model, params, 512) : 0;
    if (rc == 0 && (np < 0 || np > 512)) rc = ct_error_set(CT_ERR_VALUE, "the model has more than 512 parameters");
    if (rc == 0) rc = (norm = ct_nn_clip_grad_norm_(params, np, clip, 2.0, false)) ? 0 : -1;
    if (rc == 0) rc = ct_optimizer_step(opt);
    if (rc == 0) rc = ct_optimizer_zero_grad(opt, true);
    ct_tensor_release(norm);
    if (rc == 0 && loss_out && ct_tensor_item(loss, loss_out) != 0) rc = -1; /* l.item() */
    if (rc == 0 && logits_out) *logits_out = ct_tensor_retain(logits);
    ct_tensor_release(logits);
    ct_tensor_release(loss);
    return rc;
}

/* sampling: model.eval(); with torch.no_grad(): idx = x[:1, :4], then `generate` times
 * idx = cat([idx, multinomial(softmax(model(idx[:, -block:])[:, -1, :]), 1)], dim=1) */
static ct_tensor *generate(ct_module *model, const ct_gpt_config *c, ct_tensor *x, int64_t count) {
    ct_module_eval(model);
    ct_grad_mode_guard g;
    ct_no_grad_enter(&g);
    int64_t zero = 0, one = 1, four = 4, start = -c->block;
    ct_tensor *r = ct_slice(x, 0, &zero, &one, 1);
    ct_tensor *idx = r ? ct_slice(r, 1, &zero, &four, 1) : NULL;
    ct_tensor_release(r);
    for (int64_t i = 0; idx && i < count; i++) {
        ct_tensor *ctx = ct_slice(idx, 1, &start, NULL, 1), *lg = NULL;
        if (!ctx || ct_gpt_forward(model, ctx, NULL, &lg, NULL) != 0) {
            ct_tensor_release(ctx);
            ct_tensor_release(idx);
            idx = NULL;
            break;
        }
        ct_tensor *last = ct_select(lg, 1, -1);
        ct_tensor *probs = last ? ct_softmax(last, -1, CT_DTYPE_UNDEFINED) : NULL;
        ct_tensor *next = probs ? ct_multinomial(probs, 1, false, NULL) : NULL;
        ct_tensor *both[2] = {idx, next};
        ct_tensor *cat = next ? ct_cat(both, 2, 1) : NULL;
        ct_tensor_release(ctx);
        ct_tensor_release(lg);
        ct_tensor_release(last);
        ct_tensor_release(probs);
        ct_tensor_release(next);
        ct_tensor_release(idx);
        idx = cat;
    }
    ct_grad_mode_exit(&g);
    return idx;
}

int ct_example_minigpt(const ct_gpt_args *a, char **json, char **summary, double **losses_out) {
    *json = *summary = NULL;
    if (losses_out) *losses_out = NULL;
    int rc = -1;
    ct_gpt_config c = ct_gpt_config_from_args(a);
    ct_module *model = NULL;
    ct_optimizer *opt = NULL;
    ct_tensor *x = NULL, *y = NULL, *logits = NULL, *idx = NULL;
    double *losses = malloc(sizeof(double) * (size_t)(a->steps > 1 ? a->steps : 1));
    phase_log log;
    memset(&log, 0, sizeof log);
    cJSON *out = NULL;
    /* torch.set_num_threads(1) as main() begins (a->threads: 1 but for the 2-thread recordings); the
     * caller's count comes back at the end */
    const int caller_threads = ct_get_num_threads();
    if (!losses || ct_set_num_threads(a->threads) != 0) goto done;

    /* torch.manual_seed(seed); model = MiniGPT(c); opt = make_optimizer(model, lr, 0.1) */
    ct_manual_seed(a->seed);
    model = ct_gpt_new(&c);
    if (!model) goto done;
    opt = ct_gpt_make_optimizer(model, a->lr, 0.1);
    if (!opt || ct_gpt_make_batch(&c, a->batch, a->seed + 1, &x, &y) != 0) goto done;

    /* one traced step, per phase */
    int mode = ct_dispatch_mode_push(phase_log_dispatch, &log);
    if (mode < 0) goto done;
    int step_rc = train_step(model, opt, x, y, a->clip, &log, &logits, &losses[0]);
    if (ct_dispatch_mode_pop(mode) != 0) step_rc = -1;
    if (step_rc != 0) goto done;
    if (log.oom) {
        ct_error_set(CT_ERR_NOMEM, "out of memory recording the op log");
        goto done;
    }

    for (int64_t s = 1; s < a->steps; s++) {
        ct_tensor *xb = NULL, *yb = NULL;
        if (ct_gpt_make_batch(&c, a->batch, a->seed + 1 + (uint64_t)s, &xb, &yb) != 0) goto done;
        int r = train_step(model, opt, xb, yb, a->clip, NULL, NULL, &losses[s]);
        ct_tensor_release(xb);
        ct_tensor_release(yb);
        if (r != 0) goto done;
    }
    int64_t nloss = a->steps > 1 ? a->steps : 1;

    idx = generate(model, &c, x, a->generate);
    if (!idx) goto done;

    /* sum(p.numel() for p in model.parameters()) */
    ct_tensor *params[512];
    int np = ct_module_parameters(model, params, 512);
    int64_t n_params = 0;
    for (int i = 0; i < np && i < 512; i++) n_params += ct_tensor_numel(params[i]);

    /* out = {config, ops, log, n_params, losses, logits_first, generated, head_weight_after};
     * the printed summary has ops, n_params, losses and generated */
    out = cJSON_CreateObject();
    cJSON *s = cJSON_CreateObject();
    if (!out || !s) {
        cJSON_Delete(s);
        goto done;
    }
    cJSON_AddItemToObject(out, "config", config_json(a));
    for (int k = 0; k < 2; k++) {
        cJSON *dst = k == 0 ? out : s;
        cJSON *ops = cJSON_CreateObject();
        for (int p = 0; ops && p < N_PHASES; p++) cJSON_AddItemToObject(ops, PHASES[p], counts(log.names[p], log.n[p]));
        cJSON_AddItemToObject(dst, "ops", ops);
        if (k == 0) {
            cJSON *logs = cJSON_CreateObject();
            for (int p = 0; logs && p < N_PHASES; p++) {
                cJSON *arr = cJSON_CreateArray();
                for (size_t i = 0; arr && i < log.n[p]; i++) cJSON_AddItemToArray(arr, cJSON_CreateString(log.names[p][i]));
                cJSON_AddItemToObject(logs, PHASES[p], arr);
            }
            cJSON_AddItemToObject(out, "log", logs);
        }
        cJSON_AddNumberToObject(dst, "n_params", (double)n_params);
        cJSON *jl = cJSON_CreateArray();
        for (int64_t i = 0; jl && i < nloss; i++) cJSON_AddItemToArray(jl, py_float(losses[i]));
        cJSON_AddItemToObject(dst, "losses", jl);
        int64_t zero = 0, eight = 8;
        ct_tensor *l0 = NULL, *l00 = NULL, *l8 = NULL;
        if (k == 0) {
            /* logits[0, 0, :8].tolist() */
            l0 = ct_select(logits, 0, 0);
            l00 = l0 ? ct_select(l0, 0, 0) : NULL;
            l8 = l00 ? ct_slice(l00, 0, &zero, &eight, 1) : NULL;
            cJSON_AddItemToObject(out, "logits_first", l8 ? float_list(l8) : NULL);
        }
        /* idx[0].tolist() */
        cJSON *gen = cJSON_CreateArray();
        for (int64_t i = 0; gen && i < ct_tensor_size(idx, 1); i++) {
            int64_t ix[2] = {0, i};
            double v = 0;
            ct_tensor_get(idx, ix, &v);
            cJSON_AddItemToArray(gen, cJSON_CreateNumber(v));
        }
        cJSON_AddItemToObject(dst, "generated", gen);
        if (k == 0) {
            /* model.head.weight[0, :8].tolist() */
            ct_tensor *w0 = ct_select(ct_module_get_parameter(ct_module_get_child(model, "head"), "weight"), 0, 0);
            ct_tensor *w8 = w0 ? ct_slice(w0, 0, &zero, &eight, 1) : NULL;
            cJSON_AddItemToObject(out, "head_weight_after", w8 ? float_list(w8) : NULL);
            ct_tensor_release(w0);
            ct_tensor_release(w8);
        }
        ct_tensor_release(l0);
        ct_tensor_release(l00);
        ct_tensor_release(l8);
    }
    *json = ct_json_dumps(out, 2);
    *summary = ct_json_dumps(s, 1);
    cJSON_Delete(s);
    if (*json && *summary) {
        rc = 0;
        if (losses_out) {
            *losses_out = losses;
            losses = NULL;
        }
    } else {
        ct_free(*json);
        ct_free(*summary);
        *json = *summary = NULL;
    }
done:
    cJSON_Delete(out);
    free(losses);
    phase_log_free(&log);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_tensor_release(logits);
    ct_tensor_release(idx);
    ct_optimizer_free(opt);
    ct_module_free(model);
    ct_set_num_threads(caller_threads);
    return rc;
}
