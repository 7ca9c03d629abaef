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
/* Where the project's own recordings of PyTorch 2.6 are (tests/golden/torch-2.6 of the
 * sources: lab00_report.json, linear's backward graph and the inputs' bits); "" if the build
 * was not told. ct_example_lab00 and ct_example_lab00_on read them whenever reference_dir is
 * given. */
const char *ct_example_lab00_default_recordings(void);
/* ct_example_lab00; with own_generator, x, W and b are drawn from a generator of the lab's own seeded
 * with seed (the same numbers) and the process-wide default generator is left alone, so that
 * threads can run the lab at once. */
int ct_example_lab00_on(const char *out_dir, uint64_t seed, bool own_generator, const char *command,
                        const char *reference_dir, FILE *progress);

/* The lab's work without the files: runs it with manual_seed(seed) and sets files[0..2] to the
 * texts of trace.log, REPORT.md and manifest.json (free() each), the report and manifest
 * dated `timestamp`. Progress lines go to `progress`, the step that failed to `errors` (either
 * may be NULL). Returns 0, or -1 with the thread's error set and every files[i] NULL. */
int ct_example_lab00_render(uint64_t seed, const char *command, const char *timestamp, FILE *progress,
                            FILE *errors, char *files[3]);

/* Everything a run of the lab can be told. */
typedef struct ct_example_lab00_options {
    const char *out_dir;       /* the folder to write (created if missing) */
    uint64_t seed;
    bool own_generator;        /* as ct_example_lab00_on */
    const char *command;       /* recorded in the manifest (may be NULL) */
    const char *reference_dir; /* PyTorch's recordings (may be NULL) */
    const char *timestamp;     /* the report's and manifest's date; NULL: now (UTC) */
    bool draw_svg;             /* render linear_graph.svg with Graphviz when it is installed */
    FILE *progress;            /* progress lines (may be NULL) */
    FILE *errors;              /* what failed (may be NULL) */
    const char *recordings_dir; /* the project's recordings (lab00_report.json; may be NULL: not compared) */
} ct_example_lab00_options;
/* ct_example_lab00 with every option; the same return values. A failed run leaves out_dir as
 * it was (no new file, no staging folder). */
int ct_example_lab00_run(const ct_example_lab00_options *opt);

#endif
