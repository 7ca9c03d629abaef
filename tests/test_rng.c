/*
 * The CPU generator and its distributions against real PyTorch, bit for bit.
 *
 * References (raw IEEE bit patterns, one flat {"key": [uint, ...]} object per file):
 *   tests/golden/torch-2.6/rng_draws.json   recorded by tests/golden/record/rng_draws.py under
 *                                           PyTorch 2.6 (x86-64); the keys are described there
 *   <shared>/reference/rng/torch1.13_draws.json, torch1.13_randn_blocks.json
 *                                           recorded under PyTorch 1.13 (same streams)
 * Every value is compared exactly; the test fails on any mismatch or missing key.
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctorch/init.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "ctorch/keys.h"
#include "ctorch/random.h"
#include "ctorch/testing.h"
#include "harness.h"
#include "random/rng.h"

#define MAXV 20000

static uint64_t ref[MAXV];
static long values_compared, values_mismatched, keys_compared;

static uint64_t bits_at(const void *data, int64_t i, ct_dtype dt) {
    switch (dt) {
    case CT_FLOAT32: {
        uint32_t u;
        memcpy(&u, (const float *)data + i, 4);
        return u;
    }
    case CT_FLOAT64: {
        uint64_t u;
        memcpy(&u, (const double *)data + i, 8);
        return u;
    }
    case CT_FLOAT16:
    case CT_BFLOAT16: return ((const uint16_t *)data)[i];
    case CT_INT64: return (uint64_t)((const int64_t *)data)[i];
    case CT_BOOL: return ((const bool *)data)[i] ? 1u : 0u;
    default: return 0;
    }
}

/* Compares n values of `data` (dtype dt) with json[key], element by element. */
static void compare(const char *json, const char *key, const void *data, int64_t n, ct_dtype dt) {
    int m = ct_test_json_uint_array(json, key, ref, MAXV);
    CHECK_MSG(m == n, "%s: reference has %d values, produced %lld", key, m, (long long)n);
    if (m != n) return;
    int bad = 0, first = -1;
    for (int i = 0; i < m; i++) {
        if (bits_at(data, i, dt) != ref[i]) {
            if (first < 0) first = i;
            bad++;
        }
    }
    keys_compared++;
    values_compared += m;
    values_mismatched += bad;
    CHECK_MSG(bad == 0, "%s: %d of %d values differ (first at %d: got 0x%llx, want 0x%llx)", key, bad, m,
              first, first < 0 ? 0ULL : (unsigned long long)bits_at(data, first, dt),
              first < 0 ? 0ULL : (unsigned long long)ref[first]);
}

static void *buffer(int64_t n, ct_dtype dt) {
    void *p = calloc((size_t)n, ct_dtype_size(dt) ? ct_dtype_size(dt) : 8);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* torch.randn / rand / randint on a fresh contiguous tensor, compared with json[key]. */
static void check_randn(const char *json, const char *key, ct_generator *g, int64_t n, ct_dtype dt) {
    void *d = buffer(n, dt);
    CHECK_INT_EQ(ct_rng_normal(g, d, n, dt, 0.0, 1.0, true), 0);
    compare(json, key, d, n, dt);
    free(d);
}
static void check_normal(const char *json, const char *key, ct_generator *g, int64_t n, ct_dtype dt,
                         double mean, double std, bool contiguous) {
    void *d = buffer(n, dt);
    CHECK_INT_EQ(ct_rng_normal(g, d, n, dt, mean, std, contiguous), 0);
    compare(json, key, d, n, dt);
    free(d);
}
static void check_uniform(const char *json, const char *key, ct_generator *g, int64_t n, ct_dtype dt,
                          double from, double to) {
    void *d = buffer(n, dt);
    CHECK_INT_EQ(ct_rng_uniform(g, d, n, dt, from, to), 0);
    compare(json, key, d, n, dt);
    free(d);
}
/* random_(lo, hi) (hi != NULL) or random_(lo, None), with the operator's bound handling. */
static void check_random(const char *json, const char *key, ct_generator *g, int64_t n, ct_dtype dt,
                         int64_t lo, const int64_t *hi) {
    void *d = buffer(n, dt);
    int64_t base = 0;
    uint64_t range = 0;
    CHECK_INT_EQ(ct_rng_random_bounds(dt, lo, hi, &base, &range), 0);
    CHECK_INT_EQ(ct_rng_random_from_to(g, d, n, dt, base, range), 0);
    compare(json, key, d, n, dt);
    free(d);
}
static void check_randint(const char *json, const char *key, ct_generator *g, int64_t n, ct_dtype dt,
                          int64_t lo, int64_t hi) {
    check_random(json, key, g, n, dt, lo, &hi);
}

static const char *dtname(ct_dtype dt) {
    switch (dt) {
    case CT_FLOAT32: return "f32";
    case CT_FLOAT64: return "f64";
    case CT_FLOAT16: return "f16";
    case CT_BFLOAT16: return "bf16";
    case CT_INT64: return "i64";
    default: return "bool";
    }
}

/* nn.init.kaiming_uniform_(w, a=sqrt(5)) and the bias bound of nn.Linear.reset_parameters,
 * evaluated in doubles as Python does (a ** 2 is pow(a, 2), which is exactly a * a). */
static double kaiming_bound(int fan_in) {
    double a = sqrt(5.0);
    double gain = sqrt(2.0 / (1 + a * a));
    double std = gain / sqrt((double)fan_in);
    return sqrt(3.0) * std;
}

/* ---- PyTorch 2.6 recording ------------------------------------------------------------------- */

static void test_torch26(const char *json) {
    char key[128];
    ct_generator *def = ct_default_generator();

    /* the recording is PyTorch 2.6's */
    int64_t version[3] = {2, 6, 0};
    compare(json, "meta_torch_version", version, 3, CT_INT64);

    /* generator basics */
    ct_generator *g = ct_generator_new();
    CHECK(g != NULL);
    uint64_t seed = ct_generator_initial_seed(g);
    compare(json, "default_seed", &seed, 1, CT_INT64);
    CHECK_INT_EQ(ct_generator_manual_seed(g, 123), 0);
    seed = ct_generator_initial_seed(g);
    compare(json, "manual_seed_initial", &seed, 1, CT_INT64);

    /* randn float32 (scalar path below 16 elements, block path from 16) and float64 */
    static const int64_t sizes[] = {1, 2, 5, 15, 16, 17, 20, 33, 100, 1000};
    for (int s = 0; s < 2; s++) {
        uint64_t sd = s ? 42 : 0;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            snprintf(key, sizeof key, "randn_f32_s%llu_n%lld", (unsigned long long)sd, (long long)sizes[k]);
            ct_manual_seed(sd);
            check_randn(json, key, NULL, sizes[k], CT_FLOAT32);
        }
        static const int64_t dsizes[] = {5, 20, 33};
        for (int k = 0; k < 3; k++) {
            snprintf(key, sizeof key, "randn_f64_s%llu_n%lld", (unsigned long long)sd, (long long)dsizes[k]);
            ct_manual_seed(sd);
            check_randn(json, key, def, dsizes[k], CT_FLOAT64);
        }
    }

    /* the cached second Box-Muller sample */
    {
        float v[20];
        ct_manual_seed(0);
        ct_rng_normal(NULL, v, 3, CT_FLOAT32, 0, 1, true);
        ct_rng_normal(NULL, v + 3, 1, CT_FLOAT32, 0, 1, true);
        compare(json, "seq_randn3_randn1", v, 4, CT_FLOAT32);
        ct_manual_seed(0);
        ct_rng_normal(NULL, v, 3, CT_FLOAT32, 0, 1, true);
        ct_rng_normal(NULL, v + 3, 16, CT_FLOAT32, 0, 1, true);
        ct_rng_normal(NULL, v + 19, 1, CT_FLOAT32, 0, 1, true);
        compare(json, "seq_randn3_randn16_randn1", v, 20, CT_FLOAT32);
        double a;
        ct_manual_seed(5);
        ct_rng_normal(NULL, &a, 1, CT_FLOAT64, 0, 1, true);
        ct_rng_normal(NULL, v, 1, CT_FLOAT32, 0, 1, true);
        compare(json, "seq_f64_then_f32_a", &a, 1, CT_FLOAT64);
        compare(json, "seq_f64_then_f32_b", v, 1, CT_FLOAT32);
        ct_manual_seed(0);
        ct_rng_normal(NULL, v, 1, CT_FLOAT32, 0, 1, true);
        ct_manual_seed(0);
        ct_rng_normal(NULL, v, 2, CT_FLOAT32, 0, 1, true);
        compare(json, "seq_reseed_clears_cache", v, 2, CT_FLOAT32);
    }

    /* rand */
    ct_manual_seed(0);
    check_uniform(json, "rand_f32_s0_n10", NULL, 10, CT_FLOAT32, 0, 1);
    ct_manual_seed(42);
    check_uniform(json, "rand_f32_s42_n1000", NULL, 1000, CT_FLOAT32, 0, 1);
    ct_manual_seed(0);
    check_uniform(json, "rand_f64_s0_n5", NULL, 5, CT_FLOAT64, 0, 1);
    ct_manual_seed(42);
    check_uniform(json, "rand_f64_s42_n100", NULL, 100, CT_FLOAT64, 0, 1);
    ct_manual_seed(0);
    check_uniform(json, "rand_f16_s0_n100", NULL, 100, CT_FLOAT16, 0, 1);
    ct_manual_seed(0);
    check_uniform(json, "rand_bf16_s0_n100", NULL, 100, CT_BFLOAT16, 0, 1);

    /* uniform_ with non-power-of-two widths, all four floating dtypes */
    static const struct {
        const char *name;
        double lo, hi;
    } ranges[] = {{"m0p125_0p125", -0.125, 0.125}, {"2_7p5", 2.0, 7.5}, {"m3_0p1", -3.0, 0.1}};
    static const ct_dtype fdt[] = {CT_FLOAT32, CT_FLOAT64, CT_FLOAT16, CT_BFLOAT16};
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 4; k++) {
            snprintf(key, sizeof key, "uniform_%s_%s", dtname(fdt[k]), ranges[r].name);
            ct_manual_seed(0);
            check_uniform(json, key, NULL, 1000, fdt[k], ranges[r].lo, ranges[r].hi);
        }
    }

    /* (1, 300): for bfloat16 the largest draws round up to `to` and stay there (2.6 has no clamp) */
    ct_manual_seed(0);
    check_uniform(json, "uniform_f16_1_300", NULL, 1000, CT_FLOAT16, 1.0, 300.0);
    ct_manual_seed(0);
    check_uniform(json, "uniform_bf16_1_300", NULL, 1000, CT_BFLOAT16, 1.0, 300.0);

    /* nn.Linear initialisation */
    static const int fans[][2] = {{16, 8}, {32, 4}};
    for (int k = 0; k < 2; k++) {
        int in = fans[k][0], out = fans[k][1];
        double wb = kaiming_bound(in), bb = 1 / sqrt((double)in);
        snprintf(key, sizeof key, "linear_fan%d_wbound_f64", in);
        compare(json, key, &wb, 1, CT_FLOAT64);
        snprintf(key, sizeof key, "linear_fan%d_bbound_f64", in);
        compare(json, key, &bb, 1, CT_FLOAT64);
        snprintf(key, sizeof key, "uniform_f32_kaiming_fan%d", in);
        ct_manual_seed(0);
        check_uniform(json, key, NULL, 1000, CT_FLOAT32, -wb, wb);
        snprintf(key, sizeof key, "uniform_f32_bias_fan%d", in);
        ct_manual_seed(0);
        check_uniform(json, key, NULL, 1000, CT_FLOAT32, -bb, bb);
        /* weight (out x in, row-major) first, then bias, from one generator */
        ct_manual_seed(7);
        snprintf(key, sizeof key, "linear_%dx%d_s7_weight", in, out);
        check_uniform(json, key, NULL, (int64_t)in * out, CT_FLOAT32, -wb, wb);
        snprintf(key, sizeof key, "linear_%dx%d_s7_bias", in, out);
        check_uniform(json, key, NULL, out, CT_FLOAT32, -bb, bb);
    }

    /* normal_ with mean and std */
    const double MEAN = 0.1, STD = 0.3;
    for (int k = 0; k < 2; k++) {
        int64_t n = k ? 40 : 10;
        snprintf(key, sizeof key, "normal_f32_n%lld_mean_std", (long long)n);
        ct_manual_seed(0);
        check_normal(json, key, NULL, n, CT_FLOAT32, MEAN, STD, true);
        snprintf(key, sizeof key, "normal_f64_n%lld_mean_std", (long long)n);
        ct_manual_seed(0);
        check_normal(json, key, NULL, n, CT_FLOAT64, MEAN, STD, true);
    }
    /* non-contiguous outputs: the scalar path, values drawn in memory order (Note [RNG fill order]) */
    {
        float mem[20], logical[20];
        ct_manual_seed(0);
        CHECK_INT_EQ(ct_rng_normal(NULL, mem, 20, CT_FLOAT32, MEAN, STD, false), 0);
        compare(json, "normal_f32_transposed_4x5_memory", mem, 20, CT_FLOAT32);
        /* view = base.t(): view[i][j] (5 x 4) is base[j][i] = mem[j*5 + i] */
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 4; j++) logical[i * 4 + j] = mem[j * 5 + i];
        compare(json, "normal_f32_transposed_4x5_logical", logical, 20, CT_FLOAT32);
        ct_manual_seed(0);
        check_normal(json, "normal_f64_transposed_8x6_memory", NULL, 48, CT_FLOAT64, MEAN, STD, false);
        ct_manual_seed(0);
        check_normal(json, "normal_f32_strided_20_values", NULL, 20, CT_FLOAT32, MEAN, STD, false);
    }
    /* many scalar-path values */
    ct_manual_seed(1);
    check_normal(json, "normal_f64_strided_4000", NULL, 4000, CT_FLOAT64, 0.0, 1.0, false);
    ct_manual_seed(2);
    check_normal(json, "normal_f32_strided_2000_mean_std", NULL, 2000, CT_FLOAT32, MEAN, STD, false);
    /* float16 / bfloat16 */
    for (int h = 0; h < 2; h++) {
        ct_dtype dt = h ? CT_BFLOAT16 : CT_FLOAT16;
        static const int64_t hn[] = {10, 16, 40};
        for (int k = 0; k < 3; k++) {
            snprintf(key, sizeof key, "normal_%s_n%lld_std", dtname(dt), (long long)hn[k]);
            ct_manual_seed(0);
            check_normal(json, key, NULL, hn[k], dt, 0.0, 1.0, true);
            snprintf(key, sizeof key, "normal_%s_n%lld_mean_std", dtname(dt), (long long)hn[k]);
            ct_manual_seed(0);
            check_normal(json, key, NULL, hn[k], dt, MEAN, STD, true);
        }
        snprintf(key, sizeof key, "randn_%s_n40", dtname(dt));
        ct_manual_seed(0);
        check_randn(json, key, NULL, 40, dt);
    }

    /* randint / random_(from, to) */
    static const struct {
        const char *key;
        uint64_t seed;
        int64_t lo, hi, n;
        ct_dtype dt;
    } ri[] = {
        {"randint_0_4_n8", 0, 0, 4, 8, CT_INT64},
        {"randint_0_10_n100", 0, 0, 10, 100, CT_INT64},
        {"randint_0_10_s42_n100", 42, 0, 10, 100, CT_INT64},
        {"randint_m5_5_n50", 0, -5, 5, 50, CT_INT64},
        {"randint_0_2p28m1_n20", 0, 0, (INT64_C(1) << 28) - 1, 20, CT_INT64},
        {"randint_0_2p28_n20", 0, 0, INT64_C(1) << 28, 20, CT_INT64},
        {"randint_0_2p30_n20", 0, 0, INT64_C(1) << 30, 20, CT_INT64},
        {"randint_0_2p32m1_n20", 0, 0, (INT64_C(1) << 32) - 1, 20, CT_INT64},
        {"randint_0_2p32_n20", 0, 0, INT64_C(1) << 32, 20, CT_INT64},
        {"randint_0_2p32p5_n20", 0, 0, (INT64_C(1) << 32) + 5, 20, CT_INT64},
        {"randint_0_2p40_n20", 0, 0, INT64_C(1) << 40, 20, CT_INT64},
        {"randint_m2p62_2p62_n20", 0, -(INT64_C(1) << 62), INT64_C(1) << 62, 20, CT_INT64},
        {"randint_f32_0_10_n20", 0, 0, 10, 20, CT_FLOAT32},
        {"randint_f32_0_2p30_n20", 0, 0, INT64_C(1) << 30, 20, CT_FLOAT32},
        {"randint_f32_0_2p24_n20", 0, 0, INT64_C(1) << 24, 20, CT_FLOAT32},
        {"randint_f64_0_2p40_n20", 0, 0, INT64_C(1) << 40, 20, CT_FLOAT64},
        {"randint_f64_0_2p30_n20", 0, 0, INT64_C(1) << 30, 20, CT_FLOAT64},
        {"randint_f16_0_100_n20", 0, 0, 100, 20, CT_FLOAT16},
        {"randint_bf16_0_100_n20", 0, 0, 100, 20, CT_BFLOAT16},
        {"randint_bool_0_2_n20", 0, 0, 2, 20, CT_BOOL},
        {"random_from_to_f32_m3_7_n20", 0, -3, 7, 20, CT_FLOAT32},
        {"randint_f32_m2p30m100_0_n20", 0, -((INT64_C(1) << 30) + 100), 0, 20, CT_FLOAT32},
        {"randint_f16_0_5000_n20", 0, 0, 5000, 20, CT_FLOAT16},
    };
    for (size_t k = 0; k < sizeof ri / sizeof ri[0]; k++) {
        ct_manual_seed(ri[k].seed);
        check_randint(json, ri[k].key, NULL, ri[k].n, ri[k].dt, ri[k].lo, ri[k].hi);
    }

    /* random_(from, None) and the full int64 range */
    static const struct {
        const char *key;
        int64_t from;
        ct_dtype dt;
    } rn[] = {
        {"random_from_none_f16_5_n20", 5, CT_FLOAT16},      {"random_from_none_f32_0_n20", 0, CT_FLOAT32},
        {"random_from_none_i64_5_n20", 5, CT_INT64},        {"random_from_none_bool_0_n20", 0, CT_BOOL},
        {"random_full_i64_n20", INT64_MIN, CT_INT64},       {"random_full_f32_n20", INT64_MIN, CT_FLOAT32},
    };
    for (size_t k = 0; k < sizeof rn / sizeof rn[0]; k++) {
        ct_manual_seed(0);
        check_random(json, rn[k].key, NULL, 20, rn[k].dt, rn[k].from, NULL);
    }

    /* explicit generators */
    static const uint64_t seeds[] = {0, 1, 2024, (UINT64_C(1) << 32) + 7, (UINT64_C(1) << 63) + 11};
    for (int k = 0; k < 5; k++) {
        CHECK_INT_EQ(ct_generator_manual_seed(g, seeds[k]), 0);
        char pre[64];
        snprintf(pre, sizeof pre, "gen_s%llu_", (unsigned long long)seeds[k]);
        uint64_t is = ct_generator_initial_seed(g);
        snprintf(key, sizeof key, "%sinitial_seed", pre);
        compare(json, key, &is, 1, CT_INT64);
        snprintf(key, sizeof key, "%srandn20", pre);
        check_randn(json, key, g, 20, CT_FLOAT32);
        snprintf(key, sizeof key, "%srandn5", pre);
        check_randn(json, key, g, 5, CT_FLOAT32);
        snprintf(key, sizeof key, "%srand7", pre);
        check_uniform(json, key, g, 7, CT_FLOAT32, 0, 1);
        snprintf(key, sizeof key, "%srandint", pre);
        check_randint(json, key, g, 9, CT_INT64, 0, 1000);
    }
    /* a private generator leaves the default one alone */
    ct_manual_seed(3);
    CHECK_INT_EQ(ct_generator_manual_seed(g, 3), 0);
    check_randn(json, "gen_private_vs_default_g", g, 4, CT_FLOAT32);
    check_randn(json, "gen_private_vs_default_default", NULL, 4, CT_FLOAT32);
    ct_generator_release(g);
    /* torch.Generator() without manual_seed */
    g = ct_generator_new();
    CHECK(g != NULL);
    check_randn(json, "gen_unseeded_randn20", g, 20, CT_FLOAT32);
    ct_generator_release(g);
    /* g = torch.Generator().manual_seed(1); randn(8, 16); randint(0, 4, (8,)) */
    g = ct_generator_new();
    CHECK(g != NULL);
    CHECK_INT_EQ(ct_generator_manual_seed(g, 1), 0);
    check_randn(json, "gen1_randn_8x16", g, 128, CT_FLOAT32);
    check_randint(json, "gen1_randint_0_4_n8", g, 8, CT_INT64, 0, 4);
    ct_generator_release(g);
}

/* ---- PyTorch 1.13 recordings (the same streams) ------------------------------------------------ */

static void test_torch113(const char *draws, const char *blocks) {
    char key[64];
    static const int64_t sizes[] = {2, 5, 15, 16, 17, 20, 33, 100};
    for (int k = 0; k < 8; k++) {
        snprintf(key, sizeof key, "randn%lld", (long long)sizes[k]);
        ct_manual_seed(0);
        check_randn(draws, key, NULL, sizes[k], CT_FLOAT32);
    }
    ct_manual_seed(0);
    check_randn(draws, "randn_d5", NULL, 5, CT_FLOAT64);
    ct_manual_seed(0);
    check_randn(draws, "randn_d20", NULL, 20, CT_FLOAT64);
    ct_manual_seed(0);
    check_uniform(draws, "rand10", NULL, 10, CT_FLOAT32, 0, 1);
    ct_manual_seed(0);
    check_uniform(draws, "rand_d5", NULL, 5, CT_FLOAT64, 0, 1);
    ct_manual_seed(0);
    check_randint(draws, "randint", NULL, 10, CT_INT64, 0, 10);
    ct_manual_seed(0);
    check_randint(draws, "randint_big", NULL, 5, CT_INT64, 0, INT64_C(1) << 30);
    static const int fans[] = {3, 5, 7, 10, 784};
    for (int k = 0; k < 5; k++) {
        double b = 1.0 / sqrt((double)fans[k]);
        snprintf(key, sizeof key, "unif%d", fans[k]);
        ct_manual_seed(0);
        check_uniform(draws, key, NULL, 1000, CT_FLOAT32, -b, b);
    }
    ct_manual_seed(0);
    check_uniform(draws, "unif_2_7.5", NULL, 1000, CT_FLOAT32, 2.0, 7.5);
    /* nn.Linear(3, 2) at seed 0 and nn.Linear(784, 10) at seed 42 */
    ct_manual_seed(0);
    check_uniform(draws, "lin_w", NULL, 6, CT_FLOAT32, -kaiming_bound(3), kaiming_bound(3));
    check_uniform(draws, "lin_b", NULL, 2, CT_FLOAT32, -1 / sqrt(3.0), 1 / sqrt(3.0));
    ct_manual_seed(42);
    check_uniform(draws, "lin784_w", NULL, 7840, CT_FLOAT32, -kaiming_bound(784), kaiming_bound(784));
    check_uniform(draws, "lin784_b", NULL, 10, CT_FLOAT32, -1 / sqrt(784.0), 1 / sqrt(784.0));
    {
        float v[4];
        ct_manual_seed(0);
        ct_rng_normal(NULL, v, 3, CT_FLOAT32, 0, 1, true);
        ct_rng_normal(NULL, v + 3, 1, CT_FLOAT32, 0, 1, true);
        compare(draws, "seq", v, 4, CT_FLOAT32);
    }
    for (int s = 0; s < 5; s++) {
        snprintf(key, sizeof key, "big%d", s);
        ct_manual_seed((uint64_t)s);
        check_randn(blocks, key, NULL, 2000, CT_FLOAT32);
    }
}

/* ---- API behaviour ------------------------------------------------------------------------------ */

struct draw_job {
    ct_generator *g;
    uint32_t *out;
    int n;
};

static void *draw_thread(void *arg) {
    struct draw_job *job = arg;
    for (int i = 0; i < job->n; i++) job->out[i] = ct_rng_random32(job->g);
    return NULL;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_api(void) {
    /* NULL arguments */
    ct_error_clear();
    CHECK_INT_EQ(ct_generator_manual_seed(NULL, 1), -1);
    CHECK_ERROR(CT_ERR_VALUE, "ct_generator_manual_seed: generator is NULL");
    CHECK_INT_EQ(ct_generator_initial_seed(NULL), 0);
    CHECK_ERROR(CT_ERR_VALUE, "ct_generator_initial_seed: generator is NULL");
    CHECK(ct_generator_retain(NULL) == NULL);
    ct_generator_release(NULL); /* ignored */
    CHECK_INT_EQ(ct_generator_keyset(NULL), CT_KEYSET_EMPTY);

    /* unsupported dtypes */
    int64_t iv[4];
    bool bv[4];
    CHECK_INT_EQ(ct_rng_uniform(NULL, iv, 4, CT_INT64, 0, 1), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "\"check_uniform_bounds\" not implemented for 'Long'");
    CHECK_INT_EQ(ct_rng_normal(NULL, bv, 4, CT_BOOL, 0, 1, true), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "\"normal_kernel_cpu\" not implemented for 'Bool'");
    CHECK_INT_EQ(ct_rng_random_from_to(NULL, iv, 4, CT_DTYPE_UNDEFINED, 0, 5), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, NULL);
    /* the operators' argument checks, with PyTorch 2.6's messages */
    int64_t base;
    uint64_t range;
    int64_t to;
    to = 5;
    CHECK_INT_EQ(ct_rng_random_bounds(CT_INT64, 5, &to, &base, &range), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    to = 100000;
    CHECK_INT_EQ(ct_rng_random_bounds(CT_FLOAT16, 0, &to, &base, &range), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "to - 1 is out of bounds for c10::Half");
    to = 70001;
    CHECK_INT_EQ(ct_rng_random_bounds(CT_FLOAT16, 70000, &to, &base, &range), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "from is out of bounds for c10::Half");
    to = 3;
    CHECK_INT_EQ(ct_rng_random_bounds(CT_BOOL, 0, &to, &base, &range), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "to - 1 is out of bounds for bool");
    to = (INT64_C(1) << 25) + 2;
    CHECK_INT_EQ(ct_rng_random_bounds(CT_FLOAT32, (INT64_C(1) << 25) + 1, &to, &base, &range), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                                "but got from=33554436 >= to=33554434");
    to = INT64_C(1) << 30; /* narrowed to 2^30 - 64 for float32 (update_to) */
    CHECK_INT_EQ(ct_rng_random_bounds(CT_FLOAT32, 0, &to, &base, &range), 0);
    CHECK_INT_EQ(base, 0);
    CHECK(range == (UINT64_C(1) << 30) - 64);
    CHECK_INT_EQ(ct_rng_random_bounds(CT_INT64, INT64_MIN, NULL, &base, &range), 0);
    CHECK(base == INT64_MIN && range == 0);
    CHECK_INT_EQ(ct_rng_random_from_to(NULL, bv, 4, CT_BOOL, 0, 0), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "\"random_full_64_bits_range_kernel_cpu\" not implemented for 'Bool'");
    double ufrom = 2.5, uto = 1.25;
    CHECK_INT_EQ(ct_rng_uniform_bounds(CT_FLOAT32, &ufrom, &uto), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=2.5 > to=1.25");
    ufrom = 0, uto = 1e6;
    CHECK_INT_EQ(ct_rng_uniform_bounds(CT_FLOAT16, &ufrom, &uto), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "to is out of bounds for c10::Half");
    ufrom = -60000, uto = 60000;
    CHECK_INT_EQ(ct_rng_uniform_bounds(CT_FLOAT16, &ufrom, &uto), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "uniform_ expects to-from <= std::numeric_limits<Half>::max(), but found to=60000 "
                                "and from=-60000 which result in to-from to exceed the limit");
    CHECK_INT_EQ(ct_rng_uniform_bounds(CT_INT64, &ufrom, &uto), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "\"check_uniform_bounds\" not implemented for 'Long'");
    ufrom = -0.5, uto = 0.25;
    CHECK_INT_EQ(ct_rng_uniform_bounds(CT_BFLOAT16, &ufrom, &uto), 0);
    CHECK(ufrom == -0.5 && uto == 0.25);
    CHECK_INT_EQ(ct_rng_normal_check(-1.5), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std -1.5");
    CHECK_INT_EQ(ct_rng_normal_check(-1), -1);
    CHECK_ERROR(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std -1");
    CHECK_INT_EQ(ct_rng_normal_check(0.0), 0);

    /* n == 0 draws nothing */
    ct_manual_seed(9);
    uint32_t w0 = ct_rng_random32(NULL);
    ct_manual_seed(9);
    CHECK_INT_EQ(ct_rng_normal(NULL, NULL, 0, CT_FLOAT32, 0, 1, true), 0);
    CHECK_INT_EQ(ct_rng_uniform(NULL, NULL, 0, CT_FLOAT64, 0, 1), 0);
    CHECK_INT_EQ(ct_rng_random_from_to(NULL, NULL, 0, CT_INT64, 0, 3), 0);
    CHECK_INT_EQ(ct_rng_random32(NULL), w0);

    /* a failed allocation is reported, not fatal */
    ct_testing_fail_alloc_after(1);
    CHECK(ct_generator_new() == NULL);
    CHECK_ERROR(CT_ERR_NOMEM, NULL);
    ct_testing_fail_alloc_after(0);

    /* key set: DispatchKeySet(CPU) */
    ct_generator *g = ct_generator_new();
    CHECK(g != NULL);
    CHECK_INT_EQ(ct_generator_keyset(g), ct_keyset_of(CT_KEY_CPU));
    CHECK_INT_EQ(ct_generator_keyset(ct_default_generator()), ct_keyset_of(CT_KEY_CPU));

    /* reference counting */
    CHECK(ct_generator_retain(g) == g);
    ct_generator_release(g); /* back to one reference */
    CHECK_INT_EQ(ct_generator_initial_seed(g), CT_DEFAULT_RNG_SEED);

    /* random64 = (first word << 32) | second word */
    CHECK_INT_EQ(ct_generator_manual_seed(g, 77), 0);
    uint64_t hi = ct_rng_random32(g), lo = ct_rng_random32(g);
    CHECK_INT_EQ(ct_generator_manual_seed(g, 77), 0);
    CHECK(ct_rng_random64(g) == ((hi << 32) | lo));
    /* MT19937 with seed 5489 (the reference implementation's default): the 10000th output is
     * 4123659995 (the value the C++ standard requires of std::mt19937) */
    CHECK_INT_EQ(ct_generator_manual_seed(g, 5489), 0);
    uint32_t w = 0;
    for (int i = 0; i < 10000; i++) w = ct_rng_random32(g);
    CHECK_INT_EQ(w, 4123659995u);
    /* only the low 32 bits of the seed reach the engine */
    CHECK_INT_EQ(ct_generator_manual_seed(g, (UINT64_C(1) << 32) + 5489), 0);
    CHECK_INT_EQ(ct_generator_initial_seed(g), (UINT64_C(1) << 32) + 5489);
    for (int i = 0; i < 10000; i++) w = ct_rng_random32(g);
    CHECK_INT_EQ(w, 4123659995u);

    /* the default generator: borrowed, immortal, seeded by ct_manual_seed */
    ct_generator *d = ct_default_generator();
    CHECK(d != NULL && d == ct_default_generator());
    CHECK(ct_generator_retain(d) == d);
    ct_generator_release(d);
    ct_generator_release(d); /* releasing the default generator never frees it */
    ct_manual_seed(31);
    CHECK_INT_EQ(ct_generator_initial_seed(d), 31);
    uint32_t a = ct_rng_random32(NULL);
    CHECK_INT_EQ(ct_generator_manual_seed(g, 31), 0);
    CHECK_INT_EQ(ct_rng_random32(g), a);

    /* thread safety: two threads share one generator; together they consume exactly the first
     * 2n words of the stream, each word once */
    enum { N = 20000 };
    uint32_t *t1 = malloc(N * sizeof *t1), *t2 = malloc(N * sizeof *t2), *all = malloc(2 * N * sizeof *all);
    CHECK(t1 && t2 && all);
    if (t1 && t2 && all) {
        CHECK_INT_EQ(ct_generator_manual_seed(g, 2), 0);
        struct draw_job j1 = {g, t1, N}, j2 = {g, t2, N};
        pthread_t th1, th2;
        CHECK_INT_EQ(pthread_create(&th1, NULL, draw_thread, &j1), 0);
        CHECK_INT_EQ(pthread_create(&th2, NULL, draw_thread, &j2), 0);
        pthread_join(th1, NULL);
        pthread_join(th2, NULL);
        memcpy(all, t1, N * sizeof *t1);
        memcpy(all + N, t2, N * sizeof *t2);
        qsort(all, 2 * N, sizeof *all, cmp_u32);
        CHECK_INT_EQ(ct_generator_manual_seed(g, 2), 0);
        uint32_t *seq = malloc(2 * N * sizeof *seq);
        CHECK(seq != NULL);
        if (seq) {
            for (int i = 0; i < 2 * N; i++) seq[i] = ct_rng_random32(g);
            qsort(seq, 2 * N, sizeof *seq, cmp_u32);
            CHECK(memcmp(seq, all, 2 * N * sizeof *seq) == 0);
            free(seq);
        }
    }
    free(t1);
    free(t2);
    free(all);
    ct_generator_release(g);
}

int main(void) {
    CHECK_INT_EQ(ct_init(), 0); /* the library starts first (ctorch/init.h) */
    size_t len;
    char *j26 = ct_test_read_file(ct_test_source("tests/golden/torch-2.6/rng_draws.json"), &len);
    CHECK_MSG(j26 != NULL, "cannot read tests/golden/torch-2.6/rng_draws.json");
    if (j26) test_torch26(j26);
    char *j113 = ct_test_read_file(ct_test_shared("reference/rng/torch1.13_draws.json"), &len);
    char *b113 = ct_test_read_file(ct_test_shared("reference/rng/torch1.13_randn_blocks.json"), &len);
    CHECK_MSG(j113 && b113, "cannot read the 1.13 recordings under %s", CT_SHARED_DIR);
    if (j113 && b113) test_torch113(j113, b113);
    free(j26);
    free(j113);
    free(b113);
    test_api();
    printf("test_rng: %ld keys, %ld values compared bit for bit, %ld mismatches\n", keys_compared,
           values_compared, values_mismatched);
    return ct_test_finish("test_rng");
}
