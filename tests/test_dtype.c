/* The dtype table (Note [The dtype table] in include/ctorch/dtype.h) against PyTorch 2.6's
 * answers (tests/golden/torch-2.6/dtype_facts.json, recorded by tests/golden/record/
 * dtype_facts.py): each row's ScalarType number, names, size, category, signedness, limits and
 * type names, the rows of the dtypes ctorch lacks, torch.promote_types and torch.can_cast over
 * every pair, and the messages that name a dtype as the library writes them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/dtype_impl.h"
#include "ctorch/ctorch.h"
#include "ctorch/json.h"
#include "harness.h"

typedef struct row {
    ct_dtype d;
    int scalar_type;
    const char *c10_name, *name, *alias;
    size_t size;
    ct_dtype_kind kind;
    bool reduced, is_signed;
    int digits;
    double max;
    const char *type_meta, *cpp_name, *legacy_type, *message_type;
} row;

static const row rows[] = {
#define ROW_(e, n, c10, name, alias, size, kind, reduced, sgn, digits, max, opmath, meta, cpp, legacy, msg) \
    {e, n, c10, name, alias, size, kind, reduced, sgn, digits, max, meta, cpp, legacy, msg},
    CT_DTYPE_TABLE(ROW_)
#undef ROW_
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

typedef struct absent_row {
    int scalar_type;
    const char *name, *alias;
    size_t size;
    ct_dtype_kind kind;
    bool is_signed;
    const char *legacy_type;
} absent_row;

static const absent_row absent[] = {
#define ABSENT_(n, name, alias, size, kind, sgn, legacy) {n, name, alias, size, kind, sgn, legacy},
    CT_DTYPE_ABSENT_TABLE(ABSENT_)
#undef ABSENT_
};
#define N_ABSENT ((int)(sizeof absent / sizeof absent[0]))

static const char *str_of(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}
static double num_of(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}
static int bool_of(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

/* torch's names of the dtype (name and alias) are the recorded ones, no more, no fewer */
static void check_names(const char *what, const cJSON *f, const char *name, const char *alias) {
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(f, "names");
    int n = cJSON_GetArraySize(names), found = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, names) {
        if (cJSON_IsString(it) && (strcmp(it->valuestring, name) == 0 || (alias && strcmp(it->valuestring, alias) == 0)))
            found++;
    }
    CHECK_MSG(n == (alias ? 2 : 1) && found == n, "%s: torch has %d names for it, %d of them the table's %s and %s", what,
              n, found, name, alias ? alias : "(no alias)");
}

/* The category PyTorch implies: complex and floating dtypes say so; torch.iinfo takes the
 * integral ones (the recording has its bits), not bool. */
static ct_dtype_kind recorded_kind(const cJSON *f) {
    if (bool_of(f, "is_complex") == 1) return CT_DTYPE_KIND_COMPLEX;
    if (bool_of(f, "is_floating_point") == 1) return CT_DTYPE_KIND_FLOATING;
    return cJSON_GetObjectItemCaseSensitive(f, "bits") ? CT_DTYPE_KIND_INTEGRAL : CT_DTYPE_KIND_BOOL;
}

static void check_row(const cJSON *dtypes, const row *r) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(dtypes, r->name);
    CHECK_MSG(f != NULL, "%s: not in the recording", r->name);
    if (!f) return;
    CHECK_INT_EQ(r->d, r->scalar_type);
    CHECK_INT_EQ(num_of(f, "scalar_type"), r->scalar_type);
    CHECK(ct_dtype_valid(r->scalar_type));
    CHECK_STR_EQ(ct_dtype_python_name(r->d), str_of(f, "str"));
    check_names(r->name, f, r->name, r->alias);
    CHECK_INT_EQ(num_of(f, "itemsize"), r->size);
    CHECK_INT_EQ(num_of(f, "element_size"), ct_dtype_size(r->d));
    CHECK_INT_EQ(ct_dtype_size(r->d), r->size);
    CHECK_INT_EQ(bool_of(f, "is_floating_point"), ct_dtype_is_floating(r->d));
    CHECK_INT_EQ(bool_of(f, "is_signed"), ct_dtype_is_signed(r->d));
    CHECK_INT_EQ(bool_of(f, "is_complex"), 0);
    CHECK_INT_EQ(recorded_kind(f), ct_dtype_kind_of(r->d));
    CHECK_INT_EQ(ct_dtype_is_integral(r->d, false), r->kind == CT_DTYPE_KIND_INTEGRAL);
    CHECK_INT_EQ(ct_dtype_is_integral(r->d, true), r->kind != CT_DTYPE_KIND_FLOATING);
    CHECK_STR_EQ(ct_dtype_legacy_type_name(r->d), str_of(f, "legacy_type"));
    CHECK_STR_EQ(ct_dtype_message_type(r->d), str_of(f, "message_type"));
    CHECK_STR_EQ(ct_dtype_name(r->d), str_of(f, "c10_name"));
    CHECK_STR_EQ(ct_dtype_type_meta_name(r->d), str_of(f, "type_meta"));
    /* numeric_limits: max() is finfo's / iinfo's max; digits is the significand's bits
     * (1 - log2(eps)) of a float, the value bits of an integer */
    if (r->kind == CT_DTYPE_KIND_FLOATING) {
        CHECK_MSG(ct_dtype_max(r->d) == num_of(f, "max"), "%s: max %.17g, torch.finfo says %.17g", r->name,
                  ct_dtype_max(r->d), num_of(f, "max"));
        CHECK_INT_EQ(ct_dtype_digits(r->d), 1.0 - log2(num_of(f, "eps")));
    } else if (r->kind == CT_DTYPE_KIND_INTEGRAL) {
        CHECK_MSG(ct_dtype_max(r->d) == num_of(f, "max"), "%s: max %.17g, torch.iinfo says %.17g", r->name,
                  ct_dtype_max(r->d), num_of(f, "max"));
        CHECK_INT_EQ(ct_dtype_digits(r->d), num_of(f, "bits") - (r->is_signed ? 1 : 0));
    }
    /* a 16-bit float is a reduced one, and computes in float32 (at::opmath_type) */
    CHECK_INT_EQ(ct_dtype_is_reduced_floating(r->d), r->kind == CT_DTYPE_KIND_FLOATING && r->size == 2);
    CHECK_INT_EQ(ct_dtype_opmath(r->d), ct_dtype_is_reduced_floating(r->d) ? CT_FLOAT32 : r->d);
}

/* the table's dtypes in the messages the library writes, as PyTorch wrote them */
static void check_messages(const cJSON *dtypes, const row *r) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(dtypes, r->name);
    if (!f) return;
    int64_t s2[2] = {2, 2}, one = 1, two = 2;
    ct_tensor *t = ct_ones_opts(s2, 2, (ct_tensor_options){.dtype = r->d, .has_dtype = true});
    CHECK(t != NULL);
    if (!t) return;
    char want[256];
    /* fill_(1e300): "value cannot be converted to type at::Half without overflow", or no error */
    ct_tensor *o = ct_ones_opts(&one, 1, (ct_tensor_options){.dtype = r->d, .has_dtype = true});
    const char *ov = str_of(f, "overflow_type");
    int rc = ct_fill_(o, ct_double(1e300));
    if (ov) {
        snprintf(want, sizeof want, "value cannot be converted to type %s without overflow", ov);
        CHECK_INT_EQ(rc, -1);
        CHECK_ERROR(CT_ERR_RUNTIME, want);
    } else {
        CHECK_MSG(rc == 0, "%s: fill_(1e300) failed (%s); PyTorch fills", r->name, ct_error_message());
    }
    ct_tensor_release(o);
    /* expand(2): the message names the tensor's type */
    CHECK(ct_expand(t, &two, 1, false) == NULL);
    snprintf(want, sizeof want,
             "expand(%s{[2, 2]}, size=[2]): the number of sizes provided (1) must be greater or equal to the number of "
             "dimensions in the tensor (2)",
             str_of(f, "message_type"));
    CHECK_ERROR(CT_ERR_RUNTIME, want);
    /* mm with another dtype: TypeMeta names */
    ct_dtype other = r->d == CT_FLOAT64 ? CT_FLOAT32 : CT_FLOAT64;
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(dtypes, other == CT_FLOAT64 ? "float64" : "float32");
    ct_tensor *u = ct_ones_opts(s2, 2, (ct_tensor_options){.dtype = other});
    CHECK(ct_mm(t, u) == NULL);
    snprintf(want, sizeof want, "expected m1 and m2 to have the same dtype, but got: %s != %s", str_of(f, "type_meta"),
             str_of(of, "type_meta"));
    CHECK_ERROR(CT_ERR_RUNTIME, want);
    ct_tensor_release(u);
    /* an in-place bool result: "result type Long can't be cast to the desired output type Bool" */
    if (r->d != CT_BOOL) {
        ct_tensor *b = ct_ones_opts(s2, 2, (ct_tensor_options){.dtype = CT_BOOL});
        const cJSON *bf = cJSON_GetObjectItemCaseSensitive(dtypes, "bool");
        CHECK_INT_EQ(ct_add_(b, t, ct_int(1)), -1);
        snprintf(want, sizeof want, "result type %s can't be cast to the desired output type %s", str_of(f, "c10_name"),
                 str_of(bf, "c10_name"));
        CHECK_ERROR(CT_ERR_RUNTIME, want);
        ct_tensor_release(b);
    }
    ct_tensor_release(t);
}

static void check_absent(const cJSON *dtypes, const absent_row *a) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(dtypes, a->name);
    CHECK_MSG(f != NULL, "%s: not in the recording", a->name);
    if (!f) return;
    CHECK_INT_EQ(num_of(f, "scalar_type"), a->scalar_type);
    CHECK(!ct_dtype_valid(a->scalar_type));
    check_names(a->name, f, a->name, a->alias);
    CHECK_INT_EQ(num_of(f, "itemsize"), a->size);
    CHECK_INT_EQ(recorded_kind(f), a->kind);
    CHECK_INT_EQ(bool_of(f, "is_signed"), a->is_signed);
    CHECK_STR_EQ(a->legacy_type, str_of(f, "legacy_type"));
    /* and ctorch answers for it as for no dtype */
    CHECK_INT_EQ(ct_dtype_size((ct_dtype)a->scalar_type), 0);
    CHECK_STR_EQ(ct_dtype_name((ct_dtype)a->scalar_type), "UNKNOWN_SCALAR");
}

static const row *row_named(const char *name) {
    for (int i = 0; i < N_ROWS; i++)
        if (strcmp(rows[i].name, name) == 0) return &rows[i];
    return NULL;
}

static void check_pairs(const cJSON *rec) {
    const cJSON *promote = cJSON_GetObjectItemCaseSensitive(rec, "promote_types");
    const cJSON *cast = cJSON_GetObjectItemCaseSensitive(rec, "can_cast");
    int pairs = 0;
    for (int i = 0; i < N_ROWS; i++) {
        for (int j = 0; j < N_ROWS; j++) {
            const row *a = &rows[i], *b = &rows[j];
            const cJSON *pa = cJSON_GetObjectItemCaseSensitive(promote, a->name);
            const char *want = str_of(pa, b->name);
            const row *w = want ? row_named(want) : NULL;
            CHECK_MSG(w != NULL, "promote_types(%s, %s): %s is not recorded or no dtype of the table", a->name, b->name,
                      want ? want : "it");
            if (w)
                CHECK_MSG(ct_dtype_promote(a->d, b->d) == w->d, "promote_types(%s, %s) is %s, ctorch says %s", a->name,
                          b->name, want, ct_dtype_python_name(ct_dtype_promote(a->d, b->d)));
            int can = bool_of(cJSON_GetObjectItemCaseSensitive(cast, a->name), b->name);
            CHECK_MSG(can == ct_dtype_can_cast(a->d, b->d), "can_cast(%s, %s) is %d, ctorch says %d", a->name, b->name,
                      can, ct_dtype_can_cast(a->d, b->d));
            pairs++;
        }
    }
    CHECK_INT_EQ(pairs, N_ROWS * N_ROWS);
}

/* what ctorch answers for a value that is no dtype (its own, no PyTorch recording) */
static void check_invalid(void) {
    int bad[] = {CT_DTYPE_UNDEFINED, 8, 9, 12, 16, 100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ct_dtype d = (ct_dtype)bad[i];
        CHECK(!ct_dtype_valid(bad[i]));
        CHECK_INT_EQ(ct_dtype_size(d), 0);
        CHECK_STR_EQ(ct_dtype_name(d), "UNKNOWN_SCALAR");
        CHECK_STR_EQ(ct_dtype_python_name(d), "torch.undefined");
        CHECK_STR_EQ(ct_dtype_type_meta_name(d), "nullptr (uninitialized)");
        CHECK_STR_EQ(ct_dtype_legacy_type_name(d), "torch.Tensor");
        CHECK_STR_EQ(ct_dtype_message_type(d), "UndefinedType");
        CHECK(!ct_dtype_is_floating(d) && !ct_dtype_is_signed(d) && !ct_dtype_is_reduced_floating(d));
        CHECK_INT_EQ(ct_dtype_promote(d, CT_FLOAT32), CT_DTYPE_UNDEFINED);
        CHECK(!ct_dtype_can_cast(CT_BOOL, d));
    }
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *rec = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/dtype_facts.json"));
    CHECK_MSG(rec != NULL, "dtype_facts.json: %s", ct_error_message());
    if (!rec) return ct_test_finish("test_dtype");
    const cJSON *dtypes = cJSON_GetObjectItemCaseSensitive(rec, "dtypes");
    /* every recorded dtype is a row of one table or the other */
    CHECK_INT_EQ(cJSON_GetArraySize(dtypes), N_ROWS + N_ABSENT);
    for (int i = 0; i < N_ROWS; i++) check_row(dtypes, &rows[i]);
    for (int i = 0; i < N_ABSENT; i++) check_absent(dtypes, &absent[i]);
    check_pairs(rec);
    for (int i = 0; i < N_ROWS; i++) check_messages(dtypes, &rows[i]);
    check_invalid();
    cJSON_Delete(rec);
    return ct_test_finish("test_dtype");
}
