/* The profiler's events, built from the recorded ranges when the first report asks
 * (Note [Profiler recording] in record.c): times in nanoseconds, memory attributed, stacks. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ctorch/error.h"
#include "profiler/profiler_state.h"
#include "profiler/record.h"
#include "util/grow.h"
#include "util/strbuf.h"

static int cmp_mem(const void *a, const void *b) {
    const ct_prof_mem *x = a, *y = b;
    return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

/* profile_memory, as _parse_kineto_results attributes it: every event gets the bytes of the
 * memory records stamped within [start, end] (MemRecordsAcc.in_interval, bounds included) on
 * its thread (PyTorch records memory only on the threads it profiles, so matching by time
 * alone is the same there); records inside no event become "[memory]" events of their own, at
 * their time, without duration. */
static int attribute_memory(ct_profiler *p, double scale) {
    ct_prof_events *evs = &p->evs;
    size_t base = 0, extra = 0;
    for (ct_prof_thread *t = p->threads; t; t = t->next) extra += t->n_mem;
    if (extra == 0) return 0;
    ct_prof_event *ne = ct_realloc(evs->ev, (evs->n + extra) * sizeof *ne);
    if (!ne) return -1;
    evs->ev = ne;
    evs->cap = evs->n + extra;
    size_t n_events = evs->n;
    for (ct_prof_thread *t = p->threads; t; base += t->n_raw, t = t->next) {
        if (!t->n_mem) continue;
        qsort(t->mem, t->n_mem, sizeof *t->mem, cmp_mem);
        bool *used = ct_calloc(t->n_mem, sizeof *used);
        if (!used) return -1;
        int64_t *at = ct_malloc(t->n_mem * sizeof *at);
        if (!at) {
            ct_free(used);
            return -1;
        }
        for (size_t k = 0; k < t->n_mem; k++) at[k] = ct_prof_ticks_to_ns(p, scale, t->mem[k].ticks);
        for (size_t i = base; i < base + t->n_raw; i++) {
            ct_prof_event *e = &evs->ev[i];
            /* bisect_left on start, then forward to the end */
            size_t lo = 0, hi = t->n_mem;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (at[mid] < e->start_ns) lo = mid + 1;
                else hi = mid;
            }
            for (size_t k = lo; k < t->n_mem && at[k] <= e->end_ns; k++) {
                e->cpu_memory_usage += t->mem[k].bytes;
                used[k] = true;
            }
        }
        for (size_t k = 0; k < t->n_mem; k++) {
            if (used[k]) continue;
            ct_prof_event *m = &evs->ev[evs->n++];
            memset(m, 0, sizeof *m);
            m->name = (char *)"[memory]";
            m->start_ns = m->end_ns = at[k];
            m->parent = -1;
            m->thread_id = t->tid;
            m->sequence_nr = -1;
            m->cpu_memory_usage = t->mem[k].bytes;
            m->memory_record = true;
        }
        ct_free(used);
        ct_free(at);
    }
    (void)n_events;
    return 0;
}

/* "file(line): func" as PyTorch's stack entries read ("path.py(12): forward") */
static int build_stack(ct_prof_event *e, const ct_prof_frame *f) {
    size_t n = 0;
    for (const ct_prof_frame *g = f; g; g = g->up) n++;
    if (!n) return 0;
    e->stack = ct_malloc(n * sizeof *e->stack);
    if (!e->stack) return -1;
    for (const ct_prof_frame *g = f; g; g = g->up) e->stack[e->n_stack++] = g->text;
    return 0;
}

int ct_prof_build_events(ct_profiler *p) {
    ct_prof_events *evs = &p->evs;
    if (evs->ev) return 0;
    double scale = ct_prof_ns_per_tick(p); /* Note [Profiler clock] */
    size_t total = 0;
    for (ct_prof_thread *t = p->threads; t; t = t->next) total += t->n_raw;
    evs->ev = ct_calloc(total ? total : 1, sizeof *evs->ev);
    if (!evs->ev) return -1;
    evs->cap = total;
    /* threads one after another, each in start order (parents before children) */
    size_t i = 0;
    for (ct_prof_thread *t = p->threads; t; t = t->next) {
        size_t base = i;
        for (size_t k = 0; k < t->n_raw; k++, i++) {
            const ct_prof_raw *r = ct_prof_raw_at(t, k);
            ct_prof_event *e = &evs->ev[i];
            e->name = (char *)r->name;
            e->owns_name = false;
            e->start_ns = ct_prof_ticks_to_ns(p, scale, r->start_ns);
            e->end_ns = ct_prof_ticks_to_ns(p, scale, r->end_ns);
            e->parent = r->parent < 0 ? -1 : (int64_t)(base + (size_t)r->parent);
            e->thread_id = t->tid;
            e->scope = (ct_prof_scope)r->scope;
            e->sequence_nr = r->sequence_nr;
            e->fwd_thread_id = r->fwd_thread;
            e->has_inputs = r->has_inputs;
            e->raw_inputs = r->inputs;
            e->raw_len = r->inputs_len;
            evs->n = i + 1;
            if (r->frame && build_stack(e, r->frame) != 0) return -1;
        }
    }
    evs->n = total;
    if (p->cfg.profile_memory && attribute_memory(p, scale) != 0) return -1;
    return 0;
}
