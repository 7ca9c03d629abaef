/* Dispatch keys and key sets against PyTorch 2.6's recorded enum, bit layout and printouts
 * (tests/golden/torch-2.6/dispatch_keys.out, dispatch_dump.out and the shared recordings). */
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"

static void check_enum_and_bits(void) {
    char *txt = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/dispatch_keys.out"), NULL);
    CHECK_MSG(txt != NULL, "cannot read dispatch_keys.out");
    if (!txt) return;
    int nkeys = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        char name[128];
        int value;
        unsigned long long raw;
        if (sscanf(line, "key %127s %d %llx", name, &value, &raw) == 3) {
            nkeys++;
            /* StartOf... and EndOf... are aliases of real keys in PyTorch: check the bits only */
            bool sentinel = strncmp(name, "StartOf", 7) == 0 || strncmp(name, "EndOf", 5) == 0;
            if (!sentinel) {
                int k = ct_key_from_name(name);
                CHECK_MSG(k == value, "key %s: ctorch value %d, PyTorch %d", name, k, value);
                CHECK_STR_EQ(ct_key_name((ct_dispatch_key)value), name);
            }
            CHECK_MSG(ct_keyset_of((ct_dispatch_key)value) == (ct_keyset)raw, "key %s: bits %llx, PyTorch %llx", name,
                      (unsigned long long)ct_keyset_of((ct_dispatch_key)value), raw);
        }
        char printed[1024];
        if (sscanf(line, "include %1023[^0]0x%llx", printed, &raw) == 2) {
            CHECK_MSG(ct_tls_included() == (ct_keyset)raw, "TLS include default");
        }
        if (sscanf(line, "exclude %1023[^0]0x%llx", printed, &raw) == 2) {
            CHECK_MSG(ct_tls_excluded() == (ct_keyset)raw, "TLS exclude default");
        }
    }
    CHECK_MSG(nkeys > 100, "expected the whole enum, read %d keys", nkeys);
    free(txt);
}

static void check_full_printout(void) {
    char *txt = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/dispatch_dump.out"), NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    char *nl = strchr(txt, '\n');
    if (nl) *nl = '\0';
    static char buf[8192];
    size_t need = ct_keyset_format(ct_keyset_full(), buf, sizeof buf);
    CHECK(need < sizeof buf);
    CHECK_STR_EQ(buf, txt);
    free(txt);
}

static void check_tensor_keysets(void) {
    char buf[512];
    const char *expected = "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)";
    ct_dtype dts[] = {CT_FLOAT32, CT_FLOAT16, CT_INT64, CT_FLOAT64, CT_BFLOAT16, CT_BOOL};
    int64_t two = 2;
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
        ct_tensor *t = ct_empty(&two, 1, dts[i], CT_MEMORY_FORMAT_NONE);
        CHECK(t != NULL);
        if (!t) continue;
        ct_keyset_format(ct_tensor_keyset(t), buf, sizeof buf);
        CHECK_STR_EQ(buf, expected);
        ct_tensor *v = ct_t(t);
        ct_keyset_format(ct_tensor_keyset(v), buf, sizeof buf);
        CHECK_STR_EQ(buf, expected);
        ct_tensor_release(v);
        ct_tensor_release(t);
    }
    /* the recorded lab printout */
    char *lab = ct_test_read_file(ct_test_shared("reference/torch-2.6/lab00.out"), NULL);
    CHECK(lab != NULL);
    if (lab) {
        CHECK(strstr(lab, expected) != NULL);
        free(lab);
    }
    /* the exclude set printout from key_sets_and_modes.out */
    char *ksm = ct_test_read_file(ct_test_shared("reference/torch-2.6/key_sets_and_modes.out"), NULL);
    CHECK(ksm != NULL);
    if (ksm) {
        char line[1024];
        ct_keyset_format(ct_tls_excluded(), buf, sizeof buf);
        snprintf(line, sizeof line, "exclude default: %s\n", buf);
        CHECK_MSG(strstr(ksm, line) != NULL, "exclude default printout %s", line);
        free(ksm);
    }
}

static void check_priority_and_sets(void) {
    ct_keyset ks = ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_AutogradCPU) | ct_keyset_of(CT_KEY_ADInplaceOrView) |
                   ct_keyset_of(CT_KEY_Python) | ct_keyset_of(CT_KEY_PythonTLSSnapshot);
    CHECK_INT_EQ(ct_keyset_highest(ks), CT_KEY_PythonTLSSnapshot);
    CHECK_INT_EQ(ct_keyset_highest(ks & ct_keyset_full_after(CT_KEY_PythonTLSSnapshot)), CT_KEY_AutogradCPU);
    CHECK_INT_EQ(ct_keyset_highest(ks & ct_after_autograd_keyset()), CT_KEY_ADInplaceOrView);
    CHECK_INT_EQ(ct_keyset_highest(ks & ct_after_ADInplaceOrView_keyset()), CT_KEY_Python);
    CHECK_INT_EQ(ct_keyset_highest(ct_keyset_of(CT_KEY_CPU)), CT_KEY_CPU);
    CHECK_INT_EQ(ct_keyset_highest(0), CT_KEY_Undefined);
    /* FULL_AFTER includes PythonDispatcher, and all backend bits */
    CHECK(ct_keyset_has(ct_after_autograd_keyset(), CT_KEY_PythonDispatcher));
    CHECK(ct_keyset_has(ct_after_autograd_keyset(), CT_KEY_CPU));
    CHECK(!ct_keyset_has(ct_after_autograd_keyset(), CT_KEY_AutogradCPU));
    /* `-` removes functionality bits only */
    ct_keyset a = ct_keyset_of(CT_KEY_AutogradCPU) | ct_keyset_of(CT_KEY_CPU);
    ct_keyset r = ct_keyset_sub(a, ct_autograd_dispatch_keyset());
    CHECK_INT_EQ(ct_keyset_highest(r), CT_KEY_CPU);
    CHECK(r & CT_BACKEND_BIT(CT_BACKEND_CPU));
    char buf[256];
    ct_keyset_format(0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "DispatchKeySet()");
    ct_keyset_format(ct_python_ks(), buf, sizeof buf);
    CHECK_STR_EQ(buf, "DispatchKeySet(Python, PythonTLSSnapshot)");
    /* a per-backend functionality without backend bits prints nothing */
    ct_keyset_format(ct_autograd_dispatch_keyset(), buf, sizeof buf);
    CHECK_STR_EQ(buf, "DispatchKeySet(AutogradOther, AutogradNestedTensor)");
    /* truncation: snprintf semantics */
    char small[10];
    size_t need = ct_keyset_format(ct_python_ks(), small, sizeof small);
    CHECK_INT_EQ(need, strlen("DispatchKeySet(Python, PythonTLSSnapshot)"));
    CHECK_INT_EQ(strlen(small), 9);
    CHECK_STR_EQ(ct_key_name((ct_dispatch_key)9999), "UNKNOWN_TENSOR_TYPE_ID");
    CHECK_INT_EQ(ct_key_from_name("NoSuchKey"), -1);
    CHECK_INT_EQ(ct_key_from_name(NULL), -1);
    CHECK_STR_EQ(ct_key_name(CT_KEY_CompositeImplicitAutograd), "CompositeImplicitAutograd");
}

static void check_guards(void) {
    ct_keyset inc0 = ct_tls_included(), exc0 = ct_tls_excluded();
    ct_key_guard g1, g2;
    ct_key_guard_include(&g1, ct_python_ks());
    CHECK(ct_keyset_has(ct_tls_included(), CT_KEY_Python));
    ct_key_guard_exclude(&g2, ct_autograd_dispatch_keyset());
    CHECK((ct_tls_excluded() & ct_autograd_dispatch_keyset()) == ct_autograd_dispatch_keyset());
    ct_key_guard_pop(&g2);
    CHECK(ct_tls_excluded() == exc0);
    ct_key_guard_pop(&g1);
    CHECK(ct_tls_included() == inc0);
    ct_tls_set_excluded(CT_KEY_AutocastCPU, false);
    CHECK(!ct_keyset_has(ct_tls_excluded(), CT_KEY_AutocastCPU));
    ct_tls_set_excluded(CT_KEY_AutocastCPU, true);
    CHECK(ct_tls_excluded() == exc0);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    check_enum_and_bits();
    check_full_printout();
    check_tensor_keysets();
    check_priority_and_sets();
    check_guards();
    return ct_test_finish("test_keys");
}
