/* The profiler's Chrome trace (Kineto's JSON shape; schema in docs/profiler.md), and its export to a
 * file. */
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

/* ---- Chrome trace (Kineto's shape) ---- */

static double us(int64_t ns) { return (double)ns / 1000.0; }

static cJSON *parse_or_null(const char *json) { return json ? cJSON_Parse(json) : NULL; }

char *ct_profiler_chrome_trace(ct_profiler *p, const char *trace_name) {
    if (ct_prof_finalize(p) != 0) return NULL;
    if (p->recording) {
        ct_error_set(CT_ERR_VALUE, "'NoneType' object has no attribute 'save'");
        return NULL;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON *evs = NULL;
    bool ok = true; /* every member made it into the tree (ct_json_add) */
    if (!root) return NULL;
    int pid = (int)getpid();
    int64_t real_ns = ct_prof_real_ns();
    int64_t base_ns = real_ns - ct_prof_now_ns(); /* wall-clock time of the monotonic zero */
    ok &= ct_json_add(root, "schemaVersion", cJSON_CreateNumber(1));
    ok &= cJSON_AddArrayToObject(root, "deviceProperties") != NULL;
    ok &= ct_json_add(root, "record_shapes", cJSON_CreateNumber(p->cfg.record_shapes ? 1 : 0));
    char trace_id[40];
    /* the wall-clock start of the recording and the process: the same trace gets the same id */
    snprintf(trace_id, sizeof trace_id, "%016" PRIX64 "%016" PRIX64, (uint64_t)(base_ns + p->start_ns),
             (uint64_t)p->start_ns ^ (uint64_t)pid);
    ok &= ct_json_add(root, "trace_id", cJSON_CreateString(trace_id));
    evs = cJSON_AddArrayToObject(root, "traceEvents");
    if (!evs) goto oom;
    int64_t ext = 0;
    for (size_t i = 0; i < p->evs.n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        if (e->removed || e->memory_record) continue; /* "[memory]" events have no trace name */
        cJSON *o = cJSON_CreateObject();
        if (!o) goto oom;
        if (!ct_json_add(evs, NULL, o)) goto oom;
        ok &= ct_json_add(o, "ph", cJSON_CreateString("X"));
        ok &= ct_json_add(o, "cat", cJSON_CreateString(e->scope == CT_SCOPE_USER_SCOPE ? "user_annotation" : "cpu_op"));
        ok &= ct_json_add(o, "name", cJSON_CreateString(e->name));
        ok &= ct_json_add(o, "pid", cJSON_CreateNumber(pid));
        ok &= ct_json_add(o, "tid", cJSON_CreateNumber((double)e->thread_id));
        ok &= ct_json_add(o, "ts", cJSON_CreateNumber(us(e->start_ns)));
        ok &= ct_json_add(o, "dur", cJSON_CreateNumber(us(e->end_ns - e->start_ns)));
        cJSON *a = cJSON_AddObjectToObject(o, "args");
        if (!a) goto oom;
        ok &= ct_json_add(a, "External id", cJSON_CreateNumber((double)++ext));
        if (e->sequence_nr >= 0) {
            ok &= ct_json_add(a, "Sequence number", cJSON_CreateNumber((double)e->sequence_nr));
            ok &= ct_json_add(a, "Fwd thread id", cJSON_CreateNumber((double)e->fwd_thread_id));
        }
        ok &= ct_json_add(a, "Record function id", cJSON_CreateNumber(0));
        if (e->has_inputs && e->input_shapes && strcmp(e->input_shapes, "[]") != 0) {
            cJSON *ci = parse_or_null(e->concrete_inputs), *ty = parse_or_null(e->input_types),
                  *st = parse_or_null(e->input_strides), *dims = parse_or_null(e->input_shapes);
            if (!ci || !ty || !st || !dims) {
                cJSON_Delete(ci);
                cJSON_Delete(ty);
                cJSON_Delete(st);
                cJSON_Delete(dims);
                goto oom;
            }
            ok &= ct_json_add(a, "Concrete Inputs", ci);
            ok &= ct_json_add(a, "Input type", ty);
            ok &= ct_json_add(a, "Input Strides", st);
            ok &= ct_json_add(a, "Input Dims", dims);
        }
        ok &= ct_json_add(a, "Ev Idx", cJSON_CreateNumber((double)(ext - 1)));
    }
    /* forward -> backward flows: each backward node links to the last forward op with its
     * sequence number; ids count backward nodes in execution order */
    int flow = 0;
    for (size_t i = 0; i < p->evs.n; i++) {
        const ct_prof_event *b = &p->evs.ev[i];
        if (b->removed || b->scope != CT_SCOPE_BACKWARD_FUNCTION || b->sequence_nr < 0) continue;
        if (strncmp(b->name, "autograd::engine::evaluate_function: ", 37) == 0) continue;
        const ct_prof_event *f = NULL;
        for (size_t j = 0; j < i; j++) {
            const ct_prof_event *c = &p->evs.ev[j];
            if (!c->removed && c->scope == CT_SCOPE_FUNCTION && c->sequence_nr == b->sequence_nr) f = c;
        }
        if (!f) continue;
        flow++;
        for (int k = 0; k < 2; k++) {
            cJSON *o = cJSON_CreateObject();
            if (!o) goto oom;
            if (!ct_json_add(evs, NULL, o)) goto oom;
            ok &= ct_json_add(o, "ph", cJSON_CreateString(k == 0 ? "s" : "f"));
            ok &= ct_json_add(o, "id", cJSON_CreateNumber(flow));
            ok &= ct_json_add(o, "pid", cJSON_CreateNumber(pid));
            ok &= ct_json_add(o, "tid", cJSON_CreateNumber((double)(k == 0 ? f->thread_id : b->thread_id)));
            ok &= ct_json_add(o, "ts", cJSON_CreateNumber(us(k == 0 ? f->start_ns : b->start_ns)));
            ok &= ct_json_add(o, "cat", cJSON_CreateString("fwdbwd"));
            ok &= ct_json_add(o, "name", cJSON_CreateString("fwdbwd"));
            if (k == 1) ok &= ct_json_add(o, "bp", cJSON_CreateString("e"));
        }
    }
    /* process metadata, each recording thread's name and sort index, and the profiler's own span */
    const char *meta_names[] = {"process_name", "process_labels", "process_sort_index", "thread_name", "thread_sort_index"};
    for (const ct_prof_thread *t = p->threads; t; t = t->next) {
        if (t != p->threads && t->n_raw == 0) continue; /* registered but recorded nothing */
        for (int k = t == p->threads ? 0 : 3; k < 5; k++) {
            cJSON *o = cJSON_CreateObject();
            if (!o) goto oom;
            if (!ct_json_add(evs, NULL, o)) goto oom;
            ok &= ct_json_add(o, "name", cJSON_CreateString(meta_names[k]));
            ok &= ct_json_add(o, "ph", cJSON_CreateString("M"));
            ok &= ct_json_add(o, "ts", cJSON_CreateNumber(us(p->start_ns)));
            ok &= ct_json_add(o, "pid", cJSON_CreateNumber(pid));
            ok &= ct_json_add(o, "tid", cJSON_CreateNumber(k < 3 ? 0 : (double)t->tid));
            cJSON *a = cJSON_AddObjectToObject(o, "args");
            if (!a) goto oom;
            char tname[64];
            snprintf(tname, sizeof tname, "thread %llu (ctorch)", (unsigned long long)t->tid);
            if (k == 0) ok &= ct_json_add(a, "name", cJSON_CreateString("ctorch"));
            else if (k == 1) ok &= ct_json_add(a, "labels", cJSON_CreateString("CPU"));
            else if (k == 3) ok &= ct_json_add(a, "name", cJSON_CreateString(tname));
            else ok &= ct_json_add(a, "sort_index", cJSON_CreateNumber(k == 2 ? pid : (double)t->tid));
        }
    }
    cJSON *span = cJSON_CreateObject();
    if (!span) goto oom;
    if (!ct_json_add(evs, NULL, span)) goto oom;
    ok &= ct_json_add(span, "ph", cJSON_CreateString("X"));
    ok &= ct_json_add(span, "cat", cJSON_CreateString("Trace"));
    ok &= ct_json_add(span, "ts", cJSON_CreateNumber(us(p->start_ns)));
    ok &= ct_json_add(span, "dur", cJSON_CreateNumber(us(p->stop_ns - p->start_ns)));
    ok &= ct_json_add(span, "pid", cJSON_CreateString("Spans"));
    ok &= ct_json_add(span, "tid", cJSON_CreateString("PyTorch Profiler"));
    ok &= ct_json_add(span, "name", cJSON_CreateString("PyTorch Profiler (0)"));
    cJSON *sa = cJSON_AddObjectToObject(span, "args");
    if (!sa) goto oom;
    ok &= ct_json_add(sa, "Op count", cJSON_CreateNumber(0));
    ok &= ct_json_add(root, "traceName", cJSON_CreateString(trace_name ? trace_name : ""));
    ok &= ct_json_add(root, "displayTimeUnit", cJSON_CreateString("ms"));
    ok &= ct_json_add(root, "baseTimeNanoseconds", cJSON_CreateNumber((double)base_ns));
    if (!ok) goto oom;
    char *out = ct_json_dumps(root, 1);
    cJSON_Delete(root);
    return out;
oom:
    cJSON_Delete(root);
    ct_error_set(CT_ERR_NOMEM, "chrome trace: out of memory");
    return NULL;
}

int ct_profiler_export_chrome_trace(ct_profiler *p, const char *path) {
    if (!path) return ct_error_set(CT_ERR_VALUE, "export_chrome_trace: path is NULL");
    const char *base = strrchr(path, '/');
    char *text = ct_profiler_chrome_trace(p, base ? base + 1 : path);
    if (!text) return -1;
    int rc = ct_json_write_file_atomic(path, text);
    ct_free(text);
    return rc;
}
