/* ctorch keys / dump / ops / trace: look at the dispatcher. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ctorch/ctorch.h"

static void print_keys(const char *label, ct_tensor *t) {
    char buf[512];
    if (!t) {
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return;
    }
    ct_keyset_format(ct_tensor_keyset(t), buf, sizeof buf);
    printf("%-34s %s\n", label, buf);
}

int ct_cmd_keys(int argc, char **argv) {
    (void)argc;
    (void)argv;
    int64_t two = 2;
    ct_tensor *f32 = ct_empty(&two, 1, CT_FLOAT32, CT_MEMORY_FORMAT_NONE);
    ct_tensor *f16 = ct_empty(&two, 1, CT_FLOAT16, CT_MEMORY_FORMAT_NONE);
    ct_tensor *i64 = ct_empty(&two, 1, CT_INT64, CT_MEMORY_FORMAT_NONE);
    ct_tensor *bf16 = ct_empty(&two, 1, CT_BFLOAT16, CT_MEMORY_FORMAT_NONE);
    ct_tensor *f64 = ct_empty(&two, 1, CT_FLOAT64, CT_MEMORY_FORMAT_NONE);
    ct_tensor *b = ct_empty(&two, 1, CT_BOOL, CT_MEMORY_FORMAT_NONE);
    ct_tensor *view = f32 ? ct_t(f32) : NULL;
    printf("Dispatch key sets (torch._C._dispatch_keys):\n");
    print_keys("float32 empty(2):", f32);
    print_keys("float16 empty(2):", f16);
    print_keys("int64 empty(2):", i64);
    print_keys("bfloat16 empty(2):", bf16);
    print_keys("float64 empty(2):", f64);
    print_keys("bool empty(2):", b);
    print_keys("float32 view t():", view);
    char buf[512];
    ct_keyset_format(ct_tls_included(), buf, sizeof buf);
    printf("\nThread-local include set:          %s\n", buf);
    ct_keyset_format(ct_tls_excluded(), buf, sizeof buf);
    printf("Thread-local exclude set:          %s\n", buf);
    ct_tensor *all[] = {f32, f16, i64, bf16, f64, b, view};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_tensor_release(all[i]);
    return 0;
}

int ct_cmd_dump(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: ctorch dump OP   (e.g. ctorch dump aten::addmm)\n");
        return 2;
    }
    const ct_op *op = ct_op_find(argv[1]);
    if (!op) {
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    char *d = ct_op_dump(op), *t = ct_op_dump_table(op);
    if (!d || !t) {
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        ct_free(d);
        ct_free(t);
        return 1;
    }
    printf("%s\ncomputed dispatch table:\n%s", d, t);
    ct_free(d);
    ct_free(t);
    return 0;
}

int ct_cmd_ops(int argc, char **argv) {
    (void)argc;
    (void)argv;
    ct_op_find("aten::add.Tensor"); /* make sure the registry is up */
    for (int i = 0; i < ct_op_count(); i++) printf("%s\n", ct_op_schema(ct_op_at(i)));
    return 0;
}

int ct_cmd_trace(int argc, char **argv) {
    (void)argc;
    (void)argv;
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED);
    ct_tensor *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED);
    ct_tensor *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    if (!x || !w || !b) {
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    int level = ct_trace_print_level();
    ct_trace_set_stream(stdout);
    printf("# linear(x, W, b) with x 2x64, W 600x64, b 600 (decision trace, full form)\n");
    ct_trace_set_print(2);
    ct_tensor *y = ct_linear(x, w, b);
    ct_trace_set_print(level);
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_tensor_release(w);
    ct_tensor_release(b);
    return 0;
}
