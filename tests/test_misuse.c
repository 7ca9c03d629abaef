/* The misuse suite: mistakes a user of the public API makes, one case each. Every case checks
 * that the call fails with the expected kind and exact message (PyTorch 2.6's where PyTorch
 * has one; those in tests/golden/torch-2.6/messages.json are read from there), and that
 * afterwards the library is as it was: live tensors, storages and autograd nodes, the
 * dispatch and function mode stacks, the thread's include/exclude key sets, grad and
 * inference mode, no profiler recording and no trace collecting, and a linear forward and
 * backward giving the same numbers as before the first case. Prints the number of cases. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

/* The out-of-memory cases ask for 2^48 floats, which PyTorch reports as an error: under
 * AddressSanitizer the allocator must return NULL for them too rather than abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* ---- the state every case must leave as it found it ---- */

typedef struct snapshot {
    int64_t tensors, storages, nodes;
    int dispatch_modes;
    ct_keyset included, excluded;
    bool grad, inference;
} snapshot;

static snapshot take(void) {
    snapshot s = {ct_testing_live_tensors(), ct_testing_live_storages(), ct_testing_live_nodes(),
                  ct_dispatch_mode_stack_len(), ct_tls_included(), ct_tls_excluded(), ct_is_grad_enabled(),
                  ct_is_inference_mode_enabled()};
    return s;
}

static bool function_modes_empty(void) {
    if (ct_function_mode_stack_len() != 0) { /* one was left: the case failed anyway */
        while (ct_function_mode_stack_len() > 0) ct_function_mode_pop(ct_function_mode_top_handle());
        return false;
    }
    ct_error_clear();
    return true;
}

static bool profiler_idle(void) {
    ct_profiler *p = ct_profiler_start(false);
    if (!p) {
        ct_error_clear();
        return false;
    }
    ct_profiler_stop(p);
    ct_profiler_free(p);
    return true;
}

static bool trace_idle(void) {
    if (ct_trace_begin() != 0) {
        ct_error_clear();
        return false;
    }
    ct_dispatch_record *r = NULL;
    size_t n = 0;
    ct_trace_end(&r, &n);
    ct_free(r);
    return true;
}

/* y = linear(x, W, b); (y * y).sum().backward(): y and W.grad as numbers */
static int linear_run(double y[8], double wgrad[12]) {
    static const double xd[6] = {0.5, -1.0, 2.0, 1.5, 0.25, -0.75};
    static const double wd[12] = {0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8, -0.9, 1.0, -1.1, 1.2};
    static const double bd[4] = {0.01, -0.02, 0.03, -0.04};
    int64_t xs[2] = {2, 3}, ws[2] = {4, 3}, bs[1] = {4};
    int rc = -1;
    ct_tensor *x = ct_tensor_from_doubles(xd, xs, 2, CT_FLOAT32), *W = ct_tensor_from_doubles(wd, ws, 2, CT_FLOAT32),
              *b = ct_tensor_from_doubles(bd, bs, 1, CT_FLOAT32), *out = NULL, *sq = NULL, *loss = NULL;
    if (!x || !W || !b || ct_tensor_set_requires_grad(W, true) != 0) goto done;
    if (!(out = ct_linear(x, W, b)) || !(sq = ct_mul(out, out)) || !(loss = ct_sum(sq, CT_DTYPE_UNDEFINED))) goto done;
    if (ct_backward(loss, NULL, false) != 0) goto done;
    if (ct_tensor_to_doubles(out, y, 8) != 0 || !ct_tensor_grad(W) || ct_tensor_to_doubles(ct_tensor_grad(W), wgrad, 12) != 0)
        goto done;
    rc = 0;
done:
    ct_tensor_release(x);
    ct_tensor_release(W);
    ct_tensor_release(b);
    ct_tensor_release(out);
    ct_tensor_release(sq);
    ct_tensor_release(loss);
    return rc;
}

static double ref_y[8], ref_wgrad[12];
static int n_cases, n_failed_cases;
static const char *case_name;
static int case_line, case_failures_before;
static snapshot before;

static int case_begin(const char *name, int line) {
    case_name = name;
    case_line = line;
    case_failures_before = ct_test_failures;
    ct_error_clear();
    before = take();
    return 1;
}

static int case_end(void) {
    ct_error_clear();
    snapshot after = take();
    const char *n = case_name;
    CHECK_MSG(after.tensors == before.tensors, "%s: live tensors %lld -> %lld", n, (long long)before.tensors,
              (long long)after.tensors);
    CHECK_MSG(after.storages == before.storages, "%s: live storages %lld -> %lld", n, (long long)before.storages,
              (long long)after.storages);
    CHECK_MSG(after.nodes == before.nodes, "%s: live nodes %lld -> %lld", n, (long long)before.nodes, (long long)after.nodes);
    CHECK_MSG(after.dispatch_modes == before.dispatch_modes, "%s: dispatch modes %d -> %d", n, before.dispatch_modes,
              after.dispatch_modes);
    CHECK_MSG(after.included == before.included && after.excluded == before.excluded, "%s: TLS key sets changed", n);
    CHECK_MSG(after.grad == before.grad && after.inference == before.inference, "%s: grad mode changed", n);
    CHECK_MSG(function_modes_empty(), "%s: a function mode was left entered", n);
    CHECK_MSG(profiler_idle(), "%s: a profiler was left recording", n);
    CHECK_MSG(trace_idle(), "%s: a trace was left collecting", n);
    double y[8], g[12];
    int rc = linear_run(y, g);
    CHECK_MSG(rc == 0 && memcmp(y, ref_y, sizeof y) == 0 && memcmp(g, ref_wgrad, sizeof g) == 0,
              "%s: linear forward/backward differs afterwards", n);
    ct_error_clear();
    n_cases++;
    if (ct_test_failures != case_failures_before) n_failed_cases++;
    return 0;
}

/* One case: the block makes the mistake (EXPECT) and frees what it made. */
#define CASE(name) for (int once_ = case_begin((name), __LINE__); once_; once_ = case_end())

/* `failed` says the call reported failure; the thread's error must then be kind + msg. */
#define EXPECT(failed, kind, msg) expect(__LINE__, (failed), (kind), (msg))
static void expect(int line, bool failed, ct_error_kind kind, const char *msg) {
    char where[512];
    snprintf(where, sizeof where, "%s (line %d)", case_name, line);
    CHECK_MSG(failed, "%s: the call did not fail (error: %s)", where, ct_error_message());
    if (!msg) {
        printf("MSG %d %s: %s [%s]\n", line, where, ct_error_kind_name(ct_error_code()), ct_error_message());
        ct_error_clear();
        return;
    }
    CHECK_MSG(ct_error_code() == kind, "%s: error kind %s, want %s (%s)", where, ct_error_kind_name(ct_error_code()),
              ct_error_kind_name(kind), ct_error_message());
    CHECK_MSG(strcmp(ct_error_message(), msg) == 0, "%s:\n   got: [%s]\n  want: [%s]", where, ct_error_message(), msg);
    ct_error_clear();
}

/* ---- PyTorch's recorded messages ---- */

static cJSON *golden;
static const char *golden_msg(const char *name) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(golden, name);
    const char *m = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "message"));
    CHECK_MSG(m != NULL, "no recorded message %s", name);
    return m ? m : "(missing)";
}
static ct_error_kind golden_kind(const char *name) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(golden, name);
    const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "type"));
    if (!t) return CT_OK;
    if (strcmp(t, "RuntimeError") == 0) return CT_ERR_RUNTIME;
    if (strcmp(t, "TypeError") == 0) return CT_ERR_TYPE;
    if (strcmp(t, "AttributeError") == 0) return CT_ERR_VALUE; /* as the profiler table's sort keys */
    return CT_ERR_KIND_COUNT;
}
#define EXPECT_GOLDEN(failed, name) EXPECT((failed), golden_kind(name), golden_msg(name))

/* ---- helpers ---- */

static ct_tensor *mat(int64_t r, int64_t c, ct_dtype dt) {
    int64_t s[2] = {r, c};
    return ct_ones(s, 2, dt);
}
static ct_tensor *vec(int64_t n, ct_dtype dt) { return ct_ones(&n, 1, dt); }
static ct_tensor *leaf(int64_t r, int64_t c) {
    ct_tensor *t = mat(r, c, CT_FLOAT32);
    ct_tensor_set_requires_grad(t, true);
    return t;
}

static int fail_quietly(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud, (void)op, (void)args, (void)rets;
    return -1; /* no error set: NotImplemented */
}
static int fail_on_mm(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    if (strcmp(ct_op_name(op), "aten::mm") == 0) return ct_error_set(CT_ERR_RUNTIME, "the mode refused aten::mm");
    return ct_call(op, args, rets);
}
static int fmode_fail_quietly(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    (void)ud, (void)f, (void)args, (void)rets;
    return -1;
}
/* a handler that enters a new mode (itself again) before calling on: without end */
static int enter_and_call(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    if (ct_dispatch_mode_push(enter_and_call, ud) < 0) return -1;
    return ct_call(op, args, rets);
}
static int fmode_enter_and_call(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    if (ct_function_mode_push(fmode_enter_and_call, ud) < 0) return -1;
    return ct_function_call(f, args, rets);
}
/* a handler that calls on with a Python-like number where the schema has a tensor */
static int fmode_number_for_tensor(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    (void)ud;
    ct_value a[3] = {args[0], ct_int(1), args[2]};
    return ct_function_call(f, a, rets);
}
static void *push_on_a_thread(void *out) {
    *(int *)out = ct_dispatch_mode_push(fail_quietly, NULL); /* left pushed: the thread's stack dies with it */
    return NULL;
}
static void *exit_on_a_thread(void *g) {
    int rc = ct_grad_mode_exit(g);
    CHECK_INT_EQ(rc, -1);
    CHECK_ERROR(CT_ERR_RUNTIME,
                "ct_grad_mode_exit: the guard was not entered on this thread, or guards entered before it were already "
                "exited");
    return NULL;
}
static int sub_fail_quietly(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)cls_data, (void)op, (void)args, (void)rets;
    return -1;
}

#define NOERR_NULL(call) ((call) == NULL)

/* ---- the cases ---- */

static void tensor_cases(void) {
    ct_tensor *t;
    int64_t idx[2] = {5, 0}, neg1 = -1, two = 2;
    double d[4] = {1, 2, 3, 4}, out[4];
    CASE("ndim of NULL") EXPECT(ct_tensor_ndim(NULL) == -1, CT_ERR_VALUE, "ct_tensor_ndim: tensor is NULL");
    CASE("sizes of NULL") EXPECT(ct_tensor_sizes(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_sizes: tensor is NULL");
    CASE("strides of NULL") EXPECT(ct_tensor_strides(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_strides: tensor is NULL");
    CASE("size of NULL") EXPECT(ct_tensor_size(NULL, 0) == -1, CT_ERR_VALUE, "ct_tensor_size: tensor is NULL");
    CASE("size(2) of a matrix") {
        t = mat(2, 3, CT_FLOAT32);
        EXPECT(ct_tensor_size(t, 2) == -1, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
        ct_tensor_release(t);
    }
    CASE("size(-3) of a matrix") {
        t = mat(2, 3, CT_FLOAT32);
        EXPECT(ct_tensor_size(t, -3) == -1, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
        ct_tensor_release(t);
    }
    CASE("numel of NULL") EXPECT(ct_tensor_numel(NULL) == -1, CT_ERR_VALUE, "ct_tensor_numel: tensor is NULL");
    CASE("dtype of NULL") EXPECT(ct_tensor_dtype(NULL) == CT_DTYPE_UNDEFINED, CT_ERR_VALUE, "ct_tensor_dtype: tensor is NULL");
    CASE("storage_offset of NULL") EXPECT(ct_tensor_storage_offset(NULL) == -1, CT_ERR_VALUE, "ct_tensor_storage_offset: tensor is NULL");
    CASE("is_contiguous of NULL") EXPECT(!ct_tensor_is_contiguous(NULL), CT_ERR_VALUE, "ct_tensor_is_contiguous: tensor is NULL");
    CASE("data_ptr of NULL") EXPECT(ct_tensor_data_ptr(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_data_ptr: tensor is NULL");
    CASE("version of NULL") EXPECT(ct_tensor_version(NULL) == -1, CT_ERR_VALUE, "ct_tensor_version: tensor is NULL");
    CASE("get out of range") {
        t = mat(2, 3, CT_FLOAT32);
        EXPECT(ct_tensor_get(t, idx, out) == -1, CT_ERR_INDEX, "index 5 is out of bounds for dimension 0 with size 2");
        ct_tensor_release(t);
    }
    CASE("get of NULL") EXPECT(ct_tensor_get(NULL, idx, out) == -1, CT_ERR_VALUE, "ct_tensor_get: NULL argument");
    CASE("item of a 2x2") {
        t = mat(2, 2, CT_FLOAT32);
        EXPECT(ct_tensor_item(t, out) == -1, CT_ERR_RUNTIME, "a Tensor with 4 elements cannot be converted to Scalar");
        ct_tensor_release(t);
    }
    CASE("item of NULL") EXPECT(ct_tensor_item(NULL, out) == -1, CT_ERR_VALUE, "ct_tensor_item: NULL argument");
    CASE("to_doubles into too small a buffer") {
        t = mat(2, 2, CT_FLOAT32);
        EXPECT(ct_tensor_to_doubles(t, out, 3) == -1, CT_ERR_VALUE, "ct_tensor_to_doubles: buffer holds 3 values, tensor has 4");
        ct_tensor_release(t);
    }
    CASE("repr of NULL") EXPECT(ct_tensor_repr(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
    CASE("from_data without data") EXPECT(ct_tensor_from_data(NULL, &two, 1, CT_FLOAT32) == NULL, CT_ERR_VALUE, "ctorch_tensor_from_data: data is NULL");
    CASE("from_doubles with a negative size")
        EXPECT(ct_tensor_from_doubles(d, &neg1, 1, CT_FLOAT32) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");
    CASE("from_doubles with 17 dimensions") {
        int64_t s17[17];
        for (int i = 0; i < 17; i++) s17[i] = 1;
        EXPECT(ct_tensor_from_doubles(d, s17, 17, CT_FLOAT32) == NULL, CT_ERR_RUNTIME, "ctorch supports tensors of at most 16 dimensions (got 17)");
    }
    CASE("from_data with no such dtype") EXPECT(ct_tensor_from_data(d, &two, 1, (ct_dtype)99) == NULL, CT_ERR_TYPE, "ctorch: invalid dtype 99");
    CASE("scalar with no such dtype") EXPECT(ct_tensor_scalar(1.0, (ct_dtype)99) == NULL, CT_ERR_TYPE, "ctorch: invalid dtype 99");
}

static void factory_cases(void) {
    int64_t s[2] = {2, -1}, st1[1] = {1}, s23[2] = {2, 3}, stneg[2] = {-1, 1}, m3 = -3;
    CASE("empty with a negative size")
        EXPECT(ct_empty(s, 2, CT_DTYPE_UNDEFINED, CT_MEMORY_FORMAT_NONE) == NULL, CT_ERR_RUNTIME,
               "Trying to create tensor with negative dimension -1: [2, -1]");
    CASE("zeros with a negative size")
        EXPECT(ct_zeros(&m3, 1, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -3: [-3]");
    CASE("ones with a negative size") EXPECT(ct_ones(s, 2, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
    CASE("full with a negative size") EXPECT(ct_full(s, 2, ct_double(1.0), CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
    CASE("randn with a negative size") EXPECT(ct_randn(s, 2, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
    static const struct {
        const char *golden;
        int64_t sizes[2];
        int ndim;
        ct_dtype dt;
    } big[] = {{"empty_2^62x2^62_float32", {INT64_C(1) << 62, INT64_C(1) << 62}, 2, CT_FLOAT32},
               {"empty_2^32x2^32_float32", {INT64_C(1) << 32, INT64_C(1) << 32}, 2, CT_FLOAT32},
               {"empty_2^61x8_float32", {INT64_C(1) << 61, 8}, 2, CT_FLOAT32},
               {"empty_2^62_float64", {INT64_C(1) << 62}, 1, CT_FLOAT64},
               {"empty_2^48_float32", {INT64_C(1) << 48}, 1, CT_FLOAT32},
               {"empty_2^47x2_int64", {INT64_C(1) << 47, 2}, 2, CT_INT64}};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        CASE(big[i].golden) {
            ct_error_kind k = strstr(big[i].golden, "2^4") ? CT_ERR_NOMEM : golden_kind(big[i].golden);
            EXPECT(ct_empty(big[i].sizes, big[i].ndim, big[i].dt, CT_MEMORY_FORMAT_NONE) == NULL, k, golden_msg(big[i].golden));
        }
    }
    CASE("zeros of 2^48 floats (the bytes asked for)")
        EXPECT(ct_zeros(big[4].sizes, 1, CT_FLOAT32) == NULL, CT_ERR_NOMEM, golden_msg("empty_2^48_float32"));
    CASE("full overflowing float32")
        EXPECT(ct_full(&s23[0], 1, ct_double(1e300), CT_FLOAT32) == NULL, CT_ERR_RUNTIME,
               "value cannot be converted to type float without overflow");
    CASE("empty_strided with fewer strides than sizes")
        EXPECT(ct_empty_strided(s23, 2, st1, 1, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME,
               "dimensionality of sizes (2) must match dimensionality of strides (1)");
    CASE("empty_strided with a negative stride")
        EXPECT(ct_empty_strided(s23, 2, stneg, 2, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME,
               "Storage size calculation overflowed with sizes=[2, 3] and strides=[-1, 1]");
    CASE("randint with low >= high") EXPECT(ct_randint(5, 2, s23, 2, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=5 >= to=2");
}

/* the composites family from C: NULL arguments, bad equations, odd halving dimensions, wrong
 * ranks and dtypes, with PyTorch 2.6's kind and message (tests/golden/torch-2.6/composite_ops.json) */
static void composite_cases(void) {
    ct_tensor *a = mat(2, 3, CT_FLOAT32), *b = mat(3, 2, CT_FLOAT32), *odd = mat(3, 3, CT_FLOAT32);
    int64_t s0 = 0, s3 = 3, one = 1, zero = 0, d01[2] = {0, 1};
    ct_tensor *v3 = ct_ones(&s3, 1, CT_FLOAT32), *i3 = ct_ones(&s3, 1, CT_INT64), *e0 = ct_zeros(&s0, 1, CT_FLOAT32);
    ct_tensor *ab[2] = {a, b}, *anull[2] = {a, NULL};
    CASE("einsum without operands") EXPECT(ct_einsum("i", NULL, 0, NULL, 0) == NULL, CT_ERR_RUNTIME, "einsum(): must provide at least one operand");
    CASE("einsum with a NULL operand") EXPECT(ct_einsum("ij,jk", anull, 2, NULL, 0) == NULL, CT_ERR_TYPE, "expected Tensor as element 1 in argument 1, but got NoneType");
    CASE("einsum with a digit subscript")
        EXPECT(ct_einsum("i1", &odd, 1, NULL, 0) == NULL, CT_ERR_RUNTIME,
               "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]");
    CASE("einsum with fewer operands than the equation") EXPECT(ct_einsum("ij,jk,kl", ab, 2, NULL, 0) == NULL, CT_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the equation");
    CASE("einsum with a short path")
        EXPECT(ct_einsum("ij,jk", ab, 2, &zero, 1) == NULL, CT_ERR_RUNTIME, "einsum(): expected contraction path given in path parameter to have size 2 but got 1");
    CASE("einsum with sizes that do not broadcast")
        EXPECT(ct_einsum("ij,jk", (ct_tensor *[]){a, a}, 2, NULL, 0) == NULL, CT_ERR_RUNTIME,
               "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3");
    CASE("tensordot with lists of two lengths")
        EXPECT(ct_tensordot(a, b, d01, 2, &zero, 1) == NULL, CT_ERR_RUNTIME, "both dimension lists should have same length");
    CASE("tensordot of two dtypes") EXPECT(ct_tensordot(v3, i3, &zero, 1, &zero, 1) == NULL, CT_ERR_RUNTIME, "both inputs should have same dtype");
    CASE("tensordot of unequal sizes")
        EXPECT(ct_tensordot(a, a, &one, 1, &zero, 1) == NULL, CT_ERR_RUNTIME,
               "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 2 in dim 0");
    ct_tensor **grids = NULL;
    int64_t ngrids = 0;
    CASE("meshgrid of no tensors") EXPECT(ct_meshgrid_indexing(NULL, 0, "ij", &grids, &ngrids) == -1, CT_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
    CASE("meshgrid with an unknown indexing")
        EXPECT(ct_meshgrid_indexing(&v3, 1, "ab", &grids, &ngrids) == -1, CT_ERR_RUNTIME, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ab");
    CASE("meshgrid of two dtypes") EXPECT(ct_meshgrid((ct_tensor *[]){v3, i3}, 2, &grids, &ngrids) == -1, CT_ERR_RUNTIME, "meshgrid expects all tensors to have the same dtype");
    CHECK(grids == NULL);
    CASE("cartesian_prod of a matrix") EXPECT(ct_cartesian_prod(&a, 1) == NULL, CT_ERR_RUNTIME, "Expect a 1D vector, but got shape [2, 3]");
    CASE("glu over an odd dimension") EXPECT(ct_glu(odd, -1) == NULL, CT_ERR_RUNTIME, "Halving dimension must be even, but dimension 1 is size 3");
    CASE("glu of a 0-d tensor") {
        ct_tensor *z = ct_tensor_scalar(1, CT_FLOAT32);
        EXPECT(ct_glu(z, -1) == NULL, CT_ERR_RUNTIME, "glu does not support scalars because halving size must be even");
        ct_tensor_release(z);
    }
    CASE("glu of integers") {
        ct_tensor *z = mat(2, 4, CT_INT64);
        EXPECT(ct_glu(z, -1) == NULL, CT_ERR_RUNTIME, "\"glu_cpu\" not implemented for 'Long'");
        ct_tensor_release(z);
    }
    CASE("glu over dimension 2 of a matrix") EXPECT(ct_glu(a, 2) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    CASE("norm of integers") EXPECT(ct_norm_ScalarOpt_dim(i3, NULL, &zero, 1, false) == NULL, CT_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got Long instead.");
    CASE("linalg_vector_norm of order -1 over no elements")
        EXPECT(ct_linalg_vector_norm(e0, ct_int(-1), NULL, 0, false, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME,
               "linalg.vector_norm cannot compute the -1 norm on an empty tensor because the operation does not have an identity");
    CASE("cosine_embedding_loss with a 2-d target")
        EXPECT(ct_cosine_embedding_loss(a, a, a, 0.0, 1) == NULL, CT_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
    CASE("cosine_embedding_loss with a 1-d target for vectors")
        EXPECT(ct_cosine_embedding_loss(v3, v3, v3, 0.0, 1) == NULL, CT_ERR_RUNTIME,
               "1D target tensor expects 2D input tensors, but found inputs with sizes [3] and [3].");
    CASE("triplet_margin_loss of mixed ranks")
        EXPECT(ct_triplet_margin_loss(a, v3, a, 1.0, 2.0, 1e-6, false, 1) == NULL, CT_ERR_RUNTIME,
               "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor 2D, positive 1D, and negative 2D inputs");
    CASE("cosine_similarity of integers")
        EXPECT(ct_cosine_similarity(i3, i3, 0, 1e-8) == NULL, CT_ERR_RUNTIME, "expected common dtype to be floating point, yet common dtype is Long");
    CASE("hinge_embedding_loss of unequal sizes")
        EXPECT(ct_hinge_embedding_loss(v3, e0, 1.0, 1) == NULL, CT_ERR_RUNTIME, "The size of tensor a (0) must match the size of tensor b (3) at non-singleton dimension 0");
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(odd);
    ct_tensor_release(v3);
    ct_tensor_release(i3);
    ct_tensor_release(e0);
}

static void view_cases(void) {
    ct_tensor *t = NULL, *t3 = NULL;
    int64_t four = 4, five = 5, mm[2] = {-1, -1}, p0[1] = {0}, p00[2] = {0, 0}, e43[2] = {4, 3}, three = 3, big = 100, one = 1;
    int64_t s3[3] = {2, 2, 2};
#define WITH(expr_make, body)                                                                     \
    do {                                                                                          \
        t = (expr_make);                                                                          \
        body;                                                                                     \
        ct_tensor_release(t);                                                                     \
    } while (0)
    CASE("view to a size of another numel") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_view(t, &four, 1) == NULL, CT_ERR_RUNTIME, "shape '[4]' is invalid for input of size 6"));
    CASE("view inferring two dimensions") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_view(t, mm, 2) == NULL, CT_ERR_RUNTIME, "only one dimension can be inferred"));
    CASE("view of NULL") EXPECT(ct_view(NULL, &four, 1) == NULL, CT_ERR_TYPE, "view(): argument 'input' (position 1) must be Tensor, not NoneType");
    /* chunk and unbind return a list: -1 and no pieces on a mistake (messages as PyTorch 2.6's, tests/golden/torch-2.6/shape_ops.json) */
    ct_tensor **pieces = NULL;
    int64_t npieces = 0;
    CASE("chunk of NULL") EXPECT(ct_chunk(NULL, 2, 0, &pieces, &npieces) == -1, CT_ERR_TYPE, "chunk(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("chunk into 0 pieces") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_chunk(t, 0, 0, &pieces, &npieces) == -1, CT_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: 0"));
    CASE("chunk of a 0-d tensor") WITH(ct_tensor_scalar(1, CT_FLOAT32), EXPECT(ct_chunk(t, 2, 0, &pieces, &npieces) == -1, CT_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor"));
    CASE("unbind of NULL") EXPECT(ct_unbind_int(NULL, 0, &pieces, &npieces) == -1, CT_ERR_TYPE, "unbind(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("unbind of a 0-d tensor") WITH(ct_tensor_scalar(1, CT_FLOAT32), EXPECT(ct_unbind_int(t, 0, &pieces, &npieces) == -1, CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions"));
    CASE("unbind over dim 2 of a matrix") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_unbind_int(t, 2, &pieces, &npieces) == -1, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    CHECK(pieces == NULL);
    /* convolution and pooling: PyTorch 2.6's messages (tests/golden/torch-2.6/conv_pool_ops.json) */
    {
        int64_t c_x4[4] = {1, 2, 5, 5}, c_x3c[4] = {1, 3, 5, 5}, c_w4[4] = {3, 2, 3, 3}, c_small[4] = {1, 2, 2, 2}, c_m2[2] = {5, 5};
        int64_t c_one[1] = {1}, c_zero[1] = {0}, c_two[1] = {2}, c_pad2[1] = {2}, c_o3[3] = {2, 2, 2}, c_div0 = 0;
        ct_tensor *cx = ct_ones(c_x4, 4, CT_FLOAT32), *w = ct_ones(c_w4, 4, CT_FLOAT32), *b64 = ct_ones(&c_w4[0], 1, CT_FLOAT64);
        CASE("conv2d of NULL") EXPECT(ct_conv2d(NULL, w, NULL, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_TYPE, "conv2d(): argument 'input' (position 1) must be Tensor, not NoneType");
        CASE("conv2d with a NULL weight") EXPECT(ct_conv2d(cx, NULL, NULL, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_TYPE, "conv2d(): argument 'weight' (position 2) must be Tensor, not NoneType");
        CASE("conv2d with the wrong number of channels")
            WITH(ct_ones(c_x3c, 4, CT_FLOAT32), EXPECT(ct_conv2d(t, w, NULL, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_RUNTIME, "Given groups=1, weight of size [3, 2, 3, 3], expected input[1, 3, 5, 5] to have 2 channels, but got 3 channels instead"));
        CASE("conv2d with a kernel bigger than the input")
            WITH(ct_ones(c_small, 4, CT_FLOAT32), EXPECT(ct_conv2d(t, w, NULL, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_RUNTIME, "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than actual input size"));
        CASE("conv2d of a matrix")
            WITH(ct_ones(c_m2, 2, CT_FLOAT32), EXPECT(ct_conv2d(t, w, NULL, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_RUNTIME, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [5, 5]"));
        CASE("conv2d with a float64 bias") EXPECT(ct_conv2d(cx, w, b64, c_one, 1, c_zero, 1, c_one, 1, 1) == NULL, CT_ERR_RUNTIME, "Input type (float) and bias type (double) should be the same");
        CASE("conv2d with groups 0") EXPECT(ct_conv2d(cx, w, NULL, c_one, 1, c_zero, 1, c_one, 1, 0) == NULL, CT_ERR_RUNTIME, "non-positive groups is not supported");
        CASE("convolution with a 2-d weight")
            WITH(ct_ones(c_m2, 2, CT_FLOAT32), EXPECT(ct_convolution(t, t, NULL, c_one, 1, c_zero, 1, c_one, 1, false, c_zero, 1, 1) == NULL, CT_ERR_RUNTIME, "weight should have at least three dimensions"));
        CASE("conv2d with a padding string") EXPECT(ct_conv2d_padding(cx, w, NULL, c_one, 1, "full", c_one, 1, 1) == NULL, CT_ERR_RUNTIME, "Invalid padding string: 'full'");
        CASE("max_pool2d of a matrix")
            WITH(ct_ones(c_m2, 2, CT_FLOAT32), EXPECT(ct_max_pool2d(t, c_two, 1, NULL, 0, c_zero, 1, c_one, 1, false) == NULL, CT_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input"));
        CASE("max_pool2d padded past half the kernel") EXPECT(ct_max_pool2d(cx, c_two, 1, NULL, 0, c_pad2, 1, c_one, 1, false) == NULL, CT_ERR_RUNTIME, "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1");
        CASE("avg_pool2d with divisor 0") EXPECT(ct_avg_pool2d(cx, c_two, 1, NULL, 0, c_zero, 1, false, true, &c_div0) == NULL, CT_ERR_RUNTIME, "divisor must be not zero");
        CASE("adaptive_avg_pool2d to 3 sizes") EXPECT(ct_adaptive_avg_pool2d(cx, c_o3, 3) == NULL, CT_ERR_RUNTIME, "adaptive_avg_pool2d: output_size must be 2");
        CASE("im2col of int64")
            WITH(ct_ones(c_x4, 4, CT_INT64), EXPECT(ct_im2col(t, c_two, 1, c_one, 1, c_zero, 1, c_one, 1) == NULL, CT_ERR_RUNTIME, "It is expected kernel_size equals to 2, but got size 1"));
        ct_tensor_release(cx);
        ct_tensor_release(w);
        ct_tensor_release(b64);
    }
    CASE("transpose past the last dimension")
        WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_transpose(t, 0, 2) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    CASE("t of a 3-d tensor") {
        t3 = ct_ones(s3, 3, CT_FLOAT32);
        EXPECT(ct_t(t3) == NULL, CT_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is 3D");
        ct_tensor_release(t3);
    }
    CASE("permute with too few dims") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_permute(t, p0, 1) == NULL, CT_ERR_RUNTIME, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"));
    CASE("permute with a repeated dim") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_permute(t, p00, 2) == NULL, CT_ERR_RUNTIME, "permute(): duplicate dims are not allowed."));
    CASE("expand a non-singleton dimension")
        WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_expand(t, e43, 2, false) == NULL, CT_ERR_RUNTIME, "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]"));
    CASE("expand to fewer dimensions") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_expand(t, &three, 1, false) == NULL, CT_ERR_RUNTIME, "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"));
    CASE("unsqueeze past the end") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_unsqueeze(t, 4) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 4)"));
    CASE("squeeze a dimension that is not there") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_squeeze_dim(t, 5) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"));
    CASE("select an index out of range") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_select(t, 0, 5) == NULL, CT_ERR_INDEX, "select(): index 5 out of range for tensor of size [2, 3] at dimension 0"));
    CASE("select a dimension out of range") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_select(t, 2, 0) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    CASE("reshape to another numel") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_reshape(t, &five, 1) == NULL, CT_ERR_RUNTIME, "shape '[5]' is invalid for input of size 6"));
    CASE("as_strided past the storage")
        WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_as_strided(t, &big, 1, &one, 1, NULL) == NULL, CT_ERR_RUNTIME, "setStorage: sizes [100], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 400 are out of bounds for storage of size 24"));
    CASE("flatten with start after end") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_flatten(t, 1, 0) == NULL, CT_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim"));
    CASE("flatten past the last dimension") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_flatten(t, 0, 3) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 3)"));
}

static void binary_cases(void) {
    ct_tensor *a = NULL, *b = NULL;
#define PAIR(ma, mb, body)                                                                        \
    do {                                                                                          \
        a = (ma);                                                                                 \
        b = (mb);                                                                                 \
        body;                                                                                     \
        ct_tensor_release(a);                                                                     \
        ct_tensor_release(b);                                                                     \
    } while (0)
    CASE("add of 2x3 and 4x3")
        PAIR(mat(2, 3, CT_FLOAT32), mat(4, 3, CT_FLOAT32),
             EXPECT(ct_add(a, b, ct_int(1)) == NULL, CT_ERR_RUNTIME,
                    "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"));
    CASE("add of NULL") PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_add(NULL, a, ct_int(1)) == NULL, CT_ERR_TYPE, "add(): argument 'input' (position 1) must be Tensor, not NoneType"));
    CASE("sub of 2x3 and 3x2") PAIR(mat(2, 3, CT_FLOAT32), mat(3, 2, CT_FLOAT32), EXPECT(ct_sub(a, b, ct_int(1)) == NULL, CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"));
    CASE("mul of 2x3 and 2x4") PAIR(mat(2, 3, CT_FLOAT32), mat(2, 4, CT_FLOAT32), EXPECT(ct_mul(a, b) == NULL, CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"));
    CASE("div of 2x3 and 5") PAIR(mat(2, 3, CT_FLOAT32), vec(5, CT_FLOAT32), EXPECT(ct_div(a, b) == NULL, CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1"));
    CASE("add_ of 2x3 and 4x3") PAIR(mat(2, 3, CT_FLOAT32), mat(4, 3, CT_FLOAT32), EXPECT(ct_add_(a, b, ct_int(1)) == -1, CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"));
    CASE("add_ broadcasting the output")
        PAIR(mat(1, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32), EXPECT(ct_add_(a, b, ct_int(1)) == -1, CT_ERR_RUNTIME, "output with shape [1, 3] doesn't match the broadcast shape [2, 3]"));
    CASE("add_ of a float into an int64")
        PAIR(mat(2, 3, CT_INT64), mat(2, 3, CT_FLOAT32),
             EXPECT(ct_add_(a, b, ct_int(1)) == -1, CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long"));
    CASE("mul_ of an int64 by 1.5") PAIR(mat(2, 3, CT_INT64), NULL, EXPECT(ct_mul_scalar_(a, ct_double(1.5)) == -1, CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long"));
    CASE("add of ints with a float alpha")
        PAIR(mat(2, 3, CT_INT64), mat(2, 3, CT_INT64), EXPECT(ct_add(a, b, ct_double(1.5)) == NULL, CT_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number."));
    CASE("sub of two bools") PAIR(mat(2, 3, CT_BOOL), mat(2, 3, CT_BOOL), EXPECT(ct_sub(a, b, ct_int(1)) == NULL, CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."));
    CASE("bitwise_not of a float") PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_bitwise_not(a) == NULL, CT_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for 'Float'"));
    CASE("masked_fill_ with a float mask")
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32), EXPECT(ct_masked_fill_(a, b, ct_double(0)) == -1, CT_ERR_RUNTIME, "masked_fill_ only supports boolean masks, but got mask with dtype float"));
    CASE("masked_fill_ with a mask of another shape")
        PAIR(mat(2, 3, CT_FLOAT32), mat(4, 3, CT_BOOL), EXPECT(ct_masked_fill_(a, b, ct_double(0)) == -1, CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"));
    CASE("masked_select with a float mask")
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32), EXPECT(ct_masked_select(a, b) == NULL, CT_ERR_RUNTIME, "masked_select: expected BoolTensor for mask"));
    CASE("gather with a float index")
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32), EXPECT(ct_gather(a, 0, b, false) == NULL, CT_ERR_RUNTIME, "gather(): Expected dtype int64 for index"));
    CASE("gather along a dimension out of range")
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_INT64), EXPECT(ct_gather(a, 3, b, false) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 3)"));
    CASE("copy_ of 4x3 into 2x3") PAIR(mat(2, 3, CT_FLOAT32), mat(4, 3, CT_FLOAT32), EXPECT(ct_copy_(a, b, false) == -1, CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"));
    CASE("fill_ of a half with 1e10")
        PAIR(mat(2, 3, CT_FLOAT16), NULL,
             EXPECT(ct_fill_(a, ct_double(1e10)) == -1, CT_ERR_RUNTIME, "value cannot be converted to type at::Half without overflow"));
    CASE("eq of NULL") EXPECT(ct_eq_scalar(NULL, ct_int(1)) == NULL, CT_ERR_TYPE, "eq(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("to a dtype that does not exist")
        PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_to_dtype(a, (ct_dtype)99, false, false, CT_MEMORY_FORMAT_NONE) == NULL, CT_ERR_TYPE, "to: ctorch has no dtype with ScalarType value 99 (it supports float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8 and bool)"));
    CASE("sum over a dimension out of range") {
        int64_t d5 = 5;
        PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_sum_dim(a, &d5, 1, false, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"));
    }
    CASE("sum over a repeated dimension") {
        int64_t d00[2] = {0, 0};
        PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_sum_dim(a, d00, 2, false, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_RUNTIME, "dim 0 appears multiple times in the list of dims"));
    }
    CASE("mm of 2x3 and 2x3")
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32),
             EXPECT(ct_mm(a, b) == NULL, CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"));
    CASE("mm of a vector") PAIR(vec(3, CT_FLOAT32), mat(3, 2, CT_FLOAT32), EXPECT(ct_mm(a, b) == NULL, CT_ERR_RUNTIME, "self must be a matrix"));
    CASE("mm of float and double") PAIR(mat(2, 3, CT_FLOAT32), mat(3, 2, CT_FLOAT64), EXPECT(ct_mm(a, b) == NULL, CT_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: float != double"));
    CASE("addmm with a bias of the wrong size") {
        ct_tensor *bias = vec(5, CT_FLOAT32);
        PAIR(mat(2, 3, CT_FLOAT32), mat(3, 4, CT_FLOAT32), EXPECT(ct_addmm(bias, a, b, ct_int(1), ct_int(1)) == NULL, CT_ERR_RUNTIME, "The expanded size of the tensor (4) must match the existing size (5) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [5]"));
        ct_tensor_release(bias);
    }
    CASE("addmm of 2x3 and 2x4") {
        ct_tensor *bias = vec(4, CT_FLOAT32);
        PAIR(mat(2, 3, CT_FLOAT32), mat(2, 4, CT_FLOAT32), EXPECT(ct_addmm(bias, a, b, ct_int(1), ct_int(1)) == NULL, CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)"));
        ct_tensor_release(bias);
    }
    CASE("linear with a weight of the wrong width")
        PAIR(mat(2, 3, CT_FLOAT32), mat(4, 5, CT_FLOAT32),
             EXPECT(ct_linear(a, b, NULL) == NULL, CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)"));
    CASE("linear with a bias of the wrong size") {
        ct_tensor *bias = vec(7, CT_FLOAT32);
        PAIR(mat(2, 3, CT_FLOAT32), mat(4, 3, CT_FLOAT32), EXPECT(ct_linear(a, b, bias) == NULL, CT_ERR_RUNTIME, "The expanded size of the tensor (4) must match the existing size (7) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [7]"));
        ct_tensor_release(bias);
    }
    CASE("matmul of two 0-d tensors")
        PAIR(ct_tensor_scalar(1, CT_FLOAT32), ct_tensor_scalar(2, CT_FLOAT32), EXPECT(ct_matmul(a, b) == NULL, CT_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are 0D and 0D"));
    CASE("matmul of 2x3 and 2x3") PAIR(mat(2, 3, CT_FLOAT32), mat(2, 3, CT_FLOAT32), EXPECT(ct_matmul(a, b) == NULL, CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"));
    CASE("relu of NULL") EXPECT(ct_relu(NULL) == NULL, CT_ERR_TYPE, "relu(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("log_softmax over a dimension out of range")
        PAIR(mat(2, 3, CT_FLOAT32), NULL, EXPECT(ct_log_softmax(a, 2, CT_DTYPE_UNDEFINED) == NULL, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    CASE("cross_entropy with batch sizes that differ")
        PAIR(mat(2, 4, CT_FLOAT32), vec(3, CT_INT64),
             EXPECT(ct_cross_entropy(a, b, NULL, -100, CT_REDUCTION_MEAN, 0.0) == NULL, CT_ERR_VALUE, "Expected input batch_size (2) to match target batch_size (3)."));
    CASE("cross_entropy with a class out of range") {
        int64_t cls[2] = {1, 7}, two = 2;
        PAIR(mat(2, 4, CT_FLOAT32), ct_tensor_from_data(cls, &two, 1, CT_INT64),
             EXPECT(ct_cross_entropy(a, b, NULL, -100, CT_REDUCTION_MEAN, 0.0) == NULL, CT_ERR_INDEX, "Target 7 is out of bounds."));
    }
    CASE("cross_entropy with a weight of the wrong size") {
        ct_tensor *w = vec(3, CT_FLOAT32);
        PAIR(mat(2, 4, CT_FLOAT32), ct_zeros((int64_t[]){2}, 1, CT_INT64),
             EXPECT(ct_cross_entropy(a, b, w, -100, CT_REDUCTION_MEAN, 0.0) == NULL, CT_ERR_RUNTIME, "weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: [3]"));
        ct_tensor_release(w);
    }
    CASE("cross_entropy with label_smoothing 1.5")
        PAIR(mat(2, 4, CT_FLOAT32), ct_zeros((int64_t[]){2}, 1, CT_INT64),
             EXPECT(ct_cross_entropy(a, b, NULL, -100, CT_REDUCTION_MEAN, 1.5) == NULL, CT_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: 1.5"));
}

static void random_cases(void) {
    ct_tensor *t = mat(2, 3, CT_FLOAT32);
    CASE("normal_ with a negative std") EXPECT(ct_normal_(t, 0, -1, NULL) == -1, CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std -1");
    CASE("uniform_ with from > to") EXPECT(ct_uniform_(t, 1, 0, NULL) == -1, CT_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=1 > to=0");
    CASE("manual_seed of a NULL generator") EXPECT(ct_generator_manual_seed(NULL, 1) == -1, CT_ERR_VALUE, "ct_generator_manual_seed: generator is NULL");
    CASE("initial_seed of a NULL generator") EXPECT(ct_generator_initial_seed(NULL) == 0, CT_ERR_VALUE, "ct_generator_initial_seed: generator is NULL");
    CASE("kaiming_uniform_ of a vector") {
        ct_tensor *v = vec(3, CT_FLOAT32);
        EXPECT(ct_nn_init_kaiming_uniform_(v, 0) == -1, CT_ERR_VALUE, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
        ct_tensor_release(v);
    }
    CASE("uniform_ init of NULL") EXPECT(ct_nn_init_uniform_(NULL, 0, 1) == -1, CT_ERR_VALUE, "uniform_: tensor is NULL");
    ct_tensor_release(t);
}

static void autograd_cases(void) {
    ct_tensor *a = NULL, *b = NULL, *y = NULL;
    CASE("backward of a tensor without grad") {
        a = mat(2, 2, CT_FLOAT32);
        y = ct_sum(a, CT_DTYPE_UNDEFINED);
        EXPECT(ct_backward(y, NULL, false) == -1, CT_ERR_RUNTIME, "element 0 of tensors does not require grad and does not have a grad_fn");
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("backward of a matrix without a gradient") {
        a = leaf(2, 2);
        y = ct_mul(a, a);
        EXPECT(ct_backward(y, NULL, false) == -1, CT_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("backward twice") {
        a = leaf(2, 2);
        b = ct_mul(a, a);
        y = ct_sum(b, CT_DTYPE_UNDEFINED);
        ct_backward(y, NULL, false);
        EXPECT(ct_backward(y, NULL, false) == -1, CT_ERR_RUNTIME, "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.");
        ct_tensor_release(y);
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
    CASE("backward with a gradient of the wrong shape") {
        a = leaf(2, 4);
        y = ct_mul(a, a);
        b = vec(3, CT_FLOAT32);
        EXPECT(ct_backward(y, b, false) == -1, CT_ERR_RUNTIME, "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2, 4]).");
        ct_tensor_release(b);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("autograd.backward of NULL tensors") EXPECT(ct_autograd_backward(NULL, NULL, 1, false) == -1, CT_ERR_VALUE, "backward: tensors is NULL (n is 1)");
    CASE("backward of NULL") EXPECT(ct_backward(NULL, NULL, false) == -1, CT_ERR_VALUE, "backward: tensor 0 is NULL");
    CASE("requires_grad_ on an int64 tensor") {
        a = mat(2, 2, CT_INT64);
        EXPECT_GOLDEN(ct_tensor_set_requires_grad(a, true) == -1, "requires_grad__int64");
        ct_tensor_release(a);
    }
    CASE("requires_grad_ on a bool tensor") {
        a = mat(2, 2, CT_BOOL);
        EXPECT_GOLDEN(ct_tensor_set_requires_grad(a, true) == -1, "requires_grad__bool");
        ct_tensor_release(a);
    }
    CASE("requires_grad_(False) on a non-leaf") {
        a = leaf(2, 2);
        y = ct_mul(a, a);
        EXPECT(ct_tensor_set_requires_grad(y, false) == -1, CT_ERR_RUNTIME, "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("requires_grad_ on NULL") EXPECT(ct_tensor_set_requires_grad(NULL, true) == -1, CT_ERR_VALUE, "ct_tensor_set_requires_grad: tensor is NULL");
    CASE("add_ on a leaf that requires grad") {
        a = leaf(2, 2);
        b = mat(2, 2, CT_FLOAT32);
        EXPECT(ct_add_(a, b, ct_int(1)) == -1, CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
    /* PyTorch's check_inplace: the view's base is a leaf that requires grad */
    static const char *view_of_leaf = "a view of a leaf Variable that requires grad is being used in an in-place operation.";
    CASE("add_ on a view of a leaf that requires grad") {
        a = leaf(2, 2);
        y = ct_t(a);
        b = mat(2, 2, CT_FLOAT32);
        EXPECT(ct_add_(y, b, ct_int(1)) == -1, CT_ERR_RUNTIME, view_of_leaf);
        ct_tensor_release(b);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("mul_ on a transposed leaf that requires grad") {
        a = leaf(2, 2);
        y = ct_transpose(a, 0, 1);
        EXPECT(ct_mul_scalar_(y, ct_double(2)) == -1, CT_ERR_RUNTIME, view_of_leaf);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("fill_ on a view of a leaf that requires grad") {
        a = leaf(2, 2);
        y = ct_view(a, (int64_t[]){4}, 1);
        EXPECT(ct_fill_(y, ct_double(0)) == -1, CT_ERR_RUNTIME, view_of_leaf);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    /* VariableVersion::bump: inference tensors change only inside inference mode */
    static const char *inference_inplace =
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor "
        "before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.";
    ct_grad_mode_guard g;
    CASE("add_ on an inference tensor outside inference mode") {
        ct_inference_mode_enter(&g);
        a = mat(2, 2, CT_FLOAT32);
        ct_grad_mode_exit(&g);
        b = mat(2, 2, CT_FLOAT32);
        EXPECT(ct_add_(a, b, ct_int(1)) == -1, CT_ERR_RUNTIME, inference_inplace);
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
    CASE("fill_ on an inference tensor outside inference mode") {
        ct_inference_mode_enter(&g);
        a = mat(2, 2, CT_FLOAT32);
        ct_grad_mode_exit(&g);
        EXPECT(ct_fill_(a, ct_double(3)) == -1, CT_ERR_RUNTIME, inference_inplace);
        ct_tensor_release(a);
    }
    CASE("mul_ on an inference tensor under no_grad") {
        ct_inference_mode_enter(&g);
        a = mat(2, 2, CT_FLOAT32);
        ct_grad_mode_exit(&g);
        ct_no_grad_enter(&g);
        EXPECT(ct_mul_scalar_(a, ct_double(3)) == -1, CT_ERR_RUNTIME, inference_inplace);
        ct_grad_mode_exit(&g);
        ct_tensor_release(a);
    }
    CASE("set_grad of another shape") {
        a = leaf(2, 2);
        b = mat(3, 2, CT_FLOAT32);
        /* PyTorch 2.6's words (tests/golden/torch-2.6/python_misuse.json, autograd.set_grad_wrong_shape) */
        EXPECT(ct_tensor_set_grad(a, b) == -1, CT_ERR_RUNTIME,
               "attempting to assign a gradient of size '[3, 2]' to a tensor of size '[2, 2]'. Please ensure that the "
               "gradient and the tensor are the same size");
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
    CASE("set_grad of another dtype") {
        a = leaf(2, 2);
        b = mat(2, 2, CT_FLOAT64);
        /* (autograd.set_grad_wrong_dtype there) */
        EXPECT(ct_tensor_set_grad(a, b) == -1, CT_ERR_RUNTIME,
               "attempting to assign a gradient with dtype 'double' to a tensor with dtype 'float'. Please ensure that "
               "the gradient and the tensor have the same dtype");
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
}

static void mode_cases(void) {
    ct_tensor *a = NULL, *b = NULL, *y = NULL;
    char want[1024];
    CASE("a dispatch mode failing without an error") {
        a = mat(2, 2, CT_FLOAT32);
        int h = ct_dispatch_mode_push(fail_quietly, NULL);
        y = ct_neg(a);
        ct_dispatch_mode_pop(h);
        snprintf(want, sizeof want,
                 "Multiple dispatch failed for 'torch._ops.aten.neg.default'; all __torch_dispatch__ handlers returned "
                 "NotImplemented:\n\n  - mode object <dispatch mode handler %p, data %p>\n\n(the handler returned -1 without "
                 "setting an error)",
                 (void *)(uintptr_t)fail_quietly, NULL);
        EXPECT(y == NULL, CT_ERR_TYPE, want);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("a function mode failing without an error") {
        a = mat(2, 2, CT_FLOAT32);
        int fh = ct_function_mode_push(fmode_fail_quietly, NULL);
        y = ct_relu(a);
        ct_function_mode_pop(fh);
        snprintf(want, sizeof want,
                 "Multiple dispatch failed for 'torch.relu'; all __torch_function__ handlers returned NotImplemented:\n\n  - "
                 "mode object <function mode handler %p, data %p>\n\n(the handler returned -1 without setting an error)",
                 (void *)(uintptr_t)fmode_fail_quietly, NULL);
        EXPECT(y == NULL, CT_ERR_TYPE, want);
        ct_tensor_release(y);
        ct_tensor_release(a);
    }
    CASE("a subclass handler failing without an error") {
        ct_subclass *cls = ct_subclass_new("Quiet", sub_fail_quietly, NULL, NULL);
        int64_t two = 2;
        a = ct_subclass_make_wrapper(cls, &two, NULL, 1, 0, CT_FLOAT32, false, NULL);
        y = ct_neg(a);
        EXPECT(y == NULL, CT_ERR_TYPE,
               "Multiple dispatch failed for 'torch._ops.aten.neg.default'; all __torch_dispatch__ handlers returned "
               "NotImplemented:\n\n  - tensor subclass <class 'Quiet'>\n\n(the handler returned -1 without setting an error)");
        ct_tensor_release(y);
        ct_tensor_release(a);
        ct_subclass_free(cls);
    }
    CASE("a dispatch mode refusing mm in the middle of backward") {
        a = leaf(2, 3);
        b = mat(3, 2, CT_FLOAT32);
        ct_tensor *m = ct_mm(a, b), *s = ct_sum(m, CT_DTYPE_UNDEFINED);
        int h = ct_dispatch_mode_push(fail_on_mm, NULL);
        int rc = ct_backward(s, NULL, false);
        ct_dispatch_mode_pop(h);
        EXPECT(rc == -1, CT_ERR_RUNTIME, "the mode refused aten::mm");
        ct_tensor_release(s);
        ct_tensor_release(m);
        ct_tensor_release(b);
        ct_tensor_release(a);
    }
    /* A failed boxed call leaves every ret slot None and never releases what the caller's slots
     * held before the call: uninitialised memory, here a tensor of the test's own (the fuzzer
     * found a mode's caller releasing a stale pointer that way) */
    for (int with_mode = 0; with_mode < 2; with_mode++) {
        CASE(with_mode ? "a mode calling through a failing boxed call: the caller's ret slots untouched"
                       : "a failing boxed call: its ret slots None, what they held untouched") {
            ct_tensor *canary = vec(1, CT_FLOAT32);
            a = mat(2, 3, CT_FLOAT32);
            const ct_op *ln = ct_op_find("aten::native_layer_norm");
            ct_value args[5] = {ct_tensor_value(a), ct_intlist(NULL, 0), ct_none(), ct_none(), ct_double(1e-5)};
            ct_value rets[3];
            for (int i = 0; i < 3; i++) rets[i] = ct_tensor_value(canary);
            ct_tensor_retain(canary); /* two references, so a wrong release is seen, not a crash */
            ct_tensor_retain(canary);
            int h = with_mode ? ct_dispatch_mode_push(fail_on_mm, NULL) : 0;
            int rc = ct_call(ln, args, rets);
            if (with_mode) ct_dispatch_mode_pop(h);
            EXPECT(rc == -1, CT_ERR_RUNTIME,
                   "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                   "but got normalized_shape = []");
            for (int i = 0; i < 3; i++) CHECK_MSG(rets[i].tag == CT_TAG_NONE, "ret slot %d is not None after the failure", i);
            CHECK_INT_EQ(ct_tensor_refcount(canary), 3);
            ct_tensor_release(canary);
            ct_tensor_release(canary);
            ct_tensor_release(canary);
            ct_tensor_release(a);
        }
    }
    CASE("a boxed call failing its argument check: its ret slots None") {
        a = mat(2, 3, CT_FLOAT32);
        const ct_op *add = ct_op_find("aten::add.Tensor");
        ct_value args[3] = {ct_tensor_value(a), ct_string("x"), ct_int(1)};
        ct_value rets[1] = {ct_int(0x66)};
        EXPECT(ct_call(add, args, rets) == -1, CT_ERR_RUNTIME,
               "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'str'.\n"
               "Position: 1\nValue: 'x'\nDeclaration: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> "
               "Tensor\nCast error details: Unable to cast x to Tensor");
        CHECK_MSG(rets[0].tag == CT_TAG_NONE, "the ret slot is not None after the failure");
        ct_tensor_release(a);
    }
    /* slice_backward with a step near INT64_MAX: the slice it writes into has one element and a
     * stride whose size in bytes overflows int64 (the fuzzer found the iterator computing it
     * with signed overflow); the gradient lands in the first element */
    CASE("slice_backward with a step near INT64_MAX") {
        static const double g[1] = {2.5};
        int64_t one = 1;
        a = ct_tensor_from_doubles(g, &one, 1, CT_FLOAT32);
        int64_t sizes[1] = {3};
        ct_value args[6] = {ct_tensor_value(a), ct_intlist(sizes, 1), ct_int(0), ct_int(0), ct_int(3),
                            ct_int(INT64_MAX - 2)};
        ct_value rets[1];
        int rc = ct_call(ct_op_find("aten::slice_backward"), args, rets);
        CHECK_MSG(rc == 0, "slice_backward failed: %s", ct_error_message());
        double got[3] = {-1, -1, -1};
        if (rc == 0) CHECK_INT_EQ(ct_tensor_to_doubles(rets[0].u.t, got, 3), 0);
        CHECK_MSG(got[0] == 2.5 && got[1] == 0.0 && got[2] == 0.0, "slice_backward gave [%g, %g, %g]", got[0], got[1], got[2]);
        if (rc == 0) ct_values_release(rets, 1);
        ct_tensor_release(a);
    }
    /* softmax and log_softmax (forward and backward) over a dimension of size 0: empty results
     * of the input's shape; the float32 kernels pointed into the empty tensor's missing data (the
     * fuzzer found it, as UndefinedBehaviorSanitizer's null-pointer offset) */
    CASE("softmax and log_softmax over a dimension of size 0") {
        a = mat(3, 0, CT_FLOAT32);
        ct_tensor *ls = ct__log_softmax(a, 1, false), *sm = ct__softmax(a, 1, false);
        ct_tensor *lsb = ls ? ct__log_softmax_backward_data(a, ls, 1, CT_FLOAT32) : NULL;
        ct_tensor *smb = sm ? ct__softmax_backward_data(a, sm, 1, CT_FLOAT32) : NULL;
        ct_tensor *got[4] = {ls, sm, lsb, smb};
        for (int i = 0; i < 4; i++) {
            CHECK_MSG(got[i] != NULL, "result %d failed: %s", i, ct_error_message());
            CHECK_MSG(!got[i] || (ct_tensor_ndim(got[i]) == 2 && ct_tensor_size(got[i], 0) == 3 &&
                                  ct_tensor_size(got[i], 1) == 0),
                      "result %d is not an empty [3, 0] tensor", i);
            ct_tensor_release(got[i]);
        }
        ct_tensor_release(a);
    }
    /* the fuzz harness's cap on one allocation: PyTorch's out-of-memory error, then normal again */
    CASE("an allocation over the testing limit") {
        ct_testing_set_alloc_limit((size_t)1 << 20);
        int64_t n = 1000000;
        y = vec(n, CT_FLOAT32);
        ct_testing_set_alloc_limit(0);
        EXPECT(y == NULL, CT_ERR_NOMEM, "[enforce fail at alloc_cpu.cpp:118] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
               "allocate 4000000 bytes. Error code 12 (Cannot allocate memory)");
        a = vec(n, CT_FLOAT32);
        CHECK_MSG(a != NULL, "the allocation failed after the limit was removed: %s", ct_error_message());
        ct_tensor_release(a);
    }
    CASE("popping a logger that is not the innermost mode") {
        ct_op_logger *l1 = ct_op_logger_new(), *l2 = ct_op_logger_new();
        int h0 = ct_dispatch_mode_push(fail_quietly, NULL); /* handles count pushes (one thread here) */
        ct_dispatch_mode_pop(h0);
        ct_op_logger_push(l1);
        ct_op_logger_push(l2);
        snprintf(want, sizeof want,
                 "ct_dispatch_mode_pop: dispatch mode %d is not the innermost dispatch mode (%d is); modes are exited in "
                 "reverse order of entering",
                 h0 + 1, h0 + 2);
        EXPECT(ct_op_logger_pop(l1) == -1, CT_ERR_RUNTIME, want);
        CHECK_INT_EQ(ct_dispatch_mode_stack_len(), 2);
        ct_op_logger_pop(l2);
        ct_op_logger_pop(l1);
        ct_op_logger_free(l2);
        ct_op_logger_free(l1);
    }
    CASE("popping a logger that was never pushed") {
        ct_op_logger *l = ct_op_logger_new();
        EXPECT(ct_op_logger_pop(l) == -1, CT_ERR_RUNTIME, "ct_op_logger_pop: it is not an active dispatch mode on this thread");
        ct_op_logger_free(l);
    }
    CASE("freeing a logger that is still pushed") {
        ct_op_logger *l = ct_op_logger_new();
        ct_op_logger_push(l);
        ct_op_logger_free(l);
        EXPECT(ct_dispatch_mode_stack_len() == 1, CT_ERR_RUNTIME, "ct_op_logger_free: the logger is still an active dispatch mode; pop it first (it was not freed)");
        a = mat(2, 2, CT_FLOAT32);
        ct_tensor_release(ct_neg(a)); /* the logger is still valid and logs */
        CHECK(ct_op_logger_count(l) >= 1);
        ct_tensor_release(a);
        ct_op_logger_pop(l);
        ct_op_logger_free(l);
    }
    CASE("popping a counter that is not the innermost mode") {
        ct_op_counter *c = ct_op_counter_new();
        ct_op_logger *l = ct_op_logger_new();
        int h0 = ct_dispatch_mode_push(fail_quietly, NULL);
        ct_dispatch_mode_pop(h0);
        ct_op_counter_push(c);
        ct_op_logger_push(l);
        snprintf(want, sizeof want,
                 "ct_dispatch_mode_pop: dispatch mode %d is not the innermost dispatch mode (%d is); modes are exited in "
                 "reverse order of entering",
                 h0 + 1, h0 + 2);
        EXPECT(ct_op_counter_pop(c) == -1, CT_ERR_RUNTIME, want);
        ct_op_logger_pop(l);
        ct_op_counter_pop(c);
        ct_op_logger_free(l);
        ct_op_counter_free(c);
    }
    CASE("freeing a counter that is still pushed") {
        ct_op_counter *c = ct_op_counter_new();
        ct_op_counter_push(c);
        ct_op_counter_free(c);
        EXPECT(ct_dispatch_mode_stack_len() == 1, CT_ERR_RUNTIME, "ct_op_counter_free: the counter is still an active dispatch mode; pop it first (it was not freed)");
        ct_op_counter_pop(c);
        ct_op_counter_free(c);
    }
    CASE("popping a function logger that is not the innermost") {
        ct_function_logger *f1 = ct_function_logger_new(), *f2 = ct_function_logger_new();
        ct_function_logger_push(f1);
        ct_function_logger_push(f2);
        EXPECT(ct_function_logger_pop(f1) == -1, CT_ERR_RUNTIME, "ct_function_logger_pop: it is not the innermost function mode (1 entered after it are still active); exit modes in the reverse order of entering them");
        ct_function_logger_pop(f2);
        ct_function_logger_pop(f1);
        ct_function_logger_free(f2);
        ct_function_logger_free(f1);
    }
    CASE("freeing a function logger that is still pushed") {
        ct_function_logger *f = ct_function_logger_new();
        ct_function_logger_push(f);
        ct_function_logger_free(f);
        EXPECT(ct_error_code() != CT_OK, CT_ERR_RUNTIME, "ct_function_logger_free: the logger is still an active function mode; pop it first (it was not freed)");
        ct_function_logger_pop(f);
        ct_function_logger_free(f);
    }
    CASE("popping an empty dispatch mode stack") EXPECT(ct_dispatch_mode_pop(1) == -1, CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    CASE("popping a dispatch mode that is not the innermost") {
        int h1 = ct_dispatch_mode_push(fail_quietly, NULL), h2 = ct_dispatch_mode_push(fail_quietly, NULL);
        snprintf(want, sizeof want,
                 "ct_dispatch_mode_pop: dispatch mode %d is not the innermost dispatch mode (%d is); modes are exited in "
                 "reverse order of entering",
                 h1, h2);
        EXPECT(ct_dispatch_mode_pop(h1) == -1, CT_ERR_RUNTIME, want);
        ct_dispatch_mode_pop(h2);
        ct_dispatch_mode_pop(h1);
    }
    CASE("popping an empty function mode stack") EXPECT(ct_function_mode_pop(1) == -1, CT_ERR_RUNTIME, "trying to pop from empty mode stack");
    CASE("popping a function mode that is not the innermost") {
        int h1 = ct_function_mode_push(fmode_fail_quietly, NULL), h2 = ct_function_mode_push(fmode_fail_quietly, NULL);
        snprintf(want, sizeof want,
                 "ct_function_mode_pop: function mode %d is not the innermost function mode (%d is); modes are exited in "
                 "reverse order of entering",
                 h1, h2);
        EXPECT(ct_function_mode_pop(h1) == -1, CT_ERR_RUNTIME, want);
        ct_function_mode_pop(h2);
        ct_function_mode_pop(h1);
    }
    CASE("pushing more function modes than the stack holds") {
        int pushed = 0, handles[CT_MAX_MODES];
        while (pushed < CT_MAX_MODES && (handles[pushed] = ct_function_mode_push(fmode_fail_quietly, NULL)) > 0) pushed++;
        EXPECT(ct_function_mode_push(fmode_fail_quietly, NULL) == -1, CT_ERR_RECURSION,
               "maximum recursion depth exceeded\n(more than 64 function modes nested on this thread: a handler that "
               "enters a mode on every call recurses without end)");
        while (pushed-- > 0) ct_function_mode_pop(handles[pushed]);
    }
    CASE("pushing more dispatch modes than the stack holds") {
        int pushed = 0, handles[CT_MAX_MODES];
        while (pushed < CT_MAX_MODES && (handles[pushed] = ct_dispatch_mode_push(fail_quietly, NULL)) > 0) pushed++;
        EXPECT(ct_dispatch_mode_push(fail_quietly, NULL) == -1, CT_ERR_RECURSION,
               "maximum recursion depth exceeded\n(more than 64 dispatch modes nested on this thread: a handler that "
               "enters a mode on every call recurses without end)");
        while (pushed-- > 0) ct_dispatch_mode_pop(handles[pushed]);
    }
    CASE("pushing a NULL logger") EXPECT(ct_op_logger_push(NULL) == -1, CT_ERR_VALUE, "ct_op_logger_push: logger is NULL");
    CASE("popping a NULL counter") EXPECT(ct_op_counter_pop(NULL) == -1, CT_ERR_VALUE, "ct_op_counter_pop: counter is NULL");
    CASE("popping a dispatch mode with a function mode's handle") {
        int dh = ct_dispatch_mode_push(fail_quietly, NULL), fh = ct_function_mode_push(fmode_fail_quietly, NULL);
        snprintf(want, sizeof want,
                 "ct_dispatch_mode_pop: handle %d names no dispatch mode active on this thread (a handle names one push, "
                 "of one kind of mode, on one thread)",
                 fh);
        EXPECT(ct_dispatch_mode_pop(fh) == -1, CT_ERR_RUNTIME, want);
        CHECK_INT_EQ(ct_dispatch_mode_stack_len(), 1); /* nothing popped */
        snprintf(want, sizeof want,
                 "ct_function_mode_pop: handle %d names no function mode active on this thread (a handle names one push, "
                 "of one kind of mode, on one thread)",
                 dh);
        EXPECT(ct_function_mode_pop(dh) == -1, CT_ERR_RUNTIME, want);
        CHECK_INT_EQ(ct_function_mode_stack_len(), 1);
        CHECK_INT_EQ(ct_function_mode_pop(fh), 0);
        CHECK_INT_EQ(ct_dispatch_mode_pop(dh), 0);
    }
    CASE("popping a dispatch mode with another thread's handle") {
        pthread_t th;
        int other = 0;
        CHECK_INT_EQ(pthread_create(&th, NULL, push_on_a_thread, &other), 0);
        pthread_join(th, NULL);
        int mine = ct_dispatch_mode_push(fail_quietly, NULL);
        CHECK(other > 0 && other != mine);
        snprintf(want, sizeof want,
                 "ct_dispatch_mode_pop: handle %d names no dispatch mode active on this thread (a handle names one push, "
                 "of one kind of mode, on one thread)",
                 other);
        EXPECT(ct_dispatch_mode_pop(other) == -1, CT_ERR_RUNTIME, want);
        CHECK_INT_EQ(ct_dispatch_mode_pop(mine), 0);
    }
    CASE("a dispatch mode whose handler enters a mode on every call") {
        /* each call nests one more mode: the stack's bound ends it with a RecursionError, and
         * every mode the handlers entered stays on the stack, as in PyTorch */
        a = mat(2, 2, CT_FLOAT32);
        int h = ct_dispatch_mode_push(enter_and_call, NULL);
        y = ct_neg(a);
        snprintf(want, sizeof want,
                 "maximum recursion depth exceeded\n(more than %d dispatch modes nested on this thread: a handler that "
                 "enters a mode on every call recurses without end)",
                 CT_MAX_MODES);
        EXPECT(y == NULL, CT_ERR_RECURSION, want);
        CHECK_INT_EQ(ct_dispatch_mode_stack_len(), CT_MAX_MODES);
        CHECK_INT_EQ(ct_dispatch_mode_pop(h), 0); /* put back last, so innermost */
        while (ct_dispatch_mode_stack_len() > 0) ct_dispatch_mode_pop(ct_dispatch_mode_top(NULL, NULL));
        ct_tensor_release(a);
    }
    CASE("a function mode whose handler enters a mode on every call") {
        a = mat(2, 2, CT_FLOAT32);
        int h = ct_function_mode_push(fmode_enter_and_call, NULL);
        y = ct_relu(a);
        snprintf(want, sizeof want,
                 "maximum recursion depth exceeded\n(more than %d function modes nested on this thread: a handler that "
                 "enters a mode on every call recurses without end)",
                 CT_MAX_MODES);
        EXPECT(y == NULL, CT_ERR_RECURSION, want);
        CHECK_INT_EQ(ct_function_mode_stack_len(), CT_MAX_MODES);
        CHECK_INT_EQ(ct_function_mode_pop(h), 0);
        while (ct_function_mode_stack_len() > 0) ct_function_mode_pop(ct_function_mode_top(NULL, NULL));
        ct_tensor_release(a);
    }
    CASE("calling a function from a function mode with a number for a tensor") {
        a = mat(2, 2, CT_FLOAT32);
        int h = ct_function_mode_push(fmode_number_for_tensor, NULL);
        y = ct_add(a, a, ct_int(1));
        ct_function_mode_pop(h);
        /* checked as ct_call checks a value (the wording torch.ops uses, tests/golden/torch-2.6/boxed_checks.json) */
        EXPECT(y == NULL, CT_ERR_RUNTIME,
               "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'int'.\n"
               "Position: 1\nValue: 1\nDeclaration: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> "
               "Tensor\nCast error details: Unable to cast 1 to Tensor");
        ct_tensor_release(a);
    }
    ct_grad_mode_guard ga, gb;
    CASE("grad-mode guards exited out of order") {
        ct_no_grad_enter(&ga);
        ct_inference_mode_enter(&gb);
        EXPECT(ct_grad_mode_exit(&ga) == -1, CT_ERR_RUNTIME,
               "ct_grad_mode_exit: the guard is not the innermost one (1 guards entered after it are still active); exit "
               "guards in the reverse order of entering them");
        CHECK(!ct_is_grad_enabled() && ct_is_inference_mode_enabled()); /* nothing changed */
        CHECK_INT_EQ(ct_grad_mode_exit(&gb), 0);
        CHECK_INT_EQ(ct_grad_mode_exit(&ga), 0);
        CHECK_INT_EQ(ct_grad_mode_exit(&ga), 0); /* exiting twice does nothing */
    }
    CASE("key guards popped out of order") {
        ct_key_guard k1, k2;
        ct_key_guard_include(&k1, ct_keyset_of(CT_KEY_Python));
        ct_key_guard_exclude(&k2, ct_keyset_of(CT_KEY_ADInplaceOrView));
        EXPECT(ct_key_guard_pop(&k1) == -1, CT_ERR_RUNTIME,
               "ct_key_guard_pop: the guard is not the innermost one (1 guards entered after it are still active); exit "
               "guards in the reverse order of entering them");
        CHECK(ct_keyset_has(ct_tls_included(), CT_KEY_Python) && ct_keyset_has(ct_tls_excluded(), CT_KEY_ADInplaceOrView));
        CHECK_INT_EQ(ct_key_guard_pop(&k2), 0);
        CHECK_INT_EQ(ct_key_guard_pop(&k1), 0);
    }
    CASE("an inference-mode guard exited inside a key guard") {
        ct_key_guard k;
        ct_inference_mode_enter(&ga);
        ct_key_guard_exclude(&k, ct_keyset_of(CT_KEY_Python));
        EXPECT(ct_grad_mode_exit(&ga) == -1, CT_ERR_RUNTIME,
               "ct_grad_mode_exit: the guard is not the innermost one (1 guards entered after it are still active); exit "
               "guards in the reverse order of entering them");
        CHECK_INT_EQ(ct_key_guard_pop(&k), 0);
        CHECK_INT_EQ(ct_grad_mode_exit(&ga), 0);
    }
    CASE("a guard exited on another thread") {
        ct_no_grad_enter(&ga);
        pthread_t th;
        int rc = 0;
        CHECK_INT_EQ(pthread_create(&th, NULL, exit_on_a_thread, &ga), 0);
        pthread_join(th, (void **)NULL);
        (void)rc;
        CHECK(!ct_is_grad_enabled()); /* the other thread refused, this one is unchanged */
        CHECK_INT_EQ(ct_grad_mode_exit(&ga), 0);
    }
    CASE("a phase for a NULL counter") EXPECT(ct_op_counter_set_phase(NULL, "x") == -1, CT_ERR_VALUE, "ct_op_counter_set_phase: NULL argument");
}

/* a custom op's kernel that stops and frees the profiler recording the call it is in */
static ct_profiler *stopped_inside;
static int stop_profiler_kernel(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_profiler_stop(stopped_inside);
    ct_profiler_free(stopped_inside);
    stopped_inside = NULL;
    rets[0] = ct_tensor_value(ct_tensor_retain(args[0].u.t));
    return 0;
}

/* Starts a profiler, runs `adds_first` adds (ranges past the first 64 take the hooks' inline path),
 * then the op whose kernel stops and frees it; after the call the thread records nothing and
 * a new profiler works. */
static void stop_inside_a_kernel(const ct_op *op, int adds_first) {
    ct_tensor *a = mat(2, 2, CT_FLOAT32);
    stopped_inside = ct_profiler_start(false);
    CHECK(stopped_inside != NULL);
    for (int i = 0; i < adds_first; i++) ct_tensor_release(ct_add_scalar(a, ct_int(1), ct_int(1)));
    ct_value args[1] = {ct_tensor_value(a)}, rets[1];
    CHECK(ct_call(op, args, rets) == 0 && rets[0].u.t == a && stopped_inside == NULL);
    ct_tensor_release(rets[0].u.t);
    ct_tensor_release(ct_add_scalar(a, ct_int(1), ct_int(1)));
    ct_profiler *p = ct_profiler_start(false);
    CHECK(p != NULL);
    ct_tensor_release(ct_add_scalar(a, ct_int(1), ct_int(1)));
    CHECK(ct_profiler_stop(p) == 0);
    ct_profiler_free(p);
    ct_tensor_release(a);
}

static void profiler_cases(void) {
    CASE("a kernel that stops and frees the profiler recording its call") {
        const ct_op *op = ct_op_define("misuse::stop_profiler(Tensor self) -> Tensor", "tests/test_misuse.c");
        CHECK(op != NULL && ct_register_kernel(op, CT_KEY_CPU, stop_profiler_kernel, "tests/test_misuse.c") == 0);
        if (op) {
            stop_inside_a_kernel(op, 0);   /* the hooks' general path */
            stop_inside_a_kernel(op, 100); /* the inline path */
        }
    }
    CASE("starting a second profiler on the thread") {
        ct_profiler *p = ct_profiler_start(false);
        EXPECT(ct_profiler_start(false) == NULL, CT_ERR_RUNTIME, "Profiler is already enabled on this thread");
        ct_profiler_stop(p);
        ct_profiler_free(p);
    }
    CASE("stopping NULL") EXPECT(ct_profiler_stop(NULL) == -1, CT_ERR_VALUE, "ct_profiler_stop: profiler is NULL");
    CASE("stopping twice") {
        ct_profiler *p = ct_profiler_start(false);
        ct_profiler_stop(p);
        EXPECT(ct_profiler_stop(p) == -1, CT_ERR_RUNTIME, "ct_profiler_stop: the profiler is not recording");
        ct_profiler_free(p);
    }
    CASE("the Chrome trace while recording") {
        ct_profiler *p = ct_profiler_start(false);
        ct_tensor *a = mat(2, 2, CT_FLOAT32), *b = ct_add_scalar(a, ct_int(1), ct_int(1));
        /* PyTorch 2.6: key_averages() is empty and its table "" inside the with block */
        char *table = ct_profiler_table(p, NULL, -1, false);
        CHECK_STR_EQ(table, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                                cJSON_GetObjectItemCaseSensitive(golden, "profiler_key_averages_table_while_running"), "returned")));
        ct_free(table);
        CHECK_INT_EQ(ct_profiler_num_events(p), (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
                                                    cJSON_GetObjectItemCaseSensitive(golden, "profiler_events_while_running"), "returned")));
        EXPECT_GOLDEN(ct_profiler_export_chrome_trace(p, "misuse_trace.json") == -1, "profiler_export_chrome_trace_while_running");
        ct_profiler_stop(p);
        CHECK(ct_profiler_num_events(p) > 0);
        ct_tensor_release(b);
        ct_tensor_release(a);
        ct_profiler_free(p);
    }
    CASE("the Chrome trace string while recording") {
        ct_profiler *p = ct_profiler_start(true);
        EXPECT_GOLDEN(ct_profiler_chrome_trace(p, "t") == NULL, "profiler_export_chrome_trace_while_running");
        ct_profiler_stop(p);
        ct_profiler_free(p);
    }
    CASE("exporting into a folder that does not exist") {
        ct_profiler *p = ct_profiler_start(false);
        ct_profiler_stop(p);
        EXPECT(ct_profiler_export_chrome_trace(p, "no/such/folder/t.json") == -1, CT_ERR_IO, "[Errno 2] No such file or directory: 'no/such/folder/t.json'");
        ct_profiler_free(p);
    }
    CASE("exporting to a NULL path") EXPECT(ct_profiler_export_chrome_trace(NULL, NULL) == -1, CT_ERR_VALUE, "export_chrome_trace: path is NULL");
    CASE("a table sorted by a key that does not exist") {
        ct_profiler *p = ct_profiler_start(false);
        ct_tensor *a = mat(2, 2, CT_FLOAT32), *b = ct_neg(a);
        ct_profiler_stop(p);
        EXPECT(ct_profiler_table(p, "no_such_key", 10, false) == NULL, CT_ERR_VALUE, "'FunctionEventAvg' object has no attribute 'no_such_key'");
        ct_tensor_release(b);
        ct_tensor_release(a);
        ct_profiler_free(p);
    }
    CASE("the table of NULL") EXPECT(ct_profiler_table(NULL, NULL, 10, false) == NULL, CT_ERR_VALUE, "profiler is NULL");
    CASE("the tree of NULL") EXPECT(ct_profiler_tree(NULL) == NULL, CT_ERR_VALUE, "profiler is NULL");
    CASE("record_function without a name") EXPECT(ct_record_function_enter(NULL) == NULL, CT_ERR_VALUE, "record_function: name is NULL");
    CASE("record_function_exit of NULL") EXPECT(ct_record_function_exit(NULL) == -1, CT_ERR_VALUE, "record_function exit: handle is NULL");
}

static void trace_cases(void) {
    CASE("beginning a trace twice") {
        ct_trace_begin();
        EXPECT(ct_trace_begin() == -1, CT_ERR_RUNTIME, "ct_trace_begin: this thread is already collecting");
        ct_dispatch_record *r = NULL;
        size_t n = 0;
        ct_trace_end(&r, &n);
        ct_free(r);
    }
    CASE("ending a trace never begun") {
        ct_dispatch_record *r = NULL;
        size_t n = 0;
        EXPECT(ct_trace_end(&r, &n) == -1, CT_ERR_RUNTIME, "ct_trace_end: ct_trace_begin was not called");
    }
}

static void boxed_cases(void) {
    const ct_op *add = ct_op_find("aten::add.Tensor");
    ct_tensor *a = mat(2, 2, CT_FLOAT32);
    ct_value args[4] = {ct_tensor_value(a), ct_tensor_value(a), ct_int(1), ct_none()}, rets[1] = {ct_none()};
    CASE("ct_call of NULL") EXPECT(ct_call(NULL, args, rets) == -1, CT_ERR_VALUE, "ct_call: op is NULL");
    CASE("ct_call without arguments") EXPECT(ct_call(add, NULL, rets) == -1, CT_ERR_VALUE, "ct_call: args is NULL (aten::add.Tensor takes 3)");
    CASE("ct_call with a string for a tensor") {
        ct_value bad[3] = {ct_tensor_value(a), ct_string("x"), ct_int(1)};
        EXPECT(ct_call(add, bad, rets) == -1, CT_ERR_RUNTIME, "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'str'.\nPosition: 1\nValue: 'x'\nDeclaration: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\nCast error details: Unable to cast x to Tensor");
    }
    CASE("ct_call with None for a tensor") {
        ct_value bad[3] = {ct_tensor_value(a), ct_none(), ct_int(1)};
        EXPECT(ct_call(add, bad, rets) == -1, CT_ERR_RUNTIME, "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 'other'");
    }
    CASE("fill_defaults with a negative count") EXPECT(ct_op_fill_defaults(add, args, -1) == -1, CT_ERR_VALUE, "ct_op_fill_defaults: n_given is -1");
    CASE("fill_defaults with too many") EXPECT(ct_op_fill_defaults(add, args, 4) == -1, CT_ERR_RUNTIME, "aten::add() expected at most 3 argument(s) but received 4 argument(s). Declaration: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    CASE("fill_defaults with too few") EXPECT(ct_op_fill_defaults(add, args, 1) == -1, CT_ERR_RUNTIME, "aten::add() is missing value for argument 'other'. Declaration: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    CASE("redispatch of NULL") EXPECT(ct_redispatch(NULL, 0, args, rets) == -1, CT_ERR_VALUE, "ct_redispatch: op is NULL");
    ct_tensor_release(a);
}

static void nn_cases(void) {
    ct_tensor *x = NULL;
    CASE("Linear with a negative size")
        EXPECT(ct_nn_linear(-1, 3, true) == NULL, CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [3, -1]");
    CASE("Linear on an input of the wrong width") {
        ct_module *m = ct_nn_linear(3, 4, true);
        x = mat(2, 5, CT_FLOAT32);
        EXPECT(ct_module_forward(m, x) == NULL, CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x5 and 3x4)");
        ct_tensor_release(x);
        ct_module_free(m);
    }
    CASE("forward of a NULL module") {
        x = mat(2, 5, CT_FLOAT32);
        EXPECT(ct_module_forward(NULL, x) == NULL, CT_ERR_VALUE, "ct_module_forward: module is NULL");
        ct_tensor_release(x);
    }
    CASE("Sequential of a NULL list") EXPECT(ct_nn_sequential(NULL, 2) == NULL, CT_ERR_VALUE, "ct_nn_sequential: bad module list");
    ct_tensor *w = leaf(2, 2);
    ct_sgd_options o = ct_sgd_defaults(-1);
    CASE("SGD with a negative learning rate") EXPECT(ct_sgd_new(&w, 1, o) == NULL, CT_ERR_VALUE, "Invalid learning rate: -1.0");
    o = ct_sgd_defaults(0.1);
    o.momentum = -0.5;
    CASE("SGD with a negative momentum") EXPECT(ct_sgd_new(&w, 1, o) == NULL, CT_ERR_VALUE, "Invalid momentum value: -0.5");
    o = ct_sgd_defaults(0.1);
    o.weight_decay = -1;
    CASE("SGD with a negative weight decay") EXPECT(ct_sgd_new(&w, 1, o) == NULL, CT_ERR_VALUE, "Invalid weight_decay value: -1.0");
    o = ct_sgd_defaults(0.1);
    o.nesterov = true;
    CASE("SGD nesterov without momentum")
        EXPECT(ct_sgd_new(&w, 1, o) == NULL, CT_ERR_VALUE, "Nesterov momentum requires a momentum and zero dampening");
    CASE("SGD over no parameters") EXPECT(ct_sgd_new(NULL, 0, ct_sgd_defaults(0.1)) == NULL, CT_ERR_VALUE, "optimizer got an empty parameter list");
    CASE("SGD over a non-leaf") {
        ct_tensor *y = ct_mul(w, w);
        EXPECT(ct_sgd_new(&y, 1, ct_sgd_defaults(0.1)) == NULL, CT_ERR_VALUE, "can't optimize a non-leaf Tensor");
        ct_tensor_release(y);
    }
    CASE("step of NULL") EXPECT(ct_optimizer_step(NULL) == -1, CT_ERR_VALUE, "ct_optimizer_step: optimizer is NULL");
    CASE("zero_grad of NULL") EXPECT(ct_optimizer_zero_grad(NULL, true) == -1, CT_ERR_VALUE, "ct_optimizer_zero_grad: optimizer is NULL");
    ct_sgd_numbers nums = {ct_double(0.1), ct_int(0), ct_int(0), ct_int(0), false, false};
    CASE("sgd update without numbers") EXPECT(ct_sgd_update(&w, &w, NULL, 1, NULL) == -1, CT_ERR_VALUE, "ct_sgd_update: numbers is NULL");
    CASE("sgd update of NULL lists") EXPECT(ct_sgd_update(NULL, NULL, NULL, 1, &nums) == -1, CT_ERR_VALUE, "ct_sgd_update: params or grads is NULL");
    CASE("sgd update of a NULL gradient") {
        ct_tensor *none = NULL;
        EXPECT(ct_sgd_update(&w, &none, NULL, 1, &nums) == -1, CT_ERR_VALUE, "ct_sgd_update: parameter or gradient 0 is NULL");
    }
    nums.momentum = ct_double(0.9);
    CASE("sgd update with momentum and no buffers")
        EXPECT(ct_sgd_update(&w, &w, NULL, 1, &nums) == -1, CT_ERR_VALUE, "ct_sgd_update: momentum needs momentum_buffers");
    ct_tensor_release(w);
}

static void subclass_cases(void) {
    int64_t two = 2;
    CASE("a wrapper of an int64 that requires grad") {
        ct_subclass *cls = ct_subclass_new("Wrapper", sub_fail_quietly, NULL, NULL);
        EXPECT_GOLDEN(ct_subclass_make_wrapper(cls, &two, NULL, 1, 0, CT_INT64, true, NULL) == NULL,
                      "wrapper_subclass_requires_grad_int64");
        ct_subclass_free(cls);
    }
    CASE("a wrapper of a NULL class") EXPECT(ct_subclass_make_wrapper(NULL, &two, NULL, 1, 0, CT_FLOAT32, false, NULL) == NULL, CT_ERR_VALUE, "ct_subclass_make_wrapper: class is NULL");
    CASE("a subclass without a handler") EXPECT(ct_subclass_new("X", NULL, NULL, NULL) == NULL, CT_ERR_VALUE, "ct_subclass_new: name and handler are required");
    CASE("a LoggingTensor of NULL") {
        ct_logging_tensor_log *log = ct_logging_tensor_log_new();
        EXPECT(ct_logging_tensor_new(log, NULL, false) == NULL, CT_ERR_VALUE, "LoggingTensor: log and elem are required");
        ct_logging_tensor_log_free(log);
    }
    CASE("a LoggingTensor of an int64 that requires grad") {
        ct_logging_tensor_log *log = ct_logging_tensor_log_new();
        ct_tensor *e = vec(2, CT_INT64);
        EXPECT(ct_logging_tensor_new(log, e, true) == NULL, CT_ERR_RUNTIME, golden_msg("wrapper_subclass_requires_grad_int64"));
        ct_tensor_release(e);
        ct_logging_tensor_log_free(log);
    }
}

/* ---- NULL and out-of-range arguments of the mode, guard, tensor and factory calls ---- */

static int count_calls(void *ctx) {
    (*(int *)ctx)++;
    return 0;
}

static void api_cases(void) {
    CASE("running without the dispatch modes a NULL body")
        EXPECT(ct_dispatch_mode_run_without(NULL, NULL) == -1, CT_ERR_VALUE, "ct_dispatch_mode_run_without: body is NULL");
    CASE("running the top function mode's body a NULL body")
        EXPECT(ct_function_mode_run_top(NULL, NULL) == -1, CT_ERR_VALUE, "ct_function_mode_run_top: body is NULL");
    CASE("running without the dispatch modes when there are none") {
        int calls = 0;
        CHECK_INT_EQ(ct_dispatch_mode_run_without(count_calls, &calls), 0);
        CHECK_INT_EQ(calls, 1);
    }
    CASE("the top and an out-of-range position of empty mode stacks") {
        ct_dispatch_mode_fn dfn = (ct_dispatch_mode_fn)1;
        void *ud = (void *)1;
        CHECK_INT_EQ(ct_dispatch_mode_top(&dfn, &ud), 0);
        CHECK_INT_EQ(ct_dispatch_mode_top(NULL, NULL), 0);
        CHECK_INT_EQ(ct_dispatch_mode_at(-1, NULL, NULL), 0);
        CHECK_INT_EQ(ct_dispatch_mode_at(1000, &dfn, &ud), 0);
        CHECK_INT_EQ(ct_function_mode_top(NULL, NULL), 0);
        CHECK_INT_EQ(ct_function_mode_at(-5, NULL, NULL), 0);
        CHECK_INT_EQ(ct_function_mode_top_handle(), 0);
        CHECK(ct_function_op(NULL) == NULL);
    }
    CASE("checking the arguments of a NULL op")
        EXPECT(ct_op_check_args(NULL, NULL, NULL) == -1, CT_ERR_VALUE, "ct_call: op is NULL");
    CASE("checking NULL arguments") {
        const ct_op *add = ct_op_find("aten::add.Tensor");
        ct_value rets[1] = {ct_none()};
        EXPECT(ct_op_check_args(add, NULL, rets) == -1, CT_ERR_VALUE, "ct_call: args is NULL (aten::add.Tensor takes 3)");
    }
    CASE("checking a number where a Tensor belongs") {
        const ct_op *add = ct_op_find("aten::add.Tensor");
        ct_tensor *a = vec(2, CT_FLOAT32);
        ct_value args[3] = {ct_tensor_value(a), ct_int(1), ct_int(1)}, rets[1] = {ct_none()};
        CHECK_INT_EQ(ct_op_check_args(add, args, rets), -1);
        CHECK(strstr(ct_error_message(), "Expected a value of type 'Tensor' for argument 'other'") != NULL);
        ct_error_clear();
        ct_tensor_release(a);
    }
    CASE("a dense subclass tensor of NULL") {
        ct_subclass *cls = ct_subclass_new("Dense", sub_fail_quietly, NULL, NULL);
        ct_tensor *a = vec(2, CT_FLOAT32);
        EXPECT(ct_subclass_make_dense(NULL, a) == NULL, CT_ERR_VALUE, "ct_subclass_make_dense: class is NULL");
        EXPECT(ct_subclass_make_dense(cls, NULL) == NULL, CT_ERR_VALUE, "ct_subclass_make_dense: data is NULL");
        ct_tensor_release(a);
        ct_subclass_free(cls);
    }
    CASE("entering NULL guards") {
        ct_no_grad_enter(NULL);
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_no_grad_enter: guard is NULL");
        ct_enable_grad_enter(NULL);
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_enable_grad_enter: guard is NULL");
        ct_inference_mode_enter(NULL);
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_inference_mode_enter: guard is NULL");
        ct_inference_mode_enter_enabled(NULL, false);
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_inference_mode_enter: guard is NULL");
        ct_key_guard_include(NULL, ct_python_ks());
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_key_guard_include: guard is NULL");
        ct_key_guard_exclude(NULL, ct_python_ks());
        EXPECT(ct_error_code() != CT_OK, CT_ERR_VALUE, "ct_key_guard_exclude: guard is NULL");
        ct_grad_mode_restore(NULL); /* nothing to restore: no error, no change */
        CHECK_INT_EQ(ct_error_code(), CT_OK);
    }
    CASE("an inference-mode guard entered disabled, restored") {
        ct_grad_mode_guard g;
        ct_inference_mode_enter_enabled(&g, false);
        CHECK(ct_is_grad_enabled() && !ct_is_inference_mode_enabled());
        ct_grad_mode_restore(&g);
        ct_grad_mode_restore(&g); /* twice: the second does nothing */
    }
    CASE("set_grad_enabled off and on") {
        ct_set_grad_enabled(false);
        CHECK(!ct_is_grad_enabled());
        ct_set_grad_enabled(true);
        CHECK(ct_is_grad_enabled());
    }
    CASE("printing NULL as a subclass") EXPECT(ct_tensor_repr_as(NULL, "Sub", NULL) == NULL, CT_ERR_VALUE, "ct_tensor_repr: tensor is NULL");
    CASE("Tensor.data of NULL") EXPECT(ct_tensor_data(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_data: tensor is NULL");
    CASE("Tensor._base of NULL") EXPECT(ct_tensor_base(NULL) == NULL, CT_ERR_VALUE, "ct_tensor_base: tensor is NULL");
    CASE("setting .data of NULL or to NULL") {
        ct_tensor *a = vec(2, CT_FLOAT32);
        EXPECT(ct_tensor_set_data(NULL, a) == -1, CT_ERR_VALUE, "ct_tensor_set_data: tensor is NULL");
        EXPECT(ct_tensor_set_data(a, NULL) == -1, CT_ERR_VALUE, "ct_tensor_set_data: tensor is NULL");
        ct_tensor_release(a);
    }
    CASE("setting .data to a wrapper subclass tensor") {
        ct_subclass *cls = ct_subclass_new("Wrapper", sub_fail_quietly, NULL, NULL);
        int64_t two = 2;
        ct_tensor *w = ct_subclass_make_wrapper(cls, &two, NULL, 1, 0, CT_FLOAT32, false, NULL);
        ct_tensor *a = vec(2, CT_FLOAT32);
        EXPECT(ct_tensor_set_data(a, w) == -1, CT_ERR_UNSUPPORTED,
               "ctorch: setting .data of or to a wrapper subclass tensor is not supported");
        ct_tensor_release(a);
        ct_tensor_release(w);
        ct_subclass_free(cls);
    }
    CASE("torch.tensor's body for NULL data") EXPECT(ct_tensor_lift(NULL, false) == NULL, CT_ERR_VALUE, "ct_tensor_lift: data is NULL");
    CASE("torch.tensor's body asked for grad on int64 data") {
        ct_tensor *a = vec(2, CT_INT64);
        EXPECT(ct_tensor_lift(a, true) == NULL, CT_ERR_RUNTIME,
               "Only Tensors of floating point and complex dtype can require gradients");
        ct_tensor_release(a);
    }
}

/* the scatter / nonzero / padding family from C: PyTorch 2.6's kinds and messages (as recorded in
 * tests/golden/torch-2.6/scatter_ops.json) */
static void scatter_cases(void) {
    ct_tensor *t = NULL;
    int64_t i01[2] = {0, 2}, s12[2] = {1, 2}, pad3[1] = {1}, pad11[2] = {3, 0};
    ct_tensor *ix = ct_tensor_new_int64(i01, s12, 2, (ct_tensor_options){0});
    ct_tensor *ix32 = ct_to_dtype(ix, CT_INT32, false, false, CT_MEMORY_FORMAT_NONE);
    ct_tensor *src = mat(1, 2, CT_FLOAT32), *src64 = mat(1, 2, CT_FLOAT64);
    CASE("scatter of NULL") EXPECT(ct_scatter_src(NULL, 0, ix, src) == NULL, CT_ERR_TYPE, "scatter(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("scatter with NULL index") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter_src(t, 0, NULL, src) == NULL, CT_ERR_TYPE, "scatter(): argument 'index' (position 3) must be Tensor, not NoneType"));
    CASE("scatter with an int32 index") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter_src(t, 0, ix32, src) == NULL, CT_ERR_RUNTIME, "scatter(): Expected dtype int64 for index"));
    CASE("scatter from another dtype") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter_src(t, 0, ix, src64) == NULL, CT_ERR_RUNTIME, "scatter(): Expected self.dtype to be equal to src.dtype"));
    CASE("scatter an index out of range") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter_src(t, 0, ix, src) == NULL, CT_ERR_RUNTIME, "index 2 is out of bounds for dimension 0 with size 2"));
    CASE("scatter_ over dim 2 of a matrix") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter__src(t, 2, ix, src) == -1, CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    CASE("scatter_add an index out of range") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_scatter_add(t, 0, ix, src) == NULL, CT_ERR_RUNTIME, "index 2 is out of bounds for dimension 0 with size 2"));
    CASE("scatter_reduce with an unknown reduction") WITH(mat(3, 3, CT_FLOAT32), EXPECT(ct_scatter_reduce_two(t, 0, ix, src, "median", true) == NULL, CT_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin, got median"));
    CASE("scatter with an unknown old reduction") WITH(mat(3, 3, CT_FLOAT32), EXPECT(ct_scatter_reduce(t, 0, ix, src, "max") == NULL, CT_ERR_RUNTIME, "reduce argument must be either add or multiply."));
    CASE("gather an index out of range") WITH(mat(2, 2, CT_FLOAT32), EXPECT(ct_gather(t, 1, ix, false) == NULL, CT_ERR_RUNTIME, "index 2 is out of bounds for dimension 1 with size 2"));
    CASE("gather with an int32 index") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_gather(t, 1, ix32, false) == NULL, CT_ERR_RUNTIME, "gather(): Expected dtype int64 for index"));
    CASE("masked_scatter with a float mask") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_masked_scatter(t, t, t) == NULL, CT_ERR_RUNTIME, "masked_scatter_ only supports boolean masks, but got mask with dtype Float"));
    CASE("nonzero_static of a negative size") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_nonzero_static(t, -1, -1) == NULL, CT_ERR_RUNTIME, "nonzero_static: 'size' must be an non-negative integer"));
    CASE("select_scatter of a wrong-sized src") WITH(mat(3, 4, CT_FLOAT32), EXPECT(ct_select_scatter(t, src, 0, 1) == NULL, CT_ERR_RUNTIME, "expected src to have a size equal to the slice of self. src size = [1, 2], slice size = [4]"));
    CASE("constant_pad_nd with an odd pad") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_constant_pad_nd(t, pad3, 1, ct_int(0)) == NULL, CT_ERR_RUNTIME, "Length of pad must be even but instead it equals 1"));
    CASE("reflection_pad1d as wide as the input") WITH(mat(1, 3, CT_FLOAT32), EXPECT(ct_reflection_pad1d(t, pad11, 2) == NULL, CT_ERR_RUNTIME, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (3, 0) at dimension 1 of input [1, 3]"));
    CASE("pad in an unknown mode") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_pad(t, pad11, 2, "wrap", NULL) == NULL, CT_ERR_NOT_IMPLEMENTED, "Unrecognised padding mode wrap"));
    CASE("clamp.Tensor without bounds") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_clamp_tensor(t, NULL, NULL) == NULL, CT_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None"));
    CASE("fill_ from a 1-d tensor") WITH(mat(2, 3, CT_FLOAT32), EXPECT(ct_fill__tensor(t, src) == -1, CT_ERR_RUNTIME, "fill_ only supports 0-dimension value tensor but got tensor with 2 dimensions."));
    ct_tensor_release(ix);
    ct_tensor_release(ix32);
    ct_tensor_release(src);
    ct_tensor_release(src64);
}

/* the normalization and dropout family from C (messages as PyTorch 2.6's, tests/golden/torch-2.6/norm_ops.json) */
static void norm_cases(void) {
    ct_tensor *t = NULL, *o = NULL, *m = NULL, *r = NULL, *v = NULL;
    const bool mask[3] = {true, false, false};
    CASE("native_batch_norm of NULL")
        EXPECT(ct_native_batch_norm(NULL, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, &o, &m, &r) == -1, CT_ERR_TYPE,
               "native_batch_norm(): argument 'input' (position 1) must be Tensor, not NoneType");
    CASE("native_batch_norm of an int32 tensor") {
        t = mat(4, 3, CT_INT32);
        EXPECT(ct_native_batch_norm(t, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, &o, &m, &r) == -1, CT_ERR_RUNTIME,
               "\"batch_norm\" not implemented for 'Int'");
        ct_tensor_release(t);
    }
    CASE("batch_norm in eval mode without running statistics") {
        t = mat(4, 3, CT_FLOAT32);
        EXPECT(ct_batch_norm(t, NULL, NULL, NULL, NULL, false, 0.1, 1e-5, false) == NULL, CT_ERR_RUNTIME,
               "running_mean must be defined in evaluation mode");
        ct_tensor_release(t);
    }
    CASE("batch_norm with a running mean of another size") {
        t = mat(4, 3, CT_FLOAT32);
        v = vec(4, CT_FLOAT32);
        EXPECT(ct_batch_norm(t, NULL, NULL, v, NULL, true, 0.1, 1e-5, false) == NULL, CT_ERR_RUNTIME,
               "running_mean should contain 3 elements not 4");
        ct_tensor_release(v);
        ct_tensor_release(t);
    }
    CASE("batch_norm with a float64 weight of a float32 input") {
        t = mat(4, 3, CT_FLOAT32);
        v = vec(3, CT_FLOAT64);
        EXPECT(ct_batch_norm(t, v, NULL, NULL, NULL, true, 0.1, 1e-5, false) == NULL, CT_ERR_RUNTIME,
               "mixed dtype (CPU): expect parameter to have scalar type of Float");
        ct_tensor_release(v);
        ct_tensor_release(t);
    }
    CASE("native_batch_norm_backward of NULL")
        EXPECT(ct_native_batch_norm_backward(NULL, NULL, NULL, NULL, NULL, NULL, NULL, true, 1e-5, mask, 3, &o, &m, &r) == -1,
               CT_ERR_TYPE, "native_batch_norm_backward(): argument 'grad_out' (position 1) must be Tensor, not NoneType");
    CASE("native_group_norm with 0 groups") {
        t = mat(2, 6, CT_FLOAT32);
        EXPECT(ct_native_group_norm(t, NULL, NULL, 2, 6, 1, 0, 1e-5, &o, &m, &r) == -1, CT_ERR_RUNTIME,
               "Expected num groups to be greater than 0, got 0");
        ct_tensor_release(t);
    }
    CASE("group_norm with channels not divisible by the groups") {
        t = mat(2, 6, CT_FLOAT32);
        EXPECT(ct_group_norm(t, 4, NULL, NULL, 1e-5, true) == NULL, CT_ERR_RUNTIME,
               "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6] and num_groups=4");
        ct_tensor_release(t);
    }
    CASE("native_group_norm with N * C * HxW not the input's size") {
        t = mat(2, 6, CT_FLOAT32);
        EXPECT(ct_native_group_norm(t, NULL, NULL, 2, 6, 4, 3, 1e-5, &o, &m, &r) == -1, CT_ERR_RUNTIME,
               "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
        ct_tensor_release(t);
    }
    CASE("group_norm of an int64 tensor") {
        t = mat(2, 4, CT_INT64);
        EXPECT(ct_group_norm(t, 2, NULL, NULL, 1e-5, true) == NULL, CT_ERR_RUNTIME, "\"GroupNormKernelImpl\" not implemented for 'Long'");
        ct_tensor_release(t);
    }
    CASE("native_dropout of an int64 tensor") {
        t = vec(3, CT_INT64);
        EXPECT(ct_native_dropout(t, 0.5, 1, &o, &m) == -1, CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
        ct_tensor_release(t);
    }
    CASE("native_dropout with a negative p") {
        t = vec(3, CT_FLOAT32);
        EXPECT(ct_native_dropout(t, -0.5, 1, &o, &m) == -1, CT_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=1.5");
        ct_tensor_release(t);
    }
    CHECK(o == NULL && m == NULL && r == NULL);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    char *text = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/messages.json"), NULL);
    golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(golden != NULL, "cannot read tests/golden/torch-2.6/messages.json");
    if (!golden || linear_run(ref_y, ref_wgrad) != 0) return ct_test_finish("test_misuse");
    ct_error_clear();
    tensor_cases();
    factory_cases();
    view_cases();
    composite_cases();
    binary_cases();
    random_cases();
    autograd_cases();
    mode_cases();
    profiler_cases();
    trace_cases();
    boxed_cases();
    nn_cases();
    norm_cases();
    subclass_cases();
    api_cases();
    scatter_cases();
    cJSON_Delete(golden);
    printf("misuse: %d cases, %d with a failure; each checked the error, its message and the state after it\n", n_cases,
           n_failed_cases);
    return ct_test_finish("test_misuse");
}
