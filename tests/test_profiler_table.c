/* The profiler's aggregation and reports against PyTorch 2.6 (tests/golden/torch-2.6/
 * profiler_table.json, recorded by tests/golden/record/profiler_table.py from fixed event lists
 * run through PyTorch's own FunctionEvent / EventList code):
 *   - ct_prof_remove_dup_nodes keeps exactly the events PyTorch keeps, with the same parents;
 *   - ct_prof_key_averages gives the same rows with bit-identical times;
 *   - ct_prof_table prints every recorded table byte for byte, or fails with PyTorch's message;
 *   - the CSV and JSON forms hold the same rows in the same order;
 * plus bad arguments and an allocation-failure sweep (no crash, no leak, untouched input). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "profiler/aggregate.h"
#include "util/json.h"

static const cJSON *get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }
static const char *get_str(const cJSON *o, const char *k) { return cJSON_GetStringValue(get(o, k)); }
static double get_num(const cJSON *o, const char *k) { return cJSON_GetNumberValue(get(o, k)); }

/* ---- events and rows from the golden file ---- */

static void free_events(ct_prof_events *evs) {
    for (size_t i = 0; i < evs->n; i++) {
        free(evs->ev[i].name);
        free(evs->ev[i].input_shapes);
    }
    free(evs->ev);
    evs->ev = NULL;
    evs->n = evs->cap = 0;
}

static bool build_events(const cJSON *cfg, ct_prof_events *evs, int64_t offset_ns) {
    const cJSON *arr = get(cfg, "events");
    size_t n = (size_t)cJSON_GetArraySize(arr);
    evs->ev = calloc(n ? n : 1, sizeof *evs->ev);
    evs->n = evs->cap = n;
    if (!evs->ev) return false;
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        ct_prof_event *ev = &evs->ev[i++];
        ev->name = strdup(get_str(e, "name"));
        ev->input_shapes = strdup(get_str(e, "input_shapes"));
        ev->start_ns = (int64_t)get_num(e, "start_ns") + offset_ns;
        ev->end_ns = (int64_t)get_num(e, "end_ns") + offset_ns;
        ev->parent = (int64_t)get_num(e, "parent");
        ev->thread_id = (uint64_t)get_num(e, "thread");
        ev->scope = (ct_prof_scope)(int)get_num(e, "scope");
        ev->sequence_nr = -1;
        if (!ev->name || !ev->input_shapes) return false;
    }
    return true;
}

static bool copy_events(const ct_prof_events *src, ct_prof_events *dst) {
    dst->ev = calloc(src->n ? src->n : 1, sizeof *dst->ev);
    dst->n = dst->cap = src->n;
    if (!dst->ev) return false;
    for (size_t i = 0; i < src->n; i++) {
        dst->ev[i] = src->ev[i];
        dst->ev[i].name = strdup(src->ev[i].name);
        dst->ev[i].input_shapes = strdup(src->ev[i].input_shapes);
        if (!dst->ev[i].name || !dst->ev[i].input_shapes) return false;
    }
    return true;
}

static void build_rows(const cJSON *arr, ct_prof_rows *rows) {
    size_t n = (size_t)cJSON_GetArraySize(arr);
    rows->rows = calloc(n ? n : 1, sizeof *rows->rows);
    rows->n = n;
    size_t i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, arr) {
        ct_prof_row *row = &rows->rows[i++];
        row->key = (char *)get_str(r, "key"); /* borrowed from the tree; freed with it */
        row->input_shapes = (char *)get_str(r, "input_shapes");
        row->count = (int64_t)get_num(r, "count");
        row->cpu_time_total_us = get_num(r, "cpu_time_total");
        row->self_cpu_time_total_us = get_num(r, "self_cpu_time_total");
    }
}

/* ---- comparisons ---- */

static void check_kept(const char *name, const ct_prof_events *evs, const cJSON *cfg) {
    const cJSON *kept = get(cfg, "kept"), *fp = get(cfg, "final_parent");
    size_t n_kept = 0;
    for (size_t i = 0; i < evs->n; i++) n_kept += !evs->ev[i].removed;
    CHECK_MSG(n_kept == (size_t)cJSON_GetArraySize(kept), "%s: %zu events kept, PyTorch keeps %d", name, n_kept,
              cJSON_GetArraySize(kept));
    for (int j = 0; j < cJSON_GetArraySize(kept); j++) {
        size_t id = (size_t)cJSON_GetNumberValue(cJSON_GetArrayItem(kept, j));
        int64_t want_parent = (int64_t)cJSON_GetNumberValue(cJSON_GetArrayItem(fp, j));
        CHECK_MSG(id < evs->n && !evs->ev[id].removed, "%s: event %zu should be kept", name, id);
        if (id < evs->n)
            CHECK_MSG(evs->ev[id].parent == want_parent, "%s: event %zu: parent %lld, PyTorch %lld", name, id,
                      (long long)evs->ev[id].parent, (long long)want_parent);
    }
}

static void check_rows(const char *name, const ct_prof_rows *got, const cJSON *want_arr) {
    CHECK_MSG(got->n == (size_t)cJSON_GetArraySize(want_arr), "%s: %zu rows, PyTorch %d", name, got->n,
              cJSON_GetArraySize(want_arr));
    size_t i = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, want_arr) {
        if (i >= got->n) break;
        const ct_prof_row *r = &got->rows[i++];
        CHECK_STR_EQ(r->key, get_str(w, "key"));
        const char *ws = get_str(w, "input_shapes");
        if (ws) CHECK_STR_EQ(r->input_shapes, ws);
        else CHECK_MSG(r->input_shapes == NULL, "%s: row %s has shapes %s", name, r->key, r->input_shapes);
        CHECK_INT_EQ(r->count, (int64_t)get_num(w, "count"));
        /* bit-identical: the golden holds repr() of PyTorch's doubles */
        CHECK_MSG(r->cpu_time_total_us == get_num(w, "cpu_time_total"), "%s: %s cpu_time_total %.17g, PyTorch %.17g",
                  name, r->key, r->cpu_time_total_us, get_num(w, "cpu_time_total"));
        CHECK_MSG(r->self_cpu_time_total_us == get_num(w, "self_cpu_time_total"),
                  "%s: %s self_cpu_time_total %.17g, PyTorch %.17g", name, r->key, r->self_cpu_time_total_us,
                  get_num(w, "self_cpu_time_total"));
    }
}

static size_t u8len(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The table's name cell for a key: cut to 52 code points + "..." from 52 on. */
static void table_name(const char *key, char *out, size_t cap) {
    if (u8len(key) < 52) {
        snprintf(out, cap, "%s", key);
        return;
    }
    size_t cps = 0, i = 0;
    for (; key[i]; i++) {
        if (((unsigned char)key[i] & 0xC0) != 0x80) {
            if (cps == 52) break;
            cps++;
        }
    }
    snprintf(out, cap, "%.*s...", (int)i, key);
}

/* The CSV and JSON forms: same rows, same order as the table's body lines. */
static void check_csv_json(const char *name, const ct_prof_rows *rows, const char *sort_by, int row_limit,
                           const char *table, bool has_header) {
    char *csv = ct_prof_rows_csv(rows, sort_by, row_limit);
    char *json = ct_prof_rows_json(rows, sort_by, row_limit);
    CHECK_MSG(csv && json, "%s: csv/json failed: %s", name, ct_error_message());
    if (!csv || !json) {
        ct_free(csv);
        ct_free(json);
        return;
    }
    cJSON *arr = ct_json_parse(json, strlen(json));
    CHECK_MSG(arr && cJSON_IsArray(arr), "%s: JSON does not parse: %s", name, json);
    size_t want_shown = row_limit < 0 || (size_t)row_limit > rows->n ? rows->n : (size_t)row_limit;
    CHECK_INT_EQ(cJSON_GetArraySize(arr), want_shown);
    /* CSV: header + one line per row */
    size_t lines = 0;
    for (const char *p = csv; *p; p++) lines += *p == '\n';
    CHECK_MSG(lines == want_shown + 1, "%s: CSV has %zu lines for %zu rows", name, lines, want_shown);
    CHECK(strncmp(csv, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls", 70) == 0);
    /* table body lines: skip the header block (2 more lines with a header argument) */
    const char *line = table;
    for (int skip = has_header ? 5 : 3; skip > 0 && line; skip--) {
        line = strchr(line, '\n');
        if (line) line++;
    }
    const char *csv_line = strchr(csv, '\n') + 1;
    int k = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, arr) {
        const char *nm = get_str(o, "name");
        char cut[512];
        table_name(nm ? nm : "", cut, sizeof cut);
        /* the table line: spaces, the name cell, two spaces */
        const char *t = line;
        while (t && *t == ' ') t++;
        if (*cut) /* (an empty name leaves only spaces) */
            CHECK_MSG(t && strncmp(t, cut, strlen(cut)) == 0 && strncmp(t + strlen(cut), "  ", 2) == 0,
                      "%s: JSON row %d (%s) is not the table's row %d", name, k, nm, k);
        /* the CSV line starts with the name (quoted when it needs it) */
        if (!strpbrk(nm, ",\"\r\n"))
            CHECK_MSG(strncmp(csv_line, nm, strlen(nm)) == 0 && csv_line[strlen(nm)] == ',',
                      "%s: CSV row %d is not %s", name, k, nm);
        /* values are the row's, at full precision */
        bool found = false;
        for (size_t i = 0; i < rows->n && !found; i++) {
            const ct_prof_row *r = &rows->rows[i];
            const char *sh = get_str(o, "input_shapes");
            if (strcmp(r->key, nm) != 0 || (r->input_shapes && (!sh || strcmp(sh, r->input_shapes) != 0))) continue;
            found = get_num(o, "cpu_time_total_us") == r->cpu_time_total_us &&
                    get_num(o, "self_cpu_time_total_us") == r->self_cpu_time_total_us &&
                    get_num(o, "count") == (double)r->count;
        }
        CHECK_MSG(found, "%s: JSON row %d (%s) matches no row", name, k, nm);
        if (line) line = strchr(line, '\n');
        if (line) line++;
        csv_line = strchr(csv_line, '\n') + 1;
        k++;
    }
    cJSON_Delete(arr);
    ct_free(csv);
    ct_free(json);
}

/* Every recorded table of one row set. */
static int check_tables(const char *name, const ct_prof_rows *rows, const cJSON *tables) {
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tables) {
        const char *sort_by = get_str(t, "sort_by");
        int row_limit = (int)get_num(t, "row_limit");
        const char *header = get_str(t, "header");
        const char *want = get_str(t, "table");
        const cJSON *err = get(t, "error");
        char *got = ct_prof_table(rows, sort_by, row_limit, header);
        if (want) {
            if (!got) fprintf(stderr, "%s: table(sort_by=%s, row_limit=%d) failed: %s\n", name,
                              sort_by ? sort_by : "None", row_limit, ct_error_message());
            CHECK_STR_EQ(got, want);
            if (got && strcmp(got, want) == 0) n++;
            if (got && rows->n > 0) check_csv_json(name, rows, sort_by, row_limit, want, header != NULL);
        } else {
            const char *type = get_str(err, "type"), *msg = get_str(err, "message");
            CHECK_MSG(got == NULL, "%s: table(sort_by=%s) should fail with %s", name, sort_by ? sort_by : "None", type);
            int kind = strcmp(type, "AttributeError") == 0 ? CT_ERR_VALUE
                       : strcmp(type, "AssertionError") == 0 ? CT_ERR_RUNTIME
                                                              : CT_ERR_KIND_COUNT;
            CHECK_ERROR(kind, msg);
            if (!got) n++;
            /* the CSV and JSON forms fail the same way */
            char *csv = ct_prof_rows_csv(rows, sort_by, row_limit);
            CHECK(csv == NULL);
            CHECK_ERROR(kind, msg);
            char *json = ct_prof_rows_json(rows, sort_by, row_limit);
            CHECK(json == NULL);
            CHECK_ERROR(kind, msg);
            ct_free(csv);
            ct_free(json);
        }
        ct_free(got);
    }
    return n;
}

/* ---- the golden configurations ---- */

static int run_config(const cJSON *cfg, int *tables_matched) {
    const char *name = get_str(cfg, "name");
    bool group = cJSON_IsTrue(get(cfg, "group_by_input_shape"));
    ct_prof_events evs = {0};
    CHECK_MSG(build_events(cfg, &evs, 0), "%s: cannot build the events", name);
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), 0);
    check_kept(name, &evs, cfg);
    /* a second run changes nothing */
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), 0);
    check_kept(name, &evs, cfg);
    ct_prof_rows rows = {0};
    CHECK_INT_EQ(ct_prof_key_averages(&evs, group, &rows), 0);
    check_rows(name, &rows, get(cfg, "rows"));
    *tables_matched += check_tables(name, &rows, get(cfg, "tables"));
    ct_prof_rows_free(&rows);
    free_events(&evs);

    /* absolute clock readings with the trace start given: the same rows, bit for bit */
    const int64_t base = 1234567890123456789LL % 4000000000000000LL; /* ~46 days of ns */
    CHECK(build_events(cfg, &evs, base));
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), 0);
    CHECK_INT_EQ(ct_prof_key_averages_since(&evs, base, group, &rows), 0);
    check_rows(name, &rows, get(cfg, "rows"));
    ct_prof_rows_free(&rows);
    free_events(&evs);
    return 0;
}

/* ---- hand-made checks ---- */

static void check_bad_input(void) {
    ct_prof_rows rows = {0};
    CHECK(ct_prof_table(NULL, NULL, 100, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_table: rows is NULL");
    CHECK(ct_prof_rows_csv(NULL, NULL, 100) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_rows_csv: rows is NULL");
    CHECK(ct_prof_rows_json(NULL, NULL, 100) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_rows_json: rows is NULL");
    CHECK_INT_EQ(ct_prof_key_averages(NULL, false, &rows), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_key_averages: the event list is NULL");
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_remove_dup_nodes: the event list is NULL");
    ct_prof_rows_free(NULL);
    ct_prof_rows_free(&rows);

    /* events: parents out of range and in a cycle */
    ct_prof_event ev[3];
    memset(ev, 0, sizeof ev);
    char a[] = "aten::a", b[] = "aten::a", c[] = "aten::c";
    ev[0] = (ct_prof_event){.name = a, .start_ns = 0, .end_ns = 10, .parent = -1};
    ev[1] = (ct_prof_event){.name = b, .start_ns = 1, .end_ns = 9, .parent = 0};
    ev[2] = (ct_prof_event){.name = c, .start_ns = 2, .end_ns = 3, .parent = 5};
    ct_prof_events evs = {ev, 3, 3};
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_remove_dup_nodes: event 2 has parent 5 (of 3 events)");
    CHECK_INT_EQ(ct_prof_key_averages(&evs, false, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_key_averages: out is NULL");
    CHECK_INT_EQ(ct_prof_key_averages(&evs, false, &rows), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_key_averages: event 2 has parent 5 (of 3 events)");
    CHECK(rows.rows == NULL && rows.n == 0);
    ev[2].parent = 2;
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_remove_dup_nodes: event 2 has parent 2 (of 3 events)");
    ev[0].parent = 1; /* 0 -> 1 -> 0 */
    ev[2].parent = 1;
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_remove_dup_nodes: the events' parents form a cycle");
    CHECK(!ev[0].removed && !ev[1].removed && !ev[2].removed && ev[2].parent == 1);
    ev[0].parent = -1;
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&evs), 0); /* aten::a -> aten::a -> aten::c */
    CHECK(!ev[0].removed && ev[1].removed && !ev[2].removed && ev[2].parent == 0);

    /* an empty list: no rows, an empty table (even with an unknown sort key), a header-only CSV */
    ct_prof_events none = {NULL, 0, 0};
    CHECK_INT_EQ(ct_prof_remove_dup_nodes(&none), 0);
    CHECK_INT_EQ(ct_prof_key_averages(&none, true, &rows), 0);
    CHECK(rows.n == 0);
    char *s = ct_prof_table(&rows, "nope", 10, "h");
    CHECK_STR_EQ(s, "");
    ct_free(s);
    s = ct_prof_rows_csv(&rows, NULL, 10);
    CHECK_STR_EQ(s, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls\n");
    ct_free(s);
    s = ct_prof_rows_json(&rows, NULL, 10);
    CHECK_STR_EQ(s, "[]");
    ct_free(s);
    CHECK(ct_prof_rows_csv(&rows, "nope", 10) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "'FunctionEventAvg' object has no attribute 'nope'");
    ct_prof_rows_free(&rows);

    /* rows: unsupported sort attributes, a row without a key */
    char k1[] = "x", k2[] = "y";
    ct_prof_row r[2] = {{k1, NULL, 1, 2.0, 2.0, 0, 0, NULL, 0}, {k2, NULL, 1, 1.0, 1.0, 0, 0, NULL, 0}};
    ct_prof_rows rs = {r, 2, false};
    CHECK(ct_prof_table(&rs, "input_shapes", 10, NULL) == NULL);
    CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "ct_prof_table: sorting by 'input_shapes' is not supported");
    CHECK(ct_prof_table(&rs, "cuda_time_str", 10, NULL) == NULL);
    CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "ct_prof_table: sorting by 'device_time_str' is not supported");
    r[1].key = NULL;
    CHECK(ct_prof_table(&rs, NULL, 10, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_prof_table: row 1 has no key");
}

/* The CSV and JSON layouts, exactly. */
static void check_formats(void) {
    char k1[] = "my \"block\", v2", k2[] = "aten::mm", s1[] = "[[2, 3], []]", s2[] = "[]";
    ct_prof_row r[2] = {{k1, s1, 2, 1500.25, 0.1, 0, 0, NULL, 0}, {k2, s2, 3, 0.3, 0.3, 0, 0, NULL, 0}};
    ct_prof_rows rs = {r, 2, false};
    char *csv = ct_prof_rows_csv(&rs, "cpu_time_total", -1);
    CHECK_STR_EQ(csv, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls,Input Shapes\n"
                      "\"my \"\"block\"\", v2\",25.0,0.1,375062.5,1500.25,750.125,2,\"[[2, 3], []]\"\n"
                      "aten::mm,75.0,0.3,75.0,0.3,0.09999999999999999,3,[]\n");
    ct_free(csv);
    char *json = ct_prof_rows_json(&rs, "count", 1);
    CHECK_STR_EQ(json, "[\n  {\n    \"name\": \"aten::mm\",\n    \"input_shapes\": \"[]\",\n    \"count\": 3,\n"
                       "    \"self_cpu_time_total_us\": 0.3,\n    \"cpu_time_total_us\": 0.3,\n"
                       "    \"cpu_time_avg_us\": 0.09999999999999999,\n    \"self_cpu_percent\": 75,\n"
                       "    \"cpu_total_percent\": 75\n  }\n]");
    ct_free(json);
    /* zero total: NaN in the table, "NaN" in CSV, null in JSON */
    ct_prof_row z[1] = {{k2, NULL, 1, 0.0, 0.0, 0, 0, NULL, 0}};
    ct_prof_rows zs = {z, 1, false};
    csv = ct_prof_rows_csv(&zs, NULL, 5);
    CHECK_STR_EQ(csv, "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,# of Calls\n"
                      "aten::mm,NaN,0.0,NaN,0.0,0.0,1\n");
    ct_free(csv);
    json = ct_prof_rows_json(&zs, NULL, 5);
    CHECK(json && strstr(json, "\"self_cpu_percent\": null,\n    \"cpu_total_percent\": null") != NULL);
    ct_free(json);
}

/* Every allocation failing in turn over a whole report: each step either succeeds with
 * PyTorch's output or fails with CT_ERR_NOMEM, leaving its input as it was. */
static void check_alloc_failures(const cJSON *cfg) {
    bool group = cJSON_IsTrue(get(cfg, "group_by_input_shape"));
    const cJSON *t0 = cJSON_GetArrayItem(get(cfg, "tables"), 0);
    const char *sort_by = get_str(t0, "sort_by"), *want = get_str(t0, "table");
    int row_limit = (int)get_num(t0, "row_limit");
    ct_prof_events pristine = {0};
    CHECK(build_events(cfg, &pristine, 0));
    int failures = 0;
    for (int64_t k = 1;; k++) {
        ct_prof_events evs = {0};
        CHECK(copy_events(&pristine, &evs));
        ct_prof_rows rows = {0};
        char *table = NULL, *csv = NULL, *json = NULL;
        int64_t before = ct_testing_alloc_count();
        ct_testing_fail_alloc_after(k);
        int rc = ct_prof_remove_dup_nodes(&evs);
        bool untouched = true;
        if (rc != 0)
            for (size_t i = 0; i < evs.n; i++)
                untouched &= evs.ev[i].removed == pristine.ev[i].removed && evs.ev[i].parent == pristine.ev[i].parent;
        if (rc == 0) rc = ct_prof_key_averages(&evs, group, &rows);
        if (rc == 0) rc = (table = ct_prof_table(&rows, sort_by, row_limit, NULL)) ? 0 : -1;
        if (rc == 0) rc = (csv = ct_prof_rows_csv(&rows, sort_by, row_limit)) ? 0 : -1;
        if (rc == 0) rc = (json = ct_prof_rows_json(&rows, sort_by, row_limit)) ? 0 : -1;
        ct_testing_fail_alloc_after(0);
        int64_t used = ct_testing_alloc_count() - before;
        if (rc != 0) {
            failures++;
            CHECK_MSG(ct_error_code() == CT_ERR_NOMEM, "allocation %lld: error %s: %s", (long long)k,
                      ct_error_kind_name(ct_error_code()), ct_error_message());
            CHECK(untouched);
            CHECK(rows.rows == NULL || rows.n > 0);
            ct_error_clear();
        } else {
            CHECK_STR_EQ(table, want);
        }
        ct_free(table);
        ct_free(csv);
        ct_free(json);
        ct_prof_rows_free(&rows);
        free_events(&evs);
        if (rc == 0 && used < k) break; /* the k-th allocation never came: all paths covered */
        if (k > 100000) {
            CHECK_MSG(0, "allocation sweep did not end");
            break;
        }
    }
    printf("allocation sweep: %d failures injected, none crashed or leaked\n", failures);
    CHECK_MSG(failures > 10, "only %d allocation failures injected", failures);
    free_events(&pristine);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/profiler_table.json"));
    CHECK_MSG(root != NULL, "cannot read profiler_table.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_profiler_table");

    int tables = 0, tables_matched = 0, configs = 0;
    const cJSON *cfg, *lab = NULL;
    cJSON_ArrayForEach(cfg, get(root, "configs")) {
        run_config(cfg, &tables_matched);
        tables += cJSON_GetArraySize(get(cfg, "tables"));
        configs++;
        if (strcmp(get_str(cfg, "name"), "lab_linear_grouped") == 0) lab = cfg;
    }
    cJSON_ArrayForEach(cfg, get(root, "row_cases")) {
        ct_prof_rows rows;
        build_rows(get(cfg, "rows"), &rows);
        tables_matched += check_tables(get_str(cfg, "name"), &rows, get(cfg, "tables"));
        tables += cJSON_GetArraySize(get(cfg, "tables"));
        free(rows.rows);
        configs++;
    }
    printf("%d configurations, %d of %d tables (and errors) as PyTorch 2.6 prints them\n", configs, tables_matched,
           tables);
    CHECK(configs >= 20);
    CHECK_INT_EQ(tables_matched, tables);

    check_bad_input();
    check_formats();
    CHECK(lab != NULL);
    if (lab) check_alloc_failures(lab);
    cJSON_Delete(root);
    return ct_test_finish("test_profiler_table");
}
