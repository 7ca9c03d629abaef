/* PyTorch's messages, mistake by mistake: every case of tests/golden/torch-2.6/mistakes.json
 * (tests/golden/record/mistakes.py) is made again through ctorch's C API, and the exception
 * kind and message must be PyTorch's; a case PyTorch ran without an error must run in ctorch
 * too.
 *
 * "op" cases call the recorded operator through ct_op_fill_defaults and ct_call with the
 * recorded arguments; "api" cases are the C functions below, named as the record script's
 * Python functions, each making the same calls.
 *
 * The messages are compared exactly, after these normalisations (applied to both sides):
 *   - an address "0x7f..." reads "0x?";
 *   - "registered at FILE:LINE" reads "registered at ?" (the registration site is the caller's);
 *   - in "Could not run ..." only the text before the list of backends is compared: the list
 *     and the table after it describe the build's registrations (PyTorch's kernels are not
 *     ctorch's);
 *   - in "Multiple dispatch failed ..." a mode's description "mode object <...>" reads "mode
 *     object <?>" (a C handler is no Python object), and the last paragraph is not compared:
 *     PyTorch points at TORCH_LOGS, which ctorch does not have, and ctorch says what the C
 *     handler did instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/optim.h"
#include "ctorch/profiler.h"
#include "ctorch/subclass.h"
#include "harness.h"
#include "util/json.h"

/* ---- normalising a message ---------------------------------------------------------------- */

static void normalise(const char *in, char *out, size_t size) {
    size_t o = 0;
    const char *cut = NULL;
    if (strncmp(in, "Could not run '", 15) == 0) cut = strstr(in, " is only available for these backends: [");
    if (strncmp(in, "Multiple dispatch failed for '", 30) == 0) {
        const char *p = strstr(in, "NotImplemented:\n\n");
        cut = p ? strstr(p + 17, "\n\n") : NULL;
    }
    for (const char *p = in; *p && (!cut || p < cut) && o + 16 < size;) {
        if (p[0] == '0' && p[1] == 'x' && ((p[2] >= '0' && p[2] <= '9') || (p[2] >= 'a' && p[2] <= 'f'))) {
            memcpy(out + o, "0x?", 3);
            o += 3;
            p += 2;
            while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) p++;
        } else if (strncmp(p, "registered at ", 14) == 0) {
            memcpy(out + o, "registered at ?", 15);
            o += 15;
            p += 14;
            while (*p && *p != '.' && *p != ' ') p++;
            while (*p == '.' && p[1] >= '0' && p[1] <= '9') p++; /* "file.c:12" ends at the line */
            while (*p && *p != ' ' && !(p[0] == '.' && (p[1] == ' ' || p[1] == '\0'))) p++;
        } else if (strncmp(p, "mode object <", 13) == 0) {
            memcpy(out + o, "mode object <?>", 15);
            o += 15;
            const char *e = strchr(p, '>');
            p = e ? e + 1 : p + strlen(p);
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
}

/* ---- building a recorded argument ---------------------------------------------------------- */

#define MAX_ARGS 16
#define MAX_HELD 64

typedef struct held {
    ct_tensor *t[MAX_HELD];
    int nt;
    ct_tensor **lists[MAX_ARGS];
    int64_t ints[MAX_ARGS][8];
    int nl;
} held;

static ct_tensor *hold(held *h, ct_tensor *t) {
    if (t && h->nt < MAX_HELD) h->t[h->nt++] = t;
    return t;
}

static void held_free(held *h) {
    for (int i = 0; i < h->nt; i++) ct_tensor_release(h->t[i]);
    for (int i = 0; i < h->nl; i++) free(h->lists[i]);
    memset(h, 0, sizeof *h);
}

static ct_dtype dtype_named(const char *name) {
    char want[64];
    snprintf(want, sizeof want, "torch.%s", name);
    for (int d = 0; d < 64; d++)
        if (ct_dtype_valid(d) && strcmp(ct_dtype_python_name((ct_dtype)d), want) == 0) return (ct_dtype)d;
    return CT_DTYPE_UNDEFINED;
}

static ct_tensor *build_tensor(const cJSON *spec, held *h) {
    const cJSON *sz = cJSON_GetObjectItem(spec, "sizes"), *vals = cJSON_GetObjectItem(spec, "values");
    ct_dtype dt = dtype_named(cJSON_GetStringValue(cJSON_GetObjectItem(spec, "dtype")));
    int64_t sizes[8];
    int nd = cJSON_GetArraySize(sz);
    for (int i = 0; i < nd && i < 8; i++) sizes[i] = (int64_t)cJSON_GetArrayItem(sz, i)->valuedouble;
    ct_tensor *t;
    if (vals) {
        int n = cJSON_GetArraySize(vals);
        double *data = calloc((size_t)(n ? n : 1), sizeof(double));
        for (int i = 0; data && i < n; i++) {
            const cJSON *v = cJSON_GetArrayItem(vals, i);
            /* NaN and the infinities are recorded as "nan", "inf", "-inf" */
            data[i] = cJSON_IsString(v) ? strtod(v->valuestring, NULL) : v->valuedouble;
        }
        t = data ? ct_tensor_from_doubles(data, sizes, nd, dt) : NULL;
        free(data);
    } else {
        t = ct_zeros(sizes, nd, dt);
    }
    hold(h, t);
    if (t && cJSON_IsTrue(cJSON_GetObjectItem(spec, "requires_grad")) && ct_tensor_set_requires_grad(t, true) != 0) return NULL;
    return t;
}

static int build_value(const cJSON *spec, ct_value *v, held *h) {
    const cJSON *kv = spec->child;
    const char *kind = kv ? kv->string : "";
    if (strcmp(kind, "tensor") == 0) {
        ct_tensor *t = build_tensor(kv, h);
        if (!t) return -1;
        *v = ct_tensor_value(t);
    } else if (strcmp(kind, "tensors") == 0) {
        int n = cJSON_GetArraySize(kv);
        ct_tensor **items = calloc((size_t)(n ? n : 1), sizeof *items);
        if (!items || h->nl == MAX_ARGS) {
            free(items);
            return -1;
        }
        h->lists[h->nl++] = items;
        for (int i = 0; i < n; i++) {
            const cJSON *it = cJSON_GetArrayItem(kv, i);
            items[i] = cJSON_GetObjectItem(it, "none") ? NULL : build_tensor(cJSON_GetObjectItem(it, "tensor"), h);
        }
        *v = ct_tensor_list_value(items, n);
    } else if (strcmp(kind, "int") == 0) {
        *v = ct_int((int64_t)kv->valuedouble);
    } else if (strcmp(kind, "float") == 0) {
        *v = ct_double(cJSON_IsString(kv) ? strtod(kv->valuestring, NULL) : kv->valuedouble);
    } else if (strcmp(kind, "bool") == 0) {
        *v = ct_bool(cJSON_IsTrue(kv));
    } else if (strcmp(kind, "ints") == 0) {
        if (h->nl == MAX_ARGS) return -1;
        int n = cJSON_GetArraySize(kv);
        int64_t *l = h->ints[h->nl];
        for (int i = 0; i < n && i < 8; i++) l[i] = (int64_t)cJSON_GetArrayItem(kv, i)->valuedouble;
        h->lists[h->nl++] = NULL;
        *v = ct_intlist(l, n);
    } else if (strcmp(kind, "none") == 0) {
        *v = ct_none();
    } else if (strcmp(kind, "str") == 0) {
        *v = ct_string(kv->valuestring);
    } else {
        return -1;
    }
    return 0;
}

/* the recorded call; 0 or -1 with ctorch's error set */
static int run_op(const char *name, const cJSON *c) {
    const ct_op *op = ct_op_find(cJSON_GetStringValue(cJSON_GetObjectItem(c, "op")));
    if (!op) return -1;
    const cJSON *args = cJSON_GetObjectItem(c, "args");
    int n = cJSON_GetArraySize(args);
    ct_value a[MAX_ARGS], r[4];
    for (int i = 0; i < 4; i++) r[i] = ct_none();
    held h;
    memset(&h, 0, sizeof h);
    for (int i = 0; i < n && i < MAX_ARGS; i++)
        if (build_value(cJSON_GetArrayItem(args, i), &a[i], &h) != 0) {
            CHECK_MSG(0, "%s: argument %d could not be built: %s", name, i, ct_error_message());
            held_free(&h);
            return -2;
        }
    ct_error_clear();
    int rc = ct_op_fill_defaults(op, a, n);
    if (rc == 0) rc = ct_call(op, a, r);
    if (rc == 0) ct_values_release(r, ct_op_num_returns(op));
    held_free(&h);
    return rc;
}

/* ---- the "api" cases: the record script's functions, in C ---------------------------------- */

static ct_tensor *zeros1(int64_t n) { return ct_zeros(&n, 1, CT_FLOAT32); }

static int tensor_size(int64_t dim) {
    ct_tensor *t = ct_tensor_scalar(1.0, CT_FLOAT32);
    int64_t n = t ? ct_tensor_size(t, dim) : -1;
    ct_tensor_release(t);
    return n >= 0 ? 0 : -1;
}
static int size_of_0d(void) { return tensor_size(0); }
static int size_of_0d_out_of_range(void) { return tensor_size(1); }

static int sgd_none_param(void) {
    ct_tensor *params[1] = {NULL};
    ct_optimizer *o = ct_sgd_new(params, 1, ct_sgd_defaults(0.1));
    ct_optimizer_free(o);
    return o ? 0 : -1;
}

static int kaiming_uniform_1d(void) {
    ct_tensor *t = zeros1(3);
    int rc = ct_nn_init_kaiming_uniform_(t, 0.0);
    ct_tensor_release(t);
    return rc;
}

/* m.register_parameter(name, Parameter(zeros(1))) on a new Module (or register_buffer,
 * add_module) */
static int module_register(int what, const char *name, bool existing_buffer, bool non_leaf) {
    ct_module *m = ct_nn_custom("Module", NULL, NULL, NULL);
    ct_tensor *t = zeros1(1), *nl = NULL;
    int rc = -1;
    if (!m || !t) goto done;
    if (existing_buffer && ct_module_register_buffer(m, "w", t) != 0) goto done;
    if (non_leaf) {
        if (ct_tensor_set_requires_grad(t, true) != 0 || !(nl = ct_mul_scalar(t, ct_int(2)))) goto done;
    }
    if (what == 0) {
        ct_tensor *p = non_leaf ? nl : zeros1(1);
        rc = ct_module_register_parameter(m, name, p);
        if (!non_leaf) ct_tensor_release(p);
    } else if (what == 1) {
        rc = ct_module_register_buffer(m, name, t);
    } else {
        ct_module *child = ct_nn_custom("Module", NULL, NULL, NULL);
        rc = child ? ct_module_register_module(m, name, child) : -1; /* takes child, also on failure */
    }
done:
    ct_tensor_release(nl);
    ct_tensor_release(t);
    ct_module_free(m);
    return rc;
}

static int register_parameter_dot(void) { return module_register(0, "a.b", false, false); }
static int register_parameter_empty(void) { return module_register(0, "", false, false); }
static int register_parameter_exists(void) { return module_register(0, "w", true, false); }
static int register_buffer_dot(void) { return module_register(1, "a.b", false, false); }
static int add_module_dot(void) { return module_register(2, "a.b", false, false); }
static int add_module_empty(void) { return module_register(2, "", false, false); }

static int cross_entropy_none(bool input) {
    int64_t s2[2] = {2, 3};
    ct_tensor *x = ct_zeros(s2, 2, CT_FLOAT32), *tgt = ct_zeros(s2, 1, CT_INT64);
    ct_tensor *y = ct_cross_entropy(input ? NULL : x, input ? tgt : NULL, NULL, -100, CT_REDUCTION_MEAN, 0.0);
    int rc = y ? 0 : -1;
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_tensor_release(tgt);
    return rc;
}
static int cross_entropy_none_input(void) { return cross_entropy_none(true); }
static int cross_entropy_none_target(void) { return cross_entropy_none(false); }

/* nn.Embedding(4, 3)(None) / nn.LayerNorm(3)(None): the modules' forward calls F.embedding /
 * F.layer_norm, as the recorded F calls */
static int module_forward_none(ct_module *m) {
    ct_tensor *y = m ? ct_module_forward(m, NULL) : NULL;
    int rc = y ? 0 : -1;
    ct_tensor_release(y);
    ct_module_free(m);
    return rc;
}
static int embedding_none_indices(void) { return module_forward_none(ct_nn_embedding(4, 3)); }
static int layer_norm_none_input(void) {
    int64_t three = 3;
    return module_forward_none(ct_nn_layer_norm(&three, 1, 1e-5, true, true));
}

static int profiler_enabled_twice(void) {
    ct_profiler *a = ct_profiler_start(false);
    if (!a) return -1;
    ct_profiler *b = ct_profiler_start(false);
    int rc = b ? 0 : -1;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", ct_error_message());
    ct_error_kind kind = ct_error_code();
    ct_profiler_stop(a);
    ct_profiler_free(a);
    if (b) {
        ct_profiler_stop(b);
        ct_profiler_free(b);
    }
    if (rc != 0) ct_error_set(kind, "%s", msg);
    return rc;
}

static int export_stacks_bad_metric(void) {
    ct_profiler *p = ct_profiler_start(false);
    if (!p) return -1;
    ct_tensor *t = zeros1(2), *y = ct_add_scalar(t, ct_int(1), ct_int(1));
    int rc = ct_profiler_stop(p);
    ct_tensor_release(y);
    ct_tensor_release(t);
    if (rc == 0) rc = ct_profiler_export_stacks(p, "/tmp/ctorch-mistakes-stacks.txt", "bad_metric");
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", ct_error_message());
    ct_error_kind kind = ct_error_code();
    ct_profiler_free(p);
    if (rc != 0) ct_error_set(kind, "%s", msg);
    return rc;
}

static int define_twice(void) {
    if (!ct_op_define("mistakes_twice::foo(Tensor x) -> Tensor", CT_HERE)) return -1;
    return ct_op_define("mistakes_twice::foo(Tensor x) -> Tensor", CT_HERE) ? 0 : -1;
}

static int find_schema_missing(void) { return ct_op_find("aten::no_such_op") ? 0 : -1; }

static int pop_empty_dispatch_mode_stack(void) { return ct_dispatch_mode_pop(1); }
static int pop_empty_function_mode_stack(void) { return ct_function_mode_pop(1); }

static int in_place_add(ct_tensor *t) { return ct_add_(t, t, ct_int(1)); }

static int leaf_in_place(void) {
    ct_tensor *t = zeros1(2);
    int rc = ct_tensor_set_requires_grad(t, true) == 0 ? in_place_add(t) : -1;
    ct_tensor_release(t);
    return rc;
}

static int view_of_leaf_in_place(void) {
    ct_tensor *t = zeros1(2), *v = NULL;
    int rc = -1;
    int64_t start = 0, end = 1;
    if (ct_tensor_set_requires_grad(t, true) == 0 && (v = ct_slice(t, 0, &start, &end, 1))) {
        ct_tensor *one = zeros1(1);
        rc = ct_add_(v, one, ct_int(1));
        ct_tensor_release(one);
    }
    ct_tensor_release(v);
    ct_tensor_release(t);
    return rc;
}

static int backward_no_tensors(void) { return ct_autograd_backward(NULL, NULL, 0, false); }

static int backward_no_grad_fn(void) {
    ct_tensor *t = zeros1(1);
    int rc = ct_autograd_backward(&t, NULL, 1, false);
    ct_tensor_release(t);
    return rc;
}

static int backward_grad_shape(void) {
    ct_tensor *x = zeros1(2), *y = NULL, *g = zeros1(3);
    int rc = -1;
    if (ct_tensor_set_requires_grad(x, true) == 0 && (y = ct_mul_scalar(x, ct_int(2)))) rc = ct_backward(y, g, false);
    ct_tensor_release(y);
    ct_tensor_release(g);
    ct_tensor_release(x);
    return rc;
}

/* an output that does not require grad, given a gradient of the wrong shape */
static int backward_grad_shape_no_grad(void) {
    ct_tensor *y = zeros1(2), *g = zeros1(3);
    int rc = ct_backward(y, g, false);
    ct_tensor_release(g);
    ct_tensor_release(y);
    return rc;
}

static ct_tensor *inference_zeros(void) {
    ct_grad_mode_guard g;
    ct_inference_mode_enter(&g);
    ct_tensor *t = zeros1(2);
    ct_grad_mode_exit(&g);
    return t;
}

static int inference_tensor_in_place(void) {
    ct_tensor *t = inference_zeros();
    int rc = t ? ct_add_(t, t, ct_int(1)) : -1;
    ct_tensor_release(t);
    return rc;
}

static int inference_tensor_requires_grad(void) {
    ct_tensor *t = inference_zeros();
    int rc = t ? ct_tensor_set_requires_grad(t, true) : -1;
    ct_tensor_release(t);
    return rc;
}

static int inference_tensor_saved(void) {
    ct_tensor *t = inference_zeros(), *w = zeros1(2), *y = NULL;
    if (t && w && ct_tensor_set_requires_grad(w, true) == 0) y = ct_mul(w, t);
    int rc = y ? 0 : -1;
    ct_tensor_release(y);
    ct_tensor_release(w);
    ct_tensor_release(t);
    return rc;
}

static int set_grad(ct_tensor *g) {
    ct_tensor *t = zeros1(2);
    int rc = t && g && ct_tensor_set_requires_grad(t, true) == 0 ? ct_tensor_set_grad(t, g) : -1;
    ct_tensor_release(t);
    ct_tensor_release(g);
    return rc;
}
static int set_grad_size(void) { return set_grad(zeros1(3)); }
static int set_grad_dtype(void) {
    int64_t two = 2;
    return set_grad(ct_zeros(&two, 1, CT_FLOAT64));
}

static int set_data_int_dtype(void) {
    ct_tensor *t = zeros1(2);
    int64_t two = 2;
    ct_tensor *d = ct_zeros(&two, 1, CT_INT64);
    int rc = t && d && ct_tensor_set_requires_grad(t, true) == 0 ? ct_tensor_set_data(t, d) : -1;
    ct_tensor_release(d);
    ct_tensor_release(t);
    return rc;
}

static int detach_view_in_place(void) {
    ct_tensor *a = ct_arange(ct_double(4.0), CT_DTYPE_UNDEFINED);
    int64_t shape[2] = {2, 2};
    ct_tensor *v = a ? ct_view(a, shape, 2) : NULL;
    ct_tensor *row = v ? ct_select(v, 0, 0) : NULL;
    int rc = row ? ct_detach_(row) : -1;
    ct_tensor_release(row);
    ct_tensor_release(v);
    ct_tensor_release(a);
    return rc;
}

static int saved_tensor_modified(void) {
    int64_t two = 2;
    ct_tensor *x = ct_ones(&two, 1, CT_FLOAT32), *y = NULL, *z = NULL, *s = NULL;
    int rc = -1;
    if (ct_tensor_set_requires_grad(x, true) == 0 && (y = ct_mul_scalar(x, ct_int(1))) && (z = ct_mul(y, y)) &&
        ct_add_(y, x, ct_int(1)) == 0 && (s = ct_sum(z, CT_DTYPE_UNDEFINED)))
        rc = ct_backward(s, NULL, false);
    ct_tensor_release(s);
    ct_tensor_release(z);
    ct_tensor_release(y);
    ct_tensor_release(x);
    return rc;
}

/* a handler returning NotImplemented: -1 without an error */
static int not_implemented_dispatch(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    (void)op;
    (void)args;
    (void)rets;
    return -1;
}
static int not_implemented_function(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    (void)ud;
    (void)f;
    (void)args;
    (void)rets;
    return -1;
}

static int dispatch_mode_not_implemented(void) {
    ct_tensor *a = zeros1(2), *b = zeros1(2);
    int h = ct_dispatch_mode_push(not_implemented_dispatch, NULL);
    ct_tensor *y = h > 0 ? ct_add(a, b, ct_int(1)) : NULL;
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", ct_error_message());
    ct_error_kind kind = ct_error_code();
    if (h > 0) ct_dispatch_mode_pop(h);
    ct_tensor_release(y);
    ct_tensor_release(a);
    ct_tensor_release(b);
    if (!y) ct_error_set(kind, "%s", msg);
    return y ? 0 : -1;
}

static int function_mode_not_implemented(void) {
    int64_t s[2] = {2, 2};
    ct_tensor *a = ct_ones(s, 2, CT_FLOAT32), *b = ct_ones(s, 2, CT_FLOAT32);
    int h = ct_function_mode_push(not_implemented_function, NULL);
    ct_tensor *y = h > 0 ? ct_linear(a, b, NULL) : NULL;
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", ct_error_message());
    ct_error_kind kind = ct_error_code();
    if (h > 0) ct_function_mode_pop(h);
    ct_tensor_release(y);
    ct_tensor_release(a);
    ct_tensor_release(b);
    if (!y) ct_error_set(kind, "%s", msg);
    return y ? 0 : -1;
}

static int not_implemented_subclass_fn(void *cls, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)cls;
    (void)op;
    (void)args;
    (void)rets;
    return -1;
}

static int subclass_not_implemented(void) {
    ct_subclass *cls = ct_subclass_new("__main__._NotImplementedSubclass", not_implemented_subclass_fn, NULL, NULL);
    int64_t two = 2;
    ct_tensor *w = cls ? ct_subclass_make_wrapper(cls, &two, NULL, 1, 0, CT_FLOAT32, false, NULL) : NULL;
    ct_tensor *o = ct_ones(&two, 1, CT_FLOAT32);
    ct_tensor *y = w && o ? ct_add(w, o, ct_int(1)) : NULL;
    int rc = y ? 0 : -1;
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", ct_error_message());
    ct_error_kind kind = ct_error_code();
    ct_tensor_release(y);
    ct_tensor_release(w);
    ct_tensor_release(o);
    ct_subclass_free(cls);
    if (rc != 0) ct_error_set(kind, "%s", msg);
    return rc;
}

static int no_kernel_for_backend(void) {
    const ct_op *op = ct_op_define("mistakes_nokernel::foo(Tensor x) -> Tensor", CT_HERE);
    if (!op) return -1;
    ct_tensor *t = zeros1(2);
    ct_value a[1] = {ct_tensor_value(t)}, r[1] = {ct_none()};
    int rc = ct_call(op, a, r);
    if (rc == 0) ct_values_release(r, 1);
    ct_tensor_release(t);
    return rc;
}

static int cat_none_element(void) {
    ct_tensor *items[2] = {zeros1(2), NULL};
    ct_tensor *y = ct_cat(items, 2, 0);
    int rc = y ? 0 : -1;
    ct_tensor_release(y);
    ct_tensor_release(items[0]);
    return rc;
}

/* aten::mm's CPU kernel replaced by one that returns a 3-vector while backward runs (the
 * replacement stays: this case runs last) */
static bool mm_wrong;
static int wrong_mm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (mm_wrong) {
        rets[0] = ct_tensor_value(zeros1(3));
        return rets[0].u.t ? 0 : -1;
    }
    ct_tensor *a = ct_unsqueeze(args[0].u.t, 0), *b = ct_unsqueeze(args[1].u.t, 0);
    ct_tensor *p = a && b ? ct_bmm(a, b) : NULL;
    ct_tensor *y = p ? ct_squeeze_dim(p, 0) : NULL;
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(p);
    rets[0] = ct_tensor_value(y);
    return y ? 0 : -1;
}

static int invalid_gradient_shape(void) {
    if (ct_register_kernel(ct_op_find("aten::mm"), CT_KEY_CPU, wrong_mm, CT_HERE) != 0) return -1;
    int64_t s1[2] = {2, 3}, s2[2] = {3, 4};
    ct_tensor *x = ct_ones(s1, 2, CT_FLOAT32), *w = ct_ones(s2, 2, CT_FLOAT32), *y = NULL, *s = NULL;
    int rc = -1;
    if (ct_tensor_set_requires_grad(x, true) == 0 && ct_tensor_set_requires_grad(w, true) == 0 && (y = ct_mm(x, w)) &&
        (s = ct_sum(y, CT_DTYPE_UNDEFINED))) {
        mm_wrong = true;
        rc = ct_backward(s, NULL, false);
        mm_wrong = false;
    }
    ct_tensor_release(s);
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_tensor_release(w);
    return rc;
}

typedef struct api_case {
    const char *name;
    int (*fn)(void);
    bool last; /* changes the library for the rest of the process: run after the others */
} api_case;

#define API(f) {#f, f, false}
static const api_case api_cases[] = {
    API(size_of_0d), API(size_of_0d_out_of_range), API(sgd_none_param), API(kaiming_uniform_1d), API(register_parameter_dot), API(register_parameter_empty),
    API(register_parameter_exists), API(register_buffer_dot), API(add_module_dot), API(add_module_empty),
    API(cross_entropy_none_input), API(cross_entropy_none_target), API(embedding_none_indices),
    API(layer_norm_none_input), API(profiler_enabled_twice), API(export_stacks_bad_metric), API(define_twice),
    API(find_schema_missing), API(pop_empty_dispatch_mode_stack), API(pop_empty_function_mode_stack),
    API(leaf_in_place), API(view_of_leaf_in_place), API(backward_no_tensors), API(backward_no_grad_fn), API(backward_grad_shape_no_grad),
    API(backward_grad_shape), API(inference_tensor_in_place), API(inference_tensor_requires_grad),
    API(inference_tensor_saved), API(set_grad_size), API(set_grad_dtype), API(set_data_int_dtype), API(detach_view_in_place), API(saved_tensor_modified),
    API(dispatch_mode_not_implemented), API(function_mode_not_implemented), API(subclass_not_implemented),
    API(no_kernel_for_backend), API(cat_none_element), {"invalid_gradient_shape", invalid_gradient_shape, true},
};

static const api_case *api_named(const char *name) {
    for (size_t i = 0; i < sizeof api_cases / sizeof api_cases[0]; i++)
        if (strcmp(api_cases[i].name, name) == 0) return &api_cases[i];
    return NULL;
}

/* ---- the comparison ------------------------------------------------------------------------ */

static int n_same, n_accepted, n_known;

/* Messages that still differ from PyTorch's, in code this test does not own (the modes): each
 * must still differ (remove its line when it is fixed), and the test says which they are. */
static const char *const known_differences[] = {
    NULL, /* none today; each entry names a case and says what differs */
};

static bool known_difference(const char *name) {
    for (size_t i = 0; i < sizeof known_differences / sizeof known_differences[0] && known_differences[i]; i++)
        if (strcmp(known_differences[i], name) == 0) return true;
    return false;
}

/* name is one of the comma-separated names of list */
static bool listed(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) return true;
    return false;
}

static void compare(const char *name, int rc, const cJSON *err) {
    if (rc == -2) return; /* already reported */
    if (!cJSON_IsObject(err)) {
        CHECK_MSG(rc == 0, "%s: PyTorch ran this, ctorch failed: %s: %s", name, ct_error_kind_name(ct_error_code()),
                  ct_error_message());
        n_accepted += rc == 0;
        ct_error_clear();
        return;
    }
    const char *want_type = cJSON_GetStringValue(cJSON_GetObjectItem(err, "type"));
    char want[4096], got[4096];
    normalise(cJSON_GetStringValue(cJSON_GetObjectItem(err, "message")), want, sizeof want);
    normalise(ct_error_message(), got, sizeof got);
    const char *got_type = rc != 0 ? ct_error_kind_exception(ct_error_code()) : NULL; /* its Python exception */
    if (!got_type) got_type = "no error";
    bool same = rc != 0 && strcmp(got, want) == 0 && strcmp(got_type, want_type) == 0;
    CHECK_MSG(rc != 0, "%s: ctorch ran what PyTorch refused with %s: %s", name, want_type, want);
    if (rc != 0 && known_difference(name)) {
        CHECK_MSG(!same, "%s now matches PyTorch: remove it from known_differences", name);
        printf("known difference, %s:\n   ctorch:  %s [%s]\n  PyTorch: %s [%s]\n", name, got_type, got, want_type, want);
        n_known++;
    } else if (rc != 0) {
        CHECK_MSG(same, "%s:\n   got: %s [%s]\n  want: %s [%s]", name, got_type, got, want_type, want);
    }
    n_same += same;
    ct_error_clear();
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    char path[1024];
    snprintf(path, sizeof path, "%s", ct_test_source("tests/golden/torch-2.6/mistakes.json"));
    cJSON *rec = ct_json_parse_file(path);
    CHECK_MSG(rec != NULL, "read %s: %s", path, ct_error_message());
    if (!rec) return ct_test_finish("test_mistakes");
    int cases = 0;
    const char *only = getenv("CT_MISTAKE");
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, rec) {
            const char *name = c->string;
            const api_case *a = cJSON_GetObjectItem(c, "op") ? NULL : api_named(name);
            bool last = a && a->last;
            if ((pass == 1) != last) continue;
            if (only && !listed(only, name)) continue; /* CT_MISTAKE=name[,name...] runs those cases */
            cases++;
            ct_error_clear();
            int rc;
            if (cJSON_GetObjectItem(c, "op")) {
                rc = run_op(name, c);
            } else if (a) {
                rc = a->fn();
            } else {
                CHECK_MSG(0, "%s: no C version of the recorded case", name);
                continue;
            }
            compare(name, rc, cJSON_GetObjectItem(c, "error"));
        }
    }
    /* every C case has a recording */
    for (size_t i = 0; i < sizeof api_cases / sizeof api_cases[0]; i++)
        CHECK_MSG(cJSON_GetObjectItem(rec, api_cases[i].name) != NULL, "%s is not recorded", api_cases[i].name);
    CHECK_MSG(only || cases == cJSON_GetArraySize(rec), "%d of the %d recorded cases ran", cases, cJSON_GetArraySize(rec));
    printf("test_mistakes: %d cases, %d with PyTorch's exception and message, %d run as PyTorch ran them, %d known "
           "differences\n",
           cases, n_same, n_accepted, n_known);
    cJSON_Delete(rec);
    return ct_test_finish("test_mistakes");
}
