/*
 * ctorch/error.h - errors.
 *
 * No ctorch function aborts or exits on a caller's mistake. A function that returns a
 * pointer returns NULL on failure, one that returns int returns -1; either way it sets
 * this thread's error: a code (the kind of exception PyTorch would raise) and a message
 * (PyTorch's message for the same mistake wherever PyTorch has one). The message buffer
 * belongs to the library and stays valid until the next ctorch call on this thread.
 */
#ifndef CTORCH_ERROR_H
#define CTORCH_ERROR_H

#include "ctorch/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_error_kind {
    CT_OK = 0,
    CT_ERR_RUNTIME,         /* RuntimeError */
    CT_ERR_VALUE,           /* ValueError */
    CT_ERR_TYPE,            /* TypeError */
    CT_ERR_INDEX,           /* IndexError */
    CT_ERR_NOT_IMPLEMENTED, /* NotImplementedError */
    CT_ERR_NOMEM,           /* allocation failed (Python: RuntimeError, as PyTorch's CPU allocator raises) */
    CT_ERR_IO,              /* a file could not be read or written */
    CT_ERR_KEY,             /* KeyError */
    CT_ERR_RECURSION,       /* RecursionError: nesting without end (modes re-entered on every call) */
    CT_ERR_UNSUPPORTED,     /* ctorch does not implement this (yet): not one of PyTorch's own answers;
                               Python raises NotImplementedInCtorch (docs/python.md) */
    CT_ERR_KIND_COUNT
} ct_error_kind;

/* The last error on this thread, CT_OK if none since ct_error_clear(). */
CT_API ct_error_kind ct_error_code(void);
/* Its message ("" if none). Borrowed: valid until the next ctorch call on this thread. */
CT_API const char *ct_error_message(void);
/* Python's name for the kind: "RuntimeError", "ValueError", ... */
CT_API const char *ct_error_kind_name(ct_error_kind kind);
CT_API void ct_error_clear(void);

/* Sets the error (printf-style message). Returns -1 so callers can `return ct_error_set(...)`. */
CT_API int ct_error_set(ct_error_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* CTORCH_ERROR_H */
