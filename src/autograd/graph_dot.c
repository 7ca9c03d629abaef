/* The backward graph as Graphviz DOT (ct_autograd_graph_dot), drawn the way torchviz's make_dot
 * draws PyTorch's: the output tensor, the nodes by name, AccumulateGrad leaves with shapes,
 * saved tensors if asked. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "autograd/node.h"
#include "core/alloc.h"
#include "ctorch/error.h"
#include "util/grow.h"
#include "util/hindex.h"
#include "util/strbuf.h"

typedef struct seen {
    const void **ptr; /* by id */
    size_t n, cap;
    ct_hindex ix;     /* pointer -> id */
    bool failed;
} seen;

static uint64_t seen_hash(const void *ctx, uint32_t i) { return ct_hash_ptr(((const void *const *)ctx)[i]); }

/* the id of p ("n3"), numbering it on first sight; *first tells whether it was new */
static size_t node_id(seen *s, const void *p, bool *first) {
    *first = false;
    if (ct_grow(s->ptr, s->cap, s->n + 1, 32) != 0 || ct_hindex_reserve(&s->ix, s->n + 1, seen_hash, s->ptr) != 0) {
        s->failed = true;
        return 0;
    }
    size_t slot = ct_hindex_first(&s->ix, ct_hash_ptr(p));
    for (uint32_t e; (e = s->ix.slots[slot]) != 0; slot = ct_hindex_next(&s->ix, slot))
        if (s->ptr[e - 1] == p) return e - 1;
    *first = true;
    s->ptr[s->n] = p;
    ct_hindex_put(&s->ix, slot, s->n);
    return s->n++;
}

/* "(600, 64)", as torchviz's size_to_str */
static void shape(ct_strbuf *b, const int64_t *sizes, int ndim) {
    ct_sb_puts(b, "(");
    for (int i = 0; i < ndim; i++) ct_sb_printf(b, "%s%" PRId64, i ? ", " : "", sizes[i]);
    ct_sb_puts(b, ")");
}

static const char *name_of(const ct_graph_dot_options *o, const ct_tensor *t) {
    for (size_t i = 0; o && o->tensors && o->names && i < o->n_names; i++)
        if (o->tensors[i] == t && o->names[i]) return o->names[i];
    return NULL;
}

/* a DOT string literal's body (names come from the caller) */
static void quoted(ct_strbuf *b, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') ct_sb_write(b, "\\", 1);
        ct_sb_write(b, s, 1);
    }
}

/* a tensor's box: its name (the caller's, else `fallback`) over its shape; a saved tensor is
 * named by what the node calls it ("mat1"), as torchviz does */
static void tensor_node(ct_strbuf *b, size_t id, const ct_graph_dot_options *o, const ct_tensor *t, const char *fallback,
                        const char *color, bool saved) {
    const char *name = saved ? NULL : name_of(o, t);
    ct_sb_printf(b, "\tn%zu [label=\"", id);
    quoted(b, name ? name : fallback);
    ct_sb_puts(b, "\\n ");
    shape(b, t->sizes, t->ndim);
    ct_sb_printf(b, "\" fillcolor=%s]\n", color);
}

static void saved_nodes(ct_strbuf *b, seen *s, const ct_node *n, size_t nid, const ct_graph_dot_options *o) {
    for (int k = 0; k < CT_MAX_OP_ARGS + CT_MAX_OP_RETS; k++) {
        const ct_saved_var *sv = k < CT_MAX_OP_ARGS ? &n->saved_args[k] : &n->saved_rets[k - CT_MAX_OP_ARGS];
        if (!sv->defined || !sv->data) continue; /* None, or freed by a backward without retain_graph */
        const char *nm = k < CT_MAX_OP_ARGS ? (n->op && k < n->op->nargs ? n->op->args[k].name : "?") : "result";
        bool first;
        size_t id = node_id(s, sv, &first);
        if (!first) continue;
        tensor_node(b, id, o, sv->data, nm, "orange", true);
        ct_sb_printf(b, "\tn%zu -> n%zu [dir=none]\n", id, nid);
    }
}

static void add_nodes(ct_strbuf *b, seen *s, const ct_node *n, const ct_graph_dot_options *o) {
    /* iterative, so long chains do not use the C stack */
    const ct_node **stack = NULL;
    size_t sn = 0, scap = 0;
    bool first;
    const ct_node *cur = n;
    for (;;) {
        size_t id = node_id(s, cur, &first);
        if (cur->variable) {
            size_t vid = node_id(s, cur->variable, &first);
            if (first) tensor_node(b, vid, o, cur->variable, "", "lightblue", false);
            ct_sb_printf(b, "\tn%zu -> n%zu\n", vid, id);
        }
        ct_sb_printf(b, "\tn%zu [label=\"%s", id, cur->py_name);
        if (o && o->show_seq && cur->sequence_nr != UINT64_MAX) ct_sb_printf(b, "\\nseq %" PRIu64, cur->sequence_nr);
        ct_sb_puts(b, "\"]\n");
        if (o && o->show_saved) saved_nodes(b, s, cur, id, o);
        for (int i = 0; i < cur->n_next; i++) {
            const ct_node *nx = cur->next[i].fn;
            if (!nx) continue;
            size_t nid = node_id(s, nx, &first);
            ct_sb_printf(b, "\tn%zu -> n%zu\n", nid, id);
            if (!first) continue;
            if (ct_grow(stack, scap, sn + 1, 32) != 0) {
                s->failed = true;
                break;
            }
            stack[sn++] = nx;
        }
        if (sn == 0 || s->failed) break;
        cur = stack[--sn];
    }
    ct_free(stack);
}

char *ct_autograd_graph_dot(const ct_tensor *t, const ct_graph_dot_options *opts) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_autograd_graph_dot: tensor is NULL");
        return NULL;
    }
    const ct_node *fn = t->autograd ? t->autograd->grad_fn : NULL;
    if (!fn) {
        ct_error_set(CT_ERR_VALUE, "ct_autograd_graph_dot: the tensor has no grad_fn");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    seen s = {NULL, 0, 0, {0}, false};
    ct_sb_puts(&b, "digraph {\n"
                   "\tgraph [size=\"12,12\"]\n"
                   "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]\n");
    bool first;
    size_t out = node_id(&s, t, &first);
    tensor_node(&b, out, opts, t, "", "darkolivegreen1", false);
    add_nodes(&b, &s, fn, opts);
    size_t fid = node_id(&s, fn, &first);
    ct_sb_printf(&b, "\tn%zu -> n%zu\n", fid, out);
    ct_sb_puts(&b, "}\n");
    ct_free(s.ptr);
    ct_hindex_free(&s.ix);
    if (s.failed) {
        ct_free(ct_sb_finish(&b));
        ct_error_set(CT_ERR_NOMEM, "ct_autograd_graph_dot: out of memory");
        return NULL;
    }
    return ct_sb_finish(&b);
}
