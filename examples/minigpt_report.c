#include "ctorch/ctorch.h"
#include "minigpt.h"
int ct_example_minigpt_report(const ct_gpt_args *a, const char *out_dir, FILE *progress) {
    (void)a; (void)out_dir; (void)progress;
    return ct_error_set(CT_ERR_NOT_IMPLEMENTED, "report: work in progress");
}
