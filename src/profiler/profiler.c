/* The profiler object: start/stop, its events and the event tree, and the key_averages reports
 * (the Chrome trace, the stacks and record_function are in files of their own). */
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
int ct_prof_finalize(ct_profiler *p) {
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
    if (ct_prof_finalize(p) != 0 || p->recording) return 0;
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
    if (ct_prof_finalize(p) != 0) return -1;
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
    if (ct_prof_finalize(p) != 0) return NULL;
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
    if (ct_prof_finalize(p) != 0) return NULL;
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
