/* Lab 00's linear(x, W, b) and the calls it is compared with, run under the choices a trace
 * is compared across: the call, the dtype, the grad mode, the seed, a dispatch mode pushed or
 * not, backward or not. `ctorch trace` runs them; the diff tests record them. */
#ifndef CT_EXAMPLE_LINEAR_VARIANTS_H
#define CT_EXAMPLE_LINEAR_VARIANTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ctorch/dtype.h"

typedef enum ct_example_call {
    CT_EXAMPLE_LINEAR,    /* linear(x, W, b) */
    CT_EXAMPLE_ADDMM,     /* addmm(b, x, W.T) */
    CT_EXAMPLE_MATMUL_ADD /* (x @ W.T) + b */
} ct_example_call;

typedef enum ct_example_grad_mode {
    CT_EXAMPLE_GRAD,          /* grad mode on (the default) */
    CT_EXAMPLE_NO_GRAD,       /* torch.no_grad() */
    CT_EXAMPLE_INFERENCE_MODE /* torch.inference_mode() */
} ct_example_grad_mode;

typedef struct ct_example_linear {
    ct_example_call call;
    ct_dtype dtype;          /* of x, W and b: float32, float16, bfloat16 or float64 */
    ct_example_grad_mode grad_mode;
    uint64_t seed;           /* torch.manual_seed before x, W, b are drawn */
    bool backward;           /* then y.sum().backward() (under grad mode only) */
    bool dispatch_mode;      /* with a pass-through dispatch mode pushed around the call */
} ct_example_linear;

/* The default: linear, float32, grad mode, seed 42, no backward, no mode. */
ct_example_linear ct_example_linear_defaults(void);
/* Names used on the command line and in trace headers: "linear", "addmm", "matmul_add";
 * "grad", "no_grad", "inference_mode". Parsers return 0, or -1 for an unknown name. */
const char *ct_example_call_name(ct_example_call c);
const char *ct_example_grad_mode_name(ct_example_grad_mode g);
int ct_example_call_parse(const char *s, ct_example_call *out);
int ct_example_grad_mode_parse(const char *s, ct_example_grad_mode *out);
/* "float32" etc.; -1 for a dtype these programs do not use. */
int ct_example_dtype_parse(const char *s, ct_dtype *out);

/* x = randn(2, 64), W = randn(600, 64), b = randn(600) after manual_seed(seed), each turned
 * into dtype and made to require grad (as Lab 00 does), then the call (phase "forward") and,
 * if asked, y.sum().backward() (phase "backward"), under the grad mode. Only the call and the
 * backward are observed: with trace_path, they are written to that trace file (header program
 * `program`, seed `seed`); with print_to, their full decision trace is printed there.
 * Returns 0, or -1 with the library's error set (a trace file that cannot be written
 * included). */
int ct_example_linear_run(const ct_example_linear *o, const char *trace_path, const char *program, FILE *print_to);

#endif
