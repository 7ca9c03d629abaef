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

/* Note [The error-kind table]
 *   CT_ERROR_KIND_TABLE(X) is the one list of the kinds of error, each with its name and the
 *   Python exception it is: the ct_error_kind enum, ct_error_kind_name and
 *   ct_error_kind_exception are made from it, and a language binding maps a kind to its
 *   exception class from it (by the class's name: a builtin, or the binding's own
 *   NotImplementedInCtorch). Columns:
 *     ENUM       the ct_error_kind enumerator (its value: its place in the list)
 *     NAME       what ct_error_kind_name says: the exception's name, except that C code tells an
 *                allocation that failed apart as "MemoryError"
 *     EXCEPTION  the Python exception class PyTorch raises for it (NULL for CT_OK)
 */
#define CT_ERROR_KIND_TABLE(X)                                                                    \
    X(CT_OK, "OK", NULL)                                                                          \
    X(CT_ERR_RUNTIME, "RuntimeError", "RuntimeError")                                             \
    X(CT_ERR_VALUE, "ValueError", "ValueError")                                                   \
    X(CT_ERR_TYPE, "TypeError", "TypeError")                                                      \
    X(CT_ERR_INDEX, "IndexError", "IndexError")                                                   \
    X(CT_ERR_NOT_IMPLEMENTED, "NotImplementedError", "NotImplementedError")                       \
    /* allocation failed: a RuntimeError, as PyTorch's CPU allocator raises */                    \
    X(CT_ERR_NOMEM, "MemoryError", "RuntimeError")                                                \
    /* a file could not be read or written */                                                     \
    X(CT_ERR_IO, "OSError", "OSError")                                                            \
    X(CT_ERR_KEY, "KeyError", "KeyError")                                                         \
    /* nesting without end (modes re-entered on every call) */                                    \
    X(CT_ERR_RECURSION, "RecursionError", "RecursionError")                                       \
    /* ctorch does not implement this (yet): not one of PyTorch's own answers (docs/python.md) */ \
    X(CT_ERR_UNSUPPORTED, "NotImplementedInCtorch", "NotImplementedInCtorch")

#define CT_ERROR_KIND_ENUMERATOR_(e, name, exception) e,
typedef enum ct_error_kind {
    CT_ERROR_KIND_TABLE(CT_ERROR_KIND_ENUMERATOR_) /* CT_OK = 0, CT_ERR_RUNTIME, ... */
    CT_ERR_KIND_COUNT
} ct_error_kind;
#undef CT_ERROR_KIND_ENUMERATOR_

/* The last error on this thread, CT_OK if none since ct_error_clear(). */
CT_API ct_error_kind ct_error_code(void);
/* Its message ("" if none). Borrowed: valid until the next ctorch call on this thread. */
CT_API const char *ct_error_message(void);
/* The kind's name (CT_ERROR_KIND_TABLE): "RuntimeError", "ValueError", ...; "Error" for a value
 * that is no kind. */
CT_API const char *ct_error_kind_name(ct_error_kind kind);
/* The name of the Python exception class the kind is (CT_ERROR_KIND_TABLE): "RuntimeError",
 * "ValueError", ..., "NotImplementedInCtorch"; NULL for CT_OK, "RuntimeError" for a value that
 * is no kind. */
CT_API const char *ct_error_kind_exception(ct_error_kind kind);
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
