/* Trace files (docs/trace-format.md): the header, every field of a hop, the link from a
 * backward node's hops to the forward op that made the node, phases, tensor ids that keep
 * nothing alive, several threads, errors; and a million dispatched ops streamed with flat heap
 * memory, checked against the same ops collected in memory, which does grow. */
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/testing.h"
#include "ctorch/trace.h"
#include "harness.h"
#include "util/json.h"

#if defined(__SANITIZE_ADDRESS__)
/* the sanitizer runtime's own count (declared here: GCC ships the function in libasan but not
 * always the header that declares it) */
size_t __sanitizer_get_current_allocated_bytes(void);
static long long heap_in_use(void) { return (long long)__sanitizer_get_current_allocated_bytes(); }
#else
/* bytes in use: from the heap, and in blocks big enough to be mapped on their own */
static long long heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return (long long)(m.uordblks + m.hblkhd);
}
#endif

/* ---- reading a trace back ------------------------------------------------------------------ */

typedef struct lines {
    cJSON **rec;
    int n;
} lines;

static lines read_trace(const char *path) {
    lines L = {NULL, 0};
    size_t len;
    char *text = ct_test_read_file(path, &len);
    if (!text) return L;
    int cap = 0;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (L.n == cap) {
            cap = cap ? 2 * cap : 64;
            L.rec = realloc(L.rec, (size_t)cap * sizeof *L.rec);
        }
        L.rec[L.n] = ct_json_parse(p, n);
        CHECK_MSG(L.rec[L.n] != NULL, "line %d is JSON: %s", L.n + 1, ct_error_message());
        L.n++;
        if (!e) break;
        p = e + 1;
    }
    free(text);
    return L;
}

static void lines_free(lines *L) {
    for (int i = 0; i < L->n; i++) cJSON_Delete(L->rec[i]);
    free(L->rec);
}

static const char *str(const cJSON *o, const char *k) {
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}
static double num(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1e300;
}
static bool has(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k) != NULL; }
static const cJSON *arg(const cJSON *hop, const char *name) {
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(hop, "args")) if (strcmp(str(a, "name"), name) == 0) return a;
    return NULL;
}
/* "[2, 64]" of an int array member */
static void ints(const cJSON *o, const char *k, char *buf, size_t size) {
    char *s = ct_json_dumps(cJSON_GetObjectItemCaseSensitive(o, k), -1);
    snprintf(buf, size, "%s", s ? s : "?");
    ct_free(s);
}
/* the first hop of `kind` for op (and overload) at or after record `from`; -1 if none */
static int find(const lines *L, int from, const char *kind, const char *op, const char *overload) {
    for (int i = from; i < L->n; i++) {
        const cJSON *r = L->rec[i];
        if (strcmp(str(r, "type"), "hop") == 0 && strcmp(str(r, "hop"), kind) == 0 && strcmp(str(r, "op"), op) == 0 &&
            (!overload || strcmp(str(r, "overload"), overload) == 0))
            return i;
    }
    return -1;
}

static char dir[] = "/tmp/ctorch-trace-XXXXXX";

static const char *path_in(const char *name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* ---- linear forward + backward: every field ------------------------------------------------ */

static void test_fields(void) {
    ct_manual_seed(42);
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_tensor *x = ct_randn(xs, 2, CT_DTYPE_UNDEFINED), *w = ct_randn(ws, 2, CT_DTYPE_UNDEFINED),
              *b = ct_randn(bs, 1, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(w, true);
    ct_tensor_set_requires_grad(b, true);
    ct_trace_file_options o = {"linear forward and backward", true, 42, 0};
    const char *path = path_in("linear.jsonl");
    CHECK_INT_EQ(ct_trace_file_open(path, &o), 0);
    CHECK(ct_trace_file_is_open());
    CHECK_INT_EQ(ct_trace_file_open(path, &o), -1); /* one at a time */
    CHECK_INT_EQ(ct_error_code(), CT_ERR_RUNTIME);
    ct_error_clear();
    ct_trace_set_phase("forward");
    CHECK_STR_EQ(ct_trace_phase(), "forward");
    ct_tensor *y = ct_linear(x, w, b);
    ct_tensor *s = ct_sum(y, CT_DTYPE_UNDEFINED);
    ct_trace_set_phase("backward");
    CHECK_INT_EQ(ct_backward(s, NULL, false), 0);
    ct_trace_set_phase(NULL);
    ct_manual_seed(7); /* a seed record */
    ct_trace_file_stats st;
    CHECK_INT_EQ(ct_trace_file_stats_get(&st), 0);
    CHECK(st.records > 10 && st.bytes > 0 && st.buffer_bytes == 64 * 1024);
    CHECK_INT_EQ(ct_trace_file_close(), 0);
    CHECK(!ct_trace_file_is_open());
    CHECK_INT_EQ(ct_trace_file_close(), -1);
    ct_error_clear();

    lines L = read_trace(path);
    CHECK_INT_EQ((long long)L.n, (long long)st.records);
    if (L.n < 10) return;
    const cJSON *h = L.rec[0];
    CHECK_STR_EQ(str(h, "type"), "header");
    CHECK_STR_EQ(str(h, "schema"), "ctorch-trace");
    CHECK_INT_EQ(num(h, "version"), CT_TRACE_SCHEMA_VERSION);
    CHECK_STR_EQ(str(h, "recorder"), "ctorch");
    CHECK_STR_EQ(str(h, "view"), "dispatcher");
    CHECK_STR_EQ(str(h, "pytorch_version"), "2.6.0");
    CHECK(str(h, "ctorch_version") != NULL);
    CHECK_INT_EQ(num(h, "seed"), 42);
    CHECK_STR_EQ(str(h, "program"), "linear forward and backward");

    /* hops are numbered in file order */
    int hops = 0;
    for (int i = 1; i < L.n; i++)
        if (strcmp(str(L.rec[i], "type"), "hop") == 0) CHECK_INT_EQ(num(L.rec[i], "i"), hops++);

    /* linear: a call at depth 1 routed by AutogradCPU to the math kernel */
    int lin = find(&L, 1, "call", "aten::linear", "default");
    CHECK(lin > 0);
    const cJSON *r = L.rec[lin];
    CHECK_INT_EQ(num(r, "depth"), 1);
    CHECK_STR_EQ(str(r, "key"), "AutogradCPU");
    CHECK_STR_EQ(str(r, "kernel"), "math kernel");
    CHECK(strncmp(str(r, "where"), "src/ops/ops.def:", 16) == 0);
    CHECK_STR_EQ(str(r, "tls_included"), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
    CHECK(strstr(str(r, "tls_excluded"), "AutocastCPU") != NULL);
    CHECK_STR_EQ(str(r, "merged"), "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)");
    CHECK_STR_EQ(str(r, "phase"), "forward");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "grad_enabled")));
    CHECK_INT_EQ(num(r, "thread"), (long long)num(L.rec[lin + 1], "thread"));
    const cJSON *in = arg(r, "input");
    char buf[128];
    CHECK(in != NULL);
    if (in) {
        CHECK_STR_EQ(str(in, "keys"), "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
        CHECK_STR_EQ(str(in, "dtype"), "float32");
        ints(in, "shape", buf, sizeof buf);
        CHECK_STR_EQ(buf, "[2, 64]");
        ints(in, "stride", buf, sizeof buf);
        CHECK_STR_EQ(buf, "[64, 1]");
    }

    /* addmm: its arguments (b, x, W.t() with the transposed strides, the scalars) and the
     * sequence number of the node it creates */
    int am = find(&L, lin, "call", "aten::addmm", "default");
    CHECK(am > lin);
    r = L.rec[am];
    CHECK_INT_EQ(num(r, "depth"), 2);
    CHECK_STR_EQ(str(r, "key"), "AutogradCPU");
    const cJSON *m2 = arg(r, "mat2"), *m1 = arg(r, "mat1"), *beta = arg(r, "beta");
    CHECK(m2 && m1 && beta);
    if (m2 && m1 && beta && in) {
        ints(m2, "shape", buf, sizeof buf);
        CHECK_STR_EQ(buf, "[64, 600]");
        ints(m2, "stride", buf, sizeof buf);
        CHECK_STR_EQ(buf, "[1, 64]");
        CHECK_INT_EQ(num(beta, "value"), 1);
        CHECK_INT_EQ(num(m1, "id"), (long long)num(in, "id")); /* x, by id */
    }
    CHECK(has(r, "seq"));
    int seq = (int)num(r, "seq");
    int amr = find(&L, am, "redispatch", "aten::addmm", "default");
    CHECK(amr == am + 1 && !has(L.rec[amr], "seq") && !has(L.rec[amr], "tls_included"));
    if (amr > 0) CHECK_STR_EQ(str(L.rec[amr], "key"), "CPU");

    /* backward: the hops inside AddmmBackward0 name it and the addmm's sequence number */
    int node_hops = 0;
    for (int i = am; i < L.n; i++) {
        const char *node = str(L.rec[i], "node");
        if (node && strcmp(node, "AddmmBackward0") == 0) {
            node_hops++;
            CHECK_INT_EQ(num(L.rec[i], "backward_of"), seq);
            CHECK_STR_EQ(str(L.rec[i], "phase"), "backward");
        }
    }
    CHECK(node_hops >= 2); /* two mm (or more) */
    int acc = -1;
    for (int i = am; i < L.n && acc < 0; i++)
        if (str(L.rec[i], "node") && strcmp(str(L.rec[i], "node"), "AccumulateGrad") == 0) acc = i;
    CHECK(acc > 0 && !has(L.rec[acc], "backward_of")); /* AccumulateGrad has no sequence number */
    /* the last record: the seed, with no phase */
    const cJSON *last = L.rec[L.n - 1];
    CHECK_STR_EQ(str(last, "type"), "seed");
    CHECK_INT_EQ(num(last, "seed"), 7);
    lines_free(&L);
    ct_tensor *all[] = {x, w, b, y, s};
    for (int i = 0; i < 5; i++) ct_tensor_release(all[i]);
}

/* ---- float16, inference mode, a dispatch mode, scalars -------------------------------------- */

static int pass_through(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    return ct_call(op, args, rets);
}

static void test_contexts(void) {
    const char *path = path_in("contexts.jsonl");
    int64_t sz[1] = {3};
    ct_tensor *h = ct_ones(sz, 1, CT_FLOAT16), *f = ct_ones(sz, 1, CT_FLOAT32);
    CHECK_INT_EQ(ct_trace_file_open(path, NULL), 0);
    ct_tensor *a = ct_add(h, h, ct_double(0.5));
    ct_grad_mode_guard g;
    ct_inference_mode_enter(&g);
    ct_tensor *two = ct_tensor_scalar(2.0, CT_FLOAT32);
    ct_tensor *c = ct_mul(f, two);
    ct_tensor_release(two);
    ct_grad_mode_exit(&g);
    int mode = ct_dispatch_mode_push(pass_through, NULL);
    ct_tensor *d = ct_neg(f);
    ct_dispatch_mode_pop(mode);
    ct_tensor *e = ct_sum_dim(f, (int64_t[]){0}, 1, true, CT_FLOAT64);
    CHECK_INT_EQ(ct_trace_file_close(), 0);
    lines L = read_trace(path);
    /* no seed given: null; the program is the command line */
    CHECK(L.n > 0 && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(L.rec[0], "seed")));
    CHECK(L.n > 0 && str(L.rec[0], "program") && strstr(str(L.rec[0], "program"), "test_trace_file"));
    int i = find(&L, 1, "call", "aten::add", "Tensor");
    CHECK(i > 0);
    if (i > 0) {
        CHECK_STR_EQ(str(arg(L.rec[i], "self"), "dtype"), "float16");
        CHECK(num(arg(L.rec[i], "alpha"), "value") == 0.5);
        CHECK(!has(L.rec[i], "phase"));
    }
    i = find(&L, 1, "call", "aten::mul", "Tensor");
    CHECK(i > 0);
    if (i > 0) {
        CHECK_STR_EQ(str(L.rec[i], "key"), "CPU");
        CHECK(strstr(str(L.rec[i], "tls_excluded"), "AutogradOther") != NULL);
        CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(L.rec[i], "grad_enabled")));
        CHECK(!has(L.rec[i], "seq"));
    }
    /* under the mode the op reaches the Python key by a redispatch */
    int py = -1;
    for (int k = 1; k < L.n && py < 0; k++)
        if (strcmp(str(L.rec[k], "op"), "aten::neg") == 0 && strcmp(str(L.rec[k], "key"), "Python") == 0) py = k;
    CHECK(py > 0 && strcmp(str(L.rec[py], "hop"), "redispatch") == 0);
    i = find(&L, 1, "call", "aten::sum", "dim_IntList");
    CHECK(i > 0);
    if (i > 0) {
        char buf[64];
        ints(arg(L.rec[i], "dim"), "value", buf, sizeof buf);
        CHECK_STR_EQ(buf, "[0]");
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(arg(L.rec[i], "keepdim"), "value")));
        CHECK_STR_EQ(str(arg(L.rec[i], "dtype"), "value"), "float64");
    }
    lines_free(&L);
    ct_tensor *all[] = {h, f, a, c, d, e};
    for (int k = 0; k < 6; k++) ct_tensor_release(all[k]);
}

/* ---- ids keep nothing alive; threads ------------------------------------------------------- */

static void *thread_body(void *arg) {
    (void)arg;
    ct_trace_set_phase("worker");
    int64_t sz[1] = {2};
    for (int i = 0; i < 200; i++) {
        ct_tensor *t = ct_zeros(sz, 1, CT_FLOAT32);
        ct_tensor_release(t);
    }
    return NULL;
}

static void test_ids_and_threads(void) {
    const char *path = path_in("threads.jsonl");
    int64_t live0 = ct_testing_live_tensors();
    CHECK_INT_EQ(ct_trace_file_open(path, NULL), 0);
    int64_t sz[1] = {2};
    for (int i = 0; i < 100; i++) {
        ct_tensor *t = ct_zeros(sz, 1, CT_FLOAT32);
        ct_tensor *u = ct_neg(t);
        ct_tensor_release(t);
        ct_tensor_release(u);
    }
    CHECK_INT_EQ(ct_testing_live_tensors(), live0); /* the file named them without keeping them */
    ct_trace_set_phase("one");
    ct_tensor_release(ct_zeros(sz, 1, CT_FLOAT32)); /* the hops of one zeros() */
    ct_trace_set_phase(NULL);
    pthread_t th[2];
    for (int k = 0; k < 2; k++) pthread_create(&th[k], NULL, thread_body, NULL);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    CHECK_INT_EQ(ct_trace_file_close(), 0);
    lines L = read_trace(path);
    /* every neg has a new input id; the workers' records carry their phase and thread ids */
    double last_id = 0;
    int negs = 0, worker = 0, one = 0;
    double main_tid = -1, tids[3] = {-1, -1, -1};
    int ntid = 0;
    for (int i = 1; i < L.n; i++) {
        const cJSON *r = L.rec[i];
        if (strcmp(str(r, "op"), "aten::neg") == 0 && strcmp(str(r, "hop"), "call") == 0) {
            double id = num(arg(r, "self"), "id");
            CHECK(id > last_id);
            last_id = id;
            negs++;
            main_tid = num(r, "thread");
        }
        if (str(r, "phase") && strcmp(str(r, "phase"), "one") == 0) one++;
        if (str(r, "phase") && strcmp(str(r, "phase"), "worker") == 0) {
            worker++;
            double t = num(r, "thread");
            bool seen = false;
            for (int k = 0; k < ntid; k++) seen |= tids[k] == t;
            if (!seen && ntid < 3) tids[ntid++] = t;
        }
    }
    CHECK_INT_EQ(negs, 100);
    CHECK(one >= 2);
    CHECK_INT_EQ(worker, 2 * 200 * one); /* nothing lost or doubled across threads */
    CHECK_INT_EQ(ntid, 2);
    CHECK(tids[0] != main_tid && tids[1] != main_tid);
    lines_free(&L);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void test_errors(void) {
    CHECK_INT_EQ(ct_trace_file_open(NULL, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_trace_file_open: path is NULL");
    char p[600];
    snprintf(p, sizeof p, "%s/no/such/dir/t.jsonl", dir);
    CHECK_INT_EQ(ct_trace_file_open(p, NULL), -1);
    char want[700];
    snprintf(want, sizeof want, "[Errno 2] No such file or directory: '%s'", p);
    CHECK_ERROR(CT_ERR_IO, want);
    CHECK(!ct_trace_file_is_open());
    ct_trace_file_stats st;
    CHECK_INT_EQ(ct_trace_file_stats_get(&st), -1);
    ct_error_clear();
    /* a full disk: writes fail, the program runs on, close says so */
    if (access("/dev/full", W_OK) == 0) {
        ct_trace_file_options o = {"full", false, 0, 4096};
        CHECK_INT_EQ(ct_trace_file_open("/dev/full", &o), 0);
        int64_t sz[1] = {2};
        for (int i = 0; i < 100; i++) {
            ct_tensor *t = ct_zeros(sz, 1, CT_FLOAT32);
            CHECK(t != NULL);
            ct_tensor_release(t);
        }
        CHECK_INT_EQ(ct_trace_file_close(), -1);
        CHECK_ERROR(CT_ERR_IO, "[Errno 28] No space left on device: '/dev/full'");
    }
}

/* ---- a million ops, flat memory ------------------------------------------------------------ */

#if defined(__SANITIZE_ADDRESS__)
#define MILLION 200000 /* the sanitizers make each hop ~10x slower; flatness shows as well */
#else
#define MILLION 1000000
#endif

static void test_million(void) {
    int64_t sz[1] = {1};
    ct_tensor *a = ct_ones(sz, 1, CT_FLOAT32);
    ct_tensor *b = ct_ones(sz, 1, CT_FLOAT32);
    /* warm up: the first calls build lazily made tables */
    for (int i = 0; i < 1000; i++) ct_tensor_release(ct_add(a, b, ct_int(1)));

    /* the yardstick: collecting in memory holds the decision trace's ring (CT_TRACE_DEFAULT_CAPACITY
     * records of 56 bytes, allocated by ct_trace_begin) */
    long long h0 = heap_in_use();
    ct_trace_begin();
    for (int i = 0; i < 20000; i++) ct_tensor_release(ct_add(a, b, ct_int(1)));
    long long collected = heap_in_use() - h0;
    ct_dispatch_record *recs;
    size_t nrec;
    ct_trace_end(&recs, &nrec);
    ct_free(recs);
    CHECK_MSG(collected > 1000000, "collecting 20000 ops in memory held %lld bytes of heap", collected);

    ct_trace_file_options o = {"a million add", false, 0, 64 * 1024};
    CHECK_INT_EQ(ct_trace_file_open("/dev/null", &o), 0);
    long long base = 0, peak = 0;
    for (int i = 0; i < MILLION; i++) {
        ct_tensor_release(ct_add(a, b, ct_int(1)));
        if (i == 1000) base = heap_in_use(); /* after the buffer and the first records */
        if (i > 1000 && i % 50000 == 0) {
            long long d = heap_in_use() - base;
            if (d > peak) peak = d;
        }
    }
    ct_trace_file_stats st;
    CHECK_INT_EQ(ct_trace_file_stats_get(&st), 0);
    CHECK_INT_EQ(ct_trace_file_close(), 0);
    /* add: a call at AutogradCPU and a redispatch to CPU per op, plus the header */
    CHECK_INT_EQ((long long)st.records, 2LL * MILLION + 1);
    CHECK(st.buffer_high_water <= st.buffer_bytes && st.buffer_bytes == 64 * 1024);
    CHECK(st.largest_record < st.buffer_bytes);
    CHECK_MSG(peak < 256 * 1024, "the heap grew by %lld bytes while %d ops were traced", peak, MILLION);
    printf("%d add ops: %" PRIu64 " records, %.1f MB written in %" PRIu64
           " writes of a %zu-byte buffer (at most %zu bytes held); the heap grew by at most %lld bytes"
           " (20000 ops collected in memory: %lld bytes)\n",
           MILLION, st.records, (double)st.bytes / 1e6, st.flushes, st.buffer_bytes, st.buffer_high_water, peak, collected);
    ct_tensor_release(a);
    ct_tensor_release(b);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    CHECK(mkdtemp(dir) != NULL);
    test_fields();
    test_contexts();
    test_ids_and_threads();
    test_errors();
    test_million();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT_EQ(system(cmd), 0);
    return ct_test_finish("test_trace_file");
}
