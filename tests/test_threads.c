/* ctorch under threads (also built with ThreadSanitizer by the test command, CTORCH_TSAN):
 * - concurrent dispatch: several threads run the same ops and each gets the single-threaded
 *   values and dispatch-mode log;
 * - op definition while other threads look ops up by name, walk the op list and call them;
 * - function modes see an operator defined after a function mode first ran, on this thread
 *   and while another thread defines operators;
 * - a profiler started and stopped on one thread while other threads run ops (which it must
 *   not record, since profiling is per thread) and the trace printing level changed meanwhile;
 * - two threads each training the seed step (Linear 16->32, ReLU, Linear 32->4,
 *   cross_entropy, backward, SGD) get the single-threaded parameters bit for bit. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "step_tracer.h"

#define N_THREADS 4

/* ---- a small op sequence with a logger ---- */

typedef struct work_out {
    double values[6];
    char *log;
    int rc;
} work_out;

static int run_work(work_out *o) {
    static const double xs[6] = {1, -2, 3, -4, 5, -6};
    const int64_t sz[2] = {2, 3};
    ct_op_logger *l = ct_op_logger_new();
    ct_tensor *x = ct_tensor_from_doubles(xs, sz, 2, CT_FLOAT32);
    int rc = -1;
    if (!l || !x || ct_op_logger_push(l) != 0) goto done;
    ct_tensor *r = ct_relu(x);
    ct_tensor *m = r ? ct_mul(r, x) : NULL;
    ct_tensor *t = m ? ct_t(m) : NULL;
    ct_op_logger_pop(l);
    if (t) rc = ct_tensor_to_doubles(t, o->values, 6);
    o->log = ct_op_logger_format(l);
    ct_tensor_release(t);
    ct_tensor_release(m);
    ct_tensor_release(r);
done:
    ct_tensor_release(x);
    ct_op_logger_free(l);
    return rc;
}

typedef struct dispatch_arg {
    const work_out *want;
    int iters, bad;
} dispatch_arg;

static void *dispatch_thread(void *p) {
    dispatch_arg *a = p;
    for (int i = 0; i < a->iters; i++) {
        work_out o = {0};
        int rc = run_work(&o);
        if (rc != 0 || memcmp(o.values, a->want->values, sizeof o.values) != 0 || !o.log ||
            strcmp(o.log, a->want->log) != 0)
            a->bad++;
        ct_free(o.log);
    }
    return NULL;
}

static void test_concurrent_dispatch(void) {
    work_out want = {0};
    CHECK_INT_EQ(run_work(&want), 0);
    CHECK(want.log && strstr(want.log, "aten.relu.default") && strstr(want.log, "aten.mul.Tensor"));
    pthread_t th[N_THREADS];
    dispatch_arg args[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        args[i] = (dispatch_arg){&want, 200, 0};
        pthread_create(&th[i], NULL, dispatch_thread, &args[i]);
    }
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(args[i].bad == 0, "dispatch thread %d: %d of %d runs differ", i, args[i].bad, args[i].iters);
    }
    ct_free(want.log);
}

/* ---- op definition while others look up and call ---- */

static int k_square(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *r = ct_mul(args[0].u.t, args[0].u.t);
    if (!r) return -1;
    rets[0] = ct_tensor_value(r);
    return 0;
}

#define N_DEFINED 600 /* more than the first segment of the op list holds beyond the built-ins */
static atomic_int defined_count;

static void *define_thread(void *p) {
    (void)p;
    for (int i = 0; i < N_DEFINED; i++) {
        char schema[96];
        snprintf(schema, sizeof schema, "threadtest::square%d(Tensor self) -> Tensor", i);
        const ct_op *op = ct_op_define(schema, __FILE__);
        if (!op || ct_register_kernel(op, CT_KEY_CPU, k_square, __FILE__) != 0) return (void *)1;
        atomic_store(&defined_count, i + 1);
    }
    return NULL;
}

typedef struct lookup_arg {
    int found, called, bad;
} lookup_arg;

static void *lookup_thread(void *p) {
    lookup_arg *a = p;
    const double v = 3;
    ct_tensor *x = ct_tensor_from_doubles(&v, NULL, 0, CT_FLOAT32);
    while (atomic_load(&defined_count) < N_DEFINED) {
        int n = atomic_load(&defined_count);
        /* the newest defined op by name; every op in the list has a name */
        if (n > 0) {
            char name[64];
            snprintf(name, sizeof name, "threadtest::square%d", n - 1);
            const ct_op *op = ct_op_find(name);
            if (!op || strcmp(ct_op_name(op), name) != 0) {
                a->bad++;
                continue;
            }
            a->found++;
            ct_value args[1] = {ct_tensor_value(x)}, rets[1];
            if (ct_call(op, args, rets) != 0) {
                a->bad++;
                continue;
            }
            double got = 0;
            ct_tensor_item(rets[0].u.t, &got);
            if (got != 9) a->bad++;
            ct_values_release(rets, 1);
            a->called++;
        }
        int count = ct_op_count();
        for (int i = 0; i < count; i++)
            if (!ct_op_at(i) || !ct_op_name(ct_op_at(i))[0]) a->bad++;
        /* a built-in op keeps working meanwhile */
        ct_tensor *r = ct_relu(x);
        if (!r) a->bad++;
        ct_tensor_release(r);
    }
    ct_tensor_release(x);
    return NULL;
}

static void test_define_while_looking_up(void) {
    int before = ct_op_count();
    pthread_t def, look[2];
    lookup_arg la[2] = {{0}};
    for (int i = 0; i < 2; i++) pthread_create(&look[i], NULL, lookup_thread, &la[i]);
    pthread_create(&def, NULL, define_thread, NULL);
    void *def_rc = NULL;
    pthread_join(def, &def_rc);
    CHECK(def_rc == NULL);
    for (int i = 0; i < 2; i++) {
        pthread_join(look[i], NULL);
        CHECK_MSG(la[i].bad == 0, "lookup thread %d: %d bad lookups (%d found, %d called)", i, la[i].bad, la[i].found,
                  la[i].called);
    }
    CHECK_INT_EQ(ct_op_count(), before + N_DEFINED);
    for (int i = 0; i < N_DEFINED; i += 97) {
        char name[64];
        snprintf(name, sizeof name, "threadtest::square%d", i);
        const ct_op *op = ct_op_find(name);
        CHECK(op && ct_op_at(before + i) == op);
    }
}

/* ---- function modes and ops defined later ---- */

typedef struct seen {
    char names[8][32];
    int n;
} seen;

static int seen_handler(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    seen *s = ud;
    if (s->n < 8) snprintf(s->names[s->n], sizeof s->names[0], "%s", ct_function_name(f));
    s->n++;
    return ct_function_call(f, args, rets);
}

static void test_function_mode_sees_later_ops(void) {
    const double v = 2;
    ct_tensor *x = ct_tensor_from_doubles(&v, NULL, 0, CT_FLOAT32);
    seen s = {0};
    /* a function mode runs first, over a built-in op */
    int fh = ct_function_mode_push(seen_handler, &s);
    CHECK(fh > 0);
    ct_tensor *r = ct_relu(x);
    CHECK_INT_EQ(ct_function_mode_pop(fh), 0);
    CHECK_INT_EQ(s.n, 1);
    CHECK_STR_EQ(s.names[0], "relu");
    ct_tensor_release(r);
    /* then an op is defined, and the next function mode sees it */
    const ct_op *op = ct_op_define("threadtest::late_square(Tensor self) -> Tensor", __FILE__);
    CHECK(op != NULL);
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_CPU, k_square, __FILE__), 0);
    s.n = 0;
    fh = ct_function_mode_push(seen_handler, &s);
    CHECK(fh > 0);
    ct_value args[1] = {ct_tensor_value(x)}, rets[1];
    CHECK_INT_EQ(ct_op_invoke(op, args, rets), 0);
    CHECK_INT_EQ(ct_function_mode_pop(fh), 0);
    CHECK_INT_EQ(s.n, 1);
    CHECK_STR_EQ(s.names[0], "late_square");
    double got = 0;
    CHECK_INT_EQ(ct_tensor_item(rets[0].u.t, &got), 0);
    CHECK(got == 4);
    ct_values_release(rets, 1);
    /* with no mode it is simply called */
    s.n = 0;
    CHECK_INT_EQ(ct_op_invoke(op, args, rets), 0);
    CHECK_INT_EQ(s.n, 0);
    ct_values_release(rets, 1);
    ct_tensor_release(x);
}

/* ---- profiler on one thread while others run ops ---- */

static atomic_bool stop_runners;

static void *runner_thread(void *p) {
    dispatch_arg *a = p;
    while (!atomic_load(&stop_runners)) {
        work_out o = {0};
        if (run_work(&o) != 0 || memcmp(o.values, a->want->values, sizeof o.values) != 0) a->bad++;
        ct_free(o.log);
        a->iters++;
    }
    return NULL;
}

static void test_profiler_while_others_run(void) {
    work_out want = {0};
    CHECK_INT_EQ(run_work(&want), 0);
    /* the events of one run while this thread is alone */
    ct_profiler *alone = ct_profiler_start(false);
    work_out o0 = {0};
    CHECK_INT_EQ(run_work(&o0), 0);
    ct_free(o0.log);
    CHECK_INT_EQ(ct_profiler_stop(alone), 0);
    size_t alone_events = ct_profiler_num_events(alone);
    CHECK(alone_events >= 3); /* relu, mul, t and the tensors' making */
    ct_profiler_free(alone);
    atomic_store(&stop_runners, false);
    pthread_t th[2];
    dispatch_arg args[2];
    for (int i = 0; i < 2; i++) {
        args[i] = (dispatch_arg){&want, 0, 0};
        pthread_create(&th[i], NULL, runner_thread, &args[i]);
    }
    FILE *sink = tmpfile();
    for (int round = 0; round < 20; round++) {
        ct_profiler *p = ct_profiler_start(round % 2 == 0);
        CHECK(p != NULL);
        if (!p) break;
        work_out o = {0};
        CHECK_INT_EQ(run_work(&o), 0);
        ct_free(o.log);
        /* the process-wide trace switches flip while the others run (printing to a sink) */
        if (round == 5) {
            ct_trace_set_stream(sink);
            ct_trace_set_print(1);
        }
        if (round == 7) ct_trace_set_print(0);
        CHECK_INT_EQ(ct_profiler_stop(p), 0);
        /* this thread's ops and nothing from the others */
        CHECK_INT_EQ(ct_profiler_num_events(p), alone_events);
        ct_profiler_free(p);
    }
    atomic_store(&stop_runners, true);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(args[i].bad == 0, "runner %d: %d of %d runs differ", i, args[i].bad, args[i].iters);
    }
    ct_trace_set_stream(NULL);
    if (sink) fclose(sink);
    ct_free(want.log);
}

/* ---- a profiler that records every thread (all_threads) ---- */

typedef struct prof_arg {
    int runs, rc;
    pthread_barrier_t *start;
} prof_arg;

static void *profiled_thread(void *v) {
    prof_arg *a = v;
    pthread_barrier_wait(a->start);
    for (int i = 0; i < a->runs; i++) {
        work_out o = {0};
        if (run_work(&o) != 0) a->rc = -1;
        ct_free(o.log);
    }
    return NULL;
}

static int64_t count_in_table(const char *table, const char *name) {
    /* the "# of Calls" cell of name's row: the last number on its line */
    char key[64];
    snprintf(key, sizeof key, " %s  ", name);
    const char *row = table ? strstr(table, key) : NULL;
    if (!row) return -1;
    const char *eol = strchr(row, '\n');
    const char *q = eol;
    while (q > row && q[-1] == ' ') q--;
    while (q > row && q[-1] >= '0' && q[-1] <= '9') q--;
    return strtoll(q, NULL, 10);
}

static void test_profiler_all_threads(void) {
    /* one run alone: the events it makes */
    ct_profiler *alone = ct_profiler_start(false);
    work_out o0 = {0};
    CHECK_INT_EQ(run_work(&o0), 0);
    ct_free(o0.log);
    ct_profiler_stop(alone);
    size_t per_run = ct_profiler_num_events(alone);
    char *t1 = ct_profiler_table(alone, NULL, -1, false);
    int64_t relu1 = count_in_table(t1, "aten::relu"), mul1 = count_in_table(t1, "aten::mul");
    CHECK(relu1 > 0 && mul1 > 0);
    ct_free(t1);
    ct_profiler_free(alone);

    ct_profiler_config cfg = {.all_threads = true, .record_shapes = true};
    for (int round = 0; round < 4; round++) {
        ct_profiler *p = ct_profiler_start_config(&cfg);
        CHECK(p != NULL);
        if (!p) return;
        /* one profiler records every thread at a time */
        CHECK(ct_profiler_start_config(&cfg) == NULL);
        CHECK_ERROR(CT_ERR_RUNTIME, "Profiler is already enabled on this thread");
        pthread_t th[3];
        prof_arg args[3];
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, 3);
        for (int i = 0; i < 3; i++) {
            args[i] = (prof_arg){i == 2 ? 0 : 5, 0, &start};
            if (i < 2) pthread_create(&th[i], NULL, profiled_thread, &args[i]);
        }
        pthread_barrier_wait(&start);
        work_out o = {0};
        CHECK_INT_EQ(run_work(&o), 0); /* this thread too, while the others run */
        ct_free(o.log);
        for (int i = 0; i < 2; i++) {
            pthread_join(th[i], NULL);
            CHECK_INT_EQ(args[i].rc, 0);
        }
        pthread_barrier_destroy(&start);
        CHECK_INT_EQ(ct_profiler_stop(p), 0);
        /* every run's events, from three threads */
        CHECK_INT_EQ(ct_profiler_num_events(p), 11 * per_run);
        char *t = ct_profiler_table(p, NULL, -1, false);
        CHECK_MSG(count_in_table(t, "aten::relu") == 11 * relu1 && count_in_table(t, "aten::mul") == 11 * mul1,
                  "the table adds up the threads' calls:\n%s", t ? t : "");
        ct_free(t);
        /* the Chrome trace: each event on its thread's tid, a thread_name per thread */
        char *trace = ct_profiler_chrome_trace(p, "threads.json");
        cJSON *root = trace ? cJSON_Parse(trace) : NULL;
        long long tids[8];
        int ntid = 0, names = 0, relu = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "traceEvents")) {
            const cJSON *name = cJSON_GetObjectItem(e, "name"), *ph = cJSON_GetObjectItem(e, "ph");
            if (!cJSON_IsString(name) || !cJSON_IsString(ph)) continue;
            if (strcmp(ph->valuestring, "M") == 0 && strcmp(name->valuestring, "thread_name") == 0) names++;
            if (strcmp(ph->valuestring, "X") != 0 || strcmp(name->valuestring, "aten::relu") != 0) continue;
            relu++;
            long long tid = (long long)cJSON_GetObjectItem(e, "tid")->valuedouble;
            bool known = false;
            for (int k = 0; k < ntid; k++) known |= tids[k] == tid;
            if (!known && ntid < 8) tids[ntid++] = tid;
        }
        CHECK_INT_EQ(relu, 11 * relu1);
        CHECK_INT_EQ(ntid, 3);
        CHECK_INT_EQ(names, 3);
        cJSON_Delete(root);
        ct_free(trace);
        ct_profiler_free(p);
    }
    /* the next all_threads profiler may start once the last has stopped; ops after its stop
     * are not recorded */
    ct_profiler *p = ct_profiler_start_config(&cfg);
    CHECK(p != NULL);
    ct_profiler_stop(p);
    work_out o = {0};
    run_work(&o);
    ct_free(o.log);
    CHECK_INT_EQ(ct_profiler_num_events(p), 0);
    ct_profiler_free(p);
}

/* ---- two threads each training the seed step ---- */

typedef struct step_arg {
    ct_module *model;
    uint64_t seed;
    double params[32 * 16 + 32 + 4 * 32 + 4];
    char *log;
    int rc;
} step_arg;

static void *step_thread(void *p) {
    step_arg *a = p;
    ct_tensor *x = NULL, *y = NULL, *params[4], *logits = NULL, *loss = NULL;
    ct_optimizer *opt = NULL;
    ct_op_logger *l = ct_op_logger_new();
    a->rc = -1;
    if (!l || ct_example_make_batch(a->seed + 1, &x, &y) != 0) goto done;
    ct_module_parameters(a->model, params, 4);
    opt = ct_sgd_new(params, 4, ct_sgd_defaults(0.1));
    if (!opt || ct_op_logger_push(l) != 0) goto done;
    logits = ct_module_forward(a->model, x);
    loss = logits ? ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0) : NULL;
    int ok = loss && ct_backward(loss, NULL, false) == 0 && ct_optimizer_step(opt) == 0;
    ct_op_logger_pop(l);
    a->log = ct_op_logger_format(l);
    size_t at = 0;
    for (int i = 0; ok && i < 4; i++) {
        int64_t n = ct_tensor_numel(params[i]);
        ok = ct_tensor_to_doubles(params[i], a->params + at, n) == 0;
        at += (size_t)n;
    }
    a->rc = ok ? 0 : -1;
done:
    ct_tensor_release(loss);
    ct_tensor_release(logits);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_optimizer_free(opt);
    ct_op_logger_free(l);
    return NULL;
}

static void test_two_threads_train(void) {
    /* the models are made here, one after another: make_model seeds the process-wide generator */
    step_arg ref = {.model = ct_example_make_model(0), .seed = 0};
    step_arg st[2] = {{.model = ct_example_make_model(0), .seed = 0}, {.model = ct_example_make_model(0), .seed = 0}};
    step_thread(&ref);
    CHECK_INT_EQ(ref.rc, 0);
    CHECK(ref.log && strstr(ref.log, "aten.addmm.default") && strstr(ref.log, "aten.add_.Tensor"));
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, step_thread, &st[i]);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        CHECK_INT_EQ(st[i].rc, 0);
        CHECK_MSG(memcmp(st[i].params, ref.params, sizeof ref.params) == 0, "thread %d: parameters differ", i);
        CHECK_MSG(st[i].log && ref.log && strcmp(st[i].log, ref.log) == 0, "thread %d: op log differs", i);
        ct_free(st[i].log);
        ct_module_free(st[i].model);
    }
    ct_free(ref.log);
    ct_module_free(ref.model);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    test_concurrent_dispatch();
    test_function_mode_sees_later_ops();
    test_define_while_looking_up();
    test_profiler_while_others_run();
    test_profiler_all_threads();
    test_two_threads_train();
    return ct_test_finish("test_threads");
}
