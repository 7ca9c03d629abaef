/*
 * ctorch/json.h - ctorch's JSON layer: the system cJSON library (Debian's libcjson-dev, 1.7.13 or
 * later) plus a few functions built on its public API (util/json_dump.c):
 *   ct_json_parse              strict parse (rejects trailing data) with ctorch errors
 *   ct_json_parse_file         the same for a whole file
 *   ct_json_dumps              Python's json.dumps(obj, indent=...) byte for byte
 *   ct_json_write_file_atomic  replace a file so that readers never see half of it
 *   ct_json_add                add a member or element, deleting it if that fails
 * A program that builds or reads cJSON trees itself links cJSON too (pkg-config libcjson).
 *
 * Allocation: cJSON allocates with the hooks given to cJSON_InitHooks, which are process-wide
 * and belong to the program; by default malloc/free, which ct_free and cJSON_free both accept.
 * The library changes them only when a test program turns on fault injection
 * (ct_testing_fail_alloc_after): then cJSON allocates through ct_malloc, its allocations can be
 * failed like the library's own, and the functions below report such a failure as CT_ERR_NOMEM.
 *
 * Threads: cJSON's trees are plain data (one thread at a time per tree), but its parser writes
 * a process-wide error position on every call; ct_json_parse serialises parsing, so call it
 * rather than cJSON_Parse* from code that may run on several threads.
 */
#ifndef CTORCH_JSON_H
#define CTORCH_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "ctorch/export.h"

/* ---- ctorch's JSON functions ------------------------------------------------------------------ */

#ifdef __cplusplus
extern "C" {
#endif

/* Frees strings returned by ct_json_dumps (the library's allocator; also declared in
 * ctorch/tensor.h). */
CT_API void ct_free(void *p);

/* Parses exactly one JSON value from text[0..len) (need not be NUL-terminated): only JSON
 * whitespace may follow it. Returns a tree to free with cJSON_Delete, or NULL with:
 *   CT_ERR_VALUE  "Expecting value: line 1 column 1 (char 0)" for empty input,
 *                 "Invalid JSON: line L column C (char N)" for a syntax error (or nesting
 *                 deeper than CJSON_NESTING_LIMIT), "Extra data: line L column C (char N)"
 *                 when something follows the value (positions in bytes, like Python's
 *                 json.JSONDecodeError but counting bytes, not characters; a syntax error
 *                 is placed where cJSON stopped), and for text == NULL;
 *   CT_ERR_NOMEM  when memory runs out, if cJSON allocates through ct_malloc (see the top of
 *                 this file); with cJSON's default hooks that shows as a syntax error.
 * This thread's error is cleared on entry (so that a failed allocation can be told from a
 * syntax error). Strictness beyond that is cJSON's: it also accepts a few sloppy forms
 * (leading zeros, raw control characters in strings) and not Python's NaN/Infinity
 * extensions. */
CT_API cJSON *ct_json_parse(const char *text, size_t len);

/* Reads and parses the whole file at path with ct_json_parse. NULL with CT_ERR_IO
 * ("[Errno 2] No such file or directory: 'path'") if it cannot be read, else as
 * ct_json_parse. */
CT_API cJSON *ct_json_parse_file(const char *path);

/* Python's json.dumps(obj, indent=indent) for the tree item, byte for byte:
 *   indent < 0   indent=None: one line, separators ", " and ": ";
 *   indent >= 0  every element/member on its own line, indented by `indent` spaces per
 *                level (0: newlines only), separators "," and ": "; empty containers print
 *                as [] and {}.
 * Strings are escaped as with ensure_ascii=True: \" \\ \n \r \t \b \f, other control
 * characters and DEL as \u00XX, non-ASCII as \uXXXX (lowercase hex; a surrogate pair above
 * U+FFFF). Strings are taken to be UTF-8; each byte of an invalid sequence prints as \ufffd.
 * Numbers: cJSON keeps only a double, so it cannot tell 3 from 3.0. An integral value with
 * |v| < 2^53 prints as an integer ("3", Python's output for the int 3; Python writes "3.0"
 * for the float). Everything else prints as Python's float repr: the shortest text that
 * reads back as the same double ("0.1", "1e-05", "1.5e+16", "123.456",
 * "9007199254740992.0"), -0.0 as "-0.0", and NaN, Infinity, -Infinity as Python writes them
 * (allow_nan=True; no JSON parser here reads them back).
 * true/false/null as such; members in the tree's order (duplicate keys are all printed).
 * Returns a NUL-terminated string to free with ct_free, or NULL with:
 *   CT_ERR_VALUE    item NULL, an item of invalid type, or an object member without a key;
 *   CT_ERR_RUNTIME  nesting deeper than 10000 levels (Python: RecursionError);
 *   CT_ERR_NOMEM    no memory. */
CT_API char *ct_json_dumps(const cJSON *item, int indent);

/* Replaces the file at path with text (strlen(text) bytes) so that no reader and no crash
 * ever sees a partial file: ct_write_file_atomic (ctorch/file_set.h; what it does with what it
 * finds is Note [What the writer does with what it finds] in src/util/atomic_file.h): a
 * regular file gets a fsynced temporary beside it renamed over it, keeping its mode; devices
 * and FIFOs are written through; symbolic links are followed. Returns 0, or -1 with
 *   CT_ERR_IO     "[Errno N] <strerror>: '<path>'" with the errno of the step that failed,
 *                 naming path itself (no temporary is left behind);
 *   CT_ERR_VALUE  path or text NULL;
 *   CT_ERR_NOMEM  no memory. */
CT_API int ct_json_write_file_atomic(const char *path, const char *text);

/* Adds item to obj: as member `key` of an object, or appended to an array when key is NULL.
 * cJSON's own add functions leave a failed item to the caller and its Create functions return
 * NULL when memory runs out; this takes both in one place: returns true when item is in obj,
 * else false with item deleted (item or obj NULL, or no memory for the key), CT_ERR_NOMEM set
 * when no other error is. Build a tree as ok &= ct_json_add(...) and check ok once: a document
 * is either whole or an error, never missing members. */
CT_API bool ct_json_add(cJSON *obj, const char *key, cJSON *item);

#ifdef __cplusplus
}
#endif

#endif /* CTORCH_JSON_H */
