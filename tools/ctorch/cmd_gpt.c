/* ctorch gpt [--seed N] [--json-out FILE] [--attention manual|sdpa] [--dropout P] [--n-layer N]
 *            [--n-head N] [--d-model N] [--vocab N] [--block N] [--batch N] [--tied] [--steps N]
 *            [--lr X] [--clip X] [--generate N] [--out DIR]
 * MiniGPT (examples/minigpt.c) with minigpt.py's options: prints what minigpt.py prints and
 * writes its JSON to FILE. --out DIR (ctorch's own) writes the report of the run instead:
 * DIR/minigpt.json (or FILE), summary.json, the profiler table and decision trace of one step,
 * the loss curve and REPORT.md, compared with PyTorch's recorded run when the source tree's
 * tests/golden/torch-2.6/minigpt has one for these options. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "ctorch/ctorch.h"
#include "minigpt.h"
#include "seed_arg.h"
#include "ctorch/json.h"

/* argparse's "argument --x: invalid int value: 'y'", then the least value the option can use:
 * minigpt.py would run one step for --steps 0 (its traced step comes first) and divide by zero
 * for --n-head 0, so those are refused here with what the option needs. */
static int parse_int(const ct_command *self, const char *opt, const char *text, int64_t least, const char *what,
                     int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end || errno) return ct_cli_usage_error(self, "argument --%s: invalid int value: '%s'", opt, text);
    if (v < least)
        return ct_cli_usage_error(self, "argument --%s: invalid value: '%s' (%s, %lld or more)", opt, text, what,
                                  (long long)least);
    *out = v;
    return 0;
}

/* argparse's float(): "nan" and "inf" are floats to it, and the model refuses what it cannot
 * use as PyTorch does (dropout outside [0, 1], a negative learning rate); a --clip that is not
 * a finite number of 0 or more is refused here (clip_grad_norm_ would scale by it). */
static int parse_float(const ct_command *self, const char *opt, const char *text, bool finite_nonnegative, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*text == '\0' || *end || errno == ERANGE)
        return ct_cli_usage_error(self, "argument --%s: invalid float value: '%s'", opt, text);
    if (finite_nonnegative && !(v >= 0 && isfinite(v)))
        return ct_cli_usage_error(self, "argument --%s: invalid value: '%s' (a finite number, 0 or more)", opt, text);
    *out = v;
    return 0;
}

enum { OPT_SEED = 256, OPT_JSON, OPT_OUT, OPT_ATTN, OPT_DROPOUT, OPT_LR, OPT_CLIP, OPT_TIED, OPT_INT };

static int run_gpt(const ct_command *self, int argc, char **argv) {
    static const struct option longopts[] = {CT_CLI_HELP_OPTION,
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"json-out", required_argument, NULL, OPT_JSON},
                                             {"out", required_argument, NULL, OPT_OUT},
                                             {"attention", required_argument, NULL, OPT_ATTN},
                                             {"dropout", required_argument, NULL, OPT_DROPOUT},
                                             {"lr", required_argument, NULL, OPT_LR},
                                             {"clip", required_argument, NULL, OPT_CLIP},
                                             {"tied", no_argument, NULL, OPT_TIED},
                                             {"n-layer", required_argument, NULL, OPT_INT + 0},
                                             {"n-head", required_argument, NULL, OPT_INT + 1},
                                             {"d-model", required_argument, NULL, OPT_INT + 2},
                                             {"vocab", required_argument, NULL, OPT_INT + 3},
                                             {"block", required_argument, NULL, OPT_INT + 4},
                                             {"batch", required_argument, NULL, OPT_INT + 5},
                                             {"steps", required_argument, NULL, OPT_INT + 6},
                                             {"generate", required_argument, NULL, OPT_INT + 7},
                                             {0, 0, 0, 0}};
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    int64_t *ints[8] = {&a.n_layer, &a.n_head, &a.d_model, &a.vocab, &a.block, &a.batch, &a.steps, &a.generate};
    static const struct {
        int64_t least;
        const char *what;
    } int_range[8] = {{0, "a number of blocks"}, {1, "a number of heads"},  {1, "a width"},
                      {1, "a vocabulary size"},  {1, "a context length"},  {1, "a batch size"},
                      {1, "a number of steps"},  {0, "a number of tokens"}};
    const char *out_dir = NULL;
    ct_example_seed seed = {0, false};
    int c, idx = 0;
    ct_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":h", longopts, &idx)) != -1) {
        switch (c) {
        case 'h': return ct_cli_help(self);
        case OPT_SEED:
            if (ct_example_seed_parse(optarg, &seed) != 0) return ct_cli_seed_error(self);
            break;
        case OPT_JSON: a.json_out = optarg; break;
        case OPT_OUT:
            if (!*optarg) return ct_cli_usage_error(self, "argument --out: a folder is needed, not ''");
            out_dir = optarg;
            break;
        case OPT_TIED: a.tied = true; break;
        case OPT_ATTN:
            if (strcmp(optarg, "manual") != 0 && strcmp(optarg, "sdpa") != 0)
                return ct_cli_usage_error(self, "argument --attention: invalid choice: '%s' (choose from 'manual', 'sdpa')",
                                          optarg);
            a.sdpa = strcmp(optarg, "sdpa") == 0;
            break;
        case OPT_DROPOUT:
            if (parse_float(self, "dropout", optarg, false, &a.dropout) != 0) return 2;
            break;
        case OPT_LR:
            if (parse_float(self, "lr", optarg, false, &a.lr) != 0) return 2;
            break;
        case OPT_CLIP:
            if (parse_float(self, "clip", optarg, true, &a.clip) != 0) return 2;
            break;
        default:
            if (c >= OPT_INT && c < OPT_INT + 8) {
                int k = c - OPT_INT;
                if (parse_int(self, longopts[idx].name, optarg, int_range[k].least, int_range[k].what, ints[k]) != 0) return 2;
                break;
            }
            return ct_cli_option_error(self, c, argv);
        }
    }
    if (ct_cli_no_more_args(self, argc, argv, optind, 0)) return 2;
    /* the batches come from generators seeded with seed + 1 + s for s < steps: manual_seed
     * refuses the last of them above 2^64 - 1 */
    ct_example_seed last;
    uint64_t k = a.steps > 1 ? (uint64_t)a.steps : 1;
    if (ct_example_seed_add(seed, k, &last) != 0) {
        char m[CT_EXAMPLE_SEED_TEXT_MAX];
        ct_error_set(CT_ERR_RUNTIME, "%s (from make_batch(seed + %llu) with seed %s)", ct_error_message(), (unsigned long long)k,
                     ct_example_seed_format(seed, m));
        return ct_cli_seed_error(self);
    }
    a.seed = seed.value;
    a.seed_negative = seed.negative;
    if (out_dir) {
        /* the recorded PyTorch runs, when run from the source tree */
        const char *golden = "tests/golden/torch-2.6/minigpt";
        /* what the program prints goes to stdout, as without --out; the notes on the way to stderr */
        return ct_example_minigpt_report(&a, out_dir, access(golden, R_OK) == 0 ? golden : NULL, stderr, stdout);
    }
    char *json = NULL, *summary = NULL;
    if (ct_example_minigpt(&a, &json, &summary, NULL) != 0) {
        fprintf(stderr, "ctorch gpt: %s: %s\n", ct_error_kind_name(ct_error_code()), ct_error_message());
        return 1;
    }
    int rc = 0;
    if (a.json_out) {
        size_t n = strlen(json);
        char *text = malloc(n + 2);
        if (!text) {
            rc = 1;
        } else {
            memcpy(text, json, n);
            text[n] = '\n';
            text[n + 1] = '\0';
            if (ct_json_write_file_atomic(a.json_out, text) != 0) {
                fprintf(stderr, "ctorch gpt: %s\n", ct_error_message());
                rc = 2;
            }
            free(text);
        }
    }
    if (rc == 0) printf("%s\n", summary);
    ct_free(json);
    ct_free(summary);
    return rc;
}

const ct_command ct_cmd_gpt = {
    "gpt",
    "[--seed N] [--json-out FILE] [--attention {manual,sdpa}] [--tied] [OPTION...]",
    "MiniGPT as minigpt.py runs it: trained, traced, sampled; prints its JSON",
    "MiniGPT (a decoder-only transformer) as PyTorch's minigpt.py runs it: one training step per\n"
    "phase under an op-logging dispatch mode, more steps with AdamW and clip_grad_norm_, then\n"
    "sampling under no_grad; prints what minigpt.py prints. Its options and defaults are\n"
    "minigpt.py's, and --out is ctorch's own.\n"
    "\noptions:\n"
    "  --seed N             torch.manual_seed(N) for the model; the batches from generators\n"
    "                       seeded with N + 1, N + 2, ... (default 0)\n"
    "  --json-out FILE      also write the JSON (op logs per phase, losses, tokens, head weights)\n"
    "  --attention MODE     manual (softmax of masked scores, default) or sdpa\n"
    "                       (F.scaled_dot_product_attention with is_causal)\n"
    "  --dropout P          dropout probability (default 0.1)\n"
    "  --n-layer N, --n-head N, --d-model N, --vocab N, --block N, --batch N\n"
    "                       model and batch sizes (defaults 2, 4, 64, 600, 32, 4; --n-layer 0\n"
    "                       or more, the others 1 or more)\n"
    "  --tied               the head shares the token embedding's weight\n"
    "  --steps N            training steps, the traced one included (default 5; 1 or more)\n"
    "  --lr X               AdamW's learning rate (default 0.003)\n"
    "  --clip X             clip_grad_norm_'s max_norm (default 1.0; finite, 0 or more)\n"
    "  --generate N         tokens sampled after training (default 16; 0 or more)\n"
    "  --out DIR            write the run's report into DIR: the JSON, a summary, the profiler\n"
    "                       table and decision trace of one step, the loss curve (SVG), REPORT.md;\n"
    "                       what the program prints still goes to stdout, the progress to stderr\n"
    "  -h, --help           show this help and exit\n",
    run_gpt};
