/* Tensor.tolist(): the values as Python prints the nested list, and exact integer access. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/tensor_impl.h"
#include "ctorch/error.h"
#include "ctorch/tensor.h"
#include "util/pyfloat.h"
#include "util/strbuf.h"

static void put_elem(ct_strbuf *b, const ct_tensor *t, int64_t linear) {
    const void *p = ct_tensor_elem_ptr(t, linear);
    if (t->dtype == CT_BOOL) {
        ct_sb_printf(b, "%s", *(const unsigned char *)p ? "True" : "False");
    } else if (ct_dtype_is_integral(t->dtype, false)) {
        ct_sb_printf(b, "%" PRId64, ct_elem_load_int64(p, t->dtype));
    } else {
        char r[CT_PY_FLOAT_REPR_MAX];
        ct_py_float_repr(ct_load_as_double(p, t->dtype), r);
        ct_sb_printf(b, "%s", r);
    }
}

/* dimension d of the nested list, starting at the row-major element index *linear */
static void put_dim(ct_strbuf *b, const ct_tensor *t, int d, int64_t *linear) {
    if (d == t->ndim) {
        put_elem(b, t, (*linear)++);
        return;
    }
    ct_sb_printf(b, "[");
    for (int64_t i = 0; i < t->sizes[d]; i++) {
        if (i) ct_sb_printf(b, ", ");
        put_dim(b, t, d + 1, linear);
    }
    ct_sb_printf(b, "]");
}

char *ct_tensor_tolist(const ct_tensor *t) {
    if (!t) {
        ct_error_set(CT_ERR_VALUE, "ct_tensor_tolist: tensor is NULL");
        return NULL;
    }
    if (t->numel > 0 && (!t->storage || !t->storage->data)) {
        ct_error_set(CT_ERR_RUNTIME, "Cannot access data of a tensor without storage");
        return NULL;
    }
    ct_strbuf b = CT_STRBUF_INIT;
    int64_t linear = 0;
    put_dim(&b, t, 0, &linear);
    return ct_sb_finish(&b);
}

int ct_tensor_to_int64s(const ct_tensor *t, int64_t *out, int64_t n) {
    if (!t || (!out && t->numel > 0)) return ct_error_set(CT_ERR_VALUE, "ct_tensor_to_int64s: NULL argument");
    if (!ct_dtype_is_integral(t->dtype, true))
        return ct_error_set(CT_ERR_TYPE, "ct_tensor_to_int64s: expected an integer or bool tensor, got %s",
                            ct_dtype_name(t->dtype));
    if (n < t->numel)
        return ct_error_set(CT_ERR_VALUE, "ct_tensor_to_int64s: buffer holds %lld values, tensor has %lld", (long long)n,
                            (long long)t->numel);
    if (t->numel > 0 && (!t->storage || !t->storage->data))
        return ct_error_set(CT_ERR_RUNTIME, "Cannot access data of a tensor without storage");
    for (int64_t i = 0; i < t->numel; i++) out[i] = ct_elem_load_int64(ct_tensor_elem_ptr(t, i), t->dtype);
    return 0;
}
