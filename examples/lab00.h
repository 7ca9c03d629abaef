/* Lab 00 (tracing the dispatcher over linear(x, W, b)) as a C program. */
#ifndef CT_EXAMPLE_LAB00_H
#define CT_EXAMPLE_LAB00_H

#include <stdint.h>
#include <stdio.h>

/* Runs the lab with manual_seed(seed) and writes out_dir/trace.log, out_dir/REPORT.md and
 * out_dir/manifest.json (each replaced atomically; out_dir is created if missing). `command`
 * is the command line recorded in the manifest (may be NULL). Progress lines go to `progress`
 * (may be NULL). Returns 0; 2 when out_dir cannot be created or written (message on stderr
 * and in ct_error_message()); 1 when the lab itself fails. */
int ct_example_lab00(const char *out_dir, uint64_t seed, const char *command, FILE *progress);

/* The lab's work without the files: runs it with manual_seed(seed) and sets files[0..2] to the
 * texts of trace.log, REPORT.md and manifest.json (free() each), the report and manifest
 * dated `timestamp`. Progress lines go to `progress`, the step that failed to `errors` (either
 * may be NULL). Returns 0, or -1 with the thread's error set and every files[i] NULL. */
int ct_example_lab00_render(uint64_t seed, const char *command, const char *timestamp, FILE *progress,
                            FILE *errors, char *files[3]);

#endif
