/* The profiler's export_stacks: one line per range, for flame graphs. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/profiler.h"
#include "core/startup.h"
#include "core/tls.h"
#include "ops/kernels.h"
#include "profiler/aggregate.h"
#include "profiler/profiler_state.h"
#include "profiler/record.h"
#include "util/json.h"
#include "util/strbuf.h"

/* ---- export_stacks: one line per range for flame graphs ---- */

char *ct_profiler_stacks(ct_profiler *p, const char *metric) {
    if (!metric) metric = "self_cpu_time_total";
    bool self_time = strcmp(metric, "self_cpu_time_total") == 0;
    /* PyTorch's metrics: the self times on the CPU and on each kind of device (no range of a
     * CPU-only run has device time, so their files are empty); ctorch adds cpu_time_total */
    static const char *const device_metrics[] = {"self_cuda_time_total", "self_xpu_time_total", "self_privateuse1_time_total"};
    for (size_t k = 0; k < sizeof device_metrics / sizeof device_metrics[0]; k++)
        if (strcmp(metric, device_metrics[k]) == 0) {
            char *empty = ct_malloc(1);
            if (empty) empty[0] = '\0';
            else ct_error_set(CT_ERR_NOMEM, "export_stacks: out of memory");
            return empty;
        }
    if (!self_time && strcmp(metric, "cpu_time_total") != 0) {
        ct_error_set(CT_ERR_VALUE, "metric should be one of: ['self_cpu_time_total', 'self_cuda_time_total', 'self_xpu_time_total', "
                                   "'self_privateuse1_time_total']");
        return NULL;
    }
    if (ct_prof_finalize(p) != 0) return NULL;
    size_t n = p->evs.n;
    bool with_frames = false;
    for (size_t i = 0; i < n && !with_frames; i++) with_frames = !p->evs.ev[i].removed && p->evs.ev[i].n_stack > 0;
    double *child = ct_calloc(n ? n : 1, sizeof *child);
    if (!child) return NULL;
    /* times as PyTorch derives them: microseconds from the trace start, self = total - children */
    for (size_t i = 0; i < n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        if (e->removed || e->parent < 0) continue;
        child[e->parent] += (double)(e->end_ns - p->start_ns) / 1000.0 - (double)(e->start_ns - p->start_ns) / 1000.0;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    int64_t chain[CT_PROF_MAX_DEPTH];
    for (size_t i = 0; i < n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        if (e->removed) continue;
        double total = (double)(e->end_ns - p->start_ns) / 1000.0 - (double)(e->start_ns - p->start_ns) / 1000.0;
        double v = self_time ? total - child[i] : total;
        if ((int64_t)v <= 0) continue; /* as PyTorch: only ranges worth at least 1 us */
        if (with_frames) {
            /* EventList.export_stacks: the event's frames, outermost first, " ;\t\n" made '_' */
            if (e->n_stack == 0) continue;
            for (size_t k = e->n_stack; k-- > 0;) {
                for (const char *c = e->stack[k]; *c; c++) {
                    char ch = (*c == ' ' || *c == ';' || *c == '\t' || *c == '\n') ? '_' : *c;
                    ct_sb_write(&b, &ch, 1);
                }
                if (k) ct_sb_write(&b, ";", 1);
            }
            ct_sb_printf(&b, " %" PRId64 "\n", (int64_t)v);
            continue;
        }
        int d = 0;
        for (int64_t a = (int64_t)i; a >= 0 && d < CT_PROF_MAX_DEPTH; a = p->evs.ev[a].parent) chain[d++] = a;
        for (int k = d - 1; k >= 0; k--) {
            /* ';' separates frames and ' ' ends the stack in the collapsed format */
            for (const char *c = p->evs.ev[chain[k]].name; *c; c++) {
                char ch = *c == ';' ? ',' : *c == ' ' ? '_' : *c;
                ct_sb_write(&b, &ch, 1);
            }
            if (k) ct_sb_write(&b, ";", 1);
        }
        ct_sb_printf(&b, " %" PRId64 "\n", (int64_t)v);
    }
    ct_free(child);
    char *s = ct_sb_finish(&b);
    if (!s) ct_error_set(CT_ERR_NOMEM, "export_stacks: out of memory");
    return s;
}

int ct_profiler_export_stacks(ct_profiler *p, const char *path, const char *metric) {
    if (!path) return ct_error_set(CT_ERR_VALUE, "export_stacks: path is NULL");
    char *text = ct_profiler_stacks(p, metric);
    if (!text) return -1;
    int rc = ct_json_write_file_atomic(path, text);
    ct_free(text);
    return rc;
}
