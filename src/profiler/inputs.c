/* The profiler's record_shapes inputs: a compact copy of each range's inputs into the
 * recording thread's arena (sizes, strides and values as raw bytes, Note [Profiler cost] in
 * record.c), turned into the strings PyTorch's profiler shows only when a report is read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "profiler/profiler_state.h"
#include "util/strbuf.h"

/* ---- input formatting (record_shapes) ---- */

/* Python's repr of a float as PyTorch's "Concrete Inputs" shows it */
static void put_double(ct_strbuf *b, double d) {
    char num[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(num, sizeof num, "%.*g", prec, d);
        if (strtod(num, NULL) == d) break;
    }
    if (!strpbrk(num, ".eni")) strcat(num, ".0");
    ct_sb_puts(b, num);
}

/* ---- recording inputs: a compact copy now, strings at report time (Note [Profiler cost]) ---- */

enum { RAW_TENSOR = 1, RAW_INT, RAW_DOUBLE, RAW_BOOL, RAW_LIST, RAW_STRING, RAW_OTHER, RAW_TENSORLIST };
#define RAW_MAX_LIST 64

unsigned char *ct_prof_arena_take(ct_prof_thread *t, size_t n) {
    ct_prof_chunk *c = t->arena;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 60000 ? n : 60000;
        ct_prof_chunk *nc = ct_malloc(sizeof *nc + cap);
        if (!nc) return NULL;
        nc->next = c;
        nc->used = 0;
        nc->cap = cap;
        t->arena = c = nc;
    }
    unsigned char *r = c->data + c->used;
    c->used += n;
    return r;
}

static size_t raw_size(const ct_value *in, int n) {
    size_t sz = 0;
    for (int i = 0; i < n; i++) {
        sz += 1;
        switch (in[i].tag) {
        case CT_TAG_TENSOR: sz += 2 + 16 * (size_t)in[i].u.t->ndim; break;
        case CT_TAG_INT:
        case CT_TAG_DOUBLE: sz += 8; break;
        case CT_TAG_BOOL: sz += 1; break;
        case CT_TAG_INTLIST: sz += 8 + 8 * (size_t)(in[i].u.list.len < RAW_MAX_LIST ? in[i].u.list.len : RAW_MAX_LIST); break;
        case CT_TAG_TENSORLIST: {
            sz += 8;
            for (int64_t k = 0; k < in[i].u.tlist.len && k < RAW_MAX_LIST; k++) sz += 1 + (in[i].u.tlist.items[k] ? 16 * (size_t)in[i].u.tlist.items[k]->ndim : 0);
            break;
        }
        default: break;
        }
    }
    return sz;
}

void ct_prof_record_inputs(ct_prof_thread *t, ct_prof_raw *e, const ct_value *in, int n) {
    size_t sz = raw_size(in, n);
    unsigned char *w = ct_prof_arena_take(t, sz ? sz : 1);
    if (!w) { /* out of memory: the recording is incomplete (ct_profiler_stop says so) */
        atomic_fetch_add_explicit(&t->lost, 1, memory_order_relaxed);
        return;
    }
    e->inputs = w;
    e->inputs_len = (uint32_t)sz;
    e->has_inputs = true;
    for (int i = 0; i < n; i++) {
        const ct_value *v = &in[i];
        switch (v->tag) {
        case CT_TAG_TENSOR: {
            const ct_tensor *x = v->u.t;
            *w++ = RAW_TENSOR;
            *w++ = (unsigned char)x->dtype;
            *w++ = (unsigned char)x->ndim;
            memcpy(w, x->sizes, 8 * (size_t)x->ndim);
            w += 8 * (size_t)x->ndim;
            memcpy(w, x->strides, 8 * (size_t)x->ndim);
            w += 8 * (size_t)x->ndim;
            break;
        }
        case CT_TAG_INT: *w++ = RAW_INT; memcpy(w, &v->u.i, 8); w += 8; break;
        case CT_TAG_DOUBLE: *w++ = RAW_DOUBLE; memcpy(w, &v->u.d, 8); w += 8; break;
        case CT_TAG_BOOL: *w++ = RAW_BOOL; *w++ = v->u.b; break;
        case CT_TAG_INTLIST: {
            int64_t len = v->u.list.len < RAW_MAX_LIST ? v->u.list.len : RAW_MAX_LIST;
            *w++ = RAW_LIST;
            memcpy(w, &len, 8);
            w += 8;
            memcpy(w, v->u.list.data, 8 * (size_t)len);
            w += 8 * (size_t)len;
            break;
        }
        case CT_TAG_TENSORLIST: { /* each element's sizes and strides */
            int64_t len = v->u.tlist.len < RAW_MAX_LIST ? v->u.tlist.len : RAW_MAX_LIST;
            *w++ = RAW_TENSORLIST;
            memcpy(w, &len, 8);
            w += 8;
            for (int64_t k = 0; k < len; k++) {
                const ct_tensor *x = v->u.tlist.items[k];
                if (!x) { /* a None item of a Tensor?[] */
                    *w++ = 0;
                    continue;
                }
                *w++ = (unsigned char)x->ndim;
                memcpy(w, x->sizes, 8 * (size_t)x->ndim);
                w += 8 * (size_t)x->ndim;
                memcpy(w, x->strides, 8 * (size_t)x->ndim);
                w += 8 * (size_t)x->ndim;
            }
            break;
        }
        case CT_TAG_STRING: *w++ = RAW_STRING; break;
        default: *w++ = RAW_OTHER; break;
        }
    }
}

static void put_raw_list(ct_strbuf *b, const unsigned char *r, int64_t n) {
    char num[32];
    ct_sb_puts(b, "[");
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        memcpy(&v, r + 8 * i, 8);
        snprintf(num, sizeof num, "%s%" PRId64, i ? ", " : "", v);
        ct_sb_puts(b, num);
    }
    ct_sb_puts(b, "]");
}

/* the strings PyTorch's profiler shows: Input Shapes / Input Dims, Input type, Input Strides,
 * Concrete Inputs */
static int format_raw(ct_prof_event *e) {
    ct_strbuf shapes = CT_STRBUF_INIT, types = CT_STRBUF_INIT, strides = CT_STRBUF_INIT, concrete = CT_STRBUF_INIT;
    ct_sb_puts(&shapes, "[");
    ct_sb_puts(&types, "[");
    ct_sb_puts(&strides, "[");
    ct_sb_puts(&concrete, "[");
    const unsigned char *r = e->raw_inputs, *end = r + e->raw_len;
    for (int i = 0; r < end; i++) {
        const char *sep = i ? ", " : "";
        ct_sb_puts(&shapes, sep);
        ct_sb_puts(&types, sep);
        ct_sb_puts(&strides, sep);
        ct_sb_puts(&concrete, sep);
        int tag = *r++;
        switch (tag) {
        case RAW_TENSOR: {
            ct_dtype dt = (ct_dtype)(signed char)*r++;
            int nd = *r++;
            put_raw_list(&shapes, r, nd);
            put_raw_list(&strides, r + 8 * nd, nd);
            r += 16 * (size_t)nd;
            ct_sb_puts(&types, "\"");
            ct_sb_puts(&types, ct_dtype_type_meta_name(dt));
            ct_sb_puts(&types, "\"");
            ct_sb_puts(&concrete, "\"\"");
            break;
        }
        case RAW_INT:
        case RAW_DOUBLE:
        case RAW_BOOL: {
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, "\"Scalar\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"");
            char num[32];
            if (tag == RAW_INT) {
                int64_t v;
                memcpy(&v, r, 8);
                r += 8;
                snprintf(num, sizeof num, "%" PRId64, v);
                ct_sb_puts(&concrete, num);
            } else if (tag == RAW_BOOL) {
                ct_sb_puts(&concrete, *r++ ? "True" : "False");
            } else {
                double d;
                memcpy(&d, r, 8);
                r += 8;
                put_double(&concrete, d);
            }
            ct_sb_puts(&concrete, "\"");
            break;
        }
        case RAW_LIST: {
            int64_t len;
            memcpy(&len, r, 8);
            r += 8;
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, "\"ScalarList\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"");
            put_raw_list(&concrete, r, len);
            ct_sb_puts(&concrete, "\"");
            r += 8 * (size_t)len;
            break;
        }
        case RAW_TENSORLIST: { /* as PyTorch shows a TensorList: a list of shapes / strides */
            int64_t len;
            memcpy(&len, r, 8);
            r += 8;
            ct_sb_puts(&shapes, "[");
            ct_sb_puts(&strides, "[");
            for (int64_t k = 0; k < len; k++) {
                int nd = *r++;
                if (k) {
                    ct_sb_puts(&shapes, ", ");
                    ct_sb_puts(&strides, ", ");
                }
                put_raw_list(&shapes, r, nd);
                put_raw_list(&strides, r + 8 * nd, nd);
                r += 16 * (size_t)nd;
            }
            ct_sb_puts(&shapes, "]");
            ct_sb_puts(&strides, "]");
            ct_sb_puts(&types, "\"TensorList\"");
            ct_sb_puts(&concrete, "\"\"");
            break;
        }
        default:
            ct_sb_puts(&shapes, "[]");
            ct_sb_puts(&types, tag == RAW_STRING ? "\"String\"" : "\"\"");
            ct_sb_puts(&strides, "[]");
            ct_sb_puts(&concrete, "\"\"");
            break;
        }
    }
    ct_sb_puts(&shapes, "]");
    ct_sb_puts(&types, "]");
    ct_sb_puts(&strides, "]");
    ct_sb_puts(&concrete, "]");
    e->input_shapes = ct_sb_finish(&shapes);
    e->input_types = ct_sb_finish(&types);
    e->input_strides = ct_sb_finish(&strides);
    e->concrete_inputs = ct_sb_finish(&concrete);
    if (!e->input_shapes || !e->input_types || !e->input_strides || !e->concrete_inputs) {
        /* all four or none: a later report formats them again from the start */
        char **all[4] = {&e->input_shapes, &e->input_types, &e->input_strides, &e->concrete_inputs};
        for (int i = 0; i < 4; i++) {
            ct_free(*all[i]);
            *all[i] = NULL;
        }
        return -1;
    }
    return 0;
}

int ct_prof_format_inputs(ct_profiler *p) {
    for (size_t i = 0; i < p->evs.n; i++) {
        ct_prof_event *e = &p->evs.ev[i];
        if (e->has_inputs && !e->input_shapes && format_raw(e) != 0)
            return ct_error_set(CT_ERR_NOMEM, "profiler: out of memory formatting inputs");
    }
    return 0;
}
