/* The profiler against PyTorch 2.6's recorded event trees
 * (../shared/reference/torch-2.6/profiler_trees.out): names, nesting and input shapes for the
 * lab's linear forward + backward and for the seed training step; then the Chrome trace is valid
 * JSON of the documented shape with nesting durations; tables, CSV/JSON and overhead. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "profiler/profiler_state.h"
#include "util/json.h"

/* The lines of `text` between the line "== <title>" and the next "== " or the table's first
 * line of dashes. Returns a malloc'd string. */
static char *golden_tree(const char *text, const char *title) {
    char head[256];
    snprintf(head, sizeof head, "== %s\n", title);
    const char *p = strstr(text, head);
    if (!p) return NULL;
    p += strlen(head);
    const char *end = strstr(p, "\n---");
    const char *next = strstr(p, "\n== ");
    if (!end || (next && next < end)) end = next;
    size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
    char *r = malloc(n + 1);
    memcpy(r, p, n);
    r[n] = '\0';
    return r;
}

static void compare_trees(const char *what, const char *got, const char *want) {
    CHECK_MSG(got && want, "%s: missing tree", what);
    if (!got || !want) return;
    if (strcmp(got, want) == 0) {
        CHECK(true);
        return;
    }
    /* report the first differing line */
    const char *a = got, *b = want;
    int line = 1;
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || strncmp(a, b, la) != 0) {
            CHECK_MSG(false, "%s: tree differs at line %d:\n   got: %.*s\n  want: %.*s", what, line, (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] ? 1 : 0);
        b += lb + (b[lb] ? 1 : 0);
        line++;
    }
    CHECK_MSG(false, "%s: trees differ in length (line %d)", what, line);
}

/* "# of Calls" of each row of the first table after `title` in the reference, against ours */
static void compare_counts(const char *trees, const char *title, ct_profiler *p, bool by_shape) {
    const char *t = strstr(trees, title);
    if (t) t = strstr(t, "# of Calls");
    CHECK_MSG(t != NULL, "no reference table after %s", title);
    if (!t) return;
    char *json = ct_profiler_table_json(p, NULL, 1000, by_shape);
    cJSON *rows = json ? ct_json_parse(json, strlen(json)) : NULL;
    CHECK(rows != NULL);
    t = strchr(t, '\n') + 1;
    t = strchr(t, '\n') + 1; /* skip the dashes */
    int compared = 0;
    while (*t && strncmp(t, "---", 3) != 0) {
        char line[512];
        size_t n = strcspn(t, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, t);
        t += n + 1;
        /* name: right-aligned in 55 characters + 2 spaces; then 12-wide columns + 2 spaces */
        char name[64];
        snprintf(name, sizeof name, "%.55s", line);
        char *nm = name;
        while (*nm == ' ') nm++;
        long count = strtol(line + 57 + 5 * 14, NULL, 10);
        if (strstr(nm, "...")) continue; /* truncated names */
        const char *shapes = by_shape ? line + 57 + 6 * 14 : NULL;
        while (shapes && *shapes == ' ') shapes++;
        long ours = -1;
        cJSON *r;
        cJSON_ArrayForEach(r, rows) {
            if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name")), nm) != 0) continue;
            if (shapes) {
                const char *s2 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "input_shapes"));
                char trimmed[512];
                snprintf(trimmed, sizeof trimmed, "%s", shapes);
                for (size_t k = strlen(trimmed); k > 0 && trimmed[k - 1] == ' '; k--) trimmed[k - 1] = '\0';
                if (!s2 || strcmp(s2, trimmed) != 0) continue;
            }
            ours = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "count"));
        }
        CHECK_MSG(ours == count, "%s: row %s: %ld calls, PyTorch %ld", title, nm, ours, count);
        compared++;
    }
    CHECK(compared >= 8);
    cJSON_Delete(rows);
    ct_free(json);
}

static ct_profiler *lab_profile(void) {
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(x, true);
    ct_tensor_set_requires_grad(w, true);
    ct_tensor_set_requires_grad(b, true);
    ct_profiler *p = ct_profiler_start(true);
    ct_tensor *y = ct_linear(x, w, b);
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(s, NULL, false), 0);
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    ct_tensor_release(s);
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_tensor_release(w);
    ct_tensor_release(b);
    return p;
}

/* The seed experiment's model (seeded with 0) and its SGD(lr=0.1). */
static ct_module *seed_model(ct_optimizer **opt) {
    ct_manual_seed(0);
    ct_module *mods[3] = {ct_nn_linear(16, 32, true), ct_nn_relu(), ct_nn_linear(32, 4, true)};
    ct_module *model = ct_nn_sequential(mods, 3);
    ct_tensor *params[4];
    ct_module_parameters(model, params, 4);
    *opt = ct_sgd_new(params, 4, ct_sgd_defaults(0.1));
    return model;
}

static ct_profiler *seed_step_profile(void) {
    ct_optimizer *opt;
    ct_module *model = seed_model(&opt);
    ct_generator *g = ct_generator_new();
    ct_generator_manual_seed(g, 1);
    int64_t xs[2] = {8, 16}, ys[1] = {8};
    ct_tensor *x = ct_randn_generator(xs, 2, g, CT_DTYPE_UNDEFINED), *y = ct_randint_generator(0, 4, ys, 1, g, CT_DTYPE_UNDEFINED);
    ct_profiler *p = ct_profiler_start(true);
    ct_tensor *logits = ct_module_forward(model, x);
    ct_tensor *loss = ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0);
    CHECK_INT_EQ(ct_backward(loss, NULL, false), 0);
    CHECK_INT_EQ(ct_optimizer_step(opt), 0);
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    ct_tensor_release(logits);
    ct_tensor_release(loss);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_generator_release(g);
    ct_optimizer_free(opt);
    ct_module_free(model);
    return p;
}

/* The seed step run `steps` times (zero_grad first) under a profiler started with `cfg`. */
static ct_profiler *seed_steps_profile(const ct_profiler_config *cfg, int steps) {
    ct_optimizer *opt;
    ct_module *model = seed_model(&opt);
    int64_t xs[2] = {8, 16}, ys[1] = {8};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *y = ct_randint(0, 4, ys, 1, CT_DTYPE_UNDEFINED);
    ct_profiler *p = ct_profiler_start_config(cfg);
    for (int i = 0; i < steps; i++) {
        CHECK_INT_EQ(ct_optimizer_zero_grad(opt, true), 0);
        ct_tensor *logits = ct_module_forward(model, x);
        ct_tensor *loss = ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0);
        CHECK_INT_EQ(ct_backward(loss, NULL, false), 0);
        CHECK_INT_EQ(ct_optimizer_step(opt), 0);
        ct_tensor_release(logits);
        ct_tensor_release(loss);
    }
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    ct_tensor_release(x);
    ct_tensor_release(y);
    ct_optimizer_free(opt);
    ct_module_free(model);
    return p;
}

/* Note [Profiler fast path] in src/profiler/record.c: most ranges of a long run are written
 * inline (not in the timed sample, no record_shapes); with record_shapes every range takes the
 * general path. Both runs must record the same events: names, scopes, nesting, sequence
 * numbers (relative to the run's first: the counter runs on between the runs), threads. */
static void test_fast_path(void) {
    ct_profiler_config plain = {0}, shapes = {.record_shapes = true};
    ct_profiler *a = seed_steps_profile(&plain, 5), *b = seed_steps_profile(&shapes, 5);
    size_t n = ct_profiler_num_events(a);
    CHECK_INT_EQ(ct_profiler_raw_event_count(a), ct_profiler_raw_event_count(b));
    CHECK_INT_EQ((long long)n, (long long)ct_profiler_num_events(b));
    CHECK_MSG(ct_profiler_raw_event_count(a) > 4 * 64, "enough ranges for the inline path: %lld",
              (long long)ct_profiler_raw_event_count(a));
    int64_t seq_a = -1, seq_b = -1;
    size_t bad = n + 1;
    for (size_t i = 0; i < n && i < b->evs.n && bad > n; i++) {
        const ct_prof_event *x = &a->evs.ev[i], *y = &b->evs.ev[i];
        if (seq_a < 0 && x->sequence_nr >= 0) seq_a = x->sequence_nr;
        if (seq_b < 0 && y->sequence_nr >= 0) seq_b = y->sequence_nr;
        bool same = strcmp(x->name, y->name) == 0 && x->parent == y->parent && x->scope == y->scope &&
                    x->removed == y->removed &&
                    x->fwd_thread_id == y->fwd_thread_id && x->thread_id == y->thread_id &&
                    (x->sequence_nr < 0) == (y->sequence_nr < 0) &&
                    (x->sequence_nr < 0 || x->sequence_nr - seq_a == y->sequence_nr - seq_b) &&
                    x->start_ns <= x->end_ns && !x->has_inputs && y->has_inputs == (y->raw_inputs != NULL);
        if (x->parent >= 0) {
            const ct_prof_event *up = &a->evs.ev[x->parent];
            same &= up->start_ns <= x->start_ns && x->end_ns <= up->end_ns;
        }
        if (!same) bad = i;
    }
    CHECK_MSG(bad > n, "event %zu differs: %s (parent %lld) vs %s (parent %lld)", bad,
              bad < n ? a->evs.ev[bad].name : "", bad < n ? (long long)a->evs.ev[bad].parent : 0LL,
              bad < n ? b->evs.ev[bad].name : "", bad < n ? (long long)b->evs.ev[bad].parent : 0LL);
    ct_profiler_free(a);
    ct_profiler_free(b);
}

/* every X event lies inside the X event that encloses it (durations nest) */
static void check_chrome_trace(const char *text) {
    cJSON *root = ct_json_parse(text, strlen(text));
    CHECK_MSG(root != NULL, "chrome trace is not valid JSON: %s", ct_error_message());
    if (!root) return;
    CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "schemaVersion")));
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "traceName")));
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "displayTimeUnit")));
    cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    CHECK(cJSON_IsArray(evs));
    int n = cJSON_GetArraySize(evs), cpu = 0, flows_s = 0, flows_f = 0, with_dims = 0, with_seq = 0;
    double ts[4096], end[4096];
    int m = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, evs) {
        const char *ph = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "ph"));
        CHECK(ph != NULL);
        if (!ph) continue;
        if (strcmp(ph, "X") == 0) {
            const char *cat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "cat"));
            CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")));
            CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(e, "ts")));
            CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "dur")) >= 0);
            if (cat && (strcmp(cat, "cpu_op") == 0 || strcmp(cat, "user_annotation") == 0)) {
                cpu++;
                cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");
                CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(a, "External id")));
                CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(a, "Ev Idx")));
                cJSON *dims = cJSON_GetObjectItemCaseSensitive(a, "Input Dims");
                if (dims) {
                    with_dims++;
                    int k = cJSON_GetArraySize(dims);
                    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "Input type")) == k);
                    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "Input Strides")) == k);
                    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "Concrete Inputs")) == k);
                }
                if (cJSON_GetObjectItemCaseSensitive(a, "Sequence number")) {
                    with_seq++;
                    CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(a, "Fwd thread id")));
                }
                if (m < 4096) {
                    ts[m] = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "ts"));
                    end[m] = ts[m] + cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "dur"));
                    m++;
                }
            }
        } else if (strcmp(ph, "s") == 0) {
            flows_s++;
        } else if (strcmp(ph, "f") == 0) {
            flows_f++;
            CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "bp")), "e");
        }
    }
    /* nesting: in start order, a stack of open ranges; each new range must end before its parent */
    int stack[4096], depth = 0, bad = 0;
    for (int i = 0; i < m; i++) {
        while (depth > 0 && ts[i] >= end[stack[depth - 1]]) depth--;
        if (depth > 0 && end[i] > end[stack[depth - 1]] + 1e-6) bad++;
        stack[depth++] = i;
    }
    CHECK_MSG(bad == 0, "%d events end after the event that encloses them", bad);
    CHECK(n > cpu && cpu > 50);
    CHECK(with_dims > 30 && with_seq >= 5);
    CHECK(flows_s == flows_f && flows_s >= 3);
    cJSON_Delete(root);
}

/* bounded recording: a limit, drops counted, nesting kept consistent; times converted from
 * the counter fall inside the profile */
static void test_limits(void) {
    int64_t one = 1, xs[2] = {2, 3}, ws[2] = {4, 3}, bs[1] = {4};
    ct_tensor *a = ct_ones(&one, 1, CT_DTYPE_UNDEFINED), *x = ct_ones(xs, 2, CT_DTYPE_UNDEFINED),
              *w = ct_ones(ws, 2, CT_DTYPE_UNDEFINED), *b = ct_ones(bs, 1, CT_DTYPE_UNDEFINED);
    ct_profiler *p = ct_profiler_start(false);
    CHECK(p && p->max_events == CT_PROFILER_DEFAULT_MAX_EVENTS);
    CHECK_INT_EQ(ct_profiler_set_max_events(p, 10), 0);
    for (int i = 0; i < 25; i++) ct_tensor_release(ct_add(a, a, ct_int(1)));
    CHECK_INT_EQ(ct_profiler_raw_event_count(p), 10);
    CHECK_INT_EQ(ct_profiler_dropped_events(p), 15);
    /* a limit reached inside a composite op: the recorded ranges still nest */
    CHECK_INT_EQ(ct_profiler_set_max_events(p, 12), 0);
    ct_tensor_release(ct_linear(x, w, b));
    CHECK_INT_EQ(ct_profiler_raw_event_count(p), 12);
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    char *tree = ct_profiler_tree(p);
    CHECK_STR_EQ(tree, "aten::add\naten::add\naten::add\naten::add\naten::add\naten::add\naten::add\naten::add\n"
                       "aten::add\naten::add\naten::linear\n  aten::t\n");
    ct_free(tree);
    bool inside = p->evs.n == 12;
    for (size_t i = 0; i < p->evs.n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        inside &= e->start_ns >= p->start_ns && e->end_ns <= p->stop_ns && e->start_ns <= e->end_ns;
        if (e->parent >= 0) inside &= p->evs.ev[e->parent].start_ns <= e->start_ns && e->end_ns <= p->evs.ev[e->parent].end_ns;
    }
    CHECK_MSG(inside, "event times fall inside the profile and inside their parents");
    ct_profiler_free(p);
    CHECK_INT_EQ(ct_profiler_set_max_events(NULL, 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_profiler_set_max_events: profiler is NULL");
    p = ct_profiler_start(false);
    CHECK_INT_EQ(ct_profiler_set_max_events(p, CT_PROFILER_MAX_EVENTS_LIMIT + 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_profiler_set_max_events: at most 2147483648 events (got 2147483649)");
    ct_profiler_stop(p);
    ct_profiler_free(p);
    ct_tensor *ts[] = {a, x, w, b};
    for (int i = 0; i < 4; i++) ct_tensor_release(ts[i]);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    test_limits();
    test_fast_path();
    char *trees = ct_test_read_file(ct_test_shared("reference/torch-2.6/profiler_trees.out"), NULL);
    CHECK(trees != NULL);
    int64_t live0 = ct_testing_live_tensors();

    ct_profiler *p = lab_profile();
    char *got = ct_profiler_tree(p);
    char *want = trees ? golden_tree(trees, "lab00: linear(x, W, b) then y.sum().backward()") : NULL;
    compare_trees("lab00", got, want);
    if (trees) compare_counts(trees, "== lab00", p, false);
    ct_free(got);
    free(want);
    /* the table: PyTorch's layout; the rows the lab points at */
    char *table = ct_profiler_table(p, "cpu_time_total", 10, false);
    CHECK(table && strstr(table, "                                                   Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls  \n"));
    CHECK(table && strstr(table, "aten::linear") && strstr(table, "AddmmBackward0") && strstr(table, "Self CPU time total: "));
    ct_free(table);
    table = ct_profiler_table(p, "cpu_time_total", 100, true);
    CHECK(table && strstr(table, "[[2, 64], [600, 64], [600]]") && strstr(table, "[[600], [2, 64], [64, 600], [], []]"));
    ct_free(table);
    char *csv = ct_profiler_table_csv(p, "cpu_time_total", 5, false), *json = ct_profiler_table_json(p, NULL, 100, true);
    CHECK(csv && strncmp(csv, "Name,", 5) == 0);
    cJSON *rows = json ? ct_json_parse(json, strlen(json)) : NULL;
    CHECK(rows && cJSON_IsArray(rows) && cJSON_GetArraySize(rows) > 10);
    cJSON_Delete(rows);
    ct_free(csv);
    ct_free(json);
    char *trace = ct_profiler_chrome_trace(p, "lab.json");
    CHECK(trace != NULL);
    if (trace) check_chrome_trace(trace);
    ct_free(trace);
    /* what profiling cost */
    CHECK(ct_profiler_raw_event_count(p) > 60);
    CHECK(ct_profiler_overhead_ns(p) > 0);
    printf("profiler overhead: %.0f ns per event over %lld events\n",
           (double)ct_profiler_overhead_ns(p) / (double)ct_profiler_raw_event_count(p), (long long)ct_profiler_raw_event_count(p));
    /* the overhead footer: off by default (PyTorch's table), on: one more line under the total */
    char *plain = ct_profiler_table(p, "cpu_time_total", 10, false);
    CHECK_INT_EQ(ct_profiler_set_overhead_footer(p, true), 0);
    char *footed = ct_profiler_table(p, "cpu_time_total", 10, false);
    CHECK(plain && !strstr(plain, "Profiler overhead"));
    CHECK(plain && footed && strncmp(plain, footed, strlen(plain)) == 0);
    char want_footer[160];
    snprintf(want_footer, sizeof want_footer, "Profiler overhead (estimated): %.3fus over %lld ranges, ",
             (double)ct_profiler_overhead_ns(p) / 1000.0, (long long)ct_profiler_raw_event_count(p));
    CHECK_MSG(footed && strstr(footed + (plain ? strlen(plain) : 0), want_footer), "footer: %s",
              footed && plain ? footed + strlen(plain) : "(none)");
    ct_free(plain);
    ct_free(footed);
    CHECK_INT_EQ(ct_profiler_set_overhead_footer(p, false), 0);
    CHECK_INT_EQ(ct_profiler_set_overhead_footer(NULL, true), -1);
    /* export_stacks: every line a stack of the ranges around an op and its self time in us */
    char *stacks = ct_profiler_stacks(p, NULL);
    CHECK(stacks && *stacks);
    int lines = 0, bad = 0;
    bool addmm_in_linear = false, mm_in_backward = false;
    for (const char *l = stacks; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *e = strchr(l, '\n');
        const char *sp = memchr(l, ' ', (size_t)(e - l));
        long v = sp ? strtol(sp + 1, NULL, 10) : 0;
        bad += !sp || v < 1 || memchr(sp + 1, ' ', (size_t)(e - sp - 1)) != NULL;
        addmm_in_linear |= strncmp(l, "aten::linear;aten::addmm ", 25) == 0;
        mm_in_backward |= strncmp(l, "autograd::engine::evaluate_function:_AddmmBackward0;AddmmBackward0;aten::mm ", 76) == 0;
        lines++;
    }
    CHECK(lines > 3 && bad == 0);
    CHECK_MSG(addmm_in_linear && mm_in_backward, "stacks:\n%s", stacks ? stacks : "");
    ct_free(stacks);
    char *total = ct_profiler_stacks(p, "cpu_time_total");
    CHECK(total && (strncmp(total, "aten::linear ", 13) == 0 || strstr(total, "\naten::linear ") != NULL));
    ct_free(total);
    /* PyTorch's device metrics: no range of a CPU run has device time, so nothing is written */
    char *cuda = ct_profiler_stacks(p, "self_cuda_time_total");
    CHECK(cuda && cuda[0] == '\0');
    ct_free(cuda);
    CHECK(ct_profiler_stacks(p, "self_time") == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_VALUE); /* PyTorch's message: tests/test_mistakes.c */
    ct_error_clear();
    CHECK(ct_profiler_export_stacks(p, "/nonexistent-dir/stacks.txt", NULL) == -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_IO);
    CHECK(ct_profiler_export_chrome_trace(p, "/nonexistent-dir/trace.json") == -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_IO);
    ct_error_clear();
    ct_profiler_free(p);

    p = seed_step_profile();
    got = ct_profiler_tree(p);
    want = trees ? golden_tree(trees, "seed step: forward, backward, SGD step") : NULL;
    compare_trees("seed step", got, want);
    if (trees) compare_counts(trees, "== seed step", p, true);
    ct_free(got);
    free(want);
    trace = ct_profiler_chrome_trace(p, "seed_step.json");
    if (trace) check_chrome_trace(trace);
    ct_free(trace);
    ct_profiler_free(p);

    /* a record_function range under a dispatch mode: the profiler ops PyTorch 2.x dispatches */
    ct_op_logger *log = ct_op_logger_new();
    ct_op_logger_push(log);
    ct_record_function *rf = ct_record_function_enter("my range");
    CHECK_INT_EQ(ct_record_function_exit(rf), 0);
    ct_op_logger_pop(log);
    CHECK_INT_EQ(ct_op_logger_count(log), 2);
    CHECK_STR_EQ(ct_op_logger_get(log, 0), "profiler._record_function_enter_new.default");
    CHECK_STR_EQ(ct_op_logger_get(log, 1), "profiler._record_function_exit._RecordFunction");
    ct_op_logger_free(log);

    /* misuse */
    p = ct_profiler_start(false);
    CHECK(ct_profiler_start(false) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Profiler is already enabled on this thread");
    /* results read while recording: none yet, as in PyTorch 2.6 (tests/test_misuse.c checks
     * the recorded messages) */
    char *running = ct_profiler_table(p, NULL, 10, false);
    CHECK_STR_EQ(running, "");
    ct_free(running);
    CHECK(ct_profiler_chrome_trace(p, "t") == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "'NoneType' object has no attribute 'save'");
    ct_profiler_stop(p);
    char *empty = ct_profiler_table(p, "no_such_key", 10, false);
    CHECK(empty == NULL || (ct_profiler_num_events(p) == 0 && *empty == '\0'));
    ct_free(empty);
    ct_error_clear();
    ct_profiler_free(p);
    CHECK_INT_EQ(ct_profiler_stop(NULL), -1);
    ct_error_clear();

    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    free(trees);
    return ct_test_finish("test_profiler");
}
