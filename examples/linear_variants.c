/* Lab 00's linear(x, W, b) under the choices traces are compared across (linear_variants.h). */
#include "linear_variants.h"

#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/trace.h"

ct_example_linear ct_example_linear_defaults(void) {
    ct_example_linear o = {CT_EXAMPLE_LINEAR, CT_FLOAT32, CT_EXAMPLE_GRAD, 42, false, false};
    return o;
}

const char *ct_example_call_name(ct_example_call c) {
    return c == CT_EXAMPLE_ADDMM ? "addmm" : c == CT_EXAMPLE_MATMUL_ADD ? "matmul_add" : "linear";
}

const char *ct_example_grad_mode_name(ct_example_grad_mode g) {
    return g == CT_EXAMPLE_NO_GRAD ? "no_grad" : g == CT_EXAMPLE_INFERENCE_MODE ? "inference_mode" : "grad";
}

int ct_example_call_parse(const char *s, ct_example_call *out) {
    for (int c = CT_EXAMPLE_LINEAR; c <= CT_EXAMPLE_MATMUL_ADD; c++)
        if (strcmp(s, ct_example_call_name((ct_example_call)c)) == 0) {
            *out = (ct_example_call)c;
            return 0;
        }
    return -1;
}

int ct_example_grad_mode_parse(const char *s, ct_example_grad_mode *out) {
    for (int g = CT_EXAMPLE_GRAD; g <= CT_EXAMPLE_INFERENCE_MODE; g++)
        if (strcmp(s, ct_example_grad_mode_name((ct_example_grad_mode)g)) == 0) {
            *out = (ct_example_grad_mode)g;
            return 0;
        }
    return -1;
}

int ct_example_dtype_parse(const char *s, ct_dtype *out) {
    static const struct {
        const char *name;
        ct_dtype d;
    } t[] = {{"float32", CT_FLOAT32}, {"float16", CT_FLOAT16}, {"bfloat16", CT_BFLOAT16}, {"float64", CT_FLOAT64}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) {
            *out = t[i].d;
            return 0;
        }
    return -1;
}

static int pass_through(void *ud, const ct_op *op, ct_value *args, ct_value *rets) {
    (void)ud;
    return ct_call(op, args, rets);
}

static ct_tensor *call(const ct_example_linear *o, ct_tensor *x, ct_tensor *w, ct_tensor *b) {
    if (o->call == CT_EXAMPLE_LINEAR) return ct_linear(x, w, b);
    ct_tensor *wt = ct_numpy_T(w); /* W.T */
    ct_tensor *y = NULL;
    if (wt && o->call == CT_EXAMPLE_ADDMM) {
        y = ct_addmm(b, x, wt, ct_int(1), ct_int(1));
    } else if (wt) {
        ct_tensor *m = ct_matmul(x, wt);
        y = m ? ct_add(m, b, ct_int(1)) : NULL;
        ct_tensor_release(m);
    }
    ct_tensor_release(wt);
    return y;
}

/* randn(sizes) in float32, then .to(dtype) when another dtype is asked for, requiring grad */
static ct_tensor *leaf(const int64_t *sizes, int ndim, ct_dtype dtype) {
    ct_tensor *t = ct_randn(sizes, ndim, CT_DTYPE_UNDEFINED);
    if (t && dtype != CT_FLOAT32) {
        ct_tensor *c = ct_to_dtype(t, dtype, false, false, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(t);
        t = c;
    }
    if (t && ct_tensor_set_requires_grad(t, true) != 0) {
        ct_tensor_release(t);
        t = NULL;
    }
    return t;
}

int ct_example_linear_run(const ct_example_linear *o, const char *trace_path, const char *program, FILE *print_to) {
    int64_t xs[2] = {2, 64}, ws[2] = {600, 64}, bs[1] = {600};
    ct_manual_seed(o->seed);
    ct_tensor *x = leaf(xs, 2, o->dtype), *w = leaf(ws, 2, o->dtype), *b = leaf(bs, 1, o->dtype);
    ct_tensor *y = NULL, *s = NULL;
    int rc = -1;
    bool traced = false, moded = false;
    int mode_handle = -1;
    int level = ct_trace_print_level();
    if (!x || !w || !b) goto done;
    if (trace_path) {
        ct_trace_file_options fo = {program, true, o->seed, 0};
        if (ct_trace_file_open(trace_path, &fo) != 0) goto done;
        traced = true;
    }
    if (print_to) {
        ct_trace_set_stream(print_to);
        ct_trace_set_print(2);
    }
    if (o->dispatch_mode) {
        mode_handle = ct_dispatch_mode_push(pass_through, NULL);
        if (mode_handle < 0) goto done;
        moded = true;
    }
    ct_grad_mode_guard g = {0};
    if (o->grad_mode == CT_EXAMPLE_NO_GRAD) ct_no_grad_enter(&g);
    else if (o->grad_mode == CT_EXAMPLE_INFERENCE_MODE) ct_inference_mode_enter(&g);
    ct_trace_set_phase("forward");
    y = call(o, x, w, b);
    int brc = 0;
    if (y && o->backward && o->grad_mode == CT_EXAMPLE_GRAD) {
        s = ct_sum(y, CT_DTYPE_UNDEFINED);
        ct_trace_set_phase("backward");
        brc = s ? ct_backward(s, NULL, false) : -1;
    }
    ct_trace_set_phase(NULL);
    ct_grad_mode_exit(&g);
    rc = y && brc == 0 ? 0 : -1;
done:
    if (moded) ct_dispatch_mode_pop(mode_handle);
    if (print_to) {
        ct_trace_set_print(level);
        ct_trace_set_stream(NULL);
    }
    if (traced && ct_trace_file_close() != 0) rc = -1;
    ct_tensor *all[] = {x, w, b, y, s};
    for (int i = 0; i < 5; i++) ct_tensor_release(all[i]);
    return rc;
}
