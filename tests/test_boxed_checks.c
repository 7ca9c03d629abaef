/* The boxed call checks its caller: every case of tests/golden/torch-2.6/boxed_checks.json (a
 * wrong value in each kind of schema position, None where a Tensor belongs, too few or too
 * many arguments) replayed through ct_op_fill_defaults and ct_call, against what torch.ops
 * said; plus the C caller's own mistakes (NULL op or arrays, a tag that is no ct_tag, a list
 * with a negative length). Nothing may leak or crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "util/json.h"

#define CT_MAX_OP_ARGS_TEST 16

/* "0x7f..." -> "0x?" (object addresses differ from run to run) */
static void strip_addresses(const char *in, char *out, size_t size) {
    size_t o = 0;
    for (const char *p = in; *p && o + 4 < size;) {
        if (p[0] == '0' && p[1] == 'x' && ((p[2] >= '0' && p[2] <= '9') || (p[2] >= 'a' && p[2] <= 'f'))) {
            memcpy(out + o, "0x?", 3);
            o += 3;
            p += 2;
            while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) p++;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
}

typedef struct built {
    ct_tensor *tensors[CT_MAX_OP_ARGS_TEST];
    ct_generator *gens[CT_MAX_OP_ARGS_TEST];
    int64_t lists[CT_MAX_OP_ARGS_TEST][8];
    int nt, ng;
} built;

static int build_value(const cJSON *spec, ct_value *v, built *b, int slot) {
    const cJSON *kv = spec->child;
    if (!kv) return -1;
    const char *kind = kv->string;
    if (strcmp(kind, "tensor") == 0) {
        const cJSON *vals = cJSON_GetObjectItem(kv, "values"), *sz = cJSON_GetObjectItem(kv, "sizes");
        double data[16];
        int64_t sizes[4];
        int n = cJSON_GetArraySize(vals), nd = cJSON_GetArraySize(sz);
        for (int i = 0; i < n && i < 16; i++) data[i] = cJSON_GetArrayItem(vals, i)->valuedouble;
        for (int i = 0; i < nd && i < 4; i++) sizes[i] = (int64_t)cJSON_GetArrayItem(sz, i)->valuedouble;
        ct_tensor *t = ct_tensor_from_doubles(data, sizes, nd, CT_FLOAT32);
        if (!t) return -1;
        b->tensors[b->nt++] = t;
        *v = ct_tensor_value(t);
    } else if (strcmp(kind, "int") == 0) {
        *v = ct_int((int64_t)kv->valuedouble);
    } else if (strcmp(kind, "float") == 0) {
        *v = ct_double(kv->valuedouble);
    } else if (strcmp(kind, "bool") == 0) {
        *v = ct_bool(cJSON_IsTrue(kv));
    } else if (strcmp(kind, "ints") == 0) {
        int n = cJSON_GetArraySize(kv);
        for (int i = 0; i < n && i < 8; i++) b->lists[slot][i] = (int64_t)cJSON_GetArrayItem(kv, i)->valuedouble;
        *v = ct_intlist(b->lists[slot], n);
    } else if (strcmp(kind, "none") == 0) {
        *v = ct_none();
    } else if (strcmp(kind, "str") == 0) {
        *v = ct_string(kv->valuestring);
    } else if (strcmp(kind, "generator") == 0) {
        ct_generator *g = ct_generator_new();
        if (!g) return -1;
        b->gens[b->ng++] = g;
        *v = ct_generator_value(g);
    } else if (strcmp(kind, "device") == 0) {
        v->tag = CT_TAG_DEVICE;
        v->u.i = 0;
    } else {
        return -1;
    }
    return 0;
}

static void built_free(built *b) {
    for (int i = 0; i < b->nt; i++) ct_tensor_release(b->tensors[i]);
    for (int i = 0; i < b->ng; i++) ct_generator_release(b->gens[i]);
}

/* What the check says when ctorch's typed values refuse a conversion torch.ops makes: the
 * same form as PyTorch's type errors. */
static int refused_by_check(const ct_op *op, const char *msg) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s() Expected a value of type '", ct_op_base_name(op));
    return strncmp(msg, prefix, strlen(prefix)) == 0 && strstr(msg, "\nDeclaration: ") != NULL;
}

/* PyTorch refused the value while converting it (rather than a kernel after converting it) */
static int torch_type_error(const char *msg) {
    return strstr(msg, "Expected a value of type") || strstr(msg, "Expected a proper Tensor") ||
           strstr(msg, "is missing value for argument") || strstr(msg, "expected at most") ||
           strstr(msg, "device type at start of device string");
}

static int n_same, n_kernel_typed, n_accepted_ran, n_accepted_typed, n_accepted_limit;

static void replay(const cJSON *c) {
    const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
    const ct_op *op = ct_op_find(cJSON_GetObjectItem(c, "op")->valuestring);
    CHECK_MSG(op != NULL, "%s: no op", name);
    if (!op) return;
    const cJSON *args = cJSON_GetObjectItem(c, "args"), *err = cJSON_GetObjectItem(c, "error");
    int n_given = (int)cJSON_GetObjectItem(c, "n_given")->valuedouble;
    ct_value a[CT_MAX_OP_ARGS_TEST + 4], r[4];
    for (int i = 0; i < 4; i++) r[i] = ct_none();
    built b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < n_given; i++)
        if (build_value(cJSON_GetArrayItem(args, i), &a[i], &b, i) != 0) {
            CHECK_MSG(0, "%s: cannot build argument %d", name, i);
            built_free(&b);
            return;
        }
    ct_error_clear();
    int rc = ct_op_fill_defaults(op, a, n_given);
    if (rc == 0) rc = ct_call(op, a, r);
    char got[2048];
    strip_addresses(ct_error_message(), got, sizeof got);
    if (err) {
        const char *want_type = cJSON_GetObjectItem(err, "type")->valuestring;
        const char *want = cJSON_GetObjectItem(err, "message")->valuestring;
        int same = rc == -1 && strcmp(got, want) == 0 && strcmp(ct_error_kind_name(ct_error_code()), want_type) == 0;
        if (same) {
            n_same++;
        } else if (rc == -1 && !torch_type_error(want) && refused_by_check(op, got)) {
            /* Python converted the value (3 for a bool, a tensor for a size list) and a kernel
             * refused it; ctorch's typed values stop at the conversion */
            n_kernel_typed++;
        } else {
            CHECK_MSG(rc == -1, "%s: ctorch accepted what PyTorch refused (%s)", name, want);
            CHECK_MSG(0, "%s: %s\n   got: [%s]\n  want: %s [%s]", name, ct_error_kind_name(ct_error_code()), got,
                      want_type, want);
        }
    } else if (rc == 0) {
        n_accepted_ran++;
    } else if (refused_by_check(op, got)) {
        n_accepted_typed++;
    } else {
        /* a value PyTorch takes and ctorch has no kernel for (a dtype or layout it lacks) */
        CHECK_MSG(strstr(got, "ctorch") != NULL, "%s: PyTorch ran this; ctorch failed otherwise: %s", name, got);
        n_accepted_limit++;
    }
    ct_values_release(r, 4);
    built_free(&b);
    ct_error_clear();
}

/* the C caller's own mistakes, which Python cannot make */
static void c_mistakes(void) {
    const ct_op *add = ct_op_find("aten::add.Tensor"), *view = ct_op_find("aten::view");
    int64_t two = 2;
    ct_tensor *x = ct_ones(&two, 1, CT_DTYPE_UNDEFINED);
    ct_value a[3] = {ct_tensor_value(x), ct_tensor_value(x), ct_int(1)}, r[1] = {ct_none()};
    CHECK_INT_EQ(ct_call(NULL, a, r), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_call: op is NULL");
    CHECK_INT_EQ(ct_call(add, NULL, r), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_call: args is NULL (aten::add.Tensor takes 3)");
    CHECK_INT_EQ(ct_call(add, a, NULL), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_call: rets is NULL (aten::add.Tensor returns 1)");
    /* a tag that is no ct_tag (uninitialised memory, say) */
    ct_value bad = ct_int(0);
    memset(&bad.tag, 0x5a, sizeof bad.tag);
    a[1] = bad;
    CHECK_INT_EQ(ct_call(add, a, r), -1);
    char want[1024];
    snprintf(want, sizeof want,
             "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'invalid ct_value'.\n"
             "Position: 1\nValue: <ct_value with invalid tag %d>\nDeclaration: aten::add.Tensor(Tensor self, Tensor other, *, "
             "Scalar alpha=1) -> Tensor\nCast error details: a ct_value's tag must be a ct_tag (0 to %d)",
             (int)bad.tag, (int)CT_TAG_TENSORLIST);
    CHECK_ERROR(CT_ERR_RUNTIME, want);
    /* a TENSOR tag holding NULL is None */
    a[1].tag = CT_TAG_TENSOR;
    a[1].u.t = NULL;
    CHECK_INT_EQ(ct_call(add, a, r), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 'other'");
    /* lists whose length cannot be right */
    ct_value v[2] = {ct_tensor_value(x), ct_intlist(NULL, 2)};
    CHECK_INT_EQ(ct_call(view, v, r), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_call: argument 'size' of aten::view is a list of 2 ints at NULL");
    v[1] = ct_intlist(&two, -1);
    CHECK_INT_EQ(ct_call(view, v, r), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_call: argument 'size' of aten::view is a list of -1 ints at a valid address");
    /* a string that needs Python's escapes in the Value line */
    a[1] = ct_string("it's\n");
    CHECK_INT_EQ(ct_call(add, a, r), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "aten::add() Expected a value of type 'Tensor' for argument 'other' but instead found type 'str'.\n"
                                "Position: 1\nValue: \"it's\\n\"\nDeclaration: aten::add.Tensor(Tensor self, Tensor other, *, "
                                "Scalar alpha=1) -> Tensor\nCast error details: Unable to cast it's\n to Tensor");
    /* ct_op_fill_defaults' own arguments */
    CHECK_INT_EQ(ct_op_fill_defaults(add, a, -1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_op_fill_defaults: n_given is -1");
    /* the right values still run */
    a[1] = ct_tensor_value(x);
    CHECK_INT_EQ(ct_call(add, a, r), 0);
    ct_values_release(r, 1);
    ct_tensor_release(x);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/boxed_checks.json"));
    CHECK(root != NULL);
    if (!root) return ct_test_finish("test_boxed_checks");
    /* one call first: the registry and its lazily made tables */
    c_mistakes();
    int64_t live = ct_testing_live_tensors();
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, root) {
        replay(c);
        n++;
        CHECK_MSG(ct_testing_live_tensors() == live, "%s leaked tensors", cJSON_GetObjectItem(c, "name")->valuestring);
    }
    cJSON_Delete(root);
    printf("boxed checks: %d recorded cases: %d refused with PyTorch's own error; %d that PyTorch converted and a kernel "
           "refused, refused by ctorch's typed check; %d that PyTorch ran: ctorch ran %d, refused %d (typed), lacks %d\n",
           n, n_same, n_kernel_typed, n_accepted_ran + n_accepted_typed + n_accepted_limit, n_accepted_ran,
           n_accepted_typed, n_accepted_limit);
    CHECK(n >= 180);
    return ct_test_finish("test_boxed_checks");
}
