/*
 * The MiniGPT report of a long run (`ctorch gpt --out DIR` with many steps) stays readable:
 *
 *   - loss.svg labels a handful of steps at nice numbers (multiples of 1, 2 or 5 times a power
 *     of ten, the first at 0), not one label a step;
 *   - REPORT.md gives the first, last and lowest loss (with its step) and a short table, each
 *     value the run's own (minigpt.json's `losses`), and does not list every loss;
 *   - minigpt.json keeps every step's loss.
 *
 * A small model (width 16, one block, vocabulary 50, context 8) trains 130 steps, then 5.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "minigpt.h"
#include "util/json.h"

static char *read_in(const char *dir, const char *name) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = ct_test_read_file(path, NULL);
    CHECK_MSG(text != NULL, "the report has no %s", name);
    return text;
}

/* a multiple of 1, 2 or 5 times a power of ten */
static int nice(long v) {
    if (v <= 0) return 0;
    while (v % 10 == 0) v /= 10;
    return v == 1 || v == 2 || v == 5;
}

static void check_report(int64_t steps) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s/test_minigpt_long.d/steps%lld", CT_BINARY_DIR, (long long)steps);
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    a.d_model = 16;
    a.n_layer = 1;
    a.vocab = 50;
    a.block = 8;
    a.steps = steps;
    a.generate = 4;
    CHECK_INT_EQ(ct_example_minigpt_report(&a, dir, NULL, NULL, NULL), 0);
    char *svg = read_in(dir, "loss.svg"), *report = read_in(dir, "REPORT.md"), *json = read_in(dir, "minigpt.json");
    cJSON *out = json ? ct_json_parse(json, strlen(json)) : NULL;
    const cJSON *losses = cJSON_GetObjectItemCaseSensitive(out, "losses");
    CHECK_INT_EQ(cJSON_GetArraySize(losses), steps);
    if (!svg || !report || !losses) goto done;

    /* the step axis: labels under it (y 328) */
    int labels = 0, prev = -1;
    long first = -1, every = 0;
    for (const char *p = svg; (p = strstr(p, "y=\"328.0\" text-anchor=\"middle\">")) != NULL; p++) {
        long v = strtol(p + strlen("y=\"328.0\" text-anchor=\"middle\">"), NULL, 10);
        if (labels == 0) first = v;
        else if (labels == 1) every = v - prev;
        else CHECK_MSG(v - prev == every, "%lld steps: the step labels are not evenly spaced (%d after %d)", (long long)steps, (int)v, prev);
        prev = (int)v;
        labels++;
    }
    CHECK_MSG(labels >= 2 && labels <= 12, "%lld steps: %d step labels in loss.svg", (long long)steps, labels);
    CHECK_MSG(first == 0 && nice(every), "%lld steps: labels from %ld every %ld, not nice numbers", (long long)steps, first, every);
    CHECK_MSG(prev <= steps - 1 && prev + every > steps - 1, "%lld steps: the last label (%d) is not the last nice step", (long long)steps, prev);

    /* the report: first, last, lowest with its step, from the run's own losses */
    int n = (int)steps, low = 0;
    for (int i = 1; i < n; i++)
        if (cJSON_GetNumberValue(cJSON_GetArrayItem(losses, i)) < cJSON_GetNumberValue(cJSON_GetArrayItem(losses, low))) low = i;
    char want[512];
    snprintf(want, sizeof want, "The loss went from %.6f at step 0 to %.6f at step %d; the lowest was %.6f, at step %d",
             cJSON_GetNumberValue(cJSON_GetArrayItem(losses, 0)), cJSON_GetNumberValue(cJSON_GetArrayItem(losses, n - 1)), n - 1,
             cJSON_GetNumberValue(cJSON_GetArrayItem(losses, low)), low);
    CHECK_MSG(strstr(report, want) != NULL, "%lld steps: REPORT.md lacks [%s]", (long long)steps, want);
    /* the table: a few rows, each a step and its loss */
    int rows = 0;
    for (const char *p = strstr(report, "| step | loss |"); p && (p = strstr(p + 1, "\n| ")) != NULL;) {
        int step;
        double v;
        if (sscanf(p + 3, "%d | %lf |", &step, &v) != 2) break;
        CHECK_MSG(step >= 0 && step < n && fabs(v - cJSON_GetNumberValue(cJSON_GetArrayItem(losses, step))) < 1e-6,
                  "%lld steps: table row %d: %f", (long long)steps, step, v);
        rows++;
    }
    CHECK_MSG(rows >= (n < 5 ? n : 5) && rows <= 12, "%lld steps: %d rows in the loss table", (long long)steps, rows);
    /* not every loss: count the losses the report prints anywhere */
    int printed = 0;
    for (int i = 0; i < n; i++) {
        char v[32];
        snprintf(v, sizeof v, "%.6f", cJSON_GetNumberValue(cJSON_GetArrayItem(losses, i)));
        printed += strstr(report, v) != NULL;
    }
    CHECK_MSG(printed <= 14, "%lld steps: REPORT.md prints %d of the %d losses", (long long)steps, printed, n);
    printf("%lld steps: %d step labels every %ld, %d table rows, %d of the losses in REPORT.md\n", (long long)steps, labels, every,
           rows, printed);
done:
    cJSON_Delete(out);
    free(svg);
    free(report);
    free(json);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    check_report(130);
    check_report(5);
    return ct_test_finish("test_minigpt_long");
}
