/* Lab 00 (tracing the dispatcher over linear(x, W, b)) as a C program. */
#ifndef CT_EXAMPLE_LAB00_H
#define CT_EXAMPLE_LAB00_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Runs the lab with manual_seed(seed) and writes into out_dir (created if missing): REPORT.md,
 * trace.log and manifest.json, the trace files linear.jsonl and
 * addmm.jsonl (Parts A and D), trace.json and stacks.txt (Part E's Chrome trace and its
 * collapsed stacks for a flame graph), linear_graph.dot and, when Graphviz's dot program is
 * installed, linear_graph.svg; manifest.json lists what was written. The files are
 * written into a staging folder inside out_dir and replace their namesakes together, or none does.
 * `command` is the command line recorded in the manifest (may be NULL). `reference_dir` is the
 * folder holding PyTorch 2.6's recordings of the lab (lab00.out, key_sets_and_modes.out), read
 * and compared while the report is written; NULL or a folder without them leaves the
 * comparisons out (the report says so). Progress lines go to `progress` (may be NULL). Returns
 * 0; 2 when out_dir cannot be created or written (message on stderr); 1 when the lab itself
 * fails. */
int ct_example_lab00(const char *out_dir, uint64_t seed, const char *command, const char *reference_dir, FILE *progress);
/* Where the build found PyTorch's recordings (../shared/reference/torch-2.6 beside the
 * sources); "" if it was not told. */
const char *ct_example_lab00_default_reference(void);
/* ct_example_lab00; with own_generator, x, W and b are drawn from a generator of the lab's own seeded
 * with seed (the same numbers) and the process-wide default generator is left alone, so that
 * threads can run the lab at once. */
int ct_example_lab00_on(const char *out_dir, uint64_t seed, bool own_generator, const char *command,
                        const char *reference_dir, FILE *progress);

#endif
