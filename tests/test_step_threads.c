/* Two threads each running the seed step on generators of their own produce byte for byte the
 * JSON one thread produces (ctorch step --own-generator), while each also records a profiler
 * around its step, so that the profiler's start-up on one thread meets the other's calls.
 * The one-thread result is also the default-generator one (the same numbers either way), the
 * process-wide default generator is left as it was, and a third thread reseeding and drawing
 * from the default generator all the while changes nothing. Prints the number of thread runs. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "step_tracer.h"

#define ROUNDS 4
#define THREADS 2

typedef struct job {
    uint64_t seed;
    char *json;
    size_t events;
    char err[256];
} job;

static atomic_int stop_disturbing;

/* another user of the process-wide default generator, reseeding and drawing from it */
static void *disturb(void *arg) {
    (void)arg;
    int64_t n = 64;
    while (!atomic_load(&stop_disturbing)) {
        ct_manual_seed(999);
        ct_tensor_release(ct_randn(&n, 1, CT_DTYPE_UNDEFINED));
    }
    return NULL;
}

static double first_default_draw(void) {
    int64_t one = 1;
    double v = 0;
    ct_tensor *t = ct_randn(&one, 1, CT_DTYPE_UNDEFINED);
    if (t) ct_tensor_item(t, &v);
    ct_tensor_release(t);
    return v;
}

static void *run_job(void *arg) {
    job *j = arg;
    ct_profiler *p = ct_profiler_start(false);
    j->json = ct_example_step_json_on(j->seed, true);
    if (!j->json) snprintf(j->err, sizeof j->err, "%s", ct_error_message());
    if (p) {
        ct_profiler_stop(p);
        j->events = ct_profiler_num_events(p);
        ct_profiler_free(p);
    } else {
        snprintf(j->err, sizeof j->err, "profiler: %s", ct_error_message());
    }
    return NULL;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    const uint64_t seed = 0;
    char *reference = ct_example_step_json(seed); /* torch.manual_seed on the default generator */
    CHECK_MSG(reference != NULL, "step failed: %s", ct_error_message());
    /* the default generator is not touched: after manual_seed(12345) and the step, the next
     * draw is the one manual_seed(12345) gives */
    ct_manual_seed(12345);
    double want = first_default_draw();
    ct_manual_seed(12345);
    job one = {seed, NULL, 0, ""};
    run_job(&one);
    double got = first_default_draw();
    CHECK_MSG(got == want, "the step on its own generator moved the default generator (%.9g, not %.9g)", got, want);
    CHECK_MSG(one.json && reference && strcmp(one.json, reference) == 0,
              "the step on its own generator differs from the default-generator step");
    pthread_t disturber;
    int disturbing = pthread_create(&disturber, NULL, disturb, NULL) == 0;
    CHECK(disturbing);
    int runs = 0;
    for (int round = 0; round < ROUNDS; round++) {
        job jobs[THREADS];
        pthread_t th[THREADS];
        int started[THREADS];
        for (int i = 0; i < THREADS; i++) {
            jobs[i] = (job){seed, NULL, 0, ""};
            started[i] = pthread_create(&th[i], NULL, run_job, &jobs[i]) == 0;
            CHECK(started[i]);
        }
        for (int i = 0; i < THREADS; i++) {
            if (!started[i]) continue;
            pthread_join(th[i], NULL);
            runs++;
            CHECK_MSG(jobs[i].json != NULL, "round %d thread %d: %s", round, i, jobs[i].err);
            CHECK_MSG(jobs[i].json && one.json && strcmp(jobs[i].json, one.json) == 0,
                      "round %d thread %d: the JSON differs from one thread's", round, i);
            /* each profiler saw only its own thread's step */
            CHECK_MSG(jobs[i].events == one.events, "round %d thread %d: %zu profiler events, one thread %zu", round, i,
                      jobs[i].events, one.events);
            ct_free(jobs[i].json);
        }
    }
    atomic_store(&stop_disturbing, 1);
    if (disturbing) pthread_join(disturber, NULL);
    CHECK(one.events > 0);
    printf("step threads: %d thread runs (%d rounds of %d threads), each JSON identical to one thread's (%zu bytes)\n",
           runs, ROUNDS, THREADS, one.json ? strlen(one.json) : 0);
    ct_free(one.json);
    ct_free(reference);
    return ct_test_finish("test_step_threads");
}
