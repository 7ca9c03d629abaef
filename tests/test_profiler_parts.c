/* The profiler's parts beyond the event tree, against PyTorch 2.6
 * (tests/golden/torch-2.6/profiler_parts.json, recorded by tests/golden/record/profiler_parts.py):
 * profile_memory's per-op bytes and its "CPU Mem" / "Self CPU Mem" columns, with_stack's
 * "Source Location" column and group_by_stack_n, export_stacks of source frames, and the
 * profiler's own cost (stats, the opt-in footer; PyTorch's table prints none). The threads
 * part is in test_threads.c (it runs under ThreadSanitizer). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/profiler.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "profiler/aggregate.h"
#include "profiler/profiler_state.h"
#include "util/json.h"

/* _build_table on hand-made rows: the memory columns and Source Location, byte for byte */
static void test_tables(const cJSON *tables) {
    const cJSON *c;
    cJSON_ArrayForEach(c, tables) {
        const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
        const cJSON *rows = cJSON_GetObjectItem(c, "rows");
        int n = cJSON_GetArraySize(rows);
        ct_prof_row *r = calloc((size_t)n, sizeof *r);
        ct_prof_rows rs = {r, (size_t)n, cJSON_IsTrue(cJSON_GetObjectItem(c, "profile_memory"))};
        for (int i = 0; i < n; i++) {
            const cJSON *row = cJSON_GetArrayItem(rows, i);
            r[i].key = cJSON_GetArrayItem(row, 0)->valuestring;
            r[i].count = (int64_t)cJSON_GetArrayItem(row, 1)->valuedouble;
            r[i].cpu_time_total_us = cJSON_GetArrayItem(row, 2)->valuedouble;
            r[i].self_cpu_time_total_us = cJSON_GetArrayItem(row, 3)->valuedouble;
            r[i].cpu_memory_usage = (int64_t)cJSON_GetArrayItem(row, 4)->valuedouble;
            r[i].self_cpu_memory_usage = (int64_t)cJSON_GetArrayItem(row, 5)->valuedouble;
            const cJSON *st = cJSON_GetArrayItem(row, 6);
            r[i].n_stack = (size_t)cJSON_GetArraySize(st);
            r[i].stack = r[i].n_stack ? calloc(r[i].n_stack, sizeof *r[i].stack) : NULL;
            for (size_t f = 0; f < r[i].n_stack; f++) r[i].stack[f] = cJSON_GetArrayItem(st, (int)f)->valuestring;
        }
        char *got = ct_prof_table(&rs, NULL, 100, NULL);
        const char *want = cJSON_GetObjectItem(c, "text")->valuestring;
        CHECK_MSG(got && strcmp(got, want) == 0, "table %s:\n got:\n%s\nwant:\n%s", name, got ? got : "(null)", want);
        ct_free(got);
        for (int i = 0; i < n; i++) free(r[i].stack);
        free(r);
    }
}

/* profile_memory on PyTorch's program: every row's bytes, in PyTorch's row order */
static void test_memory(const cJSON *mem) {
    int64_t xs[2] = {64, 32}, ws[2] = {16, 32}, bs[1] = {16};
    ct_tensor *x = ct_ones(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_ones(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_ones(bs, 1, CT_DTYPE_UNDEFINED);
    ct_profiler_config cfg = {.profile_memory = true};
    ct_profiler *p = ct_profiler_start_config(&cfg);
    CHECK(p != NULL);
    ct_tensor *y = ct_linear(x, w, b);
    ct_tensor *z = ct_relu(y);
    ct_tensor *s = ct_sum(z, CT_DTYPE_UNDEFINED);
    ct_tensor_release(y); /* del y: a free inside no op, PyTorch's "[memory]" row */
    CHECK_INT_EQ(ct_profiler_stop(p), 0);
    CHECK(ct_profiler_num_events(p) > 0); /* builds the events */
    ct_prof_rows rows;
    CHECK_INT_EQ(ct_prof_key_averages_ex(&p->evs, p->start_ns, false, 0, &rows), 0);
    const cJSON *want = cJSON_GetObjectItem(mem, "rows");
    CHECK_INT_EQ((int64_t)rows.n, cJSON_GetArraySize(want));
    for (size_t i = 0; i < rows.n && i < (size_t)cJSON_GetArraySize(want); i++) {
        const cJSON *wr = cJSON_GetArrayItem(want, (int)i);
        const char *key = cJSON_GetArrayItem(wr, 0)->valuestring;
        int64_t count = (int64_t)cJSON_GetArrayItem(wr, 1)->valuedouble, m = (int64_t)cJSON_GetArrayItem(wr, 2)->valuedouble,
                sm = (int64_t)cJSON_GetArrayItem(wr, 3)->valuedouble;
        CHECK_MSG(strcmp(rows.rows[i].key, key) == 0 && rows.rows[i].count == count && rows.rows[i].cpu_memory_usage == m &&
                      rows.rows[i].self_cpu_memory_usage == sm,
                  "row %zu: got %s x%lld %lld/%lld, want %s x%lld %lld/%lld", i, rows.rows[i].key,
                  (long long)rows.rows[i].count, (long long)rows.rows[i].cpu_memory_usage,
                  (long long)rows.rows[i].self_cpu_memory_usage, key, (long long)count, (long long)m, (long long)sm);
    }
    ct_prof_rows_free(&rows);
    char *t = ct_profiler_table(p, NULL, -1, false);
    const char *header = cJSON_GetObjectItem(mem, "header")->valuestring;
    CHECK_MSG(t && strstr(t, header), "the memory table's header:\n%s\nwant:\n%s", t ? t : "", header);
    CHECK(t && strstr(t, "       4.00 Kb       4.00 Kb             1  \n") && strstr(t, "      -4.00 Kb      -4.00 Kb             1  \n"));
    ct_free(t);
    /* the same bytes as CSV and JSON */
    char *csv = ct_profiler_table_csv(p, NULL, -1, false), *js = ct_profiler_table_json(p, NULL, -1, false);
    CHECK(csv && strstr(csv, "CPU time avg,CPU Mem,Self CPU Mem,# of Calls\n") && strstr(csv, ",4096,4096,1\n") &&
          strstr(csv, "[memory],") && strstr(csv, ",-4096,-4096,1\n"));
    CHECK(js && strstr(js, "\"cpu_memory_usage\": 4096") && strstr(js, "\"self_cpu_memory_usage\": -4096"));
    ct_free(csv);
    ct_free(js);
    /* sorted by what each op itself allocated */
    t = ct_profiler_table(p, "self_cpu_memory_usage", 2, false);
    CHECK(t && strstr(t, "aten::addmm") && strstr(t, "aten::clamp_min") && !strstr(t, "aten::linear"));
    ct_free(t);
    ct_profiler_free(p);
    /* without profile_memory: PyTorch's columns only, and nothing reported */
    p = ct_profiler_start(false);
    ct_tensor_release(ct_linear(x, w, b));
    ct_profiler_stop(p);
    t = ct_profiler_table(p, NULL, -1, false);
    CHECK(t && !strstr(t, "CPU Mem") && !strstr(t, "[memory]"));
    ct_free(t);
    ct_profiler_free(p);
    ct_tensor *ts[] = {x, w, b, z, s};
    for (int i = 0; i < 5; i++) ct_tensor_release(ts[i]);
}

static int block_line;

static void run_block(ct_tensor *x, ct_tensor *w, ct_tensor *b) {
    block_line = __LINE__ + 1;
    ct_record_function *rf = CT_RECORD_FUNCTION("block");
    ct_tensor_release(ct_linear(x, w, b));
    ct_record_function_exit(rf);
}

/* with_stack: a located range is a source frame of itself and of the ops inside it */
static void test_stacks(void) {
    int64_t xs[2] = {64, 32}, ws[2] = {16, 32}, bs[1] = {16};
    ct_tensor *x = ct_ones(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_ones(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_ones(bs, 1, CT_DTYPE_UNDEFINED);
    ct_profiler_config cfg = {.with_stack = true};
    ct_profiler *p = ct_profiler_start_config(&cfg);
    ct_record_function *outer = ct_record_function_enter_at("outer", "main.c", 7, "main");
    run_block(x, w, b);
    ct_record_function_exit(outer);
    ct_tensor_release(ct_relu(x)); /* outside every located range: no frames */
    ct_profiler_stop(p);
    char frame[256];
    snprintf(frame, sizeof frame, "%s(%d): run_block", __FILE__, block_line);
    /* the events' stacks, innermost first */
    CHECK(ct_profiler_num_events(p) > 0);
    bool linear_ok = false, relu_ok = false;
    for (size_t i = 0; i < p->evs.n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        if (strcmp(e->name, "aten::linear") == 0)
            linear_ok = e->n_stack == 2 && strcmp(e->stack[0], frame) == 0 && strcmp(e->stack[1], "main.c(7): main") == 0;
        if (strcmp(e->name, "aten::relu") == 0) relu_ok = e->n_stack == 0;
    }
    CHECK_MSG(linear_ok, "aten::linear's stack is [%s, main.c(7): main]", frame);
    CHECK(relu_ok);
    /* group_by_stack_n=2: Source Location shows both frames under the row */
    char *t = ct_profiler_table_ex(p, NULL, -1, false, 2);
    CHECK(t && strstr(t, "# of Calls  Source Location"));
    CHECK(t && strstr(t, frame) && strstr(t, "main.c(7): main"));
    ct_free(t);
    /* without group_by_stack_n the rows have no stacks: PyTorch's plain table */
    t = ct_profiler_table(p, NULL, -1, false);
    CHECK(t && !strstr(t, "Source Location"));
    ct_free(t);
    /* export_stacks: the frames, outermost first, ' ' made '_' (flamegraph.pl's format) */
    char *st = ct_profiler_stacks(p, "cpu_time_total");
    char want[300];
    snprintf(want, sizeof want, "main.c(7):_main;%s(%d):_run_block ", __FILE__, block_line);
    CHECK_MSG(st && strstr(st, want), "export_stacks has \"%s\":\n%s", want, st ? st : "(null)");
    CHECK(st && !strstr(st, "aten::relu")); /* events without frames are left out, as PyTorch does */
    ct_free(st);
    ct_profiler_free(p);
    /* without with_stack a located range records no frame */
    p = ct_profiler_start(false);
    run_block(x, w, b);
    ct_profiler_stop(p);
    CHECK(ct_profiler_num_events(p) > 0);
    bool none = true;
    for (size_t i = 0; i < p->evs.n; i++) none &= p->evs.ev[i].n_stack == 0;
    CHECK(none);
    st = ct_profiler_stacks(p, NULL); /* the ranges as frames */
    CHECK(st && strstr(st, "block;aten::linear"));
    ct_free(st);
    ct_profiler_free(p);
    ct_tensor *ts[] = {x, w, b};
    for (int i = 0; i < 3; i++) ct_tensor_release(ts[i]);
}

/* the profiler's own cost: _ProfilerStats-like numbers, and the footer only when asked. 60
 * ranges: the profiler times the hooks of its first 64 ranges exactly (then every 64th, and
 * scales), so the overhead is a sum of measured intervals inside the window, and smaller than
 * it however the machine is loaded; a scaled estimate past 64 ranges need not be. */
static void test_overhead(void) {
    int64_t one = 1;
    ct_tensor *a = ct_ones(&one, 1, CT_DTYPE_UNDEFINED);
    ct_profiler *p = ct_profiler_start(false);
    ct_profiler_stats st;
    CHECK_INT_EQ(ct_profiler_get_stats(p, &st), 0);
    CHECK(st.profiler_enable_call_duration_ns > 0 && st.profiler_disable_call_duration_ns == 0);
    for (int i = 0; i < 60; i++) ct_tensor_release(ct_add(a, a, ct_int(1)));
    ct_profiler_stop(p);
    CHECK_INT_EQ(ct_profiler_get_stats(p, &st), 0);
    CHECK_INT_EQ(st.number_of_events, 60);
    CHECK_INT_EQ(st.number_of_threads, 1);
    CHECK(st.profiler_disable_call_duration_ns > 0 && st.profiling_window_duration_ns > 0);
    CHECK(st.overhead_ns > 0 && st.overhead_ns == ct_profiler_overhead_ns(p));
    CHECK(st.overhead_ns < st.profiling_window_duration_ns);
    char *t = ct_profiler_table(p, NULL, -1, false);
    CHECK(t && strstr(t, "Self CPU time total: ") && !strstr(t, "overhead"));
    size_t plain = t ? strlen(t) : 0;
    ct_free(t);
    ct_profiler_set_overhead_footer(p, true);
    t = ct_profiler_table(p, NULL, -1, false);
    char want[128];
    snprintf(want, sizeof want, "us over 60 ranges, %.0fns each", (double)st.overhead_ns / 60.0);
    CHECK_MSG(t && strstr(t, want), "footer has \"%s\":\n%s", want, t ? t + plain : "");
    CHECK(t && strstr(t, "\nProfiler start: ") && strstr(t, ", stop: "));
    ct_free(t);
    CHECK_INT_EQ(ct_profiler_get_stats(NULL, &st), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_profiler_get_stats: profiler is NULL");
    ct_profiler_free(p);
    ct_tensor_release(a);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/profiler_parts.json"));
    CHECK_MSG(root != NULL, "cannot read profiler_parts.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_profiler_parts");
    test_tables(cJSON_GetObjectItem(root, "tables"));
    test_memory(cJSON_GetObjectItem(root, "memory"));
    test_stacks();
    test_overhead();
    cJSON_Delete(root);
    return ct_test_finish("test_profiler_parts");
}
