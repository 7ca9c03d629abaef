/* The --seed argument of the seed scripts, read the way they read it: argparse's type=int turns
 * the text into a Python int, and torch.manual_seed / Generator.manual_seed take any int from
 * -2^63 to 2^64 - 1, a negative one as its 64-bit two's complement (PyTorch's unpack_uint64 in
 * torch/csrc/Generator.cpp: manual_seed(-1) seeds with 2^64 - 1). Shared by the ctorch program
 * and the example programs. */
#ifndef CT_EXAMPLE_SEED_ARG_H
#define CT_EXAMPLE_SEED_ARG_H

#include <stdbool.h>
#include <stdint.h>

/* A seed as the scripts hold it: the Python int (-2^63 .. 2^64 - 1). */
typedef struct ct_example_seed {
    uint64_t value; /* what manual_seed gives the generator (its initial_seed()): the int modulo 2^64 */
    bool negative;  /* the int is negative (then value = 2^64 + int) */
} ct_example_seed;

/* Longest text of a seed: "-9223372036854775808" or "18446744073709551615", and the NUL. */
#define CT_EXAMPLE_SEED_TEXT_MAX 22

/* Reads text as Python's int() does for argparse (ASCII whitespace around it, one optional
 * sign, decimal digits with single underscores between them; other Unicode digits and spaces
 * are not accepted), then checks the int as manual_seed does. Returns 0 with *seed set, or -1
 * with the thread's error:
 *   CT_ERR_VALUE    "invalid int value: 'TEXT'" (argparse's message after "argument --seed: ");
 *                   also for text NULL;
 *   CT_ERR_RUNTIME  "Overflow when unpacking long" (PyTorch's) for an int outside the range. */
int ct_example_seed_parse(const char *text, ct_example_seed *seed);

/* seed + k, the int a script computes before seeding again (the step's make_batch(seed + 1)).
 * Returns 0, or -1 with CT_ERR_RUNTIME "Overflow when unpacking long" when the sum is above
 * 2^64 - 1, as manual_seed would say. */
int ct_example_seed_add(ct_example_seed seed, uint64_t k, ct_example_seed *sum);

/* The int as Python prints it ("-1", "18446744073709551615") into buf (at least
 * CT_EXAMPLE_SEED_TEXT_MAX bytes). Returns buf. */
char *ct_example_seed_format(ct_example_seed seed, char *buf);

#endif
