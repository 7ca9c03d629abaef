/*
 * Tests for the JSON layer (src/util/json.h): the system cJSON with ctorch's strict parser,
 * Python-compatible writer and atomic file writer on top, in every build.
 *
 * Expected ct_json_dumps output was recorded from CPython's json.dumps (3.11) on the same
 * document.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "ctorch/init.h"
#include "ctorch/error.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

/* ---- recorded expectations ------------------------------------------------------------------ */

/* The input document. Python's json.loads(DOC) followed by json.dumps(obj, indent=None / 0 / 2)
 * gave DOC_INDENT_NONE / DOC_INDENT_0 / DOC_INDENT_2. It avoids integral floats (Python
 * prints 2.0 where cJSON, which keeps only a double, can only print 2) and duplicate keys
 * (a Python dict keeps one). */
static const char DOC[] =
    "{\"name\": \"ctorch\", \"unicode\": \"h\\u00e9llo w\\u00f6rld \\u2713 \\ud83d\\ude00 \\u4e2d\\u00ff\\u0100\\uffff\\u007e\",\n"
    "\"raw_utf8\": \"caf\303\251 \342\234\223 \360\237\230\200\", \"escapes\": \"quote\\\" backslash\\\\ slash\\/ nl\\n tab\\t cr\\r bs\\b ff\\f ctl\\u0001\\u001f del\\u007f tilde~\",\n"
    "\"ints\": [0, -1, 42, 9007199254740991, -9007199254740991, 2147483648, -2147483649],\n"
    "\"floats\": [0.1, 1e-05, 1e16, -0.0, 123456789012345678.0, 1.5e16, 123.456, 1e-7, 0.0001, 2.5, "
    "-3.25e-10,\n"
    " 1e300, 5e-324, 1.7976931348623157e308, 9007199254740992.0, 9999999999999998.0, 0.30000000000000004,\n"
    " 0.3333333333333333, 2.2250738585072014e-308, 1E-3, 6.02214076e23, -1.5e-7, 100.5],\n"
    "\"nested\": {\"empty_list\": [], \"empty_obj\": {}, \"list\": [1, [2, [3, {}]], {\"a\": null}], "
    "\"deep\": [[[[]]]]},\n"
    "\"bools\": [true, false, null], \"\": \"empty key\", \"k\\u00e9y\": 1}";

static const char DOC_INDENT_NONE[] =
    "{\"name\": \"ctorch\", \"unicode\": \"h\\u00e9llo w\\u00f6rld \\u2713 \\ud83d\\ude00 \\u4e2d\\u00ff\\u0100\\uffff~\", "
    "\"raw_utf8\": \"caf\\u00e9 \\u2713 \\ud83d\\ude00\", \"escapes\": \"quote\\\" backslash\\\\ slash/ nl\\n tab\\t cr\\r bs\\b ff\\f ctl\\u0001\\u001f del\\u007f tilde~\", "
    "\"ints\": [0, -1, 42, 9007199254740991, -9007199254740991, 2147483648, -2147483649], \"floats\": [0.1, "
    "1e-05, 1e+16, -0.0, 1.2345678901234568e+17, 1.5e+16, 123.456, 1e-07, 0.0001, 2.5, -3.25e-10, "
    "1e+300, 5e-324, 1.7976931348623157e+308, 9007199254740992.0, 9999999999999998.0, 0.30000000000000004, "
    "0.3333333333333333, 2.2250738585072014e-308, 0.001, 6.02214076e+23, -1.5e-07, 100.5], \"nested\": {\"empty_list\": [], "
    "\"empty_obj\": {}, \"list\": [1, [2, [3, {}]], {\"a\": null}], \"deep\": [[[[]]]]}, \"bools\": [true, "
    "false, null], \"\": \"empty key\", \"k\\u00e9y\": 1}";

static const char DOC_INDENT_0[] =
    "{\n"
    "\"name\": \"ctorch\",\n"
    "\"unicode\": \"h\\u00e9llo w\\u00f6rld \\u2713 \\ud83d\\ude00 \\u4e2d\\u00ff\\u0100\\uffff~\",\n"
    "\"raw_utf8\": \"caf\\u00e9 \\u2713 \\ud83d\\ude00\",\n"
    "\"escapes\": \"quote\\\" backslash\\\\ slash/ nl\\n tab\\t cr\\r bs\\b ff\\f ctl\\u0001\\u001f del\\u007f tilde~\",\n"
    "\"ints\": [\n"
    "0,\n"
    "-1,\n"
    "42,\n"
    "9007199254740991,\n"
    "-9007199254740991,\n"
    "2147483648,\n"
    "-2147483649\n"
    "],\n"
    "\"floats\": [\n"
    "0.1,\n"
    "1e-05,\n"
    "1e+16,\n"
    "-0.0,\n"
    "1.2345678901234568e+17,\n"
    "1.5e+16,\n"
    "123.456,\n"
    "1e-07,\n"
    "0.0001,\n"
    "2.5,\n"
    "-3.25e-10,\n"
    "1e+300,\n"
    "5e-324,\n"
    "1.7976931348623157e+308,\n"
    "9007199254740992.0,\n"
    "9999999999999998.0,\n"
    "0.30000000000000004,\n"
    "0.3333333333333333,\n"
    "2.2250738585072014e-308,\n"
    "0.001,\n"
    "6.02214076e+23,\n"
    "-1.5e-07,\n"
    "100.5\n"
    "],\n"
    "\"nested\": {\n"
    "\"empty_list\": [],\n"
    "\"empty_obj\": {},\n"
    "\"list\": [\n"
    "1,\n"
    "[\n"
    "2,\n"
    "[\n"
    "3,\n"
    "{}\n"
    "]\n"
    "],\n"
    "{\n"
    "\"a\": null\n"
    "}\n"
    "],\n"
    "\"deep\": [\n"
    "[\n"
    "[\n"
    "[]\n"
    "]\n"
    "]\n"
    "]\n"
    "},\n"
    "\"bools\": [\n"
    "true,\n"
    "false,\n"
    "null\n"
    "],\n"
    "\"\": \"empty key\",\n"
    "\"k\\u00e9y\": 1\n"
    "}";

static const char DOC_INDENT_2[] =
    "{\n"
    "  \"name\": \"ctorch\",\n"
    "  \"unicode\": \"h\\u00e9llo w\\u00f6rld \\u2713 \\ud83d\\ude00 \\u4e2d\\u00ff\\u0100\\uffff~\",\n"
    "  \"raw_utf8\": \"caf\\u00e9 \\u2713 \\ud83d\\ude00\",\n"
    "  \"escapes\": \"quote\\\" backslash\\\\ slash/ nl\\n tab\\t cr\\r bs\\b ff\\f ctl\\u0001\\u001f del\\u007f tilde~\",\n"
    "  \"ints\": [\n"
    "    0,\n"
    "    -1,\n"
    "    42,\n"
    "    9007199254740991,\n"
    "    -9007199254740991,\n"
    "    2147483648,\n"
    "    -2147483649\n"
    "  ],\n"
    "  \"floats\": [\n"
    "    0.1,\n"
    "    1e-05,\n"
    "    1e+16,\n"
    "    -0.0,\n"
    "    1.2345678901234568e+17,\n"
    "    1.5e+16,\n"
    "    123.456,\n"
    "    1e-07,\n"
    "    0.0001,\n"
    "    2.5,\n"
    "    -3.25e-10,\n"
    "    1e+300,\n"
    "    5e-324,\n"
    "    1.7976931348623157e+308,\n"
    "    9007199254740992.0,\n"
    "    9999999999999998.0,\n"
    "    0.30000000000000004,\n"
    "    0.3333333333333333,\n"
    "    2.2250738585072014e-308,\n"
    "    0.001,\n"
    "    6.02214076e+23,\n"
    "    -1.5e-07,\n"
    "    100.5\n"
    "  ],\n"
    "  \"nested\": {\n"
    "    \"empty_list\": [],\n"
    "    \"empty_obj\": {},\n"
    "    \"list\": [\n"
    "      1,\n"
    "      [\n"
    "        2,\n"
    "        [\n"
    "          3,\n"
    "          {}\n"
    "        ]\n"
    "      ],\n"
    "      {\n"
    "        \"a\": null\n"
    "      }\n"
    "    ],\n"
    "    \"deep\": [\n"
    "      [\n"
    "        [\n"
    "          []\n"
    "        ]\n"
    "      ]\n"
    "    ]\n"
    "  },\n"
    "  \"bools\": [\n"
    "    true,\n"
    "    false,\n"
    "    null\n"
    "  ],\n"
    "  \"\": \"empty key\",\n"
    "  \"k\\u00e9y\": 1\n"
    "}";

/* json.dumps([float('nan'), float('inf'), -float('inf')]) */
static const char NONFINITE[] = "[NaN, Infinity, -Infinity]";

/* A small document for the truncation and allocation-failure loops: every container kind,
 * escapes, a surrogate pair, and a number too long for the parser's on-stack buffer. */
static const char SMALL[] =
    "{\"k\": [1, -2.5e-3, true, false, null, \"s\\u00e9\\ud83d\\ude00\\n\"], \"o\": {\"x\": {}, \"y\": []},"
    " \"long\": 0.1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000001, \"key with \\\"quotes\\\"\": \"value\"}";
static const char SMALL_INDENT_2[] = "{\n"
                                     "  \"k\": [\n"
                                     "    1,\n"
                                     "    -0.0025,\n"
                                     "    true,\n"
                                     "    false,\n"
                                     "    null,\n"
                                     "    \"s\\u00e9\\ud83d\\ude00\\n\"\n"
                                     "  ],\n"
                                     "  \"o\": {\n"
                                     "    \"x\": {},\n"
                                     "    \"y\": []\n"
                                     "  },\n"
                                     "  \"long\": 0.1,\n"
                                     "  \"key with \\\"quotes\\\"\": \"value\"\n"
                                     "}";

/* ---- helpers ---------------------------------------------------------------------------------- */

static cJSON *parse_str(const char *s) { return ct_json_parse(s, strlen(s)); }

/* parse + dumps in one go; NULL if either fails. */
static char *redump(const char *text, int indent) {
    cJSON *j = parse_str(text);
    if (!j) return NULL;
    char *s = ct_json_dumps(j, indent);
    cJSON_Delete(j);
    return s;
}

/* dumps of a single number (for the number formatting table). */
static char *dump_number(double v) {
    cJSON *n = cJSON_CreateNumber(v);
    char *s = n ? ct_json_dumps(n, -1) : NULL;
    cJSON_Delete(n);
    return s;
}

static const cJSON *path_get(const cJSON *j, const char *const *keys, int n) {
    for (int i = 0; i < n && j; i++) j = cJSON_GetObjectItemCaseSensitive(j, keys[i]);
    return j;
}

/* The golden file was written by Python's json.dump(indent=1). Our dumps of it must equal
 * the file except where Python wrote an integral float: "0.0" there, "0" from us (cJSON
 * cannot tell them apart). This rewrites such numbers (-?digits.0, no exponent, below 2^53,
 * not -0.0) the way we print them; strings are skipped. Returns malloc'd text. */
static char *canonical_integral_floats(const char *t) {
    size_t n = strlen(t), o = 0;
    char *out = malloc(n + 1);
    if (!out) return NULL;
    for (size_t i = 0; i < n;) {
        if (t[i] == '"') { /* copy a string literal verbatim */
            out[o++] = t[i++];
            while (i < n && t[i] != '"') {
                if (t[i] == '\\' && i + 1 < n) out[o++] = t[i++];
                out[o++] = t[i++];
            }
            if (i < n) out[o++] = t[i++];
            continue;
        }
        if (t[i] == '-' || (t[i] >= '0' && t[i] <= '9')) {
            size_t j = i;
            while (j < n && strchr("+-.eE0123456789", t[j])) j++;
            size_t len = j - i;
            int integral = len >= 3 && t[j - 1] == '0' && t[j - 2] == '.' && !memchr(t + i, 'e', len) &&
                           !memchr(t + i, 'E', len) && memchr(t + i, '.', len) == t + j - 2;
            double v = strtod(t + i, NULL);
            if (integral && fabs(v) < 9007199254740992.0 && !(v == 0 && t[i] == '-')) len -= 2;
            memcpy(out + o, t + i, len);
            o += len;
            i = j;
            continue;
        }
        out[o++] = t[i++];
    }
    out[o] = '\0';
    return out;
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void test_golden_file(void) {
    size_t len = 0;
    char *text = ct_test_read_file(ct_test_shared("reference/torch-2.6/seed_step_golden.json"), &len);
    CHECK_MSG(text != NULL, "cannot read the golden file under CT_SHARED_DIR");
    if (!text) return;
    cJSON *root = ct_json_parse(text, len);
    CHECK(root != NULL);
    if (root) {
        const char *torch = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "torch"));
        CHECK(torch && strncmp(torch, "2.6.", 4) == 0);
        const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
        CHECK(cJSON_IsObject(seeds));
        CHECK_INT_EQ(cJSON_GetArraySize(seeds), 3);
        const cJSON *s0 = cJSON_GetObjectItemCaseSensitive(seeds, "0");
        const char *total[] = {"result", "total_ops"};
        const cJSON *t = path_get(s0, total, 2);
        CHECK(cJSON_IsNumber(t));
        CHECK(cJSON_GetNumberValue(t) == 43);
        CHECK_INT_EQ(t ? t->valueint : -1, 43);
        const char *fwd[] = {"dispatch_mode_log", "forward"};
        const cJSON *f = path_get(s0, fwd, 2);
        CHECK(cJSON_IsArray(f));
        CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetArrayItem(f, 0)), "aten.t.default");
        const char *match[] = {"result", "traced_step_matches"};
        CHECK(cJSON_IsTrue(path_get(s0, match, 2)));
        const char *gtype[] = {"result", "subclass_grad_type"};
        CHECK_STR_EQ(cJSON_GetStringValue(path_get(s0, gtype, 2)), "LoggingTensor");
        /* x is 8 rows of 16; every row an array of numbers */
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(s0, "x"), *row;
        CHECK(cJSON_IsArray(x));
        CHECK_INT_EQ(cJSON_GetArraySize(x), 8);
        int rows = 0, numbers = 0;
        cJSON_ArrayForEach(row, x) {
            const cJSON *e;
            rows++;
            CHECK_INT_EQ(cJSON_GetArraySize(row), 16);
            cJSON_ArrayForEach(e, row) numbers += cJSON_IsNumber(e);
        }
        CHECK_INT_EQ(rows, 8);
        CHECK_INT_EQ(numbers, 8 * 16);
        CHECK(cJSON_GetNumberValue(cJSON_GetArrayItem(cJSON_GetArrayItem(x, 0), 0)) == -1.5255959033966064);
        CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(s0, "loss")) == 1.4840720891952515);

        /* byte for byte against the file, which Python wrote with indent=1 */
        char *dumped = ct_json_dumps(root, 1);
        char *want = canonical_integral_floats(text);
        CHECK(dumped && want && strlen(dumped) > 100000);
        CHECK_MSG(dumped && want && strcmp(dumped, want) == 0, "dumps(golden, indent=1) differs from the file");
        ct_free(dumped);
        free(want);
    }
    cJSON_Delete(root);
    free(text);
}

static void test_dumps_matches_python(void) {
    cJSON *j = parse_str(DOC);
    CHECK(j != NULL);
    if (!j) return;
    char *s;
    CHECK_STR_EQ(s = ct_json_dumps(j, -1), DOC_INDENT_NONE);
    ct_free(s);
    CHECK_STR_EQ(s = ct_json_dumps(j, 0), DOC_INDENT_0);
    ct_free(s);
    CHECK_STR_EQ(s = ct_json_dumps(j, 2), DOC_INDENT_2);
    ct_free(s);
    cJSON_Delete(j);

    /* NaN and infinities as Python writes them (built by hand: no JSON parser reads them) */
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(NAN));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(INFINITY));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(-INFINITY));
    CHECK_STR_EQ(s = ct_json_dumps(a, -1), NONFINITE);
    ct_free(s);
    cJSON_Delete(a);

    /* shapes: json.dumps([[]], indent=2), json.dumps({}, indent=2), a bare string, indent=4 */
    CHECK_STR_EQ(s = redump("[[]]", 2), "[\n  []\n]");
    ct_free(s);
    CHECK_STR_EQ(s = redump("{}", 2), "{}");
    ct_free(s);
    CHECK_STR_EQ(s = redump("\"x\"", 2), "\"x\"");
    ct_free(s);
    CHECK_STR_EQ(s = redump("{\"a\":[1,{\"b\":null}]}", 4), "{\n    \"a\": [\n        1,\n        {\n            \"b\": null\n        }\n    ]\n}");
    ct_free(s);
    CHECK_STR_EQ(s = redump(" [ 1 , { } , [ ] ] ", -1), "[1, {}, []]");
    ct_free(s);

    /* duplicate keys: both members kept and printed in order; lookups find the first */
    j = parse_str("{\"dup\": 1, \"dup\": 2}");
    CHECK(j != NULL);
    CHECK_STR_EQ(s = ct_json_dumps(j, -1), "{\"dup\": 1, \"dup\": 2}");
    ct_free(s);
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "dup")) == 1);
    cJSON_Delete(j);
}

static void test_dumps_numbers(void) {
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        /* integral values below 2^53 print as integers: cJSON has no int/float distinction */
        {0.0, "0"},
        {3.0, "3"},
        {-42.0, "-42"},
        {9007199254740991.0, "9007199254740991"},
        {-9007199254740991.0, "-9007199254740991"},
        /* Python's float repr (recorded with repr(float)) */
        {-0.0, "-0.0"},
        {9007199254740992.0, "9007199254740992.0"},
        {1e16, "1e+16"},
        {-1e16, "-1e+16"},
        {1.5e16, "1.5e+16"},
        {123456789012345678.0, "1.2345678901234568e+17"},
        {0.1, "0.1"},
        {-0.1, "-0.1"},
        {0.5, "0.5"},
        {123.456, "123.456"},
        {1e-05, "1e-05"},
        {0.0001, "0.0001"},
        {0.00012345, "0.00012345"},
        {1.2345e-05, "1.2345e-05"},
        {1e22, "1e+22"},
        {1e100, "1e+100"},
        {1e-100, "1e-100"},
        {5e-324, "5e-324"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {0.30000000000000004, "0.30000000000000004"},
        {1.0 / 3.0, "0.3333333333333333"},
        {2.0 / 3.0, "0.6666666666666666"},
        {100.5, "100.5"},
        {9999999999999998.0, "9999999999999998.0"},
        {1.4840720891952515, "1.4840720891952515"},
        /* powers of two, where the rounding interval is lopsided: the shortest repr is not
         * always printf's correctly rounded digits (repr(2.0**-1019) etc.) */
        {7.120236347223045e-307, "7.120236347223045e-307"},
        {7.291122019556398e-304, "7.291122019556398e-304"},
        {8.98846567431158e+307, "8.98846567431158e+307"},
        {NAN, "NaN"},
        {INFINITY, "Infinity"},
        {-INFINITY, "-Infinity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = dump_number(cases[i].v);
        CHECK_STR_EQ(s, cases[i].want);
        ct_free(s);
    }

    /* Every finite double reads back exactly from its dumps text (shortest repr round-trips).
     * Random bit patterns from a fixed xorshift, so the run is reproducible. */
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    int bad = 0;
    cJSON *arr = cJSON_CreateArray();
    double *vals = malloc(20000 * sizeof *vals);
    int nvals = 0;
    while (arr && vals && nvals < 20000) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v)) continue;
        vals[nvals++] = v;
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(v));
    }
    char *s = arr ? ct_json_dumps(arr, -1) : NULL;
    cJSON *back = s ? parse_str(s) : NULL;
    CHECK(back != NULL);
    CHECK_INT_EQ(cJSON_GetArraySize(back), nvals);
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, back) {
        double v = cJSON_GetNumberValue(e);
        if (memcmp(&v, &vals[i], sizeof v) != 0) bad++;
        i++;
    }
    CHECK_INT_EQ(bad, 0);
    cJSON_Delete(back);
    ct_free(s);
    cJSON_Delete(arr);
    free(vals);
}

static void test_dumps_strings(void) {
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"", "\"\""},
        {"plain ascii ~", "\"plain ascii ~\""},
        {"\"\\/", "\"\\\"\\\\/\""},
        {"\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\""},
        {"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
        {"\303\251\342\202\254", "\"\\u00e9\\u20ac\""},            /* é € */
        {"\360\237\230\200\364\217\277\277", "\"\\ud83d\\ude00\\udbff\\udfff\""}, /* U+1F600 U+10FFFF */
        {"\357\277\277", "\"\\uffff\""},
        /* invalid UTF-8 (not producible by a parser): each bad byte becomes U+FFFD, like
         * Python's bytes.decode('utf-8', 'replace') for these */
        {"a\377b\303", "\"a\\ufffdb\\ufffd\""},
        {"\300\200\355\240\200", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *str = cJSON_CreateString(cases[i].in);
        char *s = str ? ct_json_dumps(str, -1) : NULL;
        CHECK_STR_EQ(s, cases[i].want);
        ct_free(s);
        cJSON_Delete(str);
    }
    /* keys are escaped the same way */
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "k\303\251\n", 1);
    char *s = ct_json_dumps(o, -1);
    CHECK_STR_EQ(s, "{\"k\\u00e9\\n\": 1}");
    ct_free(s);
    cJSON_Delete(o);
}

static void test_dumps_errors(void) {
    ct_error_clear();
    CHECK(ct_json_dumps(NULL, -1) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_dumps: item is NULL");

    cJSON *bad = cJSON_CreateNull();
    bad->type = cJSON_Invalid;
    CHECK(ct_json_dumps(bad, 2) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_dumps: item of invalid type 0");
    cJSON_Delete(bad);

    /* a member added to an object as if it were an array has no key */
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(o, cJSON_CreateTrue());
    CHECK(ct_json_dumps(o, -1) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_dumps: object member without a key");
    cJSON_Delete(o);

    /* deeper than the dump limit (only a hand-built tree can be: parsers stop at 1000) */
    cJSON *root = cJSON_CreateArray(), *cur = root;
    for (int i = 0; i < 10001 && cur; i++) {
        cJSON *a = cJSON_CreateArray();
        cJSON_AddItemToArray(cur, a);
        cur = a;
    }
    CHECK(ct_json_dumps(root, -1) == NULL);
    CHECK_ERROR(CT_ERR_RUNTIME, "maximum recursion depth exceeded while encoding a JSON object");
    cJSON_Delete(root);
}

static void test_parse_values(void) {
    cJSON *j = parse_str("{\"u\": \"\\u00e9\\u20ac\\ud83d\\ude00\\uD83D\\uDE00\", \"raw\": \"\303\251\","
                         " \"e\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"n\": [0, -0, 1.5e3, 1E-2, -12.25e+1, 1e999, 2147483648],"
                         " \"t\": true, \"f\": false, \"z\": null, \"Mixed\": 7}");
    CHECK(j != NULL);
    if (!j) return;
    CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "u")),
                 "\303\251\342\202\254\360\237\230\200\360\237\230\200");
    CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "raw")), "\303\251");
    CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "e")), "\"\\/\b\f\n\r\t");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "n");
    CHECK_INT_EQ(cJSON_GetArraySize(n), 7);
    CHECK(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 0)) == 0);
    CHECK(signbit(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 1))));
    CHECK(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 2)) == 1500);
    CHECK(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 3)) == 0.01);
    CHECK(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 4)) == -122.5);
    CHECK(isinf(cJSON_GetNumberValue(cJSON_GetArrayItem(n, 5)))); /* as Python's float('1e999') */
    CHECK_INT_EQ(cJSON_GetArrayItem(n, 2)->valueint, 1500);
    CHECK_INT_EQ(cJSON_GetArrayItem(n, 6)->valueint, 2147483647); /* valueint saturates */
    CHECK(cJSON_GetArrayItem(n, 7) == NULL);
    CHECK(cJSON_GetArrayItem(n, -1) == NULL);

    /* type predicates, each on one value of every kind */
    const cJSON *t = cJSON_GetObjectItem(j, "t"), *f = cJSON_GetObjectItem(j, "f"), *z = cJSON_GetObjectItem(j, "z");
    const cJSON *num = cJSON_GetArrayItem(n, 2), *str = cJSON_GetObjectItem(j, "raw");
    CHECK(cJSON_IsTrue(t) && cJSON_IsBool(t) && !cJSON_IsFalse(t) && !cJSON_IsNull(t));
    CHECK(cJSON_IsFalse(f) && cJSON_IsBool(f) && !cJSON_IsTrue(f));
    CHECK(cJSON_IsNull(z) && !cJSON_IsBool(z) && !cJSON_IsNumber(z));
    CHECK(cJSON_IsNumber(num) && !cJSON_IsString(num));
    CHECK(cJSON_IsString(str) && !cJSON_IsNumber(str));
    CHECK(cJSON_IsArray(n) && !cJSON_IsObject(n));
    CHECK(cJSON_IsObject(j) && !cJSON_IsArray(j));
    CHECK(!cJSON_IsNumber(NULL) && !cJSON_IsString(NULL) && !cJSON_IsBool(NULL) && !cJSON_IsNull(NULL));
    CHECK(cJSON_GetStringValue(num) == NULL);
    CHECK(isnan(cJSON_GetNumberValue(str)));
    /* GetObjectItem ignores ASCII case, the CaseSensitive one does not */
    CHECK(cJSON_GetObjectItem(j, "mixed") != NULL);
    CHECK(cJSON_GetObjectItem(j, "MIXED") != NULL);
    CHECK(cJSON_GetObjectItemCaseSensitive(j, "mixed") == NULL);
    CHECK(cJSON_GetObjectItemCaseSensitive(j, "Mixed") != NULL);
    CHECK(cJSON_GetObjectItem(j, "absent") == NULL);
    CHECK(cJSON_GetObjectItem(NULL, "t") == NULL);
    CHECK_INT_EQ(cJSON_GetArraySize(NULL), 0);
    /* members in document order, with their keys */
    const char *order[] = {"u", "raw", "e", "n", "t", "f", "z", "Mixed"};
    const cJSON *m;
    int k = 0;
    cJSON_ArrayForEach(m, j) {
        if (k < 8) CHECK_STR_EQ(m->string, order[k]);
        k++;
    }
    CHECK_INT_EQ(k, 8);
    cJSON_Delete(j);

    /* a top-level scalar, whitespace around it, and the byte order mark */
    j = parse_str(" \r\n\t\"top\" \n");
    CHECK_STR_EQ(cJSON_GetStringValue(j), "top");
    cJSON_Delete(j);
    j = parse_str("\357\273\277[1]");
    CHECK_INT_EQ(cJSON_GetArraySize(j), 1);
    cJSON_Delete(j);
    CHECK_INT_EQ(ct_error_code(), CT_OK); /* successful parses leave no error */
}

static void test_build_and_print(void) {
    cJSON *o = cJSON_CreateObject();
    CHECK(cJSON_AddStringToObject(o, "s", "v") != NULL);
    CHECK(cJSON_AddNumberToObject(o, "n", 0.25) != NULL);
    CHECK(cJSON_AddBoolToObject(o, "b", 1) != NULL);
    CHECK(cJSON_AddBoolToObject(o, "c", 0) != NULL);
    CHECK(cJSON_AddNullToObject(o, "z") != NULL);
    cJSON *inner = cJSON_AddObjectToObject(o, "o");
    cJSON *arr = cJSON_AddArrayToObject(inner, "a");
    CHECK(inner && arr);
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateString("x")));
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateFalse()));
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateTrue()));
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateNull()));
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateBool(1)));
    CHECK(cJSON_AddItemToArray(arr, cJSON_CreateArray()));
    CHECK(cJSON_AddItemToObject(o, "last", cJSON_CreateNumber(-7)));
    /* refusals leave ownership with the caller */
    cJSON *lonely = cJSON_CreateNull();
    CHECK(!cJSON_AddItemToObject(o, NULL, lonely));
    CHECK(!cJSON_AddItemToArray(NULL, lonely));
    CHECK(!cJSON_AddItemToArray(arr, NULL));
    CHECK(!cJSON_AddItemToArray(arr, arr));
    CHECK(cJSON_CreateString(NULL) == NULL);
    cJSON_Delete(lonely);
    /* the rest of cJSON's add/query functions that ctorch uses */
    CHECK(cJSON_AddTrueToObject(inner, "t") != NULL);
    CHECK(cJSON_AddFalseToObject(inner, "f") != NULL);
    CHECK(cJSON_HasObjectItem(inner, "T"));
    CHECK(!cJSON_HasObjectItem(inner, "absent"));
    char *s = ct_json_dumps(o, -1);
    CHECK_STR_EQ(s, "{\"s\": \"v\", \"n\": 0.25, \"b\": true, \"c\": false, \"z\": null, "
                    "\"o\": {\"a\": [\"x\", false, true, null, true, []], \"t\": true, \"f\": false}, \"last\": -7}");
    ct_free(s);
    CHECK_INT_EQ(cJSON_GetArraySize(o), 7);
    CHECK_INT_EQ(cJSON_GetArraySize(arr), 6);
    CHECK(cJSON_IsArray(cJSON_GetArrayItem(arr, 5)));
    cJSON_Delete(o);

    /* a raw item is already JSON text: ct_json_dumps copies it, as cJSON's printer does */
    cJSON *raw = cJSON_CreateRaw("[1,2]");
    CHECK(cJSON_IsRaw(raw) && !cJSON_IsString(raw));
    CHECK_STR_EQ(s = ct_json_dumps(raw, 2), "[1,2]");
    ct_free(s);
    CHECK_STR_EQ(s = cJSON_PrintUnformatted(raw), "[1,2]");
    cJSON_free(s);
    cJSON_Delete(raw);
    cJSON *inval = cJSON_CreateNull();
    inval->type = cJSON_Invalid;
    CHECK(cJSON_IsInvalid(inval) && !cJSON_IsInvalid(NULL));
    CHECK(cJSON_Print(inval) == NULL);
    cJSON_Delete(inval);
    /* cJSON_malloc / cJSON_free are a matching pair */
    char *mem = cJSON_malloc(16);
    CHECK(mem != NULL);
    cJSON_free(mem);
}

static void test_roundtrip(void) {
    /* dumps -> parse -> dumps is a fixed point, for every layout */
    static const int indents[] = {-1, 0, 1, 2, 4};
    for (size_t i = 0; i < sizeof indents / sizeof indents[0]; i++) {
        char *a = redump(DOC, indents[i]);
        char *b = a ? redump(a, indents[i]) : NULL;
        char *c = a ? redump(a, -1) : NULL;
        CHECK(a != NULL);
        CHECK_STR_EQ(b, a);
        CHECK_STR_EQ(c, DOC_INDENT_NONE); /* the layout does not change the content */
        ct_free(a);
        ct_free(b);
        ct_free(c);
    }
}

static void test_malformed(void) {
    /* Rejected by ct_json_parse, and (all but the last group) by cJSON_Parse too */
    static const char *bad[] = {
        "[", "{", "]", "}", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{1:2}", "{\"a\"}", "{,}",
        "\"abc", "\"\\", "[\"\\x\"]", "\"\\u12\"", "\"\\ud800\"", "\"\\ud800\\u0041\"",
        "\"\\udc00\"", "-", ".5", "+1", "[1e]", "[1e+]", "[-]", "tru", "nul", "fals", "nan", "NaN",
        "Infinity", "[1,,2]", "[,1]", "''", "{\"a\":1 \"b\":2}",
        /* trailing data: cJSON_Parse stops after the value, only ct_json_parse refuses */
        NULL, "[1] x", "{}}", "1 2", "nulll", "[1]\0", "\"a\"\"b\"",
    };
    int group = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!bad[i]) {
            group = 1;
            continue;
        }
        size_t len = strlen(bad[i]) + (strcmp(bad[i], "[1]") == 0); /* "[1]\0": the NUL counts */
        cJSON *j = ct_json_parse(bad[i], len);
        CHECK_MSG(j == NULL, "ct_json_parse accepted [%s]", bad[i]);
        CHECK_MSG(ct_error_code() == CT_ERR_VALUE, "[%s]: error %d", bad[i], (int)ct_error_code());
        cJSON_Delete(j);
        if (group == 0) {
            j = cJSON_Parse(bad[i]);
            CHECK_MSG(j == NULL, "cJSON_Parse accepted [%s]", bad[i]);
            cJSON_Delete(j);
        }
    }
    /* Python's messages */
    CHECK(parse_str("[1] x") == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "Extra data: line 1 column 5 (char 4)");
    CHECK(parse_str("[1]\n\n  x") == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "Extra data: line 3 column 3 (char 7)");
    CHECK(parse_str("") == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "Expecting value: line 1 column 1 (char 0)");
    CHECK(parse_str("  ") == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "Expecting value: line 1 column 3 (char 2)");
    CHECK(ct_json_parse(NULL, 3) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_parse: text is NULL");
    CHECK(cJSON_Parse(NULL) == NULL);
    CHECK(cJSON_Parse("") == NULL);

    /* Every proper prefix of a valid document is invalid. Each prefix sits in a heap block of
     * exactly its length, so ASan reports any read past the given length. */
    size_t n = strlen(SMALL);
    int accepted = 0;
    for (size_t k = 0; k < n; k++) {
        char *buf = malloc(k ? k : 1);
        if (!buf) break;
        memcpy(buf, SMALL, k);
        cJSON *j = ct_json_parse(buf, k);
        cJSON *j2 = cJSON_ParseWithLength(buf, k);
        accepted += (j != NULL) + (j2 != NULL);
        cJSON_Delete(j);
        cJSON_Delete(j2);
        free(buf);
    }
    CHECK_INT_EQ(accepted, 0);
    char *whole = malloc(n);
    if (whole) {
        memcpy(whole, SMALL, n);
        cJSON *j = ct_json_parse(whole, n);
        CHECK(j != NULL);
        cJSON_Delete(j);
        free(whole);
    }
}

/* depth nested arrays (or objects {"a":...}) around 0. */
static char *nested(int depth, int objects) {
    char *s = malloc((size_t)depth * 6 + 2), *p = s;
    if (!s) return NULL;
    for (int i = 0; i < depth; i++) p += sprintf(p, "%s", objects ? "{\"a\":" : "[");
    *p++ = '0';
    for (int i = 0; i < depth; i++) *p++ = objects ? '}' : ']';
    *p = '\0';
    return s;
}

static void test_depth(void) {
    /* CJSON_NESTING_LIMIT levels parse, one more does not (same limit in both backends) */
    CHECK_INT_EQ(CJSON_NESTING_LIMIT, 1000);
    for (int objects = 0; objects <= 1; objects++) {
        char *ok = nested(CJSON_NESTING_LIMIT, objects), *deep = nested(CJSON_NESTING_LIMIT + 1, objects);
        cJSON *j = ok ? parse_str(ok) : NULL;
        CHECK(j != NULL);
        char *s = j ? ct_json_dumps(j, -1) : NULL; /* and they print back unchanged */
        if (objects) {
            /* "{"a": {"a": ...": the separator gains a space */
            CHECK(s != NULL && strlen(s) == strlen(ok) + CJSON_NESTING_LIMIT);
        } else
            CHECK_STR_EQ(s, ok);
        ct_free(s);
        cJSON_Delete(j);
        CHECK(deep && parse_str(deep) == NULL);
        CHECK(deep && cJSON_Parse(deep) == NULL);
        free(ok);
        free(deep);
    }
    /* far deeper: rejected without exhausting the stack */
    size_t n = 1000000;
    char *s = malloc(n + 1);
    if (s) {
        memset(s, '[', n);
        s[n] = '\0';
        CHECK(parse_str(s) == NULL);
        free(s);
    }
}

static void test_files(void) {
    char path[4096], tmp[4200], missing[4096];
    snprintf(path, sizeof path, "%s/test_json_atomic.json", CT_BINARY_DIR);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    snprintf(missing, sizeof missing, "%s/ct_no_such_dir/x.json", CT_BINARY_DIR);

    CHECK_INT_EQ(ct_json_write_file_atomic(path, "{\"first\": 1}"), 0);
    char *got = ct_test_read_file(path, NULL);
    CHECK_STR_EQ(got, "{\"first\": 1}");
    free(got);
    /* replacing a longer file with a shorter one leaves nothing of the old one */
    CHECK_INT_EQ(ct_json_write_file_atomic(path, "[2]"), 0);
    got = ct_test_read_file(path, NULL);
    CHECK_STR_EQ(got, "[2]");
    free(got);
    CHECK(access(tmp, F_OK) != 0); /* no temporary left behind */
    cJSON *j = ct_json_parse_file(path);
    CHECK_INT_EQ(cJSON_GetArraySize(j), 1);
    cJSON_Delete(j);

    /* the text of dumps, written and read back */
    cJSON *doc = parse_str(DOC);
    char *text = doc ? ct_json_dumps(doc, 2) : NULL;
    CHECK(text && ct_json_write_file_atomic(path, text) == 0);
    j = ct_json_parse_file(path);
    char *again = j ? ct_json_dumps(j, 2) : NULL;
    CHECK_STR_EQ(again, text);
    ct_free(again);
    ct_free(text);
    cJSON_Delete(j);
    cJSON_Delete(doc);

    char msg[4300];
    snprintf(msg, sizeof msg, "[Errno 2] No such file or directory: '%s'", missing);
    CHECK_INT_EQ(ct_json_write_file_atomic(missing, "{}"), -1);
    CHECK_ERROR(CT_ERR_IO, msg);
    CHECK(ct_json_parse_file(missing) == NULL);
    CHECK_ERROR(CT_ERR_IO, msg);
    CHECK_INT_EQ(ct_json_write_file_atomic(NULL, "{}"), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_write_file_atomic: path is NULL");
    CHECK_INT_EQ(ct_json_write_file_atomic(path, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_write_file_atomic: text is NULL");
    /* rename() over a directory fails after the temporary was written: it must be removed */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/test_json_dir", CT_BINARY_DIR);
    rmdir(dir);
    CHECK(mkdir(dir, 0777) == 0);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dir, (long)getpid());
    snprintf(msg, sizeof msg, "[Errno %d] %s: '%s'", EISDIR, strerror(EISDIR), dir);
    CHECK_INT_EQ(ct_json_write_file_atomic(dir, "{}"), -1);
    CHECK_ERROR(CT_ERR_IO, msg);
    CHECK(access(tmp, F_OK) != 0);
    CHECK(ct_json_parse_file(dir) == NULL); /* fopen works on a directory, reading does not */
    CHECK_ERROR(CT_ERR_IO, msg);
    CHECK(ct_json_parse_file(NULL) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "ct_json_parse_file: path is NULL");
    rmdir(dir);
    /* a file that is not JSON */
    CHECK_INT_EQ(ct_json_write_file_atomic(path, "{\"a\": 1} trailing"), 0);
    CHECK(ct_json_parse_file(path) == NULL);
    CHECK_ERROR(CT_ERR_VALUE, "Extra data: line 1 column 10 (char 9)");
    unlink(path);
}

/* Builds {"s": "v\u00e9", "n": 1.5, "b": true, "z": null, "a": [0, 1, 2], "o": {"e": []}}
 * through the constructors, freeing everything on any failure. */
static cJSON *build_small(void) {
    cJSON *root = cJSON_CreateObject(), *a, *o;
    if (!root) return NULL;
    if (!cJSON_AddStringToObject(root, "s", "v\303\251") || !cJSON_AddNumberToObject(root, "n", 1.5) ||
        !cJSON_AddBoolToObject(root, "b", 1) || !cJSON_AddNullToObject(root, "z") ||
        !(a = cJSON_AddArrayToObject(root, "a")))
        goto fail;
    for (int i = 0; i < 3; i++) {
        cJSON *v = cJSON_CreateNumber(i);
        if (!v) goto fail;
        cJSON_AddItemToArray(a, v);
    }
    if (!(o = cJSON_CreateObject())) goto fail;
    if (!cJSON_AddItemToObject(root, "o", o)) {
        cJSON_Delete(o);
        goto fail;
    }
    if (!cJSON_AddArrayToObject(o, "e")) goto fail;
    return root;
fail:
    cJSON_Delete(root);
    return NULL;
}

/* Fails the 1st, 2nd, ... allocation of an operation until it gets through: every failure
 * must come back as NULL/-1 with CT_ERR_NOMEM, and ASan checks nothing leaks. Fault injection
 * routes cJSON's allocations through ct_malloc, so the parser's and the constructors' can be
 * failed as well as ctorch's own (dumps, file I/O). */
static void test_alloc_failures(void) {
    int wrong_error = 0, done = 0, n, parse_failures = 0, build_failures = 0;

    /* the very next allocation, made by cJSON itself, fails */
    ct_error_clear();
    ct_testing_fail_alloc_after(1);
    cJSON *none = cJSON_CreateObject();
    ct_testing_fail_alloc_after(0);
    CHECK(none == NULL);
    CHECK_INT_EQ(ct_error_code(), CT_ERR_NOMEM);
    cJSON_Delete(none);

    for (n = 1; n < 100000 && !done; n++) { /* parse + dumps + cJSON_Print */
        ct_error_clear();
        ct_testing_fail_alloc_after(n);
        cJSON *j = ct_json_parse(SMALL, strlen(SMALL));
        char *s = j ? ct_json_dumps(j, 2) : NULL;
        char *p = s ? cJSON_PrintUnformatted(j) : NULL;
        ct_testing_fail_alloc_after(0);
        if (!j || !s) wrong_error += ct_error_code() != CT_ERR_NOMEM;
        parse_failures += j == NULL;
        if (p) {
            CHECK_STR_EQ(s, SMALL_INDENT_2);
            done = 1;
        }
        cJSON_free(p);
        ct_free(s);
        cJSON_Delete(j);
    }
    CHECK_MSG(done, "parse/dumps never succeeded under fault injection");
    /* SMALL has 13 values, 6 keys and 2 strings, each allocated by the parser */
    CHECK_MSG(parse_failures >= 21, "only %d failed parses: cJSON's allocations are not failed", parse_failures);

    for (n = 1, done = 0; n < 100000 && !done; n++) { /* constructors + dumps */
        ct_error_clear();
        ct_testing_fail_alloc_after(n);
        cJSON *j = build_small();
        char *s = j ? ct_json_dumps(j, -1) : NULL;
        ct_testing_fail_alloc_after(0);
        if (!s) wrong_error += ct_error_code() != CT_ERR_NOMEM;
        build_failures += j == NULL;
        if (s) {
            CHECK_STR_EQ(s, "{\"s\": \"v\\u00e9\", \"n\": 1.5, \"b\": true, \"z\": null, \"a\": [0, 1, 2], \"o\": {\"e\": []}}");
            done = 1;
        }
        ct_free(s);
        cJSON_Delete(j);
    }
    CHECK(done);
    printf("allocation failures injected: %d while parsing, %d while building\n", parse_failures, build_failures);
    /* build_small makes 12 items, 6 keys and 1 string */
    CHECK_MSG(build_failures >= 19, "only %d failed builds: cJSON's allocations are not failed", build_failures);

    char path[4096];
    snprintf(path, sizeof path, "%s/test_json_alloc.json", CT_BINARY_DIR);
    for (n = 1, done = 0; n < 1000 && !done; n++) { /* write */
        ct_error_clear();
        ct_testing_fail_alloc_after(n);
        int rc = ct_json_write_file_atomic(path, SMALL);
        ct_testing_fail_alloc_after(0);
        if (rc != 0) wrong_error += ct_error_code() != CT_ERR_NOMEM;
        done = rc == 0;
    }
    CHECK(done);
    for (n = 1, done = 0; n < 1000 && !done; n++) { /* read back */
        ct_error_clear();
        ct_testing_fail_alloc_after(n);
        cJSON *j = ct_json_parse_file(path);
        ct_testing_fail_alloc_after(0);
        if (!j) wrong_error += ct_error_code() != CT_ERR_NOMEM;
        done = j != NULL;
        cJSON_Delete(j);
    }
    CHECK(done);
    CHECK_MSG(n > 2, "reading the file never failed an allocation");
    unlink(path);
    CHECK_INT_EQ(wrong_error, 0);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    test_golden_file();
    test_dumps_matches_python();
    test_dumps_numbers();
    test_dumps_strings();
    test_dumps_errors();
    test_parse_values();
    test_build_and_print();
    test_roundtrip();
    test_malformed();
    test_depth();
    test_files();
    test_alloc_failures();
    return ct_test_finish("test_json");
}
