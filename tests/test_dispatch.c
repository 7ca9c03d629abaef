/* The dispatcher: call/redispatch routing, PyTorch's trace format, collected decision records,
 * registration precedence, fallthroughs, fallbacks, TLS effects, and bad input. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"

static ct_tensor *mat(int64_t r, int64_t c, double start) {
    int64_t sizes[2] = {r, c};
    double *v = malloc(sizeof(double) * (size_t)(r * c));
    for (int64_t i = 0; i < r * c; i++) v[i] = start + (double)i * 0.25;
    ct_tensor *t = ct_tensor_from_doubles(v, sizes, 2, CT_FLOAT32);
    free(v);
    return t;
}

/* Captures what the PyTorch-format printer writes during fn. */
static char *capture_trace(int level, void (*fn)(void *), void *ud) {
    FILE *f = tmpfile();
    if (!f) return NULL;
    ct_trace_set_stream(f);
    ct_trace_set_print(level);
    fn(ud);
    ct_trace_set_print(0);
    ct_trace_set_stream(NULL);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
    fclose(f);
    return buf;
}

typedef struct addmm_args {
    ct_tensor *b, *x, *w, *w_rows; /* w is 4x3, w_rows 3x4 (a Linear weight) */
} addmm_args;

static void run_addmm(void *ud) {
    addmm_args *a = ud;
    ct_tensor *wt = ct_t(a->w_rows);
    ct_tensor *y = ct_addmm(a->b, a->x, wt, ct_int(1), ct_int(1));
    CHECK_MSG(y != NULL, "addmm(b, x, w.t()): %s", ct_error_message());
    ct_tensor_release(y);
    ct_tensor_release(wt);
}

static void run_addmm_only(void *ud) {
    addmm_args *a = ud;
    ct_tensor *y = ct_addmm(a->b, a->x, a->w, ct_int(1), ct_int(1));
    CHECK_MSG(y != NULL, "addmm: %s", ct_error_message());
    ct_tensor_release(y);
}

static void test_trace_format(void) {
    addmm_args a = {NULL, mat(2, 4, 0), mat(4, 3, 1), mat(3, 4, 2)};
    int64_t n = 3;
    a.b = ct_zeros(&n, 1, CT_DTYPE_UNDEFINED);
    char *out = capture_trace(1, run_addmm_only, &a);
    CHECK(out != NULL);
    /* PyTorch's format: the autograd key routes first, then CPU after one redispatch */
    const char *head = " [call] op=[aten::addmm], key=[AutogradCPU]\n  [redispatch] op=[aten::addmm], key=[CPU]\n";
    CHECK_MSG(out && strncmp(out, head, strlen(head)) == 0, "trace starts:\n%s", out ? out : "");
    /* nested calls made by the CPU kernel are indented one more, and run below autograd */
    CHECK_MSG(out && strstr(out, "\n   [call] op=[aten::expand], key=[CPU]\n") != NULL, "expand inside addmm:\n%s", out ? out : "");
    CHECK_MSG(out && strstr(out, "\n   [call] op=[aten::resolve_conj], key=[CPU]\n") != NULL, "resolve_conj inside addmm");
    free(out);

    /* the transposed weight: t is a view op, so ADInplaceOrView runs between autograd and CPU */
    out = capture_trace(1, run_addmm, &a);
    const char *t_head = " [call] op=[aten::t], key=[AutogradCPU]\n  [redispatch] op=[aten::t], key=[ADInplaceOrView]\n"
                         "   [redispatch] op=[aten::t], key=[CPU]\n    [call] op=[aten::transpose.int], key=[CPU]\n";
    CHECK_MSG(out && strncmp(out, t_head, strlen(t_head)) == 0, "t trace:\n%s", out ? out : "");
    free(out);

    /* the full form adds every input of the decision */
    out = capture_trace(2, run_addmm_only, &a);
    CHECK(out && strstr(out, "arg self: DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)") != NULL);
    CHECK(out && strstr(out, "tls included: DispatchKeySet(BackendSelect, ADInplaceOrView)") != NULL);
    CHECK(out && strstr(out, "merged (args | included) - excluded: DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)") != NULL);
    CHECK(out && strstr(out, "after fallthrough mask: DispatchKeySet(CPU, AutogradCPU)") != NULL);
    CHECK(out && strstr(out, "ran: AutogradCPU -> autograd kernel") != NULL);
    CHECK(out && strstr(out, "ran: CPU -> kernel (src/ops/ops.def:") != NULL);
    free(out);

    /* the same decisions collected in memory */
    CHECK_INT_EQ(ct_trace_begin(), 0);
    CHECK_INT_EQ(ct_trace_begin(), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "ct_trace_begin: this thread is already collecting");
    run_addmm_only(&a);
    ct_dispatch_record *recs = NULL;
    size_t nrec = 0;
    CHECK_INT_EQ(ct_trace_end(&recs, &nrec), 0);
    CHECK(nrec >= 2);
    if (recs && nrec >= 2) {
        CHECK_INT_EQ(recs[0].kind, CT_HOP_CALL);
        CHECK_STR_EQ(ct_op_name(recs[0].op), "aten::addmm");
        CHECK_INT_EQ(recs[0].key, CT_KEY_AutogradCPU);
        CHECK_INT_EQ(recs[0].slot, CT_SLOT_AUTOGRAD);
        CHECK_INT_EQ(recs[0].depth, 1);
        CHECK_INT_EQ(recs[0].n_tensor_args, 3);
        CHECK_INT_EQ(recs[0].arg_index[2], 2);
        CHECK(recs[0].tls_included == ct_tls_included());
        CHECK_INT_EQ(recs[1].kind, CT_HOP_REDISPATCH);
        CHECK_INT_EQ(recs[1].key, CT_KEY_CPU);
        CHECK_INT_EQ(recs[1].slot, CT_SLOT_KERNEL);
        CHECK_INT_EQ(recs[1].depth, 2);
        char line[256];
        ct_trace_format(&recs[1], false, line, sizeof line);
        CHECK_STR_EQ(line, "  [redispatch] op=[aten::addmm], key=[CPU]\n");
    }
    ct_free(recs);
    CHECK_INT_EQ(ct_trace_end(&recs, &nrec), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "ct_trace_end: ct_trace_begin was not called");

    /* excluding autograd in TLS routes addmm straight to CPU */
    ct_key_guard g;
    ct_key_guard_exclude(&g, ct_autograd_dispatch_keyset());
    ct_trace_begin();
    run_addmm_only(&a);
    ct_trace_end(&recs, &nrec);
    ct_key_guard_pop(&g);
    CHECK(nrec >= 1 && recs[0].key == CT_KEY_CPU && recs[0].kind == CT_HOP_CALL);
    ct_free(recs);

    /* factories: BackendSelect, then CPU */
    ct_trace_begin();
    ct_tensor *z = ct_empty(&n, 1, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE);
    ct_trace_end(&recs, &nrec);
    CHECK(nrec == 2 && recs[0].key == CT_KEY_BackendSelect && recs[1].key == CT_KEY_CPU);
    ct_free(recs);
    ct_tensor_release(z);

    ct_tensor_release(a.b);
    ct_tensor_release(a.x);
    ct_tensor_release(a.w);
    ct_tensor_release(a.w_rows);
}

/* ---- the collection ring: bounded, oldest overwritten and counted ---- */

static void run_adds(void *ud) {
    ct_tensor **ab = ud;
    for (int i = 0; i < 10; i++) ct_tensor_release(ct_add(ab[0], ab[1], ct_int(1)));
}

static bool same_record(const ct_dispatch_record *a, const ct_dispatch_record *b) {
    if (a->kind != b->kind || a->depth != b->depth || a->op != b->op || a->n_tensor_args != b->n_tensor_args ||
        a->tls_included != b->tls_included || a->tls_excluded != b->tls_excluded || a->merged != b->merged ||
        a->dispatch != b->dispatch || a->key != b->key || a->slot != b->slot || a->where != b->where)
        return false;
    for (int i = 0; i < a->n_tensor_args; i++)
        if (a->arg_keys[i] != b->arg_keys[i] || a->arg_index[i] != b->arg_index[i]) return false;
    return true;
}

static void test_trace_ring(void) {
    int64_t one = 1;
    ct_tensor *ab[2] = {ct_ones(&one, 1, CT_DTYPE_UNDEFINED), ct_ones(&one, 1, CT_DTYPE_UNDEFINED)};
    ct_tensor_set_requires_grad(ab[1], true);
    CHECK(ct_trace_capacity() == CT_TRACE_DEFAULT_CAPACITY);
    ct_dispatch_record *all = NULL, *last = NULL;
    size_t n_all = 0, n_last = 0;
    CHECK_INT_EQ(ct_trace_begin(), 0);
    run_adds(ab);
    CHECK_INT_EQ(ct_trace_end(&all, &n_all), 0);
    ct_trace_stats st;
    CHECK_INT_EQ(ct_trace_get_stats(&st), 0);
    CHECK(n_all >= 20 && st.recorded == n_all && st.overwritten == 0 && st.retained == n_all);
    CHECK(st.capacity == CT_TRACE_DEFAULT_CAPACITY && st.key_sets_lost == 0);

    /* a 7-record ring keeps the newest 7, oldest first, and counts the rest */
    CHECK_INT_EQ(ct_trace_set_capacity(7), 0);
    CHECK(ct_trace_capacity() == 7);
    CHECK_INT_EQ(ct_trace_begin(), 0);
    CHECK_INT_EQ(ct_trace_set_capacity(9), 0); /* applies to the next collection */
    run_adds(ab);
    CHECK_INT_EQ(ct_trace_get_stats(&st), 0);   /* while collecting */
    CHECK(st.capacity == 7 && st.recorded == n_all && st.retained == 7);
    CHECK_INT_EQ(ct_trace_end(&last, &n_last), 0);
    CHECK_INT_EQ(n_last, 7);
    CHECK_INT_EQ(ct_trace_get_stats(&st), 0);
    CHECK(st.overwritten == n_all - 7);
    bool same = all && last;
    for (size_t i = 0; same && i < n_last; i++) same = same_record(&last[i], &all[n_all - 7 + i]);
    CHECK_MSG(same, "the ring holds the last 7 records of the full trace, in order");
    ct_free(all);
    ct_free(last);

    /* the next collection uses the capacity set meanwhile; ending without taking the records */
    CHECK_INT_EQ(ct_trace_begin(), 0);
    run_adds(ab);
    size_t n = 0;
    CHECK_INT_EQ(ct_trace_end(NULL, &n), 0);
    CHECK_INT_EQ(n, 9);
    ct_trace_set_capacity(CT_TRACE_DEFAULT_CAPACITY);

    /* printing alone and printing while collecting write the same text */
    char *plain = capture_trace(2, run_adds, ab);
    ct_trace_begin();
    char *collecting = capture_trace(2, run_adds, ab);
    ct_trace_end(NULL, NULL);
    CHECK(plain && collecting && strlen(plain) > 1000);
    CHECK_STR_EQ(collecting, plain);
    free(plain);
    free(collecting);

    /* bad input */
    CHECK_INT_EQ(ct_trace_set_capacity(0), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_trace_set_capacity: capacity must be between 1 and 67108864 records (got 0)");
    CHECK_INT_EQ(ct_trace_set_capacity(CT_TRACE_MAX_CAPACITY + 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_trace_set_capacity: capacity must be between 1 and 67108864 records (got 67108865)");
    CHECK_INT_EQ(ct_trace_get_stats(NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_trace_get_stats: out is NULL");
    CHECK(ct_trace_capacity() == CT_TRACE_DEFAULT_CAPACITY);
    ct_tensor_release(ab[0]);
    ct_tensor_release(ab[1]);
}

/* ---- registration precedence with user-defined operators ---- */

static int k_double(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_tensor_value(ct_add(args[0].u.t, args[0].u.t, ct_int(1)));
    return rets[0].tag == CT_TAG_TENSOR ? 0 : -1;
}

static int k_triple(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    rets[0] = ct_tensor_value(ct_add(args[0].u.t, args[0].u.t, ct_int(2)));
    return rets[0].tag == CT_TAG_TENSOR ? 0 : -1;
}

static double first(ct_tensor *t) {
    double v = -1;
    int64_t idx[1] = {0};
    if (t) ct_tensor_get(t, idx, &v);
    return v;
}

static void test_registration(void) {
    const ct_op *op = ct_op_define("myns::scale(Tensor self) -> Tensor", "tests/test_dispatch.c");
    CHECK(op != NULL);
    if (!op) return;
    CHECK_STR_EQ(ct_op_python_name(op), "myns.scale.default");
    CHECK(ct_op_define("myns::scale(Tensor self) -> Tensor", "again") == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Tried to register an operator (myns::scale(Tensor self) -> Tensor) with the same name and overload name multiple times. Each overload's schema should only be registered with a single call to def(). Duplicate registration: registered at again. Original registration: registered at tests/test_dispatch.c");
    CHECK(ct_op_define("myns::bad(Tensor self -> Tensor", "x") == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_RUNTIME);
    ct_error_clear();

    int64_t n = 2;
    ct_tensor *x = ct_ones(&n, 1, CT_DTYPE_UNDEFINED);
    ct_value args[1] = {ct_tensor_value(x)}, rets[1] = {ct_none()};

    /* nothing registered: the autograd fallback passes through, then CPU is missing */
    CHECK_INT_EQ(ct_call(op, args, rets), -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_NOT_IMPLEMENTED);
    CHECK_MSG(strncmp(ct_error_message(), "Could not run 'myns::scale' with arguments from the 'CPU' backend. This could be because the operator doesn't exist for this backend", 130) == 0,
              "%s", ct_error_message());
    CHECK(strstr(ct_error_message(), "'myns::scale' is only available for these backends: [BackendSelect, Python, ADInplaceOrView, AutogradOther, AutogradCPU, AutocastCPU, PythonTLSSnapshot, PythonDispatcher].") != NULL);
    ct_error_clear();

    /* CompositeImplicitAutograd fills CPU and AutogradCPU */
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_CompositeImplicitAutograd, k_double, "t:1"), 0);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_CPU).kind, CT_SLOT_MATH);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_AutogradCPU).kind, CT_SLOT_MATH);
    CHECK_INT_EQ(ct_call(op, args, rets), 0);
    CHECK(first(rets[0].u.t) == 2.0);
    ct_values_release(rets, 1);

    /* a CPU kernel wins the CPU slot, and the math kernel no longer fills AutogradCPU */
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_CPU, k_triple, "t:2"), 0);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_CPU).kind, CT_SLOT_KERNEL);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_AutogradCPU).kind, CT_SLOT_FALLBACK);
    CHECK_INT_EQ(ct_call(op, args, rets), 0);
    CHECK(first(rets[0].u.t) == 3.0);
    ct_values_release(rets, 1);

    /* Autograd alias fills the autograd slots; CompositeExplicitAutograd would lose to CPU */
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_Autograd, k_double, "t:3"), 0);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_AutogradCPU).kind, CT_SLOT_AUTOGRAD);
    CHECK_INT_EQ(ct_call(op, args, rets), 0);
    CHECK(first(rets[0].u.t) == 2.0); /* the autograd kernel ran and did not redispatch */
    ct_values_release(rets, 1);
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_CompositeExplicitAutograd, k_double, "t:4"), 0);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_CPU).kind, CT_SLOT_KERNEL);

    /* a fallthrough at AutogradCPU removes the key from the op's mask: CPU runs */
    CHECK_INT_EQ(ct_register_fallthrough(op, CT_KEY_AutogradCPU, "t:5"), 0);
    CHECK(!(ct_op_non_fallthrough_keys(op) & ct_keyset_of(CT_KEY_AutogradCPU) & ~CT_BACKEND_BITS_MASK));
    CHECK_INT_EQ(ct_call(op, args, rets), 0);
    CHECK(first(rets[0].u.t) == 3.0);
    ct_values_release(rets, 1);
    CHECK_INT_EQ(ct_deregister_kernel(op, CT_KEY_AutogradCPU), 0);
    CHECK_INT_EQ(ct_op_slot(op, CT_KEY_AutogradCPU).kind, CT_SLOT_AUTOGRAD);
    CHECK_INT_EQ(ct_deregister_kernel(op, CT_KEY_AutogradCPU), -1);
    ct_error_clear();

    /* dumps */
    char *d = ct_op_dump(op);
    CHECK(d && strstr(d, "CPU: registered at t:2 :: (Tensor _0) -> Tensor _0 [ boxed ]") != NULL);
    CHECK(d && strstr(d, "CompositeImplicitAutograd[alias]: registered at t:1") != NULL);
    ct_free(d);
    d = ct_op_dump_table(op);
    CHECK(d && strstr(d, "AutogradCPU: registered at t:3 [autograd kernel]\n") != NULL);
    CHECK(d && strstr(d, "BackendSelect: fallthrough registered at") != NULL);
    ct_free(d);

    /* bad registrations */
    CHECK_INT_EQ(ct_register_kernel(NULL, CT_KEY_CPU, k_double, "x"), -1);
    CHECK_ERROR(CT_ERR_VALUE, "register: op is NULL");
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_Dense, k_double, "x"), -1);
    CHECK_ERROR(CT_ERR_VALUE, "register: Dense is not a key kernels can be registered for");
    CHECK_INT_EQ(ct_register_kernel(op, CT_KEY_CPU, NULL, "x"), -1);
    CHECK_ERROR(CT_ERR_VALUE, "register: kernel function is NULL");
    CHECK_INT_EQ(ct_register_fallthrough(op, CT_KEY_Autograd, "x"), -1);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_VALUE);
    ct_error_clear();
    ct_tensor_release(x);
}

static void test_lookup_errors(void) {
    CHECK(ct_op_find("aten::nope") == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "Could not find schema for aten::nope.");
    CHECK(ct_op_find(NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_find: name is NULL");
    const ct_op *add = ct_op_find("aten::add.Tensor");
    CHECK(add != NULL);
    CHECK(ct_op_find("aten::addmm.default") == ct_op_find("aten::addmm"));
    CHECK_STR_EQ(ct_op_python_name(add), "aten.add.Tensor");
    CHECK_STR_EQ(ct_op_base_name(add), "aten::add");
    CHECK_STR_EQ(ct_op_overload(add), "Tensor");
    CHECK_INT_EQ(ct_op_num_args(add), 3);
    CHECK_INT_EQ(ct_op_num_returns(add), 1);
    CHECK_STR_EQ(ct_op_arg_name(add, 2), "alpha");
    CHECK(ct_op_arg_name(add, 3) == NULL);
    /* defaults from the schema */
    ct_value a[5];
    int64_t n = 2;
    ct_tensor *x = ct_ones(&n, 1, CT_DTYPE_UNDEFINED);
    a[0] = ct_tensor_value(x);
    a[1] = ct_tensor_value(x);
    CHECK_INT_EQ(ct_op_fill_defaults(add, a, 2), 0);
    CHECK(a[2].tag == CT_TAG_INT && a[2].u.i == 1);
    ct_value r[1] = {ct_none()};
    CHECK_INT_EQ(ct_call(add, a, r), 0);
    CHECK(first(r[0].u.t) == 2.0);
    ct_values_release(r, 1);
    const ct_op *addmm = ct_op_find("aten::addmm");
    CHECK_INT_EQ(ct_op_fill_defaults(addmm, a, 2), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "aten::addmm() is missing value for argument 'mat2'. Declaration: aten::addmm(Tensor self, "
                                "Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor");
    CHECK(ct_dispatch_keyset_for(add, a) == (ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_AutogradCPU)));
    /* NULL tensors through the typed API: PyTorch's argument-parser message */
    CHECK(ct_addmm(NULL, x, x, ct_int(1), ct_int(1)) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "addmm(): argument 'input' (position 1) must be Tensor, not NoneType");
    CHECK(ct_mm(x, NULL) == NULL);
    CHECK_ERROR(CT_ERR_TYPE, "mm(): argument 'mat2' (position 2) must be Tensor, not NoneType");
    ct_tensor_release(x);
    char *dump = ct_op_dump(NULL);
    CHECK(dump == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_dump: op is NULL");
    CHECK(ct_op_slot(NULL, CT_KEY_CPU).kind == CT_SLOT_MISSING);
}

/* every "registered at FILE:LINE" that the dumps of every op show names a line that exists
 * in the source tree (the sites are recorded with CT_HERE, not written by hand) */
static int site_ok(const char *where) {
    const char *colon = strrchr(where, ':');
    if (!colon) return 0;
    char file[256];
    size_t n = (size_t)(colon - where);
    if (n >= sizeof file) return 0;
    memcpy(file, where, n);
    file[n] = '\0';
    long line = strtol(colon + 1, NULL, 10);
    size_t len = 0;
    char *text = ct_test_read_file(ct_test_source(file), &len);
    if (!text) return 0;
    long lines = 0;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    free(text);
    return line >= 1 && line <= lines;
}

static void test_registration_sites(void) {
    int bad = 0, seen = 0;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        char *dump = ct_op_dump(op), *table = ct_op_dump_table(op);
        const char *texts[2] = {dump, table};
        for (int k = 0; k < 2; k++) {
            for (const char *p = texts[k]; p && (p = strstr(p, "registered at ")) != NULL;) {
                p += strlen("registered at ");
                char where[300];
                size_t w = strcspn(p, " \n");
                if (w >= sizeof where) w = sizeof where - 1;
                memcpy(where, p, w);
                where[w] = '\0';
                seen++;
                if (!site_ok(where)) {
                    if (bad++ < 5) ct_test_fail(__FILE__, __LINE__, "%s: registration site %s is not a line of the tree", ct_op_name(op), where);
                }
            }
        }
        ct_free(dump);
        ct_free(table);
    }
    CHECK_INT_EQ(bad, 0);
    CHECK(seen > 1000);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live0 = ct_testing_live_tensors();
    test_registration_sites();
    test_trace_format();
    test_trace_ring();
    test_registration();
    test_lookup_errors();
    CHECK_INT_EQ(ct_testing_live_tensors(), live0);
    return ct_test_finish("test_dispatch");
}
