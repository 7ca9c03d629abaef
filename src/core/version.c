/* ct_version() and ct_build_config(): the version and build facts compiled into the library,
 * from the generated ctorch/version.h and build_info.h. */
#include "build_info.h"
#include "ctorch/version.h"

/* computed by the build from the sources it compiles (tools/cmake/source_hash.cmake) */
extern const char ct_source_hash[];

const char *ct_version(void) {
    return CTORCH_VERSION_STRING;
}

static const ct_build_info build_info = {
    CTORCH_VERSION_STRING, CTORCH_PYTORCH_VERSION, ct_source_hash, CTORCH_COMPILER,
    CTORCH_C_FLAGS,        CTORCH_BUILD_TYPE,      CTORCH_BLAS_NAME,   CTORCH_JSON_NAME,
};

const ct_build_info *ct_build_config(void) { return &build_info; }
