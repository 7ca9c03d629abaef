/* Padding: constant_pad_nd (PadNd.cpp, CompositeExplicitAutograd), reflection_pad{1,2,3}d and
 * replication_pad{1,2,3}d with their backward ops (ReflectionPad.cpp, ReplicationPadding.cpp,
 * PaddingKernel.cpp, padding.h). Messages are PyTorch 2.6's.
 *
 * The reflecting and replicating pads map output position j of a padded dimension (input size n,
 * left pad l, either sign) to input position x = j - l, reflected as -x below 0 and as
 * 2 (n - 1) - x past the end, or clamped to [0, n - 1]. The backward ops walk the output
 * positions in row-major order and add each gradient into the input position it came from, as
 * PyTorch's CPU kernel does (so float sums come out in its order). */
#include <stdio.h>
#include <string.h>

#include "ops/kernel_util.h"

/* ---- constant_pad_nd ------------------------------------------------------------------------- */

/* constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor */
int ct_k_constant_pad_nd(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    ct_tensor *self = ARG_T(0);
    const int64_t *pad = args[1].u.list.data;
    int64_t np = args[1].u.list.len;
    if (np % 2 != 0) return ct_error_set(CT_ERR_RUNTIME, "Length of pad must be even but instead it equals %lld", (long long)np);
    int64_t l_inp = self->ndim, l_pad = np / 2, l_diff = l_inp - l_pad;
    if (l_inp < l_pad)
        return ct_error_set(CT_ERR_RUNTIME,
                            "Length of pad should be no more than twice the number of dimensions of the input. Pad length is %lldwhile "
                            "the input has %llddimensions.",
                            (long long)np, (long long)l_inp);
    bool all_non_positive = true;
    ct_tensor *c_input = ct_tensor_retain(self);
    for (int64_t i = l_diff; i < l_inp; i++) {
        int64_t k = 2 * (l_inp - i - 1);
        ct_tensor *nx = NULL;
        if (pad[k] < 0) {
            nx = ct_narrow(c_input, i, -pad[k], c_input->sizes[i] + pad[k]);
        } else if (pad[k] != 0) {
            all_non_positive = false;
        }
        if (nx) {
            ct_tensor_release(c_input);
            c_input = nx;
            nx = NULL;
        } else if (pad[k] < 0) {
            ct_tensor_release(c_input);
            return -1;
        }
        if (pad[k + 1] < 0) {
            nx = ct_narrow(c_input, i, 0, c_input->sizes[i] + pad[k + 1]);
            ct_tensor_release(c_input);
            if (!nx) return -1;
            c_input = nx;
        } else if (pad[k + 1] != 0) {
            all_non_positive = false;
        }
    }
    if (all_non_positive) {
        ct_tensor *r = ct_clone(c_input, CT_MEMORY_FORMAT_NONE);
        ct_tensor_release(c_input);
        return ct_ret(rets, 0, r);
    }
    int64_t shape[CT_MAX_DIMS];
    for (int64_t i = 0; i < l_diff; i++) shape[i] = self->sizes[i];
    for (int64_t i = 0; i < l_pad; i++) {
        int64_t k = np - (i + 1) * 2;
        int64_t nd = self->sizes[l_diff + i] + pad[k] + pad[k + 1];
        if (nd <= 0) {
            ct_tensor_release(c_input);
            return ct_error_set(CT_ERR_RUNTIME,
                                "The input size %lld, plus negative padding %lld and %lld resulted in a negative output size, which is "
                                "invalid. Check dimension %lld of your input.",
                                (long long)self->sizes[l_diff + i], (long long)pad[k], (long long)pad[k + 1], (long long)(l_diff + i));
        }
        shape[l_diff + i] = nd;
    }
    ct_tensor *out = ct_empty(shape, l_inp, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out || ct_fill_(out, args[2]) != 0) {
        ct_tensor_release(out);
        ct_tensor_release(c_input);
        return -1;
    }
    ct_tensor *c_out = ct_tensor_retain(out);
    int rc = 0;
    for (int64_t i = l_diff; i < l_inp && rc == 0; i++) {
        int64_t k = 2 * (l_inp - i - 1);
        if (pad[k] > 0) {
            ct_tensor *nx = ct_narrow(c_out, i, pad[k], c_out->sizes[i] - pad[k]);
            ct_tensor_release(c_out);
            c_out = nx;
            if (!nx) rc = -1;
        }
        if (rc == 0 && pad[k + 1] > 0) {
            ct_tensor *nx = ct_narrow(c_out, i, 0, c_out->sizes[i] - pad[k + 1]);
            ct_tensor_release(c_out);
            c_out = nx;
            if (!nx) rc = -1;
        }
    }
    if (rc == 0) rc = ct_copy_(c_out, c_input, false);
    ct_tensor_release(c_out);
    ct_tensor_release(c_input);
    if (rc != 0) {
        ct_tensor_release(out);
        return -1;
    }
    return ct_ret(rets, 0, out);
}

/* ---- reflection and replication ---------------------------------------------------------------- */

typedef struct pad_geom {
    int k;                      /* padded dims: 1, 2, 3 */
    int lead;                   /* the dims before them (1, or 2 in batch mode) */
    int64_t in[3], out[3];      /* per padded dim, in order D, H, W (the last k dims) */
    int64_t lpad[3], rpad[3];
} pad_geom;

/* padding::check_valid_input<k>, then the sizes. reflect: the "less than the input" checks */
static int pad_geometry(const ct_tensor *input, const ct_value *padding, int k, bool reflect, pad_geom *g) {
    int64_t np = padding->u.list.len;
    const int64_t *p = padding->u.list.data;
    /* reflection_pad's check names what it got, replication_pad's does not (PyTorch 2.6's two meta functions) */
    if (np != 2 * k && reflect)
        return ct_error_set(CT_ERR_RUNTIME, "padding size is expected to be %d, but got: %lld", 2 * k, (long long)np);
    if (np != 2 * k) return ct_error_set(CT_ERR_RUNTIME, "padding size is expected to be %d", 2 * k);
    int nd = input->ndim;
    bool batch = nd == k + 2;
    bool ok_batch = batch, ok_plain = !batch;
    if (batch)
        for (int i = 1; i < nd; i++) ok_batch = ok_batch && input->sizes[i] != 0;
    else
        for (int i = 0; i < nd; i++) ok_plain = ok_plain && input->sizes[i] != 0;
    if (!(ok_batch || (ok_plain && nd == k + 1))) {
        char s[256];
        ct_format_shape(input->sizes, input->ndim, s, sizeof s);
        return ct_error_set(CT_ERR_RUNTIME,
                            "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
                            "but got: %s",
                            k + 1, k + 2, s);
    }
    g->k = k;
    g->lead = nd - k;
    for (int i = 0; i < k; i++) {
        /* padding lists W first: (left, right, top, bottom, front, back) */
        int q = k - 1 - i;
        g->in[i] = input->sizes[g->lead + i];
        g->lpad[i] = p[2 * q];
        g->rpad[i] = p[2 * q + 1];
        g->out[i] = g->in[i] + g->lpad[i] + g->rpad[i];
    }
    char s[256];
    ct_format_shape(input->sizes, input->ndim, s, sizeof s);
    if (reflect) {
        for (int i = k - 1; i >= 0; i--) {
            if (!(g->lpad[i] < g->in[i] && g->rpad[i] < g->in[i]))
                return ct_error_set(CT_ERR_RUNTIME,
                                    "Argument #%d: Padding size should be less than the corresponding input dimension, but got: padding "
                                    "(%lld, %lld) at dimension %d of input %s",
                                    4 + 2 * (k - 1 - i), (long long)g->lpad[i], (long long)g->rpad[i], g->lead + i, s);
        }
    }
    bool any = false, all = true;
    for (int i = 0; i < k; i++) {
        any = any || g->out[i] >= 1;
        all = all && g->out[i] >= 1;
    }
    bool fine = k == 1 ? all : any;
    if (!fine) {
        if (k == 1)
            return ct_error_set(CT_ERR_RUNTIME, "input (W: %lld) is too small. Calculated output W: %lld", (long long)g->in[0],
                                (long long)g->out[0]);
        if (k == 2)
            return ct_error_set(CT_ERR_RUNTIME,
                                reflect ? "input (H: %lld, W: %lld) is too small. Calculated output H: %lld W: %lld"
                                        : "input (H: %lld, W: %lld ) is too small. Calculated output H: %lld W: %lld",
                                (long long)g->in[0], (long long)g->in[1], (long long)g->out[0], (long long)g->out[1]);
        return ct_error_set(CT_ERR_RUNTIME, "input (D: %lld H: %lld, W: %lld) is too small. Calculated output D: %lld H: %lld W: %lld",
                            (long long)g->in[0], (long long)g->in[1], (long long)g->in[2], (long long)g->out[0], (long long)g->out[1],
                            (long long)g->out[2]);
    }
    return 0;
}

static inline int64_t map_pos(int64_t j, int64_t n, int64_t l, bool reflect) {
    int64_t x = j - l;
    if (reflect) {
        if (x < 0) x = -x;
        if (x >= n) x = 2 * (n - 1) - x;
    } else {
        if (x < 0) x = 0;
        if (x >= n) x = n - 1;
    }
    return x;
}

/* out (the padded shape) from in, or (backward) gin += gout scattered back. */
static void pad_walk(const pad_geom *g, const ct_tensor *a, const ct_tensor *b, bool reflect, bool backward) {
    /* a: the input (or grad_input), b: the output (or grad_output); both have the lead dims */
    const ct_tensor *outer = b;
    int nd = outer->ndim;
    size_t es = ct_dtype_size(a->dtype);
    ct_dtype d = a->dtype;
    int64_t total = outer->numel;
    if (total == 0) return;
    int64_t c[CT_MAX_DIMS] = {0};
    char *abase = ct_tensor_data_ptr(a), *bbase = ct_tensor_data_ptr(b);
    for (int64_t i = 0; i < total; i++) {
        int64_t ao = 0, bo = 0;
        for (int q = 0; q < nd; q++) {
            bo += c[q] * b->strides[q];
            int64_t x = q < g->lead ? c[q] : map_pos(c[q], g->in[q - g->lead], g->lpad[q - g->lead], reflect);
            ao += x * a->strides[q];
        }
        char *ap = abase + (size_t)ao * es, *bp = bbase + (size_t)bo * es;
        if (!backward) memcpy(bp, ap, es);
        else if (d == CT_FLOAT32) *(float *)(void *)ap += *(const float *)(const void *)bp;
        else if (d == CT_FLOAT64) *(double *)(void *)ap += *(const double *)(const void *)bp;
        else ct_elem_store(ap, d, ct_elem_load(ap, d) + ct_elem_load(bp, d));
        for (int q = nd - 1; q >= 0; q--) {
            if (++c[q] < outer->sizes[q]) break;
            c[q] = 0;
        }
    }
}

static int check_pad_dtype(const ct_tensor *t, const char *name) {
    if (t->dtype == CT_BOOL) return ct_error_set(CT_ERR_RUNTIME, "\"%s\" not implemented for 'Bool'", name);
    return 0;
}

static int pad_forward(ct_value *args, int k, bool reflect, const char *name, ct_value *rets) {
    ct_tensor *self = ARG_T(0);
    pad_geom g;
    if (pad_geometry(self, &args[1], k, reflect, &g) != 0) return -1;
    if (check_pad_dtype(self, name) != 0) return -1;
    int64_t shape[CT_MAX_DIMS];
    for (int i = 0; i < g.lead; i++) shape[i] = self->sizes[i];
    for (int i = 0; i < k; i++) shape[g.lead + i] = g.out[i];
    ct_tensor *out = ct_empty(shape, self->ndim, self->dtype, CT_MEMORY_FORMAT_NONE);
    if (!out) return -1;
    pad_walk(&g, self, out, reflect, false);
    return ct_ret(rets, 0, out);
}

static int pad_backward(ct_value *args, int k, bool reflect, const char *name, ct_value *rets) {
    ct_tensor *gout = ARG_T(0), *self = ARG_T(1);
    pad_geom g;
    if (pad_geometry(self, &args[2], k, reflect, &g) != 0) return -1;
    if (check_pad_dtype(self, name) != 0) return -1;
    for (int i = 0; i < k; i++) {
        int64_t w;
        if (ct_wrap_dim(g.lead + i, gout->ndim, &w) != 0) return -1; /* grad_output.size(dim) */
        if (gout->sizes[w] != g.out[i])
            return ct_error_set(CT_ERR_RUNTIME, "grad_output %s unexpected. Expected: %lld, Got: %lld",
                                k == 1 ? "width" : (i == k - 1 ? "width" : (i == k - 2 ? "height" : "depth")), (long long)g.out[i],
                                (long long)gout->sizes[w]);
    }
    if (gout->ndim != self->ndim) { /* more dimensions than self: the walk below needs self's */
        char a[256];
        ct_format_shape(gout->sizes, gout->ndim, a, sizeof a);
        return ct_error_set(CT_ERR_RUNTIME, "ctorch: %s's grad_output of shape %s has not self's dimensions", name, a);
    }
    ct_tensor *gin = ct_tensor_alloc(self->sizes, self->ndim, self->dtype, true);
    if (!gin) return -1;
    ct_tensor *go = ct_tensor_retain(gout);
    pad_walk(&g, gin, go, reflect, true);
    ct_tensor_release(go);
    return ct_ret(rets, 0, gin);
}

#define PAD_KERNELS(kind, k, reflect)                                                                            \
    int ct_k_##kind##_pad##k##d(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {                \
        (void)op;                                                                                                \
        (void)ks;                                                                                                \
        return pad_forward(args, k, reflect, #kind "_pad" #k "d", rets);                                         \
    }                                                                                                            \
    int ct_k_##kind##_pad##k##d_backward(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {       \
        (void)op;                                                                                                \
        (void)ks;                                                                                                \
        return pad_backward(args, k, reflect, #kind "_pad" #k "d_backward", rets);                               \
    }

PAD_KERNELS(reflection, 1, true)
PAD_KERNELS(reflection, 2, true)
PAD_KERNELS(reflection, 3, true)
PAD_KERNELS(replication, 1, false)
PAD_KERNELS(replication, 2, false)
PAD_KERNELS(replication, 3, false)
