/* Lab 00's report follows the run (Note [A report built from the run] in examples/lab00.c).
 *
 * The lab runs once per variant, each in a child process so that a registration cannot leak
 * into the next run:
 *   - as shipped (the baseline the others are compared with);
 *   - with a user kernel registered for aten::linear at CompositeImplicitAutograd that
 *     decomposes it into t + mm + add, as a copy of the lab with linear's fused path disabled
 *     would: the report must name t, mm and add, AddBackward0, and must not keep the claims
 *     about addmm;
 *   - the same with the bias added in place (t + mm + add_): the node's op then runs through
 *     ADInplaceOrView before its CPU kernel, and the report must name the CPU kernel, the end
 *     of that route, as the one that computed the output;
 *   - with a user kernel for aten::t at AutogradCPU that calls transpose(0, 1), so that the
 *     node between y.grad_fn and W's AccumulateGrad is TransposeBackward0 where PyTorch has
 *     TBackward0: the graph's names must be reported as 4 of 5 PyTorch's, naming the one that
 *     differs, and the Versions line must stop claiming PyTorch's node names;
 *   - with a user kernel for aten::empty.memory_format at BackendSelect that makes float16
 *     tensors inside inference mode, so that torch.empty(1, dtype=torch.float16) lacks
 *     ADInplaceOrView and AutogradCPU: every sentence saying float16's key set is float32's
 *     (or PyTorch's) must give way to one naming the missing keys;
 *   - with the thread's exclude set changed through the public API (ADInplaceOrView excluded):
 *     Part B must report the thread-local sets differing from PyTorch's recording, and the
 *     decision traces must lose their ADInplaceOrView hops;
 *   - with no recording of PyTorch: the report says it compares with nothing;
 *   - with seed 7, not the recordings' 42: the inputs and y's values are not compared, the rest is.
 * Each check looks for text that only the run's own facts produce. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "lab00.h"

/* linear(input, weight, bias) = add(mm(input, t(weight)), bias) */
static int linear_t_mm_add(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *wt = ct_t(args[1].u.t);
    ct_tensor *m = wt ? ct_mm(args[0].u.t, wt) : NULL;
    ct_tensor *y = m;
    if (m && args[2].tag == CT_TAG_TENSOR) {
        y = ct_add(m, args[2].u.t, ct_int(1));
        ct_tensor_release(m);
    }
    ct_tensor_release(wt);
    rets[0] = ct_tensor_value(y);
    return y ? 0 : -1;
}

/* linear(input, weight, bias) = mm(input, t(weight)).add_(bias) */
static int linear_t_mm_add_(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *wt = ct_t(args[1].u.t);
    ct_tensor *m = wt ? ct_mm(args[0].u.t, wt) : NULL;
    ct_tensor_release(wt);
    if (m && args[2].tag == CT_TAG_TENSOR && ct_add_(m, args[2].u.t, ct_int(1)) != 0) {
        ct_tensor_release(m);
        m = NULL;
    }
    rets[0] = ct_tensor_value(m);
    return m ? 0 : -1;
}

/* t(self) at AutogradCPU as transpose(self, 0, 1): the same values, recorded as
 * TransposeBackward0 */
static int t_as_transpose(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *y = ct_transpose(args[0].u.t, 0, 1);
    rets[0] = ct_tensor_value(y);
    return y ? 0 : -1;
}

/* empty.memory_format at BackendSelect: a float16 tensor is made inside inference mode (so
 * without ADInplaceOrView and AutogradCPU), every other dtype as before */
static int empty_f16_inference(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    bool half = args[1].tag == CT_TAG_INT && args[1].u.i == (int64_t)CT_FLOAT16;
    ct_grad_mode_guard g;
    if (half) ct_inference_mode_enter(&g);
    int rc = ct_redispatch(op, ct_keyset_of(CT_KEY_CPU), args, rets);
    if (half) ct_grad_mode_exit(&g);
    return rc;
}

enum variant { BASELINE, DECOMPOSED, DECOMPOSED_INPLACE, NODE_RENAMED, F16_KEYS, EXCLUDE_ADINPLACE, NO_REFERENCE, OTHER_SEED };

/* runs the lab in a child with the variant applied; returns its REPORT.md (NULL on failure) */
static char *run_lab(const char *root, enum variant v) {
    char out[600];
    snprintf(out, sizeof out, "%s/run%d", root, (int)v);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return NULL;
    if (pid == 0) {
        if (v == DECOMPOSED &&
            ct_register_kernel(ct_op_find("aten::linear"), CT_KEY_CompositeImplicitAutograd, linear_t_mm_add,
                               "tests/test_lab00_prose.c") != 0)
            _exit(3);
        if (v == DECOMPOSED_INPLACE &&
            ct_register_kernel(ct_op_find("aten::linear"), CT_KEY_CompositeImplicitAutograd, linear_t_mm_add_,
                               "tests/test_lab00_prose.c") != 0)
            _exit(3);
        if (v == NODE_RENAMED &&
            ct_register_kernel(ct_op_find("aten::t"), CT_KEY_AutogradCPU, t_as_transpose, "tests/test_lab00_prose.c") != 0)
            _exit(3);
        if (v == F16_KEYS && ct_register_kernel(ct_op_find("aten::empty.memory_format"), CT_KEY_BackendSelect,
                                                empty_f16_inference, "tests/test_lab00_prose.c") != 0)
            _exit(3);
        if (v == EXCLUDE_ADINPLACE) ct_tls_set_excluded(CT_KEY_ADInplaceOrView, true);
        const char *ref = v == NO_REFERENCE ? NULL : ct_test_shared("reference/torch-2.6");
        int rc = ct_example_lab00(out, v == OTHER_SEED ? 7 : 42, "test_lab00_prose", ref, NULL);
        fflush(NULL);
        _exit(rc);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "lab variant %d exited with %d\n", (int)v, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return NULL;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/REPORT.md", out);
    return ct_test_read_file(path, NULL);
}

static bool has(const char *s, const char *needle) { return s && strstr(s, needle) != NULL; }

/* the text of section "## title" up to the next "## " */
static char *section(const char *report, const char *title) {
    char head[256];
    snprintf(head, sizeof head, "## %s\n", title);
    const char *p = report ? strstr(report, head) : NULL;
    if (!p) return strdup("");
    const char *e = strstr(p + strlen(head), "\n## ");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    char root[] = "/tmp/ctorch-lab00-prose-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char *base = run_lab(root, BASELINE);
    char *dec = run_lab(root, DECOMPOSED);
    char *inp = run_lab(root, DECOMPOSED_INPLACE);
    char *ren = run_lab(root, NODE_RENAMED);
    char *f16 = run_lab(root, F16_KEYS);
    char *exc = run_lab(root, EXCLUDE_ADINPLACE);
    char *noref = run_lab(root, NO_REFERENCE);
    char *seed7 = run_lab(root, OTHER_SEED);
    CHECK_MSG(base && dec && inp && ren && f16 && exc && noref && seed7, "every variant of the lab ran");

    /* ---- linear decomposed into t + mm + add ---- */
    /* the baseline's claims ... */
    CHECK(has(base, "The call to `linear` was decomposed into `t` + `addmm`"));
    CHECK(has(base, "`y.grad_fn` is `AddmmBackward0`: the node was made by `addmm`"));
    CHECK(has(base, "**`addmm` is one kernel** (Part A)"));
    CHECK(has(base, "the trace shows no `aten::mm`, `aten::matmul` or `aten::add`"));
    CHECK(has(base, "`aten::addmm` was called with key `AutogradCPU` and redispatched to `CPU`"));
    CHECK(has(base, "logged ['aten.t.default', 'aten.addmm.default']: the same ops."));
    /* ... follow the decomposition */
    CHECK(has(dec, "The call to `linear` was decomposed into `t` + `mm` + `add.Tensor`"));
    CHECK(has(dec, "```\naten.t.default\naten.mm.default\naten.add.Tensor\n```"));
    CHECK(has(dec, "The mode logged 3 ops."));
    CHECK(has(dec, "`y.grad_fn` is `AddBackward0`: the node was made by `add.Tensor`"));
    CHECK(has(dec, "the `[call] aten::add.Tensor` at key `AutogradCPU`\ncarries the node's sequence number"));
    CHECK(has(dec, "`aten::add.Tensor` was called with key `AutogradCPU` and redispatched to `CPU`"));
    CHECK(has(dec, "The backward was recorded as `AddBackward0`"));
    /* only the node differs, and the sentence says so */
    CHECK(has(base, "printed `torch.Size([2, 600])` and `<AddmmBackward0 ...>`: the same size and node;"));
    CHECK(has(dec, "printed `torch.Size([2, 600])` and `<AddmmBackward0 ...>`: the same size, but a different node (here `AddBackward0`);"));
    CHECK(!has(dec, "not the same size and node") && !has(dec, "the same size and node"));
    CHECK(has(dec, "(`lab00.out`, line `linear: `) logged ['aten.t.default', 'aten.addmm.default']: a different list from ctorch's."));
    CHECK(has(dec, "**No `addmm` here** (Part A)"));
    CHECK(has(dec, "- forward: `aten::linear` (input shapes `[[2, 64], [600, 64], [600]]`) contains `aten::t` [[600, 64]], `aten::mm` [[2, 64], [64, 600]], `aten::add` [[2, 600], [600], []]."));
    CHECK(has(dec, "- backward: `AddBackward0`"));
    CHECK(!has(dec, "AddmmBackward0 object"));
    CHECK(!has(dec, "addmm` is one kernel"));
    CHECK(!has(dec, "the trace shows no `aten::mm`"));
    CHECK(!has(dec, "decomposed into `t` + `addmm`"));
    CHECK(!has(dec, "was called with key `?`"));
    /* the diff against addmm(b, x, W.T) now has more to show */
    char *dd = section(dec, "linear against addmm(b, x, W.T), hop by hop");
    char *bd = section(base, "linear against addmm(b, x, W.T), hop by hop");
    CHECK(has(dd, "-") && has(dd, "[call] aten::mm  AutogradCPU"));
    CHECK(!has(bd, "[call] aten::mm  AutogradCPU"));
    free(dd);
    free(bd);
    /* the graph: AddBackward0 at its root, MmBackward0 below; compared with PyTorch's node by node */
    char *dg = section(dec, "linear's backward graph");
    char *bg = section(base, "linear's backward graph");
    CHECK(has(bg, "all 5 nodes have\nPyTorch's names, each at the same place in the graph."));
    CHECK(has(dg, "y in green, 6 nodes, 3 of them AccumulateGrad"));
    CHECK(has(dg, "1 of the 8 nodes has\nPyTorch's names at the same place in the graph; the others: `AddBackward0` at `grad_fn` where "
                  "PyTorch has `AddmmBackward0`; `MmBackward0` at `grad_fn.next_functions[0][0]` where PyTorch has `AccumulateGrad`;"));
    CHECK(!has(dg, "named as PyTorch names them") && !has(dg, "all 6 nodes"));
    free(dg);
    free(bg);
    /* the Versions line claims only what matched */
    char *bv = section(base, "Versions"), *dv = section(dec, "Versions");
    CHECK(has(bv, "  - the same: op names and overloads in the dispatch-mode and function-mode logs (6 of 6);\n"
                  "    key-set printouts (8 of 8);\n"
                  "    autograd node names, node by node (5 of 5);\n"));
    CHECK(has(bv, "    random numbers: x, W and b, bit for bit (3 of 3);\n    y's size (1 of 1)"));
    CHECK(has(bv, "  - different: y's first values, bit for bit (0 of 1 the same; differing: y's first 4 values, by at most ") ||
          has(bv, "    y's first values, bit for bit (1 of 1)"));
    CHECK(has(dv, "  - the same: key-set printouts (8 of 8);\n    random numbers: x, W and b, bit for bit (3 of 3);\n"
                  "    y's size (1 of 1)"));
    CHECK(has(dv, "  - different: op names and overloads in the dispatch-mode and function-mode logs (3 of 6 the same; differing: "
                  "the dispatch-mode log of `linear` (ctorch ['aten.t.default', 'aten.mm.default', 'aten.add.Tensor'], PyTorch "
                  "['aten.t.default', 'aten.addmm.default'])"));
    CHECK(has(dv, "    autograd node names, node by node (1 of 8 the same; differing: `AddBackward0` at `grad_fn` where PyTorch has "
                  "`AddmmBackward0`;"));
    CHECK(has(dv, "`aten::mm` 3 calls (PyTorch 2); `aten::addmm` (not in ctorch's table)"));
    CHECK(!has(dv, "node names, op names") && !has(dv, "follows PyTorch 2.6.0 ("));
    free(bv);
    free(dv);
    char path[700];
    snprintf(path, sizeof path, "%s/run%d/linear_graph.dot", root, (int)DECOMPOSED);
    char *dot = ct_test_read_file(path, NULL);
    CHECK(has(dot, "AddBackward0") && has(dot, "MmBackward0") && !has(dot, "AddmmBackward0"));
    free(dot);

    /* ---- the bias added in place: the node's op runs through ADInplaceOrView to its CPU kernel ---- */
    char *ii = section(inp, "Interpretation");
    CHECK(has(ii, "`aten::add_.Tensor` was called with key `AutogradCPU` and redispatched to `ADInplaceOrView`, then to `CPU`"));
    CHECK(has(ii, "the `ADInplaceOrView` kernel (registered at `src/autograd/"));
    CHECK(has(ii, "passed it on, the `CPU` kernel (registered at `src/ops/ops.def:"));
    CHECK(has(ii, "the last hop of the call, computed the output."));
    CHECK(!has(ii, "the `ADInplaceOrView` kernel (registered at `src/autograd/register.c:34`), the last hop"));
    CHECK(!has(ii, "did the arithmetic"));
    free(ii);
    char *bi = section(base, "Interpretation");
    CHECK(has(bi, "key; the `CPU` kernel (registered at `src/ops/ops.def:"));
    CHECK(has(bi, "the last hop of the call, computed the output."));
    free(bi);

    /* ---- t's autograd kernel replaced: TransposeBackward0 where PyTorch has TBackward0 ---- */
    char *rg = section(ren, "linear's backward graph"), *rv = section(ren, "Versions");
    CHECK(has(rg, "4 of the 5 nodes have\nPyTorch's names at the same place in the graph; the others: `TransposeBackward0` at "
                  "`grad_fn.next_functions[2][0]` where PyTorch has `TBackward0`."));
    CHECK(!has(rg, "all 5 nodes"));
    CHECK(has(rv, "autograd node names, node by node (4 of 5 the same; differing: `TransposeBackward0` at "
                  "`grad_fn.next_functions[2][0]` where PyTorch has `TBackward0`)"));
    CHECK(!has(rv, "autograd node names, node by node (5 of 5)"));
    CHECK(has(rv, "`aten::t` 4 calls (PyTorch 5)"));
    free(rg);
    free(rv);

    /* ---- float16 tensors made without ADInplaceOrView and AutogradCPU ---- */
    char *fb = section(f16, "Part B - dispatch key sets"), *fv = section(f16, "Versions");
    CHECK(has(base, "float32, float16 and int64 tensors have the same key set: the dtype is not a dispatch key."));
    CHECK(!has(fb, "have the same key set: the dtype is not a dispatch key"));
    CHECK(has(fb, "A float16 tensor's key set differs from float32's: it lacks ADInplaceOrView, AutogradCPU. An int64 tensor "
                  "has float32's key set."));
    CHECK(has(fb, "torch.empty(1, dtype=torch.float16): different (below);"));
    CHECK(has(fb, "- torch.empty(1, dtype=torch.float16): ctorch `DispatchKeySet(CPU, AutocastCPU)`, PyTorch 2.6 "
                  "`DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)`"));
    /* the item ends in ';' when y's values differ at this CPU level too (listed after it), else in '.' */
    CHECK(has(fv, "  - different: key-set printouts (7 of 8 the same; differing: torch.empty(1, dtype=torch.float16))"));
    CHECK(has(fv, "  - the same: op names and overloads in the dispatch-mode and function-mode logs (6 of 6);"));
    CHECK(has(base, "The two key sets are the same: the dtype is not a dispatch key."));
    CHECK(!has(f16, "The two key sets are the same: the dtype is not a dispatch key."));
    CHECK(has(f16, "printed `DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)` (not the same) and "
                   "`DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)` (the same). Here the two key sets differ: "
                   "float16's lacks ADInplaceOrView, AutogradCPU."));
    free(fb);
    free(fv);

    /* ---- ADInplaceOrView excluded on the thread ---- */
    CHECK(has(base, "the default exclude set: the same;"));
    CHECK(has(exc, "the default exclude set: different (below);"));
    CHECK(has(exc, "- the default exclude set: ctorch `DispatchKeySet(ADInplaceOrView, AutocastCPU,"));
    CHECK(has(exc, "- the no_grad exclude set: ctorch `DispatchKeySet(ADInplaceOrView,"));
    CHECK(has(base, "[redispatch] op=[aten::t], key=[ADInplaceOrView]"));
    CHECK(!has(exc, "[redispatch] op=[aten::t], key=[ADInplaceOrView]"));
    CHECK(has(exc, "default         include DispatchKeySet(BackendSelect, ADInplaceOrView)\n"
                   "                exclude DispatchKeySet(ADInplaceOrView, AutocastCPU"));

    /* ---- another seed than the recordings': what depends on the seed is not compared ---- */
    CHECK(has(base, "the same size and node; its first 4 values "));
    CHECK(has(seed7, "the same size and node; its values are not compared: the recording drew its inputs with seed 42, "
                     "this run with seed 7."));
    CHECK(has(seed7, "  - not compared: random numbers: x, W and b, bit for bit (PyTorch's inputs were recorded with seed 42, "
                     "this run drew them with seed 7);\n    y's first values, bit for bit (the recording drew its inputs with "
                     "seed 42, this run with seed 7)."));
    CHECK(has(seed7, "autograd node names, node by node (5 of 5)"));
    CHECK(!has(seed7, "values differ from ctorch's") && !has(seed7, "values are ctorch's"));

    /* ---- no recording of PyTorch ---- */
    CHECK(has(noref, "No recording of this lab under PyTorch was found (no folder was given)"));
    CHECK(has(noref, "- ctorch is built to follow PyTorch 2.6.0.\n"));
    CHECK(!has(noref, "  - the same: ") && !has(noref, "bit for bit"));
    CHECK(has(noref, "The node names are not compared with PyTorch's"));
    CHECK(!has(noref, "PyTorch 2.6's recording"));
    CHECK(!has(noref, "Against PyTorch 2.6's recordings"));
    CHECK(has(base, "Against PyTorch 2.6's recordings"));

    free(base);
    free(dec);
    free(inp);
    free(ren);
    free(f16);
    free(exc);
    free(noref);
    free(seed7);
    char cmd[700];
    /* KEEP=1 leaves the reports for reading */
    if (getenv("KEEP")) printf("reports kept under %s\n", root);
    else snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (!getenv("KEEP")) CHECK(system(cmd) == 0);
    return ct_test_finish("test_lab00_prose");
}
