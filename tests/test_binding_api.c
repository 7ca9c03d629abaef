/* The public API a language binding (the Python module) builds on: the tensor's binding slot
 * and its release hook, node references, schema introspection, calls seen by function modes,
 * profiler events one by one, and aten::slice.Tensor; each with its bad input. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/autograd.h"
#include "ctorch/ctorch.h"
#include "ctorch/mode.h"
#include "ctorch/testing.h"
#include "harness.h"

static int released;
static void *last_released;
static void on_release(void *obj) {
    released++;
    last_released = obj;
}

static void binding_slot(void) {
    int64_t s[1] = {3};
    ct_tensor *t = ct_zeros(s, 1, CT_DTYPE_UNDEFINED);
    bool owned = true;
    CHECK(ct_tensor_binding(t, &owned) == NULL);
    CHECK(!owned);
    /* an owned object needs a release hook first */
    int obj;
    CHECK_INT_EQ(ct_tensor_set_binding(t, &obj, true), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_set_binding: an owned binding needs an object and a release hook");
    ct_set_tensor_binding_release_hook(on_release);
    CHECK_INT_EQ(ct_tensor_set_binding(t, NULL, true), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_set_binding: an owned binding needs an object and a release hook");
    /* borrowed: stored, not released */
    CHECK_INT_EQ(ct_tensor_set_binding(t, &obj, false), 0);
    CHECK(ct_tensor_binding(t, &owned) == &obj);
    CHECK(!owned);
    /* views and detached tensors start without one */
    ct_tensor *v = ct_t(t);
    CHECK(ct_tensor_binding(v, NULL) == NULL);
    ct_tensor *d = ct_detach(t);
    CHECK(ct_tensor_binding(d, NULL) == NULL);
    ct_tensor_release(d);
    /* owned: the hook runs once, when the last reference goes */
    CHECK_INT_EQ(ct_tensor_set_binding(t, &obj, true), 0);
    ct_tensor_release(t);
    CHECK_INT_EQ(released, 0); /* the view v keeps its base t alive */
    ct_tensor_release(v);
    CHECK_INT_EQ(released, 1);
    CHECK(last_released == &obj);
    /* a borrowed object is never handed to the hook */
    ct_tensor *u = ct_zeros(s, 1, CT_DTYPE_UNDEFINED);
    CHECK_INT_EQ(ct_tensor_set_binding(u, &obj, false), 0);
    ct_tensor_release(u);
    CHECK_INT_EQ(released, 1);
    /* NULL tensor */
    CHECK(ct_tensor_binding(NULL, &owned) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_binding: tensor is NULL");
    CHECK_INT_EQ(ct_tensor_set_binding(NULL, &obj, false), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_set_binding: tensor is NULL");
}

static void wrapped_numbers(void) {
    ct_tensor *w = ct_wrapped_number(ct_double(2.5));
    CHECK(ct_tensor_is_wrapped_number(w));
    ct_tensor *d = ct_detach(w);
    CHECK(!ct_tensor_is_wrapped_number(d));
    ct_tensor *s = ct_tensor_scalar(2.5, CT_FLOAT64);
    CHECK(!ct_tensor_is_wrapped_number(s));
    CHECK(!ct_tensor_is_wrapped_number(NULL));
    ct_tensor_release(d);
    ct_tensor_release(s);
    ct_tensor_release(w);
}

static void node_references(void) {
    int64_t s[2] = {2, 2};
    ct_tensor *x = ct_ones(s, 2, CT_DTYPE_UNDEFINED);
    ct_tensor_set_requires_grad(x, true);
    ct_tensor *y = ct_t(x);
    int64_t nodes = ct_testing_live_nodes();
    ct_node *n = ct_node_retain(ct_tensor_grad_fn(y));
    CHECK_STR_EQ(ct_node_name(n), "TBackward0");
    ct_tensor_release(y);
    /* the node outlives its tensor while referenced */
    CHECK_INT_EQ(ct_testing_live_nodes(), nodes);
    CHECK_STR_EQ(ct_node_name(n), "TBackward0");
    ct_node_release(n);
    CHECK(ct_testing_live_nodes() < nodes);
    CHECK(ct_node_retain(NULL) == NULL);
    ct_node_release(NULL);
    ct_tensor_release(x);
}

static void schema_info(void) {
    const ct_op *op = ct_op_find("aten::add_.Tensor");
    ct_arg_info a;
    CHECK_INT_EQ(ct_op_arg_info(op, 0, &a), 0);
    CHECK_STR_EQ(a.name, "self");
    CHECK_STR_EQ(a.type, "Tensor(a!)");
    CHECK(a.kind == CT_ARG_TENSOR && a.writes && !a.optional && !a.kwarg_only && !a.has_default);
    CHECK_INT_EQ(ct_op_arg_info(op, 2, &a), 0);
    CHECK_STR_EQ(a.name, "alpha");
    CHECK(a.kind == CT_ARG_SCALAR && a.kwarg_only && a.has_default);
    CHECK(a.default_value.tag == CT_TAG_INT && a.default_value.u.i == 1);
    CHECK_INT_EQ(ct_op_return_info(op, 0, &a), 0);
    CHECK(a.kind == CT_ARG_TENSOR && a.writes);
    CHECK_INT_EQ(ct_op_arg_info(op, 3, &a), -1);
    CHECK_ERROR(CT_ERR_INDEX, "aten::add_.Tensor has 3 arguments, asked for 3");
    CHECK_INT_EQ(ct_op_return_info(op, -1, &a), -1);
    CHECK_ERROR(CT_ERR_INDEX, "aten::add_.Tensor has 1 returns, asked for -1");
    CHECK_INT_EQ(ct_op_arg_info(NULL, 0, &a), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_arg_info: NULL argument");
    CHECK_INT_EQ(ct_op_arg_info(op, 0, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_arg_info: NULL argument");
    op = ct_op_find("aten::empty.memory_format");
    CHECK_INT_EQ(ct_op_arg_info(op, 1, &a), 0);
    CHECK(a.kind == CT_ARG_SCALARTYPE && a.optional && a.kwarg_only && a.has_default && a.default_value.tag == CT_TAG_NONE);
    op = ct_op_find("aten::sum.dim_IntList");
    CHECK_INT_EQ(ct_op_arg_info(op, 1, &a), 0);
    CHECK_STR_EQ(a.type, "int[1]?");
    CHECK(a.kind == CT_ARG_INTLIST && a.optional);
}

static int fn_calls;
static int count_fn(void *ud, const ct_function *f, ct_value *args, ct_value *rets) {
    (void)ud;
    fn_calls++;
    CHECK_STR_EQ(ct_function_name(f), "add");
    return ct_function_call(f, args, rets);
}

static void call_function(void) {
    int64_t s[2] = {2, 3};
    ct_tensor *x = ct_ones(s, 2, CT_DTYPE_UNDEFINED);
    const ct_op *add = ct_op_find("aten::add.Tensor");
    ct_value args[3] = {ct_tensor_value(x), ct_tensor_value(x), ct_int(1)}, rets[1] = {ct_none()};
    const int fh = ct_function_mode_push(count_fn, NULL);
    CHECK(fh > 0);
    CHECK_INT_EQ(ct_op_invoke(add, args, rets), 0);
    CHECK_INT_EQ(fn_calls, 1);
    CHECK(rets[0].tag == CT_TAG_TENSOR && ct_tensor_size(rets[0].u.t, 1) == 3);
    ct_values_release(rets, 1);
    /* ct_call goes straight to the dispatcher */
    CHECK_INT_EQ(ct_call(add, args, rets), 0);
    CHECK_INT_EQ(fn_calls, 1);
    ct_values_release(rets, 1);
    /* the front door for a binding's parsed values, and the typed wrapper's, reach the mode too */
    CHECK_INT_EQ(ct_op_invoke_parsed(add, args, rets), 0);
    CHECK_INT_EQ(fn_calls, 2);
    CHECK(rets[0].tag == CT_TAG_TENSOR && ct_tensor_size(rets[0].u.t, 1) == 3);
    ct_values_release(rets, 1);
    ct_tensor *y = ct_add(x, x, ct_int(1));
    CHECK(y != NULL);
    CHECK_INT_EQ(fn_calls, 3);
    ct_tensor_release(y);
    /* ct_op_invoke checks a program's values before any mode sees them */
    ct_value bad[3] = {ct_string("x"), ct_tensor_value(x), ct_int(1)};
    CHECK_INT_EQ(ct_op_invoke(add, bad, rets), -1);
    CHECK_INT_EQ(fn_calls, 3);
    CHECK(ct_error_code() == CT_ERR_RUNTIME && strstr(ct_error_message(), "Expected a value of type 'Tensor'") != NULL);
    ct_error_clear();
    ct_function_mode_pop(fh);
    CHECK_INT_EQ(ct_op_invoke(NULL, args, rets), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_invoke: op is NULL");
    CHECK_INT_EQ(ct_op_invoke(add, NULL, rets), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_invoke: args or rets is NULL");
    CHECK_INT_EQ(ct_op_invoke_parsed(NULL, args, rets), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_invoke_parsed: op is NULL");
    CHECK_INT_EQ(ct_op_invoke_parsed(add, args, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_invoke_parsed: args or rets is NULL");
    ct_tensor_release(x);
}

static void profiler_events(void) {
    int64_t s[2] = {2, 3};
    ct_tensor *x = ct_ones(s, 2, CT_DTYPE_UNDEFINED);
    ct_profiler *p = ct_profiler_start(true);
    ct_tensor *y = ct_t(x);
    ct_profiler_event_info e;
    /* as prof.events() inside the with block: no events until the recording stops */
    CHECK_INT_EQ(ct_profiler_num_events(p), 0);
    CHECK_INT_EQ(ct_profiler_event(p, 0, &e), -1);
    CHECK_ERROR(CT_ERR_INDEX, "profiler event 0 out of range (0 events)");
    ct_profiler_stop(p);
    size_t n = ct_profiler_num_events(p);
    CHECK_INT_EQ(n, 3); /* aten::t > aten::transpose > aten::as_strided */
    const char *names[3] = {"aten::t", "aten::transpose", "aten::as_strided"};
    const char *shapes[3] = {"[[2, 3]]", "[[2, 3], [], []]", "[[2, 3], [], [], []]"};
    for (size_t i = 0; i < n && i < 3; i++) {
        CHECK_INT_EQ(ct_profiler_event(p, i, &e), 0);
        CHECK_STR_EQ(e.name, names[i]);
        CHECK_INT_EQ(e.parent, (int64_t)i - 1);
        CHECK_STR_EQ(e.input_shapes, shapes[i]);
        CHECK(e.end_ns >= e.start_ns);
    }
    CHECK_INT_EQ(ct_profiler_event(p, 3, &e), -1);
    CHECK_ERROR(CT_ERR_INDEX, "profiler event 3 out of range (3 events)");
    CHECK_INT_EQ(ct_profiler_event(p, 0, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_profiler_event: out is NULL");
    CHECK_INT_EQ(ct_profiler_event(NULL, 0, &e), -1);
    CHECK_ERROR(CT_ERR_VALUE, "profiler is NULL");
    ct_profiler_free(p);
    ct_tensor_release(y);
    ct_tensor_release(x);
}

static void slice_op(void) {
    double v[6] = {0, 1, 2, 3, 4, 5};
    int64_t s[1] = {6};
    ct_tensor *x = ct_tensor_from_doubles(v, s, 1, CT_FLOAT32);
    const ct_op *op = ct_op_find("aten::slice.Tensor");
    CHECK(op != NULL);
    /* x[1:-1:2] -> [1, 3]; x[-100:100] -> all; x[4:2] -> empty */
    struct { int64_t start, end, step, n, first; } cases[] = {{1, -1, 2, 2, 1}, {-100, 100, 1, 6, 0}, {4, 2, 1, 0, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ct_value args[5] = {ct_tensor_value(x), ct_int(0), ct_int(cases[k].start), ct_int(cases[k].end), ct_int(cases[k].step)};
        ct_value rets[1] = {ct_none()};
        CHECK_INT_EQ(ct_call(op, args, rets), 0);
        CHECK_INT_EQ(ct_tensor_numel(rets[0].u.t), cases[k].n);
        CHECK(ct_tensor_shares_storage(rets[0].u.t, x));
        if (cases[k].n > 0) {
            double got;
            int64_t i0 = 0;
            ct_tensor_get(rets[0].u.t, &i0, &got);
            CHECK(got == (double)cases[k].first);
        }
        ct_values_release(rets, 1);
    }
    /* defaults: start None, end None */
    ct_value args[5] = {ct_tensor_value(x), ct_int(0), ct_none(), ct_none(), ct_int(3)};
    ct_value rets[1] = {ct_none()};
    CHECK_INT_EQ(ct_call(op, args, rets), 0);
    CHECK_INT_EQ(ct_tensor_numel(rets[0].u.t), 2);
    CHECK_INT_EQ(ct_tensor_strides(rets[0].u.t)[0], 3);
    ct_values_release(rets, 1);
    args[4] = ct_int(0);
    CHECK_INT_EQ(ct_call(op, args, rets), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "slice step must be positive");
    ct_tensor *z = ct_tensor_scalar(1.0, CT_FLOAT32);
    args[0] = ct_tensor_value(z);
    args[4] = ct_int(1);
    CHECK_INT_EQ(ct_call(op, args, rets), -1);
    CHECK_ERROR(CT_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
    ct_tensor_release(z);
    ct_tensor_release(x);
}

/* an owned Tensor[] value, and its bad input */
static void tensor_list(void) {
    int64_t s[1] = {2};
    ct_tensor *a = ct_ones(s, 1, CT_DTYPE_UNDEFINED), *items[2] = {a, a};
    ct_value v = ct_none();
    CHECK_INT_EQ(ct_tensor_list_new(items, 2, &v), 0);
    CHECK_INT_EQ(v.tag, CT_TAG_TENSORLIST);
    CHECK_INT_EQ(v.u.tlist.len, 2);
    CHECK_INT_EQ(ct_tensor_refcount(a), 3);
    ct_values_release(&v, 1);
    CHECK_INT_EQ(ct_tensor_refcount(a), 1);
    CHECK_INT_EQ(ct_tensor_list_new(items, 2, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_list_new: bad arguments");
    CHECK_INT_EQ(ct_tensor_list_new(NULL, 1, &v), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_list_new: bad arguments");
    CHECK_INT_EQ(ct_tensor_list_new(items, -1, &v), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_list_new: bad arguments");
    items[1] = NULL;
    CHECK_INT_EQ(ct_tensor_list_new(items, 2, &v), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_tensor_list_new: item 1 is NULL (a Tensor[] holds tensors only)");
    CHECK_INT_EQ(ct_tensor_refcount(a), 1);
    ct_tensor_release(a);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    int64_t live = ct_testing_live_tensors();
    tensor_list();
    binding_slot();
    wrapped_numbers();
    node_references();
    schema_info();
    call_function();
    profiler_events();
    slice_op();
    CHECK_INT_EQ(ct_testing_live_tensors(), live);
    return ct_test_finish("test_binding_api");
}
