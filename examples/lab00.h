/* Lab 00 (tracing the dispatcher over linear(x, W, b)) as a C program. */
#ifndef CT_EXAMPLE_LAB00_H
#define CT_EXAMPLE_LAB00_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Runs the lab with manual_seed(seed) and writes out_dir/trace.log, out_dir/REPORT.md and
 * out_dir/manifest.json (each replaced atomically; out_dir is created if missing). `command`
 * is the command line recorded in the manifest (may be NULL). Progress lines go to `progress`
 * (may be NULL). Returns 0; 2 when out_dir cannot be created or written (message on stderr
 * and in ct_error_message()); 1 when the lab itself fails. */
int ct_example_lab00(const char *out_dir, uint64_t seed, const char *command, FILE *progress);
/* The same; with own_generator, x, W and b are drawn from a generator of the lab's own seeded
 * with seed (the same numbers) and the process-wide default generator is left alone, so that
 * threads can run the lab at once. */
int ct_example_lab00_on(const char *out_dir, uint64_t seed, bool own_generator, const char *command, FILE *progress);

#endif
