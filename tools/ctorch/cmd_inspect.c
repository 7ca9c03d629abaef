/* ctorch keys / dump / ops: look at the dispatcher. */
#include <getopt.h>
#include <stdbool.h>
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

/* After a name that is no operator: the overloads its base name has (aten::add ->
 * aten::add.Tensor, aten::add.Scalar), so that the right name can be typed next. */
static void print_overloads(const char *name) {
    /* a name without a namespace is looked for in aten:: */
    char full[256];
    snprintf(full, sizeof full, "%s%s", strstr(name, "::") ? "" : "aten::", name);
    const char *dot = strchr(strstr(full, "::") + 2, '.');
    size_t base = dot ? (size_t)(dot - full) : strlen(full);
    int n = 0;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        const char *b = ct_op_base_name(op);
        if (strlen(b) != base || strncmp(b, full, base) != 0) continue;
        fprintf(stderr, "%s%s", n++ ? ", " : " The operators of that name are: ", ct_op_name(op));
    }
    if (!n) fprintf(stderr, " No operator has that name ('ctorch ops' lists them all).");
}

static int run_dump(const ct_command *self, int argc, char **argv) {
    int rc = ct_cli_parse_plain(self, argc, argv, 1);
    if (rc != CT_CLI_GO_ON) return rc;
    if (optind == argc) return ct_cli_usage_error(self, "which operator? (e.g. ctorch dump aten::addmm)");
    const ct_op *op = ct_op_find(argv[optind]);
    if (!op) {
        fprintf(stderr, "ctorch dump: %s", ct_error_message());
        print_overloads(argv[optind]);
        fprintf(stderr, "\n");
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

/* What an op's own table runs at the keys a CPU tensor meets (backend fallbacks and
 * fallthroughs left out), as text. */
static void print_kernel_keys(const ct_op *op) {
    static const ct_dispatch_key keys[] = {CT_KEY_CPU, CT_KEY_AutogradCPU, CT_KEY_ADInplaceOrView, CT_KEY_BackendSelect,
                                           CT_KEY_AutocastCPU, CT_KEY_Python};
    int n = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ct_slot_info si = ct_op_slot(op, keys[i]);
        if (si.kind == CT_SLOT_MISSING || si.kind == CT_SLOT_FALLBACK || si.fallthrough) continue;
        printf("%s%s: %s", n++ ? "; " : "", ct_key_name(keys[i]), ct_slot_kind_name(si.kind));
    }
    if (!n) printf("-");
}

static int run_ops(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION, {"markdown", no_argument, NULL, 'm'}, {0, 0, 0, 0}};
    bool markdown = false;
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":hm", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'm': markdown = true; break;
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    ct_op_find("aten::add.Tensor"); /* make sure the registry is up */
    if (!markdown) {
        for (int i = 0; i < ct_op_count(); i++) printf("%s\n", ct_op_schema(ct_op_at(i)));
        return 0;
    }
    printf("# Operators\n\n"
           "Generated from ctorch's operator table by `ctorch ops --markdown` (a test checks that this file is\n"
           "what the command prints today). %d operators, in the order they are defined. For each: its name\n"
           "as a dispatch mode sees it, its schema (PyTorch 2.6's, from `src/ops/ops.def`), and what the\n"
           "dispatch table runs at the keys a CPU tensor meets (`ctorch dump OP` shows the whole table).\n\n",
           ct_op_count());
    printf("| operator | Python name | schema | kernels |\n|---|---|---|---|\n");
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        printf("| `%s` | `%s` | `", ct_op_name(op), ct_op_python_name(op));
        for (const char *p = ct_op_schema(op); *p; p++) {
            if (*p == '|') fputs("\\|", stdout);
            else putchar(*p);
        }
        printf("` | ");
        print_kernel_keys(op);
        printf(" |\n");
    }
    return 0;
}

const ct_command ct_cmd_ops = {
    "ops", "[--markdown]", "list every operator",
    "Prints the schema of every operator, one per line, in the order they were defined.\n"
    "\noptions:\n"
    "  --markdown           a Markdown table instead (docs/ops.md): name, Python name,\n"
    "                       schema and what runs at the CPU tensor's keys\n"
    "  -h, --help           show this help and exit\n",
    run_ops};
