/* ctorch trace: run linear(x, W, b) (or a call it is compared with) with the decision trace
 * printed in full, or written to a trace file. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ctorch/ctorch.h"
#include "linear_variants.h"
#include "seed_arg.h"

static int run_trace(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION,
                                             {"out", required_argument, NULL, 'o'},
                                             {"call", required_argument, NULL, 'c'},
                                             {"dtype", required_argument, NULL, 'd'},
                                             {"grad-mode", required_argument, NULL, 'g'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"backward", no_argument, NULL, 'b'},
                                             {"mode", no_argument, NULL, 'm'},
                                             {0, 0, 0, 0}};
    ct_example_linear o = ct_example_linear_defaults();
    ct_example_seed seed = {o.seed, false};
    const char *out = NULL, *dtype = "float32";
    int c;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case 'o': out = optarg; break;
        case 'c':
            if (ct_example_call_parse(optarg, &o.call) != 0)
                return ct_cli_usage_error(self, "argument --call: invalid choice: '%s' (choose from 'linear', 'addmm', 'matmul_add')", optarg);
            break;
        case 'd':
            if (ct_example_dtype_parse(optarg, &o.dtype) != 0)
                return ct_cli_usage_error(self, "argument --dtype: invalid choice: '%s' (choose from 'float32', 'float16', 'bfloat16', 'float64')", optarg);
            dtype = optarg;
            break;
        case 'g':
            if (ct_example_grad_mode_parse(optarg, &o.grad_mode) != 0)
                return ct_cli_usage_error(self, "argument --grad-mode: invalid choice: '%s' (choose from 'grad', 'no_grad', 'inference_mode')", optarg);
            break;
        case 's':
            if (ct_example_seed_parse(optarg, &seed) != 0) return ct_cli_seed_error(self);
            break;
        case 'b': o.backward = true; break;
        case 'm': o.dispatch_mode = true; break;
        default: return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    o.seed = seed.value;
    char program[512], st[CT_EXAMPLE_SEED_TEXT_MAX];
    snprintf(program, sizeof program, "ctorch trace --call %s --dtype %s --grad-mode %s --seed %s%s%s",
             ct_example_call_name(o.call), dtype, ct_example_grad_mode_name(o.grad_mode),
             ct_example_seed_format(seed, st), o.backward ? " --backward" : "", o.dispatch_mode ? " --mode" : "");
    if (!out)
        printf("# %s (x 2x64, W 600x64, b 600; decision trace, full form)\n", program + strlen("ctorch trace "));
    if (ct_example_linear_run(&o, out, program, out ? NULL : stdout) != 0) {
        fprintf(stderr, "ctorch trace: %s\n", ct_error_message());
        return ct_error_code() == CT_ERR_IO ? 2 : 1;
    }
    return 0;
}

const ct_command ct_cmd_trace = {
    "trace", "[--out FILE] [OPTIONS]",
    "run linear(x, W, b) with the full decision trace on, or write it to a trace file",
    "Runs linear(x, W, b) on x 2x64, W 600x64, b 600 (torch.manual_seed(SEED), randn, requiring\n"
    "grad) with the dispatcher's decision trace printed in full: for every hop each argument's\n"
    "key set, the thread-local include and exclude sets, the merged set, the winning key and the\n"
    "kernel. With --out, the same hops go to a trace file instead (docs/trace-format.md), to be\n"
    "compared with `ctorch diff`.\n"
    "\noptions:\n"
    "  --out FILE           write a trace file rather than printing\n"
    "  --call CALL          linear (the default), addmm (addmm(b, x, W.T)) or matmul_add\n"
    "                       ((x @ W.T) + b)\n"
    "  --dtype DTYPE        float32 (the default), float16, bfloat16 or float64: x, W and b are\n"
    "                       drawn in float32 and converted\n"
    "  --grad-mode MODE     grad (the default), no_grad or inference_mode around the call\n"
    "  --seed N             torch.manual_seed(N) before x, W and b are drawn (default 42)\n"
    "  --backward           then y.sum().backward() (with grad mode on)\n"
    "  --mode               with a pass-through dispatch mode pushed, so that the ops reach the\n"
    "                       Python key (what a PyTorch recording by tools/trace_torch.py sees)\n"
    "  -h, --help           show this help and exit\n",
    run_trace};
