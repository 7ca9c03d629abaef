/* The comparisons Lab 00's report makes between its run and PyTorch 2.6's recordings
 * (examples/lab00.c, Note [A report built from the run]): the backward graph's node names, the
 * random inputs' bits, the rows of a key_averages table. Each takes what the run made and what
 * the recording holds and says what is equal and what differs, in words the report prints. */
#ifndef CT_EXAMPLE_LAB00_CHECKS_H
#define CT_EXAMPLE_LAB00_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctorch/autograd.h"
#include "ctorch/json.h"

/* ---- the backward graph ---- */

#define CT_LAB_GRAPH_DEPTH 8

/* One edge of a backward graph walked depth first from y.grad_fn (the root is the edge with
 * an empty path): path[k] is the index into next_functions taken at depth k. */
typedef struct ct_lab_graph_entry {
    int path[CT_LAB_GRAPH_DEPTH];
    int depth;
    char name[96]; /* type(node).__name__, "" for a None edge */
} ct_lab_graph_entry;

typedef struct ct_lab_graph {
    ct_lab_graph_entry *e;
    size_t n;
} ct_lab_graph;

/* Walks root's graph (every edge, None ones included; no deeper than CT_LAB_GRAPH_DEPTH).
 * 0, or -1 with CT_ERR_NOMEM (g empty). */
int ct_lab_graph_walk(const ct_node *root, ct_lab_graph *g);
/* Reads the recording's "graph" list (tests/golden/record/lab00_report.py). 0, or -1 when it
 * is not that form or memory ran out (g empty). */
int ct_lab_graph_from_json(const cJSON *list, ct_lab_graph *g);
void ct_lab_graph_free(ct_lab_graph *g);

/* Compares two graphs node by node at the same path. *nodes counts the paths where either
 * graph has a node, *same those where both have one of the same name; diff receives the
 * others as a list ("`TransposeBackward0` at `grad_fn.next_functions[2][0]` where PyTorch has
 * `TBackward0`"), "" when there are none. */
void ct_lab_graph_compare(const ct_lab_graph *mine, const ct_lab_graph *ref, int *same, int *nodes, char *diff,
                          size_t size);

/* ---- the random inputs ---- */

/* The sum over i of (i + 1) * bits[i] modulo 2^64, bits the float32 bit patterns of t's
 * elements in row-major order (the recording's fingerprint of the inputs). false when t is
 * not float32 or its values cannot be read. */
bool ct_lab_bits_checksum(const ct_tensor *t, uint64_t *out);

/* ---- key_averages tables ---- */

typedef struct ct_lab_prof_row {
    char name[128];
    char calls[32];
    char shapes[256]; /* "" when the table has no Input Shapes column */
} ct_lab_prof_row;

typedef struct ct_lab_prof_table {
    char header[512]; /* the line of column titles, as printed (its widths follow the rows) */
    char titles[512]; /* the titles alone, "|"-separated: "Name|Self CPU %|...|# of Calls" */
    bool has_shapes;
    ct_lab_prof_row *rows;
    int n;
} ct_lab_prof_table;

/* Reads the first key_averages table in text at or after *pos (its rule, titles, rule, rows,
 * rule) and moves *pos past it. 1 when a table was read, 0 when there is none, -1 when memory
 * ran out. */
int ct_lab_prof_table_read(const char **pos, ct_lab_prof_table *t);
void ct_lab_prof_table_free(ct_lab_prof_table *t);

/* Looks up each of ref's rows in mine (by name, and by input shapes when ref has them) and
 * compares the number of calls. *same counts ref's rows found with the same count; diff
 * receives the others ("`aten::t` 3 calls (PyTorch 5)", "`aten::sum` [[2, 600], []] (not in
 * ctorch's table)"). */
void ct_lab_prof_compare(const ct_lab_prof_table *mine, const ct_lab_prof_table *ref, int *same, char *diff,
                         size_t size);

#endif
