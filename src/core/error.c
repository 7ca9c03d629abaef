/* Thread-local errors (see include/ctorch/error.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error_impl.h"
#include "ctorch/error.h"

#define CT_ERROR_MAX 1024

static _Thread_local ct_error_kind err_kind;
static _Thread_local char err_msg[CT_ERROR_MAX];
static _Thread_local uint64_t err_serial; /* counts ct_error_set calls (core/error_impl.h) */

uint64_t ct_error_serial(void) { return err_serial; }

ct_error_kind ct_error_code(void) { return err_kind; }
const char *ct_error_message(void) { return err_msg; }
void ct_error_clear(void) {
    err_kind = CT_OK;
    err_msg[0] = '\0';
}

static const struct {
    const char *name, *exception;
} kinds[CT_ERR_KIND_COUNT] = {
#define KIND_(e, name, exception) [e] = {name, exception},
    CT_ERROR_KIND_TABLE(KIND_)
#undef KIND_
};

const char *ct_error_kind_name(ct_error_kind kind) {
    return (unsigned)kind < CT_ERR_KIND_COUNT ? kinds[kind].name : "Error";
}

const char *ct_error_kind_exception(ct_error_kind kind) {
    return (unsigned)kind < CT_ERR_KIND_COUNT ? kinds[kind].exception : "RuntimeError";
}

int ct_error_set(ct_error_kind kind, const char *fmt, ...) {
    va_list ap;
    /* format into a scratch buffer first: the message may quote the previous one */
    char tmp[CT_ERROR_MAX];
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    snprintf(err_msg, sizeof err_msg, "%s", tmp);
    err_kind = kind;
    err_serial++;
    return -1;
}
