/* Pictures of the backward graph (ct_autograd_graph_dot): the nodes, names and AccumulateGrad
 * shapes of the seed model's loss graph equal PyTorch 2.6's (tests/golden/torch-2.6/seed_graph.txt),
 * every next-function edge is drawn, saved tensors appear when asked and are gone after a
 * backward, errors; and Graphviz renders the DOT (when its dot program is installed). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/nn.h"
#include "harness.h"
#include "render.h"
#include "step_tracer.h"

/* how many times needle occurs in hay */
static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

/* the labels' first lines, sorted, joined by '|' (node kinds, as a multiset) */
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void names_of_dot(const char *dot, char *out, size_t size) {
    char *names[256];
    int n = 0;
    for (const char *p = dot; (p = strstr(p, "[label=\"")) != NULL && n < 256;) {
        p += 8;
        size_t len = strcspn(p, "\\\"");
        /* tensors carry a fillcolor; nodes do not */
        const char *end = strchr(p, ']');
        const char *fill = strstr(p, "fillcolor");
        bool tensor = end && fill && fill < end;
        if (!tensor) names[n++] = strndup(p, len);
    }
    qsort(names, (size_t)n, sizeof *names, cmp);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        strncat(out, names[i], size - strlen(out) - 2);
        strncat(out, "|", size - strlen(out) - 1);
        free(names[i]);
    }
}

static void names_of_golden(const char *g, char *out, size_t size, int *edges, char shapes[][32], int *nshapes) {
    char *names[256];
    int n = 0;
    *edges = 0;
    *nshapes = 0;
    for (const char *p = g; *p && n < 256;) {
        const char *e = strchr(p, '\n');
        if (!e) break;
        const char *q = p;
        while (*q == ' ') q++;
        if (*q == '<') break; /* the repr line */
        size_t len = strcspn(q, " \n");
        if (strncmp(q, "None", 4) != 0) {
            names[n++] = strndup(q, len);
            if (q != p) (*edges)++; /* every node but the root hangs below another */
            const char *br = memchr(q, '[', (size_t)(e - q));
            if (br && *nshapes < 8) {
                /* "[32, 16]" -> "(32, 16)" */
                snprintf(shapes[*nshapes], 32, "(%.*s)", (int)(e - br - 2), br + 1);
                (*nshapes)++;
            }
        }
        p = e + 1;
    }
    qsort(names, (size_t)n, sizeof *names, cmp);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        strncat(out, names[i], size - strlen(out) - 2);
        strncat(out, "|", size - strlen(out) - 1);
        free(names[i]);
    }
}

static void test_seed_graph(void) {
    ct_module *model = ct_example_make_model(0);
    ct_tensor *x = NULL, *y = NULL;
    CHECK(model && ct_example_make_batch(1, &x, &y) == 0);
    ct_tensor *logits = ct_module_forward(model, x);
    ct_tensor *loss = ct_cross_entropy(logits, y, NULL, -100, CT_REDUCTION_MEAN, 0.0);
    CHECK(loss != NULL);
    char *dot = ct_autograd_graph_dot(loss, NULL);
    CHECK(dot != NULL);
    char *golden = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/seed_graph.txt"), NULL);
    CHECK(golden != NULL);
    if (dot && golden) {
        char got[2048], want[2048], shapes[8][32];
        int edges, nshapes;
        names_of_dot(dot, got, sizeof got);
        names_of_golden(golden, want, sizeof want, &edges, shapes, &nshapes);
        CHECK_STR_EQ(got, want);
        /* the next-function edges, one per leaf variable, one to the loss */
        CHECK_INT_EQ(count(dot, " -> "), edges + nshapes + 1);
        CHECK_INT_EQ(nshapes, 4);
        for (int i = 0; i < nshapes; i++) {
            char lab[320];
            snprintf(lab, sizeof lab, "\\n %s\" fillcolor=lightblue]", shapes[i]);
            CHECK_MSG(strstr(dot, lab) != NULL, "leaf %s in\n%s", shapes[i], dot);
        }
        CHECK(strstr(dot, "\\n ()\" fillcolor=darkolivegreen1]") != NULL); /* the loss, a 0-dim tensor */
        CHECK(strncmp(dot, "digraph {\n", 10) == 0 && strcmp(dot + strlen(dot) - 2, "}\n") == 0);
    }
    free(golden);
    ct_free(dot);
    ct_tensor *all[] = {x, y, logits, loss};
    for (int i = 0; i < 4; i++) ct_tensor_release(all[i]);
    ct_module_free(model);
}

static void test_linear(void) {
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(w, true);
    ct_tensor_set_requires_grad(b, true);
    ct_tensor *y = ct_linear(x, w, b);
    const ct_tensor *ts[] = {w, b, y};
    const char *ns[] = {"W", "b", "y \"out\""};
    ct_graph_dot_options o = {true, true, ts, ns, 3};
    char *dot = ct_autograd_graph_dot(y, &o);
    CHECK(dot != NULL);
    if (dot) {
        CHECK(strstr(dot, "[label=\"AddmmBackward0\\nseq ") != NULL);
        CHECK(strstr(dot, "[label=\"TBackward0\\nseq ") != NULL);
        CHECK_INT_EQ(count(dot, "[label=\"AccumulateGrad\"]"), 2); /* x does not require grad */
        CHECK(strstr(dot, "[label=\"W\\n (600, 64)\" fillcolor=lightblue]") != NULL);
        CHECK(strstr(dot, "[label=\"b\\n (600)\" fillcolor=lightblue]") != NULL);
        CHECK(strstr(dot, "[label=\"y \\\"out\\\"\\n (2, 600)\" fillcolor=darkolivegreen1]") != NULL); /* quoted */
        /* addmm saved mat1 (x, to make W's gradient); mat2 is not needed: x needs no gradient */
        CHECK(strstr(dot, "[label=\"mat1\\n (2, 64)\" fillcolor=orange]") != NULL);
        CHECK_INT_EQ(count(dot, "fillcolor=orange"), 1);
        CHECK_INT_EQ(count(dot, "[dir=none]"), 1);
    }
    ct_free(dot);
    /* after backward the saved tensors are freed: none drawn */
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_backward(s, NULL, false), 0);
    dot = ct_autograd_graph_dot(y, &o);
    CHECK(dot && count(dot, "fillcolor=orange") == 0);
    ct_free(dot);
    /* errors: a leaf, a tensor made without grad, NULL */
    CHECK(ct_autograd_graph_dot(w, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_autograd_graph_dot: the tensor has no grad_fn");
    CHECK(ct_autograd_graph_dot(x, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_autograd_graph_dot: the tensor has no grad_fn");
    CHECK(ct_autograd_graph_dot(NULL, NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_autograd_graph_dot: tensor is NULL");
    ct_tensor *all[] = {x, w, b, y, s};
    for (int i = 0; i < 5; i++) ct_tensor_release(all[i]);
}

static void test_render(void) {
    ct_manual_seed(1);
    int64_t sz[1] = {3};
    ct_tensor *a = ct_randn(sz, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(a, true);
    ct_tensor *r = ct_relu(a);
    char *dot = ct_autograd_graph_dot(r, NULL);
    char dir[] = "/tmp/ctorch-dot-XXXXXX";
    CHECK(dot && mkdtemp(dir));
    char dp[600], sp[600], why[512];
    snprintf(dp, sizeof dp, "%s/g.dot", dir);
    snprintf(sp, sizeof sp, "%s/g.svg", dir);
    FILE *f = fopen(dp, "w");
    fputs(dot, f);
    fclose(f);
    int rc = ct_example_render_dot(dp, sp, "svg", why, sizeof why);
    if (rc == 1) {
        printf("Graphviz is not installed here: the SVG was not checked (%s)\n", why);
    } else {
        CHECK_MSG(rc == 0, "dot: %s", why);
        char *svg = ct_test_read_file(sp, NULL);
        CHECK(svg && strstr(svg, "<svg") && strstr(svg, ">ReluBackward0</text>") && strstr(svg, ">AccumulateGrad</text>"));
        free(svg);
        /* a broken DOT file: dot fails and says so */
        f = fopen(dp, "w");
        fputs("digraph {", f);
        fclose(f);
        CHECK_INT_EQ(ct_example_render_dot(dp, sp, "svg", why, sizeof why), -1);
        CHECK(strstr(why, "failed (status") != NULL);
    }
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT_EQ(system(cmd), 0);
    ct_free(dot);
    ct_tensor_release(a);
    ct_tensor_release(r);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    test_seed_graph();
    test_linear();
    test_render();
    return ct_test_finish("test_autograd_dot");
}
