/* LoggingTensor: the seed's wrapper subclass. Its __torch_dispatch__ unwraps every LoggingTensor
 * argument, runs the op on the inner tensors, appends str(func) to the log and wraps every
 * tensor result in a new LoggingTensor (requires_grad False), as the seed script does. */
#include <string.h>

#include "dispatch/call_impl.h"
#include "core/alloc.h"
#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/subclass.h"
#include "dispatch/op_impl.h"
#include "util/grow.h"

struct ct_logging_tensor_log {
    ct_subclass *cls;
    const char **v; /* op python names live as long as the ops */
    size_t n, cap;
};

static void release_elem(void *payload) { ct_tensor_release(payload); }

static ct_tensor *wrap(ct_logging_tensor_log *log, ct_tensor *elem, bool requires_grad) {
    ct_tensor *w = ct_subclass_make_wrapper(log->cls, elem->sizes, elem->strides, elem->ndim, elem->storage_offset,
                                            elem->dtype, requires_grad, elem);
    if (w) ct_tensor_retain(elem); /* the wrapper's payload reference */
    return w;
}

static int handler(void *cls_data, const ct_op *op, ct_value *args, ct_value *rets) {
    ct_logging_tensor_log *log = cls_data;
    ct_value inner[CT_MAX_OP_ARGS];
    ct_tensor **lists[CT_MAX_OP_ARGS] = {NULL};
    int rc = 0;
    for (int i = 0; i < op->nargs; i++) {
        inner[i] = args[i];
        if (args[i].tag == CT_TAG_TENSOR && args[i].u.t->subclass == log->cls) inner[i] = ct_tensor_value(args[i].u.t->subclass_data);
        if (args[i].tag == CT_TAG_TENSORLIST && rc == 0) { /* unwrap each element of a Tensor[] */
            int64_t len = args[i].u.tlist.len;
            lists[i] = ct_malloc(sizeof *lists[i] * (size_t)(len ? len : 1));
            if (!lists[i]) {
                rc = -1;
                continue;
            }
            for (int64_t k = 0; k < len; k++) {
                ct_tensor *e = args[i].u.tlist.items[k];
                lists[i][k] = e && e->subclass == log->cls ? (ct_tensor *)e->subclass_data : e;
            }
            inner[i] = ct_tensor_list_value(lists[i], len);
        }
    }
    ct_value out[CT_MAX_OP_RETS];
    for (int i = 0; i < op->nrets; i++) out[i] = ct_none();
    if (rc == 0) rc = ct_dispatch_call(op, inner, out);
    for (int i = 0; i < op->nargs; i++) ct_free(lists[i]);
    if (rc != 0) return -1;
    if (ct_grow(log->v, log->cap, log->n + 1, 64) != 0) {
        ct_values_release(out, op->nrets);
        return -1;
    }
    log->v[log->n++] = op->python_name;
    for (int i = 0; i < op->nrets; i++) {
        if (out[i].tag == CT_TAG_TENSOR) {
            ct_tensor *w = wrap(log, out[i].u.t, false);
            ct_tensor_release(out[i].u.t);
            out[i] = ct_none();
            if (!w) {
                ct_values_release(rets, i);
                ct_values_release(out + i + 1, op->nrets - i - 1);
                return -1;
            }
            rets[i] = ct_tensor_value(w);
        } else if (out[i].tag == CT_TAG_TENSORLIST) { /* rewrap each element in place */
            for (int64_t k = 0; k < out[i].u.tlist.len; k++) {
                ct_tensor *e = out[i].u.tlist.items[k];
                ct_tensor *w = wrap(log, e, false);
                if (!w) {
                    ct_values_release(rets, i);
                    ct_values_release(out + i, op->nrets - i);
                    return -1;
                }
                ct_tensor_release(e);
                out[i].u.tlist.items[k] = w;
            }
            rets[i] = out[i];
        } else {
            rets[i] = out[i];
        }
    }
    return 0;
}

ct_logging_tensor_log *ct_logging_tensor_log_new(void) {
    ct_logging_tensor_log *log = ct_calloc(1, sizeof *log);
    if (!log) return NULL;
    log->cls = ct_subclass_new("LoggingTensor", handler, log, release_elem);
    if (!log->cls) {
        ct_free(log);
        return NULL;
    }
    return log;
}

void ct_logging_tensor_log_free(ct_logging_tensor_log *log) {
    if (!log) return;
    ct_subclass_free(log->cls);
    ct_free((void *)log->v);
    ct_free(log);
}

ct_tensor *ct_logging_tensor_new(ct_logging_tensor_log *log, ct_tensor *elem, bool requires_grad) {
    if (!log || !elem) {
        ct_error_set(CT_ERR_VALUE, "LoggingTensor: log and elem are required");
        return NULL;
    }
    return wrap(log, elem, requires_grad);
}

ct_tensor *ct_logging_tensor_elem(const ct_tensor *t) {
    if (!t || !t->subclass || strcmp(ct_subclass_name(t->subclass), "LoggingTensor") != 0) return NULL;
    return t->subclass_data;
}

size_t ct_logging_tensor_log_count(const ct_logging_tensor_log *log) { return log ? log->n : 0; }
const char *ct_logging_tensor_log_get(const ct_logging_tensor_log *log, size_t i) {
    return log && i < log->n ? log->v[i] : NULL;
}
const ct_subclass *ct_logging_tensor_class(const ct_logging_tensor_log *log) { return log ? log->cls : NULL; }
