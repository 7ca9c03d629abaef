/*
 * ctorch/export.h - CT_API, the mark of a function that is part of ctorch's public API.
 *
 * The library is compiled with hidden visibility (-fvisibility=hidden), so the shared library
 * exports exactly the declarations marked CT_API in these headers; everything else is internal
 * (still reachable from the library's own files and from programs linked with the static
 * libctorch.a, as ctorch's tests are). On compilers without visibility attributes CT_API is
 * empty and every function is exported, as before.
 */
#ifndef CTORCH_EXPORT_H
#define CTORCH_EXPORT_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define CT_API __attribute__((visibility("default")))
#else
#define CT_API
#endif

#endif /* CTORCH_EXPORT_H */
