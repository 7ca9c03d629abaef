/* ct_version(): the version compiled into the library, from the generated ctorch/version.h. */
#include "ctorch/version.h"

const char *ct_version(void) {
    return CTORCH_VERSION_STRING;
}
