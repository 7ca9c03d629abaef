/* Lab 00's report follows the run (Note [A report built from the run] in examples/lab00.c).
 *
 * The lab runs three times, each in a child process so that a registration cannot leak into the
 * next run:
 *   - as shipped (the baseline the other two are compared with);
 *   - with a user kernel registered for aten::linear at CompositeImplicitAutograd that
 *     decomposes it into t + mm + add, as a copy of the lab with linear's fused path disabled
 *     would: the report must name t, mm and add, AddBackward0, and must not keep the claims
 *     about addmm;
 *   - with the thread's exclude set changed through the public API (ADInplaceOrView excluded):
 *     Part B must report the thread-local sets differing from PyTorch's recording, and the
 *     decision traces must lose their ADInplaceOrView hops;
 *   - with no recording of PyTorch: the report says it compares with nothing.
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

enum variant { BASELINE, DECOMPOSED, EXCLUDE_ADINPLACE, NO_REFERENCE };

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
        if (v == EXCLUDE_ADINPLACE) ct_tls_set_excluded(CT_KEY_ADInplaceOrView, true);
        const char *ref = v == NO_REFERENCE ? NULL : ct_test_shared("reference/torch-2.6");
        int rc = ct_example_lab00(out, 42, "test_lab00_prose", ref, NULL);
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
    char root[] = "/tmp/ctorch-lab00-prose-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char *base = run_lab(root, BASELINE);
    char *dec = run_lab(root, DECOMPOSED);
    char *exc = run_lab(root, EXCLUDE_ADINPLACE);
    char *noref = run_lab(root, NO_REFERENCE);
    CHECK_MSG(base && dec && exc && noref, "every variant of the lab ran");

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
    CHECK(has(dec, "`[call] aten::add.Tensor` at key `AutogradCPU` carries the node's sequence number"));
    CHECK(has(dec, "`aten::add.Tensor` was called with key `AutogradCPU` and redispatched to `CPU`"));
    CHECK(has(dec, "The backward was recorded as `AddBackward0`"));
    CHECK(has(dec, "PyTorch 2.6's recording printed `torch.Size([2, 600])` and `<AddmmBackward0 ...>`: not the same size and node as here"));
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
    /* the graph: AddBackward0 at its root, MmBackward0 below */
    char *dg = section(dec, "linear's backward graph");
    CHECK(has(dg, "5 nodes named as PyTorch names them") || has(dg, "nodes named as PyTorch names them"));
    free(dg);
    char path[700];
    snprintf(path, sizeof path, "%s/run%d/linear_graph.dot", root, (int)DECOMPOSED);
    char *dot = ct_test_read_file(path, NULL);
    CHECK(has(dot, "AddBackward0") && has(dot, "MmBackward0") && !has(dot, "AddmmBackward0"));
    free(dot);

    /* ---- ADInplaceOrView excluded on the thread ---- */
    CHECK(has(base, "the default exclude set: the same;"));
    CHECK(has(exc, "the default exclude set: different (below);"));
    CHECK(has(exc, "- the default exclude set: ctorch `DispatchKeySet(ADInplaceOrView, AutocastCPU,"));
    CHECK(has(exc, "- the no_grad exclude set: ctorch `DispatchKeySet(ADInplaceOrView,"));
    CHECK(has(base, "[redispatch] op=[aten::t], key=[ADInplaceOrView]"));
    CHECK(!has(exc, "[redispatch] op=[aten::t], key=[ADInplaceOrView]"));
    CHECK(has(exc, "default         include DispatchKeySet(BackendSelect, ADInplaceOrView)\n"
                   "                exclude DispatchKeySet(ADInplaceOrView, AutocastCPU"));

    /* ---- no recording of PyTorch ---- */
    CHECK(has(noref, "No recording of this lab under PyTorch was found (no folder was given)"));
    CHECK(!has(noref, "PyTorch 2.6's recording"));
    CHECK(!has(noref, "Against PyTorch 2.6's recordings"));
    CHECK(has(base, "Against PyTorch 2.6's recordings"));

    free(base);
    free(dec);
    free(exc);
    free(noref);
    char cmd[700];
    /* KEEP=1 leaves the four reports for reading */
    if (getenv("KEEP")) printf("reports kept under %s\n", root);
    else snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (!getenv("KEEP")) CHECK(system(cmd) == 0);
    return ct_test_finish("test_lab00_prose");
}
