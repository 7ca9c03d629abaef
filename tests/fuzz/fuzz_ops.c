/* A libFuzzer target: random op sequences through the dispatcher.
 *
 * Each input is a small program read byte by byte: make tensors (dtype, shape, values), take
 * views of them, call any operator through the boxed call (ct_call, with arguments of the types
 * its schema names: tensors from the pool, ints, int lists, scalars, dtypes, generators, None),
 * call the typed wrappers, push and pop dispatch modes (an op logger, a counter, a function
 * mode, a mode that calls through), enter no_grad / inference_mode, wrap a tensor in
 * LoggingTensor, and run backward. Errors are expected (shapes and types are random); what must
 * not happen is a crash, a sanitizer report, a leak or state left behind: after every input the
 * dispatch and function mode stacks are empty, grad mode is back on and inference mode off, the
 * thread's included and excluded key sets are as they were, and the live tensor, storage and
 * node counts are back where they were. A boxed call's ret slots start out holding a tensor of
 * the harness's own (as uninitialised memory might hold anything): a failed call must leave every
 * slot None and must not have released that tensor.
 *
 * One allocation may take at most FUZZ_MAX_ALLOC bytes (ct_testing_set_alloc_limit): a larger
 * one is the library's out-of-memory error, so an input asking for a tensor of billions of
 * elements is an error at once instead of seconds of filling memory under the sanitizers.
 *
 * Build: cmake -DCTORCH_FUZZ=ON with clang (docs/experiments.md, "Fuzzing the dispatcher"). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/dispatch.h"
#include "ctorch/mode.h"
#include "ctorch/random.h"
#include "ctorch/subclass.h"
#include "ctorch/testing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* huge requests must come back as errors, not end the run */
const char *__asan_default_options(void) { return "allocator_may_return_null=1:detect_leaks=1"; }

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static unsigned u8(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}
static unsigned pick(reader *r, unsigned n) { return n ? u8(r) % n : 0; }

#define POOL 8
#define MAX_GUARDS 6
#define FUZZ_MAX_ALLOC ((size_t)64 << 20)

/* what a boxed call's ret slots hold before the call (see the top); it holds CANARY_REFS
 * references, so that a slot released by mistake is reported here rather than freeing it */
static ct_tensor *canary;
#define CANARY_REFS 5

static void finding(const char *what) {
    fprintf(stderr, "fuzz_ops: %s\n", what);
    abort();
}

typedef struct state {
    ct_tensor *pool[POOL];
    ct_op_logger *logger;
    ct_op_counter *counter;
    ct_function_logger *flogger;
    ct_logging_tensor_log *tlog;
    ct_generator *gen;
    /* the dispatch modes this input pushed, innermost last: -1 the logger, -2 the counter, or the
     * handle ct_dispatch_mode_push gave a pass-through mode */
    int pushed_modes[CT_MAX_MODES];
    int pushed;
    int fpushed;
    ct_grad_mode_guard guards[MAX_GUARDS];
    int nguards;
    /* Dispatch modes and grad-mode guards are scoped contexts (Python's `with`): they are left
     * innermost first, one stack for both. Leaving them interleaved is a caller's mistake that
     * PyTorch does not detect either: an inference-mode guard restores the key sets it saved, so
     * exiting it after a mode entered before it was popped includes the Python keys again with
     * no mode on the stack. ctx[i]: 'm' a dispatch mode, 'g' a guard, innermost last. */
    char ctx[CT_MAX_MODES + MAX_GUARDS];
    int nctx;
} state;

static void pool_put(state *s, reader *r, ct_tensor *t) {
    if (!t) return;
    unsigned i = pick(r, POOL);
    ct_tensor_release(s->pool[i]);
    s->pool[i] = t;
}

static ct_tensor *pool_get(state *s, reader *r) { return s->pool[pick(r, POOL)]; }

static const ct_dtype DTYPES[] = {CT_FLOAT32, CT_FLOAT64, CT_FLOAT16, CT_BFLOAT16, CT_INT64, CT_BOOL};
#define NDTYPES (sizeof DTYPES / sizeof DTYPES[0])

static int64_t small_int(reader *r) {
    unsigned b = u8(r);
    switch (b % 16) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return -1 - (int64_t)pick(r, 4);
    default: return (int64_t)(b % 7) - 2; /* -2..4 */
    }
}

/* a size list: 0..4 entries in -1..5 (shapes stay small: at most 5^4 elements) */
static int64_t size_list(reader *r, int64_t *out) {
    int64_t n = pick(r, 5);
    for (int64_t i = 0; i < n; i++) out[i] = (int64_t)pick(r, 7) - 1;
    return n;
}

static ct_tensor *make_tensor(state *s, reader *r) {
    int64_t sizes[4];
    int nd = (int)pick(r, 4);
    int64_t numel = 1;
    for (int i = 0; i < nd; i++) numel *= sizes[i] = pick(r, 5);
    ct_dtype dt = DTYPES[pick(r, NDTYPES)];
    ct_tensor *t = NULL;
    switch (pick(r, 3)) {
    case 0: t = ct_randn_generator(sizes, nd, s->gen, dt); break;
    case 1: t = ct_randint_generator(-3, 4, sizes, nd, s->gen, dt); break;
    default: {
        double v[64];
        if (numel > 64) return NULL;
        for (int64_t i = 0; i < numel; i++) v[i] = ((double)(int)u8(r) - 128.0) / 8.0;
        t = ct_tensor_from_doubles(v, sizes, nd, dt);
    }
    }
    if (t && ct_dtype_is_floating(dt) && pick(r, 2)) ct_tensor_set_requires_grad(t, true);
    return t;
}

/* ---- the boxed call with arguments as the schema types them ---- */

/* the argument types of op's schema, in order ("Tensor", "int[1]?", ...); -1 if one is not
 * supported here */
static int arg_types(const ct_op *op, char types[][32], int max) {
    const char *sc = ct_op_schema(op);
    const char *p = strchr(sc, '(');
    if (!p) return -1;
    p++;
    int n = 0;
    while (*p && *p != ')') {
        while (*p == ' ' || *p == ',') p++;
        if (*p == '*') {
            p++;
            continue;
        }
        if (*p == ')') break;
        const char *sp = strchr(p, ' ');
        if (!sp || n >= max || sp - p >= 31) return -1;
        memcpy(types[n], p, (size_t)(sp - p));
        types[n][sp - p] = '\0';
        n++;
        while (*p && *p != ',' && *p != ')') p++;
    }
    return n;
}

static bool starts(const char *s, const char *pre) { return strncmp(s, pre, strlen(pre)) == 0; }

static int boxed_call(state *s, reader *r) {
    int nops = ct_op_count();
    const ct_op *op = ct_op_at((int)(pick(r, 256) % (unsigned)nops));
    if (!op || starts(ct_op_name(op), "profiler::")) return 0;
    char types[16][32];
    int n = arg_types(op, types, 16);
    if (n < 0 || n != ct_op_num_args(op)) return 0;
    ct_value args[16];
    int64_t lists[16][4];
    static const char *const strs[] = {"mean", "none", "", "cpu"};
    int given = n;
    for (int i = 0; i < n; i++) {
        const char *ty = types[i];
        bool opt = strchr(ty, '?') != NULL;
        if (opt && pick(r, 3) == 0) {
            args[i] = ct_none();
            continue;
        }
        if (starts(ty, "Tensor")) {
            ct_tensor *t = pool_get(s, r);
            if (!t && !opt) return 0; /* an empty slot: None only where the schema allows it */
            args[i] = ct_tensor_value(t);
        } else if (starts(ty, "Scalar") && !starts(ty, "ScalarType")) {
            switch (pick(r, 3)) {
            case 0: args[i] = ct_int(small_int(r)); break;
            case 1: args[i] = ct_double(((double)(int)u8(r) - 128.0) / 16.0); break;
            default: args[i] = ct_bool(pick(r, 2)); break;
            }
        } else if (starts(ty, "ScalarType")) {
            args[i] = ct_int(DTYPES[pick(r, NDTYPES)]);
        } else if (strchr(ty, '[')) {
            args[i] = ct_intlist(lists[i], size_list(r, lists[i]));
        } else if (starts(ty, "int") || starts(ty, "SymInt")) {
            args[i] = ct_int(small_int(r));
        } else if (starts(ty, "bool")) {
            args[i] = ct_bool(pick(r, 2));
        } else if (starts(ty, "float")) {
            args[i] = ct_double(((double)(int)u8(r) - 128.0) / 32.0);
        } else if (starts(ty, "MemoryFormat")) {
            args[i] = ct_int(pick(r, 2));
        } else if (starts(ty, "Layout")) {
            args[i] = ct_int(0);
        } else if (starts(ty, "Device")) {
            args[i].tag = CT_TAG_DEVICE;
            args[i].u.i = 0;
        } else if (starts(ty, "Generator")) {
            args[i] = ct_generator_value(s->gen);
        } else if (starts(ty, "str")) {
            args[i] = ct_string(strs[pick(r, 4)]);
        } else {
            return 0; /* a custom class: not made here */
        }
    }
    /* sometimes leave the trailing defaults to the schema */
    if (pick(r, 2)) {
        given = (int)pick(r, (unsigned)n + 1);
        if (ct_op_fill_defaults(op, args, given) != 0) return -1;
    }
    ct_value rets[4];
    for (int i = 0; i < 4; i++) rets[i] = ct_tensor_value(canary);
    int nr = ct_op_num_returns(op);
    if (nr > 4) return 0;
    if (ct_call(op, args, rets) != 0) {
        for (int i = 0; i < nr; i++)
            if (rets[i].tag != CT_TAG_NONE) finding("a failed boxed call left a ret slot that is not None");
        if (ct_tensor_refcount(canary) != CANARY_REFS) finding("a failed boxed call released what its ret slots held before the call");
        return -1;
    }
    if (ct_tensor_refcount(canary) != CANARY_REFS) finding("a boxed call released what its ret slots held before the call");
    for (int i = 0; i < nr; i++) {
        if (rets[i].tag == CT_TAG_TENSOR && pick(r, 2)) {
            pool_put(s, r, ct_tensor_retain(rets[i].u.t));
        }
    }
    ct_values_release(rets, nr);
    return 0;
}

/* ---- the typed wrappers ---- */

static void typed_call(state *s, reader *r) {
    ct_tensor *a = pool_get(s, r), *b = pool_get(s, r), *c = pool_get(s, r), *y = NULL;
    if (!a) return; /* the wrappers take tensors, not None, where the schema says Tensor */
    if (!b) b = a;
    int64_t l[4];
    int64_t nl;
    switch (pick(r, 24)) {
    case 0: y = ct_add(a, b, ct_int(small_int(r))); break;
    case 1: y = ct_mul(a, b); break;
    case 2: y = ct_div(a, b); break;
    case 3: y = ct_sub(a, b, ct_double(0.5)); break;
    case 4: y = ct_sum(a, CT_DTYPE_UNDEFINED); break;
    case 5: nl = size_list(r, l); y = ct_sum_dim(a, l, nl > 2 ? 2 : nl, pick(r, 2), CT_DTYPE_UNDEFINED); break;
    case 6: y = ct_matmul(a, b); break;
    case 7: y = ct_linear(a, b, pick(r, 2) ? c : NULL); break;
    case 8: y = ct_relu(a); break;
    case 9: y = ct_transpose(a, small_int(r), small_int(r)); break;
    case 10: nl = size_list(r, l); y = ct_view(a, l, nl); break;
    case 11: nl = size_list(r, l); y = ct_reshape(a, l, nl); break;
    case 12: nl = size_list(r, l); y = ct_expand(a, l, nl, false); break;
    case 13: nl = size_list(r, l); y = ct_permute(a, l, nl); break;
    case 14: y = ct_select(a, small_int(r), small_int(r)); break;
    case 15: y = ct_unsqueeze(a, small_int(r)); break;
    case 16: y = ct_squeeze_dim(a, small_int(r)); break;
    case 17: y = ct_log_softmax(a, small_int(r), CT_DTYPE_UNDEFINED); break;
    case 18: y = ct_cross_entropy_loss(a, b, pick(r, 2) ? c : NULL, (int64_t)pick(r, 3), -100, 0.0); break;
    case 19: y = ct_to_dtype(a, DTYPES[pick(r, NDTYPES)], false, pick(r, 2), CT_MEMORY_FORMAT_NONE); break;
    case 20: {
        int64_t st[4], off = (int64_t)pick(r, 4);
        nl = size_list(r, l);
        for (int i = 0; i < 4; i++) st[i] = (int64_t)pick(r, 4);
        y = ct_as_strided(a, l, nl, st, nl, pick(r, 2) ? &off : NULL);
        break;
    }
    case 21: y = ct_masked_fill(a, b, ct_double(1.5)); break;
    case 22: y = ct_gather(a, small_int(r), b, false); break;
    default: y = ct_flatten(a, small_int(r), small_int(r)); break;
    }
    if (y && pick(r, 4)) pool_put(s, r, y);
    else ct_tensor_release(y);
}

/* a mode that calls through (a __torch_dispatch__ that runs func(*args)) */
static int passthrough(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    return ct_call(op, args, rets);
}

static int pop_mode(state *s, int m) {
    if (m == -1) return ct_op_logger_pop(s->logger);
    if (m == -2) return ct_op_counter_pop(s->counter);
    return ct_dispatch_mode_pop(m);
}

static void mode_pushed(state *s, int m) {
    s->pushed_modes[s->pushed++] = m;
    s->ctx[s->nctx++] = 'm';
}

static bool innermost(const state *s, char kind) { return s->nctx > 0 && s->ctx[s->nctx - 1] == kind; }

/* leaves the innermost context (a mode or a guard) */
static void leave_innermost(state *s) {
    if (innermost(s, 'm')) {
        if (pop_mode(s, s->pushed_modes[s->pushed - 1]) != 0) return;
        s->pushed--;
    } else {
        ct_grad_mode_exit(&s->guards[--s->nguards]);
    }
    s->nctx--;
}

static void modes(state *s, reader *r) {
    switch (pick(r, 7)) {
    case 0:
        if (ct_op_logger_push(s->logger) == 0) mode_pushed(s, -1);
        break;
    case 1:
        if (ct_op_counter_push(s->counter) == 0) mode_pushed(s, -2);
        break;
    case 2: {
        int h = ct_dispatch_mode_push(passthrough, NULL);
        if (h > 0) mode_pushed(s, h);
        break;
    }
    case 3:
        if (innermost(s, 'm')) leave_innermost(s);
        break;
    case 4:
        if (s->fpushed == 0 && ct_function_logger_push(s->flogger) == 0) s->fpushed = 1;
        else if (s->fpushed && ct_function_logger_pop(s->flogger) == 0) s->fpushed = 0;
        break;
    case 5:
        if (s->nguards < MAX_GUARDS) {
            if (pick(r, 2)) ct_no_grad_enter(&s->guards[s->nguards++]);
            else ct_inference_mode_enter(&s->guards[s->nguards++]);
            s->ctx[s->nctx++] = 'g';
        }
        break;
    default:
        if (innermost(s, 'g')) leave_innermost(s);
        break;
    }
}

static void backward(state *s, reader *r) {
    ct_tensor *t = pool_get(s, r);
    if (!t) return;
    ct_tensor *l = ct_tensor_numel(t) == 1 || pick(r, 2) ? ct_sum(t, CT_DTYPE_UNDEFINED) : ct_tensor_retain(t);
    if (l) ct_backward(l, pick(r, 2) ? pool_get(s, r) : NULL, pick(r, 2));
    ct_tensor_release(l);
}

static int64_t base_tensors, base_storages, base_nodes;
static ct_keyset base_included, base_excluded;
static bool initialised;

/* no function mode is left entered: popping must fail */
static bool function_modes_empty(void) {
    return ct_function_mode_stack_len() == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!initialised) {
        if (ct_init() != 0) abort(); /* the library starts first (ctorch/init.h) */
        ct_tensor *warm = ct_tensor_scalar(1.0, CT_FLOAT32);
        ct_tensor_release(warm);
        canary = ct_tensor_scalar(0x66, CT_INT64);
        if (!canary) abort();
        for (int i = 1; i < CANARY_REFS; i++) ct_tensor_retain(canary);
        ct_testing_set_alloc_limit(FUZZ_MAX_ALLOC);
        initialised = true;
    }
    base_included = ct_tls_included();
    base_excluded = ct_tls_excluded();
    base_tensors = ct_testing_live_tensors();
    base_storages = ct_testing_live_storages();
    base_nodes = ct_testing_live_nodes();
    reader r = {data, size};
    state s;
    memset(&s, 0, sizeof s);
    s.logger = ct_op_logger_new();
    s.counter = ct_op_counter_new();
    s.flogger = ct_function_logger_new();
    s.tlog = ct_logging_tensor_log_new();
    s.gen = ct_generator_new();
    if (!s.logger || !s.counter || !s.flogger || !s.tlog || !s.gen) abort();
    ct_generator_manual_seed(s.gen, u8(&r));
    for (int steps = 0; r.n && steps < 48; steps++) {
        switch (pick(&r, 8)) {
        case 0: pool_put(&s, &r, make_tensor(&s, &r)); break;
        case 1:
        case 2: boxed_call(&s, &r); break;
        case 3:
        case 4: typed_call(&s, &r); break;
        case 5: modes(&s, &r); break;
        case 6: backward(&s, &r); break;
        default: {
            ct_tensor *t = pool_get(&s, &r);
            if (t) pool_put(&s, &r, ct_logging_tensor_new(s.tlog, t, false));
            break;
        }
        }
        ct_error_clear();
    }
    if (s.fpushed) ct_function_logger_pop(s.flogger);
    for (int left = s.nctx; s.nctx > 0; left--) {
        leave_innermost(&s);
        if (s.nctx >= left) finding("a mode on the harness's stack could not be popped");
    }
    for (int i = 0; i < POOL; i++) ct_tensor_release(s.pool[i]);
    ct_op_logger_free(s.logger);
    ct_op_counter_free(s.counter);
    ct_function_logger_free(s.flogger);
    ct_logging_tensor_log_free(s.tlog);
    ct_generator_release(s.gen);
    ct_error_clear();
    bool fmodes_empty = function_modes_empty();
    if (ct_dispatch_mode_stack_len() != 0 || !fmodes_empty || !ct_is_grad_enabled() || ct_is_inference_mode_enabled() ||
        ct_tls_included() != base_included || ct_tls_excluded() != base_excluded || ct_tensor_refcount(canary) != CANARY_REFS ||
        ct_testing_live_tensors() != base_tensors || ct_testing_live_storages() != base_storages ||
        ct_testing_live_nodes() != base_nodes) {
        fprintf(stderr,
                "fuzz_ops: state left behind: modes %d, function modes %s, grad %d, inference %d, included %#llx (was %#llx), "
                "excluded %#llx (was %#llx), canary refcount %lld, tensors %+lld, storages %+lld, nodes %+lld\n",
                ct_dispatch_mode_stack_len(), fmodes_empty ? "none" : "left", (int)ct_is_grad_enabled(),
                (int)ct_is_inference_mode_enabled(), (unsigned long long)ct_tls_included(), (unsigned long long)base_included,
                (unsigned long long)ct_tls_excluded(), (unsigned long long)base_excluded,
                (long long)ct_tensor_refcount(canary),
                (long long)(ct_testing_live_tensors() - base_tensors),
                (long long)(ct_testing_live_storages() - base_storages),
                (long long)(ct_testing_live_nodes() - base_nodes));
        abort();
    }
    return 0;
}
