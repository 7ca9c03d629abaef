/* The profiler object: start/stop, the event tree, key_averages reports and the Chrome trace
 * (Kineto's JSON shape; schema in docs/profiler.md). */
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

ct_profiler *ct_profiler_start_config(const ct_profiler_config *config) {
    int64_t t0 = ct_prof_now_ns();
    if (!ct_library_started()) { /* the record_function operators and the observer are the start-up's */
        ct_error_not_started("ct_profiler_start");
        return NULL;
    }
    if (ct_tls_profiler && atomic_load(&ct_tls_profiler->recording)) {
        ct_error_set(CT_ERR_RUNTIME, "Profiler is already enabled on this thread");
        return NULL;
    }
    ct_profiler *p = ct_calloc(1, sizeof *p);
    if (!p) return NULL;
    if (config) p->cfg = *config;
    p->plain = !p->cfg.record_shapes && !p->cfg.all_threads;
    p->threads_tail = &p->threads;
    p->gen = ct_prof_next_gen();
    atomic_init(&p->max_events, (long long)CT_PROFILER_DEFAULT_MAX_EVENTS);
    if (!ct_prof_thread_new(p)) {
        ct_free(p);
        return NULL;
    }
    atomic_init(&p->recording, true);
    if (p->cfg.all_threads && ct_prof_global_start(p) != 0) {
        ct_prof_recording_free(p);
        ct_free(p);
        return NULL;
    }
    if (p->cfg.profile_memory) atomic_fetch_add(&ct_alloc_reporting, 1);
    ct_tls_profiler = p;
    ct_tls_state.observe |= CT_OBSERVE_PROFILER;
    p->start_ticks = ct_prof_ticks();
    p->start_ns = ct_prof_now_ns();
    p->start_call_ns = p->start_ns - t0;
    return p;
}

ct_profiler *ct_profiler_start(bool record_shapes) {
    ct_profiler_config c = {.record_shapes = record_shapes};
    return ct_profiler_start_config(&c);
}

/* ranges or inputs lost to a memory failure, over every recording thread */
static long long lost_count(const ct_profiler *p) {
    long long n = 0;
    for (const ct_prof_thread *t = p->threads; t; t = t->next) n += atomic_load_explicit(&t->lost, memory_order_relaxed);
    return n;
}

/* a recording that lost ranges to a memory failure has no complete report to give */
static int lost_error(const ct_profiler *p) {
    return ct_error_set(CT_ERR_NOMEM, "profiler: out of memory while recording (%lld ranges or inputs lost)",
                        lost_count(p));
}

int ct_profiler_stop(ct_profiler *p) {
    if (!p) return ct_error_set(CT_ERR_VALUE, "ct_profiler_stop: profiler is NULL");
    if (!atomic_load(&p->recording)) return ct_error_set(CT_ERR_RUNTIME, "ct_profiler_stop: the profiler is not recording");
    p->stop_ns = ct_prof_now_ns();
    p->stop_ticks = ct_prof_ticks();
    atomic_store(&p->recording, false);
    /* Note [Profiler threads]: after this no other thread writes its buffer */
    if (p->cfg.all_threads) ct_prof_global_stop(p);
    if (p->cfg.profile_memory) atomic_fetch_sub(&ct_alloc_reporting, 1);
    /* close ranges left open (a stop inside a range) */
    ct_prof_close_open(p);
    if (ct_tls_profiler == p) {
        ct_tls_profiler = NULL;
        ct_tls_state.observe &= ~CT_OBSERVE_PROFILER;
    }
    p->stop_call_ns = ct_prof_now_ns() - p->stop_ns;
    if (lost_count(p)) return lost_error(p);
    return 0;
}

void ct_profiler_free(ct_profiler *p) {
    if (!p) return;
    if (atomic_load(&p->recording)) ct_profiler_stop(p);
    for (size_t i = 0; i < p->evs.n; i++) {
        ct_prof_event *e = &p->evs.ev[i];
        if (e->owns_name) ct_free(e->name);
        ct_free(e->input_shapes);
        ct_free(e->input_types);
        ct_free(e->input_strides);
        ct_free(e->concrete_inputs);
        ct_free(e->stack);
    }
    ct_free(p->evs.ev);
    ct_prof_recording_free(p);
    ct_free(p);
}

/* Note [Results read while recording]
 *   As in PyTorch 2.6, a profiler that is still recording has no results yet: inside the with
 *   block prof.key_averages() is empty, its table() is "" and len(prof.events()) is 0, while
 *   prof.export_chrome_trace(path) fails with "'NoneType' object has no attribute 'save'"
 *   (the Kineto results it saves exist only after the block); recorded in
 *   tests/golden/torch-2.6/messages.json. The reports here do the same: empty while recording,
 *   and the Chrome trace fails with that message (a ValueError: ctorch has no AttributeError
 *   kind, as for the table's sort keys). */
static int finalize(ct_profiler *p) {
    if (!p) return ct_error_set(CT_ERR_VALUE, "profiler is NULL");
    if (atomic_load(&p->recording)) return 0; /* callers check p->recording: no results yet */
    if (lost_count(p)) return lost_error(p);
    if (!p->finalized) {
        if (ct_prof_build_events(p) != 0) return -1;
        if (ct_prof_format_inputs(p) != 0) return -1;
        if (ct_prof_remove_dup_nodes(&p->evs) != 0) return -1;
        p->finalized = true;
    }
    return 0;
}

size_t ct_profiler_num_events(ct_profiler *p) {
    if (finalize(p) != 0 || p->recording) return 0;
    size_t n = 0;
    for (size_t i = 0; i < p->evs.n; i++) n += !p->evs.ev[i].removed;
    return n;
}

/* Position of raw event `raw` among the events not merged away. */
static int64_t visible_index(const ct_prof_events *evs, int64_t raw) {
    int64_t k = 0;
    for (int64_t j = 0; j < raw; j++) k += !evs->ev[j].removed;
    return k;
}

int ct_profiler_event(ct_profiler *p, size_t i, ct_profiler_event_info *out) {
    if (!out) return ct_error_set(CT_ERR_VALUE, "ct_profiler_event: out is NULL");
    if (finalize(p) != 0) return -1;
    size_t k = 0, raw = 0;
    for (; raw < p->evs.n; raw++) {
        if (p->evs.ev[raw].removed) continue;
        if (k == i) break;
        k++;
    }
    if (raw == p->evs.n) return ct_error_set(CT_ERR_INDEX, "profiler event %zu out of range (%zu events)", i, k);
    const ct_prof_event *e = &p->evs.ev[raw];
    int64_t parent = e->parent;
    while (parent >= 0 && p->evs.ev[parent].removed) parent = p->evs.ev[parent].parent;
    out->name = e->name;
    out->parent = parent >= 0 ? visible_index(&p->evs, parent) : -1;
    out->start_ns = e->start_ns;
    out->end_ns = e->end_ns;
    out->thread_id = e->thread_id;
    out->sequence_nr = e->sequence_nr;
    out->input_shapes = e->input_shapes;
    return 0;
}

int64_t ct_profiler_overhead_ns(const ct_profiler *p) {
    /* Note [Profiler cost]: each thread's timed sample scaled to its ranges */
    if (!p) return 0;
    double ns = 0, scale = ct_prof_ns_per_tick(p);
    for (const ct_prof_thread *t = p->threads; t; t = t->next)
        if (t->sampled_events)
            ns += (double)t->sampled_ns * scale * (double)atomic_load_explicit(&t->raw_events, memory_order_relaxed) /
                  (double)t->sampled_events;
    return (int64_t)ns;
}
static int64_t sum_sampled(const ct_profiler *p) {
    int64_t n = 0;
    for (const ct_prof_thread *t = p->threads; t; t = t->next) n += t->sampled_events;
    return n;
}
/* Counters of the threads registered so far (the list only grows, under the registration lock,
 * and is read here by the starting thread, whose own buffer is first). */
int64_t ct_profiler_raw_event_count(const ct_profiler *p) {
    int64_t n = 0;
    for (const ct_prof_thread *t = p ? p->threads : NULL; t; t = t->next)
        n += atomic_load_explicit(&t->raw_events, memory_order_relaxed);
    return n;
}
int64_t ct_profiler_dropped_events(const ct_profiler *p) {
    int64_t n = 0;
    for (const ct_prof_thread *t = p ? p->threads : NULL; t; t = t->next)
        n += atomic_load_explicit(&t->dropped, memory_order_relaxed);
    return n;
}

int ct_profiler_get_stats(const ct_profiler *p, ct_profiler_stats *out) {
    if (!p || !out) return ct_error_set(CT_ERR_VALUE, "ct_profiler_get_stats: %s is NULL", p ? "out" : "profiler");
    bool rec = atomic_load(&p->recording);
    out->profiler_enable_call_duration_ns = p->start_call_ns;
    out->profiler_disable_call_duration_ns = rec ? 0 : p->stop_call_ns;
    out->profiling_window_duration_ns = (rec ? ct_prof_now_ns() : p->stop_ns) - p->start_ns;
    out->number_of_events = ct_profiler_raw_event_count(p);
    out->number_of_threads = rec ? 0 : p->n_threads;
    if (!rec)
        for (const ct_prof_thread *t = p->threads; t; t = t->next) out->number_of_threads -= t->n_raw == 0 && t != p->threads;
    out->overhead_ns = ct_profiler_overhead_ns(p);
    return 0;
}

int ct_profiler_set_max_events(ct_profiler *p, size_t max_events) {
    if (!p) return ct_error_set(CT_ERR_VALUE, "ct_profiler_set_max_events: profiler is NULL");
    if (max_events > CT_PROFILER_MAX_EVENTS_LIMIT)
        return ct_error_set(CT_ERR_VALUE, "ct_profiler_set_max_events: at most %zu events (got %zu)",
                            (size_t)CT_PROFILER_MAX_EVENTS_LIMIT, max_events);
    /* the ranges already handed out count against the new limit */
    atomic_store(&p->max_events, (long long)max_events);
    return 0;
}

typedef char *(*rows_fmt)(const ct_prof_rows *, const char *, int);

static char *report(ct_profiler *p, const char *sort_by, int row_limit, bool by_shape, int stack_n, int kind) {
    if (finalize(p) != 0) return NULL;
    ct_prof_rows rows = {0};
    if (!atomic_load(&p->recording) && ct_prof_key_averages_ex(&p->evs, p->start_ns, by_shape, stack_n, &rows) != 0)
        return NULL;
    rows.profile_memory = p->cfg.profile_memory;
    char *s = kind == 0 ? ct_prof_table(&rows, sort_by, row_limit, NULL)
              : kind == 1 ? ct_prof_rows_csv(&rows, sort_by, row_limit)
                          : ct_prof_rows_json(&rows, sort_by, row_limit);
    ct_prof_rows_free(&rows);
    return s;
}

int ct_profiler_set_overhead_footer(ct_profiler *p, bool on) {
    if (!p) return ct_error_set(CT_ERR_VALUE, "ct_profiler_set_overhead_footer: profiler is NULL");
    p->overhead_footer = on;
    return 0;
}

char *ct_profiler_table(ct_profiler *p, const char *sort_by, int row_limit, bool by_shape) {
    return ct_profiler_table_ex(p, sort_by, row_limit, by_shape, 0);
}

char *ct_profiler_table_ex(ct_profiler *p, const char *sort_by, int row_limit, bool by_shape, int stack_n) {
    char *t = report(p, sort_by, row_limit, by_shape, stack_n, 0);
    if (!t || !p->overhead_footer || !*t) return t;
    /* Note [Profiler cost]: the hooks' time on the timed sample, scaled to every range */
    ct_strbuf b = CT_STRBUF_INIT;
    ct_sb_puts(&b, t);
    ct_free(t);
    int64_t ns = ct_profiler_overhead_ns(p);
    int64_t raw = ct_profiler_raw_event_count(p), dropped = ct_profiler_dropped_events(p);
    ct_sb_printf(&b, "Profiler overhead (estimated): %.3fus over %" PRId64 " ranges, %.0fns each (timed on %" PRId64 " of them)\n",
                 (double)ns / 1000.0, raw, raw ? (double)ns / (double)raw : 0.0, sum_sampled(p));
    ct_sb_printf(&b, "Profiler start: %.3fus, stop: %.3fus\n", (double)p->start_call_ns / 1000.0,
                 (double)p->stop_call_ns / 1000.0);
    if (dropped) ct_sb_printf(&b, "Ranges not recorded (over the event limit or nesting depth): %" PRId64 "\n", dropped);
    return ct_sb_finish(&b);
}
char *ct_profiler_table_csv(ct_profiler *p, const char *sort_by, int row_limit, bool by_shape) {
    return report(p, sort_by, row_limit, by_shape, 0, 1);
}
char *ct_profiler_table_json(ct_profiler *p, const char *sort_by, int row_limit, bool by_shape) {
    return report(p, sort_by, row_limit, by_shape, 0, 2);
}

/* ---- the event tree ---- */

static int depth_of(const ct_prof_events *evs, size_t i) {
    int d = 0;
    for (int64_t p = evs->ev[i].parent; p >= 0; p = evs->ev[p].parent) d++;
    return d;
}

char *ct_profiler_tree(ct_profiler *p) {
    if (finalize(p) != 0) return NULL;
    if (p->recording) return ct_strdup(""); /* no events yet */
    ct_strbuf b = CT_STRBUF_INIT;
    /* events are stored in start order, parents before children: a preorder walk */
    for (size_t i = 0; i < p->evs.n; i++) {
        const ct_prof_event *e = &p->evs.ev[i];
        if (e->removed || e->memory_record) continue;
        for (int d = depth_of(&p->evs, i); d > 0; d--) ct_sb_puts(&b, "  ");
        ct_sb_puts(&b, e->name);
        if (e->input_shapes && strcmp(e->input_shapes, "[]") != 0) {
            ct_sb_puts(&b, "  ");
            ct_sb_puts(&b, e->input_shapes);
        }
        ct_sb_puts(&b, "\n");
    }
    return ct_sb_finish(&b);
}

/* ---- Chrome trace (Kineto's shape) ---- */

static double us(int64_t ns) { return (double)ns / 1000.0; }

static cJSON *parse_or_null(const char *json) { return json ? cJSON_Parse(json) : NULL; }

char *ct_profiler_chrome_trace(ct_profiler *p, const char *trace_name) {
    if (finalize(p) != 0) return NULL;
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
    if (finalize(p) != 0) return NULL;
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

/* ---- record_function: the profiler ops PyTorch 2.x dispatches ---- */

struct ct_record_function {
    void *range;
};

static _Thread_local struct {
    const char *file, *func;
    int line;
} tls_loc;

/* profiler::_record_function_enter_new(str name, str? args=None) -> _RecordFunction */
int ct_k_record_function_enter_new(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (args[0].tag != CT_TAG_STRING) return ct_error_set(CT_ERR_TYPE, "_record_function_enter_new(): argument 'name' must be str");
    ct_record_function *rf = ct_malloc(sizeof *rf);
    if (!rf) return -1;
    /* a location handed over by ct_record_function_enter_at on this thread, used once */
    const char *file = tls_loc.file, *func = tls_loc.func;
    int line = tls_loc.line;
    tls_loc.file = NULL;
    rf->range = ct_record_user_scope_begin(args[0].u.s, file, line, func);
    rets[0] = ct_object(rf);
    return 0;
}

/* profiler::_record_function_exit._RecordFunction(_RecordFunction _0) -> () */
int ct_k_record_function_exit(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    (void)rets;
    ct_record_function *rf = args[0].tag == CT_TAG_OBJECT ? args[0].u.obj : NULL;
    if (!rf) return ct_error_set(CT_ERR_TYPE, "_record_function_exit(): expected a _RecordFunction");
    ct_record_function_end(rf->range);
    ct_free(rf);
    return 0;
}

ct_record_function *ct_record_function_enter(const char *name) {
    if (!name) {
        ct_error_set(CT_ERR_VALUE, "record_function: name is NULL");
        return NULL;
    }
    return ct__record_function_enter_new(name, NULL);
}

ct_record_function *ct_record_function_enter_at(const char *name, const char *file, int line, const char *func) {
    if (!name) {
        ct_error_set(CT_ERR_VALUE, "record_function: name is NULL");
        return NULL;
    }
    tls_loc.file = file;
    tls_loc.line = line;
    tls_loc.func = func;
    ct_record_function *rf = ct__record_function_enter_new(name, NULL);
    tls_loc.file = NULL; /* when a mode handled the op without the kernel */
    return rf;
}

int ct_record_function_exit(ct_record_function *rf) {
    if (!rf) return ct_error_set(CT_ERR_VALUE, "record_function exit: handle is NULL");
    return ct__record_function_exit(rf);
}
