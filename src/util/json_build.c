/* Building cJSON trees without losing members when memory runs out (util/json.h). */
#include "ctorch/error.h"
#include "util/json.h"

bool ct_json_add(cJSON *obj, const char *key, cJSON *item) {
    bool ok = obj && item && (key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item));
    if (!ok) {
        cJSON_Delete(item);
        if (ct_error_code() == CT_OK) ct_error_set(CT_ERR_NOMEM, "out of memory building a JSON document");
    }
    return ok;
}
