/* record_function: the profiler ops PyTorch 2.x dispatches (profiler::_record_function_enter_new
 * and _record_function_exit), and the C calls that make them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/alloc.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ctorch/profiler.h"
#include "core/startup.h"
#include "core/tls.h"
#include "ops/kernels.h"
#include "profiler/aggregate.h"
#include "profiler/profiler_state.h"
#include "profiler/record.h"
#include "util/json.h"
#include "util/strbuf.h"

/* ---- record_function: the profiler ops PyTorch 2.x dispatches ---- */

struct ct_record_function {
    void *range;
};

static _Thread_local struct {
    const char *file, *func;
    int line;
} tls_loc;

/* profiler::_record_function_enter_new(str name, str? args=None) -> _RecordFunction */
int ct_k_record_function_enter_new(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    if (args[0].tag != CT_TAG_STRING) return ct_error_set(CT_ERR_TYPE, "_record_function_enter_new(): argument 'name' must be str");
    ct_record_function *rf = ct_malloc(sizeof *rf);
    if (!rf) return -1;
    /* a location handed over by ct_record_function_enter_at on this thread, used once */
    const char *file = tls_loc.file, *func = tls_loc.func;
    int line = tls_loc.line;
    tls_loc.file = NULL;
    rf->range = ct_record_user_scope_begin(args[0].u.s, file, line, func);
    rets[0] = ct_object(rf);
    return 0;
}

/* profiler::_record_function_exit._RecordFunction(_RecordFunction _0) -> () */
int ct_k_record_function_exit(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    (void)rets;
    ct_record_function *rf = args[0].tag == CT_TAG_OBJECT ? args[0].u.obj : NULL;
    if (!rf) return ct_error_set(CT_ERR_TYPE, "_record_function_exit(): expected a _RecordFunction");
    ct_record_function_end(rf->range);
    ct_free(rf);
    return 0;
}

ct_record_function *ct_record_function_enter(const char *name) {
    if (!name) {
        ct_error_set(CT_ERR_VALUE, "record_function: name is NULL");
        return NULL;
    }
    return ct__record_function_enter_new(name, NULL);
}

ct_record_function *ct_record_function_enter_at(const char *name, const char *file, int line, const char *func) {
    if (!name) {
        ct_error_set(CT_ERR_VALUE, "record_function: name is NULL");
        return NULL;
    }
    tls_loc.file = file;
    tls_loc.line = line;
    tls_loc.func = func;
    ct_record_function *rf = ct__record_function_enter_new(name, NULL);
    tls_loc.file = NULL; /* when a mode handled the op without the kernel */
    return rf;
}

int ct_record_function_exit(ct_record_function *rf) {
    if (!rf) return ct_error_set(CT_ERR_VALUE, "record_function exit: handle is NULL");
    return ct__record_function_exit(rf);
}
