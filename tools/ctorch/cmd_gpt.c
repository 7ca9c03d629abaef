/* ctorch gpt [--seed N] [--json-out FILE] [--attention manual|sdpa] [--dropout P] [--n-layer N]
 *            [--n-head N] [--d-model N] [--vocab N] [--block N] [--batch N] [--tied] [--steps N]
 *            [--lr X] [--clip X] [--generate N] [--out DIR]
 * MiniGPT (examples/minigpt.c) with minigpt.py's options: prints what minigpt.py prints and
 * writes its JSON to FILE. --out DIR (ctorch's own) writes the report of the run instead:
 * DIR/minigpt.json (or FILE), summary.json, the profiler table and decision trace of one step,
 * the loss curve and REPORT.md, compared with PyTorch's recorded run when the source tree's
 * tests/golden/torch-2.6/minigpt has one for these options. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "ctorch/ctorch.h"
#include "minigpt.h"
#include "util/json.h"

static const char USAGE[] =
    "usage: ctorch gpt [--seed N] [--json-out FILE] [--attention {manual,sdpa}] [--dropout P] [--n-layer N]\n"
    "                  [--n-head N] [--d-model N] [--vocab N] [--block N] [--batch N] [--tied] [--steps N]\n"
    "                  [--lr X] [--clip X] [--generate N] [--out DIR]\n";

/* argparse's "argument --x: invalid int value: 'y'" and exit status 2 */
static int parse_int(const char *opt, const char *text, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end || errno) {
        fprintf(stderr, "%sctorch gpt: error: argument %s: invalid int value: '%s'\n", USAGE, opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_float(const char *opt, const char *text, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*text == '\0' || *end || errno == ERANGE) {
        fprintf(stderr, "%sctorch gpt: error: argument %s: invalid float value: '%s'\n", USAGE, opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

int ct_cmd_gpt(int argc, char **argv) {
    ct_gpt_args a;
    ct_gpt_args_defaults(&a);
    const char *out_dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool has_value = i + 1 < argc;
        int64_t iv;
        if (strcmp(o, "--tied") == 0) {
            a.tied = true;
        } else if (strcmp(o, "--seed") == 0 && has_value) {
            unsigned long long seed;
            if (ct_cli_parse_seed("gpt", argv[++i], &seed) != 0) return 2;
            a.seed = seed;
        } else if (strcmp(o, "--json-out") == 0 && has_value) {
            a.json_out = argv[++i];
        } else if (strcmp(o, "--out") == 0 && has_value) {
            out_dir = argv[++i];
        } else if (strcmp(o, "--attention") == 0 && has_value) {
            const char *v = argv[++i];
            if (strcmp(v, "manual") != 0 && strcmp(v, "sdpa") != 0) {
                fprintf(stderr, "%sctorch gpt: error: argument --attention: invalid choice: '%s' (choose from 'manual', 'sdpa')\n",
                        USAGE, v);
                return 2;
            }
            a.sdpa = strcmp(v, "sdpa") == 0;
        } else if (strcmp(o, "--dropout") == 0 && has_value) {
            if (parse_float(o, argv[++i], &a.dropout) != 0) return 2;
        } else if (strcmp(o, "--lr") == 0 && has_value) {
            if (parse_float(o, argv[++i], &a.lr) != 0) return 2;
        } else if (strcmp(o, "--clip") == 0 && has_value) {
            if (parse_float(o, argv[++i], &a.clip) != 0) return 2;
        } else if ((strcmp(o, "--n-layer") == 0 || strcmp(o, "--n-head") == 0 || strcmp(o, "--d-model") == 0 ||
                    strcmp(o, "--vocab") == 0 || strcmp(o, "--block") == 0 || strcmp(o, "--batch") == 0 ||
                    strcmp(o, "--steps") == 0 || strcmp(o, "--generate") == 0) &&
                   has_value) {
            if (parse_int(o, argv[++i], &iv) != 0) return 2;
            if (strcmp(o, "--n-layer") == 0) a.n_layer = iv;
            else if (strcmp(o, "--n-head") == 0) a.n_head = iv;
            else if (strcmp(o, "--d-model") == 0) a.d_model = iv;
            else if (strcmp(o, "--vocab") == 0) a.vocab = iv;
            else if (strcmp(o, "--block") == 0) a.block = iv;
            else if (strcmp(o, "--batch") == 0) a.batch = iv;
            else if (strcmp(o, "--steps") == 0) a.steps = iv;
            else a.generate = iv;
        } else {
            fprintf(stderr, "%s", USAGE);
            return 2;
        }
    }
    if (out_dir) {
        /* the recorded PyTorch runs, when run from the source tree */
        const char *golden = "tests/golden/torch-2.6/minigpt";
        return ct_example_minigpt_report(&a, out_dir, access(golden, R_OK) == 0 ? golden : NULL, stdout);
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
