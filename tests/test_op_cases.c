/* Operators against PyTorch 2.6: every case in tests/golden/torch-2.6/op_cases.json (recorded by
 * tests/golden/record/op_cases.py, which documents the format) is an operator call made through
 * torch.ops.aten.<op>.<overload>. The test rebuilds the same arguments, calls the operator
 * through the boxed dispatcher (ct_op_find, ct_op_fill_defaults, ct_call) and compares:
 *   - a result: dtype, sizes, strides and storage offset exactly; whether it is one of the
 *     arguments itself ("is_arg") or shares an argument's storage ("views_arg"), and that it
 *     does neither when PyTorch's did not; the values bit for bit for "tol": "exact" cases
 *     (NaN matches NaN, the sign of zero counts) and with torch.allclose's rule for "close"
 *     ones (rtol 1e-6, atol 1e-7 for float32/float64; for float16 and bfloat16, whose matrix
 *     products and sums may round a float accumulation differently, rtol and atol of one
 *     unit in the last place of the type: 2^-10 and 2^-7), and with rtol 1e-5 / atol 1e-6 for
 *     "loose" ones (layer norm's statistics, which PyTorch's float kernel accumulates with a
 *     vectorised Welford and ctorch in double: about 1e-6 apart when eps weighs on a small
 *     variance);
 *   - an error: ct_call returns -1 with every return slot NONE, the error kind is the Python
 *     exception's and the message is PyTorch's exactly (its first line only where the case
 *     says "error_first_line").
 * Cases with a "skip_reason" (calls ctorch does not support yet) are run but reported as
 * skipped whatever happens; the report says when one of them has started to pass. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/init.h"
#include "ctorch/dispatch.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "ctorch/random.h"
#include "ctorch/ops_generated.h"
#include "ctorch/tensor.h"
#include "harness.h"
#include "util/json.h"

#define MAX_ARGS 16

static int cases_run, cases_passed, cases_failed, cases_skipped, skipped_now_passing;

/* ---- reading the golden file ---- */

/* The case being replayed: mismatches are reported under its name. In a skipped case they
 * are only counted. */
static const char *cur_name;
static bool cur_skipped;
static int cur_mismatches;

static void mismatch(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void mismatch(const char *fmt, ...) {
    cur_mismatches++;
    if (cur_skipped) return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ct_test_fail(__FILE__, __LINE__, "case %s: %s", cur_name, msg);
}

static int parse_dtype(const char *s, ct_dtype *out) {
    static const struct {
        const char *name;
        ct_dtype dt;
    } names[] = {{"float32", CT_FLOAT32}, {"float64", CT_FLOAT64}, {"float16", CT_FLOAT16},
                 {"bfloat16", CT_BFLOAT16}, {"int64", CT_INT64}, {"bool", CT_BOOL}};
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].dt;
            return 0;
        }
    return -1;
}

/* An element or scalar as the recorder wrote it: a number, true/false, "nan"/"inf"/"-inf",
 * or (integers beyond 2^53) a decimal string. */
static int json_int(const cJSON *v, int64_t *out) {
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    }
    if (cJSON_IsNumber(v)) {
        *out = (int64_t)v->valuedouble;
        return 0;
    }
    if (cJSON_IsString(v)) {
        char *end;
        *out = strtoll(v->valuestring, &end, 10);
        return *end == '\0' && end != v->valuestring ? 0 : -1;
    }
    return -1;
}

static int json_double(const cJSON *v, double *out) {
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1.0 : 0.0;
        return 0;
    }
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return 0;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (strcmp(s, "nan") == 0) *out = NAN;
        else if (strcmp(s, "inf") == 0) *out = INFINITY;
        else if (strcmp(s, "-inf") == 0) *out = -INFINITY;
        else {
            int64_t i;
            if (json_int(v, &i) != 0) return -1;
            *out = (double)i;
        }
        return 0;
    }
    return -1;
}

/* A JSON array of integers into a malloc'd array (NULL for an empty one). */
static int json_int_list(const cJSON *arr, int64_t **out, int64_t *len) {
    int n = cJSON_GetArraySize(arr);
    *out = NULL;
    *len = n;
    if (!cJSON_IsArray(arr)) return -1;
    if (n == 0) return 0;
    *out = malloc(sizeof(int64_t) * (size_t)n);
    if (!*out) return -1;
    for (int i = 0; i < n; i++)
        if (json_int(cJSON_GetArrayItem(arr, i), &(*out)[i]) != 0) return -1;
    return 0;
}

/* ---- building arguments ---- */

/* What one case owns: the tensors it built (bases and views) and its int lists. */
typedef struct owned {
    ct_tensor *tensors[64];
    int ntensors;
    int64_t *lists[MAX_ARGS];
    int nlists;
    ct_tensor **tlists[MAX_ARGS];
    int ntlists;
    ct_generator *gens[MAX_ARGS];
    int ngens;
} owned;

static void owned_release(owned *o) {
    for (int i = 0; i < o->ntensors; i++) ct_tensor_release(o->tensors[i]);
    for (int i = 0; i < o->nlists; i++) free(o->lists[i]);
    for (int i = 0; i < o->ntlists; i++) free(o->tlists[i]);
    for (int i = 0; i < o->ngens; i++) ct_generator_release(o->gens[i]);
    memset(o, 0, sizeof *o);
}

/* {"dtype", "sizes", "values" (of the base), "view": null | "t" | "expand0"}. Returns a
 * borrowed tensor (owned by o), or NULL. */
static ct_tensor *build_tensor(const cJSON *spec, owned *o) {
    ct_dtype dt;
    if (parse_dtype(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(spec, "dtype")), &dt) != 0) {
        mismatch("bad tensor dtype");
        return NULL;
    }
    int64_t *sizes = NULL, n;
    if (json_int_list(cJSON_GetObjectItemCaseSensitive(spec, "sizes"), &sizes, &n) != 0 || n > CT_MAX_DIMS) {
        free(sizes);
        mismatch("bad tensor sizes");
        return NULL;
    }
    const cJSON *view = cJSON_GetObjectItemCaseSensitive(spec, "view");
    const char *vname = cJSON_IsString(view) ? view->valuestring : NULL;
    int64_t base_sizes[CT_MAX_DIMS];
    int base_n = (int)n;
    if (!vname) {
        for (int i = 0; i < n; i++) base_sizes[i] = sizes[i];
    } else if (strcmp(vname, "t") == 0) {
        for (int i = 0; i < n; i++) base_sizes[i] = sizes[n - 1 - i];
    } else if (strcmp(vname, "expand0") == 0 && n >= 1) {
        base_n = (int)n - 1;
        for (int i = 0; i < base_n; i++) base_sizes[i] = sizes[i + 1];
    } else {
        free(sizes);
        mismatch("unknown view \"%s\"", vname);
        return NULL;
    }
    int64_t numel = 1;
    for (int i = 0; i < base_n; i++) numel *= base_sizes[i];
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(spec, "values");
    if (cJSON_GetArraySize(values) != numel) {
        free(sizes);
        mismatch("tensor has %d values for %lld elements", cJSON_GetArraySize(values), (long long)numel);
        return NULL;
    }
    ct_tensor *base = NULL;
    size_t bytes = (size_t)(numel > 0 ? numel : 1);
    if (dt == CT_INT64) {
        /* from the int64 values themselves: a double would round those beyond 2^53 */
        int64_t *data = malloc(bytes * sizeof(int64_t));
        bool ok = data != NULL;
        for (int64_t i = 0; ok && i < numel; i++) ok = json_int(cJSON_GetArrayItem(values, (int)i), &data[i]) == 0;
        if (ok) base = ct_tensor_from_data(data, base_sizes, base_n, dt);
        free(data);
    } else {
        double *data = malloc(bytes * sizeof(double));
        bool ok = data != NULL;
        for (int64_t i = 0; ok && i < numel; i++) ok = json_double(cJSON_GetArrayItem(values, (int)i), &data[i]) == 0;
        if (ok) base = ct_tensor_from_doubles(data, base_sizes, base_n, dt);
        free(data);
    }
    if (!base) {
        free(sizes);
        mismatch("cannot build a tensor: %s", ct_error_message());
        return NULL;
    }
    if (o->ntensors + 2 > (int)(sizeof o->tensors / sizeof o->tensors[0])) {
        ct_tensor_release(base);
        free(sizes);
        mismatch("too many tensors in one case");
        return NULL;
    }
    o->tensors[o->ntensors++] = base;
    ct_tensor *t = base;
    if (vname && strcmp(vname, "t") == 0) {
        /* every dimension reversed: strides of the contiguous base, in reverse */
        int64_t strides[CT_MAX_DIMS];
        const int64_t *bs = ct_tensor_strides(base);
        for (int i = 0; i < n; i++) strides[i] = bs[n - 1 - i];
        t = ct_as_strided(base, sizes, n, strides, n, NULL);
    } else if (vname) {
        t = ct_expand(base, sizes, n, false);
    }
    free(sizes);
    if (!t) {
        mismatch("cannot build the \"%s\" view: %s", vname, ct_error_message());
        return NULL;
    }
    if (t != base) o->tensors[o->ntensors++] = t;
    return t;
}

static int build_arg(const cJSON *arg, ct_value *out, owned *o) {
    const cJSON *v = arg ? arg->child : NULL;
    if (!v || !v->string) {
        mismatch("malformed argument");
        return -1;
    }
    const char *kind = v->string;
    if (strcmp(kind, "tensor") == 0) {
        ct_tensor *t = build_tensor(v, o);
        if (!t) return -1;
        *out = ct_tensor_value(t);
        return 0;
    }
    if (strcmp(kind, "int") == 0 || strcmp(kind, "scalar_int") == 0) {
        int64_t i;
        if (json_int(v, &i) != 0) goto bad;
        *out = ct_int(i);
        return 0;
    }
    if (strcmp(kind, "float") == 0 || strcmp(kind, "scalar_float") == 0) {
        double d;
        if (json_double(v, &d) != 0) goto bad;
        *out = ct_double(d);
        return 0;
    }
    if (strcmp(kind, "bool") == 0) {
        if (!cJSON_IsBool(v)) goto bad;
        *out = ct_bool(cJSON_IsTrue(v));
        return 0;
    }
    if (strcmp(kind, "ints") == 0) {
        int64_t *data, len;
        if (json_int_list(v, &data, &len) != 0) {
            free(data);
            goto bad;
        }
        o->lists[o->nlists++] = data;
        *out = ct_intlist(data, len);
        return 0;
    }
    if (strcmp(kind, "none") == 0) {
        *out = ct_none();
        return 0;
    }
    if (strcmp(kind, "dtype") == 0) {
        ct_dtype dt;
        if (parse_dtype(cJSON_GetStringValue(v), &dt) != 0) goto bad;
        *out = ct_int(dt); /* a ScalarType is boxed as its c10::ScalarType value */
        return 0;
    }
    if (strcmp(kind, "tensors") == 0) { /* a Tensor[] */
        int n = cJSON_GetArraySize(v);
        ct_tensor **items = malloc(sizeof(ct_tensor *) * (size_t)(n ? n : 1));
        if (!items) goto bad;
        o->tlists[o->ntlists++] = items;
        for (int i = 0; i < n; i++) {
            const cJSON *spec = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(v, i), "tensor");
            items[i] = spec ? build_tensor(spec, o) : NULL;
            if (!items[i]) return -1;
        }
        *out = ct_tensor_list_value(items, n);
        return 0;
    }
    if (strcmp(kind, "bools") == 0) { /* bool[N], boxed as 0/1 */
        int n = cJSON_GetArraySize(v);
        int64_t *data = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        if (!data) goto bad;
        for (int i = 0; i < n; i++) data[i] = cJSON_IsTrue(cJSON_GetArrayItem(v, i));
        o->lists[o->nlists++] = data;
        *out = ct_intlist(data, n);
        return 0;
    }
    if (strcmp(kind, "string") == 0) {
        if (!cJSON_IsString(v)) goto bad;
        *out = ct_string(v->valuestring);
        return 0;
    }
    if (strcmp(kind, "generator") == 0) {
        int64_t seed;
        if (json_int(v, &seed) != 0) goto bad;
        ct_generator *g = ct_generator_new();
        if (!g) goto bad;
        ct_generator_manual_seed(g, (uint64_t)seed);
        o->gens[o->ngens++] = g;
        *out = ct_generator_value(g);
        return 0;
    }
    if (strcmp(kind, "memory_format") == 0) {
        const char *s = cJSON_GetStringValue(v);
        if (!s) goto bad;
        if (strcmp(s, "contiguous") == 0) *out = ct_int(CT_CONTIGUOUS_FORMAT);
        else if (strcmp(s, "preserve") == 0) *out = ct_int(CT_PRESERVE_FORMAT);
        else goto bad;
        return 0;
    }
bad:
    mismatch("bad \"%s\" argument", kind);
    return -1;
}

/* ---- comparing ---- */

/* Element i (row-major logical order) of t, exactly: int64 and bool as integers, floats
 * as the double holding the stored value. */
static void element(const ct_tensor *t, int64_t lin, int64_t *iv, double *dv) {
    int nd = ct_tensor_ndim(t);
    const int64_t *sizes = ct_tensor_sizes(t), *strides = ct_tensor_strides(t);
    int64_t off = 0;
    for (int d = nd - 1; d >= 0; d--) {
        off += (lin % sizes[d]) * strides[d];
        lin /= sizes[d];
    }
    const char *p = (const char *)ct_tensor_data_ptr(t) + off * (int64_t)ct_dtype_size(ct_tensor_dtype(t));
    *iv = 0;
    *dv = 0;
    switch (ct_tensor_dtype(t)) {
    case CT_INT64: memcpy(iv, p, sizeof *iv); break;
    case CT_BOOL: *iv = *(const uint8_t *)p != 0; break;
    case CT_FLOAT32: {
        float f;
        memcpy(&f, p, sizeof f);
        *dv = f;
        break;
    }
    case CT_FLOAT64: memcpy(dv, p, sizeof *dv); break;
    case CT_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        *dv = ct_half_to_float(h);
        break;
    }
    case CT_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        *dv = ct_bfloat16_to_float(h);
        break;
    }
    default: break;
    }
}

static bool loose_case;

static bool same_float(double got, double want, bool exact, ct_dtype dt) {
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
    if (exact) return got == want && signbit(got) == signbit(want);
    if (isinf(got) || isinf(want)) return got == want;
    if (loose_case) return ct_test_close(got, want, 1e-5, 1e-6);
    double tol = dt == CT_FLOAT16 ? 1.0 / 1024 : dt == CT_BFLOAT16 ? 1.0 / 128 : 1e-6;
    return ct_test_close(got, want, tol, dt == CT_FLOAT16 || dt == CT_BFLOAT16 ? tol : 1e-7);
}

static void fmt_list(char *buf, size_t size, const int64_t *v, int64_t n) {
    size_t len = (size_t)snprintf(buf, size, "[");
    for (int64_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (len < size) snprintf(buf + len, size - len, "]");
}

static bool same_list(const int64_t *a, int64_t na, const int64_t *b, int64_t nb) {
    if (na != nb) return false;
    for (int64_t i = 0; i < na; i++)
        if (a[i] != b[i]) return false;
    return true;
}

static void compare_list(const char *what, const int64_t *got, int64_t ngot, const cJSON *want_json) {
    int64_t *want, nwant;
    if (json_int_list(want_json, &want, &nwant) != 0) {
        free(want);
        mismatch("bad expected %s", what);
        return;
    }
    if (!same_list(got, ngot, want, nwant)) {
        char g[512], w[512];
        fmt_list(g, sizeof g, got, ngot);
        fmt_list(w, sizeof w, want, nwant);
        mismatch("%s %s, PyTorch %s", what, g, w);
    }
    free(want);
}

static void compare_tensor(const ct_tensor *got, const cJSON *result, const ct_value *args, int nargs, bool exact) {
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(result, "tensor");
    ct_dtype dt;
    if (parse_dtype(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(want, "dtype")), &dt) != 0) {
        mismatch("bad expected dtype");
        return;
    }
    if (ct_tensor_dtype(got) != dt) {
        mismatch("dtype %s, PyTorch %s", ct_dtype_python_name(ct_tensor_dtype(got)), ct_dtype_python_name(dt));
        return;
    }
    int nd = ct_tensor_ndim(got);
    int before = cur_mismatches;
    compare_list("sizes", ct_tensor_sizes(got), nd, cJSON_GetObjectItemCaseSensitive(want, "sizes"));
    if (cur_mismatches != before) return; /* values cannot be lined up */
    compare_list("strides", ct_tensor_strides(got), nd, cJSON_GetObjectItemCaseSensitive(want, "strides"));
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(want, "storage_offset");
    if (off && (int64_t)off->valuedouble != ct_tensor_storage_offset(got))
        mismatch("storage offset %lld, PyTorch %lld", (long long)ct_tensor_storage_offset(got), (long long)off->valuedouble);

    /* identity and aliasing */
    const cJSON *is_arg = cJSON_GetObjectItemCaseSensitive(result, "is_arg");
    const cJSON *views_arg = cJSON_GetObjectItemCaseSensitive(result, "views_arg");
    for (int i = 0; i < nargs; i++) {
        if (args[i].tag != CT_TAG_TENSOR) continue;
        bool want_is = is_arg && (int)is_arg->valuedouble == i;
        if ((args[i].u.t == got) != want_is)
            mismatch(want_is ? "the result is not argument %d itself, as in PyTorch" : "the result is argument %d itself, not so in PyTorch", i);
    }
    if (views_arg) {
        int i = (int)views_arg->valuedouble;
        if (i < 0 || i >= nargs || args[i].tag != CT_TAG_TENSOR || !ct_tensor_shares_storage(got, args[i].u.t))
            mismatch("the result does not share argument %d's storage, as in PyTorch", i);
    } else if (ct_tensor_numel(got) > 0) {
        /* PyTorch recorded no shared storage (a result with elements has a data pointer) */
        for (int i = 0; i < nargs; i++)
            if (args[i].tag == CT_TAG_TENSOR && ct_tensor_shares_storage(got, args[i].u.t))
                mismatch("the result shares argument %d's storage, not so in PyTorch", i);
    }

    /* values */
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(want, "values");
    if (cJSON_IsNull(values)) return; /* uninitialised memory (empty) */
    int64_t numel = ct_tensor_numel(got);
    if (cJSON_GetArraySize(values) != numel) {
        mismatch("%lld elements, PyTorch %d", (long long)numel, cJSON_GetArraySize(values));
        return;
    }
    int bad = 0;
    for (int64_t i = 0; i < numel; i++) {
        const cJSON *w = cJSON_GetArrayItem(values, (int)i);
        int64_t giv;
        double gdv;
        element(got, i, &giv, &gdv);
        if (dt == CT_INT64 || dt == CT_BOOL) {
            int64_t wiv;
            if (json_int(w, &wiv) != 0 || giv != wiv) {
                if (bad++ < 4) {
                    char *ws = cJSON_PrintUnformatted(w);
                    mismatch("element %lld: %lld, PyTorch %s", (long long)i, (long long)giv, ws ? ws : "?");
                    cJSON_free(ws);
                }
            }
        } else {
            double wdv;
            if (json_double(w, &wdv) != 0 || !same_float(gdv, wdv, exact, dt)) {
                if (bad++ < 4) mismatch("element %lld: %.17g, PyTorch %.17g", (long long)i, gdv, wdv);
            }
        }
    }
    if (bad > 4) mismatch("... %d elements differ in all", bad);
}

static ct_error_kind error_kind_of(const char *type) {
    static const struct {
        const char *name;
        ct_error_kind kind;
    } kinds[] = {{"RuntimeError", CT_ERR_RUNTIME},
                 {"TypeError", CT_ERR_TYPE},
                 {"IndexError", CT_ERR_INDEX},
                 {"ValueError", CT_ERR_VALUE},
                 {"NotImplementedError", CT_ERR_NOT_IMPLEMENTED}};
    for (size_t i = 0; type && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(type, kinds[i].name) == 0) return kinds[i].kind;
    return CT_OK;
}

static void compare_error(const cJSON *err, bool first_line) {
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "type"));
    const char *want = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message"));
    ct_error_kind kind = error_kind_of(type);
    if (kind == CT_OK || !want) {
        mismatch("unknown expected error type %s", type ? type : "(null)");
        return;
    }
    ct_error_kind got_kind = ct_error_code();
    const char *got = ct_error_message();
    size_t want_len = strlen(want);
    if (first_line && strchr(want, '\n')) want_len = (size_t)(strchr(want, '\n') - want);
    if (got_kind != kind || strlen(got) != want_len || strncmp(got, want, want_len) != 0)
        mismatch("error\n     got %s: [%s]\n    want %s: [%.*s]", ct_error_kind_name(got_kind), got, type, (int)want_len,
                 want);
}

/* ---- one case ---- */

static void run_case(const cJSON *c) {
    cur_name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
    if (!cur_name) cur_name = "(unnamed)";
    const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "skip_reason"));
    cur_skipped = skip != NULL;
    cur_mismatches = 0;
    cases_run++;
    ct_test_checks++;

    const char *opname = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "op"));
    const cJSON *jargs = cJSON_GetObjectItemCaseSensitive(c, "args");
    const cJSON *out = cJSON_GetObjectItemCaseSensitive(c, "out");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(c, "error");
    const char *tol = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "tol"));
    bool exact = !tol || (strcmp(tol, "close") != 0 && strcmp(tol, "loose") != 0);
    loose_case = tol && strcmp(tol, "loose") == 0;
    bool first_line = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "error_first_line"));

    owned o;
    memset(&o, 0, sizeof o);
    ct_value args[MAX_ARGS], rets[MAX_ARGS];
    const ct_op *op = opname ? ct_op_find(opname) : NULL;
    int nargs = op ? ct_op_num_args(op) : 0, nrets = op ? ct_op_num_returns(op) : 0;
    int ngiven = cJSON_GetArraySize(jargs);
    if (!op) {
        mismatch("no operator %s: %s", opname ? opname : "(null)", ct_error_message());
        goto done;
    }
    if (nargs > MAX_ARGS || nrets > MAX_ARGS || ngiven > nargs || (!out == !err)) {
        mismatch("malformed case for %s", ct_op_schema(op));
        goto done;
    }
    for (int i = 0; i < MAX_ARGS; i++) args[i] = rets[i] = ct_none();
    for (int i = 0; i < ngiven; i++)
        if (build_arg(cJSON_GetArrayItem(jargs, i), &args[i], &o) != 0) goto done;
    if (ct_op_fill_defaults(op, args, ngiven) != 0) {
        mismatch("ct_op_fill_defaults: %s", ct_error_message());
        goto done;
    }
    ct_error_clear();
    int rc = ct_call(op, args, rets);
    if (err) {
        if (rc == 0) {
            mismatch("succeeded; PyTorch raised %s: %s",
                     cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "type")),
                     cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message")));
            ct_values_release(rets, nrets);
        } else {
            if (rc != -1) mismatch("ct_call returned %d", rc);
            for (int i = 0; i < nrets; i++)
                if (rets[i].tag != CT_TAG_NONE) mismatch("return slot %d is set after a failure", i);
            compare_error(err, first_line);
        }
    } else if (rc != 0) {
        mismatch("failed with %s: %s", ct_error_kind_name(ct_error_code()), ct_error_message());
    } else {
        if (cJSON_GetArraySize(out) != nrets) mismatch("%d results recorded for %d returns", cJSON_GetArraySize(out), nrets);
        for (int i = 0; i < nrets && i < cJSON_GetArraySize(out); i++) {
            const cJSON *r = cJSON_GetArrayItem(out, i);
            const cJSON *list = cJSON_GetObjectItemCaseSensitive(r, "tensors");
            const cJSON *scalar = cJSON_GetObjectItemCaseSensitive(r, "scalar");
            if (list) { /* a Tensor[] result, element by element */
                if (rets[i].tag != CT_TAG_TENSORLIST) {
                    mismatch("result %d is not a tensor list", i);
                    continue;
                }
                if (rets[i].u.tlist.len != cJSON_GetArraySize(list))
                    mismatch("result %d has %lld tensors, PyTorch %d", i, (long long)rets[i].u.tlist.len, cJSON_GetArraySize(list));
                for (int k = 0; k < cJSON_GetArraySize(list) && k < rets[i].u.tlist.len; k++)
                    compare_tensor(rets[i].u.tlist.items[k], cJSON_GetArrayItem(list, k), args, nargs, exact);
            } else if (scalar) { /* a Scalar result */
                double want_v, got_v = ct_scalar_to_double(rets[i]);
                if (json_double(scalar, &want_v) != 0 || !same_float(got_v, want_v, true, CT_FLOAT64))
                    mismatch("result %d: scalar %.17g, PyTorch %s", i, got_v, cJSON_PrintUnformatted(scalar));
                if ((rets[i].tag == CT_TAG_DOUBLE) != (cJSON_IsNumber(scalar) && want_v != floor(want_v)) && rets[i].tag == CT_TAG_INT &&
                    want_v != floor(want_v))
                    mismatch("result %d: an int scalar where PyTorch gave a float", i);
            } else if (!cJSON_GetObjectItemCaseSensitive(r, "tensor")) {
                mismatch("result %d: only tensor and scalar results are compared", i);
            } else if (rets[i].tag != CT_TAG_TENSOR) {
                mismatch("result %d is not a tensor", i);
            } else {
                compare_tensor(rets[i].u.t, r, args, nargs, exact);
            }
        }
        ct_values_release(rets, nrets);
    }
done:
    ct_error_clear();
    owned_release(&o);
    if (cur_skipped) {
        cases_skipped++;
        if (cur_mismatches == 0) {
            skipped_now_passing++;
            printf("SKIP %s (%s) - it passes now: drop its skip_reason\n", cur_name, skip);
        } else {
            printf("SKIP %s: %s\n", cur_name, skip);
        }
    } else if (cur_mismatches == 0) {
        cases_passed++;
    } else {
        cases_failed++;
    }
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    const char *path = ct_test_source("tests/golden/torch-2.6/op_cases.json");
    cJSON *root = ct_json_parse_file(path);
    CHECK_MSG(root != NULL, "cannot read %s: %s", path, ct_error_message());
    CHECK_MSG(cJSON_IsArray(root) && cJSON_GetArraySize(root) > 0, "op_cases.json holds no cases");
    const cJSON *c;
    cJSON_ArrayForEach(c, root) run_case(c);
    cJSON_Delete(root);
    printf("test_op_cases: %d cases: %d passed, %d failed, %d skipped (%d of them passing)\n", cases_run, cases_passed,
           cases_failed, cases_skipped, skipped_now_passing);
    return ct_test_finish("test_op_cases");
}
