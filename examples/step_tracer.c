/* Trace every aten op of one training step with a dispatch mode and a wrapper subclass.
 *
 * The C twin of the seed script (20_dispatch_tracer.py). Part (a): an op counter (a dispatch
 * mode with phases) counts aten overloads separately for the forward pass, the backward pass
 * and the optimizer step of a 2-layer MLP (16 -> 32 -> 4, ReLU, cross-entropy) trained with SGD.
 * Because the mode sits below the Autograd key it sees the backward kernels too. Part (b):
 * LoggingTensor, a wrapper subclass, unwraps, runs, logs and rewraps every op; autograd runs
 * above it, so gradients flow and come back as LoggingTensors. Part (c): both runs are compared
 * with a plain eager run of the same step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/json.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/subclass.h"
#include "ctorch/trace.h"
#include "seed_arg.h"
#include "step_tracer.h"

static const char *const MM_LIKE[] = {"aten.mm.default", "aten.addmm.default", "aten.bmm.default"};

/* make_batch(seed): an explicit generator, randn(8, 16), randint(0, 4, (8,)) */
int ct_example_make_batch(uint64_t seed, ct_tensor **x, ct_tensor **y) {
    ct_generator *g = ct_generator_new();
    if (!g) return -1;
    ct_generator_manual_seed(g, seed);
    int64_t xs[2] = {8, 16}, ys[1] = {8};
    *x = ct_randn_generator(xs, 2, g, CT_DTYPE_UNDEFINED);
    *y = *x ? ct_randint_generator(0, 4, ys, 1, g, CT_DTYPE_UNDEFINED) : NULL;
    ct_generator_release(g);
    return *x && *y ? 0 : -1;
}

/* make_model(seed): manual_seed, then Sequential(Linear(16, 32), ReLU(), Linear(32, 4)) */
ct_module *ct_example_make_model(uint64_t seed) { return ct_example_make_model_on(seed, false); }

ct_module *ct_example_make_model_on(uint64_t seed, bool own_generator) {
    ct_generator *g = NULL;
    if (own_generator) {
        if (!(g = ct_generator_new())) return NULL;
        ct_generator_manual_seed(g, seed);
    } else {
        ct_manual_seed(seed);
    }
    ct_module *mods[3] = {ct_nn_linear_generator(16, 32, true, g), ct_nn_relu(), ct_nn_linear_generator(32, 4, true, g)};
    ct_generator_release(g);
    return ct_nn_sequential(mods, 3);
}

typedef struct step_out {
    ct_tensor *logits;
    ct_tensor *grads[4];
    ct_tensor *params[4];
} step_out;

static void step_out_free(step_out *o) {
    ct_tensor_release(o->logits);
    for (int i = 0; i < 4; i++) {
        ct_tensor_release(o->grads[i]);
        ct_tensor_release(o->params[i]);
    }
    memset(o, 0, sizeof *o);
}

/* the step: logits = model(x); loss = cross_entropy(logits, y); backward; SGD(lr=0.1).step(),
 * with the counter (if any) switching phases on the way */
static int run_step(uint64_t seed, bool own, ct_op_counter *counter, step_out *out) {
    int rc = -1;
    ct_module *model = ct_example_make_model_on(seed, own);
    ct_tensor *x = NULL, *y = NULL, *loss = NULL, *params[4];
    ct_optimizer *opt = NULL;
    memset(out, 0, sizeof *out);
    if (!model || ct_example_make_batch(seed + 1, &x, &y) != 0) goto done;
    if (ct_module_parameters(model, params, 4) != 4) goto done;
    opt = ct_sgd_new(params, 4, ct_sgd_defaults(0.1));
    if (!opt) goto done;
    if (counter && (ct_op_counter_set_phase(counter, "forward") != 0 || ct_op_counter_push(counter) != 0)) goto done;
    if (counter) ct_trace_set_phase("forward"); /* the same phases in a trace file, if one is open */
    out->logits = ct_module_forward(model, x);
    loss = out->logits ? ct_cross_entropy(out->logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int ok = loss != NULL;
    /* a phase that cannot be switched would count the next ops in the wrong one */
    ok = ok && (!counter || ct_op_counter_set_phase(counter, "backward") == 0);
    if (counter) ct_trace_set_phase("backward");
    ok = ok && ct_backward(loss, NULL, false) == 0;
    /* plain_step keeps copies of the gradients (outside any mode) */
    for (int i = 0; ok && !counter && i < 4; i++) {
        out->grads[i] = ct_clone(ct_tensor_grad(params[i]), CT_MEMORY_FORMAT_NONE);
        ok = out->grads[i] != NULL;
    }
    ok = ok && (!counter || ct_op_counter_set_phase(counter, "optimizer") == 0);
    if (counter) ct_trace_set_phase("optimizer");
    ok = ok && ct_optimizer_step(opt) == 0;
    if (counter) {
        ct_op_counter_pop(counter);
        ct_trace_set_phase(NULL);
    }
    for (int i = 0; ok && i < 4; i++) {
        ct_tensor *d = ct_detach(params[i]);
        out->params[i] = d ? ct_clone(d, CT_MEMORY_FORMAT_NONE) : NULL;
        ct_tensor_release(d);
        ok = out->params[i] != NULL;
    }
    rc = ok ? 0 : -1;
done:
    ct_tensor_release(loss);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_optimizer_free(opt);
    ct_module_free(model);
    if (rc != 0) step_out_free(out);
    return rc;
}

/* subclass_step: a functional forward on LoggingTensor parameters */
static int subclass_step(uint64_t seed, bool own, ct_logging_tensor_log *log, ct_tensor **logits_out,
                         ct_tensor **grads_out, bool *grad_is_logging) {
    int rc = -1;
    ct_module *model = ct_example_make_model_on(seed, own);
    ct_tensor *x = NULL, *y = NULL, *params[4], *w[4] = {NULL}, *lx = NULL, *ly = NULL;
    ct_tensor *h1 = NULL, *h = NULL, *logits = NULL, *loss = NULL, *ld = NULL;
    *logits_out = NULL;
    if (!model || ct_example_make_batch(seed + 1, &x, &y) != 0) goto done;
    if (ct_module_parameters(model, params, 4) != 4) goto done;
    for (int i = 0; i < 4; i++) {
        /* LoggingTensor(p.detach().clone(), log, requires_grad=True) */
        ct_tensor *d = ct_detach(params[i]);
        ct_tensor *c = d ? ct_clone(d, CT_MEMORY_FORMAT_NONE) : NULL;
        w[i] = c ? ct_logging_tensor_new(log, c, true) : NULL;
        ct_tensor_release(d);
        ct_tensor_release(c);
        if (!w[i]) goto done;
    }
    lx = ct_logging_tensor_new(log, x, false);
    ly = ct_logging_tensor_new(log, y, false);
    if (!lx || !ly) goto done;
    h1 = ct_linear(lx, w[0], w[1]);
    h = h1 ? ct_relu(h1) : NULL;
    logits = h ? ct_linear(h, w[2], w[3]) : NULL;
    loss = logits ? ct_cross_entropy(logits, ly, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    if (!loss || ct_backward(loss, NULL, false) != 0) goto done;
    *grad_is_logging = ct_logging_tensor_elem(ct_tensor_grad(w[0])) != NULL;
    for (int i = 0; i < 4; i++) {
        grads_out[i] = ct_tensor_retain(ct_logging_tensor_elem(ct_tensor_grad(w[i])));
        if (!grads_out[i]) goto done;
    }
    /* logits.detach().elem */
    ld = ct_detach(logits);
    if (!ld) goto done;
    *logits_out = ct_tensor_retain(ct_logging_tensor_elem(ld));
    rc = *logits_out ? 0 : -1;
done:
    ct_tensor_release(ld);
    ct_tensor_release(loss);
    ct_tensor_release(logits);
    ct_tensor_release(h);
    ct_tensor_release(h1);
    ct_tensor_release(lx);
    ct_tensor_release(ly);
    for (int i = 0; i < 4; i++) ct_tensor_release(w[i]);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_module_free(model);
    return rc;
}

/* torch.allclose(u, v, rtol=1e-5, atol=1e-6) for each pair: 1 (all close), 0 (not), or -1 with
 * an error (the values could not be read: that is no answer, not a "false") */
static int close_all(ct_tensor *const *a, ct_tensor *const *b, int n) {
    for (int k = 0; k < n; k++) {
        if (!a[k] || !b[k] || ct_tensor_numel(a[k]) != ct_tensor_numel(b[k])) return 0;
        int64_t m = ct_tensor_numel(a[k]);
        double *u = malloc(sizeof(double) * (size_t)(m ? m : 1));
        double *v = u ? malloc(sizeof(double) * (size_t)(m ? m : 1)) : NULL;
        if (!v || ct_tensor_to_doubles(a[k], u, m) != 0 || ct_tensor_to_doubles(b[k], v, m) != 0) {
            free(u);
            free(v);
            return -1;
        }
        bool ok = true;
        for (int64_t i = 0; ok && i < m; i++) {
            double d = u[i] - v[i];
            if (d < 0) d = -d;
            double bv = v[i] < 0 ? -v[i] : v[i];
            ok = d <= 1e-6 + 1e-5 * bv;
        }
        free(u);
        free(v);
        if (!ok) return 0;
    }
    return 1;
}

static int64_t mm_like(const ct_op_counter *c, const char *phase) {
    int64_t n = 0;
    for (size_t i = 0; i < sizeof MM_LIKE / sizeof MM_LIKE[0]; i++) n += ct_op_counter_get(c, phase, MM_LIKE[i]);
    return n;
}

/* {op: count} of one phase, or NULL with an error */
static cJSON *phase_counts(const ct_op_counter *c, const char *phase) {
    const char **names = NULL;
    int n = ct_op_counter_names(c, phase, &names);
    if (n < 0) return NULL;
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = ct_json_add(o, names[i], cJSON_CreateNumber((double)ct_op_counter_get(c, phase, names[i])));
    ct_free((void *)names);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

char *ct_example_step_json(uint64_t seed) { return ct_example_step_json_on(seed, false); }

char *ct_example_step_json_on(uint64_t seed, bool own) {
    step_out ref, tr;
    char *text = NULL;
    ct_op_counter *counter = ct_op_counter_new();
    ct_logging_tensor_log *log = ct_logging_tensor_log_new();
    ct_tensor *sub_logits = NULL, *sub_grads[4] = {NULL};
    bool grad_type_ok = false;
    memset(&ref, 0, sizeof ref);
    memset(&tr, 0, sizeof tr);
    if (!counter || !log) goto done;
    if (run_step(seed, own, NULL, &ref) != 0) goto done;   /* plain_step */
    if (run_step(seed, own, counter, &tr) != 0) goto done; /* traced_step */
    if (subclass_step(seed, own, log, &sub_logits, sub_grads, &grad_type_ok) != 0) goto done;

    ct_tensor *trv[5] = {tr.logits, tr.params[0], tr.params[1], tr.params[2], tr.params[3]};
    ct_tensor *refv[5] = {ref.logits, ref.params[0], ref.params[1], ref.params[2], ref.params[3]};
    /* distinct subclass ops */
    size_t nlog = ct_logging_tensor_log_count(log), distinct = 0;
    for (size_t i = 0; i < nlog; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(ct_logging_tensor_log_get(log, i), ct_logging_tensor_log_get(log, j)) == 0;
        distinct += !seen;
    }
    int traced_ok = close_all(trv, refv, 5), out_ok = close_all(&sub_logits, &ref.logits, 1),
        grads_ok = close_all(sub_grads, ref.grads, 4);
    if (traced_ok < 0 || out_ok < 0 || grads_ok < 0) goto done;
    cJSON *r = cJSON_CreateObject();
    if (!r) goto done;
    bool ok = ct_json_add(r, "forward_ops", phase_counts(counter, "forward"));
    ok &= ct_json_add(r, "backward_ops", phase_counts(counter, "backward"));
    ok &= ct_json_add(r, "optimizer_ops", phase_counts(counter, "optimizer"));
    ok &= ct_json_add(r, "total_ops", cJSON_CreateNumber((double)ct_op_counter_total(counter, NULL)));
    ok &= ct_json_add(r, "mm_like_forward", cJSON_CreateNumber((double)mm_like(counter, "forward")));
    ok &= ct_json_add(r, "mm_like_backward", cJSON_CreateNumber((double)mm_like(counter, "backward")));
    ok &= ct_json_add(r, "traced_step_matches", cJSON_CreateBool(traced_ok));
    ok &= ct_json_add(r, "subclass_output_matches", cJSON_CreateBool(out_ok));
    ok &= ct_json_add(r, "subclass_grad_matches", cJSON_CreateBool(grads_ok));
    ok &= ct_json_add(r, "subclass_grad_type", cJSON_CreateString(grad_type_ok ? "LoggingTensor" : "Tensor"));
    ok &= ct_json_add(r, "subclass_logged_ops", cJSON_CreateNumber((double)nlog));
    ok &= ct_json_add(r, "subclass_distinct_ops", cJSON_CreateNumber((double)distinct));
    text = ok ? ct_json_dumps(r, 2) : NULL;
    cJSON_Delete(r);
done:
    step_out_free(&ref);
    step_out_free(&tr);
    ct_tensor_release(sub_logits);
    for (int i = 0; i < 4; i++) ct_tensor_release(sub_grads[i]);
    ct_op_counter_free(counter);
    ct_logging_tensor_log_free(log);
    return text;
}

int ct_example_step_trace(uint64_t seed, const char *path, const char *program) {
    ct_op_counter *counter = ct_op_counter_new();
    if (!counter) return -1;
    ct_trace_file_options o = {program, true, seed, 0};
    if (ct_trace_file_open(path, &o) != 0) {
        ct_op_counter_free(counter);
        return -1;
    }
    step_out out;
    int rc = run_step(seed, false, counter, &out);
    if (rc == 0) step_out_free(&out);
    if (ct_trace_file_close() != 0) rc = -1;
    ct_op_counter_free(counter);
    return rc;
}

int ct_example_subclass_log(uint64_t seed, char ***names, size_t *n) {
    ct_logging_tensor_log *log = ct_logging_tensor_log_new();
    ct_tensor *logits = NULL, *grads[4] = {NULL};
    bool is_logging;
    *names = NULL;
    *n = 0;
    if (!log) return -1;
    int rc = subclass_step(seed, false, log, &logits, grads, &is_logging);
    ct_tensor_release(logits);
    for (int i = 0; i < 4; i++) ct_tensor_release(grads[i]);
    if (rc == 0) {
        size_t k = ct_logging_tensor_log_count(log);
        char **v = malloc(sizeof(char *) * (k ? k : 1));
        for (size_t i = 0; v && i < k; i++) v[i] = (char *)ct_logging_tensor_log_get(log, i);
        *names = v;
        *n = k;
        /* the names are the ops' own strings and outlive the log */
    }
    ct_logging_tensor_log_free(log);
    return rc;
}

int ct_example_step_seed(const char *text, uint64_t *seed) {
    ct_example_seed model, batch;
    if (!seed) return ct_error_set(CT_ERR_VALUE, "ct_example_step_seed: seed is NULL");
    if (ct_example_seed_parse(text, &model) != 0) return -1;
    if (ct_example_seed_add(model, 1, &batch) != 0) {
        char m[CT_EXAMPLE_SEED_TEXT_MAX];
        return ct_error_set(CT_ERR_RUNTIME, "%s (from make_batch(seed + 1) with seed %s)", ct_error_message(),
                            ct_example_seed_format(model, m));
    }
    *seed = model.value;
    return 0;
}
