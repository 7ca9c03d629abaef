/* N typed adds of two 1-element tensors, for counting instructions per call:
 *
 *   valgrind --tool=callgrind build/bench/bench_typed_add_loop 0
 *   valgrind --tool=callgrind build/bench/bench_typed_add_loop 100000
 *
 * (the difference of the two totals, divided by N, is the cost of one ct_add: wrapper,
 * dispatcher, autograd-key hop, kernel, result allocation and release). Prints the sum of the
 * results so that the loop cannot be dropped. */
#include <stdio.h>
#include <stdlib.h>

#include "ctorch/ctorch.h"

int main(int argc, char **argv) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    int64_t one = 1;
    double va = 1.5, vb = 2.0, sum = 0;
    ct_tensor *a = ct_tensor_from_doubles(&va, &one, 1, CT_FLOAT32);
    ct_tensor *b = ct_tensor_from_doubles(&vb, &one, 1, CT_FLOAT32);
    if (!a || !b) return 1;
    /* one call before counting starts: builds the registry */
    ct_tensor_release(ct_add(a, b, ct_int(1)));
    for (long i = 0; i < n; i++) {
        ct_tensor *r = ct_add(a, b, ct_int(1));
        if (!r) return 1;
        sum += *(const float *)ct_tensor_data_ptr(r);
        ct_tensor_release(r);
    }
    printf("%ld adds, sum %.1f\n", n, sum);
    ct_tensor_release(a);
    ct_tensor_release(b);
    return 0;
}
