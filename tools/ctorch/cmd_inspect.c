/* ctorch keys / dump / ops / trace: look at the dispatcher. */
#include <getopt.h>
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

static int run_keys(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 0);
    if (rc != CT_CLI_GO_ON) return rc;
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

const ct_command ct_cmd_keys = {
    "keys", "", "print the dispatch key sets of sample tensors (float32, float16, int64, ...)",
    "Prints the dispatch key set of an empty tensor of each dtype and of a view, as\n"
    "torch._C._dispatch_keys prints them, and the thread-local include and exclude sets.\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_keys};

static int run_dump(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 1);
    if (rc != CT_CLI_GO_ON) return rc;
    if (optind == argc) return ct_cli_usage_error(self, "which operator? (e.g. ctorch dump aten::addmm)");
    const ct_op *op = ct_op_find(argv[optind]);
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

const ct_command ct_cmd_dump = {
    "dump", "OP", "print an operator's schema, registrations and computed dispatch table\n"
    "                       (like torch._C._dispatch_dump / _dispatch_dump_table), e.g. aten::addmm",
    "Prints the schema of the operator OP (a name with its overload, e.g. aten::addmm or\n"
    "aten::add.Tensor), the kernels registered for it and where, and the dispatch table computed\n"
    "from them, as torch._C._dispatch_dump and _dispatch_dump_table print them.\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_dump};

static int run_ops(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 0);
    if (rc != CT_CLI_GO_ON) return rc;
    ct_op_find("aten::add.Tensor"); /* make sure the registry is up */
    for (int i = 0; i < ct_op_count(); i++) printf("%s\n", ct_op_schema(ct_op_at(i)));
    return 0;
}

const ct_command ct_cmd_ops = {
    "ops", "", "list every operator",
    "Prints the schema of every operator, one per line, in the order they were defined.\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_ops};

static int run_trace(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 0);
    if (rc != CT_CLI_GO_ON) return rc;
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

const ct_command ct_cmd_trace = {
    "trace", "", "run linear(x, W, b) with the full decision trace on",
    "Runs linear(x, W, b) on x 2x64, W 600x64, b 600 (torch.manual_seed(42), randn) with the\n"
    "dispatcher's decision trace printed in full: for every hop each argument's key set, the\n"
    "thread-local include and exclude sets, the merged set, the winning key and the kernel.\n"
    "\noptions:\n"
    "  -h, --help           show this help and exit\n",
    run_trace};
