/* CTORCH_SHOW_DISPATCH_TRACE (like TORCH_SHOW_DISPATCH_TRACE) and the trace file's variable, read
 * once by the start-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/trace.h"
#include "dispatch/trace_file.h"
#include "dispatch/trace_impl.h"

void ct_trace_init_from_env(void) {
    const char *env = getenv("CTORCH_SHOW_DISPATCH_TRACE");
    if (env && *env) {
        if (strcmp(env, "1") == 0) ct_trace_set_print(1);
        else if (strcmp(env, "full") == 0 || strcmp(env, "2") == 0) ct_trace_set_print(2);
        else if (strcmp(env, "0") != 0)
            fprintf(stderr, "ctorch warning: ignoring invalid value for CTORCH_SHOW_DISPATCH_TRACE: %s valid values are 0, 1 or full.\n", env);
    }
    ct_trace_file_open_from_env(); /* CTORCH_TRACE_FILE */
}
