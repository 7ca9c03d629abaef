/* randperm (TensorFactories.cpp): a tensor of n elements (int64 unless a dtype is given) holding
 * 0 .. n-1, shuffled by PyTorch's CPU kernel: for i from 0 to n - 2, swap element i with element
 * i + z, z = (one 32-bit generator word) mod (n - i). So a seed gives PyTorch's permutation. */
#include "core/alloc.h"
#include "core/dtype_impl.h"
#include "ops/kernel_util.h"
#include "random/rng.h"

/* PyTorch shuffles larger n with another algorithm (one 64-bit word per step, its own bounds):
 * below this the 32-bit loop above is the one it runs */
#define RANDPERM_SMALL_N (INT64_C(4294967295) / 20)

static ct_generator *gen_arg(const ct_value *v) { return v->tag == CT_TAG_GENERATOR ? v->u.g : NULL; }

static int randperm_fill(ct_tensor *result, int64_t n, ct_generator *g) {
    ct_dtype dt = result->dtype;
    if (dt == CT_FLOAT16 || dt == CT_FLOAT32 || dt == CT_FLOAT64) {
        /* check_supported_max_int_with_precision (which PyTorch 2.6 does not run for bfloat16) */
        int64_t max = (INT64_C(1) << ct_dtype_digits(dt)) + 1;
        if (n > max)
            return ct_error_set(CT_ERR_RUNTIME, "n cannot be greater than %lld for %s type.", (long long)max,
                                ct_dtype_name(dt));
    } else if (dt == CT_BOOL) {
        return ct_rng_not_implemented("randperm", dt);
    }
    if (n >= RANDPERM_SMALL_N)
        return ct_error_set(CT_ERR_UNSUPPORTED,
                            "randperm of n >= %lld (PyTorch's algorithm for large n) is not implemented in ctorch",
                            (long long)RANDPERM_SMALL_N);
    if (n == 0) return 0;
    int64_t *perm = ct_malloc(sizeof(int64_t) * (size_t)n);
    if (!perm) return -1;
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    g = ct_rng_lock(g);
    for (int64_t i = 0; i < n - 1; i++) {
        int64_t z = (int64_t)ct_rng_next32_locked(g) % (n - i);
        int64_t save = perm[i];
        perm[i] = perm[z + i];
        perm[z + i] = save;
    }
    ct_rng_unlock(g);
    char *out = ct_tensor_data_ptr(result);
    size_t es = ct_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) ct_store_from_double(out + (size_t)i * es, dt, (double)perm[i]);
    ct_free(perm);
    return 0;
}

static int randperm_impl(const ct_op *op, ct_value *args, ct_generator *g, int dtype_at, ct_value *rets) {
    if (ct_check_options(op, args) != 0) return -1;
    int64_t n = args[0].u.i;
    /* empty's negative-dimension error comes before randperm_out_cpu's own check of n */
    ct_tensor *t = ct_empty(&n, 1, ct_arg_dtype(&args[dtype_at], CT_INT64), CT_MEMORY_FORMAT_NONE);
    if (!t) return -1;
    if (randperm_fill(t, n, g) != 0) {
        ct_tensor_release(t);
        return -1;
    }
    return ct_ret(rets, 0, t);
}

/* randperm(SymInt n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) */
int ct_k_randperm(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return randperm_impl(op, args, NULL, 1, rets);
}

/* randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=4, ...) */
int ct_k_randperm_generator(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)ks;
    return randperm_impl(op, args, gen_arg(&args[1]), 2, rets);
}
