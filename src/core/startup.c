/* The start-up flag and the error given before it (core/startup.h, Note [Start-up]). */
#include "core/startup.h"

#include "ctorch/error.h"

atomic_bool ct_library_ready;
_Thread_local bool ct_library_starting;

int ct_error_not_started(const char *who) {
    return ct_error_set(CT_ERR_RUNTIME, "%s: ct_init() has not been called (a program calls it once, before any "
                                        "other ctorch call that needs the operators)",
                        who);
}
