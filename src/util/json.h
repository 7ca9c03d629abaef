/*
 * util/json.h - ctorch's JSON layer.
 *
 * Two backends behind one API, the cJSON API:
 *   - CTORCH_HAVE_CJSON defined: the system cJSON library (<cjson/cJSON.h>, any 1.7.13+).
 *   - otherwise: a built-in implementation (util/json_builtin.c) of the subset of cJSON that
 *     ctorch uses, with the same type, struct fields, type flags, function names and
 *     signatures, so code written against this header compiles unchanged with either backend.
 *     The built-in allocates through ct_malloc (tests can inject failures) and its objects
 *     are freed with cJSON_Delete / cJSON_free as usual.
 *
 * On top of either backend (util/json_dump.c, public cJSON API only):
 *   ct_json_parse              strict parse (rejects trailing data) with ctorch errors
 *   ct_json_parse_file         the same for a whole file
 *   ct_json_dumps              Python's json.dumps(obj, indent=...) byte for byte
 *   ct_json_write_file_atomic  replace a file so that readers never see half of it
 *
 * Use only the functions declared in the built-in branch below: they are the ones that
 * exist in both backends.
 */
#ifndef CT_UTIL_JSON_H
#define CT_UTIL_JSON_H

#include <stddef.h>

#ifdef CTORCH_HAVE_CJSON

#include <cjson/cJSON.h>

#else /* built-in backend */

#ifdef __cplusplus
extern "C" {
#endif

/* The built-in functions are linked under ct_-prefixed names: a program that links both
 * ctorch (built without the system cJSON) and the real libcjson gets no clashing or
 * interposed symbols. Source code still spells the cJSON names. */
#define cJSON_Parse ct_cjson_Parse
#define cJSON_ParseWithLength ct_cjson_ParseWithLength
#define cJSON_ParseWithOpts ct_cjson_ParseWithOpts
#define cJSON_ParseWithLengthOpts ct_cjson_ParseWithLengthOpts
#define cJSON_Print ct_cjson_Print
#define cJSON_PrintUnformatted ct_cjson_PrintUnformatted
#define cJSON_Delete ct_cjson_Delete
#define cJSON_GetArraySize ct_cjson_GetArraySize
#define cJSON_GetArrayItem ct_cjson_GetArrayItem
#define cJSON_GetObjectItem ct_cjson_GetObjectItem
#define cJSON_GetObjectItemCaseSensitive ct_cjson_GetObjectItemCaseSensitive
#define cJSON_HasObjectItem ct_cjson_HasObjectItem
#define cJSON_GetStringValue ct_cjson_GetStringValue
#define cJSON_GetNumberValue ct_cjson_GetNumberValue
#define cJSON_IsInvalid ct_cjson_IsInvalid
#define cJSON_IsFalse ct_cjson_IsFalse
#define cJSON_IsTrue ct_cjson_IsTrue
#define cJSON_IsBool ct_cjson_IsBool
#define cJSON_IsNull ct_cjson_IsNull
#define cJSON_IsNumber ct_cjson_IsNumber
#define cJSON_IsString ct_cjson_IsString
#define cJSON_IsArray ct_cjson_IsArray
#define cJSON_IsObject ct_cjson_IsObject
#define cJSON_IsRaw ct_cjson_IsRaw
#define cJSON_CreateNull ct_cjson_CreateNull
#define cJSON_CreateTrue ct_cjson_CreateTrue
#define cJSON_CreateFalse ct_cjson_CreateFalse
#define cJSON_CreateBool ct_cjson_CreateBool
#define cJSON_CreateNumber ct_cjson_CreateNumber
#define cJSON_CreateString ct_cjson_CreateString
#define cJSON_CreateRaw ct_cjson_CreateRaw
#define cJSON_CreateArray ct_cjson_CreateArray
#define cJSON_CreateObject ct_cjson_CreateObject
#define cJSON_AddItemToArray ct_cjson_AddItemToArray
#define cJSON_AddItemToObject ct_cjson_AddItemToObject
#define cJSON_AddNullToObject ct_cjson_AddNullToObject
#define cJSON_AddTrueToObject ct_cjson_AddTrueToObject
#define cJSON_AddFalseToObject ct_cjson_AddFalseToObject
#define cJSON_AddBoolToObject ct_cjson_AddBoolToObject
#define cJSON_AddNumberToObject ct_cjson_AddNumberToObject
#define cJSON_AddStringToObject ct_cjson_AddStringToObject
#define cJSON_AddObjectToObject ct_cjson_AddObjectToObject
#define cJSON_AddArrayToObject ct_cjson_AddArrayToObject
#define cJSON_malloc ct_cjson_malloc
#define cJSON_free ct_cjson_free

/* Type flags (values as in cJSON). `type & 0xFF` is the kind; the two high flags mark items
 * that do not own their children/valuestring (IsReference) or their key (StringIsConst).
 * The built-in never creates either, but cJSON_Delete honours them. */
#define cJSON_Invalid (0)
#define cJSON_False (1 << 0)
#define cJSON_True (1 << 1)
#define cJSON_NULL (1 << 2)
#define cJSON_Number (1 << 3)
#define cJSON_String (1 << 4)
#define cJSON_Array (1 << 5)
#define cJSON_Object (1 << 6)
#define cJSON_Raw (1 << 7)
#define cJSON_IsReference 256
#define cJSON_StringIsConst 512

/* Arrays/objects deeper than this are rejected by the parsers (both backends: cJSON's
 * default), so a hostile file cannot overflow the stack. Exactly this many levels parse. */
#define CJSON_NESTING_LIMIT 1000

typedef int cJSON_bool;

/* One JSON value. Field order and meaning as in cJSON:
 *   next/prev   siblings in the parent's list. As in cJSON, the first child's prev points
 *               to the last child (O(1) append); the last child's next is NULL. Walk with
 *               next (cJSON_ArrayForEach), never with prev.
 *   child       first element/member of an array/object.
 *   valuestring the text of a string (owned).
 *   valueint    the number saturated to int (deprecated in cJSON; read valuedouble).
 *   valuedouble the number.
 *   string      the key, for members of an object (owned). */
typedef struct cJSON {
    struct cJSON *next;
    struct cJSON *prev;
    struct cJSON *child;
    int type;
    char *valuestring;
    int valueint;
    double valuedouble;
    char *string;
} cJSON;

/* Parsing. Returns a new tree (free with cJSON_Delete) or NULL on bad input, on nesting
 * deeper than CJSON_NESTING_LIMIT, or when memory runs out (partial trees are freed).
 * Like cJSON, these stop after the first complete value and ignore what follows
 * ("[1] x" parses as [1]); use ct_json_parse to reject trailing data. A UTF-8 byte order
 * mark at the start is skipped. value NULL gives NULL. */
cJSON *cJSON_Parse(const char *value);
/* value need not be NUL-terminated: at most buffer_length bytes are read. */
cJSON *cJSON_ParseWithLength(const char *value, size_t buffer_length);
/* *return_parse_end (if not NULL) receives the end of the value on success and the place of
 * the error on failure. require_null_terminated: fail unless only whitespace and then a NUL
 * byte follow the value, where that NUL lies inside the buffer (cJSON's rule: with
 * cJSON_ParseWithLengthOpts the length must count the NUL). */
cJSON *cJSON_ParseWithOpts(const char *value, const char **return_parse_end, cJSON_bool require_null_terminated);
cJSON *cJSON_ParseWithLengthOpts(const char *value, size_t buffer_length, const char **return_parse_end,
                                 cJSON_bool require_null_terminated);

/* cJSON's text (tabs and newlines for Print, none for PrintUnformatted; NaN and infinities
 * print as null). Returns a string to free with cJSON_free, or NULL (no memory, or an item
 * of invalid type). Prefer ct_json_dumps for files that must match Python's output. */
char *cJSON_Print(const cJSON *item);
char *cJSON_PrintUnformatted(const cJSON *item);

/* Frees item, its children, and every sibling after it (cJSON semantics: pass a root or a
 * detached item). NULL is a no-op. */
void cJSON_Delete(cJSON *item);

/* Lookups. All accept NULL and return 0/NULL; items returned are borrowed from the tree. */
int cJSON_GetArraySize(const cJSON *array); /* also counts an object's members */
cJSON *cJSON_GetArrayItem(const cJSON *array, int index);
cJSON *cJSON_GetObjectItem(const cJSON *const object, const char *const string); /* ASCII case-insensitive */
cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *const object, const char *const string);
cJSON_bool cJSON_HasObjectItem(const cJSON *object, const char *string);
char *cJSON_GetStringValue(const cJSON *const item); /* NULL unless a string */
double cJSON_GetNumberValue(const cJSON *const item); /* NaN unless a number */

cJSON_bool cJSON_IsInvalid(const cJSON *const item);
cJSON_bool cJSON_IsFalse(const cJSON *const item);
cJSON_bool cJSON_IsTrue(const cJSON *const item);
cJSON_bool cJSON_IsBool(const cJSON *const item);
cJSON_bool cJSON_IsNull(const cJSON *const item);
cJSON_bool cJSON_IsNumber(const cJSON *const item);
cJSON_bool cJSON_IsString(const cJSON *const item);
cJSON_bool cJSON_IsArray(const cJSON *const item);
cJSON_bool cJSON_IsObject(const cJSON *const item);
cJSON_bool cJSON_IsRaw(const cJSON *const item);

/* Constructors: a new item (cJSON_Delete it unless it is added to a tree), or NULL when
 * memory runs out. cJSON_CreateString copies string; NULL string gives NULL. */
cJSON *cJSON_CreateNull(void);
cJSON *cJSON_CreateTrue(void);
cJSON *cJSON_CreateFalse(void);
cJSON *cJSON_CreateBool(cJSON_bool boolean);
cJSON *cJSON_CreateNumber(double num);
cJSON *cJSON_CreateString(const char *string);
/* An item printed verbatim (raw JSON text, copied), e.g. a float written the Python way. */
cJSON *cJSON_CreateRaw(const char *raw);
cJSON *cJSON_CreateArray(void);
cJSON *cJSON_CreateObject(void);

/* Appends item (which must not be in another tree) and transfers its ownership to the
 * container. Returns 1, or 0 with nothing changed (NULL argument, item == container, or no
 * memory for the key copy): the caller still owns item then. Keys are copied; duplicate
 * keys are kept (and printed) in order, lookups find the first. */
cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item);
cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *string, cJSON *item);

/* Create-and-add helpers: return the new member (owned by object), or NULL with object
 * unchanged on failure. */
cJSON *cJSON_AddNullToObject(cJSON *const object, const char *const name);
cJSON *cJSON_AddTrueToObject(cJSON *const object, const char *const name);
cJSON *cJSON_AddFalseToObject(cJSON *const object, const char *const name);
cJSON *cJSON_AddBoolToObject(cJSON *const object, const char *const name, const cJSON_bool boolean);
cJSON *cJSON_AddNumberToObject(cJSON *const object, const char *const name, const double number);
cJSON *cJSON_AddStringToObject(cJSON *const object, const char *const name, const char *const string);
cJSON *cJSON_AddObjectToObject(cJSON *const object, const char *const name);
cJSON *cJSON_AddArrayToObject(cJSON *const object, const char *const name);

/* The allocator cJSON_Print's results come from (ct_malloc / ct_free here). */
void *cJSON_malloc(size_t size);
void cJSON_free(void *object);

/* for (element = first child; element; element = next): arrays and objects alike. */
#define cJSON_ArrayForEach(element, array)                                                        \
    for (element = (array != NULL) ? (array)->child : NULL; element != NULL; element = element->next)

#ifdef __cplusplus
}
#endif

#endif /* CTORCH_HAVE_CJSON */

/* ---- ctorch helpers (either backend) ------------------------------------------------------ */

#ifdef __cplusplus
extern "C" {
#endif

/* Frees strings returned by ct_json_dumps (the library's allocator; also declared in
 * ctorch/tensor.h). */
void ct_free(void *p);

/* Parses exactly one JSON value from text[0..len) (need not be NUL-terminated): only JSON
 * whitespace may follow it. Returns a tree to free with cJSON_Delete, or NULL with:
 *   CT_ERR_VALUE  "Expecting value: line 1 column 1 (char 0)" for empty input,
 *                 "Invalid JSON: line L column C (char N)" for a syntax error (or nesting
 *                 deeper than CJSON_NESTING_LIMIT), "Extra data: line L column C (char N)"
 *                 when something follows the value (positions in bytes, like Python's
 *                 json.JSONDecodeError but counting bytes, not characters; where the backend
 *                 reports the error place, which may differ between backends), and for
 *                 text == NULL;
 *   CT_ERR_NOMEM  when memory runs out (built-in backend; the system cJSON does not
 *                 allocate through ctorch, so it reports that as a syntax error).
 * This thread's error is cleared on entry (so that a failed allocation can be told from a
 * syntax error). Strictness beyond that is the backend's: the built-in follows RFC 8259
 * exactly (except that it does not validate UTF-8 and decodes \u0000, which ends the C
 * string), the system cJSON also accepts a few sloppy forms (leading zeros, raw control
 * characters in strings). Neither accepts Python's NaN/Infinity extensions. */
cJSON *ct_json_parse(const char *text, size_t len);

/* Reads and parses the whole file at path with ct_json_parse. NULL with CT_ERR_IO
 * ("[Errno 2] No such file or directory: 'path'") if it cannot be read, else as
 * ct_json_parse. */
cJSON *ct_json_parse_file(const char *path);

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
char *ct_json_dumps(const cJSON *item, int indent);

/* Replaces the file at path with text (strlen(text) bytes) so that no reader and no crash
 * ever sees a partial file: writes "<path>.tmp.<pid>", fsyncs it, rename()s it over path,
 * then fsyncs the directory (best effort). The new file gets mode 0666 & ~umask (the old
 * file's permissions are not kept). Returns 0, or -1 with the temporary file removed and
 *   CT_ERR_IO     "[Errno N] <strerror>: '<path>'" with the errno of the step that failed
 *                 (opening/writing the temporary, fsync, rename), naming path itself;
 *   CT_ERR_VALUE  path or text NULL;
 *   CT_ERR_NOMEM  no memory for the temporary name. */
int ct_json_write_file_atomic(const char *path, const char *text);

#ifdef __cplusplus
}
#endif

#endif /* CT_UTIL_JSON_H */
