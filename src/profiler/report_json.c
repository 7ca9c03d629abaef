/* The profiler's rows as JSON (the table's columns; cJSON). */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "profiler/aggregate.h"
#include "profiler/report.h"
#include "util/json.h"
#include "util/pyfloat.h"
#include "util/strbuf.h"

/* Adds a number, or null for a NaN percentage; false when memory ran out. */
static bool json_num(cJSON *obj, const char *name, double v, bool is_null) {
    return (is_null ? cJSON_AddNullToObject(obj, name) : cJSON_AddNumberToObject(obj, name, v)) != NULL;
}

char *ct_prof_rows_json(const ct_prof_rows *rows, const char *sort_by, int row_limit) {
    size_t shown;
    double sum_self;
    size_t *order = ct_prof_report_rows(rows, sort_by, row_limit, "ct_prof_rows_json", &shown, &sum_self);
    if (!order) return NULL;
    char *text = NULL;
    cJSON *arr = cJSON_CreateArray();
    if (!arr) goto nomem;
    for (size_t k = 0; k < shown; k++) {
        const ct_prof_row *r = &rows->rows[order[k]];
        double self_pct = 0, total_pct = 0;
        bool self_nan = false, total_nan = false;
        if (ct_prof_time_share(r->self_cpu_time_total_us, sum_self, &self_pct, &self_nan) != 0 ||
            ct_prof_time_share(r->cpu_time_total_us, sum_self, &total_pct, &total_nan) != 0)
            goto done;
        cJSON *obj = cJSON_CreateObject();
        if (!obj) goto nomem;
        if (!cJSON_AddItemToArray(arr, obj)) {
            cJSON_Delete(obj);
            goto nomem;
        }
        if (!cJSON_AddStringToObject(obj, "name", r->key)) goto nomem;
        if (r->input_shapes && !cJSON_AddStringToObject(obj, "input_shapes", r->input_shapes)) goto nomem;
        if (!json_num(obj, "count", (double)r->count, false) ||
            !json_num(obj, "self_cpu_time_total_us", r->self_cpu_time_total_us, false) ||
            !json_num(obj, "cpu_time_total_us", r->cpu_time_total_us, false) ||
            !json_num(obj, "cpu_time_avg_us", ct_prof_row_avg(r), false) ||
            !json_num(obj, "self_cpu_percent", self_pct, self_nan) ||
            !json_num(obj, "cpu_total_percent", total_pct, total_nan))
            goto nomem;
    }
    text = ct_json_dumps(arr, 2);
    goto done;
nomem:
    ct_error_set(CT_ERR_NOMEM, "ct_prof_rows_json: out of memory");
done:
    cJSON_Delete(arr);
    ct_free(order);
    return text;
}
