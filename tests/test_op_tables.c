/* Every built-in operator's registrations and computed dispatch table against PyTorch 2.6's
 * (tests/golden/torch-2.6/op_tables.json, recorded by tests/golden/record/op_tables.py).
 *
 * Compared: the registrations at CPU, BackendSelect, ADInplaceOrView, Autograd,
 * CompositeImplicitAutograd and CompositeExplicitAutograd, and the table entries (kind and
 * fallthrough) at CPU, BackendSelect, Python, ADInplaceOrView, AutogradOther, AutogradCPU,
 * PythonTLSSnapshot and PythonDispatcher. Not compared, by design (docs/dispatcher.md):
 * CompositeExplicitAutogradNonFunctional and AutocastCPU kernels, which only serve backends
 * and autocast policies ctorch does not have, and the Undefined slot they affect. */
#include <stdlib.h>
#include <string.h>

#include "ctorch/ctorch.h"
#include "harness.h"
#include "util/json.h"

static const char *const reg_keys[] = {"CPU", "BackendSelect", "ADInplaceOrView", "Autograd",
                                       "CompositeImplicitAutograd", "CompositeExplicitAutograd"};
static const char *const table_keys[] = {"CPU", "BackendSelect", "Python", "ADInplaceOrView", "AutogradOther",
                                         "AutogradCPU", "PythonTLSSnapshot", "PythonDispatcher"};

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    cJSON *root = ct_json_parse_file(ct_test_source("tests/golden/torch-2.6/op_tables.json"));
    CHECK_MSG(root != NULL, "cannot read op_tables.json: %s", ct_error_message());
    if (!root) return ct_test_finish("test_op_tables");
    int compared = 0;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        if (strncmp(ct_op_name(op), "aten::", 6) != 0 && strncmp(ct_op_name(op), "profiler::", 10) != 0) continue;
        cJSON *rec = cJSON_GetObjectItemCaseSensitive(root, ct_op_name(op));
        CHECK_MSG(rec != NULL, "%s is not in op_tables.json: record it with tests/golden/record/op_tables.py", ct_op_name(op));
        if (!rec) continue;
        compared++;
        const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "schema"));
        CHECK_STR_EQ(ct_op_schema(op), schema);
        /* registrations */
        char *dump = ct_op_dump(op);
        CHECK(dump != NULL);
        cJSON *regs = cJSON_GetObjectItemCaseSensitive(rec, "registrations");
        for (size_t k = 0; k < sizeof reg_keys / sizeof reg_keys[0]; k++) {
            bool want = cJSON_GetObjectItemCaseSensitive(regs, reg_keys[k]) != NULL;
            char pat[128];
            snprintf(pat, sizeof pat, "\n%s%s: ", reg_keys[k], ct_key_from_name(reg_keys[k]) >= CT_KEY_StartOfAliasKeys ? "[alias]" : "");
            bool have = dump && strstr(dump, pat) != NULL;
            CHECK_MSG(want == have, "%s: registration at %s: PyTorch %s, ctorch %s", ct_op_name(op), reg_keys[k],
                      want ? "yes" : "no", have ? "yes" : "no");
        }
        ct_free(dump);
        /* computed table */
        cJSON *table = cJSON_GetObjectItemCaseSensitive(rec, "table");
        for (size_t k = 0; k < sizeof table_keys / sizeof table_keys[0]; k++) {
            const char *want = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(table, table_keys[k]));
            ct_slot_info s = ct_op_slot(op, (ct_dispatch_key)ct_key_from_name(table_keys[k]));
            char have[128];
            if (s.kind == CT_SLOT_MISSING)
                snprintf(have, sizeof have, "(missing)");
            else
                snprintf(have, sizeof have, "%s%s", s.fallthrough ? "fallthrough " : "", ct_slot_kind_name(s.kind));
            CHECK_MSG(strcmp(want ? want : "(missing)", have) == 0, "%s: table[%s]: PyTorch '%s', ctorch '%s'",
                      ct_op_name(op), table_keys[k], want ? want : "(missing)", have);
        }
    }
    printf("compared %d operators\n", compared);
    CHECK(compared >= 40);
    cJSON_Delete(root);
    return ct_test_finish("test_op_tables");
}
